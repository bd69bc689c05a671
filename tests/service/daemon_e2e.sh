#!/usr/bin/env bash
# `cuzk serve` end to end: a bad configuration exits 2 naming the key; the daemon serves the mimc and
# tiny fixtures over TCP and a unix socket; its proofs verify with snarkjs and with cuzk; /metrics and
# /status answer; a second daemon on the same port or socket exits 2; `cuzk bench batch` runs; SIGTERM
# with queued jobs drains and exits 0; `client prove` creates its --out folder and prints the paths it wrote.
source "$(dirname "$0")/../cli/common.sh"
# The daemon's stdout/stderr go to a log; stop it if the script fails before it does.
DAEMON=
trap '[ -n "$DAEMON" ] && kill -9 $DAEMON 2>/dev/null; rm -rf "$WORK"' EXIT
D="$SRC/tests/data"

echo "== bad configurations exit 2 and name the key"
cat >"$WORK/bad1.toml" <<TOML
[gpus]
gpu_workers_per_device = 0
TOML
expect_exit 2 "workers = 0" -- "$CUZK" serve --config "$WORK/bad1.toml"
expect_err_contains "gpus.gpu_workers_per_device: must be between 1 and 64, got 0"
printf '[memory]\ntotal_budget = "lots"\n' >"$WORK/bad2.toml"
expect_exit 2 "bad size" -- "$CUZK" serve --config "$WORK/bad2.toml"
expect_err_contains "memory.total_budget:"
printf '[daemon]\nlisten = "127.0.0.1:9820"\nlisen = "x"\n' >"$WORK/bad3.toml"
expect_exit 2 "unknown key" -- "$CUZK" serve --config "$WORK/bad3.toml"
expect_err_contains "daemon.lisen: unknown key"
printf '[[circuits]]\nid = "a"\nzkey = "nope.zkey"\n' >"$WORK/bad4.toml"
expect_exit 2 "missing zkey" -- "$CUZK" serve --config "$WORK/bad4.toml"
expect_err_contains "circuits[0].zkey:"

SOCK="$WORK/cuzk.sock"
cat >"$WORK/cuzk.toml" <<TOML
[daemon]
listen = "127.0.0.1:0"
status_listen = "127.0.0.1:0"
[gpus]
gpu_workers_per_device = 2
gpu_threads = 1
[synthesis]
threads = 1
[logging]
timeline_csv = "$WORK/timeline.csv"
[[circuits]]
id = "mimc"
zkey = "$D/mimc/mimc_dev.zkey"
preload = true
[[circuits]]
id = "tiny"
zkey = "$D/tiny/mul_final.zkey"
TOML
sed "s|^listen = .*|listen = \"unix://$SOCK\"|; s|^status_listen.*||; s|^timeline_csv.*||" \
  "$WORK/cuzk.toml" >"$WORK/unix.toml"

start_daemon() {  # config log
  "$CUZK" serve --config "$1" >"$2" 2>&1 &
  DAEMON=$!
  local end
  end=$(deadline 30)
  until grep -q "cuzk daemon listening" "$2"; do
    kill -0 $DAEMON 2>/dev/null || { cat "$2"; fail "the daemon exited at start"; }
    before "$end" || { cat "$2"; fail "the daemon did not listen within $(scaled 30) s"; }
    sleep 0.1
  done
}
stop_daemon() {  # expects exit 0 after SIGTERM
  kill -TERM $DAEMON
  local rc=0
  wait $DAEMON || rc=$?
  DAEMON=
  [ $rc -eq 0 ] || fail "the daemon exited $rc after SIGTERM"
}

echo "== TCP: proofs of two partitions verify with snarkjs and cuzk"
start_daemon "$WORK/cuzk.toml" "$WORK/daemon.log"
# The ports the daemon chose (port 0 in the config): "grpc=127.0.0.1:0 (port N) http=127.0.0.1:0 (port M)"
PORT=$(sed -n 's/.*grpc=[^ ]* (port \([0-9]*\)).*/\1/p' "$WORK/daemon.log")
HPORT=$(sed -n 's/.*http=[^ ]* (port \([0-9]*\)).*/\1/p' "$WORK/daemon.log")
A="127.0.0.1:$PORT"
# --out: a folder that client prove creates; it prints the paths of the files it wrote (issue 36)
"$CUZK" client prove --addr "$A" --circuit mimc --witness "$D/mimc/mimc.wtns" --partitions 2 --out "$WORK/p1" >"$WORK/r1.json"
grep -qF "\"proof\": \"$WORK/p1/proof.bin\"" "$WORK/r1.json" || { cat "$WORK/r1.json"; fail "client prove: no proof.bin path printed"; }
grep -qF "\"$WORK/p1/public_1.json\"" "$WORK/r1.json" || { cat "$WORK/r1.json"; fail "client prove: no public_1.json path printed"; }
for i in 0 1; do
  "${SNARKJS[@]}" groth16 verify "$D/mimc/mimc_dev_vk.json" "$WORK/p1/public_$i.json" "$WORK/p1/proof_$i.json" | grep -q OK \
    || fail "snarkjs rejects partition $i"
  "$CUZK" verify "$D/mimc/mimc_dev_vk.json" "$WORK/p1/public_$i.json" "$WORK/p1/proof_$i.json" >/dev/null \
    || fail "cuzk rejects partition $i"
