// The compute backend of the Groth16 prover: everything heavy of one partition (H by NTTs and the
// five MSMs). The CPU backend (cpu_backend.hpp) and the CUDA backend implement the same interface, so
// the prover's split start → finalize flow (prover.hpp) is written once.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ec/curves.hpp"
#include "groth16/key.hpp"
#include "groth16/synthesis.hpp"

namespace cuzk {

struct CompactCs;

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
  /// start(), also saying when the assignment's host aux values are no longer read: `aux_read`, when set,
  /// is called at most once, before this returns (on this thread or on one this call started and joins),
  /// once nothing of this partition's work reads asg->aux again, so that their owner may free them while
  /// the device still works (the GPU backend: after its last upload of the witness, while the H MSM
  /// runs). The callback must not touch what this call may be reading (the assignment's other members,
  /// the key). The default is start(),
  /// never calling `aux_read` (the CPU backend reads the witness to the end).
  virtual std::unique_ptr<BackendPending> start_releasing(std::shared_ptr<const ProvingKey> key,
                                                          std::shared_ptr<const Assignment> asg,
                                                          const std::function<void()>& aux_read);
  /// The point vectors this backend keeps in memory of its own for a key of `key`'s shape (only its
  /// counts are read; `rows`: the compact rows of its deferred assignments, if any), so that start() never
  /// reads their host copies: a key loaded for this backend may release them (ProvingKey::released), and
  /// the backend reads them from the key's source when it needs them again (an upload after an eviction).
  /// None by default: the CPU backend reads every point from host memory.
  virtual KeyVectorSet device_resident(const ProvingKey& key, const CompactCs* rows) const;
  /// Host bytes start() takes for one partition of `key` whose assignments defer a, b, c to `rows`, beyond
  /// the assignment itself (a, b, c evaluated on the host, H's scratch, copies of the witness and scalars),
  /// for the engine's memory budget; 0 when `rows` is null (the engine's estimate of a synthesized
  /// partition covers its backend's scratch). The default is the CPU backend's: 32 bytes a value for
  /// 7·n values of a, b, c and H and 2·(n_inputs + n_aux) of witness and scalar copies.
  virtual uint64_t partition_host_bytes(const ProvingKey& key, const CompactCs* rows) const;
};

/// The scalars of the A MSM: inputs ‖ aux[i] for the set bits of a_aux (one per point of key.a).
BigVector<Fr> a_scalars(const Assignment& asg);
/// The scalars of the B MSMs: inputs[i] for the set bits of b_inp ‖ aux[i] for the set bits of b_aux.
BigVector<Fr> b_scalars(const Assignment& asg);

}  // namespace cuzk
