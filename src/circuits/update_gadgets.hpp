// The gadgets of Filecoin's SnapDeals circuit (rust-fil-proofs storage-proofs-update src/gadgets.rs):
// a number's strict bit decomposition, the apex tree's inclusion, the challenge bits drawn from
// Poseidon digests, the selection of a challenge's h high bits, and the new replica label.
#pragma once

#include <span>
#include <vector>

#include "circuits/filecoin_hashers.hpp"
#include "circuits/por_no_challenge.hpp"

namespace cuzk::circuits {

/// neptune's PoseidonConstants<Fr, U2> for Strength::Standard and HashType::Custom(CType::Arbitrary(1))
/// (constants.rs POSEIDON_CONSTANTS_GEN_RANDOMNESS): the arity-2 constants with domain tag 1·2^40
/// (neptune src/hash_type.rs `CType::domain_tag`). Built on first use, thread-safe.
/// Defined in empty_sector_update.cpp.
const PoseidonConstants& poseidon_constants_gen_randomness();

/// a·b as a new variable (bellpepper-core num.rs `AllocatedNum::mul`): alloc p, then a·b = p.
template <class CS>
AllocatedNum num_mul(CS& cs, const AllocatedNum& a, const AllocatedNum& b) {
  AllocatedNum p = AllocatedNum::alloc(cs, [&] { return a.value * b.value; });
  cs.enforce([&](Lc& A, Lc& B, Lc& C) {
    A.add(a.var);
    B.add(b.var);
    C.add(p.var);
  });
  return p;
}

/// The 255 bits of x, least significant first (gadgets.rs `allocated_num_to_allocated_bits`): 255
/// AllocatedBits (field_into_allocated_bits_le), then (Σ 2^i·b_i)·ONE = x. Unlike to_bits_le the sum
/// is in A and x in C. 256 constraints.
template <class CS>
std::vector<AllocatedBit> allocated_num_to_allocated_bits(CS& cs, const AllocatedNum& x) {
  uint64_t limbs[4] = {};
  if constexpr (CS::kValues) x.value.to_canonical(limbs);
  std::vector<AllocatedBit> bits;
  bits.reserve(255);
  for (int i = 0; i < 255; i++)
    bits.push_back(AllocatedBit::alloc(cs, ((limbs[i / 64] >> (i % 64)) & 1) != 0));
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    Fr pow2 = Fr::one();
    for (const AllocatedBit& bit : bits) {
      a.add(bit.var, pow2);
      pow2 += pow2;
    }
    b.add(kOne);
    c.add(x.var);
  });
  return bits;
}

/// The partition's apex tree and its path to comm_d (gadgets.rs `apex_por`): the apex tree's rows
/// by SHA-256 hash2 of sibling pairs (bottom row first, left to right), then por_no_challenge_input
/// in tree D of the apex root with the partition bits and the partition path. apex_leafs.size() is a
/// power of two.
template <class CS>
void apex_por(CS& cs, const std::vector<AllocatedNum>& apex_leafs, const std::vector<Boolean>& partition_bits,
              const std::vector<std::vector<AllocatedNum>>& partition_path, const AllocatedNum& comm_d) {
  std::vector<AllocatedNum> row = apex_leafs;
  while (row.size() > 1) {
    std::vector<AllocatedNum> next;
    for (size_t i = 0; i + 1 < row.size(); i += 2)
      next.push_back(Sha256Hasher::hash(cs, std::span<const AllocatedNum>(&row[i], 2), 0));
    row = std::move(next);
  }
  const TreeShape top{2, (uint32_t)partition_path.size(), 0, 0};
  por_no_challenge_input<Sha256Hasher>(cs, top, std::span<const Boolean>(partition_bits), row[0],
                                       std::span<const std::vector<AllocatedNum>>(partition_path), comm_d);
}

