// GPU NTT: the pass algorithm emulated on the CPU (no GPU needed) against reference transforms, then the
// device against host references for 2^1..2^24 and 2^27, both root conventions, forward / inverse /
// coset, and the pointwise H kernels.
#include <gtest/gtest.h>

#include <thread>

#include "cuda/gpu.hpp"
#include "gpu_support.hpp"
#include "ntt_emulator.hpp"
#include "random.hpp"
#include "util/error.hpp"

#if __has_include("ntt/ntt.hpp")
#include "ntt/ntt.hpp"
#define CUZK_HAVE_CPU_NTT 1
#endif

namespace cuzk::test {
namespace {

const RootConvention kConvs[] = {RootConvention::kGenerator7, RootConvention::kSnarkjs5};

Fr snarkjs_shift(int L) { return root_of_unity(L + 1, RootConvention::kSnarkjs5); }

// ---- CPU: emulated passes ----------------------------------------------------------------------------

TEST(GpuNttEmulated, ReferenceMatchesDefinition) {
  for (int L = 1; L <= 7; L++) {
    auto x = fast_random<Fr>(size_t{1} << L, 100 + L);
    for (auto conv : kConvs) {
      Fr w = root_of_unity(L, conv);
      auto r = x;
      ref_transform(r, L, conv, false, false);
      EXPECT_EQ(r, naive_dft(x, w)) << L;
      ref_transform(r, L, conv, true, false);
      EXPECT_EQ(r, x) << L;
    }
  }
}

TEST(GpuNttEmulated, AllModesUpTo2p14) {
  for (int L = cuda::ntt_detail::kMinLogRadix; L <= 14; L++)
    for (auto conv : kConvs)
      for (int mode = 0; mode < 4; mode++) {
        const bool inv = mode & 1, coset = mode & 2;
        const Fr shift = conv == RootConvention::kSnarkjs5 ? snarkjs_shift(L) : Fr::from_u64(7);
        auto x = fast_random<Fr>(size_t{1} << L, 1000 * L + mode);
        auto ref = x;
        ref_transform(ref, L, conv, inv, coset, shift);
        emulate_ntt(x, L, conv, inv, coset, shift);
        EXPECT_EQ(x, ref) << "L=" << L << " mode=" << mode << " conv=" << (int)conv;
      }
}

TEST(GpuNttEmulated, ThreePassShape) {
  // the smallest three-pass size: inverse coset on random input, then forward on the edge inputs (a 1 at
  // index 0 and at index n − 1, all r − 1)
  const int L = 21;
  const size_t n = size_t{1} << L;
  auto x = fast_random<Fr>(n, 77);
  auto ref = x;
  ref_transform(ref, L, RootConvention::kGenerator7, true, true, Fr::from_u64(7));
  emulate_ntt(x, L, RootConvention::kGenerator7, true, true, Fr::from_u64(7));
  EXPECT_EQ(x, ref);
  std::vector<std::vector<Fr>> edges(3, std::vector<Fr>(n, Fr::zero()));
  edges[0][0] = Fr::one();
  edges[1][n - 1] = Fr::one();
  edges[2].assign(n, -Fr::one());
  for (auto& e : edges) {
    auto r = e;
    ref_transform(r, L, RootConvention::kSnarkjs5, false, false);
    emulate_ntt(e, L, RootConvention::kSnarkjs5, false, false);
    EXPECT_EQ(e, r);
  }
}

TEST(GpuNttEmulated, ExactTablesAndTheFoldedCosetAtEveryPassCount) {
  // exact tables up to 2^L (the 2^21 three-pass post table of pass 1 included): a forward coset transform
  // then folds its shift powers into pass 1's positional post table; two-level tables (limit 10) at the
  // same sizes for comparison. One, two and three passes, both conventions' shifts.
  for (int L : {9, 13, 21})
    for (int max_exact : {10, L})
      for (int mode = 0; mode < 4; mode++) {
        const bool inv = mode & 1, coset = mode & 2;
        if (L == 21 && (max_exact != L || inv)) continue;  // ThreePassShape has the rest at 2^21
        const RootConvention conv = L == 13 ? RootConvention::kGenerator7 : RootConvention::kSnarkjs5;
        const Fr shift = conv == RootConvention::kSnarkjs5 ? snarkjs_shift(L) : Fr::from_u64(7);
        auto x = fast_random<Fr>(size_t{1} << L, 500 * L + 10 * max_exact + mode);
        auto ref = x;
        ref_transform(ref, L, conv, inv, coset, shift);
        emulate_ntt(x, L, conv, inv, coset, shift, cuda::ntt_detail::kLogBlockElems, max_exact);
        EXPECT_EQ(x, ref) << "L=" << L << " max_exact=" << max_exact << " mode=" << mode;
      }
}

/// The coset fold with two-level positional tables (post-pass exponent ranges above the exact limit, as
/// from 2^25 by default): forward and inverse coset transforms of two and three passes, the limit below
/// both post tables (10) and between them (16: pass 1's positional table two-level, pass 2's exact), both
/// conventions; then the plan at the default limit for 2^27.
TEST(GpuNttEmulated, CosetFoldWithTwoLevelPositionalTables) {
  namespace nd = cuda::ntt_detail;
  struct Case {
    int L, max_exact;
    RootConvention conv;
    int directions;  // bit 0: forward, bit 1: inverse (one direction each at 2^21, for the test's time)
  };
  for (const Case& c :
       {Case{13, 10, RootConvention::kGenerator7, 3}, Case{15, 10, RootConvention::kSnarkjs5, 3},
        Case{21, 10, RootConvention::kSnarkjs5, 2}, Case{21, 16, RootConvention::kGenerator7, 1}})
    for (bool inv : {false, true}) {
      if (!(c.directions & (inv ? 2 : 1))) continue;
      const Fr shift = c.conv == RootConvention::kSnarkjs5 ? snarkjs_shift(c.L) : Fr::from_u64(7);
      const auto ts = nd::make_transform(c.L, c.conv, inv, true, shift, nd::kLogBlockElems, c.max_exact);
      ASSERT_EQ(ts.post[0].kind, nd::kTabTwoLevel) << c.L;
      auto x = fast_random<Fr>(size_t{1} << c.L, 700 * c.L + 10 * c.max_exact + inv);
      auto ref = x;
      ref_transform(ref, c.L, c.conv, inv, true, shift);
      emulate_ntt(x, c.L, c.conv, inv, true, shift, nd::kLogBlockElems, c.max_exact);
      EXPECT_EQ(x, ref) << "L=" << c.L << " max_exact=" << c.max_exact << " inverse=" << inv;
    }
  // 2^27 at the default limit: the post tables of coset transforms are positional (two-level for pass 1,
  // exact for pass 2), those of plain ones by exponent; the load or store factor of a coset transform is
  // an R-entry digit table, and the four transforms' tables stay small (the positional ones (2^18 + 2^18)
  // + 2^18 entries per coset transform)
  const int L = 27;
  const Fr shift = Fr::from_u64(7);
  const auto fwd = nd::make_transform(L, RootConvention::kGenerator7, false, true, shift);
  EXPECT_EQ(fwd.post[0].by_position, 1);
  EXPECT_EQ(fwd.post[0].kind, nd::kTabTwoLevel);
  EXPECT_EQ(fwd.post[1].by_position, 1);
  EXPECT_EQ(fwd.post[1].kind, nd::kTabExact);
  EXPECT_EQ(fwd.in_factor.lo.count, size_t{1} << fwd.plan.pass[0].k);
  EXPECT_EQ(fwd.out_factor.kind, nd::kTabNone);
  const auto inv = nd::make_transform(L, RootConvention::kGenerator7, true, true, shift);
  EXPECT_EQ(inv.post[0].by_position, 1);
  EXPECT_EQ(inv.post[1].by_position, 1);
  EXPECT_EQ(inv.out_factor.lo.count, size_t{1} << inv.plan.pass[2].k);
  EXPECT_EQ(inv.in_factor.kind, nd::kTabNone);
  size_t entries = 0;
  for (int mode = 0; mode < 4; mode++)
    entries +=
        nd::table_entries(nd::make_transform(L, RootConvention::kGenerator7, mode & 1, mode & 2, shift));
  EXPECT_LT(entries * sizeof(Fr), size_t{80} << 20);
  EXPECT_EQ(nd::make_transform(L, RootConvention::kGenerator7, false, false, shift).post[0].by_position, 0);
  // and at 2^24, where every table is exact, the fold keeps its single positional table per pass
  const auto f24 = nd::make_transform(24, RootConvention::kGenerator7, false, true, shift);
  EXPECT_EQ(f24.post[0].kind, nd::kTabExact);
  EXPECT_EQ(nd::table_entries(f24.post[0]), size_t{1} << 24);
}

TEST(GpuNttEmulated, SmallBlocks) {
  // CUZK_NTT_LOG_BLOCK = 10: half as many sub-problems per block, two and three passes
  for (int L : {12, 17, 22}) {
    auto x = fast_random<Fr>(size_t{1} << L, 300 + L);
    auto ref = x;
    ref_transform(ref, L, RootConvention::kSnarkjs5, false, true, snarkjs_shift(L));
    emulate_ntt(x, L, RootConvention::kSnarkjs5, false, true, snarkjs_shift(L), 10);
    EXPECT_EQ(x, ref) << L;
  }
}

/// The lazily reduced pass arithmetic (nd::PassArith: values in [0, 2r) between operations, canonical on
/// the last store) at every pass shape: one pass (radix 2^4..2^10), two and three passes, every mode,
/// both conventions, exact and two-level tables; then edge inputs whose intermediate values reach the top
/// of [0, 2r) (all r − 1) or are sparse (a single 1 at the end) through the forward transform.
TEST(GpuNttEmulated, LazyReducedPassesEveryShape) {
  size_t transforms = 0;
  for (int L : {4, 5, 8, 9, 10, 13, 14, 17, 21})
    for (auto conv : kConvs)
      for (int mode = 0; mode < 4; mode++) {
        if (L >= 17 && (conv == RootConvention::kGenerator7 || mode != (L == 17 ? 2 : 3))) continue;
        const bool inv = mode & 1, coset = mode & 2;
        const Fr shift = conv == RootConvention::kSnarkjs5 ? snarkjs_shift(L) : Fr::from_u64(7);
        const int max_exact = (L + mode) % 2 ? 10 : cuda::ntt_detail::kMaxExactLog;
        auto x = fast_random<Fr>(size_t{1} << L, 9000 + 10 * L + mode);
        auto ref = x;
        ref_transform(ref, L, conv, inv, coset, shift);
        emulate_ntt(x, L, conv, inv, coset, shift, cuda::ntt_detail::kLogBlockElems, max_exact);
        ASSERT_EQ(x, ref) << "L=" << L << " mode=" << mode << " conv=" << (int)conv;
        transforms++;
      }
  for (int L : {8, 14}) {
    const size_t n = size_t{1} << L;
    std::vector<std::vector<Fr>> edges = {std::vector<Fr>(n, -Fr::one()), std::vector<Fr>(n, Fr::zero())};
    edges[1][n - 1] = Fr::one();
    for (auto& e : edges) {
      auto r = e;
      ref_transform(r, L, RootConvention::kSnarkjs5, false, false);
      emulate_ntt(e, L, RootConvention::kSnarkjs5, false, false);
      ASSERT_EQ(e, r) << "L=" << L;
      transforms++;
    }
  }
  EXPECT_EQ(transforms, 7u * 8 + 2 + 4);
}

// ---- device -------------------------------------------------------------------------------------------

/// Parallel iterative radix-2 NTT for large references (threads over butterfly groups).
void par_ref_ntt(std::vector<Fr>& a, const Fr& w) {
  const size_t n = a.size();
  int L = 0;
  while ((size_t{1} << L) < n) L++;
  unsigned T = std::thread::hardware_concurrency();
  if (T == 0) T = 4;
  auto par = [&](size_t count, auto&& fn) {
    std::vector<std::thread> th;
    const size_t chunk = (count + T - 1) / T;
    for (unsigned t = 0; t < T; t++) {
      const size_t b = t * chunk, e = std::min(count, b + chunk);
      if (b < e) th.emplace_back([&, b, e] { fn(b, e); });
    }
    for (auto& x : th) x.join();
  };
  par(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; i++) {
      size_t j = nd::bitrev((uint32_t)i, L);
      if (i < j) std::swap(a[i], a[j]);
    }
  });
  // tw[j] = w^j for j < n/2, in parallel chunks
  std::vector<Fr> tw(std::max<size_t>(n / 2, 1));
  par(tw.size(), [&](size_t b, size_t e) {
    const uint64_t eb = b;
    Fr x = w.pow(&eb, 1);
    for (size_t j = b; j < e; j++) {
      tw[j] = x;
      x = x * w;
    }
  });
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t h = len / 2, stride = n / len;
    par(n / 2, [&](size_t b, size_t e) {
      for (size_t k = b; k < e; k++) {
        const size_t grp = k / h, j = k % h, i = grp * len + j;
        Fr u = a[i], v = a[i + h] * tw[j * stride];
        a[i] = u + v;
        a[i + h] = u - v;
      }
    });
  }
}

