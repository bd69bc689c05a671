// Validation of a C1 against its registered proof and circuit shape: each vanilla proof as it is read
// (ProofReader) and the whole once parsed (check_c1). Internal to src/formats/c1; formats/c1.hpp
// read_c1 lists the checks.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "formats/c1.hpp"
#include "formats/c1/json_tree.hpp"

namespace cuzk::c1_detail {

/// The parents of a labeling or encoding proof (storage-proofs-porep stacked/vanilla/proof.rs
/// TOTAL_PARENTS).
inline constexpr size_t kTotalParents = 37;

/// Reads and validates vanilla proofs against a circuit shape, and checks that the roots agree across
/// challenges and partitions. Every failure throws Error(kInvalidFile, "<source>: <JSON path>: …").
class ProofReader : public TreeReader {
 public:
  /// `source` and `shape` must outlive the reader.
  ProofReader(const std::string& source, const circuits::StackedShape& shape)
      : TreeReader(source), shape_(shape) {}

  /// One challenge's vanilla proof `j`, whose path is `p`: its fields' types and counts, the Merkle
  /// paths against the shape, every node and index against the challenge (labeling_proofs[0].node),
  /// and its roots against the first proof read.
  C1VanillaProof proof(const json& j, JsonPath& p);
  /// proof() without the roots' check: reads nothing else of the reader's state, so readers of one
  /// shape may read proofs on several threads (read_c1_parallel).
  C1VanillaProof read(const json& j, JsonPath& p) const;
  /// proof()'s roots check of a proof read by read(), at path `p`, in document order.
  void accept(const C1VanillaProof& v, JsonPath& p) { check_roots(v, p); }

  /// The first proof's comm_d root (after at least one proof).
  const Fr& comm_d_root() const { return first_[0]; }
  /// The first proof's JSON path.
  const std::string& first_path() const { return first_path_; }

 private:
  void check_roots(const C1VanillaProof& v, JsonPath& p);
  C1LabelingProof labeling(const json& j, JsonPath& p, uint32_t layer, const uint64_t* node) const;
  C1ColumnProof column(const json& j, JsonPath& p, const uint64_t* node) const;
  void segment(const json& j, JsonPath& p, uint32_t arity, size_t levels, const char* tree,
               std::vector<circuits::PathLevel>& out) const;
  C1MerkleProof merkle(const json& j, JsonPath& p, const circuits::TreeShape& t, const char* tree,
                       uint64_t node, const char* node_name) const;

  const circuits::StackedShape& shape_;
  bool have_first_ = false;
  std::array<Fr, 3> first_;
  std::string first_path_;
};

/// The checks of a whole raw C1 once streamed (its vanilla proofs read by `proofs` against `shape`):
/// every field present (`top_keys`: the top-level keys seen), the shape key and partition count of
/// the registered proof, comm_r / comm_d / replica_id in Fr, comm_r / comm_d / seed non-zero, comm_d
/// equal to the comm_d proofs' root. Throws Error(kInvalidFile, "<source>: <field>: …"); `proofs` may
/// be null only if vanilla_proofs is missing from `top_keys`.
void check_c1(const std::string& source, const std::set<std::string>& top_keys, const C1Output& c1,
              const circuits::StackedShape& shape, const ProofReader* proofs);

}  // namespace cuzk::c1_detail
