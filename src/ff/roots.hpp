// Roots of unity of Fr for NTT domains 2^1..2^32 (Fr's two-adicity is 32).
#pragma once

#include "ff/bls12_381.hpp"

namespace cuzk {

/// Which multiplicative generator the roots of unity are derived from. Both give a primitive 2^k-th
/// root ω_k = g^((r − 1)/2^k); the two families differ, and a prover must use the one its SRS was
/// built with (REFERENCE.md §4).
enum class RootConvention {
  kGenerator7,  ///< bellperson, blst, arkworks: g = 7
  kSnarkjs5,    ///< snarkjs/ffjavascript: g = 5
};

/// Primitive 2^log_n-th root of unity, log_n in 0..32 (0 gives 1). Throws std::out_of_range otherwise.
Fr root_of_unity(int log_n, RootConvention conv);

}  // namespace cuzk
