/* libcuzk_supraseal.so from C, as Filecoin's Rust stack calls SupraSeal C2: the types and functions are
 * declared here as the Rust side declares them (docs/SUPRASEAL_ABI.md), not taken from cuzk's headers.
 *
 * usage: supraseal_abi_test DIR PARTITIONS
 * DIR holds what `supraseal_fixture --out DIR` made (circuit.params, the assignment files, meta.txt).
 * The test proves PARTITIONS partitions (all with the fixture's witness) per call through the
 * synchronous call and the split calls (start several, finalize in reverse order, destroy one unfinished),
 * after evict_SRS and through a clone of a dropped handle, and writes each call's proofs to
 * DIR/NAME.proofs and its blinding scalars to DIR/NAME.blind for `supraseal_fixture --check`. Then it
 * checks that bad input (wrong popcounts and sizes, NULL pointers, a bad gpu_index, an unsatisfied
 * witness, a missing file) comes back as a RustError with a code and a message. Exit 0 on success. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t l[4];
} fr_t;
typedef struct {
  uint64_t l[6];
} fp_t;
typedef struct {
  fp_t x, y;
} g1_affine_t;
typedef struct {
  fp_t x_c0, x_c1, y_c0, y_c1;
} g2_affine_t;
typedef struct {
  g1_affine_t a;
  g2_affine_t b;
  g1_affine_t c;
} groth16_proof;
typedef struct {
  int code;
  char* message;
} RustError;
typedef struct {
  const void* ptr;
} SRS;
typedef struct {
  const uint64_t* a_aux_density;
  size_t a_aux_bit_len;
  size_t a_aux_popcount;
  const uint64_t* b_inp_density;
  size_t b_inp_bit_len;
  size_t b_inp_popcount;
  const uint64_t* b_aux_density;
  size_t b_aux_bit_len;
  size_t b_aux_popcount;
  const fr_t* a;
  const fr_t* b;
  const fr_t* c;
  size_t abc_size;
  const fr_t* inp_assignment_data;
  size_t inp_assignment_size;
  const fr_t* aux_assignment_data;
  size_t aux_assignment_size;
} Assignment;

_Static_assert(sizeof(fr_t) == 32, "fr_t");
_Static_assert(sizeof(groth16_proof) == 384, "groth16_proof");
_Static_assert(sizeof(Assignment) == 17 * 8, "Assignment");

RustError create_SRS(SRS* ret, const char* srs_path, bool cache);
void evict_SRS(const SRS* ref);
void drop_SRS(SRS* ref);
SRS clone_SRS(const SRS* rhs);
void* create_gpu_mutex(void);
void destroy_gpu_mutex(void* mtx);
RustError generate_groth16_proofs_c(const Assignment provers[], size_t num_circuits, const fr_t r_s[],
                                    const fr_t s_s[], groth16_proof proofs[], SRS* srs, void* gpu_mtx,
                                    int gpu_index);
RustError generate_groth16_proofs_start_c(const Assignment provers[], size_t num_circuits, const fr_t r_s[],
                                          const fr_t s_s[], SRS* srs, void* gpu_mtx, int gpu_index,
                                          void** pending_out);
RustError finalize_groth16_proof_c(void* handle, groth16_proof proofs[]);
void destroy_pending_proof(void* handle);

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
      exit(1);                                             \
    }                                                      \
  } while (0)

static const char* dir;

/* Reads DIR/name; its size must be `bytes`. */
static void* load(const char* name, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE* f = fopen(path, "rb");
  CHECK(f, "cannot open %s", path);
  void* p = malloc(bytes ? bytes : 1);
  CHECK(p, "out of memory");
  CHECK(fread(p, 1, bytes, f) == bytes && fgetc(f) == EOF, "%s: not %zu bytes", path, bytes);
  fclose(f);
  return p;
}

static void save(const char* name, const char* ext, const void* data, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
  FILE* f = fopen(path, "wb");
  CHECK(f && fwrite(data, 1, bytes, f) == bytes && fclose(f) == 0, "cannot write %s", path);
}

