#!/usr/bin/env bash
# The daemon's WINNING_POST and WINDOW_POST_PARTITION jobs end to end, over gRPC, at 2 KiB: fake
# sectors' vanilla proofs (bincode, as Curio's cuzk client sends them) and testing keys in a temporary
# parameter cache under Filecoin's file names; the proofs the daemon returns verify with `cuzk post
# verify`. A missing parameter file, a truncated vanilla proof, a vanilla proof of other challenges and a
# registered proof of the other PoSt type are refused with a message naming the problem, and the daemon
# keeps serving.
NO_ORACLE=1 source "$(dirname "$0")/../cli/common.sh"
source "$(dirname "$0")/daemon_common.sh"
DAEMON=
trap '[ -n "$DAEMON" ] && kill -9 $DAEMON 2>/dev/null; rm -rf "$WORK"' EXIT
STEM=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0
WIN=$STEM-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e
WDP=$STEM-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0

echo "== fake requests and their keys"
"$CUZK" -q post fake --registered-proof 0 --seed 3 "$WORK/win"
"$CUZK" -q post fake --registered-proof 10 --seed 4 "$WORK/wdp"
mkdir "$WORK/pc"
test_keys "$WORK/setup" post setup --registered-proof 0 --seed 1
test_keys "$WORK/setup" post setup --registered-proof 10 --seed 1
ln "$WORK/setup/$WIN.params" "$WORK/pc/$WIN.params"

start_daemon "$WORK/pc"
grep -q "post=winning-2k" "$WORK/daemon.log" || { cat "$WORK/daemon.log"; fail "winning-2k not registered at start"; }
mkdir "$WORK/p1" "$WORK/p2" "$WORK/p3"

echo "== WINNING_POST"
"$CUZK" client prove --addr "$A" --post "$WORK/win/request.json" --out "$WORK/p1" >"$WORK/r1.json" \
  || { cat "$WORK/r1.json" "$WORK/daemon.log"; fail "winning job"; }
grep -q '"status": "COMPLETED"' "$WORK/r1.json" || fail "winning: not COMPLETED"
[ "$(stat -c %s "$WORK/p1/proof.bin")" -eq 192 ] || fail "winning: expected one 192-byte proof"
"$CUZK" post verify --request "$WORK/win/request.json" --vk "$WORK/setup/$WIN.vk" "$WORK/p1/proof.bin" >/dev/null \
  || fail "the daemon's WinningPoSt proof does not verify"

echo "== WINDOW_POST_PARTITION without its parameters, then with them"
expect_exit 2 "missing params" -- "$CUZK" client prove --addr "$A" --post "$WORK/wdp/request.json" --out "$WORK/p2"
expect_err_contains "$WORK/pc/$WDP.params: no such file"
alive "a job without parameters"
ln "$WORK/setup/$WDP.params" "$WORK/pc/$WDP.params"
"$CUZK" client prove --addr "$A" --post "$WORK/wdp/request.json" --out "$WORK/p2" >"$WORK/r2.json" \
  || { cat "$WORK/r2.json" "$WORK/daemon.log"; fail "window job"; }
"$CUZK" post verify --request "$WORK/wdp/request.json" --vk "$WORK/setup/$WDP.vk" "$WORK/p2/proof.bin" >/dev/null \
  || fail "the daemon's WindowPoSt proof does not verify"
"$CUZK" client status --addr "$A" | grep -q '"circuitId": "wpost-2k"' || fail "GetStatus does not list wpost-2k"

echo "== bad inputs are refused naming the problem"
cp -r "$WORK/wdp" "$WORK/bad"
for V in "$WORK"/bad/sector-*.bin; do head -c 700 "$V" >"$V.cut" && mv "$V.cut" "$V"; done
expect_exit 2 "truncated vanilla proof" -- "$CUZK" client prove --addr "$A" --post "$WORK/bad/request.json" --out "$WORK/p3"
expect_err_contains "vanilla_proofs[0]: byte"
sed 's/"partition_index": 0/"partition_index": 1/; s/"registered_proof": 10/"registered_proof": 5/' \
  "$WORK/wdp/request.json" >"$WORK/wdp/other.json"
expect_exit 2 "other challenges" -- "$CUZK" client prove --addr "$A" --post "$WORK/wdp/other.json" --out "$WORK/p3"
expect_err_contains "opens leaf"
sed 's/"registered_proof": 0/"registered_proof": 5/' "$WORK/win/request.json" >"$WORK/win/window.json"
expect_exit 2 "a window id for a winning request" -- "$CUZK" client prove --addr "$A" --post "$WORK/win/window.json" --out "$WORK/p3"
expect_err_contains "66 inclusion proofs; WindowPoSt takes 10"
alive "the bad inputs"

kill -TERM $DAEMON
rc=0
wait $DAEMON || rc=$?
DAEMON=
[ $rc -eq 0 ] || fail "the daemon exited $rc after SIGTERM"
echo "post e2e: all passed"
