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
passed=0; failed=0
if swift-symbolgraph-extract -module-name Lamina -target "$(uname -m)-unknown-linux-gnu" "${flags[@]}" \
     -minimum-access-level public -emit-extension-block-symbols -output-dir "$work/symbols" >"$work/log" 2>&1 \
   && docc convert Sources/Lamina/Lamina.docc --additional-symbol-graph-dir "$work/symbols" --output-path .build/docs \
     --warnings-as-errors --fallback-display-name Lamina --fallback-bundle-identifier Lamina >>"$work/log" 2>&1 \
   && [ -f .build/docs/data/documentation/lamina/gettingstarted.json ] \
   && [ -f .build/docs/data/documentation/lamina/snapshottesting.json ]; then
  echo "ok    the documentation of Lamina builds with no warning, the getting-started and snapshot-testing articles in it"
  passed=$((passed + 1))
else
  grep -E "error|warning" "$work/log" | head -40
  echo "FAIL  the documentation of Lamina builds with no warning"
  failed=$((failed + 1))
fi

# LaminaSnapshotTesting extends swift-snapshot-testing's types: every public
# symbol it adds has a doc comment with an example.
mkdir -p "$work/snapshot-symbols"
if swift-symbolgraph-extract -module-name LaminaSnapshotTesting -target "$(uname -m)-unknown-linux-gnu" "${flags[@]}" \
     -minimum-access-level public -emit-extension-block-symbols -output-dir "$work/snapshot-symbols" >"$work/log" 2>&1 \
   && python3 - "$work/snapshot-symbols" > "$work/undocumented" <<'PY' \
   && [ ! -s "$work/undocumented" ]; then
import glob, json, sys
count = 0
for path in glob.glob(sys.argv[1] + "/LaminaSnapshotTesting*.symbols.json"):
    for symbol in json.load(open(path))["symbols"]:
        if symbol["kind"]["identifier"] == "swift.extension":
            continue
        count += 1
        doc = "\n".join(line["text"] for line in (symbol.get("docComment") or {}).get("lines", []))
        if "```" not in doc:
            print("    no example: " + ".".join(symbol["pathComponents"]))
sys.exit(0 if count >= 10 else 1)
PY
  echo "ok    every public symbol of LaminaSnapshotTesting has a doc comment with an example"
  passed=$((passed + 1))
else
  cat "$work/undocumented" "$work/log" | head -20
  echo "FAIL  every public symbol of LaminaSnapshotTesting has a doc comment with an example"
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
