// The daemon's HTTP endpoint (daemon.status_listen): GET /metrics (Prometheus text) and GET /status
// (JSON: devices, circuits, queues, counters, memory), for dashboards and debugging.
#pragma once

#include <memory>
#include <string>

#include "engine/engine.hpp"

namespace cuzk::service {

/// The engine's status as a JSON document (the same facts as GetStatus, with our names).
std::string status_json(const engine::EngineStatus& s);

/// An HTTP server on its own thread.
class HttpStatusServer {
 public:
  /// Listens on `addr` (host:port; port 0 picks one; never shared with another process: no
  /// SO_REUSEPORT) with `threads` threads; a connection that sends or takes nothing for `timeout_s`
  /// seconds is closed. Throws Error(kInvalidArgument) naming the address when it cannot listen.
  HttpStatusServer(engine::Engine& engine, const std::string& addr, unsigned threads = 16,
                   unsigned timeout_s = 2);
  /// Stops the server and joins its thread.
  ~HttpStatusServer();
  int port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::service
