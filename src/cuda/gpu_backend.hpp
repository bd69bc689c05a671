// The CUDA backend of the Groth16 prover (ProverBackend, groth16/backend.hpp). Plain C++ over the
// CUDA layer's host API (gpu.hpp, msm.hpp); part of the cuzk_cuda target.
//
// Per partition, under the backend's GPU mutex (REFERENCE.md §1 item 2, §8 "Pipeline"):
//   upload a, b, c → H by NTTs on the device in the key's convention → H MSM; upload aux once and
//   compact the A and B scalars by their density bitmaps on the device (gather_by_density); the A,
//   B_G1, L and (by default) B_G2 MSMs with the 0/1 split done on the device (Msm::msm_split01_device:
//   zeros skipped, ones summed by a batch addition, the tail by Pippenger). With g2_on_cpu the B_G2 MSM
//   runs instead on a bounded CPU pool after the mutex is released, overlapping the next partition's
//   GPU work; BackendPending::wait() joins it.
// SRS residency (groth16/device_plan.hpp): per key, the largest set of point vectors that fits beside one
// partition's buffers in the memory budget is uploaded once and kept (least recently used keys are
// evicted to make room); the other vectors are page-locked in host memory and streamed through two chunk
// buffers per MSM, chunk i + 1 crossing the link while chunk i's MSM runs. On a small budget the
// partition itself is arranged leaner (one witness slot, rows evaluated on the host, a, b, c transformed
// in sequence).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "groth16/backend.hpp"
#include "groth16/device_plan.hpp"

namespace cuzk {

/// Settings of a GpuBackend.
struct GpuBackendOptions {
  int device = 0;           ///< CUDA device ordinal
  size_t mem_budget = 0;    ///< bytes of device memory this backend may use in all: resident keys and rows,
                            ///< one partition's buffers and the chunks of streamed keys
                            ///< (groth16/device_plan.hpp); 0 = the device's whole memory
  bool g2_on_cpu = false;   ///< B_G2 MSM on a CPU pool (overlapped) instead of the GPU
  unsigned g2_threads = 0;  ///< threads of that pool (0 = all hardware threads)
};

/// ProverBackend on one CUDA device. Thread-safe: start() from several threads is serialized by a
/// per-device mutex that covers only the CUDA work. Every CUDA failure is thrown as Error(kCuda) and
/// leaves the backend usable (buffers are released, the next call starts clean).
class GpuBackend final : public ProverBackend {
 public:
  /// Binds to opt.device; throws Error(kCuda) when there is no such device.
  explicit GpuBackend(GpuBackendOptions opt = {});
  ~GpuBackend() override;
  GpuBackend(const GpuBackend&) = delete;
  GpuBackend& operator=(const GpuBackend&) = delete;

  /// "cuda:<device> (<GPU name>)".
  std::string name() const override;
  std::unique_ptr<BackendPending> start(std::shared_ptr<const ProvingKey> key,
                                        std::shared_ptr<const Assignment> asg) override;
  /// Calls `aux_read` once the host witness has been read for the last time: when its upload beside the
  /// H MSM has landed (from the thread that uploads it), or before the H MSM when the witness went up with
  /// H's rows or into a witness slot; never when B_G2 is proved on the CPU.
  std::unique_ptr<BackendPending> start_releasing(std::shared_ptr<const ProvingKey> key,
                                                  std::shared_ptr<const Assignment> asg,
                                                  const std::function<void()>& aux_read) override;
  /// The vectors plan(key, rows) keeps resident (b_g2 left out when it is proved on the CPU, g2_on_cpu).
  /// A vector the key released is read from its source when it is uploaded (first use, or again after
  /// an eviction or a change of plan), and held here when a plan streams it.
  KeyVectorSet device_resident(const ProvingKey& key, const CompactCs* rows) const override;
  /// By plan(key, rows): a, b, c and the witness (32·(3·n + n_vars)) when deferred rows are evaluated on
  /// the host, the parked a (32·n) when they stream, plus the B scalars (32·b) with g2_on_cpu.
  uint64_t partition_host_bytes(const ProvingKey& key, const CompactCs* rows) const override;

  /// Uploads `key`'s points now (planned with `rows`, the compact rows of its deferred assignments, if
  /// any) so that the first proof does not pay for it. Returns true when the key is resident afterwards,
  /// false when it does not fit the budget (it will be streamed).
  bool preload(const std::shared_ptr<const ProvingKey>& key, const CompactCs* rows = nullptr);
  /// Drops `key`'s resident copy (after any start() using it returns); the bytes freed, 0 if none.
  size_t evict(const ProvingKey* key);
  /// Whether `key` is resident now.
  bool resident(const ProvingKey* key) const;
  /// How `key` is (or would be) laid out on this device at the budget in force: which vectors stay
  /// resident, which stream, in what chunks (groth16/device_plan.hpp). `rows`: the compact rows of its
  /// deferred assignments, if any.
  DevicePlan plan(const ProvingKey& key, const CompactCs* rows = nullptr) const;
  /// Device bytes the resident keys hold.
  size_t resident_bytes() const;
  /// The budget in force (resolved when it was auto).
  size_t mem_budget() const;
  const GpuBackendOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Number of CUDA devices (0 without a GPU or driver; never throws).
int gpu_device_count();

}  // namespace cuzk
