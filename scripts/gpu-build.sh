#!/usr/bin/env bash
# Builds the GPU binaries (cuzk_gpu_tests, cuzk_gpu_bench, the SupraSeal drop-in with its C test, and the cuzk
# CLI when its libraries are present)
# on the GPU machine itself, with all its cores, into build-gpu/ and copies them to .gpu/ for
# scripts/gpu-check.sh. The GPU machine has nvcc, cmake and ninja but none of Debian's -dev packages:
# the header-only libraries and GoogleTest's static libraries can travel in .devdeps/ (made on a Debian
# machine by `scripts/gpu-build.sh --pack`; the device tool's `carry` brings the folder along).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --pack ]; then
  rm -rf .devdeps && mkdir -p .devdeps/include .devdeps/lib/cmake .devdeps/share/cmake
  cp -r /usr/include/nlohmann /usr/include/CLI /usr/include/gtest /usr/include/gmock .devdeps/include/
  cp /usr/lib/x86_64-linux-gnu/libgtest*.a /usr/lib/x86_64-linux-gnu/libgmock*.a .devdeps/lib/
  cp -r /usr/lib/x86_64-linux-gnu/cmake/GTest .devdeps/lib/cmake/
  cp -r /usr/share/cmake/CLI11 /usr/share/cmake/nlohmann_json .devdeps/share/cmake/
  exit 0
fi
if [ -d .devdeps ] && [ ! -d /usr/include/gtest ]; then
  cp -rn .devdeps/include/* /usr/include/
  cp -n .devdeps/lib/*.a /usr/lib/x86_64-linux-gnu/
  mkdir -p /usr/lib/x86_64-linux-gnu/cmake /usr/share/cmake
  cp -rn .devdeps/lib/cmake/GTest /usr/lib/x86_64-linux-gnu/cmake/
  cp -rn .devdeps/share/cmake/* /usr/share/cmake/
fi
export PATH="$PATH:/usr/local/cuda/bin"
# The commit benchmark reports record: CUZK_GIT_COMMIT from the environment when set (a copy of the tree
# without .git: pass the sender's `git describe --always --dirty`), else git describe here, else "unknown".
# CUZK_CUDA_ARCHS: the architectures (default: the release set of CMakeLists.txt, every card from sm_80;
# "90" builds faster for Hopper-only runs; "80-virtual" is the PTX-only build of gpu-check.sh's JIT test).
# BUILD_DIR: where (default build-gpu; the PTX test uses build-ptx80) and OUT_BIN: where the binaries go.
BUILD_DIR=${BUILD_DIR:-build-gpu}
OUT_BIN=${OUT_BIN:-.gpu}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
  -DCUZK_CUDA_ARCHS="${CUZK_CUDA_ARCHS:-80-real;86-real;89-real;90-real;120}" -DCUZK_BENCH=OFF \
  -DCUZK_SERVICE=OFF -DCUZK_GIT_COMMIT="${CUZK_GIT_COMMIT:-}" >/dev/null
targets=(cuzk_gpu_tests cuzk_gpu_bench cuzk_supraseal cuzk_supraseal_fixture cuzk_supraseal_abi_test cuzk_supraseal_bench)
[ "${WITH_CLI:-1}" = 1 ] && targets+=(cuzk_cli)
ninja -k 0 -C "$BUILD_DIR" "${targets[@]}"
mkdir -p "$OUT_BIN"
B=$BUILD_DIR
cp $B/tests/cuzk_gpu_tests $B/tests/cuzk_gpu_bench $B/libcuzk_supraseal.so \
  $B/tests/cuzk_supraseal_fixture $B/tests/cuzk_supraseal_abi_test $B/tests/cuzk_supraseal_bench "$OUT_BIN"/
[ -x $B/cuzk ] && cp $B/cuzk "$OUT_BIN"/ || true
echo "gpu-build done: $(ls "$OUT_BIN")"
