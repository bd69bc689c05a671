// bellperson .params/.vk files (formats/params.hpp) and zcash-encoded proofs (formats/proof_zcash.hpp):
// round trips, byte layout, the zcash test vectors of REFERENCE.md §4, every kind of corruption, and
// files written by the @noble/curves oracle (tests/oracle/test_verify_bellperson.mjs).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "ec/encoding.hpp"
#include "ff/sqrt.hpp"
#include "formats/atomic_file.hpp"
#include "formats/params.hpp"
#include "formats/proof_zcash.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/synthetic.hpp"
#include "groth16/verifier.hpp"
#include "random.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::test {
namespace {

namespace fs = std::filesystem;

/// A proving key of random subgroup points (k·G, fixed seed) with the given shape.
ProvingKey random_key(uint64_t seed, int log_n, uint32_t n_inputs, uint32_t n_aux, size_t n_a, size_t n_b) {
  std::mt19937_64 rng(seed);
  ProvingKey k;
  k.convention = HConvention::kBellperson;
  k.log_n = log_n;
  k.n_inputs = n_inputs;
  k.n_aux = n_aux;
  k.alpha1 = random_point<Fp>(rng);
  k.beta1 = random_point<Fp>(rng);
  k.delta1 = random_point<Fp>(rng);
  k.beta2 = random_point<Fp2>(rng);
  k.gamma2 = random_point<Fp2>(rng);
  k.delta2 = random_point<Fp2>(rng);
  auto g1s = [&](auto& v, size_t n) {
    v.resize(n);
    for (auto& p : v) p = random_point<Fp>(rng);
  };
  g1s(k.ic, n_inputs);
  g1s(k.h, (size_t{1} << log_n) - 1);
  g1s(k.l, n_aux);
  g1s(k.a, n_a);
  g1s(k.b_g1, n_b);
  k.b_g2.resize(n_b);
  for (auto& p : k.b_g2) p = random_point<Fp2>(rng);
  return k;
}

const ProvingKey& small_key() {
  static const ProvingKey k = random_key(41, 3, 3, 5, 6, 4);  // h 7, ic 3, l 5, a 6, b 4
  return k;
}

/// Byte offsets of the small key's vectors in its .params file.
constexpr size_t kHeader = 864, kIcCount = kHeader, kIc = kIcCount + 4, kHCount = kIc + 3 * 96,
                 kH = kHCount + 4, kLCount = kH + 7 * 96, kL = kLCount + 4, kACount = kL + 5 * 96,
                 kA = kACount + 4, kB1Count = kA + 6 * 96, kB1 = kB1Count + 4, kB2Count = kB1 + 4 * 96,
                 kB2 = kB2Count + 4, kEnd = kB2 + 4 * 192;

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("cuzk_params_test_" + std::to_string(::getpid()) + "_" + name);
}

/// Runs `fn`, expects cuzk::Error with `code` whose message contains every one of `parts`.
template <class Fn>
void expect_error(Fn fn, ErrorCode code, std::initializer_list<std::string> parts) {
  try {
    fn();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const auto& p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " / " << p;
  }
}

void put_be32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; i++) b[at + i] = (uint8_t)(v >> (24 - 8 * i));
}

std::vector<uint8_t> from_hex(const std::string& hex) {
  std::vector<uint8_t> out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); i++) out[i] = (uint8_t)std::stoul(hex.substr(2 * i, 2), nullptr, 16);
  return out;
}
std::string to_hex(std::span<const uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t c : b) (s += d[c >> 4]) += d[c & 15];
  return s;
}

/// A point of E(Fp) outside G1 (x found by search; a random point has order ≠ r with overwhelming
/// probability, checked by the reference test).
G1Affine g1_not_in_subgroup() {
  for (uint64_t x = 5;; x++) {
    const Fp fx = Fp::from_u64(x);
    if (auto y = sqrt(fx.sqr() * fx + Curve<Fp>::b())) {
      G1Affine p{fx, *y};
      if (!is_in_subgroup(p)) return p;
    }
  }
}
G2Affine g2_not_in_subgroup() {
  for (uint64_t x = 5;; x++) {
    const Fp2 fx{Fp::from_u64(x), Fp::one()};
    if (auto y = sqrt(fx.sqr() * fx + Curve<Fp2>::b())) {
      G2Affine p{fx, *y};
      if (!is_in_subgroup(p)) return p;
    }
  }
}

