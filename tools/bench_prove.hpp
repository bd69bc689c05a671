// `cuzk bench prove`: proves PoRep-shaped synthetic circuits (REFERENCE.md §2) end to end and prints
// per-stage times, verifying every proof.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend_select.hpp"

namespace cuzk::cli {

/// Options of `cuzk bench prove`.
struct BenchProveArgs {
  int log2 = 16;       ///< domain 2^log2
  uint64_t seed = 1;   ///< circuit, witness and (in-memory) setup seed
  std::string params;  ///< a .params file for this circuit; empty = run the setup in memory
  /// Reads `params` (the CLI passes formats' read_params; required when params is set).
  std::function<ProvingKey(const std::string&)> load_params;
  int reps = 3;        ///< timed proofs (median reported), after one warm-up proof
  int gw = 1;          ///< GPU workers: threads that each loop start → finalize on the backend
  int partitions = 0;  ///< partitions for the throughput run with gw workers (0 = no such run)
  /// Throughput runs for every gw in {1, 2} × B_G2 on {gpu, cpu} instead of the one (gw, device.g2);
  /// GPU backends only.
  bool sweep = false;
  /// GPU backends: after the other runs, `reps` proofs with each of these GPU memory budgets (bytes, all
  /// device memory: the key's resident part, the partition, the streamed chunks), e.g. 16 and 24 GiB;
  /// prints each budget's plan, the pinned link rate, stage times and the device's peak memory.
  std::vector<size_t> stream_budgets;
  DeviceChoice device;
  /// When non-empty: also write the figures (every proof's stage times, the throughput runs) with the
  /// environment to this file, atomically (bench_common.hpp's write_bench_json).
  std::string json;
};

/// Runs the benchmark: generates the circuit and witness, makes or loads the key, synthesizes, proves
/// `reps` times printing each stage and the median, then (partitions > 0) `partitions` proofs with `gw`
/// workers printing the throughput. Every proof is verified (an invalid one is an error). Prints the
/// host memory peak and the GPU memory in use; with a.json set, writes the report there. Returns the
/// process exit code.
int bench_prove(const BenchProveArgs& a);

}  // namespace cuzk::cli
