// Batched field and curve arithmetic on the device (the arithmetic core's CUZK_HD code compiled for the
// GPU) and the multiplication / mixed-addition throughput benchmarks. See gpu.hpp.
#include <algorithm>
#include <random>
#include <type_traits>
#include <vector>

#include "cuda/arith_variants.cuh"
#include "cuda/context.cuh"
#include "cuda/gpu.hpp"
#include "ec/xyzz_f64.hpp"
#include "ff/mont_f64.hpp"

namespace cuzk::cuda {
namespace {

constexpr unsigned kThreads = 256;

/// Grid-stride loop applying op(i) for i < n.
template <class Op>
__global__ void for_each_kernel(Op op, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) op(i);
}

template <class Op>
void launch_for_each(Context& ctx, const Op& op, size_t n, const char* name) {
  if (n == 0) return;
  for_each_kernel<<<grid_for(ctx, n, kThreads), kThreads, 0, ctx.stream()>>>(op, n);
  CUZK_CUDA_CHECK_LAUNCH(name, ctx.stream());
}

template <class F>
struct FieldOpKernel {
  FieldOp op;
  const F* a;
  const F* b;
  F* out;
  __device__ void operator()(size_t i) const {
    const F x = a[i];
    switch (op) {
      case FieldOp::kAdd: out[i] = x + b[i]; break;
      case FieldOp::kSub: out[i] = x - b[i]; break;
      case FieldOp::kMul: out[i] = x * b[i]; break;
      case FieldOp::kSqr: out[i] = x.sqr(); break;
      case FieldOp::kNeg: out[i] = -x; break;
    }
  }
};

/// out[i] = a[i]·b[i] through the FP64 product (mont_f64.hpp), canonical.
struct MulF64Kernel {
  const Fp* a;
  const Fp* b;
  Fp* out;
  bool by_columns;
  __device__ void operator()(size_t i) const {
    const f64::Fp48 x = f64::to_f64(a[i]), y = f64::to_f64(b[i]);
    out[i] = f64::from_f64(by_columns ? f64::mul_by_columns(x, y) : f64::mul(x, y));
  }
};

template <class F>
void field_batch(FieldOp op, const F* a, const F* b, F* out, size_t n, int device) {
  if (n == 0) return;
  Context& ctx = Context::get(device);
  const bool binary = op == FieldOp::kAdd || op == FieldOp::kSub || op == FieldOp::kMul;
  PoolBuffer<F> da(ctx, n), db(ctx, binary ? n : 1), dout(ctx, n);
  da.upload(a);
  if (binary) db.upload(b);
  launch_for_each(ctx, FieldOpKernel<F>{op, da.get(), db.get(), dout.get()}, n, "field_batch");
  dout.download(out);
}

// ---- points ----------------------------------------------------------------------------------------

template <class F>
struct JacAdd {
  const Jacobian<F>* p;
  const Jacobian<F>* q;
  Jacobian<F>* out;
  __device__ void operator()(size_t i) const { out[i] = p[i] + q[i]; }
};
template <class F>
struct JacAddAffine {
  const Jacobian<F>* p;
  const Affine<F>* q;
  Jacobian<F>* out;
  __device__ void operator()(size_t i) const { out[i] = p[i].add_affine(q[i]); }
};
template <class F>
struct JacDbl {
  const Jacobian<F>* p;
  Jacobian<F>* out;
  __device__ void operator()(size_t i) const { out[i] = p[i].dbl(); }
};
template <class F>
struct AffNeg {
  const Affine<F>* p;
  Affine<F>* out;
  __device__ void operator()(size_t i) const { out[i] = -p[i]; }
};
template <class F>
struct XyzzAddAffine {
  const XYZZ<F>* p;
  const Affine<F>* q;
  XYZZ<F>* out;
  __device__ void operator()(size_t i) const { out[i] = p[i].add_affine(q[i]); }
};
template <class F>
struct XyzzAdd {
  const XYZZ<F>* p;
  const XYZZ<F>* q;
  XYZZ<F>* out;
  __device__ void operator()(size_t i) const { out[i] = p[i] + q[i]; }
};
template <class F>
struct XyzzDbl {
  const XYZZ<F>* p;
  XYZZ<F>* out;
  __device__ void operator()(size_t i) const { out[i] = p[i].dbl(); }
};
/// MSB-first double-and-add over the canonical bits of k (variable time; test/bench use only).
template <class F>
struct ScalarMul {
  const Affine<F>* p;
  const Fr* k;
  Jacobian<F>* out;
  __device__ void operator()(size_t i) const {
    uint64_t e[Fr::N];
    k[i].to_canonical(e);
    const Affine<F> P = p[i];
    Jacobian<F> acc = Jacobian<F>::infinity();
    for (int w = Fr::N - 1; w >= 0; w--)
      for (int b = 63; b >= 0; b--) {
        acc = acc.dbl();
        if ((e[w] >> b) & 1) acc = acc.add_affine(P);
      }
    out[i] = acc;
  }
};

template <class Out, class In1, class In2, template <class> class K, class F>
void binary_points(const In1* p, const In2* q, Out* out, size_t n, int device, const char* name) {
  if (n == 0) return;
  Context& ctx = Context::get(device);
  PoolBuffer<In1> dp(ctx, n);
  PoolBuffer<In2> dq(ctx, n);
  PoolBuffer<Out> dout(ctx, n);
  dp.upload(p);
  dq.upload(q);
  launch_for_each(ctx, K<F>{dp.get(), dq.get(), dout.get()}, n, name);
  dout.download(out);
}
template <class Out, class In, template <class> class K, class F>
void unary_points(const In* p, Out* out, size_t n, int device, const char* name) {
  if (n == 0) return;
  Context& ctx = Context::get(device);
  PoolBuffer<In> dp(ctx, n);
  PoolBuffer<Out> dout(ctx, n);
  dp.upload(p);
  launch_for_each(ctx, K<F>{dp.get(), dout.get()}, n, name);
  dout.download(out);
}

}  // namespace

