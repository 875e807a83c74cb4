#!/usr/bin/env bash
# Quick start, step two: every test. `.ci/run` runs exactly this.
#
#   scripts/test.sh
#
# One build (the package and its tests), then:
#   1. swift test: the unit tests, on every core; then, alone in a process of
#      its own, the memory-growth test (it measures the whole heap);
#   2. the checks that need an outside program, in two lanes that run side
#      by side (each mostly waits on one process), each check's output
#      printed whole, in order, as its lane finishes it:
#      lane A: the conformance pictures of ../shared on both backends, GL
#              against CPU, frame sequences, the example programs, the
#              README's code, the public API, the DocC documentation, fonts,
#              CAML, the community wallpapers against phone recordings,
#              the playground in a browser, the readers' linearity
#              under callgrind, the Lottie samples against Apple's pictures,
#              schemathesis against docs/openapi.yaml;
#      lane B: a fixed run of the fuzzer (its own unoptimized build, with
#              -sanitize=fuzzer), the render server's integration tests,
#              its templates and signed links, a fleet of three sharing
#              jobs in PostgreSQL, the soak, the deployment files;
#      and, begun in lane B once the fuzzer's build is done (so that its own
#      debug build keeps a core busy while lane B waits on its servers rather
#      than compete with the fuzzer's build): examples/snapshot-testing
#      built and tested as a user's package, outside the repository.
# The budget of each part is in the README ("What the test command costs").
# The GL backend must work here (Mesa's llvmpipe is enough): LAMINA_REQUIRE_GL=1
# makes a missing EGL context a failure instead of a skip or a silent fall
# back to the CPU.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export LAMINA_REQUIRE_GL="${LAMINA_REQUIRE_GL:-1}"
started=$(date +%s)
stamp() { echo "   ($(( $(date +%s) - started )) s since the start)"; }

# What the build and the checks need (a no-op where setup.sh has run).
scripts/setup/install-packages.sh

# One build, Lamina's own modules and programs optimized (LAMINA_OPTIMIZED=1,
# see the end of Package.swift) as the shipped binary is: the tests exercise
# the code users run (the optimizer once removed a memory check that debug
# builds kept), and run several times faster. Still the debug configuration:
# assertions on, @testable imports, debug information.
export LAMINA_OPTIMIZED=1
swift build --build-tests
stamp
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

total=0; skipped=0
# Adds a check's closing line ("N passed, M failed[, K skipped]") to the totals.
count() {
  local line passed skip
  line="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)"
  passed="$(grep -Eo '^[0-9]+' <<<"$line" || echo 0)"
  skip="$(grep -Eo '[0-9]+ skipped' <<<"$line" | grep -Eo '[0-9]+' || echo 0)"
  total=$(( total + passed )); skipped=$(( skipped + skip ))
}

swift test --skip-build 2>&1 | tee "$logs/unit"
# Swift Testing's closing line counts the tests it skipped among those it
# ran ("➜ Test x() skipped: why"); XCTest's counts those it executed.
unit=$(grep -Eo 'Test run with [0-9]+ tests?' "$logs/unit" | grep -Eo '[0-9]+' | tail -1)
unit_skipped=$(grep -E '^➜ Test .* skipped' "$logs/unit" | grep -c . || true)
growth_skipped=$(grep -E '^➜ Test .* skipped' "$logs/unit" | grep -c 'LAMINA_MEMORY_GROWTH' || true)
xctest=$(grep -Eo 'Executed [0-9]+ tests?' "$logs/unit" | grep -Eo '[0-9]+' | tail -1)
total=$(( total + ${unit:-0} - unit_skipped + ${xctest:-0} ))
echo "== the heap does not grow with use: the memory-growth test, alone in its process"
LAMINA_MEMORY_GROWTH=1 swift test --skip-build --filter MemoryGrowthTests 2>&1 | tee "$logs/memory"
grep -q "Test run with .* passed" "$logs/memory" || { echo "the memory-growth test failed" >&2; exit 1; }
total=$(( total + $(grep -Eo 'Test run with [0-9]+ tests?' "$logs/memory" | grep -Eo '[0-9]+' | tail -1) ))
# The memory-growth tests skipped in the main run ran here: they are not skips.
skipped=$(( skipped + unit_skipped - growth_skipped ))
stamp

LAMINA_BIN="$(swift build --show-bin-path)"
export LAMINA_BIN LAMINA="$LAMINA_BIN/lamina"
conformance="../shared/conformance/check"
failures="$logs/failures"
: > "$failures"

# A check of a lane: NAME, then the command; its output to $logs/NAME.
step() {
  local name="$1"; shift
  local begun=$(date +%s)
  if "$@" > "$logs/$name" 2>&1; then :; else echo "$name" >> "$failures"; fi
  echo "   ($name: $(( $(date +%s) - begun )) s)" >> "$logs/$name"
}

