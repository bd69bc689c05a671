#include "service/listener.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "util/error.hpp"

namespace cuzk::service {
namespace {

using Clock = std::chrono::steady_clock;

/// How long the listener stops accepting after accept failed for want of descriptors or memory.
constexpr auto kAcceptBackoff = std::chrono::milliseconds(100);
/// Least time between two counts of the handed-over connections that are still open (an fstat each).
constexpr auto kSweepInterval = std::chrono::milliseconds(100);
/// Least time between two warnings of one kind (a connection refused at the cap, accept failing).
constexpr auto kWarnInterval = std::chrono::seconds(10);
/// Connections accepted in one turn of the loop, so that waiting connections are served in between.
constexpr int kAcceptBatch = 64;

std::string errno_text(int err) { return std::strerror(err); }

/// "ipv4:1.2.3.4:5", "ipv6:[::1]:5" (gRPC's form of a peer), "unix:PATH" for a unix socket.
std::string peer_text(const sockaddr_storage& a, const std::string& unix_path) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    const auto& in = reinterpret_cast<const sockaddr_in&>(a);
    inet_ntop(AF_INET, &in.sin_addr, buf, sizeof buf);
    return std::string("ipv4:") + buf + ":" + std::to_string(ntohs(in.sin_port));
  }
  if (a.ss_family == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a);
    inet_ntop(AF_INET6, &in6.sin6_addr, buf, sizeof buf);
    return std::string("ipv6:[") + buf + "]:" + std::to_string(ntohs(in6.sin6_port));
  }
  return "unix:" + unix_path;
}

/// A connection handed to gRPC: its socket's identity (so that a descriptor number reused for another
/// file is not taken for it), the client's address, and the listener that accepted it.
struct Handed {
  dev_t dev = 0;
  ino_t ino = 0;
  std::string peer;
  const void* owner = nullptr;
};

/// Every connection handed over in this process, by descriptor (numbers are process-wide, so one map serves
/// all listeners: tests run several daemons in one process).
std::mutex g_handed_mu;
std::unordered_map<int, Handed> g_handed;

/// The entry's socket is still open under its descriptor.
bool still_open(int fd, const Handed& h) {
  struct stat st {};
  return fstat(fd, &st) == 0 && st.st_dev == h.dev && st.st_ino == h.ino;
}

/// Drops closed connections from g_handed and returns those of `owner` left. Holds g_handed_mu.
size_t sweep_locked(const void* owner) {
  size_t n = 0;
  for (auto it = g_handed.begin(); it != g_handed.end();) {
    if (!still_open(it->first, it->second)) {
      it = g_handed.erase(it);
      continue;
    }
    n += it->second.owner == owner;
    ++it;
  }
  return n;
}

/// Rate-limited warnings: the first of a burst is logged, then one line per kWarnInterval with a count.
struct Warner {
  Clock::time_point last{};
  uint64_t suppressed = 0;
  template <typename F>
  void warn(Clock::time_point now, F&& log) {
    if (last != Clock::time_point{} && now - last < kWarnInterval) {
      suppressed++;
      return;
    }
    log(suppressed);
    suppressed = 0;
    last = now;
  }
};

}  // namespace

uint64_t raise_fd_limit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 1024;
  if (rl.rlim_cur < rl.rlim_max) {
    rlimit want = rl;
    want.rlim_cur = rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &want) == 0) rl = want;
  }
  return rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur;
}

unsigned effective_max_connections(unsigned configured, uint64_t fd_limit) {
  const uint64_t half = std::max<uint64_t>(fd_limit / 2, 1);
  const uint64_t want = configured ? configured : std::min<uint64_t>(4096, half);
  return (unsigned)std::max<uint64_t>(std::min(want, half), 1);
}