void fp_batch(FieldOp op, const Fp* a, const Fp* b, Fp* out, size_t n, int device) {
  field_batch(op, a, b, out, n, device);
}
void fr_batch(FieldOp op, const Fr* a, const Fr* b, Fr* out, size_t n, int device) {
  field_batch(op, a, b, out, n, device);
}
void fp2_batch(FieldOp op, const Fp2* a, const Fp2* b, Fp2* out, size_t n, int device) {
  field_batch(op, a, b, out, n, device);
}

void fp_mul_f64_batch(const Fp* a, const Fp* b, Fp* out, size_t n, bool by_columns, int device) {
  if (n == 0) return;
  Context& ctx = Context::get(device);
  PoolBuffer<Fp> da(ctx, n), db(ctx, n), dout(ctx, n);
  da.upload(a);
  db.upload(b);
  launch_for_each(ctx, MulF64Kernel{da.get(), db.get(), dout.get(), by_columns}, n, "fp_mul_f64_batch");
  dout.download(out);
}

template <class F>
void jacobian_add(const Jacobian<F>* p, const Jacobian<F>* q, Jacobian<F>* out, size_t n, int device) {
  binary_points<Jacobian<F>, Jacobian<F>, Jacobian<F>, JacAdd, F>(p, q, out, n, device, "jacobian_add");
}
template <class F>
void jacobian_add_affine(const Jacobian<F>* p, const Affine<F>* q, Jacobian<F>* out, size_t n, int device) {
  binary_points<Jacobian<F>, Jacobian<F>, Affine<F>, JacAddAffine, F>(p, q, out, n, device, "jacobian_add_affine");
}
template <class F>
void jacobian_dbl(const Jacobian<F>* p, Jacobian<F>* out, size_t n, int device) {
  unary_points<Jacobian<F>, Jacobian<F>, JacDbl, F>(p, out, n, device, "jacobian_dbl");
}
template <class F>
void affine_neg(const Affine<F>* p, Affine<F>* out, size_t n, int device) {
  unary_points<Affine<F>, Affine<F>, AffNeg, F>(p, out, n, device, "affine_neg");
}
template <class F>
void xyzz_add_affine(const XYZZ<F>* p, const Affine<F>* q, XYZZ<F>* out, size_t n, int device) {
  binary_points<XYZZ<F>, XYZZ<F>, Affine<F>, XyzzAddAffine, F>(p, q, out, n, device, "xyzz_add_affine");
}
template <class F>
void xyzz_add(const XYZZ<F>* p, const XYZZ<F>* q, XYZZ<F>* out, size_t n, int device) {
  binary_points<XYZZ<F>, XYZZ<F>, XYZZ<F>, XyzzAdd, F>(p, q, out, n, device, "xyzz_add");
}
template <class F>
void xyzz_dbl(const XYZZ<F>* p, XYZZ<F>* out, size_t n, int device) {
  unary_points<XYZZ<F>, XYZZ<F>, XyzzDbl, F>(p, out, n, device, "xyzz_dbl");
}
template <class F>
void scalar_mul_batch(const Affine<F>* p, const Fr* k, Jacobian<F>* out, size_t n, int device) {
  binary_points<Jacobian<F>, Affine<F>, Fr, ScalarMul, F>(p, k, out, n, device, "scalar_mul_batch");
}

