// The BLS12-381 groups: G1 ⊂ E(Fp), y² = x³ + 4, and G2 ⊂ E'(Fp2), y² = x³ + 4(u + 1) (the M-type
// sextic twist), both of prime order r. Generators from draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1.
#pragma once

#include <cstdint>
#include <vector>

#include "ec/point.hpp"
#include "ff/fp2.hpp"

namespace cuzk {

using G1Affine = Affine<Fp>;
using G1 = Jacobian<Fp>;
using G1XYZZ = XYZZ<Fp>;
using G2Affine = Affine<Fp2>;
using G2 = Jacobian<Fp2>;
using G2XYZZ = XYZZ<Fp2>;

/// Curve constants of one group: b and the generator.
template <class F>
struct Curve;

template <>
struct Curve<Fp> {
  static Fp b();
  static G1Affine generator();
};
template <>
struct Curve<Fp2> {
  static Fp2 b();
  static G2Affine generator();
};

/// True when the affine point satisfies y² = x³ + b (infinity counts as on the curve).
template <class F>
bool is_on_curve(const Affine<F>& p) {
  if (p.is_inf()) return true;
  return p.y.sqr() == p.x.sqr() * p.x + Curve<F>::b();
}

/// k·P for a scalar given as little-endian 64-bit limbs (any width; 0 gives ∞). 4-bit fixed window,
/// variable time.
template <class F>
Jacobian<F> scalar_mul(const Jacobian<F>& p, const uint64_t* k, int nlimbs) {
  Jacobian<F> table[16];
  table[0] = Jacobian<F>::infinity();
  for (int i = 1; i < 16; i++) table[i] = table[i - 1] + p;
  Jacobian<F> acc = Jacobian<F>::infinity();
  for (int i = nlimbs - 1; i >= 0; i--)
    for (int w = 60; w >= 0; w -= 4) {
      acc = acc.dbl().dbl().dbl().dbl();
      unsigned d = (k[i] >> w) & 15;
      if (d) acc += table[d];
    }
  return acc;
}
/// k·P for k an element of Fr (its canonical value).
template <class F>
Jacobian<F> scalar_mul(const Jacobian<F>& p, const Fr& k) {
  uint64_t c[Fr::N];
  k.to_canonical(c);
  return scalar_mul(p, c, Fr::N);
}
template <class F>
Jacobian<F> scalar_mul(const Affine<F>& p, const Fr& k) {
  return scalar_mul(Jacobian<F>::from_affine(p), k);
}

/// True when r·P = ∞, i.e. P lies in the prime-order subgroup (P must be on the curve).
template <class F>
bool is_in_subgroup(const Affine<F>& p) {
  uint64_t r[Fr::N];
  for (int i = 0; i < Fr::N; i++) r[i] = FrParams::mod(i);
  return scalar_mul(Jacobian<F>::from_affine(p), r, Fr::N).is_inf();
}

/// Converts many Jacobian points to affine with one inversion (Montgomery's trick); ∞ stays ∞.
template <class F>
std::vector<Affine<F>> batch_to_affine(const std::vector<Jacobian<F>>& in) {
  std::vector<Affine<F>> out(in.size());
  std::vector<F> prefix(in.size());
  F acc = F::one();
  for (size_t i = 0; i < in.size(); i++) {
    prefix[i] = acc;
    if (!in[i].is_inf()) acc = acc * in[i].Z;
  }
  F inv = acc.inverse();
  for (size_t i = in.size(); i-- > 0;) {
    if (in[i].is_inf()) {
      out[i] = Affine<F>::infinity();
      continue;
    }
    F zi = inv * prefix[i];
    inv = inv * in[i].Z;
    F zi2 = zi.sqr();
    out[i] = {in[i].X * zi2, in[i].Y * zi2 * zi};
  }
  return out;
}

}  // namespace cuzk
