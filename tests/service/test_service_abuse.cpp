// The daemon as an attacker or a careless client uses it (issue 21 item 5): job ids that never repeat,
// bounded requests, retained results and waiting clients, a port or socket that one daemon owns, client
// text escaped and cut in logs and errors, request_id reuse after a failure or for another request; and
// faults inside jobs (item 4): an injected backend, synthesis or finalize failure fails only its job.
#include <arpa/inet.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <thread>

#include "../timing.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"
#include "engine/loaders.hpp"
#include "engine/log.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/verifier.hpp"
#include "service/config.hpp"
#include "service/daemon.hpp"
#include "util/error.hpp"
#include "util/fault.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
const std::string kData = std::string(CUZK_SOURCE_DIR) + "/tests/data/";

std::string file_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// A daemon serving mimc on `listen` (a free loopback port by default) with `extra` TOML, and a stub.
struct Daemon1 {
  explicit Daemon1(const std::string& extra = "", const std::string& listen = "127.0.0.1:0") {
    cfg = parse_config("[daemon]\nlisten = \"" + listen +
                           "\"\nstatus_listen = \"127.0.0.1:0\"\n"
                           "[gpus]\ngpu_threads = 1\n[synthesis]\nthreads = 1\n[logging]\nlevel = \"off\"\n" +
                           extra + "[[circuits]]\nid = \"mimc\"\nzkey = \"mimc/mimc_dev.zkey\"\n",
                       "test.toml", kData);
    daemon = std::make_unique<Daemon>(cfg);
    const std::string addr =
        listen.rfind("unix:", 0) == 0 ? listen : "127.0.0.1:" + std::to_string(daemon->grpc_port());
    stub = v1::ProvingEngine::NewStub(grpc::CreateChannel(addr, grpc::InsecureChannelCredentials()));
  }
  v1::SubmitProofRequest job(int partitions) const {
    v1::SubmitProofRequest r;
    r.set_circuit_id("mimc");
    r.set_proof_kind(v1::CIRCOM_GROTH16);
    for (int i = 0; i < partitions; i++) r.add_witnesses(wtns);
    return r;
  }
  grpc::Status submit(const v1::SubmitProofRequest& req, std::string* job_id = nullptr) {
    v1::SubmitProofResponse resp;
    grpc::ClientContext ctx;
    grpc::Status st = stub->SubmitProof(&ctx, req, &resp);
    if (job_id) *job_id = resp.job_id();
    return st;
  }
  grpc::Status await(const std::string& id, v1::AwaitProofResponse* resp, uint64_t timeout_ms = 0) {
    v1::AwaitProofRequest req;
    req.set_job_id(id);
    req.set_timeout_ms(timeout_ms);
    grpc::ClientContext ctx;
    return stub->AwaitProof(&ctx, req, resp);
  }
  /// The job completed with `partitions` proofs that verify.
  void expect_valid(const v1::AwaitProofResponse& r, int partitions) const {
    ASSERT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
    ASSERT_EQ(r.proof_json_size(), partitions);
    for (int i = 0; i < partitions; i++)
      EXPECT_TRUE(verify(vk, public_from_json(r.public_json(i)), proof_from_json(r.proof_json(i))));
  }
  ServiceConfig cfg;
  std::unique_ptr<Daemon> daemon;
  std::unique_ptr<v1::ProvingEngine::Stub> stub;
  std::string wtns = file_text(kData + "mimc/mimc.wtns");
  VerifyingKey vk = engine::load_circom(kData + "mimc/mimc_dev.zkey").key->verifying_key();
};

TEST(ServiceAbuse, JobIdsNeverRepeatAfterARestart) {
  std::string old_id;
  {
    Daemon1 a;
    ASSERT_TRUE(a.submit(a.job(1), &old_id).ok());
    v1::AwaitProofResponse r;
    ASSERT_TRUE(a.await(old_id, &r).ok());
    a.expect_valid(r, 1);
  }
  Daemon1 b;  // a restart: another client's job must not get the old id
  std::string new_id;
  ASSERT_TRUE(b.submit(b.job(1), &new_id).ok());
  EXPECT_NE(new_id, old_id);
  EXPECT_TRUE(std::regex_match(new_id, std::regex("job-[0-9a-f]{32}"))) << new_id;
  v1::AwaitProofResponse r;
  EXPECT_EQ(b.await(old_id, &r).error_code(), grpc::StatusCode::NOT_FOUND);
  std::set<std::string> ids{new_id};
  for (int i = 0; i < 20; i++) {
    std::string id;
    ASSERT_TRUE(b.submit(b.job(1), &id).ok());
    EXPECT_TRUE(ids.insert(id).second) << id;
  }
}

