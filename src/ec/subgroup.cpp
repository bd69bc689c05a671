#include "ec/subgroup.hpp"

#include "ff/bigint.hpp"
#include "ff/sqrt.hpp"

namespace cuzk {
namespace {

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

SubgroupConstants make_constants() {
  const auto p_minus_1 = bigint::add_small(bigint::modulus<Fp>(), -1);
  const auto e3 = bigint::div_small(p_minus_1, 3), e2 = bigint::div_small(p_minus_1, 2);
  const Fp2 xi{Fp::one(), Fp::one()};  // 1 + u
  return {g1_beta(), xi.pow(e3.data(), Fp::N).inverse(), xi.pow(e2.data(), Fp::N).inverse()};
}

}  // namespace

const SubgroupConstants& subgroup_constants() {
  static const SubgroupConstants c = make_constants();
  return c;
}

bool in_subgroup_fast(const G1Affine& p) { return in_subgroup_g1(p, subgroup_constants().beta); }

bool in_subgroup_fast(const G2Affine& p) {
  const SubgroupConstants& c = subgroup_constants();
  return in_subgroup_g2(p, c.psi_cx, c.psi_cy);
}

}  // namespace cuzk
