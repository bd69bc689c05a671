#!/usr/bin/env bash
# Two `cuzk prove` runs that write the same proof.json and public.json at the same time, with
# different witnesses of y = x·x (tests/data/tiny's c = a·b with a = b = x: x = 1 and x = 3), must
# leave a pair that belongs together: after every race, `cuzk verify` accepts what is on disk.
source "$(dirname "$0")/common.sh"
D="$SRC/tests/data/tiny"
TRIES=${TRIES:-100}
cd "$WORK"
for x in 1 3; do
  echo "{\"a\": \"$x\", \"b\": \"$x\"}" > "in$x.json"
  "${SNARKJS[@]}" wtns calculate "$D/mul.wasm" "in$x.json" "x$x.wtns" >/dev/null
done
mkdir out
mixed=0
for ((i = 0; i < TRIES; i++)); do
  "$CUZK" -q prove "$D/mul_final.zkey" x1.wtns out/proof.json out/public.json &
  p1=$!
  "$CUZK" -q prove "$D/mul_final.zkey" x3.wtns out/proof.json out/public.json &
  p3=$!
  wait "$p1" || fail "try $i: the prover of x = 1 failed"
  wait "$p3" || fail "try $i: the prover of x = 3 failed"
  if ! "$CUZK" verify "$D/verification_key.json" out/public.json out/proof.json >/dev/null; then
    mixed=$((mixed + 1))
    echo "try $i: proof.json and public.json come from different witnesses (public: $(tr -d ' \n' < out/public.json))"
  fi
done
! ls out/*.tmp-* >/dev/null 2>&1 || fail "temporary files left behind: $(ls out)"
[ "$mixed" -eq 0 ] || fail "$mixed of $TRIES races left a mixed proof/public pair"
echo "concurrent prove: $TRIES races, every pair verifies"
