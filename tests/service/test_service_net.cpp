// The daemon's connections under abuse (issue 36): HTTP clients that trickle their headers do not keep
// /status from answering (N5); requests being received are bounded in size and, all connections together,
// in bytes, so the daemon's peak RSS stays bounded (N7); the connection cap and the listener's peer
// addresses. The descriptor flood (N1) and two daemons at once on one socket (N6) are in net_e2e.sh.
#include <arpa/inet.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"
#include "service/config.hpp"
#include "service/daemon.hpp"
#include "service/listener.hpp"
#include "util/error.hpp"

extern char** environ;

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
using Clock = std::chrono::steady_clock;
const std::string kData = std::string(CUZK_SOURCE_DIR) + "/tests/data/";

std::string file_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// A TCP connection to 127.0.0.1:port (closed by the destructor); -1 when connect failed.
struct Tcp {
  explicit Tcp(int port) {
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      close(fd);
      fd = -1;
    }
  }
  ~Tcp() {
    if (fd >= 0) close(fd);
  }
  Tcp(const Tcp&) = delete;
  Tcp& operator=(const Tcp&) = delete;
  bool send_text(const std::string& s) const {
    return send(fd, s.data(), s.size(), MSG_NOSIGNAL) == (ssize_t)s.size();
  }
  int fd = -1;
};

const std::string kMimc = "[[circuits]]\nid = \"mimc\"\nzkey = \"mimc/mimc_dev.zkey\"\n";

/// A daemon in this process on free loopback ports, serving mimc, with `extra` TOML.
struct Local {
  explicit Local(const std::string& extra = "") {
    const ServiceConfig cfg = parse_config(
        "[daemon]\nlisten = \"127.0.0.1:0\"\nstatus_listen = \"127.0.0.1:0\"\n"
        "[gpus]\ngpu_threads = 1\n[synthesis]\nthreads = 1\n[logging]\nlevel = \"warn\"\n" +
            extra + kMimc,
        "test.toml", kData);
    daemon = std::make_unique<Daemon>(cfg);
  }
  std::unique_ptr<Daemon> daemon;
};

// ---- N5: HTTP clients that trickle their request heads --------------------------------------------------

// 32 clients each send a header line every second and never finish their request (cpp-httplib's 16
// threads were held by them for as long as they went on: /status did not answer). Each is closed 2 s
// (limits' http_timeout_s) after it connected, and /status answers within a second all along.
TEST(ServiceNet, TricklingHttpHeadersDoNotBlockStatus) {
  Local d;
  const int port = d.daemon->http_port();
  std::atomic<bool> stop{false};
  std::atomic<int> closed_in_time{0}, trickled_long{0};
  std::vector<std::thread> tricklers;
  for (int i = 0; i < 32; i++)
    tricklers.emplace_back([&, i] {
      while (!stop) {  // a new connection as soon as the daemon closes the last one
        Tcp c(port);
        const auto t0 = Clock::now();
        bool open = c.fd >= 0 && c.send_text("GET /status HTTP/1.1\r\nHost: x\r\n");
        int lines = 0;
        while (open && !stop) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1000 + 50 * (i % 10)));
          open = c.send_text("X-Trickle-" + std::to_string(lines++) + ": 1\r\n");
          char b;
          // The daemon closed it: a read sees the end (or a reset).
          const ssize_t n = open ? recv(c.fd, &b, 1, MSG_DONTWAIT) : 0;
          if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) open = false;
        }
        if (stop) return;
        const double s = seconds_since(t0);
        if (s < 4.5) closed_in_time++;
        if (lines >= 6) trickled_long++;
      }
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  httplib::Client http("127.0.0.1", port);
  http.set_connection_timeout(1, 0);
  http.set_read_timeout(1, 0);
  for (int round = 0; round < 8; round++) {  // 8 s: every trickler has been closed and has reconnected
    const auto t0 = Clock::now();
    auto res = http.Get("/status");
    EXPECT_TRUE(res) << "round " << round << ": /status did not answer within 1 s";
    if (!res) break;
    EXPECT_EQ(res->status, 200);
    EXPECT_NE(res->body.find("\"accepting\": true"), std::string::npos);
    EXPECT_LT(seconds_since(t0), 1.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  }
  stop = true;
  for (auto& t : tricklers) t.join();
  EXPECT_GE(closed_in_time, 32);  // every trickler was closed at least once, within 2 s and a line
  EXPECT_EQ(trickled_long, 0);
}

