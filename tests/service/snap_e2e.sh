#!/usr/bin/env bash
# Filecoin SnapDeals end to end on a 2 KiB fake update, with one TESTING-ONLY key: `snap setup` under
# Filecoin's file name, `snap prove` (every partition verified before writing) and `snap verify`, then the
# daemon's SNAP_DEALS_UPDATE jobs over gRPC with Curio's fields (vanilla_proofs as bincode, registered_proof,
# sector_size, comm_r_old / comm_r_new / comm_d_new) whose proofs `snap verify` accepts; a missing
# parameter file, a registered proof of another size and commitments of another update are refused by
# name and the daemon keeps serving.
NO_ORACLE=1 source "$(dirname "$0")/../cli/common.sh"
source "$(dirname "$0")/daemon_common.sh"
DAEMON=
trap '[ -n "$DAEMON" ] && kill -9 $DAEMON 2>/dev/null; rm -rf "$WORK"' EXIT
STEM=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194
cd "$WORK"

echo "== a 2 KiB fake update and its key (snap setup, once)"
"$CUZK" -q snap fake --sector-size 2KiB --seed 3 v.json
"$CUZK" -q snap fake --sector-size 2KiB --seed 4 o.json
mkdir pc p1 p2
test_keys setup snap setup --sector-size 2KiB --seed 9
[ -f "setup/$STEM.params" ] && [ -f "setup/$STEM.vk" ] || fail "snap setup did not write $STEM.{params,vk}"
V="setup/$STEM.vk"

echo "== the CLI: prove, verify"
t0=$(date +%s)
expect_exit 0 "snap prove" -- "$CUZK" -q snap prove --vanilla v.json --update v.update.json --params "setup/$STEM.params" \
  --vk "$V" --no-subgroup-check proof.bin
echo "   prove (one partition, verified): $(($(date +%s) - t0)) s"
[ "$(stat -c %s proof.bin)" = 192 ] || fail "proof is not one 192-byte partition"
expect_exit 0 "snap verify" -- "$CUZK" snap verify --update v.update.json --vk "$V" proof.bin
expect_exit 1 "a proof of another update" -- "$CUZK" snap verify --update o.update.json --vk "$V" proof.bin

start_daemon "$WORK/pc"
grep -q "snap=none" daemon.log || { cat daemon.log; fail "the empty param cache registered a SnapDeals circuit"; }

echo "== the daemon: missing parameters, then a job"
expect_exit 2 "missing params" -- "$CUZK" client prove --addr "$A" --snap v.json --update v.update.json --out p1
expect_err_contains "$WORK/pc/$STEM.params: no such file"
alive "a job without parameters"
ln "setup/$STEM.params" "pc/$STEM.params"
"$CUZK" client prove --addr "$A" --snap v.json --update v.update.json --request-id snap-1 --out p1 >r1.json \
  || { cat r1.json daemon.log; fail "SnapDeals job"; }
grep -q '"status": "COMPLETED"' r1.json || fail "SnapDeals job: not COMPLETED"
"$CUZK" snap verify --update v.update.json --vk "$V" p1/proof.bin >/dev/null || fail "the daemon's proof does not verify"

echo "== the daemon: bad requests are refused by name"
expect_exit 2 "registered_proof of 32 GiB" -- "$CUZK" client prove --addr "$A" --snap v.json --update v.update.json \
  --registered-proof 3 --sector-size 0 --out p2
expect_err_contains "a 32GiB update has 16"
expect_exit 2 "sector_size disagrees" -- "$CUZK" client prove --addr "$A" --snap v.json --update v.update.json \
  --sector-size 8388608 --out p2
expect_err_contains "sector_size 8388608 disagrees"
expect_exit 2 "another update's commitments" -- "$CUZK" client prove --addr "$A" --snap v.json --update o.update.json --out p2
expect_err_contains "vanilla_proofs[0]"; expect_err_contains "comm_r_old"
alive "the bad requests"
"$CUZK" client prove --addr "$A" --snap o.json --update o.update.json --out p2 >r2.json || { cat r2.json; fail "second job"; }
"$CUZK" snap verify --update o.update.json --vk "$V" p2/proof.bin >/dev/null || fail "the second job's proof does not verify"
echo "OK"
