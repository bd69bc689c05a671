#!/usr/bin/env bash
# The proving farm's overhead (docs/CLUSTER.md, docs/PERFORMANCE.md): JOBS tiny circom jobs (default
# 1000, CONCURRENCY Prove calls at once, default 16) through `cuzk bench batch`, first against one
# daemon without [cluster], then against a farm of NODES nodes (default 3) sharing a throw-away
# PostgreSQL server (the calls round-robin over the nodes, one bench process per node). Prints both
# throughputs and the median claim + store time per partition (from the nodes' partition_stored lines).
# Usage: CUZK=build/cuzk scripts/bench-farm.sh [JOBS] [CONCURRENCY] [NODES]
set -euo pipefail
export SRC=${SRC:-$(cd "$(dirname "$0")/.." && pwd)}
export CUZK=${CUZK:-$SRC/build/cuzk}
export NO_ORACLE=1
source "$SRC/tests/cli/common.sh"
source "$SRC/tests/cluster/farm_common.sh"
JOBS=${1:-1000}
CONC=${2:-16}
NODES=${3:-3}
W="$D/tiny/mul.wtns"

echo "== one daemon, no database: $JOBS tiny jobs, $CONC at a time"
cat >"$WORK/solo.toml" <<TOML
[daemon]
listen = "127.0.0.1:0"
[gpus]
gpu_workers_per_device = 1
gpu_threads = 1
[synthesis]
threads = 1
[[circuits]]
id = "tiny"
zkey = "$D/tiny/mul_final.zkey"
TOML
"$CUZK" serve --config "$WORK/solo.toml" >"$WORK/solo.log" 2>&1 &
NODE_PID[0]=$!
for _ in $(seq 100); do grep -q "cuzk daemon listening" "$WORK/solo.log" && break; sleep 0.1; done
A="127.0.0.1:$(sed -n 's/.*grpc=[^ ]* (port \([0-9]*\)).*/\1/p' "$WORK/solo.log")"
"$CUZK" bench batch --addr "$A" --circuit tiny --witness "$W" -c "$JOBS" -j "$CONC" 2>/dev/null | grep -E "jobs completed|proofs/min"
kill_node 0

echo "== a farm of $NODES nodes on PostgreSQL: $JOBS tiny jobs, $CONC at a time, spread over the nodes"
start_pg
for n in $(seq "$NODES"); do start_node "$n"; done
t0=$(date +%s.%N)
for n in $(seq "$NODES"); do
  "$CUZK" bench batch --addr "${ADDR[$n]}" --circuit tiny --witness "$W" -c $((JOBS / NODES)) -j $((CONC / NODES > 0 ? CONC / NODES : 1)) \
    >"$WORK/bench-$n.txt" 2>/dev/null &
done
wait $(jobs -p | tail -n "$NODES")
t=$(echo "$(date +%s.%N) - $t0" | bc)
for n in $(seq "$NODES"); do grep -E "jobs completed" "$WORK/bench-$n.txt" | sed "s/^/   node $n: /"; done
echo "   farm: $((JOBS / NODES * NODES)) jobs in ${t}s = $(echo "scale=1; $((JOBS / NODES * NODES)) * 60 / $t" | bc) jobs/min"
sed -n 's/.*claim_ms=\([0-9.]*\) store_ms=\([0-9.]*\).*/\1 \2/p' "$WORK"/node-*.log >"$WORK/overhead"
for col in 1 2 3; do
  awk -v c=$col '{v = c == 3 ? $1 + $2 : $c; print v}' "$WORK/overhead" | sort -n \
    | awk -v c=$col '{a[NR] = $1} END {n = c == 1 ? "claim" : c == 2 ? "store" : "claim + store"; printf "   %s per partition: median %.2f ms, p90 %.2f ms (%d partitions)\n", n, a[int((NR + 1) / 2)], a[int(NR * 0.9)], NR}'
done
