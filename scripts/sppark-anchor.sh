#!/usr/bin/env bash
# Builds tools/sppark_anchor (sppark's NTT and G1 MSM, timed and checked like cuzk_gpu_bench's) and runs it,
# so that cuzk's GPU figures can sit beside sppark's from the same machine and run (issue 22, METHOD.md).
#   scripts/sppark-anchor.sh [ntt|msm|all|build] [RUNS]   (build: the binary only, to carry to a GPU machine)
# Needs nvcc, a GPU, and checkouts of supranational/sppark and supranational/blst: SPPARK_DIR and BLST_DIR
# (default .anchor/sppark and .anchor/blst, a folder .git/info/exclude ignores; the GPU machine cannot
# reach the network, so carry it there). The binary goes to build-anchor/sppark_anchor; the output lines
# are `sppark <op> <variant> 2^<log> median <ms> ms (min <ms>, <runs> runs) check ok`.
# Sizes: NTT 2^20..2^27 (REFERENCE.md §3 has 2^24, 2^26, 2^27), MSM 2^20..2^26 (host memory ~7 GB).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all} runs=${2:-7}
SPPARK_DIR=$(readlink -f "${SPPARK_DIR:-.anchor/sppark}")
BLST_DIR=$(readlink -f "${BLST_DIR:-.anchor/blst}")
[ -f "$SPPARK_DIR/ntt/ntt.cuh" ] || { echo "sppark-anchor: no sppark checkout at $SPPARK_DIR (set SPPARK_DIR)" >&2; exit 2; }
[ -f "$BLST_DIR/src/blst_t.hpp" ] || { echo "sppark-anchor: no blst checkout at $BLST_DIR (set BLST_DIR)" >&2; exit 2; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${CUZK_CUDA_ARCH:-90}
B=build-anchor
mkdir -p "$B/blst"
# blst with the ADX instructions selected at compile time (blst_t.hpp then names the mulx entry points).
if [ ! -f "$B/blst/libblst.a" ]; then
  (cd "$B/blst" && "$BLST_DIR/build.sh" -D__ADX__ >/dev/null)
fi
common=(-O2 -std=c++17 -D__ADX__ -DTAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE -DFEATURE_BLS12_381 -I "$SPPARK_DIR")
"$NVCC" "${common[@]}" -arch=sm_$ARCH -Xcompiler -Wno-unused-function -I "$BLST_DIR/src" \
  -c tools/sppark_anchor/anchor.cu -o "$B/anchor.o"
"$NVCC" "${common[@]}" -arch=sm_$ARCH -c "$SPPARK_DIR/util/all_gpus.cpp" -o "$B/all_gpus.o"
g++ -O2 -std=c++17 -Wall -Wextra -I "$BLST_DIR/bindings" -c tools/sppark_anchor/check.cpp -o "$B/check.o"
"$NVCC" -arch=sm_$ARCH "$B/anchor.o" "$B/check.o" "$B/all_gpus.o" "$B/blst/libblst.a" -o "$B/sppark_anchor"
echo "sppark-anchor: sppark $(git -C "$SPPARK_DIR" rev-parse --short HEAD 2>/dev/null || echo '?'), blst $(git -C "$BLST_DIR" rev-parse --short HEAD 2>/dev/null || echo '?')"
[ "$what" = build ] && exit 0
case "$what" in
  ntt) "$B/sppark_anchor" ntt 20 27 "$runs" ;;
  msm) "$B/sppark_anchor" msm 20 26 "$runs" ;;
  all) "$B/sppark_anchor" ntt 20 27 "$runs" && "$B/sppark_anchor" msm 20 26 "$runs" ;;
  *) echo "sppark-anchor: ntt, msm, all or build" >&2; exit 2 ;;
esac