TEST(ServiceAbuse, OversizedRequestsAreRefusedWithShortMessages) {
  Daemon1 d;
  v1::SubmitProofRequest req = d.job(1);
  req.set_request_id(std::string(1 << 20, 'r'));  // 1 MiB request id
  grpc::Status st = d.submit(req);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("request_id has 1048576, more than the 256"), std::string::npos)
      << st.error_message().substr(0, 200);
  req = d.job(1);
  req.set_circuit_id(std::string(100000, 'c'));
  st = d.submit(req);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_LT(st.error_message().size(), 200u);
  // 500,000 one-byte witnesses (1.5 MB on the wire): refused at once, nothing retained.
  v1::SubmitProofRequest many;
  many.set_circuit_id("mimc");
  const std::string one_byte(1, 'x');
  for (int i = 0; i < 500000; i++) many.add_witnesses(one_byte);
  st = d.submit(many);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("witnesses has 500000, more than the 1024"), std::string::npos)
      << st.error_message();
  // An unknown proof kind names its number.
  req = d.job(1);
  req.set_proof_kind(v1::ProofKind(12345));
  st = d.submit(req);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("proof_kind 12345"), std::string::npos) << st.error_message();
  // Unknown ids in errors are escaped and cut.
  v1::AwaitProofResponse r;
  st = d.await("job-\n" + std::string(100000, 'j'), &r);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_LT(st.error_message().size(), 200u);
  EXPECT_EQ(st.error_message().find('\n'), std::string::npos);
  v1::SubmitProofRequest unknown = d.job(1);
  unknown.set_circuit_id("no\nsuch");
  std::string id;
  ASSERT_TRUE(d.submit(unknown, &id).ok());
  ASSERT_TRUE(d.await(id, &r).ok());
  EXPECT_EQ(r.error_message(), "unknown circuit \"no\\x0asuch\"");
  EXPECT_EQ(d.daemon->engine().status().jobs_submitted, 1u);  // only the last was a job
}

