#include "ff/fp52x8.hpp"

namespace cuzk::ifma {

Fp52 to_fp52(const Fp& a) {
  static const Fp k = Fp::raw_pow2(416);  // X·2^416·2^−384 = X·2^32
  const Fp t = a * k;
  return repack52(t.l);
}

Fp from_fp52(const Fp52& a) {
  static const Fp k = Fp::raw_pow2(352);  // V·2^352·2^−384 = V·2^−32
  Fp t;
  repack64(a, t.l);
  if (!Fp::less_than_mod(t.l)) t = t - Fp::modulus_limbs();
  return t * k;
}

}  // namespace cuzk::ifma
