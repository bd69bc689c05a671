#include "service/grpc_service.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <map>
#include <mutex>

#include "engine/job_store.hpp"
#include "engine/log.hpp"
#include "formats/proof_zcash.hpp"
#include "formats/snarkjs_json.hpp"
#include "hash/sha256.hpp"
#include "service/await_hub.hpp"
#include "service/listener.hpp"
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

/// SHA-256 of every field of `req` that is set, except request_id, priority and deadline_unix_ms (they
/// say when, not what: what the request asks for, JobRequest::fingerprint): each field's number, then its
/// value (strings and bytes with their length, repeated fields element by element). Reflection, so that
/// fields added to the message count.
std::string request_fingerprint(const v1::SubmitProofRequest& req) {
  namespace pb = google::protobuf;
  Sha256 h;
  auto str = [&](const std::string& v) {
    const uint64_t n = v.size();
    h.update(&n, sizeof n);
    h.update(v.data(), v.size());
  };
  auto num = [&](uint64_t v) { h.update(&v, sizeof v); };
  std::string scratch;  // GetStringReference's copy space: unused for a plain string field
  const pb::Reflection* refl = req.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  refl->ListFields(req, &fields);
  for (const pb::FieldDescriptor* f : fields) {
    if (f->name() == "request_id" || f->name() == "priority" || f->name() == "deadline_unix_ms") continue;
    num((uint64_t)f->number());
    const int n = f->is_repeated() ? refl->FieldSize(req, f) : 1;
    num((uint64_t)n);
    for (int i = 0; i < n; i++) {
      const bool rep = f->is_repeated();
      switch (f->cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_STRING:
          str(rep ? refl->GetRepeatedStringReference(req, f, i, &scratch)
                  : refl->GetStringReference(req, f, &scratch));
          break;
        case pb::FieldDescriptor::CPPTYPE_ENUM:
          num((uint64_t)(rep ? refl->GetRepeatedEnumValue(req, f, i) : refl->GetEnumValue(req, f)));
          break;
        case pb::FieldDescriptor::CPPTYPE_UINT64:
          num(rep ? refl->GetRepeatedUInt64(req, f, i) : refl->GetUInt64(req, f));
          break;
        case pb::FieldDescriptor::CPPTYPE_UINT32:
          num(rep ? refl->GetRepeatedUInt32(req, f, i) : refl->GetUInt32(req, f));
          break;
        case pb::FieldDescriptor::CPPTYPE_INT64:
          num((uint64_t)(rep ? refl->GetRepeatedInt64(req, f, i) : refl->GetInt64(req, f)));
          break;
        case pb::FieldDescriptor::CPPTYPE_INT32:
          num((uint64_t)(rep ? refl->GetRepeatedInt32(req, f, i) : refl->GetInt32(req, f)));
          break;
        case pb::FieldDescriptor::CPPTYPE_BOOL:
          num(rep ? refl->GetRepeatedBool(req, f, i) : refl->GetBool(req, f));
          break;
        case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        case pb::FieldDescriptor::CPPTYPE_FLOAT: {
          const double v = f->cpp_type() == pb::FieldDescriptor::CPPTYPE_FLOAT
                               ? (rep ? refl->GetRepeatedFloat(req, f, i) : refl->GetFloat(req, f))
                               : (rep ? refl->GetRepeatedDouble(req, f, i) : refl->GetDouble(req, f));
          h.update(&v, sizeof v);
          break;
        }
        case pb::FieldDescriptor::CPPTYPE_MESSAGE:
          str(rep ? refl->GetRepeatedMessage(req, f, i).SerializeAsString()
                  : refl->GetMessage(req, f).SerializeAsString());
          break;
      }
    }
  }
  const Sha256::Digest d = h.finish();
  return std::string(d.begin(), d.end());
}

/// Longest error text (bytes, before escaping) a reply carries.
constexpr size_t kMaxErrorText = 1024;

/// `s` with its message made printable and cut to kMaxErrorText (engine::printable): messages may
/// quote client text (ids, paths in a C1's JSON), and clients' metadata limits are small.
Status bounded(Status s) {
  if (s.ok()) return s;
  return Status(s.error_code(), engine::printable(s.error_message(), kMaxErrorText));
}

