// Filecoin's PoRep circuit for one partition (rust-fil-proofs storage-proofs-porep
// src/stacked/circuit/proof.rs `StackedCircuit::synthesize` and params.rs `Proof::synthesize`), in
// upstream's emission order (POREP_CIRCUIT.md §2): replica_id, comm_d, comm_r (inputs), comm_r_last,
// comm_c, comm_r = Poseidon2(comm_c, comm_r_last), then per challenge the data leaf in tree D, the 6
// DRG and 8 expander parent columns in tree C, the challenge, the labels of every layer, the
// encoding in tree R and the challenge's own column in tree C.
#pragma once

#include <cstdint>
#include <span>
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
/// the others, each of label_aux), phase C (encoding, c_x). Counted once per shape in count mode, each
/// phase also block by block: phase A is tree_d ‖ 14 × column ‖ challenge_bits, phase C is encoding ‖
/// c_x (aux and inputs alike), so that stacked_witness can make every block on its own.
struct StackedLayout {
  uint32_t top_aux = 0, top_inputs = 0;  ///< top_inputs includes ONE
  uint32_t phase_a_aux = 0, phase_a_inputs = 0, label1_aux = 0, label_aux = 0, phase_c_aux = 0,
           phase_c_inputs = 0;
  uint32_t tree_d_aux = 0, tree_d_inputs = 0;                  ///< a. data leaf and its tree-D inclusion
  uint32_t column_aux = 0, column_inputs = 0;                  ///< b, c. one parent column (all alike)
  uint32_t challenge_bits_aux = 0, challenge_bits_inputs = 0;  ///< d. the challenge's 64 bits
  uint32_t encoding_aux = 0, encoding_inputs = 0;              ///< f. the encoding in tree R
  uint32_t c_x_aux = 0, c_x_inputs = 0;                        ///< g. the challenged column in tree C
  uint32_t challenge_aux = 0, challenge_inputs = 0;
  uint32_t n_aux = 0, n_inputs = 0;  ///< the whole partition (n_inputs with ONE)
};
StackedLayout stacked_layout(const StackedShape& shape);

/// Where stacked_witness spent its time (seconds): the wall time of each round, and per kind of
/// block the summed and the longest single block's time (the work, and what bounds a round on many
/// threads).
struct StackedWitnessTimes {
  struct Blocks {
    double total = 0, max = 0;
    size_t count = 0;
  };
  double alloc = 0;    ///< the std::vector (stacked_witness only)
  double top = 0;      ///< the top level (sequential)
  double columns = 0;  ///< round 1: every parent column and every challenge's bits
  double labels = 0;   ///< round 2: every tree-D inclusion and every label
  double phase_c = 0;  ///< round 3: every encoding and every c_x
  Blocks tree_d, column, challenge_bits, label1, label, encoding, c_x;
};

/// The witness of one partition, inputs ‖ aux (n_inputs + n_aux values, Montgomery form, [0] = ONE),
/// the same values synthesize_stacked computes in witness mode, made on `pool` block by block, each
/// block writing its own slice: first the top level, then in three rounds (each a parallel_for over
/// independent blocks) the 14 parent columns and the challenge bits of every challenge; the tree-D
/// inclusions and every challenge × layer label; the encodings and the c_x columns. The vector's
/// storage is faulted in on the pool before its (single-threaded) value-initialization. Fills `times`
/// when given. With `bad_opening`, also says which of the witness's Merkle openings does not lead to its
/// root (the witness then satisfies no proof): the first, in challenge order and within a challenge tree
/// D's, the 6 DRG and 8 expander parent columns', tree R's and the challenged column's, e.g.
/// "challenge 3 (node 1234): the column of DRG parent 2 does not lead to comm_c"; empty when every one
/// does. Throws Error(kInvalidArgument) when the witness does not fit the shape.
std::vector<Fr> stacked_witness(const StackedShape& shape, const StackedWitness& w,
                                const StackedLayout& layout, ThreadPool& pool,
                                StackedWitnessTimes* times = nullptr, std::string* bad_opening = nullptr);

/// stacked_witness into caller-owned storage: writes every one of out's n_inputs + n_aux values
/// exactly once, so `out` may be uninitialized (e.g. `new Fr[n]`, which leaves Fr's limbs
/// default-initialized). Throws Error(kInvalidArgument) when the witness does not fit the shape or
/// out.size() differs from n_inputs + n_aux.
void stacked_witness_into(const StackedShape& shape, const StackedWitness& w, const StackedLayout& layout,
                          ThreadPool& pool, std::span<Fr> out, StackedWitnessTimes* times = nullptr,
                          std::string* bad_opening = nullptr);
/// The same with the inputs (n_inputs, ONE first) and the aux values (n_aux) in separate storage, e.g. an
/// Assignment's own vectors, so that no copy follows.
void stacked_witness_into(const StackedShape& shape, const StackedWitness& w, const StackedLayout& layout,
                          ThreadPool& pool, std::span<Fr> inputs, std::span<Fr> aux,
                          StackedWitnessTimes* times = nullptr, std::string* bad_opening = nullptr);

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
