// `cuzk selfcheck`: a quick end-to-end check of the arithmetic core (and the GPU when present).
#pragma once

namespace cuzk::cli {

/// Runs the checks, prints one line per check, returns 0 when all pass.
int run_selfcheck();

}  // namespace cuzk::cli
