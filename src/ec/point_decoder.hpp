// The interface through which read_params (formats/params.hpp) hands the point vectors of a .params
// file to a batch decoder other than its CPU threads (cuda::GpuPointDecoder).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/curves.hpp"
#include "ec/encoding.hpp"

namespace cuzk {

class ThreadPool;

/// Decodes the large point vectors of a .params file (h, l, a, b_g1, b_g2) elsewhere than on
/// read_params' CPU threads: cuda::GpuPointDecoder (src/cuda/point_decode.hpp) does it on a GPU. It lives in
/// the ec layer so that both formats (which calls it) and the CUDA layer (which implements it) depend on
/// it without depending on each other.
///
/// `in` holds `n` contiguous uncompressed zcash points (G1 96 bytes, G2 192 bytes each). A point is
/// valid when it passes exactly the checks read_params makes on a vector point: no flag bit set
/// (compression, infinity, sign: the point at infinity is refused in a vector), both coordinates
/// canonical (< p), on the curve (twist), and, when `check` is kYes, in the order-r subgroup. The decoder
/// writes the valid points to out[0..n) (affine, Montgomery form) and returns n, or returns the index of
/// the first invalid point (out's contents are then unspecified); read_params re-decodes that point on the
/// CPU to report it. `pool` may be used for host-side work (copies). Failures of the decoder itself
/// (e.g. Error(kCuda)) propagate out of read_params.
class PointDecoder {
 public:
  virtual ~PointDecoder() = default;
  virtual size_t decode_g1(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool& pool,
                           G1Affine* out) = 0;
  virtual size_t decode_g2(const uint8_t* in, size_t n, SubgroupCheck check, ThreadPool& pool,
                           G2Affine* out) = 0;
};

}  // namespace cuzk
