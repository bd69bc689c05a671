// The cuzk.v1.ProvingEngine gRPC service on top of an Engine (proto/cuzk/v1/proving.proto).
#pragma once

#include <memory>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"
#include "engine/job_store.hpp"
#include "service/config.hpp"
#include "service/porep_jobs.hpp"
#include "service/post_jobs.hpp"
#include "service/snap_jobs.hpp"

namespace cuzk::service {

/// Makes the service object for `engine`, with POREP_SEAL_COMMIT jobs made by `porep` and
/// Makes the service object for `engine`, with POREP_SEAL_COMMIT jobs made by `porep`, SNAP_DEALS_UPDATE
/// jobs by `snap` and WINDOW_POST_PARTITION / WINNING_POST jobs by `post` (all must outlive it). Bad
/// requests get INVALID_ARGUMENT naming the problem (client text in messages is cut to 64 bytes,
/// engine::printable); a request over `limits` INVALID_ARGUMENT naming the limit; a request_id reused
/// for a different request ALREADY_EXISTS; a full daemon (queued input, waiting clients)
/// RESOURCE_EXHAUSTED; a Filecoin job whose parameters are missing FAILED_PRECONDITION naming the file.
/// With `farm` (a [cluster] daemon, docs/CLUSTER.md), SubmitProof, AwaitProof, Prove, CancelProof and
/// GetStatus's queues and nodes go to the farm's store (UNAVAILABLE while its database is away) and only
/// the farm-capable kinds are taken (others UNIMPLEMENTED); `engine` proves what the node claims.
std::unique_ptr<cuzk::v1::ProvingEngine::Service> make_grpc_service(engine::Engine& engine, PorepJobs& porep,
                                                                    SnapJobs& snap, PostJobs& post,
                                                                    const ServiceLimits& limits,
                                                                    engine::JobStore* farm = nullptr);

}  // namespace cuzk::service