std::vector<int> listen_tcp(const std::string& key, const std::string& host_in, const std::string& port,
                            int* bound_port) {
  std::string host = host_in;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  auto fail = [&](const std::string& why) {
    return Error(ErrorCode::kInvalidArgument,
                 key + ": cannot listen on " + host_in + ":" + port + ": " + why);
  };
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  if (const int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &res); rc != 0)
    throw fail(std::string("cannot resolve the host: ") + gai_strerror(rc));
  std::vector<const addrinfo*> addrs;
  bool has_v4 = false;
  for (const addrinfo* a = res; a; a = a->ai_next)
    if (a->ai_family == AF_INET || a->ai_family == AF_INET6) {
      addrs.push_back(a);
      has_v4 |= a->ai_family == AF_INET;
    }
  std::vector<int> fds;
  std::string first_error;
  int chosen = std::stoi(port);
  for (const addrinfo* a : addrs) {
    sockaddr_storage sa{};
    std::memcpy(&sa, a->ai_addr, a->ai_addrlen);
    if (chosen != 0) {  // port 0: the port the first socket got, for the others too
      if (sa.ss_family == AF_INET) reinterpret_cast<sockaddr_in&>(sa).sin_port = htons((uint16_t)chosen);
      if (sa.ss_family == AF_INET6) reinterpret_cast<sockaddr_in6&>(sa).sin6_port = htons((uint16_t)chosen);
    }
    const int fd = socket(a->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      if (first_error.empty()) first_error = errno_text(errno);
      continue;
    }
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (a->ai_family == AF_INET6) {
      int v6only = has_v4 ? 1 : 0;  // "[::]" alone takes IPv4 clients too, as gRPC's listener does
      setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only);
    }
    if (bind(fd, reinterpret_cast<const sockaddr*>(&sa), a->ai_addrlen) != 0 || listen(fd, SOMAXCONN) != 0) {
      if (first_error.empty()) first_error = errno_text(errno);
      close(fd);
      continue;
    }
    if (chosen == 0) {
      sockaddr_storage got{};
      socklen_t len = sizeof got;
      getsockname(fd, reinterpret_cast<sockaddr*>(&got), &len);
      chosen = ntohs(got.ss_family == AF_INET ? reinterpret_cast<sockaddr_in&>(got).sin_port
                                              : reinterpret_cast<sockaddr_in6&>(got).sin6_port);
    }
    fds.push_back(fd);
  }
  freeaddrinfo(res);
  if (fds.empty()) throw fail(first_error.empty() ? "no IPv4 or IPv6 address" : first_error);
  *bound_port = chosen;
  return fds;
}

struct ConnectionListener::Impl {
  std::string address;
  ListenerOptions opt;
  std::vector<int> listen_fds;
  int port = 0;
  std::string unix_path;  ///< a unix socket's path ("" for TCP)
  ino_t unix_ino = 0;     ///< its inode, so that stop() removes only the file it made
  int lock_fd = -1;       ///< the flock on unix_path + ".lock"
  int wake_fd = -1;       ///< an eventfd: stop() wakes the loop
  std::atomic<bool> stopping{false};
  std::thread thread;
  std::function<void(int)> take;
  std::once_flag stopped;

  /// A connection waiting for its client's first bytes.
  struct Pending {
    int fd;
    Clock::time_point deadline;
    std::string peer;
  };
  std::vector<Pending> pending;
  std::atomic<size_t> pending_n{0};  ///< pending.size(), for other threads
  size_t handed_open = 0;  ///< handed-over connections still open at the last sweep, plus those since
  Clock::time_point last_sweep{};
  Clock::time_point backoff_until{};
  Warner cap_warn, accept_warn;

  [[noreturn]] void fail(const std::string& why) const {
    throw Error(ErrorCode::kInvalidArgument, "daemon.listen: cannot listen on " + address + ": " + why);
  }

