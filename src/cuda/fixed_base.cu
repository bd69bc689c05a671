// Fixed-base scalar multiplications k_i·G on the device for the single-party setup (gpu.hpp
// fixed_base_mul): a table of d·2^(8w)·G (32 windows × 256 digits, affine, built on the host) lets each
// thread compute k·G with at most 32 mixed additions in Jacobian coordinates, then one inversion for
// the affine result. Work goes in chunks so that device memory stays bounded.
#include <algorithm>
#include <vector>

#include "cuda/context.cuh"
#include "cuda/gpu.hpp"

namespace cuzk::cuda {
namespace {

template <class F>
__global__ void fixed_base_kernel(const Affine<F>* table, const Fr* k, Affine<F>* out, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t c[4];
    k[i].to_canonical(c);
    Jacobian<F> acc = Jacobian<F>::infinity();
    for (int w = 0; w < 32; w++) {
      const unsigned d = (unsigned)(c[w / 8] >> (8 * (w % 8))) & 0xff;
      if (d) acc = acc.add_affine(table[w * 256 + d]);
    }
    out[i] = acc.to_affine();
  }
}

/// d·2^(8w)·g for w < 32, d < 256, affine (entry d = 0 is ∞ and never read).
template <class F>
std::vector<Affine<F>> window_table(const Affine<F>& g) {
  std::vector<Jacobian<F>> all(32 * 256);
  Jacobian<F> base = Jacobian<F>::from_affine(g);
  for (int w = 0; w < 32; w++) {
    all[w * 256] = Jacobian<F>::infinity();
    for (int d = 1; d < 256; d++) all[w * 256 + d] = all[w * 256 + d - 1] + base;
    for (int i = 0; i < 8; i++) base = base.dbl();
  }
  return batch_to_affine(all);
}

}  // namespace

template <class F>
void fixed_base_mul(const Affine<F>& g, const Fr* k, size_t n, Affine<F>* out, int device) {
  if (n == 0) return;
  Context& ctx = Context::get(device);
  ctx.activate();
  const std::vector<Affine<F>> table = window_table(g);
  PoolBuffer<Affine<F>> d_table(ctx, table.size());
  d_table.upload(table.data());
  const size_t chunk = std::min(n, size_t{1} << 24);
  PoolBuffer<Fr> d_k(ctx, chunk);
  PoolBuffer<Affine<F>> d_out(ctx, chunk);
  for (size_t off = 0; off < n; off += chunk) {
    const size_t len = std::min(chunk, n - off);
    CUZK_CUDA_CHECK(
        cudaMemcpyAsync(d_k.get(), k + off, len * sizeof(Fr), cudaMemcpyHostToDevice, ctx.stream()));
    fixed_base_kernel<F>
        <<<grid_for(ctx, len, 128), 128, 0, ctx.stream()>>>(d_table.get(), d_k.get(), d_out.get(), len);
    CUZK_CUDA_CHECK_LAUNCH("fixed_base_kernel", ctx.stream());
    CUZK_CUDA_CHECK(cudaMemcpyAsync(out + off, d_out.get(), len * sizeof(Affine<F>), cudaMemcpyDeviceToHost,
                                    ctx.stream()));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }
}

template void fixed_base_mul<Fp>(const Affine<Fp>&, const Fr*, size_t, Affine<Fp>*, int);
template void fixed_base_mul<Fp2>(const Affine<Fp2>&, const Fr*, size_t, Affine<Fp2>*, int);

}  // namespace cuzk::cuda
