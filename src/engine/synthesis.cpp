#include "engine/synthesis.hpp"

#include "formats/binfile.hpp"
#include "formats/wtns.hpp"
#include "groth16/compact_cs.hpp"
#include "util/error.hpp"
#include "util/fault.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

uint64_t partition_bytes(const ConstraintSystem& cs) {
  return 32 * (2 * (uint64_t)cs.n_vars() + 7 * (uint64_t)cs.domain_size());
}

uint64_t partition_bytes(const LoadedCircuit& c, const WitnessInput& w) {
  if (!c.rows) return partition_bytes(*c.cs);
  const uint64_t witness = 32 * (uint64_t)c.rows->n_vars();
  return w.assign || (w.shared && !w.generate && w.values.empty()) ? witness : 2 * witness;
}

namespace {

void check_length(size_t values, uint32_t n_vars, const char* what) {
  if (values != n_vars)
    throw Error(ErrorCode::kInvalidArgument, std::string(what) + " has " + std::to_string(values) +
                                                 " values but the circuit has " + std::to_string(n_vars) +
                                                 " variables");
}

}  // namespace

Assignment synthesize_partition(const LoadedCircuit& c, const WitnessInput& w, ThreadPool& pool) {
  auto from = [&](std::span<const Fr> values) {
    return c.rows ? deferred_assignment(c.rows, values, pool) : synthesize(*c.cs, values, pool);
  };
  if (w.assign) {
    Assignment a = w.assign(c, pool);
    if (a.inputs.size() + a.aux.size() != c.n_vars())
      throw Error(ErrorCode::kInternal, "the generated assignment has " +
                                            std::to_string(a.inputs.size() + a.aux.size()) +
                                            " values but the circuit has " + std::to_string(c.n_vars()));
    return a;
  }
  if (w.generate) {
    const std::vector<Fr> values = w.generate(c, pool);
    check_length(values.size(), c.n_vars(), "the generated witness");
    return from(values);
  }
  if (!w.values.empty()) return from(w.values);
  if (w.shared) return from(*w.shared);
  if (w.wtns.empty()) throw Error(ErrorCode::kInvalidArgument, "the witness is empty");
  const std::vector<Fr> values = read_wtns(BinFile::from_bytes(w.wtns, "the witness (.wtns)", "wtns", 2));
  check_length(values.size(), c.n_vars(), "the witness");
  return from(values);
}

Assignment synthesize_partition(const ConstraintSystem& cs, const WitnessInput& w, ThreadPool& pool) {
  // A borrowed constraint system: the LoadedCircuit only aliases it for this call.
  LoadedCircuit c;
  c.cs = std::shared_ptr<const ConstraintSystem>(std::shared_ptr<const ConstraintSystem>(), &cs);
  return synthesize_partition(c, w, pool);
}

SynthesisWorkers::SynthesisWorkers(Pipeline& p, unsigned workers, unsigned threads) : p_(p) {
  workers = std::max(1u, workers);
  pool_ = std::make_unique<ThreadPool>(threads > workers ? threads - workers + 1 : 1);
  for (unsigned i = 0; i < workers; i++) threads_.emplace_back([this] { run(); });
}

SynthesisWorkers::~SynthesisWorkers() {
  for (auto& t : threads_) t.join();
}

void SynthesisWorkers::run() {
  while (std::unique_ptr<PartitionTask> task = p_.synth_queue.pop()) process(std::move(task), *pool_);
}

void SynthesisWorkers::process(std::unique_ptr<PartitionTask> task, ThreadPool& pool) {
  Job& job = *task->job;
  if (job.dropped) return p_.discard(std::move(task));
  try {
    task->circuit = p_.circuits.acquire(job.circuit_id);
    task->srs_load_ms = task->circuit.load_ms();
    const LoadedCircuit& circuit = task->circuit.circuit();
    task->memory =
        p_.memory.acquire(p_.partition_charge(circuit, task->witness), [&] { return job.dropped.load(); });
    if (job.dropped) return p_.discard(std::move(task));
    task->synth_start = Clock::now();
    if (!p_.tracker.start(job, task->synth_start)) return p_.discard(std::move(task));
    check_fault(FaultPoint::kSynthesis, "synthesis");  // tests (util/fault.hpp)
    task->asg = synthesize_partition(circuit, task->witness, pool);
    task->witness = {};
    task->synth_end = Clock::now();
  } catch (const std::exception& e) {
    p_.fail(*task, e.what());
    return;
  }
  std::unique_ptr<PartitionTask> t = std::move(task);
  if (!p_.gpu_queue.push(t)) p_.discard(std::move(t));
}

}  // namespace cuzk::engine
