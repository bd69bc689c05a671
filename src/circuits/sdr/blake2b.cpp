#include "circuits/sdr/blake2b.hpp"

#include <algorithm>
#include <cstring>

#include "util/error.hpp"

namespace cuzk::sdr {

const uint64_t Blake2b::kIv[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                                  0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                                  0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

namespace {

inline uint64_t rotr(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian hosts only (x86-64, CUDA)
  return v;
}

}  // namespace

void Blake2b::compress(uint64_t h[8], const uint8_t block[128], uint64_t t, bool last) {
  uint64_t m[16], v[16];
  for (int i = 0; i < 16; i++) m[i] = load64(block + 8 * i);
  for (int i = 0; i < 8; i++) v[i] = h[i], v[i + 8] = kIv[i];
  v[12] ^= t;
  if (last) v[14] = ~v[14];
#define CUZK_B2B_G(a, b, c, d, x, y) \
  do {                               \
    a = a + b + x;                   \
    d = rotr(d ^ a, 32);             \
    c = c + d;                       \
    b = rotr(b ^ c, 24);             \
    a = a + b + y;                   \
    d = rotr(d ^ a, 16);             \
    c = c + d;                       \
    b = rotr(b ^ c, 63);             \
  } while (0)
  for (int r = 0; r < 12; r++) {
    const uint8_t* s = Blake2b::kSigma[r];
    CUZK_B2B_G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
    CUZK_B2B_G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
    CUZK_B2B_G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
    CUZK_B2B_G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
    CUZK_B2B_G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
    CUZK_B2B_G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
    CUZK_B2B_G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
    CUZK_B2B_G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
  }
#undef CUZK_B2B_G
  for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

Blake2b::Blake2b(size_t out_len, std::span<const uint8_t> key) : out_len_(out_len) {
  if (out_len < 1 || out_len > 64)
    throw Error(ErrorCode::kInvalidArgument, "blake2b: digest length must be 1..64");
  if (key.size() > 64) throw Error(ErrorCode::kInvalidArgument, "blake2b: key longer than 64 bytes");
  for (int i = 0; i < 8; i++) h_[i] = kIv[i];
  h_[0] ^= 0x01010000ULL ^ (uint64_t(key.size()) << 8) ^ uint64_t(out_len);
  if (!key.empty()) {
    uint8_t block[128] = {};
    std::memcpy(block, key.data(), key.size());
    update({block, sizeof block});
  }
}

void Blake2b::update(std::span<const uint8_t> data) {
  const uint8_t* p = data.data();
  size_t n = data.size();
  while (n > 0) {
    // The last block must go through finish() with the final flag: compress only when more follows.
    if (buf_len_ == 128) {
      total_ += 128;
      compress(h_, buf_, total_, false);
      buf_len_ = 0;
    }
    size_t take = std::min(n, 128 - buf_len_);
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take, p += take, n -= take;
  }
}

void Blake2b::finish(uint8_t* out) {
  total_ += buf_len_;
  std::memset(buf_ + buf_len_, 0, 128 - buf_len_);
  compress(h_, buf_, total_, true);
  uint8_t full[64];
  std::memcpy(full, h_, 64);
  std::memcpy(out, full, out_len_);
}

std::array<uint8_t, 64> Blake2b::hash512(std::span<const uint8_t> data) {
  Blake2b b(64);
  b.update(data);
  std::array<uint8_t, 64> out;
  b.finish(out.data());
  return out;
}

}  // namespace cuzk::sdr