TEST(ServiceAbuse, RequestIdIsReusableAfterFailureOrCancelButNotForAnotherRequest) {
  Daemon1 d;
  v1::SubmitProofRequest bad = d.job(1);
  bad.set_witnesses(0, d.wtns.substr(0, 64));  // a corrupt witness: the job fails
  bad.set_request_id("sector-7");
  std::string failed;
  ASSERT_TRUE(d.submit(bad, &failed).ok());
  v1::AwaitProofResponse r;
  ASSERT_TRUE(d.await(failed, &r).ok());
  ASSERT_EQ(r.status(), v1::AwaitProofResponse::FAILED);
  // The retry under the same id is a new job, and it succeeds.
  v1::SubmitProofRequest good = d.job(2);
  good.set_request_id("sector-7");
  std::string retry;
  ASSERT_TRUE(d.submit(good, &retry).ok());
  EXPECT_NE(retry, failed);
  ASSERT_TRUE(d.await(retry, &r).ok());
  d.expect_valid(r, 2);
  // The same request again is the same job; a different one under its id is refused, naming the id.
  std::string again;
  good.set_priority(v1::Priority(3));  // priority is not part of what the request asks for
  ASSERT_TRUE(d.submit(good, &again).ok());
  EXPECT_EQ(again, retry);
  v1::SubmitProofRequest other = d.job(1);
  other.set_request_id("sector-7");
  grpc::Status st = d.submit(other);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_NE(st.error_message().find("request_id \"sector-7\" is taken by job " + retry), std::string::npos)
      << st.error_message();
  v1::SubmitProofRequest other_witness = d.job(2);
  other_witness.set_witnesses(1, d.wtns.substr(0, d.wtns.size() - 1) + "x");
  other_witness.set_request_id("sector-7");
  EXPECT_EQ(d.submit(other_witness).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  // After a cancel, the id is free again.
  v1::SubmitProofRequest c = d.job(4);
  c.set_request_id("sector-8");
  std::string cancelled;
  ASSERT_TRUE(d.submit(c, &cancelled).ok());
  grpc::ClientContext cctx;
  v1::CancelProofRequest creq;
  creq.set_job_id(cancelled);
  v1::CancelProofResponse cresp;
  ASSERT_TRUE(d.stub->CancelProof(&cctx, creq, &cresp).ok());
  std::string after;
  ASSERT_TRUE(d.submit(c, &after).ok());
  EXPECT_NE(after, cancelled);
  ASSERT_TRUE(d.await(after, &r).ok());
  d.expect_valid(r, 4);
}

TEST(ServiceAbuse, GpuTimeNeverExceedsTotalTime) {
  Daemon1 d("[pipeline]\nmax_parallel_synthesis = 2\nsynthesis_lookahead = 4\n");
  for (int j = 0; j < 3; j++) {
    std::string id;
    ASSERT_TRUE(d.submit(d.job(6), &id).ok());
    v1::AwaitProofResponse r;
    ASSERT_TRUE(d.await(id, &r).ok());
    d.expect_valid(r, 6);
    EXPECT_LE(r.gpu_compute_ms(), r.total_ms());
    EXPECT_GT(r.gpu_compute_ms(), 0u);
  }
}

TEST(ServiceAbuse, QueuedInputIsBounded) {
  // 1.5 MiB of queued input allowed: a job of 3 MiB of witnesses is refused as the daemon being full.
  Daemon1 d("[limits]\nmax_queued_bytes = \"1.5MiB\"\n");
  v1::SubmitProofRequest big = d.job(1);
  big.set_witnesses(0, std::string(3 << 20, 'w'));
  grpc::Status st = d.submit(big);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("bytes allowed for queued input"), std::string::npos)
      << st.error_message();
  std::string id;
  ASSERT_TRUE(d.submit(d.job(2), &id).ok());
  v1::AwaitProofResponse r;
  ASSERT_TRUE(d.await(id, &r).ok());
  d.expect_valid(r, 2);
  const engine::EngineStatus s = d.daemon->engine().status();
  EXPECT_EQ(s.queued_input_bytes, 0u);
  EXPECT_EQ(s.retained_jobs, 1u);
  EXPECT_GT(s.retained_bytes, 0u);
}

TEST(ServiceAbuse, RetainedResultsAreBoundedInBytes) {
  CpuBackend backend(1);
  engine::EngineConfig cfg;
  cfg.synthesis_threads = 1;
  cfg.retained_bytes = 64 << 10;
  engine::Engine e(cfg, {&backend});
  std::vector<std::string> ids;
  const std::string pad(200, 'x');
  for (int i = 0; i < 400; i++) {  // each fails at once (unknown circuit) and holds ~0.5 KB
    engine::JobRequest r;
    r.circuit_id = "none";
    r.request_id = pad + std::to_string(i);
    r.partitions.resize(8);
    ids.push_back(e.submit(std::move(r)).job_id);
  }
  const engine::EngineStatus s = e.status();
  EXPECT_LE(s.retained_bytes, cfg.retained_bytes);
  EXPECT_LT(s.retained_jobs, 400u);
  EXPECT_FALSE(e.await(ids.front()));  // the oldest is forgotten
  ASSERT_TRUE(e.await(ids.back()));    // the newest is not
  EXPECT_EQ(e.await(ids.back())->state, engine::JobState::kFailed);
  EXPECT_EQ(s.memory_used, s.retained_bytes);  // what they hold is in the budget
}

