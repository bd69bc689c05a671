// libFuzzer target: the daemon's gRPC request handlers (src/service/grpc_service.cpp) with the network
// bypassed. The service object is the daemon's (make_grpc_service), on an engine with one CPU backend and
// two tiny circuits (c = a·b: "tiny" from tests/data/tiny/mul_final.zkey, "tinybp" from
// tests/capi/mul_bellperson.params + mul.r1cs); each method is called through an in-process channel.
//
// The input is up to 16 records [selector][length: 2 bytes, little endian][length bytes]: the bytes are
// parsed as the request message of the method that selector & 7 picks (0 SubmitProof, 1 AwaitProof,
// 2 Prove, 3 CancelProof, 4 GetStatus, 5 GetMetrics, 6 PreloadSRS, 7 EvictSRS). Bytes that do not parse
// as the message are dropped (gRPC refuses them before any handler). Selector bits that steer the request
// towards the service's deeper paths: 0x08 sets circuit_id (SubmitProof, Prove, PreloadSRS, EvictSRS) to
// a registered circuit ((selector >> 4) & 1: tiny or tinybp) or job_id (AwaitProof, CancelProof) to a job
// this input submitted ((selector >> 4) % their number); 0x20 appends the valid witness mul.wtns to a
// SubmitProof or Prove. AwaitProof's timeout_ms is cut to 1..200 ms so that no wait outlasts the input.
//
// Properties (any failure is a finding): every reply is OK or one of the codes the service documents
// (INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, RESOURCE_EXHAUSTED, FAILED_PRECONDITION; never INTERNAL,
// UNAVAILABLE or UNKNOWN, which would mean an unexpected exception), with a message that is printable
// (no control bytes) and bounded (kMaxMessage); a job id is "job-" and 32 hex digits; a COMPLETED
// AwaitProof carries one 192-byte proof per partition, gpu_compute_ms ≤ total_ms, and a circom job's
// proofs equal their JSON and verify with the key (checked here, apart from the engine's own check).
// After each input every job it submitted is cancelled and must end within 5 s, and then the engine must
// be quiet and consistent: no partition in flight, empty queues, no queued input, every submitted job
// counted once as completed, failed or cancelled, and GetStatus and GetMetrics agreeing on the counters.
#include <google/protobuf/stubs/logging.h>
#include <grpcpp/grpcpp.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.hpp"
#include "engine/loaders.hpp"
#include "formats/proof_zcash.hpp"
#include "formats/snarkjs_json.hpp"
#include "fuzz.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/verifier.hpp"
#include "service/grpc_service.hpp"

namespace {

namespace v1 = cuzk::v1;
using cuzk::fuzz::finding;

const std::string kSrc = CUZK_SOURCE_DIR;
const char* const kCircuits[2] = {"tiny", "tinybp"};
/// Longest reply message: engine::printable of 1024 bytes (each may become \xNN) and its length note.
constexpr size_t kMaxMessage = 4 * 1024 + 32;

std::string file_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) finding("a fixture of fuzz_grpc is missing");
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// The engine, the service and the fixtures, made once for the whole run.
struct Fixture {
  cuzk::CpuBackend backend{1};
  std::unique_ptr<cuzk::engine::Engine> engine;
  cuzk::service::ServiceLimits limits;
  std::unique_ptr<cuzk::engine::ProofKinds> kinds;
  std::unique_ptr<v1::ProvingEngine::Service> service;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<v1::ProvingEngine::Stub> stub;
  cuzk::VerifyingKey tiny_vk;
  std::string wtns = file_text(kSrc + "/tests/data/tiny/mul.wtns");
  std::map<std::string, std::string> job_circuit;  ///< every job id seen → its request's circuit_id

