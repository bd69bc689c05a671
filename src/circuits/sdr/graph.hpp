// Filecoin's SDR parent graph (StackedBucketGraph), as rust-fil-proofs builds it:
// - 6 DRG parents from BucketGraph's bucket sampling with ChaCha8 (storage-proofs-core/src/drgraph.rs);
// - 8 expander parents from a 3-round Feistel permutation keyed by BLAKE2b
//   (storage-proofs-core/src/crypto/feistel.rs, storage-proofs-porep/src/stacked/vanilla/graph.rs);
// - the parent cache: nodes × 14 little-endian u32 (6 DRG, then 8 expander), its SHA-256 "consistency
//   digest" and its file id (storage-proofs-porep/src/stacked/vanilla/cache.rs), which upstream's
//   parent_cache.json lists for the production sizes.
// API v1.0 and v1.1+ differ in two places only: where the immediate predecessor goes among the DRG
// parents (last vs first), and v1.0's truncation of the Feistel output to u32 before dividing by 8.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hash/sha256.hpp"

namespace cuzk {
class ThreadPool;
}

namespace cuzk::sdr {

/// The proofs API version of a sector (storage-proofs-core/src/api_version.rs). V1_1_0 and V1_2_0
/// build the same graph; V1_2_0 only enables features (synthetic / non-interactive PoRep).
enum class ApiVersion { kV1_0_0, kV1_1_0, kV1_2_0 };

/// A 32-byte PoRep id (registered proof id and nonce, see porep.hpp; tests use arbitrary ids).
using PoRepId = std::array<uint8_t, 32>;

inline constexpr unsigned kBaseDegree = 6;  ///< DRG parents per node (drgraph.rs BASE_DEGREE)
inline constexpr unsigned kExpDegree = 8;   ///< expander parents per node (graph.rs EXP_DEGREE)
inline constexpr unsigned kDegree = 14;     ///< all parents per node, the parent cache's row length
inline constexpr size_t kNodeSize = 32;     ///< bytes per node (storage-proofs-core util.rs NODE_SIZE)

/// SHA-256(dst ‖ porep_id) (storage-proofs-core/src/crypto/mod.rs `derive_porep_domain_seed`).
std::array<uint8_t, 32> derive_porep_domain_seed(std::string_view dst, const PoRepId& porep_id);
/// The first 28 bytes of the "Filecoin_DRSample" domain seed (drgraph.rs `derive_drg_seed`).
std::array<uint8_t, 28> derive_drg_seed(const PoRepId& porep_id);
/// The "Filecoin_Feistel" domain seed as four little-endian u64 (graph.rs `derive_feistel_keys`);
/// only the first three are used (3 rounds), all four go into the parent cache id.
std::array<uint64_t, 4> derive_feistel_keys(const PoRepId& porep_id);

/// Feistel masks for a domain of `num_elements`: the smallest 4^k ≥ num_elements (k ≥ 1), split into two
/// halves of k bits (feistel.rs `precompute`).
struct FeistelPrecomputed {
  uint64_t left_mask, right_mask, half_bits;
};
/// feistel.rs `precompute(num_elements)`.
FeistelPrecomputed feistel_precompute(uint64_t num_elements);
/// The Feistel round function F(right, key) = BE-u64(BLAKE2b-512(BE(right) ‖ BE(key))[0..8]) & right_mask
/// (feistel.rs `feistel`, the 16-byte branch).
uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t right_mask);
/// Pseudo-random permutation of [0, num_elements): 3 Feistel rounds with keys[0..3], repeated ("cycle
/// walking") until the value is < num_elements (feistel.rs `permute`). index must be < num_elements.
uint64_t feistel_permute(uint64_t num_elements, uint64_t index, const uint64_t keys[3],
                         FeistelPrecomputed pre);
/// The inverse of feistel_permute (feistel.rs `invert_permute`).
uint64_t feistel_invert_permute(uint64_t num_elements, uint64_t index, const uint64_t keys[3],
                                FeistelPrecomputed pre);

/// The stacked SDR graph of one sector size, PoRep id and API version (graph.rs `StackedBucketGraph`).
/// Immutable and thread-safe.
class SdrGraph {
 public:
  /// `nodes` = sector bytes / 32. Throws cuzk::Error(kInvalidArgument) unless 2 ≤ nodes ≤ 2^32 − 1
  /// (graph.rs: nodes ≤ u32::MAX; drgraph.rs: 5·nodes ≤ 2^54 follows).
  SdrGraph(uint64_t nodes, const PoRepId& porep_id, ApiVersion api_version);

