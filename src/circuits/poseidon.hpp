// The Poseidon gadget exactly as neptune v11.0.0's legacy circuit (src/circuit.rs `poseidon_hash`, the
// circuit Filecoin's trusted setups were made with; not circuit2): the same allocations, the same
// constraints in the same order, the same linear combinations in A, B and C.
//
// The state is a vector of "Elts" (circuit.rs `Elt`): an allocated variable, or a free linear
// combination with its value (bellpepper's `Num`). Linear layers only build linear combinations; the
// S-boxes allocate. Per S-box:
//   first round, allocated input x with keys pre, post (quintic_s_box_pre_add, 3 constraints):
//     (x + pre)² = l2  [square_sum];  l2² = l4  [square];  (x + pre)·l4 = r − post  [mul_sum]
//   first round, the tag (constant_quintic_s_box_pre_add_tag): (tag + pre)⁵ + post natively, 0 rows;
//   other rounds, a Num n with post key (quintic_s_box, 4 constraints; no key in the terminal round):
//     n·1 = l  [ensure_allocated];  l² = l2;  l2² = l4;  l·l4 = r − post  [mul_sum]
// and a final ensure_allocated of element 1 (1 constraint). Constraints = aux = 4·(8t + RP) − 3 − A.
#pragma once

#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "circuits/cs.hpp"
#include "circuits/num.hpp"
#include "hash/poseidon.hpp"
#include "util/error.hpp"

namespace cuzk::circuits {

namespace poseidon_detail {

/// circuit.rs `Elt`: an allocated variable, or a linear combination (kept in the recording modes only)
/// with its value (kept in the value modes only).
template <class CS>
struct Elt {
  bool allocated = false;
  Var var;                                                                         ///< when allocated
  Fr value = Fr::zero();                                                           ///< value modes
  [[no_unique_address]] std::conditional_t<CS::kRecord, Lc, std::monostate> lc{};  ///< when a Num

  /// `Elt::Allocated(n)`.
  static Elt from_allocated(const AllocatedNum& n) {
    Elt e;
    e.allocated = true;
    e.var = n.var;
    e.value = n.value;
    return e;
  }
  /// `Elt::num_from_fr`: the constant c as c·ONE.
  static Elt constant(const Fr& c) {
    Elt e;
    if constexpr (CS::kValues) e.value = c;
    if constexpr (CS::kRecord) e.lc.add(kOne, c);
    return e;
  }
  /// dst += s·this (the LC of `Elt::scale` added to an accumulator).
  void scaled_into(Lc& dst, const Fr& s) const requires CS::kRecord {
    if (allocated)
      dst.add(var, s);
    else
      dst.add(lc, s);
  }
};

/// `Elt::ensure_allocated(cs, true)`: an allocated Elt as is; a Num n gets a new variable v and the
/// row n · ONE = v.
template <class CS>
AllocatedNum ensure_allocated(CS& cs, const Elt<CS>& e) {
  if (e.allocated) return AllocatedNum{e.var, e.value};
  AllocatedNum v = AllocatedNum::alloc(cs, e.value);
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    if constexpr (CS::kRecord) a.add(e.lc);  // the lambda runs in the recording modes only
    b.add(kOne);
    c.add(v.var);
  });
  return v;
}

/// bellpepper `AllocatedNum::square`: alloc x², row x · x = x².
template <class CS>
AllocatedNum square(CS& cs, const AllocatedNum& x) {
  AllocatedNum r = AllocatedNum::alloc(cs, [&] { return x.value.sqr(); });
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    a.add(x.var);
    b.add(x.var);
    c.add(r.var);
  });
  return r;
}

/// circuit.rs `square_sum(to_add = pre, num = x)`: alloc (x + pre)², row (x + pre·ONE)·(x + pre·ONE) = r.
template <class CS>
AllocatedNum square_sum(CS& cs, const Fr& pre, const AllocatedNum& x) {
  AllocatedNum r = AllocatedNum::alloc(cs, [&] { return (x.value + pre).sqr(); });
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    a.add(x.var).add(kOne, pre);
    b.add(x.var).add(kOne, pre);
    c.add(r.var);
  });
  return r;
}

