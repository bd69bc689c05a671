// The proving engine (src/engine) on the CPU backend: queue order, memory budget, registry, and the
// whole pipeline on the mimc fixture (every proof verifies), with failures, cancels, a tiny budget,
// idempotent resubmission, shutdown, and a fake slow backend showing that GPU workers loop back
// before finalize ends.
#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "engine/engine.hpp"
#include "engine/loaders.hpp"
#include "engine/memory.hpp"
#include "engine/pipeline.hpp"
#include "engine/queue.hpp"
#include "engine/registry.hpp"
#include "engine/synthesis.hpp"
#include "engine/tracker.hpp"
#include "formats/binfile.hpp"
#include "formats/params.hpp"
#include "formats/r1cs.hpp"
#include "formats/wtns.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthetic.hpp"
#include "groth16/verifier.hpp"
#include "timing.hpp"
#include "util/error.hpp"

namespace cuzk::engine {
namespace {

const std::string kData = std::string(CUZK_SOURCE_DIR) + "/tests/data/";

std::vector<uint8_t> file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

WitnessInput mimc_witness() { return {{}, nullptr, file_bytes(kData + "mimc/mimc.wtns"), {}}; }
WitnessInput tiny_witness() { return {{}, nullptr, file_bytes(kData + "tiny/mul.wtns"), {}}; }

JobRequest mimc_job(size_t partitions, Priority pr = Priority::kNormal, std::string request_id = "") {
  JobRequest r;
  r.request_id = std::move(request_id);
  r.circuit_id = "mimc";
  r.priority = pr;
  for (size_t i = 0; i < partitions; i++) r.partitions.push_back(mimc_witness());
  return r;
}

/// A job of the 1-constraint circuit (cheap: for tests of many jobs).
JobRequest tiny_job(size_t partitions, Priority pr) {
  JobRequest r;
  r.circuit_id = "tiny";
  r.priority = pr;
  for (size_t i = 0; i < partitions; i++) r.partitions.push_back(tiny_witness());
  return r;
}

/// A CPU backend and an engine serving mimc (circom) and tiny.
struct Fixture {
  explicit Fixture(EngineConfig cfg = small_config()) : backend(1), engine(std::move(cfg), {&backend}) {
    engine.circuits().add("mimc", "circom", [] { return load_circom(kData + "mimc/mimc_dev.zkey"); });
    engine.circuits().add("tiny", "circom", [] { return load_circom(kData + "tiny/mul_final.zkey"); });
    vk = load_circom(kData + "mimc/mimc_dev.zkey").key->verifying_key();
    tiny_vk = load_circom(kData + "tiny/mul_final.zkey").key->verifying_key();
  }
  static EngineConfig small_config() {
    EngineConfig c;
    c.synthesis_threads = 1;
    c.gpu_workers_per_device = 2;
    return c;
  }
  void expect_valid(const JobResult& r, size_t partitions) {
    ASSERT_EQ(r.state, JobState::kCompleted) << r.error;
    ASSERT_EQ(r.proofs.size(), partitions);
    for (size_t i = 0; i < partitions; i++) EXPECT_TRUE(verify(vk, r.public_inputs[i], r.proofs[i])) << i;
  }
  CpuBackend backend;
  Engine engine;
  VerifyingKey vk, tiny_vk;
};

// ---- stages in isolation --------------------------------------------------------------------------

struct Item {
  int priority, job, part;
};
struct ItemOrder {
  bool operator()(const Item& x, const Item& y) const {
    if (x.priority != y.priority) return x.priority > y.priority;
    if (x.job != y.job) return x.job < y.job;
    return x.part < y.part;
  }
};

TEST(EngineQueue, OrdersByPriorityThenJobThenPartition) {
  WorkQueue<Item, ItemOrder> q;
  for (Item it : {Item{1, 1, 0}, Item{2, 3, 1}, Item{2, 3, 0}, Item{4, 5, 0}, Item{2, 2, 0}, Item{1, 0, 0}}) {
    auto p = std::make_unique<Item>(it);
    ASSERT_TRUE(q.push(p));
  }
  EXPECT_EQ(q.count_before(Item{2, 3, 0}), 2u);  // {4,5,0} and {2,2,0}
  std::vector<std::tuple<int, int, int>> got;
  q.close();
  while (auto p = q.pop()) got.emplace_back(p->priority, p->job, p->part);
  std::vector<std::tuple<int, int, int>> want = {{4, 5, 0}, {2, 2, 0}, {2, 3, 0},
                                                 {2, 3, 1}, {1, 0, 0}, {1, 1, 0}};
  EXPECT_EQ(got, want);
}

/// A queued partition of a job of priority `pr`, submission order `seq` and, when `due` is set, a
/// deadline `due` from now that is urgent from `lead` before it.
std::unique_ptr<PartitionTask> task(uint64_t seq, Priority pr, std::optional<Clock::duration> due = {},
                                    Clock::duration lead = {}) {
  auto t = std::make_unique<PartitionTask>();
  t->job = std::make_shared<Job>();
  t->job->seq = seq;
  t->job->priority = pr;
  if (due) {
    t->job->deadline = Clock::now() + *due;
    t->job->urgent_from = *t->job->deadline - lead;
  }
  return t;
}

TEST(EngineQueue, NearDeadlinesGoFirstEarliestFirstAndJobsBecomeUrgentWhileQueued) {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  TaskQueue q;
  // seq 1: low, due in 5 s, urgent 10 s before (now); 2: critical, no deadline; 3: normal, due in
  // 100 s, urgent 10 s before (not yet); 4: low, due in 3 s (urgent, sooner than 1); 5: normal, due
  // in 400 ms, urgent 100 ms before it (in 300 ms; both times CUZK_TEST_TIMEOUT_SCALE on a busy machine,
  // so that 5 is not urgent yet at the first look).
  std::vector<std::unique_ptr<PartitionTask>> ts;
  ts.push_back(task(1, Priority::kLow, seconds(5), seconds(10)));
  ts.push_back(task(2, Priority::kCritical));
  ts.push_back(task(3, Priority::kNormal, seconds(100), seconds(10)));
  ts.push_back(task(4, Priority::kLow, seconds(3), seconds(10)));
  ts.push_back(task(5, Priority::kNormal, test::scaled_ms(400), test::scaled_ms(100)));
  for (auto& t : ts) ASSERT_TRUE(q.push(t));
  EXPECT_EQ(q.count_before(*task(6, Priority::kCritical)), 3u);  // 4, 1 (urgent) and 2 (older)
  std::vector<uint64_t> got;
  for (int i = 0; i < 3; i++) got.push_back(q.pop()->job->seq);
  EXPECT_EQ(got, (std::vector<uint64_t>{4, 1, 2}));
  // Not urgent yet: 3 (older) before 5.
  auto peek = task(7, Priority::kNormal);
  EXPECT_EQ(q.count_before(*peek), 2u);
  std::this_thread::sleep_for(test::scaled_ms(350));
  // 5 is urgent now and goes ahead of 3, which was queued before it.
  got.clear();
  q.close();
  while (auto t = q.pop()) got.push_back(t->job->seq);
  EXPECT_EQ(got, (std::vector<uint64_t>{5, 3}));
}

TEST(EngineQueue, BoundedPushWaitsAndRemoveIfFreesRoom) {
  WorkQueue<Item, ItemOrder> q(1);
  auto a = std::make_unique<Item>(Item{1, 1, 0});
  ASSERT_TRUE(q.push(a));
  std::atomic<bool> pushed{false};
  std::thread t([&] {
    auto b = std::make_unique<Item>(Item{1, 2, 0});
    q.push(b);
    pushed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(pushed);
  EXPECT_EQ(q.remove_if([](const Item& i) { return i.job == 1; }).size(), 1u);
  t.join();
  EXPECT_TRUE(pushed);
  EXPECT_EQ(q.size(), 1u);
}

TEST(EngineMemory, ParseSize) {
  EXPECT_EQ(parse_size("1024"), 1024u);
  EXPECT_EQ(parse_size("256GiB"), 256ull << 30);
  EXPECT_EQ(parse_size("1.5 GB"), 1500000000ull);
  EXPECT_EQ(parse_size("64mib"), 64ull << 20);
  EXPECT_GE(parse_size("auto"), 1ull << 30);
  EXPECT_THROW(parse_size("lots"), Error);
  EXPECT_THROW(parse_size("12XB"), Error);
  EXPECT_THROW(parse_size(""), Error);
  // 2^63 bytes and more are refused (a double's rounding to an integer is undefined there)
  EXPECT_EQ(parse_size("8388607TiB"), 8388607ull << 40);
  EXPECT_THROW(parse_size("8388608TiB"), Error);
  EXPECT_THROW(parse_size("99999999999999999999GiB"), Error);
}

TEST(EngineMemory, AcquireWaitsButOversizeAloneIsGranted) {
  MemoryBudget b(100);
  auto big = b.acquire(150, {});  // larger than the budget, but nothing else is held
  EXPECT_EQ(b.used(), 150u);
  std::atomic<bool> got{false};
  std::thread t([&] {
    auto r = b.acquire(10, {});
    got = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  EXPECT_FALSE(got);
  big.reset();
  t.join();
  EXPECT_TRUE(got);
  EXPECT_EQ(b.used(), 0u);
  EXPECT_EQ(b.working_peak(), 1u);
  auto x = b.acquire(60, {});
  auto y = b.acquire(60, [] { return true; });  // abandoned: does not wait
  EXPECT_EQ(y.bytes(), 0u);
}

// ---- retained results ----------------------------------------------------------------------------

/// Heap bytes in use now, all arenas (glibc's mallinfo2: allocated blocks with their headers).
size_t heap_in_use() { return mallinfo2().uordblks; }

#if defined(__SANITIZE_ADDRESS__)  // GCC
constexpr bool kAsan = true;
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

/// Creates and ends `n` jobs on `t` the way the daemon's soak mix does (1-3 partitions of a circuit
/// with one public input; every tenth under a request_id, with a 32-byte fingerprint; every fifth
/// failed with an error text, every tenth cancelled, the rest completed), on this thread only.
void run_tiny_jobs(Tracker& t, size_t n, size_t first) {
  for (size_t i = first; i < first + n; i++) {
    JobRequest req;
    req.circuit_id = "tiny";
    if (i % 10 == 3) {
      req.request_id = "soak-1764671234567-" + std::to_string(i);
      req.fingerprint = std::string(32, (char)i);
    }
    req.partitions.resize(1 + i % 3);
    std::shared_ptr<Job> job = t.create(req, 100).first;
    req = {};
    ASSERT_TRUE(t.start(*job, Clock::now()));
    if (i % 5 == 1) {
      t.partition_failed(*job, 0, "the witness has 3 values where the circuit has 4 (a corrupt .wtns)");
    } else if (i % 10 == 6) {
      ASSERT_TRUE(t.cancel(job->id, "cancelled by the client").has_value());
    } else {
      for (uint32_t k = 0; k < job->n_partitions; k++) {
        const Clock::time_point now = Clock::now();
        t.add_times(*job, 0, 0.1, now, now + std::chrono::microseconds(50));
        ProveResult res;
        res.public_inputs.assign(1, Fr{});
        PartitionTiming timing;
        timing.device = "cpu";
        t.partition_done(*job, k, std::move(res), timing);
      }
      ASSERT_EQ(job->state, JobState::kCompleted);
    }
  }
}

TEST(EngineTracker, PartitionsWithDifferentPublicInputCountsFailTheJob) {
  // A job's public inputs are one block of n_partitions × n_inputs: a partition whose backend returns
  // another count fails the job with the partition named, and nothing is written out of bounds.
  Metrics metrics;
  MemoryBudget memory;
  Tracker t(metrics, {}, memory, 16, 1 << 20, 0);
  JobRequest req;
  req.circuit_id = "tiny";
  req.partitions.resize(3);
  std::shared_ptr<Job> job = t.create(req, 100).first;
  ASSERT_TRUE(t.start(*job, Clock::now()));
  for (uint32_t k = 0; k < 2; k++) {
    ProveResult res;
    res.public_inputs.assign(k == 0 ? 2 : 3, Fr::from_u64(k + 1));
    t.partition_done(*job, k, std::move(res), PartitionTiming{});
  }
  EXPECT_EQ(job->state, JobState::kFailed);
  EXPECT_NE(job->error.find("partition 1"), std::string::npos) << job->error;
  EXPECT_NE(job->error.find("3 public inputs"), std::string::npos) << job->error;
  EXPECT_NE(job->error.find("have 2"), std::string::npos) << job->error;
}

TEST(EngineTracker, RetainedJobsAreChargedWhatTheyHoldOnTheHeap) {
  // What a retained job is charged must be what it really costs (soak finding 2 of docs/RELIABILITY.md:
  // the first estimate charged a quarter of the daemon's growth). One thread, so that every block comes
  // from one arena and mallinfo2's in-use count moves by exactly what the jobs hold, up to the blocks
  // malloc keeps cached (tcache, fastbins: a few KiB).
  if (kAsan) GTEST_SKIP() << "AddressSanitizer's allocator replaces glibc's: mallinfo2 does not see the jobs";
  Metrics metrics;
  MemoryBudget memory;
  constexpr size_t kJobs = 4000;
  Tracker t(metrics, {}, memory, kJobs, 1ull << 40, 0);
  run_tiny_jobs(t, 200, 0);  // warm-up: the maps' and deque's first blocks, malloc's caches
  const size_t heap0 = heap_in_use();
  const Tracker::Held held0 = t.held();
  run_tiny_jobs(t, kJobs - 200, 200);
  const double real = (double)(heap_in_use() - heap0);
  const Tracker::Held held = t.held();
  ASSERT_EQ(held.retained_jobs, kJobs);
  EXPECT_EQ(held.input_bytes, 0u);
  EXPECT_EQ(memory.used(), held.retained_bytes);
  const double charged = (double)(held.retained_bytes - held0.retained_bytes);
  const double per_job = real / (kJobs - 200);
  RecordProperty("real_bytes_per_retained_job", std::to_string(per_job));
  RecordProperty("charged_bytes_per_retained_job", std::to_string(charged / (kJobs - 200)));
  EXPECT_GE(charged, 0.95 * real) << "real " << per_job << " B/job";
  EXPECT_LE(charged, 1.25 * real) << "real " << per_job << " B/job";
  // A completed job's record: its proofs and public inputs come back.
  EXPECT_GT(per_job, 300.0);
  EXPECT_LT(per_job, 2048.0) << "a retained tiny job should stay compact";

  // The byte limit bounds what retained jobs hold: 3 times the limit's worth of jobs, heap within it.
  Metrics metrics2;
  MemoryBudget memory2;
  constexpr uint64_t kLimit = 1 << 20;
  const size_t heap1 = heap_in_use();
  {
    Tracker bounded(metrics2, {}, memory2, 1000000, kLimit, 0);
    run_tiny_jobs(bounded, 3 * kLimit / 800, 0);
    const Tracker::Held h = bounded.held();
    EXPECT_LE(h.retained_bytes, kLimit);
    EXPECT_GT(h.retained_bytes, kLimit - 4096);
    EXPECT_LT(h.retained_jobs, 3 * kLimit / 800);
    EXPECT_EQ(memory2.used(), h.retained_bytes);
    EXPECT_LE((double)(heap_in_use() - heap1), 1.05 * kLimit + (64 << 10));
  }
  EXPECT_EQ(memory2.used(), 0u);
}

TEST(EngineTracker, OneOwnersFailuresAreForgottenBeforeOtherResults) {
  // Issue 36 N3: past the retained limit the oldest job was forgotten, whatever it was, so a client
  // sending requests that fail at once flushed every other client's completed results. Now failures go
  // first, those of the owner holding the most of them first; completed results only after them.
  Metrics metrics;
  MemoryBudget memory;
  Tracker t(metrics, {}, memory, 4, 1 << 20, 0);
  auto run = [&](const std::string& owner, bool fail) {
    JobRequest req;
    req.circuit_id = "tiny";
    req.owner = owner;
    req.partitions.resize(fail ? 1024 : 1);  // a failed job keeps none of them
    std::shared_ptr<Job> job = t.create(req, 1).first;
    EXPECT_TRUE(t.start(*job, Clock::now()));
    if (fail) {
      t.partition_failed(*job, 0, "a bad witness");
    } else {
      for (uint32_t k = 0; k < job->n_partitions; k++) {
        ProveResult res;
        res.public_inputs.assign(1, Fr{});
        t.partition_done(*job, k, std::move(res), PartitionTiming{});
      }
    }
    return job->id;
  };
  const std::string done = run("a", false);
  const std::string a_failed = run("a", true);
  std::vector<std::string> b_failed;
  for (int i = 0; i < 20; i++) b_failed.push_back(run("b", true));
  EXPECT_EQ(t.held().retained_jobs, 4u);
  ASSERT_TRUE(t.await(done, 0));
  EXPECT_EQ(t.await(done, 0)->state, JobState::kCompleted);
  ASSERT_TRUE(t.await(a_failed, 0));
  EXPECT_EQ(t.await(a_failed, 0)->state, JobState::kFailed);
  EXPECT_FALSE(t.await(b_failed[17], 0));  // b's oldest went first: its last two stay
  EXPECT_TRUE(t.await(b_failed[18], 0) && t.await(b_failed[19], 0));
  // A failed job of 1,024 partitions is charged its record, not its partitions (~480 B each before):
  // one tiny completed job and three such failures hold a few KiB.
  EXPECT_LT(t.held().retained_bytes, 8u * 1024) << t.held().retained_bytes;
  // Completed jobs push out the failures (the owner with the most first), then the oldest completed.
  const std::string c1 = run("c", false), c2 = run("c", false);
  EXPECT_TRUE(t.await(done, 0) && t.await(a_failed, 0));
  EXPECT_FALSE(t.await(b_failed[18], 0) || t.await(b_failed[19], 0));
  const std::string c3 = run("c", false);
  EXPECT_FALSE(t.await(a_failed, 0));
  EXPECT_TRUE(t.await(done, 0));
  const std::string c4 = run("c", false);
  EXPECT_FALSE(t.await(done, 0));
  EXPECT_TRUE(t.await(c1, 0) && t.await(c4, 0));
  EXPECT_EQ(memory.used(), t.held().retained_bytes);
}

TEST(EngineRegistry, LoadsBellpersonParamsWithTheirR1cs) {
  const std::string dir = std::string(CUZK_SOURCE_DIR) + "/tests/data/";
  ThreadPool pool(2);
  const ConstraintSystem rows =
      constraint_system(read_r1cs(dir + "mimc/mimc_test.r1cs"), HConvention::kBellperson);
  const std::string params = testing::TempDir() + "engine_mimc.params";
  write_params(params, setup(rows, ToxicWaste::from_seed(4), pool), &pool);
  LoadedCircuit c = load_bellperson(params, dir + "mimc/mimc_test.r1cs");
  ASSERT_TRUE(c.key && c.cs);
  EXPECT_EQ(c.key->convention, HConvention::kBellperson);
  EXPECT_EQ(c.cs->n_vars(), rows.n_vars());
  try {
    load_bellperson(params, dir + "tiny/mul.r1cs");
    FAIL() << "a key was paired with another circuit's constraints";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("belong to different circuits"), std::string::npos) << e.what();
  }
}

TEST(EngineRegistry, LoadsOnceRefCountsAndEvictsLeastRecentlyUsed) {
  const uint64_t tiny_bytes = resident_bytes(load_circom(kData + "tiny/mul_final.zkey"));
  const uint64_t mimc_bytes = resident_bytes(load_circom(kData + "mimc/mimc_dev.zkey"));
  MemoryBudget budget(std::max(tiny_bytes, mimc_bytes) + 1);  // room for one circuit at a time
  CircuitRegistry reg(budget, {});
  std::atomic<int> loads{0};
  reg.add("tiny", "circom", [&] {
    loads++;
    return load_circom(kData + "tiny/mul_final.zkey");
  });
  reg.add("mimc", "circom", [&] {
    loads++;
    return load_circom(kData + "mimc/mimc_dev.zkey");
  });
  EXPECT_THROW(reg.add("tiny", "circom", {}), Error);
  EXPECT_THROW(reg.acquire("nope"), Error);
  {
    auto l1 = reg.acquire("tiny");
    auto l2 = reg.acquire("tiny");
    EXPECT_EQ(loads, 1);
    EXPECT_EQ(reg.list()[1].ref_count, 2u);  // sorted: mimc, tiny
    EXPECT_THROW(reg.evict("tiny"), Error);  // in use: never freed
    auto l3 = reg.acquire("mimc");           // over budget, but tiny is in use: both stay
    EXPECT_TRUE(reg.list()[0].resident && reg.list()[1].resident);
  }
  // Released: the next load evicts the least recently used idle circuit.
  EXPECT_TRUE(reg.preload("tiny").already_loaded);
  reg.evict("mimc");
  EXPECT_FALSE(reg.list()[0].resident);
  auto r = reg.preload("mimc");
  EXPECT_FALSE(r.already_loaded);
  EXPECT_FALSE(reg.list()[1].resident);  // tiny (idle, older) was evicted to make room
  EXPECT_EQ(budget.used(), mimc_bytes);
  auto ev = reg.evict("mimc");
  EXPECT_TRUE(ev.was_loaded);
  EXPECT_EQ(ev.freed_bytes, mimc_bytes);
  EXPECT_EQ(budget.used(), 0u);
}

TEST(EngineRegistry, LoadHookSeesEachLoadOnce) {
  MemoryBudget budget(0);
  CircuitRegistry reg(budget, {});
  reg.add("tiny", "circom", [] { return load_circom(kData + "tiny/mul_final.zkey"); });
  std::vector<std::string> seen;
  reg.on_load([&](const std::string& id, const LoadedCircuit& c) {
    EXPECT_TRUE(c.key && c.cs);
    seen.push_back(id);
  });
  reg.preload("tiny");
  auto l = reg.acquire("tiny");  // resident: no load, no call
  EXPECT_EQ(seen, std::vector<std::string>{"tiny"});
  l.reset();
  reg.evict("tiny");
  reg.preload("tiny");
  EXPECT_EQ(seen.size(), 2u);
}

TEST(EngineMetrics, KeyPlansAreGaugesPerCircuitAndGpu) {
  Fixture f;
  f.engine.set_key_plan("porep-32g", 0, 100, 200);
  f.engine.set_key_plan("porep-32g", 1, 300, 0);
  f.engine.set_key_plan("porep-32g", 0, 150, 150);  // replaces the first
  f.engine.set_key_plan("odd\"id", 0, 1, 2);
  const std::string m = f.engine.metrics_text();
  EXPECT_NE(m.find("# TYPE cuzk_key_resident_bytes gauge"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_key_resident_bytes{circuit=\"porep-32g\",gpu=\"0\"} 150\n"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_key_streamed_bytes{circuit=\"porep-32g\",gpu=\"0\"} 150\n"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_key_resident_bytes{circuit=\"porep-32g\",gpu=\"1\"} 300\n"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_key_streamed_bytes{circuit=\"porep-32g\",gpu=\"1\"} 0\n"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_key_streamed_bytes{circuit=\"odd\\\"id\",gpu=\"0\"} 2\n"), std::string::npos) << m;
  EXPECT_EQ(m.find("gpu=\"0\"} 100"), std::string::npos) << m;
}

TEST(EngineSynthesis, DecodesWtnsAndRejectsCorruptOnes) {
  LoadedCircuit c = load_circom(kData + "mimc/mimc_dev.zkey");
  ThreadPool pool(1);
  Assignment a = synthesize_partition(*c.cs, mimc_witness(), pool);
  EXPECT_EQ(a.a.size(), c.cs->domain_size());
  WitnessInput bad = mimc_witness();
  bad.wtns.resize(bad.wtns.size() / 2);
  EXPECT_THROW(synthesize_partition(*c.cs, bad, pool), Error);
  EXPECT_THROW(synthesize_partition(*c.cs, {{}, nullptr, file_bytes(kData + "tiny/mul.wtns"), {}}, pool),
               Error);
}

TEST(EngineSynthesis, DeferredPartitionsReserveTheirWitnessOnly) {
  // Compact rows: a partition in flight holds its witness (made in place, or copied from shared values),
  // or briefly two copies when its own values are copied in; with CSR rows also a, b, c and scratch.
  ThreadPool pool(2);
  SyntheticCircuit sc = synthetic_porep(10, 3, pool);
  LoadedCircuit csr{nullptr, std::make_shared<const ConstraintSystem>(sc.cs), nullptr};
  LoadedCircuit compact_rows{nullptr, nullptr, std::make_shared<const CompactCs>(compact(sc.cs, pool))};
  const uint64_t witness = 32 * (uint64_t)sc.cs.n_vars();
  WitnessInput own{sc.witness, nullptr, {}, {}};
  WitnessInput shared{{}, std::make_shared<const std::vector<Fr>>(sc.witness), {}, {}};
  WitnessInput in_place;
  in_place.assign = [](const LoadedCircuit&, ThreadPool&) { return Assignment(); };
  EXPECT_EQ(partition_bytes(compact_rows, in_place), witness);
  EXPECT_EQ(partition_bytes(compact_rows, shared), witness);
  EXPECT_EQ(partition_bytes(compact_rows, own), 2 * witness);
  EXPECT_EQ(partition_bytes(csr, own), partition_bytes(sc.cs));
  EXPECT_GT(partition_bytes(sc.cs), 2 * witness + 3 * 32 * sc.cs.domain_size());
}

TEST(EnginePipeline, GeneratedWitnessesProveAndTheirErrorsFailTheirJob) {
  // The generator form of WitnessInput (PoRep partitions): called in a synthesis worker with the leased
  // circuit's rows; a wrong length or a throw fails that job only.
  Fixture f;
  const std::vector<uint8_t> bytes = file_bytes(kData + "mimc/mimc.wtns");
  const std::vector<Fr> values = read_wtns(BinFile::from_bytes(bytes, "mimc.wtns", "wtns", 2));
  JobRequest good;
  good.circuit_id = "mimc";
  std::atomic<int> calls{0};
  for (int i = 0; i < 2; i++)
    good.partitions.push_back({{}, nullptr, {}, [&](const LoadedCircuit& lc, ThreadPool&) {
                                 EXPECT_EQ(lc.n_vars(), values.size());
                                 calls++;
                                 return values;
                               }});
  JobRequest throws;
  throws.circuit_id = "mimc";
  throws.partitions.push_back({{}, nullptr, {}, [](const LoadedCircuit&, ThreadPool&) -> std::vector<Fr> {
                                 throw Error(ErrorCode::kInvalidArgument, "no C1 today");
                               }});
  JobRequest short_one;
  short_one.circuit_id = "mimc";
  short_one.partitions.push_back({{}, nullptr, {}, [&](const LoadedCircuit&, ThreadPool&) {
                                    return std::vector<Fr>(values.begin(), values.end() - 1);
                                  }});
  const std::string a = f.engine.submit(std::move(good)).job_id;
  const std::string b = f.engine.submit(std::move(throws)).job_id;
  const std::string c = f.engine.submit(std::move(short_one)).job_id;
  f.expect_valid(*f.engine.await(a), 2);
  EXPECT_EQ(calls.load(), 2);
  const JobResult rb = *f.engine.await(b);
  EXPECT_EQ(rb.state, JobState::kFailed);
  EXPECT_NE(rb.error.find("no C1 today"), std::string::npos) << rb.error;
  const JobResult rc = *f.engine.await(c);
  EXPECT_EQ(rc.state, JobState::kFailed);
  EXPECT_NE(rc.error.find("the generated witness has"), std::string::npos) << rc.error;
  f.expect_valid(f.engine.prove(mimc_job(1)), 1);
}

// ---- the whole pipeline -------------------------------------------------------------------------

TEST(EnginePipeline, MimcJobsOfSeveralPartitionsAllVerify) {
  Fixture f;
  std::vector<std::string> ids;
  for (size_t p : {1, 3, 2}) ids.push_back(f.engine.submit(mimc_job(p)).job_id);
  for (size_t i = 0; i < ids.size(); i++) {
    auto r = f.engine.await(ids[i]);
    ASSERT_TRUE(r);
    f.expect_valid(*r, std::vector<size_t>{1, 3, 2}[i]);
    ASSERT_EQ(r->partitions.size(), r->proofs.size());
    EXPECT_GT(r->partitions[0].gpu_ms, 0);
    EXPECT_EQ(r->partitions[0].device, "cpu");
  }
  EngineStatus s = f.engine.status();
  EXPECT_EQ(s.jobs_completed, 3u);
  EXPECT_EQ(s.partitions_completed, 6u);
  const std::string m = f.engine.metrics_text();
  EXPECT_NE(m.find("cuzk_jobs_total{state=\"completed\"} 3"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_partition_gpu_ms_count 6"), std::string::npos);
  EXPECT_NE(m.find("cuzk_gpu_busy_fraction{device=\"0\",name=\"cpu\"}"), std::string::npos);
}

TEST(EnginePipeline, EachPartitionLogsItsBackendStagesAtDebugLevel) {
  // partition_stages: the job, the partition and one field per backend stage, in ms.
  std::mutex mu;
  std::vector<LogEvent> events;
  EngineConfig cfg = Fixture::small_config();
  cfg.log = [&](const LogEvent& e) {
    std::lock_guard g(mu);
    if (e.event == "partition_stages") events.push_back(e);
  };
  Fixture f(std::move(cfg));
  const std::string id = f.engine.submit(mimc_job(2)).job_id;
  auto r = f.engine.await(id);
  ASSERT_TRUE(r);
  f.expect_valid(*r, 2);
  std::lock_guard g(mu);
  ASSERT_EQ(events.size(), 2u);
  std::set<std::string> partitions;
  for (const LogEvent& e : events) {
    EXPECT_EQ(e.level, LogLevel::kDebug);
    ASSERT_GE(e.fields.size(), 4u) << e.logfmt();
    EXPECT_EQ(e.fields[0], std::make_pair(std::string("job"), id));
    EXPECT_EQ(e.fields[1].first, "partition");
    partitions.insert(e.fields[1].second);
    bool epilogue = false;
    for (size_t i = 2; i < e.fields.size(); i++) {
      char* end = nullptr;
      const double ms = std::strtod(e.fields[i].second.c_str(), &end);
      EXPECT_TRUE(end && *end == 0 && ms >= 0) << e.logfmt();
      epilogue |= e.fields[i].first == "epilogue";
    }
    EXPECT_TRUE(epilogue) << e.logfmt();
  }
  EXPECT_EQ(partitions, (std::set<std::string>{"0", "1"}));
}

TEST(EnginePipeline, CorruptWitnessAndUnknownCircuitFailOnlyTheirJob) {
  Fixture f;
  JobRequest bad = mimc_job(3);
  bad.partitions[1].wtns.resize(100);
  JobRequest unknown = mimc_job(1);
  unknown.circuit_id = "no-such-circuit";
  JobRequest wrong = mimc_job(1);
  wrong.partitions[0] = {{}, nullptr, file_bytes(kData + "tiny/mul.wtns"), {}};  // another circuit's witness
  const std::string good1 = f.engine.submit(mimc_job(2)).job_id;
  const std::string b = f.engine.submit(std::move(bad)).job_id;
  const std::string u = f.engine.submit(std::move(unknown)).job_id;
  const std::string w = f.engine.submit(std::move(wrong)).job_id;
  const std::string good2 = f.engine.submit(mimc_job(1)).job_id;
  auto rb = f.engine.await(b), ru = f.engine.await(u), rw = f.engine.await(w);
  EXPECT_EQ(rb->state, JobState::kFailed);
  EXPECT_NE(rb->error.find("partition 1:"), std::string::npos) << rb->error;
  EXPECT_EQ(ru->state, JobState::kFailed);
  EXPECT_NE(ru->error.find("unknown circuit \"no-such-circuit\""), std::string::npos) << ru->error;
  EXPECT_EQ(rw->state, JobState::kFailed);
  EXPECT_NE(rw->error.find("values but the circuit has"), std::string::npos) << rw->error;
  f.expect_valid(*f.engine.await(good1), 2);
  f.expect_valid(*f.engine.await(good2), 1);
  EXPECT_FALSE(f.engine.await("job-unknown"));
}

TEST(EnginePipeline, UnsatisfyingWitnessFailsAtVerification) {
  Fixture f;
  // mimc.wtns with one aux value changed: decodes fine, does not satisfy the circuit.
  LoadedCircuit c = load_circom(kData + "mimc/mimc_dev.zkey");
  JobRequest r;
  r.circuit_id = "mimc";
  WitnessInput w = mimc_witness();
  w.wtns[w.wtns.size() - 5] ^= 1;
  r.partitions.push_back(std::move(w));
  auto res = f.engine.prove(std::move(r));
  EXPECT_EQ(res.state, JobState::kFailed);
  EXPECT_NE(res.error.find("does not verify"), std::string::npos) << res.error;
}

// Two synthesis workers share one pool of threads (engine/synthesis.hpp): partitions synthesized at once
// on it, several jobs in flight, every proof valid.
TEST(EnginePipeline, SynthesisWorkersShareTheirThreads) {
  EngineConfig cfg = Fixture::small_config();
  cfg.synthesis_workers = 2;
  cfg.synthesis_threads = 4;
  cfg.synthesis_lookahead = 2;
  Fixture f(cfg);
  std::vector<std::string> ids;
  for (int i = 0; i < 4; i++) ids.push_back(f.engine.submit(mimc_job(3)).job_id);
  for (const auto& id : ids) f.expect_valid(*f.engine.await(id), 3);
}

TEST(EnginePipeline, MemoryBudgetBelowTwoPartitionsProvesOneAtATime) {
  LoadedCircuit c = load_circom(kData + "mimc/mimc_dev.zkey");
  EngineConfig cfg = Fixture::small_config();
  cfg.synthesis_workers = 2;
  cfg.synthesis_lookahead = 2;
  cfg.memory_budget = resident_bytes(c) + partition_bytes(*c.cs) * 3 / 2;
  Fixture f(cfg);
  std::vector<std::string> ids;
  for (int i = 0; i < 5; i++) ids.push_back(f.engine.submit(mimc_job(2)).job_id);
  for (const auto& id : ids) f.expect_valid(*f.engine.await(id), 2);
  EngineStatus s = f.engine.status();
  EXPECT_EQ(s.partitions_in_flight_peak, 1u);
  // The queued jobs' inputs are charged too (at most 5 × 2 witnesses and their tasks), over the budget
  // since one partition alone does not fit beside them.
  EXPECT_LE(s.memory_peak, cfg.memory_budget + 10 * (mimc_witness().wtns.size() + 4096));
  // The circuit stays resident; the finished jobs' results are charged too, their inputs no longer.
  EXPECT_EQ(s.queued_input_bytes, 0u);
  EXPECT_EQ(s.memory_used, resident_bytes(c) + s.retained_bytes);
}

TEST(EnginePipeline, ResubmittingARequestIdReturnsTheSameJob) {
  Fixture f;
  SubmitResult a = f.engine.submit(mimc_job(1, Priority::kNormal, "req-1"));
  SubmitResult b = f.engine.submit(mimc_job(1, Priority::kNormal, "req-1"));
  EXPECT_FALSE(a.existing);
  EXPECT_TRUE(b.existing);
  EXPECT_EQ(a.job_id, b.job_id);
  f.expect_valid(*f.engine.await(a.job_id), 1);
  EXPECT_EQ(f.engine.submit(mimc_job(1, Priority::kNormal, "req-1")).job_id,
            a.job_id);  // after completion too
  EXPECT_EQ(f.engine.status().jobs_submitted, 1u);
}

TEST(EnginePipeline, ManyJobsWithRandomCancelsAddUp) {
  Fixture f;
  constexpr int kClients = 4, kJobsEach = 30;
  std::atomic<int> completed{0}, cancelled{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; c++)
    clients.emplace_back([&, c] {
      std::mt19937 rng(c);
      std::vector<std::pair<std::string, bool>> mine;
      for (int j = 0; j < kJobsEach; j++) {
        const Priority pr = Priority(1 + rng() % 4);
        mine.emplace_back(f.engine.submit(tiny_job(1 + rng() % 2, pr)).job_id, rng() % 4 == 0);
        if (mine.back().second) f.engine.cancel(mine.back().first);
      }
      for (const auto& [id, cancel] : mine) {
        auto r = f.engine.await(id);
        ASSERT_TRUE(r);
        if (cancel) {
          // A job cancelled after it completed stays completed.
          ASSERT_TRUE(r->state == JobState::kCancelled || r->state == JobState::kCompleted);
        } else {
          ASSERT_EQ(r->state, JobState::kCompleted) << r->error;
        }
        if (r->state == JobState::kCompleted) {
          for (size_t i = 0; i < r->proofs.size(); i++)
            ASSERT_TRUE(verify(f.tiny_vk, r->public_inputs[i], r->proofs[i]));
          completed++;
        } else {
          cancelled++;
        }
      }
    });
  for (auto& t : clients) t.join();
  EngineStatus s = f.engine.status();
  EXPECT_EQ(s.jobs_submitted, (uint64_t)kClients * kJobsEach);
  EXPECT_EQ(s.jobs_completed, (uint64_t)completed);
  EXPECT_EQ(s.jobs_cancelled, (uint64_t)cancelled);
  EXPECT_EQ(s.jobs_failed, 0u);
  EXPECT_EQ(s.jobs_completed + s.jobs_cancelled, s.jobs_submitted);
  EXPECT_GT(cancelled, 0);
  EXPECT_EQ(s.synth_queue + s.gpu_queue + s.final_queue, 0u);
  EXPECT_EQ(f.engine.cancel("job-unknown"), std::nullopt);
}

TEST(EnginePipeline, AJobWithANearDeadlineOvertakesQueuedJobsOfHigherPriority) {
  EngineConfig c = Fixture::small_config();
  c.deadline_lead_s = 60;
  Fixture f(c);
  std::vector<std::string> ahead;
  for (int i = 0; i < 6; i++) ahead.push_back(f.engine.submit(mimc_job(1, Priority::kHigh)).job_id);
  JobRequest due = mimc_job(1, Priority::kLow);
  due.deadline = Clock::now() + std::chrono::seconds(30);  // inside the 60 s lead: urgent at once
  const std::string urgent = f.engine.submit(std::move(due)).job_id;
  const auto u = f.engine.await(urgent);
  ASSERT_TRUE(u);
  f.expect_valid(*u, 1);
  const auto last = f.engine.await(ahead.back());
  ASSERT_TRUE(last);
  f.expect_valid(*last, 1);
  // One synthesis worker: the urgent job waited for what was already running (at most two
  // partitions), the last high-priority job for five partitions or more.
  EXPECT_LT(u->queue_wait_ms, last->queue_wait_ms);
  EXPECT_LT(u->total_ms, last->total_ms);
}

TEST(EnginePipeline, DrainingShutdownFinishesStartedJobsAndCancelsQueuedOnes) {
  Fixture f;
  std::vector<std::string> ids;
  for (int i = 0; i < 12; i++) ids.push_back(f.engine.submit(mimc_job(1)).job_id);
  f.engine.await(ids[0]);
  f.engine.shutdown(/*drain=*/true);
  EXPECT_THROW(f.engine.submit(mimc_job(1)), Error);
  int done = 0, cancelled = 0;
  for (const auto& id : ids) {
    auto r = f.engine.await(id);
    if (r->state == JobState::kCompleted) done++;
    if (r->state == JobState::kCancelled) {
      cancelled++;
      EXPECT_NE(r->error.find("shutting down"), std::string::npos);
    }
  }
  EXPECT_EQ(done + cancelled, 12);
  EXPECT_GE(done, 1);
}

TEST(EnginePipeline, SyntheticPorepCircuitInBellpersonConventionVerifies) {
  ThreadPool pool(2);
  SyntheticCircuit sc = synthetic_porep(10, 7, pool);
  auto cs = std::make_shared<const ConstraintSystem>(std::move(sc.cs));
  auto key = std::make_shared<const ProvingKey>(setup(*cs, ToxicWaste::from_seed(7), pool));
  auto witness = std::make_shared<const std::vector<Fr>>(std::move(sc.witness));
  CpuBackend backend(1);
  Engine engine(Fixture::small_config(), {&backend});
  engine.circuits().add("porep", "synthetic", [&] { return LoadedCircuit{key, cs, nullptr}; });
  JobRequest r;
  r.circuit_id = "porep";
  for (int i = 0; i < 3; i++) r.partitions.push_back({{}, witness, {}, {}});
  JobResult res = engine.prove(std::move(r));
  ASSERT_EQ(res.state, JobState::kCompleted) << res.error;
  for (size_t i = 0; i < 3; i++)
    EXPECT_TRUE(verify(key->verifying_key(), res.public_inputs[i], res.proofs[i]));
  EXPECT_GT(res.partitions[0].b_g2_ms, 0);
}

// ---- GPU workers with a fake slow backend ------------------------------------------------------------

/// start() takes 40 ms ("kernels"), wait() another 150 ms ("b_g2 + CPU tail"); records when each
/// start began and each wait ended.
class SlowBackend final : public ProverBackend {
 public:
  std::string name() const override { return "slow"; }
  std::unique_ptr<BackendPending> start(std::shared_ptr<const ProvingKey>,
                                        std::shared_ptr<const Assignment>) override {
    {
      std::lock_guard lk(mu);
      starts.push_back(Clock::now());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    return std::make_unique<Pending>(this);
  }
  struct Pending final : BackendPending {
    explicit Pending(SlowBackend* b) : be(b) {}
    PartitionSums wait() override {
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      std::lock_guard lk(be->mu);
      be->wait_ends.push_back(Clock::now());
      PartitionSums s;
      s.a = s.b_g1 = s.l = s.h = G1::infinity();
      s.b_g2 = G2::infinity();
      s.stages = {{"msm_b_g2", 150.0}};
      return s;
    }
    SlowBackend* be;
  };
  std::mutex mu;
  std::vector<Clock::time_point> starts, wait_ends;
};

TEST(EngineGpuWorkers, LoopBackBeforeFinalizeEnds) {
  SlowBackend slow;
  EngineConfig cfg;
  cfg.synthesis_threads = 1;
  cfg.synthesis_lookahead = 4;
  cfg.gpu_workers_per_device = 1;  // one worker: any overlap comes from looping back early
  cfg.finalizer_threads = 4;
  cfg.verify_proofs = false;  // the fake sums are not a proof
  Engine engine(cfg, {&slow});
  engine.circuits().add("mimc", "circom", [] { return load_circom(kData + "mimc/mimc_dev.zkey"); });
  const auto t0 = Clock::now();
  auto r = engine.prove(mimc_job(4));
  const double wall = ms_between(t0, Clock::now());
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error;
  ASSERT_EQ(slow.starts.size(), 4u);
  ASSERT_EQ(slow.wait_ends.size(), 4u);
  // The one worker started partition 1 while partition 0 was still finalizing (150 ms of margin).
  EXPECT_LT(slow.starts[1], slow.wait_ends[0]);
  // Serial would take ≥ 4 × 190 ms; pipelined ≈ 4 × 40 + 150 (the bound times CUZK_TEST_TIMEOUT_SCALE).
  EXPECT_LT(wall, 4 * 190 * test::timeout_scale()) << wall;
  EXPECT_NEAR(r.partitions[0].b_g2_ms, 150, 1);
  EXPECT_GE(r.partitions[0].gpu_ms, 39);
}

TEST(EngineGpuWorkers, SeveralDevicesShareTheQueue) {
  SlowBackend d0, d1;
  EngineConfig cfg;
  cfg.synthesis_threads = 1;
  cfg.synthesis_lookahead = 4;
  cfg.gpu_workers_per_device = 1;
  cfg.verify_proofs = false;
  Engine engine(cfg, {&d0, &d1});
  engine.circuits().add("mimc", "circom", [] { return load_circom(kData + "mimc/mimc_dev.zkey"); });
  auto r = engine.prove(mimc_job(6));
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error;
  EXPECT_EQ(d0.starts.size() + d1.starts.size(), 6u);
  EXPECT_GE(d0.starts.size(), 1u);
  EXPECT_GE(d1.starts.size(), 1u);
  EngineStatus s = engine.status();
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[1].ordinal, 1u);
  EXPECT_GT(s.devices[0].busy_fraction, 0);
  EXPECT_GT(s.devices[1].busy_fraction, 0);
}

// ---- the witness given back early (ProverBackend::start_releasing) -------------------------------------

/// Proves on the CPU, then says that the witness was read for the last time, as the GPU backend does
/// after the H MSM. Before that it waits (up to 10 s) for a synthesis waiting for memory, except on its
/// last call; after it, for that synthesis to get the memory (the next partition's witness made while
/// this start() has not returned). Records, per call, whether aux was freed and whether that happened.
class ReleasingBackend final : public ProverBackend {
 public:
  explicit ReleasingBackend(size_t calls) : calls_(calls) {}
  std::string name() const override { return "releasing"; }
  /// Without the callback (not what prove_start calls): the CPU's, no release.
  std::unique_ptr<BackendPending> start(std::shared_ptr<const ProvingKey> key,
                                        std::shared_ptr<const Assignment> asg) override {
    return cpu_.start(std::move(key), std::move(asg));
  }
  std::unique_ptr<BackendPending> start_releasing(std::shared_ptr<const ProvingKey> key,
                                                  std::shared_ptr<const Assignment> asg,
                                                  const std::function<void()>& aux_read) override {
    auto done = std::make_unique<Done>();
    done->sums = cpu_.start(key, asg)->wait();
    const bool last = ++call_ == calls_;
    if (!last) test::wait_until([&] { return engine->status().partitions_waiting_memory > 0; }, 10000);
    const size_t aux_before = asg->aux.size();
    if (aux_read) aux_read();
    std::lock_guard lk(mu);
    freed.push_back(aux_before > 0 && asg->aux.size() == 0);
    // This partition holds no reservation now: one in flight is another's, granted after the release.
    overlapped.push_back(!last &&
                         test::wait_until([&] { return engine->status().partitions_in_flight >= 1; }, 10000));
    return done;
  }
  struct Done final : BackendPending {
    PartitionSums sums;
    PartitionSums wait() override { return sums; }
  };
  Engine* engine = nullptr;
  std::mutex mu;
  std::vector<bool> freed, overlapped;

 private:
  CpuBackend cpu_{1};
  const size_t calls_;
  size_t call_ = 0;
};

/// The mimc circuit on a ReleasingBackend expecting `calls` partitions, with memory for one partition.
struct ReleasingEngine {
  explicit ReleasingEngine(size_t calls) : be(calls), engine(config(c), {&be}) {
    be.engine = &engine;
    engine.circuits().add("mimc", "circom", [] { return load_circom(kData + "mimc/mimc_dev.zkey"); });
  }
  static EngineConfig config(const LoadedCircuit& c) {
    EngineConfig cfg = Fixture::small_config();
    cfg.synthesis_workers = 2;
    cfg.synthesis_lookahead = 2;
    cfg.gpu_workers_per_device = 1;
    cfg.memory_budget = resident_bytes(c) + partition_bytes(*c.cs) * 3 / 2;
    return cfg;
  }
  LoadedCircuit c = load_circom(kData + "mimc/mimc_dev.zkey");
  ReleasingBackend be;
  Engine engine;
};

TEST(EngineEarlyRelease, TheNextWitnessIsMadeWhileTheDeviceFinishes) {
  ReleasingEngine f(3);
  auto& [c, be, engine] = f;
  JobResult r = engine.prove(mimc_job(3));
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error;
  for (size_t i = 0; i < 3; i++)
    EXPECT_TRUE(verify(c.key->verifying_key(), r.public_inputs[i], r.proofs[i])) << i;
  // With a synthesis waiting, the witness went and its reservation with it: the next partition was
  // synthesized before this start() returned. The last partition, which nobody waited behind, kept it.
  EXPECT_EQ(be.freed, (std::vector<bool>{true, true, false}));
  EXPECT_EQ(be.overlapped, (std::vector<bool>{true, true, false}));
  const EngineStatus s = engine.status();
  EXPECT_EQ(s.early_releases, 2u);
  EXPECT_EQ(s.partitions_in_flight_peak, 1u);
  EXPECT_NE(engine.metrics_text().find("cuzk_partition_early_releases_total 2"), std::string::npos);
}

TEST(EngineEarlyRelease, AFreedWitnessThatFailsToVerifyIsNotReadAgain) {
  ReleasingEngine f(2);
  auto& [c, be, engine] = f;
  JobRequest r = mimc_job(2);
  r.partitions[0].wtns[r.partitions[0].wtns.size() - 5] ^= 1;  // partition 0 does not satisfy the circuit
  JobResult res = engine.prove(std::move(r));
  EXPECT_EQ(res.state, JobState::kFailed);
  ASSERT_FALSE(be.freed.empty());
  EXPECT_TRUE(be.freed[0]);
  // The failing row is not looked for in the freed values; the message says why it cannot be named.
  EXPECT_NE(res.error.find("freed once the device had them"), std::string::npos) << res.error;
}

}  // namespace
}  // namespace cuzk::engine
