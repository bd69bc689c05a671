// Choosing the prover's compute backend from the command line: --device auto|cpu|gpu, --devices,
// --g2 cpu|gpu, --gpu-mem-budget, --threads.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "formats/params.hpp"
#include "groth16/backend.hpp"
#include "groth16/setup.hpp"

namespace cuzk::cli {

/// What the user asked for.
struct DeviceChoice {
  std::string device = "auto";  ///< auto (GPU when one is present, CPU otherwise), cpu or gpu
  std::vector<int> devices;     ///< GPU ordinals (empty = device 0)
  std::string g2 = "gpu";       ///< where the B_G2 MSM runs on a GPU backend: gpu or cpu
  size_t gpu_mem_budget =
      0;  ///< device bytes per GPU in all (GpuBackendOptions::mem_budget; 0 = the device's memory)
  unsigned threads = 0;  ///< CPU threads (0 = all)
};

/// Parses a size such as "16GiB", "512MiB", "1.5GB" or a plain byte count (engine::parse_size without
/// "auto"). Throws Error(kInvalidArgument) naming `what` when it is not one.
size_t parse_size(const std::string& text, const char* what);

/// Parses "0,1,3" into ordinals. Throws Error(kInvalidArgument) on anything else.
std::vector<int> parse_devices(const std::string& text);

/// The backend for `c`: a CpuBackend, a GpuBackend, or one that spreads partitions round-robin over
/// several GPUs. Throws Error(kCuda) when a GPU is required (device = gpu) but this build has no CUDA
/// or the machine no GPU, Error(kInvalidArgument) for unknown choices.
std::unique_ptr<ProverBackend> make_backend(const DeviceChoice& c);

/// The setup's fixed-base multiplications on the first chosen GPU when c allows a GPU and one is
/// present (cuda::fixed_base_mul), nullptr otherwise (the setup then uses every CPU thread).
const SetupAccel* setup_accel(const DeviceChoice& c);

/// The GPU point decoder for read_params (cuda::GpuPointDecoder, its pinned staging held until the
/// object goes) on the first chosen GPU when c allows a GPU and one is present, nullptr otherwise
/// (read_params then decodes on CPU threads). Throws Error(kCuda) when c.device is gpu and there is none.
std::unique_ptr<PointDecoder> params_decoder(const DeviceChoice& c);

/// read_params of `path` with the subgroup check `check` (on by default), the points decoded on the GPU
/// that c chooses (params_decoder) or else on c.threads CPU threads. With `show_progress` and the check
/// on, lines on stderr: one when the check starts (what it costs, and --no-subgroup-check), then every
/// 5 s "<path>: checking key subgroup: X of Y points (P %), T s". Throws as read_params and params_decoder
/// do.
ProvingKey read_params_on(const std::string& path, const DeviceChoice& c,
                          SubgroupCheck check = SubgroupCheck::kYes, bool show_progress = false);

/// Calls `read` with the options read_params_on reads `path` with (the subgroup check `check`, the points
/// decoded on the GPU that c chooses or on c.threads CPU threads, with `show_progress` the check's lines on
/// stderr), the decoder living for the call: for a reader other than read_params (a proof kind's loader,
/// engine/kinds). Throws as params_decoder and `read` do.
void with_params_options_on(const std::string& path, const DeviceChoice& c, SubgroupCheck check,
                            bool show_progress, const std::function<void(const ParamsReadOptions&)>& read);

}  // namespace cuzk::cli
