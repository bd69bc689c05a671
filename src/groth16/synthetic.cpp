#include "groth16/synthetic.hpp"

#include <algorithm>
#include <string>

#include "util/error.hpp"

namespace cuzk {
namespace {

constexpr size_t kChunk = 16384;  // rows (and aux values) per random stream

/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast generator; one stream per (seed, tag, chunk).
class Rng {
 public:
  Rng(uint64_t seed, uint64_t tag, uint64_t chunk) : s_(seed) {
    s_ = next() ^ (tag * 0xd1b54a32d192ed03ull);
    s_ = next() ^ (chunk * 0x8cb92ba72f3d8dd7ull);
    next();
  }
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (multiply-shift; the bias is below 2^-32 for the n used here).
  uint64_t below(uint64_t n) { return (uint64_t)(((unsigned __int128)next() * n) >> 64); }
  /// Uniform element of Fr (rejection sampling on 255-bit integers).
  Fr fr() {
    for (;;) {
      uint64_t l[4] = {next(), next(), next(), next() >> 1};
      Fr x;
      if (Fr::from_canonical(l, x)) return x;
    }
  }
  /// A coefficient: 1 (probability 1/2), −1 (1/4) or uniform (1/4).
  Fr coef() {
    switch (next() & 3) {
      case 0:
      case 1:
        return Fr::one();
      case 2:
        return -Fr::one();
      default:
        return fr();
    }
  }

