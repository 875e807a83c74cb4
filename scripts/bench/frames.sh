#!/usr/bin/env bash
# Frames per second of `lamina frames` for a 3-second, 30 fps, 600x400
# spinning cube (examples/scenes/spinning-cube.json) to each output format on
# both backends, against one `lamina render` process per frame. A benchmark,
# not a test: it prints a Markdown table for docs/benchmarks.md.
#
#   scripts/bench/frames.sh [RUNS]      (default 3; the best run counts)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
runs="${1:-3}"
swift build -c release --product lamina >&2
lamina="$(swift build -c release --show-bin-path)/lamina"
scene=examples/scenes/spinning-cube.json
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
frames=90

best() {  # the fastest of $runs runs of the command, in seconds
  local best=""
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N)
    local t; t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

per_frame() {  # one lamina render process per frame
  for i in $(seq 0 $((frames - 1))); do
    "$lamina" render "$scene" --output "$out/single.png" --backend "$1" --time "$(echo "$i / 30" | bc -l)"
  done
}

echo "| output | cpu fps | gl fps |"
echo "|---|---|---|"
for format in folder png webp mp4; do
  row="| $format"
  for backend in cpu gl; do
    case "$format" in folder) target="$out/frames/" ;; *) target="$out/cube.$format" ;; esac
    t=$(best "$lamina" frames "$scene" --output "$target" --fps 30 --duration 3 --quiet --backend "$backend")
    row="$row | $(printf '%.1f' "$(echo "$frames / $t" | bc -l)")"
  done
  echo "$row |"
done
row="| one \`lamina render\` process per frame (PNG)"
for backend in cpu gl; do
  t=$(runs=1 best per_frame "$backend")
  row="$row | $(printf '%.1f' "$(echo "$frames / $t" | bc -l)")"
done
echo "$row |"
