#!/usr/bin/env bash
# `cuzk info gpu` (issue 35 item 4): the device plan of each Filecoin proof kind at a GPU memory budget,
# without a GPU when --gpu-mem-budget is given: every kind is named with its host memory, and a 32 GiB PoRep
# partition streams at 16 GiB, is all resident at 141 GiB and does not fit 8 GiB.
NO_ORACLE=1 source "$(dirname "$0")/common.sh"
cd "$WORK"
# plan_of KIND: the plan line under KIND's line in the last output.
plan_of() { awk -v k="$1" 'found { print; exit } index($0, k " (") == 1 { found = 1 }' "$WORK/out"; }
expect_out_contains() { grep -qF -- "$1" "$WORK/out" || { cat "$WORK/out" >&2; fail "stdout lacks '$1'"; }; }

echo "== 16 GiB: every kind, PoRep 32 GiB streamed"
expect_exit 0 "info gpu 16GiB" -- "$CUZK" info gpu --gpu-mem-budget 16GiB
for kind in "PoRep C2 32 GiB (porep-32g)" "PoRep C2 64 GiB (porep-64g)" "WindowPoSt 32 GiB (wpost-32g)" \
  "WinningPoSt 32 GiB (winning-32g)" "SnapDeals 32 GiB (snap-32g)"; do
  expect_out_contains "$kind: domain 2^"
done
expect_out_contains "host memory 52.4 GiB (key 44.1 GiB, rows 8.3 GiB)"  # PoRep 32 GiB
expect_out_contains "budget 16.0 GiB (--gpu-mem-budget)"
p=$(plan_of "PoRep C2 32 GiB")
[[ "$p" == *"streamed h,a,b_g1,l,b_g2 ("* ]] || fail "PoRep 32 GiB at 16 GiB: not all streamed: $p"
p=$(plan_of "WinningPoSt 32 GiB")
[[ "$p" == *"resident h,a,b_g1,l,b_g2 ("*"streamed - ("* ]] || fail "WinningPoSt at 16 GiB: not resident: $p"
if grep -q "^build: CPU only" "$WORK/out"; then expect_out_contains "no CUDA device"; fi

echo "== 141 GiB: all resident"
expect_exit 0 "info gpu 141GiB" -- "$CUZK" info gpu --gpu-mem-budget 141GiB
for kind in "PoRep C2 32 GiB" "PoRep C2 64 GiB" "WindowPoSt 32 GiB" "WinningPoSt 32 GiB" "SnapDeals 32 GiB"; do
  p=$(plan_of "$kind")
  [[ "$p" == *"streamed - ("* ]] || fail "$kind at 141 GiB: not all resident: $p"
done

echo "== 8 GiB: the 2^27 kinds do not fit, WinningPoSt does"
expect_exit 0 "info gpu 8GiB" -- "$CUZK" info gpu --gpu-mem-budget 8GiB
p=$(plan_of "PoRep C2 32 GiB")
[[ "$p" == *"does not fit: budget 8.0 GiB, needs at least "* ]] || fail "PoRep 32 GiB at 8 GiB: $p"
p=$(plan_of "WinningPoSt 32 GiB")
[[ "$p" == *"resident h,a,b_g1,l,b_g2"* ]] || fail "WinningPoSt at 8 GiB: $p"

echo "== arguments"
expect_exit 2 "info gpu, bad budget" -- "$CUZK" info gpu --gpu-mem-budget lots
expect_err_contains "--gpu-mem-budget: \"lots\" is not a size"
expect_exit 2 "info gpu, a budget beyond 2^63 bytes" -- "$CUZK" info gpu --gpu-mem-budget 99999999999999999999GiB
expect_err_contains "--gpu-mem-budget: \"99999999999999999999GiB\" is too large a size"
expect_exit 2 "info without a file" -- "$CUZK" info
expect_err_contains "info needs a file"
if "$CUZK" info gpu --gpu-mem-budget 16GiB | grep -q "^build: CPU only"; then
  expect_exit 2 "info gpu without a GPU or a budget" -- "$CUZK" info gpu
  expect_err_contains "no CUDA device: give --gpu-mem-budget"
fi
echo "info gpu: OK"
