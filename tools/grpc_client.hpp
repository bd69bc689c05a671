// Helpers of the gRPC client commands (client.cpp, bench_batch.cpp): a channel to the daemon and a
// SubmitProofRequest for a circom/bellperson job.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine_commands.hpp"

namespace cuzk::cli {

/// A stub on an insecure channel to `addr` (host:port or unix:///path).
std::unique_ptr<cuzk::v1::ProvingEngine::Stub> connect(const std::string& addr);

/// A submit request: with o.porep, a POREP_SEAL_COMMIT job with that file's bytes as vanilla_proof and
/// registered_proof / sector_size from the options or else from the C1 (both left 0 when it does not
/// parse: the daemon judges it); otherwise o.circuit with o.witness's bytes once per partition (the proof
/// kind is left unspecified: the daemon takes the circuit's). Throws Error(kIo) when a file cannot be read.
cuzk::v1::SubmitProofRequest job_request(const ClientOptions& o);

/// Throws Error(kIo) naming the address for a failed call (kInvalidArgument for a refused request).
void check(const grpc::Status& s, const std::string& addr, const char* call);

}  // namespace cuzk::cli
