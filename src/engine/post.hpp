// Filecoin's fallback PoSt (WinningPoSt, WindowPoSt) on the engine's parts: the circuit of a shape
// (recorded once and shared), a partition's assignment with its public inputs checked against an
// independent computation, the parameter file names, and the loader of a .params key checked against
// the recorded circuit (rust-fil-proofs filecoin-proofs src/api/winning_post.rs
// `generate_winning_post_with_vanilla`, window_post.rs `generate_single_window_post_with_vanilla`).
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "circuits/fallback_post.hpp"
#include "engine/job.hpp"
#include "engine/registry.hpp"
#include "formats/params.hpp"
#include "formats/post_vanilla.hpp"
#include "groth16/compact_cs.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

/// The circuit of one PoSt shape, ready to prove: its shape and the prover's rows in compact form.
struct PostCircuit {
  circuits::PostShape shape;
  std::shared_ptr<const CompactCs> rows;
};

/// The circuit of `shape`, built on first use (circuits::fallback_post_compact_cs on `pool`: one sector
/// recorded, its rows replicated) and shared while anyone holds it (as engine::porep_circuit).
/// Thread-safe.
std::shared_ptr<const PostCircuit> post_circuit(const circuits::PostShape& shape, ThreadPool& pool);

/// The daemon's circuit id of a registered PoSt proof, cuzk's names: "winning-2k", "winning-8m",
/// "winning-512m", "winning-32g", "winning-64g" and "wpost-2k" … "wpost-64g" (V1 and V1_2 window
/// proofs share the circuit).
std::string post_circuit_id(const RegisteredPostProof& proof);

/// What a prover is given for one PoSt partition (cuzk.v1 SubmitProofRequest's registered_proof,
/// vanilla_proofs, randomness, miner_id, partition_index), parsed.
struct PostRequest {
  RegisteredPostProof proof;
  std::vector<PostVanillaProof> vanilla;
  std::array<uint8_t, 32> randomness{};
  uint64_t miner_id = 0;
  size_t partition = 0;
  PostPartition circuit_input;  ///< post_partition of the above: the vanilla proofs verified, laid out
};

/// Parses a request's raw fields and verifies its vanilla proofs: the registered proof id (0..14), each
/// vanilla proof's bincode bytes (read_post_vanilla_proof, named "vanilla_proofs[i]"), the 32 bytes of
/// randomness (a field element, as upstream's as_safe_commitment requires), then post_partition. Throws
/// Error(kInvalidArgument) naming the field, or post_partition's errors (the vanilla proof, sector and
/// challenge). The sectors are checked on `pool`, or on a pool of every core made for the call when
/// there are 64 or more and none is given.
PostRequest parse_post_request(uint64_t registered_proof,
                               const std::vector<std::vector<uint8_t>>& vanilla_proofs,
                               std::span<const uint8_t> randomness, uint64_t miner_id,
                               uint64_t partition_index, ThreadPool* pool = nullptr);

/// The public inputs of the request's partition (without ONE), from its public data alone
/// (circuits::fallback_post_public_inputs of the sectors' ids and comm_r).
std::vector<Fr> post_public_inputs(const PostRequest& r);

/// The deferred assignment of the request's partition (a, b, c left to the backend), from
/// r.circuit_input, its public inputs checked against post_public_inputs. Throws Error(kInternal) when
/// the circuit's inputs differ from the independent ones or `circuit` is not the request's shape.
Assignment post_assignment(const PostRequest& r, const std::shared_ptr<const PostCircuit>& circuit,
                           ThreadPool& pool);

/// A PoSt key (.params) for `circuit`, read (with `options`) and checked against the recorded rows.
/// Throws the reader's Error naming the file, or Error(kInvalidArgument) "<file> and the <shape>
/// PoSt circuit belong to different circuits: …".
LoadedCircuit load_post(const std::filesystem::path& params,
                        const std::shared_ptr<const PostCircuit>& circuit,
                        const ParamsReadOptions& options = {});

/// The one partition of a PoSt job: an assignment generator that a synthesis worker runs for the
/// leased circuit (load_post's of the request's shape). It throws Error(kInternal) when the leased rows
/// are not post_circuit's of that shape, or post_assignment's errors. The request is shared by the
/// generator and freed with it.
std::vector<WitnessInput> post_job_partitions(std::shared_ptr<const PostRequest> r);

}  // namespace cuzk::engine
