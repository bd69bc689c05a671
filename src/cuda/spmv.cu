// a, b, c on the device (gpu.hpp DeviceRows): a circuit's compact CSR rows stay resident, and per
// partition one thread per row computes ⟨row, w⟩ with csr_row_dot (cuda/spmv_row.hpp, the CPU's own
// function), so nothing of a, b, c ever exists on the host. Rows longer than kLongRow terms (MultiEq's
// packed additions, multipack) would hold a whole warp for their length, so they are left to a second
// kernel, a warp per row: its lanes sum strided terms and a shuffle tree adds the 32 partial sums. Rows
// streamed from host memory in slices (evaluate_rows_streamed) have no long-row list: there each warp
// takes 32 rows and sums its long ones together after the short ones. Field additions are exact and
// every result is fully reduced, so the order does not change a byte.
#include <algorithm>
#include <utility>
#include <vector>

#include "cuda/context.cuh"
#include "cuda/gpu.hpp"
#include "cuda/rows_stream.hpp"
#include "cuda/spmv_row.hpp"

namespace cuzk::cuda {
namespace {

/// Rows with more terms than this go to the warp-per-row kernel.
constexpr uint64_t kLongRow = 16;

/// ⟨row j, w⟩ summed by the 32 lanes of a warp (csr_row_partial, then a shuffle tree), in lane 0.
__device__ Fr warp_row_dot(const CsrView& m, const Fr* table, const Fr* w, uint64_t j, unsigned lane) {
  Fr acc = csr_row_partial(m, table, w, j, lane, 32);
  for (int d = 16; d > 0; d >>= 1) {  // lane i adds lane i + d's sum (lanes past 31 keep their own)
    Fr o;
    for (int q = 0; q < 4; q++) o.l[q] = __shfl_down_sync(0xffffffffu, acc.l[q], d);
    acc += o;
  }
  return acc;
}

__global__ void spmv_kernel(CsrView m, const Fr* table, const Fr* w, Fr* out, size_t n) {
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x) {
    if (j >= m.rows) {
      out[j] = Fr::zero();
    } else if (m.offsets[j + 1] - m.offsets[j] <= kLongRow) {
      out[j] = csr_row_dot(m, table, w, j);
    }
  }
}

__global__ void spmv_long_rows_kernel(CsrView m, const Fr* table, const Fr* w, Fr* out, const uint32_t* rows,
                                      size_t n_rows) {
  const unsigned lane = threadIdx.x % 32;
  const size_t warps = (size_t)gridDim.x * blockDim.x / 32;
  for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; i < n_rows; i += warps) {
    const uint64_t j = rows[i];
    const Fr s = warp_row_dot(m, table, w, j, lane);
    if (lane == 0) out[j] = s;
  }
}

/// offsets[i] −= base for i ≤ rows: a streamed slice's row offsets made relative to its first term.
__global__ void rebase_kernel(uint64_t* offsets, size_t count, uint64_t base) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
    offsets[i] -= base;
}

/// A streamed slice's rows, which come with no long-row list: each warp takes 32 consecutive rows, a
/// lane per short row; then the whole warp sums each of its long rows (more than kLongRow terms) together,
/// so that one long row does not hold the warp for its length. blockDim.x is a multiple of 32.
__global__ void spmv_slice_kernel(CsrView m, const Fr* table, const Fr* w, Fr* out) {
  const unsigned lane = threadIdx.x % 32;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x - lane; first < m.rows; first += stride) {
    const size_t j = first + lane;
    const bool is_long = j < m.rows && m.offsets[j + 1] - m.offsets[j] > kLongRow;
    if (j < m.rows && !is_long) out[j] = csr_row_dot(m, table, w, j);
    for (unsigned long_rows = __ballot_sync(0xffffffffu, is_long); long_rows; long_rows &= long_rows - 1) {
      const uint64_t r = first + (unsigned)(__ffs((int)long_rows) - 1);
      const Fr s = warp_row_dot(m, table, w, r, lane);
      if (lane == 0) out[r] = s;
    }
  }
}

constexpr size_t align256(size_t b) { return (b + 255) / 256 * 256; }

}  // namespace

