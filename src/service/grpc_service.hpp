// The cuzk.v1.ProvingEngine gRPC service on top of an Engine (proto/cuzk/v1/proving.proto).
#pragma once

#include <memory>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"
#include "engine/farm_worker.hpp"
#include "engine/job_store.hpp"
#include "engine/kinds/proof_kinds.hpp"
#include "service/config.hpp"

namespace cuzk::service {

/// Makes the service object for `engine`, every request's job made by its kind in `kinds` (which must
/// outlive it; the service translates the wire into engine::ProofRequest and back). Bad
/// requests get INVALID_ARGUMENT naming the problem (client text in messages is cut to 64 bytes,
/// engine::printable); a request over `limits` INVALID_ARGUMENT naming the limit; a request_id reused
/// for a different request ALREADY_EXISTS; a full daemon (queued input, waiting clients)
/// RESOURCE_EXHAUSTED; a Filecoin job whose parameters are missing FAILED_PRECONDITION naming the file.
/// With `farm` (a [cluster] daemon, docs/CLUSTER.md), SubmitProof, AwaitProof, Prove, CancelProof and
/// GetStatus's queues and nodes go to the farm's store (UNAVAILABLE while its database is away); a
/// Filecoin job is checked as in a single daemon, then stored with its request as the job's input and
/// one row per partition (make_farm_expander makes the partitions on the claiming node); `engine` proves
/// what the node claims.
std::unique_ptr<cuzk::v1::ProvingEngine::Service> make_grpc_service(engine::Engine& engine,
                                                                    engine::ProofKinds& kinds,
                                                                    const ServiceLimits& limits,
                                                                    engine::JobStore* farm = nullptr);

/// How a farm node makes a Filecoin job's partitions from its stored input (FarmWorkerConfig::expand):
/// the input is the serialized SubmitProofRequest (less request_id, priority, deadline) and the job is
/// the one a single daemon makes of it at submit, by its kind in `kinds` (which must outlive the
/// expander). Throws Error(kInvalidEncoding) for bytes that are no such request, Error(kInvalidArgument)
/// for a request of another kind than the job's or not of a Filecoin kind, and the kind's errors (naming
/// the bad field).
engine::FarmExpander make_farm_expander(engine::ProofKinds& kinds);

}  // namespace cuzk::service
