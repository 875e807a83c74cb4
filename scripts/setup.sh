#!/usr/bin/env bash
# Quick start, step one: install what is missing, build, render the examples.
#
#   scripts/setup.sh
#
# Safe to run again: packages already present are not reinstalled, an
# up-to-date build costs seconds. Pictures go to examples/out/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# System packages: EGL + GLES 3 + GBM (the GPU backend, and Mesa's llvmpipe
# for machines without a GPU), libpng, FreeType/HarfBuzz/fontconfig and a
# font for text, Python for the conformance comparison, valgrind for the
# leak check.
packages=(
  libegl-dev libgles-dev libgbm-dev libegl-mesa0 libgl1-mesa-dri
  libpng-dev libwebp-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev fonts-dejavu-core fonts-liberation
  python3 python3-venv pkg-config valgrind
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

swift build --product lamina
lamina="$(swift build --show-bin-path)/lamina"
mkdir -p examples/out
for scene in examples/scenes/*.json; do
  name="$(basename "$scene" .json)"
  "$lamina" render "$scene" --output "examples/out/$name.png"
  echo "examples/out/$name.png"
done

# The book's listings as programs (examples/<name>/main.swift): each writes its
# picture and its layer tree as scene JSON to examples/out/. Then the README's
# gallery is refreshed from those pictures.
swift build
bin="$(swift build --show-bin-path)"
for name in $(scripts/example-names.sh); do
  "$bin/$name" --out examples/out
done
scripts/gallery.sh
