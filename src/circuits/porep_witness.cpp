#include "circuits/porep_witness.hpp"

#include <bit>

#include "util/error.hpp"

namespace cuzk::circuits {

namespace {
TreeShape binary_tree(uint64_t nodes) { return {2, (uint32_t)std::countr_zero(nodes), 0, 0}; }
}  // namespace

StackedShape stacked_shape(const std::string& s) {
  auto tree8 = [](uint32_t levels, uint32_t sub, uint32_t top) { return TreeShape{8, levels, sub, top}; };
  StackedShape r;
  if (s == "2KiB")
    r = {s, 64, 2, 2, {}, tree8(2, 0, 0)};
  else if (s == "8MiB")
    r = {s, uint64_t{1} << 18, 2, 2, {}, tree8(6, 0, 0)};
  else if (s == "512MiB")
    r = {s, uint64_t{1} << 24, 2, 2, {}, tree8(8, 0, 0)};
  else if (s == "32GiB")
    r = {s, uint64_t{1} << 30, 11, 18, {}, tree8(9, 8, 0)};
  else if (s == "64GiB")
    r = {s, uint64_t{1} << 31, 11, 18, {}, tree8(9, 8, 2)};
  else
    throw Error(
        ErrorCode::kInvalidArgument,
        "unknown sector size '" + s + "' (2KiB, 8MiB, 512MiB, 32GiB and 64GiB are Filecoin's PoRep sizes)");
  r.tree_d = binary_tree(r.nodes);
  return r;
}

StackedShape stacked_test_shape(const std::string& s) {
  StackedShape r;
  if (s == "base-2")
    r = {s, 8, 2, 1, {}, {2, 3, 0, 0}};
  else if (s == "base-8")
    r = {s, 8, 2, 1, {}, {8, 1, 0, 0}};
  else if (s == "sub-8-4")
    r = {s, 32, 2, 1, {}, {8, 1, 4, 0}};
  else if (s == "top-8-4-2")
    r = {s, 64, 2, 1, {}, {8, 1, 4, 2}};
  else
    throw Error(ErrorCode::kInvalidArgument,
                "unknown test shape '" + s + "' (base-2, base-8, sub-8-4 and top-8-4-2 are upstream's)");
  r.tree_d = binary_tree(r.nodes);
  return r;
}

std::vector<Fr> stacked_public_inputs(const Fr& replica_id, const Fr& comm_d, const Fr& comm_r,
                                      std::span<const uint64_t> challenges,
                                      std::span<const std::array<uint64_t, 14>> parents) {
  if (parents.size() != challenges.size())
    throw Error(ErrorCode::kInvalidArgument, "public inputs: " + std::to_string(challenges.size()) +
                                                 " challenges but parents for " +
                                                 std::to_string(parents.size()));
  std::vector<Fr> in = {replica_id, comm_d, comm_r};
  for (size_t i = 0; i < challenges.size(); i++) {
    in.push_back(Fr::from_u64(challenges[i]));
    for (uint64_t p : parents[i]) in.push_back(Fr::from_u64(p));
    for (int k = 0; k < 3; k++) in.push_back(Fr::from_u64(challenges[i]));
  }
  return in;
}

}  // namespace cuzk::circuits