 private:
  uint64_t s_;
};

enum Tag : uint64_t { kInputs = 1, kValues = 2, kRows = 3 };

bool in_a(uint64_t aux) { return aux % 1000 >= 3; }  // 99.7 % of the aux variables
bool in_b(uint64_t aux) { return aux % 4 == 1; }     // 25 %

// Terms before row j (j ≤ N) of the constraint rows: A has 3 terms when j mod 5 < 2, C when j mod 5 = 0.
uint64_t a_offset(uint64_t j) { return 2 * j + 2 * (j / 5) + std::min<uint64_t>(j % 5, 2); }
uint64_t c_offset(uint64_t j) { return 2 * j + (j + 4) / 5; }

}  // namespace

uint32_t synthetic_constraints(int log2_k) {
  if (log2_k < 10 || log2_k > 28)
    throw Error(ErrorCode::kInvalidArgument,
                "synthetic_porep: log2_k " + std::to_string(log2_k) + " is outside 10..28");
  const uint64_t n = uint64_t{1} << log2_k, target = 97 * n / 100;
  return (uint32_t)(target + kSyntheticInputs <= n ? target : n - kSyntheticInputs - (n >> 6));
}

SyntheticCircuit synthetic_porep(int log2_k, uint64_t seed, ThreadPool& pool) {
  const uint32_t n_con = synthetic_constraints(log2_k);
  const uint32_t n_in = kSyntheticInputs, n_aux = n_con;
  const uint64_t rows = (uint64_t)n_con + n_in;
  const uint64_t b_set = (n_aux + 2) / 4;  // aux i with i mod 4 = 1: i = 4k + 1, k < b_set

  SyntheticCircuit out;
  std::vector<Fr>& wit = out.witness;
  wit.resize((size_t)n_in + n_aux);
  {
    Rng rng(seed, kInputs, 0);
    wit[0] = Fr::one();
    for (uint32_t s = 1; s < n_in; s++) wit[s] = rng.fr();
  }
  const size_t value_chunks = (n_aux + kChunk - 1) / kChunk;
  pool.parallel_for(
      value_chunks,
      [&](size_t c0, size_t c1) {
        for (size_t c = c0; c < c1; c++) {
          Rng rng(seed, kValues, c);
          Fr* v = wit.data() + n_in + c * kChunk;
          const size_t len = std::min<size_t>(kChunk, n_aux - c * kChunk);
          const size_t zeros = (len * 45 + 50) / 100, ones = (len * 45 + 50) / 100;
          for (size_t i = 0; i < len; i++)
            v[i] = i < zeros ? Fr::zero() : i < zeros + ones ? Fr::one() : rng.fr();
          for (size_t i = len; i-- > 1;) std::swap(v[i], v[rng.below(i + 1)]);  // Fisher–Yates
        }
      },
      1);

  ConstraintSystem& cs = out.cs;
  cs.convention = HConvention::kBellperson;
  cs.log_n = log2_k;
  cs.n_inputs = n_in;
  cs.n_aux = n_aux;
  // Row offsets in closed form: every row's term count depends on its index only.
  cs.a.row_offsets.resize(rows + 1);
  cs.b.row_offsets.resize(rows + 1);
  cs.c.row_offsets.resize(rows + 1);
  pool.parallel_for(rows + 1, [&](size_t lo, size_t hi) {
    for (uint64_t j = lo; j < hi; j++) {
      const uint64_t jc = std::min<uint64_t>(j, n_con);
      cs.a.row_offsets[j] = a_offset(jc) + (j - jc);
      cs.b.row_offsets[j] = jc;
      cs.c.row_offsets[j] = c_offset(jc);
    }
  });
  cs.a.cols.resize(cs.a.row_offsets[rows]);
  cs.a.vals.resize(cs.a.row_offsets[rows]);
  cs.b.cols.resize(cs.b.row_offsets[rows]);
  cs.b.vals.resize(cs.b.row_offsets[rows]);
  cs.c.cols.resize(cs.c.row_offsets[rows]);
  cs.c.vals.resize(cs.c.row_offsets[rows]);

  const Fr* aux_val = wit.data() + n_in;
  // The input placed in constraint j (input s sits in constraint ⌊s·N/328⌋), or 0 for none.
  auto input_at = [&](uint64_t j) -> uint64_t {
    const uint64_t s = (j * n_in + n_con - 1) / n_con;  // the smallest s with ⌊s·N/328⌋ ≥ j
    return s >= 1 && s < n_in && s * n_con / n_in == j ? s : 0;
  };
  const size_t row_chunks = (n_con + kChunk - 1) / kChunk;
  pool.parallel_for(
      row_chunks,
      [&](size_t c0, size_t c1) {
        std::vector<Fr> last_val(kChunk), prefix(kChunk);
        for (size_t c = c0; c < c1; c++) {
          Rng rng(seed, kRows, c);
          const uint64_t j0 = c * kChunk, j1 = std::min<uint64_t>(j0 + kChunk, n_con);
          auto random_a_var = [&] {
            for (;;)
              if (uint64_t i = rng.below(n_aux); in_a(i)) return i;
          };
          for (uint64_t j = j0; j < j1; j++) {
            // A
            uint64_t ka = cs.a.row_offsets[j];
            const int na = j % 5 < 2 ? 3 : 2;
            uint32_t terms[3];
            Fr a_sum = Fr::zero();
            const uint64_t input = input_at(j);
            for (int t = 0; t < na; t++) {
              uint64_t var;  // witness index
              if (t == 0 && in_a(j))
                var = n_in + j;
              else if (t == 1 && input)
                var = input;
              else
                var = n_in + random_a_var();
              for (int u = 0; u < t; u++)
                if (terms[u] == var) var = n_in + random_a_var(), u = -1;  // redraw on a repeat
              terms[t] = (uint32_t)var;
              const Fr k = rng.coef();
              cs.a.cols[ka] = (uint32_t)var;
              cs.a.vals[ka++] = k;
              a_sum += k * wit[var];
            }
            // B
            uint64_t b_var = in_b(j) ? n_in + j : j % 64 == 3 ? 0 : n_in + 4 * rng.below(b_set) + 1;
            cs.b.cols[j] = (uint32_t)b_var;
            cs.b.vals[j] = Fr::one();
            Fr rest = a_sum * wit[b_var];
            // C: all terms but the last, then the last one's variable; its coefficient comes after the
            // batch inversion below (its slot holds the remainder meanwhile).
            uint64_t kc = cs.c.row_offsets[j];
            const int nc = j % 5 == 0 ? 3 : 2;
            for (int t = 0; t < nc; t++) {
              uint64_t var;
              bool again;
              do {
                if (t == 0 && !in_a(j) && !in_b(j)) {
                  var = n_in + j;
                } else {
                  var = n_in + rng.below(n_aux);
                  if (t == nc - 1)
                    while (aux_val[var - n_in].is_zero()) var = n_in + rng.below(n_aux);
                }
                again = false;
                for (int u = 0; u < t; u++) again |= terms[u] == var;
              } while (again);
              terms[t] = (uint32_t)var;
              cs.c.cols[kc + t] = (uint32_t)var;
              if (t < nc - 1) {
                const Fr k = rng.coef();
                cs.c.vals[kc + t] = k;
                rest -= k * wit[var];
              } else {
                cs.c.vals[kc + t] = rest;
                last_val[j - j0] = wit[var];
              }
            }
          }
          // coefficient of the last C term = remainder / its variable's value (batch inversion)
          Fr acc = Fr::one();
          for (uint64_t j = j0; j < j1; j++) prefix[j - j0] = acc, acc = acc * last_val[j - j0];
          Fr inv = acc.inverse();
          for (uint64_t j = j1; j-- > j0;) {
            const Fr x_inv = inv * prefix[j - j0];
            inv = inv * last_val[j - j0];
            Fr& slot = cs.c.vals[cs.c.row_offsets[j + 1] - 1];
            slot = slot * x_inv;
          }
        }
      },
      1);
  // bellperson's input rows: A = input k
  for (uint32_t k = 0; k < n_in; k++) {
    cs.a.cols[cs.a.row_offsets[n_con + k]] = k;
    cs.a.vals[cs.a.row_offsets[n_con + k]] = Fr::one();
  }
  compute_densities(cs);
  return out;
}

}  // namespace cuzk
