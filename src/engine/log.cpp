#include "engine/log.hpp"

namespace cuzk::engine {

std::string printable(std::string_view text, size_t max_bytes) {
  static const char kHex[] = "0123456789abcdef";
  const std::string_view shown = text.substr(0, max_bytes);
  std::string out;
  out.reserve(shown.size() + 24);
  for (const char ch : shown) {
    const auto c = (unsigned char)ch;
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  if (text.size() > max_bytes) out += "...(" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string LogEvent::logfmt() const {
  std::string out = event;
  for (const auto& [k, v] : fields) {
    out += ' ';
    out += k;
    out += '=';
    const std::string p = printable(v, kLogValueMax);
    const bool quote = p.empty() || p.find_first_of(" \"=\\") != std::string::npos;
    if (!quote) {
      out += p;
      continue;
    }
    out += '"';
    for (char c : p) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out;
}

}  // namespace cuzk::engine
