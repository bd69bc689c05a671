#!/usr/bin/env bash
# Filecoin SnapDeals through the CLI, without a key: the circuit's counts (`snap r1cs`), a fake 2 KiB
# update's vanilla proofs (base64 bincode, Curio's cuzk-bench format), and bad vanilla proofs, commitments
# that do not belong to them, sizes and h values (a test size, and an allowed h other than the size's
# default, too: the SNAP_DEALS_UPDATE kind proves Filecoin's sizes with the default h) refused with exit
# 2, the file and the problem named, and no output. (These are checked before the key is read: a
# placeholder stands in for it. The setup, prove and verify round trip is tests/service/snap_e2e.sh,
# which sets the key up once for the CLI and the daemon.)
NO_ORACLE=1
source "$(dirname "$0")/common.sh"
cd "$WORK"
no_output() { [ ! -e out.bin ] || fail "$1: output file left behind"; }

expect_exit 0 "snap r1cs" -- "$CUZK" snap r1cs --sector-size 2KiB
grep -q "1705039 constraints" "$WORK/out" || fail "snap r1cs: not upstream's 1,705,039 constraints"
expect_exit 0 "snap fake" -- "$CUZK" -q snap fake --sector-size 2KiB --seed 3 v.json
[ -s v.json ] && [ -s v.update.json ] || fail "snap fake wrote no vanilla.json or .update.json"
expect_exit 0 "snap fake (other)" -- "$CUZK" -q snap fake --sector-size 2KiB --seed 4 o.json
expect_exit 0 "snap fake --uniform 32GiB" -- "$CUZK" -q snap fake --sector-size 32GiB --uniform u.json
python3 -c 'import json; assert len(json.load(open("u.json"))) == 16' || fail "a 32 GiB update has 16 partitions"
echo placeholder > key.params

echo "== bad vanilla proofs: exit 2, named, no output"
expect_exit 2 "vanilla proofs of another update" -- "$CUZK" -q snap prove --vanilla v.json --update o.update.json \
  --params key.params out.bin
expect_err_contains "comm_r_old"; no_output other
python3 - <<'PY'
import base64, json
v = json.load(open("v.json"))
b = bytearray(base64.b64decode(v[0]))
json.dump([base64.b64encode(b[:-1]).decode()], open("trunc.json", "w"))
json.dump(v + v, open("two.json", "w"))
b[32 + 8 + 5] ^= 1  # a byte of apex leaf 0
json.dump([base64.b64encode(bytes(b)).decode()], open("apex.json", "w"))
u = json.load(open("v.update.json"))
json.dump(dict(u, sector_size="8MiB", h=10), open("size.json", "w"))
json.dump(dict(u, h=10), open("h.json", "w"))
json.dump(dict(u, sector_size="8MiB", h=7), open("h7.json", "w"))
PY
expect_exit 2 truncated -- "$CUZK" -q snap prove --vanilla trunc.json --update v.update.json --params key.params out.bin
expect_err_contains "trunc.json"; expect_err_contains "truncated"; no_output truncated
expect_exit 2 "two partitions for 2 KiB" -- "$CUZK" -q snap prove --vanilla two.json --update v.update.json --params key.params out.bin
expect_err_contains "2 partition proofs"; no_output two
expect_exit 2 "a changed apex leaf" -- "$CUZK" -q snap prove --vanilla apex.json --update v.update.json --params key.params out.bin
expect_err_contains "apex"; no_output apex
expect_exit 2 "a sector size the proofs do not have" -- "$CUZK" -q snap prove --vanilla v.json --update size.json --params key.params out.bin
expect_err_contains "v.json"; expect_err_contains "4"; no_output size
expect_exit 2 "an h the size does not allow" -- "$CUZK" -q snap prove --vanilla v.json --update h.json --params key.params out.bin
expect_err_contains "h.json"; expect_err_contains "h = 10"; no_output h
# An h the size allows but not its default: a request carries no h (the kind proves with the default).
expect_exit 2 "an h other than the size's default" -- "$CUZK" -q snap prove --vanilla v.json --update h7.json --params key.params out.bin
expect_err_contains "h7.json: h: 7 is not the 8MiB default (10)"; no_output h7
# A test size (no Filecoin SnapDeals parameters): `snap prove` takes the kind's sizes only.
expect_exit 0 "snap fake 4KiB" -- "$CUZK" -q snap fake --sector-size 4KiB --seed 1 t.json
expect_exit 2 "a size without Filecoin parameters" -- "$CUZK" -q snap prove --vanilla t.json --update t.update.json --params key.params out.bin
expect_err_contains "t.update.json: sector_size: 4KiB has no Filecoin SnapDeals parameters"; no_output 4k
expect_exit 2 "not a key" -- "$CUZK" -q snap prove --vanilla v.json --update v.update.json --params key.params out.bin
expect_err_contains "key.params"; no_output key
expect_exit 2 "unknown sector size" -- "$CUZK" -q snap r1cs --sector-size 3KiB
expect_err_contains "3KiB"
echo "OK"
