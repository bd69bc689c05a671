// The engine's counters and latency histograms, rendered in the Prometheus text exposition format
// (version 0.0.4) by the engine; the daemon serves the text at HTTP /metrics and in GetMetrics.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace cuzk::engine {

/// A cumulative histogram of milliseconds with fixed buckets (1 ms … 10 min, roughly ×2.5 apart).
class Histogram {
 public:
  static constexpr std::array<double, 14> kBounds = {1,   2.5, 5,    10,   25,    50,    100,
                                                     250, 500, 1000, 2500, 10000, 60000, 600000};
  void observe(double ms);
  /// Appends `name_bucket{le=…}`, `name_sum` and `name_count` lines (with `help` and the TYPE line).
  void render(std::string& out, const std::string& name, const std::string& help) const;

 private:
  mutable std::mutex mu_;
  std::array<uint64_t, kBounds.size()> buckets_{};  // non-cumulative; rendered cumulatively
  uint64_t count_ = 0;
  double sum_ = 0;
};

/// Everything the engine counts. Counters only go up.
struct Metrics {
  std::atomic<uint64_t> jobs_submitted{0}, jobs_completed{0}, jobs_failed{0}, jobs_cancelled{0};
  std::atomic<uint64_t> partitions_completed{0}, partitions_failed{0}, partitions_dropped{0};
  /// Partitions whose witness and memory reservation went back before their proof was done (the device
  /// had read it while other partitions waited for host memory).
  std::atomic<uint64_t> early_releases{0};
  Histogram queue_ms, synth_ms, gpu_ms, b_g2_ms, epilogue_ms, job_total_ms;
};

/// Appends one counter or gauge in exposition format (HELP, TYPE, value; `labels` like `device="cpu"`).
void render_metric(std::string& out, const std::string& name, const char* type, const std::string& help,
                   double value, const std::string& labels = "");

}  // namespace cuzk::engine
