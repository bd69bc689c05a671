// The CPU backend: multithreaded NTT (ntt/ntt.hpp) and Pippenger MSM (msm/pippenger.hpp) on a
// caller-bounded thread pool.
#pragma once

#include <memory>

#include "groth16/backend.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

/// ProverBackend on the host CPU. `threads` bounds the pool (0 = all hardware threads).
class CpuBackend final : public ProverBackend {
 public:
  explicit CpuBackend(unsigned threads = 0);
  std::string name() const override { return "cpu"; }
  BigVector<Fr> h_snarkjs(std::span<Fr> a, std::span<Fr> b, int log_n) override;
  G1 msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) override;
  G2 msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) override;
  ThreadPool& pool() { return pool_; }

 private:
  ThreadPool pool_;
};

}  // namespace cuzk
