// The C ABI (include/cuzk/cuzk.h): catches every exception and turns it into a status and a message.
#include "cuzk/cuzk.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "ff/bytes.hpp"
#include "formats/params.hpp"
#include "formats/proof_zcash.hpp"
#include "formats/r1cs.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/r1cs.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"
#include "util/thread_pool.hpp"
// The GPU backend lives in cuzk_cuda, which links cuzk: this file is its own target (cuzk_capi), which
// links cuzk_cuda and so gets CUZK_WITH_CUDA in a CUDA build.
#ifdef CUZK_WITH_CUDA
#include "cuda/gpu_backend.hpp"
#endif

struct cuzk_prover {
  cuzk::ConstraintSystem rows;
  cuzk::ProvingKey key;
  cuzk::CpuBackend backend;
  cuzk_prover(cuzk::Zkey zk, unsigned threads)
      : rows(cuzk::zkey_constraint_system(zk)),
        key(cuzk::proving_key(std::move(zk), rows)),
        backend(threads) {}
};

/// A proving key, its compact rows and its verifying key. Shared pointers: pending proofs keep the key
/// and the rows alive past cuzk_circuit_free.
struct cuzk_circuit {
  cuzk_circuit_format format = CUZK_FORMAT_ZKEY;
  std::shared_ptr<const cuzk::ProvingKey> key;
  std::shared_ptr<const cuzk::CompactCs> rows;
  cuzk::VerifyingKey vk;
};

/// A ProverBackend and a CPU pool for the host work of a call (decoding witnesses): the CPU backend's
/// own pool, or one of its own beside a GPU backend.
struct cuzk_backend {
  cuzk_backend_kind kind = CUZK_BACKEND_CPU;
  std::unique_ptr<cuzk::ProverBackend> impl;
  cuzk::CpuBackend* cpu = nullptr;              // impl, when kind is CPU
  std::unique_ptr<cuzk::ThreadPool> host_pool;  // GPU only
  cuzk::ThreadPool& pool() { return cpu ? cpu->pool() : *host_pool; }
};

/// Proofs in flight, and how the circuit they belong to was loaded (for error messages).
struct cuzk_pending {
  cuzk::PendingProof proofs;
  cuzk_circuit_format format = CUZK_FORMAT_ZKEY;
};

namespace {

using cuzk::Error;
using cuzk::ErrorCode;
using cuzk::Fr;

void set_err(char* err, size_t len, const std::string& msg) {
  if (!err || len == 0) return;
  size_t n = std::min(len - 1, msg.size());
  std::memcpy(err, msg.data(), n);
  err[n] = '\0';
}

template <class F>
cuzk_status guard(char* err, size_t len, F&& f) {
  try {
    f();
    set_err(err, len, "");
    return CUZK_OK;
  } catch (const cuzk::Error& e) {
    set_err(err, len, e.what());
    return static_cast<cuzk_status>(e.code());
  } catch (const std::bad_alloc&) {
    set_err(err, len, "out of memory");
    return CUZK_INTERNAL;
  } catch (const std::exception& e) {
    set_err(err, len, e.what());
    return CUZK_INTERNAL;
  } catch (...) {
    set_err(err, len, "unknown error");
    return CUZK_INTERNAL;
  }
}

[[noreturn]] void bad_arg(const std::string& msg) { throw Error(ErrorCode::kInvalidArgument, msg); }

[[noreturn]] void non_canonical(const std::string& what) {
  throw Error(ErrorCode::kInvalidEncoding,
              what +
                  ": not a canonical field element (a little-endian integer >= r, the BLS12-381 scalar "
                  "field modulus; values must be plain integers < r, not Montgomery form)");
}

/// One field element from its canonical little-endian bytes; `what` names it in the error.
Fr decode_fr(const uint8_t* bytes, const std::string& what) {
  Fr v;
  if (!cuzk::from_bytes_le(bytes, v)) non_canonical(what);
  return v;
}

/// `n` values of `bytes` as Fr (Montgomery form) on `pool`. Throws Error(kInvalidEncoding) naming the
/// lowest index of a value ≥ r ("<prefix>witness[i]").
cuzk::BigVector<Fr> decode_values(const uint8_t* bytes, size_t n, cuzk::ThreadPool& pool,
                                  const std::string& prefix) {
  cuzk::BigVector<Fr> w(n);
  std::atomic<size_t> bad{n};
  pool.parallel_for(
      n,
      [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; i++)
          if (!cuzk::from_bytes_le(bytes + i * CUZK_FR_BYTES, w[i])) {
            size_t cur = bad.load();
            while (i < cur && !bad.compare_exchange_weak(cur, i)) {
            }
            return;
          }
      },
      size_t{1} << 16);
  if (bad.load() < n) non_canonical(prefix + "witness[" + std::to_string(bad.load()) + "]");
  return w;
}

