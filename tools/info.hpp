// `cuzk info <file>`: what a file is (by its magic or JSON shape) and its sizes.
#pragma once

#include <string>

namespace cuzk::cli {

/// Prints a description of `path` to stdout; returns 0, or throws cuzk::Error for unreadable or
/// unrecognised files.
int run_info(const std::string& path);

}  // namespace cuzk::cli
