#!/usr/bin/env bash
# libcuzk_supraseal.so end to end (tests/CMakeLists.txt): the fixture makes a synthetic PoRep-shaped
# circuit of 2^K, its .params/.vk and assignment files; the C program proves through the SupraSeal ABI;
# the fixture checks every proof (pairing with the .vk, and byte-equal to the C++ prover's).
# usage: supraseal_abi.sh FIXTURE C_TEST K PARTITIONS SCRATCH_DIR
set -euo pipefail
fixture=$1 ctest=$2 k=$3 parts=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir"
"$fixture" --log2 "$k" --seed "$k" --out "$dir"
# CUZK_TIMING=1: every call prints its "CUZK_TIMING: <function> …" stage lines on stderr
CUZK_TIMING=1 "$ctest" "$dir" "$parts" 2>"$dir/stderr.txt" || { cat "$dir/stderr.txt" >&2; exit 1; }
for want in "CUZK_TIMING: generate_groth16_proofs_c num_circuits=$parts gpu=0 prepare_ms=" \
            "CUZK_TIMING: generate_groth16_proofs_start_c num_circuits=" \
            "CUZK_TIMING: finalize_groth16_proof_c circuit=0 " "msm_h_ms=" "epilogue_ms=" "finalize_ms="; do
  grep -qF -- "$want" "$dir/stderr.txt" || { echo "no \"$want\" line in stderr:" >&2; cat "$dir/stderr.txt" >&2; exit 1; }
done
"$fixture" --log2 "$k" --seed "$k" --out "$dir" --check sync split1 split2 clone
