#!/usr/bin/env bash
# Throughput and latency of `lamina serve` under load, beside the peer a user
# would otherwise deploy (a warm headless Chromium behind the same API,
# scripts/bench/peers/chromium-server.py), in the same run on the same machine.
#
#   scripts/bench/load-test.sh [seconds per measurement, default 10] [concurrency levels, default "1 2 4 8"]
#
# wrk on loopback POSTs each scene of ../shared/bench at each concurrency
# level. Both servers get one worker per core (lamina: CPU backend, the
# picture cache off, so that every answer is drawn; Chromium: one warm tab
# per core). One more lamina row shows repeats served from the cache.
# Prints a Markdown table: pictures/s, p50 and p99 latency, and answers that
# were not 200 (there should be none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
seconds="${1:-10}"
levels="${2:-1 2 4 8}"
cores=$(nproc)
command -v wrk >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"; $sudo apt-get install -y -qq wrk >/dev/null; }
[ -x .build-tools/venv/bin/python ] || scripts/setup/install-packages.sh
.build-tools/venv/bin/python -c "import websocket" 2>/dev/null \
  || .build-tools/venv/bin/pip install --quiet --disable-pip-version-check websocket-client==1.9.2
if ! command -v chromium-headless-shell >/dev/null && ! command -v chromium >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 || $sudo apt-get install -y -qq chromium >/dev/null
fi

swift build -c release --product lamina 2>&1 | tail -1
lamina="$(swift build -c release --show-bin-path)/lamina"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

start_lamina() {  # $1: name, then options; sets the URL in $work/$1.url
  local name="$1"; shift
  "$lamina" serve --port 0 --metrics-port off --backend cpu --workers "$cores" --queue 256 --deadline 120 \
    --log-level warning "$@" >"$work/$name.banner" 2>"$work/$name.log" &
  pids+=($!)
  for _ in $(seq 100); do grep -q "listening on" "$work/$name.banner" 2>/dev/null && break; sleep 0.1; done
  grep -o 'http://127.0.0.1:[0-9]*' "$work/$name.banner" | head -1 >"$work/$name.url"
}
start_lamina lamina --cache-bytes 0
start_lamina lamina-cached
peer_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
.build-tools/venv/bin/python scripts/bench/peers/chromium-server.py --port "$peer_port" --pages "$cores" >"$work/peer.log" 2>&1 &
pids+=($!)
for _ in $(seq 200); do grep -q "listening" "$work/peer.log" 2>/dev/null && break; sleep 0.1; done
echo "http://127.0.0.1:$peer_port" >"$work/chromium.url"


# Latency as wrk prints it ("12.34ms", "1.20s", "850.00us") in milliseconds.
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.1f", n }'; }

measure() {  # $1 server, $2 scene file, $3 connections
  local url; url="$(cat "$work/$1.url")"
  # Warm up: the first pictures pay for caches (fonts, glyphs, gradients, Chromium's layout).
  SCENE="$2" wrk -t1 -c"$3" -d2s -s scripts/bench/wrk-post-scene.lua "$url/render" >/dev/null 2>&1 || true
  local out; out="$(SCENE="$2" wrk -t"$(( $3 < 2 ? 1 : 2 ))" -c"$3" -d"${seconds}s" --latency --timeout 60s -s scripts/bench/wrk-post-scene.lua "$url/render" 2>&1)"
  local rps p50 p99 bad
  rps=$(awk '/Requests\/sec/ { printf "%.1f", $2 }' <<<"$out")
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
  bad=$(awk '/Non-2xx/ { print $5 }' <<<"$out"); bad=${bad:-0}
  local errors; errors=$(awk '/Socket errors/ { print $0 }' <<<"$out")
  printf "| %s | %s | %s | %s | %s | %s | %s%s |\n" "$(basename "$2" .json)" "$1" "$3" "$rps" "$p50" "$p99" "$bad" "${errors:+ ($errors)}"
}

echo "load test: $(date -u +%Y-%m-%dT%H:%MZ), $cores cores, ${seconds} s per row, lamina $("$lamina" --version)"
echo
echo "| scene | server | connections | pictures/s | p50 ms | p99 ms | not 200 |"
echo "|---|---|---|---|---|---|---|"
for scene in ../shared/bench/card-1200x630.json ../shared/bench/tiles-1000-layers.json ../shared/bench/shapes-200-stars.json; do
  for c in $levels; do
    measure lamina "$scene" "$c"
    measure chromium "$scene" "$c"
  done
done
for c in $levels; do measure lamina-cached ../shared/bench/card-1200x630.json "$c"; done
