// The daemon's HTTP endpoint (daemon.status_listen): GET /metrics (Prometheus text) and GET /status
// (JSON: devices, circuits, queues, counters, memory), for dashboards and debugging.
#pragma once

#include <memory>
#include <string>

#include "engine/engine.hpp"

namespace cuzk::service {

/// The engine's status as a JSON document (the same facts as GetStatus, with our names).
std::string status_json(const engine::EngineStatus& s);

/// An HTTP/1.1 server of GET (and HEAD) /status and /metrics on one thread of its own, which polls every
/// connection: one request per connection (answered with "Connection: close"). A connection has
/// `timeout_s` seconds from its accept to send its request head (8 KiB at most), however slowly it
/// trickles in, and `timeout_s` more for the response to be taken; then it is closed. At most
/// `max_connections` are open: a new one closes the oldest. So no number of slow or silent clients keeps
/// /status from being answered (issue 36 N5: cpp-httplib's 16 threads were each held for as long as a
/// client sent a header line every second).
class HttpStatusServer {
 public:
  /// Listens on `addr` (host:port; port 0 picks one; never shared with another process: no
  /// SO_REUSEPORT). Throws Error(kInvalidArgument) naming the address when it cannot listen.
  HttpStatusServer(engine::Engine& engine, const std::string& addr, unsigned max_connections = 64,
                   unsigned timeout_s = 2);
  /// Stops the server and joins its thread.
  ~HttpStatusServer();
  int port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::service
