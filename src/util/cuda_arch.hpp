// Which code of a CUDA build runs on a card: the build's architecture list (CMake's
// CMAKE_CUDA_ARCHITECTURES syntax, CUZK_CUDA_ARCHS) against the card's compute capability. Plain C++, no
// CUDA: `cuzk info gpu` reports it on any build, and the CPU tests check the rules.
//
// The rules (CUDA C++ Programming Guide, "Binary Compatibility" and "PTX Compatibility"): SASS built for
// sm_XY runs on a card of the same major version X whose minor version is Y or more (sm_80 SASS on 8.0,
// 8.6 and 8.9 cards; sm_90 SASS only on 9.x); an arch-specific target (sm_90a) runs only on exactly that
// capability. PTX for compute_XY is compiled by the driver (JIT) for any card of capability X.Y or more,
// of any later major version, except arch-specific PTX (compute_90a), which again needs exactly X.Y.
// The driver takes compatible SASS before PTX.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk {

/// One entry of an architecture list: "86-real" (SASS sm_86), "80-virtual" (PTX compute_80), "120" (both),
/// an optional "a" suffix (arch-specific: "90a-real").
struct CudaArch {
  int major = 0, minor = 0;  ///< "86" → 8.6, "120" → 12.0
  bool sass = false;         ///< the build carries sm_XY code
  bool ptx = false;          ///< the build carries compute_XY PTX
  bool specific = false;     ///< "a" suffix: only for exactly this capability

  /// "86", "90a", "120".
  std::string number() const;
};

/// Parses a list such as "80-real;86-real;89-real;90-real;120", "90" or "80-virtual" (entries separated by
/// ';' or ','; spaces ignored). nullopt when an entry is not of this form (CMake's "native", "all",
/// "all-major": what they select depends on the build machine or the compiler).
std::optional<std::vector<CudaArch>> parse_cuda_archs(std::string_view list);

/// The code a card runs, and how.
struct CudaCodeMatch {
  enum class Kind {
    kSass,    ///< compatible SASS: runs as built
    kPtx,     ///< only PTX: the driver JIT-compiles it at first use (minutes; cached afterwards)
    kNone,    ///< no compatible code: the build cannot run on this card
    kUnknown  ///< the architecture list could not be read (parse_cuda_archs gave nullopt)
  };
  Kind kind = Kind::kUnknown;
  CudaArch arch;  ///< the entry chosen (kSass, kPtx)

  /// One phrase: "SASS for sm_80", "PTX compute_120 only: the driver JIT-compiles it", "no compatible
  /// code: this build cannot run on this card", "unknown (architectures \"native\")".
  std::string describe(std::string_view archs) const;
};

/// What of `archs` (parse_cuda_archs) runs on a card of compute capability cc_major.cc_minor: the SASS
/// of the same major with the highest minor ≤ the card's, else the PTX of the highest capability ≤ the
/// card's, else kNone; kUnknown when the list cannot be parsed.
CudaCodeMatch cuda_code_for(std::string_view archs, int cc_major, int cc_minor);

}  // namespace cuzk
