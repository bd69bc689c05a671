// The cuzk.v1.ProvingEngine gRPC service on top of an Engine (proto/cuzk/v1/proving.proto).
#pragma once

#include <memory>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"
#include "service/porep_jobs.hpp"
#include "service/post_jobs.hpp"

namespace cuzk::service {

/// Makes the service object for `engine`, with POREP_SEAL_COMMIT jobs made by `porep` and
/// WINDOW_POST_PARTITION / WINNING_POST jobs by `post` (all must outlive it). Bad requests get
/// INVALID_ARGUMENT naming the problem; a PoRep or PoSt job whose parameters are missing gets
/// FAILED_PRECONDITION naming the file; SNAP_DEALS_UPDATE UNIMPLEMENTED.
std::unique_ptr<cuzk::v1::ProvingEngine::Service> make_grpc_service(engine::Engine& engine, PorepJobs& porep,
                                                                    PostJobs& post);

}  // namespace cuzk::service
