// a, b, c on the device (gpu.hpp DeviceRows): a circuit's compact CSR rows stay resident, and per
// partition one thread per row computes ⟨row, w⟩ with csr_row_dot (cuda/spmv_row.hpp, the CPU's own
// function), so nothing of a, b, c ever exists on the host. Rows longer than kLongRow terms (MultiEq's
// packed additions, multipack) would hold a whole warp for their length, so they are left to a second
// kernel, a warp per row: its lanes sum strided terms and a shuffle tree adds the 32 partial sums. Field
// additions are exact and every result is fully reduced, so the order does not change a byte.
#include <vector>

#include "cuda/context.cuh"
#include "cuda/gpu.hpp"
#include "cuda/spmv_row.hpp"

namespace cuzk::cuda {
namespace {

/// Rows with more terms than this go to the warp-per-row kernel.
constexpr uint64_t kLongRow = 16;

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
    Fr acc = csr_row_partial(m, table, w, j, lane, 32);
    for (int d = 16; d > 0; d >>= 1) {  // lane i adds lane i + d's sum (lanes past 31 keep their own)
      Fr o;
      for (int q = 0; q < 4; q++) o.l[q] = __shfl_down_sync(0xffffffffu, acc.l[q], d);
      acc += o;
    }
    if (lane == 0) out[j] = acc;
  }
}

}  // namespace

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