done
cmp -s "$WORK/p1/public_0.json" "$D/mimc/public.json" || fail "public signals differ from snarkjs's"
[ "$(stat -c %s "$WORK/p1/proof.bin")" -eq 384 ] || fail "proof.bin: expected 2 x 192 bytes"
echo "== a second daemon on the same port exits 2 (no SO_REUSEPORT)"
sed "s|^listen = .*|listen = \"$A\"|; s|^status_listen.*||; s|^timeline_csv.*||" "$WORK/cuzk.toml" >"$WORK/same.toml"
expect_exit 2 "second daemon on $A" -- timeout "$(scaled 60)" "$CUZK" serve --config "$WORK/same.toml"
expect_err_contains "daemon.listen: cannot listen on $A"
sed "s|^listen = .*|listen = \"127.0.0.1:0\"|; s|^status_listen.*|status_listen = \"127.0.0.1:$HPORT\"|; s|^timeline_csv.*||" \
  "$WORK/cuzk.toml" >"$WORK/same_http.toml"
expect_exit 2 "second daemon on HTTP port $HPORT" -- timeout "$(scaled 60)" "$CUZK" serve --config "$WORK/same_http.toml"
expect_err_contains "daemon.status_listen: cannot listen on 127.0.0.1:$HPORT"
echo "== a corrupt witness and an unknown circuit fail their own job only"
head -c 200 "$D/mimc/mimc.wtns" >"$WORK/corrupt.wtns"
expect_exit 1 "corrupt witness" -- "$CUZK" client prove --addr "$A" --circuit mimc --witness "$WORK/corrupt.wtns" --out "$WORK/p1"
grep -q '"status": "FAILED"' "$WORK/out" || fail "corrupt witness: status not FAILED"
grep -q 'the witness' "$WORK/out" || fail "corrupt witness: the error does not say why"
expect_exit 1 "unknown circuit" -- "$CUZK" client prove --addr "$A" --circuit nope --witness "$D/mimc/mimc.wtns" --out "$WORK/p1"
grep -q 'unknown circuit' "$WORK/out" || fail "unknown circuit: the error does not say why"
mkdir "$WORK/p2"
"$CUZK" client prove --addr "$A" --circuit tiny --witness "$D/tiny/mul.wtns" --out "$WORK/p2" >/dev/null
"${SNARKJS[@]}" groth16 verify "$D/tiny/verification_key.json" "$WORK/p2/public_0.json" "$WORK/p2/proof_0.json" | grep -q OK \
  || fail "snarkjs rejects the tiny proof"
echo "== HTTP /metrics and /status, GetStatus, evict/preload"
# a job's counters are updated as its result is published, so a client can see the result a moment
# before the counter moves: poll for up to 5 s (times CUZK_TEST_TIMEOUT_SCALE).
answers() { curl -sf "$1" | grep -q "$2"; }  # answers URL PATTERN
poll() { wait_for 5 answers "$1" "$2"; }     # poll URL PATTERN
poll "http://127.0.0.1:$HPORT/metrics" 'cuzk_jobs_total{state="completed"} 2' || fail "/metrics"
poll "http://127.0.0.1:$HPORT/status" '"failed": 2' || fail "/status"
"$CUZK" client status --addr "$A" | grep -q '"totalProofsCompleted": "2"' || fail "GetStatus"
"$CUZK" client evict --addr "$A" tiny | grep -q '"wasLoaded": true' || fail "EvictSRS"
"$CUZK" client preload --addr "$A" tiny | grep -q '"alreadyLoaded": false' || fail "PreloadSRS"
grep -q "partition_done" "$WORK/daemon.log" && grep -q "b_g2_ms=" "$WORK/daemon.log" || fail "no partition_done log line"
[ "$(wc -l <"$WORK/timeline.csv")" -eq 4 ] || fail "timeline.csv: expected a header and 3 partitions"
echo "== bench batch"
"$CUZK" bench batch --addr "$A" -c 6 -j 3 --witness "$D/mimc/mimc.wtns" >"$WORK/bench.txt"
grep -q "6/6 jobs completed" "$WORK/bench.txt" && grep -q "proofs/min" "$WORK/bench.txt" || { cat "$WORK/bench.txt"; fail "bench batch"; }
echo "== SIGTERM with queued jobs exits cleanly"
for i in $(seq 12); do
  "$CUZK" client submit --addr "$A" --circuit mimc --witness "$D/mimc/mimc.wtns" --partitions 2 >>"$WORK/jobs"
done
stop_daemon
grep -q "cuzk daemon stopped" "$WORK/daemon.log" || fail "no clean stop in the log"

echo "== unix socket"
start_daemon "$WORK/unix.toml" "$WORK/unix.log"
mkdir "$WORK/p3"
"$CUZK" client prove --addr "unix://$SOCK" --circuit mimc --witness "$D/mimc/mimc.wtns" --out "$WORK/p3" >/dev/null
"${SNARKJS[@]}" groth16 verify "$D/mimc/mimc_dev_vk.json" "$WORK/p3/public_0.json" "$WORK/p3/proof_0.json" | grep -q OK \
  || fail "snarkjs rejects the proof over the unix socket"
echo "== a second daemon on the same unix socket exits 2 and the first keeps it"
expect_exit 2 "second daemon on $SOCK" -- timeout "$(scaled 60)" "$CUZK" serve --config "$WORK/unix.toml"
expect_err_contains "cannot listen on unix://$SOCK: another daemon holds $SOCK.lock"
"$CUZK" client prove --addr "unix://$SOCK" --circuit mimc --witness "$D/mimc/mimc.wtns" --out "$WORK/p3" >/dev/null \
  || fail "the first daemon lost its socket"
stop_daemon
echo "daemon e2e: all passed"
