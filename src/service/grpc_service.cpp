#include "service/grpc_service.hpp"

#include "formats/proof_zcash.hpp"
#include "formats/snarkjs_json.hpp"
#include "util/error.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
using grpc::ServerContext;
using grpc::Status;
using grpc::StatusCode;

Status error_status(const std::exception& e) {
  if (auto* ce = dynamic_cast<const Error*>(&e)) {
    switch (ce->code()) {
      case ErrorCode::kInvalidArgument:
      case ErrorCode::kInvalidEncoding:
      case ErrorCode::kInvalidFile:
        return Status(StatusCode::FAILED_PRECONDITION, e.what());
      case ErrorCode::kIo:
        return Status(StatusCode::UNAVAILABLE, e.what());
      default:
        break;
    }
  }
  return Status(StatusCode::INTERNAL, e.what());
}

class ProvingService final : public v1::ProvingEngine::Service {
 public:
  ProvingService(engine::Engine& e, PorepJobs& porep, PostJobs& post)
      : engine_(e), porep_(porep), post_(post) {}

  Status SubmitProof(ServerContext*, const v1::SubmitProofRequest* req,
                     v1::SubmitProofResponse* resp) override {
    return submit(*req, resp);
  }

  Status AwaitProof(ServerContext* ctx, const v1::AwaitProofRequest* req,
                    v1::AwaitProofResponse* resp) override {
    return await(ctx, req->job_id(), req->timeout_ms(), resp);
  }

  Status Prove(ServerContext* ctx, const v1::ProveRequest* req, v1::ProveResponse* resp) override {
    v1::SubmitProofResponse sub;
    if (Status s = submit(req->submit(), &sub); !s.ok()) return s;
    return await(ctx, sub.job_id(), 0, resp->mutable_result());
  }

  Status CancelProof(ServerContext*, const v1::CancelProofRequest* req,
                     v1::CancelProofResponse* resp) override {
    std::optional<bool> r = engine_.cancel(req->job_id());
    resp->set_found(r.has_value());
    resp->set_was_running(r.value_or(false));
    return Status::OK;
  }

  Status GetStatus(ServerContext*, const v1::GetStatusRequest*, v1::GetStatusResponse* resp) override {
    const engine::EngineStatus s = engine_.status();
    for (const auto& d : s.devices) {
      v1::GPUStatus* g = resp->add_gpus();
      g->set_ordinal(d.ordinal);
      g->set_name(d.name);
      g->set_current_job_id(d.current_job_id);
      g->set_current_proof_kind(d.current_kind);
      g->set_busy_fraction(d.busy_fraction);
    }
    for (const auto& c : s.circuits) {
      v1::SRSStatus* r = resp->add_loaded_srs();
      r->set_circuit_id(c.id);
      r->set_tier(c.resident ? v1::SRSStatus::HOT : v1::SRSStatus::COLD);
      r->set_size_bytes(c.bytes);
      r->set_ref_count(c.ref_count);
    }
    for (const auto& k : s.kinds) {
      v1::QueueStatus* q = resp->add_queues();
      q->set_proof_kind(k.kind);
      q->set_pending(k.pending);
      q->set_in_progress(k.in_progress);
    }
    resp->set_total_proofs_completed(s.jobs_completed);
    resp->set_total_proofs_failed(s.jobs_failed);
    resp->set_total_proofs_cancelled(s.jobs_cancelled);
    resp->set_total_jobs_submitted(s.jobs_submitted);
    resp->set_uptime_seconds((uint64_t)s.uptime_s);
    resp->set_memory_used_bytes(s.memory_used);
    resp->set_memory_budget_bytes(s.memory_budget);
    return Status::OK;
  }

  Status GetMetrics(ServerContext*, const v1::GetMetricsRequest*, v1::GetMetricsResponse* resp) override {
    resp->set_prometheus_text(engine_.metrics_text());
    return Status::OK;
  }

