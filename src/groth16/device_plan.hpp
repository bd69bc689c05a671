// How one proving key is laid out on a GPU of a given memory budget: which point vectors stay resident,
// which are streamed from host memory in double-buffered chunks, and how the partition's own buffers
// (a, b, c, the witness, the NTT and MSM scratch) are arranged to fit. Pure arithmetic over sizes, so
// that the CPU tests, `cuzk info gpu` and the GPU backend (src/cuda/gpu_backend.cpp) share one model.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "groth16/key.hpp"

namespace cuzk {

/// The sizes of a proving key that decide its device footprint (counts of points and variables).
struct DeviceShape {
  int log_n = 0;                                   ///< domain 2^log_n
  size_t n_inputs = 0;                             ///< public inputs including ONE
  size_t n_aux = 0;                                ///< auxiliary variables (= l)
  size_t a = 0, b_g1 = 0, b_g2 = 0, l = 0, h = 0;  ///< points per vector
  size_t rows_bytes = 0;  ///< the circuit's compact rows when a, b, c are evaluated on the device; 0 = none
  size_t rows_table_bytes = 0;  ///< of which its coefficient table (on the device also when rows stream)
  size_t ntt_table_bytes = 0;   ///< twiddle tables of the NTT at this size (cuda::GpuNtt::max_table_bytes)
};

/// The shape of `key` (rows and NTT tables left 0: the caller knows them).
DeviceShape device_shape(const ProvingKey& key);

/// Bytes of one vector on the device (96-byte G1 and 192-byte G2 affine points).
size_t key_vector_bytes(const DeviceShape& s, KeyVector v);

/// The plan for one key on one device budget.
struct DevicePlan {
  size_t budget = 0;  ///< device bytes the plan may use (the key's resident part, the partition, the chunks)
  std::array<bool, kKeyVectors> resident{};  ///< per KeyVector: on the device for the key's lifetime
  size_t resident_bytes = 0;                 ///< Σ bytes of the resident vectors
  size_t streamed_bytes = 0;                 ///< Σ bytes crossing the link per partition
  size_t chunk_bytes = 0;                    ///< each of the two chunk buffers (0: nothing is streamed)
  size_t msm_scratch_bytes = 0;  ///< bound on one MSM call's scratch (MsmConfig::max_scratch_bytes)
  int witness_slots =
      2;  ///< device witness slots (2: the next partition's upload overlaps; 0: aux goes up after H)
  bool rows_resident = false;    ///< compact rows kept on the device (a, b, c evaluated there)
  bool abc_in_sequence = false;  ///< a, b, c from the host, transformed one after another (two vectors
                                 ///< live instead of three); the witness goes up after H
  bool rows_streamed = false;    ///< rows streamed to the device in slices, a, b, c evaluated there, a parked
                                 ///< in host memory during b and c (with abc_in_sequence; no witness slot)
  bool h_lean = false;  ///< with rows_streamed: H in two vectors at most (a, b, c parked in host memory
                        ///< and streamed back; for the smallest cards)
  size_t rows_chunk_bytes = 0;  ///< each of the two slice buffers of streamed rows (≤ kRowsChunk)
  /// The side stream: L and A, when they stream (their scalars are the witness's aux, on the device before
  /// the H MSM, A's gathered by density a chunk at a time), cross through its own two buffers of this size
  /// and are summed by a second MSM engine, on a stream of the device's greatest priority, beside the H
  /// MSM, which is compute-bound and leaves the link mostly idle; its scratch is bounded by one buffer's
  /// size. 0: none (L and A stream after H, through the main chunks).
  size_t side_chunk_bytes = 0;
  bool side_l = false;         ///< L takes the side stream
  bool side_a = false;         ///< A takes the side stream (after L)
  size_t ntt_phase_bytes = 0;  ///< peak of the partition while H is computed (besides the resident key)
  size_t msm_phase_bytes = 0;  ///< peak of the partition during its MSMs (chunks included)
  double cost_seconds = 0;     ///< the model's time per partition beyond a resident proof (plan_device)
  bool fits = false;           ///< false: the budget is below the smallest arrangement (min_budget)
  size_t min_budget = 0;       ///< the smallest budget this key proves in

  /// True when no vector streams.
  bool all_resident() const { return streamed_bytes == 0; }
  /// One line for logs and `cuzk info gpu`, e.g. "resident h,l (24.0 GiB); streamed a,b_g1,b_g2 (…)".
  std::string describe() const;
};

/// The largest of the two buffers that stream a circuit's rows (DevicePlan::rows_chunk_bytes).
inline constexpr size_t kRowsChunk = size_t{256} << 20;

/// Device bytes of the packed witness uploads (cuda::UploadStaging::upload_packed_at) at the default
/// staging: the GPU backend's staging and its two witness slots', two 4 MiB buffers each.
inline constexpr size_t kUploadStagingDevice = 3 * 2 * (size_t{4} << 20);

/// Bytes kept free of any plan for the CUDA context's own allocations, the allocator's rounding and the
/// packed uploads' buffers.
inline constexpr size_t kDeviceReserve = (size_t{512} << 20) + kUploadStagingDevice;

/// What the side stream beside the H MSM may carry (DevicePlan::side_chunk_bytes).
enum class SideStream { kNone, kL, kLAndA };

/// Plans `shape` on `budget` bytes of device memory (`side`: what a side stream may carry;
/// CUZK_SIDE_STREAM=0 or =l in the GPU backend, to measure them). All the arrangements of a partition's own
/// buffers (two witness slots or one; rows on the device, evaluated on the host or streamed in slices; a, b,
/// c at once or in sequence, with the witness uploaded after H) and every set of resident point vectors are
/// tried, and the one with the least modelled cost wins: streamed bytes at 25 GB/s, host-evaluated rows at
/// PERFORMANCE.md §12's rate, an unoverlapped witness upload. The rest of the key streams through two
/// chunk buffers sized from what is left (at least 64 MiB each, at most 2 GiB). `fits` is false when
/// even the leanest arrangement with the smallest chunks exceeds the budget; `min_budget` then says
/// what it needs.
DevicePlan plan_device(const DeviceShape& shape, size_t budget, SideStream side = SideStream::kLAndA);

}  // namespace cuzk
