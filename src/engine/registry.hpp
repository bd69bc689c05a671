// The circuit registry: a circuit is a proving key plus its constraint system (the R1CS in CSR form
// that synthesis evaluates), loaded once by a loader of its kind (a snarkjs .zkey, a bellperson .params
// + .r1cs, or a synthetic circuit for benchmarks) and kept resident in host memory. Circuits in use are
// reference-counted and never freed; idle ones are evicted least-recently-used first when the memory
// budget is short, or on request (EvictSRS).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/job.hpp"
#include "engine/log.hpp"
#include "engine/memory.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/key.hpp"
#include "groth16/r1cs.hpp"

namespace cuzk::engine {

/// What a loader returns: the key and the rows, in the same H convention: a ConstraintSystem (circom,
/// bellperson, synthetic circuits: synthesis evaluates a, b, c on the CPU) or compact rows (Filecoin's
/// circuits: the partitions' a, b, c are deferred to the backend, the GPU's evaluates them on the device).
struct LoadedCircuit {
  std::shared_ptr<const ProvingKey> key;
  std::shared_ptr<const ConstraintSystem> cs;
  std::shared_ptr<const CompactCs> rows;  ///< used instead of cs when set

  /// Variables of the rows (inputs ‖ aux), whichever form they have.
  uint32_t n_vars() const;
};

/// Loads a circuit from wherever it lives; throws cuzk::Error naming the file and problem.
using CircuitLoader = std::function<LoadedCircuit()>;

/// Host bytes of a loaded circuit: the key's points plus the CSR arrays.
uint64_t resident_bytes(const LoadedCircuit& c);

/// One circuit as GetStatus reports it.
struct CircuitInfo {
  std::string id;
  std::string kind;        ///< the loader's kind ("circom", "bellperson", "synthetic")
  bool resident = false;   ///< loaded in host memory (cuzk's tier HOT), else on disk (COLD)
  uint64_t bytes = 0;      ///< resident bytes (0 when not loaded)
  unsigned ref_count = 0;  ///< partitions in flight using it
  double load_ms = 0;      ///< how long the last load took
};

/// The registry. Thread-safe.
class CircuitRegistry {
  struct Entry;

 public:
  /// Resident circuits are charged to `budget`.
  CircuitRegistry(MemoryBudget& budget, LogSink log);
  ~CircuitRegistry();

  /// Registers circuit `id` of `kind` (loaded lazily). Throws Error(kInvalidArgument) if the id exists.
  void add(const std::string& id, const std::string& kind, CircuitLoader loader);
  bool contains(const std::string& id) const;
  /// The kind given to add(); throws Error(kInvalidArgument) for an unknown id.
  std::string kind(const std::string& id) const;

  /// A circuit held for use: while a lease lives, its circuit stays loaded.
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& o) noexcept { *this = std::move(o); }
    Lease& operator=(Lease&& o) noexcept;
    ~Lease() { reset(); }
    /// Drops the hold (the circuit becomes evictable when no other lease holds it).
    void reset();
    const std::shared_ptr<const ProvingKey>& key() const { return circuit_.key; }
    const std::shared_ptr<const ConstraintSystem>& cs() const { return circuit_.cs; }
    /// The loaded circuit (key and rows).
    const LoadedCircuit& circuit() const { return circuit_; }
    /// Milliseconds this acquire() spent loading (0 when it was resident).
    double load_ms() const { return load_ms_; }
    explicit operator bool() const { return entry_ != nullptr; }

   private:
    friend class CircuitRegistry;
    CircuitRegistry* reg_ = nullptr;
    Entry* entry_ = nullptr;
    LoadedCircuit circuit_;
    double load_ms_ = 0;
  };

  /// Holds circuit `id`, loading it first if needed (other callers of the same circuit wait for that
  /// load). Throws Error(kInvalidArgument) for an unknown id, or the loader's error.
  Lease acquire(const std::string& id);

  /// Loads `id` if it is not resident. Returns whether it already was and the load time.
  struct PreloadResult {
    bool already_loaded = false;
    double load_ms = 0;
  };
  PreloadResult preload(const std::string& id);

  /// Frees `id`'s resident data. Throws Error(kInvalidArgument) for an unknown id, or when partitions
  /// in flight hold it (it is never freed under them).
  struct EvictResult {
    bool was_loaded = false;
    uint64_t freed_bytes = 0;
  };
  EvictResult evict(const std::string& id);

  /// Every registered circuit, sorted by id.
  std::vector<CircuitInfo> list() const;

  /// Called with each circuit right after it is loaded (by acquire or preload, on the loading thread,
  /// no registry lock held); must not throw. The daemon logs the key's device plans there.
  using LoadHook = std::function<void(const std::string& id, const LoadedCircuit& circuit)>;
  /// Sets the load hook (empty: none), for the loads that start after this call.
  void on_load(LoadHook hook);

 private:
  void release(Entry* e);
  /// Evicts idle circuits, least recently used first, while the budget is exceeded. Caller holds mu_.
  void evict_to_budget(const Entry* keep);
  MemoryBudget& budget_;
  LogSink log_;
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
  uint64_t use_clock_ = 0;
  LoadHook on_load_;  // guarded by mu_
};

}  // namespace cuzk::engine