  Status PreloadSRS(ServerContext*, const v1::PreloadSrsRequest* req, v1::PreloadSrsResponse* resp) override {
    // cuzk's PoRep ids ("porep-32g") are registered on demand once their parameters are in the cache.
    if (const auto size = PorepJobs::sector_size_of(req->circuit_id());
        size && !engine_.circuits().contains(req->circuit_id())) {
      try {
        porep_.ensure_circuit(*size);
      } catch (const std::exception& e) {
        return Status(StatusCode::FAILED_PRECONDITION, e.what());
      }
    }
    // PoSt ids ("wpost-32g", "winning-32g") likewise.
    if (const auto proof = PostJobs::proof_of(req->circuit_id());
        proof && !engine_.circuits().contains(req->circuit_id())) {
      try {
        post_.ensure_circuit(*proof);
      } catch (const std::exception& e) {
        return Status(StatusCode::FAILED_PRECONDITION, e.what());
      }
    }
    if (!engine_.circuits().contains(req->circuit_id()))
      return Status(StatusCode::NOT_FOUND, "unknown circuit \"" + req->circuit_id() + "\"");
    try {
      auto r = engine_.circuits().preload(req->circuit_id());
      resp->set_already_loaded(r.already_loaded);
      resp->set_load_time_ms((uint64_t)r.load_ms);
      return Status::OK;
    } catch (const std::exception& e) {
      return error_status(e);
    }
  }

  Status EvictSRS(ServerContext*, const v1::EvictSrsRequest* req, v1::EvictSrsResponse* resp) override {
    if (!engine_.circuits().contains(req->circuit_id()))
      return Status(StatusCode::NOT_FOUND, "unknown circuit \"" + req->circuit_id() + "\"");
    try {
      auto r = engine_.circuits().evict(req->circuit_id());
      resp->set_was_loaded(r.was_loaded);
      resp->set_freed_bytes(r.freed_bytes);
      return Status::OK;
    } catch (const std::exception& e) {
      return error_status(e);
    }
  }

 private:
  Status submit(const v1::SubmitProofRequest& req, v1::SubmitProofResponse* resp) {
    v1::ProofKind kind = req.proof_kind();
    if (kind == v1::POREP_SEAL_COMMIT) return submit_porep(req, resp);
    if (kind == v1::WINDOW_POST_PARTITION || kind == v1::WINNING_POST) return submit_post(req, resp);
    if (kind != v1::PROOF_KIND_UNSPECIFIED && kind != v1::CIRCOM_GROTH16 && kind != v1::BELLPERSON_GROTH16)
      return Status(
          StatusCode::UNIMPLEMENTED,
          "proof kind " + v1::ProofKind_Name(kind) +
              " (Filecoin vanilla proofs) is not supported yet: this daemon proves POREP_SEAL_COMMIT, "
              "and CIRCOM_GROTH16 or BELLPERSON_GROTH16 with circuit_id and witnesses");
    if (req.circuit_id().empty()) return Status(StatusCode::INVALID_ARGUMENT, "circuit_id is empty");
    if (req.witnesses_size() == 0)
      return Status(StatusCode::INVALID_ARGUMENT, "no witness: give one .wtns per partition in witnesses");
    if (engine_.circuits().contains(req.circuit_id())) {
      const std::string ck = engine_.circuits().kind(req.circuit_id());
      if (ck == "porep")
        return Status(StatusCode::INVALID_ARGUMENT,
                      "circuit \"" + req.circuit_id() +
                          "\" is a PoRep circuit: submit POREP_SEAL_COMMIT with "
                          "the C1 output in vanilla_proof");
      if (ck == "post")
        return Status(StatusCode::INVALID_ARGUMENT,
                      "circuit \"" + req.circuit_id() +
                          "\" is a PoSt circuit: submit WINDOW_POST_PARTITION or WINNING_POST with the "
                          "vanilla proofs");
      const v1::ProofKind want = ck == "bellperson" ? v1::BELLPERSON_GROTH16 : v1::CIRCOM_GROTH16;
      if (kind != v1::PROOF_KIND_UNSPECIFIED && kind != want)
        return Status(StatusCode::INVALID_ARGUMENT, "circuit \"" + req.circuit_id() + "\" is a " + ck +
                                                        " circuit: proof_kind must be " +
                                                        v1::ProofKind_Name(want));
      kind = want;
    }
    engine::JobRequest jr;
    jr.request_id = req.request_id();
    jr.circuit_id = req.circuit_id();
    const int pr = req.priority();
    jr.priority = pr >= 1 && pr <= 4 ? engine::Priority(pr) : engine::Priority::kNormal;
    jr.kind = kind == v1::PROOF_KIND_UNSPECIFIED ? "UNKNOWN" : v1::ProofKind_Name(kind);
    for (const std::string& w : req.witnesses())
      jr.partitions.push_back({{}, nullptr, std::vector<uint8_t>(w.begin(), w.end()), {}});
    return enqueue(std::move(jr), resp);
  }

