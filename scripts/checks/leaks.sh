#!/usr/bin/env bash
# Memory that grows with use: valgrind's memcheck over a decode-and-render
# loop of every example scene. Each scene runs twice in one process each,
# for 2 and for 8 frames (every frame decodes the JSON, renders on the CPU
# and encodes the PNG, as the render server does per request); what is lost
# must not grow with the frames. One-time losses of the libraries (fontconfig
# loading its configuration) are the same for both runs and so are allowed.
#
#   scripts/checks/leaks.sh [LAMINA]
#
# The last line is `N passed, M failed`; the exit status is 1 if any failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
built="${1:-$(swift build --show-bin-path)/lamina}"
command -v valgrind >/dev/null || { echo "check-leaks: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
# Debian's valgrind 3.19 gives up on the DWARF of a binary this size ("Possibly
# corrupted debuginfo file"), so it runs a copy without debug sections (the
# symbol table stays: leak reports still name functions, and the byte counts
# this check compares do not need DWARF at all).
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
lamina="$work/lamina"
strip --strip-debug -o "$lamina" "$built"

lost() {  # bytes definitely + indirectly lost after FRAMES frames of SCENE
  local report
  report="$(valgrind --leak-check=full "$lamina" bench "$1" --backend cpu --frames "$2" --warmup 0 --decode --png 2>&1 >/dev/null)" \
    || { echo "check-leaks: valgrind failed on $1:" >&2; tail -15 <<<"$report" >&2; exit 1; }
  grep -q "LEAK SUMMARY\|All heap blocks were freed" <<<"$report" \
    || { echo "check-leaks: no leak summary from valgrind on $1:" >&2; tail -15 <<<"$report" >&2; exit 1; }
  awk '/definitely lost:|indirectly lost:/ { gsub(",", "", $4); sum += $4 } END { print sum + 0 }' <<<"$report"
}

pass=0; fail=0
for scene in examples/scenes/*.json; do
  name="$(basename "$scene" .json)"
  few="$(lost "$scene" 2)"; many="$(lost "$scene" 8)"
  if [ "$many" -le "$few" ]; then
    printf '%-28s ok    lost %s bytes after 2 frames, %s after 8\n' "$name" "$few" "$many"; pass=$((pass+1))
  else
    printf '%-28s FAIL  lost %s bytes after 2 frames, %s after 8: %s bytes a frame\n' "$name" "$few" "$many" $(( (many - few) / 6 )); fail=$((fail+1))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
