#!/usr/bin/env bash
# Filecoin PoRep C2 through the CLI (issue 18): a fake 2 KiB and 8 MiB sector's C1 → `setup --porep` (the
# suite's shared keys) with Filecoin's parameter file names → `porep prove` (every partition verified before writing)
# → `porep verify` with the C1's public inputs and with the chain data alone (.seal.json); the same C1
# in Curio's envelope; bad C1s (truncated, registered proof and shape disagreeing, a challenge the seed
# does not give, a comm_r that is not Poseidon(comm_c, comm_r_last), a foreign key) are clear errors
# with exit 2 and no output; a wrong vk or a proof of another sector exits 1.
source "$(dirname "$0")/common.sh"
cd "$WORK"
no_output() { [ ! -e out.bin ] && ! ls ./*.tmp* >/dev/null 2>&1 || fail "$1: output file left behind"; }

for size in 2KiB 8MiB; do
  echo "== $size"
  expect_exit 0 "fake-c1 $size" -- "$CUZK" -q porep fake-c1 --sector-size "$size" --seed 3 "c1-$size.json"
  [ -s "c1-$size.json" ] && [ -s "c1-$size.seal.json" ] || fail "fake-c1 wrote no C1 or .seal.json"
  # the suite's shared keys (tests/keys_fixture.sh; set up here when this script runs alone)
  if [ "$size" = 2KiB ]; then
    test_keys "params-$size" setup --porep 2KiB --seed 1
  else
    test_keys "params-$size" setup --porep 8MiB --seed 9
  fi
  P=$(ls "params-$size"/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-*.params)
  V="${P%.params}.vk"
  [ -s "$V" ] || fail "setup --porep wrote no .vk next to $P"
  expect_exit 0 "porep prove $size" -- "$CUZK" -q porep prove --c1 "c1-$size.json" --params "$P" --vk "$V" \
    --no-subgroup-check "proof-$size.bin"
  [ "$(stat -c %s "proof-$size.bin")" = 192 ] || fail "$size: proof is not one 192-byte partition"
  expect_exit 0 "porep verify --c1 $size" -- "$CUZK" porep verify --c1 "c1-$size.json" --vk "$V" "proof-$size.bin"
  expect_exit 0 "porep verify --seal $size" -- "$CUZK" porep verify --seal "c1-$size.seal.json" --vk "$V" "proof-$size.bin"
done
P2=$(ls params-2KiB/*.params); V2="${P2%.params}.vk"; V8=$(ls params-8MiB/*.vk)

echo "== Curio's envelope"
expect_exit 0 "fake-c1 envelope" -- "$CUZK" -q porep fake-c1 --sector-size 2KiB --seed 3 --envelope 77 env.json
grep -q '"Phase1Out"' env.json || fail "no envelope written"
expect_exit 0 "prove from the envelope" -- "$CUZK" -q porep prove --c1 env.json --params "$P2" --no-subgroup-check env.bin
expect_exit 0 "verify the envelope's proof" -- "$CUZK" porep verify --seal c1-2KiB.seal.json --vk "$V2" env.bin

echo "== wrong key, another sector's proof"
expect_exit 1 "8 MiB vk on a 2 KiB proof" -- "$CUZK" porep verify --c1 c1-2KiB.json --vk "$V8" proof-2KiB.bin
expect_exit 0 "another sector" -- "$CUZK" -q porep fake-c1 --sector-size 2KiB --seed 4 other.json
expect_exit 1 "a proof of another sector" -- "$CUZK" porep verify --c1 other.json --vk "$V2" proof-2KiB.bin

echo "== bad C1s: exit 2, named, no output"
head -c 5000 c1-2KiB.json > trunc.json
expect_exit 2 truncated -- "$CUZK" -q porep prove --c1 trunc.json --params "$P2" --no-subgroup-check out.bin
expect_err_contains "trunc.json"; no_output truncated
sed 's/"StackedDrg2KiBV1_1"/"StackedDrg8MiBV1_1"/' c1-2KiB.json > shape.json
expect_exit 2 "registered proof vs shape" -- "$CUZK" -q porep prove --c1 shape.json --params "$P2" --no-subgroup-check out.bin
expect_err_contains "shape.json"; expect_err_contains "registered_proof"; no_output shape
python3 - <<'PY'
import json
c = json.load(open("c1-2KiB.json"))
c["seed"][0] ^= 1  # the challenges no longer follow from the seed
json.dump(c, open("seed.json", "w"), separators=(",", ":"))
PY
expect_exit 2 "challenges not from the seed" -- "$CUZK" -q porep prove --c1 seed.json --params "$P2" --no-subgroup-check out.bin
expect_err_contains "seed.json"; expect_err_contains "challenge"; no_output seed
python3 - <<'PY'
import json
c = json.load(open("c1-2KiB.json"))
c["comm_r"][0] ^= 1  # still < r, but no longer Poseidon(comm_c, comm_r_last)
json.dump(c, open("commr.json", "w"), separators=(",", ":"))
PY
expect_exit 2 "comm_r not from comm_c and comm_r_last" -- "$CUZK" -q porep prove --c1 commr.json --params "$P2" out.bin
expect_err_contains "commr.json: comm_r"; expect_err_contains "is not Poseidon(comm_c, comm_r_last)"; no_output commr
python3 - <<'PY'
import json
c = json.load(open("c1-2KiB.json"))
proofs = next(iter(c["vanilla_proofs"].values()))
proofs[0][1]["comm_d_proofs"]["data"]["Single"]["leaf"][0] ^= 1  # still < r; its path no longer leads to comm_d
json.dump(c, open("leaf.json", "w"), separators=(",", ":"))
PY
expect_exit 2 "a leaf whose path leads elsewhere" -- "$CUZK" -q porep prove --c1 leaf.json --params "$P2" --no-subgroup-check out.bin
expect_err_contains "leaf.json: partition 0: challenge 1 (node "; expect_err_contains "does not lead to comm_d"; no_output leaf
# Refused before the key is read (a file that is no key is not looked at), so before anything is proved.
printf 'no key' >nokey.params
expect_exit 2 "comm_r checked before the key" -- "$CUZK" -q porep prove --c1 commr.json --params nokey.params out.bin
expect_err_contains "commr.json: comm_r"; no_output commr-first
expect_exit 2 "a key of another size" -- "$CUZK" -q porep prove --c1 c1-2KiB.json --params "$(ls params-8MiB/*.params)" --no-subgroup-check out.bin
expect_err_contains "PoRep circuit"; no_output key
expect_exit 2 "non-interactive fake" -- "$CUZK" -q porep fake-c1 --registered-proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep ni.json
expect_err_contains "comm_r"; [ ! -e ni.json ] || fail "a refused fake-c1 wrote its file"
echo "== bad arguments and chain data"
expect_exit 2 "unknown sector size" -- "$CUZK" -q porep r1cs --sector-size 16KiB
expect_err_contains "16KiB"
expect_exit 2 "row out of range" -- "$CUZK" -q porep r1cs --shape base-8 --row 99999999
expect_err_contains "does not exist"
echo '{"registered_proof":"StackedDrg2KiBV1_1","comm_r":"00"}' > bad.seal.json
expect_exit 2 "corrupt seal.json" -- "$CUZK" porep verify --seal bad.seal.json --vk "$V2" proof-2KiB.bin
expect_err_contains "bad.seal.json"
python3 - <<'PY'
import json
s = json.load(open("c1-2KiB.seal.json"))
s["seed"] = "%02x" % (int(s["seed"][:2], 16) ^ 1) + s["seed"][2:]  # other challenges
json.dump(s, open("wrongseed.seal.json", "w"))
PY
expect_exit 1 "chain data of another seed" -- "$CUZK" porep verify --seal wrongseed.seal.json --vk "$V2" proof-2KiB.bin
# A C1 whose challenges are not those of its seed (or of its registered proof) is refused by verify as by
# prove: its public inputs would be another sector's claim.
python3 - <<'PY'
import json
c = json.load(open("c1-2KiB.json"))
c["seed"][0] ^= 1
json.dump(c, open("seed.c1.json", "w"))
c = json.load(open("c1-2KiB.json"))
c["registered_proof"] = "StackedDrg2KiBV1"
json.dump(c, open("rp.c1.json", "w"))
PY
expect_exit 2 "a C1 of another seed" -- "$CUZK" porep verify --c1 seed.c1.json --vk "$V2" proof-2KiB.bin
expect_err_contains "seed.c1.json"
expect_err_contains "the seed and replica_id give"
expect_exit 2 "a C1 of another registered proof" -- "$CUZK" porep verify --c1 rp.c1.json --vk "$V2" proof-2KiB.bin
expect_err_contains "rp.c1.json"
echo "porep CLI: all checks passed"