  Fixture() {
    // protobuf logs each string field with invalid UTF-8 that it refuses to parse: not a finding, and
    // thousands of lines.
    google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string&) {});
    cuzk::engine::EngineConfig ec;
    ec.synthesis_threads = 1;
    ec.gpu_workers_per_device = 1;
    ec.memory_budget = 512ull << 20;
    ec.retained_jobs = 256;  // the daemon's 10,000 would make each run's memory grow for longer
    engine = std::make_unique<cuzk::engine::Engine>(ec, std::vector<cuzk::ProverBackend*>{&backend});
    const std::string zkey = kSrc + "/tests/data/tiny/mul_final.zkey";
    const std::string params = kSrc + "/tests/capi/mul_bellperson.params",
                      r1cs = kSrc + "/tests/data/tiny/mul.r1cs";
    engine->circuits().add("tiny", "circom", [zkey] { return cuzk::engine::load_circom(zkey); });
    engine->circuits().add("tinybp", "bellperson",
                           [params, r1cs] { return cuzk::engine::load_bellperson(params, r1cs); });
    tiny_vk = cuzk::engine::load_circom(zkey).key->verifying_key();
    // No param cache: Filecoin kinds are refused (FAILED_PRECONDITION) after their input is checked.
    const cuzk::engine::ParamsReading reading = [](const cuzk::CompactCs*, const auto& read) {
      return read(cuzk::ParamsReadOptions{});
    };
    kinds = std::make_unique<cuzk::engine::ProofKinds>(engine->circuits(),
                                                       cuzk::engine::ProofKinds::Options{{}, reading, 1});
    limits.max_partitions = 16;  // the check is the same at 1024; 16 keeps an input's proving short
    service = cuzk::service::make_grpc_service(*engine, *kinds, limits);
    // Called through an in-process channel: AwaitProof, Prove and GetStatus are callback methods.
    grpc::ServerBuilder b;
    b.RegisterService(service.get());
    server = b.BuildAndStart();
    stub = v1::ProvingEngine::NewStub(server->InProcessChannel(grpc::ChannelArguments()));
  }
};

/// A reply's status must be OK or a documented refusal, with a printable, bounded message.
void check_status(const grpc::Status& s, const char* method) {
  if (s.ok()) return;
  switch (s.error_code()) {
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
    case grpc::StatusCode::FAILED_PRECONDITION:
      break;
    default:
      std::fprintf(stderr, "%s: status %d: %.300s\n", method, (int)s.error_code(), s.error_message().c_str());
      finding("a handler replied with a status the service does not document");
  }
  const std::string& m = s.error_message();
  if (m.empty()) finding("an error reply has no message");
  if (m.size() > kMaxMessage) finding("an error message is longer than the service's bound");
  for (unsigned char c : m)
    if (c < 0x20 || c == 0x7f) finding("an error message holds a control byte");
}

bool is_job_id(const std::string& id) {
  if (id.size() != 36 || id.rfind("job-", 0) != 0) return false;
  for (size_t i = 4; i < id.size(); i++)
    if (!std::isxdigit((unsigned char)id[i])) return false;
  return true;
}

/// A successful AwaitProof (or Prove) reply.
void check_result(Fixture& fx, const v1::AwaitProofResponse& r, const char* method) {
  if (!v1::AwaitProofResponse::Status_IsValid(r.status()) || r.status() == v1::AwaitProofResponse::UNKNOWN)
    finding("an AwaitProof reply has no final status");
  if (r.error_message().size() > kMaxMessage) finding("an AwaitProof error_message is unbounded");
  if (r.gpu_compute_ms() > r.total_ms()) finding("gpu_compute_ms exceeds total_ms");
  if (r.status() == v1::AwaitProofResponse::FAILED && r.error_message().empty())
    finding("a FAILED job has no error message");
  if (r.status() != v1::AwaitProofResponse::COMPLETED) return;
  if (r.partitions() == 0 || r.proof().size() != (size_t)r.partitions() * cuzk::kProofZcashBytes) {
    std::fprintf(stderr, "%s: %u partitions, %zu proof bytes\n", method, r.partitions(), r.proof().size());
    finding("a COMPLETED job's proof bytes are not 192 per partition");
  }
  const auto bin = cuzk::decode_proofs_zcash(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(r.proof().data()), r.proof().size()),
      "proof");
  const auto it = fx.job_circuit.find(r.job_id());
  if (it == fx.job_circuit.end() || it->second != "tiny") return;  // only circom jobs carry their inputs
  if (r.proof_json_size() != (int)r.partitions() || r.public_json_size() != (int)r.partitions())
    finding("a COMPLETED circom job lacks a proof.json or public.json per partition");
  for (int i = 0; i < r.proof_json_size(); i++) {
    const cuzk::Groth16Proof p = cuzk::proof_from_json(r.proof_json(i));
    if (!(p == bin[(size_t)i])) finding("a circom job's zcash proof differs from its proof.json");
    if (!cuzk::verify(fx.tiny_vk, cuzk::public_from_json(r.public_json(i)), p))
      finding("a COMPLETED job's proof does not verify");
  }
}

