#!/usr/bin/env bash
# The whole test suite (what CI runs): install, build (CUDA code too when nvcc exists: GPU tests are
# built but run only on a GPU machine, see scripts/gpu-check.sh), run every CPU test, then rebuild
# the CPU tests with AddressSanitizer + UndefinedBehaviorSanitizer and run them again, then run every
# fuzz target briefly.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
(cd build && ctest --output-on-failure -j2)
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCUZK_SANITIZE=ON -DCUZK_CUDA=OFF -DCUZK_BENCH=OFF >/dev/null
cmake --build build-asan --target cuzk_tests cuzk_gadget_tests cuzk_c_abi_test
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
   ctest --output-on-failure -j2 -E "ParentCacheDigest512|C1Large" \
   -R "^(Noble|Field|Fp52|Group|Pairing|Decoder|Format|Ntt|Msm|Groth16|Engine|Circuit|Gadget|Boolean|UInt32|MultiEq|Sha256|Poseidon|Por|Filecoin|CreateLabel|C1|Sdr|StackedWitness|PostVanilla|c_abi)")
# Every libFuzzer target of fuzz/ for a bounded time from its seed corpus (fixed seed): a crash, leak,
# timeout or property failure fails the suite (scripts/fuzz.sh; longer runs: scripts/fuzz.sh all 600).
./scripts/fuzz.sh all "${FUZZ_SECONDS:-10}"
echo "all tests passed"
