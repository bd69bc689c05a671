// The circuit builder: bellperson's variable model (bellpepper-core src/constraint_system.rs,
// bellperson src/groth16/generator.rs and prover/native.rs) in four modes that run the same gadget code.
//
// Variables live in two index spaces numbered in call order: Input(i) (alloc_input) and Aux(j) (alloc).
// ONE = Input(0) exists before synthesis. A constraint ⟨A,w⟩·⟨B,w⟩ = ⟨C,w⟩ is given as a callable that
// fills the three linear combinations; only the recording modes call it, so the witness mode builds
// no linear combination at all. After synthesis bellperson appends one row `input_i · 0 = 0` per
// input, ONE included (POREP_CIRCUIT.md §6): Recording::to_constraint_system adds them.
//
//   CountCs    numbers of inputs, aux and constraints only
//   RecordCs   the rows (merged, sorted, zero terms dropped, coefficients interned in a table)
//   WitnessCs  the values of inputs and aux only
//   TestCs     rows and values together (gadget tests: is every row satisfied, which one is not)
//
// Gadgets are templates over the builder type and ask `CS::kValues` / `CS::kRecord` at compile time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

#include "ff/bls12_381.hpp"
#include "groth16/r1cs.hpp"
#include "util/error.hpp"

namespace cuzk::circuits {

/// A variable: Input(i) or Aux(j). The raw encoding keeps inputs (i) below aux (2^31 | j), so sorting
/// raw values orders terms as the canonical columns do (inputs first, then aux, each by index).
class Var {
 public:
  static constexpr uint32_t kAuxBit = 0x80000000u;
  constexpr Var() = default;
  static constexpr Var input(uint32_t i) { return Var(i); }
  static constexpr Var aux(uint32_t j) { return Var(j | kAuxBit); }
  static constexpr Var from_raw(uint32_t raw) { return Var(raw); }
  constexpr bool is_input() const { return (raw_ & kAuxBit) == 0; }
  constexpr uint32_t index() const { return raw_ & ~kAuxBit; }
  constexpr uint32_t raw() const { return raw_; }
  friend constexpr bool operator==(Var, Var) = default;

 private:
  constexpr explicit Var(uint32_t raw) : raw_(raw) {}
  uint32_t raw_ = 0;
};

/// The constant-one variable, Input(0).
inline constexpr Var kOne = Var::input(0);

/// A linear combination Σ c_k·v_k (bellpepper-core src/lc.rs) as the recording modes build it: terms
/// are appended as given; duplicates are merged and zero coefficients dropped when a row is recorded
/// (the same map as bellpepper's merging Indexer, since a zero term never enters a row).
class Lc {
 public:
  struct Term {
    Var var;
    Fr coeff;
  };
  Lc() = default;
  /// 1·v.
  explicit Lc(Var v) { terms_.push_back({v, Fr::one()}); }

  /// += c·v.
  Lc& add(Var v, const Fr& c) {
    terms_.push_back({v, c});
    return *this;
  }
  /// += v.
  Lc& add(Var v) { return add(v, Fr::one()); }
  /// −= v.
  Lc& sub(Var v) { return add(v, -Fr::one()); }
  /// −= c·v.
  Lc& sub(Var v, const Fr& c) { return add(v, -c); }
  /// += scale·other.
  Lc& add(const Lc& other, const Fr& scale) {
    for (const Term& t : other.terms_) terms_.push_back({t.var, t.coeff * scale});
    return *this;
  }
  /// += other.
  Lc& add(const Lc& other) {
    terms_.insert(terms_.end(), other.terms_.begin(), other.terms_.end());
    return *this;
  }
  /// −= other.
  Lc& sub(const Lc& other) { return add(other, -Fr::one()); }
  /// this·scale.
  Lc scaled(const Fr& scale) const {
    Lc r;
    r.add(*this, scale);
    return r;
  }
  /// Merges duplicate terms and drops zero ones (sorted by variable); keeps long chains short.
  void compact();
  void clear() { terms_.clear(); }
  bool empty() const { return terms_.empty(); }
  std::span<const Term> terms() const { return terms_; }

 private:
  std::vector<Term> terms_;
};

/// Distinct coefficients of a recording, each stored once; rows refer to them by index. Index 0 is 1,
/// index 1 is −1 (PoRep's rows are mostly ±1, 2^k and a few thousand Poseidon constants).
class CoeffTable {
 public:
  CoeffTable();
  /// The index of c, adding it when new.
  uint32_t intern(const Fr& c);
  const Fr& operator[](uint32_t i) const { return values_[i]; }
  size_t size() const { return values_.size(); }
  std::span<const Fr> values() const { return values_; }

