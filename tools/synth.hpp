// `cuzk synth porep --log2 K [--seed S]`: generates a PoRep-shaped synthetic circuit and its witness
// (groth16/synthetic.hpp) and describes them.
#pragma once

#include <cstdint>
#include <string>

namespace cuzk::cli {

/// Generates the circuit of `kind` ("porep") at 2^log2 from `seed` on `threads` threads (0 = all),
/// checks that the witness satisfies every row, and prints the shape: rows, inputs, aux, densities,
/// the witness value mix, nonzeros per row, generation and synthesis times. Returns the exit code.
int run_synth(const std::string& kind, int log2, uint64_t seed, unsigned threads);

}  // namespace cuzk::cli
