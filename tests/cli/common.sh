# Shared by the CLI tests: paths, a scratch folder, and assertion helpers. Sourced, not run.
set -euo pipefail
CUZK=${CUZK:?path to the cuzk binary}
SRC=${SRC:?repository root}
NODE_MODULES="$SRC/tests/oracle/node_modules"
SNARKJS=(node "$NODE_MODULES/snarkjs/build/cli.cjs")
CIRCOM=(node "$NODE_MODULES/circom2/cli.js")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Scripts that use neither snarkjs nor circom set NO_ORACLE=1 before sourcing this file.
[ -n "${NO_ORACLE:-}" ] || [ -d "$NODE_MODULES/snarkjs" ] || { echo "oracle packages missing: npm ci --prefix tests/oracle"; exit 1; }

fail() { echo "FAIL: $*" >&2; exit 1; }

# Wall-clock allowances on a busy machine: CUZK_TEST_TIMEOUT_SCALE (a number ≥ 1, default 1; scripts/test.sh
# sets it from the load it finds) multiplies every time these scripts wait for something (tests/timing.hpp
# is the C++ side, tests/timeout_scale.cmake ctest's). Wait for events, polling, rather than for guesses.
SCALE=${CUZK_TEST_TIMEOUT_SCALE:-1}
awk -v s="$SCALE" 'BEGIN { exit !(s + 0 >= 1 && s + 0 <= 1000) }' 2>/dev/null || SCALE=1
# scaled N: the number N times the scale, rounded up to an integer (e.g. a --timeout-ms or `timeout` value).
scaled() { awk -v n="$1" -v s="$SCALE" 'BEGIN { v = n * s; printf "%d\n", (v == int(v)) ? v : int(v) + 1 }'; }
# deadline SECONDS: the time, in ms since the epoch, SECONDS (scaled) from now; before END: now is before it.
deadline() { echo $(($(date +%s%3N) + $(scaled "$(awk -v n="$1" 'BEGIN { print n * 1000 }')"))); }
before() { [ "$(date +%s%3N)" -lt "$1" ]; }
# wait_for SECONDS COMMAND…: runs COMMAND every 0.1 s until it succeeds (status 0) or SECONDS (scaled) have
# passed (status 1).
wait_for() {
  local end
  end=$(deadline "$1")
  shift
  until "$@"; do
    before "$end" || return 1
    sleep 0.1
  done
}
# test_keys DIR SETUP-ARGS…: a TESTING-ONLY key made by `cuzk SETUP-ARGS… DIR`, e.g. `test_keys d setup --porep
# 2KiB --seed 1`. Under ctest the suite's keys are made once per run by the filecoin_test_keys fixture
# (tests/keys_fixture.sh) into CUZK_TEST_KEYS, one folder per recipe: when that folder holds this recipe's
# finished output, its files are linked into DIR instead of set up again (a 2 KiB PoRep setup is ~30 s on
# 2 cores); otherwise (a script run alone) the setup runs here.
test_keys() {
  local dir=$1 made
  shift
  made="${CUZK_TEST_KEYS:-/nonexistent}/$(echo "$*" | tr ' ' '_')"
  mkdir -p "$dir"
  if [ -f "$made/.done" ]; then
    ln -s "$made"/* "$dir"/
  else
    "$CUZK" -q "$@" "$dir"
  fi
}
# expect_exit CODE DESCRIPTION -- command...: runs the command, checks its exit code, keeps stderr in $WORK/err.
expect_exit() {
  local want=$1 what=$2; shift 3
  set +e
  "$@" >"$WORK/out" 2>"$WORK/err"
  local got=$?
  set -e
  [ "$got" -eq "$want" ] || { cat "$WORK/err" >&2; fail "$what: exit $got, expected $want"; }
}
# expect_err_contains TEXT: the last command's stderr mentions TEXT.
expect_err_contains() { grep -qF -- "$1" "$WORK/err" || { cat "$WORK/err" >&2; fail "stderr lacks '$1'"; }; }
