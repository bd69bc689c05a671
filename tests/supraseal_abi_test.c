/* libcuzk_supraseal.so from C, as Filecoin's Rust stack calls SupraSeal C2: the types and functions are
 * declared here as the Rust side declares them (docs/SUPRASEAL_ABI.md), not taken from cuzk's headers.
 *
 * usage: supraseal_abi_test DIR PARTITIONS
 * DIR holds what `supraseal_fixture --out DIR` made (circuit.params, the assignment files, meta.txt).
 * The test proves PARTITIONS partitions (all with the fixture's witness) per call through the
 * synchronous call and the split calls (start several, finalize in reverse order, destroy one unfinished),
 * with the caller's buffers overwritten and freed between start and finalize (the library reads a, b,
 * c and aux in place, never writes them, and only until start returns), after evict_SRS and through a
 * clone of a dropped handle, and writes each call's proofs to
 * DIR/NAME.proofs and its blinding scalars to DIR/NAME.blind for `supraseal_fixture --check`. Then it
 * checks that bad input (wrong popcounts and sizes, NULL pointers, a bad gpu_index, an unsatisfied
 * witness, a missing file) comes back as a RustError with a code and a message. Exit 0 on success. */
#include "supraseal_abi.h"

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

/* FNV-1a of the bytes of a, b, c and aux: the library must never write the caller's buffers. */
static uint64_t digest(const Assignment* a) {
  uint64_t h = 0xcbf29ce484222325ull;
  const void* parts[4] = {a->a, a->b, a->c, a->aux_assignment_data};
  const size_t sizes[4] = {a->abc_size * 32, a->abc_size * 32, a->abc_size * 32, a->aux_assignment_size * 32};
  for (int k = 0; k < 4; k++)
    for (size_t i = 0; i < sizes[k]; i++) h = (h ^ ((const uint8_t*)parts[k])[i]) * 0x100000001b3ull;
  return h;
}

/* A copy of n bytes at p in fresh memory. */
static void* dup(const void* p, size_t n) {
  void* q = malloc(n ? n : 1);
  CHECK(q, "out of memory");
  memcpy(q, p, n);
  return q;
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

  FixtureMeta m;
  const Assignment base = load_fixture(&m);
  const size_t log_n = m.log_n, abc = m.abc, n_aux = m.n_aux, aux_words = (n_aux + 63) / 64;
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

  /* synchronous, the library's own mutex; the caller's buffers are read, never written */
  const uint64_t before = digest(&base);
  ok(generate_groth16_proofs_c(provers, P, r, s, proofs, &srs, NULL, 0), "generate_groth16_proofs_c");
  CHECK(digest(&base) == before, "the call wrote into the caller's a, b, c or aux");
  keep("sync", proofs, r, s, P);

  /* split, with the caller's a, b, c, aux overwritten and freed before finalize: the proofs must equal
   * the synchronous call's (same r, s), so nothing after the start reads them */
  {
    Assignment own = base;
    own.a = dup(base.a, abc * 32);
    own.b = dup(base.b, abc * 32);
    own.c = dup(base.c, abc * 32);
    own.aux_assignment_data = dup(base.aux_assignment_data, n_aux * 32);
    Assignment* mine = malloc(P * sizeof *mine);
    CHECK(mine, "out of memory");
    for (size_t i = 0; i < P; i++) mine[i] = own;
    void* h = NULL;
    ok(generate_groth16_proofs_start_c(mine, P, r, s, &srs, NULL, 0, &h), "start (buffers freed after)");
    memset((void*)own.a, 0xa5, abc * 32);
    memset((void*)own.b, 0xa5, abc * 32);
    memset((void*)own.c, 0xa5, abc * 32);
    memset((void*)own.aux_assignment_data, 0xa5, n_aux * 32);
    free((void*)own.a);
    free((void*)own.b);
    free((void*)own.c);
    free((void*)own.aux_assignment_data);
    free(mine);
    ok(finalize_groth16_proof_c(h, proofs2), "finalize (buffers freed)");
    CHECK(memcmp(proofs, proofs2, P * sizeof *proofs) == 0,
          "the proofs of a start whose buffers were freed before finalize differ from the synchronous ones");
    printf("ok   %-28s -> proofs equal the synchronous call's\n", "buffers freed before finalize");
  }

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
  Assignment owned = base;
  free_fixture(&owned);
  printf("supraseal_abi_test: %zu partitions per call, all calls as expected\n", P);
  return 0;
}
