#include "util/cuda_arch.hpp"

#include <cctype>

namespace cuzk {
namespace {

/// Parses one entry ("86", "90a-real", "80-virtual"); nullopt when it is not of that form.
std::optional<CudaArch> parse_entry(std::string_view e) {
  size_t i = 0;
  int num = 0;
  while (i < e.size() && std::isdigit((unsigned char)e[i]) && num < 10000) num = num * 10 + (e[i++] - '0');
  if (i == 0 || num < 10) return std::nullopt;
  CudaArch a;
  a.major = num / 10;
  a.minor = num % 10;
  if (i < e.size() && e[i] == 'a') a.specific = true, i++;
  const std::string_view rest = e.substr(i);
  if (rest.empty()) {
    a.sass = a.ptx = true;
  } else if (rest == "-real") {
    a.sass = true;
  } else if (rest == "-virtual") {
    a.ptx = true;
  } else {
    return std::nullopt;
  }
  return a;
}

int capability(int major, int minor) { return major * 10 + minor; }

}  // namespace

std::string CudaArch::number() const {
  return std::to_string(capability(major, minor)) + (specific ? "a" : "");
}

std::optional<std::vector<CudaArch>> parse_cuda_archs(std::string_view list) {
  std::vector<CudaArch> out;
  std::string entry;
  for (size_t i = 0; i <= list.size(); i++) {
    const char c = i < list.size() ? list[i] : ';';
    if (c == ' ' || c == '\t') continue;
    if (c != ';' && c != ',') {
      entry += c;
      continue;
    }
    if (entry.empty()) continue;
    const std::optional<CudaArch> a = parse_entry(entry);
    if (!a) return std::nullopt;
    out.push_back(*a);
    entry.clear();
  }
  if (out.empty()) return std::nullopt;
  return out;
}

CudaCodeMatch cuda_code_for(std::string_view archs, int cc_major, int cc_minor) {
  CudaCodeMatch m;
  const auto list = parse_cuda_archs(archs);
  if (!list) return m;
  const int card = capability(cc_major, cc_minor);
  const CudaArch* sass = nullptr;
  const CudaArch* ptx = nullptr;
  for (const CudaArch& a : *list) {
    const int cc = capability(a.major, a.minor);
    const bool exact = a.major == cc_major && a.minor == cc_minor;
    if (a.sass && (a.specific ? exact : a.major == cc_major && a.minor <= cc_minor) &&
        (!sass || cc > capability(sass->major, sass->minor)))
      sass = &a;
    if (a.ptx && (a.specific ? exact : cc <= card) && (!ptx || cc > capability(ptx->major, ptx->minor)))
      ptx = &a;
  }
  if (sass) {
    m.kind = CudaCodeMatch::Kind::kSass;
    m.arch = *sass;
  } else if (ptx) {
    m.kind = CudaCodeMatch::Kind::kPtx;
    m.arch = *ptx;
  } else {
    m.kind = CudaCodeMatch::Kind::kNone;
  }
  return m;
}

std::string CudaCodeMatch::describe(std::string_view archs) const {
  switch (kind) {
    case Kind::kSass:
      return "SASS for sm_" + arch.number();
    case Kind::kPtx:
      return "PTX compute_" + arch.number() + " only: the driver JIT-compiles it (slow first start)";
    case Kind::kNone:
      return "no compatible code: this build cannot run on this card";
    case Kind::kUnknown:
      break;
  }
  return "unknown (architectures \"" + std::string(archs) + "\")";
}

}  // namespace cuzk
