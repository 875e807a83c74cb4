#!/usr/bin/env bash
# Renders every scene of the repository and of ../shared with both backends
# (conformance scenes, examples, benchmark scenes, the CAML wallpapers at two
# moments, every Lottie sample at three) and prints one line per picture:
# its SHA-256 and what it is. Two commits draw the same pictures when their
# lists are equal:
#
#   scripts/checks/picture-hashes.sh old/.build/debug/lamina > /tmp/old.txt
#   scripts/checks/picture-hashes.sh .build/debug/lamina > /tmp/new.txt
#   diff /tmp/old.txt /tmp/new.txt && echo "byte for byte the same"
#
# A scene a binary refuses is listed with its exit status instead of a hash.
set -uo pipefail
lamina=$(realpath "${1:?usage: picture-hashes.sh path/to/lamina}")
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=$(cd "$root/../shared" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export LAMINA_REQUIRE_GL=1

draw() {  # draw NAME BACKEND SCENE [render options]
    local name=$1 backend=$2 scene=$3; shift 3
    if "$lamina" render "$scene" --backend "$backend" -o "$work/p.png" "$@" 2>/dev/null; then
        echo "$(sha256sum < "$work/p.png" | cut -c1-64)  $backend  $name $*"
    else
        echo "exit-$?  $backend  $name $*"
    fi
    rm -f "$work/p.png"
}

for backend in cpu gl; do
    for scene in "$shared"/conformance/scenes/*.json "$root"/Tests/Conformance/scenes/*.json \
                 "$root"/examples/scenes/*.json "$shared"/bench/*.json; do
        draw "${scene#"$root/"}" $backend "$scene"
    done
    for wallpaper in "$shared"/caml-corpus/wallpapers/*; do
        for t in 0 1.5; do draw "${wallpaper#"$shared/"}" $backend "$wallpaper" --time $t; done
    done
    while IFS= read -r sample; do
        for p in 0 0.5 0.9; do draw "${sample#"$shared/"}" $backend "$sample" --progress $p; done
    done < <(find "$shared/lottie/samples" -type f \( -name '*.json' -o -name '*.lottie' \) | sort)
done
