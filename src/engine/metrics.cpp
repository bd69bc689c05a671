#include "engine/metrics.hpp"

#include <cstdio>

namespace cuzk::engine {
namespace {

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

void Histogram::observe(double ms) {
  std::lock_guard lk(mu_);
  size_t i = 0;
  while (i < kBounds.size() && ms > kBounds[i]) i++;
  if (i < kBounds.size()) buckets_[i]++;
  count_++;
  sum_ += ms;
}

void Histogram::render(std::string& out, const std::string& name, const std::string& help) const {
  std::lock_guard lk(mu_);
  out += "# HELP " + name + " " + help + "\n# TYPE " + name + " histogram\n";
  uint64_t cum = 0;
  for (size_t i = 0; i < kBounds.size(); i++) {
    cum += buckets_[i];
    out += name + "_bucket{le=\"" + number(kBounds[i]) + "\"} " + std::to_string(cum) + "\n";
  }
  out += name + "_bucket{le=\"+Inf\"} " + std::to_string(count_) + "\n";
  out += name + "_sum " + number(sum_) + "\n";
  out += name + "_count " + std::to_string(count_) + "\n";
}

void render_metric(std::string& out, const std::string& name, const char* type, const std::string& help,
                   double value, const std::string& labels) {
  if (out.find("# TYPE " + name + " ") == std::string::npos)
    out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  out += name + (labels.empty() ? "" : "{" + labels + "}") + " " + number(value) + "\n";
}

}  // namespace cuzk::engine
