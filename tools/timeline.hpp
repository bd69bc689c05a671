// `cuzk timeline`: the engine's timeline CSV drawn as lanes (tools/timeline.cpp).
#pragma once

#include <string>

namespace cuzk::cli {

/// Reads the engine's timeline CSV at `csv` (header job,partition,circuit,device,submitted_ms,
/// synth_start_ms,synth_end_ms,gpu_start_ms,gpu_end_ms,finalized_ms), prints each stage's lanes and busy
/// fraction (unless quiet) and, when `svg` is not empty, writes the lanes picture there (atomically).
/// Throws Error(kIo) when the file cannot be read, Error(kInvalidFile) naming the line for a bad header,
/// a malformed row or times out of pipeline order. Returns 0.
int run_timeline(const std::string& csv, const std::string& svg, bool quiet);

}  // namespace cuzk::cli
