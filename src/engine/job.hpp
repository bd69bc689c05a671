// Jobs: what a client submits (one or more partitions of one circuit, one witness each) and what it
// gets back (one proof per partition, in partition order, or the reason the job failed).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"
#include "groth16/key.hpp"
#include "groth16/synthesis.hpp"
#include "util/error.hpp"

namespace cuzk {
struct ConstraintSystem;
class ThreadPool;
}  // namespace cuzk

namespace cuzk::engine {

struct LoadedCircuit;

using Clock = std::chrono::steady_clock;

/// Milliseconds between two instants (b − a), as a double.
inline double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

/// The time covered by at least one of the [begin, end) spans (their union), milliseconds: e.g. a job's
/// GPU time when its partitions' start() calls overlap (JobResult::gpu_ms).
double union_ms(std::vector<std::pair<Clock::time_point, Clock::time_point>> spans);

/// Scheduling priority; higher runs first. Values are cuzk.v1's Priority enum.
enum class Priority : int { kLow = 1, kNormal = 2, kHigh = 3, kCritical = 4 };

/// "low", "normal", "high", "critical".
const char* to_string(Priority p);

/// A job's state. kQueued until its first partition starts synthesis, then kRunning, then one of the
/// three final states.
enum class JobState { kQueued, kRunning, kCompleted, kFailed, kCancelled };

/// "queued", "running", "completed", "failed", "cancelled".
const char* to_string(JobState s);
inline bool is_final(JobState s) { return s != JobState::kQueued && s != JobState::kRunning; }

/// The witness of one partition: the full assignment inputs ‖ aux (variable 0 = ONE), as Fr values
/// (Montgomery form), as values shared between partitions (benchmarks: one big witness, many
/// partitions), as the bytes of a .wtns v2 file, decoded by a synthesis worker (so a corrupt witness
/// fails its own job there, off the submitting thread), or as a generator that a synthesis worker calls
/// to make the values (a PoRep partition from its C1, engine/porep.hpp porep_job_partitions). The
/// first non-empty of the four, in the order generate, values, shared, wtns, is used.
struct WitnessInput {
  /// Returns inputs ‖ aux (n_vars values) for the leased circuit, computed on `pool` (the synthesis
  /// worker's). May throw cuzk::Error naming the problem: that fails this job only.
  using Generator = std::function<std::vector<Fr>(const LoadedCircuit& circuit, ThreadPool& pool)>;
  std::vector<Fr> values;
  std::shared_ptr<const std::vector<Fr>> shared;
  std::vector<uint8_t> wtns;
  Generator generate;  ///< after the data members, so that {values, shared, wtns} initializers stay valid
  /// Makes the partition's whole assignment (a deferred one: compact_cs.hpp), writing the witness
  /// straight into it; used before all the others when set. Same error contract as Generator.
  using AssignmentGenerator = std::function<Assignment(const LoadedCircuit& circuit, ThreadPool& pool)>;
  AssignmentGenerator assign{};
};

/// What a client submits.
struct JobRequest {
  /// Idempotency key: a second submit with the same non-empty id returns the first job (while the
  /// engine remembers it, see EngineConfig::retained_jobs) and queues nothing, unless that job failed or
  /// was cancelled (then the second submit is a new job: a retry). A second submit under the id of a job
  /// not failed or cancelled that asks for something else (circuit, kind, partition count or fingerprint)
  /// is refused (SubmitRefused::Reason::kRequestIdInUse).
  std::string request_id;
  /// What the request asks for, as a digest (the daemon hashes every field of its request except
  /// request_id and priority); compared when a request_id is reused (two empty ones are equal).
  std::string fingerprint;
  /// Bytes the request holds beyond its partitions' wtns and values (e.g. the C1 that a PoRep job's
  /// generators share), counted with them as the job's input (EngineConfig::max_queued_bytes).
  uint64_t extra_bytes = 0;
  std::string circuit_id;  ///< a circuit of the registry
  Priority priority = Priority::kNormal;
  /// When the proof is due (e.g. a WindowPoSt partition's challenge window closing). From
  /// EngineConfig::deadline_lead_s before it the job's partitions run before those of every job
  /// without a near deadline, whatever their priority; among such jobs the earliest deadline first.
  std::optional<Clock::time_point> deadline;
  std::vector<WitnessInput> partitions;  ///< at least one
  std::string kind = "groth16";          ///< a label for queue statistics (e.g. the proof kind)
  /// Who submitted the job (the daemon: the client's connection, service/grpc_service.cpp client_key).
  /// When the finished jobs the engine remembers exceed its limits, the failed and cancelled ones of the
  /// owner that has the most of them are forgotten first, and completed ones only after every other
  /// failed or cancelled one (EngineConfig::retained_jobs): one client's failures cannot flush another's
  /// results.
  std::string owner;
};

/// Why Engine::submit refused a job; nothing was queued.
class SubmitRefused : public Error {
 public:
  enum class Reason {
    kShuttingDown,    ///< shutdown() began
    kRequestIdInUse,  ///< the request_id belongs to a job that asked for something else
    kOverLimit,       ///< the job's input does not fit in EngineConfig::max_queued_bytes now
  };
  SubmitRefused(Reason reason, const std::string& msg)
      : Error(ErrorCode::kInvalidArgument, msg), reason_(reason) {}
  Reason reason() const { return reason_; }

 private:
  Reason reason_;
};

/// Times of one partition, milliseconds: waiting in queues (before synthesis and before the GPU),
/// synthesis (witness decoding + A·w, B·w, C·w), the backend's start() call ("GPU part"), its b_g2 MSM
/// and the epilogue (from the backend's and the prover's stage times), and submit → proof.
struct PartitionTiming {
  double queue_ms = 0, synth_ms = 0, gpu_ms = 0, b_g2_ms = 0, epilogue_ms = 0, total_ms = 0;
  std::string device;  ///< the backend that proved it
  /// When the backend's start() call began and ended (gpu_ms apart), on this process's Clock; a farm
  /// node stores them as database times so that a job's GPU time is the union of its partitions' spans.
  Clock::time_point gpu_start{}, gpu_end{};
};

/// The answer of await(): the state and, when completed, one proof and its public inputs (without ONE)
/// per partition, in partition order.
struct JobResult {
  std::string job_id;
  std::string circuit_id;
  JobState state = JobState::kQueued;
  std::string error;  ///< why it failed or was cancelled
  std::vector<Groth16Proof> proofs;
  std::vector<std::vector<Fr>> public_inputs;
  std::vector<PartitionTiming> partitions;
  /// Job totals, milliseconds: submit → first synthesis; circuit loading it waited for; Σ synthesis;
  /// the time some start() call of the job was running (the union of its partitions' start() calls,
  /// which overlap on several workers, so gpu_ms ≤ total_ms); submit → final state.
  double queue_wait_ms = 0, srs_load_ms = 0, synthesis_ms = 0, gpu_ms = 0, total_ms = 0;
};

}  // namespace cuzk::engine
