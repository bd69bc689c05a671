// Host/device annotations shared by every header of the arithmetic core.
#pragma once

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#define CUZK_HD_NOINLINE __host__ __device__
#else
#define CUZK_HD inline
#define CUZK_HD_NOINLINE
#endif