#define CUZK_INSTANTIATE_POINTS(F)                                                                     \
  template void jacobian_add<F>(const Jacobian<F>*, const Jacobian<F>*, Jacobian<F>*, size_t, int);    \
  template void jacobian_add_affine<F>(const Jacobian<F>*, const Affine<F>*, Jacobian<F>*, size_t, int); \
  template void jacobian_dbl<F>(const Jacobian<F>*, Jacobian<F>*, size_t, int);                        \
  template void affine_neg<F>(const Affine<F>*, Affine<F>*, size_t, int);                              \
  template void xyzz_add_affine<F>(const XYZZ<F>*, const Affine<F>*, XYZZ<F>*, size_t, int);           \
  template void xyzz_add<F>(const XYZZ<F>*, const XYZZ<F>*, XYZZ<F>*, size_t, int);                    \
  template void xyzz_dbl<F>(const XYZZ<F>*, XYZZ<F>*, size_t, int);                                    \
  template void scalar_mul_batch<F>(const Affine<F>*, const Fr*, Jacobian<F>*, size_t, int);
CUZK_INSTANTIATE_POINTS(Fp)
CUZK_INSTANTIATE_POINTS(Fp2)
#undef CUZK_INSTANTIATE_POINTS

// ---- benchmarks ------------------------------------------------------------------------------------

const char* mul_variant_name(MulVariant v) {
  switch (v) {
    case MulVariant::kEvenOdd: return "even-odd (mont.hpp)";
    case MulVariant::kEvenOddShape: return "even-odd + shape";
    case MulVariant::kCios4: return "cios-4chain";
    case MulVariant::kWide64: return "wide64";
    case MulVariant::kF64: return "fp64, CIOS order";
    case MulVariant::kF64Columns: return "fp64, by columns";
    case MulVariant::kSplitHalf: return "warps 2/4 fp64, 2/4 imad";
    case MulVariant::kSplitQuarter: return "warps 1/4 fp64, 3/4 imad";
  }
  return "?";
}

namespace {

constexpr int kChains = 4;
constexpr int kMulIters = 1024;

struct MulEvenOdd {
  template <class F>
  __device__ F operator()(const F& a, const F& b) const {
    return a * b;
  }
};
struct MulEvenOddShape {
  template <class F>
  __device__ F operator()(const F& a, const F& b) const {
    return variants::mul_evenodd_shape(a, b);
  }
};
struct MulCios4 {
  template <class F>
  __device__ F operator()(const F& a, const F& b) const {
    return variants::mul_cios4(a, b);
  }
};
struct MulWide64 {
  template <class F>
  __device__ F operator()(const F& a, const F& b) const {
    return variants::mul_wide64(a, b);
  }
};
/// The FP64 products of mont_f64.hpp; their chains run in the 48-bit-limb form (ChainRep).
struct MulF64 {
  __device__ f64::Fp48 operator()(const f64::Fp48& a, const f64::Fp48& b) const { return f64::mul(a, b); }
};
struct MulF64Columns {
  __device__ f64::Fp48 operator()(const f64::Fp48& a, const f64::Fp48& b) const {
    return f64::mul_by_columns(a, b);
  }
};

/// The form a multiplier's chains run in: F itself, or for the FP64 products the 48-bit limbs
/// (converted once before and once after the chain, outside the products counted).
template <class F, class Mul>
struct ChainRep {
  using Rep = F;
  __device__ static Rep to(const F& a) { return a; }
  __device__ static F from(const Rep& a) { return a; }
};
struct ChainRepF64 {
  using Rep = f64::Fp48;
  __device__ static Rep to(const Fp& a) { return f64::to_f64(a); }
  __device__ static Fp from(const Rep& a) { return f64::from_f64(a); }
};
template <>
struct ChainRep<Fp, MulF64> : ChainRepF64 {};
template <>
struct ChainRep<Fp, MulF64Columns> : ChainRepF64 {};

/// x² from the wide square and one REDC (mont.hpp sqr_wide_words, redc_words; y is ignored).
struct SqrWide {
  template <class F>
  __device__ F operator()(const F& a, const F&) const {
#ifdef __CUDA_ARCH__  // the PTX primitives exist in the device pass only
    typename F::PtxCarryOps op;
    uint32_t T[F::kWideWords];
    F::sqr_wide_words(a, T, op);
    return F::redc_words(T, op);
#else
    return a;
#endif
  }
};
/// The host's reference for SqrWide.
struct HostSqr {
  template <class F>
  F operator()(const F& a, const F&) const {
    return a.sqr();
  }
};
/// Fp2's Karatsuba product with lazy reduction (fp2.hpp mul_lazy), to compare with operator*.
struct Fp2MulLazy {
  __device__ Fp2 operator()(const Fp2& a, const Fp2& b) const {
#ifdef __CUDA_ARCH__
    Fp::PtxCarryOps op;
    return Fp2::mul_lazy(a, b, op);
#else
    return a * b;
#endif
  }
};
/// The host's reference for the product benchmarks.
struct HostMul {
  template <class F>
  F operator()(const F& a, const F& b) const {
    return a * b;
  }
};

/// x[t][c] ← x[t][c]·y[t] repeated `iters` times for each of kChains chains of thread t.
template <class F, class Mul>
__global__ void __launch_bounds__(256) mul_chain_kernel(F* x, const F* y, int iters) {
  using R = ChainRep<F, Mul>;
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  typename R::Rep v[kChains];
#pragma unroll
  for (int c = 0; c < kChains; c++) v[c] = R::to(x[t * kChains + c]);
  const typename R::Rep m = R::to(y[t]);
  Mul mul;
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int c = 0; c < kChains; c++) v[c] = mul(v[c], m);
  }
