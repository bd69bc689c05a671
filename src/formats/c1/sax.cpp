#include "formats/c1/sax.hpp"

#include "util/error.hpp"

namespace cuzk::c1_detail {

using circuits::StackedShape;

namespace {

// The shape key "StackedDrg<size>V1" → the size, or "" if it is not one.
std::string size_of_shape_key(const std::string& key) {
  for (const RegisteredSealProof& r : registered_seal_proofs())
    if (key == r.shape_key()) return std::string(r.size);
  return "";
}

}  // namespace

void C1Sax::set_phase1_out(const char* begin, const char* end, size_t offset) {
  phase1_begin_ = begin;
  phase1_end_ = end;
  skipped_at_ = offset;
  skipped_ = (size_t)(end - begin);
}

bool C1Sax::string(std::string& s) {
  if (!dom_.active() && st_ == St::kTopValue && top_key_ == "Phase1Out" && allow_envelope_) {
    if (!phase1_begin_) {  // not located by find_phase1_out: take the lexer's copy (no second one)
      phase1_out_ = std::move(s);
      phase1_begin_ = phase1_out_.data();
      phase1_end_ = phase1_out_.data() + phase1_out_.size();
    }
    have_phase1_out_ = true;
    st_ = St::kTop;
    return true;
  }
  return scalar(json(std::move(s)));
}
bool C1Sax::start_object(size_t) {
  if (dom_.active()) {
    dom_.start(json::object());
    return true;
  }
  switch (st_) {
    case St::kStart:
      st_ = St::kTop;
      return true;
    case St::kTopValue:
      if (top_key_ == "vanilla_proofs") {
        st_ = St::kVp;
        return true;
      }
      dom_.begin();
      dom_.start(json::object());
      return true;
    case St::kChallenges:
      dom_.begin();
      dom_.start(json::object());
      return true;
    default:
      return unexpected("an object");
  }
}
bool C1Sax::start_array(size_t) {
  if (dom_.active()) {
    dom_.start(json::array());
    return true;
  }
  switch (st_) {
    case St::kTopValue:
      if (top_key_ == "vanilla_proofs") return unexpected("an array");
      dom_.begin();
      dom_.start(json::array());
      return true;
    case St::kVpValue:
      st_ = St::kParts;
      return true;
    case St::kParts:
      out_.vanilla_proofs.emplace_back();
      st_ = St::kChallenges;
      return true;
    default:
      return unexpected("an array");
  }
}
bool C1Sax::key(std::string& k) {
  if (dom_.active()) {
    if (!dom_.key(std::move(k))) fail(where() + dom_.path(), "duplicate field");
    return true;
  }
  if (st_ == St::kTop) {
    if (!top_keys_.insert(k).second) fail(k, "duplicate field");
    top_key_ = k;
    st_ = St::kTopValue;
    return true;
  }
  // kVp: the variant of VanillaSealProof.
  if (!out_.shape_key.empty())
    fail("vanilla_proofs", "more than one key ('" + out_.shape_key + "' and '" + k +
                               "'); VanillaSealProof has exactly one variant");
  out_.shape_key = k;
  std::string size = size_of_shape_key(k);
  if (size.empty())
    fail("vanilla_proofs." + k, "unknown shape key '" + k + "' (StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1)");
  shape_ = circuits::stacked_shape(size);
  proofs_.emplace(source_, shape_);
  st_ = St::kVpValue;
  return true;
}
bool C1Sax::end_object() {
  if (dom_.active()) {
    if (dom_.end()) dispatch();
    return true;
  }
  if (st_ == St::kTop) {
    st_ = St::kDone;
    return true;
  }
  // kVp
  if (out_.shape_key.empty()) fail("vanilla_proofs", "no key: expected one of StackedDrg<size>V1");
  st_ = St::kTop;
  return true;
}
bool C1Sax::end_array() {
  if (dom_.active()) {
    if (dom_.end()) dispatch();
    return true;
  }
  if (st_ == St::kChallenges) {
    const size_t n = out_.vanilla_proofs.back().size();
    if (n != shape_.challenges)
      fail("vanilla_proofs." + out_.shape_key + "[" + std::to_string(out_.vanilla_proofs.size() - 1) + "]",
           std::to_string(n) + " challenges; a " + shape_.name + " partition has " +
               std::to_string(shape_.challenges));
    st_ = St::kParts;
    return true;
  }
  // kParts
  st_ = St::kVp;
  return true;
}
bool C1Sax::parse_error(size_t pos, const std::string&, const nlohmann::detail::exception& e) {
  if (skipped_ && pos > skipped_at_) pos += skipped_;  // find_phase1_out's skipped string
  std::string w = where() + (dom_.active() ? dom_.path() : "");
  fail(w, "malformed JSON at byte " + std::to_string(pos) + ": " + e.what());
}

C1Output C1Sax::finish() {
  check_c1(source_, top_keys_, out_, shape_, proofs_ ? &*proofs_ : nullptr);
  return std::move(out_);
}

// The path of the current position outside a captured value.
std::string C1Sax::where() const {
  switch (st_) {
    case St::kStart:
    case St::kTop:  // between members
    case St::kDone:
      return "";
    case St::kTopValue:
      return top_key_;
    case St::kVp:
      return "vanilla_proofs";
    case St::kVpValue:
      return "vanilla_proofs." + out_.shape_key;
    case St::kParts:
      return "vanilla_proofs." + out_.shape_key + "[" + std::to_string(out_.vanilla_proofs.size()) + "]";
    case St::kChallenges:
      return "vanilla_proofs." + out_.shape_key + "[" + std::to_string(out_.vanilla_proofs.size() - 1) +
             "][" + std::to_string(out_.vanilla_proofs.back().size()) + "]";
  }
  return "";
}
bool C1Sax::unexpected(const char* found) {
  switch (st_) {
    case St::kStart:
      fail("", std::string("expected a JSON object, found ") + found);
    case St::kTopValue:
      fail("vanilla_proofs", std::string("expected an object {\"StackedDrg<size>V1\": …}, found ") + found);
    case St::kVpValue:
      fail(where(), std::string("expected an array of partitions, found ") + found);
    case St::kParts:
      fail(where(), std::string("expected an array of challenges (a partition), found ") + found);
    case St::kChallenges:
      fail(where(), std::string("expected a vanilla proof object, found ") + found);
    default:
      fail(where(), std::string("unexpected ") + found);
  }
  return false;
}
bool C1Sax::scalar(json&& v) {
  if (dom_.active()) {
    if (dom_.value(std::move(v))) dispatch();
    return true;
  }
  if (st_ == St::kTopValue && top_key_ != "vanilla_proofs") {
    dom_.begin();
    dom_.value(std::move(v));
    dispatch();
    return true;
  }
  return unexpected(v.is_string() ? "a string" : "a scalar");
}
// A captured value is complete.
void C1Sax::dispatch() {
  json v = dom_.take();
  if (st_ == St::kChallenges) {
    JsonPath p;
    p.s = where();
    if (ahead_) {
      if (!v.is_object() || !v.empty() || ahead_taken_ >= ahead_->size())
        fail(p.s, "not among the vanilla proofs read ahead");
      C1VanillaProof& read = (*ahead_)[ahead_taken_++];
      proofs_->accept(read, p);
      out_.vanilla_proofs.back().push_back(std::move(read));
      return;
    }
    out_.vanilla_proofs.back().push_back(proofs_->proof(v, p));
    return;
  }
  // A top-level value.
  JsonPath p;
  auto g = p.key(top_key_);
  if (top_key_ == "registered_proof") {
    if (!v.is_string()) tree_.fail(p, "expected a string, found " + describe(v));
    try {
      out_.registered_proof = registered_seal_proof(v.get_ref<const std::string&>());
    } catch (const Error& e) {
      tree_.fail(p, e.what());
    }
  } else if (top_key_ == "comm_r") {
    out_.comm_r = tree_.bytes32(v, p);
  } else if (top_key_ == "comm_d") {
    out_.comm_d = tree_.bytes32(v, p);
  } else if (top_key_ == "replica_id") {
    out_.replica_id = tree_.bytes32(v, p);
  } else if (top_key_ == "seed") {
    out_.seed = tree_.bytes32(v, p);
  } else if (top_key_ == "ticket") {
    out_.ticket = tree_.bytes32(v, p);
  } else if (allow_envelope_ && top_key_ == "SectorNum") {
    sector_num_ = tree_.uint(v, p, UINT64_MAX);
  } else if (allow_envelope_ && top_key_ == "SectorSize") {
    sector_size_ = tree_.uint(v, p, UINT64_MAX);
  } else if (allow_envelope_ && top_key_ == "Phase1Out") {
    tree_.fail(p, "expected a base64 string, found " + describe(v));
  }  // other fields are ignored, as serde does
  st_ = St::kTop;
}

}  // namespace cuzk::c1_detail
