#!/usr/bin/env bash
# The daemon's POREP_SEAL_COMMIT jobs end to end, over gRPC, on a 2 KiB sector: a fake C1 (raw and in
# Curio's envelope) and its key set up into a temporary parameter cache under Filecoin's file name; the
# proofs the daemon returns verify against the C1 and against the chain data (.seal.json). A missing
# parameter file, a truncated C1, and sizes, proofs or sector numbers that disagree are refused
# with a message naming the problem, and the daemon keeps serving (a good job after them succeeds).
NO_ORACLE=1 source "$(dirname "$0")/../cli/common.sh"
source "$(dirname "$0")/daemon_common.sh"
DAEMON=
trap '[ -n "$DAEMON" ] && kill -9 $DAEMON 2>/dev/null; rm -rf "$WORK"' EXIT
STEM=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f

echo "== a 2 KiB fake C1 (raw and enveloped) and its key (setup --porep, once)"
"$CUZK" -q porep fake-c1 --sector-size 2KiB --seed 1 "$WORK/c1.json"
"$CUZK" -q porep fake-c1 --sector-size 2KiB --seed 1 --envelope 7 "$WORK/env.json"
mkdir "$WORK/pc"
test_keys "$WORK/setup" setup --porep 2KiB --seed 1
[ -f "$WORK/setup/$STEM.params" ] && [ -f "$WORK/setup/$STEM.vk" ] || fail "setup --porep did not write $STEM.{params,vk}"

start_daemon "$WORK/pc"
grep -q "porep=none" "$WORK/daemon.log" || { cat "$WORK/daemon.log"; fail "the empty param cache registered a circuit"; }
mkdir "$WORK/p1" "$WORK/p2" "$WORK/p3"

echo "== missing parameter file: FAILED_PRECONDITION naming the file"
expect_exit 2 "missing params" -- "$CUZK" client prove --addr "$A" --porep "$WORK/c1.json" --out "$WORK/p1"
expect_err_contains "$WORK/pc/$STEM.params: no such file"
alive "a job without parameters"

# The file appears in the cache: the next job registers the circuit and proves.
ln "$WORK/setup/$STEM.params" "$WORK/pc/$STEM.params"
echo "== raw C1 with Curio's fields (registered_proof 5 = StackedDrg2KiBV1_1, sector_size 2048)"
t0=$(date +%s)
"$CUZK" client prove --addr "$A" --porep "$WORK/c1.json" --registered-proof 5 --sector-size 2048 \
  --request-id porep-1000-1 --out "$WORK/p1" >"$WORK/r1.json" || { cat "$WORK/r1.json" "$WORK/daemon.log"; fail "raw C1 job"; }
echo "   raw C1 job: $(($(date +%s) - t0)) s"
grep -q '"status": "COMPLETED"' "$WORK/r1.json" || fail "raw C1: not COMPLETED"
grep -q '"partitions": 1' "$WORK/r1.json" || fail "raw C1: expected 1 partition"
[ "$(stat -c %s "$WORK/p1/proof.bin")" -eq 192 ] || fail "proof.bin: expected 1 x 192 bytes"
"$CUZK" porep verify --c1 "$WORK/c1.json" --vk "$WORK/setup/$STEM.vk" "$WORK/p1/proof.bin" >/dev/null \
  || fail "the daemon's proof does not verify against the C1"
"$CUZK" porep verify --seal "$WORK/c1.seal.json" --vk "$WORK/setup/$STEM.vk" "$WORK/p1/proof.bin" >/dev/null \
  || fail "the daemon's proof does not verify against the chain data"
"$CUZK" client status --addr "$A" | grep -q '"circuitId": "porep-2k"' || fail "GetStatus does not list porep-2k"

