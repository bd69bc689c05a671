// SHA-256 (FIPS 180-4) for native hashing: Filecoin's tree-D nodes and labels (as test data and
// witnesses' expected values) and the canonical digest of a recorded circuit. Portable C++; the
// tests compare it with OpenSSL's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk {

/// Incremental SHA-256: update() any number of times, then finish() once.
class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;
  Sha256();
  /// Appends bytes to the message.
  void update(std::span<const uint8_t> data);
  void update(const void* data, size_t n) { update({static_cast<const uint8_t*>(data), n}); }
  /// Appends a little-endian u32.
  void update_u32_le(uint32_t v);
  /// Pads and returns the digest; the object must not be updated afterwards.
  Digest finish();
  /// SHA-256 of one buffer.
  static Digest hash(std::span<const uint8_t> data);

  /// The compression function on one 64-byte block (FIPS 180-4 §6.2.2), state as eight words.
  static void compress(uint32_t state[8], const uint8_t block[64]);
  /// The initial hash value H(0) (FIPS 180-4 §5.3.3).
  static const uint32_t kIv[8];
  /// The round constants K (FIPS 180-4 §4.2.2).
  static const uint32_t kK[64];

 private:
  uint32_t state_[8];
  uint8_t buf_[64];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

}  // namespace cuzk
