#include "engine/log.hpp"

namespace cuzk::engine {

std::string LogEvent::logfmt() const {
  std::string out = event;
  for (const auto& [k, v] : fields) {
    out += ' ';
    out += k;
    out += '=';
    const bool quote = v.empty() || v.find_first_of(" \"=") != std::string::npos;
    if (!quote) {
      out += v;
      continue;
    }
    out += '"';
    for (char c : v) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out;
}

}  // namespace cuzk::engine