TEST(ServiceAbuse, WaitingClientsAreBounded) {
  Daemon1 d("[limits]\nmax_waiting_clients = 2\n");
  std::vector<std::string> ids;
  for (int i = 0; i < 10; i++) {  // seconds of work on one CPU thread
    std::string id;
    ASSERT_TRUE(d.submit(d.job(8), &id).ok());
    ids.push_back(id);
  }
  std::vector<std::thread> waiters;
  std::atomic<int> ok{0};
  for (int i = 0; i < 2; i++)
    waiters.emplace_back([&] {
      v1::AwaitProofResponse r;
      if (d.await(ids.back(), &r).ok() && r.status() == v1::AwaitProofResponse::COMPLETED) ok++;
    });
  std::this_thread::sleep_for(test::scaled_ms(300));  // both waiters are waiting
  v1::AwaitProofResponse r;
  grpc::Status st = d.await(ids.back(), &r, 100);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("limits.max_waiting_clients"), std::string::npos) << st.error_message();
  // Other calls still answer.
  grpc::ClientContext ctx;
  v1::GetStatusResponse gs;
  EXPECT_TRUE(d.stub->GetStatus(&ctx, v1::GetStatusRequest(), &gs).ok());
  for (auto& t : waiters) t.join();
  EXPECT_EQ(ok, 2);
  ASSERT_TRUE(d.await(ids.back(), &r).ok());  // the slots are free again
  d.expect_valid(r, 8);
}

/// A client of `d` on a connection of its own (gRPC shares one connection between channels with the same
/// arguments unless told not to): another client as the daemon sees it.
std::unique_ptr<v1::ProvingEngine::Stub> other_client(const Daemon1& d, const std::string& addr = "") {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return v1::ProvingEngine::NewStub(
      grpc::CreateCustomChannel(addr.empty() ? "127.0.0.1:" + std::to_string(d.daemon->grpc_port()) : addr,
                                grpc::InsecureChannelCredentials(), args));
}

/// Threads of this process now (the daemon runs in it).
size_t thread_count() {
  return (size_t)std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                               std::filesystem::directory_iterator());
}

/// AwaitProof calls in flight on a completion queue (no client thread each).
struct ParkedAwaits {
  struct Call {
    grpc::ClientContext ctx;
    v1::AwaitProofResponse resp;
    grpc::Status status;
    std::unique_ptr<grpc::ClientAsyncResponseReader<v1::AwaitProofResponse>> reader;
    bool answered = false;
  };
  grpc::CompletionQueue cq;
  std::vector<std::unique_ptr<Call>> calls;
  size_t answered = 0;
  void start(v1::ProvingEngine::Stub& stub, const std::string& job_id) {
    auto c = std::make_unique<Call>();
    v1::AwaitProofRequest req;
    req.set_job_id(job_id);  // timeout_ms 0: until the job is final
    c->reader = stub.AsyncAwaitProof(&c->ctx, req, &cq);
    c->reader->Finish(&c->resp, &c->status, c.get());
    calls.push_back(std::move(c));
  }
  /// Collects the answers that come within `ms` (scaled).
  void collect(double ms) {
    const auto until = std::chrono::system_clock::now() + test::scaled_ms(ms);
    void* tag;
    bool ok;
    while (answered < calls.size() && cq.AsyncNext(&tag, &ok, until) == grpc::CompletionQueue::GOT_EVENT) {
      static_cast<Call*>(tag)->answered = true;
      answered++;
    }
  }
  /// Cancels every call not answered and waits for their answers.
  void cancel_all() {
    for (auto& c : calls)
      if (!c->answered) c->ctx.TryCancel();
    void* tag;
    bool ok;
    for (; answered < calls.size() && cq.Next(&tag, &ok); answered++)
      static_cast<Call*>(tag)->answered = true;
  }
  ~ParkedAwaits() { cq.Shutdown(); }
};

/// `n` GetStatus calls of `stub` at once: how many answered OK, and the slowest answer's time (ms).
std::pair<int, double> status_burst(v1::ProvingEngine::Stub& stub, int n) {
  struct S {
    grpc::ClientContext ctx;
    v1::GetStatusResponse resp;
    grpc::Status status;
    std::unique_ptr<grpc::ClientAsyncResponseReader<v1::GetStatusResponse>> reader;
  };
  grpc::CompletionQueue cq;
  std::vector<std::unique_ptr<S>> calls;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; i++) {
    auto c = std::make_unique<S>();
    c->reader = stub.AsyncGetStatus(&c->ctx, v1::GetStatusRequest(), &cq);
    c->reader->Finish(&c->resp, &c->status, c.get());
    calls.push_back(std::move(c));
  }
  void* tag;
  bool ok;
  for (int i = 0; i < n; i++) cq.Next(&tag, &ok);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  cq.Shutdown();
  int good = 0;
  for (auto& c : calls) good += c->status.ok();
  return {good, ms};
}

