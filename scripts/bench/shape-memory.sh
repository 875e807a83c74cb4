#!/usr/bin/env bash
# Peak memory of a 10,000 x 10,000 point shape layer against a 10 x 10 one,
# both drawn on the same small canvas, on each backend. A shape layer is
# vector: it needs no backing picture of its size, so the two peaks should
# differ by a small constant (the path's few points), not by 10^8 pixels.
#
#   scripts/bench/shape-memory.sh [path/to/lamina]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
lamina="${1:-$(swift build -c release --show-bin-path)/lamina}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

scene() { # SIZE -> a 200x200 canvas with one shape layer of SIZE x SIZE points
  cat <<JSON
{"width": 200, "height": 200, "backgroundColor": "#ffffff", "sublayers": [
  {"type": "shape", "bounds": [0, 0, $1, $1], "position": [100, 100], "fillColor": "#3366cc",
   "strokeColor": "#000000", "lineWidth": 3,
   "path": "M 0 0 L $1 0 L $1 $1 Z"}]}
JSON
}
scene 10000 > "$work/huge.json"
scene 10 > "$work/small.json"

printf '%-8s %-6s %s\n' backend size "peak RSS (KiB)"
for backend in gl cpu; do
  for size in small huge; do
    rss=$( { /usr/bin/time -f '%M' "$lamina" render "$work/$size.json" --output "$work/$size.png" --backend "$backend"; } 2>&1 | tail -1)
    printf '%-8s %-6s %s\n' "$backend" "$size" "$rss"
  done
done
