// Filecoin SnapDeals (empty-sector update) proofs on the engine's parts: Filecoin's parameter file names,
// the recorded circuit of a sector size, and one partition's witness with its public inputs checked
// against an independent computation (rust-fil-proofs filecoin-proofs src/api/update.rs
// `generate_empty_sector_update_proof_with_vanilla`, storage-proofs-update src/compound.rs).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "formats/update_vanilla.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/r1cs.hpp"
#include "groth16/synthesis.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

/// The sector sizes with Filecoin SnapDeals parameters: "2KiB", "8MiB", "512MiB", "32GiB", "64GiB".
const std::vector<std::string>& update_sector_sizes();

/// Filecoin's parameter file name of a sector size without extension (rust-fil-proofs parameters.json;
/// storage-proofs-core parameter_cache.rs `cache_identifier`): "v28-empty-sector-update-merkletree-
/// poseidon_hasher-<base>-<sub>-<top>-" then the hex SHA-256 of the public parameters' identifier
/// "empty_sector_update::PublicParams{ sector_nodes: N }" (vanilla.rs `identifier`); add ".params" or
/// ".vk". Throws Error(kInvalidArgument) for a size update_shape does not know.
std::string update_param_stem(const std::string& sector_size);

/// The prover's constraint system of one partition of `sector_size` (recorded with RecordCs, the input
/// rows appended). Throws Error(kInvalidArgument) for an unknown size.
ConstraintSystem update_constraint_system(const std::string& sector_size);

/// update_constraint_system of `sector_size` in compact form (compacted on `pool`): the rows the
/// prover keeps resident and evaluates a, b, c from (on the device with a GPU backend). Throws as
/// update_constraint_system.
CompactCs update_compact_cs(const std::string& sector_size, ThreadPool& pool);

/// The deferred assignment (a, b, c left to the backend) of partition k: update_partition_witness_values
/// laid out on `rows`, which must be update_compact_cs of `shape`. Throws as
/// update_partition_witness_values, or Error(kInvalidArgument) when the witness does not fit `rows`.
Assignment update_partition_assignment(std::shared_ptr<const CompactCs> rows,
                                       const circuits::UpdateShape& shape, uint32_t k, uint32_t h,
                                       const UpdateCommitments& comms, const UpdatePartitionProof& p,
                                       ThreadPool& pool);

/// The witness (inputs ‖ aux, Montgomery form) of partition k of an update with `h`, made on `pool`
/// from the vanilla proof (circuits::update_witness), its inputs checked against
/// circuits::update_public_inputs. Throws Error(kInvalidArgument) when the proof does not fit the
/// shape, Error(kInternal) when the circuit's inputs differ from the independent ones.
std::vector<Fr> update_partition_witness_values(const circuits::UpdateShape& shape, uint32_t k, uint32_t h,
                                                const UpdateCommitments& comms, const UpdatePartitionProof& p,
                                                ThreadPool& pool);

}  // namespace cuzk::engine