// ---- .params ---------------------------------------------------------------------------------------------

TEST(FormatParams, RoundTripInMemoryAndLayout) {
  const ProvingKey& k = small_key();
  const std::vector<uint8_t> bytes = params_bytes(k);
  ASSERT_EQ(bytes.size(), kEnd);
  uint8_t g1[96], g2[192];
  g1_to_zcash(k.alpha1, false, g1);
  EXPECT_TRUE(std::equal(g1, g1 + 96, bytes.begin()));
  g2_to_zcash(k.beta2, false, g2);
  EXPECT_TRUE(std::equal(g2, g2 + 192, bytes.begin() + 192));
  g2_to_zcash(k.delta2, false, g2);
  EXPECT_TRUE(std::equal(g2, g2 + 192, bytes.begin() + 672));
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + kHCount, bytes.begin() + kH),
            (std::vector<uint8_t>{0, 0, 0, 7}));
  g2_to_zcash(k.b_g2[3], false, g2);
  EXPECT_TRUE(std::equal(g2, g2 + 192, bytes.end() - 192));

  for (unsigned threads : {1u, 3u}) {
    ParamsReadOptions opt;
    opt.threads = threads;
    const ProvingKey r = read_params(bytes, "mem", opt);
    EXPECT_TRUE(r == k);
    EXPECT_EQ(r.log_n, 3);
    EXPECT_EQ(r.n_inputs, 3u);
    EXPECT_EQ(r.n_aux, 5u);
    EXPECT_EQ(r.convention, HConvention::kBellperson);
    EXPECT_EQ(params_bytes(r), bytes);  // byte-exact re-write
  }
}

TEST(FormatParams, RoundTripFile) {
  const ProvingKey& k = small_key();
  const fs::path path = temp_path("rt.params");
  ThreadPool pool(2);
  write_params(path, k, &pool);
  EXPECT_EQ(read_file_bytes(path), params_bytes(k));
  ParamsReadOptions opt;
  opt.pool = &pool;
  EXPECT_TRUE(read_params(path, opt) == k);
  fs::remove(path);
  expect_error([&] { read_params(path); }, ErrorCode::kIo, {path.string()});
}

TEST(FormatParams, EveryTruncationFails) {
  const std::vector<uint8_t> bytes = params_bytes(small_key());
  for (size_t len = 0; len < bytes.size(); len++) {
    try {
      read_params(std::span(bytes).first(len), "cut.params");
      ADD_FAILURE() << "accepted a file cut at " << len;
    } catch (const Error& e) {
      ASSERT_EQ(e.code(), ErrorCode::kInvalidFile) << e.what();
      ASSERT_NE(std::string(e.what()).find("cut.params"), std::string::npos) << e.what();
    }
  }
}

