// bellperson's Groth16 parameter files: `.params` (the proving key) and `.vk` (the verifying key), as
// written by bellperson's `Parameters::write` and `VerifyingKey::write` (src/groth16/mod.rs) and read by
// SupraSeal C2. Layout, no padding, every point uncompressed in the zcash encoding (ec/encoding.hpp:
// big-endian, G1 96 bytes, G2 192 bytes with Fp2 as (c1, c0)):
//
//   α₁ (G1) | β₁ (G1) | β₂ (G2) | γ₂ (G2) | δ₁ (G1) | δ₂ (G2)        864 bytes, both files
//   u32 BE count | ic[count] (G1)                                   end of a .vk file
//   u32 BE count | h[count] (G1)      τⁱ·Z(τ)/δ, i < n − 1
//   u32 BE count | l[count] (G1)      one per aux variable
//   u32 BE count | a[count] (G1)      inputs, then aux variables with an A density bit
//   u32 BE count | b_g1[count] (G1)   inputs/aux with a B density bit
//   u32 BE count | b_g2[count] (G2)   the same variables as b_g1
//
// Checks, as bellperson's readers make them: every coordinate canonical (< p), every point on its curve
// and (unless opted out, bellperson's `checked = false`) in the order-r subgroup; the identity refused in
// ic, h, l, a, b_g1 and b_g2 ("point at infinity") but accepted in the six header points. Beyond
// bellperson: all counts are checked against the file size before anything is allocated, trailing bytes
// are refused, h must have 2^k − 1 points, b_g1 and b_g2 must have the same length, and a and b may not
// have more points than there are variables. Every failure throws cuzk::Error(kInvalidFile) whose message
// names the file, the vector and index (e.g. "h[1234]"), the byte offset and the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "ec/point_decoder.hpp"
#include "groth16/key.hpp"

namespace cuzk {

class ThreadPool;
struct CompactCs;

/// How read_params decodes.
struct ParamsReadOptions {
  /// kYes (default) checks that every point lies in the order-r subgroup: the time of ~1500 Fp
  /// multiplications per G1 point and ~2200 per G2 point, by far the largest cost of a load. kNo still checks
  /// that coordinates are canonical and points on the curve (bellperson's unchecked read checks neither); use
  /// it only for a file whose integrity is known otherwise (Filecoin checks a digest of each file).
  SubgroupCheck subgroup = SubgroupCheck::kYes;
  /// Threads that decode points when `pool` is null: 0 means every hardware thread.
  unsigned threads = 0;
  /// A pool to decode on instead of a temporary one of `threads` threads (not owned).
  ThreadPool* pool = nullptr;
  /// When set (not owned), the vectors h, l, a, b_g1 and b_g2 are decoded and checked by it; the header,
  /// the counts and ic stay on the CPU. An invalid point gives the same error as without it.
  PointDecoder* decoder = nullptr;
  /// When set, told how far the decoding of the vectors h, l, a, b_g1 and b_g2 has come: called with
  /// (points decoded so far, the points of those vectors), first with done = 0 once the header and the
  /// vectors' counts are read and agree with the file's size (a truncated or corrupt file throws before
  /// it), then after chunks of points on the CPU (from a decoding thread, never two calls at once, a chunk
  /// skipped while another thread reports) or after each vector with a decoder, and once more with
  /// done = total at the end. For a progress display: the subgroup check of a 1 GB key takes minutes on a
  /// few cores.
  std::function<void(uint64_t done, uint64_t total)> progress;
  /// When set (read_params of a path only), called once the header, ic and the vectors' counts are read,
  /// with a key that has them (every point vector released: ProvingKey::count gives the lengths) and
  /// `rows`: the vectors it returns are released rather than kept (ProvingKey::released, a
  /// ParamsVectorSource of the file as source). They are still checked now when `subgroup` is kYes
  /// (decoded in bounded chunks and dropped), so a later read needs no subgroup check. The daemon
  /// releases the vectors every GPU keeps resident (ProverBackend::device_resident).
  std::function<KeyVectorSet(const ProvingKey& shape, const CompactCs* rows)> release;
  /// Passed to `release` (not read otherwise): the compact rows of the circuit the key is for, if known.
  const CompactCs* rows = nullptr;
};

/// Reads a bellperson `.params` file into a ProvingKey with convention kBellperson, n_inputs = ic.size(),
/// n_aux = l.size() and log_n from h.size() = 2^log_n − 1. The file is mapped (mmap, sequential
/// read-ahead) and its points decoded in parallel (or by options.decoder), in chunks whose file pages are
/// dropped once decoded (madvise and posix_fadvise DONTNEED), so neither the mapping nor the page cache
/// holds a second copy of the key. Throws Error(kIo) if the file cannot be opened or mapped,
/// Error(kInvalidFile) for any malformed content (see the file comment).
ProvingKey read_params(const std::filesystem::path& path, const ParamsReadOptions& options = {});
/// The same on bytes in memory; `name` stands for the path in error messages.
ProvingKey read_params(std::span<const uint8_t> bytes, const std::string& name,
                       const ParamsReadOptions& options = {});

/// The KeyVectorSource of keys that read_params released vectors of: reads one vector of the .params file
/// again when a backend needs its points. Each read maps the file, checks that it is still the file that
/// was loaded (the size and modification time recorded when this source was made, and the vector's
/// count), decodes the vector on `threads` threads (0 = every hardware thread; coordinates canonical and
/// on the curve: the subgroup was checked when the key was loaded) and drops the file's pages as it goes.
class ParamsVectorSource final : public KeyVectorSource {
 public:
  /// Records `path`'s layout (the vectors' counts and offsets), size and modification time. Throws
  /// Error(kIo) when it cannot be read, Error(kInvalidFile) for a malformed layout.
  explicit ParamsVectorSource(std::filesystem::path path, unsigned threads = 0);
  BigVector<G1Affine> read_g1(KeyVector v) const override;
  BigVector<G2Affine> read_g2() const override;
  std::string describe() const override { return path_.string(); }

