// compute_densities (declared in groth16/r1cs.hpp): the density bitmaps of a ConstraintSystem from the
// columns of its A and B matrices, as bellperson's ProvingAssignment tracks them (a term with any
// coefficient marks its variable).
#include "groth16/r1cs.hpp"

namespace cuzk {

void compute_densities(ConstraintSystem& cs) {
  cs.a_aux = Density(cs.n_aux);
  cs.b_inp = Density(cs.n_inputs);
  cs.b_aux = Density(cs.n_aux);
  for (uint32_t c : cs.a.cols)
    if (c >= cs.n_inputs && c - cs.n_inputs < cs.n_aux) cs.a_aux.set(c - cs.n_inputs);
  for (uint32_t c : cs.b.cols) {
    if (c < cs.n_inputs)
      cs.b_inp.set(c);
    else if (c - cs.n_inputs < cs.n_aux)
      cs.b_aux.set(c - cs.n_inputs);
  }
}

}  // namespace cuzk
