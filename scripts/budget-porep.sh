#!/usr/bin/env bash
# Issue 35's benchmark on a GPU machine with a real-shaped key: a 32 GiB PoRep C2 from a fake C1 under GPU
# memory budgets. Makes the fake C1 and a testing key (kept in WORK between calls), then for each entry of
# PROVE_BUDGETS runs `cuzk porep prove --gpu-mem-budget B` ("resident": no budget) (every partition verified; its per-partition
# stages in the log) and for each entry of DAEMON_BUDGETS starts `cuzk serve` with gpus.mem_budget = B
# ("resident": no budget) and runs `bench batch -c JOBS -j JOBS` after one warm-up job whose proof is
# verified against the C1. Beside each run: the device's peak used memory (nvidia-smi every 100 ms) and the
# process's peak host RSS (VmHWM). Logs and a summary in OUT.
#   scripts/budget-porep.sh CUZK OUT [WORK=/tmp/porep]
#   PROVE_BUDGETS=16GiB DAEMON_BUDGETS=16GiB,resident JOBS=3 GW=2 SYNTH_WORKERS=2 SYNTH_THREADS=8
#   LOG_LEVEL=debug: the daemons log each partition's backend stages (partition_stages)
#   MEMORY_MAX=64G: the daemons run in a cgroup v2 of that memory.max (as systemd's MemoryMax; needs a
#   writable /sys/fs/cgroup), whose peak (memory.peak) and OOM kills are reported beside each run
set -uo pipefail
CUZK=${1:?cuzk binary}
OUT=${2:?output folder}
W=${3:-/tmp/porep}
mkdir -p "$OUT" "$W"
SUM="$OUT/summary.txt"
say() { echo "$*" | tee -a "$SUM"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
nvidia-smi --query-gpu=name,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader \
  | tee -a "$SUM"
smi_start() {  # samples the device's used memory into $OUT/$1.smi
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 >"$OUT/$1.smi" 2>/dev/null &
  SMI=$!
}
smi_stop() {
  kill "$SMI" 2>/dev/null
  wait "$SMI" 2>/dev/null
  echo "$(sort -n "$OUT/$1.smi" | tail -1) MiB"
}

if [ ! -s "$W/c1.json" ] || ! ls "$W"/*.params >/dev/null 2>&1; then
  t=$(now_ms)
  "$CUZK" porep fake-c1 --sector-size 32GiB --seed 1 "$W/c1.json" >"$OUT/fake_c1.log" 2>&1 || exit 1
  "$CUZK" setup --porep 32GiB --seed 1 "$W" >"$OUT/setup.log" 2>&1 || { tail "$OUT/setup.log"; exit 1; }
  say "fake C1 + setup: $(($(now_ms) - t)) ms"
fi
P=$(ls "$W"/*.params)
V="${P%.params}.vk"

IFS=, read -ra PB <<<"${PROVE_BUDGETS:-}"
for B in "${PB[@]}"; do
  smi_start "prove_$B"
  t=$(now_ms)
  BF=(--gpu-mem-budget "$B")
  [ "$B" = resident ] && BF=()
  TIMEV=()
  [ -x /usr/bin/time ] && TIMEV=(/usr/bin/time -v)
  CUZK_MEM_TRACE=${CUZK_MEM_TRACE:-0} "${TIMEV[@]}" "$CUZK" porep prove --c1 "$W/c1.json" --params "$P" \
    --vk "$V" --no-subgroup-check "${BF[@]}" "$W/proof_$B.bin" >"$OUT/prove_$B.log" 2>&1
  rc=$?
  ms=$(($(now_ms) - t))
  peak=$(smi_stop "prove_$B")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$OUT/prove_$B.log")
  ok=$("$CUZK" porep verify --c1 "$W/c1.json" --vk "$V" "$W/proof_$B.bin" 2>&1 | tail -1)
  say "porep prove --gpu-mem-budget $B: exit $rc, $ms ms, device peak $peak, host peak $((${rss:-0} / 1024)) MiB, verify: $ok"
done

IFS=, read -ra DB <<<"${DAEMON_BUDGETS:-}"
for B in "${DB[@]}"; do
  mb=""
  [ "$B" = resident ] || mb="mem_budget = \"$B\""
  cat >"$W/cuzk_$B.toml" <<TOML
[daemon]
listen = "127.0.0.1:0"
[gpus]
gpu_workers_per_device = ${GW:-2}
$mb
[synthesis]
threads = ${SYNTH_THREADS:-8}
[pipeline]
synthesis_concurrency = ${SYNTH_WORKERS:-2}
synthesis_lookahead = 2
[srs]
param_cache = "$W"
verify_subgroup = false
[logging]
level = "${LOG_LEVEL:-info}"
TOML
  smi_start "daemon_$B"
  CG=""
  if [ -n "${MEMORY_MAX:-}" ]; then
    CG=/sys/fs/cgroup/cuzk_budget_$$
    grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
      echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
    mkdir -p "$CG" && echo "$MEMORY_MAX" >"$CG/memory.max" && echo 0 >"$CG/memory.swap.max" 2>/dev/null
    [ -w "$CG/cgroup.procs" ] && [ -f "$CG/memory.max" ] || { say "MEMORY_MAX: no writable cgroup v2 at $CG"; CG=""; }
  fi
  if [ -n "$CG" ]; then
    sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" "$CUZK" serve --config "$W/cuzk_$B.toml" \
      >"$OUT/daemon_$B.log" 2>&1 &
  else
    "$CUZK" serve --config "$W/cuzk_$B.toml" >"$OUT/daemon_$B.log" 2>&1 &
  fi
  D=$!
  for _ in $(seq 300); do
    grep -q "cuzk daemon listening" "$OUT/daemon_$B.log" && break
    sleep 0.1
  done
  A="127.0.0.1:$(sed -n 's/.*grpc=[^ ]* (port \([0-9]*\)).*/\1/p' "$OUT/daemon_$B.log")"
  mkdir -p "$W/d_$B"
  t=$(now_ms)
  "$CUZK" client prove --addr "$A" --porep "$W/c1.json" --out "$W/d_$B" >"$OUT/daemon_${B}_first.log" 2>&1
  first=$(($(now_ms) - t))
  ok=$("$CUZK" porep verify --c1 "$W/c1.json" --vk "$V" "$W/d_$B/proof.bin" 2>&1 | tail -1)
  t=$(now_ms)
  "$CUZK" bench batch --addr "$A" --porep "$W/c1.json" -c "${JOBS:-3}" -j "${JOBS:-3}" \
    >"$OUT/daemon_${B}_batch.log" 2>&1
  rc=$?
  batch=$(($(now_ms) - t))
  rss=$(sed -n 's/VmHWM:\s*//p' /proc/$D/status)
  "$CUZK" client metrics --addr "$A" >"$OUT/daemon_${B}_metrics.txt" 2>&1
  kill $D
  wait $D 2>/dev/null
  peak=$(smi_stop "daemon_$B")
  if [ -n "$CG" ]; then
    say "cgroup memory.max $MEMORY_MAX: peak $(($(cat "$CG/memory.peak" 2>/dev/null || echo 0) / 1048576)) MiB," \
      "oom_kill $(sed -n 's/^oom_kill //p' "$CG/memory.events")"
    rmdir "$CG" 2>/dev/null
  fi
  say "daemon $B: first job $first ms (verify: $ok); batch of ${JOBS:-3} with ${JOBS:-3} in flight: exit $rc, $batch ms" \
    "($((batch / ${JOBS:-3})) ms per proof); device peak $peak; daemon host peak $rss"
  grep -E "per proof|proofs|wall" "$OUT/daemon_${B}_batch.log" | head -5 | tee -a "$SUM"
done
