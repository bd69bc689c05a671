// The circuit's view of a C1: its shape and each partition's challenges, parents, public inputs and
// witness (formats/c1.hpp shape_of, partition_*).
#include <string>

#include "ff/bytes.hpp"
#include "formats/c1.hpp"
#include "util/error.hpp"

namespace cuzk {

using circuits::TreeShape;

circuits::StackedShape shape_of(const C1Output& c1) {
  return circuits::stacked_shape(std::string(c1.registered_proof.size));
}

namespace {
bool same_tree(const TreeShape& a, const TreeShape& b) {
  return a.base_arity == b.base_arity && a.base_levels == b.base_levels && a.sub_arity == b.sub_arity &&
         a.top_arity == b.top_arity;
}
const std::vector<C1VanillaProof>& partition_of(const C1Output& c1, size_t partition) {
  if (partition >= c1.vanilla_proofs.size() || c1.vanilla_proofs[partition].empty())
    throw Error(ErrorCode::kInvalidArgument,
                "C1 " + std::string(c1.registered_proof.name) + ": partition " + std::to_string(partition) +
                    " of " + std::to_string(c1.vanilla_proofs.size()) + " does not exist or is empty");
  return c1.vanilla_proofs[partition];
}
Fr fr_of(const Bytes32& b, const char* name) {
  Fr f;
  if (!from_bytes_le(b.data(), f))
    throw Error(ErrorCode::kInvalidArgument, std::string("C1 ") + name + " is not a field element (≥ r)");
  return f;
}
}  // namespace

std::vector<uint64_t> partition_challenges(const C1Output& c1, size_t partition) {
  std::vector<uint64_t> r;
  for (const C1VanillaProof& v : partition_of(c1, partition)) {
    if (v.labeling_proofs.empty())
      throw Error(ErrorCode::kInvalidArgument, "C1 vanilla proof without labeling proofs");
    r.push_back(v.labeling_proofs[0].node);
  }
  return r;
}

std::vector<std::array<uint64_t, 14>> partition_parents(const C1Output& c1, size_t partition) {
  std::vector<std::array<uint64_t, 14>> r;
  for (const C1VanillaProof& v : partition_of(c1, partition)) {
    const C1ReplicaColumnProof& rc = v.replica_column_proofs;
    if (rc.drg_parents.size() != circuits::kDrgParents || rc.exp_parents.size() != circuits::kExpParents)
      throw Error(ErrorCode::kInvalidArgument,
                  "C1 vanilla proof with " + std::to_string(rc.drg_parents.size()) + " DRG and " +
                      std::to_string(rc.exp_parents.size()) + " expander parents (6 and 8 expected)");
    std::array<uint64_t, 14> a;
    for (size_t i = 0; i < 6; i++) a[i] = rc.drg_parents[i].index;
    for (size_t i = 0; i < 8; i++) a[6 + i] = rc.exp_parents[i].index;
    r.push_back(a);
  }
  return r;
}

std::vector<Fr> partition_public_inputs(const C1Output& c1, size_t partition) {
  auto fr = [](const Bytes32& b) {
    Fr x;
    if (!from_bytes_le(b.data(), x))
      throw Error(ErrorCode::kInvalidArgument, "C1: a commitment is not in Fr");
    return x;
  };
  return circuits::stacked_public_inputs(fr(c1.replica_id), fr(c1.comm_d), fr(c1.comm_r),
                                         partition_challenges(c1, partition),
                                         partition_parents(c1, partition));
}

circuits::StackedWitness partition_witness(const C1Output& c1, size_t partition,
                                           const circuits::StackedShape& shape) {
  const std::vector<C1VanillaProof>& proofs = partition_of(c1, partition);
  const circuits::StackedShape own = shape_of(c1);
  if (own.nodes != shape.nodes || own.layers != shape.layers || own.challenges != shape.challenges ||
      !same_tree(own.tree_d, shape.tree_d) || !same_tree(own.tree_rc, shape.tree_rc))
    throw Error(ErrorCode::kInvalidArgument,
                "partition_witness: shape '" + shape.name + "' does not fit C1 of " +
                    std::string(c1.registered_proof.name) + " (shape '" + own.name + "')");
  if (proofs.size() != shape.challenges)
    throw Error(ErrorCode::kInvalidArgument, "partition_witness: partition " + std::to_string(partition) +
                                                 " has " + std::to_string(proofs.size()) +
                                                 " challenges; shape '" + shape.name + "' takes " +
                                                 std::to_string(shape.challenges));
  std::vector<uint64_t> challenges = partition_challenges(c1, partition);
  partition_parents(c1, partition);  // checks the parent counts
  circuits::StackedWitness w;
  w.replica_id = fr_of(c1.replica_id, "replica_id");
  w.comm_d = fr_of(c1.comm_d, "comm_d");
  w.comm_r = fr_of(c1.comm_r, "comm_r");
  w.comm_r_last = proofs[0].comm_r_last_proof.root;
  w.comm_c = proofs[0].replica_column_proofs.c_x.inclusion_proof.root;
  w.challenges.reserve(proofs.size());
  for (size_t i = 0; i < proofs.size(); i++) {
    const C1VanillaProof& v = proofs[i];
    circuits::ChallengeWitness c;
    c.challenge = challenges[i];
    c.data_leaf = v.comm_d_proofs.leaf;
    c.comm_d_path = v.comm_d_proofs.path;
    for (const C1ColumnProof& p : v.replica_column_proofs.drg_parents)
      c.drg_parents.push_back({p.rows, p.inclusion_proof.path});
    for (const C1ColumnProof& p : v.replica_column_proofs.exp_parents)
      c.exp_parents.push_back({p.rows, p.inclusion_proof.path});
    c.comm_r_last_path = v.comm_r_last_proof.path;
    c.comm_c_path = v.replica_column_proofs.c_x.inclusion_proof.path;
    w.challenges.push_back(std::move(c));
  }
  return w;
}

}  // namespace cuzk
