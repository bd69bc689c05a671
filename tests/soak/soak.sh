#!/usr/bin/env bash
# The daemon soak (issue 21 item 3): one `cuzk serve` on loopback (CPU backend, the tiny circom circuit
# c = a·b of tests/data/tiny) and `cuzk bench soak` against it: CLIENTS concurrent clients send JOBS mixed
# jobs (valid, corrupt witnesses, unknown circuits, random cancels, clients gone mid-AwaitProof,
# oversized requests) for at most SECONDS; every outcome, the daemon's counters and its RSS and open
# descriptors are checked (tools/bench_soak.cpp). Then SIGTERM must stop the daemon with exit 0, and its
# log must hold no error line. CI (ctest soak_short) runs a short soak; scripts/soak.sh a long one.
#   CUZK=build/cuzk SRC=. tests/soak/soak.sh [JOBS] [SECONDS] [CLIENTS]
# SOAK_JSON=FILE keeps the report.
NO_ORACLE=1
source "$(dirname "$0")/../cli/common.sh"
source "$(dirname "$0")/../service/daemon_common.sh"
jobs=${1:-1500} secs=${2:-90} clients=${3:-4}
DAEMON=
trap '[ -n "$DAEMON" ] && kill -9 $DAEMON 2>/dev/null; rm -rf "$WORK"' EXIT
D="$SRC/tests/data/tiny"
cat >"$WORK/cuzk.toml" <<TOML
[daemon]
listen = "127.0.0.1:0"
[gpus]
gpu_workers_per_device = 2
gpu_threads = 1
[synthesis]
threads = 1
[logging]
level = "info"
[limits]
max_partitions = 64
max_queued_bytes = "1MiB"
max_connection_idle_s = 5
[[circuits]]
id = "tiny"
zkey = "$D/mul_final.zkey"
TOML
serve_config
set +e
"$CUZK" bench soak --addr "$A" --circuit tiny --witness "$D/mul.wtns" --zkey "$D/mul_final.zkey" \
  --jobs "$jobs" --seconds "$secs" --clients "$clients" --pid $DAEMON --max-partitions 64 \
  --max-queued-bytes 1048576 --json "$WORK/soak.json"
rc=$?
set -e
[ -n "${SOAK_JSON:-}" ] && cp "$WORK/soak.json" "$SOAK_JSON"
kill -0 $DAEMON 2>/dev/null || { tail -50 "$WORK/daemon.log"; fail "the daemon died during the soak"; }
[ $rc -eq 0 ] || { tail -20 "$WORK/daemon.log"; fail "bench soak: exit $rc"; }
kill -TERM $DAEMON
set +e
wait $DAEMON
drc=$?
set -e
DAEMON=
[ $drc -eq 0 ] || { tail -20 "$WORK/daemon.log"; fail "the daemon exited $drc after SIGTERM"; }
if grep -E '\[(error|critical)\]' "$WORK/daemon.log" | head -5 | grep -q .; then
  grep -E '\[(error|critical)\]' "$WORK/daemon.log" | head -5
  fail "the daemon logged errors"
fi
echo "soak: passed ($(wc -l <"$WORK/daemon.log") log lines)"