// Issue 36 N2: 1,024 AwaitProof(timeout_ms = 0) of one client took every waiting slot (every other
// client's AwaitProof and Prove got RESOURCE_EXHAUSTED), each held a server thread, and of 2,000 GetStatus
// calls next to them 493 were refused ("Server Threadpool Exhausted"). Now a client has its own cap
// (limits.max_waiting_per_client), waiting calls and GetStatus hold no server thread, and the other
// clients are served.
TEST(ServiceAbuse, OneClientsWaitingCallsLeaveRoomForTheOthers) {
  Daemon1 d("[limits]\nmax_waiting_clients = 64\nmax_waiting_per_client = 48\n");
  std::vector<std::string> ids;
  for (int i = 0; i < 24; i++) {  // seconds of work on one CPU thread, at low priority
    v1::SubmitProofRequest r = d.job(8);
    r.set_priority(v1::LOW);
    std::string id;
    ASSERT_TRUE(d.submit(r, &id).ok());
    ids.push_back(id);
  }
  auto a = other_client(d);
  auto b = other_client(d);
  const size_t threads0 = thread_count();
  // Client a asks for every slot of the daemon: 48 wait, the other 16 are refused at once, naming a's
  // own limit.
  ParkedAwaits parked;
  for (int i = 0; i < 64; i++) parked.start(*a, ids.back());
  parked.collect(1000);
  ASSERT_EQ(parked.answered, 16u);
  for (auto& c : parked.calls)
    if (c->answered) {
      EXPECT_EQ(c->status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
      EXPECT_NE(c->status.error_message().find("limits.max_waiting_per_client"), std::string::npos)
          << c->status.error_message();
    }
  // The waiting calls hold no server thread each (they used to: +48 here).
  EXPECT_LT(thread_count(), threads0 + 16) << "threads before: " << threads0;
  // Client b: 2,000 GetStatus at once are all answered, and then one more at once.
  const auto [good, burst_ms] = status_burst(*b, 2000);
  EXPECT_EQ(good, 2000);
  const auto t0 = std::chrono::steady_clock::now();
  {
    grpc::ClientContext ctx;
    v1::GetStatusResponse gs;
    EXPECT_TRUE(b->GetStatus(&ctx, v1::GetStatusRequest(), &gs).ok());
  }
  const double one_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("status_burst_2000_ms", std::to_string(burst_ms));
  RecordProperty("status_after_burst_ms", std::to_string(one_ms));
  EXPECT_LT(one_ms, (double)test::scaled_ms(500).count());
  // b's AwaitProof and Prove are served.
  {
    v1::AwaitProofRequest req;
    req.set_job_id(ids[ids.size() - 2]);
    req.set_timeout_ms(50);
    grpc::ClientContext ctx;
    v1::AwaitProofResponse r;
    EXPECT_TRUE(b->AwaitProof(&ctx, req, &r).ok());
    EXPECT_EQ(r.status(), v1::AwaitProofResponse::TIMEOUT);
  }
  v1::ProveRequest pr;
  *pr.mutable_submit() = d.job(1);
  pr.mutable_submit()->set_priority(v1::CRITICAL);
  v1::ProveResponse presp;
  grpc::ClientContext pctx;
  ASSERT_TRUE(b->Prove(&pctx, pr, &presp).ok());
  d.expect_valid(presp.result(), 1);
  // Client a's calls end when it goes away; its slots are free again.
  parked.cancel_all();
  int cancelled = 0;
  for (auto& c : parked.calls) cancelled += c->status.error_code() == grpc::StatusCode::CANCELLED;
  EXPECT_EQ(cancelled, 48);
  for (const std::string& id : ids) {
    grpc::ClientContext cctx;
    v1::CancelProofRequest creq;
    creq.set_job_id(id);
    v1::CancelProofResponse cresp;
    d.stub->CancelProof(&cctx, creq, &cresp);
  }
  grpc::ClientContext ctx;
  v1::AwaitProofRequest req;
  req.set_job_id(ids.back());
  v1::AwaitProofResponse r;
  ASSERT_TRUE(a->AwaitProof(&ctx, req, &r).ok());
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::CANCELLED);
}

