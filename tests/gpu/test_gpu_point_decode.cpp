// The GPU point decoder of .params files (cuda/point_decode.hpp) against the CPU decoder: the same points
// for a synthetic 2^12 key (whole, with and without the subgroup check, in one chunk and in many), and for
// every kind of bad point (coordinate ≥ p, off the curve, on the curve but outside G1/G2, flag bits, ∞ in a
// vector, a truncated file) read_params with the GPU decoder throws exactly the message it throws without.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/point_decode.hpp"
#include "ec/encoding.hpp"
#include "ff/bytes.hpp"
#include "ff/sqrt.hpp"
#include "formats/params.hpp"
#include "gpu_support.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthetic.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::test {
namespace {

ThreadPool& pool() {
  static ThreadPool p;
  return p;
}

/// The bellperson key of the synthetic PoRep circuit 2^12 (seed 3), and its .params bytes.
struct Fixture {
  ProvingKey key;
  std::vector<uint8_t> bytes;
};
const Fixture& fixture() {
  static const Fixture f = [] {
    const SyntheticCircuit sc = synthetic_porep(12, 3, pool());
    Fixture x;
    x.key = setup(sc.cs, ToxicWaste::from_seed(3), pool());
    x.bytes = params_bytes(x.key, &pool());
    return x;
  }();
  return f;
}

/// Byte offset of point `i` of a vector of the fixture's file (h, l, a, b_g1: G1; b_g2: G2).
size_t offset_of(const std::string& vec, size_t i) {
  const ProvingKey& k = fixture().key;
  size_t at = 864 + 4 + k.ic.size() * 96 + 4;
  for (const auto& [name, count] : {std::pair<std::string, size_t>{"h", k.h.size()},
                                    {"l", k.l.size()},
                                    {"a", k.a.size()},
                                    {"b_g1", k.b_g1.size()}}) {
    if (name == vec) return at + i * 96;
    at += count * 96 + 4;
  }
  return at + i * 192;  // b_g2
}

/// A point of E(Fp) outside G1: x = 5, 6, … until x³ + 4 is a square (the cofactor is not cleared, so
/// the point has order ≠ r with overwhelming probability; checked against r·P).
G1Affine g1_outside() {
  for (uint64_t x = 5;; x++) {
    const Fp fx = Fp::from_u64(x);
    if (auto y = sqrt(fx.sqr() * fx + Curve<Fp>::b()))
      if (G1Affine p{fx, *y}; !is_in_subgroup(p)) return p;
  }
}
G2Affine g2_outside() {
  for (uint64_t x = 5;; x++) {
    const Fp2 fx{Fp::from_u64(x), Fp::one()};
    if (auto y = sqrt(fx.sqr() * fx + Curve<Fp2>::b()))
      if (G2Affine p{fx, *y}; !is_in_subgroup(p)) return p;
  }
}

/// The message read_params throws ("" when it accepts the bytes).
std::string error_of(std::span<const uint8_t> bytes, PointDecoder* d,
                     SubgroupCheck check = SubgroupCheck::kYes) {
  ParamsReadOptions opt;
  opt.pool = &pool();
  opt.decoder = d;
  opt.subgroup = check;
  try {
    read_params(bytes, "gpu.params", opt);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(GpuPointDecode, WholeKeyEqualsCpu) {
  CUZK_REQUIRE_GPU();
  const Fixture& f = fixture();
  // The default chunk (one chunk per vector), then 1000 G1 / 500 G2 points per chunk (many chunks, a
  // partial last one).
  for (size_t chunk : {size_t{64} << 20, size_t{96000}}) {
    cuda::GpuPointDecoder d(0, chunk);
    for (SubgroupCheck check : {SubgroupCheck::kYes, SubgroupCheck::kNo}) {
      ParamsReadOptions opt;
      opt.pool = &pool();
      opt.decoder = &d;
      opt.subgroup = check;
      EXPECT_TRUE(read_params(f.bytes, "gpu.params", opt) == f.key) << "chunk " << chunk;
    }
  }
}

TEST(GpuPointDecode, DecoderAloneMatchesCpuPoints) {
  CUZK_REQUIRE_GPU();
  const Fixture& f = fixture();
  cuda::GpuPointDecoder d(0, 96000);
  const size_t n1 = f.key.l.size(), n2 = f.key.b_g2.size();
  std::vector<G1Affine> g1(n1);
  std::vector<G2Affine> g2(n2);
  EXPECT_EQ(d.decode_g1(&f.bytes[offset_of("l", 0)], n1, SubgroupCheck::kYes, pool(), g1.data()), n1);
  EXPECT_TRUE(std::equal(g1.begin(), g1.end(), f.key.l.begin()));
  EXPECT_EQ(d.decode_g2(&f.bytes[offset_of("b_g2", 0)], n2, SubgroupCheck::kYes, pool(), g2.data()), n2);
  EXPECT_TRUE(std::equal(g2.begin(), g2.end(), f.key.b_g2.begin()));
  EXPECT_EQ(d.decode_g1(f.bytes.data(), 0, SubgroupCheck::kYes, pool(), g1.data()), 0u);
  // Two bad points in l, in the third chunk: the first is reported.
  std::vector<uint8_t> b(f.bytes.begin() + (std::ptrdiff_t)offset_of("l", 0),
                         f.bytes.begin() + (std::ptrdiff_t)offset_of("l", n1));
  b[2345 * 96 + 95] ^= 1;
  b[2100 * 96] |= 0x80;
  EXPECT_EQ(d.decode_g1(b.data(), n1, SubgroupCheck::kYes, pool(), g1.data()), 2100u);
  // The decoder is usable after an early exit.
  EXPECT_EQ(d.decode_g2(&f.bytes[offset_of("b_g2", 0)], n2, SubgroupCheck::kNo, pool(), g2.data()), n2);
  EXPECT_TRUE(std::equal(g2.begin(), g2.end(), f.key.b_g2.begin()));
}

TEST(GpuPointDecode, EveryCorruptionGivesTheCpuMessage) {
  CUZK_REQUIRE_GPU();
  const Fixture& f = fixture();
  const std::vector<uint8_t> p_bytes = [] {
    std::vector<uint8_t> p(48);
    to_bytes_be(Fp::zero() - Fp::one(), p.data());  // p − 1, then + 1 below: exactly p
    for (int i = 47; i >= 0 && ++p[i] == 0; i--) {
    }
    return p;
  }();
  struct Case {
    const char* what;
    std::string vec;
    size_t index;
    void (*edit)(uint8_t*, const std::vector<uint8_t>&);
  };
  const std::vector<Case> cases = {
      {"x = p", "h", 3001,
       [](uint8_t* q, const std::vector<uint8_t>& p) { std::copy(p.begin(), p.end(), q); }},
      {"y = p", "a", 17,
       [](uint8_t* q, const std::vector<uint8_t>& p) { std::copy(p.begin(), p.end(), q + 48); }},
      {"G2 x.c0 = p", "b_g2", 600,
       [](uint8_t* q, const std::vector<uint8_t>& p) { std::copy(p.begin(), p.end(), q + 48); }},
      {"off the curve", "l", 2222, [](uint8_t* q, const std::vector<uint8_t>&) { q[95] ^= 1; }},
      {"G2 off the curve", "b_g2", 5, [](uint8_t* q, const std::vector<uint8_t>&) { q[191] ^= 4; }},
      {"not in G1", "l", 1500,
       [](uint8_t* q, const std::vector<uint8_t>&) { g1_to_zcash(g1_outside(), false, q); }},
      {"not in G2", "b_g2", 555,
       [](uint8_t* q, const std::vector<uint8_t>&) { g2_to_zcash(g2_outside(), false, q); }},
      {"compressed flag", "b_g1", 12, [](uint8_t* q, const std::vector<uint8_t>&) { q[0] |= 0x80; }},
      {"sign flag", "h", 0, [](uint8_t* q, const std::vector<uint8_t>&) { q[0] |= 0x20; }},
      {"∞ in a vector", "a", 1000,
       [](uint8_t* q, const std::vector<uint8_t>&) { g1_to_zcash(G1Affine::infinity(), false, q); }},
      {"G2 ∞ in a vector", "b_g2", 1,
       [](uint8_t* q, const std::vector<uint8_t>&) { g2_to_zcash(G2Affine::infinity(), false, q); }},
      {"(0, 0) without the flag", "h", 4000,
       [](uint8_t* q, const std::vector<uint8_t>&) { std::memset(q, 0, 96); }},
  };
  for (size_t chunk : {size_t{64} << 20, size_t{96000}}) {
    cuda::GpuPointDecoder d(0, chunk);
    for (const Case& c : cases) {
      std::vector<uint8_t> b = f.bytes;
      c.edit(&b[offset_of(c.vec, c.index)], p_bytes);
      const std::string cpu = error_of(b, nullptr);
      ASSERT_NE(cpu.find(c.vec + "[" + std::to_string(c.index) + "]"), std::string::npos)
          << c.what << ": " << cpu;
      EXPECT_EQ(error_of(b, &d), cpu) << c.what << ", chunk " << chunk;
    }
    // Without the subgroup check both accept a point outside G1/G2, and agree on it.
    std::vector<uint8_t> b = f.bytes;
    g1_to_zcash(g1_outside(), false, &b[offset_of("h", 77)]);
    g2_to_zcash(g2_outside(), false, &b[offset_of("b_g2", 78)]);
    EXPECT_EQ(error_of(b, &d, SubgroupCheck::kNo), "");
    ParamsReadOptions opt;
    opt.pool = &pool();
    opt.decoder = &d;
    opt.subgroup = SubgroupCheck::kNo;
    const ProvingKey k = read_params(b, "gpu.params", opt);
    EXPECT_EQ(k.h[77], g1_outside());
    EXPECT_EQ(k.b_g2[78], g2_outside());
    // A truncated file: the layout check on the CPU fails first, with or without the decoder.
    for (size_t cut : {f.bytes.size() - 1, offset_of("a", 5) + 50}) {
      const std::span<const uint8_t> t(f.bytes.data(), cut);
      const std::string cpu = error_of(t, nullptr);
      ASSERT_FALSE(cpu.empty());
      EXPECT_EQ(error_of(t, &d), cpu);
    }
  }
}

}  // namespace
}  // namespace cuzk::test
