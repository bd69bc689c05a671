// `cuzk bench soak`: a bounded soak of a running daemon (issue 21 item 3; tests/soak/soak.sh starts one).
// Several clients send mixed jobs of one circom circuit until --jobs were sent or --seconds passed:
//   valid      submit + await (some through Prove, some under a request_id sent twice: the same job),
//              1-3 partitions; every proof must verify with the circuit's key (--zkey) and equal its JSON
//   corrupt    a witness with a changed value or cut short: FAILED (or refused) with a message
//   unknown    a circuit the daemon does not have: FAILED or refused, the message naming it
//   cancel     a valid job cancelled after 0-5 ms: CANCELLED, or COMPLETED with a verified proof
//   disconnect a valid job whose first AwaitProof the client abandons after 1-20 ms (a cancelled call on
//              the shared channel, or a channel of its own that is then closed), then awaited again: the
//              job still completes with a verified proof
//   oversized  request_id or circuit_id over --max-id-bytes, more witnesses than --max-partitions, or
//              (with --max-queued-bytes) one witness larger than the queued-input limit: refused with
//              INVALID_ARGUMENT / RESOURCE_EXHAUSTED naming the limit
// At the end every job must be final, GetStatus's counters must have grown by exactly what was sent
// (jobs created, completed, failed, cancelled) and GetMetrics must agree with them. With --pid, the
// daemon's resident memory, open descriptors and threads are sampled from /proc every 0.5 s: after the
// warm-up (the first tenth of the jobs) open descriptors may grow by --max-fd-growth, and resident memory
// by --max-rss-growth-mib plus 2 times the growth of what the daemon charges to its budget
// (memory_used_bytes: retained results grow until their 10,000-job limit; they are charged their heap
// footprint, and the daemon's bounded malloc arenas keep RSS near the heap); after the charged memory
// stopped growing, by --max-rss-growth-mib alone. Prints a report (and
// --json FILE); exit 1 on any failed check.
#include "engine_commands.hpp"
#include "util/error.hpp"

#ifdef CUZK_WITH_SERVICE
#include <dirent.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "engine/loaders.hpp"
#include "formats/proof_zcash.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "grpc_client.hpp"
#endif

namespace cuzk::cli {

#ifdef CUZK_WITH_SERVICE
namespace {

namespace v1 = cuzk::v1;
using Clock = std::chrono::steady_clock;

enum Kind { kValid, kCorrupt, kUnknown, kCancel, kDisconnect, kOversized, kKinds };
const char* const kKindNames[kKinds] = {"valid", "corrupt", "unknown", "cancel", "disconnect", "oversized"};

std::string file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(ErrorCode::kIo, path + ": cannot read");
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// One /proc sample of the daemon.
struct Sample {
  double t_s = 0;
  unsigned jobs_sent = 0;
  uint64_t rss_kib = 0, threads = 0, fds = 0, memory_used = 0;
};

bool read_proc(int pid, Sample& s) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  if (!f) return false;
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("VmRSS:", 0) == 0) s.rss_kib = std::stoull(line.substr(6));
    if (line.rfind("Threads:", 0) == 0) s.threads = std::stoull(line.substr(8));
  }
  DIR* d = opendir(("/proc/" + std::to_string(pid) + "/fd").c_str());
  if (!d) return false;
  s.fds = 0;
  while (dirent* e = readdir(d))
    if (e->d_name[0] != '.') s.fds++;
  closedir(d);
  return true;
}

/// A value of Prometheus text (the line starting with `name` and a space), or -1.
double metric(const std::string& text, const std::string& name) {
  const std::string t = "\n" + text;
  const size_t at = t.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::strtod(t.c_str() + at + name.size() + 2, nullptr);
}

struct Soak {
  const SoakOptions& o;
  std::unique_ptr<v1::ProvingEngine::Stub> stub;
  VerifyingKey vk;
  std::string wtns, corrupt, truncated;