 private:
  struct Hash {
    size_t operator()(const Fr& f) const { return f.l[0] ^ (f.l[1] * 0x9e3779b97f4a7c15ULL) ^ (f.l[3] << 7); }
  };
  std::vector<Fr> values_;
  std::unordered_map<Fr, uint32_t, Hash> index_;
};

/// One matrix (A, B or C) of a recording in compressed-sparse-row form: row i's terms are
/// (vars[k], coeffs[k]) for k in [row_offsets[i], row_offsets[i+1]), sorted by Var::raw, no duplicate
/// variable, no zero coefficient. vars are raw Var encodings; coeffs index the CoeffTable.
struct RecordedMatrix {
  std::vector<uint64_t> row_offsets{0};
  std::vector<uint32_t> vars;
  std::vector<uint32_t> coeffs;

  size_t rows() const { return row_offsets.size() - 1; }
  size_t nnz() const { return vars.size(); }
  size_t bytes() const {
    return row_offsets.size() * sizeof(uint64_t) + vars.size() * sizeof(uint32_t) +
           coeffs.size() * sizeof(uint32_t);
  }
};

/// The values of a circuit's variables (Montgomery form): inputs[0] = 1.
struct Witness {
  std::vector<Fr> inputs{Fr::one()};
  std::vector<Fr> aux;

  const Fr& operator[](Var v) const { return v.is_input() ? inputs[v.index()] : aux[v.index()]; }
  Fr& operator[](Var v) { return v.is_input() ? inputs[v.index()] : aux[v.index()]; }
};

/// A recorded circuit shape: the synthesized constraints (without bellperson's appended input rows)
/// and the numbers of variables. Recorded once per shape and reused for every partition and proof.
struct Recording {
  uint32_t n_inputs = 1;  ///< ONE included
  uint32_t n_aux = 0;
  RecordedMatrix a, b, c;
  CoeffTable coeffs;

  size_t n_constraints() const { return a.rows(); }
  /// Rows including the appended `input_i · 0 = 0` rows.
  size_t n_rows() const { return a.rows() + n_inputs; }
  /// Bytes held by the three matrices and the coefficient table.
  size_t bytes() const { return a.bytes() + b.bytes() + c.bytes() + coeffs.size() * sizeof(Fr); }

  /// ⟨row i of m, w⟩.
  Fr dot_row(const RecordedMatrix& m, size_t i, const Witness& w) const;
  /// The first synthesized constraint that `w` does not satisfy, or nullopt when all hold. Throws
  /// Error(kInvalidArgument) when w's numbers of inputs or aux differ from the recording's.
  std::optional<size_t> first_unsatisfied(const Witness& w) const;

  /// The prover's ConstraintSystem (bellperson convention): these rows with columns inputs ‖ aux,
  /// the appended input rows, log_n of the smallest power of two ≥ the row count (at least 2 points)
  /// and the densities. Throws Error(kInvalidArgument) past 2^28 rows.
  ConstraintSystem to_constraint_system() const;

  /// SHA-256 of the canonical form (issue 18 item 8; POREP_CIRCUIT.md §6b): u32 n_inputs, u32 n_aux,
  /// u32 n_rows; then per row (synthesized, then A = input_i for every input) A, B, C each as u32
  /// term count and (u32 column, 32-byte canonical little-endian coefficient) per term; columns are
  /// inputs first (ONE = 0) then n_inputs + j; all integers little-endian.
  std::array<uint8_t, 32> canonical_digest() const;

  /// Row i (synthesized rows first, then the input rows) in words, e.g. "A: 1·in0 − 1·aux7; B: …".
  std::string describe_row(size_t i) const;
};

/// The builder. kValues: variables carry values (witness); kRecord: constraints are recorded.
template <bool kValuesT, bool kRecordT>
class Builder {
 public:
  static constexpr bool kValues = kValuesT;
  static constexpr bool kRecord = kRecordT;

  /// A new aux variable. `value` is an Fr or a callable returning one; it is read (called) only
  /// when the builder keeps values.
  template <class V>
  Var alloc(V&& value) {
    if constexpr (kValues) put_aux(eval(std::forward<V>(value)));
    return Var::aux(n_aux_++);
  }
  /// A new public input (bellperson's alloc_input).
  template <class V>
  Var alloc_input(V&& value) {
    if constexpr (kValues) {
      if (in_out_) {
        if (n_inputs_ >= in_end_) overflow("inputs", in_end_);
        in_out_[n_inputs_ - in_first_] = eval(std::forward<V>(value));
      } else {
        witness_.inputs.push_back(eval(std::forward<V>(value)));
      }
    }
    return Var::input(n_inputs_++);
  }
  /// A new aux variable whose value is a bit (0 or 1); cheaper than alloc(Fr) in witness mode.
  Var alloc_bit(bool value) {
    if constexpr (kValues) put_aux(value ? Fr::one() : Fr::zero());
    return Var::aux(n_aux_++);
  }

