// The daemon's library (src/service) over real gRPC on loopback: configuration errors, many concurrent
// clients with random cancels (every job not cancelled gets a valid proof, the counters add up),
// failures confined to their job, a memory budget below two partitions, SRS preload/evict, metrics.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <fstream>
#include <iterator>
#include <random>
#include <thread>

#include "../timing.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/loaders.hpp"
#include "engine/synthesis.hpp"
#include "formats/c1.hpp"
#include "formats/fake_c1.hpp"
#include "formats/proof_zcash.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "service/config.hpp"
#include "service/daemon.hpp"
#include "util/error.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
const std::string kData = std::string(CUZK_SOURCE_DIR) + "/tests/data/";

std::string file_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string config_error(const std::string& toml) {
  try {
    parse_config(toml, "t.toml", kData);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ServiceConfig, ReadsTheExampleWithCuzksKeys) {
  ServiceConfig c = load_config(std::string(CUZK_SOURCE_DIR) + "/examples/cuzk.toml");
  EXPECT_EQ(c.listen, "127.0.0.1:9820");
  EXPECT_EQ(c.status_listen, "127.0.0.1:9821");
  EXPECT_EQ(c.gpu_workers_per_device, 2u);
  EXPECT_GE(c.memory_budget_bytes, 1ull << 30);
  ASSERT_EQ(c.circuits.size(), 2u);
  EXPECT_EQ(c.circuits[0].id, "mimc");
  EXPECT_TRUE(std::filesystem::exists(c.circuits[0].zkey));
  const ServiceConfig d = parse_config("", "empty.toml", ".");
  EXPECT_EQ(d.listen, "unix:///run/curio/cuzk.sock");  // cuzk's default
  EXPECT_EQ(d.engine_config().gpu_workers_per_device, 2u);
}

TEST(ServiceConfig, BadValuesNameTheKeyAndTheProblem) {
  EXPECT_EQ(config_error("[gpus]\ngpu_workers_per_device = 0\n"),
            "t.toml: gpus.gpu_workers_per_device: must be between 1 and 64, got 0");
  EXPECT_EQ(config_error("[gpus]\ndevices = \"all\"\n"),
            "t.toml: gpus.devices: expected an array of GPU ordinals, e.g. [0, 1]");
  EXPECT_EQ(config_error("[daemon]\nlisten = 9820\n"), "t.toml: daemon.listen: expected a string");
  EXPECT_NE(config_error("[daemon]\nlisten = \"localhost\"\n")
                .find("daemon.listen: \"localhost\" is not an address"),
            std::string::npos);
  EXPECT_NE(config_error("[memory]\ntotal_budget = \"3 apples\"\n")
                .find("memory.total_budget: \"3 apples\" is not a size"),
            std::string::npos);
  // A port of more digits than stoul takes (fuzz/corpus/config/regression-long-port) is a named error.
  EXPECT_NE(config_error("[daemon]\nstatus_listen = \"127.0.0.1:44444444444444444444444\"\n")
                .find("has no valid port (0..65535)"),
            std::string::npos);
  EXPECT_EQ(config_error("[pipeline]\nfoo = 1\n"), "t.toml: pipeline.foo: unknown key");
  // cluster.max_queued_bytes (issue 36 N10): a size, or "auto" (the node's limits.max_queued_bytes)
  const std::string db = "[cluster]\ndatabase = \"postgresql:///x\"\n";
  EXPECT_EQ(parse_config(db, "t.toml", kData).cluster.max_queued_bytes, 0u);
  EXPECT_EQ(parse_config(db + "max_queued_bytes = \"64KiB\"\n", "t.toml", kData).cluster.max_queued_bytes,
            64u << 10);
  EXPECT_EQ(config_error(db + "max_queued_bytes = \"0\"\n"),
            "t.toml: cluster.max_queued_bytes: must be a size above 0, or \"auto\"");
  EXPECT_EQ(config_error("[logging]\nlevel = \"loud\"\n"),
            "t.toml: logging.level: \"loud\" is not a level: trace, debug, info, warn, error or off");
  EXPECT_NE(config_error("[[circuits]]\nid = \"x\"\nzkey = \"missing.zkey\"\n").find("circuits[0].zkey:"),
            std::string::npos);
  EXPECT_EQ(config_error("[[circuits]]\nid = \"x\"\nkind = \"plonk\"\n"),
            "t.toml: circuits[0].kind: \"plonk\" is not a kind: circom or bellperson");
  EXPECT_NE(config_error("[daemon\n").find("t.toml:1:"), std::string::npos);
  EXPECT_EQ(config_error("[scheduler]\ndeadline_lead_s = -5\n"),
            "t.toml: scheduler.deadline_lead_s: must be between 0 and 86400, got -5");
}

/// A daemon on a free loopback port serving mimc and tiny, and a client stub.
struct Served {
  explicit Served(const std::string& extra = "") {
    cfg = parse_config(
        "[daemon]\nlisten = \"127.0.0.1:0\"\nstatus_listen = \"127.0.0.1:0\"\n"
        "[gpus]\ngpu_threads = 1\n[synthesis]\nthreads = 1\n[logging]\nlevel = \"warn\"\n" +
            extra +
            "[[circuits]]\nid = \"mimc\"\nzkey = \"mimc/mimc_dev.zkey\"\n"
            "[[circuits]]\nid = \"tiny\"\nzkey = \"tiny/mul_final.zkey\"\n",
        "test.toml", kData);
    daemon = std::make_unique<Daemon>(cfg);
    stub = v1::ProvingEngine::NewStub(grpc::CreateChannel("127.0.0.1:" + std::to_string(daemon->grpc_port()),
                                                          grpc::InsecureChannelCredentials()));
    vk = engine::load_circom(kData + "mimc/mimc_dev.zkey").key->verifying_key();
    tiny_vk = engine::load_circom(kData + "tiny/mul_final.zkey").key->verifying_key();
  }
  v1::SubmitProofRequest job(int partitions, const std::string& circuit = "mimc") const {
    v1::SubmitProofRequest r;
    r.set_circuit_id(circuit);
    r.set_proof_kind(v1::CIRCOM_GROTH16);
    for (int i = 0; i < partitions; i++) r.add_witnesses(circuit == "tiny" ? tiny_wtns : mimc_wtns);
    return r;
  }
  v1::AwaitProofResponse prove(const v1::SubmitProofRequest& sub) {
    v1::ProveRequest req;
    *req.mutable_submit() = sub;
    v1::ProveResponse resp;
    grpc::ClientContext ctx;
    EXPECT_TRUE(stub->Prove(&ctx, req, &resp).ok());
    return resp.result();
  }
  /// Every partition's proof verifies, and the zcash bytes hold the same proofs as the JSON.
  void expect_valid(const v1::AwaitProofResponse& r, int partitions,
                    const std::string& circuit = "mimc") const {
    ASSERT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
    ASSERT_EQ(r.proof_json_size(), partitions);
    ASSERT_EQ(r.proof().size(), (size_t)partitions * kProofZcashBytes);
    auto bin = decode_proofs_zcash(
        std::span<const uint8_t>((const uint8_t*)r.proof().data(), r.proof().size()), "proof");
    for (int i = 0; i < partitions; i++) {
      const Groth16Proof p = proof_from_json(r.proof_json(i));
      EXPECT_EQ(p, bin[i]);
      EXPECT_TRUE(verify(circuit == "tiny" ? tiny_vk : vk, public_from_json(r.public_json(i)), p));
    }
  }
  ServiceConfig cfg;
  std::unique_ptr<Daemon> daemon;
  std::unique_ptr<v1::ProvingEngine::Stub> stub;
  VerifyingKey vk, tiny_vk;
  std::string mimc_wtns = file_text(kData + "mimc/mimc.wtns");
  std::string tiny_wtns = file_text(kData + "tiny/mul.wtns");
};

TEST(ServiceGrpc, ProveReturnsVerifiedProofsInBothEncodings) {
  Served s;
  v1::AwaitProofResponse r = s.prove(s.job(3));
  s.expect_valid(r, 3);
  EXPECT_EQ(r.partitions(), 3u);
  EXPECT_EQ(r.public_json(0), file_text(kData + "mimc/public.json"));
  EXPECT_GT(r.total_ms(), 0u);
}

TEST(ServiceGrpc, ManyClientsWithRandomCancels) {
  Served s;
  constexpr int kClients = 4, kJobs = 30;
  std::atomic<int> cancelled{0}, completed{0};
  std::string first_job;  // client 0's first job (request id "client0-0"), its request, whether cancelled
  v1::SubmitProofRequest first_req;
  bool first_cancelled = false;
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; c++)
    clients.emplace_back([&, c] {
      auto stub = v1::ProvingEngine::NewStub(grpc::CreateChannel(
          "127.0.0.1:" + std::to_string(s.daemon->grpc_port()), grpc::InsecureChannelCredentials()));
      std::mt19937 rng(100 + c);
      std::vector<std::pair<std::string, bool>> ids;
      for (int j = 0; j < kJobs; j++) {
        v1::SubmitProofRequest req = s.job(1 + rng() % 2, "tiny");
        req.set_priority(v1::Priority(1 + rng() % 4));
        req.set_request_id("client" + std::to_string(c) + "-" + std::to_string(j));
        v1::SubmitProofResponse sub;
        grpc::ClientContext ctx;
        ASSERT_TRUE(stub->SubmitProof(&ctx, req, &sub).ok());
        const bool cancel = rng() % 4 == 0;
        if (cancel) {
          grpc::ClientContext cctx;
          v1::CancelProofRequest creq;
          creq.set_job_id(sub.job_id());
          v1::CancelProofResponse cresp;
          ASSERT_TRUE(stub->CancelProof(&cctx, creq, &cresp).ok());
          EXPECT_TRUE(cresp.found());
        }
        if (c == 0 && j == 0) {
          first_job = sub.job_id();
          first_req = req;
          first_cancelled = cancel;
        }
        ids.emplace_back(sub.job_id(), cancel);
      }
      for (const auto& [id, cancel] : ids) {
        grpc::ClientContext ctx;
        v1::AwaitProofRequest req;
        req.set_job_id(id);
        v1::AwaitProofResponse r;
        ASSERT_TRUE(stub->AwaitProof(&ctx, req, &r).ok());
        if (r.status() == v1::AwaitProofResponse::CANCELLED) {
          EXPECT_TRUE(cancel);
          cancelled++;
        } else {
          s.expect_valid(r, r.partitions(), "tiny");
          completed++;
        }
      }
    });
  for (auto& t : clients) t.join();
  EXPECT_GT(cancelled, 0);
  grpc::ClientContext ctx;
  v1::GetStatusResponse st;
  ASSERT_TRUE(s.stub->GetStatus(&ctx, v1::GetStatusRequest(), &st).ok());
  EXPECT_EQ(st.total_jobs_submitted(), (uint64_t)kClients * kJobs);
  EXPECT_EQ(st.total_proofs_completed(), (uint64_t)completed);
  EXPECT_EQ(st.total_proofs_cancelled(), (uint64_t)cancelled);
  EXPECT_EQ(st.total_proofs_failed(), 0u);
  // Resubmitting a request under its request id returns its job and queues nothing, unless the job was
  // cancelled (then it is a retry: a new job); another request under the id is refused.
  grpc::ClientContext c2;
  v1::SubmitProofResponse sub;
  ASSERT_TRUE(s.stub->SubmitProof(&c2, first_req, &sub).ok());
  if (first_cancelled)
    EXPECT_NE(sub.job_id(), first_job);
  else
    EXPECT_EQ(sub.job_id(), first_job);
  v1::SubmitProofRequest other = s.job(1);
  other.set_request_id("client0-0");
  grpc::ClientContext c3;
  EXPECT_EQ(s.stub->SubmitProof(&c3, other, &sub).error_code(), grpc::StatusCode::ALREADY_EXISTS);
}

