// Stage 1, synthesis workers (CPU): take a partition from the submit queue, hold its circuit (loading
// it on first use), reserve its working set in the memory budget (waiting while it is spent), decode
// the witness and evaluate A·w, B·w, C·w with the density bitmaps (groth16/synthesis.hpp), then hand
// it to the GPU queue, waiting while that queue is full (back-pressure).
#pragma once

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "engine/pipeline.hpp"
#include "engine/registry.hpp"

namespace cuzk::engine {

/// Estimated host bytes of one partition in flight for `cs`: the witness, a, b, c and the backend's
/// scratch (H and MSM scalars), 32 bytes per value: 32·(2·n_vars + 7·n).
uint64_t partition_bytes(const ConstraintSystem& cs);
/// The same for a loaded circuit and one partition's witness: with compact rows (a, b, c deferred to the
/// backend) only the assignment's witness, 32·n_vars, when it is made in place (WitnessInput::assign) or
/// copied from shared values, and twice that when values of the partition's own are copied in (what a
/// backend adds while it proves is ProverBackend::partition_host_bytes).
uint64_t partition_bytes(const LoadedCircuit& c, const WitnessInput& w);

/// Makes or decodes `w` (a generator's values, Fr values, shared values or .wtns bytes) and synthesizes it
/// against the circuit's rows: a deferred assignment (compact_cs.hpp) when the circuit has compact rows,
/// else a, b, c evaluated here. Throws Error naming the problem (the generator's error, a corrupt .wtns, a
/// wrong length, witness[0] ≠ 1).
Assignment synthesize_partition(const LoadedCircuit& c, const WitnessInput& w, ThreadPool& pool);
/// synthesize_partition for a bare constraint system.
Assignment synthesize_partition(const ConstraintSystem& cs, const WitnessInput& w, ThreadPool& pool);

/// The synthesis worker threads; they stop when the submit queue is closed and empty.
class SynthesisWorkers {
 public:
  /// `workers` threads that synthesize one partition each at a time, sharing `threads` threads in all
  /// (themselves included): one pool of threads − workers + 1 (at least 1), whose workers help the
  /// partition begun first (util/thread_pool.hpp), so a lone partition (the first of a batch, while the
  /// GPU waits) is synthesized on all of them.
  SynthesisWorkers(Pipeline& p, unsigned workers, unsigned threads);
  /// Joins the threads (close the submit queue first).
  ~SynthesisWorkers();

 private:
  void run();
  void process(std::unique_ptr<PartitionTask> task, ThreadPool& pool);
  Pipeline& p_;
  std::unique_ptr<ThreadPool> pool_;
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::engine
