#include "groth16/prover.hpp"

#include <sys/random.h>

#include <chrono>

#include "ff/bytes.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {
namespace {

void report(const ProveOptions& opt, const char* phase) {
  if (opt.progress) opt.progress(phase);
}

std::string count_mismatch(const char* what, size_t have, size_t want, const std::string& why) {
  return std::string(what) + " has " + std::to_string(have) + " points but the assignment needs " +
         std::to_string(want) + " (" + why + ")";
}

/// Explains why `res` does not verify, for the error message. `forgotten`: the partition's values were
/// borrowed and are gone (prove_start forgets them), so no row can be named.
std::string unsatisfied_reason(const Assignment& asg, bool forgotten, const ProveOptions& opt) {
  std::string msg = "the proof does not verify: the witness does not satisfy the circuit";
  if (forgotten)
    return msg +
           " (or the parameters belong to another circuit; its values were read only while proving started: "
           "the caller's buffers, or freed once the device had them, so the failing row cannot be named "
           "here)";
  if (asg.rows && asg.rows->convention == HConvention::kSnarkjs)
    return msg + " (a .zkey records no C matrix, so the failing constraint cannot be named here)";
  if (asg.rows) {
    // a, b, c were made by the backend: evaluate them here (only on this failure path).
    ThreadPool pool;
    Assignment full;
    full.log_n = asg.log_n;
    evaluate_abc(*asg.rows, witness_of(asg), full.a.vec(), full.b.vec(), full.c.vec(), pool);
    const long row = first_unsatisfied_row(full);
    if (row >= 0) return msg + "; first unsatisfied row: #" + std::to_string(row);
    return msg + "; its a, b, c satisfy every row, so the key does not belong to this circuit";
  }
  long row = first_unsatisfied_row(asg);
  if (row >= 0) return msg + "; first unsatisfied row: #" + std::to_string(row);
  if (opt.r1cs) {
    const R1cs& cs = *opt.r1cs;
    const size_t n_vars = asg.inputs.size() + asg.aux.size();
    if (cs.n_wires != n_vars)
      return msg + " (and the .r1cs has " + counted(cs.n_wires, "wire") + " but the key " +
             counted(n_vars, "variable") + ": they belong to different circuits)";
    std::vector<Fr> w(asg.inputs.begin(), asg.inputs.end());
    w.insert(w.end(), asg.aux.begin(), asg.aux.end());
    if (auto bad = first_unsatisfied(cs, w))
      return msg + "; first unsatisfied constraint: #" + std::to_string(*bad);
    return msg + "; the .r1cs is satisfied, so the key does not belong to this circuit";
  }
  return msg;
}

}  // namespace

Fr random_fr_nonzero() {
  for (;;) {
    uint8_t buf[64];
    size_t got = 0;
    while (got < sizeof buf) {
      ssize_t k = getrandom(buf + got, sizeof buf - got, 0);
      if (k < 0) throw Error(ErrorCode::kIo, "getrandom failed: cannot draw the blinding scalars");
      got += (size_t)k;
    }
    Fr x = reduce_bytes_le<Fr>(buf, sizeof buf);
    if (!x.is_zero()) return x;
  }
}