/// circuit.rs `mul_sum(a = l4, b = l, pre_add, post_add)`: alloc r = (l + pre)·l4 + post, row
/// (l [+ pre·ONE]) · l4 = r [− post·ONE].
template <class CS>
AllocatedNum mul_sum(CS& cs, const AllocatedNum& l4, const AllocatedNum& l, const Fr* pre, const Fr* post) {
  AllocatedNum r = AllocatedNum::alloc(cs, [&] {
    Fr v = l.value;
    if (pre) v += *pre;
    v *= l4.value;
    if (post) v += *post;
    return v;
  });
  cs.enforce([&](Lc& a, Lc& b, Lc& c) {
    a.add(l.var);
    if (pre) a.add(kOne, *pre);
    b.add(l4.var);
    c.add(r.var);
    if (post) c.add(kOne, -*post);
  });
  return r;
}

/// circuit.rs `quintic_s_box_pre_add` (first round, allocated inputs): 3 constraints.
template <class CS>
Elt<CS> quintic_s_box_pre_add(CS& cs, const Elt<CS>& e, const Fr& pre, const Fr& post) {
  AllocatedNum l = poseidon_detail::ensure_allocated(cs, e);
  AllocatedNum l2 = poseidon_detail::square_sum(cs, pre, l);
  AllocatedNum l4 = poseidon_detail::square(cs, l2);
  return Elt<CS>::from_allocated(poseidon_detail::mul_sum(cs, l4, l, &pre, &post));
}

/// circuit.rs `quintic_s_box`: ensure_allocated, two squarings, mul_sum with the post key (none in the
/// terminal round): 4 constraints for a Num.
template <class CS>
Elt<CS> quintic_s_box(CS& cs, const Elt<CS>& e, const Fr* post) {
  AllocatedNum l = poseidon_detail::ensure_allocated(cs, e);
  AllocatedNum l2 = poseidon_detail::square(cs, l);
  AllocatedNum l4 = poseidon_detail::square(cs, l2);
  return Elt<CS>::from_allocated(poseidon_detail::mul_sum(cs, l4, l, nullptr, post));
}

/// The state and the round logic of circuit.rs `PoseidonCircuit`.
template <class CS>
class Circuit {
 public:
  Circuit(std::span<const AllocatedNum> preimage, const PoseidonConstants& c)
      : c_(c), t_(c.width), elements_(c.width), scratch_(c.width) {
    elements_[0] = Elt<CS>::constant(c.domain_tag);
    for (int i = 1; i < t_; i++) elements_[i] = Elt<CS>::from_allocated(preimage[i - 1]);
  }

  /// `PoseidonCircuit::hash`.
  AllocatedNum hash(CS& cs) {
    full_round(cs, true, false);
    for (int i = 1; i < c_.half_full_rounds; i++) full_round(cs, false, false);
    for (int i = 0; i < c_.partial_rounds; i++) partial_round(cs);
    for (int i = 0; i < c_.half_full_rounds - 1; i++) full_round(cs, false, false);
    full_round(cs, false, true);
    return poseidon_detail::ensure_allocated(cs, elements_[1]);
  }

 private:
  const Fr& key(size_t i) const { return c_.compressed_round_constants[i]; }

  /// `PoseidonCircuit::full_round`.
  void full_round(CS& cs, bool first, bool last) {
    size_t off = offset_;
    const size_t pre_off = off;
    if (first) off += t_;
    const size_t post_off = off;
    const bool has_post = first || !last;
    if (has_post) off += t_;
    for (int i = 0; i < t_; i++) {
      if (first) {
        const Fr& pre = key(pre_off + i);
        const Fr& post = key(post_off + i);
        if (i == 0) {
          // constant_quintic_s_box_pre_add_tag: the tag's S-box is a constant.
          Fr v = poseidon_quintic(c_.domain_tag + pre) + post;
          elements_[0] = Elt<CS>::constant(v);
        } else {
          elements_[i] = poseidon_detail::quintic_s_box_pre_add(cs, elements_[i], pre, post);
        }
      } else {
        elements_[i] =
            poseidon_detail::quintic_s_box(cs, elements_[i], has_post ? &key(post_off + i) : nullptr);
      }
    }
    offset_ = off;
    product_mds();
  }