void evaluate_rows_streamed(const HostCsr& h, const Fr* d_table, const Fr* d_w, DeviceFrVec& out,
                            ChunkPipe& pipe) {
  if (out.size() < h.rows)
    throw Error(ErrorCode::kInvalidArgument, "evaluate_rows_streamed: " + std::to_string(h.rows) +
                                                 " rows into " + std::to_string(out.size()) + " values");
  Context& ctx = Context::get(out.device());
  ctx.activate();
  const size_t cap = pipe.chunk_bytes();
  // Bytes of the slice [r0, r1): offsets (r1 − r0 + 1), then columns and coefficient indices.
  auto slice_bytes = [&](uint64_t r0, uint64_t r1) {
    const uint64_t nnz = h.offsets[r1] - h.offsets[r0];
    return align256((r1 - r0 + 1) * 8) + align256(nnz * 4) + nnz * 4;
  };
  // The slices: as many whole rows as fill a buffer (binary search on the offsets).
  std::vector<std::pair<uint64_t, uint64_t>> slices;
  for (uint64_t r0 = 0; r0 < h.rows;) {
    uint64_t lo = r0 + 1, hi = h.rows;
    if (slice_bytes(r0, lo) > cap)
      throw Error(ErrorCode::kInvalidArgument, "evaluate_rows_streamed: row " + std::to_string(r0) + " has " +
                                                   std::to_string(h.offsets[r0 + 1] - h.offsets[r0]) +
                                                   " terms, more than a " + std::to_string(cap) + "-byte buffer");
    while (lo < hi) {  // the largest r1 in [lo, hi] whose slice fits
      const uint64_t mid = lo + (hi - lo + 1) / 2;
      if (slice_bytes(r0, mid) <= cap)
        lo = mid;
      else
        hi = mid - 1;
    }
    slices.emplace_back(r0, lo);
    r0 = lo;
  }
  auto fetch = [&](size_t i) {
    const auto [r0, r1] = slices[i];
    const uint64_t t0 = h.offsets[r0], nnz = h.offsets[r1] - t0;
    const int slot = (int)(i & 1);
    const size_t cols_at = align256((r1 - r0 + 1) * 8), coeffs_at = cols_at + align256(nnz * 4);
    pipe.copy_to(slot, 0, h.offsets + r0, (r1 - r0 + 1) * 8);
    pipe.copy_to(slot, cols_at, h.cols + t0, nnz * 4);
    pipe.copy_to(slot, coeffs_at, h.coeffs + t0, nnz * 4);
    pipe.mark(slot);
  };
  for (size_t i = 0; i < std::min<size_t>(2, slices.size()); i++) fetch(i);
  const size_t threads = 256, grid_cap = (size_t)ctx.props().multiProcessorCount * 32;
  for (size_t i = 0; i < slices.size(); i++) {
    const auto [r0, r1] = slices[i];
    const uint64_t t0 = h.offsets[r0], nnz = h.offsets[r1] - t0, rows = r1 - r0;
    char* base = (char*)pipe.context_waits((int)(i & 1));
    auto* offs = reinterpret_cast<uint64_t*>(base);
    const size_t cols_at = align256((rows + 1) * 8), coeffs_at = cols_at + align256(nnz * 4);
    const unsigned grid = (unsigned)std::min((rows + 1 + threads - 1) / threads, grid_cap);
    rebase_kernel<<<grid, threads, 0, ctx.stream()>>>(offs, rows + 1, t0);
    CUZK_CUDA_CHECK_LAUNCH("rebase_kernel", ctx.stream());
    const CsrView v{offs, reinterpret_cast<const uint32_t*>(base + cols_at),
                    reinterpret_cast<const uint32_t*>(base + coeffs_at), rows};
    spmv_slice_kernel<<<grid, threads, 0, ctx.stream()>>>(v, d_table, d_w, out.data() + r0);
    CUZK_CUDA_CHECK_LAUNCH("spmv_slice_kernel", ctx.stream());
    pipe.release_after_context((int)(i & 1));
    if (i + 2 < slices.size()) fetch(i + 2);
  }
  out.zero_from(h.rows);
}

