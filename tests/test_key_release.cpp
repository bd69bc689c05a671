// Keys whose point vectors are released from host memory (ProvingKey::released, issue 35 item 3):
// read_params releases what its `release` hook names and drops the file's pages; ParamsVectorSource reads
// a released vector back and refuses a changed file; a CPU proof of a released key is byte-identical to
// one of the whole key; the engine releases what every device keeps resident, charges only what stays,
// and reloads an evicted circuit; the process's RSS shows the difference.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/engine.hpp"
#include "engine/synthesis.hpp"
#include "formats/atomic_file.hpp"
#include "formats/params.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/synthetic.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::test {
namespace {

namespace fs = std::filesystem;
using engine::Engine;
using engine::EngineConfig;
using engine::JobRequest;
using engine::JobResult;
using engine::JobState;
using engine::LoadedCircuit;

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("cuzk_release_test_" + std::to_string(::getpid()) + "_" + name);
}

/// A small Bellperson-convention circuit (synthetic PoRep-like, 2^10 constraints), its key from a fixed
/// toxic waste written as a .params file, and one witness.
struct Circuit {
  std::shared_ptr<const ConstraintSystem> cs;
  std::shared_ptr<const ProvingKey> key;
  std::shared_ptr<const std::vector<Fr>> witness;
  fs::path params;

  Circuit() {
    ThreadPool pool(2);
    SyntheticCircuit sc = synthetic_porep(10, 5, pool);
    cs = std::make_shared<const ConstraintSystem>(std::move(sc.cs));
    key = std::make_shared<const ProvingKey>(setup(*cs, ToxicWaste::from_seed(3), pool));
    witness = std::make_shared<const std::vector<Fr>>(std::move(sc.witness));
    params = temp_path("circuit.params");
    write_params(params, *key, &pool);
  }
  ~Circuit() { fs::remove(params); }
};

const Circuit& circuit() {
  static const Circuit c;
  return c;
}

/// Options that release `which` and record the shape the hook was shown.
ParamsReadOptions releasing(KeyVectorSet which, ProvingKey* shown = nullptr) {
  ParamsReadOptions o;
  o.threads = 2;
  o.release = [which, shown](const ProvingKey& shape, const CompactCs*) {
    if (shown) *shown = shape;
    return which;
  };
  return o;
}

TEST(KeyRelease, ReadParamsReleasesWhatTheHookNames) {
  const Circuit& c = circuit();
  ProvingKey shown;
  const ProvingKey k = read_params(c.params, releasing({true, false, false, true, true}, &shown));
  // The hook saw every count and no decoded point.
  for (int v = 0; v < kKeyVectors; v++) EXPECT_EQ(shown.count((KeyVector)v), c.key->count((KeyVector)v)) << v;
  EXPECT_EQ(shown.point_bytes(), shown.ic.size() * sizeof(G1Affine));
  // h, l and b_g2 are released: empty, their lengths recorded; a and b_g1 are held.
  EXPECT_TRUE(k.h.empty() && k.l.empty() && k.b_g2.empty());
  EXPECT_TRUE(k.is_released(KeyVector::kH) && k.is_released(KeyVector::kL) && k.is_released(KeyVector::kBG2));
  EXPECT_FALSE(k.is_released(KeyVector::kA) || k.is_released(KeyVector::kBG1));
  EXPECT_FALSE(k.complete());
  EXPECT_EQ(k.a, c.key->a);
  EXPECT_EQ(k.b_g1, c.key->b_g1);
  for (int v = 0; v < kKeyVectors; v++) EXPECT_EQ(k.count((KeyVector)v), c.key->count((KeyVector)v)) << v;
  EXPECT_EQ(k.point_bytes(), (k.ic.size() + k.a.size() + k.b_g1.size()) * sizeof(G1Affine));
  ASSERT_TRUE(k.source);
  EXPECT_EQ(k.source->describe(), c.params.string());
  // The source reads them back as they are in the file.
  EXPECT_EQ(k.source->read_g1(KeyVector::kH), c.key->h);
  EXPECT_EQ(k.source->read_g1(KeyVector::kL), c.key->l);
  EXPECT_EQ(k.source->read_g2(), c.key->b_g2);
  EXPECT_THROW(k.source->read_g1(KeyVector::kBG2), Error);
  // with_host_vectors restores the whole key.
  const auto full = with_host_vectors(std::make_shared<const ProvingKey>(k));
  EXPECT_TRUE(full->complete());
  EXPECT_TRUE(*full == *c.key);
  // Nothing released: the same object back.
  EXPECT_EQ(with_host_vectors(c.key), c.key);
}