// On a unix socket every connection has the same peer ("unix:"): there the calls waiting for one job
// count together against limits.max_waiting_per_client.
TEST(ServiceAbuse, OnAUnixSocketTheWaitingCallsOfOneJobAreCapped) {
  const std::string sock = "/tmp/cuzk-wait-" + std::to_string(getpid()) + ".sock";
  std::filesystem::remove(sock);
  Daemon1 d("[limits]\nmax_waiting_per_client = 2\n", "unix://" + sock);
  std::vector<std::string> ids;
  for (int i = 0; i < 12; i++) {
    std::string id;
    ASSERT_TRUE(d.submit(d.job(8), &id).ok());
    ids.push_back(id);
  }
  ParkedAwaits parked;
  for (int i = 0; i < 2; i++) parked.start(*d.stub, ids.back());
  parked.collect(300);  // they reach the daemon first
  ASSERT_EQ(parked.answered, 0u);
  v1::AwaitProofResponse r;
  const grpc::Status st = d.await(ids.back(), &r, 1);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("for this job"), std::string::npos) << st.error_message();
  ASSERT_TRUE(d.await(ids[ids.size() - 2], &r, 1).ok());  // another job's waiters count apart
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::TIMEOUT);
  parked.cancel_all();
  d.daemon->shutdown();
  std::filesystem::remove(sock);
}

// Issue 36 N3: a failed job was charged ~480 bytes per partition it no longer held, so 141 requests of
// 1,024 one-byte witnesses from one client pushed every retained result out, and another client's
// completed job answered NOT_FOUND. A failed job is charged what it holds now, and failures go before
// completed results (the owner with the most failures first).
TEST(ServiceAbuse, AnotherClientsFailuresDoNotFlushRetainedResults) {
  Daemon1 d;
  auto a = other_client(d);
  auto b = other_client(d);
  auto submit = [](v1::ProvingEngine::Stub& s, const v1::SubmitProofRequest& req) {
    grpc::ClientContext ctx;
    v1::SubmitProofResponse resp;
    EXPECT_TRUE(s.SubmitProof(&ctx, req, &resp).ok());
    return resp.job_id();
  };
  auto await = [](v1::ProvingEngine::Stub& s, const std::string& id, v1::AwaitProofResponse* r) {
    grpc::ClientContext ctx;
    v1::AwaitProofRequest req;
    req.set_job_id(id);
    return s.AwaitProof(&ctx, req, r);
  };
  const std::string done = submit(*a, d.job(1));
  v1::SubmitProofRequest bad = d.job(1);
  bad.set_witnesses(0, d.wtns.substr(0, 64));
  const std::string failed = submit(*a, bad);
  v1::AwaitProofResponse r;
  ASSERT_TRUE(await(*a, done, &r).ok());
  d.expect_valid(r, 1);
  ASSERT_TRUE(await(*a, failed, &r).ok());
  ASSERT_EQ(r.status(), v1::AwaitProofResponse::FAILED);
  const uint64_t before = d.daemon->engine().status().retained_bytes;
  v1::SubmitProofRequest flood;
  flood.set_circuit_id("mimc");
  for (int i = 0; i < 1024; i++) flood.add_witnesses(std::string(1, 'x'));
  std::string last;
  for (int i = 0; i < 150; i++) last = submit(*b, flood);  // ~450 KiB sent
  ASSERT_TRUE(await(*b, last, &r).ok());
  ASSERT_EQ(r.status(), v1::AwaitProofResponse::FAILED);
  const engine::EngineStatus s = d.daemon->engine().status();
  EXPECT_EQ(s.retained_jobs, 152u);
  // ~1 KiB per failed job, however many partitions it had (~480 KiB each before).
  RecordProperty("charged_bytes_per_failed_job", std::to_string((s.retained_bytes - before) / 150));
  EXPECT_LT(s.retained_bytes - before, 150u * 2048) << s.retained_bytes - before;
  ASSERT_TRUE(await(*a, done, &r).ok());
  d.expect_valid(r, 1);
  ASSERT_TRUE(await(*a, failed, &r).ok());
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::FAILED);
}

