#include "engine/memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "util/error.hpp"

namespace cuzk::engine {

MemoryBudget::Reservation& MemoryBudget::Reservation::operator=(Reservation&& o) noexcept {
  if (this != &o) {
    reset();
    budget_ = o.budget_;
    bytes_ = o.bytes_;
    working_ = o.working_;
    o.budget_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void MemoryBudget::Reservation::reset() {
  if (budget_) budget_->release(bytes_, working_);
  budget_ = nullptr;
  bytes_ = 0;
}

MemoryBudget::Reservation MemoryBudget::acquire(uint64_t bytes, const std::function<bool()>& abandon) {
  std::unique_lock lk(mu_);
  bool counted = false;
  for (;;) {
    if (abandon && abandon()) {
      if (counted) waiting_--;
      return {};
    }
    if (total_ == 0 || used_ + bytes <= total_ || working_ == 0) break;
    if (!counted) waiting_++;
    counted = true;
    cv_.wait_for(lk, std::chrono::milliseconds(50));
  }
  if (counted) waiting_--;
  used_ += bytes;
  peak_ = std::max(peak_, used_);
  working_++;
  working_peak_ = std::max(working_peak_, working_);
  Reservation r;
  r.budget_ = this;
  r.bytes_ = bytes;
  r.working_ = true;
  return r;
}

MemoryBudget::Reservation MemoryBudget::charge(uint64_t bytes) {
  std::lock_guard lk(mu_);
  used_ += bytes;
  peak_ = std::max(peak_, used_);
  Reservation r;
  r.budget_ = this;
  r.bytes_ = bytes;
  return r;
}

void MemoryBudget::release(uint64_t bytes, bool working) {
  {
    std::lock_guard lk(mu_);
    used_ -= bytes;
    if (working) working_--;
  }
  cv_.notify_all();
}

uint64_t MemoryBudget::used() const {
  std::lock_guard lk(mu_);
  return used_;
}
uint64_t MemoryBudget::peak() const {
  std::lock_guard lk(mu_);
  return peak_;
}
unsigned MemoryBudget::working_now() const {
  std::lock_guard lk(mu_);
  return working_;
}
unsigned MemoryBudget::working_peak() const {
  std::lock_guard lk(mu_);
  return working_peak_;
}
unsigned MemoryBudget::waiting() const {
  std::lock_guard lk(mu_);
  return waiting_;
}

uint64_t physical_ram_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

uint64_t cgroup_memory_limit() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(self, line))
    if (line.rfind("0::", 0) == 0) path = line.substr(3);
  if (path.empty()) return 0;
  uint64_t limit = 0;
  for (std::filesystem::path p = path;; p = p.parent_path()) {
    std::ifstream f(std::filesystem::path("/sys/fs/cgroup") / p.relative_path() / "memory.max");
    std::string v;
    if (f >> v && v != "max") {
      const uint64_t b = std::strtoull(v.c_str(), nullptr, 10);
      if (b > 0 && (limit == 0 || b < limit)) limit = b;
    }
    if (p == p.parent_path() || p.empty()) break;
  }
  return limit;
}

uint64_t parse_size(const std::string& text, double auto_fraction, uint64_t safety_margin) {
  std::string t;
  for (char c : text)
    if (!std::isspace((unsigned char)c)) t += (char)std::tolower((unsigned char)c);
  const uint64_t gib = uint64_t{1} << 30;
  if (t == "auto") {
    const uint64_t cg = cgroup_memory_limit();
    const double ram = (double)(cg ? std::min(cg, physical_ram_bytes()) : physical_ram_bytes());
    const double v = ram * auto_fraction - (double)safety_margin;
    return std::max<uint64_t>(gib, v > 0 ? (uint64_t)v : 0);
  }
  size_t end = 0;
  while (end < t.size() && (std::isdigit((unsigned char)t[end]) || t[end] == '.')) end++;
  const std::string num = t.substr(0, end), unit = t.substr(end);
  static const std::pair<const char*, double> units[] = {
      {"", 1},      {"b", 1},        {"kb", 1e3},        {"mb", 1e6},           {"gb", 1e9},
      {"tb", 1e12}, {"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0}, {"tib", 1099511627776.0}};
  const double* mult = nullptr;
  for (const auto& [u, m] : units)
    if (unit == u) mult = &m;
  char* stop = nullptr;
  const double v = num.empty() ? NAN : std::strtod(num.c_str(), &stop);
  if (!mult || num.empty() || *stop != '\0' || !std::isfinite(v))
    throw Error(ErrorCode::kInvalidArgument,
                "\"" + text +
                    "\" is not a size: expected \"auto\" or a number with an optional unit (B, KB, MB, GB, "
                    "TB, KiB, MiB, GiB, TiB), e.g. \"256GiB\"");
  const double bytes = v * *mult;
  if (bytes >= 0x1p63)
    throw Error(ErrorCode::kInvalidArgument, "\"" + text + "\" is too large a size: at most 2^63 − 1 bytes");
  return (uint64_t)std::llround(bytes);
}

}  // namespace cuzk::engine
