// BLAKE2b (RFC 7693) for Filecoin's SDR: the Feistel round function of the expander graph
// (rust-fil-proofs storage-proofs-core/src/crypto/feistel.rs, blake2b_simd with the default 64-byte
// digest) and the keyed 32-byte key derivation of the synthetic-PoRep ChaCha20 streams
// (storage-proofs-porep/src/stacked/vanilla/challenges.rs, `chacha20_gen` / `chacha20_select`).
// Portable C++; the tests check it against RFC 7693's vector and OpenSSL's BLAKE2b-512.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::sdr {

/// Incremental BLAKE2b with a digest length of 1..64 bytes and an optional key of 0..64 bytes.
class Blake2b {
 public:
  /// Starts a hash with `out_len` digest bytes (1..64) keyed by `key` (0..64 bytes; empty = unkeyed).
  /// Throws cuzk::Error(kInvalidArgument) on a length out of range.
  explicit Blake2b(size_t out_len = 64, std::span<const uint8_t> key = {});
  /// Appends bytes to the message.
  void update(std::span<const uint8_t> data);
  /// Finishes and writes `out_len` bytes to `out`; the object must not be used afterwards.
  void finish(uint8_t* out);
  /// BLAKE2b-512 (unkeyed) of one buffer.
  static std::array<uint8_t, 64> hash512(std::span<const uint8_t> data);

  /// The compression function F (RFC 7693 §3.2): `h` is updated with the 128-byte `block`, byte
  /// counter `t` (low word; messages here are < 2^64 bytes) and final flag `last`.
  static void compress(uint64_t h[8], const uint8_t block[128], uint64_t t, bool last);
  /// The initialization vector (RFC 7693 §2.6).
  static const uint64_t kIv[8];
  /// The message schedule σ of the 12 rounds (RFC 7693 §2.7; rounds 10 and 11 repeat 0 and 1).
  static constexpr uint8_t kSigma[12][16] = {
      {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
      {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
      {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
      {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
      {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
      {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
      {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
      {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
      {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
      {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
      {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
      {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
  };

 private:
  uint64_t h_[8];
  uint8_t buf_[128];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
  size_t out_len_;
};

}  // namespace cuzk::sdr
