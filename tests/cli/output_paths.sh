#!/usr/bin/env bash
# Output paths are checked before any work, by every command that proves, sets up or writes fake inputs
# (issue 36, items 6 and 7; tools/cli_checks.hpp): an output that is an input (the same path, a symbolic
# or a hard link to it: the same file identity), an output whose folder is missing or not writable, and
# an output that is a folder are refused with exit 2, a message naming the output, no file touched and
# no work done (a junk .params file shows it: it is never read). The fake-input commands leave no
# .cuzk.lock behind.
NO_ORACLE=1 source "$(dirname "$0")/common.sh"
D="$SRC/tests/data"
cd "$WORK"
# untouched FILE...: each file is byte-identical to its .orig copy, and no temporary is left behind.
untouched() {
  for f in "$@"; do cmp -s "$f" "$f.orig" || fail "$f was overwritten"; done
  ! ls ./*.tmp-* ./*/*.tmp-* >/dev/null 2>&1 || fail "a temporary file was left behind"
}
# refused TEXT DESCRIPTION -- command...: exit 2 and TEXT on stderr.
refused() {
  local text=$1 what=$2; shift 2
  expect_exit 2 "$what" "$@"
  expect_err_contains "$text"
}
# An unwritable folder: a read-only one for a user, /proc/self for root (whom permissions do not stop).
if [ "$(id -u)" = 0 ]; then RO=/proc/self; else mkdir ro && chmod 555 ro && RO=ro; fi

echo "== fake inputs (no .cuzk.lock left)"
expect_exit 0 "porep fake-c1" -- "$CUZK" -q porep fake-c1 --sector-size 2KiB --seed 3 c1.json
expect_exit 0 "snap fake" -- "$CUZK" -q snap fake --sector-size 2KiB --seed 1 v.json
expect_exit 0 "post fake" -- "$CUZK" -q post fake --registered-proof 0 --seed 1 win
[ -s c1.json ] && [ -s c1.seal.json ] && [ -s v.json ] && [ -s v.update.json ] && [ -s win/request.json ] \
  || fail "a fake command did not write its files"
[ ! -e .cuzk.lock ] && [ ! -e win/.cuzk.lock ] || fail "a fake command left a .cuzk.lock"
SECTOR=$(ls win/sector-*.bin)
echo junk > P.params; echo junk > P.vk
for f in c1.json c1.seal.json v.json v.update.json win/request.json "$SECTOR" P.params P.vk; do cp "$f" "$f.orig"; done
ln -s c1.json link.json; ln c1.json hard.json

echo "== porep prove: the output is an input (by path, symbolic link, hard link), or cannot be written"
for out in c1.json ./c1.json "$WORK/c1.json" link.json hard.json P.params P.vk; do
  refused "is also an input" "porep prove into $out" -- "$CUZK" -q porep prove --c1 c1.json --params P.params \
    --vk P.vk "$out"
  expect_err_contains "$out"
done
untouched c1.json P.params P.vk
refused "folder /nonexistent does not exist" "porep prove into a missing folder" -- \
  "$CUZK" -q porep prove --c1 c1.json --params P.params /nonexistent/o.bin
refused "is not writable" "porep prove into an unwritable folder" -- \
  "$CUZK" -q porep prove --c1 c1.json --params P.params "$RO/o.bin"
mkdir adir
refused "is a folder" "porep prove into a folder" -- "$CUZK" -q porep prove --c1 c1.json --params P.params adir

echo "== snap prove and post prove"
for out in v.json v.update.json P.params P.vk; do
  refused "is also an input" "snap prove into $out" -- "$CUZK" -q snap prove --vanilla v.json --update v.update.json \
    --params P.params --vk P.vk "$out"
done
refused "does not exist" "snap prove into a missing folder" -- "$CUZK" -q snap prove --vanilla v.json \
  --update v.update.json --params P.params nodir/o.bin
for out in win/request.json "$SECTOR" P.params P.vk; do
  refused "is also an input" "post prove into $out" -- "$CUZK" -q post prove --request win/request.json \
    --params P.params --vk P.vk "$out"
done
refused "does not exist" "post prove into a missing folder" -- "$CUZK" -q post prove --request win/request.json \
  --params P.params nodir/o.bin
untouched v.json v.update.json win/request.json "$SECTOR" P.params P.vk

echo "== prove, zkey export-vk"
cp "$D/tiny/mul_final.zkey" own.zkey; cp own.zkey own.zkey.orig
refused "is also an input" "prove --params into the .params" -- "$CUZK" -q prove --params P.params \
  --r1cs "$D/tiny/mul.r1cs" "$D/tiny/mul.wtns" P.params pub.json
