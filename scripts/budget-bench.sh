#!/usr/bin/env bash
# Proving under GPU memory budgets on the GPU machine (the device tool's `run`), issue 35's benchmark for a
# synthetic PoRep partition: the resident baseline, then each budget with the plan, the pinned
# host→device rate, every proof's stages (deferred and synthesized assignments, all verified) and the
# device's peak memory. Logs to $OUT.
#   LOG2=27 BUDGETS=16GiB,24GiB REPS=3 BIN=.gpu scripts/budget-bench.sh
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.gpu}
OUT=${OUT:-/tmp/cuzk-budget-bench}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv | tee "$OUT/gpu.txt"
# The driver's view of used memory every 100 ms beside the in-process sampler (bench prove prints both).
nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader -lms 100 > "$OUT/nvidia_smi_mem.csv" 2>&1 &
smi=$!
"$BIN/cuzk" bench prove --synthetic porep --log2 "${LOG2:-27}" --device gpu --reps "${REPS:-3}" \
  --stream-budget "${BUDGETS:-16GiB,24GiB}" --json "$OUT/bench_budget.json" 2>&1 | tee "$OUT/bench_budget.log"
rc=${PIPESTATUS[0]}
kill $smi 2>/dev/null
echo "nvidia-smi peak used: $(sort -t, -k2 -n "$OUT/nvidia_smi_mem.csv" | tail -1)" | tee -a "$OUT/bench_budget.log"
echo "budget-bench exit $rc"
exit $rc
