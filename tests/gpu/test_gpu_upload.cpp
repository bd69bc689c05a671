// cuda::UploadStaging (src/cuda/context.cu), the path every witness and host a, b, c take to the device
// under a memory budget: values copied chunk by chunk into the page-locked staging buffers (2, 3 or 4) and
// DMA'd from them land the same bytes at the same offset, nothing written outside the range, for sizes around
// the chunk size, for both completion modes (the context stream ordered after the copy; the host waiting
// for it), and from pageable, registered (HostRegistration) and cudaMallocHost memory alike. The packed
// witness (src/cuda/witness_pack.hpp, upload_packed_at): packing and the host's unpacking (no GPU, in CI as
// *Emulated*) give back every byte, and packed uploads land what plain ones do, pieces packed or not.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <vector>

#include "cuda/gpu.hpp"
#include "cuda/witness_pack.hpp"
#include "gpu_support.hpp"
#include "util/error.hpp"
#include "util/huge_alloc.hpp"
#include "util/thread_pool.hpp"

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

TEST(GpuUpload, RegistrationsOfOneRangeShareItUntilTheLastGoes) {
  CUZK_REQUIRE_GPU();
  // Two holders of one range, as two GPU backends over one key: both hold it (the driver refuses a
  // second cudaHostRegister of a range), and it stays page-locked, its uploads exact, until the last goes.
  const size_t n = 70001;
  const std::vector<Fr> want = fast_random<Fr>(n, 41);
  BigVector<Fr> big(want.begin(), want.end());
  EXPECT_FALSE(cuda::page_locked(big.data()));
  std::optional<cuda::HostRegistration> first(std::in_place, big.data(), n * sizeof(Fr), 0);
  ASSERT_TRUE(first->ok());
  cuda::HostRegistration second(big.data(), n * sizeof(Fr), 0);
  EXPECT_TRUE(second.ok());
  std::optional<cuda::HostRegistration> head(std::in_place, big.data(), 100 * sizeof(Fr), 0);
  EXPECT_TRUE(head->ok());  // a shorter range from its start: shared too
  first.reset();
  EXPECT_TRUE(cuda::page_locked(big.data()));
  EXPECT_TRUE(cuda::page_locked(big.data() + n - 1));
  cuda::UploadStaging staging(4096);
  size_t staged = 0;
  expect_placed(upload_via(staging, big.data(), n, 3, false, staged), want, 3);
  second = cuda::HostRegistration();           // the move-assignment gives its hold back
  EXPECT_TRUE(cuda::page_locked(big.data()));  // the head still holds it
  head.reset();
  EXPECT_FALSE(cuda::page_locked(big.data()));
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

/// A witness-like vector of n values: mostly 0 and 1, a `dense` fraction of random values, and the edge
/// values r − 1 and 2 (and a value whose bytes differ from one's in the last limb only) sprinkled in; with
/// `dense_run`, a run of n/8 dense values in the middle (a piece that does not pack).
std::vector<Fr> witness_like(size_t n, double dense, uint64_t seed, bool dense_run = true) {
  std::vector<Fr> w = fast_random<Fr>(n, seed);
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
  Fr near_one = Fr::one();
  near_one.l[Fr::N - 1] ^= 1;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const double u = (double)(x >> 11) / 9007199254740992.0;
    if (dense_run && i >= n / 2 && i < n / 2 + n / 8) continue;
    if (u < dense) continue;
    const unsigned k = (unsigned)(x % 64);
    w[i] = k == 0    ? -Fr::one()
           : k == 1  ? Fr::from_u64(2)
           : k == 2  ? near_one
           : (k & 1) ? Fr::one()
                     : Fr::zero();
  }
  return w;
}