#pragma unroll
  for (int c = 0; c < kChains; c++) x[t * kChains + c] = R::from(v[c]);
}

/// The two pipes at once: warp w of each block runs its chains with f64::mul in 48-bit limbs when
/// w mod 4 < Fp64Warps, else with Fp's operator* (mul_evenodd); same data layout and result as
/// mul_chain_kernel. The register count is the larger path's, so both kinds of warp share the SM.
template <int Fp64Warps>
struct MulSplitWarps {};
template <int Fp64Warps>
__global__ void __launch_bounds__(256) split_chain_kernel(Fp* x, const Fp* y, int iters) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if ((int)((threadIdx.x >> 5) & 3) < Fp64Warps) {
    f64::Fp48 v[kChains];
#pragma unroll
    for (int c = 0; c < kChains; c++) v[c] = f64::to_f64(x[t * kChains + c]);
    const f64::Fp48 m = f64::to_f64(y[t]);
    for (int i = 0; i < iters; i++) {
#pragma unroll
      for (int c = 0; c < kChains; c++) v[c] = f64::mul(v[c], m);
    }
#pragma unroll
    for (int c = 0; c < kChains; c++) x[t * kChains + c] = f64::from_f64(v[c]);
  } else {
    Fp v[kChains];
#pragma unroll
    for (int c = 0; c < kChains; c++) v[c] = x[t * kChains + c];
    const Fp m = y[t];
    for (int i = 0; i < iters; i++) {
#pragma unroll
      for (int c = 0; c < kChains; c++) v[c] = v[c] * m;
    }
#pragma unroll
    for (int c = 0; c < kChains; c++) x[t * kChains + c] = v[c];
  }
}
/// The chain kernel of a multiplier: mul_chain_kernel, or split_chain_kernel for the split warps.
template <class F, class Mul>
auto chain_kernel(Mul) {
  return mul_chain_kernel<F, Mul>;
}
template <class F, int W>
auto chain_kernel(MulSplitWarps<W>) {
  return split_chain_kernel<W>;
}

/// Random values below the modulus (any value < m is a valid Montgomery representation).
template <class F>
std::vector<F> random_elements(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> v(n);
  for (auto& e : v) {
    for (int i = 0; i < F::N; i++) e.l[i] = rng();
    e.l[F::N - 1] &= (F::Params::mod(F::N - 1) >> 1);  // below the top limb of m: value < m
  }
  return v;
}
template <>
std::vector<Fp2> random_elements<Fp2>(size_t n, uint64_t seed) {
  const std::vector<Fp> c = random_elements<Fp>(2 * n, seed);
  std::vector<Fp2> v(n);
  for (size_t i = 0; i < n; i++) v[i] = Fp2{c[2 * i], c[2 * i + 1]};
  return v;
}

