// a, b, c on the device (gpu.hpp DeviceRows): a circuit's compact CSR rows stay resident, and per
// partition one thread per row computes ⟨row, w⟩ with csr_row_dot (cuda/spmv_row.hpp, the CPU's own
// function), so nothing of a, b, c ever exists on the host.
#include "cuda/context.cuh"
#include "cuda/gpu.hpp"
#include "cuda/spmv_row.hpp"

namespace cuzk::cuda {
namespace {

__global__ void spmv_kernel(CsrView m, const Fr* table, const Fr* w, Fr* out, size_t n) {
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x)
    out[j] = j < m.rows ? csr_row_dot(m, table, w, j) : Fr::zero();
}

}  // namespace

struct DeviceRows::Impl {
  int device = 0;
  PoolBuffer<Fr> table;
  struct Mat {
    PoolBuffer<uint64_t> offsets;
    PoolBuffer<uint32_t> cols, coeffs;
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
}

}  // namespace cuzk::cuda
