#!/usr/bin/env bash
# cuzk and snarkjs accept each other's work: circuits compiled here by circom2 (bls12381) from
# tests/circuits (many public signals, only linear constraints, witness values near r, circomlib
# Poseidon, no constraints at all), witnesses from snarkjs, keys from `cuzk setup`; cuzk proofs
# verified by snarkjs and by cuzk, snarkjs proofs (made with cuzk's zkey) verified by cuzk; cuzk
# proofs with snarkjs's zkey; and the fixture zkeys.
source "$(dirname "$0")/common.sh"
cp -r "$SRC/tests/circuits/." "$WORK/"
mkdir -p "$WORK/circomlib" && cp -r "$NODE_MODULES/circomlib/circuits" "$WORK/circomlib/"  # circom2 (WASI) won't follow symlinks
cd "$WORK"
for c in many_public linear near_r poseidon no_constraints; do
  echo "== $c"
  opt=(); [ "$c" = linear ] && opt=(--O0)
  "${CIRCOM[@]}" "$c.circom" --r1cs --wasm -p bls12381 "${opt[@]}" -o . >/dev/null
  "${SNARKJS[@]}" wtns calculate "${c}_js/$c.wasm" "$c.input.json" "$c.wtns" >/dev/null
  "$CUZK" -q setup --seed 1 "$c.r1cs" "$c.zkey" >/dev/null 2>&1
  "$CUZK" zkey export-vk "$c.zkey" "$c.vk.json"
  "$CUZK" -q prove --r1cs "$c.r1cs" "$c.zkey" "$c.wtns" "$c.proof.json" "$c.public.json"
  "$CUZK" verify "$c.vk.json" "$c.public.json" "$c.proof.json" >/dev/null || fail "$c: cuzk rejects its own proof"
  "${SNARKJS[@]}" groth16 verify "$c.vk.json" "$c.public.json" "$c.proof.json" | grep -q "OK" || fail "$c: snarkjs rejects the cuzk proof"
  # snarkjs proves with cuzk's key; cuzk verifies it
  "${SNARKJS[@]}" groth16 prove "$c.zkey" "$c.wtns" "$c.sproof.json" "$c.spublic.json"
  "$CUZK" verify "$c.vk.json" "$c.spublic.json" "$c.sproof.json" >/dev/null || fail "$c: cuzk rejects snarkjs's proof"
  cmp -s "$c.public.json" "$c.spublic.json" || fail "$c: public signals differ from snarkjs's"
  # snarkjs derives the same verification key from cuzk's zkey
  "${SNARKJS[@]}" zkey export verificationkey "$c.zkey" "$c.svk.json" >/dev/null
  cmp -s "$c.vk.json" "$c.svk.json" || fail "$c: cuzk zkey export-vk differs from snarkjs's"
done
n=$(grep -c '"' many_public.public.json); [ "$n" -eq 48 ] || fail "many_public: expected 48 public signals, got $n"
echo "== no_constraints: cuzk info, and cuzk proves with snarkjs's own key"
info=$("$CUZK" info no_constraints.r1cs) && [[ "$info" == *"constraints 0, wires 2"* ]] || fail "cuzk info on no_constraints.r1cs: $info"
"${SNARKJS[@]}" groth16 setup no_constraints.r1cs "$SRC/tests/data/tiny/pot4_final.ptau" nc_snarkjs.zkey >/dev/null
"${SNARKJS[@]}" zkey export verificationkey nc_snarkjs.zkey nc_snarkjs.vk.json >/dev/null
"$CUZK" -q prove --r1cs no_constraints.r1cs nc_snarkjs.zkey no_constraints.wtns nc.proof.json nc.public.json
"${SNARKJS[@]}" groth16 verify nc_snarkjs.vk.json nc.public.json nc.proof.json | grep -q OK || fail "snarkjs rejects the no_constraints proof"
[ "$(tr -d ' \n' < nc.public.json)" = '["7"]' ] || fail "no_constraints: public signals $(cat nc.public.json), expected [\"7\"]"
echo '["8"]' > nc.wrong.json
expect_exit 1 "no_constraints with another public signal" -- "$CUZK" verify nc_snarkjs.vk.json nc.wrong.json nc.proof.json
echo "== fixtures: mimc (deterministic r = 11, s = 13) and tiny ceremony key"
D="$SRC/tests/data"
"$CUZK" -q prove --r 11 --s 13 "$D/mimc/mimc_dev.zkey" "$D/mimc/mimc.wtns" mimc.proof.json mimc.public.json
cmp mimc.proof.json "$D/mimc/snarkjs_patched_proof_r11_s13.json" || fail "mimc proof differs from snarkjs's byte-exact reference"
"${SNARKJS[@]}" groth16 verify "$D/mimc/mimc_dev_vk.json" mimc.public.json mimc.proof.json | grep -q OK || fail "snarkjs rejects mimc proof"
"$CUZK" -q prove "$D/tiny/mul_final.zkey" "$D/tiny/mul.wtns" tiny.proof.json tiny.public.json
"${SNARKJS[@]}" groth16 verify "$D/tiny/verification_key.json" tiny.public.json tiny.proof.json | grep -q OK || fail "snarkjs rejects tiny proof"
"$CUZK" zkey export-vk "$D/tiny/mul_final.zkey" tiny.vk.json
cmp tiny.vk.json "$D/tiny/verification_key.json" || fail "export-vk differs from snarkjs's verification_key.json"
echo "snarkjs interop: all passed"
