#include "circuits/cs.hpp"

#include <algorithm>

#include "ff/bytes.hpp"
#include "hash/sha256.hpp"

namespace cuzk::circuits {

namespace {

// Sorts terms by variable, sums duplicates, drops zero sums; returns the new length.
size_t normalize(std::span<Lc::Term> t) {
  if (t.size() > 1)
    std::sort(t.begin(), t.end(),
              [](const Lc::Term& x, const Lc::Term& y) { return x.var.raw() < y.var.raw(); });
  size_t out = 0;
  for (size_t i = 0; i < t.size();) {
    Fr sum = t[i].coeff;
    size_t j = i + 1;
    for (; j < t.size() && t[j].var == t[i].var; j++) sum += t[j].coeff;
    if (!sum.is_zero()) t[out++] = {t[i].var, sum};
    i = j;
  }
  return out;
}

uint32_t column(Var v, uint32_t n_inputs) { return v.is_input() ? v.index() : n_inputs + v.index(); }

}  // namespace

void Lc::compact() { terms_.resize(normalize(terms_)); }

CoeffTable::CoeffTable() {
  intern(Fr::one());
  intern(-Fr::one());
}

uint32_t CoeffTable::intern(const Fr& c) {
  if (!values_.empty() && c == values_[0]) return 0;  // most terms are 1
  auto [it, added] = index_.try_emplace(c, (uint32_t)values_.size());
  if (added) values_.push_back(c);
  return it->second;
}

void append_row(RecordedMatrix& m, CoeffTable& table, Lc& lc) {
  lc.compact();
  for (const Lc::Term& t : lc.terms()) {
    m.vars.push_back(t.var.raw());
    m.coeffs.push_back(table.intern(t.coeff));
  }
  m.row_offsets.push_back(m.vars.size());
}

Fr Recording::dot_row(const RecordedMatrix& m, size_t i, const Witness& w) const {
  Fr acc = Fr::zero();
  for (uint64_t k = m.row_offsets[i]; k < m.row_offsets[i + 1]; k++)
    acc += coeffs[m.coeffs[k]] * w[Var::from_raw(m.vars[k])];
  return acc;
}

std::optional<size_t> Recording::first_unsatisfied(const Witness& w) const {
  if (w.inputs.size() != n_inputs || w.aux.size() != n_aux)
    throw Error(ErrorCode::kInvalidArgument, "witness has " + std::to_string(w.inputs.size()) +
                                                 " inputs and " + std::to_string(w.aux.size()) +
                                                 " aux values; the circuit has " + std::to_string(n_inputs) +
                                                 " and " + std::to_string(n_aux));
  for (size_t i = 0; i < n_constraints(); i++)
    if (dot_row(a, i, w) * dot_row(b, i, w) != dot_row(c, i, w)) return i;
  return std::nullopt;
}

ConstraintSystem Recording::to_constraint_system() const {
  const size_t rows = n_rows();
  if (rows > (size_t{1} << 28))
    throw Error(ErrorCode::kInvalidArgument,
                "circuit has " + std::to_string(rows) + " rows; the prover's domain ends at 2^28");
  ConstraintSystem cs;
  cs.convention = HConvention::kBellperson;
  cs.n_inputs = n_inputs;
  cs.n_aux = n_aux;
  cs.log_n = 1;
  while ((size_t{1} << cs.log_n) < rows) cs.log_n++;
  auto convert = [&](const RecordedMatrix& m, SparseMatrix& out, bool input_rows) {
    out.row_offsets.assign(1, 0);
    out.row_offsets.reserve(rows + 1);
    out.cols.resize(m.nnz() + (input_rows ? n_inputs : 0));
    out.vals.resize(out.cols.size());
    for (size_t k = 0; k < m.nnz(); k++) {
      out.cols[k] = column(Var::from_raw(m.vars[k]), n_inputs);
      out.vals[k] = coeffs[m.coeffs[k]];
    }
    out.row_offsets.insert(out.row_offsets.end(), m.row_offsets.begin() + 1, m.row_offsets.end());
    for (uint32_t i = 0; i < n_inputs; i++) {
      if (input_rows) {
        out.cols[m.nnz() + i] = i;
        out.vals[m.nnz() + i] = Fr::one();
      }
      out.row_offsets.push_back(m.nnz() + (input_rows ? i + 1 : 0));
    }
  };
  convert(a, cs.a, true);
  convert(b, cs.b, false);
  convert(c, cs.c, false);
  compute_densities(cs);
  return cs;
}

std::array<uint8_t, 32> Recording::canonical_digest() const {
  std::vector<std::array<uint8_t, 32>> canon(coeffs.size());
  for (size_t i = 0; i < coeffs.size(); i++) to_bytes_le(coeffs[(uint32_t)i], canon[i].data());
  Sha256 h;
  h.update_u32_le(n_inputs);
  h.update_u32_le(n_aux);
  h.update_u32_le((uint32_t)n_rows());
  std::vector<uint8_t> buf;
  for (size_t i = 0; i < n_constraints(); i++) {
    buf.clear();
    for (const RecordedMatrix* m : {&a, &b, &c}) {
      const uint64_t lo = m->row_offsets[i], hi = m->row_offsets[i + 1];
      const uint32_t cnt = (uint32_t)(hi - lo);
      buf.insert(buf.end(), {(uint8_t)cnt, (uint8_t)(cnt >> 8), (uint8_t)(cnt >> 16), (uint8_t)(cnt >> 24)});
      for (uint64_t k = lo; k < hi; k++) {
        const uint32_t col = column(Var::from_raw(m->vars[k]), n_inputs);
        buf.insert(buf.end(),
                   {(uint8_t)col, (uint8_t)(col >> 8), (uint8_t)(col >> 16), (uint8_t)(col >> 24)});
        buf.insert(buf.end(), canon[m->coeffs[k]].begin(), canon[m->coeffs[k]].end());
      }
    }
    h.update(buf);
  }
  // Appended rows: A = 1·input_i, B = C = empty.
  uint8_t one_le[32] = {1};
  for (uint32_t i = 0; i < n_inputs; i++) {
    h.update_u32_le(1);
    h.update_u32_le(i);
    h.update(one_le, 32);
    h.update_u32_le(0);
    h.update_u32_le(0);
  }
  return h.finish();
}

std::string Recording::describe_row(size_t i) const {
  if (i >= n_rows())
    throw Error(ErrorCode::kInvalidArgument, "row " + std::to_string(i) +
                                                 " does not exist: the circuit has " +
                                                 std::to_string(n_rows()) + " rows");
  auto name = [&](uint32_t col) {
    return col < n_inputs ? "in" + std::to_string(col) : "aux" + std::to_string(col - n_inputs);
  };
  auto coeff_text = [](const Fr& c) {
    // Small magnitudes read as ±integers; others as canonical hex.
    uint64_t l[4];
    c.to_canonical(l);
    if (l[1] == 0 && l[2] == 0 && l[3] == 0) return std::to_string(l[0]);
    (-c).to_canonical(l);
    if (l[1] == 0 && l[2] == 0 && l[3] == 0) return std::string("-").append(std::to_string(l[0]));
    uint8_t be[32];
    to_bytes_be(c, be);
    static const char* d = "0123456789abcdef";
    std::string s = "0x";
    for (uint8_t x : be) {
      s += d[x >> 4];
      s += d[x & 15];
    }
    return s;
  };
  std::string out;
  const char* names[3] = {"A", "B", "C"};
  int mi = 0;
  for (const RecordedMatrix* m : {&a, &b, &c}) {
    if (mi) out += "; ";
    out += names[mi];
    out += ':';
    if (i < n_constraints()) {
      for (uint64_t k = m->row_offsets[i]; k < m->row_offsets[i + 1]; k++)
        out.append(" ")
            .append(coeff_text(coeffs[m->coeffs[k]]))
            .append("*")
            .append(name(column(Var::from_raw(m->vars[k]), n_inputs)));
    } else if (mi == 0) {
      out.append(" 1*").append(name((uint32_t)(i - n_constraints())));
    }
    mi++;
  }
  return out;
}

}  // namespace cuzk::circuits