TEST(FormatParams, TrailingBytesAndBadCounts) {
  const std::vector<uint8_t> good = params_bytes(small_key());
  std::vector<uint8_t> b = good;
  b.push_back(0);
  expect_error([&] { read_params(b, "t.params"); }, ErrorCode::kInvalidFile,
               {"t.params", "1 trailing bytes", std::to_string(kEnd)});
  // A huge count fails on the size check, before any allocation.
  b = good;
  put_be32(b, kHCount, 0xffffffffu);
  expect_error([&] { read_params(b, "t.params"); }, ErrorCode::kInvalidFile,
               {"count of h", "byte " + std::to_string(kHCount), "4294967295 points"});
  b = good;
  put_be32(b, kB2Count, 0x7fffffffu);
  expect_error([&] { read_params(b, "t.params"); }, ErrorCode::kInvalidFile, {"count of b_g2"});
  // One point fewer than stated: the rest of the file no longer parses.
  b = good;
  put_be32(b, kLCount, 4);
  expect_error([&] { read_params(b, "t.params"); }, ErrorCode::kInvalidFile, {"t.params"});
  // h without 2^k − 1 points (one removed, count adjusted).
  b = good;
  b.erase(b.begin() + kH, b.begin() + kH + 96);
  put_be32(b, kHCount, 6);
  expect_error([&] { read_params(b, "t.params"); }, ErrorCode::kInvalidFile, {"h at byte", "not 2^k - 1"});
  // b_g2 shorter than b_g1.
  b = good;
  b.erase(b.end() - 192, b.end());
  put_be32(b, kB2Count, 3);
  expect_error([&] { read_params(b, "t.params"); }, ErrorCode::kInvalidFile, {"b_g2", "b_g1 has 4"});
  // Empty ic.
  b = good;
  b.erase(b.begin() + kIc, b.begin() + kHCount);
  put_be32(b, kIcCount, 0);
  expect_error([&] { read_params(b, "t.params"); }, ErrorCode::kInvalidFile, {"ic", "empty"});
}

