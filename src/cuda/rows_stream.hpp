// a, b, c on the device from rows that stay in host memory: a compact CSR matrix streamed through a
// ChunkPipe in row slices, each slice evaluated as it lands (src/cuda/spmv.cu). For circuits whose rows
// do not fit the device beside a partition (a 32 GiB PoRep partition's 8.9 GB on a 16 GiB card). Plain
// C++: no CUDA header.
#pragma once

#include <cstddef>

#include "cuda/chunk_pipe.hpp"
#include "cuda/gpu.hpp"

namespace cuzk::cuda {

/// out[j] = ⟨row j of h, w⟩ for j < h.rows (the same csr_row_dot as DeviceRows::evaluate, so the same
/// bytes) and 0 for the rest of out, queued on the device's context stream. The rows cross in slices of
/// whole rows that fill one of `pipe`'s buffers (offsets, columns and coefficient indices of the slice),
/// slice i + 1 landing while slice i is evaluated; `d_table` (the coefficient table) and `d_w` (covering
/// every column) are device arrays. Returns once every slice is queued; `h`'s memory must stay valid until
/// the context stream has run the work (e.g. synchronize). Throws kInvalidArgument when out is shorter
/// than the rows or one row does not fit a buffer.
void evaluate_rows_streamed(const HostCsr& h, const Fr* d_table, const Fr* d_w, DeviceFrVec& out,
                            ChunkPipe& pipe);

}  // namespace cuzk::cuda
