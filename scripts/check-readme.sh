#!/usr/bin/env bash
# The README's first Swift sample and the code of the documentation's
# getting-started article (Sources/Lamina/Lamina.docc/GettingStarted.md),
# compiled exactly as printed in a package of its own that depends on Lamina
# by path (as a user's package would), and run: they must build with
# `import Lamina` alone and write their pictures.
#
#   scripts/check-readme.sh
#
# The sample package lives in .build-readme/ (kept, so a second run only
# relinks); it builds the Lamina library, not the server or the tool.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
package=".build-readme/sample"
mkdir -p "$package/Sources/Sample" "$package/Sources/Article"

# Replaces $2 by $1 only when they differ, so an unchanged sample is not rebuilt.
update() { if cmp -s "$1" "$2"; then rm "$1"; else mv "$1" "$2"; fi; }
# The README's first ```swift block, byte for byte.
awk '/^```swift$/ { inside = 1; next } /^```$/ { if (inside) exit } inside' README.md > "$package/Sources/Sample/main.swift.new"
update "$package/Sources/Sample/main.swift.new" "$package/Sources/Sample/main.swift"
# Every ```swift block of the article but its Package.swift, one after another.
awk '/^```swift$/ { inside = 1; block = ""; next }
     /^```$/ { if (inside && block !~ /swift-tools-version/) printf "%s", block; inside = 0; next }
     inside { block = block $0 "\n" }' Sources/Lamina/Lamina.docc/GettingStarted.md > "$package/Sources/Article/main.swift.new"
update "$package/Sources/Article/main.swift.new" "$package/Sources/Article/main.swift"
# A path dependency's identity is its folder's name.
identity="$(basename "$root" | tr '[:upper:]' '[:lower:]')"
cat > "$package/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Sample",
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(name: "Sample", dependencies: [.product(name: "Lamina", package: "$identity")]),
        .executableTarget(name: "Article", dependencies: [.product(name: "Lamina", package: "$identity")]),
    ]
)
SWIFT

passed=0; failed=0
check() {
  if eval "$2"; then echo "ok    $1"; passed=$((passed + 1)); else echo "FAIL  $1"; failed=$((failed + 1)); fi
}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
check "the README's first sample compiles as printed in a package that depends on Lamina by path" \
  '(cd "$package" && swift build --product Sample) > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; false; }'
check "it runs and writes perspective.png, 1000 x 600 pixels" \
  '(cd "$work" && "$root/$package/.build/debug/Sample") && [ "$(od -An -tu1 -j16 -N8 "$work/perspective.png" | tr -s " " | sed "s/^ //")" = "0 0 3 232 0 0 2 88" ]'
check "the getting-started article's code compiles as printed" \
  '(cd "$package" && swift build --product Article) > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; false; }'
check "it runs and writes perspective.png, card.png and spin.png (an animated PNG of 10 frames)" \
  '(cd "$work" && "$root/$package/.build/debug/Article") && [ -s "$work/card.png" ] && grep -q acTL "$work/spin.png" && [ "$(od -An -tu1 -j41 -N4 "$work/spin.png" | tr -s " " | sed "s/^ //")" = "0 0 0 10" ]'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
