// Radix-2 butterflies over Fr eight at a time with AVX-512 IFMA, for the CPU NTT (ntt.cpp).
//
// Data stays in the library's form (4 little-endian 64-bit limbs, Montgomery R = 2^256); each group of 8
// elements is transposed into lanes and split into 5 limbs of 52 bits. Twiddles are given in the lane
// Montgomery form R' = 2^260 (ω·2^260 mod r), so the lane product v·w·2^−260 of v·2^256 and ω·2^260 is
// v·ω·2^256: back in R form with no conversion of the data.
#pragma once

#include <cstddef>

#include "ff/bls12_381.hpp"

namespace cuzk::ntt_detail {

/// ω·2^4 in R form, i.e. the R' = 2^260 Montgomery form of ω (the twiddle form butterflies_x8 takes).
Fr to_lane_twiddle(const Fr& w);

/// For j in [j0, j1): (x[j], x[j + m]) ← (x[j] + w_j·x[j + m], x[j] − w_j·x[j + m]) with
/// w_j = W[j·stride] in lane form (to_lane_twiddle). j1 − j0 must be a multiple of 8, and the CPU must
/// have AVX-512 IFMA (ifma::cpu_has_ifma()). Inputs and outputs are canonical Fr.
void butterflies_x8(Fr* x, size_t m, size_t j0, size_t j1, const Fr* W, size_t stride);

/// The first three DIT stages (half-sizes 1, 2, 4) on each 8-element group of x[0, len) (len a multiple
/// of 64): eight groups at a time, one per lane. w8[j] = ω_8^j (j < 4) in lane form. Same CPU requirement.
void first_stages_x8(Fr* x, size_t len, const Fr* w8);

/// x[k] ← x[k]·w[k] for k < n (n a multiple of 8), w in lane form. Same CPU requirement.
void scale_x8(Fr* x, const Fr* w, size_t n);

/// out[k] ← a[k]·b[k] − c[k] for k < n (n a multiple of 8; c null: no subtraction); out may alias a, b
/// or c. Same CPU requirement.
void mul_sub_x8(Fr* out, const Fr* a, const Fr* b, const Fr* c, size_t n);

}  // namespace cuzk::ntt_detail
