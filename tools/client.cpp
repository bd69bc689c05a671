// `cuzk client …`: one gRPC call each against a running daemon.
#include "engine_commands.hpp"
#include "util/error.hpp"

#ifdef CUZK_WITH_SERVICE
#include <google/protobuf/util/json_util.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_checks.hpp"
#include "formats/atomic_file.hpp"
#include "formats/c1.hpp"
#include "grpc_client.hpp"
#include "post_commands.hpp"
#include "snap_commands.hpp"
#endif

namespace cuzk::cli {

#ifdef CUZK_WITH_SERVICE
namespace v1 = cuzk::v1;

std::unique_ptr<v1::ProvingEngine::Stub> connect(const std::string& addr) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(1 << 30);
  args.SetMaxSendMessageSize(1 << 30);
  return v1::ProvingEngine::NewStub(
      grpc::CreateCustomChannel(addr, grpc::InsecureChannelCredentials(), args));
}

v1::SubmitProofRequest job_request(const ClientOptions& o) {
  v1::SubmitProofRequest r;
  r.set_request_id(o.request_id);
  const std::string& p = o.priority;
  r.set_priority(p == "low" ? v1::LOW : p == "high" ? v1::HIGH : p == "critical" ? v1::CRITICAL : v1::NORMAL);
  if (o.deadline_in_s) {
    const auto due = std::chrono::system_clock::now() + std::chrono::duration<double>(*o.deadline_in_s);
    r.set_deadline_unix_ms(
        (uint64_t)std::chrono::duration_cast<std::chrono::milliseconds>(due.time_since_epoch()).count());
  }
  if (!o.snap.empty()) {
    if (o.update.empty())
      throw Error(ErrorCode::kInvalidArgument, "client --snap needs --update update.json");
    const SnapJobFiles f = read_snap_job_files(o.snap, o.update);
    r.set_proof_kind(v1::SNAP_DEALS_UPDATE);
    for (const std::vector<uint8_t>& p : f.vanilla_proofs)
      r.add_vanilla_proofs(std::string(p.begin(), p.end()));
    r.set_registered_proof(o.registered_proof.value_or(f.registered_proof));
    r.set_sector_size(o.sector_size.value_or(f.sector_size));
    r.set_comm_r_old(std::string(f.comm_r_old.begin(), f.comm_r_old.end()));
    r.set_comm_r_new(std::string(f.comm_r_new.begin(), f.comm_r_new.end()));
    r.set_comm_d_new(std::string(f.comm_d_new.begin(), f.comm_d_new.end()));
    return r;
  }
  if (!o.post.empty()) {
    const PostRequestFile f = read_post_request_file(o.post);
    r.set_proof_kind(f.winning ? v1::WINNING_POST : v1::WINDOW_POST_PARTITION);
    r.set_registered_proof(f.registered_proof);
    for (const auto& v : f.vanilla_proofs) r.add_vanilla_proofs(std::string(v.begin(), v.end()));
    r.set_randomness(std::string(f.randomness.begin(), f.randomness.end()));
    r.set_miner_id(f.miner_id);
    if (f.partition_index > UINT32_MAX)
      throw Error(ErrorCode::kInvalidArgument, o.post + ": partition_index " +
                                                   std::to_string(f.partition_index) +
                                                   " does not fit the request's 32 bits");
    r.set_partition_index((uint32_t)f.partition_index);
    return r;
  }
  if (!o.porep.empty()) {
    const std::vector<uint8_t> c1 = read_file_bytes(o.porep);
    r.set_proof_kind(v1::POREP_SEAL_COMMIT);
    r.set_vanilla_proof(std::string(c1.begin(), c1.end()));
    r.set_sector_number(o.sector_number);
    uint64_t proof = 0, size = 0;
    if (!o.registered_proof || !o.sector_size) {
      try {
        const C1Output parsed = read_c1(c1, o.porep);
        proof = parsed.registered_proof.id;
        size = parsed.registered_proof.sector_size;
      } catch (const Error&) {  // sent as it is: the daemon's answer names the problem
      }
    }
    r.set_registered_proof(o.registered_proof.value_or(proof));
    r.set_sector_size(o.sector_size.value_or(size));
    return r;
  }
  std::vector<uint8_t> wb;
  try {
    wb = read_file_bytes(o.witness);  // refuses what is not a regular file (a folder, a fifo, /dev/zero)
  } catch (const Error& e) {
    throw Error(e.code(), std::string(e.what()) +
                              " (the witness: give one with --witness; the default is relative to the "
                              "repository root)");
  }
  const std::string w(wb.begin(), wb.end());
  r.set_circuit_id(o.circuit);
  for (unsigned i = 0; i < o.partitions; i++) r.add_witnesses(w);
  return r;
}

void check(const grpc::Status& s, const std::string& addr, const char* call) {
  if (s.ok()) return;
  const std::string msg = std::string(call) + " to " + addr + " failed: " + s.error_message();
  const bool refused = s.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
                       s.error_code() == grpc::StatusCode::NOT_FOUND ||
                       s.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
                       s.error_code() == grpc::StatusCode::UNIMPLEMENTED;
  throw Error(refused ? ErrorCode::kInvalidArgument : ErrorCode::kIo, msg);
}

namespace {

std::string to_json(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions opt;
  opt.add_whitespace = true;
  opt.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opt);
  return out;
}

