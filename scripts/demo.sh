#!/usr/bin/env bash
# The main job on the bundled example: install, build, then for the MiMC circuit (tests/data/mimc,
# compiled by circom for bls12381): compute the witness with snarkjs, make a (testing-only) proving
# key with `cuzk setup`, prove with `cuzk prove`, and verify with both `cuzk verify` and snarkjs.
# It builds only the `cuzk` command, on the CPU (CUZK_CUDA=ON adds the CUDA kernels); scripts/test.sh
# builds the rest (tests, benchmarks, and the CUDA code when nvcc is found).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
CUZK_CUDA="${CUZK_CUDA:-OFF}" ./scripts/build.sh cuzk_cli
out=build/demo
mkdir -p "$out"
snarkjs="node tests/oracle/node_modules/snarkjs/build/cli.cjs"
echo "== witness (snarkjs wtns calculate)"
$snarkjs wtns calculate tests/data/mimc/mimc_test.wasm tests/data/mimc/mimc_input.json "$out/mimc.wtns"
echo "== setup (cuzk setup, testing only)"
build/cuzk setup tests/data/mimc/mimc_test.r1cs "$out/mimc.zkey"
build/cuzk zkey export-vk "$out/mimc.zkey" "$out/verification_key.json"
echo "== prove (cuzk prove)"
time build/cuzk prove "$out/mimc.zkey" "$out/mimc.wtns" "$out/proof.json" "$out/public.json"
echo "== verify (cuzk verify, then snarkjs groth16 verify)"
build/cuzk verify "$out/verification_key.json" "$out/public.json" "$out/proof.json"
$snarkjs groth16 verify "$out/verification_key.json" "$out/public.json" "$out/proof.json"
echo "proof: $out/proof.json  public signals: $out/public.json"