  void listen_unix(std::string path) {
    if (path.rfind("//", 0) == 0) path = path.substr(2);
    sockaddr_un addr{};
    if (path.empty()) fail("no socket path");
    if (path.size() >= sizeof addr.sun_path)
      fail("the socket path is longer than " + std::to_string(sizeof addr.sun_path - 1) + " bytes");
    // The lock first: of two daemons started at once, the second stops here (before, both could find no
    // live socket, and the second one's bind replaced the first one's file).
    const std::string lock_path = path + ".lock";
    lock_fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd < 0) fail("cannot open " + lock_path + ": " + errno_text(errno));
    if (flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      close(lock_fd);
      lock_fd = -1;
      fail(err == EWOULDBLOCK ? "another daemon holds " + lock_path
                              : "cannot lock " + lock_path + ": " + errno_text(err));
    }
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0) {
      if (!S_ISSOCK(st.st_mode)) fail(path + " exists and is not a socket");
      // A process that takes no lock (an older daemon) may answer there: leave it its socket.
      const int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      const bool live =
          probe >= 0 && connect(probe, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
      if (probe >= 0) close(probe);
      if (live) fail("a running daemon answers on " + path);
      unlink(path.c_str());  // left by a daemon that died
    }
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) fail(errno_text(errno));
    if (bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 || listen(fd, SOMAXCONN) != 0) {
      const int err = errno;
      close(fd);
      fail(errno_text(err) + (err == ENOENT ? " (the socket folder is missing)" : ""));
    }
    if (lstat(path.c_str(), &st) == 0) unix_ino = st.st_ino;
    unix_path = path;
    listen_fds.push_back(fd);
  }

  /// Connections open now (pending and handed over), counting the handed-over ones again when the count
  /// reached the cap and the last count is older than kSweepInterval.
  size_t open_now(Clock::time_point now) {
    if (pending.size() + handed_open >= opt.max_connections && now - last_sweep >= kSweepInterval) {
      std::lock_guard lk(g_handed_mu);
      handed_open = sweep_locked(this);
      last_sweep = now;
    }
    return pending.size() + handed_open;
  }

  void hand_over(Pending& p) {
    struct stat st {};
    if (fstat(p.fd, &st) != 0) {
      close(p.fd);
      return;
    }
    {
      std::lock_guard lk(g_handed_mu);
      g_handed[p.fd] = Handed{st.st_dev, st.st_ino, std::move(p.peer), this};
    }
    handed_open++;
    take(p.fd);
  }

  void accept_some(int lfd, Clock::time_point now) {
    for (int i = 0; i < kAcceptBatch; i++) {
      sockaddr_storage sa{};
      socklen_t len = sizeof sa;
      const int fd = accept4(lfd, reinterpret_cast<sockaddr*>(&sa), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        const int err = errno;
        if (err == EAGAIN || err == EWOULDBLOCK) return;
        if (err == ECONNABORTED || err == EINTR || err == EPROTO || err == EPERM)
          continue;  // that connection is gone, the next may not be
        // Out of descriptors (EMFILE: something else holds them, connections are capped below the limit)
        // or memory: the connection waits in the backlog, and accepting resumes after the back-off, never
        // stops (gRPC's own listener stopped for good here).
        backoff_until = now + kAcceptBackoff;
        accept_warn.warn(now, [&](uint64_t n) {
          spdlog::error("{}: accept: {}: retrying every {} ms ({} more since the last report)", address,
                        errno_text(err), kAcceptBackoff.count(), n);
        });
        return;
      }
      std::string peer = peer_text(sa, unix_path);
      if (open_now(now) >= opt.max_connections) {
        close(fd);
        cap_warn.warn(now, [&](uint64_t n) {
          spdlog::warn(
              "{}: {} connections are open (limits.max_connections): closed a new one from {} ({} "
              "more closed since the last report)",
              address, opt.max_connections, peer, n);
        });
        continue;
      }
      if (unix_path.empty()) {
        int yes = 1;  // as gRPC's own listener sets it: small messages are not held back
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
      }
      pending.push_back({fd, now + std::chrono::seconds(opt.handshake_timeout_s), std::move(peer)});
    }
  }

  /// Hands `p` over once its client has sent something, closes it when the client closed it first or
  /// its time is up; returns whether it is settled (no longer pending).
  bool settle(Pending& p, short revents, Clock::time_point now) {
    if (revents & POLLIN) {
      char c;
      const ssize_t n = recv(p.fd, &c, 1, MSG_PEEK);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) return false;
      if (n > 0)
        hand_over(p);  // the bytes stay in the socket for gRPC
      else
        close(p.fd);  // closed (or failed) before it said anything
      return true;
    }
    if (revents & (POLLERR | POLLHUP | POLLRDHUP | POLLNVAL)) {
      close(p.fd);
      return true;
    }
    if (now < p.deadline) return false;
    spdlog::debug("{}: closed a connection from {} that sent nothing for {} s", address, p.peer,
                  opt.handshake_timeout_s);
    close(p.fd);
    return true;
  }

  void run() {
    std::vector<pollfd> pfds;
    while (!stopping.load()) {
      Clock::time_point now = Clock::now();
      const bool accepting = now >= backoff_until;
      pfds.clear();
      pfds.push_back({wake_fd, POLLIN, 0});
      for (int fd : listen_fds) pfds.push_back({accepting ? fd : -1, POLLIN, 0});
      Clock::time_point wake_at = now + std::chrono::seconds(1);
      if (!accepting) wake_at = std::min(wake_at, backoff_until);
      for (const Pending& p : pending) {
        pfds.push_back({p.fd, POLLIN | POLLRDHUP, 0});
        wake_at = std::min(wake_at, p.deadline);
      }
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake_at - now).count() + 1;
      if (poll(pfds.data(), pfds.size(), (int)std::max<int64_t>(ms, 0)) < 0 && errno != EINTR) {
        spdlog::error("{}: poll: {}", address, errno_text(errno));
        std::this_thread::sleep_for(kAcceptBackoff);
        continue;
      }
      if (stopping.load()) break;
      now = Clock::now();
      // Pending connections first (their slots), in place: index k of pending is pfds[1 + listeners + k].
      const size_t base = 1 + listen_fds.size();
      size_t kept = 0;
      for (size_t k = 0; k < pending.size(); k++) {
        Pending& p = pending[k];
        if (settle(p, pfds[base + k].revents, now)) continue;
        if (kept != k) pending[kept] = std::move(p);
        kept++;
      }
      pending.resize(kept);
      pending_n = pending.size();
      for (size_t i = 0; i < listen_fds.size(); i++)
        if (pfds[1 + i].revents & POLLIN) accept_some(listen_fds[i], now);
      pending_n = pending.size();
    }
  }
};

