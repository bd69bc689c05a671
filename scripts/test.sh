#!/usr/bin/env bash
# The whole test suite (what CI runs): install, build what the tests run (with the CUDA code, for one
# architecture, when nvcc exists: GPU tests are built, and their CPU emulations run, but the device tests
# run only on a GPU machine, see scripts/gpu-check.sh) and run every CPU test; beside that, rebuild the CPU
# tests with AddressSanitizer + UndefinedBehaviorSanitizer and run them again, then run every fuzz target
# briefly (the sanitizer lane).
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
#   CUZK_TEST_JOBS       ctest's parallelism (default: cores + 2, as ninja's: the end-to-end tests wait on
#                        their daemons, PostgreSQL and subprocesses for part of their time)
#   CUZK_TEST_SERIAL=1   run the sanitizer lane after the release tests instead of beside them
set -uo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"
jobs=${CUZK_TEST_JOBS:-$(($(nproc) + 2))}
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
# 4th field, less this sampler), i.e. what other work competes for the cores, plus ctest's jobs, per core:
# the tests' limits were set for a core per test (`ctest -j2` on 2 idle cores).
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
    [ $((sum / n)) -ge "${1:-0}" ] || sum=$((${1:-0} * n))
    export CUZK_TEST_TIMEOUT_SCALE
    CUZK_TEST_TIMEOUT_SCALE=$(awk -v s="$sum" -v n="$n" -v c="$(nproc)" -v j="$jobs" 'BEGIN {
      f = (s / n + j) / c; if (f < 1) f = 1; if (f > 20) f = 20; printf "%.1f\n", int(f * 10 + 0.999) / 10 }')
  fi
  echo "CUZK_TEST_TIMEOUT_SCALE=$CUZK_TEST_TIMEOUT_SCALE (load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores)"
}
CUZK_TEST_TIMEOUT_SCALE_USER=${CUZK_TEST_TIMEOUT_SCALE:-}

# ---- the sanitizer lane: the CPU tests under AddressSanitizer + UndefinedBehaviorSanitizer, then every
# libFuzzer target of fuzz/ for a bounded time from its seed corpus (fixed seed; a crash, leak, timeout or
# property failure fails the suite: scripts/fuzz.sh; longer runs: scripts/fuzz.sh all 600). It needs
# nothing from the release build, so it runs beside it and the release ctest (CUZK_TEST_SERIAL=1: after
# them): the release tests wait on their servers and daemons for part of their time, and a machine that
# other work keeps busy gives the suite a share by its runnable threads.
build_asan() {
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCUZK_SANITIZE=ON -DCUZK_CUDA=OFF -DCUZK_BENCH=OFF \
    >/dev/null && cmake --build build-asan --target cuzk_tests cuzk_gadget_tests cuzk_c_abi_test
}
sanitizer_lane() {
  if stage asan-build build_asan; then
    # the release ctest may run beside it: at least its jobs count as other work
    set_scale "$jobs"
    # The largest sizes of two tests (an 8 MiB parent cache's digest, 32/64 GiB C1 round trips: 170 s under
    # ASan on 2 cores) run in the release ctest; their small sizes, the same code, run here.
    stage asan-ctest bash -c "cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      ctest --output-on-failure -j$jobs -E 'ParentCacheDigest512|ParentCacheDigest8MiB|C1Large|Of32And64GiB' \
      -R '^(Noble|Field|Fp52|Group|Pairing|Decoder|Format|Ntt|Msm|Groth16|Engine|Circuit|Gadget|Boolean|UInt32|MultiEq|Sha256|Poseidon|Por|Filecoin|CreateLabel|C1|Sdr|StackedWitness|PostVanilla|c_abi)'"
  else
    skip asan-ctest "asan-build failed"
  fi
  stage fuzz ./scripts/fuzz.sh all "${FUZZ_SECONDS:-10}"
}

# ---- install -----------------------------------------------------------------------------------------
if ! stage install ./scripts/install-deps.sh; then
  skip "the rest" "install failed"
else
  lane_pid= lane_log=.test-sanitizers.log lane_results=.test-sanitizers.results
  rm -f "$lane_log" "$lane_results"  # an earlier run's
  if [ "${CUZK_TEST_SERIAL:-0}" != 1 ]; then
    echo "(the sanitizer lane runs beside the release build and tests; its output: $lane_log, printed at its end)"
    (
      first=${#names[@]}
      sanitizer_lane
      for i in $(seq "$first" $((${#names[@]} - 1))); do
        printf '%s\t%s\t%s\n' "${names[$i]}" "${times[$i]}" "${results[$i]}"
      done >"$lane_results"
    ) >"$lane_log" 2>&1 &
    lane_pid=$!
  fi

  # ---- build: only what ctest runs (the cuzk_ctest_targets target of tests/CMakeLists.txt), release ----
  # CUDA (when nvcc is found, unless CUZK_CUDA=OFF): compiled once, for one architecture (the release
  # default may list several), as a compile check (CUZK_CUDA_CHECK_ONLY: no GPU runs it here; PTX only,
  # unoptimized). The CPU benchmark is compiled too (one file: a compile check); the GPU benchmarks and
  # the SupraSeal benchmark are not built.
  export CUZK_CUDA=${CUZK_CUDA:-AUTO}
  build_main() {
    ./scripts/build.sh -DCUZK_CUDA_ARCHS="${CUZK_TEST_CUDA_ARCH:-90}" -DCUZK_CUDA_CHECK_ONLY=ON -DCUZK_SERVICE=AUTO \
      -DCUZK_TESTS=ON -DCUZK_BENCH=ON cuzk_ctest_targets cuzk_bench_cpu
  }
  if stage build build_main; then
    # the sanitizer lane beside it: at least a build's parallelism (ninja's default) counts as other work
    if [ -n "$lane_pid" ] && kill -0 "$lane_pid" 2>/dev/null; then set_scale $(($(nproc) + 2)); else set_scale; fi
    stage ctest bash -c "cd build && ctest --output-on-failure -j$jobs"
  else
    skip ctest "build failed"
  fi

  if [ -n "$lane_pid" ]; then
    wait "$lane_pid"
    echo
    echo "===== the sanitizer lane's output ($lane_log)"
    cat "$lane_log"
    if [ -s "$lane_results" ]; then
      while IFS=$'\t' read -r n t r; do names+=("$n") times+=("$t") results+=("$r"); done <"$lane_results"
    else
      skip "sanitizer lane" "it ended without its results"
    fi
  else
    sanitizer_lane
  fi
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