/// The deferred assignment of one witness (a, b, c left to the backend, which evaluates them from the
/// circuit's compact rows). `prefix` starts every error message ("" or "partition k: ").
cuzk::Assignment assignment_of(const cuzk_circuit& c, cuzk_backend& b, const uint8_t* witness,
                               size_t n_values, const std::string& prefix) {
  const cuzk::CompactCs& rows = *c.rows;
  if (!witness) bad_arg(prefix + "the witness pointer is NULL");
  if (n_values != rows.n_vars())
    bad_arg(prefix + "the witness has " + cuzk::counted(n_values, "value") + " but the circuit has " +
            cuzk::counted(rows.n_vars(), "variable") + " (" + cuzk::counted(rows.n_inputs, "input") +
            ", ONE included, and " + std::to_string(rows.n_aux) + " aux)");
  cuzk::BigVector<Fr> w = decode_values(witness, n_values, b.pool(), prefix);
  if (!w[0].is_one()) bad_arg(prefix + "witness[0] must be 1 (the constant ONE), as a little-endian integer");
  try {
    return cuzk::deferred_assignment(c.rows, w, b.pool());
  } catch (const Error& e) {
    throw Error(e.code(), prefix + e.what());
  }
}

/// The blinding scalars of `k` partitions: NULL (random, drawn by the prover) or k consecutive scalars.
std::vector<Fr> decode_scalars(const uint8_t* bytes, size_t k, const char* name) {
  std::vector<Fr> out;
  if (!bytes) return out;
  for (size_t i = 0; i < k; i++)
    out.push_back(decode_fr(bytes + i * CUZK_FR_BYTES,
                            k == 1 ? std::string(name) : std::string(name) + "[" + std::to_string(i) + "]"));
  return out;
}

/// A .zkey records no C matrix, so the prover cannot name the failing constraint (and its row check
/// would wrongly blame the key): say what is known instead.
[[noreturn]] void rethrow_unsatisfied(const Error& e, cuzk_circuit_format format) {
  if (e.code() != ErrorCode::kUnsatisfied || format != CUZK_FORMAT_ZKEY) throw e;
  std::string msg = e.what();
  const size_t semi = msg.find(';');
  if (semi != std::string::npos) msg.resize(semi);
  throw Error(ErrorCode::kUnsatisfied,
              msg +
                  " (a .zkey records no C matrix, so the failing constraint cannot be named; check the "
                  "witness against the circuit's .r1cs)");
}

void write_proofs(const std::vector<cuzk::ProveResult>& res, uint8_t* out) {
  for (size_t i = 0; i < res.size(); i++) {
    const auto bytes = cuzk::encode_proof_zcash(res[i].proof);
    std::memcpy(out + i * CUZK_PROOF_BYTES, bytes.data(), CUZK_PROOF_BYTES);
  }
}

std::shared_ptr<const cuzk::ProvingKey> own(cuzk::ProvingKey key) {
  return std::make_shared<const cuzk::ProvingKey>(std::move(key));
}

}  // namespace

