#!/usr/bin/env bash
# Runs every example program (examples/<name>/main.swift) and checks its two
# outputs, with ../shared/conformance/compare.py's rule:
#
#   reference  its picture against the outside reference of the same listing:
#              ../shared/conformance/reference/<name>.png, or
#              examples/reference/<name>.png for a figure the suite lacks;
#              bad-pixel limit 0.005 unless the suite's thresholds.txt says;
#              skipped (a `skip` line, neither passed nor failed) for a
#              listing that has neither, such as chapter 6's text, which no
#              outside renderer draws as FreeType does
#   scene      its scene JSON drawn by `lamina render` against its own
#              picture: the same tree on the same backend, so no bad pixel
#
#   scripts/checks/examples.sh [--backend gl|cpu] [--out DIR]
#
# Run it after `swift build` (it builds nothing). Pictures, scenes and
# red-marked diffs go to DIR/<backend> (default .build/examples).
# The last line is `N passed, M failed` (skipped checks are counted on the
# line before it); the exit status is 1 if any failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
backend=gl
out=".build/examples"
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: check-examples.sh [--backend gl|cpu] [--out DIR]" >&2; exit 2 ;;
  esac
done

conformance="../shared/conformance"
if [ ! -f "$conformance/compare.py" ]; then
  echo "check-examples: no $conformance/compare.py here" >&2
  exit 2
fi
# The Python with Pillow and NumPy that the conformance check prepares.
python="$(scripts/setup/conformance-python.sh)"
compare() { "$python" "$conformance/compare.py" "$@"; }

bin="${LAMINA_BIN:-$(swift build --show-bin-path)}"
dir="$out/$backend"
mkdir -p "$dir"
pass=0; fail=0; skip=0
result() {  # NAME CHECK ok|skip|FAIL DETAIL
  printf '%-40s %-9s %-6s %s\n' "$1" "$2" "$3" "$4"
  case "$3" in
    ok) pass=$((pass+1)) ;;
    skip) skip=$((skip+1)) ;;
    *) fail=$((fail+1)) ;;
  esac
}

printf '%-40s %-9s %-6s %s\n' example check result detail
for name in $(scripts/checks/example-names.sh); do
  if [ ! -x "$bin/$name" ]; then
    result "$name" run FAIL "not built: run swift build"; continue
  fi
  if ! err="$("$bin/$name" --backend "$backend" --out "$dir" 2>&1 >/dev/null)"; then
    result "$name" run FAIL "$(echo "$err" | tail -1 | cut -c1-120)"; continue
  fi

  ref="$conformance/reference/$name.png"
  [ -f "$ref" ] || ref="examples/reference/$name.png"
  limit=0.005
  if [ -f "$conformance/scenes/thresholds.txt" ]; then
    l="$(awk -v n="$name" '$1==n {print $2}' "$conformance/scenes/thresholds.txt")"
    [ -n "$l" ] && limit="$l"
  fi
  if [ ! -f "$ref" ]; then
    result "$name" reference skip "no reference picture for this listing"
  elif line="$(compare "$dir/$name.png" "$ref" --diff "$dir/$name.diff.png" --max-bad "$limit")"; then
    result "$name" reference ok "$line"
  else
    result "$name" reference FAIL "$line (limit $limit)"
  fi

  scene_png="$dir/$name.scene.png"
  if ! err="$("$bin/lamina" render "$dir/$name.json" --output "$scene_png" --backend "$backend" 2>&1 >/dev/null)"; then
    result "$name" scene FAIL "lamina render failed: $(echo "$err" | tail -1 | cut -c1-120)"
  elif line="$(compare "$scene_png" "$dir/$name.png" --diff "$dir/$name.scene.diff.png" --max-bad 0)"; then
    result "$name" scene ok "$line"
  else
    result "$name" scene FAIL "$line (limit 0)"
  fi
done
echo "$skip skipped (no reference picture)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
