// `cuzk bench-gpu`: throughput of the device field/curve arithmetic and timings of the GPU NTT.
#pragma once

namespace cuzk::cli {

/// Throws Error(kCuda, "<command>: no CUDA GPU available: <reason>") unless this build has CUDA support
/// and a CUDA device is visible. Every GPU benchmark checks this first, so all of them report a missing
/// GPU the same way (the CLI exits 3 with "cuzk: error: …").
void require_gpu(const char* command);

/// Prints the device, then a table of Montgomery multiplications per second on Fp and Fr for each
/// device multiplier (mont.hpp's even/odd CIOS and two reference variants) and of G1 XYZZ mixed
/// additions per second: median of 7 runs after a warm-up, random inputs, a sample of results
/// recomputed on the CPU. Also a device-to-device copy bandwidth (the memory ceiling) and the GPU memory
/// in use. Returns 0 when every check passes, 1 when a result is wrong. Throws Error (kCuda without
/// CUDA support or without a GPU, or when a CUDA call fails).
int bench_gpu_arith();

/// Times the GPU NTT (generator-7 roots) for n = 2^log_min … 2^log_max (1 ≤ log_min ≤ log_max ≤ 28):
/// forward, inverse, coset forward (shift 7) and coset inverse, data resident on the device, median of
/// `reps` (at least 5) runs after a warm-up that also builds the tables. Checks each size: inverse of
/// forward equals the input, and sampled outputs of the forward transform equal Σ x_k·ω^(ik) computed
/// on the CPU. Prints milliseconds per transform and the GPU memory used. Returns 0 on success, 1 when a
/// result is wrong. Throws Error (kInvalidArgument for bad sizes; kCuda without CUDA support or without a
/// GPU, or when a CUDA call fails).
int bench_gpu_ntt(int log_min, int log_max, int reps);

}  // namespace cuzk::cli
