#include "service/config.hpp"

#include <toml++/toml.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "engine/memory.hpp"
#include "util/error.hpp"

namespace cuzk::service {
namespace {

/// Reads the keys of one table, checking types and refusing keys it does not know.
class TableReader {
 public:
  TableReader(const toml::table& t, std::string prefix, std::string file)
      : t_(t), prefix_(std::move(prefix)), file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw Error(ErrorCode::kInvalidArgument, file_ + ": " + prefix_ + key + ": " + problem);
  }

  void str(const char* key, std::string& out) {
    seen_.insert(key);
    const toml::node* n = t_.get(key);
    if (!n) return;
    if (!n->is_string()) fail(key, "expected a string");
    out = n->as_string()->get();
  }

  void uint(const char* key, unsigned& out, unsigned min, unsigned max) {
    seen_.insert(key);
    const toml::node* n = t_.get(key);
    if (!n) return;
    if (!n->is_integer()) fail(key, "expected an integer");
    const int64_t v = n->as_integer()->get();
    if (v < (int64_t)min || v > (int64_t)max)
      fail(key, "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                    std::to_string(v));
    out = (unsigned)v;
  }

  void boolean(const char* key, bool& out) {
    seen_.insert(key);
    const toml::node* n = t_.get(key);
    if (!n) return;
    if (!n->is_boolean()) fail(key, "expected true or false");
    out = n->as_boolean()->get();
  }

  void uint_list(const char* key, std::vector<unsigned>& out) {
    seen_.insert(key);
    const toml::node* n = t_.get(key);
    if (!n) return;
    if (!n->is_array()) fail(key, "expected an array of GPU ordinals, e.g. [0, 1]");
    out.clear();
    for (const toml::node& e : *n->as_array()) {
      if (!e.is_integer() || e.as_integer()->get() < 0) fail(key, "expected non-negative integers");
      out.push_back((unsigned)e.as_integer()->get());
    }
  }

  /// Marks keys that cuzk defines and that this daemon accepts without using.
  void accept(std::initializer_list<const char*> keys) { seen_.insert(keys.begin(), keys.end()); }

  /// Throws for the first key that no reader asked for.
  void no_unknown_keys() const {
    for (const auto& [k, v] : t_)
      if (!seen_.count(std::string(k.str()))) fail(std::string(k.str()), "unknown key");
  }

 private:
  const toml::table& t_;
  std::string prefix_, file_;
  std::set<std::string> seen_;
};

const toml::table* section(const toml::table& root, const char* name, const std::string& file) {
  const toml::node* n = root.get(name);
  if (!n) return nullptr;
  if (!n->is_table())
    throw Error(ErrorCode::kInvalidArgument, file + ": " + name + ": expected a table [" + name + "]");
  return n->as_table();
}

void check_address(const std::string& file, const char* key, const std::string& addr, bool allow_unix) {
  auto bad = [&](const std::string& why) {
    throw Error(ErrorCode::kInvalidArgument, file + ": " + key + ": \"" + addr + "\" " + why);
  };
  if (allow_unix && addr.rfind("unix:", 0) == 0) {
    if (addr.size() <= 5) bad("has no socket path");
    return;
  }
  const size_t colon = addr.rfind(':');
  if (colon == std::string::npos || colon == 0)
    bad(allow_unix ? "is not an address: expected host:port or unix:///path.sock"
                   : "is not an address: expected host:port");
  const std::string port = addr.substr(colon + 1);
  // At most 5 digits before the conversion: a longer run would overflow stoul (found by fuzz_config).
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port) > 65535)
    bad("has no valid port (0..65535)");
}

}  // namespace

uint64_t parse_duration_ms(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && digits < 12 && text[digits] >= '0' && text[digits] <= '9') digits++;
  const std::string unit = text.substr(digits);
  static const std::pair<const char*, uint64_t> kUnits[] = {
      {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}, {"d", 86400000}};
  if (digits > 0 && digits < 12)
    for (const auto& [u, scale] : kUnits)
      if (unit == u) return std::stoull(text.substr(0, digits)) * scale;
  throw Error(
      ErrorCode::kInvalidArgument,
      "\"" + text + "\" is not a duration: expected an integer and a unit, ms, s, m, h or d (e.g. \"30s\")");
}

