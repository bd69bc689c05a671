// The cuzk.v1.ProvingEngine gRPC service on top of an Engine (proto/cuzk/v1/proving.proto).
#pragma once

#include <memory>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"

namespace cuzk::service {

/// Makes the service object for `engine` (which must outlive it).
std::unique_ptr<cuzk::v1::ProvingEngine::Service> make_grpc_service(engine::Engine& engine);

}  // namespace cuzk::service