 private:
  std::filesystem::path path_;
  unsigned threads_;
  uint64_t size_ = 0;
  int64_t mtime_ns_ = 0;
  std::array<uint64_t, kKeyVectors> offset_{}, count_{};  // per KeyVector
};

/// Reads a bellperson `.vk` file: the six header points (each subgroup-checked; β₁ and δ₁ are checked
/// and dropped, VerifyingKey has no field for them), then ic. Throws Error(kIo) if the file cannot be
/// read, Error(kInvalidFile) naming the file, the point and the byte offset for malformed content.
VerifyingKey read_vk(const std::filesystem::path& path);
/// The same on bytes in memory; `name` stands for the path in error messages.
VerifyingKey read_vk(std::span<const uint8_t> bytes, const std::string& name);

/// Writes `key` as a bellperson `.params` file, atomically (temporary file, fsync, rename) and
/// streaming: points are encoded in parallel in chunks of 64 Ki points, so memory stays bounded for a
/// key of any size. `pool` (optional, not owned) encodes; without it a pool of all hardware threads is
/// started. Throws Error(kInvalidArgument) for a key the format or bellperson's reader cannot carry
/// (convention kSnarkjs, h.size() ≠ 2^log_n − 1, n_inputs ≠ ic.size(), n_aux ≠ l.size(), empty ic,
/// more than 2³² − 1 points in a vector, an identity point in a vector: the message names it), and
/// Error(kIo) when the OS refuses the write.
void write_params(const std::filesystem::path& path, const ProvingKey& key, ThreadPool* pool = nullptr);
/// The `.params` bytes of `key` in memory (tests and small keys; same checks as write_params).
std::vector<uint8_t> params_bytes(const ProvingKey& key, ThreadPool* pool = nullptr);

/// Writes the `.vk` file of `key` (its header points and ic) atomically. β₁ and δ₁ are part of the
/// format, which is why this takes the proving key. Throws like write_params.
void write_vk(const std::filesystem::path& path, const ProvingKey& key);
/// The `.vk` bytes of `key` in memory.
std::vector<uint8_t> vk_bytes(const ProvingKey& key);

}  // namespace cuzk