TEST(ServiceGrpc, DeadlinesOrderJobsAndAreNotPartOfTheRequestId) {
  // A lead of an hour: a deadline 10 minutes away is near.
  Served s("[scheduler]\ndeadline_lead_s = 3600\n");
  EXPECT_EQ(s.cfg.engine_config().deadline_lead_s, 3600.0);
  std::vector<std::string> ahead;
  for (int i = 0; i < 5; i++) {
    v1::SubmitProofRequest r = s.job(1);
    r.set_priority(v1::CRITICAL);
    grpc::ClientContext ctx;
    v1::SubmitProofResponse resp;
    ASSERT_TRUE(s.stub->SubmitProof(&ctx, r, &resp).ok());
    ahead.push_back(resp.job_id());
  }
  v1::SubmitProofRequest due = s.job(1);
  due.set_request_id("wpost-deadline");
  due.set_priority(v1::LOW);
  const auto ms = [](std::chrono::system_clock::time_point t) {
    return (uint64_t)std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  };
  due.set_deadline_unix_ms(ms(std::chrono::system_clock::now() + std::chrono::minutes(10)));
  grpc::ClientContext ctx;
  v1::SubmitProofResponse sub;
  ASSERT_TRUE(s.stub->SubmitProof(&ctx, due, &sub).ok());
  // Urgent: only what the synthesis worker holds may run before it (four critical jobs are queued).
  EXPECT_LE(sub.queue_position(), 1u);
  // The same request with another deadline is the same job (a deadline says when, not what).
  due.set_deadline_unix_ms(ms(std::chrono::system_clock::now() + std::chrono::minutes(20)));
  grpc::ClientContext ctx2;
  v1::SubmitProofResponse again;
  ASSERT_TRUE(s.stub->SubmitProof(&ctx2, due, &again).ok());
  EXPECT_EQ(again.job_id(), sub.job_id());
  auto await = [&](const std::string& id) {
    v1::AwaitProofRequest a;
    a.set_job_id(id);
    v1::AwaitProofResponse r;
    grpc::ClientContext c;
    EXPECT_TRUE(s.stub->AwaitProof(&c, a, &r).ok());
    return r;
  };
  const v1::AwaitProofResponse u = await(sub.job_id());
  s.expect_valid(u, 1);
  const v1::AwaitProofResponse last = await(ahead.back());
  s.expect_valid(last, 1);
  EXPECT_LT(u.queue_wait_ms(), last.queue_wait_ms());
}

