#!/usr/bin/env bash
# The API documentation builds: the DocC catalog of `Lamina`
# (Sources/Lamina/Lamina.docc, its getting-started article included) and the
# doc comments of its symbols, with every warning an error (an unresolved
# link, an undocumented parameter). The article's code is compiled and run
# by scripts/check-readme.sh. The archive goes to .build/docs.
#
#   scripts/check-docs.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
rm -rf .build/docs
if swift package --disable-sandbox generate-documentation --target Lamina --output-path .build/docs \
     --warnings-as-errors >"$log" 2>&1 && [ -f .build/docs/data/documentation/lamina/gettingstarted.json ]; then
  echo "ok    the documentation of Lamina builds with no warning, the getting-started article in it"
  echo "1 passed, 0 failed"
else
  grep -E "error|warning" "$log" | head -40
  echo "FAIL  the documentation of Lamina builds with no warning"
  echo "0 passed, 1 failed"
  exit 1
fi
