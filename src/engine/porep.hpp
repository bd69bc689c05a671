// Filecoin PoRep commit phase 2 on the engine's parts: the circuit of a sector size (recorded once per
// shape and shared), a C1's partition witnesses with their public inputs checked, Filecoin's parameter
// file names, and the loader of a .params key checked against the recorded circuit.
// (rust-fil-proofs filecoin-proofs src/api/seal.rs `seal_commit_phase2`; POREP_CIRCUIT.md §1, §6.)
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "circuits/stacked.hpp"
#include "engine/registry.hpp"
#include "formats/c1.hpp"
#include "formats/params.hpp"
#include "groth16/r1cs.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

/// The circuit of one sector size, ready to prove: its shape, the layout of its variables and the
/// prover's rows in compact form (circuits::stacked_compact_cs; expand() gives the ConstraintSystem).
struct PorepCircuit {
  circuits::StackedShape shape;
  circuits::StackedLayout layout;
  std::shared_ptr<const CompactCs> rows;
};

/// The circuit of `sector_size` ("2KiB" … "64GiB"), built on first use (circuits::stacked_compact_cs
/// on `pool`) and shared while anyone holds it: later calls return the same object as long as a
/// shared_ptr to it (or a LoadedCircuit of load_porep, whose constraint system aliases it) lives, so an
/// evicted circuit's rows are freed. Thread-safe. Throws Error(kInvalidArgument) for an unknown size.
std::shared_ptr<const PorepCircuit> porep_circuit(const std::string& sector_size, ThreadPool& pool);

/// The sector sizes with Filecoin PoRep parameters: "2KiB", "8MiB", "512MiB", "32GiB", "64GiB".
const std::vector<std::string>& porep_sector_sizes();

/// The circuit id of a sector size in the daemon's registry, cuzk's names: "porep-2k", "porep-8m",
/// "porep-512m", "porep-32g", "porep-64g". Throws Error(kInvalidArgument) for an unknown size.
std::string porep_circuit_id(const std::string& sector_size);

/// Filecoin's parameter file name of a sector size without extension (rust-fil-proofs parameters.json),
/// e.g. "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2…"
/// for 32 GiB; add ".params" or ".vk". Throws Error(kInvalidArgument) for an unknown size.
std::string porep_param_stem(const std::string& sector_size);

/// Checks that the challenges and parents of every partition of `c1` are the ones Filecoin derives
/// from its replica_id, seed (and comm_r for synthetic and non-interactive PoRep) and the SDR graph of
/// its registered proof (what verify_seal will recompute). Throws Error(kInvalidFile) naming `source`,
/// the partition, the challenge and what differs.
void check_c1_challenges(const C1Output& c1, const std::string& source);

/// Checks that `c1`'s comm_r is the Poseidon arity-2 hash of comm_c (the tree-C root of its column
/// proofs) and comm_r_last (the tree-R root of its comm_r_last proofs), as the circuit enforces
/// (rust-fil-proofs storage-proofs-porep src/stacked/circuit/proof.rs `StackedCircuit::synthesize`:
/// comm_r = Poseidon2(comm_c, comm_r_last)); one hash, so that a C1 whose comm_r was changed is refused
/// before any partition is synthesized. read_c1 has checked that every partition and challenge gives the
/// same two roots. Throws Error(kInvalidFile) "<source>: comm_r … is not Poseidon(comm_c, comm_r_last) …"
/// naming both values (hex of their 32 little-endian bytes).
void check_c1_comm_r(const C1Output& c1, const std::string& source);

/// The witness of partition k of `c1` (inputs ‖ aux, Montgomery form), made on `pool`, with its
/// public inputs checked against an independent computation from the C1's commitments and node
/// indices (circuits::stacked_public_inputs). Throws Error(kInvalidArgument) when c1 does not fit the
/// circuit, Error(kInternal) when the circuit's inputs differ from the independent ones.
std::vector<Fr> porep_partition_witness(const C1Output& c1, size_t k, const PorepCircuit& circuit,
                                        ThreadPool& pool);

/// The deferred assignment of partition k (a, b, c left to the backend: compact_cs.hpp), its witness made
/// straight into the assignment's storage (no zero-fill, no copy), with its public inputs checked as
/// porep_partition_witness does. Same errors.
Assignment porep_partition_assignment(const C1Output& c1, size_t k,
                                      const std::shared_ptr<const PorepCircuit>& circuit, ThreadPool& pool);

/// A PoRep key (.params) for `circuit`: read (with `options`) and checked against the recorded
/// circuit (domain, input and aux counts, A and B lengths against the densities). The returned
/// constraint system aliases `circuit` (holds it), so porep_circuit finds it while the registry keeps the
/// circuit loaded. Throws the reader's Error naming the file, or Error(kInvalidArgument) "<file> does not
/// fit the <size> PoRep circuit: …".
LoadedCircuit load_porep(const std::filesystem::path& params,
                         const std::shared_ptr<const PorepCircuit>& circuit,
                         const ParamsReadOptions& options = {});

/// The partitions of one PoRep job: one WitnessInput per partition of `c1` (in order), each an
/// assignment generator that a synthesis worker runs, making porep_partition_assignment(c1, k) for the
/// leased circuit (the circuit of c1's sector size, loaded by load_porep). A generator throws
/// Error(kInternal) when the leased rows are not porep_circuit's of that size, or porep_partition_witness's
/// errors. The C1 is shared by the generators and freed with the last of them.
std::vector<WitnessInput> porep_job_partitions(std::shared_ptr<const C1Output> c1);

}  // namespace cuzk::engine
