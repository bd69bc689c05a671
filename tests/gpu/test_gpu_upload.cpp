// cuda::UploadStaging (src/cuda/context.cu), the path every witness and host a, b, c take to the device
// under a memory budget: values copied chunk by chunk into the page-locked staging buffers (2, 3 or 4) and
// DMA'd from them land the same bytes at the same offset, nothing written outside the range, for sizes around
// the chunk size, for both completion modes (the context stream ordered after the copy; the host waiting
// for it), and from pageable, registered (HostRegistration) and cudaMallocHost memory alike.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cuda/gpu.hpp"
#include "gpu_support.hpp"
#include "util/error.hpp"
#include "util/huge_alloc.hpp"

namespace cuzk::test {
namespace {

/// host[0..n) uploaded into a zeroed device vector of n + 2·pad values at offset pad; returns its values
/// and the bytes that went through the staging copy.
std::vector<Fr> upload_via(cuda::UploadStaging& staging, const Fr* host, size_t n, size_t pad, bool host_wait,
                           size_t& staged) {
  cuda::DeviceFrVec d(n + 2 * pad);
  d.zero_from(0);
  // The copy stream is not ordered after the context stream's zeroing (UploadStaging's contract: the
  // destination must not be written by queued work), so that finishes first.
  cuda::synchronize(0);
  staged = 0;
  staging.upload_at(
      d, pad, host, n,
      [&](void* dst, const void* src, size_t bytes) {
        std::memcpy(dst, src, bytes);
        staged += bytes;
      },
      host_wait);
  return d.download();
}

void expect_placed(const std::vector<Fr>& got, const std::vector<Fr>& want, size_t pad) {
  const size_t n = want.size();
  ASSERT_EQ(got.size(), n + 2 * pad);
  for (size_t i = 0; i < pad; i++) {
    EXPECT_TRUE(got[i] == Fr::zero()) << "value " << i << " before the range was written";
    EXPECT_TRUE(got[pad + n + i] == Fr::zero()) << "value " << pad + n + i << " after the range was written";
  }
  EXPECT_EQ(std::memcmp(got.data() + pad, want.data(), n * sizeof(Fr)), 0) << "the range differs";
}

TEST(GpuUpload, StagedUploadsLandTheSameBytesFromEverySource) {
  CUZK_REQUIRE_GPU();
  for (int buffers : {2, 3, 4}) {
    SCOPED_TRACE(std::to_string(buffers) + " staging buffers");
    // 128 values a chunk: the sizes below cross up to 547 of them
    cuda::UploadStaging staging(4096, 0, buffers);
    const size_t pad = 3;
    for (size_t n : {size_t{1}, size_t{127}, size_t{128}, size_t{129}, size_t{1000}, size_t{70001}}) {
      const std::vector<Fr> want = fast_random<Fr>(n, 40 + n);
      for (bool host_wait : {false, true}) {
        SCOPED_TRACE("n = " + std::to_string(n) +
                     (host_wait ? ", the host waits" : ", the stream is ordered"));
        size_t staged = 0;
        expect_placed(upload_via(staging, want.data(), n, pad, host_wait, staged), want, pad);
        EXPECT_EQ(staged, n * sizeof(Fr));
        // a BigVector, as a witness is, registered with the driver for the upload
        BigVector<Fr> big(want.begin(), want.end());
        {
          const cuda::HostRegistration reg(big.data(), n * sizeof(Fr), 0);
          expect_placed(upload_via(staging, big.data(), n, pad, host_wait, staged), want, pad);
        }
        // cudaMallocHost memory
        cuda::PinnedBuffer pinned(n * sizeof(Fr));
        std::memcpy(pinned.data(), want.data(), n * sizeof(Fr));
        expect_placed(upload_via(staging, static_cast<const Fr*>(pinned.data()), n, pad, host_wait, staged),
                      want, pad);
      }
    }
  }
  // Fewer than two buffers, or a chunk smaller than one value: refused.
  EXPECT_THROW(cuda::UploadStaging(4096, 0, 1), Error);
  EXPECT_THROW(cuda::UploadStaging(16, 0, 2), Error);
}

TEST(GpuUpload, BackToBackUploadsIntoOneVectorKeepEachOther) {
  CUZK_REQUIRE_GPU();
  // inputs ‖ aux, as the backend uploads a witness: two calls into one vector, the second at an offset
  // that is not a multiple of the chunk, reusing the staging buffers while the first's DMA may still run.
  cuda::UploadStaging staging(4096);
  const std::vector<Fr> inputs = fast_random<Fr>(5, 1), aux = fast_random<Fr>(9000, 2);
  for (bool host_wait : {false, true}) {
    cuda::DeviceFrVec w(inputs.size() + aux.size());
    auto copy = [](void* d, const void* s, size_t b) { std::memcpy(d, s, b); };
    staging.upload_at(w, 0, inputs.data(), inputs.size(), copy, host_wait);
    staging.upload_at(w, inputs.size(), aux.data(), aux.size(), copy, host_wait);
    const std::vector<Fr> got = w.download();
    EXPECT_EQ(std::memcmp(got.data(), inputs.data(), inputs.size() * sizeof(Fr)), 0);
    EXPECT_EQ(std::memcmp(got.data() + inputs.size(), aux.data(), aux.size() * sizeof(Fr)), 0);
  }
  // Out of range: refused, naming the sizes.
  cuda::DeviceFrVec small(10);
  EXPECT_THROW(staging.upload_at(small, 8, aux.data(), 3, [](void*, const void*, size_t) {}), Error);
}

}  // namespace
}  // namespace cuzk::test
