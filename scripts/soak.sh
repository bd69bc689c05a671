#!/usr/bin/env bash
# The long daemon soak (tests/soak/soak.sh, issue 21 item 3): builds `cuzk` (build/, CPU only) and runs
# JOBS mixed jobs (default 20000) from CLIENTS clients (default 4) against one `cuzk serve` for at most
# SECONDS (default 900), checking every outcome, the daemon's counters, RSS and open descriptors.
#   scripts/soak.sh [JOBS] [SECONDS] [CLIENTS]
# The report (JSON) is kept in build/soak.json. CI runs a short soak (ctest -R soak_short).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF -DCUZK_BENCH=OFF >/dev/null
cmake --build build --target cuzk_cli
CUZK="$PWD/build/cuzk" SRC="$PWD" SOAK_JSON="$PWD/build/soak.json" \
  bash tests/soak/soak.sh "${1:-20000}" "${2:-900}" "${3:-4}"
