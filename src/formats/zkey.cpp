#include "formats/zkey.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>

#include "ff/bytes.hpp"
#include "formats/binfile.hpp"
#include "formats/primes.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {
namespace {

constexpr uint32_t kProtocolGroth16 = 1;
constexpr size_t kCoefBytes = 12 + 32;

template <class P>
constexpr size_t point_bytes() {
  return std::is_same_v<P, G1Affine> ? kG1Snarkjs : kG2Snarkjs;
}
template <class P>
P decode_point(const uint8_t* in, SubgroupCheck check) {
  if constexpr (std::is_same_v<P, G1Affine>)
    return g1_from_snarkjs(in, check);
  else
    return g2_from_snarkjs(in, check);
}
template <class P>
void encode_point(const P& p, uint8_t* out) {
  if constexpr (std::is_same_v<P, G1Affine>)
    g1_to_snarkjs(p, out);
  else
    g2_to_snarkjs(p, out);
}

/// Decodes `n` consecutive points; large arrays are split over the hardware threads. A decoding error
/// is reported for the lowest failing index, so the message does not depend on scheduling.
template <class P>
BigVector<P> decode_points(const uint8_t* in, size_t n, SubgroupCheck check, const std::string& ctx) {
  constexpr size_t kSz = point_bytes<P>();
  BigVector<P> out(n);
  size_t threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, n / 8192 + 1);
  std::mutex mu;
  size_t bad_index = std::numeric_limits<size_t>::max();
  std::string bad_msg;
  auto work = [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) {
      try {
        out[i] = decode_point<P>(in + i * kSz, check);
      } catch (const Error& e) {
        std::lock_guard<std::mutex> g(mu);
        if (i < bad_index) {
          bad_index = i;
          bad_msg = e.what();
        }
        return;
      }
    }
  };
  if (threads <= 1) {
    work(0, n);
  } else {
    std::vector<std::thread> pool;
    size_t per = (n + threads - 1) / threads;
    for (size_t t = 0; t < threads; t++) {
      size_t lo = t * per, hi = std::min(n, lo + per);
      if (lo < hi) pool.emplace_back(work, lo, hi);
    }
    for (auto& th : pool) th.join();
  }
  if (bad_index != std::numeric_limits<size_t>::max())
    throw Error(ErrorCode::kInvalidFile, ctx + " point " + std::to_string(bad_index) + ": " + bad_msg);
  return out;
}

/// A section that is an array of `n` points; its size must be n·(point size).
template <class P>
BigVector<P> read_point_section(const BinFile& f, uint32_t id, const char* what, uint64_t n,
                                const std::string& count_expr, SubgroupCheck check) {
  auto s = f.section(id, what);
  const uint64_t want = n * point_bytes<P>();
  const std::string ctx = f.name() + ": section " + std::to_string(id) + " (" + what + ")";
  if (s.size() != want)
    throw Error(ErrorCode::kInvalidFile, ctx + " has " + counted(s.size(), "byte") + ", expected " +
                                             count_expr + " = " + counted(n, "point") + " of " +
                                             std::to_string(point_bytes<P>()) +
                                             " bytes = " + std::to_string(want));
  return decode_points<P>(s.data(), (size_t)n, check, ctx);
}

template <class P>
P read_header_point(ByteReader& rd, const char* name, SubgroupCheck check) {
  auto b = rd.take(point_bytes<P>());
  try {
    return decode_point<P>(b.data(), check);
  } catch (const Error& e) {
    rd.fail(std::string(name) + ": " + e.what());
  }
}

bool is_pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

uint32_t Zkey::power() const {
  uint32_t p = 0;
  while (p < 32 && (1ull << p) < domain_size) p++;
  return p;
}

uint32_t Zkey::n_contributions() const {
  return mpc_params.size() >= 68 ? get_u32(mpc_params.data() + 64) : 0;
}

Zkey read_zkey(const std::filesystem::path& path, const ZkeyReadOptions& opt) {
  return read_zkey(BinFile::open(path, "zkey", 1), opt);
}