TEST(WitnessPackEmulated, PackingGivesBackEveryByte) {
  ThreadPool pool(3);
  for (size_t n : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{4097}, size_t{70001},
                   size_t{(1 << 19) + 5}}) {
    for (double dense : {0.0, 0.03, 0.5}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", dense " + std::to_string(dense));
      const std::vector<Fr> want = witness_like(n, dense, 7 + n);
      std::vector<Fr> buf(n + 8);  // room for everything: always packs
      const size_t bytes = cuda::pack_witness(want.data(), n, buf.data(), buf.size() * sizeof(Fr), pool);
      size_t values = 0;
      for (const Fr& v : want) values += !(v == Fr::zero()) && !(v == Fr::one());
      ASSERT_EQ(bytes, cuda::packed_values_at(n) + values * sizeof(Fr));
      std::vector<Fr> got(n, Fr::from_u64(5));
      cuda::unpack_witness(buf.data(), n, got.data());
      EXPECT_EQ(std::memcmp(got.data(), want.data(), n * sizeof(Fr)), 0);
      // One byte short of the packed size: refused (0), so the caller sends the piece as it is.
      if (n > 0) {
        EXPECT_EQ(cuda::pack_witness(want.data(), n, buf.data(), bytes - 1, pool), 0u);
        EXPECT_EQ(cuda::pack_witness(want.data(), n, buf.data(), bytes, pool), bytes);
      }
    }
  }
  // A witness of bits packs to its tag words and offsets alone: 8 bytes per 16 values.
  const std::vector<Fr> bits = witness_like(1 << 16, 0.0, 3);
  std::vector<Fr> buf(1 << 16);
  size_t values = 0;
  for (const Fr& v : bits) values += !(v == Fr::zero()) && !(v == Fr::one());
  EXPECT_EQ(cuda::pack_witness(bits.data(), bits.size(), buf.data(), buf.size() * sizeof(Fr), pool),
            (size_t{1} << 16) / 2 + values * sizeof(Fr));
}

TEST(WitnessPackEmulated, PackedAheadGivesBackEveryPiece) {
  ThreadPool pool(3);
  for (size_t n : {size_t{1}, size_t{127}, size_t{4097}, size_t{70001}, size_t{300000}}) {
    for (size_t piece : {size_t{128}, size_t{4096}, size_t{32768}}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", pieces of " + std::to_string(piece));
      const std::vector<Fr> want = witness_like(n, 0.02, 5 + n, false);
      const std::optional<cuda::PackedWitness> pw = cuda::pack_witness_ahead(want.data(), n, piece, pool);
      ASSERT_TRUE(pw.has_value());
      ASSERT_EQ(pw->n, n);
      ASSERT_EQ(pw->pieces(), (n + piece - 1) / piece);
      std::vector<Fr> got(n, Fr::from_u64(5));
      size_t values = 0;
      for (size_t k = 0; k < pw->pieces(); k++) {
        const size_t len = std::min(piece, n - k * piece);
        size_t piece_values = 0;
        for (size_t i = k * piece; i < k * piece + len; i++)
          piece_values += !(want[i] == Fr::zero()) && !(want[i] == Fr::one());
        // each piece as pack_witness makes it, at most a quarter of its bytes
        EXPECT_EQ(pw->at[k + 1] - pw->at[k], cuda::packed_values_at(len) + piece_values * sizeof(Fr));
        EXPECT_LE(pw->at[k + 1] - pw->at[k], piece * sizeof(Fr) / 4);
        cuda::unpack_witness(pw->data(k), len, got.data() + k * piece);
        values += piece_values;
      }
      EXPECT_EQ(std::memcmp(got.data(), want.data(), n * sizeof(Fr)), 0);
      EXPECT_LT(values, n / 10 + 2);
    }
  }
  // A piece too dense to pack: no packed witness at all (it crosses as it is).
  const std::vector<Fr> run = witness_like(70001, 0.02, 9, true);
  EXPECT_FALSE(cuda::pack_witness_ahead(run.data(), run.size(), 4096, pool).has_value());
  EXPECT_TRUE(cuda::pack_witness_ahead(run.data(), 0, 4096, pool).has_value());
  // Pieces must be whole tag words.
  EXPECT_THROW(cuda::pack_witness_ahead(run.data(), run.size(), 0, pool), Error);
  EXPECT_THROW(cuda::pack_witness_ahead(run.data(), run.size(), 100, pool), Error);
}

