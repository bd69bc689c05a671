// GPU MSM on G1 (F = Fp): the one instantiation of the engine's G1 kernels, plus the field diagnostic.
#include "cuda/msm_impl.cuh"

namespace cuzk::cuda {

template class Msm<Fp>;

void debug::fp_mul(std::span<const Fp> a, std::span<const Fp> b, std::span<Fp> out, int device) {
  if (a.size() != b.size() || out.size() != a.size())
    throw Error(ErrorCode::kInvalidArgument, "debug::fp_mul: size mismatch");
  msm_detail::DeviceBackend be(device);
  msm_detail::DeviceBackend::Buffer da, db, dout;
  const size_t n = a.size();
  if (n == 0) return;
  Fp* pa = be.ensure<Fp>(da, n);
  Fp* pb = be.ensure<Fp>(db, n);
  Fp* po = be.ensure<Fp>(dout, n);
  be.to_device_bytes(pa, a.data(), a.size_bytes());
  be.to_device_bytes(pb, b.data(), b.size_bytes());
  be.launch(msm_detail::MulK<Fp>{pa, pb, po}, n);
  be.to_host(out.data(), po, n);
}

}  // namespace cuzk::cuda
