// The `cuzk` command-line tool.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "selfcheck.hpp"
#include "util/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk: Groth16 proving engine for BLS12-381"};
  app.require_subcommand(1);
  auto* selfcheck = app.add_subcommand("selfcheck", "Check the arithmetic core against known values");
  CLI11_PARSE(app, argc, argv);
  try {
    if (*selfcheck) return cuzk::cli::run_selfcheck();
  } catch (const cuzk::Error& e) {
    std::fprintf(stderr, "cuzk: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}
