#!/usr/bin/env bash
# Quick start, step two: every test. `.ci/run` runs exactly this.
#
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build --build-tests
swift test --skip-build 2>&1
