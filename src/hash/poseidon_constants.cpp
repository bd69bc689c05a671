// Poseidon constants generation (see poseidon_constants.hpp for the upstream sources).
#include "hash/poseidon_constants.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

#include "ff/bytes.hpp"
#include "util/error.hpp"

namespace cuzk {

namespace {

constexpr int kFieldBits = 255;  // Fr::NUM_BITS

// ---- round numbers (neptune src/round_numbers.rs) ----------------------------------------------

// `round_numbers_are_secure` for M = 128 security bits and PRIME_BITLEN = 256, in f32 as upstream.
bool round_numbers_are_secure(int t_int, int rf, int rp_int) {
  const float rp = static_cast<float>(rp_int), t = static_cast<float>(t_int);
  const float n = 256.0f, m = 128.0f;
  const float rf_stat = m <= (n - 3.0f) * (t + 1.0f) ? 6.0f : 10.0f;
  const float rf_interp = 0.43f * m + std::log2(t) - rp;
  const float rf_grob_1 = 0.21f * n - rp;
  const float rf_grob_2 = (0.14f * n - 1.0f - rp) / (t - 1.0f);
  long long rf_max = 0;
  for (float x : {rf_stat, rf_interp, rf_grob_1, rf_grob_2}) {
    float c = std::ceil(x);
    long long v = c <= 0.0f ? 0 : static_cast<long long>(c);  // Rust's `as usize` saturates at 0
    if (v > rf_max) rf_max = v;
  }
  return rf >= rf_max;
}

// ---- Grain LFSR (neptune src/round_constants.rs) -----------------------------------------------

class Grain {
 public:
  explicit Grain(const std::array<bool, 80>& init) : state_(init) {
    for (int i = 0; i < 160; i++) step();
  }
  // Self-shrinking output: pairs (a, b); output b when a is 1.
  bool next() {
    while (!step()) step();
    return step();
  }

