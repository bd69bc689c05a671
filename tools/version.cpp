#include "version.hpp"

#include "cuzk_build_info.h"  // generated: CUZK_VERSION, CUZK_GIT_COMMIT

namespace cuzk::cli {

std::string version_text() {
  const std::string commit = CUZK_GIT_COMMIT;
  return std::string("cuzk ") + CUZK_VERSION + (commit == "unknown" ? "" : " (commit " + commit + ")");
}

}  // namespace cuzk::cli
