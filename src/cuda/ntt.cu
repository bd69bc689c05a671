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

/// One pass (ntt_pass.cuh, "the pass kernel"): one kernel for every radix, up to 256 threads and 64 KiB of
/// shared memory per block. Every global load (first round) precedes the first barrier and every store
/// (last round) follows the last, so a pass may run in place. Three blocks per SM (80 registers, 112 bytes
/// spilled; with the shared-memory carveout at its maximum) against two (107 registers, no spill): 2^24
/// forward 4.79 → 4.67 ms, 2^27 43.9 → 42.4 ms on an H200 (docs/PERFORMANCE.md §19). kPositional: the
/// post-pass table is positional (coset transforms; nd::r4_store).
template <bool kPositional>
__global__ void __launch_bounds__(nd::kPassThreads, 3) ntt_pass_kernel(const nd::PassParams p) {
  extern __shared__ ulonglong2 pass_smem[];
  uint64_t* sm = reinterpret_cast<uint64_t*>(pass_smem);
  const uint32_t units = 1u << (p.log_r + p.log_c - 2);
  const nd::R4Rounds rounds = nd::r4_rounds(p.log_r);
#pragma unroll 1
  for (uint32_t u = threadIdx.x; u < units; u += blockDim.x) nd::r4_first(p, blockIdx.x, u, sm);
#pragma unroll 1
  for (int r = 0; r < rounds.n; r++) {
    __syncthreads();
    const int lh = rounds.log_h[r];
    if (lh > 0) {
#pragma unroll 1
      for (uint32_t u = threadIdx.x; u < units; u += blockDim.x) nd::r4_middle(p, lh, u, sm);
    } else {
#pragma unroll 1
      for (uint32_t v = threadIdx.x; v < 2 * units; v += blockDim.x) nd::r2_middle(p, -lh, v, sm);
    }
  }
  __syncthreads();
#pragma unroll 1
  for (uint32_t u = threadIdx.x; u < units; u += blockDim.x) nd::r4_last<kPositional>(p, blockIdx.x, u, sm);
}

/// Sizes 2, 4 and 8: one thread, the definition. w = ω or ω⁻¹; forward: x_k·s^k first; inverse: outputs
/// times f·s^k (f = n⁻¹, s = shift⁻¹ or 1).
__global__ void ntt_tiny_kernel(Fr* x, int n, Fr w, int inverse, Fr s, Fr f) {
  Fr in[8], out[8];
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

/// One grid of a positional post-pass table (ntt_pass.cuh PosGrid): out[l + f·2^log_l] = W^(l·f)·A^l·B^f.
__global__ void positional_kernel(Fr* out, size_t count, const nd::PosGrid g) {
  const size_t mask = (size_t{1} << g.log_l) - 1;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t l = i & mask, f = i >> g.log_l, lf = l * f;
    out[i] = g.w.pow(&lf, 1) * g.a.pow(&l, 1) * g.b.pow(&f, 1);
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
    Fr v = !b ? a[i] - c[i] : c ? a[i] * b[i] - c[i] : a[i] * b[i];
    if (scaled) v = v * s;
    out[i] = v;
  }
}
__global__ void scale_kernel(Fr* x, size_t n, Fr s) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    x[i] = x[i] * s;
}