lane_a() {
  if [ -x "$conformance" ]; then
    for backend in gl cpu; do
      step "conformance-shared-$backend" "$conformance" --backend "$backend" --out ".build/conformance"
      step "conformance-local-$backend" "$conformance" --backend "$backend" --scenes Tests/Conformance/scenes \
        --refs Tests/Conformance/reference --out ".build/conformance-local"
    done
    # GL and CPU draw every conformance scene alike, and how far apart they are.
    # (The pictures the conformance checks just drew are compared, not drawn again.)
    step backends "$(scripts/setup/conformance-python.sh)" scripts/checks/backends.py --out ".build/backends" \
      --pictures .build/conformance .build/conformance-local
    # Frame sequences started at each animated scene's time begin with its
    # reference picture, in every exact format.
    for backend in gl cpu; do step "frames-$backend" scripts/checks/frames.sh --backend "$backend" --out ".build/frames"; done
    # The example programs: each picture against its listing's reference, and
    # each program's scene JSON drawn by lamina against its own picture.
    for backend in gl cpu; do step "examples-$backend" scripts/checks/examples.sh --backend "$backend" --out ".build/examples"; done
  fi
  # The README's first sample and the getting-started article's code, as
  # printed, as a user's package sees Lamina; the DocC documentation.
  step readme scripts/checks/readme.sh
  # What import Lamina shows: docs/public-api.txt, and no internal reachable.
  step public-api scripts/checks/public-api.sh
  step docs scripts/checks/docs.sh
  # Text does not depend on what else the machine has installed, and fonts
  # brought along resolve (CLI, environment, server).
  step fonts scripts/checks/fonts.sh
  # A build for x86-64-v3 on an older processor stops and says why (QEMU).
  step processor scripts/checks/processor.sh
  # Apple's scene files on the command line.
  step caml scripts/checks/caml.py
  # The community wallpapers against the recordings of them on phones.
  if [ -d ../shared/caml-corpus/recordings ]; then
    step recordings "$(scripts/setup/conformance-python.sh)" scripts/checks/recordings.py
  fi
  step playground .build-tools/venv/bin/python scripts/checks/playground.py --screenshots .build/playground
  # The readers stay linear: twice the input, twice the instructions (callgrind).
  step linearity scripts/checks/linearity.py
  # Lottie samples against the pictures Apple's Core Animation drew of them.
  if [ -d ../shared/lottie ]; then step lottie scripts/checks/lottie.py --out .build/lottie; fi
  # docs/openapi.yaml against the live server (schemathesis): here, so that
  # the lanes take about as long as each other.
  step openapi scripts/checks/openapi.sh 25
}

lane_b() {
  # Coverage-guided fuzzing of the whole pipeline from the repository's
  # scenes: a fixed seed and number of inputs (not a time limit, which made
  # the inputs depend on the machine's speed), so every run tries the same.
  # Unoptimized: its build costs half the processor time of an optimized
  # one (91 against 183 core-seconds on an idle machine), which is more than
  # its slower inputs cost back at this count; 15,000 inputs reach 99% of
  # the coverage that 40,000 reach. Longer, optimized runs:
  # `scripts/fuzz/libfuzzer.sh 600`. First in its lane, so that the
  # snapshot-testing example's build starts as soon as this one ends.
  step fuzz scripts/fuzz/libfuzzer.sh --unoptimized 600 -- -seed=1 -runs=15000
  # Snapshot tests of a layer with swift-snapshot-testing, as a user's
  # package runs them: record, pass, fail with three pictures.
  step snapshot-example scripts/checks/snapshot-example.sh & local example=$!
  # The render server: the real binary on loopback ports, every route,
  # status and header, the queue, the deadline, the token, connection
  # limits, SIGTERM.
  step server scripts/checks/server.py
  # Templates and signed links: signatures, slots, ETags, image hosts.
  step templates scripts/checks/templates.py
  # The fleet: three servers sharing jobs in a real PostgreSQL (a private
  # cluster it makes), a replica killed, PostgreSQL restarted, 1,000 jobs,
  # webhooks.
  step fleet scripts/checks/fleet.py --report .build/fleet.json
  step soak scripts/checks/soak.py --seconds 20 --rate 20
  step deploy .build-tools/venv/bin/python scripts/checks/deploy.py
  wait "$example" || true
}

if [ ! -x "$conformance" ]; then
  echo "== no ../shared/conformance here: the picture comparisons are SKIPPED" >&2
  skipped=$(( skipped + 1 ))
fi
if [ ! -d ../shared/lottie ]; then
  echo "== no ../shared/lottie here: the Lottie comparisons are SKIPPED" >&2
  skipped=$(( skipped + 1 ))
fi
lane_a & a=$!
lane_b & b=$!
wait "$a" || true
wait "$b" || true
for name in conformance-shared-gl conformance-local-gl conformance-shared-cpu conformance-local-cpu backends \
            frames-gl frames-cpu examples-gl examples-cpu readme public-api docs fonts processor caml recordings playground openapi linearity lottie \
            fuzz server templates fleet soak deploy snapshot-example; do
  [ -f "$logs/$name" ] || continue
  echo "== $name"
  if [ "$name" = fuzz ]; then
    grep -E '^(INFO: fuzzed|Done|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written|   \()' "$logs/fuzz" || true
    if grep -qx fuzz "$failures"; then
      echo "fuzzing found a problem (the input is in .build-fuzz/findings/):"; tail -40 "$logs/fuzz"
    else
      echo "1 passed, 0 failed"; total=$(( total + 1 ))
    fi
    continue
  fi
  cat "$logs/$name"
  count "$logs/$name"
done
stamp
if [ -s "$failures" ]; then
  echo "failed: $(tr '\n' ' ' < "$failures")" >&2
  echo "all: $total passed, $(wc -l < "$failures") failed, $skipped skipped"
  exit 1
fi
echo "all: $total passed, 0 failed, $skipped skipped"