  std::mutex mu;
  std::vector<std::string> failures;  ///< checks that failed (the first few are printed)
  size_t n_failures = 0;
  unsigned sent[kKinds] = {}, as_expected[kKinds] = {};
  std::set<std::string> jobs;                                         ///< job ids the daemon created for us
  std::map<std::string, v1::AwaitProofResponse::Status> final_state;  ///< their last final state
  unsigned cancel_completed = 0, disconnect_first_done = 0, resubmits = 0, proves = 0;
  uint64_t proofs_verified = 0;
  std::map<std::string, unsigned> sample_errors;  ///< error texts seen (cut), for the report
  std::atomic<unsigned> next{0};
  std::atomic<bool> stop{false};
  /// Unique to this run (request ids of an earlier run against the same daemon are its jobs').
  const std::string run_id =
      "soak-" + std::to_string(std::chrono::system_clock::now().time_since_epoch().count());

  explicit Soak(const SoakOptions& opt) : o(opt) {
    stub = connect(o.addr);
    vk = engine::load_circom(o.zkey).key->verifying_key();
    wtns = file_bytes(o.witness);
    corrupt = wtns;
    corrupt[corrupt.size() - 5] ^= 0x40;  // the last witness value changed: the constraints fail
    truncated = wtns.substr(0, wtns.size() / 3);
  }

  void fail(const std::string& what) {
    std::lock_guard lk(mu);
    if (failures.size() < 20) failures.push_back(what);
    n_failures++;
  }

  /// Counts an error text, its numbers replaced by N (so that the report groups them), cut to 100 bytes.
  void note_error(const std::string& msg) {
    std::string key;
    for (char c : msg.substr(0, 100))
      if (!std::isdigit((unsigned char)c))
        key += c;
      else if (key.empty() || key.back() != 'N')
        key += 'N';
    std::lock_guard lk(mu);
    if (sample_errors.size() < 40 || sample_errors.count(key)) sample_errors[key]++;
  }

  v1::SubmitProofRequest request(int partitions, const std::string& witness) const {
    v1::SubmitProofRequest r;
    r.set_circuit_id(o.circuit);
    r.set_proof_kind(v1::CIRCOM_GROTH16);
    for (int i = 0; i < partitions; i++) r.add_witnesses(witness);
    return r;
  }

