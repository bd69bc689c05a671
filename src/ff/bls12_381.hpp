// BLS12-381 base field Fp (381 bits) and scalar field Fr (255 bits) as instances of the Montgomery
// template. Constants: p and r from the curve specification (draft-irtf-cfrg-pairing-friendly-curves),
// R = 2^384 for Fp and 2^256 for Fr, R mod m, R² mod m and −m⁻¹ mod 2^64, derived from them.
#pragma once

#include "ff/mont.hpp"

namespace cuzk {

/// Parameters of Fp, p = 0x1a0111ea…ffffaaab (6 limbs of 64 bits, R = 2^384).
struct FpParams {
  static constexpr int N = 6;
  static constexpr int bits = 381;
  static constexpr uint64_t inv = 0x89f3fffcfffcfffdULL;
  CUZK_HD static constexpr uint64_t mod(int i) {
    constexpr uint64_t v[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                               0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
    return v[i];
  }
  CUZK_HD static constexpr uint64_t one(int i) {
    constexpr uint64_t v[6] = {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                               0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL};
    return v[i];
  }
  CUZK_HD static constexpr uint64_t r2(int i) {
    constexpr uint64_t v[6] = {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                               0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL};
    return v[i];
  }
};

/// Parameters of Fr, r = 0x73eda753…00000001 (4 limbs of 64 bits, R = 2^256). Two-adicity 32.
struct FrParams {
  static constexpr int N = 4;
  static constexpr int bits = 255;
  static constexpr int two_adicity = 32;
  static constexpr uint64_t inv = 0xfffffffeffffffffULL;
  CUZK_HD static constexpr uint64_t mod(int i) {
    constexpr uint64_t v[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                               0x73eda753299d7d48ULL};
    return v[i];
  }
  CUZK_HD static constexpr uint64_t one(int i) {
    constexpr uint64_t v[4] = {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
                               0x1824b159acc5056fULL};
    return v[i];
  }
  CUZK_HD static constexpr uint64_t r2(int i) {
    constexpr uint64_t v[4] = {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
                               0x0748d9d99f59ff11ULL};
    return v[i];
  }
};

/// BLS12-381 base field element (Montgomery form, 48 bytes).
using Fp = Mont<FpParams>;
/// BLS12-381 scalar field element (Montgomery form, 32 bytes).
using Fr = Mont<FrParams>;

}  // namespace cuzk
