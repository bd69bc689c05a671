// The cuzk daemon: the proving engine (src/engine) behind the cuzk.v1 gRPC service (TCP or a unix
// socket) and an HTTP endpoint with /metrics (Prometheus text) and /status (JSON).
#pragma once

#include <memory>
#include <string>

#include "engine/engine.hpp"
#include "service/config.hpp"

namespace cuzk::service {

/// A running daemon. Construction starts everything; shutdown() drains and stops it.
class Daemon {
 public:
  /// Sets spdlog's level to cfg.log_level, creates the backends (one per device; CPU backends when the build
  /// has no GPU backend), the engine, registers cfg's circuits (loading those marked preload), then listens.
  /// Throws Error(kInvalidArgument) naming the address when gRPC or HTTP cannot listen, or the loader's error
  /// for a preload.
  explicit Daemon(const ServiceConfig& cfg);
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  /// The TCP port gRPC listens on (the chosen one when the config says port 0; 0 for a unix socket).
  int grpc_port() const;
  /// The HTTP port (0 when status_listen is empty).
  int http_port() const;
  engine::Engine& engine();

  /// Stops taking jobs, lets started jobs finish and cancels queued ones (their waiting clients get
  /// CANCELLED), then stops the gRPC and HTTP servers. Idempotent; safe from any thread.
  void shutdown();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::service
