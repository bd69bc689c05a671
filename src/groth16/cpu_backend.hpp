// The CPU backend: multithreaded NTT (ntt/ntt.hpp) and Pippenger MSM with the 0/1 split
// (msm/pippenger.hpp) on a caller-bounded thread pool. start() does all the work before it returns.
#pragma once

#include <memory>
#include <span>

#include "groth16/backend.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

/// ProverBackend on the host CPU. `threads` bounds the pool (0 = all hardware threads). Calls from
/// several threads are served one at a time (the pool runs one parallel loop at a time). A key with
/// released vectors (ProvingKey::released) is proved from a copy that reads them again
/// (with_host_vectors), once per start() call.
class CpuBackend final : public ProverBackend {
 public:
  explicit CpuBackend(unsigned threads = 0);
  std::string name() const override { return "cpu"; }
  std::unique_ptr<BackendPending> start(std::shared_ptr<const ProvingKey> key,
                                        std::shared_ptr<const Assignment> asg) override;
  /// H of one partition in `key`'s convention (REFERENCE.md §5): n − 1 coefficients (bellperson) or n
  /// odd-coset values (snarkjs), Montgomery form. Exposed for tests and benchmarks.
  BigVector<Fr> h(const ProvingKey& key, const Assignment& asg);
  ThreadPool& pool() { return pool_; }

 private:
  ThreadPool pool_;
};

/// snarkjs's H (REFERENCE.md §5): given A·w and B·w on the domain of size n = 2^log_n (natural order,
/// snarkjs roots), returns hⱼ = A(xⱼ)·B(xⱼ) − C(xⱼ) at the odd-coset points xⱼ = ω_{2n}^(2j+1), where
/// C = (A·w)∘(B·w) on the domain. `a` and `b` are overwritten.
BigVector<Fr> h_snarkjs(std::span<Fr> a, std::span<Fr> b, int log_n, ThreadPool& pool);

/// bellperson's H (src/groth16/prover.rs, REFERENCE.md §5): a, b, c on the domain (generator-7 roots) →
/// iNTT, coset 7·⟨ω⟩, NTT, h' = (a·b − c)/(7ⁿ − 1), inverse coset NTT → the n − 1 coefficients of H.
/// a, b, c are overwritten.
BigVector<Fr> h_bellperson(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, int log_n, ThreadPool& pool);

}  // namespace cuzk
