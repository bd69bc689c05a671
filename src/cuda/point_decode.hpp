// GPU decoding of the point vectors of bellperson .params files (read_params' PointDecoder). Plain C++:
// includable from g++ code, no CUDA header. Link cuzk_cuda. Kept apart from gpu.hpp, which every kernel
// file includes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ec/curves.hpp"
#include "ec/encoding.hpp"
#include "ec/point_decoder.hpp"

namespace cuzk::cuda {

/// read_params' PointDecoder (ec/point_decoder.hpp) on one GPU: decodes vectors of uncompressed zcash
/// points (G1 96 bytes, G2 192 bytes; big-endian, G2 coordinates as (c1, c0)) into affine Montgomery
/// points, the layout the GPU backend uploads. Each device thread decodes one point: the three flag bits
/// must be clear (compressed, infinity, sign: the point at infinity is refused in a vector), both
/// coordinates canonical (< p), the point on the curve (twist), and with SubgroupCheck::kYes in the
/// order-r subgroup by the endomorphism tests of ec/subgroup.hpp (the same code as the CPU's, with
/// β and ψ's coefficients computed on the host). These are exactly the checks of g1_from_zcash /
/// g2_from_zcash plus read_params' refusal of ∞, so a point is valid here iff the CPU accepts it.
///
/// The host side works in chunks of `chunk_bytes` of input through two pinned staging pairs (input,
/// output) on two streams: while the GPU uploads, decodes and downloads chunk k, the pool's threads copy
/// chunk k + 1 from the caller's bytes (e.g. a file mapping) into pinned memory and chunk k − 1 from
/// pinned memory into `out`. The staging (4 × chunk_bytes pinned, the same on the device) is allocated
/// by the constructor and held until destruction. Returns n when every point is valid, else the index of
/// the first invalid one (out is then partly written). Throws Error(kCuda) for a CUDA failure (no
/// device, out of memory, launch failure), after waiting for the work already queued. Not thread-safe:
/// one decode at a time.
class GpuPointDecoder final : public PointDecoder {
 public:
  explicit GpuPointDecoder(int device = 0, size_t chunk_bytes = size_t{64} << 20);
  ~GpuPointDecoder() override;
  GpuPointDecoder(const GpuPointDecoder&) = delete;
  GpuPointDecoder& operator=(const GpuPointDecoder&) = delete;

  size_t decode_g1(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool& pool,
                   G1Affine* out) override;
  size_t decode_g2(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool& pool,
                   G2Affine* out) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  template <class F>
  size_t decode(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool& pool, Affine<F>* out);
};
}  // namespace cuzk::cuda
