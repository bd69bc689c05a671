// AllocatedNum bits and packing, UInt64, pick / select / insert (src/circuits), in every builder mode.
#include <gtest/gtest.h>

#include <random>

#include "circuits/insertion.hpp"
#include "circuits/uint64.hpp"
#include "gadgets/modes.hpp"
#include "random.hpp"

namespace cuzk::circuits {
namespace {

using test::flip_fails;
using test::run_modes;

Fr r_minus_1() { return -Fr::one(); }

TEST(GadgetNum, ToBitsLeCountsAndValues) {
  std::mt19937_64 rng(11);
  for (Fr x : {Fr::zero(), Fr::one(), r_minus_1(), cuzk::test::random_fe<Fr>(rng)}) {
    std::vector<bool> got;
    auto run = run_modes([&](auto& cs) {
      AllocatedNum n = AllocatedNum::alloc(cs, x);
      auto bits = to_bits_le(cs, n);
      got.clear();
      for (auto& b : bits) got.push_back(b.value);
    });
    EXPECT_EQ(run.constraints, 256u);
    EXPECT_EQ(run.aux, 256u);  // x and its 255 bits
    uint64_t l[4];
    x.to_canonical(l);
    for (int i = 0; i < 255; i++) EXPECT_EQ(got[i], ((l[i / 64] >> (i % 64)) & 1) != 0) << "bit " << i;
    // The packing row fails when a bit flips.
    EXPECT_TRUE(flip_fails(run, 1 + 3));
    EXPECT_TRUE(flip_fails(run, 1 + 254));
  }
}

TEST(GadgetNum, InputizeAndAdd) {
  std::mt19937_64 rng(12);
  Fr x = cuzk::test::random_fe<Fr>(rng), y = cuzk::test::random_fe<Fr>(rng);
  auto run = run_modes([&](auto& cs) {
    AllocatedNum a = AllocatedNum::alloc(cs, x), b = AllocatedNum::alloc(cs, y);
    AllocatedNum s = add(cs, a, b);
    inputize(cs, s);
  });
  EXPECT_EQ(run.constraints, 2u);
  EXPECT_EQ(run.inputs, 2u);
  EXPECT_EQ(run.witness.inputs[1], x + y);
  EXPECT_EQ(run.recording.describe_row(0), "A: 1*aux0 1*aux1; B: 1*in0; C: 1*aux2");
  EXPECT_EQ(run.recording.describe_row(1), "A: 1*in1; B: 1*in0; C: 1*aux2");
  EXPECT_TRUE(test::change_fails(run, 2, x));
}

TEST(GadgetMultipack, PackIntoInputsChunksAt254Bits) {
  std::mt19937_64 rng(13);
  std::vector<bool> vals(300);
  for (size_t i = 0; i < vals.size(); i++) vals[i] = rng() & 1;
  vals[0] = vals[299] = true;
  auto run = run_modes([&](auto& cs) {
    std::vector<Boolean> bits;
    for (size_t i = 0; i < vals.size(); i++) {
      // A mix of constants, allocated bits and negations.
      if (i % 5 == 0)
        bits.push_back(Boolean::constant(vals[i]));
      else if (i % 5 == 1)
        bits.push_back(Boolean::is(AllocatedBit::alloc(cs, !vals[i])).negate());
      else
        bits.push_back(Boolean::is(AllocatedBit::alloc(cs, vals[i])));
    }
    pack_into_inputs(cs, std::span<const Boolean>(bits));
    pack_bits(cs, std::span<const Boolean>(bits));
  });
  EXPECT_EQ(run.inputs, 3u);  // ONE + two chunks (254 + 46 bits)
  ASSERT_EQ(run.witness.inputs.size(), 3u);
  uint64_t l[4] = {}, h[4] = {};
  for (size_t i = 0; i < 254; i++)
    if (vals[i]) l[i / 64] |= uint64_t{1} << (i % 64);
  for (size_t i = 254; i < 300; i++)
    if (vals[i]) h[(i - 254) / 64] |= uint64_t{1} << ((i - 254) % 64);
  Fr lo, hi;
  ASSERT_TRUE(Fr::from_canonical(l, lo));
  ASSERT_TRUE(Fr::from_canonical(h, hi));
  EXPECT_EQ(run.witness.inputs[1], lo);
  EXPECT_EQ(run.witness.inputs[2], hi);
  EXPECT_EQ(run.witness.aux.back(), lo);  // pack_bits takes the first 254 bits
  EXPECT_EQ(run.constraints, 240u + 3u);  // 240 allocated bits, 2 input rows, 1 pack_bits row
}

TEST(GadgetMultipack, ReverseBitNumbering) {
  std::vector<Boolean> bits;
  for (int i = 0; i < 10; i++) bits.push_back(Boolean::constant(i == 0 || i == 9));
  auto r = reverse_bit_numbering(bits);
  ASSERT_EQ(r.size(), 16u);
  for (int i = 0; i < 16; i++) EXPECT_EQ(r[i].value, i == 7 || i == 14) << i;
}

TEST(GadgetUInt64, AllocAndPack) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}, uint64_t{0x0123456789abcdef}}) {
    auto run = run_modes([&](auto& cs) {
      UInt64 u = UInt64::alloc(cs, v);
      auto be = u.to_bits_be();
      EXPECT_EQ(be[0].value, (v >> 63) != 0);
      u.pack_into_input(cs);
    });
    EXPECT_EQ(run.constraints, 65u);
    EXPECT_EQ(run.aux, 64u);
    uint64_t l[4] = {v, 0, 0, 0};
    Fr want;
    Fr::from_canonical(l, want);
    EXPECT_EQ(run.witness.inputs[1], want);
    EXPECT_TRUE(flip_fails(run, 17));
  }
  UInt64 c = UInt64::constant(6);
  EXPECT_TRUE(c.bits[1].is_const(true) && c.bits[0].is_const(false));
}

