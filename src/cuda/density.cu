// Density gather on the device (gpu.hpp gather_by_density): per-word popcounts, an exclusive prefix
// sum (CUB), then one thread per 64-bit word writes the scalars of its set bits to their compacted
// positions. DensityRanks: the same a range of compacted positions at a time, from ranks summed once.
#include <algorithm>
#include <cub/device/device_scan.cuh>

#include "cuda/context.cuh"
#include "cuda/density_ranks.hpp"
#include "cuda/gpu.hpp"

namespace cuzk::cuda {
namespace {

__global__ void word_popcount_kernel(const uint64_t* bits, size_t words, uint32_t* counts) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words;
       i += (size_t)gridDim.x * blockDim.x)
    counts[i] = (uint32_t)__popcll(bits[i]);
}

__global__ void gather_kernel(const uint64_t* bits, size_t words, const uint64_t* offsets, const Fr* src,
                              Fr* out) {
  for (size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < words;
       w += (size_t)gridDim.x * blockDim.x) {
    uint64_t word = bits[w];
    uint64_t pos = offsets[w];
    while (word) {
      const int b = __ffsll((long long)word) - 1;
      out[pos++] = src[w * 64 + b];
      word &= word - 1;
    }
  }
}

/// Words [w_lo, w_hi): the set bits whose rank (ranks[w] + the set bits below them in w) lies in
/// [q0, q1) write src at their position to out[rank − q0].
__global__ void gather_range_kernel(const uint64_t* bits, const uint64_t* ranks, size_t w_lo, size_t w_hi,
                                    const Fr* src, uint64_t q0, uint64_t q1, Fr* out) {
  for (size_t w = w_lo + (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < w_hi;
       w += (size_t)gridDim.x * blockDim.x) {
    uint64_t word = bits[w];
    uint64_t r = ranks[w];
    while (word && r < q1) {
      const int b = __ffsll((long long)word) - 1;
      if (r >= q0) out[r - q0] = src[w * 64 + b];
      r++;
      word &= word - 1;
    }
  }
}

__global__ void widen_kernel(const uint32_t* in, uint64_t* out, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    out[i] = in[i];
}

unsigned grid(const Context& ctx, size_t n) {
  const size_t want = (n + 255) / 256;
  const size_t cap = (size_t)ctx.props().multiProcessorCount * 8;
  return (unsigned)(want < cap ? (want ? want : 1) : cap);
}

}  // namespace

void gather_by_density(const std::vector<Fr>& head, const DeviceFrVec& src, const uint64_t* bits,
                       size_t nbits, DeviceFrVec& out) {
  gather_by_density(head, src.data(), src.size(), bits, nbits, out);
}

void gather_by_density(const std::vector<Fr>& head, const Fr* src, size_t src_len, const uint64_t* bits,
                       size_t nbits, DeviceFrVec& out) {
  if (nbits > src_len)
    throw Error(ErrorCode::kInvalidArgument, "gather_by_density: the bitmap has more bits than the source");
  Context& ctx = Context::get(out.device());
  ctx.activate();
  const size_t words = (nbits + 63) / 64;
  size_t pop = 0;
  for (size_t w = 0; w < words; w++) pop += (size_t)__builtin_popcountll(bits[w]);
  if (out.size() != head.size() + pop)
    throw Error(ErrorCode::kInvalidArgument, "gather_by_density: the output has " +
                                                 std::to_string(out.size()) + " elements, expected " +
                                                 std::to_string(head.size() + pop));
  if (!head.empty())
    CUZK_CUDA_CHECK(cudaMemcpyAsync(out.data(), head.data(), head.size() * sizeof(Fr), cudaMemcpyHostToDevice,
                                    ctx.stream()));
  if (words == 0) return;
  PoolBuffer<uint64_t> d_bits(ctx, words), offsets(ctx, words);
  PoolBuffer<uint32_t> counts(ctx, words);
  d_bits.upload(bits);
  word_popcount_kernel<<<grid(ctx, words), 256, 0, ctx.stream()>>>(d_bits.get(), words, counts.get());
  CUZK_CUDA_CHECK_LAUNCH("word_popcount_kernel", ctx.stream());
  widen_kernel<<<grid(ctx, words), 256, 0, ctx.stream()>>>(counts.get(), offsets.get(), words);
  CUZK_CUDA_CHECK_LAUNCH("widen_kernel", ctx.stream());
  size_t tmp_bytes = 0;
  CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tmp_bytes, offsets.get(), offsets.get(),
                                                (int64_t)words, ctx.stream()));
  PoolBuffer<uint8_t> tmp(ctx, tmp_bytes);
  CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp.get(), tmp_bytes, offsets.get(), offsets.get(),
                                                (int64_t)words, ctx.stream()));
  gather_kernel<<<grid(ctx, words), 256, 0, ctx.stream()>>>(d_bits.get(), words, offsets.get(), src,
                                                            out.data() + head.size());
  CUZK_CUDA_CHECK_LAUNCH("gather_kernel", ctx.stream());
}

