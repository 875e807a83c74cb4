#!/usr/bin/env bash
# Builds the server's image here, without a registry or a Docker engine,
# runs it, and checks it serves the host's pictures.
#
#   docker/smoke-test.sh
#
# 1. A Debian bookworm base image made with debootstrap (cached in
#    .build-container/ and in podman's store; the first run downloads it);
# 2. a release `lamina` built on this machine with --static-swift-stdlib,
#    staged with its shaders;
# 3. docker/Dockerfile built with podman, BINARY_FROM=prebuilt and that
#    base (the same file users build with `docker build`);
# 4. the container started as Kubernetes would (read-only root, a tmpfs
#    /tmp, non-root), then: /healthz and the image's HEALTHCHECK, /readyz,
#    a picture over HTTP compared byte for byte with `lamina render` on the
#    host, the user it runs as, and `podman stop` (SIGTERM) exiting 0.
#
# podman here needs `--runtime runc` and a containers.conf with
# `default_ulimits = []` (the sandbox refuses raising rlimits).
# Prints one line per check and "N passed, M failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
start=$(date +%s)
work=".build-container"
mkdir -p "$work"

need=()
for tool in podman debootstrap runc; do command -v "$tool" >/dev/null || need+=("$tool"); done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq podman debootstrap runc uidmap >/dev/null
fi
printf '[containers]\ndefault_ulimits = []\n' > "$work/containers.conf"
export CONTAINERS_CONF="$PWD/$work/containers.conf"
podman=(podman --runtime runc)

# 1. The base image.
base="localhost/lamina-base:bookworm"
if ! podman image exists "$base"; then
  if [ ! -f "$work/bookworm.tar" ]; then
    echo "== debootstrap bookworm (minbase) into $work/rootfs"
    rm -rf "$work/rootfs"
    debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
      || { tail -20 "$work/debootstrap.log"; exit 1; }
    # What the slim image has and debootstrap's minbase does not: the
    # security and update suites in apt's sources.
    printf 'deb http://deb.debian.org/debian bookworm main\ndeb http://deb.debian.org/debian bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n' \
      > "$work/rootfs/etc/apt/sources.list"
    rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb
    tar -C "$work/rootfs" -cf "$work/bookworm.tar" .
    rm -rf "$work/rootfs"
  fi
  echo "== importing $base"
  podman import "$work/bookworm.tar" "$base" >/dev/null
fi

# 2. The binary and its shaders.
echo "== swift build -c release --static-swift-stdlib"
swift build -c release --product lamina --static-swift-stdlib 2>&1 | tail -1
bin="$(swift build -c release --show-bin-path)"
rm -rf "$work/staging" && mkdir -p "$work/staging/bin" "$work/staging/share/lamina"
cp "$bin/lamina" "$work/staging/bin/"
cp -r Shaders "$work/staging/share/lamina/Shaders"

# 3. The image.
echo "== podman build -f docker/Dockerfile (BINARY_FROM=prebuilt)"
"${podman[@]}" build --format docker --network host -f docker/Dockerfile -t localhost/lamina:smoke \
  --build-arg RUNTIME_IMAGE="$base" --build-arg SWIFT_IMAGE="$base" --build-arg BINARY_FROM=prebuilt . \
  >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
size=$(podman image inspect localhost/lamina:smoke --format '{{.Size}}')
echo "image: $(( size / 1024 / 1024 )) MiB"

# 4. Run it.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
metrics=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
name="lamina-smoke-$$"
"${podman[@]}" run -d --name "$name" --network host --read-only --tmpfs /tmp \
  -e LAMINA_PORT="$port" -e LAMINA_METRICS_PORT="$metrics" -e LAMINA_HOST=127.0.0.1 localhost/lamina:smoke >/dev/null
trap '"${podman[@]}" rm -f "$name" >/dev/null 2>&1 || true' EXIT

passed=0; failed=0
check() { if eval "$2"; then echo "ok    $1"; passed=$((passed + 1)); else echo "FAIL  $1"; failed=$((failed + 1)); fi; }

for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
check "the container answers /healthz" 'curl -fs "http://127.0.0.1:$port/healthz" | grep -q alive'
check "the container is ready" 'curl -fs "http://127.0.0.1:$port/readyz" | grep -q "\"ready\":true"'
check "the image's HEALTHCHECK passes" '"${podman[@]}" healthcheck run "$name" >/dev/null 2>&1'
check "it runs as the fixed non-root user 10001" '[ "$("${podman[@]}" exec "$name" id -u)" = 10001 ]'
check "its root filesystem is read-only" '! "${podman[@]}" exec "$name" touch /opt/lamina/x 2>/dev/null'
scene="../shared/bench/card-1200x630.json"
[ -f "$scene" ] || scene="examples/scenes/spinning-cube.json"
curl -fs -X POST -H 'Content-Type: application/json' --data-binary @"$scene" \
  "http://127.0.0.1:$port/render" -o "$work/container.png" || true
"$bin/lamina" render "$scene" --backend cpu --output "$work/host.png"
check "a picture rendered in the container is the host's, byte for byte ($(basename "$scene"))" \
  'cmp -s "$work/container.png" "$work/host.png"'
text="examples/scenes/text-scripts.json"
curl -fs -X POST -H 'Content-Type: application/json' --data-binary @"$text" \
  "http://127.0.0.1:$port/render" -o "$work/container-text.png" || true
"$bin/lamina" render "$text" --backend cpu --output "$work/host-text.png"
check "text in five scripts with emoji (its fonts, FriBidi, ICU) is the host's, byte for byte" \
  'cmp -s "$work/container-text.png" "$work/host-text.png"'
anim="examples/scenes/spinning-cube.json"
curl -fs -X POST -H 'Content-Type: application/json' --data-binary @"$anim" \
  "http://127.0.0.1:$port/frames?format=mp4&fps=10" -o "$work/container.mp4" || true
"$bin/lamina" frames "$anim" --backend cpu --fps 10 --quiet --output "$work/host.mp4"
check "an MP4 made in the container (its ffmpeg) is the host's, byte for byte" \
  'cmp -s "$work/container.mp4" "$work/host.mp4"'
# Into a file first: `curl | grep -q` fails under pipefail once the page is
# longer than what grep reads before it quits.
curl -fs "http://127.0.0.1:$metrics/metrics" -o "$work/metrics.txt" || true
check "metrics are served" 'grep -q lamina_pictures_rendered_total "$work/metrics.txt"'
# sed reads it all (head would quit early, and pipefail would count podman's SIGPIPE).
"${podman[@]}" logs "$name" 2>&1 | sed -n '1,6s/^/  | /p'
"${podman[@]}" stop -t 30 "$name" >/dev/null
check "podman stop (SIGTERM) exits 0" '[ "$("${podman[@]}" inspect "$name" --format "{{.State.ExitCode}}")" = 0 ]'

echo "smoke test took $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