TEST(FormatParams, CorruptPoints) {
  const std::vector<uint8_t> good = params_bytes(small_key());
  std::vector<uint8_t> b = good;
  // Off the curve: last byte of h[2]'s y.
  b[kH + 2 * 96 + 95] ^= 1;
  expect_error([&] { read_params(b, "c.params"); }, ErrorCode::kInvalidFile,
               {"c.params", "h[2]", "byte " + std::to_string(kH + 2 * 96), "not on the curve"});
  // On the curve, not in the subgroup (l[1], b_g2[3]); accepted when the check is off.
  ParamsReadOptions unchecked;
  unchecked.subgroup = SubgroupCheck::kNo;
  b = good;
  g1_to_zcash(g1_not_in_subgroup(), false, &b[kL + 96]);
  expect_error([&] { read_params(b, "c.params"); }, ErrorCode::kInvalidFile,
               {"l[1]", "byte " + std::to_string(kL + 96), "not in the prime-order subgroup"});
  EXPECT_EQ(read_params(b, "c.params", unchecked).l[1], g1_not_in_subgroup());
  b = good;
  g2_to_zcash(g2_not_in_subgroup(), false, &b[kB2 + 3 * 192]);
  expect_error([&] { read_params(b, "c.params"); }, ErrorCode::kInvalidFile,
               {"b_g2[3]", "not in the prime-order subgroup"});
  EXPECT_EQ(read_params(b, "c.params", unchecked).b_g2[3], g2_not_in_subgroup());
  // The point at infinity is refused in the vectors, accepted in the header (as bellperson does).
  b = good;
  g1_to_zcash(G1Affine::infinity(), false, &b[kA]);
  expect_error([&] { read_params(b, "c.params"); }, ErrorCode::kInvalidFile, {"a[0]", "point at infinity"});
  b = good;
  g1_to_zcash(G1Affine::infinity(), false, &b[0]);
  EXPECT_TRUE(read_params(b, "c.params").alpha1.is_inf());
  // Header points are always subgroup-checked.
  g2_to_zcash(g2_not_in_subgroup(), false, &b[384]);
  expect_error([&] { read_params(b, "c.params", unchecked); }, ErrorCode::kInvalidFile,
               {"gamma_g2", "byte 384", "not in the prime-order subgroup"});
  // Coordinate ≥ p, and flag bits on an uncompressed point.
  b = good;
  const std::vector<uint8_t> p = from_hex(
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
  std::copy(p.begin(), p.end(), b.begin() + kB1);
  expect_error([&] { read_params(b, "c.params"); }, ErrorCode::kInvalidFile, {"b_g1[0]", "field modulus"});
  b = good;
  b[kIc] |= 0x80;
  expect_error([&] { read_params(b, "c.params"); }, ErrorCode::kInvalidFile, {"ic[0]", "compression flag"});
}

/// A PointDecoder on the CPU (g1_from_zcash/g2_from_zcash), for read_params' decoder hook: it records
/// the vectors it is given and can be told to report a valid point as invalid.
class CpuTestDecoder final : public PointDecoder {
 public:
  std::vector<size_t> calls;      ///< n of each call, in order
  size_t refuse_call = SIZE_MAX;  ///< on this call (0-based)…
  size_t refuse_index = 0;        ///< …report this index as invalid (may be ≥ n: a broken decoder)

  size_t decode_g1(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool&, G1Affine* out) override {
    return decode<G1Affine>(in, n, check, out, [](const uint8_t* b, SubgroupCheck c) {
      return g1_from_zcash(b, kG1Uncompressed, c);
    });
  }
  size_t decode_g2(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool&, G2Affine* out) override {
    return decode<G2Affine>(in, n, check, out, [](const uint8_t* b, SubgroupCheck c) {
      return g2_from_zcash(b, kG2Uncompressed, c);
    });
  }

 private:
  template <class A, class Fn>
  size_t decode(const uint8_t* in, size_t n, SubgroupCheck check, A* out, Fn one) {
    calls.push_back(n);
    if (calls.size() - 1 == refuse_call) return refuse_index;
    for (size_t i = 0; i < n; i++) {
      try {
        out[i] = one(in + i * sizeof(A), check);
      } catch (const Error&) {
        return i;
      }
      if (out[i].is_inf()) return i;
    }
    return n;
  }
};

/// The message of the Error that fn throws ("" if none).
template <class Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(FormatParams, DecoderHookDecodesTheVectors) {
  const std::vector<uint8_t> good = params_bytes(small_key());
  CpuTestDecoder d;
  ParamsReadOptions opt;
  opt.decoder = &d;
  EXPECT_TRUE(read_params(good, "d.params", opt) == small_key());
  EXPECT_EQ(d.calls, (std::vector<size_t>{7, 5, 6, 4, 4}));  // h, l, a, b_g1, b_g2 (ic and the header: CPU)
}

TEST(FormatParams, ProgressCountsEveryVectorPoint) {
  // h 7 + l 5 + a 6 + b_g1 4 + b_g2 4 = 26 points (ic is not counted); the first report is 0 of 26, they
  // never go back, the last one is 26 of 26, once. The same with a decoder (one report per vector). A
  // truncated file throws before any report (a progress display never announces a check that cannot run).
  const std::vector<uint8_t> good = params_bytes(small_key());
  CpuTestDecoder d;
  for (PointDecoder* decoder : {(PointDecoder*)nullptr, (PointDecoder*)&d}) {
    std::vector<std::pair<uint64_t, uint64_t>> seen;
    ThreadPool pool(2);
    ParamsReadOptions opt;
    opt.pool = &pool;
    opt.decoder = decoder;
    opt.progress = [&](uint64_t done, uint64_t total) { seen.emplace_back(done, total); };
    EXPECT_TRUE(read_params(good, "p.params", opt) == small_key());
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.front(), std::make_pair(uint64_t{0}, uint64_t{26}));
    for (size_t i = 0; i < seen.size(); i++) {
      EXPECT_EQ(seen[i].second, 26u);
      EXPECT_LE(seen[i > 0 ? i - 1 : 0].first, seen[i].first);
    }
    EXPECT_EQ(seen.back().first, 26u);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), std::make_pair(uint64_t{26}, uint64_t{26})), 1);
    seen.clear();
    for (const size_t keep : {size_t{5}, good.size() / 2, good.size() - 1}) {
      const std::vector<uint8_t> cut(good.begin(), good.begin() + (std::ptrdiff_t)keep);
      EXPECT_THROW(read_params(cut, "p.params", opt), Error) << keep;
    }
    EXPECT_TRUE(seen.empty()) << seen.size() << " reports from truncated files";
  }
}

