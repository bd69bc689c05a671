// `cuzk bench farm --database DSN`: the proving farm's own cost per partition (docs/CLUSTER.md), without
// proving: PARTITIONS one-partition jobs are submitted, then NODES stores (each its own connection pool,
// as separate daemons have) with SLOTS claimer threads each claim them and store a proof under the
// lease, as FarmWorker does. Prints the median and p90 of the claim and the store statements and of
// their sum, and the partitions per second; checks that every job completed with its proof stored once.
#include "engine_commands.hpp"
#include "util/error.hpp"

#ifdef CUZK_WITH_CLUSTER
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "cluster/pg_store.hpp"
#include "ec/curves.hpp"
#endif

namespace cuzk::cli {

#ifdef CUZK_WITH_CLUSTER
namespace {

double pct(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, (size_t)(q * (double)(v.size() - 1) + 0.5))];
}

}  // namespace

int run_bench_farm(const FarmBenchOptions& o) {
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  cluster::PgStoreOptions po;
  po.database = o.database;
  po.lease_ms = 30000;
  std::vector<std::unique_ptr<cluster::PgStore>> stores;
  for (unsigned n = 0; n < o.nodes; n++) stores.push_back(std::make_unique<cluster::PgStore>(po));
  // The jobs: a 1 KiB input each (a tiny .wtns is ~0.4 KiB), a distinct circuit id for this run.
  const std::string circuit = "bench-farm-" + std::to_string(Clock::now().time_since_epoch().count());
  std::vector<std::string> ids;
  const auto t_sub = Clock::now();
  for (unsigned i = 0; i < o.partitions; i++) {
    engine::StoredJobRequest r;
    r.circuit_id = circuit;
    r.kind = "CIRCOM_GROTH16";
    r.inputs.push_back(std::vector<uint8_t>(1024, (uint8_t)i));
    ids.push_back(stores[i % o.nodes]->submit(r).job_id);
  }
  const double submit_ms = ms(t_sub, Clock::now()) / o.partitions;
  const Groth16Proof proof{Curve<Fp>::generator(), Curve<Fp2>::generator(), Curve<Fp>::generator()};
  const std::vector<Fr> inputs{Fr::from_u64(1), Fr::from_u64(2)};
  std::mutex mu;
  std::vector<double> claim_ms, store_ms, both_ms;
  unsigned lost = 0;
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (unsigned n = 0; n < o.nodes; n++)
    for (unsigned s = 0; s < o.slots; s++)
      threads.emplace_back([&, n] {
        const std::string owner = "bench-node-" + std::to_string(n) + "@" + std::to_string(s);
        for (;;) {
          const auto a = Clock::now();
          auto c = stores[n]->claim(owner, {circuit}, {circuit});
          const auto b = Clock::now();
          if (!c) return;
          engine::PartitionTiming t;
          t.device = owner;
          const bool ok = stores[n]->complete(*c, owner, proof, inputs, t);
          const auto e = Clock::now();
          std::lock_guard lk(mu);
          claim_ms.push_back(ms(a, b));
          store_ms.push_back(ms(b, e));
          both_ms.push_back(ms(a, e));
          lost += !ok;
        }
      });
  for (std::thread& t : threads) t.join();
  const double wall = ms(t0, Clock::now());
  unsigned done = 0;
  for (const std::string& id : ids) {
    auto r = stores[0]->await(id, 0);
    done += r && r->state == engine::JobState::kCompleted && r->proofs.size() == 1 && r->proofs[0] == proof;
  }
  std::printf(
      "bench farm: %u partitions, %u nodes x %u slots: %u claimed and stored, %u lost, %u jobs completed\n",
      o.partitions, o.nodes, o.slots, (unsigned)claim_ms.size(), lost, done);
  std::printf(
      "  submit %.2f ms/job; claim median %.2f ms (p90 %.2f); store median %.2f ms (p90 %.2f); "
      "claim + store median %.2f ms (p90 %.2f); %.0f partitions/s\n",
      submit_ms, pct(claim_ms, 0.5), pct(claim_ms, 0.9), pct(store_ms, 0.5), pct(store_ms, 0.9),
      pct(both_ms, 0.5), pct(both_ms, 0.9), claim_ms.size() / (wall / 1000));
  return done == o.partitions && lost == 0 ? 0 : 1;
}
#else
int run_bench_farm(const FarmBenchOptions&) {
  throw Error(ErrorCode::kInvalidArgument, "this cuzk was built without the cluster (libpq, CUZK_CLUSTER)");
}
#endif

}  // namespace cuzk::cli