ConnectionListener::ConnectionListener(const std::string& address, ListenerOptions opt)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.address = address;
  m.opt = opt;
  m.opt.max_connections = std::max(1u, opt.max_connections);
  m.opt.handshake_timeout_s = std::max(1u, opt.handshake_timeout_s);
  try {
    if (address.rfind("unix:", 0) == 0) {
      m.listen_unix(address.substr(5));
    } else {
      // gRPC's "ipv4:HOST:PORT" and "ipv6:[HOST]:PORT" are host:port too.
      const size_t from = address.rfind("ipv4:", 0) == 0 || address.rfind("ipv6:", 0) == 0 ? 5 : 0;
      const size_t colon = address.rfind(':');
      if (colon == std::string::npos || colon < from) m.fail("expected host:port or unix:///path");
      m.listen_fds =
          listen_tcp("daemon.listen", address.substr(from, colon - from), address.substr(colon + 1), &m.port);
    }
    m.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m.wake_fd < 0) m.fail("eventfd: " + errno_text(errno));
  } catch (...) {
    for (int fd : m.listen_fds) close(fd);
    if (m.lock_fd >= 0) close(m.lock_fd);
    throw;
  }
}

ConnectionListener::~ConnectionListener() {
  stop();
  if (impl_->wake_fd >= 0) close(impl_->wake_fd);
  if (impl_->lock_fd >= 0) close(impl_->lock_fd);  // releases the flock
  std::lock_guard lk(g_handed_mu);
  for (auto it = g_handed.begin(); it != g_handed.end();)
    it = it->second.owner == impl_.get() ? g_handed.erase(it) : std::next(it);
}

void ConnectionListener::start(std::function<void(int)> take) {
  Impl& m = *impl_;
  m.take = std::move(take);
  m.thread = std::thread([&m] { m.run(); });
}

void ConnectionListener::stop() {
  Impl& m = *impl_;
  std::call_once(m.stopped, [&m] {
    m.stopping = true;
    if (m.thread.joinable()) {
      const uint64_t one = 1;
      (void)!write(m.wake_fd, &one, sizeof one);
      m.thread.join();
    }
    for (const Impl::Pending& p : m.pending) close(p.fd);
    m.pending.clear();
    for (int fd : m.listen_fds) close(fd);
    m.listen_fds.clear();
    struct stat st {};
    if (!m.unix_path.empty() && lstat(m.unix_path.c_str(), &st) == 0 && st.st_ino == m.unix_ino)
      unlink(m.unix_path.c_str());
  });
}

int ConnectionListener::port() const { return impl_->port; }

size_t ConnectionListener::open_connections() {
  std::lock_guard lk(g_handed_mu);
  return sweep_locked(impl_.get()) + impl_->pending_n.load();
}

std::string client_address(const std::string& grpc_peer) {
  if (grpc_peer.rfind("fd:", 0) != 0) return grpc_peer;
  int fd = -1;
  try {
    fd = std::stoi(grpc_peer.substr(3));
  } catch (const std::exception&) {
    return grpc_peer;
  }
  std::lock_guard lk(g_handed_mu);
  const auto it = g_handed.find(fd);
  return it != g_handed.end() && still_open(fd, it->second) ? it->second.peer : grpc_peer;
}

}  // namespace cuzk::service
