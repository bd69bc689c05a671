// read_c1's parallel path (src/formats/c1/parallel.hpp): the challenges' objects found by the pre-scan
// (strings with brackets and escapes around them included), the C1 it reads equal to the text for every
// sector size and thread count, and nullopt (read_c1 then reads serially and names the error) for a
// proof that fails validation, a root that differs, malformed or truncated JSON, a duplicate key, two
// shape keys and an envelope. A 32 GiB fake C1 (37.5 MB, 180 challenges) goes through read_c1's parallel
// path.
#include <gtest/gtest.h>

#include <span>
#include <string>

#include "formats/c1.hpp"
#include "formats/c1/parallel.hpp"
#include "formats/fake_c1.hpp"
#include "util/error.hpp"

namespace cuzk {
namespace {

using c1_detail::find_challenge_objects;
using c1_detail::read_c1_parallel;

std::span<const uint8_t> span_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

/// read_c1's error for `text` (serial below 1 MB).
std::string serial_error(const std::string& text) {
  try {
    read_c1(span_of(text), "c1.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(C1Parallel, ReadsWhatTheTextHoldsForEverySizeAndThreadCount) {
  for (const char* size : {"2KiB", "8MiB", "512MiB"}) {
    SCOPED_TRACE(size);
    const C1Output c1 = make_fake_sector(std::string("StackedDrg") + size + "V1_1", 4).c1;
    const std::string text = write_c1_json(c1);
    const auto ranges = find_challenge_objects(text);
    ASSERT_TRUE(ranges);
    EXPECT_EQ(ranges->shape_key, c1.shape_key);
    size_t challenges = 0;
    for (const auto& part : c1.vanilla_proofs) challenges += part.size();
    ASSERT_EQ(ranges->objects.size(), challenges);
    for (const auto& [first, last] : ranges->objects) {
      EXPECT_EQ(text[first], '{');
      EXPECT_EQ(text[last], '}');
    }
    for (unsigned threads : {1u, 2u, 3u, 0u}) {
      const auto got = read_c1_parallel(text, "c1.json", threads);
      ASSERT_TRUE(got) << threads << " threads";
      EXPECT_EQ(write_c1_json(*got), text) << threads << " threads";
    }
  }
}

TEST(C1Parallel, StringsWithBracketsAroundTheProofsAreSkipped) {
  // Fields serde ignores, before and after vanilla_proofs, whose strings and keys hold brackets, braces,
  // escaped quotes and a backslash: the pre-scan skips them, and the C1 read is the same.
  const C1Output c1 = make_fake_sector("StackedDrg2KiBV1_1", 5).c1;
  const std::string text = write_c1_json(c1);
  ASSERT_EQ(text.front(), '{');
  const std::string odd =
      "{\"x]}\\\"{[\": \"a]}\\\"[{\\\\\", \"y\": [[{\"vanilla_proofs\": {}}]], " + text.substr(1);
  const std::string tail = odd.substr(0, odd.size() - 1) + ", \"z\": \"}]\"}";
  const auto ranges = find_challenge_objects(tail);
  ASSERT_TRUE(ranges);
  EXPECT_EQ(ranges->objects.size(), c1.vanilla_proofs[0].size());
  const auto got = read_c1_parallel(tail, "c1.json", 2);
  ASSERT_TRUE(got);
  EXPECT_EQ(write_c1_json(*got), text);
  EXPECT_EQ(write_c1_json(read_c1(span_of(tail), "c1.json")), text);
}

TEST(C1Parallel, AnythingWrongLeavesTheErrorToTheSerialReader) {
  const C1Output good = make_fake_sector("StackedDrg2KiBV1_1", 6).c1;
  ASSERT_GE(good.vanilla_proofs[0].size(), 2u);
  const std::string text = write_c1_json(good);
  std::vector<std::string> bad;
  {  // a later challenge's root differs (checked in document order)
    C1Output c = good;
    c.vanilla_proofs[0][1].comm_r_last_proof.root = c.vanilla_proofs[0][1].comm_r_last_proof.root + Fr::one();
    bad.push_back(write_c1_json(c));
  }
  {  // a labeling proof of another node than the challenge
    C1Output c = good;
    c.vanilla_proofs[0][0].labeling_proofs[1].node ^= 1;
    bad.push_back(write_c1_json(c));
  }
  const auto ranges = find_challenge_objects(text);
  ASSERT_TRUE(ranges);
  {  // malformed JSON inside a challenge's object
    std::string t = text;
    t[ranges->objects[1].first + 10] = 'x';
    bad.push_back(t);
  }
  {  // a challenge's object emptied
    std::string t = text;
    const auto [first, last] = ranges->objects[1];
    bad.push_back(t.substr(0, first + 1) + t.substr(last));
  }
  {  // a duplicate key inside a challenge's object (json::parse would keep the last value)
    std::string t = text;
    const size_t at = t.find("\"labeling_proofs\"", ranges->objects[1].first);
    ASSERT_LT(at, ranges->objects[1].second);
    bad.push_back(t.substr(0, at) + "\"comm_d_proofs\": 1, \"comm_d_proofs\": 2, " + t.substr(at));
  }
  bad.push_back(text.substr(0, text.size() / 2));  // truncated
  {                                                // two shape keys
    const size_t at = text.find("\"StackedDrg2KiBV1\"");
    ASSERT_NE(at, std::string::npos);
    bad.push_back(text.substr(0, at) + "\"StackedDrg8MiBV1\": [], " + text.substr(at));
  }
  for (size_t i = 0; i < bad.size(); i++) {
    SCOPED_TRACE("case " + std::to_string(i));
    EXPECT_FALSE(read_c1_parallel(bad[i], "c1.json", 2));
    const std::string said = serial_error(bad[i]);
    EXPECT_NE(said, "");
    EXPECT_NE(said.find("c1.json"), std::string::npos) << said;
  }
  EXPECT_NE(serial_error(bad[4]).find("duplicate field"), std::string::npos) << serial_error(bad[4]);
  // Curio's envelope is left to read_c1.
  EXPECT_FALSE(
      read_c1_parallel("{\"SectorNum\": 1, \"Phase1Out\": \"e30=\", \"SectorSize\": 2048}", "c1.json", 2));
}

TEST(C1Parallel, A32GiBC1GoesThroughReadC1sParallelPath) {
  const C1Output c1 = make_fake_sector("StackedDrg32GiBV1_1", 1).c1;
  const std::string text = write_c1_json(c1);
  ASSERT_GT(text.size(), size_t{1} << 20);
  const auto ranges = find_challenge_objects(text);
  ASSERT_TRUE(ranges);
  EXPECT_EQ(ranges->objects.size(), 180u);  // 10 partitions × 18 challenges
  const auto parallel = read_c1_parallel(text, "c1.json", 0);
  ASSERT_TRUE(parallel);
  EXPECT_EQ(write_c1_json(*parallel), text);
  EXPECT_EQ(write_c1_json(read_c1(span_of(text), "c1.json")), text);
  // a root that differs in partition 7: the serial reader names it
  C1Output c = c1;
  c.vanilla_proofs[7][3].comm_d_proofs.root = c.vanilla_proofs[7][3].comm_d_proofs.root + Fr::one();
  const std::string bad = write_c1_json(c);
  EXPECT_FALSE(read_c1_parallel(bad, "c1.json", 0));
  const std::string said = serial_error(bad);
  EXPECT_NE(said.find("c1.json: vanilla_proofs.StackedDrg32GiBV1[7][3]"), std::string::npos) << said;
}

}  // namespace
}  // namespace cuzk