TEST(FormatParams, DecoderHookReportsTheCpuError) {
  // Each corruption gives the same message with the decoder as without it.
  const std::vector<uint8_t> good = params_bytes(small_key());
  auto corrupt = [&](size_t at, auto edit) {
    std::vector<uint8_t> b = good;
    edit(&b[at]);
    return b;
  };
  const std::vector<std::vector<uint8_t>> cases = {
      corrupt(kH + 2 * 96 + 95, [](uint8_t* p) { *p ^= 1; }),                             // off the curve
      corrupt(kL + 96, [](uint8_t* p) { g1_to_zcash(g1_not_in_subgroup(), false, p); }),  // not in G1
      corrupt(kB2 + 3 * 192, [](uint8_t* p) { g2_to_zcash(g2_not_in_subgroup(), false, p); }),  // not in G2
      corrupt(kA + 5 * 96, [](uint8_t* p) { g1_to_zcash(G1Affine::infinity(), false, p); }),    // ∞
      corrupt(kB1, [](uint8_t* p) { std::fill(p, p + 48, 0xff); }),            // ≥ p, flags
      corrupt(kB1 + 96 + 48, [](uint8_t* p) { std::fill(p, p + 48, 0x1f); }),  // y ≥ p
      corrupt(kB2 + 192, [](uint8_t* p) { *p |= 0x80; }),                      // compressed
  };
  for (size_t c = 0; c < cases.size(); c++) {
    const std::string cpu = error_of([&] { read_params(cases[c], "c.params"); });
    ASSERT_FALSE(cpu.empty()) << "case " << c;
    CpuTestDecoder d;
    ParamsReadOptions opt;
    opt.decoder = &d;
    EXPECT_EQ(error_of([&] { read_params(cases[c], "c.params", opt); }), cpu) << "case " << c;
  }
}

TEST(FormatParams, DecoderHookDisagreementIsAnInternalError) {
  const std::vector<uint8_t> good = params_bytes(small_key());
  CpuTestDecoder d;
  d.refuse_call = 2;  // a[3] refused although valid
  d.refuse_index = 3;
  ParamsReadOptions opt;
  opt.decoder = &d;
  expect_error([&] { read_params(good, "d.params", opt); }, ErrorCode::kInternal,
               {"d.params", "a[3]", "the CPU decoder accepts"});
  d = CpuTestDecoder();
  d.refuse_call = 4;  // an index past the end of b_g2
  d.refuse_index = 9;
  expect_error([&] { read_params(good, "d.params", opt); }, ErrorCode::kInternal,
               {"index 9", "b_g2", "4 points"});
}

TEST(FormatParams, WriterRefusesWhatTheFormatCannotCarry) {
  ProvingKey k = small_key();
  k.l[4] = G1Affine::infinity();
  expect_error([&] { params_bytes(k); }, ErrorCode::kInvalidArgument, {"l[4]", "infinity"});
  k = small_key();
  k.convention = HConvention::kSnarkjs;
  expect_error([&] { params_bytes(k); }, ErrorCode::kInvalidArgument, {"snarkjs"});
  k = small_key();
  k.h.pop_back();
  expect_error([&] { params_bytes(k); }, ErrorCode::kInvalidArgument, {"h has 6 points"});
  k = small_key();
  k.n_aux = 9;
  expect_error([&] { params_bytes(k); }, ErrorCode::kInvalidArgument, {"n_aux"});
  const fs::path path = temp_path("refused.params");
  k = small_key();
  k.b_g2[0] = G2Affine::infinity();
  expect_error([&] { write_params(path, k); }, ErrorCode::kInvalidArgument, {"b_g2[0]"});
  EXPECT_FALSE(fs::exists(path));  // nothing appears when the write fails
}

TEST(FormatParams, SetupKeyThroughFilesProvesAndVerifies) {
  // A bellperson-convention key from the setup goes through .params and .vk files; the key read back
  // proves, and the proof goes through a proofs file and verifies under the .vk read back.
  ThreadPool pool(2);
  const SyntheticCircuit sc = synthetic_porep(10, 7, pool);
  const ProvingKey pk = setup(sc.cs, ToxicWaste::from_seed(8), pool);
  const fs::path params = temp_path("setup.params"), vk = temp_path("setup.vk"),
                 proofs = temp_path("setup.bin");
  write_params(params, pk, &pool);
  write_vk(vk, pk);
  ParamsReadOptions opt;
  opt.pool = &pool;
  const ProvingKey read = read_params(params, opt);
  EXPECT_TRUE(read == pk);
  CpuBackend backend(2);
  const ProveResult res = prove(read, synthesize(sc.cs, sc.witness, pool), backend);
  write_proofs_file(proofs, std::span(&res.proof, 1));
  const std::vector<Groth16Proof> back = read_proofs_file(proofs);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(verify(read_vk(vk), res.public_inputs, back[0]));
  for (const fs::path& p : {params, vk, proofs}) fs::remove(p);
}

