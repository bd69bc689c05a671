#!/usr/bin/env bash
# What the commands print on success: one summary line on stdout for every command that writes files
# (prove, setup, zkey export-vk), none with -q; counts with the right plural ("1 public signal");
# and the accepted forms of decimal strings in public.json (README "Input files").
source "$(dirname "$0")/common.sh"
D="$SRC/tests/data"
cd "$WORK"
# expect_out TEXT: the last command's stdout is exactly TEXT (one line).
expect_out() { [ "$(cat "$WORK/out")" = "$1" ] || fail "stdout is '$(cat "$WORK/out")', expected '$1'"; }

echo "== summary lines, singular and plural"
expect_exit 0 "zkey export-vk" -- "$CUZK" zkey export-vk "$D/tiny/mul_final.zkey" vk.json
expect_out "wrote vk.json (verification key of $D/tiny/mul_final.zkey, 1 public signal)"
expect_exit 0 "prove (1 public signal)" -- "$CUZK" prove --device cpu "$D/tiny/mul_final.zkey" "$D/tiny/mul.wtns" p.json pub.json
expect_out "wrote p.json and pub.json (1 public signal; device cpu); the proof verifies"
expect_exit 0 "prove (3 public signals)" -- "$CUZK" prove --device cpu "$D/mimc/mimc_dev.zkey" "$D/mimc/mimc.wtns" mp.json mpub.json
expect_out "wrote mp.json and mpub.json (3 public signals; device cpu); the proof verifies"
expect_exit 0 "setup (1 constraint)" -- "$CUZK" setup --seed 1 "$D/tiny/mul.r1cs" mul.zkey
expect_out "wrote mul.zkey: 1 constraint, 4 variables, 1 public, domain 4"
expect_exit 0 "info on a verification key" -- "$CUZK" info vk.json
grep -qF "1 public signal" "$WORK/out" && ! grep -qF "1 public signals" "$WORK/out" || fail "info: $(cat "$WORK/out")"
expect_exit 0 "info on public.json" -- "$CUZK" info pub.json
grep -qF "public signals: 1 value" "$WORK/out" && ! grep -qF "1 values" "$WORK/out" || fail "info: $(cat "$WORK/out")"

echo "== -q: no summary line"
for cmd in "zkey export-vk $D/tiny/mul_final.zkey vk.json" "prove $D/tiny/mul_final.zkey $D/tiny/mul.wtns p.json pub.json" \
           "setup --seed 1 $D/tiny/mul.r1cs mul.zkey"; do
  # shellcheck disable=SC2086  # $cmd is a list of arguments (no spaces inside them)
  expect_exit 0 "-q $cmd" -- "$CUZK" -q $cmd
  [ ! -s "$WORK/out" ] || fail "-q ${cmd%% *}: printed '$(cat "$WORK/out")'"
done

echo "== public.json: decimal strings of values below r; leading zeros accepted"
vk="$D/tiny/verification_key.json" proof="$D/tiny/proof.json"
for good in '["33"]' '["0033"]' '[ "000000000000000000000000000000000000000000000000000000000000000000000000000000000000033" ]'; do
  echo "$good" > in.json
  expect_exit 0 "public.json $good" -- "$CUZK" verify "$vk" in.json "$proof"
done
r=52435875175126190479447740508185965837690552500527637822603658699938581184513
for bad in '[33]' '[" 33"]' '["+33"]' '["-1"]' '["0x21"]' '["3.3e1"]' '[""]' "[\"$r\"]" '{"0": "33"}'; do
  echo "$bad" > in.json
  expect_exit 2 "public.json $bad" -- "$CUZK" verify "$vk" in.json "$proof"
  expect_err_contains "in.json"
done
echo "cli output: all passed"
