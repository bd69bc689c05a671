// GPU NTT over Fr: kernels around src/cuda/ntt_pass.cuh, table materialization and caching, the
// pointwise H kernels. See gpu.hpp for the API and ntt_pass.cuh for the algorithm.
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "cuda/context.cuh"
#include "cuda/gpu.hpp"
#include "cuda/ntt_pass.cuh"

namespace cuzk::cuda {
namespace nd = ntt_detail;
namespace {

template <int K, int J>
__device__ __forceinline__ void pass_rounds(nd::PassThread<K>& th, const nd::PassParams& p, uint32_t* smem) {
  if constexpr (J < nd::PassThread<K>::kRounds) {
    th.template smem_write<J - 1>(smem);
    __syncthreads();
    th.template smem_read<J>(smem);
    __syncthreads();
    th.template compute<J>(p);
    pass_rounds<K, J + 1>(th, p, smem);
  }
}

/// One pass (see ntt_pass.cuh): blocks of C sub-problems × R/8 threads, 8 elements per thread. Two
/// 256-thread blocks per SM (≤ 128 registers, a few spills): measured on an H200 faster than one block
/// per SM without spills (2^27: 86 against 95 ms).
template <int K>
__global__ void __launch_bounds__(nd::kPassThreads, 2) ntt_pass_kernel(const nd::PassParams p) {
  extern __shared__ uint32_t smem[];
  nd::PassThread<K> th;
  th.prefetch(p, blockIdx.x, threadIdx.x);
  th.init(p, blockIdx.x, threadIdx.x);
  th.load(p);
  th.template compute<0>(p);
  pass_rounds<K, 1>(th, p, smem);
  __syncthreads();  // a single-block pass may be in place: every load precedes every store
  th.store(p);
}

/// Sizes 2 and 4: one thread, the definition. w = ω or ω⁻¹; forward: x_k·s^k first; inverse: outputs
/// times f·s^k (f = n⁻¹, s = shift⁻¹ or 1).
__global__ void ntt_tiny_kernel(Fr* x, int n, Fr w, int inverse, Fr s, Fr f) {
  Fr in[4], out[4];
  Fr sk = Fr::one();
  for (int k = 0; k < n; k++) {
    in[k] = x[k];
    if (!inverse) {
      in[k] = in[k] * sk;
      sk = sk * s;
    }
  }
  Fr wi = Fr::one();
  for (int i = 0; i < n; i++) {
    Fr acc = Fr::zero(), wik = Fr::one();
    for (int k = 0; k < n; k++) {
      acc += in[k] * wik;
      wik = wik * wi;
    }
    out[i] = acc;
    wi = wi * w;
  }
  Fr g = f;
  for (int i = 0; i < n; i++) {
    x[i] = inverse ? out[i] * g : out[i];
    g = g * s;
  }
}

/// out[i] = factor·base^i.
__global__ void powers_kernel(Fr* out, size_t count, Fr base, Fr factor) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t e = i;
    out[i] = factor * base.pow(&e, 1);
  }
}

__global__ void mul_sub_kernel(const Fr* a, const Fr* b, const Fr* c, Fr* out, size_t n, int scaled, Fr s) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    Fr v = c ? a[i] * b[i] - c[i] : a[i] * b[i];
    if (scaled) v = v * s;
    out[i] = v;
  }
}
__global__ void scale_kernel(Fr* x, size_t n, Fr s) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    x[i] = x[i] * s;
}

/// Run-time tuning switches (environment, read once), kept for experiments: CUZK_NTT_THREADS = 128 or
/// 256 threads per pass block (default 256), CUZK_NTT_PREFETCH = 1 to prefetch a later block's inputs
/// into L2 (default 0). Both lost on an H200 (forward 2^24 / 2^27: 7.4 / 76 ms with the defaults; 10.3
/// / 92 ms with prefetch; 8.5 / 83 ms with 128 threads).
int env_int(const char* name, int def) {
  const char* e = std::getenv(name);
  return e && *e ? std::atoi(e) : def;
}
int pass_threads() {
  static const int t = env_int("CUZK_NTT_THREADS", nd::kPassThreads) <= 128 ? 128 : nd::kPassThreads;
  return t;
}
bool pass_prefetch() {
  static const bool b = env_int("CUZK_NTT_PREFETCH", 0) != 0;
  return b;
}

