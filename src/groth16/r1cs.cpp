#include "groth16/r1cs.hpp"

#include <string>

#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {

std::optional<size_t> first_unsatisfied(const R1cs& r1cs, std::span<const Fr> witness) {
  if (witness.size() != r1cs.n_wires)
    throw Error(ErrorCode::kInvalidArgument, "witness has " + counted(witness.size(), "value") +
                                                 ", the constraint system has " +
                                                 counted(r1cs.n_wires, "wire"));
  for (size_t j = 0; j < r1cs.a.rows(); j++)
    if (r1cs.a.dot_row(j, witness) * r1cs.b.dot_row(j, witness) != r1cs.c.dot_row(j, witness)) return j;
  return std::nullopt;
}

void compute_densities(ConstraintSystem& cs) {
  cs.a_aux = Density(cs.n_aux);
  cs.b_inp = Density(cs.n_inputs);
  cs.b_aux = Density(cs.n_aux);
  for (size_t k = 0; k < cs.a.nnz(); k++)
    if (cs.a.cols[k] >= cs.n_inputs && !cs.a.vals[k].is_zero()) cs.a_aux.set(cs.a.cols[k] - cs.n_inputs);
  for (size_t k = 0; k < cs.b.nnz(); k++) {
    if (cs.b.vals[k].is_zero()) continue;
    if (cs.b.cols[k] < cs.n_inputs)
      cs.b_inp.set(cs.b.cols[k]);
    else
      cs.b_aux.set(cs.b.cols[k] - cs.n_inputs);
  }
}

ConstraintSystem constraint_system(const R1cs& r1cs, HConvention convention) {
  ConstraintSystem cs;
  cs.convention = convention;
  cs.n_inputs = r1cs.n_public() + 1;
  if (cs.n_inputs > r1cs.n_wires)
    throw Error(ErrorCode::kInvalidArgument, "the circuit has " + counted(r1cs.n_public(), "public signal") +
                                                 " but only " + counted(r1cs.n_wires, "wire"));
  cs.n_aux = r1cs.n_wires - cs.n_inputs;
  cs.a = r1cs.a;
  cs.b = r1cs.b;
  cs.c = r1cs.c;
  const Fr one = Fr::one();
  for (uint32_t i = 0; i < cs.n_inputs; i++) {
    // bellperson: input_i · 0 = 0 (B and C rows empty); snarkjs: A = w_i (no B row)
    cs.a.push_row(std::span<const uint32_t>(&i, 1), std::span<const Fr>(&one, 1));
    if (convention == HConvention::kBellperson) {
      cs.b.push_row({}, {});
      cs.c.push_row({}, {});
    }
  }
  const uint64_t rows = cs.a.rows();
  cs.log_n = 1;
  while ((uint64_t{1} << cs.log_n) < rows) cs.log_n++;
  if (cs.log_n > 28)
    throw Error(ErrorCode::kInvalidArgument,
                "the circuit has " + std::to_string(rows) + " rows: its domain would exceed 2^28");
  compute_densities(cs);
  return cs;
}

}  // namespace cuzk