/// A value of the Prometheus text `metrics` (the line starting with `name`), or -1.
double metric(const std::string& metrics, const std::string& name) {
  const size_t at = metrics.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::strtod(metrics.c_str() + at + name.size() + 2, nullptr);
}

/// Cancels the input's jobs, waits for them and for the engine to be quiet, and checks its counters.
void settle(Fixture& fx, const std::vector<std::string>& jobs) {
  for (const std::string& id : jobs) fx.engine->cancel(id);
  for (const std::string& id : jobs) {
    const auto r = fx.engine->await(id, 5000);
    if (r && !cuzk::engine::is_final(r->state)) finding("a cancelled job did not end within 5 s");
  }
  cuzk::engine::EngineStatus s;
  for (int i = 0;; i++) {
    s = fx.engine->status();
    bool busy =
        s.partitions_in_flight || s.synth_queue || s.gpu_queue || s.final_queue || s.queued_input_bytes;
    for (const auto& k : s.kinds) busy = busy || k.pending || k.in_progress;
    if (!busy) break;
    if (i == 500) finding("the engine is not quiet 5 s after every job of the input ended");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (s.jobs_submitted != s.jobs_completed + s.jobs_failed + s.jobs_cancelled) {
    std::fprintf(stderr, "submitted %llu, completed %llu, failed %llu, cancelled %llu\n",
                 (unsigned long long)s.jobs_submitted, (unsigned long long)s.jobs_completed,
                 (unsigned long long)s.jobs_failed, (unsigned long long)s.jobs_cancelled);
    finding("the engine's job counters do not add up");
  }
  grpc::ClientContext ctx, ctx2;
  const v1::GetStatusRequest st_req;
  const v1::GetMetricsRequest m_req;
  v1::GetStatusResponse st;
  v1::GetMetricsResponse m;
  if (!fx.stub->GetStatus(&ctx, st_req, &st).ok() || !fx.stub->GetMetrics(&ctx2, m_req, &m).ok())
    finding("GetStatus or GetMetrics failed");
  const std::string text = "\n" + m.prometheus_text();
  if (metric(text, "cuzk_jobs_total{state=\"submitted\"}") != (double)st.total_jobs_submitted() ||
      metric(text, "cuzk_jobs_total{state=\"completed\"}") != (double)st.total_proofs_completed() ||
      metric(text, "cuzk_jobs_total{state=\"failed\"}") != (double)st.total_proofs_failed() ||
      metric(text, "cuzk_jobs_total{state=\"cancelled\"}") != (double)st.total_proofs_cancelled())
    finding("GetMetrics and GetStatus disagree on the job counters");
  if (st.total_jobs_submitted() <
      st.total_proofs_completed() + st.total_proofs_failed() + st.total_proofs_cancelled())
    finding("GetStatus counts more final jobs than submitted ones");
}

template <class Req>
bool parse(Req& req, const uint8_t* p, size_t n) {
  return req.ParseFromArray(p, (int)n);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture fx;
  if (fx.job_circuit.size() > 4096) fx.job_circuit.clear();
  std::vector<std::string> jobs;  // submitted by this input
  size_t at = 0;
  for (int rec = 0; rec < 16 && at + 3 <= size; rec++) {
    const uint8_t sel = data[at];
    const size_t len = std::min<size_t>(data[at + 1] | (size_t)data[at + 2] << 8, size - at - 3);
    const uint8_t* body = data + at + 3;
    at += 3 + len;
    const bool steer = sel & 0x08;
    const char* circuit = kCircuits[(sel >> 4) & 1];
    grpc::ClientContext ctx;
    switch (sel & 7) {
      case 0:
      case 2: {
        v1::SubmitProofRequest req;
        if (!parse(req, body, len)) break;
        if (steer) req.set_circuit_id(circuit);
        if (sel & 0x20) req.add_witnesses(fx.wtns);
        grpc::Status s;
        std::string id;
        if ((sel & 7) == 0) {
          v1::SubmitProofResponse resp;
          s = fx.stub->SubmitProof(&ctx, req, &resp);
          id = resp.job_id();
          check_status(s, "SubmitProof");
          if (s.ok() && !is_job_id(id)) finding("SubmitProof returned a malformed job id");
          if (s.ok()) {
            fx.job_circuit[id] = req.circuit_id();
            jobs.push_back(id);
          }
        } else {
          v1::ProveRequest pr;
          *pr.mutable_submit() = req;
          v1::ProveResponse resp;
          s = fx.stub->Prove(&ctx, pr, &resp);
          check_status(s, "Prove");
          if (s.ok()) {
            if (!is_job_id(resp.result().job_id())) finding("Prove returned a malformed job id");
            fx.job_circuit[resp.result().job_id()] = req.circuit_id();
            check_result(fx, resp.result(), "Prove");
            if (resp.result().status() == v1::AwaitProofResponse::TIMEOUT) finding("Prove timed out");
          }
        }
        break;
      }
      case 1: {
        v1::AwaitProofRequest req;
        if (!parse(req, body, len)) break;
        if (steer && !jobs.empty()) req.set_job_id(jobs[(sel >> 4) % jobs.size()]);
        req.set_timeout_ms(1 + req.timeout_ms() % 200);
        v1::AwaitProofResponse resp;
        const grpc::Status s = fx.stub->AwaitProof(&ctx, req, &resp);
        check_status(s, "AwaitProof");
        if (s.ok()) check_result(fx, resp, "AwaitProof");
        break;
      }
      case 3: {
        v1::CancelProofRequest req;
        if (!parse(req, body, len)) break;
        if (steer && !jobs.empty()) req.set_job_id(jobs[(sel >> 4) % jobs.size()]);
        v1::CancelProofResponse resp;
        const grpc::Status s = fx.stub->CancelProof(&ctx, req, &resp);
        check_status(s, "CancelProof");
        if (!resp.found() && resp.was_running()) finding("CancelProof: an unknown job was running");
        break;
      }
      case 4: {
        v1::GetStatusRequest req;
        if (!parse(req, body, len)) break;
        v1::GetStatusResponse resp;
        check_status(fx.stub->GetStatus(&ctx, req, &resp), "GetStatus");
        break;
      }
      case 5: {
        v1::GetMetricsRequest req;
        if (!parse(req, body, len)) break;
        v1::GetMetricsResponse resp;
        check_status(fx.stub->GetMetrics(&ctx, req, &resp), "GetMetrics");
        if (resp.prometheus_text().find("cuzk_jobs_total") == std::string::npos)
          finding("GetMetrics has no job counters");
        break;
      }
      case 6: {
        v1::PreloadSrsRequest req;
        if (!parse(req, body, len)) break;
        if (steer) req.set_circuit_id(circuit);
        v1::PreloadSrsResponse resp;
        const grpc::Status s = fx.stub->PreloadSRS(&ctx, req, &resp);
        check_status(s, "PreloadSRS");
        if (steer && !s.ok()) finding("PreloadSRS of a registered circuit failed");
        break;
      }
      case 7: {
        v1::EvictSrsRequest req;
        if (!parse(req, body, len)) break;
        if (steer) req.set_circuit_id(circuit);
        v1::EvictSrsResponse resp;
        const grpc::Status s = fx.stub->EvictSRS(&ctx, req, &resp);
        check_status(s, "EvictSRS");
        // Refused only while partitions in flight hold the circuit (CircuitRegistry::evict; found by a
        // 10-minute run: fuzz/corpus/grpc/regression-evict-in-use).
        if (steer && !s.ok() && s.error_message().find("is in use") == std::string::npos)
          finding("EvictSRS of a registered circuit failed, and not because it is in use");
        break;
      }
    }
  }
  settle(fx, jobs);
  return 0;
}