// ---- .vk -------------------------------------------------------------------------------------------------

TEST(FormatParams, VkRoundTrip) {
  const ProvingKey& k = small_key();
  const std::vector<uint8_t> vk = vk_bytes(k), params = params_bytes(k);
  ASSERT_EQ(vk.size(), kHCount);
  EXPECT_TRUE(std::equal(vk.begin(), vk.end(), params.begin()));  // the .vk is the start of the .params
  EXPECT_TRUE(read_vk(vk, "mem.vk") == k.verifying_key());
  const fs::path path = temp_path("rt.vk");
  write_vk(path, k);
  EXPECT_TRUE(read_vk(path) == k.verifying_key());
  fs::remove(path);
  for (size_t len = 0; len < vk.size(); len++)
    expect_error([&] { read_vk(std::span(vk).first(len), "cut.vk"); }, ErrorCode::kInvalidFile, {"cut.vk"});
  std::vector<uint8_t> b = vk;
  b.push_back(1);
  expect_error([&] { read_vk(b, "t.vk"); }, ErrorCode::kInvalidFile, {"trailing"});
  b = vk;
  g1_to_zcash(G1Affine::infinity(), false, &b[kIc + 96]);
  expect_error([&] { read_vk(b, "t.vk"); }, ErrorCode::kInvalidFile, {"ic[1]", "infinity"});
  b = vk;
  g1_to_zcash(g1_not_in_subgroup(), false, &b[96]);  // β₁: checked although dropped
  expect_error([&] { read_vk(b, "t.vk"); }, ErrorCode::kInvalidFile, {"beta_g1", "byte 96", "subgroup"});
}

// ---- proofs ----------------------------------------------------------------------------------------------

Groth16Proof random_proof(std::mt19937_64& rng) {
  return {random_point<Fp>(rng), random_point<Fp2>(rng), random_point<Fp>(rng)};
}

TEST(FormatProofZcash, TestVectors) {
  const Groth16Proof gens{Curve<Fp>::generator(), Curve<Fp2>::generator(), Curve<Fp>::generator()};
  const auto bytes = encode_proof_zcash(gens);
  const std::string g1 =
      "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
  EXPECT_EQ(to_hex(std::span(bytes).subspan(0, 48)), g1);
  const std::string g2 = to_hex(std::span(bytes).subspan(48, 96));
  EXPECT_EQ(g2.substr(0, 8), "93e02b60");
  EXPECT_EQ(g2.substr(g2.size() - 9), "8c121bdb8");
  EXPECT_EQ(to_hex(std::span(bytes).subspan(144, 48)), g1);
  EXPECT_TRUE(decode_proof_zcash(bytes) == gens);
  // ∞ encodes as c0 00…, and is refused on decoding (bellperson's Proof::read).
  const auto inf = encode_proof_zcash({gens.a, G2Affine::infinity(), gens.c});
  EXPECT_EQ(to_hex(std::span(inf).subspan(48, 96)), "c0" + std::string(190, '0'));
  expect_error([&] { decode_proof_zcash(inf); }, ErrorCode::kInvalidEncoding, {"πB", "infinity"});
}