template <class K>
int kernel_regs(K kernel) {
  cudaFuncAttributes attr{};
  CUZK_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  return attr.numRegs;
}

Throughput summarize(std::vector<float> ms, uint64_t ops) {
  std::sort(ms.begin(), ms.end());
  Throughput r;
  r.runs = (int)ms.size();
  r.ms_median = ms[ms.size() / 2];
  r.ms_min = ms.front();
  r.ops = ops;
  r.ops_per_s = (double)ops / (r.ms_median * 1e-3);
  return r;
}

template <class F, class Mul, class HostRef = HostMul>
Throughput bench_mul(int runs, int device) {
  Context& ctx = Context::get(device);
  const unsigned blocks = (unsigned)ctx.props().multiProcessorCount * 4;
  const size_t threads = (size_t)blocks * kThreads;
  auto hx = random_elements<F>(threads * kChains, 1);
  auto hy = random_elements<F>(threads, 2);
  PoolBuffer<F> dx(ctx, hx.size()), dy(ctx, hy.size());
  dy.upload(hy.data());
  auto kernel = chain_kernel<F>(Mul{});
  // warm-up (also the checked run)
  dx.upload(hx.data());
  kernel<<<blocks, kThreads, 0, ctx.stream()>>>(dx.get(), dy.get(), kMulIters);
  CUZK_CUDA_CHECK_LAUNCH("mul_chain_kernel", ctx.stream());
  std::vector<F> out(hx.size());
  dx.download(out.data());
  std::vector<float> ms;
  StreamTimer timer(device);
  for (int r = 0; r < runs; r++) {
    timer.start();
    kernel<<<blocks, kThreads, 0, ctx.stream()>>>(dx.get(), dy.get(), kMulIters);
    CUZK_CUDA_CHECK_LAUNCH("mul_chain_kernel", ctx.stream());
    timer.stop();
    ms.push_back(timer.ms());
  }
  Throughput res = summarize(ms, (uint64_t)threads * kChains * kMulIters);
  res.regs_per_thread = kernel_regs(kernel);
  // host check of a sample of threads
  for (size_t s = 0; s < 48; s++) {
    const size_t t = (s * 2654435761u) % threads;
    for (int c = 0; c < kChains; c++) {
      F v = hx[t * kChains + c];
      for (int i = 0; i < kMulIters; i++) v = HostRef{}(v, hy[t]);
      res.checked++;
      if (v != out[t * kChains + c]) res.mismatches++;
    }
  }
  return res;
}

template <class F>
Throughput bench_mul_variant(MulVariant v, int runs, int device) {
  switch (v) {
    case MulVariant::kEvenOdd: return bench_mul<F, MulEvenOdd>(runs, device);
    case MulVariant::kEvenOddShape: return bench_mul<F, MulEvenOddShape>(runs, device);
    case MulVariant::kCios4: return bench_mul<F, MulCios4>(runs, device);
    case MulVariant::kWide64: return bench_mul<F, MulWide64>(runs, device);
    case MulVariant::kF64:
    case MulVariant::kF64Columns:
    case MulVariant::kSplitHalf:
    case MulVariant::kSplitQuarter:
      if constexpr (std::is_same_v<F, Fp>) {
        switch (v) {
          case MulVariant::kF64: return bench_mul<F, MulF64>(runs, device);
          case MulVariant::kF64Columns: return bench_mul<F, MulF64Columns>(runs, device);
          case MulVariant::kSplitHalf: return bench_mul<F, MulSplitWarps<2>>(runs, device);
          default: return bench_mul<F, MulSplitWarps<1>>(runs, device);
        }
      }
      throw Error(ErrorCode::kInvalidArgument, "bench: the FP64 multipliers exist for Fp only");
  }
  throw Error(ErrorCode::kInvalidArgument, "bench: unknown multiplier variant");
}

constexpr int kPointTableLog = 14;
constexpr int kMaddIters = 256;

__host__ __device__ inline uint32_t madd_index(size_t t, int i) {
  return (uint32_t)((t * 977u + (size_t)i * 131u + 1u) & ((1u << kPointTableLog) - 1));
}

/// point.hpp's own mixed addition.
struct PointMadd {
  __device__ static G1XYZZ add(const G1XYZZ& p, const G1Affine& q) { return p.add_affine(q); }
};

