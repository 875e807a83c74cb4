#!/usr/bin/env bash
# Prints, one a line, the flags a Swift client of the built modules needs:
# the modules folder, the C modules' maps, and the system headers behind
# them. A file compiled with these sees Lamina as another package does:
# public names only (no package name, no @testable).
#
#   mapfile -t flags < <(scripts/checks/client-flags.sh [BIN_PATH])
#   swiftc -typecheck "${flags[@]}" file.swift
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bin="${1:-$(swift build --show-bin-path)}"
echo "-I"; echo "$bin/Modules"
for m in Sources/C*/module.modulemap "$bin"/*.build/module.modulemap; do
  [ -f "$m" ] && { echo "-Xcc"; echo "-fmodule-map-file=$m"; }
done
for i in $(pkg-config --cflags-only-I freetype2 harfbuzz fontconfig egl glesv2 libpng libwebpmux 2>/dev/null); do
  echo "-Xcc"; echo "$i"
done
