#!/usr/bin/env bash
# Text is a function of the scene and of Lamina's configuration, not of the
# machine: the checks of issue "text that looks the same everywhere".
#
#   LAMINA=.build/debug/lamina scripts/checks/fonts.sh
#
# With .build-tools/fontconfig-extra.conf (this machine's fontconfig plus
# Debian's fonts-urw-base35, unpacked by scripts/setup/install-packages.sh and never
# installed; with it fontconfig's own "Helvetica" is Nimbus Sans):
# - `lamina info --fonts` says the same, and text scenes (the examples' and
#   one per row of the font table) render to the same bytes;
# - the text unit tests pass under it.
# And fonts brought along (`--fonts DIR`, LAMINA_FONTS, `lamina serve
# --fonts`) resolve by family and PostScript name; a missing family is
# named in one warning.
# Prints one line per check and ends with "N passed, M failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
lamina="${LAMINA:-$(swift build --show-bin-path)/lamina}"
extra="$PWD/.build-tools/fontconfig-extra.conf"
urw=".build-tools/fonts-extra/root/usr/share/fonts/opentype/urw-base35"
[ -f "$extra" ] || scripts/setup/install-packages.sh
work="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

passed=0; failed=0
check() { if eval "$2"; then echo "ok    $1"; passed=$((passed + 1)); else echo "FAIL  $1"; failed=$((failed + 1)); fi; }

# Text scenes: the examples', and one line in each name of the table.
mkdir -p "$work/scenes"
cp examples/scenes/text-*.json "$work/scenes/"
for font in Helvetica Helvetica-Bold HelveticaNeue-Italic Arial system-ui sans-serif Times Times-BoldItalic Georgia serif \
            Courier Courier-Bold Menlo monospace "DejaVu Sans" "No Such Family"; do
  file="$work/scenes/font-$(printf '%s' "$font" | tr -c 'A-Za-z0-9-' '_').json"
  printf '{"width": 360, "height": 60, "backgroundColor": "#ffffff", "sublayers": [{"type": "text", "frame": [4, 4, 352, 52], "string": "Quartz Sphinx 0123 \\u00e9\\u00df\\u03a9 %s", "font": "%s", "fontSize": 20, "foregroundColor": "#000000", "contentsScale": 2}]}\n' "$font" "$font" > "$file"
done

"$lamina" info --fonts > "$work/info-plain.txt" 2>/dev/null
FONTCONFIG_FILE="$extra" "$lamina" info --fonts > "$work/info-extra.txt" 2>/dev/null
check "fontconfig with fonts-urw-base35 says Nimbus Sans for Helvetica (the machine this guards against)" \
  '[ "$(FONTCONFIG_FILE="$extra" fc-match -f "%{family[0]}" Helvetica)" = "Nimbus Sans" ]'
