// Stage 3, finalizers: a pool of threads that take a started partition, call prove_finalize (wait for
// the backend's CPU tail such as the b_g2 MSM, run the epilogue, verify), and hand the proof to the
// tracker. The partition's memory and circuit hold are released here.
#pragma once

#include <thread>
#include <vector>

#include "engine/pipeline.hpp"

namespace cuzk::engine {

/// The finalizer threads; they stop when the finalize queue is closed and empty.
class Finalizers {
 public:
  Finalizers(Pipeline& p, unsigned threads);
  /// Joins the threads (close the finalize queue first).
  ~Finalizers();

 private:
  void run();
  Pipeline& p_;
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::engine
