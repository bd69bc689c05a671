// The daemon's listening sockets, its own rather than gRPC's and cpp-httplib's (issue 36;
// docs/DAEMON_LIMITS.md "Connections"). gRPC 1.51's listener stops accepting for good once accept4 fails with
// EMFILE (gRPC issues 16058, 20418, 31080: "Failed accept4: Too many open files", then no call is answered
// again), and it has no cap on connections. ConnectionListener accepts the gRPC connections itself: at most
// max_connections at once, never past half the process's descriptor limit, retrying after EMFILE instead of
// stopping; it closes a connection whose client sends nothing within handshake_timeout_s and hands the others
// to the gRPC server (grpc::AddInsecureChannelFromFd). On a unix socket it holds an exclusive flock on
// PATH.lock for its life, so that of two daemons started at once on one socket exactly one listens.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cuzk::service {

/// Raises the soft RLIMIT_NOFILE to the hard limit (where it is lower) and returns the soft limit then.
uint64_t raise_fd_limit();

/// The connections the daemon takes at once: `configured` (limits.max_connections; 0 = min(4096, half
/// of `fd_limit`)), at most half of `fd_limit` (the soft RLIMIT_NOFILE), at least 1.
unsigned effective_max_connections(unsigned configured, uint64_t fd_limit);

/// TCP sockets listening on `host`:`port` (every address the host resolves to, as gRPC does: "localhost"
/// gives ::1 and 127.0.0.1; "[::]" a dual-stack socket), with SO_REUSEADDR and without SO_REUSEPORT, so a
/// port another process listens on is refused; non-blocking, close-on-exec. Port 0 picks one free port
/// for all of them; `*bound_port` gets the port. Throws Error(kInvalidArgument, "<key>: cannot listen on
/// <host>:<port>: <why>").
std::vector<int> listen_tcp(const std::string& key, const std::string& host, const std::string& port,
                            int* bound_port);

/// Limits of a ConnectionListener.
struct ListenerOptions {
  unsigned max_connections = 4096;    ///< connections open at once, waiting for a first byte or handed over
  unsigned handshake_timeout_s = 10;  ///< a connection that sends nothing for this long is closed
};

/// The gRPC server's listener: accepts on its own thread and hands each connection over by its descriptor.
class ConnectionListener {
 public:
  /// Listens on `address` (daemon.listen: "host:port", port 0 picks one, or "unix:PATH" / "unix:///PATH").
  /// A unix socket: takes an exclusive flock on PATH.lock (created when missing, never removed: a lock
  /// file that is removed can be locked twice), then refuses when something answers on PATH (a daemon
  /// that takes no lock), else replaces a socket file left there. Throws Error(kInvalidArgument,
  /// "daemon.listen: cannot listen on <address>: <why>"), e.g. "another daemon holds PATH.lock".
  ConnectionListener(const std::string& address, ListenerOptions opt);
  /// stop().
  ~ConnectionListener();
  ConnectionListener(const ConnectionListener&) = delete;
  ConnectionListener& operator=(const ConnectionListener&) = delete;

  /// Starts accepting: each connection whose client has sent its first bytes is passed to `take`, which
  /// owns the descriptor from then on (closes it when the connection ends). Called once.
  void start(std::function<void(int fd)> take);
  /// Stops accepting and joins the thread; closes the listening sockets and the connections not handed
  /// over yet, and removes the unix socket's file (not the lock file). Idempotent.
  void stop();
  /// The TCP port it listens on (0 for a unix socket).
  int port() const;
  /// Connections open now: those waiting for their first bytes and those handed over that their owner
  /// has not closed yet.
  size_t open_connections();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The client's address ("ipv4:127.0.0.1:50602", "ipv6:[::1]:50602", "unix:/run/curio/cuzk.sock") of a
/// gRPC call, from ServerContext::peer(): a connection a ConnectionListener handed over has peer "fd:N"
/// in gRPC; other strings are returned as they are.
std::string client_address(const std::string& grpc_peer);

}  // namespace cuzk::service
