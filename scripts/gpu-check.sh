#!/usr/bin/env bash
# What runs on the GPU machine (the device tool's `run`): the GPU tests and benchmarks built elsewhere and
# carried in $BIN (default .gpu: cuzk_gpu_tests, cuzk_gpu_bench), with logs teed to $OUT.
#
#   scripts/gpu-check.sh                 tests (the NTT sweep to 2^27 included) + repeat runs + compute-sanitizer
#                                        memcheck/racecheck/synccheck on small tests + arithmetic bench + NTT bench
#                                        2^10..2^27 + MSM bench 2^20..2^26 (figures also in $OUT/bench_*.json)
#   GTEST_FILTER=... NTT_MIN=.. NTT_MAX=.. NTT_REPS=.. SKIP_TESTS=1 SKIP_BENCH=1 SASS=0 scripts/gpu-check.sh
#   NTT_SWEEP_MAX=20                     largest size of the NTT sweep (GpuNttSweep.*; default 27)
#   PTX_BIN=.gpu-ptx80 [PTX_FILTER=..]   also run the GPU tests built as compute_80 PTX only, JIT-compiled here
#                                        (the code sm_80/86/89 cards run); checks the binary has no SASS
#   SKIP_SANITIZERS=1 SKIP_REPEAT=1 SKIP_PACKED=1   leave out the compute-sanitizer runs / the repeat test /
#                                       the prover tests with the packed witness uploads
#   ANCHOR=1 ANCHOR_REPS=7               after cuzk's NTT and MSM bench, sppark's (scripts/sppark-anchor.sh: builds
#                                        tools/sppark_anchor from checkouts in .anchor/sppark and .anchor/blst)
#   PROVE="20 24 26" PROVE_REPS=3 PROVE_PARTITIONS=6   `cuzk bench prove --device gpu` at those sizes (needs
#                                        $BIN/cuzk), with gw = 1, 2 and --g2 gpu|cpu throughput runs
#   SANITIZE=1                           also compute-sanitizer memcheck on one small GPU proof
#   PARAMS_LOAD="22 26" PARAMS_DIR=/tmp  .params load speed (GPU decode with the subgroup check, CPU without)
#                                        of synthetic keys written to PARAMS_DIR (2^26: 23.6 GB of disk)
#
# Build here (a machine with nvcc, GoogleTest and nlohmann_json) and copy the binaries to .gpu/:
#   cmake -S . -B build-gpu -G Ninja -DCUZK_CUDA=ON -DCUZK_BENCH=OFF
#   (CMake 3.25 knows no flag for CUDA C++20: add -DCMAKE_USER_MAKE_RULES_OVERRIDE_CUDA=FILE where FILE sets
#    CMAKE_CUDA20_STANDARD_COMPILE_OPTION and CMAKE_CUDA20_EXTENSION_COMPILE_OPTION to -std=c++20)
#   ninja -C build-gpu cuzk_gpu_tests cuzk_gpu_bench && mkdir -p .gpu && cp build-gpu/tests/cuzk_gpu_{tests,bench} .gpu/
#   (scripts/gpu-build.sh does this, and adds the SupraSeal drop-in: libcuzk_supraseal.so, cuzk_supraseal_fixture,
#    cuzk_supraseal_abi_test, whose C test then runs here too)
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.gpu}
OUT=${OUT:-/tmp/cuzk-gpu-check}
mkdir -p "$OUT"
export CUZK_VECTORS=${CUZK_VECTORS:-$PWD/tests/vectors/noble.json}
status=0

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,memory.used \
  --format=csv 2>&1 | tee "$OUT/nvidia-smi.txt"

if [ "${SKIP_TESTS:-0}" != 1 ]; then
  CUZK_CUDA_SYNC_CHECK=1 CUZK_NTT_SWEEP_MAX_LOG="${NTT_SWEEP_MAX:-27}" "$BIN/cuzk_gpu_tests" \
    --gtest_filter="${GTEST_FILTER:-*}" 2>&1 | tee "$OUT/tests.log"
  rc=${PIPESTATUS[0]}; [ "$rc" = 0 ] || status=1
  echo "cuzk_gpu_tests exit $rc"
fi

# The packed witness uploads, forced (CUZK_UPLOAD_PACK=1: packed while crossing; 2: packed ahead of the GPU
# mutex; unset: packed ahead only while another partition holds the GPU, docs/PERFORMANCE.md §31): the prover
# tests whose witness crosses in each layout.
if [ "${SKIP_PACKED:-0}" != 1 ]; then
  for mode in 1 2; do
    CUZK_UPLOAD_PACK=$mode "$BIN/cuzk_gpu_tests" \
      --gtest_filter='GpuProver.EveryDevicePlanProvesTheSame:GpuProver.WitnessOverwritten*' > "$OUT/packed$mode.log" 2>&1
    rc=$?; [ "$rc" = 0 ] || status=1
    echo "prover tests with CUZK_UPLOAD_PACK=$mode exit $rc"
  done
fi

