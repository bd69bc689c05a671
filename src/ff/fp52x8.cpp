#include "ff/fp52x8.hpp"

namespace cuzk::ifma {
namespace {

/// The Fp whose Montgomery limbs are the canonical integer 2^e mod p (so a·it = a·2^(e−384)).
Fp raw_pow2(uint64_t e) {
  uint64_t v[Fp::N];
  Fp::from_u64(2).pow_u64(e).to_canonical(v);
  Fp r;
  for (int i = 0; i < Fp::N; i++) r.l[i] = v[i];
  return r;
}

}  // namespace

Fp52 to_fp52(const Fp& a) {
  static const Fp k = raw_pow2(416);  // X·2^416·2^−384 = X·2^32
  const Fp t = a * k;
  return repack52(t.l);
}

Fp from_fp52(const Fp52& a) {
  static const Fp k = raw_pow2(352);  // V·2^352·2^−384 = V·2^−32
  Fp t;
  repack64(a, t.l);
  if (!Fp::less_than_mod(t.l)) t = t - Fp::modulus_limbs();
  return t * k;
}

}  // namespace cuzk::ifma
