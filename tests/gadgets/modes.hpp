// Test helper: runs one synthesis function in all four builder modes and checks that they agree.
#pragma once

#include <gtest/gtest.h>

#include "circuits/cs.hpp"

namespace cuzk::circuits::test {

/// What the four modes of one synthesis produced.
struct ModeRun {
  size_t inputs = 0, aux = 0, constraints = 0;
  Recording recording;
  Witness witness;
};

/// Runs `synth(cs)` (a generic callable) with CountCs, RecordCs, WitnessCs and TestCs and checks (gtest
/// assertions) that the counts agree, that TestCs's rows hold on its values, that the recording of
/// RecordCs is satisfied by WitnessCs's witness and that WitnessCs's values equal TestCs's.
template <class F>
ModeRun run_modes(F&& synth) {
  CountCs count;
  synth(count);
  RecordCs rec;
  synth(rec);
  WitnessCs wit;
  synth(wit);
  TestCs test;
  synth(test);
  ModeRun r;
  r.inputs = count.num_inputs();
  r.aux = count.num_aux();
  r.constraints = count.num_constraints();
  for (auto [n, what] :
       {std::pair{rec.num_inputs(), "record"}, {wit.num_inputs(), "witness"}, {test.num_inputs(), "test"}})
    EXPECT_EQ(n, r.inputs) << what << " mode: inputs";
  for (auto [n, what] :
       {std::pair{rec.num_aux(), "record"}, {wit.num_aux(), "witness"}, {test.num_aux(), "test"}})
    EXPECT_EQ(n, r.aux) << what << " mode: aux";
  EXPECT_EQ(rec.num_constraints(), r.constraints);
  EXPECT_EQ(wit.num_constraints(), r.constraints);
  EXPECT_EQ(test.num_constraints(), r.constraints);
  auto bad = test.first_unsatisfied();
  EXPECT_FALSE(bad.has_value()) << "test mode: row " << *bad
                                << " fails: " << test.take_recording().describe_row(*bad);
  r.recording = rec.take_recording();
  r.witness = wit.take_witness();
  EXPECT_FALSE(r.recording.first_unsatisfied(r.witness).has_value())
      << "record mode's rows, witness mode's values";
  EXPECT_EQ(r.witness.inputs, test.witness().inputs);
  EXPECT_EQ(r.witness.aux, test.witness().aux);
  return r;
}

/// True when replacing aux value j by `x` makes some row of `r` fail; the witness is restored.
inline bool change_fails(ModeRun& r, size_t j, const Fr& x) {
  const Fr saved = r.witness.aux.at(j);
  r.witness.aux[j] = x;
  const bool fails = r.recording.first_unsatisfied(r.witness).has_value();
  r.witness.aux[j] = saved;
  return fails;
}

/// The same for a bit-valued aux variable: flips it (0 ↔ 1).
inline bool flip_fails(ModeRun& r, size_t j) {
  return change_fails(r, j, r.witness.aux.at(j).is_zero() ? Fr::one() : Fr::zero());
}

}  // namespace cuzk::circuits::test
