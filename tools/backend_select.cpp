#include "backend_select.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "engine/memory.hpp"
#include "groth16/cpu_backend.hpp"
#include "util/error.hpp"
#ifdef CUZK_WITH_CUDA
#include "cuda/gpu.hpp"
#include "cuda/gpu_backend.hpp"
#include "cuda/point_decode.hpp"
#endif

namespace cuzk::cli {
namespace {

#ifdef CUZK_WITH_CUDA
/// Partitions spread round-robin over several GPU backends (one resident key per device).
class RoundRobin final : public ProverBackend {
 public:
  explicit RoundRobin(std::vector<std::unique_ptr<GpuBackend>> b) : b_(std::move(b)) {}
  std::string name() const override {
    std::string n;
    for (const auto& b : b_) n += (n.empty() ? "" : " + ") + b->name();
    return n;
  }
  std::unique_ptr<BackendPending> start(std::shared_ptr<const ProvingKey> key,
                                        std::shared_ptr<const Assignment> asg) override {
    return start_releasing(std::move(key), std::move(asg), {});
  }
  std::unique_ptr<BackendPending> start_releasing(std::shared_ptr<const ProvingKey> key,
                                                  std::shared_ptr<const Assignment> asg,
                                                  const std::function<void()>& aux_read) override {
    return b_[next_++ % b_.size()]->start_releasing(std::move(key), std::move(asg), aux_read);
  }

 private:
  std::vector<std::unique_ptr<GpuBackend>> b_;
  std::atomic<size_t> next_{0};
};
#endif

}  // namespace

size_t parse_size(const std::string& text, const char* what) {
  if (text == "auto")
    throw Error(ErrorCode::kInvalidArgument,
                std::string(what) + ": give a size (e.g. 16GiB); leave it out for auto");
  try {
    return (size_t)engine::parse_size(text);
  } catch (const Error& e) {
    throw Error(ErrorCode::kInvalidArgument, std::string(what) + ": " + e.what());
  }
}

std::vector<int> parse_devices(const std::string& text) {
  std::vector<int> out;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = text.find(',', i);
    if (j == std::string::npos) j = text.size();
    const std::string tok = text.substr(i, j - i);
    char* end = nullptr;
    const long v = std::strtol(tok.c_str(), &end, 10);
    if (tok.empty() || *end != '\0' || v < 0 || v > 1024)
      throw Error(ErrorCode::kInvalidArgument, "--devices: not a list of GPU ordinals: \"" + text + "\"");
    out.push_back((int)v);
    i = j + 1;
  }
  return out;
}

std::unique_ptr<ProverBackend> make_backend(const DeviceChoice& c) {
  if (c.device != "auto" && c.device != "cpu" && c.device != "gpu")
    throw Error(ErrorCode::kInvalidArgument, "--device: expected auto, cpu or gpu, not \"" + c.device + "\"");
  if (c.g2 != "gpu" && c.g2 != "cpu")
    throw Error(ErrorCode::kInvalidArgument, "--g2: expected cpu or gpu, not \"" + c.g2 + "\"");
#ifdef CUZK_WITH_CUDA
  if (c.device != "cpu" && gpu_device_count() > 0) {
    std::vector<std::unique_ptr<GpuBackend>> b;
    for (int d : c.devices.empty() ? std::vector<int>{0} : c.devices) {
      GpuBackendOptions o;
      o.device = d;
      o.mem_budget = c.gpu_mem_budget;
      o.g2_on_cpu = c.g2 == "cpu";
      o.g2_threads = c.threads;
      b.push_back(std::make_unique<GpuBackend>(o));
    }
    if (b.size() == 1) return std::move(b[0]);
    return std::make_unique<RoundRobin>(std::move(b));
  }
  if (c.device == "gpu")
    throw Error(ErrorCode::kCuda, "--device gpu: no CUDA device is visible to this process");
#else
  if (c.device == "gpu")
    throw Error(ErrorCode::kCuda, "--device gpu: this build of cuzk has no CUDA support");
#endif
  return std::make_unique<CpuBackend>(c.threads);
}

const SetupAccel* setup_accel(const DeviceChoice& c) {
#ifdef CUZK_WITH_CUDA
  if (c.device != "cpu" && gpu_device_count() > 0) {
    static SetupAccel accel;
    static int device = 0;
    device = c.devices.empty() ? 0 : c.devices[0];
    accel.g1 = [](const G1Affine& g, std::span<const Fr> k, G1Affine* out) {
      cuda::fixed_base_mul<Fp>(g, k.data(), k.size(), out, device);
    };
    accel.g2 = [](const G2Affine& g, std::span<const Fr> k, G2Affine* out) {
      cuda::fixed_base_mul<Fp2>(g, k.data(), k.size(), out, device);
    };
    return &accel;
  }
#endif
  if (c.device == "gpu")
    throw Error(ErrorCode::kCuda,
                "--device gpu: no CUDA device for the setup (a build without CUDA, or no visible GPU)");
  return nullptr;
}

std::unique_ptr<PointDecoder> params_decoder(const DeviceChoice& c) {
#ifdef CUZK_WITH_CUDA
  if (c.device != "cpu" && gpu_device_count() > 0)
    return std::make_unique<cuda::GpuPointDecoder>(c.devices.empty() ? 0 : c.devices[0]);
#endif
  if (c.device == "gpu")
    throw Error(ErrorCode::kCuda,
                "--device gpu: no CUDA device to decode the key (a build without CUDA, or no visible GPU)");
  return nullptr;
}

void with_params_options_on(const std::string& path, const DeviceChoice& c, SubgroupCheck check,
                            bool show_progress, const std::function<void(const ParamsReadOptions&)>& read) {
  const std::unique_ptr<PointDecoder> decoder = params_decoder(c);
  ParamsReadOptions opt;
  opt.subgroup = check;
  opt.threads = c.threads;
  opt.decoder = decoder.get();
  if (show_progress && check == SubgroupCheck::kYes) {
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0;
    opt.progress = [&, gpu = decoder != nullptr](uint64_t done, uint64_t total) {
      const auto now = std::chrono::steady_clock::now();
      if (done == 0) {  // the file's layout is read and sound: the check starts
        std::fprintf(
            stderr,
            "%s: checking that every point of the key is in its subgroup (%s; minutes per GB of key "
            "on a few CPU cores; --no-subgroup-check skips it for a file whose integrity is known)\n",
            path.c_str(), gpu ? "on the GPU" : "on the CPU");
        return;
      }
      if (done < total && now - last < std::chrono::seconds(5)) return;
      last = now;
      std::fprintf(stderr, "%s: checking key subgroup: %llu of %llu points (%.0f %%), %.0f s\n", path.c_str(),
                   (unsigned long long)done, (unsigned long long)total, total ? 100.0 * done / total : 100.0,
                   std::chrono::duration<double>(now - t0).count());
    };
  }
  read(opt);
}

ProvingKey read_params_on(const std::string& path, const DeviceChoice& c, SubgroupCheck check,
                          bool show_progress) {
  std::optional<ProvingKey> key;
  with_params_options_on(path, c, check, show_progress,
                         [&](const ParamsReadOptions& opt) { key.emplace(read_params(path, opt)); });
  return std::move(*key);
}

}  // namespace cuzk::cli
