#!/usr/bin/env bash
# Prints the path of the Python (with Pillow and NumPy) that the conformance
# check prepares in its cache, preparing it first when it is missing. The
# picture checks (check-examples.sh, check-frames.sh) run compare.py with it.
set -euo pipefail
venv="${XDG_CACHE_HOME:-$HOME/.cache}/lamina-conformance-venv"
if ! "$venv/bin/python" -c 'import PIL, numpy' 2>/dev/null; then
  python3 -m venv "$venv" >/dev/null
  "$venv/bin/pip" install -q pillow numpy >/dev/null
fi
echo "$venv/bin/python"
