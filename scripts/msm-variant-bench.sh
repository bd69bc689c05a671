#!/usr/bin/env bash
# The GPU MSM's bucket accumulation, old against new, on the GPU machine (issue 22 item 1): variant 1 (XYZZ
# mixed additions, today's default) and variant 2 (batch-affine accumulation, msm_engine.hpp's BaPrepK /
# BaInvK / BaStepK) at several limits on its affine rounds. Binaries from scripts/gpu-build.sh in $BIN.
#   1. the MSM tests under each variant (every GPU result against the CPU, the edge matrix, repeat runs),
#      and compute-sanitizer memcheck on the small MSM case under variant 2;
#   2. `cuzk_gpu_bench msm` per configuration (the code of `cuzk bench msm --gpu`: median of MSM_REPS runs,
#      every run checked against the CPU MSM), JSON reports in $OUT;
#   3. one profiled G1 run per configuration at 2^MSM_MAX (CUZK_MSM_PROFILE=1: time per phase).
#
#   scripts/msm-variant-bench.sh                  tests, then G1 2^24 and 2^26, G2 2^24, for 1 and 2 × ROUNDS
#   MSM_MIN=20 MSM_MAX=26 MSM_REPS=5 ROUNDS="2 3 4 6" SKIP_TESTS=1 SKIP_PROFILE=1 BIN=.gpu OUT=/tmp/cuzk-msm-variants
#   CUZK_MSM_BA_WAVE=N                            pairs per batch-affine wave (default 2^23; passed through)
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.gpu}
OUT=${OUT:-/tmp/cuzk-msm-variants}
MIN=${MSM_MIN:-24}
MAX=${MSM_MAX:-26}
REPS=${MSM_REPS:-5}
ROUNDS=${ROUNDS:-2 3 4 6}
mkdir -p "$OUT"
status=0

if [ "${SKIP_TESTS:-0}" != 1 ]; then
  for v in 1 2; do
    CUZK_CUDA_SYNC_CHECK=1 CUZK_MSM_VARIANT=$v "$BIN/cuzk_gpu_tests" \
      --gtest_filter="${GTEST_FILTER:-GpuMsm*:GpuRepeat.Msm}" > "$OUT/tests_variant$v.log" 2>&1
    rc=$?; [ "$rc" = 0 ] || status=1
    echo "MSM tests, CUZK_MSM_VARIANT=$v: exit $rc; $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests_variant$v.log" | tr '\n' ' ')"
  done
  if command -v compute-sanitizer >/dev/null; then
    CUZK_MSM_VARIANT=2 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/cuzk_gpu_tests" \
      --gtest_filter='GpuMsmSanitize.Small' > "$OUT/memcheck_variant2.log" 2>&1
    rc=$?; [ "$rc" = 0 ] || status=1
    echo "memcheck GpuMsmSanitize.Small, variant 2: exit $rc; $(grep 'ERROR SUMMARY' "$OUT/memcheck_variant2.log" | tail -1)"
  fi
fi

configs=("1 -")
for r in $ROUNDS; do configs+=("2 $r"); done
for cfg in "${configs[@]}"; do
  read -r v r <<< "$cfg"
  tag="variant$v"; env=(CUZK_MSM_VARIANT=$v)
  if [ "$r" != - ]; then tag="variant${v}_rounds$r"; env+=(CUZK_MSM_BA_ROUNDS=$r); fi
  echo "== $tag"
  env "${env[@]}" "$BIN/cuzk_gpu_bench" --json "$OUT/bench_$tag.json" msm "$MIN" "$MAX" "$REPS" > "$OUT/bench_$tag.log" 2>&1
  rc=$?; [ "$rc" = 0 ] || status=1
  grep -E 'uniform: +median|0/1-heavy' "$OUT/bench_$tag.log"
  grep -q MISMATCH "$OUT/bench_$tag.log" && { echo "  MISMATCH against the CPU"; status=1; }
  [ "$rc" = 0 ] || echo "  cuzk_gpu_bench exit $rc (log: $OUT/bench_$tag.log)"
  if [ "${SKIP_PROFILE:-0}" != 1 ]; then
    env "${env[@]}" CUZK_MSM_PROFILE=1 "$BIN/cuzk_gpu_bench" msm "$MAX" "$MAX" 5 > "$OUT/profile_$tag.log" 2>&1
    grep -F "[msm profile] m=$((1 << MAX)) " "$OUT/profile_$tag.log" | head -n 3 | tail -n 1 | sed 's/^/  /'
  fi
done
echo "msm-variant-bench: status $status (logs in $OUT)"
exit $status
