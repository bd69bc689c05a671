// Circuit loaders, one per kind, for the registry (registry.hpp): a circom circuit is a snarkjs .zkey
// (its section 4 gives the rows, so no .r1cs is needed); a bellperson circuit is a .params file plus the
// circuit's .r1cs (rows in bellperson's convention).
#pragma once

#include <filesystem>

#include "engine/registry.hpp"
#include "formats/params.hpp"

namespace cuzk::engine {

/// Reads a snarkjs .zkey: the rows by zkey_constraint_system, the key by proving_key. Throws the
/// reader's Error (naming the file) on a bad file.
LoadedCircuit load_circom(const std::filesystem::path& zkey);

/// A bellperson circuit: the .params key and the circuit's .r1cs (rows by constraint_system(r1cs,
/// kBellperson)). Throws the readers' Error (naming the file) on a bad file, and Error(kInvalidArgument)
/// naming both files when the key does not belong to the constraints. `options` go to read_params (e.g. a
/// GPU point decoder).
LoadedCircuit load_bellperson(const std::filesystem::path& params, const std::filesystem::path& r1cs,
                              const ParamsReadOptions& options = {});

}  // namespace cuzk::engine
