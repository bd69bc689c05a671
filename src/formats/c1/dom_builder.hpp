// A JSON tree built from nlohmann SAX events, for the one value the streaming C1 reader holds at a
// time (a vanilla proof or a top-level value). Internal to src/formats/c1.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "formats/c1/json_tree.hpp"

namespace cuzk::c1_detail {

/// Builds one JSON value from SAX events: begin(), then value / start / key / end until value() or
/// end() reports the root complete, then take().
class DomBuilder {
 public:
  bool active() const { return active_; }
  void begin() {
    active_ = true;
    root_ = json();
    stack_.clear();
  }
  /// Adds a scalar; true when it completes the root value.
  bool value(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      active_ = false;
      return true;
    }
    add(std::move(v));
    return false;
  }
  void start(json&& container) {
    if (stack_.empty()) {
      root_ = std::move(container);
      stack_.push_back({&root_, {}});
    } else {
      json* c = add(std::move(container));
      stack_.push_back({c, {}});
    }
  }
  /// Closes the innermost container; true when that completes the root value.
  bool end() {
    stack_.pop_back();
    if (stack_.empty()) {
      active_ = false;
      return true;
    }
    return false;
  }
  /// Sets the next member's key; false if the object already has it.
  bool key(std::string&& k) {
    Frame& f = stack_.back();
    f.key = std::move(k);
    return !f.node->contains(f.key);
  }
  json take() { return std::move(root_); }
  /// The path of the value being built, relative to the root ("" at the root).
  std::string path() const {
    std::string s;
    for (const Frame& f : stack_) {
      if (f.node->is_array()) {
        s += '[';  // appended piecewise: GCC 12 flags "[" + std::to_string(…) with -Wrestrict
        s += std::to_string(f.node->size() == 0 ? 0 : f.node->size() - 1);
        s += ']';
      } else if (!f.key.empty()) {
        s += '.';
        s += f.key;
      }
    }
    return s;
  }

 private:
  struct Frame {
    json* node;
    std::string key;
  };
  json* add(json&& v) {
    Frame& f = stack_.back();
    if (f.node->is_array()) {
      f.node->push_back(std::move(v));
      return &f.node->back();
    }
    auto r = f.node->emplace(f.key, std::move(v));
    return &r.first.value();
  }
  bool active_ = false;
  json root_;
  std::vector<Frame> stack_;
};

}  // namespace cuzk::c1_detail