  uint64_t nodes() const { return nodes_; }
  const PoRepId& porep_id() const { return porep_id_; }
  ApiVersion api_version() const { return api_; }
  const std::array<uint8_t, 28>& drg_seed() const { return drg_seed_; }
  const std::array<uint64_t, 4>& feistel_keys() const { return feistel_keys_; }

  /// The 6 DRG parents of `node` (drgraph.rs `BucketGraph::parents`): nodes 0 and 1 get all zeros;
  /// otherwise 5 bucket-sampled parents < node from ChaCha8(drg_seed ‖ LE32(node)) plus node − 1,
  /// which is parent 5 in v1.0 and parent 0 in v1.1+. Throws kInvalidArgument if node ≥ nodes().
  void drg_parents(uint64_t node, uint32_t out[kBaseDegree]) const;
  /// The 8 expander parents of `node` (graph.rs `generate_expanded_parents`): parent i is
  /// feistel_permute(8·nodes, 8·node + i) / 8 (v1.0 truncates the permuted value to u32 first).
  /// Throws kInvalidArgument if node ≥ nodes().
  void exp_parents(uint64_t node, uint32_t out[kExpDegree]) const;
  /// DRG then expander parents: one parent-cache row (graph.rs `parents`).
  void parents(uint64_t node, uint32_t out[kDegree]) const;

  /// Writes the parent-cache rows of nodes [first, first + count) to `out` (count · 56 bytes, LE u32),
  /// split over `pool` when given. The Feistel permutations run 8 lanes at a time with AVX-512 when the
  /// CPU has it (runtime check), scalar otherwise. Throws kInvalidArgument when the range passes nodes().
  void fill_parent_cache(uint64_t first, uint64_t count, uint8_t* out, ThreadPool* pool = nullptr) const;
  /// SHA-256 of the whole parent cache (nodes · 56 bytes), the digest of cache.rs `generate` and of
  /// parent_cache.json. Streams in chunks (a few MiB of memory); the rows are computed on `pool`.
  Sha256::Digest parent_cache_digest(ThreadPool* pool = nullptr) const;
  /// The parent cache's file stem "v28-sdr-parent-<hex>" (cache.rs `cache_path`): SHA-256 of
  /// "poseidon_hasher", the graph identifier, the 4 Feistel keys (LE u64) and LE32(nodes). It does not
  /// depend on the API version.
  std::string parent_cache_id() const;

 private:
  uint64_t nodes_;
  PoRepId porep_id_;
  ApiVersion api_;
  std::array<uint8_t, 28> drg_seed_;
  std::array<uint64_t, 4> feistel_keys_;
  FeistelPrecomputed feistel_pre_;
};

/// The digest upstream's storage-proofs-porep/parent_cache.json lists for a parent cache id, and its
/// sector size; nullopt for ids not in the manifest (test sizes and non-production PoRep ids).
struct UpstreamParentCache {
  uint64_t sector_size;
  std::string_view digest_hex;
};
std::optional<UpstreamParentCache> upstream_parent_cache(std::string_view id);

/// Result of time_parent_cache.
struct ParentCacheTiming {
  std::string id;                        ///< parent_cache_id()
  std::string digest_hex;                ///< parent_cache_digest() in lowercase hex
  std::optional<bool> matches_upstream;  ///< compared with parent_cache.json when the id is listed
  double seconds = 0;                    ///< wall time of the digest
};
/// Builds the graph for `sector_size` bytes and computes (and times) the parent-cache digest on
/// `threads` threads (0 = all cores). A benchmark for the CLI: 32 GiB is 2^30 nodes, about 5·10^10
/// BLAKE2b compressions; both 32 GiB manifest entries matched in about 400 s each on 16 cores (AVX-512),
/// 512 MiB takes about 7 s there and 30-45 s on 2 shared cores. Throws kInvalidArgument for a sector size
/// that is not a multiple of 32 (or out of SdrGraph's range).
ParentCacheTiming time_parent_cache(uint64_t sector_size, const PoRepId& porep_id, ApiVersion api_version,
                                    unsigned threads = 0);

/// Lowercase hex of bytes.
std::string to_hex(const uint8_t* data, size_t n);

}  // namespace cuzk::sdr
