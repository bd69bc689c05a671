// Device arithmetic against the @noble/curves oracle (tests/vectors/noble.json) and against the host
// arithmetic on random data. Also, without a GPU: the device multiplier's instruction sequence run on
// the CPU through an emulation of the PTX carry flag.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <type_traits>

#include "cuda/gpu.hpp"
#include "util/error.hpp"
#include "ff/emu_carry_ops.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "support.hpp"

namespace cuzk::test {
namespace {

using cuda::FieldOp;

// ---- CPU: the device multiplier under emulation ----------------------------------------------------

template <class F>
F emu_mul(const F& a, const F& b, bool shape) {
  EmuCarryOps op;
  return shape ? F::template mul_evenodd<true>(a, b, op) : F::template mul_evenodd<false>(a, b, op);
}

template <class F>
void check_emulated_mul(uint64_t seed, bool shape) {
  std::mt19937_64 rng(seed);
  std::vector<F> edge = {F::zero(), F::one(), -F::one(), F::one() + F::one(), -(F::one() + F::one())};
  for (const F& a : edge)
    for (const F& b : edge) {
      ASSERT_EQ(emu_mul(a, b, shape), a * b);
    }
  // inputs with zero 32-bit words (rows where the reduction multiplier m is 0)
  std::vector<F> sparse;
  for (int z = 0; z < 16; z++) {
    F s = F::zero();
    for (int i = 0; i < F::N; i++)
      if ((z >> (i % 4)) & 1) s.l[i] = (0x9e3779b97f4a7c15ULL * (z + i + 1)) & 0xffffffff00000000ULL;
    s.l[0] |= z & 1;
    s.l[F::N - 1] &= 0x0fffffffffffffffULL;
    sparse.push_back(s);
  }
  for (const F& a : sparse)
    for (const F& b : sparse) ASSERT_EQ(emu_mul(a, b, shape), a * b);
  // the largest representable inputs (m − 1 in raw limbs) and random ones
  F big = F::modulus_limbs();
  big.l[0] -= 1;
  auto v = fast_random<F>(100000, seed);
  for (size_t i = 0; i + 1 < v.size(); i++) {
    const F& a = i % 1000 == 0 ? big : v[i];
    ASSERT_EQ(emu_mul(a, v[i + 1], shape), a * v[i + 1]) << i;
  }
  for (int i = 0; i < 2000; i++) {
    F a = random_fe<F>(rng), b = random_fe<F>(rng);
    ASSERT_EQ(emu_mul(a, b, shape), a * b);
  }
}
/// Edge values of a field for the emulated carry-chain tests (0, 1, 2, −1, −2, m − 1 in raw limbs, a
/// value with all low words 2^32 − 1), then `randoms` random ones.
template <class F>
std::vector<F> edge_and_random(uint64_t seed, size_t randoms) {
  F ones = F::zero();
  for (int i = 0; i + 1 < F::N; i++) ones.l[i] = ~uint64_t{0};
  F big = F::modulus_limbs();
  big.l[0] -= 1;
  const F two = F::one() + F::one();
  std::vector<F> v = {F::zero(), F::one(), two, -F::one(), -two, ones, big};
  auto r = fast_random<F>(randoms, seed);
  v.insert(v.end(), r.begin(), r.end());
  return v;
}
/// The device's add/sub carry chains (Mont::add_chain, sub_chain) against the host's operator+/−:
/// every pair of edge values (0, 1, 2, −1, −2, m − 1, a value with all low words 2^32 − 1) and random ones.
template <class F>
void check_emulated_addsub(uint64_t seed) {
  const std::vector<F> v = edge_and_random<F>(seed, 2000);
  for (size_t i = 0; i < v.size(); i++)
    for (size_t j = 0; j < v.size(); j += (i < 7 || j < 7) ? 1 : 97) {
      EmuCarryOps op;
      ASSERT_EQ(F::add_chain(v[i], v[j], op), v[i] + v[j]) << i << " " << j;
      ASSERT_EQ(F::sub_chain(v[i], v[j], op), v[i] - v[j]) << i << " " << j;
    }
}
/// The lazy reduction (mont.hpp: mul_wide_words, sqr_wide_words, redc_words, sub_wide_mod, add_raw)
/// against the host's products: REDC of a wide product is the Montgomery product, also for an
/// unreduced raw sum as an operand, and a·b − c·d with one reduction, on every combination of
/// edge values (including a·b − c·d = 0 and every sign of the difference) and random ones.
template <class F>
void check_emulated_lazy(uint64_t seed) {
  const std::vector<F> v = edge_and_random<F>(seed, 600);
  const size_t E = 7;  // edge values first
  size_t checked = 0;
  for (size_t i = 0; i < v.size(); i++)
    for (size_t j = 0; j < v.size(); j += (i < E || j < E) ? 1 : 53) {
      EmuCarryOps op;
      uint32_t T[F::kWideWords];
      F::mul_wide_words(v[i], v[j], T, op);
      ASSERT_EQ(F::redc_words(T, op), v[i] * v[j]) << i << " " << j;
      if (j == 0) {  // the squaring's wide words equal the product's, also for an unreduced raw sum
        uint32_t S[F::kWideWords];
        F::sqr_wide_words(v[i], S, op);
        F::mul_wide_words(v[i], v[i], T, op);
        ASSERT_TRUE(std::equal(S, S + F::kWideWords, T)) << i;
        ASSERT_EQ(F::redc_words(S, op), v[i].sqr()) << i;
        const F s = F::add_raw(v[i], v[v.size() - 1 - i], op);
        F::sqr_wide_words(s, S, op);
        F::mul_wide_words(s, s, T, op);
        ASSERT_TRUE(std::equal(S, S + F::kWideWords, T)) << i;
      }
      F::mul_wide_words(F::add_raw(v[i], v[j], op), v[(i + j) % v.size()], T, op);
      ASSERT_EQ(F::redc_words(T, op), (v[i] + v[j]) * v[(i + j) % v.size()]) << i << " " << j;
      // a·b − c·d from two wide products and one REDC (sub_wide_mod), and a·b − a·b = 0
      const F& c = v[(i * 7 + j) % v.size()];
      const F& d = v[(j * 5 + i + 1) % v.size()];
      uint32_t U[F::kWideWords];
      F::mul_wide_words(v[i], v[j], T, op);
      F::mul_wide_words(c, d, U, op);
      F::sub_wide_mod(T, U, op);
      ASSERT_EQ(F::redc_words(T, op), v[i] * v[j] - c * d) << i << " " << j;
      F::mul_wide_words(v[i], v[j], T, op);
      F::mul_wide_words(v[j], v[i], U, op);
      F::sub_wide_mod(T, U, op);
      ASSERT_EQ(F::redc_words(T, op), F::zero()) << i << " " << j;
      checked++;
    }
  EXPECT_GT(checked, 10000u);
}
TEST(GpuLazyReductionEmulated, FpMatchesHost) { check_emulated_lazy<Fp>(31); }
TEST(GpuLazyReductionEmulated, FrMatchesHost) { check_emulated_lazy<Fr>(32); }

/// Fp2's Karatsuba product with lazy reduction (fp2.hpp mul_lazy) against the host's product, on pairs of Fp edge values as coefficients and random elements.
TEST(GpuLazyReductionEmulated, Fp2MatchesHost) {
  const std::vector<Fp> e = edge_and_random<Fp>(33, 0);
  std::vector<Fp2> v;
  for (const Fp& x : e)
    for (const Fp& y : e) v.push_back(Fp2{x, y});
  const auto r = fast_random<Fp>(1200, 34);
  for (size_t i = 0; i + 1 < r.size(); i += 2) v.push_back(Fp2{r[i], r[i + 1]});
  size_t checked = 0;
  for (size_t i = 0; i < v.size(); i++)
    for (size_t j = 0; j < v.size(); j += (i < 49 && j < 49) ? 1 : 41) {
      EmuCarryOps op;
      ASSERT_EQ(Fp2::mul_lazy(v[i], v[j], op), v[i] * v[j]) << i << " " << j;
      checked++;
    }
  EXPECT_GT(checked, 5000u);
}

/// Whether the raw limbs of a lie below 2m (the lazy forms' range).
template <class F>
bool below_2m(const F& a) {
  EmuCarryOps op;
  const F m = F::modulus_limbs();
  const F twice = F::add_raw(m, m, op);
  for (int i = F::N - 1; i >= 0; i--)
    if (a.l[i] != twice.l[i]) return a.l[i] < twice.l[i];
  return false;
}
/// The lazily reduced operations of the NTT's pass variants (mont.hpp add_lazy, sub_lazy, reduce_lazy and
/// mul_evenodd without its final subtraction, with and without the Fr-shape savings): on both
/// representatives x and x + m of edge values (so 2m − 1 too) and random ones, every result lies in
/// [0, 2m) and reduces to the host's result; a product takes one lazy and one canonical operand, in
/// either order.
template <class F>
void check_emulated_lazy_ntt_ops(uint64_t seed) {
  const std::vector<F> c = edge_and_random<F>(seed, 300);
  std::vector<F> lazy;
  for (const F& x : c) {
    EmuCarryOps op;
    lazy.push_back(x);
    lazy.push_back(F::add_raw(x, F::modulus_limbs(), op));
  }
  auto value = [](const F& a) {
    EmuCarryOps op;
    return F::reduce_lazy(a, op);
  };
  for (size_t i = 0; i < lazy.size(); i++) {
    ASSERT_TRUE(below_2m(lazy[i])) << i;
    ASSERT_EQ(value(lazy[i]), c[i / 2]) << i;
  }
  const size_t E = 14;  // the representatives of the edge values first
  size_t checked = 0;
  for (size_t i = 0; i < lazy.size(); i++)
    for (size_t j = 0; j < lazy.size(); j += (i < E || j < E) ? 1 : 37) {
      EmuCarryOps op;
      const F& a = lazy[i];
      const F& b = lazy[j];
      const F& ca = c[i / 2];
      const F& cb = c[j / 2];
      const F s = F::add_lazy(a, b, op), d = F::sub_lazy(a, b, op);
      ASSERT_TRUE(below_2m(s) && below_2m(d)) << i << " " << j;
      ASSERT_EQ(value(s), ca + cb) << i << " " << j;
      ASSERT_EQ(value(d), ca - cb) << i << " " << j;
      const F p0 = F::template mul_evenodd<false, false>(a, cb, op);
      const F p1 = F::template mul_evenodd<false, false>(cb, a, op);
      ASSERT_TRUE(below_2m(p0) && below_2m(p1)) << i << " " << j;
      ASSERT_EQ(value(p0), ca * cb) << i << " " << j;
      ASSERT_EQ(value(p1), ca * cb) << i << " " << j;
      if constexpr (std::is_same_v<F, Fr>) {
        const F q = F::template mul_evenodd<true, false>(a, cb, op);
        ASSERT_TRUE(below_2m(q)) << i << " " << j;
        ASSERT_EQ(value(q), ca * cb) << i << " " << j;
      }
      checked++;
    }
  EXPECT_GT(checked, 10000u);
}
TEST(GpuLazyNttOpsEmulated, FrMatchesHost) { check_emulated_lazy_ntt_ops<Fr>(41); }
TEST(GpuLazyNttOpsEmulated, FpMatchesHost) { check_emulated_lazy_ntt_ops<Fp>(42); }

TEST(GpuAddSubEmulated, FpMatchesHost) { check_emulated_addsub<Fp>(21); }
TEST(GpuAddSubEmulated, FrMatchesHost) { check_emulated_addsub<Fr>(22); }

TEST(GpuMulEmulated, FpMatchesHost) { check_emulated_mul<Fp>(11, false); }
TEST(GpuMulEmulated, FrMatchesHost) { check_emulated_mul<Fr>(12, false); }
TEST(GpuMulEmulated, FrShapeTricksMatchHost) { check_emulated_mul<Fr>(13, true); }

// ---- device ------------------------------------------------------------------------------------------

TEST(Gpu, DeviceInfo) {
  CUZK_REQUIRE_GPU();
  auto d = cuda::device_info(0);
  std::printf("[gpu] %s, cc %d.%d, %d SMs, %.1f GiB, L2 %.1f MiB, smem opt-in %zu KiB\n", d.name.c_str(),
              d.cc_major, d.cc_minor, d.sm_count, d.global_mem / 1073741824.0, d.l2_bytes / 1048576.0,
              d.smem_optin / 1024);
  EXPECT_GT(d.sm_count, 0);
}

TEST(Gpu, ErrorsAreExceptions) {
  CUZK_REQUIRE_GPU();
  // an impossible allocation reports kCuda instead of aborting
  try {
    cuda::DeviceFrVec v(size_t{1} << 50);
    FAIL() << "allocation of 32 PiB succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCuda);
    EXPECT_NE(std::string(e.what()).find("cudaMalloc"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cuda::device_info(1000), Error);
}

template <class F>
void field_batch(FieldOp op, const std::vector<F>& a, const std::vector<F>& b, std::vector<F>& out) {
  out.resize(a.size());
  if constexpr (std::is_same_v<F, Fp>)
    cuda::fp_batch(op, a.data(), b.data(), out.data(), a.size());
  else if constexpr (std::is_same_v<F, Fr>)
    cuda::fr_batch(op, a.data(), b.data(), out.data(), a.size());
  else
    cuda::fp2_batch(op, a.data(), b.data(), out.data(), a.size());
}

template <class F>
void check_prime_field_vectors(const char* key) {
  const auto& cases = noble()[key];
  ASSERT_GT(cases.size(), 20u);
  std::vector<F> a, b;
  for (const auto& c : cases) {
    a.push_back(fe<F>(c["a"]));
    b.push_back(fe<F>(c["b"]));
  }
  const std::pair<FieldOp, const char*> ops[] = {
      {FieldOp::kAdd, "add"}, {FieldOp::kSub, "sub"}, {FieldOp::kMul, "mul"}, {FieldOp::kSqr, "sqr"}, {FieldOp::kNeg, "neg"}};
  for (auto [op, name] : ops) {
    std::vector<F> out;
    field_batch(op, a, b, out);
    for (size_t i = 0; i < cases.size(); i++) EXPECT_EQ(to_hex(out[i]), cases[i][name].template get<std::string>()) << name << " case " << i;
  }
}
TEST(GpuNoble, Fp) {
  CUZK_REQUIRE_GPU();
  check_prime_field_vectors<Fp>("fp");
}
TEST(GpuNoble, Fr) {
  CUZK_REQUIRE_GPU();
  check_prime_field_vectors<Fr>("fr");
}
TEST(GpuNoble, Fp2) {
  CUZK_REQUIRE_GPU();
  const auto& cases = noble()["fp2"];
  std::vector<Fp2> a, b;
  for (const auto& c : cases) {
    a.push_back(fp2(c["a"]));
    b.push_back(fp2(c["b"]));
  }
  const std::pair<FieldOp, const char*> ops[] = {
      {FieldOp::kAdd, "add"}, {FieldOp::kSub, "sub"}, {FieldOp::kMul, "mul"}, {FieldOp::kSqr, "sqr"}, {FieldOp::kNeg, "neg"}};
  for (auto [op, name] : ops) {
    std::vector<Fp2> out;
    field_batch(op, a, b, out);
    for (size_t i = 0; i < cases.size(); i++) EXPECT_EQ(out[i], fp2(cases[i][name])) << name << " case " << i;
  }
}

template <class F, class FromJson>
void check_group_vectors(const char* key, FromJson pt) {
  const auto& cases = noble()[key];
  ASSERT_GE(cases.size(), 10u);
  const size_t n = cases.size();
  std::vector<Affine<F>> P(n), Q(n), negQ(n), G(n, Curve<F>::generator());
  std::vector<Jacobian<F>> jP(n), jQ(n), jnegQ(n);
  std::vector<XYZZ<F>> xP(n), xQ(n);
  std::vector<Fr> k(n);
  for (size_t i = 0; i < n; i++) {
    P[i] = pt(cases[i]["P"]);
    Q[i] = pt(cases[i]["Q"]);
    k[i] = fe<Fr>(cases[i]["k"]);
    jP[i] = Jacobian<F>::from_affine(P[i]);
    jQ[i] = Jacobian<F>::from_affine(Q[i]);
    xP[i] = XYZZ<F>::from_affine(P[i]);
    xQ[i] = XYZZ<F>::from_affine(Q[i]);
  }
  std::vector<Jacobian<F>> j(n);
  std::vector<XYZZ<F>> x(n);
  cuda::affine_neg(Q.data(), negQ.data(), n);
  for (size_t i = 0; i < n; i++) jnegQ[i] = Jacobian<F>::from_affine(negQ[i]);
  for (size_t i = 0; i < n; i++) EXPECT_EQ(negQ[i], -Q[i]) << "neg " << i;
  {
    std::vector<Affine<F>> negP(n);
    cuda::affine_neg(P.data(), negP.data(), n);
    for (size_t i = 0; i < n; i++) EXPECT_EQ(negP[i], pt(cases[i]["neg"])) << "neg " << i;
  }
  cuda::jacobian_add(jP.data(), jQ.data(), j.data(), n);
  for (size_t i = 0; i < n; i++) EXPECT_EQ(j[i].to_affine(), pt(cases[i]["add"])) << "jacobian add " << i;
  cuda::jacobian_add(jP.data(), jnegQ.data(), j.data(), n);
  for (size_t i = 0; i < n; i++) EXPECT_EQ(j[i].to_affine(), pt(cases[i]["sub"])) << "jacobian sub " << i;
  cuda::jacobian_add_affine(jP.data(), Q.data(), j.data(), n);
  for (size_t i = 0; i < n; i++) EXPECT_EQ(j[i].to_affine(), pt(cases[i]["add"])) << "jacobian madd " << i;
  cuda::jacobian_dbl(jP.data(), j.data(), n);
  for (size_t i = 0; i < n; i++) EXPECT_EQ(j[i].to_affine(), pt(cases[i]["dbl"])) << "jacobian dbl " << i;
  cuda::xyzz_add_affine(xP.data(), Q.data(), x.data(), n);
  for (size_t i = 0; i < n; i++) EXPECT_EQ(x[i].to_affine(), pt(cases[i]["add"])) << "xyzz madd " << i;
  cuda::xyzz_add(xP.data(), xQ.data(), x.data(), n);
  for (size_t i = 0; i < n; i++) EXPECT_EQ(x[i].to_affine(), pt(cases[i]["add"])) << "xyzz add " << i;
  cuda::xyzz_dbl(xP.data(), x.data(), n);
  for (size_t i = 0; i < n; i++) EXPECT_EQ(x[i].to_affine(), pt(cases[i]["dbl"])) << "xyzz dbl " << i;
  cuda::scalar_mul_batch(G.data(), k.data(), j.data(), n);
  for (size_t i = 0; i < n; i++) EXPECT_EQ(j[i].to_affine(), P[i]) << "k·G " << i;
}
TEST(GpuNoble, G1) {
  CUZK_REQUIRE_GPU();
  check_group_vectors<Fp>("g1", g1);
}
TEST(GpuNoble, G2) {
  CUZK_REQUIRE_GPU();
  check_group_vectors<Fp2>("g2", g2);
}

// ---- random data vs the host -------------------------------------------------------------------------

template <class F>
void check_random_field(std::vector<F> a, std::vector<F> b) {
  const size_t n = a.size();
  // a few edge values mixed in
  a[0] = F::zero();
  b[1] = F::zero();
  a[2] = -F::one();
  b[2] = -F::one();
  a[3] = b[3];
  const FieldOp ops[] = {FieldOp::kAdd, FieldOp::kSub, FieldOp::kMul, FieldOp::kSqr, FieldOp::kNeg};
  for (FieldOp op : ops) {
    std::vector<F> out;
    field_batch(op, a, b, out);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
      F e;
      switch (op) {
        case FieldOp::kAdd: e = a[i] + b[i]; break;
        case FieldOp::kSub: e = a[i] - b[i]; break;
        case FieldOp::kMul: e = a[i] * b[i]; break;
        case FieldOp::kSqr: e = a[i].sqr(); break;
        case FieldOp::kNeg: e = -a[i]; break;
      }
      bad += out[i] != e;
    }
    EXPECT_EQ(bad, 0u) << "op " << (int)op;
  }
}
TEST(GpuRandom, Fp) {
  CUZK_REQUIRE_GPU();
  check_random_field(fast_random<Fp>(100000, 21), fast_random<Fp>(100000, 22));
}
/// The FP64 products (ff/mont_f64.hpp, both orders) on the device equal Fp's product: random pairs, edge
/// values, and inputs given as their representatives in [p, 2p).
TEST(GpuRandom, FpProductOnTheFp64Pipe) {
  CUZK_REQUIRE_GPU();
  std::vector<Fp> a = fast_random<Fp>(100000, 27), b = fast_random<Fp>(100000, 28);
  Fp m1 = Fp::modulus_limbs();
  m1.l[0] -= 1;
  const Fp edge[] = {Fp::zero(), Fp::one(), -Fp::one(), Fp::one() + Fp::one(), m1};
  for (size_t i = 0; i < 25; i++) {
    a[i] = edge[i % 5];
    b[i] = edge[i / 5];
  }
  std::vector<Fp> ra = a;  // a[i] + p for odd i: the same value, not reduced
  for (size_t i = 1; i < ra.size(); i += 2) {
    unsigned __int128 c = 0;
    for (int k = 0; k < 6; k++) {
      c += (unsigned __int128)a[i].l[k] + FpParams::mod(k);
      ra[i].l[k] = (uint64_t)c;
      c >>= 64;
    }
  }
  for (bool by_columns : {false, true}) {
    std::vector<Fp> out(a.size());
    cuda::fp_mul_f64_batch(ra.data(), b.data(), out.data(), a.size(), by_columns);
    size_t bad = 0;
    for (size_t i = 0; i < a.size(); i++) bad += out[i] != a[i] * b[i];
    EXPECT_EQ(bad, 0u) << (by_columns ? "by columns" : "CIOS order");
  }
}
TEST(GpuRandom, Fr) {
  CUZK_REQUIRE_GPU();
  check_random_field(fast_random<Fr>(100000, 23), fast_random<Fr>(100000, 24));
}
TEST(GpuRandom, Fp2) {
  CUZK_REQUIRE_GPU();
  auto x = fast_random<Fp>(200000, 25), y = fast_random<Fp>(200000, 26);
  std::vector<Fp2> a(100000), b(100000);
  for (size_t i = 0; i < a.size(); i++) {
    a[i] = {x[2 * i], x[2 * i + 1]};
    b[i] = {y[2 * i], y[2 * i + 1]};
  }
  check_random_field(a, b);
}

/// Points P_i = P_0 + i·Q (cheap to make), in Jacobian form with random Z.
template <class F>
void check_random_points(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Jacobian<F> p = Jacobian<F>::from_affine(random_point<F>(rng));
  const Jacobian<F> q = Jacobian<F>::from_affine(random_point<F>(rng));
  std::vector<Jacobian<F>> jp(n), jq(n);
  for (size_t i = 0; i < n; i++) {
    jp[i] = p;
    p += q;
  }
  for (size_t i = 0; i < n; i++) jq[i] = jp[(i * 7 + 3) % n];
  jq[0] = jp[0];                       // P + P
  jq[1] = -jp[1];                      // P − P
  jq[2] = Jacobian<F>::infinity();     // P + ∞
  jp[3] = Jacobian<F>::infinity();     // ∞ + Q
  auto aq = batch_to_affine(jq);
  std::vector<XYZZ<F>> xp(n);
  for (size_t i = 0; i < n; i++) {
    // XYZZ with a non-trivial ZZ: from Jacobian (X, Y, Z) → (X, Y, Z², Z³)
    xp[i] = jp[i].is_inf() ? XYZZ<F>::infinity() : XYZZ<F>{jp[i].X, jp[i].Y, jp[i].Z.sqr(), jp[i].Z.sqr() * jp[i].Z};
  }
  std::vector<Jacobian<F>> j(n);
  std::vector<XYZZ<F>> x(n);
  size_t bad = 0;
  cuda::jacobian_add(jp.data(), jq.data(), j.data(), n);
  for (size_t i = 0; i < n; i++) bad += !(j[i] == jp[i] + jq[i]);
  EXPECT_EQ(bad, 0u) << "jacobian add";
  bad = 0;
  cuda::jacobian_add_affine(jp.data(), aq.data(), j.data(), n);
  for (size_t i = 0; i < n; i++) bad += !(j[i] == jp[i].add_affine(aq[i]));
  EXPECT_EQ(bad, 0u) << "jacobian madd";
  bad = 0;
  cuda::jacobian_dbl(jp.data(), j.data(), n);
  for (size_t i = 0; i < n; i++) bad += !(j[i] == jp[i].dbl());
  EXPECT_EQ(bad, 0u) << "jacobian dbl";
  bad = 0;
  cuda::xyzz_add_affine(xp.data(), aq.data(), x.data(), n);
  for (size_t i = 0; i < n; i++) {
    XYZZ<F> e = xp[i].add_affine(aq[i]);
    bad += !(x[i].X == e.X && x[i].Y == e.Y && x[i].ZZ == e.ZZ && x[i].ZZZ == e.ZZZ);
  }
  EXPECT_EQ(bad, 0u) << "xyzz madd";
  bad = 0;
  cuda::xyzz_dbl(xp.data(), x.data(), n);
  for (size_t i = 0; i < n; i++) {
    XYZZ<F> e = xp[i].dbl();
    bad += !(x[i].X == e.X && x[i].Y == e.Y && x[i].ZZ == e.ZZ && x[i].ZZZ == e.ZZZ);
  }
  EXPECT_EQ(bad, 0u) << "xyzz dbl";
  // scalar multiplication on a subset (host side is slower)
  const size_t m = n < 256 ? n : 256;
  std::vector<Affine<F>> base(aq.begin(), aq.begin() + m);
  std::vector<Fr> k(m);
  for (auto& e : k) e = random_fe<Fr>(rng);
  k[0] = Fr::zero();
  k[1] = Fr::one();
  k[2] = -Fr::one();
  std::vector<Jacobian<F>> out(m);
  cuda::scalar_mul_batch(base.data(), k.data(), out.data(), m);
  bad = 0;
  for (size_t i = 0; i < m; i++) bad += !(out[i] == cuzk::scalar_mul(base[i], k[i]));
  EXPECT_EQ(bad, 0u) << "scalar mul";
}
TEST(GpuRandom, G1) {
  CUZK_REQUIRE_GPU();
  check_random_points<Fp>(4096, 31);
}
TEST(GpuRandom, G2) {
  CUZK_REQUIRE_GPU();
  check_random_points<Fp2>(1024, 32);
}

}  // namespace
}  // namespace cuzk::test
