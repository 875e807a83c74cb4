#!/usr/bin/env bash
# How far a second request at a time scales the render server: pictures/s
# at two connections over pictures/s at one (the issue's target: 1.9x or
# more on two cores), for each scene of ../shared/bench.
#
#   scripts/bench/throughput-ratio.sh [seconds per window, default 3] [rounds, default 4] [lamina binary...]
#
# Each round measures one connection, then two, back to back, so that the
# machine's drift (a shared host's neighbours) falls on both alike; the
# ratio is of the sums over the rounds. With several binaries (the default
# is the release build), each round goes through all of them in turn, one
# server each, started once. The server runs as scripts/bench/load-test.sh runs
# it, with each request on one core (`--frame-threads 1`, so the workers are
# pinned where there is one core per worker) and the cache off; wrk on
# loopback. Besides pictures/s it prints the server's CPU seconds per
# wall-clock second at two connections: the cores the requests kept busy.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
seconds="${1:-3}"
rounds="${2:-4}"
shift $(( $# < 2 ? $# : 2 ))
binaries=("$@")
command -v wrk >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"; $sudo apt-get install -y -qq wrk >/dev/null; }
if [ ${#binaries[@]} -eq 0 ]; then
  swift build -c release --product lamina 2>&1 | tail -1
  binaries=("$(swift build -c release --show-bin-path)/lamina")
fi
cores=$(nproc)
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

for i in "${!binaries[@]}"; do
  "${binaries[$i]}" serve --port 0 --metrics-port off --backend cpu --workers "$cores" --frame-threads 1 --queue 256 \
    --deadline 120 --log-level warning --cache-bytes 0 >"$work/$i.banner" 2>"$work/$i.log" &
  pids+=($!)
  for _ in $(seq 100); do grep -q "listening on" "$work/$i.banner" 2>/dev/null && break; sleep 0.1; done
  grep -o 'http://127.0.0.1:[0-9]*' "$work/$i.banner" | head -1 >"$work/$i.url"
done
ticks=$(getconf CLK_TCK)
cpu_seconds() { awk -v t="$ticks" '{ printf "%.3f", ($14 + $15) / t }' "/proc/$1/stat"; }

# Pictures in `seconds` at $3 connections on server $1 for scene $2, then the server's CPU seconds.
window() {
  local url before after out
  url="$(cat "$work/$1.url")"
  before=$(cpu_seconds "${pids[$1]}")
  out="$(SCENE="$2" wrk -t"$(( $3 < 2 ? 1 : 2 ))" -c"$3" -d"${seconds}s" -s scripts/bench/wrk-post-scene.lua "$url/render" 2>&1)"
  after=$(cpu_seconds "${pids[$1]}")
  if grep -q "Non-2xx" <<<"$out"; then echo "not every answer was 200: $out" >&2; exit 1; fi
  echo "$(awk '/^ *[0-9]+ requests in/ { print $1 }' <<<"$out") $(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.3f", b - a }')"
}

echo "throughput ratio: $(date -u +%Y-%m-%dT%H:%MZ), $cores cores, $rounds rounds of ${seconds} s at 1 then 2 connections"
echo
echo "| scene | binary | pictures/s, 1 connection | 2 connections | ratio | server CPU at 2 (cores) |"
echo "|---|---|---|---|---|---|"
for scene in ../shared/bench/card-1200x630.json ../shared/bench/tiles-1000-layers.json ../shared/bench/shapes-200-stars.json; do
  for i in "${!binaries[@]}"; do  # warm up: caches, the allocator, the pool's buffers
    SCENE="$scene" wrk -t1 -c2 -d2s -s scripts/bench/wrk-post-scene.lua "$(cat "$work/$i.url")/render" >/dev/null 2>&1 || true
    echo "0 0 0 0" >"$work/$i.sums"
  done
  for _ in $(seq "$rounds"); do
    for i in "${!binaries[@]}"; do
      read -r one _ <<<"$(window "$i" "$scene" 1)"
      read -r two cpu <<<"$(window "$i" "$scene" 2)"
      read -r s1 s2 sc n <"$work/$i.sums"
      echo "$((s1 + one)) $((s2 + two)) $(awk -v a="$sc" -v b="$cpu" 'BEGIN { print a + b }') $((n + 1))" >"$work/$i.sums"
    done
  done
  for i in "${!binaries[@]}"; do
    read -r s1 s2 sc n <"$work/$i.sums"
    awk -v name="$(basename "$scene" .json)" -v bin="$(basename "${binaries[$i]}")" -v s1="$s1" -v s2="$s2" -v sc="$sc" -v n="$n" -v t="$seconds" \
      'BEGIN { printf "| %s | %s | %.1f | %.1f | %.2fx | %.2f |\n", name, bin, s1 / (n * t), s2 / (n * t), s2 / s1, sc / (n * t) }'
  done
done
