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

namespace cuzk::circuits {

/// Synthesizes one partition of `shape` into cs. `w` is required in the value modes (CS::kValues) and
/// ignored otherwise. Throws Error(kInvalidArgument) when the witness does not fit the shape (wrong
/// challenge count, column height, parent count or path shape), naming the challenge and the part.
template <class CS>
void synthesize_stacked(CS& cs, const StackedShape& shape, const StackedWitness* w);

}  // namespace cuzk::circuits
