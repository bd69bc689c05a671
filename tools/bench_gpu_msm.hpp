// `cuzk bench-gpu-msm`: timings of the GPU MSM (G1 and G2, uniform and 0/1-heavy scalars).
#pragma once

namespace cuzk::cli {

/// Benchmarks the GPU MSM for sizes 2^log_min … 2^log_max (G1 at 2^20/22/24/26, G2 at 2^20/22/24,
/// those in range) with bases and scalars resident on the GPU: median of `reps` (at least 5) runs
/// after a warm-up, random non-zero scalars, plus the 0/1-heavy witness shape (45% zero, 45% one,
/// 10% random) through msm_split01. Checks one result per curve against the CPU and prints the GPU
/// memory used. Returns 0 on success, 1 when a result is wrong. Throws Error(kCuda) without CUDA support
/// or without a GPU (require_gpu), or when a CUDA call fails.
int bench_gpu_msm(int log_min, int log_max, int reps);

}  // namespace cuzk::cli