using PassKernel = void (*)(nd::PassParams);
PassKernel pass_kernel(int k) {
  switch (k) {
    case 3: return ntt_pass_kernel<3>;
    case 4: return ntt_pass_kernel<4>;
    case 5: return ntt_pass_kernel<5>;
    case 6: return ntt_pass_kernel<6>;
    case 7: return ntt_pass_kernel<7>;
    case 8: return ntt_pass_kernel<8>;
    case 9: return ntt_pass_kernel<9>;
    case 10: return ntt_pass_kernel<10>;
  }
  throw Error(ErrorCode::kInternal, "ntt: no pass kernel for radix 2^" + std::to_string(k));
}

void check_size(const DeviceFrVec& x, size_t n, const char* what) {
  if (x.size() != n)
    throw Error(ErrorCode::kInvalidArgument, std::string(what) + ": vector has " + std::to_string(x.size()) +
                                                 " elements, expected " + std::to_string(n));
}

}  // namespace

struct GpuNtt::Impl {
  Context* ctx = nullptr;
  int log_n = 0;
  RootConvention conv{};
  std::mutex mu;
  std::map<std::array<uint64_t, 9>, PoolBuffer<Fr>> tables;  // (base, factor, count) → factor·base^i
  size_t bytes = 0;

  const Fr* table(const nd::PowSpec& s) {
    std::array<uint64_t, 9> key{};
    std::memcpy(key.data(), s.base.l, 32);
    std::memcpy(key.data() + 4, s.factor.l, 32);
    key[8] = s.count;
    auto it = tables.find(key);
    if (it != tables.end()) return it->second.get();
    PoolBuffer<Fr> buf(*ctx, s.count);
    powers_kernel<<<grid_for(*ctx, s.count, 256), 256, 0, ctx->stream()>>>(buf.get(), s.count, s.base, s.factor);
    CUZK_CUDA_CHECK_LAUNCH("powers_kernel", ctx->stream());
    bytes += s.count * sizeof(Fr);
    const Fr* p = buf.get();
    tables.emplace(key, std::move(buf));
    return p;
  }
  nd::Table make(const nd::TableSpec& t) {
    nd::Table r;
    r.kind = t.kind;
    r.log_lo = t.log_lo;
    if (t.kind == nd::kTabNone) return r;
    r.lo = table(t.lo);
    if (t.kind == nd::kTabTwoLevel) r.hi = table(t.hi);
    return r;
  }
};

GpuNtt::GpuNtt(int log_n, RootConvention conv, int device) : log_n_(log_n), impl_(new Impl) {
  if (log_n < 1 || log_n > 28)
    throw Error(ErrorCode::kInvalidArgument, "GpuNtt: log_n must be in 1..28, got " + std::to_string(log_n));
  impl_->ctx = &Context::get(device);
  impl_->log_n = log_n;
  impl_->conv = conv;
}
GpuNtt::~GpuNtt() = default;

size_t GpuNtt::table_bytes() const { return impl_->bytes; }

void GpuNtt::forward(DeviceFrVec& x) { run(x, false, false, Fr::one()); }
void GpuNtt::inverse(DeviceFrVec& x) { run(x, true, false, Fr::one()); }
void GpuNtt::coset_forward(DeviceFrVec& x, const Fr& shift) { run(x, false, true, shift); }
void GpuNtt::coset_inverse(DeviceFrVec& x, const Fr& shift) {
  if (shift.is_zero()) throw Error(ErrorCode::kInvalidArgument, "GpuNtt::coset_inverse: shift is zero");
  run(x, true, true, shift);
}

