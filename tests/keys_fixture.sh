#!/usr/bin/env bash
# The ctest fixture filecoin_test_keys: the TESTING-ONLY Filecoin keys that several end-to-end tests share,
# set up once per ctest run into CUZK_TEST_KEYS, one folder per recipe (its name: the setup's arguments
# joined by '_', as tests/cli/common.sh's test_keys looks for it). Each folder appears whole (made under
# a temporary name, then renamed) with a .done mark, so a killed run leaves no half key that a test
# could take. `keys_fixture.sh clean` removes them (the fixture's cleanup).
set -euo pipefail
CUZK=${CUZK:?path to the cuzk binary}
KEYS=${CUZK_TEST_KEYS:?folder for the shared keys}
rm -rf "$KEYS"
[ "${1:-}" = clean ] && exit 0
mkdir -p "$KEYS"
for recipe in "setup --porep 2KiB --seed 1" "snap setup --sector-size 2KiB --seed 9" \
  "post setup --registered-proof 0 --seed 1" "post setup --registered-proof 10 --seed 1"; do
  t0=$(date +%s)
  name=$(echo "$recipe" | tr ' ' '_')
  # shellcheck disable=SC2086  # the recipe is words
  "$CUZK" -q $recipe "$KEYS/.$name.tmp"
  touch "$KEYS/.$name.tmp/.done"
  mv "$KEYS/.$name.tmp" "$KEYS/$name"
  echo "$recipe: $(($(date +%s) - t0)) s"
done