  grpc::Status submit(const v1::SubmitProofRequest& r, std::string* id) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    v1::SubmitProofResponse resp;
    grpc::Status s = stub->SubmitProof(&ctx, r, &resp);
    if (s.ok()) {
      *id = resp.job_id();
      std::lock_guard lk(mu);
      jobs.insert(*id);
    }
    return s;
  }

  /// AwaitProof until final (no timeout: the job must end; the call is bounded at 120 s).
  bool await(const std::string& id, v1::AwaitProofResponse* r, const std::string& what) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    v1::AwaitProofRequest req;
    req.set_job_id(id);
    grpc::Status s = stub->AwaitProof(&ctx, req, r);
    if (!s.ok()) {
      fail(what + ": AwaitProof " + id + ": " + std::to_string((int)s.error_code()) + " " +
           s.error_message());
      return false;
    }
    record(*r);
    return true;
  }

  void record(const v1::AwaitProofResponse& r) {
    std::lock_guard lk(mu);
    final_state[r.job_id()] = r.status();
  }

  /// A COMPLETED reply with `partitions` proofs that verify and equal their JSON.
  bool valid(const v1::AwaitProofResponse& r, int partitions, const std::string& what) {
    if (r.status() != v1::AwaitProofResponse::COMPLETED) {
      fail(what + ": " + v1::AwaitProofResponse::Status_Name(r.status()) + ": " + r.error_message());
      return false;
    }
    if (r.proof().size() != (size_t)partitions * kProofZcashBytes || r.proof_json_size() != partitions ||
        r.public_json_size() != partitions) {
      fail(what + ": " + std::to_string(r.proof().size()) + " proof bytes for " + std::to_string(partitions) +
           " partitions");
      return false;
    }
    if (r.gpu_compute_ms() > r.total_ms()) fail(what + ": gpu_compute_ms > total_ms");
    try {
      const auto bin = decode_proofs_zcash(
          std::span<const uint8_t>((const uint8_t*)r.proof().data(), r.proof().size()), "proof");
      for (int i = 0; i < partitions; i++) {
        const Groth16Proof p = proof_from_json(r.proof_json(i));
        if (!(p == bin[(size_t)i]) || !verify(vk, public_from_json(r.public_json(i)), p)) {
          fail(what + ": partition " + std::to_string(i) + "'s proof does not verify");
          return false;
        }
      }
    } catch (const std::exception& e) {
      fail(what + ": " + e.what());
      return false;
    }
    std::lock_guard lk(mu);
    proofs_verified += (uint64_t)partitions;
    return true;
  }

  /// A bad job: refused at submit (a code in `codes`) or FAILED at await, the message containing `needle`.
  bool refused_or_failed(const v1::SubmitProofRequest& r, const std::string& needle,
                         const std::string& what) {
    std::string id;
    grpc::Status s = submit(r, &id);
    std::string msg;
    if (!s.ok()) {
      if (s.error_code() != grpc::StatusCode::INVALID_ARGUMENT) {
        fail(what + ": refused with code " + std::to_string((int)s.error_code()) + ": " + s.error_message());
        return false;
      }
      msg = s.error_message();
    } else {
      v1::AwaitProofResponse a;
      if (!await(id, &a, what)) return false;
      if (a.status() != v1::AwaitProofResponse::FAILED) {
        fail(what + ": " + v1::AwaitProofResponse::Status_Name(a.status()) + " instead of FAILED");
        return false;
      }
      msg = a.error_message();
    }
    note_error(msg);
    if (msg.empty() || msg.find(needle) == std::string::npos) {
      fail(what + ": the error does not name \"" + needle + "\": " + msg);
      return false;
    }
    return true;
  }

  bool run_valid(std::mt19937_64& rng, unsigned i) {
    const std::string what = "job " + std::to_string(i) + " (valid)";
    const int parts = 1 + (int)(rng() % 3);
    v1::SubmitProofRequest r = request(parts, wtns);
    const unsigned how = (unsigned)(rng() % 10);
    if (how == 0) {  // Prove: submit and await in one call
      v1::ProveRequest pr;
      *pr.mutable_submit() = r;
      v1::ProveResponse resp;
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
      grpc::Status s = stub->Prove(&ctx, pr, &resp);
      if (!s.ok()) {
        fail(what + ": Prove: " + s.error_message());
        return false;
      }
      {
        std::lock_guard lk(mu);
        jobs.insert(resp.result().job_id());
        proves++;
      }
      record(resp.result());
      return valid(resp.result(), parts, what);
    }
    if (how == 1) r.set_request_id(run_id + "-" + std::to_string(i));
    std::string id;
    grpc::Status s = submit(r, &id);
    if (!s.ok()) {
      fail(what + ": SubmitProof: " + s.error_message());
      return false;
    }
    if (how == 1) {  // the same request again: the same job
      std::string again;
      s = submit(r, &again);
      if (!s.ok() || again != id) {
        fail(what + ": the same request_id gave job " + again + " after " + id + ": " + s.error_message());
        return false;
      }
      std::lock_guard lk(mu);
      resubmits++;
    }
    v1::AwaitProofResponse a;
    return await(id, &a, what) && valid(a, parts, what);
  }

  bool run_cancel(std::mt19937_64& rng, unsigned i) {
    const std::string what = "job " + std::to_string(i) + " (cancel)";
    std::string id;
    if (!submit(request(1, wtns), &id).ok()) {
      fail(what + ": SubmitProof failed");
      return false;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % 5000));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    v1::CancelProofRequest req;
    req.set_job_id(id);
    v1::CancelProofResponse resp;
    grpc::Status s = stub->CancelProof(&ctx, req, &resp);
    if (!s.ok() || !resp.found()) {
      fail(what + ": CancelProof of " + id + " did not find it: " + s.error_message());
      return false;
    }
    v1::AwaitProofResponse a;
    if (!await(id, &a, what)) return false;
    if (a.status() == v1::AwaitProofResponse::CANCELLED) return true;
    {
      std::lock_guard lk(mu);
      cancel_completed++;
    }
    return valid(a, 1, what + " (finished before the cancel)");
  }

  bool run_disconnect(std::mt19937_64& rng, unsigned i) {
    const std::string what = "job " + std::to_string(i) + " (disconnect)";
    std::string id;
    const int parts = 1 + (int)(rng() % 2);
    if (!submit(request(parts, wtns), &id).ok()) {
      fail(what + ": SubmitProof failed");
      return false;
    }
    v1::AwaitProofRequest req;
    req.set_job_id(id);
    v1::AwaitProofResponse first;
    grpc::Status s;
    const auto give_up = std::chrono::system_clock::now() + std::chrono::milliseconds(1 + rng() % 20);
    if (rng() % 2) {  // a call abandoned on the shared channel
      grpc::ClientContext ctx;
      ctx.set_deadline(give_up);
      s = stub->AwaitProof(&ctx, req, &first);
    } else {  // a client of its own (its own TCP connection), gone mid-call
      grpc::ChannelArguments args;
      args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
      const auto channel = grpc::CreateCustomChannel(o.addr, grpc::InsecureChannelCredentials(), args);
      // Mostly connected first, so that the call reaches the daemon before the client leaves; one time
      // in four the channel is dropped while it may still connect (gRPC's client then leaves the
      // connection open: the daemon closes it after limits.max_connection_idle_s).
      if (rng() % 4 &&
          !channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(10))) {
        fail(what + ": a new connection to " + o.addr + " was not made within 10 s");
        return false;
      }
      auto own = v1::ProvingEngine::NewStub(channel);
      grpc::ClientContext ctx;
      ctx.set_deadline(give_up);
      s = own->AwaitProof(&ctx, req, &first);
    }
    if (s.ok() && first.status() == v1::AwaitProofResponse::COMPLETED) {
      std::lock_guard lk(mu);
      disconnect_first_done++;
    } else if (!s.ok() && s.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED &&
               s.error_code() != grpc::StatusCode::CANCELLED) {
      fail(what + ": the abandoned AwaitProof ended with " + std::to_string((int)s.error_code()) + ": " +
           s.error_message());
      return false;
    }
    v1::AwaitProofResponse a;
    return await(id, &a, what) && valid(a, parts, what);
  }

  bool run_oversized(std::mt19937_64& rng, unsigned i) {
    const std::string what = "job " + std::to_string(i) + " (oversized)";
    v1::SubmitProofRequest r = request(1, wtns);
    std::string needle;
    grpc::StatusCode code = grpc::StatusCode::INVALID_ARGUMENT;
    switch (rng() % (o.max_queued_bytes ? 4 : 3)) {
      case 0:
        r.set_request_id(std::string(o.max_id_bytes + 1 + rng() % 1000, 'r'));
        needle = "request_id has";
        break;
      case 1:
        r.set_circuit_id(std::string(o.max_id_bytes + 1 + rng() % 1000, '\n'));
        needle = "circuit_id has";
        break;
      case 2:
        r = request((int)o.max_partitions + 1, wtns);
        needle = "witnesses has";
        break;
      default:
        r = request(1, std::string(o.max_queued_bytes + 1, 'w'));
        needle = "queued input";
        code = grpc::StatusCode::RESOURCE_EXHAUSTED;
        break;
    }
    std::string id;
    grpc::Status s = submit(r, &id);
    if (s.ok() || s.error_code() != code || s.error_message().find(needle) == std::string::npos ||
        s.error_message().size() > 4200) {
      fail(what + ": expected code " + std::to_string((int)code) + " naming \"" + needle + "\", got " +
           std::to_string((int)s.error_code()) + ": " + s.error_message().substr(0, 200));
      return false;
    }
    note_error(s.error_message());
    return true;
  }

  void client(unsigned c) {
    std::mt19937_64 rng(o.seed * 1000003 + c);
    const Clock::time_point t0 = Clock::now();
    for (unsigned i; !stop && (i = next++) < o.jobs;) {
      if (o.seconds > 0 && std::chrono::duration<double>(Clock::now() - t0).count() > o.seconds) {
        stop = true;
        break;
      }
      const unsigned roll = (unsigned)(rng() % 100);
      const Kind k = roll < 50   ? kValid
                     : roll < 60 ? kCorrupt
                     : roll < 68 ? kUnknown
                     : roll < 80 ? kCancel
                     : roll < 92 ? kDisconnect
                                 : kOversized;
      bool ok = false;
      switch (k) {
        case kValid:
          ok = run_valid(rng, i);
          break;
        case kCorrupt:
          ok = refused_or_failed(request(1 + (int)(rng() % 2), rng() % 2 ? corrupt : truncated), "",
                                 "job " + std::to_string(i) + " (corrupt)");
          break;
        case kUnknown: {
          v1::SubmitProofRequest r = request(1, wtns);
          r.set_circuit_id("soak-unknown-" + std::to_string(i));
          ok = refused_or_failed(r, "soak-unknown-" + std::to_string(i),
                                 "job " + std::to_string(i) + " (unknown)");
          break;
        }
        case kCancel:
          ok = run_cancel(rng, i);
          break;
        case kDisconnect:
          ok = run_disconnect(rng, i);
          break;
        default:
          ok = run_oversized(rng, i);
          break;
      }
      std::lock_guard lk(mu);
      sent[k]++;
      if (ok) as_expected[k]++;
    }
  }

  v1::GetStatusResponse status() {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    v1::GetStatusResponse st;
    check(stub->GetStatus(&ctx, v1::GetStatusRequest(), &st), o.addr, "GetStatus");
    return st;
  }
};

}  // namespace