/// GPU transform of x (copied) in the given mode.
std::vector<Fr> gpu_transform(cuda::GpuNtt& g, const std::vector<Fr>& x, bool inv, bool coset,
                              const Fr& shift) {
  cuda::DeviceFrVec d(x.size());
  d.upload(x);
  if (!inv && !coset) g.forward(d);
  if (inv && !coset) g.inverse(d);
  if (!inv && coset) g.coset_forward(d, shift);
  if (inv && coset) g.coset_inverse(d, shift);
  return d.download();
}

/// Number of differing elements; prints the first few differing indices.
size_t count_diff(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  size_t d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); i++)
    if (a[i] != b[i] && d++ < 4) std::printf("    differs at %zu of %zu\n", i, a.size());
  return d + (a.size() != b.size());
}

TEST(GpuNtt, AllModesSmallSizes) {
  CUZK_REQUIRE_GPU();
  for (int L = 1; L <= 16; L++)
    for (auto conv : kConvs) {
      cuda::GpuNtt g(L, conv);
      for (int mode = 0; mode < 4; mode++) {
        const bool inv = mode & 1, coset = mode & 2;
        const Fr shift = conv == RootConvention::kSnarkjs5 ? snarkjs_shift(L) : Fr::from_u64(7);
        auto x = fast_random<Fr>(size_t{1} << L, 31 * L + mode);
        auto ref = x;
        ref_transform(ref, L, conv, inv, coset, shift);
        EXPECT_EQ(count_diff(gpu_transform(g, x, inv, coset, shift), ref), 0u)
            << "L=" << L << " mode=" << mode << " conv=" << (int)conv;
      }
    }
}