struct DeviceRows::Impl {
  int device = 0;
  PoolBuffer<Fr> table;
  struct Mat {
    PoolBuffer<uint64_t> offsets;
    PoolBuffer<uint32_t> cols, coeffs;
    PoolBuffer<uint32_t> long_rows;  // indices of the rows with more than kLongRow terms
    uint64_t rows = 0;
  };
  std::vector<Mat> mats;
  size_t bytes = 0;
};

DeviceRows::DeviceRows(const Fr* table, size_t n_table, const std::vector<HostCsr>& mats, int device)
    : impl_(std::make_unique<Impl>()) {
  Context& ctx = Context::get(device);
  ctx.activate();
  impl_->device = device;
  impl_->table = PoolBuffer<Fr>(ctx, n_table);
  impl_->table.upload(table);
  impl_->bytes = n_table * sizeof(Fr);
  for (const HostCsr& h : mats) {
    if (!h.offsets) throw Error(ErrorCode::kInvalidArgument, "DeviceRows: a matrix without row offsets");
    const uint64_t nnz = h.offsets[h.rows];
    Impl::Mat m;
    m.rows = h.rows;
    m.offsets = PoolBuffer<uint64_t>(ctx, h.rows + 1);
    m.cols = PoolBuffer<uint32_t>(ctx, nnz);
    m.coeffs = PoolBuffer<uint32_t>(ctx, nnz);
    m.offsets.upload(h.offsets);
    std::vector<uint32_t> long_rows;
    for (uint64_t j = 0; j < h.rows; j++)
      if (h.offsets[j + 1] - h.offsets[j] > kLongRow) long_rows.push_back((uint32_t)j);
    m.long_rows = PoolBuffer<uint32_t>(ctx, long_rows.size());
    if (!long_rows.empty()) m.long_rows.upload(long_rows.data());
    impl_->bytes += long_rows.size() * 4;
    if (nnz) {
      m.cols.upload(h.cols);
      m.coeffs.upload(h.coeffs);
    }
    impl_->bytes += (h.rows + 1) * 8 + nnz * 8;
    impl_->mats.push_back(std::move(m));
  }
  CUZK_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
}

DeviceRows::~DeviceRows() = default;
DeviceRows::DeviceRows(DeviceRows&&) noexcept = default;
DeviceRows& DeviceRows::operator=(DeviceRows&&) noexcept = default;

size_t DeviceRows::bytes() const { return impl_ ? impl_->bytes : 0; }
size_t DeviceRows::matrices() const { return impl_ ? impl_->mats.size() : 0; }

void DeviceRows::evaluate(size_t i, const Fr* d_w, DeviceFrVec& out) const {
  if (!impl_ || i >= impl_->mats.size())
    throw Error(ErrorCode::kInvalidArgument, "DeviceRows::evaluate: no matrix " + std::to_string(i));
  const Impl::Mat& m = impl_->mats[i];
  if (out.size() < m.rows)
    throw Error(ErrorCode::kInvalidArgument, "DeviceRows::evaluate: " + std::to_string(m.rows) +
                                                 " rows into " + std::to_string(out.size()) + " values");
  Context& ctx = Context::get(impl_->device);
  ctx.activate();
  if (out.size() == 0) return;
  const CsrView v{m.offsets.get(), m.cols.get(), m.coeffs.get(), m.rows};
  const size_t threads = 256, want = (out.size() + threads - 1) / threads;
  const size_t cap = (size_t)ctx.props().multiProcessorCount * 32;
  spmv_kernel<<<(unsigned)std::min(want, cap), threads, 0, ctx.stream()>>>(v, impl_->table.get(), d_w,
                                                                           out.data(), out.size());
  CUZK_CUDA_CHECK_LAUNCH("spmv_kernel", ctx.stream());
  if (const size_t n_long = m.long_rows.size()) {
    const size_t blocks = std::min<size_t>((n_long * 32 + threads - 1) / threads, cap);
    spmv_long_rows_kernel<<<(unsigned)blocks, threads, 0, ctx.stream()>>>(
        v, impl_->table.get(), d_w, out.data(), m.long_rows.get(), n_long);
    CUZK_CUDA_CHECK_LAUNCH("spmv_long_rows_kernel", ctx.stream());
  }
}

}  // namespace cuzk::cuda
