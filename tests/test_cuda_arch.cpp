// util/cuda_arch.hpp: which code of a build's architecture list runs on a card (SASS within a major
// version, minor ≤ the card's; PTX JIT-compiled for an equal or higher capability).
#include <gtest/gtest.h>

#include "util/cuda_arch.hpp"

namespace cuzk {
namespace {

using Kind = CudaCodeMatch::Kind;

/// "sass 80", "ptx 120", "none", "unknown".
std::string match(std::string_view archs, int major, int minor) {
  const CudaCodeMatch m = cuda_code_for(archs, major, minor);
  switch (m.kind) {
    case Kind::kSass:
      return "sass " + m.arch.number();
    case Kind::kPtx:
      return "ptx " + m.arch.number();
    case Kind::kNone:
      return "none";
    case Kind::kUnknown:
      break;
  }
  return "unknown";
}

TEST(CudaArch, ParsesCMakeArchitectureLists) {
  const auto l = parse_cuda_archs("80-real;86-real; 90a-real,120");
  ASSERT_TRUE(l);
  ASSERT_EQ(l->size(), 4u);
  EXPECT_EQ((*l)[1].major, 8);
  EXPECT_EQ((*l)[1].minor, 6);
  EXPECT_TRUE((*l)[1].sass && !(*l)[1].ptx);
  EXPECT_TRUE((*l)[2].specific);
  EXPECT_EQ((*l)[2].number(), "90a");
  EXPECT_EQ((*l)[3].major, 12);
  EXPECT_TRUE((*l)[3].sass && (*l)[3].ptx);
  const auto v = parse_cuda_archs("80-virtual");
  ASSERT_TRUE(v);
  EXPECT_TRUE(!(*v)[0].sass && (*v)[0].ptx);
  for (const char* bad : {"", "native", "all-major", "80-fake", "sm_80", "8"})
    EXPECT_FALSE(parse_cuda_archs(bad)) << bad;
}

TEST(CudaArch, SassRunsWithinItsMajorOnEqualOrHigherMinor) {
  EXPECT_EQ(match("80-real;90-real", 8, 6), "sass 80");  // an RTX 30 card on A100 code
  EXPECT_EQ(match("80-real;86-real;89-real;90-real;120", 8, 9), "sass 89");
  EXPECT_EQ(match("80-real;86-real;89-real;90-real;120", 8, 6), "sass 86");
  EXPECT_EQ(match("86-real", 8, 0), "none");  // sm_86 SASS does not run on 8.0
  EXPECT_EQ(match("90-real;120", 8, 9), "none");
  EXPECT_EQ(match("120", 12, 0), "sass 120");
  EXPECT_EQ(match("120-real", 12, 1), "sass 120");
  EXPECT_EQ(match("90", 9, 0), "sass 90");
  EXPECT_EQ(match("90a-real", 9, 0), "sass 90a");
}

TEST(CudaArch, PtxIsJitCompiledForEqualOrHigherCapabilitiesOnly) {
  EXPECT_EQ(match("80-virtual", 8, 6), "ptx 80");
  EXPECT_EQ(match("80-virtual", 12, 0), "ptx 80");  // any later major
  EXPECT_EQ(match("80-real;120", 10, 0), "none");   // compute_120 cannot JIT down to sm_100
  EXPECT_EQ(match("80-real;86-real;89-real;90-real;120", 10, 0), "none");
  EXPECT_EQ(match("80-real;86-real;89-real;90-real;120", 12, 1), "sass 120");
  EXPECT_EQ(match("80;90-real", 10, 0), "ptx 80");  // the highest PTX at or below the card
  EXPECT_EQ(match("80;90", 10, 0), "ptx 90");
  EXPECT_EQ(match("90a", 10, 0), "none");  // arch-specific PTX: only 9.0
  EXPECT_EQ(match("native", 9, 0), "unknown");
}

TEST(CudaArch, DescribesEachOutcome) {
  EXPECT_EQ(cuda_code_for("80-real", 8, 6).describe("80-real"), "SASS for sm_80");
  EXPECT_NE(cuda_code_for("80-virtual", 9, 0).describe("80-virtual").find("PTX compute_80 only"),
            std::string::npos);
  EXPECT_EQ(cuda_code_for("90-real", 8, 0).describe("90-real"),
            "no compatible code: this build cannot run on this card");
  EXPECT_NE(cuda_code_for("native", 8, 0).describe("native").find("unknown"), std::string::npos);
}

}  // namespace
}  // namespace cuzk
