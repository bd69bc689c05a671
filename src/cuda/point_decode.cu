// Decoding and checking of uncompressed zcash points on the device, for .params loading (point_decode.hpp
// GpuPointDecoder). One thread per point: flag bits, big-endian bytes to canonical limbs, the range check
// and the Montgomery conversion (Mont::from_canonical), y² = x³ + b, and the subgroup test shared with the
// CPU (ec/subgroup.hpp). A failing thread lowers a per-chunk "first invalid index" with atomicMin.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "cuda/context.cuh"
#include "cuda/gpu.hpp"
#include "cuda/point_decode.hpp"
#include "ec/subgroup.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cuda {
namespace {

constexpr unsigned kThreads = 128;
/// Bytes per piece of a host copy split over the pool's threads.
constexpr size_t kCopyPiece = size_t{1} << 20;
/// "No invalid point in this chunk".
constexpr unsigned long long kNone = ~0ULL;

static_assert(sizeof(Affine<Fp>) == kG1Uncompressed && sizeof(Affine<Fp2>) == kG2Uncompressed,
              "the decoded points take as many bytes as the encoded ones");

/// Curve and endomorphism constants, computed on the host.
struct Consts {
  Fp b1;   // 4
  Fp2 b2;  // 4(1 + u)
  Fp beta;
  Fp2 psi_cx, psi_cy;
};

__device__ __forceinline__ uint64_t bswap64(uint64_t v) {
  const uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
  return (uint64_t)__byte_perm(lo, 0, 0x0123) << 32 | __byte_perm(hi, 0, 0x0123);
}

/// One big-endian 48-byte coordinate (six 64-bit words as they lie in memory) into Montgomery form;
/// false when it is not below p.
__device__ __forceinline__ bool read_fe(const uint64_t* w, Fp& out) {
  uint64_t l[Fp::N];
  for (int j = 0; j < Fp::N; j++) l[j] = bswap64(w[Fp::N - 1 - j]);
  return Fp::from_canonical(l, out);
}
/// Fp2 written (c1, c0).
__device__ __forceinline__ bool read_fe(const uint64_t* w, Fp2& out) {
  return read_fe(w, out.c1) && read_fe(w + Fp::N, out.c0);
}

template <class F>
__global__ void __launch_bounds__(kThreads) decode_kernel(const uint64_t* in, size_t n, Affine<F>* out,
                                                          unsigned long long* bad, bool check, Consts c) {
  constexpr size_t kWords = sizeof(Affine<F>) / 8;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t* w = in + i * kWords;
    Affine<F> p;
    // The flags are the top three bits of the first byte, the low byte of the first little-endian word.
    bool ok = (w[0] & 0xe0) == 0 && read_fe(w, p.x) && read_fe(w + kWords / 2, p.y);
    if constexpr (std::is_same_v<F, Fp>) {
      // (0, 0) fails here too (b ≠ 0), as the CPU refuses it.
      ok = ok && p.y.sqr() == p.x.sqr() * p.x + c.b1;
      if (ok && check) ok = in_subgroup_g1(p, c.beta);
    } else {
      ok = ok && p.y.sqr() == p.x.sqr() * p.x + c.b2;
      if (ok && check) ok = in_subgroup_g2(p, c.psi_cx, c.psi_cy);
    }
    if (ok)
      out[i] = p;
    else
      atomicMin(bad, (unsigned long long)i);
  }
}

/// dst ← src (bytes), split in pieces over the pool's threads.
void parallel_copy(ThreadPool& pool, void* dst, const void* src, size_t bytes) {
  pool.parallel_for((bytes + kCopyPiece - 1) / kCopyPiece,
                    [&](size_t lo, size_t hi) {
                      for (size_t p = lo; p < hi; p++) {
                        const size_t at = p * kCopyPiece;
                        std::memcpy((char*)dst + at, (const char*)src + at, std::min(kCopyPiece, bytes - at));
                      }
                    },
                    1);
}

/// The context of `device`, made current for the calling thread.
Context& activated(int device) {
  Context& c = Context::get(device);
  c.activate();
  return c;
}

/// A non-blocking stream, destroyed with its owner.
struct OwnedStream {
  cudaStream_t s = nullptr;
  OwnedStream() { CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~OwnedStream() { cudaStreamDestroy(s); }
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
};

}  // namespace

struct GpuPointDecoder::Impl {
  Context& ctx;
  size_t chunk_bytes;
  OwnedStream stream[2];  // made with the context's device current (activated in the constructor below)
  PinnedBuffer in[2], out[2], bad;  // bad: one unsigned long long per slot
  PoolBuffer<uint64_t> d_in[2], d_out[2];
  PoolBuffer<unsigned long long> d_bad;
  Consts consts;

