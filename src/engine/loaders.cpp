#include "engine/loaders.hpp"

#include "formats/params.hpp"
#include "formats/r1cs.hpp"
#include "formats/zkey.hpp"
#include "util/error.hpp"

namespace cuzk::engine {

LoadedCircuit load_circom(const std::filesystem::path& zkey) {
  Zkey zk = read_zkey(zkey);
  auto cs = std::make_shared<const ConstraintSystem>(zkey_constraint_system(zk));
  auto key = std::make_shared<const ProvingKey>(proving_key(std::move(zk), *cs));
  return {std::move(key), std::move(cs)};
}

LoadedCircuit load_bellperson(const std::filesystem::path& params, const std::filesystem::path& r1cs) {
  auto cs =
      std::make_shared<const ConstraintSystem>(constraint_system(read_r1cs(r1cs), HConvention::kBellperson));
  auto key = std::make_shared<const ProvingKey>(read_params(params));
  const size_t na = cs->n_inputs + cs->a_aux.popcount(), nb = cs->b_inp.popcount() + cs->b_aux.popcount();
  if (key->log_n != cs->log_n || key->n_inputs != cs->n_inputs || key->n_aux != cs->n_aux ||
      key->a.size() != na || key->b_g1.size() != nb)
    throw Error(ErrorCode::kInvalidArgument,
                params.string() + " and " + r1cs.string() +
                    " belong to different circuits: the key has domain 2^" + std::to_string(key->log_n) +
                    ", " + std::to_string(key->n_inputs) + " inputs, " + std::to_string(key->n_aux) +
                    " aux, " + std::to_string(key->a.size()) + " A points; the constraints need 2^" +
                    std::to_string(cs->log_n) + ", " + std::to_string(cs->n_inputs) + ", " +
                    std::to_string(cs->n_aux) + ", " + std::to_string(na));
  return {key, cs};
}

}  // namespace cuzk::engine
