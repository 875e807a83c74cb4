#!/usr/bin/env bash
# Instructions per frame of each stage of the pipeline (decode, snapshot,
# plan, render, png), CPU backend, under callgrind: for each scene and stage,
# `lamina bench --stage S` is counted with 3 frames and with 1 (after one
# warm-up frame), and half the difference is one frame's work, so start-up,
# the first frame and the caches it fills do not count. Timing is noisy on a
# shared machine; instruction counts are not.
#
#   scripts/stage-instructions.sh [SCENE.json ...]   # default: ../shared/bench/*.json
#
# Needs valgrind (Debian's package). Runs a stripped copy of the release
# binary: Debian's valgrind gives up on the binaries' DWARF.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
scenes=("$@")
[ ${#scenes[@]} -gt 0 ] || scenes=(../shared/bench/*.json)
swift build -c release --product lamina >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$(swift build -c release --show-bin-path)/lamina" "$work/lamina"
strip "$work/lamina"

count() {  # scene stage frames -> instructions
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/lamina" bench "$1" --backend cpu \
    --stage "$2" --frames "$3" --warmup 1 >/dev/null 2>"$work/err"
  grep -Eo 'Collected : [0-9]+' "$work/err" | grep -Eo '[0-9]+'
}

stages=(decode snapshot plan render png)
printf '| scene | %s |\n|---|%s\n' "$(IFS='|'; echo "${stages[*]}" | sed 's/|/ | /g')" "$(printf -- '---|%.0s' "${stages[@]}")"
for scene in "${scenes[@]}"; do
  row="| $(basename "$scene" .json) |"
  for stage in "${stages[@]}"; do
    one=$(count "$scene" "$stage" 1)
    three=$(count "$scene" "$stage" 3)
    row+=" $(awk -v a="$one" -v b="$three" 'BEGIN { printf "%.1f M", (b - a) / 2 / 1e6 }') |"
  done
  echo "$row"
done
