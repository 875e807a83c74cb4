#!/usr/bin/env bash
# Instructions per frame of each stage of the pipeline (decode, snapshot,
# plan, render, png), CPU backend, under callgrind: for each scene and stage,
# `lamina bench --stage S` is counted with 3 frames and with 1 (after one
# warm-up frame), and half the difference is one frame's work, so start-up,
# the first frame and the caches it fills do not count. Timing is noisy on a
# shared machine; instruction counts are not.
#
#   scripts/bench/stage-instructions.sh [SCENE.json ...]   # default: ../shared/bench/*.json
#   scripts/bench/stage-instructions.sh --blocks [SCENE.json ...]
#
# With --blocks, it counts heap blocks allocated per frame instead (valgrind's
# dhat, the same differences): what a frame in the steady state allocates.
#
# Needs valgrind (Debian's package). Runs a stripped copy of the release
# binary: Debian's valgrind gives up on the binaries' DWARF.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
tool=callgrind
if [ "${1:-}" = "--blocks" ]; then tool=dhat; shift; fi
scenes=("$@")
[ ${#scenes[@]} -gt 0 ] || scenes=(../shared/bench/*.json)
swift build -c release --product lamina >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$(swift build -c release --show-bin-path)/lamina" "$work/lamina"
strip "$work/lamina"

count() {  # scene stage frames -> instructions, or heap blocks with --blocks
  valgrind --tool="$tool" --"$tool"-out-file="$work/out" "$work/lamina" bench "$1" --backend cpu \
    --stage "$2" --frames "$3" --warmup 1 >/dev/null 2>"$work/err"
  if [ "$tool" = dhat ]; then
    grep -Eo 'Total: +[0-9,]+ bytes in [0-9,]+ blocks' "$work/err" | awk '{ gsub(",", "", $5); print $5 }'
  else
    grep -Eo 'Collected : [0-9]+' "$work/err" | grep -Eo '[0-9]+'
  fi
}

stages=(decode snapshot plan render png)
printf '| scene | %s |\n|---|%s\n' "$(IFS='|'; echo "${stages[*]}" | sed 's/|/ | /g')" "$(printf -- '---|%.0s' "${stages[@]}")"
for scene in "${scenes[@]}"; do
  row="| $(basename "$scene" .json) |"
  for stage in "${stages[@]}"; do
    one=$(count "$scene" "$stage" 1)
    three=$(count "$scene" "$stage" 3)
    if [ "$tool" = dhat ]; then
      row+=" $(awk -v a="$one" -v b="$three" 'BEGIN { printf "%.0f", (b - a) / 2 }') |"
    else
      row+=" $(awk -v a="$one" -v b="$three" 'BEGIN { printf "%.1f M", (b - a) / 2 / 1e6 }') |"
    fi
  done
  echo "$row"
done
