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
