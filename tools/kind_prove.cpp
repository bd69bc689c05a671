#include "kind_prove.hpp"

#include <cstdio>
#include <future>
#include <optional>
#include <utility>

#include "bench_common.hpp"
#include "cli_checks.hpp"
#include "engine/synthesis.hpp"
#include "formats/params.hpp"
#include "formats/proof_zcash.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

Error naming_files(const Error& e, const std::vector<FieldFile>& files, const std::string& fallback) {
  const std::string msg = e.what();
  for (const FieldFile& f : files) {
    const size_t n = f.field.size();
    if (msg.size() <= n || msg.compare(0, n, f.field) != 0) continue;
    if (msg[n] == ':') return Error(e.code(), f.file + msg.substr(n));
    if (msg[n] == '[') return Error(e.code(), f.file + ": " + msg.substr(n));
  }
  return Error(e.code(), fallback + ": " + msg);
}

engine::JobRequest kind_job(const engine::ProofKind& kind, const engine::ProofRequest& r,
                            const std::vector<FieldFile>& files, const std::string& fallback) {
  try {
    kind.check(r);
    return kind.job(r);
  } catch (const Error& e) {
    throw naming_files(e, files, fallback);
  }
}

int prove_job(const engine::ProofKind& kind, const engine::JobRequest& job, const ProveJobOptions& o) {
  const double t_job = seconds_since(o.start);
  std::string label = job.circuit_id;
  for (const engine::KindCircuit& c : kind.circuits())
    if (c.id == job.circuit_id) label = c.label;
  // A --vk of another circuit is refused before the key's long read: against the circuit's rows, which
  // the kind's loader builds first; after the read for a loader that does not pass them.
  std::optional<VerifyingKey> given_vk;
  if (!o.vk.empty()) given_vk = read_vk(o.vk);
  bool vk_checked = !given_vk;
  auto check_vk = [&](size_t inputs) {
    check_vk_inputs(*given_vk, inputs, o.vk, "the " + label + " circuit");
    vk_checked = true;
  };
  const engine::ParamsReading reading = [&](const CompactCs* rows, const auto& read) {
    if (rows && !vk_checked) check_vk(rows->n_inputs - 1);
    std::optional<engine::LoadedCircuit> out;
    with_params_options_on(o.params, o.dev, o.subgroup_check ? SubgroupCheck::kYes : SubgroupCheck::kNo,
                           !o.quiet, [&](const ParamsReadOptions& opt) { out.emplace(read(opt)); });
    return std::move(*out);
  };
  const auto t_load = std::chrono::steady_clock::now();
  // The key is shared, so that a GPU backend keeps it resident across the partitions.
  const engine::LoadedCircuit circuit = kind.loader(job.circuit_id, o.params, reading, o.dev.threads)();
  if (!vk_checked) check_vk(circuit.key->n_inputs - 1);
  const VerifyingKey vk = given_vk ? *given_vk : circuit.key->verifying_key();
  const double t_circuit = seconds_since(t_load);
  std::unique_ptr<ProverBackend> backend = make_backend(o.dev);
  ThreadPool pool(o.dev.threads);
  // Two stages: partition k + 1's witness is made on the CPU while partition k proves; its a, b, c are
  // deferred to the backend (the GPU's evaluates them on the device from the resident rows).
  struct Prepared {
    Assignment asg;
    double witness_s = 0;
  };
  auto prepare = [&](size_t k) {
    const auto tp = std::chrono::steady_clock::now();
    Prepared p;
    p.asg = engine::synthesize_partition(circuit, job.partitions[k], pool);
    p.witness_s = seconds_since(tp);
    return p;
  };
  std::vector<Groth16Proof> proofs;
  const size_t n = job.partitions.size();
  std::future<Prepared> next = std::async(std::launch::async, prepare, 0);
  for (size_t k = 0; k < n; k++) {
    const auto tw = std::chrono::steady_clock::now();
    Prepared p;
    ProveResult res;
    double waited = 0;
    auto tp = tw;
    try {
      p = next.get();
      waited = seconds_since(tw);
      if (k + 1 < n) next = std::async(std::launch::async, prepare, k + 1);
      tp = std::chrono::steady_clock::now();
      std::vector<Assignment> one;
      one.push_back(std::move(p.asg));
      res = std::move(prove_finalize(prove_start(circuit.key, std::move(one), *backend))[0]);
    } catch (const Error& e) {
      // named after the partition when the message does not say it, and after the user's file when the
      // input is at fault (not for a device or I/O failure)
      const std::string msg = e.what(), at = "partition " + std::to_string(k) + ":";
      const Error named = msg.find(at) == std::string::npos ? Error(e.code(), at + " " + msg) : e;
      const ErrorCode c = e.code();
      if (c == ErrorCode::kInvalidArgument || c == ErrorCode::kInvalidEncoding ||
          c == ErrorCode::kInvalidFile || c == ErrorCode::kUnsatisfied)
        throw naming_files(named, o.files, o.fallback);
      throw named;
    }
    if (!verify(vk, res.public_inputs, res.proof))
      throw Error(ErrorCode::kUnsatisfied, "partition " + std::to_string(k) +
                                               ": the proof does not verify with " +
                                               (o.vk.empty() ? o.params : o.vk) + "; nothing written");
    proofs.push_back(res.proof);
    if (!o.quiet) {
      std::string stages;
      for (auto& [name, ms] : res.stages) stages += " " + name + " " + std::to_string((int)ms) + "ms";
      std::fprintf(stderr, "partition %zu: witness %.2f s (waited %.2f s for it), prove+verify %.2f s (%s)\n",
                   k, p.witness_s, waited, seconds_since(tp), stages.c_str() + (stages.empty() ? 0 : 1));
    }
  }
  write_proofs_file(o.out, proofs);
  if (!o.quiet)
    std::printf(
        "wrote %s: %zu partitions x 192 bytes (the %s circuit), every one verified; request %.2f s, circuit "
        "and key %.2f s, total %.2f s; host memory peak %.1f GiB\n",
        o.out.c_str(), proofs.size(), label.c_str(), t_job, t_circuit, seconds_since(o.start),
        peak_rss_gib());
  return 0;
}

}  // namespace cuzk::cli
