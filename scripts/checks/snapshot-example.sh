#!/usr/bin/env bash
# examples/snapshot-testing as a user's package meets it: copied out of the
# repository, depending on Lamina and swift-snapshot-testing by their
# products, built and tested with `swift test` (debug, as a user runs it;
# linked by lld, the toolchain's, which links a test bundle in seconds, not gold's half minute).
#
#   scripts/checks/snapshot-example.sh            # check
#   scripts/checks/snapshot-example.sh --update   # record the example's references anew, after a deliberate change
#
#   - its first run records a reference for each test (and fails, saying so);
#   - its second run passes, and the references it recorded are the ones
#     committed in the example;
#   - with the card's colour changed, the picture tests fail, saying how many
#     pixels differ, with the reference, the new picture and the difference
#     written side by side; the structure test shows the changed line.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root="$PWD"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A user's build: none of the repository's own settings.
unset LAMINA_OPTIMIZED

package="$work/CardSnapshots"
mkdir -p "$package"
cp -R examples/snapshot-testing/Package.swift examples/snapshot-testing/Sources examples/snapshot-testing/Tests "$package/"
rm -rf "$package/Tests/CardsTests/__Snapshots__"
sed -i "s|^let laminaPath = \"../..\"|let laminaPath = \"$root\"|" "$package/Package.swift"
grep -q "^let laminaPath = \"$root\"" "$package/Package.swift"
artifacts="$work/artifacts"
export SNAPSHOT_ARTIFACTS="$artifacts"
snapshots="$package/Tests/CardsTests/__Snapshots__"

passed=0; failed=0
check() {
  if eval "$2"; then echo "ok    $1"; passed=$((passed + 1)); else echo "FAIL  $1"; failed=$((failed + 1)); fi
}
run() { (cd "$package" && swift test --skip-build > "$work/$1.log" 2>&1); }

begun=$(date +%s)
check "the example builds as a package of its own, with Lamina and swift-snapshot-testing by their products" \
  '(cd "$package" && swift build --build-tests -Xswiftc -use-ld=lld > "$work/build.log" 2>&1) || { tail -30 "$work/build.log"; false; }'
echo "      (built in $(( $(date +%s) - begun )) s)"

check "its first run records a reference for each of the three tests, and fails saying so" \
  '! run first && [ "$(grep -c "No reference was found on disk. Automatically recorded snapshot" "$work/first.log")" = 3 ] \
   && [ -s "$snapshots/CardTests/card.1.png" ] && [ -s "$snapshots/CardTests/cardStructure.1.json" ] \
   && [ -s "$snapshots/CardXCTests/testCardAtOneX.1.png" ] || { tail -30 "$work/first.log"; ls -R "$snapshots" 2>&1 | head; false; }'
check "its second run passes" \
  'run second || { grep -E "does not match|error|✘" "$work/second.log" | head -20; false; }'
if [ "${1:-}" = "--update" ]; then
  rm -rf examples/snapshot-testing/Tests/CardsTests/__Snapshots__
  cp -R "$snapshots" examples/snapshot-testing/Tests/CardsTests/__Snapshots__
  echo "examples/snapshot-testing/Tests/CardsTests/__Snapshots__ recorded anew"
fi
check "the references it recorded are the ones committed in examples/snapshot-testing" \
  'diff -r "$snapshots" examples/snapshot-testing/Tests/CardsTests/__Snapshots__ > "$work/diff" || { head "$work/diff"; false; }'

# The layer changes: the banner's accent colour.
sed -i 's/accent: CGColor = CGColor(red: 0.16, green: 0.45, blue: 0.95, alpha: 1)/accent: CGColor = CGColor(red: 0.95, green: 0.3, blue: 0.2, alpha: 1)/' \
  "$package/Sources/Cards/Card.swift"
(cd "$package" && swift build --build-tests -Xswiftc -use-ld=lld > "$work/rebuild.log" 2>&1) || { tail -30 "$work/rebuild.log"; exit 1; }
check "with the card changed, the two picture tests fail, saying how many pixels differ" \
  '! run changed && [ "$(grep -c "Snapshot does not match reference." "$work/changed.log")" -ge 3 ] \
   && [ "$(grep -cE "[0-9]+ of [0-9]+ pixels differ" "$work/changed.log")" = 2 ] || { tail -40 "$work/changed.log"; false; }'
check "each picture failure writes the reference, the new picture and the difference side by side" \
  '[ "$(ls -d "$artifacts"/lamina-snapshot-* | wc -l)" = 2 ] && for d in "$artifacts"/lamina-snapshot-*; do
     for f in reference failure difference; do [ -s "$d/$f.png" ] || exit 1; done
     grep -q "Reference, new picture and difference: $d" "$work/changed.log" || exit 1; done'
check "the structure test shows the colour that changed" \
  'grep -qE "^\s*−.*\[0\.16, 0\.45, 0\.95\]" "$work/changed.log" && grep -qE "^\s*\+.*\[0\.95, 0\.3, 0\.2\]" "$work/changed.log" \
   || { grep -A30 "cardStructure.1.json\"$" "$work/changed.log" | head -40; false; }'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
