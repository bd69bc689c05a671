// `cuzk bench msm --cpu`: timing of the CPU multi-scalar multiplication on G1 and G2.
#pragma once

namespace cuzk::cli {

/// Times random-scalar MSMs on G1 and G2 for n = 2^log_min … 2^log_max, once on 1 thread and once on
/// `threads` threads (0 = all hardware threads; skipped when it is 1), and prints one table row per run:
/// size, group, threads, window c and bucket method, median wall milliseconds over `reps` runs after one
/// warm-up, nanoseconds per point, and the median process CPU milliseconds (all threads; on a shared
/// machine it excludes time lost to other processes). Bases are pseudo-random points (a walk of additions
/// from random points, converted with batch_to_affine), scalars uniform in Fr. Each result is checked: the
/// 1-thread and `threads`-thread results must be equal, and the first size is also compared with the naive Σ
/// kᵢ·Pᵢ when n ≤ 2^12 and otherwise with the other bucket method at another window size. Returns 0 when
/// every check passes, 1 otherwise; throws Error(kInvalidArgument) for log sizes outside 0..26, log_min >
/// log_max or reps < 1.
int bench_msm_cpu(int log_min, int log_max, unsigned threads, int reps);

}  // namespace cuzk::cli
