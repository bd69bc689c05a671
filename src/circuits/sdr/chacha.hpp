// ChaCha (Bernstein; RFC 8439 for the IETF variant) in the two forms Filecoin's SDR uses:
// - ChaCha8Rng with rand_chacha 0.3 semantics: the DRG parent sampler of BucketGraph
//   (rust-fil-proofs storage-proofs-core/src/drgraph.rs, `ChaCha8Rng::from_seed`, `rng.gen::<u64>()`);
// - ChaCha20 (IETF: 96-bit nonce, 32-bit block counter), the RustCrypto `chacha20` stream cipher with
//   byte seeking, used by the synthetic-PoRep challenges (storage-proofs-porep/.../challenges.rs).
// Portable C++; the tests check the block function against RFC 8439 and the ChaCha20 stream against
// OpenSSL.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::sdr {

/// One ChaCha block: `out` = rounds(`in`) + `in` as 16 words, with `double_rounds` double rounds
/// (4 for ChaCha8, 10 for ChaCha20). Serialise `out` little-endian for the keystream bytes.
void chacha_block(const uint32_t in[16], uint32_t out[16], int double_rounds);

/// rand_chacha 0.3's ChaCha8Rng: key = the 32-byte seed, 64-bit block counter from 0 (state words 12-13),
/// stream id 0 (words 14-15). The output is the keystream read as consecutive little-endian u32 words;
/// next_u64 takes two consecutive words, low word first (rand_core's BlockRng::next_u64, including
/// across a block boundary), which is what `rng.gen::<u64>()` returns.
class ChaCha8Rng {
 public:
  /// `from_seed(seed)`.
  explicit ChaCha8Rng(const std::array<uint8_t, 32>& seed);
  /// The next keystream word.
  uint32_t next_u32();
  /// Two keystream words, the first one low.
  uint64_t next_u64() {
    uint64_t lo = next_u32();
    return lo | (uint64_t(next_u32()) << 32);
  }

 private:
  void refill();
  uint32_t state_[16];
  uint32_t block_[16];
  unsigned index_ = 16;
};

/// The IETF ChaCha20 stream cipher (RFC 8439 §2.4) with byte-granular seeking, as RustCrypto's
/// `chacha20::ChaCha20` (`new(key, nonce)`, `try_seek(pos)`, `apply_keystream`).
class ChaCha20 {
 public:
  /// Key and 12-byte nonce; the stream starts at byte 0 (block counter 0).
  ChaCha20(const std::array<uint8_t, 32>& key, const std::array<uint8_t, 12>& nonce);
  /// Moves to keystream byte `pos`. Throws cuzk::Error(kInvalidArgument) past the 2^32-block stream.
  void seek(uint64_t pos);
  /// XORs the next data.size() keystream bytes into `data` and advances.
  void apply_keystream(std::span<uint8_t> data);

 private:
  uint32_t state_[16];
  uint64_t pos_ = 0;
};

}  // namespace cuzk::sdr
