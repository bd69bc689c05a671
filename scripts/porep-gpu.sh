#!/usr/bin/env bash
# The 32 GiB PoRep C2 run on a GPU machine (docs/PERFORMANCE.md §11): a fake sector's C1, a testing key in
# Filecoin's file names, `cuzk porep prove` of all 10 partitions (each verified before the file is
# written), then `cuzk porep verify` from the chain data alone, plus `cuzk bench circuit`; then, when the
# binary has the daemon (`cuzk serve`), the same C1 as POREP_SEAL_COMMIT jobs through gRPC: one job
# (its proof verified against the C1 and the chain data), then `bench batch` with JOBS jobs in flight.
#   scripts/porep-gpu.sh CUZK_BINARY OUT_DIR [SIZE=32GiB] [WORK=/tmp/porep]
#   SKIP_BENCH_CIRCUIT=1 JOBS=3 GW=2 SYNTH_WORKERS=2 SYNTH_THREADS=8 (environment: the daemon's GPU workers,
#   synthesis workers and threads per synthesis worker)
# Logs and the proof file go to OUT_DIR; the key (47 GB at 32 GiB) stays in WORK.
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
[ "${SKIP_BENCH_CIRCUIT:-0}" = 1 ] || run bench_circuit "$CUZK" bench circuit --reps 5
run fake_c1 "$CUZK" porep fake-c1 --sector-size "$SIZE" --seed 1 "$W/c1.json" || exit 1
run setup "$CUZK" setup --porep "$SIZE" --seed 1 "$W" || exit 1
P=$(ls "$W"/*.params)
V="${P%.params}.vk"
run prove "$CUZK" porep prove --c1 "$W/c1.json" --params "$P" --vk "$V" --no-subgroup-check "$W/proof.bin" || exit 1
run verify_seal "$CUZK" porep verify --seal "$W/c1.seal.json" --vk "$V" "$W/proof.bin"
run verify_c1 "$CUZK" porep verify --c1 "$W/c1.json" --vk "$V" "$W/proof.bin"
cp "$W/proof.bin" "$W/c1.seal.json" "$V" "$OUT/"

# The daemon (a binary built with gRPC): the parameters found in srs.param_cache by their Filecoin name.
"$CUZK" serve --help >/dev/null 2>&1 || { echo "no daemon in this binary" | tee -a "$OUT/steps.log"; exit 0; }
cat >"$W/cuzk.toml" <<TOML
[daemon]
listen = "127.0.0.1:0"
[gpus]
gpu_workers_per_device = ${GW:-2}
[synthesis]
threads = ${SYNTH_THREADS:-8}
[pipeline]
synthesis_concurrency = ${SYNTH_WORKERS:-2}
synthesis_lookahead = 2
[srs]
param_cache = "$W"
verify_subgroup = false
TOML
"$CUZK" serve --config "$W/cuzk.toml" >"$OUT/daemon.log" 2>&1 &
DAEMON=$!
trap 'kill $DAEMON 2>/dev/null' EXIT
for _ in $(seq 300); do
  grep -q "cuzk daemon listening" "$OUT/daemon.log" && break
  sleep 0.1
done
A="127.0.0.1:$(sed -n 's/.*grpc=[^ ]* (port \([0-9]*\)).*/\1/p' "$OUT/daemon.log")"
mkdir -p "$W/d1"
run daemon_first_job "$CUZK" client prove --addr "$A" --porep "$W/c1.json" --out "$W/d1" || exit 1
run daemon_verify_c1 "$CUZK" porep verify --c1 "$W/c1.json" --vk "$V" "$W/d1/proof.bin"
run daemon_verify_seal "$CUZK" porep verify --seal "$W/c1.seal.json" --vk "$V" "$W/d1/proof.bin"
run daemon_batch "$CUZK" bench batch --addr "$A" --porep "$W/c1.json" -c "${JOBS:-3}" -j "${JOBS:-3}"
"$CUZK" client status --addr "$A" >"$OUT/daemon_status.json" 2>&1
"$CUZK" client metrics --addr "$A" >"$OUT/daemon_metrics.txt" 2>&1
kill $DAEMON
