#include "circuits/sdr/chacha.hpp"

#include <algorithm>
#include <cstring>

#include "util/error.hpp"

namespace cuzk::sdr {

namespace {

inline uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline uint32_t load32(const uint8_t* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

// "expand 32-byte k"
constexpr uint32_t kSigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

}  // namespace

void chacha_block(const uint32_t in[16], uint32_t out[16], int double_rounds) {
  uint32_t x[16];
  std::memcpy(x, in, sizeof x);
#define CUZK_QR(a, b, c, d) \
  do {                      \
    a += b;                 \
    d = rotl(d ^ a, 16);    \
    c += d;                 \
    b = rotl(b ^ c, 12);    \
    a += b;                 \
    d = rotl(d ^ a, 8);     \
    c += d;                 \
    b = rotl(b ^ c, 7);     \
  } while (0)
  for (int r = 0; r < double_rounds; r++) {
    CUZK_QR(x[0], x[4], x[8], x[12]);
    CUZK_QR(x[1], x[5], x[9], x[13]);
    CUZK_QR(x[2], x[6], x[10], x[14]);
    CUZK_QR(x[3], x[7], x[11], x[15]);
    CUZK_QR(x[0], x[5], x[10], x[15]);
    CUZK_QR(x[1], x[6], x[11], x[12]);
    CUZK_QR(x[2], x[7], x[8], x[13]);
    CUZK_QR(x[3], x[4], x[9], x[14]);
  }
#undef CUZK_QR
  for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

ChaCha8Rng::ChaCha8Rng(const std::array<uint8_t, 32>& seed) {
  for (int i = 0; i < 4; i++) state_[i] = kSigma[i];
  for (int i = 0; i < 8; i++) state_[4 + i] = load32(seed.data() + 4 * i);
  for (int i = 12; i < 16; i++) state_[i] = 0;
}

void ChaCha8Rng::refill() {
  chacha_block(state_, block_, 4);
  // 64-bit block counter in words 12 (low) and 13 (high).
  if (++state_[12] == 0) ++state_[13];
  index_ = 0;
}

uint32_t ChaCha8Rng::next_u32() {
  if (index_ == 16) refill();
  return block_[index_++];
}

ChaCha20::ChaCha20(const std::array<uint8_t, 32>& key, const std::array<uint8_t, 12>& nonce) {
  for (int i = 0; i < 4; i++) state_[i] = kSigma[i];
  for (int i = 0; i < 8; i++) state_[4 + i] = load32(key.data() + 4 * i);
  state_[12] = 0;
  for (int i = 0; i < 3; i++) state_[13 + i] = load32(nonce.data() + 4 * i);
}

void ChaCha20::seek(uint64_t pos) {
  if (pos > (uint64_t(1) << 38))
    throw Error(ErrorCode::kInvalidArgument, "chacha20: seek past the end of the keystream");
  pos_ = pos;
}

void ChaCha20::apply_keystream(std::span<uint8_t> data) {
  size_t done = 0;
  while (done < data.size()) {
    uint64_t block = pos_ / 64;
    if (block >= (uint64_t(1) << 32))
      throw Error(ErrorCode::kInvalidArgument, "chacha20: keystream exhausted (2^32 blocks)");
    uint32_t in[16], out[16];
    std::memcpy(in, state_, sizeof in);
    in[12] = uint32_t(block);
    chacha_block(in, out, 10);
    uint8_t ks[64];
    for (int i = 0; i < 16; i++)
      for (int j = 0; j < 4; j++) ks[4 * i + j] = uint8_t(out[i] >> (8 * j));
    size_t off = size_t(pos_ % 64);
    size_t take = std::min(data.size() - done, 64 - off);
    for (size_t i = 0; i < take; i++) data[done + i] ^= ks[off + i];
    done += take;
    pos_ += take;
  }
}

}  // namespace cuzk::sdr
