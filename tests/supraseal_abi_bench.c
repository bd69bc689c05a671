/* The SupraSeal drop-in timed as Filecoin's Rust stack uses it: one process that loads the parameters
 * once (create_SRS with cache) and calls generate_groth16_proofs_c again and again on buffers it owns.
 * Every proof the library returns has been verified by it (the pairing), so a call that returns code 0
 * made a valid proof.
 *
 * usage: supraseal_abi_bench DIR REPS [CIRCUITS]
 * DIR holds what `supraseal_fixture --out DIR` made (with --no-setup the .params come from
 * `cuzk setup --synthetic porep …`). One warm-up call, then REPS timed calls of CIRCUITS circuits each
 * (default 1, all with the fixture's witness); prints each call's wall time and the median, and writes the
 * last call's proofs and blinding to DIR/bench.proofs, DIR/bench.blind for `supraseal_fixture --check`.
 * With CUZK_TIMING=1 in the environment the library prints its per-stage lines on stderr. */
#include <time.h>

#include "supraseal_abi.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int by_value(const void* x, const void* y) {
  const double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

int main(int argc, char** argv) {
  CHECK(argc == 3 || argc == 4, "usage: supraseal_abi_bench DIR REPS [CIRCUITS]");
  dir = argv[1];
  const int reps = atoi(argv[2]);
  const size_t k = argc == 4 ? (size_t)strtoul(argv[3], NULL, 10) : 1;
  CHECK(reps >= 1 && k >= 1, "REPS and CIRCUITS must be at least 1");
  FixtureMeta m;
  Assignment base = load_fixture(&m);
  Assignment* provers = malloc(k * sizeof *provers);
  groth16_proof* proofs = malloc(k * sizeof *proofs);
  fr_t *r = malloc(k * sizeof *r), *s = malloc(k * sizeof *s);
  double* ms = malloc((size_t)reps * sizeof *ms);
  CHECK(provers && proofs && r && s && ms, "out of memory");
  for (size_t i = 0; i < k; i++) provers[i] = base;

  char params[4096];
  snprintf(params, sizeof params, "%s/circuit.params", dir);
  SRS srs = {NULL};
  double t = now_ms();
  RustError e = create_SRS(&srs, params, true);
  CHECK(e.code == 0, "create_SRS: %s", e.message ? e.message : "?");
  printf("create_SRS(cache) %s: %.0f ms; 2^%zu, %zu constraints (abc_size), %zu aux\n", params, now_ms() - t,
         m.log_n, m.abc, m.n_aux);
  for (int rep = -1; rep < reps; rep++) {
    random_fr(r, k);
    random_fr(s, k);
    t = now_ms();
    e = generate_groth16_proofs_c(provers, k, r, s, proofs, &srs, NULL, 0);
    const double took = now_ms() - t;
    CHECK(e.code == 0, "generate_groth16_proofs_c: code %d: %s", e.code, e.message ? e.message : "?");
    printf("%s: %.1f ms for %zu circuit%s\n", rep < 0 ? "warm-up" : "call", took, k, k == 1 ? "" : "s");
    fflush(stdout);
    if (rep >= 0) ms[rep] = took;
  }
  save("bench", "proofs", proofs, k * sizeof *proofs);
  fr_t* rs = malloc(2 * k * sizeof *rs);
  CHECK(rs, "out of memory");
  memcpy(rs, r, k * sizeof *r);
  memcpy(rs + k, s, k * sizeof *s);
  save("bench", "blind", rs, 2 * k * sizeof *rs);
  qsort(ms, (size_t)reps, sizeof *ms, by_value);
  printf("median of %d: %.1f ms per call (%.1f ms per circuit); min %.1f, max %.1f\n", reps, ms[reps / 2],
         ms[reps / 2] / (double)k, ms[0], ms[reps - 1]);
  drop_SRS(&srs);
  free(rs);
  free(ms);
  free(provers);
  free(proofs);
  free(r);
  free(s);
  free_fixture(&base);
  return 0;
}