refused "is not writable" "prove into an unwritable folder" -- "$CUZK" -q prove own.zkey "$D/tiny/mul.wtns" \
  "$RO/p.json" pub.json
refused "is also an input" "export-vk onto the zkey" -- "$CUZK" -q zkey export-vk own.zkey own.zkey
refused "does not exist" "export-vk into a missing folder" -- "$CUZK" -q zkey export-vk own.zkey nodir/vk.json
untouched own.zkey P.params

echo "== setups: every variant checks its outputs first"
refused "does not exist" "setup (zkey)" -- "$CUZK" -q setup "$D/tiny/mul.r1cs" nodir/m.zkey
refused "is not writable" "setup --format bellperson" -- "$CUZK" -q setup --format bellperson "$D/tiny/mul.r1cs" \
  "$RO/m.params"
refused "does not exist" "setup --synthetic" -- "$CUZK" -q setup --synthetic porep --log2 10 nodir/s.params
refused "does not exist" "setup --porep into a folder whose parent is missing" -- \
  "$CUZK" -q setup --porep 2KiB nodir/params
refused "not a folder" "setup --porep onto an existing file" -- "$CUZK" -q setup --porep 2KiB c1.json
refused "does not exist" "snap setup" -- "$CUZK" -q snap setup --sector-size 2KiB nodir/params
refused "is not writable" "post setup" -- "$CUZK" -q post setup --registered-proof 0 "$RO/k.params"
untouched c1.json
[ ! -e nodir ] || fail "a refused command made a folder"

echo "== fake commands and benchmark reports"
refused "does not exist" "porep fake-c1" -- "$CUZK" -q porep fake-c1 --sector-size 2KiB nodir/c1.json
refused "does not exist" "snap fake" -- "$CUZK" -q snap fake --sector-size 2KiB nodir/v.json
refused "cannot create the folder" "post fake" -- "$CUZK" -q post fake --registered-proof 0 "$RO/win"
refused "does not exist" "bench prove --json" -- "$CUZK" -q bench prove --synthetic porep --log2 10 --reps 1 \
  --device cpu --json nodir/r.json
refused "does not exist" "bench msm --json" -- "$CUZK" -q bench msm --gpu --min 10 --max 10 --json nodir/r.json
echo "== special files: an output that is a FIFO is refused and kept; a symbolic link's target is written"
mkfifo fifo
refused "not a regular file" "prove into a FIFO" -- "$CUZK" -q prove own.zkey "$D/tiny/mul.wtns" fifo pub.json
[ -p fifo ] || fail "the FIFO was replaced"
[ ! -e pub.json ] || fail "a refused prove wrote its other output"
echo old > target.json && ln -s target.json out-link.json
expect_exit 0 "prove into a symbolic link" -- "$CUZK" -q prove own.zkey "$D/tiny/mul.wtns" out-link.json pub.json
[ -L out-link.json ] || fail "the symbolic link was replaced"
grep -q pi_a target.json || fail "the link's target does not hold the proof"
echo "== special files as inputs: refused at once (a FIFO is not waited on, /dev/zero not read)"
refused "not a regular file" "verify a FIFO key" -- timeout 20 "$CUZK" -q verify fifo pub.json target.json
refused "not a regular file" "verify /dev/zero as the key" -- timeout 20 "$CUZK" -q verify /dev/zero pub.json \
  target.json
refused "not a regular file" "info /dev/null" -- timeout 20 "$CUZK" -q info /dev/null
refused "not a regular file" "info a FIFO" -- timeout 20 "$CUZK" -q info fifo
echo "== a write that fails (the file size limit standing in for a full disk) leaves no part of a set"
# SIGXFSZ ignored, so that a write past the limit fails with EFBIG instead of killing the process.
expect_exit 2 "porep fake-c1 past the size limit" -- bash -c 'trap "" XFSZ; ulimit -f 8; exec "$0" -q porep fake-c1 \
  --sector-size 2KiB --seed 3 lim.json' "$CUZK"
[ ! -e lim.json ] && [ ! -e lim.seal.json ] || fail "fake-c1 left part of its output set"
expect_exit 2 "post fake past the size limit" -- bash -c 'trap "" XFSZ; ulimit -f 1; exec "$0" -q post fake \
  --registered-proof 0 --seed 1 limdir' "$CUZK"
[ ! -e limdir ] || fail "post fake left the folder it made"
! ls ./*.tmp-* >/dev/null 2>&1 || fail "a temporary file was left behind"
echo "output paths: all passed"
