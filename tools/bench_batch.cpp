// `cuzk bench batch -c COUNT -j CONCURRENCY [--porep c1.json]`: COUNT jobs against a running daemon,
// CONCURRENCY at a time (each a Prove call: submit + await), with a progress bar; prints throughput
// (partition proofs/min, s/proof, and jobs/min) and latency percentiles. The jobs are o.circuit's with
// o.witness, or with --porep POREP_SEAL_COMMIT jobs of that C1 (each partition one proof; the same
// request each time, without a request_id so that every one is proved). Exit 1 when a job did not complete.
#include "engine_commands.hpp"
#include "util/error.hpp"

#ifdef CUZK_WITH_SERVICE
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "grpc_client.hpp"
#endif

namespace cuzk::cli {

#ifdef CUZK_WITH_SERVICE
namespace {

using Clock = std::chrono::steady_clock;

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, (size_t)(q * (double)(v.size() - 1) + 0.5))];
}

}  // namespace

int run_bench_batch(const ClientOptions& o, bool quiet) {
  const cuzk::v1::SubmitProofRequest base = job_request(o);
  auto stub = connect(o.addr);
  {
    // Fail fast, with the address, when no daemon answers.
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    cuzk::v1::GetStatusResponse st;
    check(stub->GetStatus(&ctx, cuzk::v1::GetStatusRequest(), &st), o.addr, "GetStatus");
  }
  const bool bar = !quiet && isatty(2);
  std::mutex mu;
  std::vector<double> latencies, server_total;
  size_t proofs = 0;  // partition proofs returned (192 bytes each)
  std::vector<std::string> errors;
  std::atomic<unsigned> next{0};
  unsigned done = 0;
  const Clock::time_point t0 = Clock::now();
  auto show = [&] {  // caller holds mu
    if (!bar) return;
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    const int width = 30, filled = (int)(width * done / o.count);
    std::fprintf(stderr, "\r\033[K[%s%s] %u/%u  %.1fs  %.1f proofs/min", std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), done, o.count, s, s > 0 ? 60.0 * done / s : 0.0);
    std::fflush(stderr);
  };
  std::vector<std::thread> clients;
  for (unsigned c = 0; c < std::min(o.concurrency, o.count); c++)
    clients.emplace_back([&] {
      for (unsigned i; (i = next++) < o.count;) {
        cuzk::v1::ProveRequest req;
        *req.mutable_submit() = base;
        cuzk::v1::ProveResponse resp;
        grpc::ClientContext ctx;
        const Clock::time_point s0 = Clock::now();
        grpc::Status st = stub->Prove(&ctx, req, &resp);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s0).count();
        std::lock_guard lk(mu);
        done++;
        if (!st.ok())
          errors.push_back("job " + std::to_string(i) + ": " + st.error_message());
        else if (resp.result().status() != cuzk::v1::AwaitProofResponse::COMPLETED)
          errors.push_back("job " + std::to_string(i) + ": " +
                           cuzk::v1::AwaitProofResponse::Status_Name(resp.result().status()) + ": " +
                           resp.result().error_message());
        else {
          proofs += resp.result().proof().size() / 192;
          latencies.push_back(ms);
          server_total.push_back((double)resp.result().total_ms());
        }
        show();
      }
    });
  for (auto& t : clients) t.join();
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  if (bar) std::fprintf(stderr, "\r\033[K");
  const size_t ok = latencies.size();
  const std::string what = o.porep.empty() ? "circuit " + o.circuit : "POREP_SEAL_COMMIT " + o.porep;
  std::printf("bench batch: %zu/%u jobs completed (%zu partition proofs, %s) in %.2f s, concurrency %u\n", ok,
              o.count, proofs, what.c_str(), wall, o.concurrency);
  if (ok && proofs) {
    std::printf("throughput: %.1f proofs/min, %.3f s/proof, %.2f jobs/min\n", 60.0 * (double)proofs / wall,
                wall / (double)proofs, 60.0 * (double)ok / wall);
    std::printf("latency ms (client): p50 %.1f  p90 %.1f  p99 %.1f  max %.1f\n", percentile(latencies, 0.5),
                percentile(latencies, 0.9), percentile(latencies, 0.99), percentile(latencies, 1.0));
    std::printf("latency ms (daemon total_ms): p50 %.0f  p90 %.0f  p99 %.0f\n", percentile(server_total, 0.5),
                percentile(server_total, 0.9), percentile(server_total, 0.99));
  }
  for (size_t i = 0; i < std::min<size_t>(errors.size(), 5); i++)
    std::fprintf(stderr, "failed: %s\n", errors[i].c_str());
  if (!errors.empty()) std::fprintf(stderr, "%zu job(s) failed\n", errors.size());
  return errors.empty() ? 0 : 1;
}
#else
int run_bench_batch(const ClientOptions&, bool) {
  throw Error(ErrorCode::kInvalidArgument, "this cuzk was built without the gRPC daemon (CUZK_SERVICE)");
}
#endif

}  // namespace cuzk::cli
