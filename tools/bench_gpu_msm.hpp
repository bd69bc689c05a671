// `cuzk bench-gpu-msm`: timings of the GPU MSM (G1 and G2, uniform and 0/1-heavy scalars).
#pragma once

#include <string>

namespace cuzk::cli {

/// Benchmarks the GPU MSM for sizes 2^log_min … 2^log_max (G1 at 2^20/22/24/26, G2 at 2^20/22/24,
/// those in range) with bases and scalars resident on the GPU: median of `reps` (at least 5) runs after a
/// warm-up. Bases: 2^20 random points k·G of the group (k uniform, made by the GPU's fixed-base
/// multiplication and checked on the CPU) tiled to the size. Scalars: uniform below r, and the 0/1-heavy
/// witness shape (45% zero, 45% one, 10% uniform) through msm_split01 and the plain MSM. Every timed
/// result is compared with the CPU: the scalars are folded onto the distinct points (S_j = Σ_t s_{j+t·2^20})
/// and src/msm's CPU MSM of those 2^20 terms must give the same point. With CUZK_MSM_SWEEP=k in the
/// environment it times G1 at 2^k for a range of window sizes instead. Prints the GPU memory used; with a
/// non-empty `json_path` also writes every repetition, the checks and the environment there. Returns 0
/// on success, 1 when a result is wrong. Throws Error(kCuda) without CUDA support or without a GPU
/// (require_gpu), or when a CUDA call fails; Error(kIo) when the JSON file cannot be written.
int bench_gpu_msm(int log_min, int log_max, int reps, const std::string& json_path = "");

}  // namespace cuzk::cli
