#!/usr/bin/env bash
# Proves the Poseidon-chain circuits (tests/data/poseidon_chain: 2^16, 2^18, 2^20 constraints) with
# `cuzk prove` and with `snarkjs groth16 prove` on the same machine, same zkey and witness, and prints
# both wall times, peak RSS and the ratio. Keys come from `cuzk setup` (a snarkjs ceremony above 2^16
# takes hours on 2 cores); snarkjs verifies cuzk's proof for each size.
# cuzk runs REPS times (default 3) and its median wall time is reported; snarkjs runs SNARKJS_REPS times
# (default 1: it takes minutes at 2^20), median too. Peak RSS is the largest of the runs.
# Usage: bench/prove_vs_snarkjs.sh [sizes...]   (default: 16 18 20). Needs build/cuzk (scripts/build.sh),
# or CUZK=/path/to/cuzk.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CUZK=${CUZK:-$ROOT/build/cuzk}
NM="$ROOT/tests/oracle/node_modules"
SNARKJS=(node --max-old-space-size=16000 "$NM/snarkjs/build/cli.cjs")
WORK=${WORK:-$ROOT/build/bench-prove}
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(16 18 20)
mkdir -p "$WORK" && cd "$WORK"
mkdir -p circomlib && cp -r "$NM/circomlib/circuits" circomlib/
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)"; exit 1; }
secs() { awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }' <<<"$1"; }
# median wall time (seconds) and largest peak RSS (kB) over the runs <tool>.<r>.time
median_wall() {
  for f in "$1".*.time; do secs "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$f")"; done |
    sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
max_peak() { cat "$1".*.time | sed -n 's/.*Maximum resident set size (kbytes): //p' | sort -n | tail -1; }
printf "%-6s %12s %12s %8s %14s %14s\n" size cuzk_s snarkjs_s ratio cuzk_rss_MB snarkjs_rss_MB
for k in "${sizes[@]}"; do
  c=pc$k
  cp "$ROOT/tests/data/poseidon_chain/$c.circom" .
  [ -f $c.r1cs ] || node "$NM/circom2/cli.js" $c.circom --r1cs --wasm -p bls12381 -o . >/dev/null
  [ -f $c.wtns ] || "${SNARKJS[@]}" wtns calculate ${c}_js/$c.wasm "$ROOT/tests/data/poseidon_chain/input.json" $c.wtns
  [ -f $c.zkey ] || "$CUZK" -q setup --seed 1 $c.r1cs $c.zkey >/dev/null 2>&1
  [ -f $c.vk.json ] || "$CUZK" zkey export-vk $c.zkey $c.vk.json
  for r in $(seq "${REPS:-3}"); do
    /usr/bin/time -v -o cuzk.$r.time "$CUZK" -q prove $c.zkey $c.wtns cuzk_proof.json cuzk_public.json
    "${SNARKJS[@]}" groth16 verify $c.vk.json cuzk_public.json cuzk_proof.json | grep -q OK ||
      { echo "snarkjs rejects cuzk's proof"; exit 1; }
  done
  for r in $(seq "${SNARKJS_REPS:-1}"); do
    /usr/bin/time -v -o snarkjs.$r.time "${SNARKJS[@]}" groth16 prove $c.zkey $c.wtns sj_proof.json sj_public.json
  done
  a=$(median_wall cuzk) b=$(median_wall snarkjs)
  printf "2^%-4s %12.2f %12.2f %7.1fx %14d %14d\n" $k "$a" "$b" "$(awk "BEGIN{print $b/$a}")" \
    $(( $(max_peak cuzk) / 1024 )) $(( $(max_peak snarkjs) / 1024 ))
  rm -f cuzk.*.time snarkjs.*.time
done
