// The proof kinds of one engine: each request goes to its kind (proof_kind.hpp), and the circuits the
// kinds serve are registered in the engine's circuit registry from srs.param_cache — those whose file is
// there at start (register_present), the others when a job or PreloadSRS first asks for them — loaded on
// first use, shared by jobs and evictable like any circuit.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/kinds/builtin.hpp"
#include "engine/kinds/proof_kind.hpp"
#include "engine/registry.hpp"

namespace cuzk::engine {

/// The kinds, bound to one circuit registry and one parameter folder. Thread-safe.
class ProofKinds {
 public:
  /// Where the parameters are and how they are read.
  struct Options {
    std::filesystem::path param_cache;  ///< srs.param_cache; empty: the kinds' circuits are refused
    ParamsReading reading;              ///< how .params files are read (required)
    unsigned threads = 0;               ///< threads recording a circuit's rows; 0 = every hardware thread
  };

  /// Registers nothing yet (see register_present). `circuits` must outlive this object. Throws
  /// Error(kInvalidArgument) without options.reading or for two kinds of one name.
  ProofKinds(CircuitRegistry& circuits, Options options,
             std::vector<std::unique_ptr<ProofKind>> kinds = builtin_kinds());

  /// The kind named `name` ("POREP_SEAL_COMMIT", …), nullptr if there is none.
  const ProofKind* find(std::string_view name) const;

  /// Registers every circuit of `kind` whose .params file is in param_cache (not loaded: on first use
  /// or PreloadSRS). Returns their ids, in the kind's order.
  std::vector<std::string> register_present(const ProofKind& kind);

  /// Registers circuit `id` now if a kind serves it and it is not registered yet. Returns whether a kind
  /// serves it. Throws Error(kIo) naming the file when srs.param_cache is unset or lacks it.
  bool ensure_circuit(const std::string& id);

  /// The job of a request of kind `kind`: the kind's check, its job, then its circuit registered if it
  /// was not (ensure_circuit). Throws Error(kInvalidArgument) for an unknown kind, the kind's errors,
  /// Error(kIo) when the circuit's parameters are missing.
  JobRequest job(std::string_view kind, const ProofRequest& request);

 private:
  /// Registers `c` of `kind` if it is not registered; returns its id.
  std::string ensure(const ProofKind& kind, const KindCircuit& c);

  CircuitRegistry& circuits_;
  Options o_;
  std::vector<std::unique_ptr<ProofKind>> kinds_;
  std::mutex mu_;  // serializes registration
};

}  // namespace cuzk::engine
