#include "circuits/fallback_post.hpp"

#include <algorithm>

#include "circuits/porep_witness.hpp"
#include "hash/sha256.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::circuits {

std::string PostShape::identifier() const {
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(sector_size) +
         ", challenge_count: " + std::to_string(challenges) + ", sector_count: " + std::to_string(sectors) +
         "}";
}

PostShape post_shape(PostType type, const std::string& sector_size) {
  // Tree R is the sealed sector's (the PoRep's tree R); stacked_shape refuses unknown sizes.
  StackedShape porep;
  try {
    porep = stacked_shape(sector_size);
  } catch (const Error&) {
    throw Error(ErrorCode::kInvalidArgument,
                "unknown PoSt sector size '" + sector_size + "' (2KiB, 8MiB, 512MiB, 32GiB and 64GiB)");
  }
  PostShape s;
  s.sector_size = porep.nodes * 32;
  s.tree_r = porep.tree_rc;
  if (type == PostType::kWinning) {
    // WINNING_POST_CHALLENGE_COUNT = 66 over WINNING_POST_SECTOR_COUNT = 1 sector: 66 / 1 circuit
    // sectors of 66 / 66 challenges (parameters.rs winning_post_setup_params).
    s.name = "winning-" + sector_size;
    s.sectors = 66;
    s.challenges = 1;
  } else {
    // WINDOW_POST_CHALLENGE_COUNT = 10; WINDOW_POST_SECTOR_COUNT per size (constants.rs).
    s.name = "window-" + sector_size;
    s.sectors = sector_size == "32GiB" ? 2349 : sector_size == "64GiB" ? 2300 : 2;
    s.challenges = 10;
  }
  return s;
}

PostShape post_test_shape(const TreeShape& tree, uint32_t sectors, uint32_t challenges) {
  PostShape s;
  s.name = "test-" + std::to_string(tree.base_arity) + "-" + std::to_string(tree.sub_arity) + "-" +
           std::to_string(tree.top_arity);
  s.sector_size = tree.leaves() * 32;
  s.sectors = sectors;
  s.challenges = challenges;
  s.tree_r = tree;
  return s;
}

namespace {

void check_witness(const PostShape& shape, const PostWitness& w) {
  auto fail = [](const std::string& what) {
    throw Error(ErrorCode::kInvalidArgument, "PoSt witness: " + what);
  };
  if (w.sectors.size() != shape.sectors)
    fail(std::to_string(w.sectors.size()) + " sectors; the " + shape.name + " circuit takes " +
         std::to_string(shape.sectors));
  for (size_t i = 0; i < w.sectors.size(); i++) {
    const PostSectorWitness& s = w.sectors[i];
    if (s.leafs.size() != shape.challenges || s.paths.size() != shape.challenges)
      fail("sector " + std::to_string(i) + ": " + std::to_string(s.leafs.size()) + " leafs and " +
           std::to_string(s.paths.size()) + " paths; the circuit takes " + std::to_string(shape.challenges) +
           " challenges");
    for (size_t c = 0; c < s.paths.size(); c++) {
      try {
        check_path(shape.tree_r, s.paths[c]);
      } catch (const Error& e) {
        fail("sector " + std::to_string(i) + ", challenge " + std::to_string(c) + ": " + e.what());
      }
    }
  }
}

// One circuit sector (circuit.rs `Sector::synthesize`).
template <class CS>
void synthesize_sector(CS& cs, const PostShape& shape, const PostSectorWitness* w) {
  const Fr zero = Fr::zero();
  const AllocatedNum comm_r_last = AllocatedNum::alloc(cs, w ? w->comm_r_last : zero);
  const AllocatedNum comm_c = AllocatedNum::alloc(cs, w ? w->comm_c : zero);
  const AllocatedNum comm_r = AllocatedNum::alloc(cs, w ? w->comm_r : zero);
  inputize(cs, comm_r);
  const AllocatedNum pre[2] = {comm_c, comm_r_last};
  const AllocatedNum h = poseidon_hash(cs, std::span<const AllocatedNum>(pre), poseidon_constants(2));
  enforce_equal(cs, comm_r, h);
  for (uint32_t c = 0; c < shape.challenges; c++) {
    // PoRCircuit::synthesize with value Root::Val(leaf) (allocated here), root Root::Var(comm_r_last)
    // and private = true: enforce_inclusion's rows.
    const AllocatedNum leaf = AllocatedNum::alloc(cs, w ? w->leafs[c] : zero);
    std::span<const PathLevel> path;
    if constexpr (CS::kValues) path = w->paths[c];
    enforce_inclusion<PoseidonHasher>(cs, shape.tree_r, path, leaf, comm_r_last);
  }
}

}  // namespace