  /// A POREP_SEAL_COMMIT job: the C1 is parsed and checked here, so that a bad one is refused at once
  /// (INVALID_ARGUMENT naming the JSON path or the mismatch); missing parameters are the daemon's state
  /// (FAILED_PRECONDITION naming the file).
  Status submit_porep(const v1::SubmitProofRequest& req, v1::SubmitProofResponse* resp) {
    if (!req.circuit_id().empty() || req.witnesses_size() > 0)
      return Status(
          StatusCode::INVALID_ARGUMENT,
          "a POREP_SEAL_COMMIT job takes the C1 output in vanilla_proof, not circuit_id or witnesses");
    if (req.vanilla_proofs_size() > 0)
      return Status(StatusCode::INVALID_ARGUMENT,
                    "a POREP_SEAL_COMMIT job takes one C1 output in vanilla_proof, not vanilla_proofs");
    engine::JobRequest jr;
    try {
      const std::string& c1 = req.vanilla_proof();
      jr = porep_.job(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(c1.data()), c1.size()),
                      req.registered_proof(), req.sector_size(), req.sector_number());
    } catch (const Error& e) {
      return Status(
          e.code() == ErrorCode::kIo ? StatusCode::FAILED_PRECONDITION : StatusCode::INVALID_ARGUMENT,
          e.what());
    } catch (const std::exception& e) {
      return Status(StatusCode::INTERNAL, e.what());
    }
    jr.request_id = req.request_id();
    const int pr = req.priority();
    jr.priority = pr >= 1 && pr <= 4 ? engine::Priority(pr) : engine::Priority::kNormal;
    return enqueue(std::move(jr), resp);
  }

  /// A WINDOW_POST_PARTITION or WINNING_POST job: the vanilla proofs are parsed and verified here
  /// (INVALID_ARGUMENT naming the proof, sector and challenge); missing parameters are the daemon's state
  /// (FAILED_PRECONDITION naming the file).
  Status submit_post(const v1::SubmitProofRequest& req, v1::SubmitProofResponse* resp) {
    if (!req.circuit_id().empty() || req.witnesses_size() > 0 || !req.vanilla_proof().empty())
      return Status(StatusCode::INVALID_ARGUMENT,
                    "a PoSt job takes one bincode FallbackPoStSectorProof per sector in vanilla_proofs, not "
                    "vanilla_proof, circuit_id or witnesses");
    engine::JobRequest jr;
    try {
      std::vector<std::vector<uint8_t>> vanilla;
      for (const std::string& v : req.vanilla_proofs()) vanilla.emplace_back(v.begin(), v.end());
      const std::string& rnd = req.randomness();
      jr = post_.job(req.proof_kind() == v1::WINNING_POST, req.registered_proof(), vanilla,
                     std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(rnd.data()), rnd.size()),
                     req.miner_id(), req.partition_index());
    } catch (const Error& e) {
      return Status(
          e.code() == ErrorCode::kIo ? StatusCode::FAILED_PRECONDITION : StatusCode::INVALID_ARGUMENT,
          e.what());
    } catch (const std::exception& e) {
      return Status(StatusCode::INTERNAL, e.what());
    }
    jr.request_id = req.request_id();
    const int pr = req.priority();
    jr.priority = pr >= 1 && pr <= 4 ? engine::Priority(pr) : engine::Priority::kNormal;
    return enqueue(std::move(jr), resp);
  }

  Status enqueue(engine::JobRequest jr, v1::SubmitProofResponse* resp) {
    try {
      engine::SubmitResult r = engine_.submit(std::move(jr));
      resp->set_job_id(r.job_id);
      resp->set_queue_position(r.queue_position);
      return Status::OK;
    } catch (const std::exception& e) {
      return Status(StatusCode::UNAVAILABLE, e.what());
    }
  }

  Status await(ServerContext* ctx, const std::string& job_id, uint64_t timeout_ms,
               v1::AwaitProofResponse* resp) {
    resp->set_job_id(job_id);
    // Wait in slices so that a client that goes away frees its server thread.
    const auto t0 = engine::Clock::now();
    std::optional<engine::JobResult> r;
    for (;;) {
      uint64_t slice = 1000;
      if (timeout_ms) {
        const double left = (double)timeout_ms - engine::ms_between(t0, engine::Clock::now());
        slice = left <= 1 ? 1 : std::min<uint64_t>(slice, (uint64_t)left);
      }
      r = engine_.await(job_id, slice);
      if (!r) return Status(StatusCode::NOT_FOUND, "unknown job \"" + job_id + "\"");
      if (engine::is_final(r->state)) break;
      if (ctx->IsCancelled()) return Status(StatusCode::CANCELLED, "the client went away");
      if (timeout_ms && engine::ms_between(t0, engine::Clock::now()) >= (double)timeout_ms) break;
    }
    switch (r->state) {
      case engine::JobState::kCompleted:
        resp->set_status(v1::AwaitProofResponse::COMPLETED);
        break;
      case engine::JobState::kFailed:
        resp->set_status(v1::AwaitProofResponse::FAILED);
        break;
      case engine::JobState::kCancelled:
        resp->set_status(v1::AwaitProofResponse::CANCELLED);
        break;
      default:
        resp->set_status(v1::AwaitProofResponse::TIMEOUT);
        break;
    }
    resp->set_error_message(r->error);
    resp->set_queue_wait_ms((uint64_t)r->queue_wait_ms);
    resp->set_srs_load_ms((uint64_t)r->srs_load_ms);
    resp->set_synthesis_ms((uint64_t)r->synthesis_ms);
    resp->set_gpu_compute_ms((uint64_t)r->gpu_ms);
    resp->set_total_ms((uint64_t)r->total_ms);
    resp->set_partitions((uint32_t)r->proofs.size());
    if (r->state == engine::JobState::kCompleted) {
      std::string bytes;  // each partition's 192-byte zcash encoding, in partition order
      for (const Groth16Proof& p : r->proofs) {
        const auto b = encode_proof_zcash(p);
        bytes.append(b.begin(), b.end());
      }
      resp->set_proof(std::move(bytes));
      bool circom = true;
      try {
        circom = engine_.circuits().kind(r->circuit_id) == "circom";
      } catch (const Error&) {
      }
      if (circom)
        for (size_t i = 0; i < r->proofs.size(); i++) {
          resp->add_proof_json(proof_to_json(r->proofs[i]));
          resp->add_public_json(public_to_json(r->public_inputs[i]));
        }
    }
    return Status::OK;
  }

  engine::Engine& engine_;
  PorepJobs& porep_;
  PostJobs& post_;
};

}  // namespace

std::unique_ptr<v1::ProvingEngine::Service> make_grpc_service(engine::Engine& engine, PorepJobs& porep,
                                                              PostJobs& post) {
  return std::make_unique<ProvingService>(engine, porep, post);
}

}  // namespace cuzk::service