// Found by the soak (tests/soak): a client that leaves connections open (gRPC's own client does when a
// channel is dropped while it connects) made the daemon's descriptors grow for good. A connection with
// no call for limits.max_connection_idle_s is closed now; the client reconnects on its next call.
TEST(ServiceAbuse, IdleConnectionsAreClosed) {
  Daemon1 d("[limits]\nmax_connection_idle_s = 1\n");
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(d.daemon->grpc_port()),
                                     grpc::InsecureChannelCredentials());
  auto stub = v1::ProvingEngine::NewStub(channel);
  auto status_ok = [&] {
    grpc::ClientContext ctx;
    v1::GetStatusResponse gs;
    return stub->GetStatus(&ctx, v1::GetStatusRequest(), &gs).ok();
  };
  ASSERT_TRUE(status_ok());
  EXPECT_EQ(channel->GetState(false), GRPC_CHANNEL_READY);
  // The daemon closes the idle connection (GOAWAY) after about 1 s; the client's own idle limit is 30 min.
  const auto t0 = std::chrono::steady_clock::now();
  test::wait_until([&] { return channel->GetState(false) != GRPC_CHANNEL_READY; }, 5000,
                   std::chrono::milliseconds(50));
  EXPECT_NE(channel->GetState(false), GRPC_CHANNEL_READY)
      << "the idle connection is still open after " << test::scaled_ms(5000).count() << " ms";
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(500));  // not before the limit
  EXPECT_TRUE(status_ok());  // a new connection serves the next call
  try {
    parse_config("[limits]\nmax_connection_idle_s = 0\n", "t.toml", kData);
    ADD_FAILURE() << "max_connection_idle_s = 0 was accepted";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "t.toml: limits.max_connection_idle_s: must be between 1 and 86400, got 0");
  }
}

/// A TCP connection to 127.0.0.1:port that sends `bytes` and stays open (closed by the destructor).
struct Idle {
  Idle(int port, const std::string& bytes) {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && !bytes.empty())
      (void)!write(fd, bytes.data(), bytes.size());
  }
  ~Idle() { close(fd); }
  int fd = -1;
};

TEST(ServiceAbuse, HalfOpenHttpConnectionsDoNotBlockStatus) {
  Daemon1 d;
  const int port = d.daemon->http_port();
  std::vector<std::unique_ptr<Idle>> idle;
  for (int i = 0; i < 24; i++) idle.push_back(std::make_unique<Idle>(port, i % 2 ? "GET /sta" : ""));
  const auto t0 = std::chrono::steady_clock::now();
  httplib::Client http("127.0.0.1", port);
  http.set_read_timeout(10, 0);
  auto res = http.Get("/status");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_LT(s, 6.0);
}

TEST(ServiceAbuse, APortOrSocketInUseStopsTheSecondDaemon) {
  Daemon1 a;
  const std::string port = std::to_string(a.daemon->grpc_port());
  ServiceConfig c = a.cfg;
  c.listen = "127.0.0.1:" + port;
  c.status_listen = "";
  try {
    Daemon b(c);
    ADD_FAILURE() << "a second daemon listens on port " << port;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);  // `cuzk serve` exits 2
    EXPECT_NE(std::string(e.what()).find("daemon.listen: cannot listen on 127.0.0.1:" + port),
              std::string::npos)
        << e.what();
  }
  c.listen = "127.0.0.1:0";
  c.status_listen = "127.0.0.1:" + std::to_string(a.daemon->http_port());
  EXPECT_THROW(Daemon b(c), Error);
  // A unix socket: the second daemon stops, the first still serves.
  const std::string sock = "/tmp/cuzk-abuse-" + std::to_string(getpid()) + ".sock";
  std::filesystem::remove(sock);
  {
    Daemon1 u("", "unix://" + sock);
    ServiceConfig c2 = u.cfg;
    c2.status_listen = "";
    try {
      Daemon b(c2);
      ADD_FAILURE() << "a second daemon took over " << sock;
    } catch (const Error& e) {
      // The first holds the socket's lock (issue 36 N6: two started at once both listened before).
      EXPECT_NE(std::string(e.what()).find("cannot listen on unix://" + sock + ": another daemon holds " +
                                           sock + ".lock"),
                std::string::npos)
          << e.what();
    }
    std::string id;
    ASSERT_TRUE(u.submit(u.job(1), &id).ok());
    v1::AwaitProofResponse r;
    ASSERT_TRUE(u.await(id, &r).ok());
    u.expect_valid(r, 1);
    u.daemon->shutdown();
  }
  // A socket file nobody answers on (a daemon that died) is replaced.
  {
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
    std::filesystem::remove(sock);
    ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    close(fd);  // bound, never listened: a stale socket file
  }
  Daemon1 again("", "unix://" + sock);
  std::string id;
  EXPECT_TRUE(again.submit(again.job(1), &id).ok());
  again.daemon->shutdown();
  std::filesystem::remove(sock);
  std::filesystem::remove(sock + ".lock");
}