/// Every challenge's random bits of a partition (gadgets.rs `gen_challenge_bits`): per digest j,
/// alloc digest_index = k·D + j and enforce (D·k + j·ONE)·ONE = digest_index (D digests per
/// partition), digest = Poseidon_gen(comm_r_new, digest_index), its 255 bits
/// (allocated_num_to_allocated_bits), cut into chunks of `bits_per_challenge` (all ⌊254 / b⌋ of them,
/// fewer from the last digest). Returns `challenges` bit vectors.
template <class CS>
std::vector<std::vector<AllocatedBit>> gen_challenge_bits(CS& cs, const AllocatedNum& comm_r_new,
                                                          const AllocatedNum& partition, uint32_t challenges,
                                                          uint32_t bits_per_challenge) {
  const uint32_t per_digest = 254 / bits_per_challenge;
  const uint32_t digests = (challenges + per_digest - 1) / per_digest;
  const Fr d = Fr::from_u64(digests);
  std::vector<std::vector<AllocatedBit>> out;
  for (uint32_t j = 0; j < digests; j++) {
    const Fr fj = Fr::from_u64(j);
    AllocatedNum digest_index = AllocatedNum::alloc(cs, [&] { return partition.value * d + fj; });
    cs.enforce([&](Lc& a, Lc& b, Lc& c) {
      a.add(partition.var, d).add(kOne, fj);
      b.add(kOne);
      c.add(digest_index.var);
    });
    const AllocatedNum pre[2] = {comm_r_new, digest_index};
    AllocatedNum digest =
        poseidon_hash(cs, std::span<const AllocatedNum>(pre), poseidon_constants_gen_randomness());
    std::vector<AllocatedBit> bits = allocated_num_to_allocated_bits(cs, digest);
    const uint32_t take = j + 1 == digests ? challenges - (uint32_t)out.size() : per_digest;
    for (uint32_t i = 0; i < take; i++)
      out.emplace_back(bits.begin() + size_t(i) * bits_per_challenge,
                       bits.begin() + size_t(i + 1) * bits_per_challenge);
  }
  return out;
}

/// The challenge's h high bits for the h that h_select_bits (one bit set) selects among hs
/// (gadgets.rs `get_challenge_high_bits`): per i, c_high_i = pack_bits(the top hs[i] of c_bits),
/// alloc c_high_or_zero_i, c_high_i · h_select_i = c_high_or_zero_i; then alloc the sum s and
/// (Σ c_high_or_zero_i)·ONE = s. Returns s.
template <class CS, size_t N>
AllocatedNum get_challenge_high_bits(CS& cs, std::span<const Boolean> c_bits,
                                     std::span<const AllocatedBit> h_select_bits,
                                     const std::array<uint32_t, N>& hs) {
  if (h_select_bits.size() != N)
    throw Error(ErrorCode::kInvalidArgument,
                "get_challenge_high_bits: " + std::to_string(h_select_bits.size()) + " h_select bits for " +
                    std::to_string(N) + " values of h");
  std::vector<AllocatedNum> terms;
  for (size_t i = 0; i < N; i++) {
    AllocatedNum c_high = pack_bits(cs, c_bits.subspan(c_bits.size() - hs[i]));
    const AllocatedBit& sel = h_select_bits[i];
    AllocatedNum t = AllocatedNum::alloc(cs, [&] { return sel.value ? c_high.value : Fr::zero(); });
    cs.enforce([&](Lc& a, Lc& b, Lc& c) {
      a.add(c_high.var);
      b.add(sel.var);
      c.add(t.var);
    });
    terms.push_back(t);
  }
  AllocatedNum sum = AllocatedNum::alloc(cs, [&] {
    Fr s = Fr::zero();
    for (const AllocatedNum& t : terms) s += t.value;
    return s;
  });
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    for (const AllocatedNum& t : terms) a.add(t.var);
    b.add(kOne);
    c.add(sum.var);
  });
  return sum;
}

/// label_r_new = label_r_old + label_d_new·rho (gadgets.rs `label_r_new`): mul, alloc the sum, then
/// (label_r_old + product)·ONE = label_r_new. Two constraints.
template <class CS>
AllocatedNum label_r_new(CS& cs, const AllocatedNum& label_r_old, const AllocatedNum& label_d_new,
                         const AllocatedNum& rho) {
  AllocatedNum prod = num_mul(cs, label_d_new, rho);
  AllocatedNum r = AllocatedNum::alloc(cs, [&] { return label_r_old.value + prod.value; });
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    a.add(label_r_old.var).add(prod.var);
    b.add(kOne);
    c.add(r.var);
  });
  return r;
}

}  // namespace cuzk::circuits