echo "== bad inputs are refused naming the problem"
head -c 3000 "$WORK/c1.json" >"$WORK/truncated.json"
expect_exit 2 "truncated C1" -- "$CUZK" client prove --addr "$A" --porep "$WORK/truncated.json" --out "$WORK/p3"
expect_err_contains "vanilla_proof:"
grep -qiE "truncated|unexpected end|incomplete" "$WORK/err" || { cat "$WORK/err"; fail "truncated C1: the error does not say so"; }
expect_exit 2 "sector_size disagrees" -- "$CUZK" client prove --addr "$A" --porep "$WORK/c1.json" \
  --sector-size 34359738368 --out "$WORK/p3"
expect_err_contains "sector_size 34359738368 disagrees with the C1's registered proof StackedDrg2KiBV1_1"
expect_exit 2 "registered_proof disagrees" -- "$CUZK" client prove --addr "$A" --porep "$WORK/c1.json" \
  --registered-proof 8 --sector-size 2048 --out "$WORK/p3"
expect_err_contains "registered_proof 8 (StackedDrg32GiBV1_1) disagrees"
# A C1 whose registered proof says 8 MiB while its proofs are 2 KiB ones.
sed 's/"registered_proof":"StackedDrg2KiBV1_1"/"registered_proof":"StackedDrg8MiBV1_1"/' "$WORK/c1.json" >"$WORK/wrong_proof.json"
cmp -s "$WORK/c1.json" "$WORK/wrong_proof.json" && fail "could not edit registered_proof"
expect_exit 2 "registered_proof vs the proofs" -- "$CUZK" client prove --addr "$A" --porep "$WORK/wrong_proof.json" --out "$WORK/p3"
expect_err_contains "vanilla_proof: "
grep -q "StackedDrg8MiB" "$WORK/err" || { cat "$WORK/err"; fail "wrong registered_proof: the error does not name it"; }
# An envelope whose SectorSize disagrees with the registered proof inside it.
sed 's/"SectorSize":2048/"SectorSize":34359738368/' "$WORK/env.json" >"$WORK/env_size.json"
cmp -s "$WORK/env.json" "$WORK/env_size.json" && fail "could not edit SectorSize"
expect_exit 2 "envelope SectorSize" -- "$CUZK" client prove --addr "$A" --porep "$WORK/env_size.json" --out "$WORK/p3"
expect_err_contains "SectorSize"
expect_exit 2 "sector_number vs SectorNum" -- "$CUZK" client prove --addr "$A" --porep "$WORK/env.json" \
  --sector-number 8 --out "$WORK/p3"
expect_err_contains "sector_number 8 disagrees with the envelope's SectorNum 7"
alive "the bad inputs"

echo "== Curio's envelope (SectorNum 7), after the bad inputs"
"$CUZK" client prove --addr "$A" --porep "$WORK/env.json" --sector-number 7 --out "$WORK/p2" >"$WORK/r2.json" \
  || { cat "$WORK/r2.json"; fail "envelope job"; }
"$CUZK" porep verify --seal "$WORK/env.seal.json" --vk "$WORK/setup/$STEM.vk" "$WORK/p2/proof.bin" >/dev/null \
  || fail "the enveloped C1's proof does not verify"

echo "== evict, then a job reloads the circuit; bench batch --porep"
"$CUZK" client evict --addr "$A" porep-2k | grep -q '"wasLoaded": true' || fail "EvictSRS porep-2k"
"$CUZK" bench batch --addr "$A" --porep "$WORK/c1.json" -c 2 -j 2 >"$WORK/bench.txt" || { cat "$WORK/bench.txt"; fail "bench batch --porep"; }
grep -q "2/2 jobs completed (2 partition proofs, POREP_SEAL_COMMIT" "$WORK/bench.txt" && grep -q "proofs/min" "$WORK/bench.txt" \
  || { cat "$WORK/bench.txt"; fail "bench batch --porep output"; }
grep -q "circuit_loaded circuit=porep-2k\|circuit_loaded.*porep-2k" "$WORK/daemon.log" || fail "no circuit_loaded line for porep-2k"

kill -TERM $DAEMON
rc=0
wait $DAEMON || rc=$?
DAEMON=
[ $rc -eq 0 ] || fail "the daemon exited $rc after SIGTERM"
echo "porep e2e: all passed"