void check_large(int L, RootConvention conv, bool all_modes) {
  const size_t n = size_t{1} << L;
  cuda::GpuNtt g(L, conv);
  auto x = fast_random<Fr>(n, 500 + L);
  cuda::DeviceFrVec d(n);
  d.upload(x);
  g.forward(d);
  auto got = d.download();
  auto ref = x;
  par_ref_ntt(ref, root_of_unity(L, conv));
  EXPECT_EQ(count_diff(got, ref), 0u) << "forward L=" << L;
  g.inverse(d);
  EXPECT_EQ(count_diff(d.download(), x), 0u) << "round trip L=" << L;
  if (all_modes) {
    const Fr shift = conv == RootConvention::kSnarkjs5 ? snarkjs_shift(L) : Fr::from_u64(7);
    d.upload(x);
    g.coset_forward(d, shift);
    auto c = d.download();
    auto sx = x;
    Fr s = Fr::one();
    for (auto& e : sx) {
      e = e * s;
      s = s * shift;
    }
    par_ref_ntt(sx, root_of_unity(L, conv));
    EXPECT_EQ(count_diff(c, sx), 0u) << "coset forward L=" << L;
    g.coset_inverse(d, shift);
    EXPECT_EQ(count_diff(d.download(), x), 0u) << "coset round trip L=" << L;
  }
}