TEST(GpuUpload, PackedUploadsLandWhatPlainOnesDo) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool(4);
  for (int buffers : {2, 3}) {
    // 256-byte chunks: too small for a piece (plain); 4096: pieces of 128 values; 2^20: of 32768
    for (size_t chunk : {size_t{256}, size_t{4096}, size_t{1} << 20}) {
      cuda::UploadStaging staging(chunk, 0, buffers);
      const size_t pad = 5;
      for (size_t n : {size_t{1}, size_t{127}, size_t{128}, size_t{129}, size_t{70001}, size_t{300000}}) {
        for (double dense : {0.02, 0.6}) {
          const std::vector<Fr> want = witness_like(n, dense, 11 + n);
          for (bool host_wait : {false, true}) {
            SCOPED_TRACE(std::to_string(buffers) + " buffers of " + std::to_string(chunk) +
                         " bytes, n = " + std::to_string(n) + ", dense " + std::to_string(dense) +
                         (host_wait ? ", the host waits" : ", the stream is ordered"));
            cuda::DeviceFrVec d(n + 2 * pad);
            d.zero_from(0);
            cuda::synchronize(0);
            staging.upload_packed_at(d, pad, want.data(), n, pool, host_wait);
            expect_placed(d.download(), want, pad);
            // packed ahead, in the staging's pieces (of a witness with no dense run: it would make none)
            const size_t per = staging.packed_piece();
            if (per < 16 || dense > 0.5) continue;  // no pieces; 60 % dense: most pieces do not pack
            const std::vector<Fr> bits = witness_like(n, dense, 13 + n, false);
            const std::optional<cuda::PackedWitness> pw = cuda::pack_witness_ahead(bits.data(), n, per, pool);
            ASSERT_TRUE(pw.has_value());
            d.zero_from(0);
            cuda::synchronize(0);
            staging.upload_packed_at(d, pad, *pw, pool, host_wait);
            expect_placed(d.download(), bits, pad);
          }
        }
      }
    }
  }
  // inputs ‖ aux into one vector, back to back, as the backend does; out of range refused
  cuda::UploadStaging staging(4096);
  const std::vector<Fr> inputs = fast_random<Fr>(5, 1), aux = witness_like(9000, 0.05, 2);
  cuda::DeviceFrVec w(inputs.size() + aux.size());
  staging.upload_at(w, 0, inputs.data(), inputs.size(),
                    [](void* d, const void* s, size_t b) { std::memcpy(d, s, b); });
  staging.upload_packed_at(w, inputs.size(), aux.data(), aux.size(), pool);
  const std::vector<Fr> got = w.download();
  EXPECT_EQ(std::memcmp(got.data(), inputs.data(), inputs.size() * sizeof(Fr)), 0);
  EXPECT_EQ(std::memcmp(got.data() + inputs.size(), aux.data(), aux.size() * sizeof(Fr)), 0);
  cuda::DeviceFrVec small(10);
  EXPECT_THROW(staging.upload_packed_at(small, 8, aux.data(), 3, pool), Error);
  // packed ahead: out of range, or in pieces larger than the staging's, refused
  const auto pw = cuda::pack_witness_ahead(aux.data(), 3, 16, pool);
  ASSERT_TRUE(pw.has_value());
  EXPECT_THROW(staging.upload_packed_at(small, 8, *pw, pool), Error);
  const std::vector<Fr> bits = witness_like(1000, 0.0, 4, false);
  const auto big = cuda::pack_witness_ahead(bits.data(), bits.size(), staging.packed_piece() * 2, pool);
  ASSERT_TRUE(big.has_value());
  cuda::DeviceFrVec room(1000);
  EXPECT_THROW(staging.upload_packed_at(room, 0, *big, pool), Error);
}

}  // namespace
}  // namespace cuzk::test