void check_shapes(const ProvingKey& key, const Assignment& asg) {
  auto fail = [](const std::string& m) { throw Error(ErrorCode::kInvalidArgument, m); };
  if (asg.log_n != key.log_n)
    fail("the assignment's domain is 2^" + std::to_string(asg.log_n) + " but the key's is 2^" +
         std::to_string(key.log_n));
  const size_t n = key.domain_size();
  if (asg.inputs.size() != key.n_inputs)
    fail("the assignment has " + std::to_string(asg.inputs.size()) + " inputs but the key " +
         std::to_string(key.n_inputs) + " (ONE included)");
  if (asg.aux.size() != key.n_aux)
    fail("the assignment has " + std::to_string(asg.aux.size()) + " aux values but the key " +
         std::to_string(key.n_aux));
  if (asg.inputs.empty() || !asg.inputs[0].is_one()) fail("input 0 must be 1 (the constant ONE)");
  if (key.ic.size() != key.n_inputs)
    fail("the key has " + std::to_string(key.ic.size()) + " IC points for " + std::to_string(key.n_inputs) +
         " inputs");
  if (asg.rows) {
    const CompactCs& r = *asg.rows;
    if (r.log_n != key.log_n || r.n_inputs != key.n_inputs || r.n_aux != key.n_aux ||
        r.convention != key.convention)
      fail("the assignment's constraint system (domain 2^" + std::to_string(r.log_n) + ", " +
           std::to_string(r.n_inputs) + " inputs, " + std::to_string(r.n_aux) + " aux) does not fit the key");
    if (!asg.a.empty() || !asg.b.empty() || !asg.c.empty())
      fail("an assignment with deferred a, b, c must not carry them too");
  } else if (asg.a.size() > n || asg.b.size() != asg.a.size())
    fail("a and b must have the same number of values, at most " + std::to_string(n) +
         " (the domain); they have " + std::to_string(asg.a.size()) + " and " + std::to_string(asg.b.size()));
  if (!asg.rows && key.convention == HConvention::kBellperson && asg.c.size() != asg.a.size())
    fail("c must have as many values as a (" + std::to_string(asg.a.size()) + "); it has " +
         std::to_string(asg.c.size()));
  if (asg.a_aux.size() != key.n_aux || asg.b_aux.size() != key.n_aux || asg.b_inp.size() != key.n_inputs)
    fail("the density bitmaps have " + std::to_string(asg.a_aux.size()) + "/" +
         std::to_string(asg.b_inp.size()) + "/" + std::to_string(asg.b_aux.size()) +
         " bits (a_aux/b_inp/b_aux) for " + std::to_string(key.n_inputs) + " inputs and " +
         std::to_string(key.n_aux) + " aux");
  const size_t na = key.n_inputs + asg.a_aux.popcount();
  if (key.count(KeyVector::kA) != na)
    fail(count_mismatch("the key's A", key.count(KeyVector::kA), na, "inputs + popcount(a_aux)"));
  const size_t nb = asg.b_inp.popcount() + asg.b_aux.popcount();
  if (key.count(KeyVector::kBG1) != nb)
    fail(count_mismatch("the key's B_G1", key.count(KeyVector::kBG1), nb,
                        "popcount(b_inp) + popcount(b_aux)"));
  if (key.count(KeyVector::kBG2) != nb)
    fail(count_mismatch("the key's B_G2", key.count(KeyVector::kBG2), nb,
                        "popcount(b_inp) + popcount(b_aux)"));
  if (key.count(KeyVector::kL) != key.n_aux)
    fail(count_mismatch("the key's L", key.count(KeyVector::kL), key.n_aux, "one per aux"));
  if (key.count(KeyVector::kH) != key.h_size())
    fail(count_mismatch("the key's H", key.count(KeyVector::kH), key.h_size(),
                        key.convention == HConvention::kBellperson ? "n − 1" : "n"));
}

void check_key_fits(const ProvingKey& key, const KeyShape& c, const std::string& what) {
  if (key.log_n == c.log_n && key.n_inputs == c.n_inputs && key.n_aux == c.n_aux &&
      key.count(KeyVector::kA) == c.a_points && key.count(KeyVector::kBG1) == c.b_points &&
      key.convention == c.convention)
    return;
  throw Error(ErrorCode::kInvalidArgument,
              what + " belong to different circuits: the key has domain 2^" + std::to_string(key.log_n) +
                  ", " + std::to_string(key.n_inputs) + " inputs, " + std::to_string(key.n_aux) + " aux, " +
                  std::to_string(key.count(KeyVector::kA)) + " A and " +
                  std::to_string(key.count(KeyVector::kBG1)) + " B points; the constraints need 2^" +
                  std::to_string(c.log_n) + ", " + std::to_string(c.n_inputs) + ", " +
                  std::to_string(c.n_aux) + ", " + std::to_string(c.a_points) + " and " +
                  std::to_string(c.b_points));
}

void check_key_fits(const ProvingKey& key, const ConstraintSystem& cs, const std::string& what) {
  check_key_fits(key,
                 KeyShape{cs.convention, cs.log_n, cs.n_inputs, cs.n_aux, cs.n_inputs + cs.a_aux.popcount(),
                          cs.b_inp.popcount() + cs.b_aux.popcount()},
                 what);
}

struct PendingProof::State {
  std::shared_ptr<const ProvingKey> key;
  std::vector<std::shared_ptr<const Assignment>> partitions;
  std::vector<std::unique_ptr<BackendPending>> pending;
  std::vector<bool> forgotten;  ///< the partition's borrowed values were dropped after the start
  std::vector<Fr> r, s;
  ProveOptions opt;
};

PendingProof::PendingProof() = default;
PendingProof::PendingProof(PendingProof&&) noexcept = default;
PendingProof& PendingProof::operator=(PendingProof&&) noexcept = default;
PendingProof::~PendingProof() = default;
size_t PendingProof::size() const { return st_ ? st_->partitions.size() : 0; }

PendingProof prove_start(std::shared_ptr<const ProvingKey> key, std::vector<Assignment> partitions,
                         ProverBackend& backend, const ProveOptions& opt) {
  std::vector<std::shared_ptr<const Assignment>> shared;
  for (Assignment& a : partitions) shared.push_back(std::make_shared<const Assignment>(std::move(a)));
  return prove_start(std::move(key), std::move(shared), backend, opt);
}

