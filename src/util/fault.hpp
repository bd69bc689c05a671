// Fault injection for tests: points on a partition's way through the prover that fail once, at their
// n-th check after being armed, so that tests can show that a failure stays in its partition's job and
// that the workers go on with the next jobs. Armed by inject_fault() or, at start-up, by the
// environment: CUZK_FAIL_BACKEND_START=N (the backend's start() call, checked by CpuBackend and
// GpuBackend on entry), CUZK_GPU_FAIL_LAUNCH=N (the N-th CUDA kernel launch reports a failure after the
// kernel was queued, as an asynchronous launch error would: cuda/context.cu's check_launch),
// CUZK_FAIL_SYNTHESIS=N and CUZK_FAIL_FINALIZE=N (the engine's stages). The CUDA allocator's
// CUZK_GPU_FAIL_ALLOC is cuda/gpu.hpp's.
#pragma once

#include <cstdint>

namespace cuzk {

/// Where a fault can be injected.
enum class FaultPoint : int { kBackendStart = 0, kSynthesis = 1, kFinalize = 2, kKernelLaunch = 3 };

/// Arms `point` so that its `n`-th check from now fails, once (0 disarms).
void inject_fault(FaultPoint point, uint64_t n);

/// Counts one check of `point`; throws Error(kCuda for kBackendStart and kKernelLaunch, else kInternal)
/// "<what>: failure injected by CUZK_FAIL_<POINT>" when it is the armed one. Thread-safe.
void check_fault(FaultPoint point, const char* what);

}  // namespace cuzk