  /// `PoseidonCircuit::partial_round`.
  void partial_round(CS& cs) {
    const Fr& k = key(offset_++);
    elements_[0] = poseidon_detail::quintic_s_box(cs, elements_[0], &k);
    product_mds();
  }

  /// `PoseidonCircuit::product_mds`: the matrix by round index.
  void product_mds() {
    const int half = c_.half_full_rounds, sparse_offset = half - 1;
    if (round_ == sparse_offset)
      product_matrix(c_.pre_sparse);
    else if (round_ > sparse_offset && round_ < half + c_.partial_rounds)
      product_sparse(c_.sparse[round_ - sparse_offset - 1]);
    else
      product_matrix(c_.mds);
    round_++;
  }

  /// `product_mds_with_matrix`: out_j = Σ_i e_i·M(i, j), each a Num.
  void product_matrix(const PoseidonMatrix& m) {
    for (int j = 0; j < t_; j++) {
      Elt<CS>& out = scratch_[j];
      out.allocated = false;
      if constexpr (CS::kValues) {
        Fr v = Fr::zero();
        for (int i = 0; i < t_; i++) v += elements_[i].value * m(i, j);
        out.value = v;
      }
      if constexpr (CS::kRecord) {
        out.lc.clear();
        for (int i = 0; i < t_; i++) elements_[i].scaled_into(out.lc, m(i, j));
        out.lc.compact();
      }
    }
    std::swap(elements_, scratch_);
  }

  /// `product_mds_with_sparse_matrix`: e0′ = Σ_i w_hat_i·e_i; e_j′ = e_j + v_rest[j−1]·e0.
  void product_sparse(const PoseidonSparseMatrix& s) {
    Elt<CS> e0;
    if constexpr (CS::kValues) {
      Fr v = Fr::zero();
      for (int i = 0; i < t_; i++) v += elements_[i].value * s.w_hat[i];
      e0.value = v;
    }
    if constexpr (CS::kRecord) {
      for (int i = 0; i < t_; i++) elements_[i].scaled_into(e0.lc, s.w_hat[i]);
      e0.lc.compact();
    }
    const Elt<CS>& old0 = elements_[0];
    for (int j = 1; j < t_; j++) {
      Elt<CS>& e = elements_[j];
      if constexpr (CS::kRecord) {
        if (e.allocated) e.lc = Lc(e.var);  // upstream panics here; never reached (always a Num)
        old0.scaled_into(e.lc, s.v_rest[j - 1]);
      }
      e.allocated = false;
      if constexpr (CS::kValues) e.value += old0.value * s.v_rest[j - 1];
    }
    elements_[0] = std::move(e0);
  }

  const PoseidonConstants& c_;
  const int t_;
  std::vector<Elt<CS>> elements_, scratch_;
  size_t offset_ = 0;
  int round_ = 0;
};

}  // namespace poseidon_detail

/// The Poseidon hash of `preimage` (c.arity allocated numbers) as a circuit, constraint for constraint
/// neptune v11.0.0's legacy `poseidon_hash` (src/circuit.rs) for HashType::MerkleTree constants:
/// 4·(8t + RP) − 3 − A constraints and as many aux variables (311 / 377 / 505 / 598 for arity
/// 2 / 4 / 8 / 11). Returns the allocated output (state element 1), whose value (value modes) equals
/// the native poseidon_hash. Values are computed only when CS::kValues, linear combinations built only
/// when CS::kRecord. Throws Error(kInvalidArgument) when preimage.size() differs from the arity.
template <class CS>
AllocatedNum poseidon_hash(CS& cs, std::span<const AllocatedNum> preimage, const PoseidonConstants& c) {
  if (preimage.size() != size_t(c.arity))
    throw Error(ErrorCode::kInvalidArgument, "poseidon_hash (circuit): preimage has " +
                                                 std::to_string(preimage.size()) + " elements, arity is " +
                                                 std::to_string(c.arity));
  poseidon_detail::Circuit<CS> p(preimage, c);
  return p.hash(cs);
}

}  // namespace cuzk::circuits
