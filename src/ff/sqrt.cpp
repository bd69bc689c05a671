#include "ff/sqrt.hpp"

#include "ff/bigint.hpp"

namespace cuzk {

std::optional<Fp> sqrt(const Fp& a) {
  static const auto e = bigint::div_small(bigint::add_small(bigint::modulus<Fp>(), 1), 4);
  Fp x = a.pow(e.data(), Fp::N);
  if (x.sqr() != a) return std::nullopt;
  return x;
}

std::optional<Fr> sqrt(const Fr& a) {
  if (a.is_zero()) return a;
  constexpr int s = FrParams::two_adicity;
  // r − 1 = 2^s · t with t odd
  static const auto t = [] {
    auto m = bigint::add_small(bigint::modulus<Fr>(), -1);
    for (int i = 0; i < s; i++) m = bigint::div_small(m, 2);
    return m;
  }();
  static const auto t_plus_1_half = bigint::div_small(bigint::add_small(t, 1), 2);
  if (a.legendre() != 1) return std::nullopt;
  Fr z = Fr::from_u64(7).pow(t.data(), Fr::N);  // 7 generates Fr*, so z has order 2^s
  Fr x = a.pow(t_plus_1_half.data(), Fr::N);
  Fr b = a.pow(t.data(), Fr::N);
  int m = s;
  while (!b.is_one()) {
    int i = 0;
    Fr b2 = b;
    while (!b2.is_one()) {
      b2 = b2.sqr();
      i++;
    }
    Fr g = z;
    for (int j = 0; j < m - i - 1; j++) g = g.sqr();
    z = g.sqr();
    x = x * g;
    b = b * z;
    m = i;
  }
  return x;
}

std::optional<Fp2> sqrt(const Fp2& a) {
  if (a.is_zero()) return a;
  static const auto e1 = bigint::div_small(bigint::add_small(bigint::modulus<Fp>(), -3), 4);
  static const auto e2 = bigint::div_small(bigint::add_small(bigint::modulus<Fp>(), -1), 2);
  Fp2 a1 = a.pow(e1.data(), Fp::N);
  Fp2 alpha = a1.sqr() * a;
  Fp2 a0 = alpha.conj() * alpha;
  Fp2 minus_one = -Fp2::one();
  if (a0 == minus_one) return std::nullopt;
  Fp2 x0 = a1 * a;
  Fp2 x;
  if (alpha == minus_one) {
    x = Fp2{-x0.c1, x0.c0};  // u·x0
  } else {
    Fp2 b = (Fp2::one() + alpha).pow(e2.data(), Fp::N);
    x = b * x0;
  }
  if (x.sqr() != a) return std::nullopt;
  return x;
}

}  // namespace cuzk
