#!/usr/bin/env bash
# Configures and builds cuzk in build/ (Release). CUDA kernels are built when nvcc is found;
# CUZK_CUDA=OFF skips them (CUZK_CUDA=ON requires them).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA="${CUZK_CUDA:-AUTO}" "$@" >/dev/null
cmake --build build