TEST(FormatProofZcash, RoundTripAndEveryFlippedBit) {
  std::mt19937_64 rng(51);
  const Groth16Proof proof = random_proof(rng);
  const auto bytes = encode_proof_zcash(proof);
  EXPECT_TRUE(decode_proof_zcash(bytes) == proof);
  for (size_t bit = 0; bit < 8 * kProofZcashBytes; bit++) {
    auto b = bytes;
    b[bit / 8] ^= (uint8_t)(0x80 >> (bit % 8));
    const bool sign_flag = (bit == 2 || bit == 48 * 8 + 2 || bit == 144 * 8 + 2);
    try {
      const Groth16Proof other = decode_proof_zcash(b);
      EXPECT_TRUE(sign_flag) << "bit " << bit << " flipped still decodes";
      EXPECT_FALSE(other == proof);  // the sign flag picks −P: a different, well-formed proof
    } catch (const Error& e) {
      EXPECT_FALSE(sign_flag) << e.what();
      EXPECT_EQ(e.code(), ErrorCode::kInvalidEncoding);
      const char* which = bit < 48 * 8 ? "πA" : bit < 144 * 8 ? "πB" : "πC";
      EXPECT_NE(std::string(e.what()).find(which), std::string::npos) << e.what();
    }
  }
  expect_error([&] { decode_proof_zcash(std::span(bytes).first(191)); }, ErrorCode::kInvalidEncoding,
               {"191"});
  // A compressed point outside the subgroup.
  auto b = bytes;
  g1_to_zcash(g1_not_in_subgroup(), true, &b[144]);
  expect_error([&] { decode_proof_zcash(b); }, ErrorCode::kInvalidEncoding, {"πC", "subgroup"});
}

TEST(FormatProofZcash, ProofsFile) {
  std::mt19937_64 rng(52);
  const std::vector<Groth16Proof> proofs = {random_proof(rng), random_proof(rng), random_proof(rng)};
  const fs::path path = temp_path("proofs.bin");
  write_proofs_file(path, proofs);
  const std::vector<uint8_t> bytes = read_file_bytes(path);
  ASSERT_EQ(bytes.size(), 3 * kProofZcashBytes);
  const auto second = encode_proof_zcash(proofs[1]);
  EXPECT_TRUE(std::equal(second.begin(), second.end(), bytes.begin() + 192));
  EXPECT_EQ(read_proofs_file(path), proofs);
  fs::remove(path);
  expect_error([&] { decode_proofs_zcash(std::span(bytes).first(575), "p.bin"); }, ErrorCode::kInvalidFile,
               {"p.bin", "575 bytes"});
  expect_error([&] { decode_proofs_zcash({}, "p.bin"); }, ErrorCode::kInvalidFile, {"p.bin", "0 bytes"});
  std::vector<uint8_t> b = bytes;
  b[192 + 100] ^= 0x55;
  expect_error([&] { decode_proofs_zcash(b, "p.bin"); }, ErrorCode::kInvalidFile,
               {"p.bin", "proof 1 at byte 192", "πB"});
  expect_error([&] { write_proofs_file(path, {}); }, ErrorCode::kInvalidArgument, {"no proof"});
}

// ---- files written by the @noble/curves oracle ------------------------------------------------------------

TEST(FormatProofZcash, ReadsOracleFilesAndVerifies) {
  const fs::path dir = fs::path(CUZK_SOURCE_DIR) / "tests/vectors/bellperson";
  const VerifyingKey vk = read_vk(dir / "circuit.vk");
  const std::vector<Groth16Proof> proofs = read_proofs_file(dir / "proofs.bin");
  std::ifstream in(dir / "public.json");
  const nlohmann::json pub = nlohmann::json::parse(in);
  ASSERT_EQ(pub.size(), proofs.size());  // one list of public inputs per partition
  for (size_t i = 0; i < proofs.size(); i++) {
    std::vector<Fr> inputs;
    for (const auto& s : pub[i]) {
      // Decimal < r: 64-bit limbs by repeated ×10.
      Fr v = Fr::zero();
      for (char c : s.get<std::string>()) v = v * Fr::from_u64(10) + Fr::from_u64((uint64_t)(c - '0'));
      inputs.push_back(v);
    }
    EXPECT_TRUE(verify(vk, inputs, proofs[i])) << "partition " << i;
    inputs[0] = inputs[0] + Fr::one();
    EXPECT_FALSE(verify(vk, inputs, proofs[i])) << "partition " << i;
  }
}

}  // namespace
}  // namespace cuzk::test
