#include "engine/registry.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace cuzk::engine {

uint64_t resident_bytes(const LoadedCircuit& c) {
  uint64_t b = c.key ? c.key->point_bytes() : 0;
  if (c.cs)
    for (const SparseMatrix* m : {&c.cs->a, &c.cs->b, &c.cs->c})
      b += m->nnz() * (sizeof(uint32_t) + sizeof(Fr)) + m->row_offsets.size() * sizeof(uint64_t);
  if (c.rows) b += c.rows->bytes();
  return b;
}

uint32_t LoadedCircuit::n_vars() const { return rows ? rows->n_vars() : cs ? cs->n_vars() : 0; }

struct CircuitRegistry::Entry {
  std::string id, kind;
  CircuitLoader loader;
  std::mutex load_mu;     // one load at a time; held by the loading thread only
  LoadedCircuit circuit;  // guarded by the registry's mu_ (read by leases after load)
  MemoryBudget::Reservation memory;
  unsigned refs = 0;
  uint64_t last_use = 0;
  double load_ms = 0;
};

CircuitRegistry::CircuitRegistry(MemoryBudget& budget, LogSink log) : budget_(budget), log_(std::move(log)) {}
CircuitRegistry::~CircuitRegistry() = default;

CircuitRegistry::Lease& CircuitRegistry::Lease::operator=(Lease&& o) noexcept {
  if (this != &o) {
    reset();
    reg_ = o.reg_;
    entry_ = o.entry_;
    circuit_ = std::move(o.circuit_);
    load_ms_ = o.load_ms_;
    o.reg_ = nullptr;
    o.entry_ = nullptr;
  }
  return *this;
}

void CircuitRegistry::Lease::reset() {
  circuit_ = {};
  if (entry_) reg_->release(entry_);
  entry_ = nullptr;
  reg_ = nullptr;
}

void CircuitRegistry::add(const std::string& id, const std::string& kind, CircuitLoader loader) {
  std::lock_guard lk(mu_);
  if (entries_.count(id))
    throw Error(ErrorCode::kInvalidArgument, "circuit \"" + id + "\" is registered twice");
  auto e = std::make_unique<Entry>();
  e->id = id;
  e->kind = kind;
  e->loader = std::move(loader);
  entries_.emplace(id, std::move(e));
}

bool CircuitRegistry::contains(const std::string& id) const {
  std::lock_guard lk(mu_);
  return entries_.count(id) != 0;
}

std::string CircuitRegistry::kind(const std::string& id) const {
  std::lock_guard lk(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) throw Error(ErrorCode::kInvalidArgument, "unknown circuit \"" + id + "\"");
  return it->second->kind;
}

CircuitRegistry::Lease CircuitRegistry::acquire(const std::string& id) {
  Entry* e;
  {
    std::lock_guard lk(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) throw Error(ErrorCode::kInvalidArgument, "unknown circuit \"" + id + "\"");
    e = it->second.get();
    e->refs++;  // from here on it cannot be evicted
    e->last_use = ++use_clock_;
  }
  Lease lease;
  lease.reg_ = this;
  lease.entry_ = e;
  std::lock_guard load_lk(e->load_mu);
  bool loaded;
  {
    std::lock_guard lk(mu_);
    loaded = e->circuit.key != nullptr;
    if (loaded) lease.circuit_ = e->circuit;
  }
  if (loaded) return lease;
  const auto t0 = Clock::now();
  LoadedCircuit c = e->loader();  // may throw: the lease's destructor drops the reference
  if (!c.key || (!c.cs && !c.rows))
    throw Error(ErrorCode::kInternal, "circuit \"" + id + "\": the loader returned nothing");
  if (c.key->convention != (c.rows ? c.rows->convention : c.cs->convention))
    throw Error(ErrorCode::kInvalidArgument,
                "circuit \"" + id + "\": the key and the constraint system use different H conventions");
  const double ms = ms_between(t0, Clock::now());
  const uint64_t bytes = resident_bytes(c);
  {
    std::lock_guard lk(mu_);
    e->circuit = c;
    e->memory = budget_.charge(bytes);
    e->load_ms = ms;
    evict_to_budget(e);
  }
  lease.circuit_ = std::move(c);
  lease.load_ms_ = ms;
  if (log_)
    log_({LogLevel::kInfo,
          "circuit_loaded",
          {{"circuit", id},
           {"kind", e->kind},
           {"bytes", std::to_string(bytes)},
           {"load_ms", std::to_string((long)ms)}}});
  LoadHook hook;
  {
    std::lock_guard lk(mu_);
    hook = on_load_;
  }
  if (hook) hook(id, lease.circuit_);
  return lease;
}

void CircuitRegistry::on_load(LoadHook hook) {
  std::lock_guard lk(mu_);
  on_load_ = std::move(hook);
}

void CircuitRegistry::release(Entry* e) {
  std::lock_guard lk(mu_);
  e->refs--;
  if (e->refs == 0) evict_to_budget(nullptr);
}

void CircuitRegistry::evict_to_budget(const Entry* keep) {
  if (budget_.total() == 0) return;
  while (budget_.used() > budget_.total()) {
    Entry* victim = nullptr;
    for (auto& [id, e] : entries_)
      if (e.get() != keep && e->refs == 0 && e->circuit.key && (!victim || e->last_use < victim->last_use))
        victim = e.get();
    if (!victim) return;
    const uint64_t bytes = victim->memory.bytes();
    victim->circuit = {};
    victim->memory.reset();
    if (log_)
      log_({LogLevel::kInfo,
            "circuit_evicted",
            {{"circuit", victim->id}, {"bytes", std::to_string(bytes)}, {"why", "memory budget"}}});
  }
}

CircuitRegistry::PreloadResult CircuitRegistry::preload(const std::string& id) {
  {
    std::lock_guard lk(mu_);
    auto it = entries_.find(id);
    if (it != entries_.end() && it->second->circuit.key) return {true, 0};
  }
  Lease l = acquire(id);
  return {l.load_ms() == 0, l.load_ms()};
}

CircuitRegistry::EvictResult CircuitRegistry::evict(const std::string& id) {
  std::lock_guard lk(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) throw Error(ErrorCode::kInvalidArgument, "unknown circuit \"" + id + "\"");
  Entry& e = *it->second;
  if (e.refs > 0)
    throw Error(ErrorCode::kInvalidArgument, "circuit \"" + id + "\" is in use by " + std::to_string(e.refs) +
                                                 " partition(s): not evicted");
  if (!e.circuit.key) return {false, 0};
  const uint64_t bytes = e.memory.bytes();
  e.circuit = {};
  e.memory.reset();
  if (log_)
    log_({LogLevel::kInfo,
          "circuit_evicted",
          {{"circuit", id}, {"bytes", std::to_string(bytes)}, {"why", "request"}}});
  return {true, bytes};
}

std::vector<CircuitInfo> CircuitRegistry::list() const {
  std::lock_guard lk(mu_);
  std::vector<CircuitInfo> out;
  for (const auto& [id, e] : entries_)
    out.push_back({id, e->kind, e->circuit.key != nullptr, e->memory.bytes(), e->refs, e->load_ms});
  return out;
}

}  // namespace cuzk::engine