template <class CS>
void synthesize_fallback_post(CS& cs, const PostShape& shape, const PostWitness* w) {
  if constexpr (CS::kValues) {
    if (!w) throw Error(ErrorCode::kInvalidArgument, "PoSt witness: none given to a witness synthesis");
    check_witness(shape, *w);
  } else {
    w = nullptr;
  }
  for (uint32_t i = 0; i < shape.sectors; i++) synthesize_sector(cs, shape, w ? &w->sectors[i] : nullptr);
}

void fallback_post_witness_into(const PostShape& shape, const PostWitness& w, ThreadPool& pool,
                                std::span<Fr> inputs, std::span<Fr> aux) {
  check_witness(shape, w);
  CountCs count;
  synthesize_sector(count, shape, nullptr);
  const uint32_t si = count.num_inputs() - 1, sa = count.num_aux();  // one sector's, ONE not included
  if (inputs.size() != 1 + size_t{shape.sectors} * si || aux.size() != size_t{shape.sectors} * sa)
    throw Error(ErrorCode::kInvalidArgument, "PoSt witness: storage for " + std::to_string(inputs.size()) +
                                                 " inputs and " + std::to_string(aux.size()) +
                                                 " aux values; the circuit has " +
                                                 std::to_string(1 + size_t{shape.sectors} * si) + " and " +
                                                 std::to_string(size_t{shape.sectors} * sa));
  inputs[0] = Fr::one();
  pool.parallel_for(
      shape.sectors,
      [&](size_t b, size_t e) {
        for (size_t s = b; s < e; s++) {
          const uint32_t a0 = (uint32_t)s * sa, i0 = 1 + (uint32_t)s * si;
          WitnessCs cs = WitnessCs::slice(aux.subspan(a0, sa), a0, inputs.subspan(i0, si), i0);
          synthesize_sector(cs, shape, &w.sectors[s]);
          if (cs.num_aux() != a0 + sa || cs.num_inputs() != i0 + si)
            throw Error(ErrorCode::kInternal, "PoSt witness: sector " + std::to_string(s) + " filled " +
                                                  std::to_string(cs.num_aux() - a0) + " of its " +
                                                  std::to_string(sa) + " aux values");
        }
      },
      1);
}

CompactCs fallback_post_compact_cs(const PostShape& shape, ThreadPool& pool) {
  RecordCs cs;
  synthesize_sector(cs, shape, nullptr);
  const Recording rec = cs.take_recording();
  const uint32_t sector_inputs = rec.n_inputs - 1, sector_aux = rec.n_aux;  // n_inputs counts ONE
  const size_t sector_rows = rec.n_constraints(), n_sectors = shape.sectors;
  CompactCs out;
  out.convention = HConvention::kBellperson;
  out.n_inputs = 1 + (uint32_t)n_sectors * sector_inputs;
  out.n_aux = (uint32_t)n_sectors * sector_aux;
  const size_t rows = sector_rows * n_sectors + out.n_inputs;
  if (rows > (size_t{1} << 28))
    throw Error(ErrorCode::kInvalidArgument,
                shape.name + ": " + std::to_string(rows) + " rows; the domain ends at 2^28");
  out.log_n = 1;
  while ((size_t{1} << out.log_n) < rows) out.log_n++;
  // Variable v of sector s's rows (recorded for s = 0) in the whole circuit's columns; ONE is shared.
  auto column = [&](uint32_t raw, uint32_t s) -> uint32_t {
    const Var v = Var::from_raw(raw);
    if (v.is_input()) return v.index() == 0 ? 0 : v.index() + s * sector_inputs;
    return out.n_inputs + v.index() + s * sector_aux;
  };
  if (rec.coeffs.size() < 2 || rec.coeffs[kCoeffOne] != Fr::one() || rec.coeffs[kCoeffMinusOne] != -Fr::one())
    throw Error(ErrorCode::kInternal, "the recording's coefficient table does not start with 1, -1");
  out.table.assign(rec.coeffs.values().begin(), rec.coeffs.values().end());
  auto build = [&](const RecordedMatrix& m, CompactMatrix& sm, bool input_rows) {
    const uint64_t per = m.row_offsets[sector_rows];
    const uint64_t nnz = per * n_sectors + (input_rows ? out.n_inputs : 0);
    sm.row_offsets.resize(rows + 1);
    sm.cols.resize(nnz);
    sm.coeffs.resize(nnz);
    sm.row_offsets[0] = 0;
    pool.parallel_for(
        n_sectors,
        [&](size_t b, size_t e) {
          for (size_t s = b; s < e; s++) {
            const uint64_t base = s * per;
            for (size_t r = 1; r <= sector_rows; r++)
              sm.row_offsets[s * sector_rows + r] = base + m.row_offsets[r];
            for (uint64_t k = 0; k < per; k++) {
              sm.cols[base + k] = column(m.vars[k], (uint32_t)s);
              sm.coeffs[base + k] = m.coeffs[k];
            }
          }
        },
        1);
    // bellperson's appended rows: A = input_i, B and C empty.
    write_input_rows(sm, sector_rows * n_sectors, per * n_sectors, out.n_inputs, input_rows);
  };
  build(rec.a, out.a, true);
  build(rec.b, out.b, false);
  build(rec.c, out.c, false);
  compute_densities(out);
  return out;
}