/// The files a completed job's proofs went to (write_proofs): empty when none were written.
struct WrittenProofs {
  std::string proof;                                 ///< proof.bin
  std::vector<std::string> proof_json, public_json;  ///< proof_<i>.json, public_<i>.json
};

/// Prints an await result as JSON; returns 0 for COMPLETED, 1 otherwise. The proofs that were written
/// to files are shown by their paths ("proof": "DIR/proof.bin", "proofJson": ["DIR/proof_0.json", …],
/// "publicJson": […]), the others as the response carries them (the proof bytes in base64).
int print_result(const v1::AwaitProofResponse& r, const WrittenProofs& written) {
  if (written.proof.empty()) {
    std::printf("%s\n", to_json(r).c_str());
  } else {
    v1::AwaitProofResponse shown = r;
    shown.clear_proof();
    shown.clear_proof_json();
    shown.clear_public_json();
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(to_json(shown));
    j["proof"] = written.proof;
    j["proofJson"] = written.proof_json;
    j["publicJson"] = written.public_json;
    std::printf("%s\n", j.dump(1).c_str());
  }
  return r.status() == v1::AwaitProofResponse::COMPLETED ? 0 : 1;
}

/// A completed job's proofs into `dir`: proof.bin (zcash encodings in partition order) and, for circom
/// circuits, proof_<i>.json and public_<i>.json. Nothing for a job not completed. Returns the paths.
WrittenProofs write_proofs(const v1::AwaitProofResponse& r, const std::string& dir_name) {
  WrittenProofs w;
  if (r.status() != v1::AwaitProofResponse::COMPLETED) return w;
  const std::filesystem::path dir(dir_name);
  w.proof = (dir / "proof.bin").string();
  write_file_atomic(w.proof, r.proof());
  for (int i = 0; i < r.proof_json_size(); i++) {
    w.proof_json.push_back((dir / ("proof_" + std::to_string(i) + ".json")).string());
    w.public_json.push_back((dir / ("public_" + std::to_string(i) + ".json")).string());
    write_file_atomic(w.proof_json.back(), r.proof_json(i));
    write_file_atomic(w.public_json.back(), r.public_json(i));
  }
  return w;
}

/// Creates the --out folder when it is missing (its parent must exist) and checks that it can be
/// written, before the job is sent.
void prepare_out_dir(const std::string& dir) {
  make_folder(dir);
  check_outputs({}, {(std::filesystem::path(dir) / "proof.bin").string()});
}

}  // namespace

int run_client(const std::string& what, const ClientOptions& o, bool) {
  auto stub = connect(o.addr);
  grpc::ClientContext ctx;
  if (what == "prove") {
    v1::ProveRequest req;
    *req.mutable_submit() = job_request(o);
    prepare_out_dir(o.out_dir);
    v1::ProveResponse resp;
    check(stub->Prove(&ctx, req, &resp), o.addr, "Prove");
    const v1::AwaitProofResponse& r = resp.result();
    return print_result(r, write_proofs(r, o.out_dir));
  }
  if (what == "submit") {
    v1::SubmitProofResponse resp;
    check(stub->SubmitProof(&ctx, job_request(o), &resp), o.addr, "SubmitProof");
    std::printf("%s\n", resp.job_id().c_str());
    return 0;
  }
  if (what == "await") {
    if (!o.out_dir.empty()) prepare_out_dir(o.out_dir);
    v1::AwaitProofRequest req;
    req.set_job_id(o.job_id);
    req.set_timeout_ms(o.timeout_ms);
    v1::AwaitProofResponse resp;
    check(stub->AwaitProof(&ctx, req, &resp), o.addr, "AwaitProof");
    return print_result(resp, o.out_dir.empty() ? WrittenProofs{} : write_proofs(resp, o.out_dir));
  }
  if (what == "cancel") {
    v1::CancelProofRequest req;
    req.set_job_id(o.job_id);
    v1::CancelProofResponse resp;
    check(stub->CancelProof(&ctx, req, &resp), o.addr, "CancelProof");
    std::printf("%s\n", to_json(resp).c_str());
    return resp.found() ? 0 : 1;
  }
  if (what == "status") {
    v1::GetStatusResponse resp;
    check(stub->GetStatus(&ctx, v1::GetStatusRequest(), &resp), o.addr, "GetStatus");
    std::printf("%s\n", to_json(resp).c_str());
    return 0;
  }
  if (what == "metrics") {
    v1::GetMetricsResponse resp;
    check(stub->GetMetrics(&ctx, v1::GetMetricsRequest(), &resp), o.addr, "GetMetrics");
    std::fputs(resp.prometheus_text().c_str(), stdout);
    return 0;
  }
  if (what == "preload") {
    v1::PreloadSrsRequest req;
    req.set_circuit_id(o.circuit);
    v1::PreloadSrsResponse resp;
    check(stub->PreloadSRS(&ctx, req, &resp), o.addr, "PreloadSRS");
    std::printf("%s\n", to_json(resp).c_str());
    return 0;
  }
  v1::EvictSrsRequest req;
  req.set_circuit_id(o.circuit);
  v1::EvictSrsResponse resp;
  check(stub->EvictSRS(&ctx, req, &resp), o.addr, "EvictSRS");
  std::printf("%s\n", to_json(resp).c_str());
  return 0;
}
#else
int run_client(const std::string&, const ClientOptions&, bool) {
  throw Error(ErrorCode::kInvalidArgument, "this cuzk was built without the gRPC daemon (CUZK_SERVICE)");
}
#endif

}  // namespace cuzk::cli