  /// A witness builder for one block of a larger circuit whose layout is known in advance (parallel
  /// witness generation): its variables are numbered from first_aux / first_input, as in the whole
  /// circuit, and their values go straight to aux[j − first_aux] and inputs[i − first_input]. Throws
  /// Error(kInternal) when the block allocates past the given spans. value() and witness() are not
  /// available on a slice.
  static Builder slice(std::span<Fr> aux, uint32_t first_aux, std::span<Fr> inputs,
                       uint32_t first_input) requires(kValues && !kRecord) {
    Builder b;
    b.n_aux_ = b.aux_first_ = first_aux;
    b.aux_end_ = first_aux + (uint32_t)aux.size();
    b.aux_out_ = aux.data();
    b.n_inputs_ = b.in_first_ = first_input;
    b.in_end_ = first_input + (uint32_t)inputs.size();
    b.in_out_ = inputs.data();
    return b;
  }

  /// Adds the constraint ⟨A,w⟩·⟨B,w⟩ = ⟨C,w⟩; `fill(Lc& A, Lc& B, Lc& C)` builds the three linear
  /// combinations (called in the recording modes only).
  template <class F>
  void enforce(F&& fill) {
    n_constraints_++;
    if constexpr (kRecord) {
      a_.clear();
      b_.clear();
      c_.clear();
      fill(a_, b_, c_);
      append(rec_.a, a_);
      append(rec_.b, b_);
      append(rec_.c, c_);
    }
  }

  uint32_t num_inputs() const { return n_inputs_; }  ///< ONE included
  uint32_t num_aux() const { return n_aux_; }
  size_t num_constraints() const { return n_constraints_; }  ///< synthesized, no input rows

  /// The value of v (witness modes).
  const Fr& value(Var v) const requires kValues { return witness_[v]; }
  const Witness& witness() const requires kValues { return witness_; }
  Witness take_witness() requires kValues { return std::move(witness_); }
  /// The recording so far, with the current variable counts.
  Recording take_recording() requires kRecord {
    rec_.n_inputs = n_inputs_;
    rec_.n_aux = n_aux_;
    return std::move(rec_);
  }
  /// The first recorded constraint the current values violate, or nullopt (TestCs).
  std::optional<size_t> first_unsatisfied() requires(kValues&& kRecord) {
    rec_.n_inputs = n_inputs_;
    rec_.n_aux = n_aux_;
    return rec_.first_unsatisfied(witness_);
  }
  /// Changes a value after synthesis (tests: a wrong witness must violate some row).
  void set_value(Var v, const Fr& x) requires kValues { witness_[v] = x; }

 private:
  template <class V>
  static Fr eval(V&& v) {
    if constexpr (std::is_invocable_v<V>)
      return v();
    else
      return Fr(v);
  }
  void append(RecordedMatrix& m, Lc& lc);
  void put_aux(const Fr& v) {
    if (aux_out_) {
      if (n_aux_ >= aux_end_) overflow("aux values", aux_end_);
      aux_out_[n_aux_ - aux_first_] = v;
    } else {
      witness_.aux.push_back(v);
    }
  }
  [[noreturn]] static void overflow(const char* what, uint32_t end) {
    throw Error(ErrorCode::kInternal, std::string("circuit block allocates ") + what +
                                          " past its slice (end " + std::to_string(end) + ")");
  }

  // Slice mode (slice()): where values go, and the index ranges the block owns.
  Fr* aux_out_ = nullptr;
  Fr* in_out_ = nullptr;
  uint32_t aux_first_ = 0, aux_end_ = 0, in_first_ = 0, in_end_ = 0;
  uint32_t n_inputs_ = 1;
  uint32_t n_aux_ = 0;
  size_t n_constraints_ = 0;
  [[no_unique_address]] std::conditional_t<kValues, Witness, std::monostate> witness_{};
  [[no_unique_address]] std::conditional_t<kRecord, Recording, std::monostate> rec_{};
  [[no_unique_address]] std::conditional_t<kRecord, Lc, std::monostate> a_{}, b_{}, c_{};
};

using CountCs = Builder<false, false>;
using RecordCs = Builder<false, true>;
using WitnessCs = Builder<true, false>;
using TestCs = Builder<true, true>;

/// Compacts `lc` and appends it as a new row of m, its coefficients interned in `table`.
void append_row(RecordedMatrix& m, CoeffTable& table, Lc& lc);

template <bool V, bool R>
void Builder<V, R>::append(RecordedMatrix& m, Lc& lc) {
  append_row(m, rec_.coeffs, lc);
}

}  // namespace cuzk::circuits
