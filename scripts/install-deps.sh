#!/usr/bin/env bash
# Installs what cuzk needs on a fresh Debian 12 machine: the compiler toolchain and libraries from
# Debian's archive, and the pinned npm packages of the test oracle (tests/oracle/package-lock.json).
# CUDA is optional: when nvcc is on PATH or in /usr/local/cuda/bin, the GPU code builds too.
#   scripts/install-deps.sh          everything (the tests, the daemon, the fuzzers)
#   scripts/install-deps.sh --demo   only what scripts/demo.sh needs: the compiler, CMake, the CLI's two
#                                    header-only libraries, node and the oracle's npm packages
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ "${1:-}" = --demo ]; then
  pkgs=(build-essential cmake ninja-build git nlohmann-json3-dev libcli11-dev)
else
  pkgs=(build-essential cmake ninja-build git time libgtest-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev
        libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev libspdlog-dev libtomlplusplus-dev libcpp-httplib-dev libssl-dev curl
        clang libclang-rt-14-dev
        libpq-dev postgresql bc)  # libpq: the proving farm's store (src/cluster); the server and bc: its tests
fi
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
# node and npm may come from elsewhere (e.g. NodeSource's nodejs bundles npm): check the commands.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -d tests/oracle/node_modules/@noble/curves ] || [ ! -d tests/oracle/node_modules/snarkjs ]; then
  npm ci --prefix tests/oracle --no-audit --no-fund --loglevel=error
fi
