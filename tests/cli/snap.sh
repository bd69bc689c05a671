#!/usr/bin/env bash
# Filecoin SnapDeals through the CLI: a fake 2 KiB update's vanilla proofs (base64 bincode, Curio's
# cuzk-bench format) → `snap setup` into a folder under Filecoin's parameter file name → `snap prove`
# (every partition verified before writing) → `snap verify`; bad vanilla proofs and commitments that do
# not belong to them are clear errors with exit 2 and no output; another update's proof exits 1.
NO_ORACLE=1
source "$(dirname "$0")/common.sh"
cd "$WORK"
no_output() { [ ! -e out.bin ] || fail "$1: output file left behind"; }

expect_exit 0 "snap r1cs" -- "$CUZK" snap r1cs --sector-size 2KiB
grep -q "1705039 constraints" "$WORK/out" || fail "snap r1cs: not upstream's 1,705,039 constraints"
expect_exit 0 "snap fake" -- "$CUZK" -q snap fake --sector-size 2KiB --seed 3 v.json
[ -s v.json ] && [ -s v.update.json ] || fail "snap fake wrote no vanilla.json or .update.json"
mkdir params
t0=$(date +%s)
expect_exit 0 "snap setup" -- "$CUZK" -q snap setup --sector-size 2KiB --seed 9 params
echo "   setup: $(($(date +%s) - t0)) s"
P=$(ls params/v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params)
V="${P%.params}.vk"
[ -s "$V" ] || fail "snap setup wrote no .vk next to $P"
t0=$(date +%s)
expect_exit 0 "snap prove" -- "$CUZK" -q snap prove --vanilla v.json --update v.update.json --params "$P" \
  --vk "$V" --no-subgroup-check proof.bin
echo "   prove (one partition, verified): $(($(date +%s) - t0)) s"
[ "$(stat -c %s proof.bin)" = 192 ] || fail "proof is not one 192-byte partition"
expect_exit 0 "snap verify" -- "$CUZK" snap verify --update v.update.json --vk "$V" proof.bin

echo "== another update's commitments"
expect_exit 0 "snap fake (other)" -- "$CUZK" -q snap fake --sector-size 2KiB --seed 4 o.json
expect_exit 1 "a proof of another update" -- "$CUZK" snap verify --update o.update.json --vk "$V" proof.bin
expect_exit 2 "vanilla proofs of another update" -- "$CUZK" -q snap prove --vanilla v.json --update o.update.json \
  --params "$P" --no-subgroup-check out.bin
expect_err_contains "comm_r_old"; no_output other

echo "== bad vanilla proofs: exit 2, named, no output"
python3 - <<'PY'
import base64, json
v = json.load(open("v.json"))
b = bytearray(base64.b64decode(v[0]))
json.dump([base64.b64encode(b[:-1]).decode()], open("trunc.json", "w"))
json.dump(v + v, open("two.json", "w"))
b[32 + 8 + 5] ^= 1  # a byte of apex leaf 0
json.dump([base64.b64encode(bytes(b)).decode()], open("apex.json", "w"))
PY
expect_exit 2 truncated -- "$CUZK" -q snap prove --vanilla trunc.json --update v.update.json --params "$P" --no-subgroup-check out.bin
expect_err_contains "trunc.json"; expect_err_contains "truncated"; no_output truncated
expect_exit 2 "two partitions for 2 KiB" -- "$CUZK" -q snap prove --vanilla two.json --update v.update.json --params "$P" --no-subgroup-check out.bin
expect_err_contains "2 partition proofs"; no_output two
expect_exit 2 "a changed apex leaf" -- "$CUZK" -q snap prove --vanilla apex.json --update v.update.json --params "$P" --no-subgroup-check out.bin
expect_err_contains "apex"; no_output apex
python3 -c 'import json; u = json.load(open("v.update.json")); u.update(sector_size="8MiB", h=10); json.dump(u, open("size.json", "w"))'
expect_exit 2 "a sector size the proofs do not have" -- "$CUZK" -q snap prove --vanilla v.json --update size.json --params "$P" --no-subgroup-check out.bin
expect_err_contains "v.json"; expect_err_contains "4"; no_output size
python3 -c 'import json; u = json.load(open("v.update.json")); u.update(h=10); json.dump(u, open("h.json", "w"))'
expect_exit 2 "an h the size does not allow" -- "$CUZK" -q snap verify --update h.json --vk "$V" proof.bin
expect_err_contains "h.json"; expect_err_contains "h = 10"
expect_exit 2 "unknown sector size" -- "$CUZK" -q snap r1cs --sector-size 3KiB
expect_err_contains "3KiB"
echo "OK"
