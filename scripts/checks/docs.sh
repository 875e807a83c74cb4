#!/usr/bin/env bash
# The API documentation builds: the DocC catalog of `Lamina`
# (Sources/Lamina/Lamina.docc, its getting-started article included) and the
# doc comments of its public symbols, with every warning an error (an
# unresolved link, an undocumented parameter). The article's code is
# compiled and run by scripts/check-readme.sh. The archive goes to .build/docs.
#
#   scripts/checks/docs.sh
#
# It builds nothing: the symbols are read from the modules `swift build`
# made (swift-symbolgraph-extract, as swift-docc-plugin does), and docc
# converts the catalog with them. `swift package generate-documentation
# --target Lamina` makes the same archive, with a build of its own.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bin="${LAMINA_BIN:-$(swift build --show-bin-path)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mapfile -t flags < <(scripts/checks/client-flags.sh "$bin")
rm -rf .build/docs
mkdir -p "$work/symbols"
if swift-symbolgraph-extract -module-name Lamina -target "$(uname -m)-unknown-linux-gnu" "${flags[@]}" \
     -minimum-access-level public -emit-extension-block-symbols -output-dir "$work/symbols" >"$work/log" 2>&1 \
   && docc convert Sources/Lamina/Lamina.docc --additional-symbol-graph-dir "$work/symbols" --output-path .build/docs \
     --warnings-as-errors --fallback-display-name Lamina --fallback-bundle-identifier Lamina >>"$work/log" 2>&1 \
   && [ -f .build/docs/data/documentation/lamina/gettingstarted.json ]; then
  echo "ok    the documentation of Lamina builds with no warning, the getting-started article in it"
  echo "1 passed, 0 failed"
else
  grep -E "error|warning" "$work/log" | head -40
  echo "FAIL  the documentation of Lamina builds with no warning"
  echo "0 passed, 1 failed"
  exit 1
fi
