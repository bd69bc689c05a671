// CPU micro-benchmarks of the arithmetic core on dependent chains (each result feeds the next
// operation, so latency is measured, as in the blst anchors of docs/PERFORMANCE.md).
#include <benchmark/benchmark.h>

#include <random>

#include "ec/pairing.hpp"
#include "ff/bytes.hpp"
#include "ff/fp52x8.hpp"

namespace cuzk {
namespace {

template <class F>
F rnd(std::mt19937_64& rng) {
  uint8_t b[64];
  for (auto& x : b) x = (uint8_t)rng();
  return reduce_bytes_le<F>(b, sizeof b);
}

CUZK_IFMA void load_lanes(const ifma::Fp52* const* src, ifma::FpX8* x, ifma::FpX8& y) {
  for (int i = 0; i < 4; i++) x[i] = ifma::gather(src);
  y = ifma::gather(src);
}

template <class F>
void BM_mul(benchmark::State& st) {
  std::mt19937_64 rng(1);
  F a = rnd<F>(rng), b = rnd<F>(rng);
  for (auto _ : st) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_mul<Fp>)->Name("Fp_mul");
BENCHMARK(BM_mul<Fr>)->Name("Fr_mul");

// Throughput (not latency) of the AVX-512 IFMA lanes: four independent 8-lane Fp products per
// iteration, reported per single-element product (items).
CUZK_IFMA void fpx8_mul_rounds(ifma::FpX8* x, const ifma::FpX8& y, int64_t rounds) {
  for (int64_t r = 0; r < rounds; r++)
    for (int i = 0; i < 4; i++) x[i] = ifma::mul(x[i], y);
}
void BM_fpx8_mul(benchmark::State& st) {
  if (!ifma::cpu_has_ifma()) {
    st.SkipWithError("this CPU has no AVX-512 IFMA");
    return;
  }
  std::mt19937_64 rng(2);
  alignas(64) ifma::Fp52 rows[8];
  const ifma::Fp52* src[8];
  for (int i = 0; i < 8; i++) {
    rows[i] = ifma::to_fp52(rnd<Fp>(rng));
    src[i] = &rows[i];
  }
  ifma::FpX8 x[4];
  ifma::FpX8 y;
  load_lanes(src, x, y);
  for (auto _ : st) {
    fpx8_mul_rounds(x, y, 256);
    benchmark::DoNotOptimize(x);
  }
  st.SetItemsProcessed(st.iterations() * 256 * 4 * 8);
}
BENCHMARK(BM_fpx8_mul)->Name("FpX8_mul_throughput");

void BM_fp_add(benchmark::State& st) {
  std::mt19937_64 rng(1);
  Fp a = rnd<Fp>(rng), b = rnd<Fp>(rng);
  for (auto _ : st) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_fp_add)->Name("Fp_add");

void BM_fp_inv(benchmark::State& st) {
  std::mt19937_64 rng(1);
  Fp a = rnd<Fp>(rng);
  for (auto _ : st) {
    a = a.inverse();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_fp_inv)->Name("Fp_inverse");

template <class F>
void BM_madd(benchmark::State& st) {
  std::mt19937_64 rng(2);
  Affine<F> q = scalar_mul(Curve<F>::generator(), rnd<Fr>(rng)).to_affine();
  Jacobian<F> acc = scalar_mul(Curve<F>::generator(), rnd<Fr>(rng));
  for (auto _ : st) {
    acc = acc.add_affine(q);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_madd<Fp>)->Name("G1_mixed_add_jacobian");
BENCHMARK(BM_madd<Fp2>)->Name("G2_mixed_add_jacobian");

template <class F>
void BM_madd_xyzz(benchmark::State& st) {
  std::mt19937_64 rng(2);
  Affine<F> q = scalar_mul(Curve<F>::generator(), rnd<Fr>(rng)).to_affine();
  XYZZ<F> acc = XYZZ<F>::from_affine(scalar_mul(Curve<F>::generator(), rnd<Fr>(rng)).to_affine());
  for (auto _ : st) {
    acc = acc.add_affine(q);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_madd_xyzz<Fp>)->Name("G1_mixed_add_xyzz");
BENCHMARK(BM_madd_xyzz<Fp2>)->Name("G2_mixed_add_xyzz");

template <class F>
void BM_dbl(benchmark::State& st) {
  Jacobian<F> acc = Jacobian<F>::from_affine(Curve<F>::generator());
  for (auto _ : st) {
    acc = acc.dbl();
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_dbl<Fp>)->Name("G1_double_jacobian");
BENCHMARK(BM_dbl<Fp2>)->Name("G2_double_jacobian");

void BM_pairing(benchmark::State& st) {
  G1Affine p = Curve<Fp>::generator();
  G2Affine q = Curve<Fp2>::generator();
  for (auto _ : st) benchmark::DoNotOptimize(pairing(p, q));
}
BENCHMARK(BM_pairing)->Name("pairing")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
