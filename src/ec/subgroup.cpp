#include "ec/subgroup.hpp"

#include <array>

#include "ff/bigint.hpp"
#include "ff/sqrt.hpp"

namespace cuzk {
namespace {

/// |x| for the BLS parameter x = −0xd201000000010000.
constexpr uint64_t kAbsX = 0xd201000000010000ULL;

/// |x|·P by double-and-add over the six set bits of |x| (MSB first).
template <class F>
Jacobian<F> mul_abs_x(const Jacobian<F>& p) {
  Jacobian<F> acc = p;
  for (int b = 62; b >= 0; b--) {
    acc = acc.dbl();
    if ((kAbsX >> b) & 1) acc += p;
  }
  return acc;
}

/// Whether the Jacobian point q equals the affine point (x, y), without inverting q.Z.
template <class F>
bool equals_affine(const Jacobian<F>& q, const F& x, const F& y) {
  if (q.is_inf()) return false;
  F z2 = q.Z.sqr();
  return q.X == x * z2 && q.Y == y * z2 * q.Z;
}

/// β: the cube root of unity with φ(G) = −x²·G on the G1 generator.
Fp g1_beta() {
  // Roots of β² + β + 1: (−1 ± √−3)/2.
  const Fp s = *sqrt(-Fp::from_u64(3)), half = Fp::from_u64(2).inverse();
  const G1Affine g = Curve<Fp>::generator();
  const G1 x2g = mul_abs_x(mul_abs_x(G1::from_affine(g)));  // x²·G
  for (const Fp& beta : {(s - Fp::one()) * half, (-s - Fp::one()) * half})
    if (equals_affine(x2g, beta * g.x, -g.y)) return beta;  // φ(G) = −x²G ⟺ x²G = (βx, −y)
  return Fp::zero();  // unreachable: one of the two roots acts as −x² on G1
}

struct PsiConstants {
  Fp2 cx, cy;
};
PsiConstants psi_constants() {
  const auto p_minus_1 = bigint::add_small(bigint::modulus<Fp>(), -1);
  const auto e3 = bigint::div_small(p_minus_1, 3), e2 = bigint::div_small(p_minus_1, 2);
  const Fp2 xi{Fp::one(), Fp::one()};  // 1 + u
  return {xi.pow(e3.data(), Fp::N).inverse(), xi.pow(e2.data(), Fp::N).inverse()};
}

}  // namespace

bool in_subgroup_fast(const G1Affine& p) {
  if (p.is_inf()) return true;
  static const Fp beta = g1_beta();
  // φ(P) = −x²·P ⟺ x²·P = (β·x, −y).
  const G1 x2p = mul_abs_x(mul_abs_x(G1::from_affine(p)));
  return equals_affine(x2p, beta * p.x, -p.y);
}

bool in_subgroup_fast(const G2Affine& p) {
  if (p.is_inf()) return true;
  static const PsiConstants c = psi_constants();
  // ψ(P) = x·P = −|x|·P ⟺ |x|·P = −ψ(P).
  const G2 ap = mul_abs_x(G2::from_affine(p));
  return equals_affine(ap, p.x.conj() * c.cx, -(p.y.conj() * c.cy));
}

}  // namespace cuzk