int run_bench_soak(const SoakOptions& o, bool quiet) {
  Soak soak(o);
  const v1::GetStatusResponse s0 = soak.status();
  const Clock::time_point t0 = Clock::now();
  std::vector<Sample> samples;
  std::mutex smu;
  std::atomic<bool> done{false};
  std::thread sampler;
  auto take = [&] {
    Sample s;
    s.t_s = std::chrono::duration<double>(Clock::now() - t0).count();
    s.jobs_sent = std::min(soak.next.load(), o.jobs);
    if (!read_proc(o.pid, s)) return;
    try {
      s.memory_used = soak.status().memory_used_bytes();
    } catch (const Error&) {
    }
    std::lock_guard lk(smu);
    samples.push_back(s);
  };
  if (o.pid > 0) {
    take();
    sampler = std::thread([&] {
      while (!done) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        take();
      }
    });
  }
  std::vector<std::thread> clients;
  for (unsigned c = 0; c < o.clients; c++) clients.emplace_back([&, c] { soak.client(c); });
  unsigned shown = 0;
  while (soak.next.load() < o.jobs && !soak.stop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const unsigned n = std::min(soak.next.load(), o.jobs);
    if (!quiet && n >= shown + std::max(1u, o.jobs / 10)) {
      shown = n;
      std::fprintf(stderr, "soak: %u/%u jobs sent, %.0f s\n", n, o.jobs,
                   std::chrono::duration<double>(Clock::now() - t0).count());
    }
  }
  for (auto& t : clients) t.join();
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  // Every job final; then the daemon quiet: its counters must have moved by exactly what we sent.
  v1::GetStatusResponse s1;
  for (int i = 0;; i++) {
    s1 = soak.status();
    bool busy = false;
    for (const auto& q : s1.queues()) busy = busy || q.pending() || q.in_progress();
    if (!busy || i == 300) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (o.pid > 0) {
    done = true;
    sampler.join();
    take();
  }
  unsigned completed = 0, failed = 0, cancelled = 0, other = 0;
  for (const std::string& id : soak.jobs) {
    const auto it = soak.final_state.find(id);
    if (it == soak.final_state.end()) {
      soak.fail("job " + id + " was never seen final");
      continue;
    }
    switch (it->second) {
      case v1::AwaitProofResponse::COMPLETED:
        completed++;
        break;
      case v1::AwaitProofResponse::FAILED:
        failed++;
        break;
      case v1::AwaitProofResponse::CANCELLED:
        cancelled++;
        break;
      default:
        other++;
        soak.fail("job " + id + " ended " + v1::AwaitProofResponse::Status_Name(it->second));
    }
  }
  auto delta = [](uint64_t a, uint64_t b) { return (long long)b - (long long)a; };
  const long long d_sub = delta(s0.total_jobs_submitted(), s1.total_jobs_submitted()),
                  d_done = delta(s0.total_proofs_completed(), s1.total_proofs_completed()),
                  d_fail = delta(s0.total_proofs_failed(), s1.total_proofs_failed()),
                  d_canc = delta(s0.total_proofs_cancelled(), s1.total_proofs_cancelled());
  if (d_sub != (long long)soak.jobs.size() || d_done != completed || d_fail != failed || d_canc != cancelled)
    soak.fail("the daemon's counters moved by submitted " + std::to_string(d_sub) + ", completed " +
              std::to_string(d_done) + ", failed " + std::to_string(d_fail) + ", cancelled " +
              std::to_string(d_canc) + "; the clients saw " + std::to_string(soak.jobs.size()) + ", " +
              std::to_string(completed) + ", " + std::to_string(failed) + ", " + std::to_string(cancelled));
  {
    grpc::ClientContext ctx;
    v1::GetMetricsResponse m;
    check(soak.stub->GetMetrics(&ctx, v1::GetMetricsRequest(), &m), o.addr, "GetMetrics");
    const std::string& t = m.prometheus_text();
    if (metric(t, "cuzk_jobs_total{state=\"submitted\"}") != (double)s1.total_jobs_submitted() ||
        metric(t, "cuzk_jobs_total{state=\"completed\"}") != (double)s1.total_proofs_completed() ||
        metric(t, "cuzk_jobs_total{state=\"failed\"}") != (double)s1.total_proofs_failed() ||
        metric(t, "cuzk_jobs_total{state=\"cancelled\"}") != (double)s1.total_proofs_cancelled())
      soak.fail("GetMetrics's job counters differ from GetStatus's");
  }
  for (unsigned k = 0; k < kKinds; k++)
    if (soak.as_expected[k] != soak.sent[k])
      soak.fail(std::to_string(soak.sent[k] - soak.as_expected[k]) + " " + kKindNames[k] +
                " job(s) did not end as expected");
  const unsigned total = [&] {
    unsigned n = 0;
    for (unsigned k = 0; k < kKinds; k++) n += soak.sent[k];
    return n;
  }();
  // Resources: after the warm-up (the first tenth of the jobs sent: fewer than --jobs when --seconds
  // ended the run) to the end.
  nlohmann::json res = nlohmann::json::object();
  if (o.pid > 0 && samples.size() >= 2) {
    const unsigned warm_jobs = std::max(1u, total / 10);
    size_t w = 0;
    while (w + 1 < samples.size() && samples[w].jobs_sent < warm_jobs) w++;
    const Sample &first = samples.front(), &warm = samples[w], &end = samples.back();
    uint64_t rss_max = 0, fd_max = 0, thr_max = 0;
    for (const Sample& s : samples) {
      rss_max = std::max(rss_max, s.rss_kib);
      fd_max = std::max(fd_max, s.fds);
      thr_max = std::max(thr_max, s.threads);
    }
    const double rss_growth = ((double)end.rss_kib - (double)warm.rss_kib) / 1024;
    const double charged = ((double)end.memory_used - (double)warm.memory_used) / (1 << 20);
    const long long fd_growth = (long long)end.fds - (long long)warm.fds;
    // The steady point: the first sample after the warm-up from which the charged memory stays within 5 %
    // of its end (retained results at their limit); from there RSS must stay flat too.
    size_t st = w;
    while (st + 1 < samples.size() && (double)samples[st].memory_used < 0.95 * (double)end.memory_used) st++;
    const Sample& steady = samples[st];
    const double steady_growth = ((double)end.rss_kib - (double)steady.rss_kib) / 1024;
    // RSS, descriptors and charged memory at every tenth of the jobs sent (the curve: flat once the
    // retained results reach their limit).
    nlohmann::json curve = nlohmann::json::array();
    for (unsigned tenth = 1, at = 0; tenth <= 10; tenth++) {
      while (at + 1 < samples.size() && samples[at].jobs_sent < (uint64_t)total * tenth / 10) at++;
      curve.push_back({{"jobs_sent", samples[at].jobs_sent},
                       {"rss_mib", samples[at].rss_kib / 1024.0},
                       {"charged_mib", samples[at].memory_used / 1048576.0},
                       {"fds", samples[at].fds}});
    }
    res = {
        {"samples", samples.size()},
        {"by_jobs", curve},
        {"rss_mib",
         {{"start", first.rss_kib / 1024.0},
          {"after_warmup", warm.rss_kib / 1024.0},
          {"end", end.rss_kib / 1024.0},
          {"max", rss_max / 1024.0}}},
        {"charged_mib",
         {{"after_warmup", warm.memory_used / 1048576.0}, {"end", end.memory_used / 1048576.0}}},
        {"steady",
         {{"jobs_sent", steady.jobs_sent},
          {"rss_mib", steady.rss_kib / 1024.0},
          {"rss_growth_to_end_mib", steady_growth}}},
        {"fds", {{"start", first.fds}, {"after_warmup", warm.fds}, {"end", end.fds}, {"max", fd_max}}},
        {"threads",
         {{"start", first.threads}, {"after_warmup", warm.threads}, {"end", end.threads}, {"max", thr_max}}}};
    // Retained results cost about what is charged for them (docs/RELIABILITY.md, soak finding 2): while
    // they fill up, RSS may grow by 2 times the charged growth, and not at all (but the allowance) after.
    if (rss_growth - 2 * std::max(0.0, charged) > o.max_rss_growth_mib)
      soak.fail("the daemon's RSS grew by " + std::to_string(rss_growth) + " MiB after the warm-up, with " +
                std::to_string(charged) + " MiB more charged to its budget (allowed: 2 times that + " +
                std::to_string(o.max_rss_growth_mib) + " MiB)");
    if (steady_growth > o.max_rss_growth_mib)
      soak.fail("the daemon's RSS grew by " + std::to_string(steady_growth) +
                " MiB after its charged memory " + "stopped growing (at job " +
                std::to_string(steady.jobs_sent) + ")");
    if (fd_growth > (long long)o.max_fd_growth)
      soak.fail("the daemon's open descriptors grew from " + std::to_string(warm.fds) + " to " +
                std::to_string(end.fds) + " after the warm-up");
  }
  nlohmann::json kinds = nlohmann::json::object();
  for (unsigned k = 0; k < kKinds; k++)
    kinds[kKindNames[k]] = {{"sent", soak.sent[k]}, {"as_expected", soak.as_expected[k]}};
  nlohmann::json errors = nlohmann::json::object();
  for (const auto& [m, n] : soak.sample_errors) errors[m] = n;
  const nlohmann::json report = {{"jobs_sent", total},
                                 {"seconds", wall},
                                 {"clients", o.clients},
                                 {"kinds", kinds},
                                 {"daemon_jobs",
                                  {{"created", soak.jobs.size()},
                                   {"completed", completed},
                                   {"failed", failed},
                                   {"cancelled", cancelled}}},
                                 {"proofs_verified", soak.proofs_verified},
                                 {"prove_calls", soak.proves},
                                 {"request_id_resubmits", soak.resubmits},
                                 {"cancels_that_completed_first", soak.cancel_completed},
                                 {"disconnects_done_before_leaving", soak.disconnect_first_done},
                                 {"resources", res},
                                 {"errors_seen", errors},
                                 {"failures", soak.n_failures},
                                 {"first_failures", soak.failures}};
  if (!o.json.empty()) {
    std::ofstream f(o.json);
    f << report.dump(2) << "\n";
    if (!f) throw Error(ErrorCode::kIo, o.json + ": cannot write");
  }
  std::printf("bench soak: %u jobs in %.1f s from %u clients:", total, wall, o.clients);
  for (unsigned k = 0; k < kKinds; k++)
    std::printf(" %s %u/%u", kKindNames[k], soak.as_expected[k], soak.sent[k]);
  std::printf(
      "\ndaemon jobs: %zu created, %u completed (%llu partition proofs verified), %u failed, %u cancelled\n",
      soak.jobs.size(), completed, (unsigned long long)soak.proofs_verified, failed, cancelled);
  if (!res.empty())
    std::printf("daemon RSS MiB %s, fds %s, threads %s\n", res["rss_mib"].dump().c_str(),
                res["fds"].dump().c_str(), res["threads"].dump().c_str());
  for (const std::string& f : soak.failures) std::fprintf(stderr, "soak: FAILED: %s\n", f.c_str());
  if (soak.n_failures) std::fprintf(stderr, "soak: %zu check(s) failed\n", soak.n_failures);
  return soak.n_failures ? 1 : 0;
}
#else
int run_bench_soak(const SoakOptions&, bool) {
  throw Error(ErrorCode::kInvalidArgument, "this cuzk was built without the gRPC daemon (CUZK_SERVICE)");
}
#endif

}  // namespace cuzk::cli
