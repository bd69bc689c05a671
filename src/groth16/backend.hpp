// The compute backend of the Groth16 prover: everything heavy of one partition (H by NTTs and the
// five MSMs). The CPU backend (cpu_backend.hpp) and the CUDA backend implement the same interface, so
// the prover's split start → finalize flow (prover.hpp) is written once.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ec/curves.hpp"
#include "groth16/key.hpp"
#include "groth16/synthesis.hpp"

namespace cuzk {

/// Named stage durations in milliseconds, in the order the stages ran ("H", "msm_a", …).
using StageTimes = std::vector<std::pair<std::string, double>>;

/// The five MSM results of one partition (REFERENCE.md §1 items 2–3), Jacobian:
/// a = Σ A-points·(inputs ‖ aux[a_aux]), b_g1 / b_g2 = Σ B-points·(inputs[b_inp] ‖ aux[b_aux]),
/// l = Σ lᵢ·auxᵢ, h = Σ hⱼ·H-coefficientⱼ; plus what each stage took.
struct PartitionSums {
  G1 a, b_g1, l, h;
  G2 b_g2;
  StageTimes stages;
};

/// One partition's backend work after start(): the device part is queued or done; wait() returns the
/// sums once the rest (e.g. b_g2 on a CPU pool) has finished. Destroying it without wait() is allowed
/// and releases everything (it blocks until work that still reads its buffers has stopped).
class BackendPending {
 public:
  virtual ~BackendPending() = default;
  /// Blocks until the sums are ready. Throws cuzk::Error on failure (kCuda for a device error). Call once.
  virtual PartitionSums wait() = 0;
};

/// Heavy kernels of one proof. Implementations throw cuzk::Error on failure and stay usable afterwards.
/// start() may be called from several threads at once.
class ProverBackend {
 public:
  virtual ~ProverBackend() = default;
  /// A short name for logs and summaries ("cpu", "cuda:0").
  virtual std::string name() const = 0;
  /// Starts the work of one partition. The key and the assignment are shared with the returned handle,
  /// which keeps them alive until it is destroyed. Shapes are checked by the prover (check_shapes)
  /// before this call.
  virtual std::unique_ptr<BackendPending> start(std::shared_ptr<const ProvingKey> key,
                                                std::shared_ptr<const Assignment> asg) = 0;
};

/// The scalars of the A MSM: inputs ‖ aux[i] for the set bits of a_aux (one per point of key.a).
BigVector<Fr> a_scalars(const Assignment& asg);
/// The scalars of the B MSMs: inputs[i] for the set bits of b_inp ‖ aux[i] for the set bits of b_aux.
BigVector<Fr> b_scalars(const Assignment& asg);

}  // namespace cuzk