TEST(GpuNtt, LargeSizes17To24) {
  CUZK_REQUIRE_GPU();
  for (int L = 17; L <= 24; L++)
    check_large(L, L % 2 ? RootConvention::kSnarkjs5 : RootConvention::kGenerator7, L >= 20);
}

TEST(GpuNtt, Size2p27) {
  CUZK_REQUIRE_GPU();
  check_large(27, RootConvention::kGenerator7, false);
}

#ifdef CUZK_HAVE_CPU_NTT
TEST(GpuNtt, MatchesCpuNtt) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool;
  for (int L : {12, 20}) {
    for (auto conv : kConvs) {
      Domain dom(L, conv);
      auto x = fast_random<Fr>(size_t{1} << L, 900 + L);
      auto cpu = x;
      ntt(dom, std::span<Fr>(cpu), pool);
      cuda::GpuNtt g(L, conv);
      EXPECT_EQ(count_diff(gpu_transform(g, x, false, false, Fr::one()), cpu), 0u) << L;
      const Fr shift = coset_shift_snarkjs(L);
      cpu = x;
      coset_ntt(dom, std::span<Fr>(cpu), shift, pool);
      EXPECT_EQ(count_diff(gpu_transform(g, x, false, true, shift), cpu), 0u) << L;
    }
  }
}
#endif

