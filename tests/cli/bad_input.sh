#!/usr/bin/env bash
# Bad input through the CLI: each case gives a clear error naming the input and the problem, exit
# code 2, and no output file. Also: a GPU benchmark without a GPU is a CUDA error (exit 3).
source "$(dirname "$0")/common.sh"
D="$SRC/tests/data"
cd "$WORK"
zk="$D/mimc/mimc_dev.zkey" w="$D/mimc/mimc.wtns"
no_output() { [ ! -e proof.json ] && [ ! -e public.json ] && ! ls ./*.tmp* >/dev/null 2>&1 || fail "$1: output file left behind"; }

echo "== truncated zkey"
head -c 100000 "$zk" > trunc.zkey
expect_exit 2 truncated -- "$CUZK" -q prove trunc.zkey "$w" proof.json public.json
expect_err_contains "trunc.zkey"; expect_err_contains "truncated"; no_output truncated

echo "== wrong magic / version"
{ printf 'zkez'; tail -c +5 "$zk"; } > magic.zkey
expect_exit 2 magic -- "$CUZK" -q prove magic.zkey "$w" proof.json public.json
expect_err_contains "magic.zkey"; no_output magic
{ head -c 4 "$zk"; printf '\x02\x00\x00\x00'; tail -c +9 "$zk"; } > version.zkey
expect_exit 2 version -- "$CUZK" -q prove version.zkey "$w" proof.json public.json
expect_err_contains "version"; no_output version

echo "== bn128 witness and r1cs (circom's default curve)"
cp "$SRC/tests/circuits/near_r.circom" .
"${CIRCOM[@]}" near_r.circom --r1cs --wasm -o . >/dev/null
echo '{"a":"3","b":"5"}' > in.json
"${SNARKJS[@]}" wtns calculate near_r_js/near_r.wasm in.json bn.wtns >/dev/null
expect_exit 2 bn128-wtns -- "$CUZK" -q prove "$zk" bn.wtns proof.json public.json
expect_err_contains "bn.wtns"; expect_err_contains "bn128"; no_output bn128-wtns
expect_exit 2 bn128-r1cs -- "$CUZK" -q setup near_r.r1cs out.zkey
expect_err_contains "bn128"; [ ! -e out.zkey ] || fail "setup wrote a zkey for a bn128 circuit"

echo "== witness whose value 0 is not the constant 1 (byte 76 is its lowest)"
{ head -c 76 "$w"; printf '\x02'; tail -c +78 "$w"; } > two.wtns
expect_exit 2 witness-0 -- "$CUZK" -q prove "$zk" two.wtns proof.json public.json
expect_err_contains "two.wtns: witness value 0 is not 1"; no_output witness-0

echo "== witness of another circuit (count mismatch)"
expect_exit 2 count -- "$CUZK" -q prove "$zk" "$D/tiny/mul.wtns" proof.json public.json
expect_err_contains "mul.wtns"; expect_err_contains "expects"; no_output count

echo "== witness that does not satisfy the constraints"
node -e '
const fs=require("fs"); const b=fs.readFileSync(process.argv[1]);
// flip one byte of witness value #200 (section 2 starts after the header: 12 + 12 + 4 + 32 + 4 + 12 bytes)
const off = 12 + 12 + 4 + 32 + 4 + 12 + 200*32; b[off] ^= 1; fs.writeFileSync("bad.wtns", b);' "$w"
expect_exit 2 unsatisfied -- "$CUZK" -q prove --r1cs "$D/mimc/mimc_test.r1cs" "$zk" bad.wtns proof.json public.json
expect_err_contains "bad.wtns with $zk: the proof does not verify"; expect_err_contains "first unsatisfied constraint"
no_output unsatisfied

echo "== zkey and r1cs of different circuits"
expect_exit 2 mismatch -- "$CUZK" -q prove --r1cs "$D/tiny/mul.r1cs" "$zk" bad.wtns proof.json public.json
expect_err_contains "different circuits"; no_output mismatch

echo "== corrupted point in a zkey"
node -e '
const fs=require("fs"); const b=Buffer.from(fs.readFileSync(process.argv[1]));
// find section 5 (A points) in the table and flip a byte of its 2nd point y coordinate
let p=12; for(;;){ const id=b.readUInt32LE(p), sz=Number(b.readBigUInt64LE(p+4)); if(id===5){ b[p+12+96+60]^=0x40; break;} p+=12+sz; }
fs.writeFileSync("point.zkey", b);' "$zk"
expect_exit 2 point -- "$CUZK" -q prove point.zkey "$w" proof.json public.json
expect_err_contains "point.zkey"; expect_err_contains "curve"; no_output point

echo "== verify: tampered proof gives exit 1, malformed JSON exit 2"
"$CUZK" -q prove "$zk" "$w" good.json pub.json
node -e 'const fs=require("fs"); const p=JSON.parse(fs.readFileSync("pub.json")); p[1]=String(BigInt(p[1])+1n); fs.writeFileSync("pub2.json", JSON.stringify(p));'
expect_exit 1 tampered -- "$CUZK" verify "$D/mimc/mimc_dev_vk.json" pub2.json good.json
echo '{"pi_a": [' > broken.json
expect_exit 2 malformed -- "$CUZK" verify "$D/mimc/mimc_dev_vk.json" pub.json broken.json
expect_err_contains "broken.json"
node -e 'const fs=require("fs"); const p=JSON.parse(fs.readFileSync("pub.json")); p[0]="52435875175126190479447740508185965837690552500527637822603658699938581184513"; fs.writeFileSync("pub3.json", JSON.stringify(p));'
expect_exit 2 signal-ge-r -- "$CUZK" verify "$D/mimc/mimc_dev_vk.json" pub3.json good.json
expect_err_contains "pub3.json"

echo "== verify: proof points off the curve or outside the subgroup are malformed input (exit 2)"
# (0, 2) lies on y² = x³ + 4 but not in G1; adding 1 to a coordinate of πB moves it off the curve.
node -e 'const fs=require("fs"); const p=JSON.parse(fs.readFileSync("good.json"));
p.pi_a=["0","2","1"]; fs.writeFileSync("sub_a.json", JSON.stringify(p));
const q=JSON.parse(fs.readFileSync("good.json")); q.pi_b[1][0]=String(BigInt(q.pi_b[1][0])+1n);
fs.writeFileSync("off_b.json", JSON.stringify(q));'
expect_exit 2 pi_a-not-in-G1 -- "$CUZK" verify "$D/mimc/mimc_dev_vk.json" pub.json sub_a.json
expect_err_contains "sub_a.json"; expect_err_contains "πA is not in G1"
expect_exit 2 pi_b-off-curve -- "$CUZK" verify "$D/mimc/mimc_dev_vk.json" pub.json off_b.json
expect_err_contains "off_b.json"; expect_err_contains "πB is not on the curve"

echo "== GPU benchmarks without a GPU (or without CUDA support): exit 3, one wording, through cuzk: error:"
for bench in "msm --gpu --min 10 --max 10" "ntt --min 10 --max 10" "gpu-arith" "gpu-upload --gib 1"; do
  # shellcheck disable=SC2086  # $bench is a list of arguments
  expect_exit 3 "bench $bench" -- env CUDA_VISIBLE_DEVICES= "$CUZK" bench $bench
  name=${bench%% --min*}
  expect_err_contains "cuzk: error: bench ${name%% --gib*}: no CUDA GPU available: "
  [ ! -s "$WORK/out" ] || fail "bench $bench printed on stdout: $(cat "$WORK/out")"
done
# a size out of range is a usage error before anything is allocated or a GPU is looked for
for bad in "--gib 0" "--gib 65" "--reps 0"; do
  # shellcheck disable=SC2086  # $bad is a list of arguments
  expect_exit 2 "bench gpu-upload $bad" -- "$CUZK" bench gpu-upload $bad
  expect_err_contains "${bad%% *}"
done
echo "== outputs that name an input, each other, or a missing folder; usage errors"
cp "$zk" own.zkey
expect_exit 2 overwrite-input -- "$CUZK" prove own.zkey "$w" own.zkey public.json
expect_err_contains "refusing to overwrite"; cmp -s own.zkey "$zk" || fail "the zkey was overwritten"
expect_exit 2 same-outputs -- "$CUZK" prove "$zk" "$w" proof.json proof.json
expect_err_contains "same file"; no_output same-outputs
expect_exit 2 missing-folder -- "$CUZK" prove "$zk" "$w" proof.json nodir/public.json
expect_err_contains "does not exist"; no_output missing-folder
expect_exit 2 missing-argument -- "$CUZK" prove "$zk"
expect_err_contains "cuzk: error:"
expect_exit 2 missing-file -- "$CUZK" prove nope.zkey "$w" proof.json public.json
expect_err_contains "nope.zkey"

echo "== info on a file that is not one of ours, and on a truncated zkey: an error, nothing on stdout"
expect_exit 2 info-foreign -- "$CUZK" info "$CUZK"
expect_err_contains "not a .zkey"; [ ! -s "$WORK/out" ] || fail "info printed a description of a foreign file"
expect_exit 2 info-truncated -- "$CUZK" info trunc.zkey
expect_err_contains "truncated"; [ ! -s "$WORK/out" ] || fail "info printed a description of a truncated zkey"
# Standard output that cannot be written (a full device, a closed descriptor) fails the command.
expect_exit 2 stdout-full -- sh -c '"$0" info "$1" >/dev/full' "$CUZK" "$D/mimc/mimc_dev.zkey"
expect_err_contains "standard output could not be written"
expect_exit 2 stdout-closed -- sh -c '"$0" info "$1" >&-' "$CUZK" "$D/mimc/mimc_dev.zkey"
expect_err_contains "standard output could not be written"

echo "== numbers out of their option's range: refused (CLI11 alone wraps -1 and saturates big numbers)"
for arg in "--seed -1" "--seed 18446744073709551616" "--envelope -5" "--seed 12x"; do
  # shellcheck disable=SC2086  # the option and its value are two words
  expect_exit 2 "fake-c1 $arg" -- "$CUZK" -q porep fake-c1 --sector-size 2KiB $arg range.json
  expect_err_contains "is not a whole number from 0 to 18446744073709551615"
  [ ! -e range.json ] || fail "fake-c1 $arg wrote its output"
done
"$CUZK" -q porep fake-c1 --sector-size 2KiB --seed 18446744073709551615 range.json || fail "the largest seed was refused"
for n in 0 -3; do
  expect_exit 2 "post fake --sectors $n" -- "$CUZK" -q post fake --registered-proof StackedDrgWindow2KiBV1_2 --sectors "$n" pf
  expect_err_contains "--sectors"
  [ ! -e pf ] || fail "post fake --sectors $n made its folder"
done

echo "== a circom file where a .params goes, and info on a C1 output"
expect_exit 2 "zkey as --params" -- "$CUZK" -q porep prove --c1 range.json --params "$zk" range.bin
expect_err_contains "mimc_dev.zkey: a circom/snarkjs .zkey file"
[ ! -e range.bin ] || fail "porep prove with a .zkey as --params wrote a proof"
expect_exit 2 "info on a C1" -- "$CUZK" info range.json
expect_err_contains "range.json: a JSON object that info does not describe"
echo "== --threads beyond the daemon's bound, and options that contradict each other: refused"
for t in 4097 100000; do
  expect_exit 2 "--threads $t" -- "$CUZK" --threads "$t" selfcheck
  expect_err_contains "--threads: Value $t not in range 0 to 4096"
done
expect_exit 2 "fake-c1 size and proof" -- "$CUZK" -q porep fake-c1 --sector-size 2KiB --registered-proof StackedDrg32GiBV1 both.json
expect_err_contains "excludes"
[ ! -e both.json ] || fail "fake-c1 with two sizes wrote a C1"
if "$CUZK" client --help >/dev/null 2>&1; then  # a build with the gRPC daemon
  nodaemon=127.0.0.1:1  # every case below is refused before any connection
  for args in "--post range.json --porep range.json" "--snap range.json --update range.json --post range.json" \
    "--post range.json --circuit mimc" "--porep range.json --witness $w" "--porep range.json --partitions 3" \
    "--circuit mimc --registered-proof 5" "--sector-number 7" "--update range.json"; do
    # shellcheck disable=SC2086  # the options are separate words
    expect_exit 2 "client prove $args" -- "$CUZK" client prove --addr "$nodaemon" $args --out cl
    expect_err_contains "--"
    [ ! -e cl ] || fail "client prove $args made its output folder"
  done
  mkfifo wfifo
  for wt in /dev/zero . wfifo; do
    expect_exit 2 "client witness $wt" -- timeout 60 "$CUZK" client submit --addr "$nodaemon" --witness "$wt"
    expect_err_contains "$wt: not a regular file (the witness"
  done
fi
echo "bad input: all passed"
