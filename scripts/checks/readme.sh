#!/usr/bin/env bash
# The README's first Swift sample and the code of the documentation's
# getting-started article (Sources/Lamina/Lamina.docc/GettingStarted.md),
# exactly as printed, as a user's package meets Lamina: `import Lamina`
# alone, and only what Lamina makes public.
#
#   scripts/checks/readme.sh
#
# The code is kept as two programs of the package (examples/docs-readme and
# examples/docs-getting-started, built by `swift build`); this check
#   - compares each with the text the documents print, byte for byte;
#   - type-checks each as a client of the built modules, the way another
#     package sees them: no `package` or internal name is reachable (a file
#     that names one of Lamina's internals must fail to type-check too);
#   - runs each and checks the pictures it writes.
# It builds nothing; run it after `swift build`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root="$PWD"
bin="${LAMINA_BIN:-$(swift build --show-bin-path)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The README's first ```swift block; every ```swift block of the article but its Package.swift.
awk '/^```swift$/ { inside = 1; next } /^```$/ { if (inside) exit } inside' README.md > "$work/readme.swift"
awk '/^```swift$/ { inside = 1; block = ""; next }
     /^```$/ { if (inside && block !~ /swift-tools-version/) printf "%s", block; inside = 0; next }
     inside { block = block $0 "\n" }' Sources/Lamina/Lamina.docc/GettingStarted.md > "$work/article.swift"

# A client's view of the built modules: their interfaces, the C modules they
# import, and no package name (scripts/checks/client-flags.sh).
mapfile -t flags < <(scripts/checks/client-flags.sh "$bin")
typecheck() { swiftc -typecheck "${flags[@]}" "$1"; }

printf 'import Lamina\nlet archive: ZipArchive? = nil\n' > "$work/internal.swift"

passed=0; failed=0
check() {
  if eval "$2"; then echo "ok    $1"; passed=$((passed + 1)); else echo "FAIL  $1"; failed=$((failed + 1)); fi
}
check "the README's first sample is examples/docs-readme/main.swift, byte for byte" \
  'cmp -s "$work/readme.swift" examples/docs-readme/main.swift || { diff "$work/readme.swift" examples/docs-readme/main.swift | head -20; false; }'
check "the article's code is examples/docs-getting-started/main.swift, byte for byte" \
  'cmp -s "$work/article.swift" examples/docs-getting-started/main.swift || { diff "$work/article.swift" examples/docs-getting-started/main.swift | head -20; false; }'
check "the README's sample type-checks as a client of Lamina, with import Lamina alone" \
  'typecheck "$work/readme.swift" > "$work/tc.log" 2>&1 || { head -30 "$work/tc.log"; false; }'
check "the article's code type-checks as a client of Lamina" \
  'typecheck "$work/article.swift" > "$work/tc.log" 2>&1 || { head -30 "$work/tc.log"; false; }'
check "the client's view is a client's: a file naming a name Lamina does not make public does not type-check" \
  '! typecheck "$work/internal.swift" > "$work/tc.log" 2>&1 || { echo "    ZipArchive (package access) is reachable from import Lamina"; false; }'
check "the README's sample runs and writes perspective.png, 1000 x 600 pixels" \
  '(cd "$work" && "$bin/docs-readme") && [ "$(od -An -tu1 -j16 -N8 "$work/perspective.png" | tr -s " " | sed "s/^ //")" = "0 0 3 232 0 0 2 88" ]'
check "the article's code runs and writes perspective.png, card.png and spin.png (an animated PNG of 10 frames)" \
  '(cd "$work" && "$bin/docs-getting-started") && [ -s "$work/card.png" ] && grep -q acTL "$work/spin.png" && [ "$(od -An -tu1 -j41 -N4 "$work/spin.png" | tr -s " " | sed "s/^ //")" = "0 0 0 10" ]'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
