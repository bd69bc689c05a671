// Fake fallback-PoSt inputs (tests and benchmarks): sectors of random data, their trees R, and the
// vanilla proofs Filecoin's prover would make for them (rust-fil-proofs storage-proofs-post
// src/fallback/vanilla.rs `vanilla_proof`, filecoin-proofs src/api/post_util.rs
// `generate_fallback_sector_challenges`). Small sectors (≤ 2^12 nodes, e.g. 2 KiB) get a tree over
// random data in every leaf; larger ones a sparse tree, random in the challenged leaves and zero
// elsewhere, so that even a 2349-sector 32 GiB WindowPoSt partition is made in seconds. comm_c is
// random and comm_r = Poseidon2(comm_c, comm_r_last), as a sealed sector's.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/post_vanilla.hpp"

namespace cuzk {

/// A fake PoSt request: what a prover is given for one partition.
struct FakePost {
  RegisteredPostProof proof;
  std::array<uint8_t, 32> randomness{};  ///< a field element's bytes (as_safe_commitment accepts it)
  uint64_t miner_id = 0;
  size_t partition = 0;
  std::vector<PostVanillaProof> vanilla;  ///< one per sector of the partition
};

/// Makes `sectors` sectors' vanilla proofs for partition `partition` of `proof` (WinningPoSt: exactly
/// 1 sector, partition 0), deterministically from `seed`. Throws Error(kInvalidArgument) for a sector
/// count the circuit cannot take (0, more than a partition's, or ≠ 1 for WinningPoSt).
FakePost make_fake_post(const RegisteredPostProof& proof, size_t sectors, size_t partition, uint64_t seed);

}  // namespace cuzk
