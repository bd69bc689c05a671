/* What the C programs of the SupraSeal drop-in share (tests/supraseal_abi_test.c, supraseal_abi_bench.c):
 * SupraSeal C2's types and functions declared as the Rust side declares them (docs/SUPRASEAL_ABI.md),
 * not taken from cuzk's headers, and the loading of a fixture directory (tests/supraseal_fixture.cpp). */
#ifndef CUZK_TESTS_SUPRASEAL_ABI_H
#define CUZK_TESTS_SUPRASEAL_ABI_H

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

/* The fixture directory the program works in (set by main). */
static const char* dir;

/* Reads DIR/name; its size must be `bytes`. */
static inline void* load(const char* name, size_t bytes) {
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

static inline void save(const char* name, const char* ext, const void* data, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
  FILE* f = fopen(path, "wb");
  CHECK(f && fwrite(data, 1, bytes, f) == bytes && fclose(f) == 0, "cannot write %s", path);
}

/* k blinding scalars: arbitrary raw Montgomery words below r (top limb < 2^60 < r's top limb). */
static uint64_t rng_state = 0x5eed;
static inline void random_fr(fr_t* out, size_t k) {
  for (size_t i = 0; i < k; i++)
    for (int j = 0; j < 4; j++) {
      uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      out[i].l[j] = (z ^ (z >> 31)) >> (j == 3 ? 4 : 0);
    }
}

/* The fixture's meta.txt: "log_n abc_size n_inputs n_aux a_aux_popcount b_inp_popcount b_aux_popcount". */
typedef struct {
  size_t log_n, abc, n_inp, n_aux, pa, pbi, pba;
} FixtureMeta;

/* The fixture's partition as an Assignment (every buffer malloc'ed; free_fixture releases them). */
static inline Assignment load_fixture(FixtureMeta* m) {
  char path[4096];
  snprintf(path, sizeof path, "%s/meta.txt", dir);
  FILE* f = fopen(path, "r");
  CHECK(f && fscanf(f, "%zu %zu %zu %zu %zu %zu %zu", &m->log_n, &m->abc, &m->n_inp, &m->n_aux, &m->pa,
                    &m->pbi, &m->pba) == 7,
        "cannot read %s", path);
  fclose(f);
  const size_t aux_words = (m->n_aux + 63) / 64, inp_words = (m->n_inp + 63) / 64;
  Assignment a = {
      load("a_aux.bin", aux_words * 8),
      m->n_aux,
      m->pa,
      load("b_inp.bin", inp_words * 8),
      m->n_inp,
      m->pbi,
      load("b_aux.bin", aux_words * 8),
      m->n_aux,
      m->pba,
      load("a.bin", m->abc * 32),
      load("b.bin", m->abc * 32),
      load("c.bin", m->abc * 32),
      m->abc,
      load("inputs.bin", m->n_inp * 32),
      m->n_inp,
      load("aux.bin", m->n_aux * 32),
      m->n_aux,
  };
  return a;
}

static inline void free_fixture(Assignment* a) {
  free((void*)a->a_aux_density);
  free((void*)a->b_inp_density);
  free((void*)a->b_aux_density);
  free((void*)a->a);
  free((void*)a->b);
  free((void*)a->c);
  free((void*)a->inp_assignment_data);
  free((void*)a->aux_assignment_data);
}

#endif