extern "C" {

const char* cuzk_version(void) { return "0.1.0"; }

cuzk_status cuzk_prover_new(const char* zkey_path, unsigned threads, cuzk_prover** out, char* err,
                            size_t err_len) {
  return guard(err, err_len, [&] {
    if (!zkey_path || !out)
      throw cuzk::Error(cuzk::ErrorCode::kInvalidArgument, "cuzk_prover_new: null argument");
    *out = nullptr;
    *out = new cuzk_prover(cuzk::read_zkey(zkey_path), threads);
  });
}

cuzk_status cuzk_prove_files(cuzk_prover* prover, const char* wtns_path, const char* proof_json_path,
                             const char* public_json_path, char* err, size_t err_len) {
  return guard(err, err_len, [&] {
    if (!prover || !wtns_path || !proof_json_path || !public_json_path)
      throw cuzk::Error(cuzk::ErrorCode::kInvalidArgument, "cuzk_prove_files: null argument");
    std::vector<cuzk::Fr> w = cuzk::read_wtns(wtns_path);
    if (w.size() != prover->rows.n_vars())
      throw cuzk::Error(cuzk::ErrorCode::kInvalidArgument,
                        std::string(wtns_path) + ": the witness has " + cuzk::counted(w.size(), "value") +
                            " but the zkey expects " + std::to_string(prover->rows.n_vars()));
    cuzk::ProveResult res =
        cuzk::prove(prover->key, cuzk::synthesize(prover->rows, w, prover->backend.pool()), prover->backend);
    cuzk::write_proof_and_public_json(proof_json_path, res.proof, public_json_path, res.public_inputs);
  });
}

cuzk_status cuzk_verify_files(const char* vk_json_path, const char* public_json_path,
                              const char* proof_json_path, int* valid, char* err, size_t err_len) {
  return guard(err, err_len, [&] {
    if (!vk_json_path || !public_json_path || !proof_json_path || !valid)
      throw cuzk::Error(cuzk::ErrorCode::kInvalidArgument, "cuzk_verify_files: null argument");
    *valid = 0;
    auto vk = cuzk::read_vk_json(vk_json_path);
    auto pub = cuzk::read_public_json(public_json_path);
    auto proof = cuzk::read_proof_json(proof_json_path);
    *valid = cuzk::verify(vk.vk, pub, proof) ? 1 : 0;
  });
}

void cuzk_prover_free(cuzk_prover* prover) { delete prover; }

// ---- the memory API ----------------------------------------------------------------------------------

cuzk_status cuzk_circuit_load_zkey(const char* zkey_path, unsigned threads, cuzk_circuit** out, char* err,
                                   size_t err_len) {
  if (out) *out = nullptr;
  return guard(err, err_len, [&] {
    if (!zkey_path || !out) bad_arg("cuzk_circuit_load_zkey: NULL argument");
    auto c = std::make_unique<cuzk_circuit>();
    c->format = CUZK_FORMAT_ZKEY;
    cuzk::Zkey zk = cuzk::read_zkey(zkey_path);
    cuzk::ThreadPool pool(threads);
    {
      const cuzk::ConstraintSystem cs = cuzk::zkey_constraint_system(zk);
      c->key = own(cuzk::proving_key(std::move(zk), cs));
      c->rows = std::make_shared<const cuzk::CompactCs>(cuzk::compact(cs, pool));
    }
    cuzk::check_key_fits(*c->key, *c->rows, zkey_path);
    c->vk = c->key->verifying_key();
    *out = c.release();
  });
}

cuzk_status cuzk_circuit_load_params(const char* params_path, const char* r1cs_path, unsigned flags,
                                     unsigned threads, cuzk_circuit** out, char* err, size_t err_len) {
  if (out) *out = nullptr;
  return guard(err, err_len, [&] {
    if (!params_path || !r1cs_path || !out) bad_arg("cuzk_circuit_load_params: NULL argument");
    if (flags & ~CUZK_LOAD_SKIP_SUBGROUP_CHECK)
      bad_arg("cuzk_circuit_load_params: unknown flags " +
              std::to_string(flags & ~CUZK_LOAD_SKIP_SUBGROUP_CHECK) +
              " (known: CUZK_LOAD_SKIP_SUBGROUP_CHECK = 1)");
    auto c = std::make_unique<cuzk_circuit>();
    c->format = CUZK_FORMAT_BELLPERSON;
    cuzk::ThreadPool pool(threads);
    {
      const cuzk::ConstraintSystem cs =
          cuzk::constraint_system(cuzk::read_r1cs(r1cs_path), cuzk::HConvention::kBellperson);
      cuzk::ParamsReadOptions opt;
      opt.subgroup =
          (flags & CUZK_LOAD_SKIP_SUBGROUP_CHECK) ? cuzk::SubgroupCheck::kNo : cuzk::SubgroupCheck::kYes;
      opt.pool = &pool;
      c->key = own(cuzk::read_params(params_path, opt));
      cuzk::check_key_fits(*c->key, cs, std::string(params_path) + " and " + r1cs_path);
      c->rows = std::make_shared<const cuzk::CompactCs>(cuzk::compact(cs, pool));
    }
    c->vk = c->key->verifying_key();
    *out = c.release();
  });
}

cuzk_status cuzk_circuit_shape(const cuzk_circuit* circuit, cuzk_shape* out, char* err, size_t err_len) {
  return guard(err, err_len, [&] {
    if (!circuit || !out) bad_arg("cuzk_circuit_shape: NULL argument");
    const cuzk::CompactCs& r = *circuit->rows;
    *out = cuzk_shape{};
    out->format = (uint32_t)circuit->format;
    out->n_inputs = r.n_inputs;
    out->n_public = r.n_inputs - 1;
    out->n_aux = r.n_aux;
    out->n_vars = r.n_vars();
    out->log_n = (uint32_t)r.log_n;
    out->domain_size = r.domain_size();
    out->nnz = r.nnz();
  });
}

void cuzk_circuit_free(cuzk_circuit* circuit) { delete circuit; }

cuzk_status cuzk_backend_new(int kind, int device, unsigned threads, cuzk_backend** out, char* err,
                             size_t err_len) {
  if (out) *out = nullptr;
  return guard(err, err_len, [&] {
    if (!out) bad_arg("cuzk_backend_new: NULL out");
    if (kind != CUZK_BACKEND_AUTO && kind != CUZK_BACKEND_CPU && kind != CUZK_BACKEND_GPU)
      bad_arg("cuzk_backend_new: unknown backend kind " + std::to_string(kind) +
              " (expected CUZK_BACKEND_AUTO, CUZK_BACKEND_CPU or CUZK_BACKEND_GPU)");
    if (device < 0) bad_arg("cuzk_backend_new: device " + std::to_string(device) + " is negative");
    auto b = std::make_unique<cuzk_backend>();
#ifdef CUZK_WITH_CUDA
    const int n_gpus = kind == CUZK_BACKEND_CPU ? 0 : cuzk::gpu_device_count();
    if (kind == CUZK_BACKEND_GPU && n_gpus == 0)
      throw Error(ErrorCode::kCuda, "CUZK_BACKEND_GPU: no CUDA device is visible to this process");
    if (n_gpus > 0) {
      if (device >= n_gpus)
        bad_arg("cuzk_backend_new: device " + std::to_string(device) + " does not exist (" +
                cuzk::counted(n_gpus, "CUDA device") + " visible)");
      cuzk::GpuBackendOptions o;
      o.device = device;
      o.g2_threads = threads;
      b->kind = CUZK_BACKEND_GPU;
      b->impl = std::make_unique<cuzk::GpuBackend>(o);
      b->host_pool = std::make_unique<cuzk::ThreadPool>(threads);
      *out = b.release();
      return;
    }
#else
    if (kind == CUZK_BACKEND_GPU)
      throw Error(ErrorCode::kCuda,
                  "CUZK_BACKEND_GPU: this library was built without CUDA (use CUZK_BACKEND_CPU or "
                  "CUZK_BACKEND_AUTO)");
#endif
    auto cpu = std::make_unique<cuzk::CpuBackend>(threads);
    b->kind = CUZK_BACKEND_CPU;
    b->cpu = cpu.get();
    b->impl = std::move(cpu);
    *out = b.release();
  });
}

cuzk_status cuzk_backend_info(const cuzk_backend* backend, cuzk_backend_kind* kind, char* name,
                              size_t name_len, char* err, size_t err_len) {
  return guard(err, err_len, [&] {
    if (!backend) bad_arg("cuzk_backend_info: NULL backend");
    if (kind) *kind = backend->kind;
    set_err(name, name_len, backend->impl->name());
  });
}

void cuzk_backend_free(cuzk_backend* backend) { delete backend; }

cuzk_status cuzk_prove(const cuzk_circuit* circuit, cuzk_backend* backend, const uint8_t* witness,
                       size_t n_values, const uint8_t* r, const uint8_t* s, uint8_t* proof_out,
                       uint8_t* public_out, char* err, size_t err_len) {
  return guard(err, err_len, [&] {
    if (!circuit || !backend || !witness || !proof_out)
      bad_arg("cuzk_prove: NULL argument (circuit, backend, witness and proof_out are required)");
    cuzk::ProveOptions opt;
    if (r) opt.r = decode_fr(r, "r");
    if (s) opt.s = decode_fr(s, "s");
    std::vector<cuzk::Assignment> parts;
    parts.push_back(assignment_of(*circuit, *backend, witness, n_values, ""));
    std::vector<cuzk::ProveResult> res;
    try {
      res = cuzk::prove_finalize(cuzk::prove_start(circuit->key, std::move(parts), *backend->impl, opt));
    } catch (const Error& e) {
      rethrow_unsatisfied(e, circuit->format);
    }
    write_proofs(res, proof_out);
    if (public_out)
      for (size_t i = 0; i < res[0].public_inputs.size(); i++)
        cuzk::to_bytes_le(res[0].public_inputs[i], public_out + i * CUZK_FR_BYTES);
  });
}

cuzk_status cuzk_prove_start(const cuzk_circuit* circuit, cuzk_backend* backend,
                             const uint8_t* const* witnesses, size_t partitions, size_t n_values,
                             const uint8_t* r, const uint8_t* s, cuzk_pending** out, char* err,
                             size_t err_len) {
  if (out) *out = nullptr;
  return guard(err, err_len, [&] {
    if (!circuit || !backend || !witnesses || !out)
      bad_arg("cuzk_prove_start: NULL argument (circuit, backend, witnesses and out are required)");
    if (partitions == 0) bad_arg("cuzk_prove_start: no partitions (partitions = 0)");
    cuzk::ProveOptions opt;
    opt.r_each = decode_scalars(r, partitions, "r");
    opt.s_each = decode_scalars(s, partitions, "s");
    // r_each and s_each are all-or-nothing in the prover: draw the missing half here.
    if (opt.r_each.empty() != opt.s_each.empty()) {
      auto& missing = opt.r_each.empty() ? opt.r_each : opt.s_each;
      for (size_t i = 0; i < partitions; i++) missing.push_back(cuzk::random_fr_nonzero());
    }
    std::vector<cuzk::Assignment> parts;
    parts.reserve(partitions);
    for (size_t k = 0; k < partitions; k++)
      parts.push_back(
          assignment_of(*circuit, *backend, witnesses[k], n_values,
                        partitions > 1 ? "partition " + std::to_string(k) + ": " : std::string()));
    auto p = std::make_unique<cuzk_pending>();
    p->format = circuit->format;
    p->proofs = cuzk::prove_start(circuit->key, std::move(parts), *backend->impl, opt);
    *out = p.release();
  });
}

cuzk_status cuzk_pending_partitions(const cuzk_pending* pending, size_t* partitions, char* err,
                                    size_t err_len) {
  return guard(err, err_len, [&] {
    if (!pending || !partitions) bad_arg("cuzk_pending_partitions: NULL argument");
    *partitions = pending->proofs.size();
  });
}

cuzk_status cuzk_prove_finalize(cuzk_pending* pending, uint8_t* proofs_out, size_t proofs_len, char* err,
                                size_t err_len) {
  std::unique_ptr<cuzk_pending> p(pending);  // consumed in every case
  return guard(err, err_len, [&] {
    if (!p) bad_arg("cuzk_prove_finalize: NULL pending");
    const size_t n = p->proofs.size();
    if (!proofs_out) bad_arg("cuzk_prove_finalize: NULL proofs_out (the pending proofs were freed)");
    if (proofs_len != n * CUZK_PROOF_BYTES)
      bad_arg("cuzk_prove_finalize: proofs_len is " + std::to_string(proofs_len) + " bytes but " +
              cuzk::counted(n, "partition") + " need " + std::to_string(n * CUZK_PROOF_BYTES) +
              " (the pending proofs were freed)");
    std::vector<cuzk::ProveResult> res;
    try {
      res = cuzk::prove_finalize(std::move(p->proofs));
    } catch (const Error& e) {
      rethrow_unsatisfied(e, p->format);
    }
    write_proofs(res, proofs_out);
  });
}

void cuzk_pending_free(cuzk_pending* pending) { delete pending; }

cuzk_status cuzk_verify(const cuzk_circuit* circuit, const uint8_t* public_inputs, size_t n_public,
                        const uint8_t* proof, int* valid, char* err, size_t err_len) {
  if (valid) *valid = 0;
  return guard(err, err_len, [&] {
    if (!circuit || !proof || !valid || (!public_inputs && n_public > 0))
      bad_arg("cuzk_verify: NULL argument (circuit, proof, valid, and public_inputs when n_public > 0)");
    if (n_public != circuit->vk.n_public())
      bad_arg("cuzk_verify: " + cuzk::counted(n_public, "public input") + " given but the circuit has " +
              std::to_string(circuit->vk.n_public()));
    std::vector<Fr> pub;
    for (size_t i = 0; i < n_public; i++)
      pub.push_back(decode_fr(public_inputs + i * CUZK_FR_BYTES, "public input " + std::to_string(i)));
    const cuzk::Groth16Proof pr = cuzk::decode_proof_zcash(std::span<const uint8_t>(proof, CUZK_PROOF_BYTES));
    *valid = cuzk::verify(circuit->vk, pub, pr) ? 1 : 0;
  });
}

}  // extern "C"
