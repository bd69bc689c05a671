// libFuzzer target: cuzk.toml (service/config.hpp parse_config), the text as it comes. Property: what it
// accepts gives an engine configuration without throwing.
#include <cstdint>
#include <string_view>

#include "fuzz.hpp"
#include "service/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  service::ServiceConfig cfg;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!fuzz::accepts([&] { cfg = service::parse_config(text, "fuzz.toml", "/nonexistent"); })) return 0;
  if (!fuzz::accepts([&] { (void)cfg.engine_config(); }))
    fuzz::finding("an accepted cuzk.toml gives no engine configuration");
  return 0;
}
