#!/usr/bin/env bash
# What a first user meets (issue 36, item 9): `cuzk --version` names the project's version; `setup
# --help` (and snap/post setup's) lists only what a setup takes; a setup into a folder that does not exist
# yet creates it and writes Filecoin's file names there (where the daemon's param_cache looks); a prove
# that subgroup-checks its key says so on stderr, with the flag that skips it, and shows how far it got.
NO_ORACLE=1 source "$(dirname "$0")/common.sh"
cd "$WORK"
WIN=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e

echo "== --version"
version=$(sed -n 's/^project(cuzk VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
expect_exit 0 "--version" -- "$CUZK" --version
grep -qE "^cuzk $version( \(commit [^)]+\))?$" "$WORK/out" || fail "--version printed '$(cat "$WORK/out")'"

echo "== setup --help lists only what a setup takes"
for cmd in "setup" "snap setup" "post setup"; do
  # shellcheck disable=SC2086  # $cmd is a list of arguments
  expect_exit 0 "$cmd --help" -- "$CUZK" $cmd --help
  grep -q -- "--device" "$WORK/out" || fail "$cmd --help: no --device"
  ! grep -qE -- "--g2|--gpu-mem-budget|partitions spread" "$WORK/out" || fail "$cmd --help lists proving flags"
done
expect_exit 0 "prove --help" -- "$CUZK" prove --help
grep -q -- "--gpu-mem-budget" "$WORK/out" || fail "prove --help lost --gpu-mem-budget"

echo "== a setup into a folder that does not exist yet creates it"
expect_exit 0 "post setup into a new folder" -- "$CUZK" -q post setup --registered-proof 0 --seed 1 params
[ -d params ] && [ -s "params/$WIN.params" ] && [ -s "params/$WIN.vk" ] || fail "post setup did not create params/$WIN.params"

echo "== the key's subgroup check shows its progress and the flag that skips it"
expect_exit 0 "post fake" -- "$CUZK" -q post fake --registered-proof 0 --seed 1 win
expect_exit 0 "post prove (subgroup check on)" -- "$CUZK" post prove --request win/request.json \
  --params "params/$WIN.params" win.bin
expect_err_contains "--no-subgroup-check"
expect_err_contains "params/$WIN.params: checking key subgroup: "
grep -qE "checking key subgroup: ([0-9]+) of \1 points \(100 %\)" "$WORK/err" || { cat "$WORK/err"; fail "no final progress line"; }
expect_exit 0 "post prove --no-subgroup-check" -- "$CUZK" post prove --request win/request.json \
  --params "params/$WIN.params" --no-subgroup-check win.bin
! grep -q "subgroup" "$WORK/err" || fail "--no-subgroup-check still reports a subgroup check"
echo "first use: all passed"