struct DensityRanks::Impl {
  Context& ctx;
  cudaStream_t stream = nullptr;
  size_t head = 0, words = 0;
  std::vector<uint64_t> ranks;  // words + 1 entries: the set bits before each word, then the total
  PoolBuffer<Fr> d_head;
  PoolBuffer<uint64_t> d_bits, d_ranks;
  Impl(Context& c, size_t h, size_t w)
      : ctx(c), head(h), words(w), d_head(c, h), d_bits(c, w), d_ranks(c, w) {}
  ~Impl() {
    if (stream) {
      cudaStreamSynchronize(stream);
      cudaStreamDestroy(stream);
    }
  }
};

DensityRanks::DensityRanks(const std::vector<Fr>& head, const uint64_t* bits, size_t nbits, int device,
                           bool high_priority) {
  Context& ctx = Context::get(device);
  ctx.activate();
  const size_t words = (nbits + 63) / 64;
  impl_ = std::make_unique<Impl>(ctx, head.size(), words);
  Impl& im = *impl_;
  int least = 0, greatest = 0;
  if (high_priority) CUZK_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  CUZK_CUDA_CHECK(
      cudaStreamCreateWithPriority(&im.stream, cudaStreamNonBlocking, high_priority ? greatest : 0));
  im.ranks = word_ranks({bits, words});
  // the pool's blocks were taken on the context stream's order: start after its queued work
  CUZK_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  if (!head.empty())
    CUZK_CUDA_CHECK(cudaMemcpyAsync(im.d_head.get(), head.data(), head.size() * sizeof(Fr),
                                    cudaMemcpyHostToDevice, im.stream));
  if (words) {
    CUZK_CUDA_CHECK(
        cudaMemcpyAsync(im.d_bits.get(), bits, words * sizeof(uint64_t), cudaMemcpyHostToDevice, im.stream));
    CUZK_CUDA_CHECK(cudaMemcpyAsync(im.d_ranks.get(), im.ranks.data(), words * sizeof(uint64_t),
                                    cudaMemcpyHostToDevice, im.stream));
  }
  CUZK_CUDA_CHECK(cudaStreamSynchronize(im.stream));
}

DensityRanks::~DensityRanks() = default;

size_t DensityRanks::size() const { return impl_->head + impl_->ranks.back(); }

size_t DensityRanks::device_bytes() const {
  return impl_->head * sizeof(Fr) + 2 * impl_->words * sizeof(uint64_t);
}

void DensityRanks::gather(const Fr* src, size_t p0, size_t p1, Fr* out) {
  Impl& im = *impl_;
  if (p0 > p1 || p1 > size())
    throw Error(ErrorCode::kInvalidArgument, "DensityRanks::gather: range [" + std::to_string(p0) + ", " +
                                                 std::to_string(p1) + ") outside the " +
                                                 std::to_string(size()) + " compacted elements");
  im.ctx.activate();
  if (p0 < im.head) {
    const size_t n = std::min(p1, im.head) - p0;
    CUZK_CUDA_CHECK(
        cudaMemcpyAsync(out, im.d_head.get() + p0, n * sizeof(Fr), cudaMemcpyDeviceToDevice, im.stream));
  }
  if (p1 > im.head) {
    const uint64_t q0 = std::max(p0, im.head) - im.head, q1 = p1 - im.head;
    const auto [w_lo, w_hi] = words_of_ranks(im.ranks, q0, q1);
    if (w_hi > w_lo) {
      gather_range_kernel<<<grid(im.ctx, w_hi - w_lo), 256, 0, im.stream>>>(
          im.d_bits.get(), im.d_ranks.get(), w_lo, w_hi, src, q0, q1, out + (std::max(p0, im.head) - p0));
      CUZK_CUDA_CHECK_LAUNCH("gather_range_kernel", im.stream);
    }
  }
  CUZK_CUDA_CHECK(cudaStreamSynchronize(im.stream));
}

}  // namespace cuzk::cuda