template <class Madd>
__global__ void __launch_bounds__(256) madd_kernel(const G1Affine* table, G1XYZZ* out, int iters) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  G1XYZZ acc = G1XYZZ::from_affine(table[t & ((1u << kPointTableLog) - 1)]);
  for (int i = 0; i < iters; i++) acc = Madd::add(acc, table[madd_index(t, i)]);
  out[t] = acc;
}

template <class Madd>
Throughput bench_madd(int runs, int device) {
  Context& ctx = Context::get(device);
  // 2^14 distinct random points: P_0 = k·G, P_{i+1} = P_i + Q, normalized with one inversion
  std::mt19937_64 rng(3);
  auto ks = random_elements<Fr>(2, 4);
  G1 p = cuzk::scalar_mul(Curve<Fp>::generator(), ks[0]);
  const G1 q = cuzk::scalar_mul(Curve<Fp>::generator(), ks[1]);
  std::vector<G1> jac(size_t{1} << kPointTableLog);
  for (auto& j : jac) {
    j = p;
    p += q;
  }
  const std::vector<G1Affine> table = batch_to_affine(jac);
  const unsigned blocks = (unsigned)ctx.props().multiProcessorCount * 4;
  const size_t threads = (size_t)blocks * kThreads;
  PoolBuffer<G1Affine> dt(ctx, table.size());
  PoolBuffer<G1XYZZ> dout(ctx, threads);
  dt.upload(table.data());
  madd_kernel<Madd><<<blocks, kThreads, 0, ctx.stream()>>>(dt.get(), dout.get(), kMaddIters);
  CUZK_CUDA_CHECK_LAUNCH("madd_kernel", ctx.stream());
  std::vector<G1XYZZ> out(threads);
  dout.download(out.data());
  std::vector<float> ms;
  StreamTimer timer(device);
  for (int r = 0; r < runs; r++) {
    timer.start();
    madd_kernel<Madd><<<blocks, kThreads, 0, ctx.stream()>>>(dt.get(), dout.get(), kMaddIters);
    CUZK_CUDA_CHECK_LAUNCH("madd_kernel", ctx.stream());
    timer.stop();
    ms.push_back(timer.ms());
  }
  Throughput res = summarize(ms, (uint64_t)threads * kMaddIters);
  res.regs_per_thread = kernel_regs(madd_kernel<Madd>);
  for (size_t s = 0; s < 64; s++) {
    const size_t t = (s * 2654435761u) % threads;
    G1XYZZ acc = G1XYZZ::from_affine(table[t & ((1u << kPointTableLog) - 1)]);
    for (int i = 0; i < kMaddIters; i++) acc = acc.add_affine(table[madd_index(t, i)]);
    res.checked++;
    const G1XYZZ& d = out[t];
    if (d.X != acc.X || d.Y != acc.Y || d.ZZ != acc.ZZ || d.ZZZ != acc.ZZZ) res.mismatches++;
  }
  return res;
}

}  // namespace

Throughput bench_fp_mul(MulVariant v, int runs, int device) { return bench_mul_variant<Fp>(v, runs, device); }
Throughput bench_fr_mul(MulVariant v, int runs, int device) { return bench_mul_variant<Fr>(v, runs, device); }
Throughput bench_fp_sqr(int runs, int device) { return bench_mul<Fp, SqrWide, HostSqr>(runs, device); }
Throughput bench_fp2_mul(bool lazy, int runs, int device) {
  return lazy ? bench_mul<Fp2, Fp2MulLazy>(runs, device) : bench_mul<Fp2, MulEvenOdd>(runs, device);
}

Throughput bench_g1_madd(int runs, int device) { return bench_madd<PointMadd>(runs, device); }
Throughput bench_g1_madd_f64(unsigned mask, int runs, int device) {
  switch (mask) {
    case 0x000: return bench_madd<MaddF64<0x000>>(runs, device);
    case 0x3ff: return bench_madd<MaddF64<0x3ff>>(runs, device);
    case 0x155: return bench_madd<MaddF64<0x155>>(runs, device);
    case 0x2aa: return bench_madd<MaddF64<0x2aa>>(runs, device);
    case 0x1a9: return bench_madd<MaddF64<0x1a9>>(runs, device);
  }
  throw Error(ErrorCode::kInvalidArgument, "bench: no FP64 madd kernel for this mask");
}

}  // namespace cuzk::cuda