 private:
  bool bit(int i) const { return state_[(head_ + i) % 80]; }
  // b80 = b62 ⊕ b51 ⊕ b38 ⊕ b23 ⊕ b13 ⊕ b0; shift the window by one.
  bool step() {
    bool b = bit(62) ^ bit(51) ^ bit(38) ^ bit(23) ^ bit(13) ^ bit(0);
    state_[head_] = b;  // b0 leaves, b80 takes its slot at the end of the window
    head_ = (head_ + 1) % 80;
    return b;
  }
  std::array<bool, 80> state_;
  int head_ = 0;
};

// ---- MDS derivations (neptune src/mds.rs) ------------------------------------------------------

// minor(m, 0, 0): m without row 0 and column 0.
PoseidonMatrix minor00(const PoseidonMatrix& m) {
  PoseidonMatrix r(m.n - 1);
  for (int i = 1; i < m.n; i++)
    for (int j = 1; j < m.n; j++) r(i - 1, j - 1) = m(i, j);
  return r;
}

// make_prime: row 0 = e0; row i ≥ 1 = [0, m[i][1..]].
PoseidonMatrix make_prime(const PoseidonMatrix& m) {
  PoseidonMatrix r(m.n);
  r(0, 0) = Fr::one();
  for (int i = 1; i < m.n; i++)
    for (int j = 1; j < m.n; j++) r(i, j) = m(i, j);
  return r;
}

// make_double_prime: row 0 = m[0]; row i ≥ 1 = w_hat[i−1]·e0 + e_i, with w = m[1..][0],
// w_hat = apply_matrix(m̂⁻¹, w). Returned in compact form (SparseMatrix::new).
PoseidonSparseMatrix make_double_prime_sparse(const PoseidonMatrix& m, const PoseidonMatrix& m_hat_inv) {
  const int t = m.n;
  std::vector<Fr> w(t - 1);
  for (int i = 1; i < t; i++) w[i - 1] = m(i, 0);
  std::vector<Fr> w_hat = poseidon_apply_matrix(m_hat_inv, w);
  PoseidonSparseMatrix s;
  s.w_hat.reserve(t);
  s.w_hat.push_back(m(0, 0));
  s.w_hat.insert(s.w_hat.end(), w_hat.begin(), w_hat.end());
  s.v_rest.assign(m.a.begin() + 1, m.a.begin() + t);
  return s;
}

// factor_to_sparse_matrixes(M, n): repeatedly split the current matrix C = M′·M″ (M′ = make_prime(C),
// M″ = make_double_prime(C)) and continue with M · M′; the last C is the pre-sparse matrix, the M″ are
// reversed into application order.
void factor_to_sparse(const PoseidonMatrix& base, int n, PoseidonMatrix& pre_sparse,
                      std::vector<PoseidonSparseMatrix>& sparse) {
  PoseidonMatrix curr = base;
  sparse.clear();
  for (int k = 0; k < n; k++) {
    PoseidonMatrix m_hat_inv = poseidon_invert(minor00(curr));
    sparse.push_back(make_double_prime_sparse(curr, m_hat_inv));
    curr = poseidon_mat_mul(base, make_prime(curr));
  }
  std::reverse(sparse.begin(), sparse.end());
  pre_sparse = std::move(curr);
}

// ---- compressed round constants (neptune src/preprocessing.rs, partial_preprocessed = RP) -------

std::vector<Fr> compress_round_constants(int t, int rf, int rp, const std::vector<Fr>& rc,
                                         const PoseidonMatrix& m_inv) {
  auto keys = [&](int r) { return std::span<const Fr>(rc.data() + size_t(r) * t, t); };
  const int half = rf / 2;
  std::vector<Fr> res;
  res.reserve(size_t(rf) * t + rp);
  auto extend = [&](const std::vector<Fr>& v) { res.insert(res.end(), v.begin(), v.end()); };
  // The first round's keys unchanged; the next initial rounds' keys pushed back through M.
  res.insert(res.end(), keys(0).begin(), keys(0).end());
  for (int i = 0; i < half - 1; i++) extend(poseidon_apply_matrix(m_inv, keys(i + 1)));
  // The partial rounds' keys, pushed back from the first final round: each step keeps element 0 of
  // M⁻¹·acc as that round's single key and adds the rest onto the previous round's keys.
  const int final_round = half + rp;
  std::vector<Fr> acc(keys(final_round).begin(), keys(final_round).end());
  std::vector<Fr> partial_keys;
  for (int i = 0; i < rp; i++) {
    std::span<const Fr> prev = keys(final_round - i - 1);
    std::vector<Fr> inv = poseidon_apply_matrix(m_inv, acc);
    partial_keys.push_back(inv[0]);
    inv[0] = Fr::zero();
    for (int j = 0; j < t; j++) acc[j] = prev[j] + inv[j];
  }
  extend(poseidon_apply_matrix(m_inv, acc));
  res.insert(res.end(), partial_keys.rbegin(), partial_keys.rend());
  // The final rounds but the terminal one: the next round's keys pushed back.
  for (int i = 1; i < half; i++) extend(poseidon_apply_matrix(m_inv, keys(i + final_round)));
  return res;
}

}  // namespace

// ---- public helpers ----------------------------------------------------------------------------

PoseidonMatrix PoseidonMatrix::identity(int size) {
  PoseidonMatrix r(size);
  for (int i = 0; i < size; i++) r(i, i) = Fr::one();
  return r;
}

std::pair<int, int> poseidon_round_numbers(int t) {
  int rf = 0, rp = 0;
  long long n_min = std::numeric_limits<long long>::max();
  for (int rf_outer = 2; rf_outer <= 1000; rf_outer += 2) {
    // Upstream's `for mut rf_test`: the `rf_test += 2` below persists through the inner loop.
    int rf_test = rf_outer;
    for (int rp_loop = 4; rp_loop < 200; rp_loop++) {
      int rp_test = rp_loop;
      if (round_numbers_are_secure(t, rf_test, rp_test)) {
        rf_test += 2;
        rp_test = static_cast<int>(std::ceil(1.075f * static_cast<float>(rp_test)));
        long long n = (long long)t * rf_test + rp_test;
        if (n < n_min || (n == n_min && rf_test < rf)) {
          rf = rf_test;
          rp = rp_test;
          n_min = n;
        }
      }
    }
  }
  return {rf, rp};
}

std::vector<Fr> poseidon_grain_round_constants(int t, int rf, int rp) {
  // Init, most significant bit first: field 1 (2 bits), S-box 1 (4), field size 255 (12), t (12),
  // RF (10), RP (10), then 30 ones.
  std::array<bool, 80> init{};
  int k = 0;
  auto append = [&](int nbits, uint64_t v) {
    for (int i = nbits - 1; i >= 0; i--) init[k++] = (v >> i) & 1;
  };
  append(2, 1);
  append(4, 1);
  append(12, kFieldBits);
  append(12, (uint64_t)t);
  append(10, (uint64_t)rf);
  append(10, (uint64_t)rp);
  append(30, (1u << 30) - 1);
  Grain g(init);
  const size_t count = size_t(rf + rp) * t;
  std::vector<Fr> out;
  out.reserve(count);
  while (out.size() < count) {
    // 7 bits, then 31 bytes of 8, as one big-endian integer (get_next_bytes, then reversed to LE).
    uint8_t be[32];
    for (int byte = 0; byte < 32; byte++) {
      int nbits = byte == 0 ? kFieldBits % 8 : 8;
      uint8_t acc = 0;
      for (int i = 0; i < nbits; i++) acc = (uint8_t)((acc << 1) | (g.next() ? 1 : 0));
      be[byte] = acc;
    }
    Fr f;
    if (from_bytes_be(be, f)) out.push_back(f);
  }
  return out;
}

PoseidonMatrix poseidon_cauchy_mds(int t) {
  PoseidonMatrix m(t);
  for (int i = 0; i < t; i++)
    for (int j = 0; j < t; j++) m(i, j) = Fr::from_u64(uint64_t(i) + uint64_t(t + j)).inverse();
  return m;
}

PoseidonMatrix poseidon_invert(const PoseidonMatrix& in) {
  const int n = in.n;
  PoseidonMatrix a = in, inv = PoseidonMatrix::identity(n);
  for (int col = 0; col < n; col++) {
    int piv = col;
    while (piv < n && a(piv, col).is_zero()) piv++;
    if (piv == n) throw Error(ErrorCode::kInvalidArgument, "poseidon_invert: singular matrix");
    if (piv != col)
      for (int j = 0; j < n; j++) {
        std::swap(a(piv, j), a(col, j));
        std::swap(inv(piv, j), inv(col, j));
      }
    Fr s = a(col, col).inverse();
    for (int j = 0; j < n; j++) {
      a(col, j) *= s;
      inv(col, j) *= s;
    }
    for (int i = 0; i < n; i++) {
      if (i == col || a(i, col).is_zero()) continue;
      Fr f = a(i, col);
      for (int j = 0; j < n; j++) {
        a(i, j) -= f * a(col, j);
        inv(i, j) -= f * inv(col, j);
      }
    }
  }
  return inv;
}

PoseidonMatrix poseidon_mat_mul(const PoseidonMatrix& a, const PoseidonMatrix& b) {
  if (a.n != b.n) throw Error(ErrorCode::kInvalidArgument, "poseidon_mat_mul: sizes differ");
  const int n = a.n;
  PoseidonMatrix r(n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      Fr s = Fr::zero();
      for (int k = 0; k < n; k++) s += a(i, k) * b(k, j);
      r(i, j) = s;
    }
  return r;
}

std::vector<Fr> poseidon_apply_matrix(const PoseidonMatrix& m, std::span<const Fr> v) {
  if ((size_t)m.n != v.size())
    throw Error(ErrorCode::kInvalidArgument, "poseidon_apply_matrix: size mismatch");
  std::vector<Fr> out(v.size(), Fr::zero());
  for (int j = 0; j < m.n; j++)
    for (int i = 0; i < m.n; i++) out[j] += m(i, j) * v[i];
  return out;
}

PoseidonConstants PoseidonConstants::generate(int arity) {
  if (arity < 1 || arity > 36)
    throw Error(ErrorCode::kInvalidArgument,
                "Poseidon arity " + std::to_string(arity) + " is not supported (neptune allows 1..36)");
  PoseidonConstants c;
  c.arity = arity;
  c.width = arity + 1;
  const int t = c.width;
  auto [rf, rp] = poseidon_round_numbers(t);
  c.full_rounds = rf;
  c.half_full_rounds = rf / 2;
  c.partial_rounds = rp;
  c.domain_tag = Fr::from_u64((uint64_t(1) << arity) - 1);
  c.round_constants = poseidon_grain_round_constants(t, rf, rp);
  c.mds = poseidon_cauchy_mds(t);
  c.mds_inv = poseidon_invert(c.mds);
  c.compressed_round_constants = compress_round_constants(t, rf, rp, c.round_constants, c.mds_inv);
  factor_to_sparse(c.mds, rp, c.pre_sparse, c.sparse);
  if (c.compressed_round_constants.size() != size_t(rf) * t + rp)
    throw Error(ErrorCode::kInternal, "Poseidon: wrong number of compressed round constants");
  return c;
}

const PoseidonConstants& poseidon_constants(int arity) {
  static constexpr int kArities[] = {2, 4, 8, 11, 16, 24, 36};
  static std::once_flag flags[std::size(kArities)];
  static std::unique_ptr<PoseidonConstants> cache[std::size(kArities)];
  for (size_t k = 0; k < std::size(kArities); k++)
    if (kArities[k] == arity) {
      std::call_once(flags[k], [&] {
        cache[k] = std::make_unique<PoseidonConstants>(PoseidonConstants::generate(arity));
      });
      return *cache[k];
    }
  throw Error(ErrorCode::kInvalidArgument, "Poseidon arity " + std::to_string(arity) +
                                               " has no cached constants (2, 4, 8, 11, 16, 24, 36)");
}

}  // namespace cuzk
