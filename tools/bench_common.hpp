// What the benchmarks share: medians, random scalars uniform below r, and the JSON report (--json FILE)
// with the machine and build it was measured on.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ff/bls12_381.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cli {

/// The median of `v` (the mean of the two middle values for an even count; 0 when empty).
double median(std::vector<double> v);

/// The process's peak resident set so far (getrusage's ru_maxrss), GiB.
double peak_rss_gib();

/// {"median_ms": median(ms), "reps_ms": ms}: one benchmarked operation, every timed repetition.
nlohmann::json timing_json(const std::vector<double>& ms);

/// n elements of Fr, independent and uniform over [1, r) (nonzero) or [0, r), deterministic in `seed`
/// and independent of the pool size: rejection sampling of 255-bit integers below r, which are taken as
/// Montgomery representations (a bijection of [0, r), so the values are uniform too).
std::vector<Fr> random_fr_uniform(size_t n, uint64_t seed, bool nonzero, ThreadPool& pool);

/// The machine and build of a measurement: host name, UTC date (ISO 8601), git commit of the build
/// (`git describe --always --dirty` at build time, or "unknown"), and with `gpu` (CUDA builds) the
/// name, SM count, peak SM and memory clocks (MHz), memory bus width and size of device 0 and the CUDA
/// runtime and driver versions. Reads device attributes only; changes no setting. Never throws: a field
/// that cannot be read is "unknown" (or 0).
nlohmann::json bench_environment(bool gpu);

/// Writes {"benchmark": name, "environment": bench_environment(gpu), "parameters": parameters,
/// "results": results} to `path` atomically (temporary file, then rename; formats/atomic_file.hpp).
/// Throws Error(kIo) naming the path when it cannot be written.
void write_bench_json(const std::string& path, const std::string& name, bool gpu,
                      const nlohmann::json& parameters, const nlohmann::json& results);

}  // namespace cuzk::cli
