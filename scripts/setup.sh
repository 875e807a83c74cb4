#!/usr/bin/env bash
# Quick start, step one: install what is missing, build, render the examples.
#
#   scripts/setup.sh
#
# Safe to run again: packages already present are not reinstalled, an
# up-to-date build costs seconds. Pictures go to examples/out/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup/install-packages.sh

# Lamina's own modules optimized, as scripts/test.sh builds them (the end of
# Package.swift): the two share one build.
export LAMINA_OPTIMIZED=1
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
for name in $(scripts/checks/example-names.sh); do
  "$bin/$name" --out examples/out
done
scripts/docs/gallery.sh