# The code a pre-Hopper card runs: PTX_BIN holds the GPU tests built as compute_80 PTX only
# (CUZK_CUDA_ARCHS=80-virtual BUILD_DIR=build-ptx80 OUT_BIN=.gpu-ptx80 scripts/gpu-build.sh), which the
# driver JIT-compiles for this card. The binary must carry no SASS (cuobjdump), and the tests must pass.
if [ -n "${PTX_BIN:-}" ]; then
  if command -v cuobjdump >/dev/null; then
    elf=$(cuobjdump --list-elf "$PTX_BIN/cuzk_gpu_tests" 2>/dev/null | grep -c "sm_" || true)
    ptx=$(cuobjdump --list-ptx "$PTX_BIN/cuzk_gpu_tests" 2>/dev/null | grep -c "sm_80\|compute_80" || true)
    echo "PTX build: $ptx compute_80 PTX images, $elf SASS images" | tee "$OUT/ptx80.log"
    { [ "$elf" = 0 ] && [ "$ptx" -gt 0 ]; } || { echo "PTX build carries SASS or no compute_80 PTX (FAILED)"; status=1; }
  fi
  CUDA_CACHE_MAXSIZE=4294967296 CUZK_CUDA_SYNC_CHECK=1 CUZK_NTT_SWEEP_MAX_LOG="${PTX_NTT_SWEEP_MAX:-22}" \
    "$PTX_BIN/cuzk_gpu_tests" --gtest_filter="${PTX_FILTER:-*}" 2>&1 | tee -a "$OUT/ptx80.log"
  rc=${PIPESTATUS[0]}; [ "$rc" = 0 ] || status=1
  echo "cuzk_gpu_tests as compute_80 PTX (JIT) exit $rc"
fi

# Determinism: GpuRepeat.* runs an NTT and MSMs 20 times each and compares; once as is and once with
# serialized launches.
if [ "${SKIP_REPEAT:-0}" != 1 ]; then
  for blocking in 0 1; do
    CUDA_LAUNCH_BLOCKING=$blocking "$BIN/cuzk_gpu_tests" --gtest_filter='GpuRepeat.*' > "$OUT/repeat_blocking$blocking.log" 2>&1
    rc=$?; [ "$rc" = 0 ] || status=1
    echo "repeat test (CUDA_LAUNCH_BLOCKING=$blocking) exit $rc"
  done
fi

# compute-sanitizer on one small NTT test (every pass shape) and one small MSM test (G1 and G2).
if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
  if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck synccheck; do
      for t in 'GpuNttSanitize.PassShapes' 'GpuMsmSanitize.Small'; do
        log="$OUT/sanitizer_${tool}_${t%%.*}.log"
        compute-sanitizer --tool "$tool" --error-exitcode 9 "$BIN/cuzk_gpu_tests" --gtest_filter="$t" > "$log" 2>&1
        rc=$?; [ "$rc" = 0 ] || status=1
        echo "compute-sanitizer --tool $tool $t exit $rc: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)"
      done
    done
  else
    echo "compute-sanitizer not found: sanitizer runs skipped (FAILED)"
    status=1
  fi
fi

# The SupraSeal drop-in (libcuzk_supraseal.so) from C, on the GPU: a 2^12 synthetic PoRep .params, three
# partitions through the synchronous and the split calls, every proof checked (tests/supraseal_abi.sh).
if [ -x "$BIN/cuzk_supraseal_abi_test" ] && [ -x "$BIN/cuzk_supraseal_fixture" ]; then
  LD_LIBRARY_PATH="$(cd "$BIN" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" bash tests/supraseal_abi.sh "$BIN/cuzk_supraseal_fixture" \
    "$BIN/cuzk_supraseal_abi_test" 12 3 /tmp/cuzk-supraseal-k12 > "$OUT/supraseal.log" 2>&1
  rc=$?; [ "$rc" = 0 ] || status=1
  echo "SupraSeal drop-in C test (2^12, 3 partitions) exit $rc"
fi

for k in ${PARAMS_LOAD:-}; do
  mkdir -p "${PARAMS_DIR:-/tmp}/cuzk-params-load"
  "$BIN/cuzk_gpu_bench" params-load "$k" "${PARAMS_DIR:-/tmp}/cuzk-params-load" 2>&1 | tee "$OUT/params_load_$k.log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done

