#!/usr/bin/env bash
# The README's first Swift sample, compiled exactly as printed in a package
# of its own that depends on Lamina by path (as a user's package would), and
# run: it must build with `import Lamina` alone and write its picture.
#
#   scripts/check-readme.sh
#
# The sample package lives in .build-readme/ (kept, so a second run only
# relinks); it builds the Lamina library, not the server or the tool.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
package=".build-readme/sample"
mkdir -p "$package/Sources/Sample"

# The first ```swift block, byte for byte.
awk '/^```swift$/ { inside = 1; next } /^```$/ { if (inside) exit } inside' README.md > "$package/Sources/Sample/main.swift.new"
if ! cmp -s "$package/Sources/Sample/main.swift.new" "$package/Sources/Sample/main.swift"; then
  mv "$package/Sources/Sample/main.swift.new" "$package/Sources/Sample/main.swift"
else
  rm "$package/Sources/Sample/main.swift.new"
fi
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

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
