#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (ASan + UBSan, build-fuzz/) and runs them.
#   scripts/fuzz.sh [TARGET|all] [SECONDS] [JOBS]
# Each target starts from its seed corpus (fuzz/corpus/TARGET, kept small in the repository) and its
# dictionary (fuzz/dict/TARGET.dict when there is one), runs SECONDS (default 30) with a fixed seed, and
# fails on any crash, leak, timeout (10 s an input), out-of-memory (2 GiB) or property failure; the input
# that caused it is kept in build-fuzz/findings/TARGET/ (a finding becomes a regression input: add it to
# fuzz/corpus/TARGET once fixed). New corpus entries go to build-fuzz/corpus/TARGET, never the repository.
# FUZZ_SEED (default 1) sets libFuzzer's seed. Exit 0 when every target ran clean.
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}" secs="${2:-30}"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only" -DCUZK_FUZZ=ON \
  -DCUZK_CUDA=OFF -DCUZK_TESTS=OFF -DCUZK_BENCH=OFF -DCUZK_SERVICE=AUTO >/dev/null
targets=()
if [ "$which" = all ]; then
  for f in fuzz/fuzz_*.cpp; do t=$(basename "$f" .cpp); targets+=("${t#fuzz_}"); done
else
  targets=("$which")
fi
build=()
for t in "${targets[@]}"; do build+=("fuzz_$t"); done
cmake --build build-fuzz --target "${build[@]}"
status=0
for t in "${targets[@]}"; do
  bin=build-fuzz/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "fuzz_$t: not built (its library is missing)"; status=1; continue; }
  work=build-fuzz/corpus/$t findings=build-fuzz/findings/$t
  mkdir -p "$work" "$findings"
  dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  log=build-fuzz/fuzz_$t.log
  if "$bin" "$work" "fuzz/corpus/$t" "${dict[@]}" -max_total_time="$secs" -seed="${FUZZ_SEED:-1}" \
       -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$findings/" >"$log" 2>&1; then
    echo "fuzz_$t: clean, $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') inputs in ${secs} s, $(grep -oE 'cov: [0-9]+' "$log" | tail -1)"
  else
    echo "fuzz_$t: FINDING (log $log, inputs in $findings):"
    grep -E "FINDING|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error|SUMMARY" "$log" | head -5
    status=1
  fi
done
exit $status
