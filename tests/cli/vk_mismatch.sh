#!/usr/bin/env bash
# A verifying key made for another circuit is bad input, not an invalid proof (issue 36, item 8): `porep
# verify`, `snap verify`, `post verify` and `verify --vk` with the key of a 1-input circuit exit 2 with a
# message that names the .vk and says how many public inputs were expected and how many the key has;
# `porep prove --vk` refuses it before the key is read (a junk .params shows it).
NO_ORACLE=1 source "$(dirname "$0")/common.sh"
D="$SRC/tests/data"
cd "$WORK"
# mismatch EXPECTED DESCRIPTION -- command...: exit 2, naming mul.vk and both counts.
mismatch() {
  local n=$1 what=$2; shift 2
  expect_exit 2 "$what" "$@"
  expect_err_contains "mul.vk: a key for another circuit: expected $n public inputs"
  expect_err_contains "the key has 1"
}

expect_exit 0 "setup of the 1-input circuit" -- "$CUZK" -q setup --format bellperson --seed 1 "$D/tiny/mul.r1cs" mul.params
expect_exit 0 "its proof" -- "$CUZK" -q prove --params mul.params --r1cs "$D/tiny/mul.r1cs" "$D/tiny/mul.wtns" p.bin pub.json
expect_exit 0 "porep fake-c1" -- "$CUZK" -q porep fake-c1 --sector-size 2KiB --seed 3 c1.json
expect_exit 0 "snap fake" -- "$CUZK" -q snap fake --sector-size 2KiB --seed 1 v.json
expect_exit 0 "post fake" -- "$CUZK" -q post fake --registered-proof 0 --seed 1 win

echo "== verify with the key of another circuit: exit 2, not 'invalid'"
mismatch 39 "porep verify --c1" -- "$CUZK" porep verify --c1 c1.json --vk mul.vk p.bin
expect_err_contains "StackedDrg2KiBV1_1"
mismatch 39 "porep verify --seal" -- "$CUZK" porep verify --seal c1.seal.json --vk mul.vk p.bin
mismatch 4 "snap verify" -- "$CUZK" snap verify --update v.update.json --vk mul.vk p.bin
expect_err_contains "SnapDeals"
mismatch 132 "post verify" -- "$CUZK" post verify --request win/request.json --vk mul.vk p.bin
expect_err_contains "PoSt"
echo '["1", "2"]' > pub2.json
mismatch 2 "verify --vk" -- "$CUZK" verify --vk mul.vk pub2.json p.bin
expect_err_contains "pub2.json"

echo "== prove --vk of another circuit: refused before the key is read"
echo junk > junk.params
mismatch 39 "porep prove --vk" -- "$CUZK" -q porep prove --c1 c1.json --params junk.params --vk mul.vk o.bin
mismatch 4 "snap prove --vk" -- "$CUZK" -q snap prove --vanilla v.json --update v.update.json --params junk.params \
  --vk mul.vk o.bin
mismatch 132 "post prove --vk" -- "$CUZK" -q post prove --request win/request.json --params junk.params --vk mul.vk o.bin
[ ! -e o.bin ] || fail "a refused prove wrote its output"
echo "vk mismatch: all passed"
