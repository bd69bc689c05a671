#include "service/http_status.hpp"

#include <httplib.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

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
                 {"queued_input_bytes", s.queued_input_bytes},
                 {"retained_jobs", s.retained_jobs},
                 {"retained_bytes", s.retained_bytes}};
  return j.dump(1);
}

struct HttpStatusServer::Impl {
  httplib::Server server;
  std::thread thread;
  int port = 0;
};

HttpStatusServer::HttpStatusServer(engine::Engine& engine, const std::string& addr, unsigned threads,
                                   unsigned timeout_s)
    : impl_(std::make_unique<Impl>()) {
  const size_t colon = addr.rfind(':');
  const std::string host = addr.substr(0, colon);
  const int port = std::stoi(addr.substr(colon + 1));
  httplib::Server& srv = impl_->server;
  // cpp-httplib's default sets SO_REUSEPORT, which lets a second daemon bind the same port.
  srv.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  threads = std::max(1u, threads);
  srv.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // Idle or slow connections give their thread back after timeout_s.
  srv.set_read_timeout(std::max(1u, timeout_s), 0);
  srv.set_write_timeout(std::max(1u, timeout_s), 0);
  srv.set_keep_alive_timeout(std::max(1u, timeout_s));
  impl_->server.Get("/metrics", [&engine](const httplib::Request&, httplib::Response& res) {
    res.set_content(engine.metrics_text(), "text/plain; version=0.0.4");
  });
  impl_->server.Get("/status", [&engine](const httplib::Request&, httplib::Response& res) {
    res.set_content(status_json(engine.status()), "application/json");
  });
  impl_->port =
      port == 0 ? impl_->server.bind_to_any_port(host) : (impl_->server.bind_to_port(host, port) ? port : -1);
  if (impl_->port < 0)
    throw Error(ErrorCode::kInvalidArgument,
                "daemon.status_listen: cannot listen on " + addr + " (in use or not a local address)");
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
}

HttpStatusServer::~HttpStatusServer() {
  impl_->server.stop();
  impl_->thread.join();
}

int HttpStatusServer::port() const { return impl_->port; }

}  // namespace cuzk::service