TEST(GpuNtt, PointwiseH) {
  CUZK_REQUIRE_GPU();
  const size_t n = 100003;
  auto a = fast_random<Fr>(n, 1), b = fast_random<Fr>(n, 2), c = fast_random<Fr>(n, 3);
  cuda::DeviceFrVec da(n), db(n), dc(n), out(n);
  da.upload(a);
  db.upload(b);
  dc.upload(c);
  cuda::fr_mul_sub(da, db, dc, out);
  auto h = out.download();
  const Fr s = Fr::from_u64(12345).inverse();
  cuda::fr_mul_sub_scale(da, db, dc, s, out);
  auto hs = out.download();
  cuda::fr_scale(da, s);
  auto as = da.download();
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    const Fr e = a[i] * b[i] - c[i];
    bad += h[i] != e;
    bad += hs[i] != e * s;
    bad += as[i] != a[i] * s;
  }
  EXPECT_EQ(bad, 0u);
  cuda::DeviceFrVec wrong(n - 1);
  EXPECT_THROW(cuda::fr_mul_sub(da, db, dc, wrong), Error);
}

TEST(GpuNtt, RejectsBadArguments) {
  CUZK_REQUIRE_GPU();
  EXPECT_THROW(cuda::GpuNtt(0, RootConvention::kGenerator7), Error);
  EXPECT_THROW(cuda::GpuNtt(29, RootConvention::kGenerator7), Error);
  cuda::GpuNtt g(4, RootConvention::kGenerator7);
  cuda::DeviceFrVec v(8);
  EXPECT_THROW(g.forward(v), Error);
}

}  // namespace
}  // namespace cuzk::test
