#!/usr/bin/env bash
# The whole test suite (what CI runs): install, build what the tests run (with the CUDA code, for one
# architecture, when nvcc exists: GPU tests are built, and their CPU emulations run, but the device tests
# run only on a GPU machine, see scripts/gpu-check.sh), run every CPU test, then rebuild the CPU tests with
# AddressSanitizer + UndefinedBehaviorSanitizer and run them again, then run every fuzz target briefly.
#
# Every stage runs even when an earlier one failed (except those that need a failed build); the end lists
# each stage with its time and result, and the exit status is non-zero when any stage failed.
#
# On a busy machine: the tests' wall-clock allowances (ctest TIMEOUTs, the scripts' and C++ tests' waits)
# are multiplied by CUZK_TEST_TIMEOUT_SCALE, which this script sets from the load it measures before each
# test stage (at least 1; (other runnable threads + 2) / cores); set it yourself to override.
#   CUZK_CUDA=OFF        skip the CUDA code even when nvcc is found
#   CUZK_TEST_CUDA_ARCH  the one CUDA architecture the suite compiles for (default 90)
#   FUZZ_SECONDS         seconds per fuzz target (default 10)
#   CUZK_TEST_JOBS       ctest's parallelism (default 2)
set -uo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"
jobs=${CUZK_TEST_JOBS:-2}
t_start=$(date +%s)
names=() results=() times=()

# stage NAME COMMAND…: runs COMMAND, records its result and time; returns its status.
stage() {
  local name=$1 t0 rc
  shift
  echo
  echo "===== $name"
  t0=$(date +%s)
  "$@"
  rc=$?
  names+=("$name")
  times+=($(($(date +%s) - t0)))
  if [ $rc -eq 0 ]; then results+=(passed); else results+=("FAILED (exit $rc)"); fi
  echo "===== $name: ${results[-1]} in $(($(date +%s) - t0)) s"
  return $rc
}
skip() {  # skip NAME WHY: a stage that could not run counts as failed
  names+=("$1") times+=(0) results+=("FAILED (not run: $2)")
  echo "===== $1: not run ($2)"
}

# CUZK_TEST_TIMEOUT_SCALE from the load: the mean number of runnable threads over 3 s (/proc/loadavg's
# 4th field, less this sampler), i.e. what other work competes for the cores, against the 2 busy threads
# of `ctest -j2` that the tests' limits were set for.
set_scale() {
  if [ -n "${CUZK_TEST_TIMEOUT_SCALE_USER:-}" ]; then
    export CUZK_TEST_TIMEOUT_SCALE=$CUZK_TEST_TIMEOUT_SCALE_USER
  else
    local sum=0 n=0 r
    for _ in $(seq 30); do
      r=$(cut -d' ' -f4 /proc/loadavg)
      sum=$((sum + ${r%/*} - 1)) n=$((n + 1))
      sleep 0.1
    done
    export CUZK_TEST_TIMEOUT_SCALE
    CUZK_TEST_TIMEOUT_SCALE=$(awk -v s="$sum" -v n="$n" -v c="$(nproc)" -v j="$jobs" 'BEGIN {
      f = (s / n + j) / c; if (f < 1) f = 1; if (f > 20) f = 20; printf "%.1f\n", int(f * 10 + 0.999) / 10 }')
  fi
  echo "CUZK_TEST_TIMEOUT_SCALE=$CUZK_TEST_TIMEOUT_SCALE (load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores)"
}
CUZK_TEST_TIMEOUT_SCALE_USER=${CUZK_TEST_TIMEOUT_SCALE:-}

# ---- install -----------------------------------------------------------------------------------------
if ! stage install ./scripts/install-deps.sh; then
  skip "the rest" "install failed"
else
  # ---- build: only what ctest runs (the cuzk_ctest_targets target of tests/CMakeLists.txt), release ----
  # CUDA (when nvcc is found, unless CUZK_CUDA=OFF): compiled once, for one architecture (the release
  # default may list several), unoptimized (CUZK_CUDA_CHECK_ONLY: no GPU runs it here; ~3x less time).
  # The CPU benchmark is compiled too (one file: a compile check); the GPU benchmarks and the SupraSeal
  # benchmark are not built.
  export CUZK_CUDA=${CUZK_CUDA:-AUTO}
  build_main() {
    ./scripts/build.sh -DCUZK_CUDA_ARCHS="${CUZK_TEST_CUDA_ARCH:-90}" -DCUZK_CUDA_CHECK_ONLY=ON -DCUZK_SERVICE=AUTO \
      -DCUZK_TESTS=ON -DCUZK_BENCH=ON cuzk_ctest_targets cuzk_bench_cpu
  }
  if stage build build_main; then
    set_scale
    stage ctest bash -c "cd build && ctest --output-on-failure -j$jobs"
  else
    skip ctest "build failed"
  fi

  # ---- the CPU tests under AddressSanitizer + UndefinedBehaviorSanitizer ------------------------------
  build_asan() {
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCUZK_SANITIZE=ON -DCUZK_CUDA=OFF -DCUZK_BENCH=OFF \
      >/dev/null && cmake --build build-asan --target cuzk_tests cuzk_gadget_tests cuzk_c_abi_test
  }
  # The largest sizes of two tests (an 8 MiB parent cache's digest, 32/64 GiB C1 round trips: 170 s under
  # ASan on 2 cores) run in the release ctest; their small sizes, the same code, run here.
  if stage asan-build build_asan; then
    set_scale
    stage asan-ctest bash -c "cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      ctest --output-on-failure -j$jobs -E 'ParentCacheDigest512|ParentCacheDigest8MiB|C1Large|Of32And64GiB' \
      -R '^(Noble|Field|Fp52|Group|Pairing|Decoder|Format|Ntt|Msm|Groth16|Engine|Circuit|Gadget|Boolean|UInt32|MultiEq|Sha256|Poseidon|Por|Filecoin|CreateLabel|C1|Sdr|StackedWitness|PostVanilla|c_abi)'"
  else
    skip asan-ctest "asan-build failed"
  fi

  # ---- every libFuzzer target of fuzz/ for a bounded time from its seed corpus (fixed seed): a crash,
  # leak, timeout or property failure fails the suite (scripts/fuzz.sh; longer runs: scripts/fuzz.sh all 600).
  stage fuzz ./scripts/fuzz.sh all "${FUZZ_SECONDS:-10}"
fi

# ---- summary --------------------------------------------------------------------------------------------
echo
echo "===== summary ($(($(date +%s) - t_start)) s in all)"
failed=0
for i in "${!names[@]}"; do
  printf '  %-12s %5s s  %s\n' "${names[$i]}" "${times[$i]}" "${results[$i]}"
  [ "${results[$i]}" = passed ] || failed=$((failed + 1))
done
if [ $failed -gt 0 ]; then
  echo "$failed stage(s) failed"
  exit 1
fi
echo "all tests passed"
