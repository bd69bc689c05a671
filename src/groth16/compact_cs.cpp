#include "groth16/compact_cs.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "groth16/prover.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {
namespace {

/// Terms interned together by compact(): one local table per block, so blocks run in parallel.
constexpr size_t kInternBlock = size_t{1} << 20;

/// An open-addressing map from coefficients to local table indices (linear probing, grows at half load).
class Interner {
 public:
  Interner() : slots_(size_t{1} << 12, kEmpty) {}
  /// The local index of v (0-based), adding it to `values` when new.
  uint32_t intern(const Fr& v, std::vector<Fr>& values) {
    if (2 * (values.size() + 1) > slots_.size()) grow(values);
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash(v) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == kEmpty) {
        slots_[i] = (uint32_t)values.size();
        values.push_back(v);
        return slots_[i];
      }
      if (values[slots_[i]] == v) return slots_[i];
    }
  }

 private:
  static constexpr uint32_t kEmpty = 0xffffffffu;
  static size_t hash(const Fr& v) {
    return (size_t)((v.l[0] ^ (v.l[1] * 0x9e3779b97f4a7c15ULL) ^ (v.l[3] << 7)) * 0xff51afd7ed558ccdULL >>
                    17);
  }
  void grow(const std::vector<Fr>& values) {
    std::vector<uint32_t> next(slots_.size() * 2, kEmpty);
    const size_t mask = next.size() - 1;
    for (uint32_t j = 0; j < values.size(); j++) {
      size_t i = hash(values[j]) & mask;
      while (next[i] != kEmpty) i = (i + 1) & mask;
      next[i] = j;
    }
    slots_.swap(next);
  }
  std::vector<uint32_t> slots_;
};

/// m in compact form with its coefficients interned into `table` (appended), blocks on the pool.
CompactMatrix compact_matrix(const SparseMatrix& m, std::vector<Fr>& table, ThreadPool& pool) {
  CompactMatrix out;
  out.row_offsets.assign(m.row_offsets.begin(), m.row_offsets.end());
  out.cols.resize(m.nnz());
  out.coeffs.resize(m.nnz());
  const size_t blocks = (m.nnz() + kInternBlock - 1) / kInternBlock;
  std::vector<std::vector<Fr>> local(blocks);
  const Fr one = Fr::one(), minus_one = -Fr::one();
  constexpr uint32_t kLocal = 2;  // local index i is stored as kLocal + i until the offsets are known
  pool.parallel_for(
      blocks,
      [&](size_t b0, size_t b1) {
        for (size_t b = b0; b < b1; b++) {
          Interner in;
          const size_t k0 = b * kInternBlock, k1 = std::min(m.nnz(), k0 + kInternBlock);
          std::memcpy(out.cols.data() + k0, m.cols.data() + k0, (k1 - k0) * sizeof(uint32_t));
          for (size_t k = k0; k < k1; k++) {
            const Fr& v = m.vals[k];
            out.coeffs[k] = v == one         ? kCoeffOne
                            : v == minus_one ? kCoeffMinusOne
                                             : kLocal + in.intern(v, local[b]);
          }
        }
      },
      1);
  std::vector<uint64_t> base(blocks);
  uint64_t at = table.size();
  for (size_t b = 0; b < blocks; b++) base[b] = at, at += local[b].size();
  if (at > 0xffffffffULL)
    throw Error(ErrorCode::kInvalidArgument,
                "the circuit has more than 2^32 coefficients: too many for a compact constraint system");
  table.resize(at);
  pool.parallel_for(
      blocks,
      [&](size_t b0, size_t b1) {
        for (size_t b = b0; b < b1; b++) {
          std::copy(local[b].begin(), local[b].end(), table.begin() + (ptrdiff_t)base[b]);
          const size_t k0 = b * kInternBlock, k1 = std::min(m.nnz(), k0 + kInternBlock);
          for (size_t k = k0; k < k1; k++)
            if (out.coeffs[k] >= kLocal) out.coeffs[k] = (uint32_t)(base[b] + out.coeffs[k] - kLocal);
        }
      },
      1);
  return out;
}

/// out[j] = ⟨row j of m, w⟩ for j < m.rows(), 0 for the rest of the domain.
void evaluate(const CompactMatrix& m, const std::vector<Fr>& table, std::span<const Fr> w, BigVector<Fr>& out,
              size_t n, ThreadPool& pool) {
  out.resize(n);
  const CsrView v = m.view();
  pool.parallel_for(
      n,
      [&](size_t lo, size_t hi) {
        const size_t row_end = std::min<size_t>(hi, v.rows);
        for (size_t j = lo; j < row_end; j++) out[j] = csr_row_dot(v, table.data(), w.data(), j);
        for (size_t j = std::max(lo, row_end); j < hi; j++) out[j] = Fr::zero();
      },
      4096);
}

}  // namespace

CompactCs compact(const ConstraintSystem& cs, ThreadPool& pool) {
  CompactCs out;
  out.convention = cs.convention;
  out.log_n = cs.log_n;
  out.n_inputs = cs.n_inputs;
  out.n_aux = cs.n_aux;
  out.a = compact_matrix(cs.a, out.table, pool);
  out.b = compact_matrix(cs.b, out.table, pool);
  out.c = compact_matrix(cs.c, out.table, pool);
  out.a_aux = cs.a_aux;
  out.b_inp = cs.b_inp;
  out.b_aux = cs.b_aux;
  return out;
}