TEST(ServiceGrpc, FailuresStayInTheirJob) {
  Served s;
  v1::SubmitProofRequest corrupt = s.job(2);
  corrupt.set_witnesses(1, corrupt.witnesses(1).substr(0, 64));
  v1::AwaitProofResponse r = s.prove(corrupt);
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::FAILED);
  EXPECT_NE(r.error_message().find("partition 1:"), std::string::npos) << r.error_message();
  r = s.prove(s.job(1, "no-such"));
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::FAILED);
  EXPECT_EQ(r.error_message(), "unknown circuit \"no-such\"");
  s.expect_valid(s.prove(s.job(1)), 1);
  // Request-level refusals are gRPC errors: a PoSt request without its fields names the first missing.
  v1::SubmitProofRequest post;
  post.set_proof_kind(v1::WINNING_POST);
  v1::SubmitProofResponse sub;
  grpc::ClientContext c1;
  const grpc::Status st = s.stub->SubmitProof(&c1, post, &sub);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("randomness: 0 bytes; PoSt randomness is 32"), std::string::npos)
      << st.error_message();
  v1::SubmitProofRequest wrong_kind = s.job(1);
  wrong_kind.set_proof_kind(v1::BELLPERSON_GROTH16);
  grpc::ClientContext c2;
  EXPECT_EQ(s.stub->SubmitProof(&c2, wrong_kind, &sub).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  grpc::ClientContext c3;
  v1::AwaitProofRequest aw;
  aw.set_job_id("job-nope");
  v1::AwaitProofResponse ar;
  EXPECT_EQ(s.stub->AwaitProof(&c3, aw, &ar).error_code(), grpc::StatusCode::NOT_FOUND);
}