// The rest of the HTTP endpoint: HEAD, 404, 405, a request head over 8 KiB (431), a request sent in
// pieces, and a connection that says nothing is closed after http_timeout_s.
TEST(ServiceNet, HttpAnswersEachRequestOnceAndClosesSilentConnections) {
  Local d;
  const int port = d.daemon->http_port();
  auto exchange = [&](const std::string& request, size_t piece = 7) {
    Tcp c(port);
    for (size_t i = 0; i < request.size(); i += piece) {  // in pieces
      EXPECT_TRUE(c.send_text(request.substr(i, piece)));
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::string got;
    char buf[4096];
    timeval tv{5, 0};
    setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    for (ssize_t n; (n = recv(c.fd, buf, sizeof buf, 0)) > 0;) got.append(buf, (size_t)n);
    return got;
  };
  std::string r = exchange("GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(r.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << r.substr(0, 200);
  EXPECT_NE(r.find("cuzk_jobs_total"), std::string::npos);
  EXPECT_NE(r.find("Connection: close"), std::string::npos);
  r = exchange("HEAD /status HTTP/1.0\n\n");
  EXPECT_EQ(r.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << r;
  EXPECT_EQ(r.find("accepting"), std::string::npos);  // no body
  EXPECT_EQ(exchange("GET /nope HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0), 0u);
  EXPECT_EQ(exchange("POST /status HTTP/1.1\r\nContent-Length: 0\r\n\r\n").rfind("HTTP/1.1 405", 0), 0u);
  EXPECT_EQ(exchange("GARBAGE\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  const std::string long_head = "GET /status HTTP/1.1\r\nX: " + std::string(9000, 'a') + "\r\n\r\n";
  EXPECT_EQ(exchange(long_head, 1000).rfind("HTTP/1.1 431", 0), 0u);
  // Silent: closed 2 s after connecting.
  Tcp silent(port);
  const auto t0 = Clock::now();
  char b;
  timeval tv{10, 0};
  setsockopt(silent.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  EXPECT_EQ(recv(silent.fd, &b, 1, 0), 0);
  EXPECT_GT(seconds_since(t0), 1.5);
  EXPECT_LT(seconds_since(t0), 4.0);
}

// ---- gRPC connections: the cap, silent connections, client addresses -----------------------------------

// limits.max_connections = 8: 20 silent connections leave the daemon at most 8 open; each is closed after
// limits.handshake_timeout_s (1 s here), after which calls are served again. A call's client address is the
// TCP peer's, not gRPC's "fd:N".
TEST(ServiceNet, ConnectionsAreCappedAndSilentOnesClosed) {
  Local d("[limits]\nmax_connections = 8\nhandshake_timeout_s = 1\n");
  const int port = d.daemon->grpc_port();
  std::vector<std::unique_ptr<Tcp>> silent;
  for (int i = 0; i < 20; i++) silent.push_back(std::make_unique<Tcp>(port));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // The daemon closed the 12 it took no more of: a read sees their end.
  int closed = 0;
  for (auto& c : silent) {
    char b;
    closed += recv(c->fd, &b, 1, MSG_DONTWAIT) == 0;
  }
  EXPECT_EQ(closed, 12);
  // After the handshake timeout the other 8 are closed as well, and a call is served.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  closed = 0;
  for (auto& c : silent) {
    char b;
    closed += recv(c->fd, &b, 1, MSG_DONTWAIT) == 0;
  }
  EXPECT_EQ(closed, 20);
  auto stub = v1::ProvingEngine::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  v1::GetStatusResponse gs;
  EXPECT_TRUE(stub->GetStatus(&ctx, v1::GetStatusRequest(), &gs).ok());
  EXPECT_EQ(client_address("ipv4:1.2.3.4:5"), "ipv4:1.2.3.4:5");
  EXPECT_EQ(client_address("fd:999999"), "fd:999999");  // not one of ours
}

// A unix socket: the lock on PATH.lock decides between daemons (net_e2e.sh starts two at once); a process
// that takes no lock and answers on PATH keeps it, and a file that is not a socket is left alone.
TEST(ServiceNet, UnixSocketIsTakenUnderItsLock) {
  const std::string sock = "/tmp/cuzk-net-" + std::to_string(getpid()) + ".sock";
  auto listen_error = [&] {
    try {
      ConnectionListener l("unix://" + sock, {});
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      return std::string(e.what());
    }
    return std::string();
  };
  std::filesystem::remove(sock);
  {
    ConnectionListener first("unix://" + sock, {});
    EXPECT_EQ(listen_error(),
              "daemon.listen: cannot listen on unix://" + sock + ": another daemon holds " + sock + ".lock");
    first.stop();
    EXPECT_FALSE(std::filesystem::exists(sock));  // removed by its owner
  }
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 4), 0);
  EXPECT_EQ(listen_error(),
            "daemon.listen: cannot listen on unix://" + sock + ": a running daemon answers on " + sock);
  close(fd);
  EXPECT_EQ(listen_error(), "");  // the file of a socket nobody answers on is replaced
  std::filesystem::remove(sock);
  std::ofstream(sock) << "not a socket";
  EXPECT_EQ(listen_error(),
            "daemon.listen: cannot listen on unix://" + sock + ": " + sock + " exists and is not a socket");
  std::filesystem::remove(sock);
  std::filesystem::remove(sock + ".lock");
}

TEST(ServiceNet, MaxConnectionsFollowsTheDescriptorLimit) {
  EXPECT_EQ(effective_max_connections(0, 1024), 512u);
  EXPECT_EQ(effective_max_connections(0, 256), 128u);
  EXPECT_EQ(effective_max_connections(0, 1 << 20), 4096u);
  EXPECT_EQ(effective_max_connections(10000, 1 << 20), 10000u);
  EXPECT_EQ(effective_max_connections(10000, 1024), 512u);  // never past half the descriptors
  EXPECT_EQ(effective_max_connections(0, 1), 1u);
  const uint64_t limit = raise_fd_limit();
  rlimit rl{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
  EXPECT_EQ(rl.rlim_cur, rl.rlim_max);
  EXPECT_EQ(limit, rl.rlim_cur);
}

// ---- N7: bytes being received ---------------------------------------------------------------------------

/// Run by the tests below in a child process (this binary again), so that its peak RSS is the daemon's
/// alone: serves $CUZK_NET_CONFIG and writes its gRPC port to $CUZK_NET_PORT_FILE, until killed.
TEST(ServiceNetChild, Serve) {
  const char* config = std::getenv("CUZK_NET_CONFIG");
  const char* port_file = std::getenv("CUZK_NET_PORT_FILE");
  if (!config || !port_file) GTEST_SKIP() << "the daemon of ServiceNet tests in a child process";
  Daemon d(load_config(config));
  std::ofstream(std::string(port_file) + ".tmp") << d.grpc_port() << "\n";
  std::filesystem::rename(std::string(port_file) + ".tmp", port_file);
  for (;;) pause();
}

/// A daemon in a child process (ServiceNetChild.Serve) with `toml` (its circuit paths relative to
/// tests/data); killed by the destructor.
struct Child {
  explicit Child(const std::string& toml) {
    const auto dir = std::filesystem::temp_directory_path();
    const std::string tag = std::to_string(getpid()) + "-" + std::to_string(counter++);
    config = (dir / ("cuzk-net-" + tag + ".toml")).string();
    port_file = (dir / ("cuzk-net-" + tag + ".port")).string();
    std::ofstream(config) << toml;
    std::string v1 = "CUZK_NET_CONFIG=" + config, v2 = "CUZK_NET_PORT_FILE=" + port_file;
    std::vector<char*> envp;
    for (char** e = environ; *e; e++) envp.push_back(*e);
    envp.push_back(v1.data());
    envp.push_back(v2.data());
    envp.push_back(nullptr);
    std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::string filter = "--gtest_filter=ServiceNetChild.Serve";
    char* argv[] = {self.data(), filter.data(), nullptr};
    if (posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv, envp.data()) != 0) pid = -1;
    for (int i = 0; i < 300 && pid > 0 && !std::filesystem::exists(port_file); i++)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream(port_file) >> port;
  }
  ~Child() {
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
    std::filesystem::remove(config);
    std::filesystem::remove(port_file);
  }
  /// VmHWM (peak RSS) of the child in bytes.
  uint64_t peak_rss() const {
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(f, line))
      if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
  }
  static inline int counter = 0;
  std::string config, port_file;
  pid_t pid = -1;
  int port = 0;
};

std::unique_ptr<v1::ProvingEngine::Stub> big_stub(int port) {
  grpc::ChannelArguments args;
  args.SetMaxSendMessageSize(1 << 30);
  return v1::ProvingEngine::NewStub(grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port),
                                                              grpc::InsecureChannelCredentials(), args));
}

grpc::Status submit(v1::ProvingEngine::Stub& stub, const v1::SubmitProofRequest& req) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  v1::SubmitProofResponse resp;
  return stub.SubmitProof(&ctx, req, &resp);
}

v1::SubmitProofRequest mimc_job(std::string witness) {
  v1::SubmitProofRequest r;
  r.set_circuit_id("mimc");
  r.set_proof_kind(v1::CIRCOM_GROTH16);
  r.add_witnesses(std::move(witness));
  return r;
}

// A message over limits.max_message_bytes (16 MiB here) is refused with RESOURCE_EXHAUSTED at once; 24
// clients sending a 15 MiB message each at once (360 MiB) are held to limits.max_receiving_bytes (48 MiB)
// of gRPC's memory: those past it get RESOURCE_EXHAUSTED (or UNAVAILABLE: a connection closed under
// pressure), and the daemon's peak RSS stays far below what the messages would take (with no bound on
// the bytes being received, ~4 copies of each: about 750 MB here, 3.2 GB for one 1 GiB message before).
// Afterwards a normal job is served.
TEST(ServiceNet, BytesBeingReceivedAreBounded) {
  Child d(
      "[daemon]\nlisten = \"127.0.0.1:0\"\n[gpus]\ngpu_threads = 1\n[synthesis]\nthreads = 1\n"
      "[logging]\nlevel = \"warn\"\n[limits]\nmax_message_bytes = \"16MiB\"\nmax_receiving_bytes = "
      "\"48MiB\"\n"
      "[[circuits]]\nid = \"mimc\"\nzkey = \"" +
      kData + "mimc/mimc_dev.zkey\"\n");
  ASSERT_GT(d.port, 0) << "the child daemon did not start";
  auto stub = big_stub(d.port);
  const uint64_t base = d.peak_rss();
  auto t0 = Clock::now();
  grpc::Status st = submit(*stub, mimc_job(std::string(40 << 20, 'w')));
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
  EXPECT_LT(seconds_since(t0), 5.0);
  // Clients sending `size` bytes each, all at once: counts of the answers.
  struct Answers {
    int ok = 0, refused = 0, other = 0;
  };
  auto flood = [&](int clients, size_t size) {
    std::atomic<int> ok{0}, refused{0}, other{0};
    const std::string witness(size, 'w');
    std::vector<std::thread> threads;
    for (int i = 0; i < clients; i++)
      threads.emplace_back([&] {
        auto s = big_stub(d.port);  // a connection each
        const grpc::Status r = submit(*s, mimc_job(witness));
        if (r.ok())
          ok++;
        else if (r.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED ||
                 r.error_code() == grpc::StatusCode::UNAVAILABLE)
          refused++;
        else
          other++;
      });
    for (auto& t : threads) t.join();
    return Answers{ok.load(), refused.load(), other.load()};
  };
  // Over the limit: received at most up to the quota, all refused.
  Answers a = flood(24, 40 << 20);
  const uint64_t peak_over = d.peak_rss();
  EXPECT_EQ(a.ok, 0);
  EXPECT_EQ(a.other, 0);
  // Within the limit, more at once than the quota holds: each taken or refused, nothing else.
  Answers b = flood(8, 15 << 20);
  const uint64_t peak = d.peak_rss();
  std::printf("peak RSS %.1f MB at start, %.1f MB after 24 x 40 MiB, %.1f MB after 8 x 15 MiB (%d taken)\n",
              base / 1e6, peak_over / 1e6, peak / 1e6, b.ok);
  EXPECT_EQ(b.other, 0);
  EXPECT_EQ(b.ok + b.refused, 8);
  EXPECT_LT(peak_over, base + (200ull << 20));
  EXPECT_LT(peak, base + (300ull << 20));
  // A message just within the limit, alone, is taken.
  EXPECT_TRUE(submit(*stub, mimc_job(std::string((16 << 20) - 1024, 'w'))).ok());
  // The daemon still serves.
  v1::SubmitProofResponse resp;
  grpc::ClientContext ctx;
  EXPECT_TRUE(stub->SubmitProof(&ctx, mimc_job(file_text(kData + "mimc/mimc.wtns")), &resp).ok());
}

TEST(ServiceNet, MessageLimitsAreChecked) {
  auto err = [](const std::string& toml) {
    try {
      parse_config(toml, "t.toml", kData);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(parse_config("", "t.toml", kData).limits.max_message_bytes, 256u << 20);
  EXPECT_EQ(parse_config("", "t.toml", kData).limits.max_receiving_bytes, 1u << 30);
  EXPECT_EQ(
      parse_config("[limits]\nmax_message_bytes = \"64MiB\"\n", "t.toml", kData).limits.max_message_bytes,
      64u << 20);
  EXPECT_EQ(err("[limits]\nmax_message_bytes = \"3GiB\"\n"),
            "t.toml: limits.max_message_bytes: must be between 64KiB and 2GiB - 1 byte, got 3GiB");
  EXPECT_EQ(
      err("[limits]\nmax_message_bytes = \"512MiB\"\nmax_receiving_bytes = \"256MiB\"\n"),
      "t.toml: limits.max_receiving_bytes: must be at least limits.max_message_bytes (536870912 bytes), "
      "got 268435456 bytes");
  EXPECT_EQ(err("[limits]\nmax_connections = -1\n"),
            "t.toml: limits.max_connections: must be between 0 and 1048576, got -1");
  EXPECT_EQ(err("[limits]\nhandshake_timeout_s = 0\n"),
            "t.toml: limits.handshake_timeout_s: must be between 1 and 3600, got 0");
}

}  // namespace
}  // namespace cuzk::service