ConstraintSystem expand(const CompactCs& rows, ThreadPool& pool) {
  ConstraintSystem cs;
  cs.convention = rows.convention;
  cs.log_n = rows.log_n;
  cs.n_inputs = rows.n_inputs;
  cs.n_aux = rows.n_aux;
  for (auto [from, to] : {std::pair{&rows.a, &cs.a}, {&rows.b, &cs.b}, {&rows.c, &cs.c}}) {
    to->row_offsets.assign(from->row_offsets.begin(), from->row_offsets.end());
    to->cols.resize(from->nnz());
    to->vals.resize(from->nnz());
    pool.parallel_for(
        from->nnz(),
        [&, from = from, to = to](size_t lo, size_t hi) {
          for (size_t k = lo; k < hi; k++) {
            to->cols[k] = from->cols[k];
            to->vals[k] = rows.table[from->coeffs[k]];
          }
        },
        size_t{1} << 16);
  }
  cs.a_aux = rows.a_aux;
  cs.b_inp = rows.b_inp;
  cs.b_aux = rows.b_aux;
  return cs;
}

void compute_densities(CompactCs& rows) {
  rows.a_aux = Density(rows.n_aux);
  rows.b_inp = Density(rows.n_inputs);
  rows.b_aux = Density(rows.n_aux);
  for (size_t k = 0; k < rows.a.nnz(); k++)
    if (rows.a.cols[k] >= rows.n_inputs && !rows.table[rows.a.coeffs[k]].is_zero())
      rows.a_aux.set(rows.a.cols[k] - rows.n_inputs);
  for (size_t k = 0; k < rows.b.nnz(); k++) {
    if (rows.table[rows.b.coeffs[k]].is_zero()) continue;
    if (rows.b.cols[k] < rows.n_inputs)
      rows.b_inp.set(rows.b.cols[k]);
    else
      rows.b_aux.set(rows.b.cols[k] - rows.n_inputs);
  }
}

void evaluate_abc(const CompactCs& rows, std::span<const Fr> w, BigVector<Fr>& a, BigVector<Fr>& b,
                  BigVector<Fr>& c, ThreadPool& pool) {
  const size_t n = rows.domain_size();
  evaluate(rows.a, rows.table, w, a, n, pool);
  evaluate(rows.b, rows.table, w, b, n, pool);
  if (rows.convention == HConvention::kBellperson)
    evaluate(rows.c, rows.table, w, c, n, pool);
  else
    c.clear();
}

Assignment deferred_assignment(std::shared_ptr<const CompactCs> rows, std::span<const Fr> witness,
                               ThreadPool& pool) {
  if (!rows) throw Error(ErrorCode::kInvalidArgument, "deferred_assignment: no constraint system");
  if (witness.size() != rows->n_vars())
    throw Error(ErrorCode::kInvalidArgument,
                "witness has " + counted(witness.size(), "value") + " but the circuit has " +
                    counted(rows->n_vars(), "variable") + " (" + counted(rows->n_inputs, "input") + " + " +
                    std::to_string(rows->n_aux) + " aux)");
  if (witness.empty() || !witness[0].is_one())
    throw Error(ErrorCode::kInvalidArgument, "witness[0] must be 1 (the constant ONE)");
  Assignment asg;
  asg.log_n = rows->log_n;
  asg.inputs.assign(witness.begin(), witness.begin() + rows->n_inputs);
  BigVector<Fr>& aux = asg.aux.vec();
  aux.resize(rows->n_aux);
  const Fr* src = witness.data() + rows->n_inputs;
  pool.parallel_for(
      rows->n_aux,
      [&](size_t lo, size_t hi) { std::memcpy(aux.data() + lo, src + lo, (hi - lo) * sizeof(Fr)); },
      size_t{1} << 16);
  asg.a_aux = rows->a_aux;
  asg.b_inp = rows->b_inp;
  asg.b_aux = rows->b_aux;
  asg.rows = std::move(rows);
  return asg;
}

void write_input_rows(CompactMatrix& m, size_t first, uint64_t at, uint32_t n_inputs, bool with_terms) {
  for (uint32_t i = 0; i < n_inputs; i++) {
    if (with_terms) {
      m.cols[at + i] = i;
      m.coeffs[at + i] = kCoeffOne;
    }
    m.row_offsets[first + i + 1] = at + (with_terms ? i + 1 : 0);
  }
}

BigVector<Fr> witness_of(const Assignment& asg) {
  BigVector<Fr> w(asg.inputs.size() + asg.aux.size());
  std::copy(asg.inputs.begin(), asg.inputs.end(), w.begin());
  std::copy(asg.aux.begin(), asg.aux.end(), w.begin() + (ptrdiff_t)asg.inputs.size());
  return w;
}

void check_key_fits(const ProvingKey& key, const CompactCs& rows, const std::string& what) {
  check_key_fits(
      key,
      KeyShape{rows.convention, rows.log_n, rows.n_inputs, rows.n_aux, rows.n_inputs + rows.a_aux.popcount(),
               rows.b_inp.popcount() + rows.b_aux.popcount()},
      what);
}

}  // namespace cuzk
