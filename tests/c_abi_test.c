/* The C ABI from C: prove and verify the tiny fixture, then the error paths (status + message). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cuzk.h"

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                       \
      fprintf(stderr, "\n");                              \
      return 1;                                           \
    }                                                     \
  } while (0)

int main(int argc, char** argv) {
  CHECK(argc == 3, "usage: c_abi_test <tests/data dir> <scratch dir>");
  char zkey[1024], wtns[1024], vk[1024], proof[1024], pub[1024], err[512];
  snprintf(zkey, sizeof zkey, "%s/tiny/mul_final.zkey", argv[1]);
  snprintf(wtns, sizeof wtns, "%s/tiny/mul.wtns", argv[1]);
  snprintf(vk, sizeof vk, "%s/tiny/verification_key.json", argv[1]);
  snprintf(proof, sizeof proof, "%s/c_abi_proof.json", argv[2]);
  snprintf(pub, sizeof pub, "%s/c_abi_public.json", argv[2]);

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
  puts("c abi: all passed");
  return 0;
}
