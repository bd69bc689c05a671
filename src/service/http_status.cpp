#include "service/http_status.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "service/listener.hpp"
#include "util/error.hpp"

namespace cuzk::service {

std::string status_json(const engine::EngineStatus& s) {
  nlohmann::json j;
  j["uptime_seconds"] = s.uptime_s;
  j["accepting"] = s.accepting;
  j["devices"] = nlohmann::json::array();
  for (const auto& d : s.devices)
    j["devices"].push_back({{"ordinal", d.ordinal},
                            {"name", d.name},
                            {"workers", d.workers},
                            {"busy_fraction", d.busy_fraction},
                            {"current_job_id", d.current_job_id},
                            {"current_proof_kind", d.current_kind}});
  j["circuits"] = nlohmann::json::array();
  for (const auto& c : s.circuits)
    j["circuits"].push_back({{"id", c.id},
                             {"kind", c.kind},
                             {"tier", c.resident ? "hot" : "cold"},
                             {"bytes", c.bytes},
                             {"ref_count", c.ref_count},
                             {"load_ms", c.load_ms}});
  j["jobs"] = {{"submitted", s.jobs_submitted},
               {"completed", s.jobs_completed},
               {"failed", s.jobs_failed},
               {"cancelled", s.jobs_cancelled},
               {"by_kind", nlohmann::json::array()}};
  for (const auto& k : s.kinds)
    j["jobs"]["by_kind"].push_back(
        {{"proof_kind", k.kind}, {"pending", k.pending}, {"in_progress", k.in_progress}});
  j["partitions_completed"] = s.partitions_completed;
  j["queues"] = {{"synthesis", s.synth_queue}, {"gpu", s.gpu_queue}, {"finalize", s.final_queue}};
  j["memory"] = {{"used_bytes", s.memory_used},
                 {"budget_bytes", s.memory_budget},
                 {"peak_bytes", s.memory_peak},
                 {"partitions_in_flight", s.partitions_in_flight},
                 {"partitions_in_flight_peak", s.partitions_in_flight_peak},
                 {"partitions_waiting", s.partitions_waiting_memory},
                 {"early_releases", s.early_releases},
                 {"queued_input_bytes", s.queued_input_bytes},
                 {"retained_jobs", s.retained_jobs},
                 {"retained_bytes", s.retained_bytes}};
  return j.dump(1);
}

namespace {

using Clock = std::chrono::steady_clock;

/// Longest request head (request line and headers) read; a longer one is answered 431.
constexpr size_t kMaxHead = 8192;
/// How long a connection may take to send the rest of its request after its response (read and dropped,
/// so that closing does not reset the connection before the client has read the response).
constexpr auto kLinger = std::chrono::seconds(1);

/// One HTTP connection: its request head is read, then the response written, then the connection closed.
struct Conn {
  int fd = -1;
  Clock::time_point accepted, deadline;
  std::string in;   ///< the request head so far
  std::string out;  ///< the response
  size_t sent = 0;
  bool eof = false;  ///< the client closed its sending side
  enum State { kReading, kWriting, kLingering } state = kReading;
};

std::string response(int code, const char* reason, const std::string& type, const std::string& body,
                     bool head_only, const char* extra = "") {
  std::string r = "HTTP/1.1 " + std::to_string(code) + " " + reason + "\r\nContent-Type: " + type +
                  "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + extra +
                  "Connection: close\r\n\r\n";
  if (!head_only) r += body;
  return r;
}

}  // namespace

struct HttpStatusServer::Impl {
  engine::Engine* engine = nullptr;
  std::vector<int> listen_fds;
  int port = 0;
  size_t max_connections = 64;
  std::chrono::seconds timeout{2};
  int wake_fd = -1;
  std::atomic<bool> stopping{false};
  std::vector<Conn> conns;
  Clock::time_point backoff_until{};  ///< accepting pauses until then after running out of descriptors
  std::thread thread;

  /// The response to a complete request head.
  std::string answer(const std::string& head) const {
    const size_t eol = head.find_first_of("\r\n");
    const std::string line = head.substr(0, eol);
    const size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
    if (sp1 == std::string::npos || sp2 == sp1 || line.compare(sp2 + 1, 7, "HTTP/1.") != 0)
      return response(400, "Bad Request", "text/plain", "bad request\n", false);
    const std::string method = line.substr(0, sp1);
    std::string path = line.substr(sp1 + 1, sp2 - sp1 - 1);
    path = path.substr(0, path.find('?'));
    const bool head_only = method == "HEAD";
    if (method != "GET" && !head_only)
      return response(405, "Method Not Allowed", "text/plain", "GET or HEAD\n", false,
                      "Allow: GET, HEAD\r\n");
    try {
      if (path == "/status")
        return response(200, "OK", "application/json", status_json(engine->status()), head_only);
      if (path == "/metrics")
        return response(200, "OK", "text/plain; version=0.0.4", engine->metrics_text(), head_only);
    } catch (const std::exception& e) {
      return response(500, "Internal Server Error", "text/plain", std::string(e.what()) + "\n", head_only);
    }
    return response(404, "Not Found", "text/plain", "not found: /status or /metrics\n", head_only);
  }

  /// Sends what the socket takes of c.out; when all is sent, shuts the sending side and lingers.
  void flush(Conn& c, Clock::time_point now) {
    while (c.sent < c.out.size()) {
      const ssize_t n = send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL);
      if (n > 0) {
        c.sent += (size_t)n;
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
      c.deadline = now;  // the client is gone: closed below
      return;
    }
    shutdown(c.fd, SHUT_WR);
    c.state = Conn::kLingering;
    c.deadline = std::min(c.deadline, now + kLinger);
  }

