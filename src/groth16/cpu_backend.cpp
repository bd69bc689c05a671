#include "groth16/cpu_backend.hpp"

#include "msm/pippenger.hpp"
#include "ntt/ntt.hpp"
#include "util/error.hpp"

namespace cuzk {

CpuBackend::CpuBackend(unsigned threads) : pool_(threads) {}

BigVector<Fr> CpuBackend::h_snarkjs(std::span<Fr> a, std::span<Fr> b, int log_n) {
  const size_t n = size_t{1} << log_n;
  if (a.size() != n || b.size() != n)
    throw Error(ErrorCode::kInvalidArgument, "h_snarkjs: A and B must have domain size " + std::to_string(n));
  Domain d(log_n, RootConvention::kSnarkjs5);
  BigVector<Fr> c(n);
  mul_sub_pointwise(d, c, a, b, {}, pool_);
  const BigVector<Fr> factors = coset_factors(d, coset_shift_snarkjs(log_n), pool_);
  for (std::span<Fr> v : {a, b, std::span<Fr>(c)}) values_to_coset(d, v, factors, pool_);
  mul_sub_pointwise(d, c, a, b, c, pool_);
  return c;
}

G1 CpuBackend::msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) {
  return msm<Fp>(bases, scalars, pool_);
}

G2 CpuBackend::msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) {
  return msm<Fp2>(bases, scalars, pool_);
}

}  // namespace cuzk
