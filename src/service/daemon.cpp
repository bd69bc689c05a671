#include "service/daemon.hpp"

#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/server_posix.h>
#include <malloc.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "engine/farm_worker.hpp"
#include "engine/kinds/proof_kinds.hpp"
#include "engine/loaders.hpp"
#include "groth16/cpu_backend.hpp"
#ifdef CUZK_WITH_CUDA
#include "cuda/gpu_backend.hpp"
#include "cuda/point_decode.hpp"
#endif
#ifdef CUZK_WITH_CLUSTER
#include "cluster/pg_store.hpp"
#endif
#include "service/grpc_service.hpp"
#include "service/http_status.hpp"
#include "service/listener.hpp"
#include "util/error.hpp"

namespace cuzk::service {
namespace {

/// Malloc arenas the daemon lets glibc use (bound_malloc_arenas).
constexpr int kMallocArenas = 2;

/// gRPC server threads for the synchronous calls running at once (daemon's ResourceQuota).
constexpr int kSyncCallThreads = 256;

/// glibc gives a thread that allocates while another holds the arena's lock an arena of its own (up to
/// 8 per core), and memory freed in an arena stays there, in pages that neither the other arenas nor
/// the kernel get back: the daemon's gRPC, synthesis, GPU-worker and finalizer threads, which allocate
/// and free a job's pieces in turn, held ~4-6 times its live heap that way (docs/RELIABILITY.md, soak
/// finding 2). Bounding the arenas to kMallocArenas keeps RSS near the heap; the proving buffers are
/// large blocks (mmap'd, no arena), so little contends for the locks. MALLOC_ARENA_MAX or a
/// glibc.malloc.arena_max tunable in the environment takes precedence.
void bound_malloc_arenas() {
#ifdef __GLIBC__
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (std::getenv("MALLOC_ARENA_MAX") || (tunables && std::strstr(tunables, "arena_max"))) return;
  mallopt(M_ARENA_MAX, kMallocArenas);
#endif
}

spdlog::level::level_enum spd_level(engine::LogLevel l) {
  switch (l) {
    case engine::LogLevel::kDebug:
      return spdlog::level::debug;
    case engine::LogLevel::kInfo:
      return spdlog::level::info;
    case engine::LogLevel::kWarn:
      return spdlog::level::warn;
    case engine::LogLevel::kError:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

/// Logs how a loaded circuit's key is laid out on each GPU (GpuBackend::plan, one line per GPU) and
/// records it for /metrics (Engine::set_key_plan); a key with released vectors is uploaded first
/// (GpuBackend::preload), so that they are on every GPU before its first proof. Nothing for CPU backends.
void log_device_plans(engine::Engine& engine, const std::vector<ProverBackend*>& devices,
                      const std::string& id, const engine::LoadedCircuit& circuit) {
#ifdef CUZK_WITH_CUDA
  for (ProverBackend* b : devices) {
    auto* gpu = dynamic_cast<GpuBackend*>(b);
    if (!gpu) continue;
    try {
      const int dev = gpu->options().device;
      if (!circuit.key->complete()) {
        const auto t0 = std::chrono::steady_clock::now();
        gpu->preload(circuit.key, circuit.rows.get());
        spdlog::info(
            "key_uploaded circuit={} gpu={} host_bytes={} ms={}", engine::printable(id), dev,
            circuit.key->point_bytes(),
            (long)std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      const DevicePlan plan = gpu->plan(*circuit.key, circuit.rows.get());
      spdlog::info("device_plan circuit={} gpu={} budget={} resident_bytes={} streamed_bytes={} plan=\"{}\"",
                   engine::printable(id), dev, plan.budget, plan.resident_bytes, plan.streamed_bytes,
                   plan.describe());
      engine.set_key_plan(id, dev, plan.resident_bytes, plan.streamed_bytes);
    } catch (const std::exception& e) {
      spdlog::warn("device_plan circuit={} error=\"{}\"", engine::printable(id), e.what());
    }
  }
#else
  (void)engine, (void)devices, (void)id, (void)circuit;
#endif
}

}  // namespace

struct Daemon::Impl {
  std::vector<std::unique_ptr<ProverBackend>> backends;
  std::unique_ptr<engine::Engine> engine;
  std::unique_ptr<engine::ProofKinds> kinds;        ///< every proof kind, its circuits from srs.param_cache
  std::unique_ptr<engine::JobStore> farm;           ///< [cluster]: the farm's database
  std::unique_ptr<engine::FarmWorker> farm_worker;  ///< [cluster]: claims partitions for this node
  std::unique_ptr<cuzk::v1::ProvingEngine::Service> service;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<ConnectionListener> listener;  ///< gRPC's connections (after server: stopped first)
  std::unique_ptr<HttpStatusServer> http;
  int grpc_port = 0;
  std::mutex stop_mu;
  bool stopped = false;
};

Daemon::Daemon(const ServiceConfig& cfg) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  bound_malloc_arenas();  // before the engine's and gRPC's threads start
  // As many descriptors as the hard limit allows (`ulimit -n` is often 1024 while the hard limit is far
  // higher): connections, parameter files and the GPU driver's share them.
  const uint64_t fd_limit = raise_fd_limit();
  spdlog::set_level(spdlog::level::from_str(cfg.log_level));
  // One backend per device: a GpuBackend per entry of gpus.devices (all GPUs when empty) in CUDA builds
  // on a machine with GPUs; otherwise CPU "devices" (each a CpuBackend with gpus.gpu_threads threads).
  std::vector<ProverBackend*> devs;
  int decode_gpu = -1;  // the GPU that decodes .params files (the first device), -1: the CPU does
#ifdef CUZK_WITH_CUDA
  if (gpu_device_count() > 0) {
    std::vector<int> ids(cfg.gpu_devices.begin(), cfg.gpu_devices.end());
    if (ids.empty())
      for (int d = 0; d < gpu_device_count(); d++) ids.push_back(d);
    decode_gpu = ids.front();
    for (int d : ids) {
      GpuBackendOptions o;
      o.device = d;
      o.mem_budget = cfg.gpu_mem_budget_bytes;
      m.backends.push_back(std::make_unique<GpuBackend>(o));
    }
  }
#endif
  if (m.backends.empty()) {
    const size_t n_dev = cfg.gpu_devices.empty() ? 1 : cfg.gpu_devices.size();
    for (size_t i = 0; i < n_dev; i++) m.backends.push_back(std::make_unique<CpuBackend>(cfg.gpu_threads));
  }
  for (auto& b : m.backends) devs.push_back(b.get());
  engine::EngineConfig ec = cfg.engine_config();
  ec.log = [](const engine::LogEvent& e) { spdlog::log(spd_level(e.level), "{}", e.logfmt()); };
  m.engine = std::make_unique<engine::Engine>(ec, devs);
  // Every key loaded (preloaded now, by PreloadSRS or on first use): its device plan per GPU, logged and
  // in /metrics; a key that released vectors is uploaded at once (they are read from its file again).
  m.engine->circuits().on_load(
      [eng = m.engine.get(), devs](const std::string& id, const engine::LoadedCircuit& c) {
        log_device_plans(*eng, devs, id, c);
      });
  // .params files (bellperson and PoRep circuits) are read with srs.verify_subgroup's check, decoded on
  // the first GPU in CUDA builds.
  // With memory.release_device_keys, the vectors that every GPU keeps resident are released from host
  // memory as the key loads (ParamsReadOptions::release); the load hook above uploads them at once.
  const engine::ParamsReading reading = [decode_gpu, subgroup = cfg.verify_subgroup,
                                         eng = cfg.release_device_keys && decode_gpu >= 0
                                                   ? m.engine.get()
                                                   : nullptr](const CompactCs*, const auto& read) {
    ParamsReadOptions opt;
    opt.subgroup = subgroup ? SubgroupCheck::kYes : SubgroupCheck::kNo;
    if (eng)
      opt.release = [eng](const ProvingKey& shape, const CompactCs* rows) {
        return eng->device_resident(shape, rows);
      };
#ifdef CUZK_WITH_CUDA
    std::unique_ptr<cuda::GpuPointDecoder> decoder;
    if (decode_gpu >= 0) decoder = std::make_unique<cuda::GpuPointDecoder>(decode_gpu);
    opt.decoder = decoder.get();
#else
    (void)decode_gpu;
#endif
    return read(opt);
  };
  for (const CircuitConfig& c : cfg.circuits) {
    engine::CircuitLoader loader;
    if (c.kind == "circom")
      loader = [p = c.zkey] { return engine::load_circom(p); };
    else
      loader = [p = c.params, r = c.r1cs, reading] {
        return reading(nullptr,
                       [&](const ParamsReadOptions& opt) { return engine::load_bellperson(p, r, opt); });
      };
    m.engine->circuits().add(c.id, c.kind, std::move(loader));
  }
  // The Filecoin kinds' circuits whose parameters are in srs.param_cache (others are registered when a
  // job or PreloadSRS asks for them and their file has appeared), listed per kind in the start line.
  m.kinds = std::make_unique<engine::ProofKinds>(
      m.engine->circuits(), engine::ProofKinds::Options{cfg.param_cache, reading, cfg.synthesis_threads});
  auto present = [&](std::initializer_list<const char*> names) {
    std::string list;
    for (const char* name : names)
      for (const std::string& id : m.kinds->register_present(*m.kinds->find(name)))
        list += (list.empty() ? "" : ",") + id;
    return list.empty() ? std::string("none") : list;
  };
  const std::string porep_list = present({"POREP_SEAL_COMMIT"});
  const std::string snap_list = present({"SNAP_DEALS_UPDATE"});
  const std::string post_list = present({"WINNING_POST", "WINDOW_POST_PARTITION"});
  for (const CircuitConfig& c : cfg.circuits)
    if (c.preload) m.engine->circuits().preload(c.id);

  if (!cfg.cluster.database.empty()) {
#ifdef CUZK_WITH_CLUSTER
    cluster::PgStoreOptions po;
    po.database = cfg.cluster.database;
    po.lease_ms = cfg.cluster.lease_ms;
    po.max_attempts = cfg.cluster.max_attempts;
    po.retention_s = cfg.cluster.retention_s;
    po.deadline_lead_ms = uint64_t{cfg.deadline_lead_s} * 1000;
    po.max_queued_bytes = cfg.cluster.max_queued_bytes ? cfg.cluster.max_queued_bytes
                                                       : engine::queued_input_limit(cfg.engine_config());
    po.log = ec.log;
    m.farm = std::make_unique<cluster::PgStore>(po);
#else
    throw Error(ErrorCode::kInvalidArgument,
                "cluster.database: this cuzk was built without the cluster (libpq was not found)");
#endif
  }
  m.service = make_grpc_service(*m.engine, *m.kinds, cfg.limits, m.farm.get());
  // The daemon listens itself and hands gRPC each connection (listener.hpp: gRPC 1.51's own listener
  // stops for good after one accept fails with EMFILE). The connections are capped at half of the
  // descriptors the process may open.
  const unsigned max_connections = effective_max_connections(cfg.limits.max_connections, fd_limit);
  if (cfg.limits.max_connections > max_connections)
    spdlog::warn(
        "limits.max_connections = {} is more than half of the {} descriptors this process may open "
        "(ulimit -n): {} are taken",
        cfg.limits.max_connections, fd_limit, max_connections);
  m.listener = std::make_unique<ConnectionListener>(
      cfg.listen, ListenerOptions{max_connections, cfg.limits.handshake_timeout_s});
  m.grpc_port = m.listener->port();
  // A farm node takes its node id (refused while another running process has it: NodeIdInUse) before
  // the gRPC server starts, so that a refused one never answers a call.
  if (m.farm) {
    engine::FarmWorkerConfig fc;
    fc.node_id = cfg.cluster.node_id;
    if (fc.node_id.empty()) {
      char host[256] = {};
      gethostname(host, sizeof host - 1);
      fc.node_id = host;
    }
    fc.address = cfg.listen;  // with the port the system chose for ":0"
    if (fc.address.size() > 2 && fc.address.compare(fc.address.size() - 2, 2, ":0") == 0)
      fc.address = fc.address.substr(0, fc.address.size() - 1) + std::to_string(m.grpc_port);
    fc.slots = cfg.cluster.slots ? cfg.cluster.slots : (unsigned)devs.size() * cfg.gpu_workers_per_device + 1;
    fc.heartbeat_ms = cfg.cluster.heartbeat_ms;
    fc.expand = make_farm_expander(*m.kinds);
    fc.log = ec.log;
    m.farm_worker = std::make_unique<engine::FarmWorker>(*m.engine, *m.farm, fc);
    spdlog::info("cuzk farm node {}: lease {} ms, heartbeat {} ms, max_attempts {}, slots {}", fc.node_id,
                 cfg.cluster.lease_ms, cfg.cluster.heartbeat_ms, cfg.cluster.max_attempts, fc.slots);
  }
  grpc::ServerBuilder b;
  b.SetMaxReceiveMessageSize((int)std::min<uint64_t>(cfg.limits.max_message_bytes, INT32_MAX));
  b.SetMaxSendMessageSize(1 << 30);
  // Connections without a call for limits.max_connection_idle_s are closed: a client that leaves its
  // connections open (gRPC's own client does when a channel is dropped while it connects) cannot make
  // the daemon's descriptors grow without bound.
  b.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS,
                       (int)std::min<uint64_t>(uint64_t{cfg.limits.max_connection_idle_s} * 1000, INT32_MAX));
  // One thread per running synchronous call (SubmitProof, CancelProof, GetMetrics, the circuit calls),
  // at most kSyncCallThreads, past which gRPC refuses calls ("Server Threadpool Exhausted"). AwaitProof,
  // Prove and GetStatus are callback methods that hold none while they wait (grpc_service.cpp), so no
  // number of waiting clients takes these threads (issue 36 N2).
  grpc::ResourceQuota quota("cuzk-daemon");
  quota.SetMaxThreads(kSyncCallThreads);
  // Requests being received, all connections together, hold at most limits.max_receiving_bytes of gRPC's
  // memory (its read buffers and the messages not yet handed to a call): past it gRPC cancels streams
  // (RST_STREAM ENHANCE_YOUR_CALM, which the client gets as RESOURCE_EXHAUSTED) and closes idle connections,
  // so no number of clients sending large messages at once can grow the daemon's memory without bound.
  quota.Resize((size_t)cfg.limits.max_receiving_bytes);
  b.SetResourceQuota(quota);
  b.RegisterService(m.service.get());
  m.server = b.BuildAndStart();
  if (!m.server) throw Error(ErrorCode::kInternal, "daemon.listen: the gRPC server did not start");
  if (!cfg.status_listen.empty())
    m.http = std::make_unique<HttpStatusServer>(*m.engine, cfg.status_listen, cfg.limits.http_max_connections,
                                                cfg.limits.http_timeout_s);
  m.listener->start([server = m.server.get()](int fd) { grpc::AddInsecureChannelFromFd(server, fd); });
  spdlog::info(
      "cuzk daemon listening: grpc={} (port {}) http={} (port {}) max_connections={} fd_limit={} devices={} "
      "({}) circuits={} porep={} snap={} post={} param_cache={} verify_subgroup={} memory_budget={}",
      cfg.listen, m.grpc_port, cfg.status_listen.empty() ? "off" : cfg.status_listen, http_port(),
      max_connections, fd_limit, devs.size(), devs[0]->name(), cfg.circuits.size(), porep_list, snap_list,
      post_list, cfg.param_cache.empty() ? "unset" : cfg.param_cache.string(), cfg.verify_subgroup,
      cfg.memory_budget_bytes);
}

Daemon::~Daemon() { shutdown(); }

int Daemon::grpc_port() const { return impl_->grpc_port; }
int Daemon::http_port() const { return impl_->http ? impl_->http->port() : 0; }
engine::Engine& Daemon::engine() { return *impl_->engine; }

void Daemon::shutdown() {
  Impl& m = *impl_;
  std::lock_guard lk(m.stop_mu);
  if (m.stopped) return;
  m.stopped = true;
  spdlog::info("cuzk daemon stopping: draining started jobs, cancelling queued ones");
  if (m.farm_worker) m.farm_worker->stop();  // the partitions it proves now are stored first
  m.engine->shutdown(/*drain=*/true);
  // Awaiting clients have their answers now; give them a moment to receive them.
  m.listener->stop();
  m.server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  m.http.reset();
  spdlog::info("cuzk daemon stopped");
}

}  // namespace cuzk::service