  Impl(int device, size_t chunk) : ctx(activated(device)), chunk_bytes(chunk) {
    for (int s = 0; s < 2; s++) {
      in[s] = PinnedBuffer(chunk);
      out[s] = PinnedBuffer(chunk);
      d_in[s] = PoolBuffer<uint64_t>(ctx, chunk / 8);
      d_out[s] = PoolBuffer<uint64_t>(ctx, chunk / 8);
    }
    bad = PinnedBuffer(2 * sizeof(unsigned long long));
    d_bad = PoolBuffer<unsigned long long>(ctx, 2);
    const SubgroupConstants& sc = subgroup_constants();
    consts = {Curve<Fp>::b(), Curve<Fp2>::b(), sc.beta, sc.psi_cx, sc.psi_cy};
  }
  ~Impl() { drain(); }
  /// Waits for everything queued on the two streams, errors ignored (cleanup and early exits: the
  /// buffers must be idle before they are reused or freed).
  void drain() noexcept {
    cudaSetDevice(ctx.device());
    for (const OwnedStream& s : stream) cudaStreamSynchronize(s.s);
  }
};

GpuPointDecoder::GpuPointDecoder(int device, size_t chunk_bytes) {
  // Whole points of either group per chunk (lcm of 96 and 192), at least one.
  chunk_bytes = std::max(chunk_bytes / kG2Uncompressed, size_t{1}) * kG2Uncompressed;
  impl_ = std::make_unique<Impl>(device, chunk_bytes);
}

GpuPointDecoder::~GpuPointDecoder() = default;

template <class F>
size_t GpuPointDecoder::decode(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool& pool,
                               Affine<F>* out) {
  constexpr size_t kBytes = sizeof(Affine<F>);
  Impl& m = *impl_;
  m.ctx.activate();
  const size_t per = m.chunk_bytes / kBytes, chunks = (n + per - 1) / per;
  auto* bad = static_cast<unsigned long long*>(m.bad.data());
  // Every exit (the first invalid chunk, an exception) leaves the streams idle.
  struct Drain {
    Impl& m;
    ~Drain() { m.drain(); }
  } drain{m};

  // Iteration k stages and queues chunk k on stream k % 2, then waits for chunk k − 1 and copies it out:
  // the GPU works on chunk k − 1 while chunk k is staged, and on chunk k while k − 1 is copied out. A
  // slot's buffers were last used by chunk k − 2, finished and copied out in iteration k − 1.
  for (size_t k = 0; k <= chunks; k++) {
    if (k < chunks) {
      const int s = (int)(k & 1);
      const size_t first = k * per, len = std::min(per, n - first);
      parallel_copy(pool, m.in[s].data(), in + first * kBytes, len * kBytes);
      const cudaStream_t st = m.stream[s].s;
      CUZK_CUDA_CHECK(cudaMemsetAsync(m.d_bad.get() + s, 0xff, sizeof(unsigned long long), st));
      CUZK_CUDA_CHECK(
          cudaMemcpyAsync(m.d_in[s].get(), m.in[s].data(), len * kBytes, cudaMemcpyHostToDevice, st));
      const unsigned blocks = (unsigned)((len + kThreads - 1) / kThreads);
      decode_kernel<F>
          <<<blocks, kThreads, 0, st>>>(m.d_in[s].get(), len, reinterpret_cast<Affine<F>*>(m.d_out[s].get()),
                                        m.d_bad.get() + s, check == SubgroupCheck::kYes, m.consts);
      CUZK_CUDA_CHECK_LAUNCH("decode_kernel", st);
      CUZK_CUDA_CHECK(
          cudaMemcpyAsync(m.out[s].data(), m.d_out[s].get(), len * kBytes, cudaMemcpyDeviceToHost, st));
      CUZK_CUDA_CHECK(cudaMemcpyAsync(bad + s, m.d_bad.get() + s, sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, st));
    }
    if (k > 0) {
      const int s = (int)((k - 1) & 1);
      const size_t first = (k - 1) * per, len = std::min(per, n - first);
      CUZK_CUDA_CHECK(cudaStreamSynchronize(m.stream[s].s));
      if (bad[s] != kNone) return first + (size_t)bad[s];
      parallel_copy(pool, out + first, m.out[s].data(), len * kBytes);
    }
  }
  return n;
}

size_t GpuPointDecoder::decode_g1(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool& pool,
                                  G1Affine* out) {
  return decode<Fp>(in, n, check, pool, out);
}

size_t GpuPointDecoder::decode_g2(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool& pool,
                                  G2Affine* out) {
  return decode<Fp2>(in, n, check, pool, out);
}

}  // namespace cuzk::cuda
