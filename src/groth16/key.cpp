#include "groth16/key.hpp"

#include "util/error.hpp"

namespace cuzk {

const char* to_string(HConvention c) { return c == HConvention::kBellperson ? "bellperson" : "snarkjs"; }

const char* key_vector_name(KeyVector v) {
  static const char* const names[kKeyVectors] = {"h", "a", "b_g1", "l", "b_g2"};
  return names[(int)v];
}

size_t ProvingKey::point_bytes() const {
  return (ic.size() + a.size() + b_g1.size() + l.size() + h.size()) * sizeof(G1Affine) +
         b_g2.size() * sizeof(G2Affine);
}

size_t ProvingKey::count(KeyVector v) const {
  if (is_released(v)) return released[(int)v];
  return v == KeyVector::kBG2 ? b_g2.size() : g1(v).size();
}

const BigVector<G1Affine>& ProvingKey::g1(KeyVector v) const {
  return const_cast<ProvingKey*>(this)->g1(v);  // the same member, read only
}

BigVector<G1Affine>& ProvingKey::g1(KeyVector v) {
  switch (v) {
    case KeyVector::kH:
      return h;
    case KeyVector::kA:
      return a;
    case KeyVector::kBG1:
      return b_g1;
    case KeyVector::kL:
      return l;
    case KeyVector::kBG2:
      break;
  }
  throw Error(ErrorCode::kInvalidArgument, "ProvingKey::g1: b_g2 holds G2 points");
}

bool ProvingKey::complete() const {
  for (uint64_t n : released)
    if (n) return false;
  return true;
}

std::shared_ptr<const ProvingKey> with_host_vectors(std::shared_ptr<const ProvingKey> key) {
  if (key->complete()) return key;
  if (!key->source)
    throw Error(ErrorCode::kInternal,
                "the proving key has released point vectors and nothing to read them from");
  auto full = std::make_shared<ProvingKey>(*key);
  for (int i = 0; i < kKeyVectors; i++) {
    const KeyVector v = (KeyVector)i;
    if (!key->is_released(v)) continue;
    if (v == KeyVector::kBG2)
      full->b_g2 = key->source->read_g2();
    else
      full->g1(v) = key->source->read_g1(v);
    full->released[i] = 0;
  }
  full->source.reset();
  return full;
}

}  // namespace cuzk
