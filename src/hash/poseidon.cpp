// Native Poseidon (see poseidon.hpp for the upstream sources).
#include "hash/poseidon.hpp"

#include <string>
#include <vector>

#include "util/error.hpp"

namespace cuzk {

namespace {

constexpr int kMaxWidth = 37;  // arity 36

void check_preimage(std::span<const Fr> preimage, const PoseidonConstants& c) {
  if (preimage.size() != size_t(c.arity))
    throw Error(ErrorCode::kInvalidArgument, "poseidon_hash: preimage has " +
                                                 std::to_string(preimage.size()) + " elements, arity is " +
                                                 std::to_string(c.arity));
  if (c.width > kMaxWidth) throw Error(ErrorCode::kInvalidArgument, "poseidon_hash: width above 37");
}

// s ← s · M (out_j = Σ_i M(i, j)·s_i), neptune `product_mds_with_matrix`.
void mul_matrix(Fr* s, const PoseidonMatrix& m) {
  Fr out[kMaxWidth];
  const int t = m.n;
  for (int j = 0; j < t; j++) {
    Fr acc = Fr::zero();
    for (int i = 0; i < t; i++) acc += s[i] * m(i, j);
    out[j] = acc;
  }
  for (int j = 0; j < t; j++) s[j] = out[j];
}

// s ← s · M″ for a sparse M″, neptune `product_mds_with_sparse_matrix`.
void mul_sparse(Fr* s, const PoseidonSparseMatrix& sp, int t) {
  Fr e0 = Fr::zero();
  for (int i = 0; i < t; i++) e0 += sp.w_hat[i] * s[i];
  for (int j = 1; j < t; j++) s[j] += sp.v_rest[j - 1] * s[0];
  s[0] = e0;
}

}  // namespace

Fr poseidon_hash(std::span<const Fr> preimage, const PoseidonConstants& c) {
  check_preimage(preimage, c);
  const int t = c.width, half = c.half_full_rounds, rp = c.partial_rounds;
  const Fr* k = c.compressed_round_constants.data();
  Fr s[kMaxWidth];
  s[0] = c.domain_tag;
  for (int i = 1; i < t; i++) s[i] = preimage[i - 1];
  for (int i = 0; i < t; i++) s[i] += *k++;
  int round = 0;
  // Linear layer by round index (neptune `round_product_mds`).
  auto mix = [&] {
    if (round == half - 1)
      mul_matrix(s, c.pre_sparse);
    else if (round > half - 1 && round < half + rp)
      mul_sparse(s, c.sparse[round - half], t);
    else
      mul_matrix(s, c.mds);
    round++;
  };
  for (int r = 0; r < half; r++) {
    for (int i = 0; i < t; i++) s[i] = poseidon_quintic(s[i]) + *k++;
    mix();
  }
  for (int r = 0; r < rp; r++) {
    s[0] = poseidon_quintic(s[0]) + *k++;
    mix();
  }
  for (int r = 1; r < half; r++) {
    for (int i = 0; i < t; i++) s[i] = poseidon_quintic(s[i]) + *k++;
    mix();
  }
  for (int i = 0; i < t; i++) s[i] = poseidon_quintic(s[i]);
  mix();
  if (k != c.compressed_round_constants.data() + c.compressed_round_constants.size())
    throw Error(ErrorCode::kInternal, "poseidon_hash: round constants not all consumed");
  return s[1];
}

Fr poseidon_hash_reference(std::span<const Fr> preimage, const PoseidonConstants& c) {
  check_preimage(preimage, c);
  const int t = c.width;
  std::vector<Fr> s(t);
  s[0] = c.domain_tag;
  for (int i = 1; i < t; i++) s[i] = preimage[i - 1];
  const Fr* k = c.round_constants.data();
  auto round = [&](bool full) {
    for (int i = 0; i < t; i++) s[i] += *k++;
    for (int i = 0; i < (full ? t : 1); i++) s[i] = poseidon_quintic(s[i]);
    mul_matrix(s.data(), c.mds);
  };
  for (int r = 0; r < c.half_full_rounds; r++) round(true);
  for (int r = 0; r < c.partial_rounds; r++) round(false);
  for (int r = 0; r < c.half_full_rounds; r++) round(true);
  return s[1];
}

}  // namespace cuzk