TEST(ServiceAbuse, LogLinesEscapeAndCutClientText) {
  engine::LogEvent ev{
      engine::LogLevel::kInfo,
      "job_submitted",
      {{"request_id", "a\nfake_event job=x\r\x1b[31m"}, {"circuit", std::string(10 << 20, 'c')}}};
  const std::string line = ev.logfmt();
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.find('\r'), std::string::npos);
  EXPECT_EQ(line.find('\x1b'), std::string::npos);
  // printable's \x escapes, then logfmt's quoting (a backslash doubled).
  EXPECT_NE(line.find("request_id=\"a\\\\x0afake_event job=x\\\\x0d\\\\x1b[31m\""), std::string::npos)
      << line;
  EXPECT_LT(line.size(), 700u);
  EXPECT_NE(line.find("...(10485760 bytes)"), std::string::npos);
  EXPECT_EQ(engine::printable("back\\slash\t\"q\""), "back\\slash\\x09\"q\"");
  EXPECT_EQ(engine::printable(engine::printable("a\nb")), "a\\x0ab");  // idempotent
  EXPECT_EQ(engine::LogEvent({engine::LogLevel::kInfo, "e", {{"k", "a\\\"b"}}}).logfmt(),
            "e k=\"a\\\\\\\"b\"");
}

/// A fault injected in the middle of a job (the backend's start() call, synthesis, finalize) fails that
/// job only, naming the partition; no job hangs, the workers go on and the next jobs complete.
TEST(ServiceFaults, AnInjectedFailureFailsOnlyItsJob) {
  Daemon1 d;
  const std::pair<FaultPoint, std::string> points[] = {{FaultPoint::kBackendStart, "CUZK_FAIL_BACKEND_START"},
                                                       {FaultPoint::kSynthesis, "CUZK_FAIL_SYNTHESIS"},
                                                       {FaultPoint::kFinalize, "CUZK_FAIL_FINALIZE"}};
  for (const auto& [point, env] : points) {
    SCOPED_TRACE(env);
    inject_fault(point, 2);  // the second partition of the next job
    std::string failed;
    ASSERT_TRUE(d.submit(d.job(3), &failed).ok());
    v1::AwaitProofResponse r;
    ASSERT_TRUE(d.await(failed, &r, 60000).ok());
    ASSERT_EQ(r.status(), v1::AwaitProofResponse::FAILED) << r.error_message();  // not TIMEOUT
    EXPECT_NE(r.error_message().find("failure injected by " + env), std::string::npos) << r.error_message();
    EXPECT_EQ(r.error_message().rfind("partition ", 0), 0u) << r.error_message();
    for (int j = 0; j < 2; j++) {
      std::string next;
      ASSERT_TRUE(d.submit(d.job(2), &next).ok());
      ASSERT_TRUE(d.await(next, &r, 60000).ok());
      d.expect_valid(r, 2);
    }
  }
  const engine::EngineStatus s = d.daemon->engine().status();
  EXPECT_EQ(s.jobs_failed, 3u);
  EXPECT_EQ(s.jobs_completed, 6u);
  EXPECT_EQ(s.partitions_in_flight, 0u);
}

}  // namespace
}  // namespace cuzk::service
