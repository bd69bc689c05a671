#include "groth16/key.hpp"

namespace cuzk {

const char* to_string(HConvention c) { return c == HConvention::kBellperson ? "bellperson" : "snarkjs"; }

size_t ProvingKey::point_bytes() const {
  return (ic.size() + a.size() + b_g1.size() + l.size() + h.size()) * sizeof(G1Affine) +
         b_g2.size() * sizeof(G2Affine);
}

}  // namespace cuzk
