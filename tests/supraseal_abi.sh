#!/usr/bin/env bash
# libcuzk_supraseal.so end to end (tests/CMakeLists.txt): the fixture makes a synthetic PoRep-shaped
# circuit of 2^K, its .params/.vk and assignment files; the C program proves through the SupraSeal ABI;
# the fixture checks every proof (pairing with the .vk, and byte-equal to the C++ prover's).
# usage: supraseal_abi.sh FIXTURE C_TEST K PARTITIONS SCRATCH_DIR
set -euo pipefail
fixture=$1 ctest=$2 k=$3 parts=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir"
"$fixture" --log2 "$k" --seed "$k" --out "$dir"
"$ctest" "$dir" "$parts"
"$fixture" --log2 "$k" --seed "$k" --out "$dir" --check sync split1 split2 clone
