#!/usr/bin/env bash
# The bellperson path of the CLI (issue 8): setup --format bellperson → .params/.vk → prove --params →
# verify --vk, checked by our verifier and by the @noble/curves oracle (tests/oracle/verify_bellperson.mjs);
# the same circuit through its zkey verifies too; synthetic PoRep circuits at 2^10..2^12 through
# setup --synthetic, info, bench prove; bad input (flipped bit, truncated or corrupt .params, foreign
# witness, wrong --device) is a clear error that leaves no output.
source "$(dirname "$0")/common.sh"
D="$SRC/tests/data/mimc"
NOBLE=(node "$SRC/tests/oracle/verify_bellperson.mjs")
cd "$WORK"
"${SNARKJS[@]}" wtns calculate "$D/mimc_test.wasm" "$D/mimc_input.json" w.wtns >/dev/null

expect_exit 0 "setup --format bellperson" -- "$CUZK" -q setup --format bellperson --seed 5 "$D/mimc_test.r1cs" m.params
[ -s m.params ] && [ -s m.vk ] || fail "setup wrote no .params/.vk"
expect_exit 0 "prove --params" -- "$CUZK" -q prove --params m.params --r1cs "$D/mimc_test.r1cs" w.wtns proof.bin public.json
[ "$(stat -c %s proof.bin)" = 192 ] || fail "proof.bin is not 192 bytes"
expect_exit 0 "verify --vk" -- "$CUZK" verify --vk m.vk public.json proof.bin
expect_exit 0 "noble verifies our proof" -- "${NOBLE[@]}" m.vk public.json proof.bin
# the same circuit through a zkey verifies too, with the same public signals
expect_exit 0 "zkey setup" -- "$CUZK" -q setup --seed 5 "$D/mimc_test.r1cs" m.zkey
expect_exit 0 "zkey vk" -- "$CUZK" -q zkey export-vk m.zkey vk.json
expect_exit 0 "zkey prove" -- "$CUZK" -q prove m.zkey w.wtns p.json pub2.json
expect_exit 0 "snarkjs verifies the zkey proof" -- "${SNARKJS[@]}" groth16 verify vk.json pub2.json p.json
cmp -s public.json pub2.json || fail "the two paths disagree on the public signals"
# deterministic r, s: the same proof twice
expect_exit 0 "prove r s" -- "$CUZK" -q prove --params m.params --r1cs "$D/mimc_test.r1cs" --r 11 --s 13 w.wtns a.bin pa.json
expect_exit 0 "prove r s again" -- "$CUZK" -q prove --params m.params --r1cs "$D/mimc_test.r1cs" --r 11 --s 13 w.wtns b.bin pb.json
cmp -s a.bin b.bin || fail "the same r, s gave different proofs"

# a flipped bit: rejected by both verifiers
python3 -c "import sys; d=bytearray(open('proof.bin','rb').read()); d[150]^=4; open('bad.bin','wb').write(d)"
set +e; "$CUZK" verify --vk m.vk public.json bad.bin >/dev/null 2>&1; rc=$?; set -e
[ "$rc" = 1 ] || [ "$rc" = 2 ] || fail "a flipped bit was accepted (exit $rc)"
set +e; "${NOBLE[@]}" m.vk public.json bad.bin >/dev/null 2>&1; rc=$?; set -e
[ "$rc" = 1 ] || fail "noble accepted a flipped bit (exit $rc)"
# a wrong public input
python3 -c "import json; p=json.load(open('public.json')); p[0]=str(int(p[0])+1); json.dump(p,open('pubx.json','w'))"
expect_exit 1 "wrong public input" -- "$CUZK" verify --vk m.vk pubx.json proof.bin

# truncated and corrupt .params: exit 2, named, no output
head -c 5000 m.params > trunc.params
expect_exit 2 "truncated .params" -- "$CUZK" prove --params trunc.params --r1cs "$D/mimc_test.r1cs" w.wtns o1.bin o1.json
expect_err_contains "trunc.params"
# the subgroup check is announced only once the file's layout is sound: not for a truncated file
! grep -qF "checking that every point" "$WORK/err" || fail "a truncated .params announced a subgroup check"
[ ! -e o1.bin ] && [ ! -e o1.json ] || fail "output left after a truncated .params"
python3 -c "d=bytearray(open('m.params','rb').read()); d[4000]^=0x10; open('bad.params','wb').write(d)"
expect_exit 2 "corrupt .params" -- "$CUZK" prove --params bad.params --r1cs "$D/mimc_test.r1cs" w.wtns o2.bin o2.json
expect_err_contains "bad.params"
expect_err_contains "checking that every point"  # its layout is sound: the check runs and finds the point
[ ! -e o2.bin ] || fail "output left after a corrupt .params"
# a witness of another circuit
expect_exit 2 "foreign witness" -- "$CUZK" prove --params m.params --r1cs "$D/mimc_test.r1cs" "$SRC/tests/data/tiny/mul.wtns" o3.bin o3.json
expect_err_contains "mul.wtns"
[ ! -e o3.bin ] || fail "output left after a foreign witness"
expect_exit 2 "prove --params without --r1cs" -- "$CUZK" prove --params m.params w.wtns o4.bin o4.json
expect_exit 2 "unknown device" -- "$CUZK" prove --device tpu --params m.params --r1cs "$D/mimc_test.r1cs" w.wtns o5.bin o5.json

# synthetic PoRep circuits
for k in 10 12; do
  expect_exit 0 "synth porep 2^$k" -- "$CUZK" synth porep --log2 $k --seed 3
  grep -q "every row holds" "$WORK/out" || fail "synth did not check its rows"
  expect_exit 0 "setup --synthetic 2^$k" -- "$CUZK" -q setup --synthetic porep --log2 $k --seed 3 s$k.params
  expect_exit 0 "info .params" -- "$CUZK" info s$k.params
  grep -q "domain 2^$k; 328 inputs" "$WORK/out" || fail "info .params: $(cat "$WORK/out")"
  expect_exit 0 "info .vk" -- "$CUZK" info s$k.vk
  expect_exit 0 "bench prove 2^$k" -- "$CUZK" bench prove --synthetic porep --log2 $k --seed 3 --params s$k.params --reps 1 --device cpu
  grep -q "verified" "$WORK/out" || fail "bench prove printed no verified proof"
done
echo "bellperson CLI: all checks passed"
