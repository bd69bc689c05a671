#include "groth16/cpu_backend.hpp"

#include <algorithm>
#include <chrono>

#include "groth16/compact_cs.hpp"
#include "msm/pippenger.hpp"
#include "ntt/ntt.hpp"
#include "util/error.hpp"
#include "util/fault.hpp"

namespace cuzk {
namespace {

class Ready final : public BackendPending {
 public:
  explicit Ready(PartitionSums s) : sums_(std::move(s)) {}
  PartitionSums wait() override { return std::move(sums_); }

 private:
  PartitionSums sums_;
};

/// Times fn() into `stages` under `name`.
template <class Fn>
auto timed(StageTimes& stages, const char* name, Fn&& fn) {
  auto t0 = std::chrono::steady_clock::now();
  auto out = fn();
  stages.emplace_back(
      name, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  return out;
}

}  // namespace

BigVector<Fr> h_snarkjs(std::span<Fr> a, std::span<Fr> b, int log_n, ThreadPool& pool) {
  const size_t n = size_t{1} << log_n;
  if (a.size() != n || b.size() != n)
    throw Error(ErrorCode::kInvalidArgument, "h_snarkjs: A and B must have domain size " + std::to_string(n));
  Domain d(log_n, RootConvention::kSnarkjs5);
  BigVector<Fr> c(n);
  mul_sub_pointwise(d, c, a, b, {}, pool);
  const BigVector<Fr> factors = coset_factors(d, coset_shift_snarkjs(log_n), pool);
  for (std::span<Fr> v : {a, b, std::span<Fr>(c)}) values_to_coset(d, v, factors, pool);
  mul_sub_pointwise(d, c, a, b, c, pool);
  return c;
}

BigVector<Fr> h_bellperson(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, int log_n, ThreadPool& pool) {
  const size_t n = size_t{1} << log_n;
  if (a.size() != n || b.size() != n || c.size() != n)
    throw Error(ErrorCode::kInvalidArgument,
                "h_bellperson: a, b and c must have domain size " + std::to_string(n));
  Domain d(log_n, RootConvention::kGenerator7);
  const Fr g = Fr::from_u64(7);
  const BigVector<Fr> factors = coset_factors(d, g, pool);
  for (std::span<Fr> v : {a, b, c}) values_to_coset(d, v, factors, pool);
  BigVector<Fr> h(n);
  mul_sub_pointwise(d, h, a, b, c, pool);
  // Z(x) = xⁿ − 1 is the constant gⁿ − 1 on the coset g·⟨ω⟩.
  const Fr z_inv = (g.pow_u64(n) - Fr::one()).inverse();
  pool.parallel_for(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) h[i] *= z_inv;
  });
  coset_intt(d, h, g, pool);
  h.resize(n - 1);
  return h;
}

CpuBackend::CpuBackend(unsigned threads) : pool_(threads) {}

BigVector<Fr> CpuBackend::h(const ProvingKey& key, const Assignment& asg) {
  if (asg.rows) {  // deferred: a, b, c from the rows, here
    BigVector<Fr> a, b, c;
    evaluate_abc(*asg.rows, witness_of(asg), a, b, c, pool_);
    if (key.convention == HConvention::kSnarkjs) return h_snarkjs(a, b, key.log_n, pool_);
    return h_bellperson(a, b, c, key.log_n, pool_);
  }
  // a, b, c may be shorter than the domain: the rows past them are zero.
  auto padded = [n = key.domain_size()](const Scalars& v) {
    BigVector<Fr> out(n);
    std::copy(v.begin(), v.end(), out.begin());
    std::fill(out.begin() + (ptrdiff_t)v.size(), out.end(), Fr::zero());
    return out;
  };
  BigVector<Fr> a = padded(asg.a), b = padded(asg.b);
  if (key.convention == HConvention::kSnarkjs) return h_snarkjs(a, b, key.log_n, pool_);
  BigVector<Fr> c = padded(asg.c);
  return h_bellperson(a, b, c, key.log_n, pool_);
}

std::unique_ptr<BackendPending> CpuBackend::start(std::shared_ptr<const ProvingKey> key,
                                                  std::shared_ptr<const Assignment> asg) {
  check_fault(FaultPoint::kBackendStart, "cpu start");  // tests: a failed launch (util/fault.hpp)
  key = with_host_vectors(std::move(key));              // released vectors are read again for this partition
  PartitionSums s;
  StageTimes& st = s.stages;
  const BigVector<Fr> hv = timed(st, "h", [&] { return h(*key, *asg); });
  s.h = timed(st, "msm_h", [&] { return msm<Fp>(key->h, hv, pool_); });
  const BigVector<Fr> as = a_scalars(*asg);
  s.a = timed(st, "msm_a", [&] { return msm<Fp>(key->a, as, pool_); });
  const BigVector<Fr> bs = b_scalars(*asg);
  s.b_g1 = timed(st, "msm_b_g1", [&] { return msm<Fp>(key->b_g1, bs, pool_); });
  s.l = timed(st, "msm_l", [&] { return msm<Fp>(key->l, asg->aux, pool_); });
  s.b_g2 = timed(st, "msm_b_g2", [&] { return msm<Fp2>(key->b_g2, bs, pool_); });
  return std::make_unique<Ready>(std::move(s));
}

}  // namespace cuzk
