// Density gather on the device (gpu.hpp gather_by_density): per-word popcounts, an exclusive prefix
// sum (CUB), then one thread per 64-bit word writes the scalars of its set bits to their compacted
// positions.
#include <cub/device/device_scan.cuh>

#include "cuda/context.cuh"
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

}  // namespace cuzk::cuda