std::span<const uint8_t> span_of(const std::string& s) {
  return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

/// The fields of `req` as the engine's kinds read them (spans into `req`, which must outlive the result).
engine::ProofRequest request_of(const v1::SubmitProofRequest& req) {
  engine::ProofRequest r;
  r.circuit_id = req.circuit_id();
  for (const std::string& w : req.witnesses()) r.witnesses.push_back(span_of(w));
  r.vanilla_proof = span_of(req.vanilla_proof());
  for (const std::string& v : req.vanilla_proofs()) r.vanilla_proofs.push_back(span_of(v));
  r.registered_proof = req.registered_proof();
  r.sector_size = req.sector_size();
  r.sector_number = req.sector_number();
  r.comm_r_old = span_of(req.comm_r_old());
  r.comm_r_new = span_of(req.comm_r_new());
  r.comm_d_new = span_of(req.comm_d_new());
  r.randomness = span_of(req.randomness());
  r.miner_id = req.miner_id();
  r.partition_index = req.partition_index();
  return r;
}

/// The kind of a Filecoin proof_kind (one whose kind serves circuits from parameter files: the request's
/// vanilla proofs are the job's input), nullptr for any other.
const engine::ProofKind* filecoin_kind(const engine::ProofKinds& kinds, v1::ProofKind kind) {
  const engine::ProofKind* k = kinds.find(v1::ProofKind_Name(kind));
  return k && !k->circuits().empty() ? k : nullptr;
}

/// The job of a Filecoin SubmitProofRequest (POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, WINDOW_POST_PARTITION,
/// WINNING_POST), made by its kind (errors: Error(kIo) for missing parameters, other Errors naming the bad
/// field). Throws Error(kInvalidArgument) for another kind.
engine::JobRequest filecoin_job(engine::ProofKinds& kinds, const v1::SubmitProofRequest& req) {
  if (!filecoin_kind(kinds, req.proof_kind()))
    throw Error(ErrorCode::kInvalidArgument,
                "proof_kind " + v1::ProofKind_Name(req.proof_kind()) + " is not a Filecoin kind");
  return kinds.job(v1::ProofKind_Name(req.proof_kind()), request_of(req));
}

/// What a farm stores as a Filecoin job's input: the serialized request without request_id, priority and
/// deadline_unix_ms (kept in their own columns; they do not change the proof).
std::string farm_input(const v1::SubmitProofRequest& req) {
  v1::SubmitProofRequest r = req;
  r.clear_request_id();
  r.clear_priority();
  r.clear_deadline_unix_ms();
  return r.SerializeAsString();
}

/// Whose waiting calls a call counts against (limits.max_waiting_per_client): its TCP connection
/// (`client`, client_address's "ipv4:ADDRESS:PORT" or "ipv6:[ADDRESS]:PORT"). Every connection to a unix
/// socket has the same address, so there the calls waiting for one job count together instead
/// (`job_id`), and "" (no per-client count) is returned for a Prove, whose job is its own.
std::string client_key(const std::string& client, const std::string& job_id) {
  if (client.rfind("ipv4:", 0) == 0 || client.rfind("ipv6:", 0) == 0) return client;
  return job_id.empty() ? std::string() : client + " job " + job_id;
}

/// The AwaitProof and Prove calls, with no server thread while they wait (AwaitHub), and GetStatus, which
/// a burst of calls must not find the server's threads taken for (issue 36 N2): callback methods (gRPC's
/// reactor API). The other methods are synchronous, one server thread per running call.
using ServiceBase =
    v1::ProvingEngine::WithCallbackMethod_AwaitProof<v1::ProvingEngine::WithCallbackMethod_Prove<
        v1::ProvingEngine::WithCallbackMethod_GetStatus<v1::ProvingEngine::Service>>>;

/// Threads answering a farm's GetStatus calls (their statements may wait for the database), and the
/// calls that may wait for them; beyond, GetStatus is RESOURCE_EXHAUSTED.
constexpr unsigned kStatusThreads = 2;
constexpr size_t kMaxQueuedStatus = 4096;

class ProvingService final : public ServiceBase {
 public:
  ProvingService(engine::Engine& e, engine::ProofKinds& kinds, const ServiceLimits& limits,
                 engine::JobStore* farm)
      : engine_(e), kinds_(kinds), limits_(limits), farm_(farm), hub_(e, farm) {}

  Status SubmitProof(ServerContext* ctx, const v1::SubmitProofRequest* req,
                     v1::SubmitProofResponse* resp) override {
    const auto received = std::chrono::steady_clock::now();
    Status st = submit(*req, resp, client_address(ctx->peer()));
    log_checked(*req, resp->job_id(), received, received);
    return bounded(st);
  }

  grpc::ServerUnaryReactor* AwaitProof(grpc::CallbackServerContext* ctx, const v1::AwaitProofRequest* req,
                                       v1::AwaitProofResponse* resp) override {
    auto* r = new WaitCall(*this);
    if (Status s = r->slot.take(client_key(client_address(ctx->peer()), req->job_id())); !s.ok()) {
      r->Finish(s);
      return r;
    }
    r->park(req->job_id(), req->timeout_ms(), resp);
    return r;
  }

  grpc::ServerUnaryReactor* Prove(grpc::CallbackServerContext* ctx, const v1::ProveRequest* req,
                                  v1::ProveResponse* resp) override {
    auto* r = new WaitCall(*this);
    // The slot is taken before the job is queued: a refused Prove queues nothing.
    std::string client = client_address(ctx->peer());
    if (Status s = r->slot.take(client_key(client, "")); !s.ok()) {
      r->Finish(s);
      return r;
    }
    // The submit may parse a C1 or verify vanilla proofs for seconds: on a thread of the hub's, not on
    // gRPC's callback threads. req and resp live until the call is finished.
    const auto received = std::chrono::steady_clock::now();
    hub_.run([this, r, client = std::move(client), req, resp, received] {
      const auto started = std::chrono::steady_clock::now();
      v1::SubmitProofResponse sub;
      Status s = submit(req->submit(), &sub, client);
      log_checked(req->submit(), sub.job_id(), received, started);
      if (!s.ok()) {
        r->finish(bounded(s));
        return;
      }
      r->park(sub.job_id(), 0, resp->mutable_result());
    });
    return r;
  }

  Status CancelProof(ServerContext*, const v1::CancelProofRequest* req,
                     v1::CancelProofResponse* resp) override {
    std::optional<bool> r;
    if (farm_) {
      try {
        r = farm_->cancel(req->job_id(), "cancelled by the client");
      } catch (const std::exception& e) {
        return bounded(Status(StatusCode::UNAVAILABLE, e.what()));
      }
    } else {
      r = engine_.cancel(req->job_id());
    }
    resp->set_found(r.has_value());
    resp->set_was_running(r.value_or(false));
    return Status::OK;
  }

  /// A single daemon answers at once (the engine's status takes no time: no server thread needed); a
  /// farm node on one of its status threads.
  grpc::ServerUnaryReactor* GetStatus(grpc::CallbackServerContext* ctx, const v1::GetStatusRequest*,
                                      v1::GetStatusResponse* resp) override {
    grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
    if (!farm_) {
      r->Finish(status(resp));
    } else if (!status_workers_.post([this, r, resp] { r->Finish(status(resp)); })) {
      r->Finish(
          Status(StatusCode::RESOURCE_EXHAUSTED,
                 std::to_string(kMaxQueuedStatus) + " GetStatus calls are waiting already: retry later"));
    }
    return r;
  }

  Status GetMetrics(ServerContext*, const v1::GetMetricsRequest*, v1::GetMetricsResponse* resp) override {
    resp->set_prometheus_text(engine_.metrics_text());
    return Status::OK;
  }

  /// GetStatus's answer (a farm's queues and nodes from its database: UNAVAILABLE while it is away).
  Status status(v1::GetStatusResponse* resp) {
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
    std::vector<engine::KindStatus> kinds = s.kinds;
    if (farm_) {  // the farm's queues and nodes; this node's own counters (the database may be away)
      try {
        kinds = farm_->kinds();
        for (const engine::NodeInfo& n : farm_->nodes()) {
          v1::NodeStatus* ns = resp->add_nodes();
          ns->set_node_id(n.report.node_id);
          ns->set_address(n.report.address);
          ns->set_gpus(n.report.gpus);
          for (const std::string& c : n.report.resident) ns->add_resident_circuits(c);
          ns->set_partitions_running(n.report.running);
          ns->set_heartbeat_age_s(n.heartbeat_age_s);
          ns->set_alive(n.alive);
          ns->set_partitions_stored(n.partitions_stored);
        }
        const engine::FarmTotals t = farm_->totals();
        v1::FarmTotals* ft = resp->mutable_farm();
        ft->set_jobs_queued(t.queued);
        ft->set_jobs_running(t.running);
        ft->set_jobs_completed(t.completed);
        ft->set_jobs_failed(t.failed);
        ft->set_jobs_cancelled(t.cancelled);
        ft->set_partitions_stored(t.partitions_stored);
      } catch (const std::exception& e) {
        return bounded(Status(StatusCode::UNAVAILABLE, e.what()));
      }
    }
    for (const auto& k : kinds) {
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

  Status PreloadSRS(ServerContext*, const v1::PreloadSrsRequest* req, v1::PreloadSrsResponse* resp) override {
    // The Filecoin kinds' ids ("porep-32g", "wpost-32g", …) are registered on demand once their
    // parameters are in the cache.
    if (!engine_.circuits().contains(req->circuit_id())) {
      try {
        kinds_.ensure_circuit(req->circuit_id());
      } catch (const std::exception& e) {
        return bounded(Status(StatusCode::FAILED_PRECONDITION, e.what()));
      }
    }
    if (!engine_.circuits().contains(req->circuit_id()))
      return Status(StatusCode::NOT_FOUND,
                    "unknown circuit \"" + engine::printable(req->circuit_id()) + "\"");
    try {
      auto r = engine_.circuits().preload(req->circuit_id());
      resp->set_already_loaded(r.already_loaded);
      resp->set_load_time_ms((uint64_t)r.load_ms);
      return Status::OK;
    } catch (const std::exception& e) {
      return bounded(error_status(e));
    }
  }

  Status EvictSRS(ServerContext*, const v1::EvictSrsRequest* req, v1::EvictSrsResponse* resp) override {
    if (!engine_.circuits().contains(req->circuit_id()))
      return Status(StatusCode::NOT_FOUND,
                    "unknown circuit \"" + engine::printable(req->circuit_id()) + "\"");
    try {
      auto r = engine_.circuits().evict(req->circuit_id());
      resp->set_was_loaded(r.was_loaded);
      resp->set_freed_bytes(r.freed_bytes);
      return Status::OK;
    } catch (const std::exception& e) {
      return bounded(error_status(e));
    }
  }

 private:
  /// An AwaitProof or Prove call counted against limits_.max_waiting_clients and, per client (client_key),
  /// limits_.max_waiting_per_client while it lives.
  struct WaitSlot {
    explicit WaitSlot(ProvingService& s) : svc(s) {}
    /// Takes the slot for `key` ("" = counted only in all): OK, or RESOURCE_EXHAUSTED naming the limit.
    Status take(std::string k) {
      std::lock_guard lk(svc.waiting_mu_);
      if (svc.waiting_ >= svc.limits_.max_waiting_clients)
        return Status(
            StatusCode::RESOURCE_EXHAUSTED,
            std::to_string(svc.limits_.max_waiting_clients) +
                " clients are waiting for proofs already (limits.max_waiting_clients): retry later");
      if (!k.empty()) {
        unsigned& n = svc.waiting_by_client_[k];
        if (n >= svc.limits_.max_waiting_per_client)
          return Status(StatusCode::RESOURCE_EXHAUSTED,
                        std::to_string(n) + " calls of this client" +
                            (k.find(" job ") != std::string::npos ? " for this job" : "") +
                            " are waiting for proofs already (limits.max_waiting_per_client): retry later");
        n++;
      }
      svc.waiting_++;
      key = std::move(k);
      taken = true;
      return Status::OK;
    }
    ~WaitSlot() { release(); }
    /// Gives the slot back (idempotent).
    void release() {
      if (!taken) return;
      taken = false;
      std::lock_guard lk(svc.waiting_mu_);
      svc.waiting_--;
      if (key.empty()) return;
      auto it = svc.waiting_by_client_.find(key);
      if (--it->second == 0) svc.waiting_by_client_.erase(it);
    }
    WaitSlot(const WaitSlot&) = delete;
    WaitSlot& operator=(const WaitSlot&) = delete;
    ProvingService& svc;
    std::string key;
    bool taken = false;
  };

  /// One AwaitProof or Prove call: its slot, held until the call is answered (so that a client calling
  /// again once answered finds it free), and its wait in the hub. Deletes itself when gRPC is done with
  /// the call (OnDone).
  class WaitCall final : public grpc::ServerUnaryReactor {
   public:
    explicit WaitCall(ProvingService& s) : svc(s), slot(s) {}
    /// Waits in the hub for `job_id` (timeout_ms: AwaitProofRequest's), then answers in `resp`. The call
    /// may be answered and deleted before this returns.
    void park(const std::string& job_id, uint64_t timeout_ms, v1::AwaitProofResponse* resp) {
      resp->set_job_id(job_id);
      auto w = AwaitHub::waiter(job_id, timeout_ms, [this, resp, job_id](AwaitHub::Outcome o) {
        finish(bounded(svc.answer(job_id, std::move(o), resp)));
      });
      {
        std::lock_guard lk(mu_);
        waiter_ = w;
        if (cancelled_) svc.hub_.cancel(w);
      }
      svc.hub_.park(std::move(w));  // last: `this` may be gone once the hub has it
    }
    void OnCancel() override {  // the client went away (or the server stops): the wait ends
      std::shared_ptr<AwaitHub::Waiter> w;
      {
        std::lock_guard lk(mu_);
        cancelled_ = true;
        w = waiter_;
      }
      svc.hub_.cancel(w);
    }
    /// Answers the call, giving its slot back first.
    void finish(const Status& s) {
      slot.release();
      Finish(s);
    }
    void OnDone() override { delete this; }
    ProvingService& svc;
    WaitSlot slot;

   private:
    std::mutex mu_;
    std::shared_ptr<AwaitHub::Waiter> waiter_;
    bool cancelled_ = false;
  };

  /// The status and response of a wait that ended with `o`.
  Status answer(const std::string& job_id, AwaitHub::Outcome o, v1::AwaitProofResponse* resp) {
    switch (o.end) {
      case AwaitHub::End::kFinal:
      case AwaitHub::End::kTimeout:
        fill(*o.result, resp);
        return Status::OK;
      case AwaitHub::End::kNotFound:
        return Status(StatusCode::NOT_FOUND, "unknown job \"" + engine::printable(job_id) + "\"");
      case AwaitHub::End::kCancelled:
        return Status(StatusCode::CANCELLED, "the client went away");
      case AwaitHub::End::kUnavailable:
        return Status(StatusCode::UNAVAILABLE, "the farm's database is unavailable");
      case AwaitHub::End::kError:
        return Status(StatusCode::INTERNAL, o.error);
      case AwaitHub::End::kStopped:
        break;
    }
    return Status(StatusCode::UNAVAILABLE, "the daemon is stopping");
  }

  /// The size limits every SubmitProofRequest must keep (INVALID_ARGUMENT naming the field and limit).
  Status check_limits(const v1::SubmitProofRequest& req) const {
    auto too_big = [](const std::string& what, size_t n, uint64_t max) {
      return Status(StatusCode::INVALID_ARGUMENT, what + " has " + std::to_string(n) + ", more than the " +
                                                      std::to_string(max) + " this daemon takes");
    };
    if (req.request_id().size() > limits_.max_id_bytes)
      return too_big("request_id", req.request_id().size(), limits_.max_id_bytes);
    if (req.circuit_id().size() > limits_.max_id_bytes)
      return too_big("circuit_id", req.circuit_id().size(), limits_.max_id_bytes);
    if ((size_t)req.witnesses_size() > limits_.max_partitions)
      return too_big("witnesses", (size_t)req.witnesses_size(), limits_.max_partitions);
    if ((size_t)req.vanilla_proofs_size() > limits_.max_partitions)
      return too_big("vanilla_proofs", (size_t)req.vanilla_proofs_size(), limits_.max_partitions);
    if (req.vanilla_proof().size() > limits_.max_vanilla_proof_bytes)
      return too_big("vanilla_proof (bytes)", req.vanilla_proof().size(), limits_.max_vanilla_proof_bytes);
    for (const std::string& v : req.vanilla_proofs())
      if (v.size() > limits_.max_vanilla_proof_bytes)
        return too_big("a vanilla_proofs entry (bytes)", v.size(), limits_.max_vanilla_proof_bytes);
    return Status::OK;
  }

  /// SubmitProof's work (and Prove's first half); `owner` is the client's (gRPC's peer: JobRequest::owner).
  Status submit(const v1::SubmitProofRequest& req, v1::SubmitProofResponse* resp, const std::string& owner) {
    if (!v1::ProofKind_IsValid(req.proof_kind()))
      return Status(StatusCode::INVALID_ARGUMENT,
                    "proof_kind " + std::to_string((int)req.proof_kind()) + " is not a cuzk.v1 ProofKind");
    if (Status s = check_limits(req); !s.ok()) return s;
    v1::ProofKind kind = req.proof_kind();
    if (filecoin_kind(kinds_, kind)) return enqueue_filecoin(req, resp, owner);
    // circom or bellperson (or unspecified: the circuit's registry kind says which): a registered circuit
    // and one .wtns per partition.
    const engine::ProofRequest r = request_of(req);
    const std::string name = kind == v1::PROOF_KIND_UNSPECIFIED ? "CIRCOM_GROTH16" : v1::ProofKind_Name(kind);
    const engine::ProofKind* witness_kind = kinds_.find(name);
    if (!witness_kind) return Status(StatusCode::INTERNAL, "no proof kind " + name + " in this daemon");
    try {
      witness_kind->check(r);
    } catch (const Error& e) {
      return Status(StatusCode::INVALID_ARGUMENT, e.what());
    }
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
    } else if (farm_) {
      return Status(StatusCode::INVALID_ARGUMENT,
                    "unknown circuit \"" + engine::printable(req.circuit_id()) +
                        "\" (every node of a farm serves the same [[circuits]])");
    }
    if (farm_) return submit_farm(req, kind, resp);
    // The registry's kind when the request left it unspecified; "UNKNOWN" for a circuit not registered.
    engine::JobRequest jr = kind == v1::PROOF_KIND_UNSPECIFIED || kind == req.proof_kind()
                                ? witness_kind->job(r)
                                : kinds_.find(v1::ProofKind_Name(kind))->job(r);
    if (kind == v1::PROOF_KIND_UNSPECIFIED) jr.kind = "UNKNOWN";
    return enqueue(req, std::move(jr), resp, owner);
  }

  /// A circuit_id + witnesses job stored in the farm's database (any node claims its partitions).
  Status submit_farm(const v1::SubmitProofRequest& req, v1::ProofKind kind, v1::SubmitProofResponse* resp) {
    engine::StoredJobRequest sr;
    sr.circuit_id = req.circuit_id();
    sr.kind = v1::ProofKind_Name(kind);
    for (const std::string& w : req.witnesses()) sr.inputs.emplace_back(w.begin(), w.end());
    return store_farm(req, std::move(sr), resp);
  }

  /// Stores `sr`, the job of `req`, in the farm's database: its request_id, priority, deadline and
  /// fingerprint are taken from `req`. A request_id taken by another request is ALREADY_EXISTS, an input
  /// over cluster.max_queued_bytes RESOURCE_EXHAUSTED, a database away UNAVAILABLE.
  Status store_farm(const v1::SubmitProofRequest& req, engine::StoredJobRequest sr,
                    v1::SubmitProofResponse* resp) {
    sr.request_id = req.request_id();
    if (!sr.request_id.empty()) sr.fingerprint = request_fingerprint(req);
    const int pr = req.priority();
    sr.priority = pr >= 1 && pr <= 4 ? engine::Priority(pr) : engine::Priority::kNormal;
    if (req.deadline_unix_ms()) sr.deadline_unix_ms = (int64_t)req.deadline_unix_ms();
    try {
      const engine::SubmitResult r = farm_->submit(sr);
      resp->set_job_id(r.job_id);
      resp->set_queue_position(r.queue_position);
      return Status::OK;
    } catch (const engine::SubmitRefused& e) {
      return Status(e.reason() == engine::SubmitRefused::Reason::kOverLimit ? StatusCode::RESOURCE_EXHAUSTED
                                                                            : StatusCode::ALREADY_EXISTS,
                    e.what());
    } catch (const engine::StoreUnavailable& e) {
      return Status(StatusCode::UNAVAILABLE, std::string("the farm's database is unavailable: ") + e.what());
    } catch (const std::exception& e) {
      return Status(StatusCode::INTERNAL, e.what());
    }
  }

  /// Queues, for `owner`, the Filecoin job that filecoin_job builds from `req` (the kind's check of the
  /// fields it takes, then its parse and check of the vanilla proofs or C1, so that a bad one is refused at
  /// once): an Error(kIo) from it is FAILED_PRECONDITION (missing parameters are the daemon's state, naming
  /// the file), any other Error INVALID_ARGUMENT naming the problem. The request's vanilla proofs, which the
  /// partitions share once parsed, stay charged to the queued input (extra_bytes) until the job ends. In a
  /// farm the request itself (less request_id, priority and deadline) is stored as the job's input, one
  /// partition row per partition: the claiming nodes make their partitions from it (make_farm_expander).
  Status enqueue_filecoin(const v1::SubmitProofRequest& req, v1::SubmitProofResponse* resp,
                          const std::string& owner) {
    engine::JobRequest jr;
    try {
      jr = filecoin_job(kinds_, req);
    } catch (const Error& e) {
      return Status(
          e.code() == ErrorCode::kIo ? StatusCode::FAILED_PRECONDITION : StatusCode::INVALID_ARGUMENT,
          e.what());
    } catch (const std::exception& e) {
      return Status(StatusCode::INTERNAL, e.what());
    }
    if (farm_) {
      engine::StoredJobRequest sr;
      sr.circuit_id = jr.circuit_id;
      sr.kind = jr.kind;
      sr.partitions = (uint32_t)jr.partitions.size();
      const std::string input = farm_input(req);
      sr.job_input.assign(input.begin(), input.end());
      return store_farm(req, std::move(sr), resp);
    }
    jr.extra_bytes = req.vanilla_proof().size();
    for (const std::string& v : req.vanilla_proofs()) jr.extra_bytes += v.size();
    return enqueue(req, std::move(jr), resp, owner);
  }

  /// Queues `jr`, the job of `req`, for `owner`: its request_id, priority and fingerprint are taken from
  /// `req`.
  Status enqueue(const v1::SubmitProofRequest& req, engine::JobRequest jr, v1::SubmitProofResponse* resp,
                 const std::string& owner) {
    jr.request_id = req.request_id();
    jr.owner = owner;
    const int pr = req.priority();
    jr.priority = pr >= 1 && pr <= 4 ? engine::Priority(pr) : engine::Priority::kNormal;
    if (req.deadline_unix_ms()) {
      // The client's wall-clock deadline on the engine's steady clock.
      const auto due =
          std::chrono::system_clock::time_point(std::chrono::milliseconds(req.deadline_unix_ms()));
      jr.deadline = engine::Clock::now() + std::chrono::duration_cast<engine::Clock::duration>(
                                               due - std::chrono::system_clock::now());
    }
    if (!jr.request_id.empty()) jr.fingerprint = request_fingerprint(req);
    try {
      engine::SubmitResult r = engine_.submit(std::move(jr));
      resp->set_job_id(r.job_id);
      resp->set_queue_position(r.queue_position);
      return Status::OK;
    } catch (const engine::SubmitRefused& e) {
      switch (e.reason()) {
        case engine::SubmitRefused::Reason::kRequestIdInUse:
          return Status(StatusCode::ALREADY_EXISTS, e.what());
        case engine::SubmitRefused::Reason::kOverLimit:
          return Status(StatusCode::RESOURCE_EXHAUSTED, e.what());
        default:
          return Status(StatusCode::UNAVAILABLE, e.what());
      }
    } catch (const std::exception& e) {
      return Status(StatusCode::UNAVAILABLE, e.what());
    }
  }

  /// The debug event `request_checked` of a submit: the request's size, its job ("" when refused), how
  /// long it waited for a thread after it had arrived whole (`wait_ms`) and how long its checks and queueing
  /// took (`check_ms`: a C1's parse, vanilla-proof checks). Ramp-up of a batch is read from these.
  static void log_checked(const v1::SubmitProofRequest& req, const std::string& job_id,
                          std::chrono::steady_clock::time_point received,
                          std::chrono::steady_clock::time_point started) {
    if (!spdlog::should_log(spdlog::level::debug)) return;
    const auto ms = [](auto d) {
      return std::to_string(std::chrono::duration<double, std::milli>(d).count());
    };
    const auto now = std::chrono::steady_clock::now();
    spdlog::debug(engine::LogEvent{engine::LogLevel::kDebug,
                                   "request_checked",
                                   {{"kind", v1::ProofKind_Name(req.proof_kind())},
                                    {"bytes", std::to_string(req.ByteSizeLong())},
                                    {"job", job_id},
                                    {"wait_ms", ms(started - received)},
                                    {"check_ms", ms(now - started)}}}
                      .logfmt());
  }

  /// The response for the job as `r` holds it (TIMEOUT when it is not final).
  void fill(const engine::JobResult& job, v1::AwaitProofResponse* resp) {
    const engine::JobResult* r = &job;
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
    resp->set_error_message(engine::printable(r->error, kMaxErrorText));
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
  }

  engine::Engine& engine_;
  engine::ProofKinds& kinds_;
  const ServiceLimits limits_;
  engine::JobStore* farm_;  ///< set in a [cluster] daemon: jobs live in the farm's store
  std::mutex waiting_mu_;
  unsigned waiting_ = 0;                               ///< AwaitProof and Prove calls now (WaitSlot)
  std::map<std::string, unsigned> waiting_by_client_;  ///< of them, per client_key (no zero entry)
  CallWorkers status_workers_{kStatusThreads, kMaxQueuedStatus};  ///< a farm's GetStatus calls
  AwaitHub hub_;  ///< last: destroyed first, answering the calls still waiting while the rest lives
};

}  // namespace

engine::FarmExpander make_farm_expander(engine::ProofKinds& kinds) {
  return [&kinds](const std::string& kind, std::span<const uint8_t> input) {
    v1::SubmitProofRequest req;
    if (input.size() > (size_t)INT32_MAX || !req.ParseFromArray(input.data(), (int)input.size()))
      throw Error(ErrorCode::kInvalidEncoding,
                  "not a serialized cuzk.v1.SubmitProofRequest (" + std::to_string(input.size()) + " bytes)");
    if (v1::ProofKind_Name(req.proof_kind()) != kind)
      throw Error(ErrorCode::kInvalidArgument,
                  "it is a " + v1::ProofKind_Name(req.proof_kind()) + " request, the job is " + kind);
    return filecoin_job(kinds, req);
  };
}

std::unique_ptr<v1::ProvingEngine::Service> make_grpc_service(engine::Engine& engine,
                                                              engine::ProofKinds& kinds,
                                                              const ServiceLimits& limits,
                                                              engine::JobStore* farm) {
  return std::make_unique<ProvingService>(engine, kinds, limits, farm);
}

}  // namespace cuzk::service