TEST(KeyRelease, ReleasingIsOnlyForFiles) {
  const Circuit& c = circuit();
  const std::vector<uint8_t> bytes = read_file_bytes(c.params);
  const ProvingKey k = read_params(bytes, "mem", releasing({true, true, true, true, true}));
  EXPECT_TRUE(k.complete());
  EXPECT_TRUE(k == *c.key);
}

TEST(KeyRelease, ReleasedVectorsOfAChangedFileAreRefused) {
  const Circuit& c = circuit();
  const fs::path copy = temp_path("changed.params");
  fs::copy_file(c.params, copy, fs::copy_options::overwrite_existing);
  const ProvingKey k = read_params(copy, releasing({true, false, false, false, false}));
  ASSERT_TRUE(k.is_released(KeyVector::kH));
  {
    std::ofstream out(copy, std::ios::binary | std::ios::app);
    out << "x";  // one trailing byte: another size (and modification time)
  }
  try {
    k.source->read_g1(KeyVector::kH);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIo);
    EXPECT_NE(std::string(e.what()).find("changed since"), std::string::npos) << e.what();
  }
  fs::remove(copy);
  EXPECT_THROW(k.source->read_g1(KeyVector::kH), Error);
}

TEST(KeyRelease, CpuProofOfAReleasedKeyIsByteIdentical) {
  const Circuit& c = circuit();
  CpuBackend cpu(2);
  ProveOptions opt;
  opt.r = Fr::from_u64(12345);
  opt.s = Fr::from_u64(67890);
  const ProveResult want = prove(*c.key, synthesize(*c.cs, *c.witness, cpu.pool()), cpu, opt);
  KeyVectorSet all;
  all.fill(true);
  const ProvingKey released = read_params(c.params, releasing(all));
  EXPECT_EQ(released.point_bytes(), released.ic.size() * sizeof(G1Affine));
  const ProveResult got = prove(released, synthesize(*c.cs, *c.witness, cpu.pool()), cpu, opt);
  EXPECT_EQ(got.proof, want.proof);
  EXPECT_TRUE(verify(c.key->verifying_key(), got.public_inputs, got.proof));
}

/// A device that keeps every vector resident (as a GPU with room does) but proves on the CPU, which
/// reads the released vectors back; its partitions take `extra` host bytes besides the assignment.
class ResidentEverything final : public ProverBackend {
 public:
  explicit ResidentEverything(uint64_t extra = 0) : cpu_(1), extra_(extra) {}
  std::string name() const override { return "resident-everything"; }
  std::unique_ptr<BackendPending> start(std::shared_ptr<const ProvingKey> key,
                                        std::shared_ptr<const Assignment> asg) override {
    released_keys += !key->complete();
    return cpu_.start(std::move(key), std::move(asg));
  }
  KeyVectorSet device_resident(const ProvingKey&, const CompactCs*) const override {
    KeyVectorSet all;
    all.fill(true);
    return all;
  }
  uint64_t partition_host_bytes(const ProvingKey&, const CompactCs*) const override { return extra_; }
  std::atomic<int> released_keys{0};

 private:
  CpuBackend cpu_;
  uint64_t extra_;
};

EngineConfig small_config() {
  EngineConfig c;
  c.synthesis_threads = 1;
  c.gpu_workers_per_device = 1;
  return c;
}

/// Registers the test circuit in `e`, its key read with the engine's release hook.
void add_circuit(Engine& e) {
  e.circuits().add("c", "bellperson", [&e] {
    ParamsReadOptions o;
    o.threads = 2;
    o.release = [&e](const ProvingKey& shape, const CompactCs* rows) {
      return e.device_resident(shape, rows);
    };
    return LoadedCircuit{std::make_shared<const ProvingKey>(read_params(circuit().params, o)), circuit().cs,
                         nullptr};
  });
}

JobRequest job(int partitions) {
  JobRequest r;
  r.circuit_id = "c";
  for (int i = 0; i < partitions; i++) r.partitions.push_back({{}, circuit().witness, {}, {}});
  return r;
}

