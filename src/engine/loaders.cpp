#include "engine/loaders.hpp"

#include "formats/params.hpp"
#include "formats/r1cs.hpp"
#include "formats/zkey.hpp"
#include "groth16/prover.hpp"
#include "util/error.hpp"

namespace cuzk::engine {

LoadedCircuit load_circom(const std::filesystem::path& zkey) {
  Zkey zk = read_zkey(zkey);
  auto cs = std::make_shared<const ConstraintSystem>(zkey_constraint_system(zk));
  auto key = std::make_shared<const ProvingKey>(proving_key(std::move(zk), *cs));
  return {std::move(key), std::move(cs), nullptr};
}

LoadedCircuit load_bellperson(const std::filesystem::path& params, const std::filesystem::path& r1cs,
                              const ParamsReadOptions& options) {
  auto cs =
      std::make_shared<const ConstraintSystem>(constraint_system(read_r1cs(r1cs), HConvention::kBellperson));
  auto key = std::make_shared<const ProvingKey>(read_params(params, options));
  check_key_fits(*key, *cs, params.string() + " and " + r1cs.string());
  return {key, cs, nullptr};
}

}  // namespace cuzk::engine
