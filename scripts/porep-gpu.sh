#!/usr/bin/env bash
# The 32 GiB PoRep C2 run on a GPU machine (docs/PERFORMANCE.md §11): a fake sector's C1, a testing key in
# Filecoin's file names, `cuzk porep prove` of all 10 partitions (each verified before the file is
# written), then `cuzk porep verify` from the chain data alone, plus `cuzk bench circuit`.
#   scripts/porep-gpu.sh CUZK_BINARY OUT_DIR [SIZE=32GiB] [WORK=/tmp/porep]
# Logs and the proof file go to OUT_DIR; the key (44 GB at 32 GiB) stays in WORK.
set -uo pipefail
CUZK=${1:?cuzk binary}
OUT=${2:?output folder}
SIZE=${3:-32GiB}
W=${4:-/tmp/porep}
mkdir -p "$OUT" "$W"
run() {  # run NAME command...: time and peak memory of one step, its output in OUT/NAME.log
  local name=$1
  shift
  local t0
  t0=$(date +%s%N)
  "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  echo "$name: exit $rc, $((($(date +%s%N) - t0) / 1000000)) ms" | tee -a "$OUT/steps.log"
  return $rc
}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv >"$OUT/gpu.txt" 2>&1
nproc >>"$OUT/gpu.txt"
run bench_circuit "$CUZK" bench circuit --reps 5
run fake_c1 "$CUZK" porep fake-c1 --sector-size "$SIZE" --seed 1 "$W/c1.json" || exit 1
run setup "$CUZK" setup --porep "$SIZE" --seed 1 "$W" || exit 1
P=$(ls "$W"/*.params)
V="${P%.params}.vk"
run prove "$CUZK" porep prove --c1 "$W/c1.json" --params "$P" --vk "$V" --no-subgroup-check "$W/proof.bin" || exit 1
run verify_seal "$CUZK" porep verify --seal "$W/c1.seal.json" --vk "$V" "$W/proof.bin"
run verify_c1 "$CUZK" porep verify --c1 "$W/c1.json" --vk "$V" "$W/proof.bin"
cp "$W/proof.bin" "$W/c1.seal.json" "$V" "$OUT/"
