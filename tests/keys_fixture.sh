#!/usr/bin/env bash
# The ctest fixtures filecoin_test_keys (SET main) and filecoin_test_keys_8mib (SET porep8mib): the
# TESTING-ONLY Filecoin keys that several end-to-end tests share, set up once per ctest run into
# CUZK_TEST_KEYS, one folder per recipe (its name: the setup's arguments joined by '_', as
# tests/cli/common.sh's test_keys looks for it). Two sets, so that ctest makes them side by side. Each
# folder appears whole (made under a temporary name, then renamed) with a .done mark, so a killed run leaves
# no half key that a test could take. `keys_fixture.sh clean SET` removes a set's folders (the fixture's
# cleanup).
set -euo pipefail
CUZK=${CUZK:?path to the cuzk binary}
KEYS=${CUZK_TEST_KEYS:?folder for the shared keys}
clean=0
[ "${1:-}" = clean ] && clean=1 && shift
case "${1:-main}" in
  main) recipes=("setup --porep 2KiB --seed 1" "snap setup --sector-size 2KiB --seed 9"
          "post setup --registered-proof 0 --seed 1" "post setup --registered-proof 10 --seed 1") ;;
  porep8mib) recipes=("setup --porep 8MiB --seed 9") ;;
  *) echo "keys_fixture.sh: unknown set '$1' (main or porep8mib)" >&2; exit 2 ;;
esac
mkdir -p "$KEYS"
for recipe in "${recipes[@]}"; do
  name=$(echo "$recipe" | tr ' ' '_')
  rm -rf "${KEYS:?}/$name" "$KEYS/.$name.tmp"
  [ $clean = 1 ] && continue
  t0=$(date +%s)
  # shellcheck disable=SC2086  # the recipe is words
  "$CUZK" -q $recipe "$KEYS/.$name.tmp"
  touch "$KEYS/.$name.tmp/.done"
  mv "$KEYS/.$name.tmp" "$KEYS/$name"
  echo "$recipe: $(($(date +%s) - t0)) s"
done
[ $clean = 0 ] || rmdir "$KEYS" 2>/dev/null || true