if [ "${SKIP_BENCH:-0}" != 1 ]; then
  "$BIN/cuzk_gpu_bench" arith 2>&1 | tee "$OUT/bench_arith.log"
  rc=${PIPESTATUS[0]}; [ "$rc" = 0 ] || status=1
  "$BIN/cuzk_gpu_bench" --json "$OUT/bench_ntt.json" ntt "${NTT_MIN:-10}" "${NTT_MAX:-27}" "${NTT_REPS:-7}" 2>&1 |
    tee "$OUT/bench_ntt.log"
  rc=${PIPESTATUS[0]}; [ "$rc" = 0 ] || status=1
  "$BIN/cuzk_gpu_bench" --json "$OUT/bench_msm.json" msm "${MSM_MIN:-20}" "${MSM_MAX:-26}" "${MSM_REPS:-5}" 2>&1 |
    tee "$OUT/bench_msm.log"
  rc=${PIPESTATUS[0]}; [ "$rc" = 0 ] || status=1
  # sppark beside them, same machine and run (needs its checkout and blst's in .anchor/: carry it)
  if [ "${ANCHOR:-0}" = 1 ]; then
    bash scripts/sppark-anchor.sh all "${ANCHOR_REPS:-7}" 2>&1 | tee "$OUT/sppark_anchor.log"
    rc=${PIPESTATUS[0]}; [ "$rc" = 0 ] || status=1
  fi
  if [ "${NTT_VARIANTS:-0}" = 1 ]; then  # run-time NTT switch (src/cuda/ntt.cu) at the large sizes
    : > "$OUT/bench_ntt_variant.log"
    for v in 10 11; do
      for L in 24 27; do
        echo "== CUZK_NTT_LOG_BLOCK=$v L=$L" | tee -a "$OUT/bench_ntt_variant.log"
        CUZK_NTT_LOG_BLOCK=$v "$BIN/cuzk_gpu_bench" ntt $L $L 5 2>&1 | grep -E "^ *[0-9]|WRONG|error" |
          tee -a "$OUT/bench_ntt_variant.log"
      done
    done
  fi
fi

# The prover: GPU proofs of synthetic PoRep circuits, every proof verified (PROVE="K ...").
for K in ${PROVE:-}; do
  echo "== bench prove 2^$K" | tee -a "$OUT/bench_prove.log"
  "$BIN/cuzk" bench prove --synthetic porep --log2 "$K" --device gpu --reps "${PROVE_REPS:-3}" \
    --json "$OUT/bench_prove_$K.json" 2>&1 | tee -a "$OUT/bench_prove.log"
  rc=${PIPESTATUS[0]}; [ "$rc" = 0 ] || status=1
  if [ -n "${PROVE_PARTITIONS:-}" ]; then
    for g2 in gpu cpu; do
      for gw in 1 2; do
        echo "== bench prove 2^$K gw=$gw g2=$g2" | tee -a "$OUT/bench_prove.log"
        "$BIN/cuzk" bench prove --synthetic porep --log2 "$K" --device gpu --reps 1 --gw $gw --g2 $g2 \
          --partitions "$PROVE_PARTITIONS" 2>&1 | grep -E "throughput|error|median" | tee -a "$OUT/bench_prove.log"
        rc=${PIPESTATUS[0]}; [ "$rc" = 0 ] || status=1
      done
    done
  fi
done
if [ "${SANITIZE:-0}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/cuzk_gpu_tests" --gtest_filter='GpuProver.CircomFixtures*' \
    > "$OUT/sanitizer.log" 2>&1
  rc=$?; [ "$rc" = 0 ] || status=1
  echo "compute-sanitizer memcheck exit $rc ($(grep -c "ERROR SUMMARY: 0 errors" "$OUT/sanitizer.log") clean summaries)"
fi

# Optional Nsight Compute profile of the hot kernels (NCU=1): pipe utilization, occupancy, memory.
if [ "${NCU:-0}" = 1 ] && command -v ncu >/dev/null; then
  sections="--section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis"
  {
    ncu --clock-control none --kernel-name-base demangled -k regex:"FpParams.*MulEvenOdd|madd_kernel" -c 9 $sections \
      "$BIN/cuzk_gpu_bench" arith
    ncu --clock-control none -k regex:ntt_pass_kernel -c 3 $sections --section WarpStateStats --section SchedulerStats \
      "$BIN/cuzk_gpu_bench" ntt "${NCU_NTT:-27}" "${NCU_NTT:-27}" 5
  } > "$OUT/ncu.txt" 2>&1
  echo "ncu done ($(wc -l < "$OUT/ncu.txt") lines in $OUT/ncu.txt)"
fi

# Instruction mix of the hot kernels (cuobjdump is on the GPU image): opcode counts per kernel.
if [ "${SASS:-1}" = 1 ] && command -v cuobjdump >/dev/null && command -v python3 >/dev/null; then
  cuobjdump -sass "$BIN/cuzk_gpu_bench" 2>/dev/null | python3 -c '
import re, sys, collections
fn, counts = None, collections.OrderedDict()
for line in sys.stdin:
    m = re.match(r"\s*Function : (\S+)", line)
    if m:
        fn = m.group(1); counts[fn] = collections.Counter(); continue
    m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if m and fn: counts[fn][m.group(1)] += 1
for fn, c in counts.items():
    if not re.search(r"mul_chain_kernel|madd_kernel|ntt_pass_kernel", fn): continue
    tot = sum(c.values())
    imad = sum(v for k, v in c.items() if k.startswith("IMAD"))
    print(f"{fn[:110]}\n  total {tot}  IMAD* {imad}  " + " ".join(f"{k}:{v}" for k, v in c.most_common(14)))
' > "$OUT/sass_summary.txt" 2>&1
  echo "SASS summary: $OUT/sass_summary.txt ($(wc -l < "$OUT/sass_summary.txt") lines)"
fi

echo "gpu-check status $status"
exit $status