engine::EngineConfig ServiceConfig::engine_config() const {
  engine::EngineConfig e;
  e.synthesis_workers = max_parallel_synthesis ? max_parallel_synthesis : synthesis_concurrency;
  e.synthesis_threads = synthesis_threads;
  e.gpu_workers_per_device = gpu_workers_per_device;
  e.synthesis_lookahead = max_gpu_queue_depth ? max_gpu_queue_depth : synthesis_lookahead;
  e.memory_budget = memory_budget_bytes;
  e.timeline_csv = timeline_csv;
  e.max_queued_bytes = limits.max_queued_bytes;
  e.deadline_lead_s = deadline_lead_s;
  return e;
}

ServiceConfig parse_config(std::string_view text, const std::string& name,
                           const std::filesystem::path& base_dir) {
  toml::table root;
  try {
    root = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw Error(ErrorCode::kInvalidArgument, name + ":" + std::to_string(b.line) + ":" +
                                                 std::to_string(b.column) +
                                                 ": not valid TOML: " + std::string(e.description()));
  }
  ServiceConfig c;
  TableReader top(root, "", name);
  top.accept({"daemon", "gpus", "memory", "synthesis", "pipeline", "scheduler", "srs", "logging", "circuits",
              "limits", "cluster"});
  top.no_unknown_keys();

  if (const toml::table* t = section(root, "daemon", name)) {
    TableReader r(*t, "daemon.", name);
    r.str("listen", c.listen);
    r.str("status_listen", c.status_listen);
    r.no_unknown_keys();
  }
  check_address(name, "daemon.listen", c.listen, true);
  if (!c.status_listen.empty()) check_address(name, "daemon.status_listen", c.status_listen, false);
  if (const toml::table* t = section(root, "gpus", name)) {
    TableReader r(*t, "gpus.", name);
    r.uint_list("devices", c.gpu_devices);
    r.uint("gpu_threads", c.gpu_threads, 0, 4096);
    r.uint("gpu_workers_per_device", c.gpu_workers_per_device, 1, 64);
    r.str("mem_budget", c.gpu_mem_budget);
    r.no_unknown_keys();
  }
  if (!c.gpu_mem_budget.empty() && c.gpu_mem_budget != "auto") {
    try {
      c.gpu_mem_budget_bytes = engine::parse_size(c.gpu_mem_budget);
    } catch (const Error& e) {
      throw Error(ErrorCode::kInvalidArgument, name + ": gpus.mem_budget: " + e.what());
    }
    if (c.gpu_mem_budget_bytes == 0)
      throw Error(ErrorCode::kInvalidArgument,
                  name + ": gpus.mem_budget: '" + c.gpu_mem_budget +
                      "' is no size (e.g. 16GiB; leave it out for the whole device)");
  }
  if (const toml::table* t = section(root, "synthesis", name)) {
    TableReader r(*t, "synthesis.", name);
    r.uint("threads", c.synthesis_threads, 0, 4096);
    r.no_unknown_keys();
  }
  if (const toml::table* t = section(root, "pipeline", name)) {
    TableReader r(*t, "pipeline.", name);
    bool enabled = true;
    r.boolean("enabled", enabled);
    if (!enabled)
      r.fail("enabled", "false is not supported: this daemon always overlaps synthesis and proving");
    r.uint("synthesis_lookahead", c.synthesis_lookahead, 1, 1024);
    r.uint("synthesis_concurrency", c.synthesis_concurrency, 1, 1024);
    r.uint("max_parallel_synthesis", c.max_parallel_synthesis, 0, 1024);
    r.uint("max_gpu_queue_depth", c.max_gpu_queue_depth, 0, 1024);
    unsigned slot_size = 0;  // cuzk's partition batching: here every partition is its own queue item
    r.uint("slot_size", slot_size, 0, 1024);
    r.no_unknown_keys();
  }
  std::string eviction_min_idle;
  if (const toml::table* t = section(root, "memory", name)) {
    TableReader r(*t, "memory.", name);
    r.str("total_budget", c.total_budget);
    r.str("safety_margin", c.safety_margin);
    r.str("eviction_min_idle", eviction_min_idle);
    r.boolean("release_device_keys", c.release_device_keys);
    r.no_unknown_keys();
  }
  uint64_t margin = 0;
  try {
    margin = engine::parse_size(c.safety_margin);
  } catch (const Error& e) {
    throw Error(ErrorCode::kInvalidArgument, name + ": memory.safety_margin: " + e.what());
  }
  try {
    c.memory_budget_bytes = engine::parse_size(c.total_budget, 0.9, margin);
  } catch (const Error& e) {
    throw Error(ErrorCode::kInvalidArgument, name + ": memory.total_budget: " + e.what());
  }
  if (const toml::table* t = section(root, "limits", name)) {
    TableReader r(*t, "limits.", name);
    ServiceLimits& l = c.limits;
    r.uint("max_id_bytes", l.max_id_bytes, 16, 1u << 20);
    r.uint("max_partitions", l.max_partitions, 1, 1u << 20);
    r.uint("max_waiting_clients", l.max_waiting_clients, 1, 1u << 16);
    r.uint("max_waiting_per_client", l.max_waiting_per_client, 1, 1u << 16);
    r.uint("max_connection_idle_s", l.max_connection_idle_s, 1, 86400);
    r.uint("max_connections", l.max_connections, 0, 1u << 20);
    r.uint("handshake_timeout_s", l.handshake_timeout_s, 1, 3600);
    r.str("max_queued_bytes", l.max_queued);
    std::string max_message, max_receiving;
    r.str("max_message_bytes", max_message);
    r.str("max_receiving_bytes", max_receiving);
    r.no_unknown_keys();
    auto size = [&](const char* key, const std::string& text, uint64_t& out) {
      if (text.empty()) return;
      try {
        out = engine::parse_size(text);
      } catch (const Error& e) {
        r.fail(key, e.what());
      }
    };
    size("max_message_bytes", max_message, l.max_message_bytes);
    size("max_receiving_bytes", max_receiving, l.max_receiving_bytes);
    // gRPC takes an int; a message must hold at least a small request.
    if (l.max_message_bytes < (64u << 10) || l.max_message_bytes > INT32_MAX)
      r.fail("max_message_bytes", "must be between 64KiB and 2GiB - 1 byte, got " + max_message);
    if (l.max_receiving_bytes < l.max_message_bytes)
      r.fail("max_receiving_bytes", "must be at least limits.max_message_bytes (" +
                                        std::to_string(l.max_message_bytes) + " bytes), got " +
                                        std::to_string(l.max_receiving_bytes) + " bytes");
    if (l.max_queued != "auto") {
      try {
        l.max_queued_bytes = engine::parse_size(l.max_queued);
      } catch (const Error& e) {
        r.fail("max_queued_bytes", e.what());
      }
      if (l.max_queued_bytes == 0) r.fail("max_queued_bytes", "must be a size above 0, or \"auto\"");
    }
  }
  if (const toml::table* t = section(root, "cluster", name)) {
    TableReader r(*t, "cluster.", name);
    ClusterConfig& k = c.cluster;
    std::string lease, heartbeat, retention;
    r.str("database", k.database);
    r.str("node_id", k.node_id);
    r.str("lease", lease);
    r.str("heartbeat", heartbeat);
    r.str("retention", retention);
    r.uint("max_attempts", k.max_attempts, 1, 1000);
    r.uint("slots", k.slots, 0, 1024);
    r.str("max_queued_bytes", k.max_queued);
    r.no_unknown_keys();
    if (k.database.empty()) r.fail("database", "missing: a [cluster] needs its PostgreSQL database");
    auto duration = [&](const char* key, const std::string& v, uint64_t& out) {
      if (v.empty()) return;
      try {
        out = parse_duration_ms(v);
      } catch (const Error& e) {
        r.fail(key, e.what());
      }
    };
    uint64_t retention_ms = k.retention_s * 1000;
    duration("lease", lease, k.lease_ms);
    duration("heartbeat", heartbeat, k.heartbeat_ms);
    duration("retention", retention, retention_ms);
    k.retention_s = retention_ms / 1000;
    if (k.lease_ms < 500) r.fail("lease", "must be at least 500ms");
    if (k.heartbeat_ms == 0) k.heartbeat_ms = k.lease_ms / 3;
    if (k.heartbeat_ms * 2 > k.lease_ms) r.fail("heartbeat", "must be at most half of cluster.lease");
    if (k.retention_s < 1) r.fail("retention", "must be at least 1s");
    if (k.node_id.size() > 128) r.fail("node_id", "longer than 128 bytes");
    if (k.max_queued != "auto") {
      try {
        k.max_queued_bytes = engine::parse_size(k.max_queued);
      } catch (const Error& e) {
        r.fail("max_queued_bytes", e.what());
      }
      if (k.max_queued_bytes == 0) r.fail("max_queued_bytes", "must be a size above 0, or \"auto\"");
    }
  }
  if (const toml::table* t = section(root, "scheduler", name)) {
    // cuzk batches same-circuit proofs; this daemon schedules per partition: those keys are accepted.
    // deadline_lead_s is ours (SubmitProofRequest.deadline_unix_ms).
    TableReader r(*t, "scheduler.", name);
    r.accept({"max_batch_size", "max_batch_wait_ms", "sort_by_type"});
    r.uint("deadline_lead_s", c.deadline_lead_s, 0, 86400);
    r.no_unknown_keys();
  }
  std::string param_cache;
  if (const toml::table* t = section(root, "srs", name)) {
    TableReader r(*t, "srs.", name);
    r.str("param_cache", param_cache);
    r.boolean("verify_subgroup", c.verify_subgroup);
    r.no_unknown_keys();
    if (!param_cache.empty()) {
      c.param_cache = base_dir / param_cache;
      if (!std::filesystem::is_directory(c.param_cache))
        r.fail("param_cache", c.param_cache.string() + ": no such folder");
    }
  }
  if (const toml::table* t = section(root, "logging", name)) {
    TableReader r(*t, "logging.", name);
    r.str("level", c.log_level);
    r.str("timeline_csv", c.timeline_csv);
    r.no_unknown_keys();
    static const std::set<std::string> levels = {"trace", "debug", "info", "warn", "error", "off"};
    if (!levels.count(c.log_level))
      r.fail("level", "\"" + c.log_level + "\" is not a level: trace, debug, info, warn, error or off");
  }
  // Circuit paths: relative to srs.param_cache when set, else to the config file's folder.
  const std::filesystem::path base = param_cache.empty() ? base_dir : base_dir / param_cache;
  if (const toml::node* n = root.get("circuits")) {
    if (!n->is_array_of_tables())
      throw Error(ErrorCode::kInvalidArgument, name + ": circuits: expected [[circuits]] tables");
    std::set<std::string> ids;
    size_t i = 0;
    for (const toml::node& e : *n->as_array()) {
      const std::string prefix = "circuits[" + std::to_string(i++) + "].";
      TableReader r(*e.as_table(), prefix, name);
      CircuitConfig cc;
      std::string zkey, params, r1cs;
      r.str("id", cc.id);
      r.str("kind", cc.kind);
      r.str("zkey", zkey);
      r.str("params", params);
      r.str("r1cs", r1cs);
      r.boolean("preload", cc.preload);
      r.no_unknown_keys();
      if (cc.id.empty()) r.fail("id", "missing: every circuit needs an id");
      if (!ids.insert(cc.id).second) r.fail("id", "\"" + cc.id + "\" is used by two circuits");
      // The ids of the daemon's Filecoin circuits (engine::porep_circuit_id, post_circuit_id and the
      // SnapDeals kind's), registered from srs.param_cache: a [[circuits]] entry must not hide one.
      static const std::map<std::string, std::string> kinds = {
          {"porep-", "PoRep"}, {"wpost-", "WindowPoSt"}, {"winning-", "WinningPoSt"}, {"snap-", "SnapDeals"}};
      for (const auto& [prefix, kind] : kinds)
        for (const char* size : {"2k", "8m", "512m", "32g", "64g"})
          if (cc.id == prefix + size)
            r.fail("id", "\"" + cc.id + "\" is the id of the daemon's " + kind +
                             " circuit of that size (from srs.param_cache)");
      auto path = [&](const char* key, const std::string& p) {
        if (p.empty()) r.fail(key, "missing: a " + cc.kind + " circuit needs it");
        std::filesystem::path full =
            std::filesystem::path(p).is_absolute() ? std::filesystem::path(p) : base / p;
        if (!std::filesystem::is_regular_file(full)) r.fail(key, full.string() + ": no such file");
        return full;
      };
      if (cc.kind.empty()) cc.kind = "circom";
      if (cc.kind == "circom") {
        cc.zkey = path("zkey", zkey);
        if (!params.empty() || !r1cs.empty()) r.fail("params", "a circom circuit takes zkey only");
      } else if (cc.kind == "bellperson") {
        cc.params = path("params", params);
        cc.r1cs = path("r1cs", r1cs);
        if (!zkey.empty()) r.fail("zkey", "a bellperson circuit takes params and r1cs, not zkey");
      } else {
        r.fail("kind", "\"" + cc.kind + "\" is not a kind: circom or bellperson");
      }
      c.circuits.push_back(std::move(cc));
    }
  }
  return c;
}

ServiceConfig load_config(const std::filesystem::path& path) {
  std::ifstream f(path);
  if (!f) throw Error(ErrorCode::kIo, path.string() + ": cannot read the configuration file");
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_config(ss.str(), path.string(), path.parent_path());
}

}  // namespace cuzk::service
