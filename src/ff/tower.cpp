#include <utility>

#include "ff/bigint.hpp"
#include "ff/fp6.hpp"

namespace cuzk {
namespace {

/// γ[k][e] = ξ^(e·(p^k − 1)/6) for k = 0..11, e = 0..5, from γ_1 = ξ^((p − 1)/6) and
/// ξ^((p^k − 1)/6) = (ξ^((p^(k−1) − 1)/6))^p · γ_1, where z^p = conj(z) in Fp2.
struct FrobeniusTable {
  Fp2 g[12][6];
  FrobeniusTable() {
    auto e = bigint::div_small(bigint::add_small(bigint::modulus<Fp>(), -1), 6);
    Fp2 xi{Fp::one(), Fp::one()};
    Fp2 g1 = xi.pow(e.data(), Fp::N);
    Fp2 gk = Fp2::one();
    for (int k = 0; k < 12; k++) {
      g[k][0] = Fp2::one();
      for (int i = 1; i < 6; i++) g[k][i] = g[k][i - 1] * gk;
      gk = gk.conj() * g1;
    }
  }
};

const FrobeniusTable& frob() {
  static const FrobeniusTable t;
  return t;
}

Fp2 frob2(const Fp2& a, int k) { return (k & 1) ? a.conj() : a; }

}  // namespace

Fp6 Fp6::frobenius(int k) const {
  const auto& g = frob().g[k % 12];
  return {frob2(c0, k), frob2(c1, k) * g[2], frob2(c2, k) * g[4]};
}

Fp12 Fp12::frobenius(int k) const {
  const auto& g = frob().g[k % 12];
  Fp6 a = c0.frobenius(k), b = c1.frobenius(k);
  return {a, b.mul_fp2(g[1])};
}

namespace {
/// (a + b·s)² in Fp4 = Fp2[s]/(s² − ξ): returns (a² + ξ·b², 2ab) with 2ab = (a + b)² − a² − b².
std::pair<Fp2, Fp2> fp4_sqr(const Fp2& a, const Fp2& b) {
  Fp2 a2 = a.sqr(), b2 = b.sqr();
  return {b2.mul_by_xi() + a2, (a + b).sqr() - a2 - b2};
}
/// 3t ∓ 2z, the two shapes of Granger–Scott's output coefficients.
Fp2 three_minus_two(const Fp2& t, const Fp2& z) { return (t - z).dbl() + t; }
Fp2 three_plus_two(const Fp2& t, const Fp2& z) { return (t + z).dbl() + t; }
}  // namespace

Fp12 Fp12::cyclotomic_sqr() const {
  // Fp12 seen as Fp4³ with the pairs (c0.c0, c1.c1), (c1.c0, c0.c2), (c0.c1, c1.c2).
  auto [a0, a1] = fp4_sqr(c0.c0, c1.c1);
  auto [b0, b1] = fp4_sqr(c1.c0, c0.c2);
  auto [d0, d1] = fp4_sqr(c0.c1, c1.c2);
  return {{three_minus_two(a0, c0.c0), three_minus_two(b0, c0.c1), three_minus_two(d0, c0.c2)},
          {three_plus_two(d1.mul_by_xi(), c1.c0), three_plus_two(a1, c1.c1), three_plus_two(b1, c1.c2)}};
}

Fp12 Fp12::pow(const uint64_t* e, int nlimbs) const {
  Fp12 r = one();
  for (int i = nlimbs - 1; i >= 0; i--)
    for (int b = 63; b >= 0; b--) {
      r = r.sqr();
      if ((e[i] >> b) & 1) r = r * *this;
    }
  return r;
}

}  // namespace cuzk
