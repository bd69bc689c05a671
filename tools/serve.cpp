// `cuzk serve --config cuzk.toml`: the daemon in the foreground. SIGTERM or SIGINT drains started jobs,
// cancels queued ones and exits 0; a bad configuration exits 2 before anything starts.
#include "engine_commands.hpp"
#include "util/error.hpp"

#ifdef CUZK_WITH_SERVICE
#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>

#include <cstring>

#include "service/config.hpp"
#include "service/daemon.hpp"
#endif

namespace cuzk::cli {

#ifdef CUZK_WITH_SERVICE
int run_serve(const ServeOptions& o) {
  // Signals go to one waiting thread (sigwait), never to the engine's or gRPC's threads: block them
  // before any thread starts so that every thread inherits the mask.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  const service::ServiceConfig cfg = service::load_config(o.config);
  service::Daemon daemon(cfg);
  int sig = 0;
  sigwait(&set, &sig);
  spdlog::info("received {}: shutting down", sigabbrev_np(sig) ? sigabbrev_np(sig) : "signal");
  daemon.shutdown();
  return 0;
}
#else
int run_serve(const ServeOptions&) {
  throw Error(ErrorCode::kInvalidArgument,
              "this cuzk was built without the gRPC daemon (CUZK_SERVICE): install grpc++, protobuf, spdlog, "
              "toml++ and cpp-httplib (scripts/install-deps.sh) and rebuild");
}
#endif

}  // namespace cuzk::cli
