#include "groth16/cpu_backend.hpp"

#include "msm/pippenger.hpp"
#include "ntt/ntt.hpp"
#include "util/error.hpp"

namespace cuzk {

CpuBackend::CpuBackend(unsigned threads) : pool_(threads) {}

std::vector<Fr> CpuBackend::h_snarkjs(std::vector<Fr>& a, std::vector<Fr>& b, int log_n) {
  const size_t n = size_t{1} << log_n;
  if (a.size() != n || b.size() != n)
    throw Error(ErrorCode::kInvalidArgument, "h_snarkjs: A and B must have domain size " + std::to_string(n));
  std::vector<Fr> c(n);
  pool_.parallel_for(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) c[i] = a[i] * b[i];
  });
  Domain d(log_n, RootConvention::kSnarkjs5);
  const Fr shift = coset_shift_snarkjs(log_n);
  for (auto* v : {&a, &b, &c}) {
    intt(d, *v, pool_);
    coset_ntt(d, *v, shift, pool_);
  }
  pool_.parallel_for(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) c[i] = a[i] * b[i] - c[i];
  });
  return c;
}

G1 CpuBackend::msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) {
  return msm<Fp>(bases, scalars, pool_);
}

G2 CpuBackend::msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) {
  return msm<Fp2>(bases, scalars, pool_);
}

}  // namespace cuzk
