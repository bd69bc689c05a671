#!/usr/bin/env bash
# The main job on the bundled example: install, build, then for the MiMC circuit (tests/data/mimc,
# compiled by circom for bls12381): compute the witness with snarkjs, make a (testing-only) proving
# key with `cuzk setup`, prove with `cuzk prove`, and verify with both `cuzk verify` and snarkjs.
# To reach the first proof soon on a small machine it installs only what it needs (install-deps.sh --demo)
# and builds only the `cuzk` command, into build-demo/: on the CPU (CUZK_CUDA=ON adds the CUDA kernels),
# without the gRPC daemon (`cuzk serve`, `client`) and at -O2 (the CPU prover is a little slower than the
# -O3 of scripts/build.sh; the compile takes about 40% less time). scripts/build.sh builds the full
# `cuzk` into build/, and scripts/test.sh the rest (tests, benchmarks, and the CUDA code when nvcc is found).
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
./scripts/install-deps.sh --demo
CUZK_BUILD_DIR=build-demo CUZK_CUDA="${CUZK_CUDA:-OFF}" ./scripts/build.sh -DCUZK_SERVICE=OFF -DCUZK_TESTS=OFF \
  -DCUZK_BENCH=OFF "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" cuzk_cli
cuzk=build-demo/cuzk
out=build-demo/out
mkdir -p "$out"
snarkjs="node tests/oracle/node_modules/snarkjs/build/cli.cjs"
echo "== witness (snarkjs wtns calculate)"
$snarkjs wtns calculate tests/data/mimc/mimc_test.wasm tests/data/mimc/mimc_input.json "$out/mimc.wtns"
echo "== setup (cuzk setup, testing only)"
$cuzk setup tests/data/mimc/mimc_test.r1cs "$out/mimc.zkey"
$cuzk zkey export-vk "$out/mimc.zkey" "$out/verification_key.json"
echo "== prove (cuzk prove)"
time $cuzk prove "$out/mimc.zkey" "$out/mimc.wtns" "$out/proof.json" "$out/public.json"
echo "== verify (cuzk verify, then snarkjs groth16 verify)"
$cuzk verify "$out/verification_key.json" "$out/public.json" "$out/proof.json"
$snarkjs groth16 verify "$out/verification_key.json" "$out/public.json" "$out/proof.json"
echo "proof: $out/proof.json  public signals: $out/public.json  ($(($(date +%s) - t0)) s from the start)"
