#!/usr/bin/env bash
# Coverage-guided fuzzing of the whole pipeline (decode, snapshot, plan, CPU
# render, PNG encode) with libFuzzer. See docs/reliability.md.
#
#   scripts/fuzz/libfuzzer.sh [SECONDS] [--keep-going] [--unoptimized] [-- LIBFUZZER_OPTIONS...]
#
# --unoptimized builds the target without the optimizer (-Onone, in
# .build-fuzz-onone/): half the processor time to build (63 s instead of
# 117 on an idle 2-core machine), ten times slower to run; what the test
# command's short, fixed run wants.
# Builds Fuzz/ (its own package, in .build-fuzz/, with -sanitize=fuzzer),
# seeds a corpus from every scene of the repository and ../shared, the
# example wallpaper's CAML documents and .tendies archives (the example
# zipped, and the community ones of ../shared/caml-corpus small enough), and runs
# for SECONDS (default 60). A crash, a hang over 10 s or more than 2 GB of
# memory stops the run and fails the script, leaving the input in
# .build-fuzz/findings/. With --keep-going the run goes on past findings
# (libFuzzer's fork mode) and collects them all there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

seconds=60
keep_going=0
optimize=(-Xswiftc -O)
scratch=.build-fuzz
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --keep-going) keep_going=1; shift ;;
    --unoptimized) optimize=(-Xswiftc -Onone); scratch=.build-fuzz-onone; shift ;;
    --) shift; extra=("$@"); break ;;
    *) seconds="$1"; shift ;;
  esac
done

# SwiftPM keeps a path dependency's list of sources from its first build:
# a file added to or moved in Sources/ since then is not seen ("cannot find
# 'X' in scope"). When the list has changed, build afresh.
mkdir -p "$scratch" .build-fuzz
sources="$(find Sources -name '*.swift' | sort | sha256sum | cut -c1-16)"
if [ "$(cat "$scratch/sources.stamp" 2>/dev/null)" != "$sources" ]; then
  rm -rf "$scratch/x86_64-unknown-linux-gnu" "$scratch/aarch64-unknown-linux-gnu"
fi
# gold crashes on the fuzzer runtime's debug information: link with lld.
(cd Fuzz && swift build -c release --scratch-path "../$scratch" "${optimize[@]}" \
  -Xswiftc -sanitize=fuzzer -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld) >&2
echo "$sources" > "$scratch/sources.stamp"
fuzzer="$scratch/release/LaminaFuzz"

seeds="$PWD/.build-fuzz/seeds"
corpus="$PWD/.build-fuzz/corpus"
findings="$PWD/.build-fuzz/findings"
mkdir -p "$seeds" "$corpus" "$findings"
for dir in examples/scenes Tests/Conformance/scenes ../shared/conformance/scenes ../shared/bench Tests/Fuzz/regressions; do
  [ -d "$dir" ] || continue
  for f in "$dir"/*.json; do
    [ -f "$f" ] || continue
    # Seeds larger than the fuzzer's input limit would only be cut short.
    [ "$(wc -c < "$f")" -le 65536 ] && cp "$f" "$seeds/"
  done
done
# CAML documents too (the example wallpaper's planes, and the hostile ones
# kept as regressions), as the server takes them.
for f in examples/wallpapers/*.wallpaper/*.ca/main.caml; do
  [ -f "$f" ] || continue
  cp "$f" "$seeds/$(basename "$(dirname "$f")" .ca).caml"
done
for f in Tests/Fuzz/regressions/*.caml; do
  [ -f "$f" ] && cp "$f" "$seeds/"
done
# And .tendies archives, whose zip structure the fuzzer mutates too: the
# example wallpaper zipped here, and the community wallpapers small enough.
python3 - "$seeds/Orbit.tendies" examples/wallpapers/Orbit.wallpaper <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as archive:
    for folder, _, names in sorted(os.walk(sys.argv[2])):
        for name in sorted(names):
            path = os.path.join(folder, name)
            archive.write(path, "Orbit.wallpaper/" + os.path.relpath(path, sys.argv[2]))
PY
for f in ../shared/caml-corpus/wallpapers/*.tendies; do
  [ -f "$f" ] && [ "$(wc -c < "$f")" -le 65536 ] && cp "$f" "$seeds/"
done
# Lottie animations and dotLottie archives small enough, and a Lottie zip
# (an animation's JSON in a folder, no manifest, as lottie-android zips it).
for f in ../shared/lottie/samples/*.json ../shared/lottie/samples/*/*.json ../shared/lottie/samples/*/*.lottie; do
  [ -f "$f" ] && [ "$(wc -c < "$f")" -le 65536 ] && cp "$f" "$seeds/lottie-$(basename "$f")"
done
if [ -f ../shared/lottie/samples/TwitterHeartButton.json ]; then
  python3 - "$seeds/lottie-zip.zip" ../shared/lottie/samples/TwitterHeartButton.json <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as archive:
    archive.write(sys.argv[2], "heart/data.json")
PY
fi

# A dictionary of the scene format's keys and words helps mutations stay
# scenes: every quoted word of scene-format.md.
dict=".build-fuzz/scene.dict"
grep -oE '`[a-zA-Z][a-zA-Z.]*`' ../shared/scene-format.md 2>/dev/null | tr -d '`' | sort -u \
  | awk '{ printf "\"\\\"%s\\\"\"\n", $0 }' > "$dict" || true
# Lottie's keys and item types.
for word in layers assets shapes ks ty it refId parent ip op st sr fr tm tt td hd nm ind; do
  printf '"\\"%s\\""\n' "$word" >> "$dict"
done
# And CAML's element names, as tags.
for word in caml CALayer CATransformLayer CAShapeLayer CATextLayer CAGradientLayer CAReplicatorLayer sublayers mask \
    contents CGImage animations animation values keyTimes states LKState LKStateSetValue stateTransitions \
    LKStateTransition LKStateTransitionElement elements value real integer CGPoint CGRect CGColor; do
  printf '"<%s"\n"</%s>"\n' "$word" "$word" >> "$dict"
done

# Swift's backtracer would take a trap's signal first and end the process
# before libFuzzer writes the input that caused it (an input was lost so).
export SWIFT_BACKTRACE=enable=no

options=(
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536
  -artifact_prefix="$findings/" -print_final_stats=1
)
[ -s "$dict" ] && options+=(-dict="$dict")
if [ "$keep_going" = 1 ]; then
  options+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
echo "fuzz: $seconds s, corpus $corpus (seeded from $(ls "$seeds" | wc -l) scenes), findings in $findings" >&2
exec "$fuzzer" "${options[@]}" ${extra[@]+"${extra[@]}"} "$corpus" "$seeds"