void GpuNtt::run(DeviceFrVec& x, bool inverse, bool coset, const Fr& shift) {
  const size_t n = size();
  check_size(x, n, "GpuNtt");
  if (x.device() != impl_->ctx->device())
    throw Error(ErrorCode::kInvalidArgument, "GpuNtt: vector lives on another device");
  std::lock_guard<std::mutex> lk(impl_->mu);
  Context& ctx = *impl_->ctx;
  ctx.activate();
  const int L = log_n_;
  if (L < nd::kMinLogRadix) {
    Fr w = root_of_unity(L, impl_->conv);
    if (inverse) w = w.inverse();
    Fr s = coset ? (inverse ? shift.inverse() : shift) : Fr::one();
    Fr f = inverse ? Fr::from_u64(n).inverse() : Fr::one();
    ntt_tiny_kernel<<<1, 1, 0, ctx.stream()>>>(x.data(), (int)n, w, inverse ? 1 : 0, s, f);
    CUZK_CUDA_CHECK_LAUNCH("ntt_tiny_kernel", ctx.stream());
    return;
  }
  const nd::TransformSpec ts = nd::make_transform(L, impl_->conv, inverse, coset, shift, pass_threads());
  const int P = ts.plan.num_passes;
  PoolBuffer<Fr> scratch;
  if (P > 1) scratch = PoolBuffer<Fr>(ctx, n);
  for (int q = 0; q < P; q++) {
    const nd::PassGeom& g = ts.plan.pass[q];
    nd::PassParams p;
    p.log_n = L;
    p.log_stride = g.log_stride;
    p.log_c = g.log_c;
    p.last = q == P - 1;
    p.num_passes = P;
    p.log_r1 = ts.plan.pass[0].k;
    p.log_r2 = P > 1 ? ts.plan.pass[1].k : 0;
    p.in = P == 1 || q == 0 ? x.data() : scratch.get();
    p.out = P == 1 || q == P - 1 ? x.data() : scratch.get();
    p.tw_inner = impl_->make(ts.inner[q]).lo;
    if (q < P - 1) p.post = impl_->make(ts.post[q]);
    if (q == 0) p.in_factor = impl_->make(ts.in_factor);
    if (q == P - 1) {
      p.out_factor = impl_->make(ts.out_factor);
      p.scale_out = ts.scale_out;
      p.scale = ts.scale;
    }
    PassKernel kernel = pass_kernel(g.k);
    const unsigned threads = (unsigned)((1u << (g.k - 3)) << g.log_c);
    const size_t smem = nd::pass_smem_words(g.k, g.log_c) * sizeof(uint32_t);
    CUZK_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    const size_t blocks = nd::pass_blocks(L, g.k, g.log_c);
    p.num_blocks = (uint32_t)blocks;
    if (pass_prefetch()) {
      int per_sm = 0;
      CUZK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)threads, smem));
      p.prefetch_ahead = (uint32_t)(per_sm * ctx.props().multiProcessorCount);
    }
    kernel<<<(unsigned)blocks, threads, smem, ctx.stream()>>>(p);
    CUZK_CUDA_CHECK_LAUNCH("ntt_pass_kernel", ctx.stream());
  }
  // scratch returns to the pool; later users are ordered after these passes on the same stream
}

void fr_mul_sub(const DeviceFrVec& a, const DeviceFrVec& b, const DeviceFrVec& c, DeviceFrVec& out) {
  const size_t n = out.size();
  check_size(a, n, "fr_mul_sub(a)");
  check_size(b, n, "fr_mul_sub(b)");
  check_size(c, n, "fr_mul_sub(c)");
  Context& ctx = Context::get(out.device());
  mul_sub_kernel<<<grid_for(ctx, n, 256), 256, 0, ctx.stream()>>>(a.data(), b.data(), c.data(), out.data(), n, 0,
                                                                 Fr::one());
  CUZK_CUDA_CHECK_LAUNCH("mul_sub_kernel", ctx.stream());
}
void fr_mul_sub_scale(const DeviceFrVec& a, const DeviceFrVec& b, const DeviceFrVec& c, const Fr& s,
                      DeviceFrVec& out) {
  const size_t n = out.size();
  check_size(a, n, "fr_mul_sub_scale(a)");
  check_size(b, n, "fr_mul_sub_scale(b)");
  check_size(c, n, "fr_mul_sub_scale(c)");
  Context& ctx = Context::get(out.device());
  mul_sub_kernel<<<grid_for(ctx, n, 256), 256, 0, ctx.stream()>>>(a.data(), b.data(), c.data(), out.data(), n, 1, s);
  CUZK_CUDA_CHECK_LAUNCH("mul_sub_kernel", ctx.stream());
}
void fr_mul(const DeviceFrVec& a, const DeviceFrVec& b, DeviceFrVec& out) {
  const size_t n = out.size();
  check_size(a, n, "fr_mul(a)");
  check_size(b, n, "fr_mul(b)");
  Context& ctx = Context::get(out.device());
  mul_sub_kernel<<<grid_for(ctx, n, 256), 256, 0, ctx.stream()>>>(a.data(), b.data(), nullptr, out.data(), n, 0,
                                                                 Fr::one());
  CUZK_CUDA_CHECK_LAUNCH("mul_sub_kernel", ctx.stream());
}
void fr_scale(DeviceFrVec& x, const Fr& s) {
  Context& ctx = Context::get(x.device());
  scale_kernel<<<grid_for(ctx, x.size(), 256), 256, 0, ctx.stream()>>>(x.data(), x.size(), s);
  CUZK_CUDA_CHECK_LAUNCH("scale_kernel", ctx.stream());
}

}  // namespace cuzk::cuda