/// SubmitProof's status for `req`, its message in `*msg`.
grpc::StatusCode submit_status(Served& s, const v1::SubmitProofRequest& req, std::string* msg) {
  v1::SubmitProofResponse sub;
  grpc::ClientContext ctx;
  const grpc::Status st = s.stub->SubmitProof(&ctx, req, &sub);
  *msg = st.error_message();
  return st.error_code();
}

TEST(ServiceGrpc, PorepRequestsAreCheckedAtSubmit) {
  // No srs.param_cache: a good C1 is refused as the daemon's state; bad requests as the client's.
  Served s;
  std::string msg;
  v1::SubmitProofRequest porep;
  porep.set_proof_kind(v1::POREP_SEAL_COMMIT);
  EXPECT_EQ(submit_status(s, porep, &msg), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(msg.find("vanilla_proof is empty"), std::string::npos) << msg;
  porep.set_vanilla_proof("{\"registered_proof\": 7");
  EXPECT_EQ(submit_status(s, porep, &msg), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(msg.rfind("vanilla_proof: ", 0), 0u) << msg;
  const FakeSector fs = make_fake_sector("StackedDrg2KiBV1_1", 1);
  porep.set_vanilla_proof(write_c1_json(fs.c1));
  porep.set_registered_proof(5);
  porep.set_sector_size(2048);
  EXPECT_EQ(submit_status(s, porep, &msg), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(msg.find("srs.param_cache is not set"), std::string::npos) << msg;
  // A comm_r that is not Poseidon(comm_c, comm_r_last) is the client's fault, refused before the daemon
  // looks for the key (issue 36 N4: it was accepted, and failed once the partitions were synthesized).
  FakeSector bad = fs;
  bad.c1.comm_r[0] ^= 1;
  porep.set_vanilla_proof(write_c1_json(bad.c1));
  EXPECT_EQ(submit_status(s, porep, &msg), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(msg.rfind("vanilla_proof: comm_r ", 0), 0u) << msg;
  EXPECT_NE(msg.find("is not Poseidon(comm_c, comm_r_last)"), std::string::npos) << msg;
  porep.set_vanilla_proof(write_c1_json(fs.c1));
  porep.set_registered_proof(0);  // registered_proof 0 (StackedDrg2KiBV1) with a sector size: checked
  EXPECT_EQ(submit_status(s, porep, &msg), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(msg.find("registered_proof 0 (StackedDrg2KiBV1) disagrees with the C1's registered proof "
                     "StackedDrg2KiBV1_1 (id 5, 2048-byte sectors)"),
            std::string::npos)
      << msg;
  porep.set_registered_proof(99);
  EXPECT_EQ(submit_status(s, porep, &msg), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(msg.find("registered_proof 99 (not a registered seal proof (0..19))"), std::string::npos) << msg;
  porep.add_witnesses("x");
  EXPECT_EQ(submit_status(s, porep, &msg), grpc::StatusCode::INVALID_ARGUMENT);
  // cuzk's PoRep circuit ids: PreloadSRS says what is missing.
  v1::PreloadSrsRequest pre;
  pre.set_circuit_id("porep-32g");
  v1::PreloadSrsResponse pr;
  grpc::ClientContext ctx;
  const grpc::Status st = s.stub->PreloadSRS(&ctx, pre, &pr);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(st.error_message().find("32GiB PoRep circuit"), std::string::npos) << st.error_message();
  // The daemon still serves.
  s.expect_valid(s.prove(s.job(1)), 1);
}

TEST(ServiceConfig, ParamCacheAndSubgroupCheck) {
  const ServiceConfig c =
      parse_config("[srs]\nparam_cache = \"mimc\"\nverify_subgroup = false\n", "t.toml", kData);
  EXPECT_EQ(c.param_cache, std::filesystem::path(kData) / "mimc");
  EXPECT_FALSE(c.verify_subgroup);
  EXPECT_TRUE(parse_config("", "t.toml", kData).verify_subgroup);
  EXPECT_NE(config_error("[srs]\nparam_cache = \"no-such-folder\"\n").find("srs.param_cache: "),
            std::string::npos);
  EXPECT_EQ(config_error("[srs]\nverify_subgroup = 1\n"),
            "t.toml: srs.verify_subgroup: expected true or false");
  EXPECT_EQ(
      config_error("[[circuits]]\nid = \"porep-32g\"\nzkey = \"mimc/mimc_dev.zkey\"\n"),
      "t.toml: circuits[0].id: \"porep-32g\" is the id of the daemon's PoRep circuit of that size (from "
      "srs.param_cache)");
  EXPECT_EQ(config_error("[[circuits]]\nid = \"wpost-2k\"\nzkey = \"mimc/mimc_dev.zkey\"\n"),
            "t.toml: circuits[0].id: \"wpost-2k\" is the id of the daemon's WindowPoSt circuit of that size "
            "(from srs.param_cache)");
  for (const char* id : {"winning-32g", "snap-64g", "porep-8m"})
    EXPECT_NE(config_error(std::string("[[circuits]]\nid = \"") + id + "\"\nzkey = \"mimc/mimc_dev.zkey\"\n")
                  .find("is the id of the daemon's"),
              std::string::npos)
        << id;
  // an id that only looks alike is the operator's to use
  EXPECT_EQ(parse_config("[[circuits]]\nid = \"wpost-2kx\"\nzkey = \"mimc/mimc_dev.zkey\"\n", "t.toml", kData)
                .circuits.size(),
            1u);
}

TEST(ServiceGrpc, MemoryBudgetBelowTwoPartitionsCompletesEveryJob) {
  const engine::LoadedCircuit c = engine::load_circom(kData + "mimc/mimc_dev.zkey");
  const uint64_t budget = engine::resident_bytes(c) + engine::partition_bytes(*c.cs) * 3 / 2;
  Served s("[memory]\ntotal_budget = \"" + std::to_string(budget) +
           "\"\n[pipeline]\nmax_parallel_synthesis = 2\nsynthesis_lookahead = 2\n");
  std::vector<std::thread> ts;
  for (int i = 0; i < 4; i++) ts.emplace_back([&] { s.expect_valid(s.prove(s.job(2)), 2); });
  for (auto& t : ts) t.join();
  const engine::EngineStatus st = s.daemon->engine().status();
  EXPECT_EQ(st.partitions_in_flight_peak, 1u);
  EXPECT_EQ(st.jobs_completed, 4u);
}

TEST(ServiceGrpc, PreloadEvictStatusAndMetrics) {
  Served s;
  grpc::ClientContext c1;
  v1::PreloadSrsRequest pre;
  pre.set_circuit_id("tiny");
  v1::PreloadSrsResponse pr;
  ASSERT_TRUE(s.stub->PreloadSRS(&c1, pre, &pr).ok());
  EXPECT_FALSE(pr.already_loaded());
  grpc::ClientContext c2;
  ASSERT_TRUE(s.stub->PreloadSRS(&c2, pre, &pr).ok());
  EXPECT_TRUE(pr.already_loaded());
  grpc::ClientContext c3;
  v1::GetStatusResponse st;
  ASSERT_TRUE(s.stub->GetStatus(&c3, v1::GetStatusRequest(), &st).ok());
  ASSERT_EQ(st.loaded_srs_size(), 2);
  EXPECT_EQ(st.loaded_srs(0).circuit_id(), "mimc");
  EXPECT_EQ(st.loaded_srs(0).tier(), v1::SRSStatus::COLD);
  EXPECT_EQ(st.loaded_srs(1).tier(), v1::SRSStatus::HOT);
  ASSERT_EQ(st.gpus_size(), 1);
  EXPECT_EQ(st.gpus(0).name(), "cpu");
  grpc::ClientContext c4;
  v1::EvictSrsRequest ev;
  ev.set_circuit_id("tiny");
  v1::EvictSrsResponse er;
  ASSERT_TRUE(s.stub->EvictSRS(&c4, ev, &er).ok());
  EXPECT_TRUE(er.was_loaded());
  EXPECT_GT(er.freed_bytes(), 0u);
  grpc::ClientContext c5;
  ev.set_circuit_id("nope");
  EXPECT_EQ(s.stub->EvictSRS(&c5, ev, &er).error_code(), grpc::StatusCode::NOT_FOUND);

  s.expect_valid(s.prove(s.job(1)), 1);
  grpc::ClientContext c6;
  v1::GetMetricsResponse m;
  ASSERT_TRUE(s.stub->GetMetrics(&c6, v1::GetMetricsRequest(), &m).ok());
  EXPECT_NE(m.prometheus_text().find("cuzk_jobs_total{state=\"completed\"} 1"), std::string::npos);
  httplib::Client http("127.0.0.1", s.daemon->http_port());
  auto res = http.Get("/metrics");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(res->body.find("cuzk_partition_synthesis_ms_count 1"), std::string::npos);
  res = http.Get("/status");
  ASSERT_TRUE(res);
  EXPECT_NE(res->body.find("\"completed\": 1"), std::string::npos) << res->body;
}

TEST(ServiceGrpc, ShutdownCancelsQueuedJobsAndAnswersWaitingClients) {
  Served s;
  std::vector<std::string> ids;
  for (int i = 0; i < 10; i++) {
    grpc::ClientContext ctx;
    v1::SubmitProofResponse sub;
    ASSERT_TRUE(s.stub->SubmitProof(&ctx, s.job(2), &sub).ok());
    ids.push_back(sub.job_id());
  }
  std::atomic<int> answered{0};
  std::thread waiter([&] {
    grpc::ClientContext ctx;
    v1::AwaitProofRequest req;
    req.set_job_id(ids.back());
    v1::AwaitProofResponse r;
    if (s.stub->AwaitProof(&ctx, req, &r).ok() && r.status() == v1::AwaitProofResponse::CANCELLED) answered++;
  });
  std::this_thread::sleep_for(test::scaled_ms(100));  // the waiter's AwaitProof gets there first
  s.daemon->shutdown();
  waiter.join();
  EXPECT_EQ(answered, 1);
  const engine::EngineStatus st = s.daemon->engine().status();
  EXPECT_EQ(st.jobs_completed + st.jobs_cancelled, 10u);
  EXPECT_FALSE(st.accepting);
}

TEST(ServiceGrpc, UnixSocket) {
  const std::string sock = "/tmp/cuzk-test-" + std::to_string(getpid()) + ".sock";
  ServiceConfig cfg = parse_config(
      "[daemon]\nlisten = \"unix://" + sock +
          "\"\n[logging]\nlevel = \"warn\"\n[[circuits]]\nid = \"tiny\"\nzkey = \"tiny/mul_final.zkey\"\n",
      "t.toml", kData);
  Daemon d(cfg);
  auto stub =
      v1::ProvingEngine::NewStub(grpc::CreateChannel("unix://" + sock, grpc::InsecureChannelCredentials()));
  v1::ProveRequest req;
  req.mutable_submit()->set_circuit_id("tiny");
  req.mutable_submit()->add_witnesses(file_text(kData + "tiny/mul.wtns"));
  v1::ProveResponse resp;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub->Prove(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.result().status(), v1::AwaitProofResponse::COMPLETED) << resp.result().error_message();
  const VerifyingKey vk = engine::load_circom(kData + "tiny/mul_final.zkey").key->verifying_key();
  EXPECT_TRUE(verify(vk, public_from_json(resp.result().public_json(0)),
                     proof_from_json(resp.result().proof_json(0))));
  d.shutdown();
  std::filesystem::remove(sock);
  std::filesystem::remove(sock + ".lock");
}

}  // namespace
}  // namespace cuzk::service
