// The C ABI (include/cuzk/cuzk.h): catches every exception and turns it into a status and a message.
#include "cuzk/cuzk.h"

#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "formats/snarkjs_json.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

struct cuzk_prover {
  cuzk::ConstraintSystem rows;
  cuzk::ProvingKey key;
  cuzk::CpuBackend backend;
  cuzk_prover(cuzk::Zkey zk, unsigned threads)
      : rows(cuzk::zkey_constraint_system(zk)), key(cuzk::proving_key(std::move(zk), rows)), backend(threads) {}
};

namespace {

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

}  // namespace

extern "C" {

const char* cuzk_version(void) { return "0.1.0"; }

cuzk_status cuzk_prover_new(const char* zkey_path, unsigned threads, cuzk_prover** out, char* err, size_t err_len) {
  return guard(err, err_len, [&] {
    if (!zkey_path || !out) throw cuzk::Error(cuzk::ErrorCode::kInvalidArgument, "cuzk_prover_new: null argument");
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

cuzk_status cuzk_verify_files(const char* vk_json_path, const char* public_json_path, const char* proof_json_path,
                              int* valid, char* err, size_t err_len) {
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

}  // extern "C"