// Upstream's counts (rust-fil-proofs storage-proofs-core src/gadgets/insertion.rs tests): insert of
// size 2 / 4 / 8 costs 2 / 8 / 22; the general case size·(size − 1); select size − 1.
size_t insert_cost(size_t log_size) {
  CountCs cs;
  std::vector<AllocatedNum> elems;
  for (size_t i = 0; i + 1 < (size_t{1} << log_size); i++)
    elems.push_back(AllocatedNum::alloc(cs, Fr::zero()));
  AllocatedNum x = AllocatedNum::alloc(cs, Fr::zero());
  std::vector<Boolean> bits;
  for (size_t i = 0; i < log_size; i++) bits.push_back(Boolean::is(AllocatedBit::alloc(cs, false)));
  size_t before = cs.num_constraints();
  insert(cs, x, std::span<const Boolean>(bits), std::span<const AllocatedNum>(elems));
  return cs.num_constraints() - before;
}
TEST(GadgetInsertion, Insert2Costs2) { EXPECT_EQ(insert_cost(1), 2u); }
TEST(GadgetInsertion, Insert4Costs8) { EXPECT_EQ(insert_cost(2), 8u); }
TEST(GadgetInsertion, Insert8Costs22) { EXPECT_EQ(insert_cost(3), 22u); }
TEST(GadgetInsertion, Insert16CostsSizeTimesSizeMinusOne) { EXPECT_EQ(insert_cost(4), 240u); }

TEST(GadgetInsertion, InsertPlacesTheElementAtEveryIndex) {
  std::mt19937_64 rng(14);
  for (size_t log_size = 1; log_size <= 4; log_size++) {
    const size_t size = size_t{1} << log_size;
    std::vector<Fr> vals(size);
    for (auto& v : vals) v = cuzk::test::random_fe<Fr>(rng);
    for (size_t index = 0; index < size; index++) {
      std::vector<Fr> out;
      auto run = run_modes([&](auto& cs) {
        std::vector<AllocatedNum> elems;
        for (size_t i = 0; i + 1 < size; i++) elems.push_back(AllocatedNum::alloc(cs, vals[i]));
        AllocatedNum x = AllocatedNum::alloc(cs, vals[size - 1]);
        std::vector<Boolean> bits;
        for (size_t i = 0; i < log_size; i++)
          bits.push_back(Boolean::is(AllocatedBit::alloc(cs, (index >> i) & 1)));
        auto res = insert(cs, x, std::span<const Boolean>(bits), std::span<const AllocatedNum>(elems));
        out.clear();
        for (auto& r : res) out.push_back(r.value);
        // select gives back element `index` of the result: the inserted one.
        AllocatedNum s = select(cs, std::span<const AllocatedNum>(res), std::span<const Boolean>(bits));
        out.push_back(s.value);
      });
      ASSERT_EQ(out.size(), size + 1);
      for (size_t pos = 0; pos < size; pos++) {
        const Fr& want = pos < index ? vals[pos] : pos == index ? vals[size - 1] : vals[pos - 1];
        EXPECT_EQ(out[pos], want) << "size " << size << " index " << index << " pos " << pos;
      }
      EXPECT_EQ(out[size], vals[size - 1]);
      // A flipped index bit breaks the picks (the bits follow the size − 1 elements and x).
      EXPECT_TRUE(flip_fails(run, size)) << "size " << size << " index " << index;
    }
  }
}

TEST(GadgetInsertion, PickRowShape) {
  auto run = run_modes([&](auto& cs) {
    AllocatedNum a = AllocatedNum::alloc(cs, Fr::from_u64(5)), b = AllocatedNum::alloc(cs, Fr::from_u64(9));
    Boolean c = Boolean::is(AllocatedBit::alloc(cs, true));
    AllocatedNum p = pick(cs, c, a, b);
    if constexpr (std::decay_t<decltype(cs)>::kValues) {
      EXPECT_EQ(p.value, Fr::from_u64(5));
    }
  });
  EXPECT_EQ(run.recording.describe_row(1), "A: -1*aux0 1*aux1; B: 1*aux2; C: 1*aux1 -1*aux3");
}

}  // namespace
}  // namespace cuzk::circuits
