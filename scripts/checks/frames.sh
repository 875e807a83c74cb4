#!/usr/bin/env bash
# `lamina frames` against the outside references of the animated conformance
# scenes (../shared/conformance/scenes/anim-*.json, drawn by Chromium's own
# animation engine at each scene's "time"): a sequence started at that time
# must begin with the reference picture, in every output format that keeps
# pictures exact (a folder of PNGs, an animated PNG, a lossless WebP), and
# within a palette's reach in an animated GIF (its frames' delays checked too).
#
#   scripts/checks/frames.sh [--backend gl|cpu] [--out DIR]
#
# The last line is `N passed, M failed`; the exit status is 1 if any failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
backend=cpu
out=".build/frames"
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: check-frames.sh [--backend gl|cpu] [--out DIR]" >&2; exit 2 ;;
  esac
done
conformance="../shared/conformance"
python="$(scripts/setup/conformance-python.sh)"
lamina="${LAMINA:-$(swift build --show-bin-path)/lamina}"
mkdir -p "$out"
pass=0; fail=0
for scene in "$conformance"/scenes/anim-*.json; do
  name="$(basename "$scene" .json)"
  time="$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("time", 0))' "$scene")"
  for format in folder png webp gif; do
    case "$format" in
      folder) target="$out/$name.$backend/"; rm -rf "$target"; first="$target/frame-00000.png" ;;
      png) target="$out/$name.$backend.apng"; first="$out/$name.$backend.first.png" ;;
      webp) target="$out/$name.$backend.webp"; first="$out/$name.$backend.webp-first.png" ;;
      gif) target="$out/$name.$backend.gif"; first="$out/$name.$backend.gif-first.png" ;;
    esac
    if ! err="$("$lamina" frames "$scene" --output "$target" --backend "$backend" --from "$time" --duration 0.1 --fps 20 --quiet 2>&1)"; then
      printf '%-28s %-7s FAIL  frames failed: %s\n' "$name" "$format" "$(echo "$err" | tail -1 | cut -c1-100)"; fail=$((fail+1)); continue
    fi
    # The sequence's first frame, as its format's decoder (Pillow) reads it.
    if [ "$format" != folder ] && ! err="$("$python" -c '
import sys; from PIL import Image
im = Image.open(sys.argv[1])
if im.format == "GIF":
    # Two frames of 5 centiseconds (0.1 s at 20 fps), forever.
    delays = []
    for k in range(im.n_frames):
        im.seek(k); delays.append(im.info.get("duration"))
    assert delays == [50, 50] and im.info.get("loop") == 0, (delays, im.info)
im.seek(0); im.convert("RGBA").save(sys.argv[2])' "$target" "$first" 2>&1)"; then
      printf '%-28s %-7s FAIL  %s\n' "$name" "$format" "$(echo "$err" | tail -1 | cut -c1-100)"; fail=$((fail+1)); continue
    fi
    limit=0.005; [ "$format" = gif ] && limit=0.05   # a palette of 256 colours, dithered
    if line="$("$python" "$conformance/compare.py" "$first" "$conformance/reference/$name.png" --max-bad "$limit")"; then
      printf '%-28s %-7s ok    %s\n' "$name" "$format" "$line"; pass=$((pass+1))
    else
      printf '%-28s %-7s FAIL  %s (limit %s)\n' "$name" "$format" "$line" "$limit"; fail=$((fail+1))
    fi
  done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