PendingProof prove_start(std::shared_ptr<const ProvingKey> key,
                         std::vector<std::shared_ptr<const Assignment>> partitions, ProverBackend& backend,
                         const ProveOptions& opt) {
  if (!key) throw Error(ErrorCode::kInvalidArgument, "prove_start: no proving key");
  for (size_t i = 0; i < partitions.size(); i++) {
    if (!partitions[i])
      throw Error(ErrorCode::kInvalidArgument, "partition " + std::to_string(i) + ": no assignment");
    try {
      check_shapes(*key, *partitions[i]);
    } catch (const Error& e) {
      throw Error(e.code(), "partition " + std::to_string(i) + ": " + e.what());
    }
  }
  if (opt.r_each.size() != opt.s_each.size() ||
      (!opt.r_each.empty() && opt.r_each.size() != partitions.size()))
    throw Error(ErrorCode::kInvalidArgument, "prove_start: " + std::to_string(opt.r_each.size()) + " r and " +
                                                 std::to_string(opt.s_each.size()) +
                                                 " s blinding scalars for " +
                                                 std::to_string(partitions.size()) + " partitions");
  auto st = std::make_unique<PendingProof::State>();
  st->key = key;
  st->opt = opt;
  for (size_t i = 0; i < partitions.size(); i++) {
    st->partitions.push_back(std::move(partitions[i]));
    st->r.push_back(!opt.r_each.empty() ? opt.r_each[i] : opt.r ? *opt.r : random_fr_nonzero());
    st->s.push_back(!opt.s_each.empty() ? opt.s_each[i] : opt.s ? *opt.s : random_fr_nonzero());
  }
  report(opt, "H and MSMs");
  std::vector<char> released(st->partitions.size(), 0);
  for (size_t i = 0; i < st->partitions.size(); i++) {
    std::function<void()> aux_read;
    if (opt.aux_read)
      aux_read = [&, i] {
        released[i] = 1;
        opt.aux_read(i);
      };
    st->pending.push_back(backend.start_releasing(key, st->partitions[i], aux_read));
  }
  st->opt.aux_read = {};  // the caller's callback is not kept past this call
  // Borrowed values are read only until here: keep what finalize needs (inputs) and forget the rest.
  for (size_t i = 0; i < st->partitions.size(); i++) {
    auto& a = st->partitions[i];
    st->forgotten.push_back(a->borrows() || released[i]);
    if (!a->borrows()) continue;
    auto kept = std::make_shared<Assignment>();
    kept->inputs = a->inputs;
    kept->log_n = a->log_n;
    a = std::move(kept);
  }
  PendingProof p;
  p.st_ = std::move(st);
  return p;
}

std::vector<ProveResult> prove_finalize(PendingProof&& p) {
  if (!p.st_)
    throw Error(ErrorCode::kInvalidArgument, "prove_finalize: empty or already finalized pending proof");
  std::unique_ptr<PendingProof::State> st = std::move(p.st_);
  const ProvingKey& key = *st->key;
  const VerifyingKey vk = key.verifying_key();
  std::vector<ProveResult> out;
  for (size_t i = 0; i < st->partitions.size(); i++) {
    PartitionSums sums = st->pending[i]->wait();
    st->pending[i].reset();
    const auto t0 = std::chrono::steady_clock::now();
    report(st->opt, "epilogue");
    const Fr &r = st->r[i], &s = st->s[i];
    G1 pi_a = G1::from_affine(key.alpha1) + sums.a + scalar_mul(key.delta1, r);
    G2 pi_b = G2::from_affine(key.beta2) + sums.b_g2 + scalar_mul(key.delta2, s);
    G1 b1 = G1::from_affine(key.beta1) + sums.b_g1 + scalar_mul(key.delta1, s);
    G1 pi_c = sums.l + sums.h + scalar_mul(pi_a, s) + scalar_mul(b1, r) - scalar_mul(key.delta1, r * s);
    std::vector<G1> g1s = {pi_a, pi_c};
    auto g1a = batch_to_affine(g1s);
    ProveResult res;
    res.proof = {g1a[0], pi_b.to_affine(), g1a[1]};
    const Assignment& asg = *st->partitions[i];
    res.public_inputs.assign(asg.inputs.begin() + 1, asg.inputs.end());
    res.stages = std::move(sums.stages);
    const auto t1 = std::chrono::steady_clock::now();
    res.stages.emplace_back("epilogue", std::chrono::duration<double, std::milli>(t1 - t0).count());
    if (st->opt.verify) {
      report(st->opt, "verifying");
      if (!verify(vk, res.public_inputs, res.proof)) {
        std::string msg = unsatisfied_reason(asg, st->forgotten[i], st->opt);
        if (st->partitions.size() > 1) msg = "partition " + std::to_string(i) + ": " + msg;
        throw Error(ErrorCode::kUnsatisfied, msg);
      }
      res.stages.emplace_back(
          "verify", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count());
    }
    out.push_back(std::move(res));
  }
  return out;
}

ProveResult prove(const ProvingKey& key, Assignment asg, ProverBackend& backend, const ProveOptions& opt) {
  // Borrow the key for the call: the pending proof never outlives it.
  std::shared_ptr<const ProvingKey> k(std::shared_ptr<const ProvingKey>(), &key);
  std::vector<Assignment> parts;
  parts.push_back(std::move(asg));
  return std::move(prove_finalize(prove_start(k, std::move(parts), backend, opt))[0]);
}

}  // namespace cuzk
