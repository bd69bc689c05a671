// Filecoin's PoRep circuit for one partition (rust-fil-proofs storage-proofs-porep
// src/stacked/circuit/proof.rs `StackedCircuit::synthesize` and params.rs `Proof::synthesize`), in
// upstream's emission order (POREP_CIRCUIT.md §2): replica_id, comm_d, comm_r (inputs), comm_r_last,
// comm_c, comm_r = Poseidon2(comm_c, comm_r_last), then per challenge the data leaf in tree D, the 6
// DRG and 8 expander parent columns in tree C, the challenge, the labels of every layer, the
// encoding in tree R and the challenge's own column in tree C.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "circuits/create_label.hpp"
#include "circuits/porep_witness.hpp"
#include "groth16/compact_cs.hpp"

namespace cuzk {
class ThreadPool;
}

namespace cuzk::circuits {

/// Synthesizes one partition of `shape` into cs. `w` is required in the value modes (CS::kValues) and
/// ignored otherwise. Throws Error(kInvalidArgument) when the witness does not fit the shape (wrong
/// challenge count, column height, parent count or path shape), naming the challenge and the part.
template <class CS>
void synthesize_stacked(CS& cs, const StackedShape& shape, const StackedWitness* w);

/// Where the blocks of a partition's variables lie (every challenge has the same structure): the top
/// level, then per challenge phase A (data leaf, parent columns, challenge), the labels (layer 1, then
/// the others, each of label_aux), phase C (encoding, c_x). Counted once per shape in count mode.
struct StackedLayout {
  uint32_t top_aux = 0, top_inputs = 0;  ///< top_inputs includes ONE
  uint32_t phase_a_aux = 0, phase_a_inputs = 0, label1_aux = 0, label_aux = 0, phase_c_aux = 0,
           phase_c_inputs = 0;
  uint32_t challenge_aux = 0, challenge_inputs = 0;
  uint32_t n_aux = 0, n_inputs = 0;  ///< the whole partition (n_inputs with ONE)
};
StackedLayout stacked_layout(const StackedShape& shape);

/// The witness of one partition, inputs ‖ aux (n_inputs + n_aux values, Montgomery form, [0] = ONE),
/// the same values synthesize_stacked computes in witness mode, made on `pool`: phase A of all
/// challenges, then all challenge × layer labels, then phase C, each block writing its own slice.
/// Throws Error(kInvalidArgument) when the witness does not fit the shape.
std::vector<Fr> stacked_witness(const StackedShape& shape, const StackedWitness& w,
                                const StackedLayout& layout, ThreadPool& pool);

/// The prover's constraint system of one partition of `shape` (bellperson convention, the input rows
/// appended, densities computed): the rows synthesize_stacked records, built by recording the top
/// level and one challenge and replicating that challenge's rows for the others with its variables
/// shifted (every challenge has the same structure and refers only to its own and the top level's
/// variables), on `pool`. Equal to RecordCs + Recording::to_constraint_system, in a fraction of the time.
ConstraintSystem stacked_constraint_system(const StackedShape& shape, ThreadPool& pool);

/// The same rows in compact form (groth16/compact_cs.hpp): the recording's interned coefficients kept as
/// table indices, 8 bytes a term (the 32 GiB partition's 729 M terms in 5.8 GB instead of 26 GB), what
/// the prover evaluates and the GPU keeps resident. stacked_constraint_system is expand() of this.
CompactCs stacked_compact_cs(const StackedShape& shape, ThreadPool& pool);

}  // namespace cuzk::circuits
