#include "engine/synthesis.hpp"

#include "formats/binfile.hpp"
#include "formats/wtns.hpp"
#include "util/error.hpp"

namespace cuzk::engine {

uint64_t partition_bytes(const ConstraintSystem& cs) {
  return 32 * (2 * (uint64_t)cs.n_vars() + 7 * (uint64_t)cs.domain_size());
}

namespace {

void check_length(size_t values, const ConstraintSystem& cs, const char* what) {
  if (values != cs.n_vars())
    throw Error(ErrorCode::kInvalidArgument, std::string(what) + " has " + std::to_string(values) +
                                                 " values but the circuit has " +
                                                 std::to_string(cs.n_vars()) + " variables");
}

}  // namespace

Assignment synthesize_partition(const ConstraintSystem& cs, const WitnessInput& w, ThreadPool& pool) {
  if (w.generate) {
    const std::vector<Fr> values = w.generate(cs, pool);
    check_length(values.size(), cs, "the generated witness");
    return synthesize(cs, values, pool);
  }
  if (!w.values.empty()) return synthesize(cs, w.values, pool);
  if (w.shared) return synthesize(cs, *w.shared, pool);
  if (w.wtns.empty()) throw Error(ErrorCode::kInvalidArgument, "the witness is empty");
  const std::vector<Fr> values = read_wtns(BinFile::from_bytes(w.wtns, "the witness (.wtns)", "wtns", 2));
  check_length(values.size(), cs, "the witness");
  return synthesize(cs, values, pool);
}

SynthesisWorkers::SynthesisWorkers(Pipeline& p, unsigned workers, unsigned threads_each) : p_(p) {
  for (unsigned i = 0; i < std::max(1u, workers); i++)
    threads_.emplace_back([this, threads_each] { run(threads_each); });
}

SynthesisWorkers::~SynthesisWorkers() {
  for (auto& t : threads_) t.join();
}

void SynthesisWorkers::run(unsigned threads) {
  ThreadPool pool(std::max(1u, threads));
  while (std::unique_ptr<PartitionTask> task = p_.synth_queue.pop()) process(std::move(task), pool);
}

void SynthesisWorkers::process(std::unique_ptr<PartitionTask> task, ThreadPool& pool) {
  Job& job = *task->job;
  if (job.dropped) return p_.discard(std::move(task));
  try {
    task->circuit = p_.circuits.acquire(job.circuit_id);
    task->srs_load_ms = task->circuit.load_ms();
    const ConstraintSystem& cs = *task->circuit.cs();
    task->memory = p_.memory.acquire(partition_bytes(cs), [&] { return job.dropped.load(); });
    if (job.dropped) return p_.discard(std::move(task));
    task->synth_start = Clock::now();
    if (!p_.tracker.start(job, task->synth_start)) return p_.discard(std::move(task));
    task->asg = synthesize_partition(cs, task->witness, pool);
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
