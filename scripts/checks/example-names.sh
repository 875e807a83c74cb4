#!/usr/bin/env bash
# Prints the names of the example programs, one a line, in the book's order:
# the `examples` list of Package.swift, which makes one executable of each
# examples/<name>/main.swift.
#
#   scripts/checks/example-names.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
names="$(sed -n '/^let examples = \[/,/^\]/p' Package.swift | grep -o '"[^"]*"' | tr -d '"')"
if [ -z "$names" ]; then
  echo "example-names: no 'let examples = [...]' list in Package.swift" >&2
  exit 1
fi
echo "$names"
