// `cuzk info gpu`: the CUDA devices, whether this build carries code for each, and how the key of each
// Filecoin proof kind would be laid out on a GPU memory budget (groth16/device_plan.hpp): which point
// vectors stay resident, which stream from host memory, and the host memory the kind needs. Builds and
// runs without CUDA (the plans then need --gpu-mem-budget).
#pragma once

#include <cstddef>

namespace cuzk::cli {

/// What `cuzk info gpu` was asked.
struct InfoGpuArgs {
  size_t budget = 0;     ///< --gpu-mem-budget: device bytes in all (0: each device's automatic budget)
  bool measure = false;  ///< --measure: record each kind's circuit and print its table row instead
  unsigned threads = 0;  ///< CPU threads for --measure (0 = all)
};

/// Prints the devices and the plans to stdout; returns 0. Throws Error(kInvalidArgument) when there is no
/// CUDA device and no budget was given.
int run_info_gpu(const InfoGpuArgs& args);

}  // namespace cuzk::cli