/* k blinding scalars: arbitrary raw Montgomery words below r (top limb < 2^60 < r's top limb). */
static uint64_t rng_state = 0x5eed;
static void random_fr(fr_t* out, size_t k) {
  for (size_t i = 0; i < k; i++)
    for (int j = 0; j < 4; j++) {
      uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      out[i].l[j] = (z ^ (z >> 31)) >> (j == 3 ? 4 : 0);
    }
}

/* A successful call's proofs and blinding go to DIR/name.proofs and DIR/name.blind. */
static void keep(const char* name, const groth16_proof* proofs, const fr_t* r, const fr_t* s, size_t k) {
  for (size_t i = 0; i < k; i++) {
    static const g1_affine_t zero;
    CHECK(memcmp(&proofs[i].a, &zero, sizeof zero) != 0, "%s: proof %zu has A at infinity", name, i);
  }
  save(name, "proofs", proofs, k * sizeof *proofs);
  fr_t* rs = malloc(2 * k * sizeof *rs);
  CHECK(rs, "out of memory");
  memcpy(rs, r, k * sizeof *r);
  memcpy(rs + k, s, k * sizeof *s);
  save(name, "blind", rs, 2 * k * sizeof *rs);
  free(rs);
}

static void ok(RustError e, const char* what) {
  CHECK(e.code == 0 && e.message == NULL, "%s: code %d: %s", what, e.code,
        e.message ? e.message : "(no message)");
}

/* The call failed with a message containing `needle` (and, when want_code > 0, that code). */
static void fails(RustError e, int want_code, const char* needle, const char* what) {
  CHECK(e.code != 0, "%s: succeeded", what);
  CHECK(e.message != NULL, "%s: code %d without a message", what, e.code);
  CHECK(want_code <= 0 || e.code == want_code, "%s: code %d, want %d: %s", what, e.code, want_code,
        e.message);
  CHECK(strstr(e.message, needle) != NULL, "%s: message \"%s\" does not mention \"%s\"", what, e.message,
        needle);
  printf("ok   %-28s -> %d: %s\n", what, e.code, e.message);
  free(e.message);
}

