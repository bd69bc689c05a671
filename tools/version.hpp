// `cuzk --version`: the project's version and the git commit of the build (cmake/build_info.cmake), kept
// in a file of its own so that a new commit recompiles only it.
#pragma once

#include <string>

namespace cuzk::cli {

/// "cuzk 0.1.0 (commit d21b746)": CMake's PROJECT_VERSION and `git describe --always --dirty` at build
/// time; "cuzk 0.1.0" when the build does not know its commit.
std::string version_text();

}  // namespace cuzk::cli