/// Run-time tuning switch (environment, read once), kept for experiments: CUZK_NTT_LOG_BLOCK = 10 halves
/// the elements a block holds (default 11: 2048 elements, 64 KiB of shared memory, two or three blocks per
/// SM).
int log_block() {
  const char* e = std::getenv("CUZK_NTT_LOG_BLOCK");
  static const int v = e && *e && std::atoi(e) == 10 ? 10 : nd::kLogBlockElems;
  return v;
}
/// Run-time tuning switch (environment, read once), kept for experiments: CUZK_NTT_EXACT_LOG = 10..28 sets
/// the largest exponent range kept as one exact table (default nd::kMaxExactLog; at 2^27, 27 made a
/// plain transform 3.6 % faster for 4 GiB per table, docs/PERFORMANCE.md §17).
int exact_log() {
  const char* e = std::getenv("CUZK_NTT_EXACT_LOG");
  static const int v = e && *e && std::atoi(e) >= 10 && std::atoi(e) <= 28 ? std::atoi(e) : nd::kMaxExactLog;
  return v;
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
  std::map<std::array<uint64_t, 13>, PoolBuffer<Fr>> positional_tables;  // (W, A, B, log_l, log_r)
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
  /// One grid of a positional table, cached like the power tables.
  const Fr* positional(const nd::PosGrid& g) {
    std::array<uint64_t, 13> key{};
    std::memcpy(key.data(), g.w.l, 32);
    std::memcpy(key.data() + 4, g.a.l, 32);
    std::memcpy(key.data() + 8, g.b.l, 32);
    key[12] = (uint64_t)g.log_l << 32 | (uint64_t)g.log_r;
    auto it = positional_tables.find(key);
    if (it != positional_tables.end()) return it->second.get();
    const size_t count = g.count();
    PoolBuffer<Fr> buf(*ctx, count);
    positional_kernel<<<grid_for(*ctx, count, 256), 256, 0, ctx->stream()>>>(buf.get(), count, g);
    CUZK_CUDA_CHECK_LAUNCH("positional_kernel", ctx->stream());
    bytes += count * sizeof(Fr);
    const Fr* p = buf.get();
    positional_tables.emplace(key, std::move(buf));
    return p;
  }
  nd::Table make(const nd::TableSpec& t) {
    nd::Table r;
    r.kind = t.kind;
    r.log_lo = t.log_lo;
    r.by_position = t.by_position;
    if (t.kind == nd::kTabNone) return r;
    if (t.by_position) {
      r.lo = positional(nd::pos_grid(t, 0));
      if (t.kind == nd::kTabTwoLevel) r.hi = positional(nd::pos_grid(t, 1));
      return r;
    }
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

size_t GpuNtt::max_table_bytes(int log_n) {
  // the tables of the four transforms, counted without sharing (one shift; the convention does not
  // change the sizes); sizes below 2^kMinLogRadix use none
  if (log_n < nd::kMinLogRadix) return 0;
  size_t entries = 0;
  for (int mode = 0; mode < 4; mode++)
    entries += nd::table_entries(nd::make_transform(log_n, RootConvention::kGenerator7, mode & 1, mode & 2,
                                                    Fr::from_u64(7), log_block(), exact_log()));
  return entries * sizeof(Fr);
}

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
  const nd::TransformSpec ts = nd::make_transform(L, impl_->conv, inverse, coset, shift, log_block(), exact_log());
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
    p.log_r = g.k;
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
    const size_t smem = nd::r4_smem_bytes(g.k, g.log_c);
    auto* kernel = p.post.by_position ? ntt_pass_kernel<true> : ntt_pass_kernel<false>;
    CUZK_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CUZK_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         cudaSharedmemCarveoutMaxShared));
    kernel<<<(unsigned)nd::pass_blocks(L, g.k, g.log_c), nd::r4_threads(g.k, g.log_c), smem, ctx.stream()>>>(p);
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
void fr_mul_sub_scale_n(const Fr* a, const Fr* b, const Fr* c, const Fr& s, Fr* out, size_t n, int device) {
  if (n == 0) return;
  Context& ctx = Context::get(device);
  mul_sub_kernel<<<grid_for(ctx, n, 256), 256, 0, ctx.stream()>>>(a, b, c, out, n, 1, s);
  CUZK_CUDA_CHECK_LAUNCH("mul_sub_kernel", ctx.stream());
}
void fr_sub_scale(const DeviceFrVec& a, const DeviceFrVec& c, const Fr& s, DeviceFrVec& out) {
  const size_t n = out.size();
  check_size(a, n, "fr_sub_scale(a)");
  check_size(c, n, "fr_sub_scale(c)");
  Context& ctx = Context::get(out.device());
  mul_sub_kernel<<<grid_for(ctx, n, 256), 256, 0, ctx.stream()>>>(a.data(), nullptr, c.data(), out.data(), n, 1, s);
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