check "lamina info --fonts is the same with fonts-urw-base35 as without" 'cmp -s "$work/info-plain.txt" "$work/info-extra.txt"'
same=0; different=""
for scene in "$work"/scenes/*.json; do
  name="$(basename "$scene" .json)"
  "$lamina" render "$scene" --backend cpu --output "$work/$name.plain.png" 2>/dev/null
  FONTCONFIG_FILE="$extra" "$lamina" render "$scene" --backend cpu --output "$work/$name.extra.png" 2>/dev/null
  if cmp -s "$work/$name.plain.png" "$work/$name.extra.png"; then same=$((same + 1)); else different="$different $name"; fi
done
count=$(ls "$work"/scenes/*.json | wc -l)
check "$count text scenes render to the same bytes with fonts-urw-base35 as without" '[ -z "$different" ]'
[ -n "$different" ] && echo "      different:$different"
check "the text unit tests pass with fonts-urw-base35 (FONTCONFIG_FILE)" \
  'FONTCONFIG_FILE="$extra" swift test --skip-build --filter LaminaTextTests >"$work/unit.log" 2>&1'

# A machine without the preferred families (a private configuration with
# DejaVu alone): the fallback draws, and is named once.
cat > "$work/dejavu-only.conf" <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>$work/fc-cache</cachedir></fontconfig>
CONF
FONTCONFIG_FILE="$work/dejavu-only.conf" "$lamina" render "$work/scenes/font-Helvetica.json" --backend cpu \
  --output "$work/dejavu-only.png" 2>"$work/dejavu-only.err"
check "without Liberation and Arimo, Helvetica is drawn with DejaVu Sans and that is said once" \
  '[ "$(cat "$work/dejavu-only.err")" = "lamina: font \"Helvetica\": Liberation Sans and Arimo are not installed; drawing it with DejaVu Sans" ] && [ -s "$work/dejavu-only.png" ]'

# Fonts brought along: a folder of URW's C059 (a family this machine lacks).
mkdir -p "$work/fonts/sub"
cp "$urw/C059-Roman.otf" "$work/fonts/"
cp "$urw/C059-Bold.otf" "$work/fonts/sub/"
printf '{"width": 300, "height": 60, "backgroundColor": "#ffffff", "sublayers": [{"type": "text", "frame": [4, 4, 292, 52], "string": "Brand Type 42", "font": "%s", "fontSize": 28, "foregroundColor": "#202060"}]}\n' C059 > "$work/brand.json"
sed 's/"C059"/"C059-Bold"/' "$work/brand.json" > "$work/brand-bold.json"
"$lamina" render "$work/brand.json" --backend cpu --output "$work/brand-none.png" 2>"$work/brand-none.err"
"$lamina" render "$work/brand.json" --backend cpu --fonts "$work/fonts" --output "$work/brand.png" 2>"$work/brand.err"
"$lamina" render "$work/brand-bold.json" --backend cpu --fonts "$work/fonts" --output "$work/brand-bold.png" 2>/dev/null
LAMINA_FONTS="/nonexistent-first:$work/fonts" "$lamina" render "$work/brand.json" --backend cpu --output "$work/brand-env.png" 2>"$work/brand-env.err"
LAMINA_FONTS="$work/fonts" "$lamina" render "$work/brand.json" --backend cpu --output "$work/brand-env.png" 2>/dev/null
check "without --fonts, the missing family is named in one warning" \
  '[ "$(cat "$work/brand-none.err")" = "lamina: font \"C059\": C059 is not installed; drawing it with Liberation Sans" ]'
check "with --fonts DIR (subfolders too), C059 draws, without a warning, and differently" \
  '[ ! -s "$work/brand.err" ] && ! cmp -s "$work/brand.png" "$work/brand-none.png"'
check "a PostScript name (C059-Bold) picks that face of the folder" '! cmp -s "$work/brand-bold.png" "$work/brand.png"'
check "LAMINA_FONTS gives the same picture as --fonts" 'cmp -s "$work/brand-env.png" "$work/brand.png"'
check "a LAMINA_FONTS folder that does not exist is refused by name" 'grep -q "nonexistent-first: no such folder of fonts" "$work/brand-env.err"'
"$lamina" info --fonts > /dev/null 2>&1
check "a file that is not a font in --fonts is refused by name" \
  'echo garbage > "$work/fonts/bad.ttf"; ! "$lamina" render "$work/brand.json" --fonts "$work/fonts" --output "$work/x.png" 2>"$work/bad.err" && grep -q "bad.ttf: not a font file" "$work/bad.err"; rm -f "$work/fonts/bad.ttf"'

# The render server with --fonts: the same picture as the CLI's.
"$lamina" serve --port 0 --metrics-port 0 --backend cpu --workers 1 --fonts "$work/fonts" >"$work/banner" 2>"$work/log" &
server=$!
for _ in $(seq 100); do grep -q "  queue " "$work/banner" 2>/dev/null && break; sleep 0.1; done
url="$(grep -o 'http://127.0.0.1:[0-9]*' "$work/banner" | head -1)"
metrics="$(grep -o 'http://127.0.0.1:[0-9]*/metrics' "$work/banner" | head -1)"
curl -fs -X POST -H 'Content-Type: application/json' --data-binary @"$work/brand.json" "$url/render" -o "$work/served.png"
check "lamina serve --fonts draws the folder's family, as the CLI does (the same bytes)" \
  'cmp -s "$work/served.png" "$work/brand.png"'
sed 's/"C059"/"Another Missing Family"/' "$work/brand.json" > "$work/missing.json"
curl -fs -X POST -H 'Content-Type: application/json' --data-binary @"$work/missing.json" "$url/render" -o /dev/null
curl -fs -X POST -H 'Content-Type: application/json' --data-binary @"$work/missing.json" "$url/render?scale=2" -o /dev/null
curl -fs "$metrics" -o "$work/metrics.txt"
check "the server counts a substituted font once and logs it with its name" \
  'grep -q "^lamina_font_substitutions_total 1" "$work/metrics.txt" && [ "$(grep -c "font substituted" "$work/log")" = 1 ] && grep -q "Another Missing Family" "$work/log"'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
