// Stage 2, GPU workers: `gpu_workers_per_device` threads per device take a synthesized partition, call
// the backend's start() through prove_start (one partition per call), hand the pending proof to the
// finalizers and loop back at once — so one worker's device work overlaps another's CPU tail
// (REFERENCE.md §1 item 4). With no GPU the devices are CPU backends and the same code runs.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/pipeline.hpp"
#include "groth16/backend.hpp"

namespace cuzk::engine {

/// Live state of one device, for GetStatus and the busy-fraction gauge.
struct DeviceState {
  unsigned ordinal = 0;
  ProverBackend* backend = nullptr;
  std::string name;  ///< backend->name()

  /// Marks a start() call entering (true) or leaving (false) the device, with the job it serves.
  void busy(bool entering, const std::string& job_id, const std::string& kind);
  /// Seconds with at least one start() call running, since the engine started.
  double busy_seconds() const;
  /// The job of the latest start() call still running ("" when idle), and its kind.
  std::pair<std::string, std::string> current() const;

 private:
  mutable std::mutex mu_;
  unsigned active_ = 0;
  double busy_s_ = 0;
  Clock::time_point since_;
  std::string job_, kind_;
};

/// The GPU worker threads of every device; they stop when the GPU queue is closed and empty.
class GpuWorkers {
 public:
  GpuWorkers(Pipeline& p, std::vector<DeviceState>& devices, unsigned per_device);
  /// Joins the threads (close the GPU queue first).
  ~GpuWorkers();

 private:
  void run(DeviceState& dev);
  Pipeline& p_;
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::engine