TEST(KeyRelease, EngineReleasesWhatEveryDeviceKeepsAndChargesTheRest) {
  const Circuit& c = circuit();
  const uint64_t rows = engine::resident_bytes(LoadedCircuit{nullptr, c.cs, nullptr});
  const uint64_t ic = c.key->ic.size() * sizeof(G1Affine);
  // Every device keeps everything: the registry charges the rows and ic only.
  {
    ResidentEverything dev;
    Engine e(small_config(), {&dev});
    add_circuit(e);
    const JobResult r = e.prove(job(2));
    ASSERT_EQ(r.state, JobState::kCompleted) << r.error;  // verified: the CPU read the vectors back
    EXPECT_EQ(dev.released_keys.load(), 2);
    const auto list = e.circuits().list();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].bytes, rows + ic);
    // Evicted and loaded again: released again, still proving.
    EXPECT_TRUE(e.circuits().evict("c").was_loaded);
    EXPECT_FALSE(e.circuits().list()[0].resident);
    const JobResult again = e.prove(job(1));
    ASSERT_EQ(again.state, JobState::kCompleted) << again.error;
    EXPECT_EQ(e.circuits().list()[0].bytes, rows + ic);
    EXPECT_EQ(dev.released_keys.load(), 3);
  }
  // A CPU device beside it reads every point from host memory: nothing is released.
  {
    ResidentEverything dev;
    CpuBackend cpu(1);
    Engine e(small_config(), {&dev, &cpu});
    add_circuit(e);
    KeyVectorSet none{};
    EXPECT_EQ(e.device_resident(*c.key, nullptr), none);
    ASSERT_EQ(e.prove(job(1)).state, JobState::kCompleted);
    EXPECT_EQ(e.circuits().list()[0].bytes, rows + c.key->point_bytes());
  }
}

TEST(KeyRelease, PartitionsAreChargedWhatTheirBackendAdds) {
  const Circuit& c = circuit();
  const uint64_t extra = uint64_t{3} << 30;  // what a device says one partition takes beyond its assignment
  ResidentEverything dev(extra);
  EngineConfig cfg = small_config();
  Engine e(cfg, {&dev});
  add_circuit(e);
  ASSERT_EQ(e.prove(job(1)).state, JobState::kCompleted);
  const uint64_t charged = engine::partition_bytes(*c.cs) + extra;
  EXPECT_GE(e.status().memory_peak, charged);
}

/// VmRSS of this process, bytes.
uint64_t rss_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

/// How many of `path`'s pages are in the page cache (mincore over a fresh mapping).
size_t cached_pages(const fs::path& path, size_t* total) {
  const size_t size = fs::file_size(path), page = (size_t)::sysconf(_SC_PAGESIZE);
  const int fd = ::open(path.c_str(), O_RDONLY);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  std::vector<unsigned char> in((size + page - 1) / page);
  ::mincore(p, size, in.data());
  ::munmap(p, size);
  *total = in.size();
  size_t n = 0;
  for (unsigned char b : in) n += b & 1;
  return n;
}

TEST(KeyRelease, HostMemoryShowsTheRelease) {
  // A key of ~190 MB of valid points (the generators: read without the subgroup check, fast), written
  // to a real file system.
  ProvingKey k;
  k.log_n = 19;
  k.n_inputs = 1;
  k.n_aux = (uint32_t)(size_t{1} << 19);
  k.alpha1 = k.beta1 = k.delta1 = Curve<Fp>::generator();
  k.beta2 = k.gamma2 = k.delta2 = Curve<Fp2>::generator();
  k.ic.assign(1, Curve<Fp>::generator());
  k.h.assign((size_t{1} << 19) - 1, Curve<Fp>::generator());
  k.l.assign(k.n_aux, Curve<Fp>::generator());
  k.a.assign(k.n_aux, Curve<Fp>::generator());
  k.b_g1.assign(size_t{1} << 17, Curve<Fp>::generator());
  k.b_g2.assign(size_t{1} << 17, Curve<Fp2>::generator());
  const uint64_t key_bytes = k.point_bytes();
  const fs::path path = fs::current_path() / ("cuzk_release_rss_" + std::to_string(::getpid()) + ".params");
  {
    ThreadPool pool(2);
    write_params(path, k, &pool);
  }
  k = ProvingKey{};
  ParamsReadOptions opt;
  opt.subgroup = SubgroupCheck::kNo;
  opt.threads = 2;
  KeyVectorSet all;
  all.fill(true);
  opt.release = [all](const ProvingKey&, const CompactCs*) { return all; };
  const uint64_t before = rss_bytes();
  const ProvingKey released = read_params(path, opt);
  const uint64_t with_released = rss_bytes();
  EXPECT_LT(with_released, before + key_bytes / 20) << "released key: RSS grew by " << with_released - before;
  opt.release = {};
  {
    const ProvingKey full = read_params(path, opt);
    const uint64_t with_full = rss_bytes();
    EXPECT_GT(with_full, with_released + key_bytes * 9 / 10)
        << "the whole key: RSS grew by " << with_full - with_released;
    // The file's pages were dropped from the page cache as they were decoded.
    size_t total = 0;
    const size_t cached = cached_pages(path, &total);
    EXPECT_LT(cached, total / 10) << cached << " of " << total << " pages cached";
  }
  // The released key's vectors come back from the file.
  EXPECT_EQ(released.source->read_g1(KeyVector::kL).size(), size_t{1} << 19);
  fs::remove(path);
}

}  // namespace
}  // namespace cuzk::test
