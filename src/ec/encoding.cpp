#include "ec/encoding.hpp"

#include <cstring>
#include <string>

#include "ec/subgroup.hpp"
#include "ff/bytes.hpp"
#include "ff/sqrt.hpp"
#include "util/error.hpp"

namespace cuzk {
namespace {

[[noreturn]] void bad(const char* group, const std::string& what) {
  throw Error(ErrorCode::kInvalidEncoding, std::string(group) + " point: " + what);
}

void read_fp(const char* group, const uint8_t* in, Fp& out) {
  if (!from_bytes_be(in, out)) bad(group, "coordinate is not below the field modulus p");
}
/// Fp2 as (c1, c0), big-endian.
void read_fp2(const char* group, const uint8_t* in, Fp2& out) {
  read_fp(group, in, out.c1);
  read_fp(group, in + 48, out.c0);
}
void write_fp2(const Fp2& a, uint8_t* out) {
  to_bytes_be(a.c1, out);
  to_bytes_be(a.c0, out + 48);
}

template <class F>
std::optional<F> sqrt_of(const F& a) {
  return sqrt(a);
}

/// Shared decoder: `fe` bytes per coordinate (48 for G1, 96 for G2).
template <class F, size_t kFe, class ReadF>
Affine<F> from_zcash(const char* group, const uint8_t* in, size_t len, SubgroupCheck check, ReadF read) {
  if (len != kFe && len != 2 * kFe)
    bad(group, "expected " + std::to_string(kFe) + " or " + std::to_string(2 * kFe) + " bytes, got " +
                   std::to_string(len));
  const bool compressed = in[0] & 0x80, infinity = in[0] & 0x40, sign = in[0] & 0x20;
  if (compressed != (len == kFe))
    bad(group, compressed ? "compression flag set on an uncompressed encoding"
                          : "compression flag missing on a compressed encoding");
  uint8_t buf[2 * kFe];
  std::memcpy(buf, in, len);
  buf[0] &= 0x1f;
  if (infinity) {
    if (sign) bad(group, "infinity with the sign flag set");
    for (size_t i = 0; i < len; i++)
      if (buf[i]) bad(group, "infinity flag with non-zero coordinate bytes");
    return Affine<F>::infinity();
  }
  if (!compressed && sign) bad(group, "sign flag set on an uncompressed encoding");
  Affine<F> p;
  read(group, buf, p.x);
  if (compressed) {
    auto y = sqrt_of(p.x.sqr() * p.x + Curve<F>::b());
    if (!y) bad(group, "x is not the abscissa of a curve point");
    p.y = (y->is_lexicographically_largest() == sign) ? *y : -*y;
  } else {
    read(group, buf + kFe, p.y);
    if (!is_on_curve(p)) bad(group, "not on the curve");
  }
  if (p.is_inf()) bad(group, "(0, 0) without the infinity flag");  // unreachable for b ≠ 0, kept as guard
  if (check == SubgroupCheck::kYes && !in_subgroup_fast(p)) bad(group, "not in the prime-order subgroup");
  return p;
}

}  // namespace

G1Affine g1_from_zcash(const uint8_t* in, size_t len, SubgroupCheck check) {
  return from_zcash<Fp, 48>("G1", in, len, check, read_fp);
}
G2Affine g2_from_zcash(const uint8_t* in, size_t len, SubgroupCheck check) {
  return from_zcash<Fp2, 96>("G2", in, len, check, read_fp2);
}

void g1_to_zcash(const G1Affine& p, bool compressed, uint8_t* out) {
  size_t len = compressed ? 48 : 96;
  std::memset(out, 0, len);
  if (p.is_inf()) {
    out[0] = 0x40 | (compressed ? 0x80 : 0);
    return;
  }
  to_bytes_be(p.x, out);
  if (compressed) {
    out[0] |= 0x80 | (p.y.is_lexicographically_largest() ? 0x20 : 0);
  } else {
    to_bytes_be(p.y, out + 48);
  }
}

void g2_to_zcash(const G2Affine& p, bool compressed, uint8_t* out) {
  size_t len = compressed ? 96 : 192;
  std::memset(out, 0, len);
  if (p.is_inf()) {
    out[0] = 0x40 | (compressed ? 0x80 : 0);
    return;
  }
  write_fp2(p.x, out);
  if (compressed) {
    out[0] |= 0x80 | (p.y.is_lexicographically_largest() ? 0x20 : 0);
  } else {
    write_fp2(p.y, out + 96);
  }
}

namespace {
bool all_zero(const uint8_t* in, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (in[i]) return false;
  return true;
}
void read_mont(const char* group, const uint8_t* in, Fp& out) {
  if (!from_bytes_le_mont(in, out)) bad(group, "coordinate is not below the field modulus p");
}
}  // namespace

G1Affine g1_from_snarkjs(const uint8_t* in, SubgroupCheck check) {
  if (all_zero(in, kG1Snarkjs)) return G1Affine::infinity();
  G1Affine p;
  read_mont("G1", in, p.x);
  read_mont("G1", in + 48, p.y);
  if (!is_on_curve(p)) bad("G1", "not on the curve");
  if (check == SubgroupCheck::kYes && !in_subgroup_fast(p)) bad("G1", "not in the prime-order subgroup");
  return p;
}

G2Affine g2_from_snarkjs(const uint8_t* in, SubgroupCheck check) {
  if (all_zero(in, kG2Snarkjs)) return G2Affine::infinity();
  G2Affine p;
  read_mont("G2", in, p.x.c0);
  read_mont("G2", in + 48, p.x.c1);
  read_mont("G2", in + 96, p.y.c0);
  read_mont("G2", in + 144, p.y.c1);
  if (!is_on_curve(p)) bad("G2", "not on the curve");
  if (check == SubgroupCheck::kYes && !in_subgroup_fast(p)) bad("G2", "not in the prime-order subgroup");
  return p;
}

void g1_to_snarkjs(const G1Affine& p, uint8_t* out) {
  to_bytes_le_mont(p.x, out);  // ∞ = (0, 0) writes zero bytes
  to_bytes_le_mont(p.y, out + 48);
}

void g2_to_snarkjs(const G2Affine& p, uint8_t* out) {
  to_bytes_le_mont(p.x.c0, out);
  to_bytes_le_mont(p.x.c1, out + 48);
  to_bytes_le_mont(p.y.c0, out + 96);
  to_bytes_le_mont(p.y.c1, out + 144);
}

}  // namespace cuzk
