#!/usr/bin/env bash
# What `import Lamina` shows a user's package: Apple's names and Lamina's
# own entry points, nothing of the machinery behind them.
#
#   scripts/checks/public-api.sh            # check
#   scripts/checks/public-api.sh --update   # rewrite docs/public-api.txt after a deliberate change
#
#   - Every top-level public name of every module `import Lamina` re-exports
#     (read from the built modules with swift-symbolgraph-extract, as a
#     client's compiler sees them) is listed in docs/public-api.txt, and
#     every name listed there is public: a name that becomes public, or
#     stops being, shows in a diff of that file.
#   - A client file naming the internals a newcomer once found public (the
#     backend interface, geometry and I/O helpers, generic names) fails to
#     type-check, once for each of them.
#   - Every example program (the book's listings) type-checks as a client.
# It builds nothing; run it after `swift build`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bin="${LAMINA_BIN:-$(swift build --show-bin-path)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mapfile -t flags < <(scripts/checks/client-flags.sh "$bin")

# The modules a client of Lamina sees: Lamina's @_exported imports, and theirs.
modules=(Lamina LaminaGeometry LaminaCore LaminaIO LaminaJSON LaminaPNG LaminaWebP LaminaScene LaminaCAML LaminaLottie LaminaRender LaminaGL LaminaCPU LaminaText)
for module in "${modules[@]}"; do
  swift-symbolgraph-extract -module-name "$module" -target "$(uname -m)-unknown-linux-gnu" "${flags[@]}" \
    -minimum-access-level public -output-dir "$work" > "$work/$module.log" 2>&1 \
    || { cat "$work/$module.log" >&2; echo "FAIL  the symbols of $module could not be read"; echo "0 passed, 1 failed"; exit 1; }
done
python3 - "$work" > "$work/public-api.txt" <<'PY'
import glob, json, sys
names = set()
for path in glob.glob(sys.argv[1] + "/*.symbols.json"):
    if "@" in path.rsplit("/", 1)[-1]:
        continue  # extensions of other modules' types
    graph = json.load(open(path))
    module = graph["module"]["name"]
    for symbol in graph["symbols"]:
        if len(symbol["pathComponents"]) == 1:
            names.add(f"{module}.{symbol['pathComponents'][0]}")
print("\n".join(sorted(names)))
PY
if [ "${1:-}" = "--update" ]; then
  { echo "# The top-level public names of \`import Lamina\`, by module (scripts/checks/public-api.sh)."; cat "$work/public-api.txt"; } > docs/public-api.txt
  echo "docs/public-api.txt: $(grep -vc '^#' docs/public-api.txt) names"
  exit 0
fi

passed=0; failed=0
check() {
  if eval "$2"; then echo "ok    $1"; passed=$((passed + 1)); else echo "FAIL  $1"; failed=$((failed + 1)); fi
}
check "the public names are docs/public-api.txt's ($(wc -l < "$work/public-api.txt") names)" \
  'diff <(grep -v "^#" docs/public-api.txt) "$work/public-api.txt" > "$work/diff" || { sed "s/^</    listed, not public:/; s/^>/    public, not listed:/" "$work/diff" | grep -E "listed" | head -20; false; }'

internals=(PlanWalker SurfacePainter DrawStep TextureTable OutlineCache RenderPlanner RenderLayer Renderer GLRenderer CPURenderer
           PolygonClipper HalfPlane Stroker Flattening HomogeneousPoint PathData Quoted FileIO SHA256 ZipArchive RGBA Frame
           PremultipliedAlpha DrawingRecording TextLayout FontTable JSONValue JSONParser)
{ echo "import Lamina"; for name in "${internals[@]}"; do echo "let _: $name.Type? = nil"; done; } > "$work/internals.swift"
swiftc -typecheck "${flags[@]}" "$work/internals.swift" > "$work/tc.log" 2>&1 || true
reachable=()
for name in "${internals[@]}"; do
  grep -q "cannot find type '$name' in scope" "$work/tc.log" || reachable+=("$name")
done
check "none of ${#internals[@]} internals is reachable from import Lamina" \
  '[ ${#reachable[@]} -eq 0 ] || { echo "    reachable: ${reachable[*]}"; false; }'

# The book's listings are users' code: each type-checks as a client too
# (with ExampleSupport, their helper module).
listings=0; refused=()
for folder in examples/*/; do
  name="$(basename "$folder")"
  case "$name" in ExampleSupport|scenes|wallpapers) continue ;; esac
  compgen -G "$folder*.swift" > /dev/null || continue
  # A package of its own (examples/snapshot-testing) is built as one, by its own check.
  [ -f "$folder/Package.swift" ] && continue
  listings=$((listings + 1))
  swiftc -typecheck "${flags[@]}" "$folder"*.swift > "$work/listing.log" 2>&1 || refused+=("$name")
done
check "every one of the $listings example programs type-checks as a client of Lamina" \
  '[ ${#refused[@]} -eq 0 ] || { echo "    refused: ${refused[*]}"; false; }'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
