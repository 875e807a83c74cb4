#!/usr/bin/env bash
# The build's processor check (Sources/CProcessorCheck): on x86-64, Lamina's
# modules are built for x86-64-v3 unless LAMINA_TARGET_CPU=x86-64 (see the
# end of Package.swift). Run under QEMU's user-mode emulation of two
# processors, `lamina --version` must run on a Haswell (which has those
# instructions), and on a Nehalem (which lacks them) either run, for a
# build for any x86-64 processor, or stop before `main` with the message
# that says how to build for it: never die of an illegal instruction.
#
#   scripts/checks/processor.sh            # the package's build
#   LAMINA=path/to/lamina scripts/checks/processor.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
lamina="${LAMINA:-$(swift build --show-bin-path)/lamina}"
level="${LAMINA_TARGET_CPU:-x86-64-v3}"

if [ "$(uname -m)" != x86_64 ]; then
  echo "not an x86-64 machine: the processor check is SKIPPED"
  echo "0 passed, 0 failed, 1 skipped"; exit 0
fi
if ! command -v qemu-x86_64 >/dev/null; then
  echo "no qemu-x86_64 (Debian's qemu-user): the processor check is SKIPPED"
  echo "0 passed, 0 failed, 1 skipped"; exit 0
fi

passed=0; failed=0
check() { if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi; }

runs_on() {
  local out
  if out="$(qemu-x86_64 -cpu "$1" "$lamina" --version 2>/dev/null)" && [ -n "$out" ]; then
    echo "ok: runs on a $1 ($out)"
  else
    echo "FAILED: does not run on a $1"; return 1
  fi
}

refused_on() {
  local err status=0
  err="$(qemu-x86_64 -cpu "$1" "$lamina" --version 2>&1 >/dev/null)" || status=$?
  if [ "$status" -eq 1 ] && grep -q "x86-64-v3 instructions" <<<"$err" && grep -q "LAMINA_TARGET_CPU=x86-64" <<<"$err"; then
    echo "ok: on a $1 it stops and says why: $(head -1 <<<"$err")"
  else
    echo "FAILED: on a $1, exit $status: $err"; return 1
  fi
}

check runs_on Haswell
case "$level" in
  x86-64-v3) check refused_on Nehalem ;;
  x86-64) check runs_on Nehalem ;;
  *) echo "FAILED: LAMINA_TARGET_CPU=$level is neither x86-64-v3 nor x86-64"; failed=$((failed + 1)) ;;
esac
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
