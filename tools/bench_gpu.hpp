// `cuzk bench-gpu`: throughput of the device field/curve arithmetic and timings of the GPU NTT.
#pragma once

#include <string>

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
/// `reps` (at least 5) runs after a warm-up that also builds the tables. Inputs are uniform non-zero
/// elements of Fr. Checks every size against the CPU: up to 2^24 the forward and coset forward outputs
/// equal src/ntt's ntt and coset_ntt element for element, above that sampled outputs equal Σ x_k·z^k
/// evaluated on the CPU at z = ω^i and 7·ω^i; the inverse transforms must give the input back. Prints
/// milliseconds per transform and the GPU memory used; with a non-empty `json_path` also writes every
/// repetition, the checks and the environment there (bench_common.hpp). Returns 0 on success, 1 when a
/// result is wrong. Throws Error (kInvalidArgument for bad sizes; kCuda without CUDA support or without a
/// GPU, or when a CUDA call fails; kIo when the JSON file cannot be written).
int bench_gpu_ntt(int log_min, int log_max, int reps, const std::string& json_path = "");

/// Times host-to-device uploads of a witness-sized vector (`gib` GiB of Fr in a BigVector, pageable, as
/// the engine's witnesses are) to the first GPU: cudaMemcpy from the pageable vector and from page-locked
/// memory (the link's rate), the host copy alone into a 64 MiB page-locked buffer on 4, 8 and 16 threads,
/// and cuda::UploadStaging (what the GPU backend uploads witnesses and rows with) for several chunk sizes,
/// buffer counts and copy threads. Median of `reps` timed runs after a warm-up; each variant's result on
/// the device is checked at 4097 elements against the host. Returns 0 when every check passes, 1 when a
/// result is wrong. Throws Error (kInvalidArgument for a size outside (0, 64] GiB or reps < 1; kCuda
/// without CUDA support or without a GPU, or when a CUDA call fails).
int bench_gpu_upload(double gib, int reps);

}  // namespace cuzk::cli
