#!/usr/bin/env bash
# Filecoin WinningPoSt and WindowPoSt through the CLI at 2 KiB (issue 24): `post fake` writes sectors'
# vanilla proofs (bincode, as filecoin-ffi and Curio pass them) and a request.json → `post setup` (a
# testing key under Filecoin's file name) → `post prove` (verified before writing) → `post verify`. A
# proof checked with the other PoSt's key (a key for another circuit) exits 2 naming it (issue 36); a
# request whose vanilla proofs open other challenges (another partition index), a truncated vanilla
# proof and bad randomness are named errors (exit 2, no output).
NO_ORACLE=1 source "$(dirname "$0")/common.sh"
cd "$WORK"
STEM=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0
WIN=$STEM-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e
WIN_DOW=$STEM-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0

echo "== counts"
"$CUZK" post r1cs --registered-proof StackedDrgWindow32GiBV1_2 | grep -q "125279217 constraints" \
  || fail "post r1cs: the 32 GiB WindowPoSt circuit is not 125,279,217 constraints"

mkdir params
for p in 0 10; do
  expect_exit 0 "post setup $p" -- "$CUZK" -q post setup --registered-proof $p --seed 5 params
done
[ -s params/$WIN.params ] && [ -s params/$WIN.vk ] && [ -s params/$WIN_DOW.params ] || fail "post setup: file names"

echo "== WinningPoSt (1 sector, 66 challenges) and WindowPoSt (partition 2 of V1, whose challenges depend on it, padded from 1 sector)"
expect_exit 0 "fake winning" -- "$CUZK" -q post fake --registered-proof StackedDrgWinning2KiBV1 --seed 1 win
expect_exit 0 "fake window" -- "$CUZK" -q post fake --registered-proof 5 --sectors 1 --partition 2 --seed 2 wdp
expect_exit 0 "prove winning" -- "$CUZK" -q post prove --request win/request.json --params params/$WIN.params \
  --no-subgroup-check win.bin
[ "$(stat -c %s win.bin)" = 192 ] || fail "winning: proof is not 192 bytes"
expect_exit 0 "verify winning" -- "$CUZK" post verify --request win/request.json --vk params/$WIN.vk win.bin
expect_exit 0 "prove window" -- "$CUZK" -q post prove --request wdp/request.json --params params/$WIN_DOW.params \
  --vk params/$WIN_DOW.vk wdp.bin
expect_exit 0 "verify window" -- "$CUZK" post verify --request wdp/request.json --vk params/$WIN_DOW.vk wdp.bin
# The same sectors' vanilla proofs as serde JSON: the same public inputs, so the same proof verifies.
expect_exit 0 "fake window json" -- "$CUZK" -q post fake --registered-proof 5 --sectors 1 --partition 2 --seed 2 --json wdj
grep -q '"sector-[0-9]*\.json"' wdj/request.json || fail "post fake --json: no .json vanilla proof named"
expect_exit 0 "verify window from JSON vanilla proofs" -- "$CUZK" post verify --request wdj/request.json --vk params/$WIN_DOW.vk wdp.bin
expect_exit 0 "prove window from JSON vanilla proofs" -- "$CUZK" -q post prove --request wdj/request.json \
  --params params/$WIN_DOW.params --no-subgroup-check wdj.bin

echo "== another partition's request (exit 2), the other PoSt's key (exit 2: another circuit)"
sed 's/"partition_index": 2/"partition_index": 0/' wdp/request.json >wdp/other.json
expect_exit 2 "another partition's challenges" -- "$CUZK" post verify --request wdp/other.json --vk params/$WIN_DOW.vk wdp.bin
expect_err_contains "opens leaf"
expect_exit 2 "the winning key on a window proof" -- "$CUZK" post verify --request wdp/request.json --vk params/$WIN.vk wdp.bin
expect_err_contains "$WIN.vk: a key for another circuit: expected 22 public inputs"

echo "== bad inputs: exit 2, named, no output"
V=$(ls wdp/sector-*.bin)
head -c 500 "$V" >"$V.cut" && mv "$V.cut" "$V"
expect_exit 2 "truncated vanilla proof" -- "$CUZK" post prove --request wdp/request.json --params params/$WIN_DOW.params out.bin
expect_err_contains "vanilla_proofs[0]: byte"
expect_err_contains "truncated"
sed 's/"randomness": "[0-9a-f]*"/"randomness": "'"$(printf 'ff%.0s' $(seq 32))"'"/' win/request.json >win/bad.json
expect_exit 2 "randomness not in Fr" -- "$CUZK" post prove --request win/bad.json --params params/$WIN.params out.bin
expect_err_contains "randomness: not a field element"
expect_exit 2 "unknown registered proof" -- "$CUZK" post r1cs --registered-proof 15
expect_err_contains "unknown registered PoSt proof 15"
[ ! -e out.bin ] || fail "a failed prove left out.bin"
echo "post cli: all passed"
