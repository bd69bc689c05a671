#!/usr/bin/env bash
# Configures and builds cuzk in build/ (Release; CUZK_BUILD_DIR=DIR builds in DIR instead).
#   scripts/build.sh [-DOPTION=VALUE ...] [TARGET ...]
# Arguments that start with "-" go to the CMake configure step; the others name the targets to build
# (default: all: the library, the CLI, the tests, the benchmarks and, with CUDA, the GPU code), e.g.
# `scripts/build.sh cuzk_cli` builds only the `cuzk` command. CUDA kernels are built when nvcc is
# found; CUZK_CUDA=OFF skips them (CUZK_CUDA=ON requires them).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"
options=() targets=()
for a in "$@"; do
  case "$a" in
    -*) options+=("$a") ;;
    *) targets+=("$a") ;;
  esac
done
dir=${CUZK_BUILD_DIR:-build}
# CUZK_CUDA_CHECK_ONLY off unless asked for: scripts/test.sh sets it in the same folder, and the cache keeps it
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA="${CUZK_CUDA:-AUTO}" -DCUZK_CUDA_CHECK_ONLY=OFF \
  "${options[@]}" >/dev/null
if [ ${#targets[@]} -gt 0 ]; then
  cmake --build "$dir" --target "${targets[@]}"
else
  cmake --build "$dir"
fi