Zkey read_zkey(const BinFile& f, const ZkeyReadOptions& opt) {
  Zkey zk;
  {
    ByteReader rd(f.section(1, "protocol"), f.name() + ": section 1 (protocol)");
    uint32_t protocol = rd.u32();
    rd.expect_end();
    if (protocol != kProtocolGroth16) {
      const char* name = protocol == 2 ? " (plonk)" : protocol == 10 ? " (fflonk)" : "";
      rd.fail("protocol " + std::to_string(protocol) + name + " is not groth16 (1)");
    }
  }
  {
    ByteReader rd(f.section(2, "groth16 header"), f.name() + ": section 2 (groth16 header)");
    const uint32_t n8q = rd.u32();
    auto q = rd.take(n8q);
    if (!is_modulus_of<Fp>(q))
      rd.fail("q is " + describe_prime(q) + ", expected the BLS12-381 base field prime p");
    if (n8q != 48) rd.fail("n8q = " + std::to_string(n8q) + ", expected 48 for BLS12-381");
    const uint32_t n8r = rd.u32();
    auto r = rd.take(n8r);
    if (!is_modulus_of<Fr>(r))
      rd.fail("r is " + describe_prime(r) + ", expected the BLS12-381 scalar field prime r");
    if (n8r != 32) rd.fail("n8r = " + std::to_string(n8r) + ", expected 32 for BLS12-381");
    zk.n_vars = rd.u32();
    zk.n_public = rd.u32();
    zk.domain_size = rd.u32();
    if (!is_pow2(zk.domain_size))
      rd.fail("domainSize " + std::to_string(zk.domain_size) + " is not a power of two");
    if ((uint64_t)zk.n_public + 1 > zk.n_vars)
      rd.fail("nPublic + 1 = " + std::to_string((uint64_t)zk.n_public + 1) +
              " exceeds nVars = " + std::to_string(zk.n_vars));
    zk.alpha1 = read_header_point<G1Affine>(rd, "alpha_1", opt.header_points);
    zk.beta1 = read_header_point<G1Affine>(rd, "beta_1", opt.header_points);
    zk.beta2 = read_header_point<G2Affine>(rd, "beta_2", opt.header_points);
    zk.gamma2 = read_header_point<G2Affine>(rd, "gamma_2", opt.header_points);
    zk.delta1 = read_header_point<G1Affine>(rd, "delta_1", opt.header_points);
    zk.delta2 = read_header_point<G2Affine>(rd, "delta_2", opt.header_points);
    rd.expect_end();
  }
  const SubgroupCheck vc = opt.vector_points;
  zk.ic = read_point_section<G1Affine>(f, 3, "IC", (uint64_t)zk.n_public + 1, "(nPublic + 1)", vc);
  {
    auto s = f.section(4, "coefficients");
    ByteReader rd(s, f.name() + ": section 4 (coefficients)");
    const uint32_t n = rd.u32();
    if (rd.remaining() != (uint64_t)n * kCoefBytes)
      rd.fail("has " + counted(s.size(), "byte") + ", expected 4 + nCoef·44 = " +
              std::to_string(4 + (uint64_t)n * kCoefBytes) + " (nCoef = " + std::to_string(n) + ")");
    zk.coefs.resize(n);
    for (uint32_t i = 0; i < n; i++) {
      ZkeyCoef& c = zk.coefs[i];
      c.matrix = rd.u32();
      c.constraint = rd.u32();
      c.signal = rd.u32();
      auto v = rd.take(32);
      auto bad = [&](const std::string& what) { rd.fail("coefficient " + std::to_string(i) + ": " + what); };
      if (c.matrix > 1) bad("matrix " + std::to_string(c.matrix) + " is neither A (0) nor B (1)");
      if (c.constraint >= zk.domain_size)
        bad("constraint " + std::to_string(c.constraint) + " is not below domainSize " +
            std::to_string(zk.domain_size));
      if (c.signal >= zk.n_vars)
        bad("signal " + std::to_string(c.signal) + " is not below nVars " + std::to_string(zk.n_vars));
      Fr raw = Fr::zero();  // the integer coeff·R² mod r; as Montgomery limbs it is coeff·R, so one reduction
                            // gives coeff
      if (!from_bytes_le_mont(v.data(), raw)) bad("value is not below the Fr modulus r");
      c.value = raw.from_mont_limbs();
    }
  }
  zk.a = read_point_section<G1Affine>(f, 5, "A", zk.n_vars, "nVars", vc);
  zk.b1 = read_point_section<G1Affine>(f, 6, "B1", zk.n_vars, "nVars", vc);
  zk.b2 = read_point_section<G2Affine>(f, 7, "B2", zk.n_vars, "nVars", vc);
  zk.c = read_point_section<G1Affine>(f, 8, "C", (uint64_t)zk.n_vars - zk.n_public - 1,
                                      "(nVars - nPublic - 1)", vc);
  zk.h = read_point_section<G1Affine>(f, 9, "H", zk.domain_size, "domainSize", vc);
  if (auto s = f.optional_section(10, "contributions")) {
    if (s->size() < 68)
      f.fail("section 10 (contributions) has " + counted(s->size(), "byte") +
             ", fewer than csHash (64) + nContributions (4)");
    zk.mpc_params.assign(s->begin(), s->end());
  }
  return zk;
}