int main(int argc, char** argv) {
  CHECK(argc == 3, "usage: supraseal_abi_test DIR PARTITIONS");
  dir = argv[1];
  const size_t P = (size_t)strtoul(argv[2], NULL, 10);
  CHECK(P >= 2, "PARTITIONS must be at least 2");

  size_t log_n, abc, n_inp, n_aux, pa, pbi, pba;
  {
    char path[4096];
    snprintf(path, sizeof path, "%s/meta.txt", dir);
    FILE* f = fopen(path, "r");
    CHECK(f && fscanf(f, "%zu %zu %zu %zu %zu %zu %zu", &log_n, &abc, &n_inp, &n_aux, &pa, &pbi, &pba) == 7,
          "cannot read %s", path);
    fclose(f);
  }
  const size_t aux_words = (n_aux + 63) / 64, inp_words = (n_inp + 63) / 64;
  Assignment base = {
      load("a_aux.bin", aux_words * 8),
      n_aux,
      pa,
      load("b_inp.bin", inp_words * 8),
      n_inp,
      pbi,
      load("b_aux.bin", aux_words * 8),
      n_aux,
      pba,
      load("a.bin", abc * 32),
      load("b.bin", abc * 32),
      load("c.bin", abc * 32),
      abc,
      load("inputs.bin", n_inp * 32),
      n_inp,
      load("aux.bin", n_aux * 32),
      n_aux,
  };
  Assignment* provers = malloc(P * sizeof *provers);
  groth16_proof* proofs = malloc(P * sizeof *proofs);
  groth16_proof* proofs2 = malloc(P * sizeof *proofs2);
  fr_t *r = malloc(4 * P * sizeof *r), *s = malloc(4 * P * sizeof *s);
  CHECK(provers && proofs && proofs2 && r && s, "out of memory");
  for (size_t i = 0; i < P; i++) provers[i] = base;
  random_fr(r, 4 * P);
  random_fr(s, 4 * P);

  char params[4096], missing[4096];
  snprintf(params, sizeof params, "%s/circuit.params", dir);
  snprintf(missing, sizeof missing, "%s/no-such.params", dir);
  SRS srs = {NULL};
  fails(create_SRS(&srs, missing, false), 4, "no-such.params", "create_SRS(missing file)");
  CHECK(srs.ptr == NULL, "a failed create_SRS left a handle");
  fails(create_SRS(&srs, NULL, true), 1, "NULL", "create_SRS(NULL path)");
  ok(create_SRS(&srs, params, true), "create_SRS");

  /* synchronous, the library's own mutex */
  ok(generate_groth16_proofs_c(provers, P, r, s, proofs, &srs, NULL, 0), "generate_groth16_proofs_c");
  keep("sync", proofs, r, s, P);

  /* split: three calls started under the caller's mutex, the last destroyed unfinished, the others
   * finalized in reverse order; the first uses the synchronous call's r, s, so its proofs must match */
  void* mtx = create_gpu_mutex();
  CHECK(mtx, "create_gpu_mutex");
  void *h1 = NULL, *h2 = NULL, *h3 = NULL;
  ok(generate_groth16_proofs_start_c(provers, P, r, s, &srs, mtx, 0, &h1), "start 1");
  ok(generate_groth16_proofs_start_c(provers, P - 1, r + P, s + P, &srs, mtx, 0, &h2), "start 2");
  ok(generate_groth16_proofs_start_c(provers, P, r + 2 * P, s + 2 * P, &srs, mtx, 0, &h3), "start 3");
  CHECK(h1 && h2 && h3 && h1 != h2 && h2 != h3, "start returned no handle");
  destroy_pending_proof(h3);
  ok(finalize_groth16_proof_c(h2, proofs2), "finalize 2");
  keep("split2", proofs2, r + P, s + P, P - 1);
  ok(finalize_groth16_proof_c(h1, proofs2), "finalize 1");
  keep("split1", proofs2, r, s, P);
  CHECK(memcmp(proofs, proofs2, P * sizeof *proofs) == 0,
        "the split calls' proofs differ from the synchronous ones");
  destroy_pending_proof(NULL);

  /* bad input: one circuit of a call at a time */
  Assignment bad[2];
  bad[0] = base;
  bad[1] = base;
  bad[1].a_aux_popcount++;
  fails(generate_groth16_proofs_c(bad, 2, r, s, proofs, &srs, NULL, 0), 1, "circuit 1: a_aux_popcount",
        "wrong a_aux_popcount");
  bad[1] = base;
  bad[1].b_aux_popcount--;
  fails(generate_groth16_proofs_c(bad, 2, r, s, proofs, &srs, NULL, 0), 1, "b_aux_popcount",
        "wrong b_aux_popcount");
  bad[1] = base;
  bad[1].b_inp_bit_len++;
  fails(generate_groth16_proofs_c(bad, 2, r, s, proofs, &srs, NULL, 0), 1, "b_inp_bit_len",
        "wrong b_inp_bit_len");
  {
    /* a bitmap with one A bit fewer (popcount consistent): |A| ≠ inputs + popcount(a_aux) */
    uint64_t* words = malloc(aux_words * 8);
    CHECK(words, "out of memory");
    memcpy(words, base.a_aux_density, aux_words * 8);
    size_t w = 0;
    while (words[w] == 0) w++;
    words[w] &= words[w] - 1;
    bad[1] = base;
    bad[1].a_aux_density = words;
    bad[1].a_aux_popcount--;
    fails(generate_groth16_proofs_c(bad, 2, r, s, proofs, &srs, NULL, 0), 1, "inputs + popcount(a_aux)",
          "|A| != inputs + popcount");
    free(words);
  }
  bad[1] = base;
  bad[1].a = NULL;
  fails(generate_groth16_proofs_c(bad, 2, r, s, proofs, &srs, NULL, 0), 1, "a is NULL", "NULL a");
  bad[1] = base;
  bad[1].aux_assignment_data = NULL;
  fails(generate_groth16_proofs_c(bad, 2, r, s, proofs, &srs, NULL, 0), 1, "aux_assignment_data is NULL",
        "NULL aux");
  bad[1] = base;
  bad[1].abc_size = ((size_t)1 << log_n) + 1;
  fails(generate_groth16_proofs_c(bad, 2, r, s, proofs, &srs, NULL, 0), 1, "abc_size", "abc_size > domain");
  bad[1] = base;
  bad[1].inp_assignment_size--;
  fails(generate_groth16_proofs_c(bad, 2, r, s, proofs, &srs, NULL, 0), 1, "inp_assignment_size",
        "wrong inp_assignment_size");
  {
    /* c changed in one row: the proof does not verify, the witness is reported unsatisfied */
    fr_t* c = malloc(abc * 32);
    CHECK(c, "out of memory");
    memcpy(c, base.c, abc * 32);
    c[0].l[0] ^= 1;
    bad[1] = base;
    bad[1].c = c;
    fails(generate_groth16_proofs_c(bad, 2, r, s, proofs, &srs, NULL, 0), 5, "does not verify",
          "unsatisfied");
    void* h = NULL;
    ok(generate_groth16_proofs_start_c(bad, 2, r, s, &srs, NULL, 0, &h), "start (unsatisfied)");
    fails(finalize_groth16_proof_c(h, proofs), 5, "does not verify", "finalize (unsatisfied)");
    free(c);
  }
  fails(generate_groth16_proofs_c(provers, P, NULL, s, proofs, &srs, NULL, 0), 1, "r_s is NULL", "NULL r_s");
  fails(generate_groth16_proofs_c(NULL, P, r, s, proofs, &srs, NULL, 0), 1, "provers is NULL",
        "NULL provers");
  fails(generate_groth16_proofs_c(provers, P, r, s, NULL, &srs, NULL, 0), 1, "proofs is NULL", "NULL proofs");
  fails(generate_groth16_proofs_c(provers, P, r, s, proofs, NULL, NULL, 0), 1, "SRS", "NULL srs");
  fails(generate_groth16_proofs_c(provers, P, r, s, proofs, &srs, NULL, -1), 1, "gpu_index",
        "negative gpu_index");
  fails(generate_groth16_proofs_c(provers, 0, r, s, proofs, &srs, NULL, 0), 1, "num_circuits", "no circuits");
  fails(generate_groth16_proofs_start_c(provers, P, r, s, &srs, NULL, 0, NULL), 1, "pending_out",
        "NULL pending_out");
  fails(finalize_groth16_proof_c(NULL, proofs), 1, "handle", "finalize(NULL)");
  {
    void* h = NULL;
    ok(generate_groth16_proofs_start_c(provers, 1, r, s, &srs, mtx, 0, &h),
       "start (finalized without proofs)");
    fails(finalize_groth16_proof_c(h, NULL), 1, "proofs is NULL", "finalize(h, NULL)");
  }
  destroy_gpu_mutex(mtx);

  /* the handle outlives evict_SRS; a clone outlives the dropped original */
  evict_SRS(&srs);
  SRS clone = clone_SRS(&srs);
  CHECK(clone.ptr != NULL, "clone_SRS");
  drop_SRS(&srs);
  CHECK(srs.ptr == NULL, "drop_SRS left the pointer");
  drop_SRS(&srs);
  fails(generate_groth16_proofs_c(provers, 1, r, s, proofs, &srs, NULL, 0), 1, "SRS", "dropped srs");
  ok(generate_groth16_proofs_c(provers, 2, r + 3 * P, s + 3 * P, proofs, &clone, NULL, 0),
     "prove with the clone");
  keep("clone", proofs, r + 3 * P, s + 3 * P, 2);
  drop_SRS(&clone);

  free(provers);
  free(proofs);
  free(proofs2);
  free(r);
  free(s);
  free((void*)base.a_aux_density);
  free((void*)base.b_inp_density);
  free((void*)base.b_aux_density);
  free((void*)base.a);
  free((void*)base.b);
  free((void*)base.c);
  free((void*)base.inp_assignment_data);
  free((void*)base.aux_assignment_data);
  printf("supraseal_abi_test: %zu partitions per call, all calls as expected\n", P);
  return 0;
}
