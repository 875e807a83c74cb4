#!/usr/bin/env bash
# Quick start, step two: every test. `.ci/run` runs exactly this.
#
#   scripts/test.sh
#
# Unit tests (swift test), then the conformance pictures of ../shared and the
# example programs' pictures (scripts/check-examples.sh), on both backends,
# then the render server's integration tests (scripts/check-server.py),
# the leak check and a minute of fuzzing (scripts/check-leaks.sh,
# scripts/fuzz.sh).
# The GL backend must work here (Mesa's llvmpipe is enough): LAMINA_REQUIRE_GL=1
# makes a missing EGL context a failure instead of a skip or a silent fall
# back to the CPU.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export LAMINA_REQUIRE_GL="${LAMINA_REQUIRE_GL:-1}"

# What the build and the checks need (a no-op where setup.sh has run).
scripts/install-packages.sh

swift build --build-tests
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
swift test --skip-build 2>&1 | tee "$log"
unit=$(grep -Eo 'Test run with [0-9]+ tests?' "$log" | grep -Eo '[0-9]+' | tail -1)
xctest=$(grep -Eo 'Executed [0-9]+ tests?' "$log" | grep -Eo '[0-9]+' | tail -1)
total=$(( ${unit:-0} + ${xctest:-0} ))

conformance="../shared/conformance/check"
skipped=0
if [ -x "$conformance" ]; then
  lamina="$(swift build --show-bin-path)/lamina"
  for backend in gl cpu; do
    echo "== conformance (shared), $backend backend"
    LAMINA="$lamina" "$conformance" --backend "$backend" --out ".build/conformance" | tee "$log"
    total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))
    echo "== conformance (Tests/Conformance), $backend backend"
    LAMINA="$lamina" "$conformance" --backend "$backend" --scenes Tests/Conformance/scenes \
      --refs Tests/Conformance/reference --out ".build/conformance-local" | tee "$log"
    total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))
  done
  # GL and CPU draw every conformance scene alike, and how far apart they are.
  echo "== GL against CPU on every conformance scene (scripts/check-backends.py)"
  LAMINA="$lamina" "$(scripts/conformance-python.sh)" scripts/check-backends.py --out ".build/backends" | tee "$log"
  total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))
  # Frame sequences started at each animated scene's time begin with its
  # reference picture, in every exact format.
  for backend in gl cpu; do
    echo "== frames, $backend backend"
    LAMINA="$lamina" scripts/check-frames.sh --backend "$backend" --out ".build/frames" | tee "$log"
    total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))
  done
  # The example programs: each picture against its listing's reference, and
  # each program's scene JSON drawn by lamina against its own picture.
  for backend in gl cpu; do
    echo "== examples, $backend backend"
    scripts/check-examples.sh --backend "$backend" --out ".build/examples" | tee "$log"
    passed=$(tail -1 "$log" | grep -Eo '^[0-9]+')
    total=$(( total + passed ))
  done
else
  echo "== no ../shared/conformance here: the picture comparisons are SKIPPED" >&2
  skipped=1
fi

# The README's first sample and the getting-started article's code, as
# printed, in a package that depends on Lamina; the DocC documentation.
echo "== the README's sample and the article's code in a package of their own (scripts/check-readme.sh)"
scripts/check-readme.sh | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))
echo "== the API documentation (scripts/check-docs.sh)"
scripts/check-docs.sh | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))

# Text does not depend on what else the machine has installed, and fonts
# brought along resolve (CLI, environment, server).
echo "== fonts (scripts/check-fonts.sh)"
LAMINA="$(swift build --show-bin-path)/lamina" scripts/check-fonts.sh | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))

# Apple's scene files on the command line: the example wallpaper rendered,
# played to an animated PNG and an MP4, converted, zipped as .tendies.
echo "== CAML, .ca bundles, wallpapers and .tendies (scripts/check-caml.py)"
LAMINA="$(swift build --show-bin-path)/lamina" scripts/check-caml.py | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))

# The render server: the real binary on loopback ports, every route,
# status and header, the queue, the deadline, the token, SIGTERM.
echo "== render server (scripts/check-server.py)"
LAMINA="$(swift build --show-bin-path)/lamina" scripts/check-server.py | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))
echo "== the playground in a browser (scripts/check-playground.py)"
LAMINA="$(swift build --show-bin-path)/lamina" .build-tools/venv/bin/python scripts/check-playground.py \
  --screenshots .build/playground | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))
echo "== docs/openapi.yaml against the live server (schemathesis)"
LAMINA="$(swift build --show-bin-path)/lamina" scripts/check-openapi.sh 500 | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))

echo "== render server soak, 20 s of good and hostile requests (the 10-minute run: docs/benchmarks.md)"
LAMINA="$(swift build --show-bin-path)/lamina" scripts/soak.py --seconds 20 --rate 20 | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))
echo "== deployment files (docker/, docker/k8s/)"
.build-tools/venv/bin/python scripts/check-deploy.py | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))

# Hostile input (docs/reliability.md): memory that grows with use, under
# valgrind, then about a minute of coverage-guided fuzzing of the whole
# pipeline from the repository's scenes: a fixed seed and a fixed number of
# inputs (not a time limit, which made the inputs depend on the machine's
# speed), so every run tries the same inputs.
echo "== leaks: decode, render and encode loops of the example scenes"
scripts/check-leaks.sh | tee "$log"
total=$(( total + $(tail -1 "$log" | grep -Eo '^[0-9]+') ))
echo "== fuzzing: 300,000 inputs through the whole pipeline"
if scripts/fuzz.sh 600 -- -seed=1 -runs=300000 2>&1 | tee "$log" | grep -E '^(INFO: fuzzed|Done|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)'; then
  echo "1 passed, 0 failed"; total=$(( total + 1 ))
else
  echo "fuzzing found a problem (the input is in .build-fuzz/findings/):" >&2
  tail -40 "$log" >&2
  exit 1
fi
if [ "$skipped" -gt 0 ]; then
  echo "all: $total passed, 0 failed, $skipped skipped"
else
  echo "all: $total passed, 0 failed"
fi