  /// Reads what has arrived; returns false when the connection is to be closed now.
  bool on_readable(Conn& c, Clock::time_point now) {
    char buf[4096];
    for (;;) {
      const ssize_t n = recv(c.fd, buf, sizeof buf, 0);
      if (n == 0) {  // the client closed its side: finish writing a response, else close
        c.eof = true;
        return c.state == Conn::kWriting;
      }
      if (n < 0) return errno == EAGAIN || errno == EINTR;
      if (c.state != Conn::kReading) continue;  // lingering: what comes after the head is dropped
      const size_t scan_from = c.in.size() >= 3 ? c.in.size() - 3 : 0;
      c.in.append(buf, std::min<size_t>((size_t)n, kMaxHead + 1 - c.in.size()));
      const size_t end = std::min(c.in.find("\r\n\r\n", scan_from), c.in.find("\n\n", scan_from));
      if (end == std::string::npos && c.in.size() <= kMaxHead) continue;
      c.out = end == std::string::npos ? response(431, "Request Header Fields Too Large", "text/plain",
                                                  "request head too long\n", false)
                                       : answer(c.in);
      c.state = Conn::kWriting;
      c.deadline = now + timeout;  // to write the response
      flush(c, now);
      if (c.state == Conn::kWriting) return true;
    }
  }

  void accept_some(int lfd, Clock::time_point now) {
    for (int i = 0; i < 64; i++) {
      const int fd = accept4(lfd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        // Out of descriptors or memory: the connection waits in the backlog, tried again after a pause
        // (the listening socket stays readable: polling it at once would spin).
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
          backoff_until = now + std::chrono::milliseconds(100);
        if (errno != ECONNABORTED && errno != EINTR) return;  // EAGAIN: none left
        continue;
      }
      if (conns.size() >= max_connections) {
        // Full: the oldest connection goes (it has had the longest to send its request).
        auto oldest = std::min_element(conns.begin(), conns.end(),
                                       [](const Conn& a, const Conn& b) { return a.accepted < b.accepted; });
        close(oldest->fd);
        conns.erase(oldest);
      }
      Conn c;
      c.fd = fd;
      c.accepted = now;
      c.deadline = now + timeout;  // the whole request head, however it trickles in
      conns.push_back(std::move(c));
    }
  }

  void run() {
    std::vector<pollfd> pfds;
    while (!stopping.load()) {
      Clock::time_point now = Clock::now();
      pfds.clear();
      pfds.push_back({wake_fd, POLLIN, 0});
      const bool accepting = now >= backoff_until;
      for (int fd : listen_fds) pfds.push_back({accepting ? fd : -1, POLLIN, 0});
      Clock::time_point wake_at = now + std::chrono::seconds(1);
      if (!accepting) wake_at = std::min(wake_at, backoff_until);
      for (const Conn& c : conns) {
        pfds.push_back({c.fd, (short)((c.eof ? 0 : POLLIN) | (c.state == Conn::kWriting ? POLLOUT : 0)), 0});
        wake_at = std::min(wake_at, c.deadline);
      }
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake_at - now).count() + 1;
      const int rc = poll(pfds.data(), pfds.size(), (int)std::max<int64_t>(ms, 0));
      if (stopping.load()) break;
      if (rc < 0) {
        // Not expected (EINTR aside); a pause keeps an error from spinning.
        if (errno != EINTR) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      now = Clock::now();
      const size_t base = 1 + listen_fds.size();
      size_t kept = 0;
      for (size_t k = 0; k < conns.size(); k++) {
        Conn& c = conns[k];
        const short ev = pfds[base + k].revents;
        bool open = true;
        if (ev & (POLLIN | POLLHUP | POLLERR)) open = on_readable(c, now);
        if (open && c.state == Conn::kWriting && (ev & POLLOUT)) flush(c, now);
        if (!open || now >= c.deadline || (c.state == Conn::kLingering && c.eof)) {
          close(c.fd);
          continue;
        }
        if (kept != k) conns[kept] = std::move(c);
        kept++;
      }
      conns.resize(kept);
      for (size_t i = 0; i < listen_fds.size(); i++)
        if (pfds[1 + i].revents & POLLIN) accept_some(listen_fds[i], now);
    }
  }
};

HttpStatusServer::HttpStatusServer(engine::Engine& engine, const std::string& addr, unsigned max_connections,
                                   unsigned timeout_s)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.engine = &engine;
  m.max_connections = std::max(1u, max_connections);
  m.timeout = std::chrono::seconds(std::max(1u, timeout_s));
  const size_t colon = addr.rfind(':');
  m.listen_fds = listen_tcp("daemon.status_listen", addr.substr(0, colon), addr.substr(colon + 1), &m.port);
  m.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (m.wake_fd < 0) {
    for (int fd : m.listen_fds) close(fd);
    throw Error(ErrorCode::kInvalidArgument,
                "daemon.status_listen: eventfd: " + std::string(strerror(errno)));
  }
  m.thread = std::thread([&m] { m.run(); });
}

HttpStatusServer::~HttpStatusServer() {
  Impl& m = *impl_;
  m.stopping = true;
  const uint64_t one = 1;
  (void)!write(m.wake_fd, &one, sizeof one);
  m.thread.join();
  for (const Conn& c : m.conns) close(c.fd);
  for (int fd : m.listen_fds) close(fd);
  close(m.wake_fd);
}

int HttpStatusServer::port() const { return impl_->port; }

}  // namespace cuzk::service
