// The inputs and checks of sppark_anchor (anchor.cu), computed on the CPU with blst. Kept apart from
// anchor.cu because blst's public header and sppark's host field types (blst's internal headers) cannot
// be included together. Elements are passed as raw bytes in the layout blst and sppark share: Fr as
// 4 little-endian 64-bit limbs in Montgomery form (32 bytes), G1 affine as x, y of 6 limbs each in
// Montgomery form (96 bytes), G1 Jacobian as X, Y, Z (144 bytes).
#pragma once

#include <cstddef>
#include <cstdint>

namespace anchor {

inline constexpr size_t kFrBytes = 32, kAffineBytes = 96, kJacobianBytes = 144;

/// n uniform non-zero elements of Fr below 2^254, from `seed` (splitmix64), filled by `threads` threads.
void random_frs(void* out, size_t n, uint64_t seed, unsigned threads);
/// m distinct random points of G1, affine, by `threads` threads: Q_t + R_u for 2·⌈√m⌉ points k·G (k from a
/// fixed seed), which costs ~2√m scalar multiplications instead of m.
void random_points(void* out, size_t m, unsigned threads);
/// out_j = Σ_{i < n, i mod m = j} k_i for j < m (Fr, Montgomery form): the scalars of an MSM whose bases
/// repeat with period m, folded onto the first m bases.
void fold_scalars(const void* scalars, size_t n, size_t m, void* out);
/// Whether the n elements of Fr at a and b are equal as field elements (any representatives below 2^256).
bool same_frs(const void* a, const void* b, size_t n);
/// Whether two G1 points in Jacobian coordinates are the same point.
bool same_point(const void* a, const void* b);
/// Whether the 2^lg values w (the transform of e_1) are ω^k for a primitive 2^lg-th root ω = w[1], and
/// y equals the naive DFT Σ_j x_j·ω^(jk) of x.
bool is_dft(const void* x, const void* w, const void* y, unsigned lg);
/// Whether the Jacobian point `got` equals Σ scalars_i·bases_i over n terms (blst's CPU Pippenger).
bool is_msm(const void* bases, const void* scalars, size_t n, const void* got);
/// The checks above tried on the CPU before they judge sppark: is_dft accepts the DFT of 2^10 random
/// values by ω = 7^((r−1)/2^10) and rejects it with one value changed (as does same_frs, which accepts a
/// value plus r); random_points gives points of G1; is_msm accepts Σ k_i·P_i summed by scalar multiplications
/// (64 terms), and a 128-term sum over bases of period 64 with fold_scalars' scalars, and rejects that sum
/// plus G (as does same_point). Returns false if any of them is wrong.
bool self_test();

}  // namespace anchor