uint64_t post_challenge_index(PostApiVersion v, uint64_t sector_index, uint64_t challenge_count, uint64_t n) {
  return v == PostApiVersion::kV1_2_0 ? n : sector_index * challenge_count + n;
}

namespace {

uint64_t le64(const uint8_t* p) {
  uint64_t r = 0;
  for (int i = 7; i >= 0; i--) r = (r << 8) | p[i];
  return r;
}

void update_le64(Sha256& h, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = uint8_t(v >> (8 * i));
  h.update(b, 8);
}

}  // namespace

uint64_t post_leaf_challenge(const std::array<uint8_t, 32>& randomness, uint64_t sector_id,
                             uint64_t challenge_index, uint64_t nodes) {
  Sha256 h;
  h.update(randomness);
  update_le64(h, sector_id);
  update_le64(h, challenge_index);
  return le64(h.finish().data()) % nodes;
}

uint64_t post_sector_challenge(const std::array<uint8_t, 32>& randomness, uint64_t n, uint64_t sector_set_len,
                               const std::array<uint8_t, 32>& prover_id) {
  if (sector_set_len == 0) throw Error(ErrorCode::kInvalidArgument, "PoSt sector challenge: no sectors");
  Sha256 h;
  h.update(prover_id);
  h.update(randomness);
  update_le64(h, n);  // usize, little-endian, 8 bytes on 64-bit targets
  return le64(h.finish().data()) % sector_set_len;
}

std::vector<Fr> fallback_post_public_inputs(const PostShape& shape, PostApiVersion v,
                                            const std::array<uint8_t, 32>& randomness,
                                            std::span<const PostPublicSector> sectors, size_t k) {
  if (sectors.empty() || sectors.size() > shape.sectors)
    throw Error(ErrorCode::kInvalidArgument, "PoSt public inputs: partition " + std::to_string(k) + " has " +
                                                 std::to_string(sectors.size()) + " sectors; the " +
                                                 shape.name + " circuit takes 1 to " +
                                                 std::to_string(shape.sectors));
  const size_t first = k * shape.sectors, n = sectors.size();
  std::vector<Fr> inputs;
  inputs.reserve(size_t{shape.sectors} * (1 + shape.challenges));
  for (size_t i = 0; i < n; i++) {
    const PostPublicSector& s = sectors[i];
    inputs.push_back(s.comm_r);
    for (uint32_t c = 0; c < shape.challenges; c++) {
      const uint64_t index = post_challenge_index(v, first + i, shape.challenges, c);
      inputs.push_back(Fr::from_u64(post_leaf_challenge(randomness, s.id, index, shape.nodes())));
    }
  }
  const size_t per_sector = 1 + shape.challenges;
  const std::vector<Fr> last(inputs.end() - (ptrdiff_t)per_sector, inputs.end());
  while (inputs.size() < size_t{shape.sectors} * per_sector)
    inputs.insert(inputs.end(), last.begin(), last.end());
  return inputs;
}

std::vector<PostPublicSector> winning_post_public_sectors(const PostShape& shape,
                                                          const PostPublicSector& sector) {
  return std::vector<PostPublicSector>(shape.sectors, sector);
}

template void synthesize_fallback_post(CountCs&, const PostShape&, const PostWitness*);
template void synthesize_fallback_post(RecordCs&, const PostShape&, const PostWitness*);
template void synthesize_fallback_post(WitnessCs&, const PostShape&, const PostWitness*);
template void synthesize_fallback_post(TestCs&, const PostShape&, const PostWitness*);

}  // namespace cuzk::circuits