namespace {

void check_shape(const Zkey& zk) {
  auto bad = [](const std::string& m) { throw Error(ErrorCode::kInvalidArgument, "write_zkey: " + m); };
  if (!is_pow2(zk.domain_size))
    bad("domain_size " + std::to_string(zk.domain_size) + " is not a power of two");
  if ((uint64_t)zk.n_public + 1 > zk.n_vars) bad("n_public + 1 exceeds n_vars");
  auto want = [&](size_t have, uint64_t need, const char* what) {
    if (have != need)
      bad(std::string(what) + " has " + counted(have, "point") + ", expected " + std::to_string(need));
  };
  want(zk.ic.size(), (uint64_t)zk.n_public + 1, "IC");
  want(zk.a.size(), zk.n_vars, "A");
  want(zk.b1.size(), zk.n_vars, "B1");
  want(zk.b2.size(), zk.n_vars, "B2");
  want(zk.c.size(), (uint64_t)zk.n_vars - zk.n_public - 1, "C");
  want(zk.h.size(), zk.domain_size, "H");
  if (zk.coefs.size() > UINT32_MAX) bad("more than 2^32 - 1 coefficients");
  if (!zk.mpc_params.empty() && zk.mpc_params.size() < 68) bad("mpc_params shorter than 68 bytes");
}

template <class P>
void write_points(BinFileWriter& w, uint32_t id, const BigVector<P>& pts) {
  constexpr size_t kSz = point_bytes<P>(), kBatch = 4096;
  std::vector<uint8_t> buf(kBatch * kSz);
  w.begin_section(id);
  for (size_t i = 0; i < pts.size(); i += kBatch) {
    size_t n = std::min(kBatch, pts.size() - i);
    for (size_t k = 0; k < n; k++) encode_point(pts[i + k], buf.data() + k * kSz);
    w.write({buf.data(), n * kSz});
  }
  w.end_section();
}

void write_zkey_to(BinFileWriter& w, const Zkey& zk) {
  w.begin_section(1);
  w.write_u32(kProtocolGroth16);
  w.end_section();

  w.begin_section(2);
  {
    uint8_t q[48], r[32];
    for (int i = 0; i < 48; i++) q[i] = (uint8_t)(FpParams::mod(i / 8) >> (8 * (i % 8)));
    for (int i = 0; i < 32; i++) r[i] = (uint8_t)(FrParams::mod(i / 8) >> (8 * (i % 8)));
    w.write_u32(48);
    w.write(q);
    w.write_u32(32);
    w.write(r);
    w.write_u32(zk.n_vars);
    w.write_u32(zk.n_public);
    w.write_u32(zk.domain_size);
    uint8_t g1[kG1Snarkjs], g2[kG2Snarkjs];
    g1_to_snarkjs(zk.alpha1, g1), w.write(g1);
    g1_to_snarkjs(zk.beta1, g1), w.write(g1);
    g2_to_snarkjs(zk.beta2, g2), w.write(g2);
    g2_to_snarkjs(zk.gamma2, g2), w.write(g2);
    g1_to_snarkjs(zk.delta1, g1), w.write(g1);
    g2_to_snarkjs(zk.delta2, g2), w.write(g2);
  }
  w.end_section();

  write_points(w, 3, zk.ic);

  w.begin_section(4);
  {
    w.write_u32((uint32_t)zk.coefs.size());
    Fr r2;
    for (int i = 0; i < Fr::N; i++) r2.l[i] = FrParams::r2(i);
    std::vector<uint8_t> buf;
    buf.reserve(4096 * kCoefBytes);
    for (const ZkeyCoef& c : zk.coefs) {
      put_u32(buf, c.matrix);
      put_u32(buf, c.constraint);
      put_u32(buf, c.signal);
      uint8_t v[32];
      to_bytes_le_mont(c.value * r2, v);  // limbs coeff·R times R² over R: the integer coeff·R²
      buf.insert(buf.end(), v, v + 32);
      if (buf.size() >= 4096 * kCoefBytes) {
        w.write(buf);
        buf.clear();
      }
    }
    w.write(buf);
  }
  w.end_section();

  write_points(w, 5, zk.a);
  write_points(w, 6, zk.b1);
  write_points(w, 7, zk.b2);
  write_points(w, 8, zk.c);
  write_points(w, 9, zk.h);

  w.begin_section(10);
  if (zk.mpc_params.empty()) {
    uint8_t empty[68] = {};
    w.write(empty);
  } else {
    w.write(zk.mpc_params);
  }
  w.end_section();
}

}  // namespace

void write_zkey(const std::filesystem::path& path, const Zkey& zk) {
  check_shape(zk);
  BinFileWriter w(path, "zkey", 1);
  write_zkey_to(w, zk);
  w.commit();
}

std::vector<uint8_t> zkey_bytes(const Zkey& zk) {
  check_shape(zk);
  BinFileWriter w("zkey", 1);
  write_zkey_to(w, zk);
  return w.take_bytes();
}

VerifyingKey verifying_key(const Zkey& zk) {
  return {zk.alpha1, zk.beta2, zk.gamma2, zk.delta2, {zk.ic.begin(), zk.ic.end()}};
}

}  // namespace cuzk
