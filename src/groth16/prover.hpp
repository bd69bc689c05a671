// The Groth16 prover, one flow for both H conventions (REFERENCE.md §1, §5):
//   1. synthesis (synthesis.hpp) gives a partition's a, b, c on the domain and its density bitmaps;
//   2. start: the backend computes H and the MSMs over the density-compacted points (A, B_G1, L, H on
//      G1, B_G2 on G2), scalars 0 skipped and 1 summed by additions (the 0/1 split);
//   3. finalize: waits for the backend and runs the epilogue with blinding scalars r, s:
//        πA = α₁ + ΣA + r·δ₁,  πB = β₂ + ΣB₂ + s·δ₂,  B₁ = β₁ + ΣB₁ + s·δ₁,
//        πC = ΣL + ΣH + s·πA + r·B₁ − r·s·δ₁,
//      which is snarkjs's src/groth16_prove.js and bellperson's src/groth16/prover.rs alike.
// Every proof is verified with the pairing before it is returned (unless disabled), so a witness that
// does not satisfy the circuit never comes back as a proof.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "groth16/backend.hpp"
#include "groth16/key.hpp"
#include "groth16/r1cs.hpp"
#include "groth16/synthesis.hpp"

namespace cuzk {

/// Options of one proving call.
struct ProveOptions {
  /// Blinding scalars; when unset they are drawn from the OS CSPRNG (getrandom), fresh per partition.
  /// Set both for deterministic, byte-comparable proofs (tests, cross-checks against snarkjs); every
  /// partition of the call then uses the same r, s.
  std::optional<Fr> r, s;
  /// Per-partition blinding scalars (SupraSeal's r_s[], s_s[]); when non-empty they must have one entry
  /// per partition and take precedence over r, s.
  std::vector<Fr> r_each, s_each;
  /// Verify every proof with the pairing before returning it (a few ms each); on by default.
  bool verify = true;
  /// When given and a proof does not verify, the error names the first unsatisfied constraint.
  const R1cs* r1cs = nullptr;
  /// Progress callback (phase name), e.g. for a terminal status line. May be empty.
  std::function<void(const std::string&)> progress;
  /// Called with a partition's index when the backend no longer reads that assignment's aux values
  /// (ProverBackend::start_releasing: the GPU backend, after its last upload of the witness), before
  /// prove_start returns, on its thread or on one the backend joins before that; it may free the aux
  /// values and nothing else of the assignment. The owner of the assignment may then free them (the
  /// engine does, while other partitions wait for host memory). Such a partition's proof, should it
  /// fail to verify, cannot name its first unsatisfied row. May be empty.
  std::function<void(size_t partition)> aux_read;
};

/// A proof, its public inputs (without ONE) and the time each stage took (backend stages, then
/// "epilogue" and "verify").
struct ProveResult {
  Groth16Proof proof;
  std::vector<Fr> public_inputs;
  StageTimes stages;
};

/// Checks that `asg` fits `key`: same convention-independent shape (log_n, input and aux counts,
/// inputs[0] = 1, a/b/c lengths) and |A| = inputs + popcount(a_aux), |B| = popcount(b_inp) +
/// popcount(b_aux), |L| = aux, |H| = h_size(). Throws Error(kInvalidArgument) naming the first mismatch.
void check_shapes(const ProvingKey& key, const Assignment& asg);

/// What a proving key must match of a circuit: convention, domain, input (ONE included) and aux counts,
/// and the lengths of its A (inputs + popcount(a_aux)) and B (popcount(b_inp) + popcount(b_aux)) vectors.
struct KeyShape {
  HConvention convention;
  int log_n;
  uint32_t n_inputs, n_aux;
  size_t a_points, b_points;
};

/// Checks that `key` has `shape`. Throws Error(kInvalidArgument) "<what> belong to different circuits: …"
/// otherwise (`what` names the inputs, e.g. the two files).
void check_key_fits(const ProvingKey& key, const KeyShape& shape, const std::string& what);
/// check_key_fits for the shape of `cs` (its densities give the A and B lengths).
void check_key_fits(const ProvingKey& key, const ConstraintSystem& cs, const std::string& what);

/// The work of one start() call in flight: owns the key reference, the assignments, r and s and the
/// backend handles. Destroying it without finalize() frees everything.
class PendingProof {
 public:
  PendingProof();
  PendingProof(PendingProof&&) noexcept;
  PendingProof& operator=(PendingProof&&) noexcept;
  ~PendingProof();
  /// Number of partitions.
  size_t size() const;

 private:
  friend PendingProof prove_start(std::shared_ptr<const ProvingKey>,
                                  std::vector<std::shared_ptr<const Assignment>>, ProverBackend&,
                                  const ProveOptions&);
  friend std::vector<ProveResult> prove_finalize(PendingProof&&);
  struct State;
  std::unique_ptr<State> st_;
};

/// Starts proving `partitions` (one assignment each) with `key` on `backend`: checks every shape first
/// (nothing starts when one is wrong), then hands each partition to the backend and returns once the
/// backend's device part is queued or done. Partitions whose values are borrowed (Assignment::borrows)
/// are read only until this returns: the pending proof keeps their inputs alone. Throws Error on bad
/// shapes or a backend failure.
PendingProof prove_start(std::shared_ptr<const ProvingKey> key,
                         std::vector<std::shared_ptr<const Assignment>> partitions, ProverBackend& backend,
                         const ProveOptions& opt = {});
/// The same with assignments moved in.
PendingProof prove_start(std::shared_ptr<const ProvingKey> key, std::vector<Assignment> partitions,
                         ProverBackend& backend, const ProveOptions& opt = {});

/// Waits for the backend, runs the epilogue of each partition and verifies the proofs (opt.verify of the
/// start call). Returns one result per partition, in order. Throws Error(kUnsatisfied) when a proof
/// does not verify, or the backend's error. `p` is consumed either way.
std::vector<ProveResult> prove_finalize(PendingProof&& p);

/// prove_start + prove_finalize for one partition, the key borrowed for the duration of the call.
ProveResult prove(const ProvingKey& key, Assignment asg, ProverBackend& backend,
                  const ProveOptions& opt = {});

/// A uniformly random non-zero Fr element from the OS CSPRNG (getrandom(2)).
Fr random_fr_nonzero();

}  // namespace cuzk
