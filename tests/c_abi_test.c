/* The C ABI from C (compiled as C): the file API on the tiny fixture, then the memory API — circuits from
 * a .zkey and from a bellperson .params + .r1cs, the CPU backend (and AUTO falling back to it), proofs from
 * in-memory witnesses synchronously and through start → finalize with several partitions (byte-identical
 * for fixed r, s), verification, several threads on one backend, and the error paths (status + message). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cuzk.h"

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
      return 1;                                            \
    }                                                      \
  } while (0)
#define RUN(f)                        \
  do {                                \
    if (f) return 1;                  \
    printf("c abi: %s passed\n", #f); \
  } while (0)

static const char* data_dir;
static const char* scratch_dir;

static void path_of(char* out, size_t len, const char* dir, const char* name) {
  snprintf(out, len, "%s/%s", dir, name);
}

/* The whole file in a malloc'd buffer (NULL if unreadable); *len its size. */
static uint8_t* read_all(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* buf = malloc(n > 0 ? (size_t)n : 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static int write_all(const char* path, const uint8_t* bytes, size_t len) {
  FILE* f = fopen(path, "wb");
  if (!f) return 0;
  size_t w = fwrite(bytes, 1, len, f);
  fclose(f);
  return w == len;
}

static uint32_t le32(const uint8_t* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The values of a .wtns v2 file (section 2, n8 = 32): canonical little-endian integers, which is exactly
 * the memory API's witness encoding. Returns a malloc'd copy, *n the number of values; NULL on failure. */
static uint8_t* read_wtns_values(const char* path, size_t* n) {
  size_t len = 0;
  uint8_t* f = read_all(path, &len);
  uint8_t* out = NULL;
  if (!f || len < 12 || memcmp(f, "wtns", 4) != 0) goto done;
  size_t pos = 12;
  while (pos + 12 <= len) {
    uint32_t type = le32(f + pos);
    uint64_t size = le32(f + pos + 4) | (uint64_t)le32(f + pos + 8) << 32;
    pos += 12;
    if (pos + size > len) goto done;
    if (type == 2 && size % CUZK_FR_BYTES == 0) {
      out = malloc(size);
      memcpy(out, f + pos, size);
      *n = size / CUZK_FR_BYTES;
      goto done;
    }
    pos += size;
  }
done:
  free(f);
  return out;
}

/* A field element with a small value, canonical little-endian. */
static void fr_u64(uint8_t* out, uint64_t v) {
  memset(out, 0, CUZK_FR_BYTES);
  for (int i = 0; i < 8; i++) out[i] = (uint8_t)(v >> (8 * i));
}

/* The witness [1, a·b, a, b] of the tiny circuit c = a·b (4 values). */
static void mul_witness(uint8_t* w, uint64_t a, uint64_t b) {
  fr_u64(w, 1);
  fr_u64(w + CUZK_FR_BYTES, a * b);
  fr_u64(w + 2 * CUZK_FR_BYTES, a);
  fr_u64(w + 3 * CUZK_FR_BYTES, b);
}

/* ---- the file API (cuzk_prover_*) ---------------------------------------------------------------- */

static int test_file_api(void) {
  char zkey[1024], wtns[1024], vk[1024], proof[1024], pub[1024], err[512];
  path_of(zkey, sizeof zkey, data_dir, "tiny/mul_final.zkey");
  path_of(wtns, sizeof wtns, data_dir, "tiny/mul.wtns");
  path_of(vk, sizeof vk, data_dir, "tiny/verification_key.json");
  path_of(proof, sizeof proof, scratch_dir, "c_abi_proof.json");
  path_of(pub, sizeof pub, scratch_dir, "c_abi_public.json");

  cuzk_prover* p = NULL;
  cuzk_status st = cuzk_prover_new(zkey, 1, &p, err, sizeof err);
  CHECK(st == CUZK_OK && p != NULL, "prover_new: %d %s", st, err);
  st = cuzk_prove_files(p, wtns, proof, pub, err, sizeof err);
  CHECK(st == CUZK_OK, "prove: %d %s", st, err);
  int valid = -1;
  st = cuzk_verify_files(vk, pub, proof, &valid, err, sizeof err);
  CHECK(st == CUZK_OK && valid == 1, "verify: %d valid=%d %s", st, valid, err);
  /* the proof against another statement: valid = 0, status OK */
  FILE* f = fopen(pub, "w");
  CHECK(f != NULL, "cannot rewrite %s", pub);
  fputs("[\n \"34\"\n]", f);
  fclose(f);
  st = cuzk_verify_files(vk, pub, proof, &valid, err, sizeof err);
  CHECK(st == CUZK_OK && valid == 0, "tampered verify: %d valid=%d", st, valid);
  /* a witness file that is not one: an error naming it, and nothing crosses as an exception */
  st = cuzk_prove_files(p, zkey, proof, pub, err, sizeof err);
  CHECK(st == CUZK_INVALID_FILE && strstr(err, "mul_final.zkey") != NULL, "bad wtns: %d %s", st, err);
  cuzk_prover_free(p);
  /* a missing key */
  st = cuzk_prover_new("/nonexistent.zkey", 0, &p, err, sizeof err);
  CHECK(st == CUZK_IO && strstr(err, "/nonexistent.zkey") != NULL, "missing zkey: %d %s", st, err);
  st = cuzk_prover_new(NULL, 0, &p, err, 4); /* message truncated to the buffer */
  CHECK(st == CUZK_INVALID_ARGUMENT && strlen(err) == 3, "null: %d '%s'", st, err);
  return 0;
}

/* ---- the memory API -------------------------------------------------------------------------------- */

/* Sync and split proofs agree byte for byte with fixed r, s, verify, and their public inputs come back. */
static int prove_sync_and_split(cuzk_circuit* c, cuzk_backend* b, const uint8_t* const* ws, size_t parts,
                                const char* what) {
  char err[512];
  cuzk_shape sh;
  cuzk_status st = cuzk_circuit_shape(c, &sh, err, sizeof err);
  CHECK(st == CUZK_OK, "%s: shape: %d %s", what, st, err);
  uint8_t r[CUZK_FR_BYTES], s[CUZK_FR_BYTES];
  fr_u64(r, 11);
  fr_u64(s, 13);
  uint8_t* sync = malloc(parts * CUZK_PROOF_BYTES);
  uint8_t* split = malloc(parts * CUZK_PROOF_BYTES);
  uint8_t* rs = malloc(parts * CUZK_FR_BYTES);
  uint8_t* ss = malloc(parts * CUZK_FR_BYTES);
  uint8_t* pub = malloc(sh.n_public * CUZK_FR_BYTES + 1);
  int rc = 1;
  for (size_t k = 0; k < parts; k++) {
    memcpy(rs + k * CUZK_FR_BYTES, r, CUZK_FR_BYTES);
    memcpy(ss + k * CUZK_FR_BYTES, s, CUZK_FR_BYTES);
    st = cuzk_prove(c, b, ws[k], sh.n_vars, r, s, sync + k * CUZK_PROOF_BYTES, pub, err, sizeof err);
    if (st != CUZK_OK || err[0] != '\0') {
      fprintf(stderr, "FAIL %s: prove %zu: %d %s\n", what, k, st, err);
      goto out;
    }
    if (memcmp(pub, ws[k] + CUZK_FR_BYTES, sh.n_public * CUZK_FR_BYTES) != 0) {
      fprintf(stderr, "FAIL %s: public inputs of proof %zu are not witness[1..n_inputs)\n", what, k);
      goto out;
    }
    int valid = -1;
    st = cuzk_verify(c, pub, sh.n_public, sync + k * CUZK_PROOF_BYTES, &valid, err, sizeof err);
    if (st != CUZK_OK || valid != 1) {
      fprintf(stderr, "FAIL %s: verify %zu: %d valid=%d %s\n", what, k, st, valid, err);
      goto out;
    }
    /* the proof of another partition's statement does not verify (when the statements differ) */
    if (k > 0 && memcmp(ws[k] + CUZK_FR_BYTES, ws[0] + CUZK_FR_BYTES, sh.n_public * CUZK_FR_BYTES) != 0) {
      st = cuzk_verify(c, pub, sh.n_public, sync, &valid, err, sizeof err);
      if (st != CUZK_OK || valid != 0) {
        fprintf(stderr, "FAIL %s: proof 0 against statement %zu: %d valid=%d %s\n", what, k, st, valid, err);
        goto out;
      }
    }
  }
  cuzk_pending* pend = NULL;
  st = cuzk_prove_start(c, b, ws, parts, sh.n_vars, rs, ss, &pend, err, sizeof err);
  if (st != CUZK_OK || pend == NULL) {
    fprintf(stderr, "FAIL %s: prove_start: %d %s\n", what, st, err);
    goto out;
  }
  size_t np = 0;
  st = cuzk_pending_partitions(pend, &np, err, sizeof err);
  if (st != CUZK_OK || np != parts) {
    fprintf(stderr, "FAIL %s: pending_partitions: %d %zu\n", what, st, np);
    cuzk_pending_free(pend);
    goto out;
  }
  st = cuzk_prove_finalize(pend, split, parts * CUZK_PROOF_BYTES, err, sizeof err);
  if (st != CUZK_OK) {
    fprintf(stderr, "FAIL %s: prove_finalize: %d %s\n", what, st, err);
    goto out;
  }
  if (memcmp(sync, split, parts * CUZK_PROOF_BYTES) != 0) {
    fprintf(stderr, "FAIL %s: split proofs differ from the synchronous ones (same r, s)\n", what);
    goto out;
  }
  /* random r, s: another proof of the same statement, which verifies too */
  st = cuzk_prove_start(c, b, ws, parts, sh.n_vars, NULL, NULL, &pend, err, sizeof err);
  if (st == CUZK_OK) st = cuzk_prove_finalize(pend, split, parts * CUZK_PROOF_BYTES, err, sizeof err);
  if (st != CUZK_OK || memcmp(sync, split, CUZK_PROOF_BYTES) == 0) {
    fprintf(stderr, "FAIL %s: random r, s: %d %s\n", what, st, err);
    goto out;
  }
  for (size_t k = 0; k < parts; k++) {
    int valid = -1;
    st = cuzk_verify(c, ws[k] + CUZK_FR_BYTES, sh.n_public, split + k * CUZK_PROOF_BYTES, &valid, err,
                     sizeof err);
    if (st != CUZK_OK || valid != 1) {
      fprintf(stderr, "FAIL %s: verify random %zu: %d valid=%d %s\n", what, k, st, valid, err);
      goto out;
    }
  }
  rc = 0;
out:
  free(sync);
  free(split);
  free(rs);
  free(ss);
  free(pub);
  return rc;
}

static int test_zkey_tiny(cuzk_backend* b) {
  char zkey[1024], err[512];
  path_of(zkey, sizeof zkey, data_dir, "tiny/mul_final.zkey");
  cuzk_circuit* c = NULL;
  cuzk_status st = cuzk_circuit_load_zkey(zkey, 1, &c, err, sizeof err);
  CHECK(st == CUZK_OK && c != NULL, "load_zkey: %d %s", st, err);
  cuzk_shape sh;
  st = cuzk_circuit_shape(c, &sh, err, sizeof err);
  CHECK(st == CUZK_OK, "shape: %d %s", st, err);
  CHECK(sh.format == CUZK_FORMAT_ZKEY && sh.n_inputs == 2 && sh.n_public == 1 && sh.n_aux == 2 &&
            sh.n_vars == 4 && sh.domain_size == (1ull << sh.log_n) && sh.log_n >= 1 && sh.nnz > 0,
        "tiny zkey shape: format %u inputs %u public %u aux %u vars %u log_n %u", sh.format, sh.n_inputs,
        sh.n_public, sh.n_aux, sh.n_vars, sh.log_n);
  uint8_t w0[4 * CUZK_FR_BYTES], w1[4 * CUZK_FR_BYTES], w2[4 * CUZK_FR_BYTES];
  mul_witness(w0, 3, 11);
  mul_witness(w1, 5, 7);
  mul_witness(w2, 1000003, 999983);
  const uint8_t* ws[3] = {w0, w1, w2};
  int rc = prove_sync_and_split(c, b, ws, 3, "tiny zkey");
  cuzk_circuit_free(c);
  return rc;
}

static int test_zkey_mimc(cuzk_backend* b) {
  char zkey[1024], wtns[1024], err[512];
  path_of(zkey, sizeof zkey, data_dir, "mimc/mimc_dev.zkey");
  path_of(wtns, sizeof wtns, data_dir, "mimc/mimc.wtns");
  size_t n = 0;
  uint8_t* w = read_wtns_values(wtns, &n);
  CHECK(w != NULL, "cannot read %s", wtns);
  cuzk_circuit* c = NULL;
  cuzk_status st = cuzk_circuit_load_zkey(zkey, 0, &c, err, sizeof err);
  CHECK(st == CUZK_OK, "load mimc: %d %s", st, err);
  cuzk_shape sh;
  cuzk_circuit_shape(c, &sh, err, sizeof err);
  CHECK(sh.n_vars == n && sh.n_vars == 369 && sh.n_public == 3 && sh.log_n == 9,
        "mimc shape: %u vars, %u public, 2^%u", sh.n_vars, sh.n_public, sh.log_n);
  const uint8_t* ws[2] = {w, w};
  int rc = prove_sync_and_split(c, b, ws, 2, "mimc zkey");
  cuzk_circuit_free(c);
  free(w);
  return rc;
}

static int test_params(cuzk_backend* b) {
  char params[1024], r1cs[1024], err[512];
  path_of(params, sizeof params, data_dir, "../capi/mul_bellperson.params");
  path_of(r1cs, sizeof r1cs, data_dir, "tiny/mul.r1cs");
  cuzk_circuit* c = NULL;
  cuzk_status st = cuzk_circuit_load_params(params, r1cs, CUZK_LOAD_DEFAULT, 1, &c, err, sizeof err);
  CHECK(st == CUZK_OK && c != NULL, "load_params: %d %s", st, err);
  cuzk_shape sh;
  st = cuzk_circuit_shape(c, &sh, err, sizeof err);
  CHECK(st == CUZK_OK && sh.format == CUZK_FORMAT_BELLPERSON && sh.n_inputs == 2 && sh.n_aux == 2 &&
            sh.n_public == 1,
        "params shape: %d format %u inputs %u aux %u", st, sh.format, sh.n_inputs, sh.n_aux);
  uint8_t w0[4 * CUZK_FR_BYTES], w1[4 * CUZK_FR_BYTES];
  mul_witness(w0, 3, 11);
  mul_witness(w1, 5, 7);
  const uint8_t* ws[2] = {w0, w1};
  int rc = prove_sync_and_split(c, b, ws, 2, "tiny params");
  /* an unsatisfied witness: the bellperson convention names the row */
  uint8_t proof[CUZK_PROOF_BYTES];
  fr_u64(w1 + CUZK_FR_BYTES, 36);
  st = cuzk_prove(c, b, w1, 4, NULL, NULL, proof, NULL, err, sizeof err);
  if (!rc && (st != CUZK_UNSATISFIED || strstr(err, "first unsatisfied row: #0") == NULL)) {
    fprintf(stderr, "FAIL params unsatisfied: %d %s\n", st, err);
    rc = 1;
  }
  cuzk_circuit_free(c);
  /* the subgroup-check opt-out loads the same key */
  if (!rc) {
    st = cuzk_circuit_load_params(params, r1cs, CUZK_LOAD_SKIP_SUBGROUP_CHECK, 0, &c, err, sizeof err);
    CHECK(st == CUZK_OK, "load_params unchecked: %d %s", st, err);
    cuzk_circuit_free(c);
    st = cuzk_circuit_load_params(params, r1cs, 6u, 0, &c, err, sizeof err);
    CHECK(st == CUZK_INVALID_ARGUMENT && c == NULL && strstr(err, "flags") != NULL, "bad flags: %d %s", st,
          err);
  }
  return rc;
}

static int test_backends(void) {
  char err[512], name[64];
  cuzk_backend* b = NULL;
  cuzk_backend_kind kind = CUZK_BACKEND_AUTO;
  /* AUTO without a GPU (or in a build without CUDA): the CPU */
  cuzk_status st = cuzk_backend_new(CUZK_BACKEND_AUTO, 0, 1, &b, err, sizeof err);
  CHECK(st == CUZK_OK && b != NULL, "backend AUTO: %d %s", st, err);
  st = cuzk_backend_info(b, &kind, name, sizeof name, err, sizeof err);
  CHECK(st == CUZK_OK && (kind == CUZK_BACKEND_CPU || kind == CUZK_BACKEND_GPU), "info: %d kind %d", st,
        kind);
  printf("c abi: AUTO chose %s\n", name);
  cuzk_backend_free(b);
  st = cuzk_backend_new(CUZK_BACKEND_CPU, 0, 2, &b, err, sizeof err);
  CHECK(st == CUZK_OK, "backend CPU: %d %s", st, err);
  st = cuzk_backend_info(b, &kind, name, sizeof name, err, sizeof err);
  CHECK(st == CUZK_OK && kind == CUZK_BACKEND_CPU && strcmp(name, "cpu") == 0, "cpu info: %d %d %s", st, kind,
        name);
  cuzk_backend_free(b);
  /* GPU: a backend on a CUDA machine, else CUZK_CUDA saying why (never a crash) */
  st = cuzk_backend_new(CUZK_BACKEND_GPU, 0, 1, &b, err, sizeof err);
  CHECK(st == CUZK_OK || (st == CUZK_CUDA && b == NULL && strstr(err, "CUZK_BACKEND_GPU") != NULL),
        "GPU: %d %s", st, err);
  if (st != CUZK_OK) printf("c abi: GPU refused: %s\n", err);
  cuzk_backend_free(b);
  st = cuzk_backend_new(7, 0, 1, &b, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && b == NULL && strstr(err, "kind 7") != NULL, "kind 7: %d %s", st, err);
  st = cuzk_backend_new(CUZK_BACKEND_CPU, -1, 1, &b, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && strstr(err, "-1") != NULL, "device -1: %d %s", st, err);
  st = cuzk_backend_new(CUZK_BACKEND_CPU, 0, 1, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "NULL out: %d", st);
  st = cuzk_backend_info(NULL, &kind, name, sizeof name, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "info NULL: %d", st);
  cuzk_backend_free(NULL);
  return 0;
}

static int test_errors(cuzk_backend* b) {
  char zkey[1024], r1cs[1024], params[1024], bad[1024], err[512];
  path_of(zkey, sizeof zkey, data_dir, "tiny/mul_final.zkey");
  path_of(r1cs, sizeof r1cs, data_dir, "tiny/mul.r1cs");
  path_of(params, sizeof params, data_dir, "../capi/mul_bellperson.params");
  cuzk_circuit* c = NULL;
  cuzk_status st;

  /* loading: NULL, missing, corrupt and truncated files, mismatched pairs */
  st = cuzk_circuit_load_zkey(NULL, 0, &c, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && c == NULL && err[0] != '\0', "load NULL: %d %s", st, err);
  st = cuzk_circuit_load_zkey(zkey, 0, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "load NULL out: %d %s", st, err);
  st = cuzk_circuit_load_zkey("/nonexistent/c.zkey", 0, &c, err, sizeof err);
  CHECK(st == CUZK_IO && c == NULL && strstr(err, "/nonexistent/c.zkey") != NULL, "missing zkey: %d %s", st,
        err);
  st = cuzk_circuit_load_params("/nonexistent/p.params", r1cs, 0, 0, &c, err, sizeof err);
  CHECK(st == CUZK_IO && strstr(err, "/nonexistent/p.params") != NULL, "missing params: %d %s", st, err);
  st = cuzk_circuit_load_params(params, "/nonexistent/c.r1cs", 0, 0, &c, err, sizeof err);
  CHECK(st == CUZK_IO && strstr(err, "/nonexistent/c.r1cs") != NULL, "missing r1cs: %d %s", st, err);
  st = cuzk_circuit_load_params(NULL, r1cs, 0, 0, &c, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "params NULL: %d %s", st, err);
  size_t len = 0;
  uint8_t* bytes = read_all(zkey, &len);
  CHECK(bytes != NULL && len > 1000, "cannot read %s", zkey);
  path_of(bad, sizeof bad, scratch_dir, "c_abi_truncated.zkey");
  CHECK(write_all(bad, bytes, len / 2), "cannot write %s", bad);
  st = cuzk_circuit_load_zkey(bad, 0, &c, err, sizeof err);
  CHECK(st == CUZK_INVALID_FILE && c == NULL && strstr(err, "c_abi_truncated.zkey") != NULL,
        "truncated zkey: %d %s", st, err);
  memcpy(bytes, "zkex", 4);
  path_of(bad, sizeof bad, scratch_dir, "c_abi_magic.zkey");
  CHECK(write_all(bad, bytes, len), "cannot write %s", bad);
  st = cuzk_circuit_load_zkey(bad, 0, &c, err, sizeof err);
  CHECK(st == CUZK_INVALID_FILE && strstr(err, "c_abi_magic.zkey") != NULL, "bad magic: %d %s", st, err);
  free(bytes);
  bytes = read_all(params, &len);
  CHECK(bytes != NULL && len > 1000, "cannot read %s", params);
  bytes[1000] ^= 0x10; /* a coordinate bit of a point */
  path_of(bad, sizeof bad, scratch_dir, "c_abi_corrupt.params");
  CHECK(write_all(bad, bytes, len), "cannot write %s", bad);
  st = cuzk_circuit_load_params(bad, r1cs, 0, 0, &c, err, sizeof err);
  CHECK(st == CUZK_INVALID_FILE && strstr(err, "c_abi_corrupt.params") != NULL, "corrupt params: %d %s", st,
        err);
  free(bytes);
  char mimc_r1cs[1024];
  path_of(mimc_r1cs, sizeof mimc_r1cs, data_dir, "mimc/mimc_test.r1cs");
  st = cuzk_circuit_load_params(params, mimc_r1cs, 0, 0, &c, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && strstr(err, "different circuits") != NULL &&
            strstr(err, "mimc_test.r1cs") != NULL && strstr(err, "mul_bellperson.params") != NULL,
        "mismatched pair: %d %s", st, err);
  st = cuzk_circuit_load_params(params, zkey, 0, 0, &c, err, sizeof err); /* a zkey is no .r1cs */
  CHECK(st == CUZK_INVALID_FILE && strstr(err, "mul_final.zkey") != NULL, "zkey as r1cs: %d %s", st, err);

  st = cuzk_circuit_load_zkey(zkey, 0, &c, err, sizeof err);
  CHECK(st == CUZK_OK, "load: %d %s", st, err);
  cuzk_shape sh;
  st = cuzk_circuit_shape(NULL, &sh, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "shape NULL: %d", st);
  st = cuzk_circuit_shape(c, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "shape NULL out: %d", st);

  uint8_t w[4 * CUZK_FR_BYTES], proof[CUZK_PROOF_BYTES], pub[CUZK_FR_BYTES];
  mul_witness(w, 3, 11);
  const uint8_t* ws[2] = {w, w};
  /* NULL pointers */
  st = cuzk_prove(NULL, b, w, 4, NULL, NULL, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && strstr(err, "NULL") != NULL, "prove NULL circuit: %d %s", st, err);
  st = cuzk_prove(c, NULL, w, 4, NULL, NULL, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "prove NULL backend: %d %s", st, err);
  st = cuzk_prove(c, b, NULL, 4, NULL, NULL, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "prove NULL witness: %d %s", st, err);
  st = cuzk_prove(c, b, w, 4, NULL, NULL, NULL, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "prove NULL proof_out: %d %s", st, err);
  /* the wrong witness length */
  st = cuzk_prove(c, b, w, 3, NULL, NULL, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && strstr(err, "3 values") != NULL && strstr(err, "4 variables") != NULL,
        "short witness: %d %s", st, err);
  /* witness[0] ≠ 1 */
  fr_u64(w, 2);
  st = cuzk_prove(c, b, w, 4, NULL, NULL, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && strstr(err, "witness[0]") != NULL, "witness[0] = 2: %d %s", st, err);
  fr_u64(w, 1);
  /* a non-canonical element: r itself (and all-ones) at index 2 */
  static const uint8_t r_le[CUZK_FR_BYTES] = {
      0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
      0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
  memcpy(w + 2 * CUZK_FR_BYTES, r_le, CUZK_FR_BYTES);
  st = cuzk_prove(c, b, w, 4, NULL, NULL, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ENCODING && strstr(err, "witness[2]") != NULL, "witness[2] = r: %d %s", st, err);
  /* r − 1 is canonical (it only leaves the witness unsatisfied) */
  uint8_t r_minus_1[CUZK_FR_BYTES];
  memcpy(r_minus_1, r_le, CUZK_FR_BYTES);
  r_minus_1[0] = 0;
  memcpy(w + 2 * CUZK_FR_BYTES, r_minus_1, CUZK_FR_BYTES);
  st = cuzk_prove(c, b, w, 4, NULL, NULL, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_UNSATISFIED, "witness[2] = r - 1: %d %s", st, err);
  mul_witness(w, 3, 11);
  st = cuzk_prove(c, b, w, 4, r_le, NULL, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ENCODING && strncmp(err, "r:", 2) == 0, "r = modulus: %d %s", st, err);
  /* an unsatisfied witness (33 ≠ 3·12): CUZK_UNSATISFIED, and the proof buffer untouched */
  uint8_t u[4 * CUZK_FR_BYTES];
  mul_witness(u, 3, 11);
  fr_u64(u + 3 * CUZK_FR_BYTES, 12);
  memset(proof, 0xab, sizeof proof);
  st = cuzk_prove(c, b, u, 4, NULL, NULL, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_UNSATISFIED && strstr(err, "does not satisfy") != NULL && proof[0] == 0xab &&
            proof[191] == 0xab,
        "unsatisfied: %d %s", st, err);
  printf("c abi: unsatisfied zkey witness: %s\n", err);

  /* split API: errors name the partition; nothing is pending after a failure */
  cuzk_pending* p = (cuzk_pending*)1;
  const uint8_t* bad_ws[2] = {w, u};
  st = cuzk_prove_start(c, b, ws, 0, 4, NULL, NULL, &p, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && p == NULL, "0 partitions: %d %s", st, err);
  st = cuzk_prove_start(c, b, NULL, 2, 4, NULL, NULL, &p, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "NULL witnesses: %d %s", st, err);
  const uint8_t* null_ws[2] = {w, NULL};
  st = cuzk_prove_start(c, b, null_ws, 2, 4, NULL, NULL, &p, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && strstr(err, "partition 1") != NULL && p == NULL,
        "NULL witness 1: %d %s", st, err);
  st = cuzk_prove_start(c, b, ws, 2, 5, NULL, NULL, &p, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && strstr(err, "5 values") != NULL, "long witness: %d %s", st, err);
  uint8_t nc[4 * CUZK_FR_BYTES];
  mul_witness(nc, 3, 11);
  memset(nc + 3 * CUZK_FR_BYTES, 0xff, CUZK_FR_BYTES);
  const uint8_t* nc_ws[2] = {w, nc};
  st = cuzk_prove_start(c, b, nc_ws, 2, 4, NULL, NULL, &p, err, sizeof err);
  CHECK(st == CUZK_INVALID_ENCODING && strstr(err, "partition 1: witness[3]") != NULL, "non-canonical: %d %s",
        st, err);
  uint8_t two_r[2 * CUZK_FR_BYTES];
  fr_u64(two_r, 5);
  memcpy(two_r + CUZK_FR_BYTES, r_le, CUZK_FR_BYTES);
  st = cuzk_prove_start(c, b, ws, 2, 4, NULL, two_r, &p, err, sizeof err);
  CHECK(st == CUZK_INVALID_ENCODING && strstr(err, "s[1]") != NULL, "s[1] = modulus: %d %s", st, err);
  /* an unsatisfied partition: start succeeds (the backend does not check), finalize names it */
  st = cuzk_prove_start(c, b, bad_ws, 2, 4, NULL, NULL, &p, err, sizeof err);
  CHECK(st == CUZK_OK && p != NULL, "start unsatisfied: %d %s", st, err);
  uint8_t proofs[2 * CUZK_PROOF_BYTES];
  memset(proofs, 0xab, sizeof proofs);
  st = cuzk_prove_finalize(p, proofs, sizeof proofs, err, sizeof err);
  CHECK(st == CUZK_UNSATISFIED && strstr(err, "partition 1") != NULL && proofs[0] == 0xab,
        "finalize unsatisfied: %d %s", st, err);
  /* finalize: NULL, wrong size (the pending is consumed anyway) */
  st = cuzk_prove_finalize(NULL, proofs, sizeof proofs, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "finalize NULL: %d %s", st, err);
  st = cuzk_prove_start(c, b, ws, 2, 4, NULL, NULL, &p, err, sizeof err);
  CHECK(st == CUZK_OK, "start: %d %s", st, err);
  st = cuzk_prove_finalize(p, proofs, CUZK_PROOF_BYTES, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && strstr(err, "384") != NULL, "finalize short buffer: %d %s", st, err);
  st = cuzk_prove_start(c, b, ws, 2, 4, NULL, NULL, &p, err, sizeof err);
  CHECK(st == CUZK_OK, "start: %d %s", st, err);
  st = cuzk_prove_finalize(p, NULL, sizeof proofs, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "finalize NULL out: %d %s", st, err);
  /* an unfinalized pending proof freed, also after its circuit is gone */
  st = cuzk_prove_start(c, b, ws, 2, 4, NULL, NULL, &p, err, sizeof err);
  CHECK(st == CUZK_OK, "start: %d %s", st, err);
  cuzk_pending_free(p);
  cuzk_pending_free(NULL);
  size_t np;
  st = cuzk_pending_partitions(NULL, &np, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "partitions NULL: %d", st);

  /* verify: a valid proof, then bad inputs */
  st = cuzk_prove(c, b, w, 4, NULL, NULL, proof, pub, err, sizeof err);
  CHECK(st == CUZK_OK, "prove: %d %s", st, err);
  int valid = -1;
  st = cuzk_verify(c, pub, 1, proof, &valid, err, sizeof err);
  CHECK(st == CUZK_OK && valid == 1, "verify: %d %d %s", st, valid, err);
  st = cuzk_verify(c, pub, 2, proof, &valid, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT && valid == 0 && strstr(err, "2 public inputs") != NULL,
        "verify n_public: %d %s", st, err);
  st = cuzk_verify(c, r_le, 1, proof, &valid, err, sizeof err);
  CHECK(st == CUZK_INVALID_ENCODING && strstr(err, "public input 0") != NULL, "verify non-canonical: %d %s",
        st, err);
  st = cuzk_verify(c, pub, 1, NULL, &valid, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "verify NULL proof: %d %s", st, err);
  st = cuzk_verify(c, pub, 1, proof, NULL, err, sizeof err);
  CHECK(st == CUZK_INVALID_ARGUMENT, "verify NULL valid: %d %s", st, err);
  uint8_t flipped[CUZK_PROOF_BYTES];
  memcpy(flipped, proof, sizeof flipped);
  flipped[0] ^= 0x80; /* the compression flag of πA */
  st = cuzk_verify(c, pub, 1, flipped, &valid, err, sizeof err);
  CHECK(st == CUZK_INVALID_ENCODING && valid == 0, "verify bad flags: %d %s", st, err);
  fr_u64(pub, 34);
  st = cuzk_verify(c, pub, 1, proof, &valid, err, sizeof err);
  CHECK(st == CUZK_OK && valid == 0, "verify another statement: %d %d %s", st, valid, err);
  cuzk_circuit_free(c);
  cuzk_circuit_free(NULL);
  return 0;
}

/* ---- several threads, one backend ---------------------------------------------------------------- */

struct job {
  cuzk_circuit* c;
  cuzk_backend* b;
  const uint8_t* w;
  size_t n;
  int split; /* 0: cuzk_prove, 1: start → finalize with 2 partitions */
  uint8_t proofs[2 * CUZK_PROOF_BYTES];
  cuzk_status st;
  char err[256];
};

static void* run_job(void* arg) {
  struct job* j = arg;
  uint8_t rs[2 * CUZK_FR_BYTES], ss[2 * CUZK_FR_BYTES];
  for (int k = 0; k < 2; k++) {
    fr_u64(rs + k * CUZK_FR_BYTES, 11);
    fr_u64(ss + k * CUZK_FR_BYTES, 13);
  }
  for (int rep = 0; rep < 2; rep++) {
    if (!j->split) {
      j->st = cuzk_prove(j->c, j->b, j->w, j->n, rs, ss, j->proofs, NULL, j->err, sizeof j->err);
      if (j->st == CUZK_OK) memcpy(j->proofs + CUZK_PROOF_BYTES, j->proofs, CUZK_PROOF_BYTES);
    } else {
      const uint8_t* ws[2] = {j->w, j->w};
      cuzk_pending* p = NULL;
      j->st = cuzk_prove_start(j->c, j->b, ws, 2, j->n, rs, ss, &p, j->err, sizeof j->err);
      if (j->st == CUZK_OK)
        j->st = cuzk_prove_finalize(p, j->proofs, sizeof j->proofs, j->err, sizeof j->err);
    }
    if (j->st != CUZK_OK) break;
  }
  return NULL;
}

static int test_threads(cuzk_backend* b) {
  char zkey[1024], wtns[1024], err[512];
  path_of(zkey, sizeof zkey, data_dir, "mimc/mimc_dev.zkey");
  path_of(wtns, sizeof wtns, data_dir, "mimc/mimc.wtns");
  size_t n = 0;
  uint8_t* w = read_wtns_values(wtns, &n);
  CHECK(w != NULL, "cannot read %s", wtns);
  cuzk_circuit* c = NULL;
  cuzk_status st = cuzk_circuit_load_zkey(zkey, 0, &c, err, sizeof err);
  CHECK(st == CUZK_OK, "load mimc: %d %s", st, err);
  uint8_t r[CUZK_FR_BYTES], s[CUZK_FR_BYTES], want[CUZK_PROOF_BYTES];
  fr_u64(r, 11);
  fr_u64(s, 13);
  st = cuzk_prove(c, b, w, n, r, s, want, NULL, err, sizeof err);
  CHECK(st == CUZK_OK, "prove mimc: %d %s", st, err);
  enum { kThreads = 4 };
  struct job jobs[kThreads];
  pthread_t th[kThreads];
  for (int i = 0; i < kThreads; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    jobs[i].c = c;
    jobs[i].b = b;
    jobs[i].w = w;
    jobs[i].n = n;
    jobs[i].split = i % 2;
    CHECK(pthread_create(&th[i], NULL, run_job, &jobs[i]) == 0, "pthread_create");
  }
  for (int i = 0; i < kThreads; i++) pthread_join(th[i], NULL);
  int rc = 0;
  for (int i = 0; i < kThreads && !rc; i++) {
    if (jobs[i].st != CUZK_OK) {
      fprintf(stderr, "FAIL thread %d: %d %s\n", i, jobs[i].st, jobs[i].err);
      rc = 1;
    } else if (memcmp(jobs[i].proofs, want, CUZK_PROOF_BYTES) != 0 ||
               memcmp(jobs[i].proofs + CUZK_PROOF_BYTES, want, CUZK_PROOF_BYTES) != 0) {
      fprintf(stderr, "FAIL thread %d: a different proof\n", i);
      rc = 1;
    }
  }
  cuzk_circuit_free(c);
  free(w);
  return rc;
}

int main(int argc, char** argv) {
  CHECK(argc == 3, "usage: c_abi_test <tests/data dir> <scratch dir>");
  data_dir = argv[1];
  scratch_dir = argv[2];
  RUN(test_file_api());
  RUN(test_backends());
  char err[512];
  cuzk_backend* b = NULL;
  cuzk_status st = cuzk_backend_new(CUZK_BACKEND_CPU, 0, 0, &b, err, sizeof err);
  CHECK(st == CUZK_OK, "backend: %d %s", st, err);
  RUN(test_zkey_tiny(b));
  RUN(test_zkey_mimc(b));
  RUN(test_params(b));
  RUN(test_errors(b));
  RUN(test_threads(b));
  cuzk_backend_free(b);
  puts("c abi: all passed");
  return 0;
}
