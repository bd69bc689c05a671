// The engine (src/engine) on GpuBackends. Faults inside jobs (issue 21 item 4): an allocation failure
// (CUZK_GPU_FAIL_ALLOC), a kernel-launch failure (CUZK_GPU_FAIL_LAUNCH) and a failed start()
// (CUZK_FAIL_BACKEND_START) in the middle of a job fail that job only, with the injected failure named;
// the GPU workers go on, and the next jobs complete with proofs that verify. No job hangs. Several
// devices (issue 23, what one GPU allows): two backends on the same GPU, and a CPU backend beside a GPU
// backend, share the queue and every proof verifies.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cuda/gpu.hpp"
#include "cuda/gpu_backend.hpp"
#include "engine/engine.hpp"
#include "gpu_support.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthetic.hpp"
#include "groth16/verifier.hpp"
#include "util/fault.hpp"

namespace cuzk::test {
namespace {

using namespace cuzk::engine;

/// A synthetic 2^14 circuit served by an engine on one GpuBackend (and `beside`, a second device, when
/// given) with two workers each, its partitions deferred (a, b, c on the device from the resident
/// compact rows).
struct GpuEngine {
  explicit GpuEngine(ProverBackend* beside = nullptr) : pool(4) {
    SyntheticCircuit s = synthetic_porep(14, 7, pool);
    key = std::make_shared<const ProvingKey>(setup(s.cs, ToxicWaste::from_seed(7), pool));
    rows = std::make_shared<const CompactCs>(compact(s.cs, pool));
    witness = std::make_shared<const std::vector<Fr>>(std::move(s.witness));
    vk = key->verifying_key();
    EngineConfig cfg;
    cfg.synthesis_threads = 2;
    cfg.gpu_workers_per_device = 2;
    std::vector<ProverBackend*> devices = {&gpu};
    if (beside) devices.push_back(beside);
    engine = std::make_unique<Engine>(cfg, devices);
    engine->circuits().add("syn", "synthetic", [this] {
      LoadedCircuit c;
      c.key = key;
      c.rows = rows;
      return c;
    });
  }
  ~GpuEngine() { engine->shutdown(false); }

  JobRequest job(size_t partitions) const {
    JobRequest r;
    r.circuit_id = "syn";
    for (size_t i = 0; i < partitions; i++) {
      WitnessInput w;
      w.assign = [this](const LoadedCircuit& c, ThreadPool& p) {
        return deferred_assignment(c.rows, *witness, p);
      };
      r.partitions.push_back(std::move(w));
    }
    return r;
  }
  JobResult run(size_t partitions) {
    const std::string id = engine->submit(job(partitions)).job_id;
    std::optional<JobResult> r = engine->await(id, 120000);
    EXPECT_TRUE(r);
    return r ? *r : JobResult{};
  }
  void expect_valid(const JobResult& r, size_t partitions) const {
    ASSERT_EQ(r.state, JobState::kCompleted) << r.error;
    ASSERT_EQ(r.proofs.size(), partitions);
    for (size_t i = 0; i < partitions; i++) EXPECT_TRUE(verify(vk, r.public_inputs[i], r.proofs[i])) << i;
  }

  ThreadPool pool;
  GpuBackend gpu;
  std::shared_ptr<const ProvingKey> key;
  std::shared_ptr<const CompactCs> rows;
  std::shared_ptr<const std::vector<Fr>> witness;
  VerifyingKey vk;
  std::unique_ptr<Engine> engine;
};

TEST(GpuEngineFaults, AnInjectedGpuFailureFailsOnlyItsJobAndTheNextJobsComplete) {
  CUZK_REQUIRE_GPU();
  GpuEngine e;
  // An allocation failure while the fresh backend uploads the key and the rows, or proves the first
  // partition (its first allocations are real cudaMallocs, not cached blocks).
  cuda::inject_alloc_failure(3);
  const JobResult a = e.run(3);
  cuda::inject_alloc_failure(0);
  ASSERT_EQ(a.state, JobState::kFailed) << "the allocation failure did not fire";
  EXPECT_NE(a.error.find("CUZK_GPU_FAIL_ALLOC"), std::string::npos) << a.error;
  for (int j = 0; j < 2; j++) e.expect_valid(e.run(2), 2);

  // A kernel launch that reports a failure after the kernel was queued, then a failed start().
  const std::pair<FaultPoint, std::string> points[] = {
      {FaultPoint::kKernelLaunch, "CUZK_GPU_FAIL_LAUNCH"},
      {FaultPoint::kBackendStart, "CUZK_FAIL_BACKEND_START"}};
  for (const auto& [point, env] : points) {
    SCOPED_TRACE(env);
    inject_fault(point, point == FaultPoint::kKernelLaunch ? 60 : 2);  // inside the next job
    const JobResult f = e.run(3);
    inject_fault(point, 0);
    ASSERT_EQ(f.state, JobState::kFailed);
    EXPECT_NE(f.error.find("failure injected by " + env), std::string::npos) << f.error;
    EXPECT_EQ(f.error.rfind("partition ", 0), 0u) << f.error;
    for (int j = 0; j < 2; j++) e.expect_valid(e.run(2), 2);
  }
  const EngineStatus s = e.engine->status();
  EXPECT_EQ(s.jobs_failed, 3u);
  EXPECT_EQ(s.jobs_completed, 6u);
  EXPECT_EQ(s.partitions_in_flight, 0u);
  EXPECT_EQ(s.synth_queue + s.gpu_queue + s.final_queue, 0u);
}

TEST(GpuEngine, TwoBackendsOnOneGpuAndACpuBesideAGpuShareTheQueue) {
  CUZK_REQUIRE_GPU();
  GpuBackend second;  // the same GPU listed twice (`--devices 0,0`): a second resident copy of the key
  CpuBackend cpu(2);
  for (bool with_cpu : {false, true}) {
    SCOPED_TRACE(with_cpu ? "a CPU backend beside the GPU" : "GPU 0 listed twice");
    GpuEngine e(with_cpu ? static_cast<ProverBackend*>(&cpu) : &second);
    std::vector<std::string> ids;
    for (int j = 0; j < 4; j++) ids.push_back(e.engine->submit(e.job(4)).job_id);
    std::set<std::string> used;
    for (const std::string& id : ids) {
      const std::optional<JobResult> r = e.engine->await(id, 300000);
      ASSERT_TRUE(r);
      e.expect_valid(*r, 4);
      for (const PartitionTiming& t : r->partitions) used.insert(t.device.substr(0, 4));
    }
    const EngineStatus s = e.engine->status();
    ASSERT_EQ(s.devices.size(), 2u);
    for (const DeviceStatus& d : s.devices) EXPECT_GT(d.busy_fraction, 0.0) << d.name;
    if (with_cpu) {
      EXPECT_EQ(used, (std::set<std::string>{"cpu", "cuda"}));
    }
    EXPECT_EQ(s.jobs_completed, 4u);
  }
}

}  // namespace
}  // namespace cuzk::test
