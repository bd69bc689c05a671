#include "engine/kinds/proof_kind.hpp"

#include "util/error.hpp"

namespace cuzk::engine {

CircuitLoader ProofKind::loader(const std::string& id, const std::filesystem::path&, const ParamsReading&,
                                unsigned) const {
  throw Error(ErrorCode::kInvalidArgument,
              std::string(name()) + " serves no circuit \"" + id + "\" from a parameter file");
}

}  // namespace cuzk::engine
