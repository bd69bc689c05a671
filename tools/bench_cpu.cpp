#include "bench_cpu.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "msm/pippenger.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk::cli {

namespace {

Fr random_scalar(std::mt19937_64& rng) {
  for (;;) {
    uint64_t l[Fr::N];
    for (auto& x : l) x = rng();
    l[Fr::N - 1] &= ~0ULL >> 1;  // below 2^255; about 9 in 10 are then below r
    Fr r;
    if (Fr::from_canonical(l, r)) return r;
  }
}

/// n pseudo-random subgroup points: per chunk, a walk S, S + R_0, S + R_0 + R_1, … with S and R_i random
/// multiples of the generator, then one batch_to_affine per chunk. About one addition per point.
template <class F>
std::vector<Affine<F>> make_bases(size_t n, uint64_t seed, ThreadPool& pool) {
  std::vector<Affine<F>> out(n);
  const size_t chunk = std::max<size_t>(1024, (n + 4 * pool.size() - 1) / (4 * pool.size()));
  const size_t nchunks = (n + chunk - 1) / chunk;
  pool.parallel_for(
      nchunks,
      [&](size_t cb, size_t ce) {
        for (size_t ci = cb; ci < ce; ci++) {
          std::mt19937_64 rng(seed * 1000003 + ci);
          Affine<F> r[8];
          for (auto& p : r) p = scalar_mul(Curve<F>::generator(), random_scalar(rng)).to_affine();
          Jacobian<F> acc = scalar_mul(Curve<F>::generator(), random_scalar(rng));
          const size_t b = ci * chunk, e = std::min(n, b + chunk);
          std::vector<Jacobian<F>> j(e - b);
          for (size_t i = b; i < e; i++) {
            acc = acc.add_affine(r[i % 8]);
            j[i - b] = acc;
          }
          auto a = batch_to_affine(j);
          std::copy(a.begin(), a.end(), out.begin() + (ptrdiff_t)b);
        }
      },
      1);
  return out;
}

/// CPU time of the whole process (all threads), in ms: on a shared machine it shows what the wall clock
/// cannot (time lost to other processes).
double process_cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

const char* method_name(MsmBuckets m) {
  switch (m) {
    case MsmBuckets::kXyzz:
      return "xyzz";
    case MsmBuckets::kBatchAffine:
      return "batch-affine";
    default:
      return "auto";
  }
}

template <class F>
bool bench_group(const char* group, int log_min, int log_max, ThreadPool& p1, ThreadPool& pn, int reps) {
  bool ok = true;
  std::mt19937_64 rng(log_min * 31 + log_max);
  for (int lg = log_min; lg <= log_max; lg++) {
    const size_t n = size_t{1} << lg;
    const auto bases = make_bases<F>(n, (uint64_t)lg + (sizeof(F) > 48 ? 100 : 0), pn);
    std::vector<Fr> scalars(n);
    for (auto& s : scalars) s = random_scalar(rng);
    Jacobian<F> first = Jacobian<F>::infinity();
    ThreadPool* pools[2] = {&p1, &pn};
    for (int pi = 0; pi < (pn.size() > 1 ? 2 : 1); pi++) {
      ThreadPool& pool = *pools[pi];
      const MsmConfig plan = msm_plan<F>(n, pool.size());
      Jacobian<F> r = msm<F>(bases, scalars, pool);  // warm-up
      std::vector<double> ms, cpu;
      for (int i = 0; i < reps; i++) {
        const double c0 = process_cpu_ms();
        auto t0 = std::chrono::steady_clock::now();
        Jacobian<F> ri = msm<F>(bases, scalars, pool);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        cpu.push_back(process_cpu_ms() - c0);
        if (ri != r) ok = false;
      }
      const double med = median(ms), med_cpu = median(cpu);
      std::string check;
      if (pi == 0) {
        first = r;
        if (lg == log_min) {
          Jacobian<F> ref = Jacobian<F>::infinity();
          if (n <= 4096) {
            for (size_t i = 0; i < n; i++) ref += scalar_mul(bases[i], scalars[i]);
            check = "naive";
          } else {
            MsmConfig other;
            other.buckets = plan.buckets == MsmBuckets::kXyzz ? MsmBuckets::kBatchAffine : MsmBuckets::kXyzz;
            other.window_bits = std::max(1, plan.window_bits - 2);
            ref = msm<F>(bases, scalars, pn, other);
            check = std::string(method_name(other.buckets)) + " c=" + std::to_string(other.window_bits);
          }
          const bool eq = ref == r;
          ok &= eq;
          check += eq ? " ok" : " MISMATCH";
        }
      } else {
        const bool eq = r == first;
        ok &= eq;
        check = eq ? "= 1 thread" : "!= 1 thread MISMATCH";
      }
      std::printf("2^%-3d %-3s %7u %3d %-13s %12.1f %10.1f %12.1f  %s\n", lg, group, pool.size(),
                  plan.window_bits, method_name(plan.buckets), med, med * 1e6 / (double)n, med_cpu,
                  check.c_str());
      std::fflush(stdout);
    }
  }
  return ok;
}

}  // namespace

int bench_msm_cpu(int log_min, int log_max, unsigned threads, int reps) {
  if (log_min < 0 || log_max > 26 || log_min > log_max || reps < 1)
    throw Error(ErrorCode::kInvalidArgument,
                "bench msm: need 0 <= log_min <= log_max <= 26 and reps >= 1, got " +
                    std::to_string(log_min) + ".." + std::to_string(log_max) + ", reps " +
                    std::to_string(reps));
  ThreadPool p1(1), pn(threads);
  std::printf("CPU MSM, random scalars: median of %s after one warm-up\n", counted(reps, "run").c_str());
  std::printf("%-5s %-3s %7s %3s %-13s %12s %10s %12s  %s\n", "size", "grp", "threads", "c", "buckets",
              "median ms", "ns/point", "cpu ms", "check");
  bool ok = bench_group<Fp>("G1", log_min, log_max, p1, pn, reps);
  ok &= bench_group<Fp2>("G2", log_min, log_max, p1, pn, reps);
  std::printf(ok ? "all checks passed\n" : "CHECK FAILED\n");
  return ok ? 0 : 1;
}

}  // namespace cuzk::cli
