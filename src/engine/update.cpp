// SnapDeals on the engine's parts (see update.hpp).
#include "engine/update.hpp"

#include <algorithm>

#include "hash/sha256.hpp"

namespace cuzk::engine {

const std::vector<std::string>& update_sector_sizes() {
  static const std::vector<std::string> sizes = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
  return sizes;
}

std::string update_param_stem(const std::string& sector_size) {
  const circuits::UpdateShape s = circuits::update_shape(sector_size);
  const std::string id =
      "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(s.sector_nodes) + " }";
  const Sha256::Digest d =
      Sha256::hash(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(id.data()), id.size()));
  static const char* hex = "0123456789abcdef";
  std::string h;
  for (uint8_t b : d) {
    h += hex[b >> 4];
    h += hex[b & 15];
  }
  return "v28-empty-sector-update-merkletree-poseidon_hasher-" + std::to_string(s.tree_r.base_arity) + "-" +
         std::to_string(s.tree_r.sub_arity) + "-" + std::to_string(s.tree_r.top_arity) + "-" + h;
}

ConstraintSystem update_constraint_system(const std::string& sector_size) {
  circuits::RecordCs cs;
  circuits::synthesize_empty_sector_update(cs, circuits::update_shape(sector_size), nullptr);
  return cs.take_recording().to_constraint_system();
}

CompactCs update_compact_cs(const std::string& sector_size, ThreadPool& pool) {
  return compact(update_constraint_system(sector_size), pool);
}

Assignment update_partition_assignment(std::shared_ptr<const CompactCs> rows,
                                       const circuits::UpdateShape& shape, uint32_t k, uint32_t h,
                                       const UpdateCommitments& comms, const UpdatePartitionProof& p,
                                       ThreadPool& pool) {
  if (!rows) throw Error(ErrorCode::kInvalidArgument, "empty-sector-update partition: no compact rows");
  Assignment asg;
  asg.log_n = rows->log_n;
  asg.inputs.resize(rows->n_inputs);
  asg.aux.vec().resize(rows->n_aux);  // BigVector: default-initialized, every value written below
  circuits::update_witness_into(shape, update_partition_witness(k, h, comms, p), pool, asg.inputs,
                                asg.aux.vec());
  const std::vector<Fr> want =
      circuits::update_public_inputs(shape, k, h, comms.comm_r_old, comms.comm_d_new, comms.comm_r_new);
  if (asg.inputs.size() != want.size() + 1 || !std::equal(want.begin(), want.end(), asg.inputs.begin() + 1))
    throw Error(ErrorCode::kInternal, "empty-sector-update partition " + std::to_string(k) +
                                          ": the circuit's public inputs differ from the independent ones");
  asg.a_aux = rows->a_aux;
  asg.b_inp = rows->b_inp;
  asg.b_aux = rows->b_aux;
  asg.rows = std::move(rows);
  return asg;
}

std::vector<Fr> update_partition_witness_values(const circuits::UpdateShape& shape, uint32_t k, uint32_t h,
                                                const UpdateCommitments& comms, const UpdatePartitionProof& p,
                                                ThreadPool& pool) {
  const std::vector<Fr> full =
      circuits::update_witness(shape, update_partition_witness(k, h, comms, p), pool);
  const std::vector<Fr> want =
      circuits::update_public_inputs(shape, k, h, comms.comm_r_old, comms.comm_d_new, comms.comm_r_new);
  if (full.size() <= want.size() || !std::equal(want.begin(), want.end(), full.begin() + 1))
    throw Error(ErrorCode::kInternal, "empty-sector-update partition " + std::to_string(k) +
                                          ": the circuit's public inputs differ from the independent ones");
  return full;
}

}  // namespace cuzk::engine
