#!/usr/bin/env python3
"""The readers are linear in their input, counted in instructions.

    LAMINA=.build/debug/lamina scripts/checks/linearity.py

For each shape of input that once made a reader grow with the square of its
size (docs/reliability.md), and a few more of our own, writes the input at
n and at 2n, runs `lamina validate` on each under callgrind, and compares
the instructions of the reading itself (the run's total less the total of
a one-layer document, which is the process's start). Doubling a linear
reader's input doubles its work: the growth must stay under 2.5 (a
quadratic one gives about 4). Instruction counts, not time: they are the
same on every run and every machine.

Needs valgrind; without it every check is a visible skip.
Prints one line per check and ends with "N passed, M failed".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, skip  # noqa: E402

LAMINA = os.environ.get("LAMINA", ".build/debug/lamina")
GROWTH_LIMIT = 2.5
CAML_HEAD = '<caml xmlns="http://www.apple.com/CoreAnimation/1.0">'


def caml(body, root_extra=""):
    return (f'{CAML_HEAD}<CALayer id="root" bounds="0 0 300 300" position="150 150"{root_extra}>'
            f'{body}</CALayer></caml>')


def unknown_elements(n):
    # Distinct unknown elements: each one a warning of its own kind.
    return caml("".join(f"<Unknown{i}/>" for i in range(n)))


def layers_with_transitions(n):
    # One layer named by n transition elements (each once recomputed both
    # ends of the layer's state).
    states = ('<states><LKState name="A"><elements/></LKState><LKState name="B"><elements>'
              '<LKStateSetValue targetId="dot" keyPath="opacity"><value type="real" value="0"/></LKStateSetValue>'
              '</elements></LKState></states>')
    elements = "".join('<LKStateTransitionElement targetId="dot" key="opacity">'
                       '<animation type="CABasicAnimation" duration="1"/></LKStateTransitionElement>' for _ in range(n))
    transitions = f'<stateTransitions><LKStateTransition fromState="A" toState="B"><elements>{elements}</elements></LKStateTransition></stateTransitions>'
    dot = '<sublayers><CALayer id="dot" bounds="0 0 10 10" position="5 5"/></sublayers>'
    return caml(dot + states + transitions)


def set_values_times_transitions(n):
    # n set values in a state and n transition elements into it.
    layers = "".join(f'<CALayer id="l{i}" bounds="0 0 2 2" position="{i % 300} {i // 300}"/>' for i in range(n))
    sets = "".join(f'<LKStateSetValue targetId="l{i}" keyPath="opacity"><value type="real" value="0.5"/></LKStateSetValue>'
                   for i in range(n))
    elements = "".join(f'<LKStateTransitionElement targetId="l{i}" key="opacity"><animation type="CABasicAnimation" duration="1"/>'
                       '</LKStateTransitionElement>' for i in range(n))
    states = f'<states><LKState name="A"><elements/></LKState><LKState name="B"><elements>{sets}</elements></LKState></states>'
    transitions = f'<stateTransitions><LKStateTransition fromState="A" toState="B"><elements>{elements}</elements></LKStateTransition></stateTransitions>'
    return caml(f"<sublayers>{layers}</sublayers>" + states + transitions)


def many_layers_json(n):
    layers = ",".join('{"bounds": [0, 0, 4, 4], "position": [%d, %d], "backgroundColor": "#336699"}' % (i % 300, i // 300)
                      for i in range(n))
    return '{"width": 300, "height": 300, "sublayers": [%s]}' % layers


def plane(i):
    return caml("", root_extra=f' backgroundColor="0 0 {i % 2}"')


def wallpaper_folder(n, into):
    # A .wallpaper of n bundles (each was listed by scanning every path twice).
    folder = os.path.join(into, "Many.wallpaper")
    for i in range(n):
        bundle = os.path.join(folder, f"Plane{i:05d}.ca")
        os.makedirs(bundle)
        with open(os.path.join(bundle, "main.caml"), "w") as f:
            f.write(plane(i))
    return folder


def tendies_archive(n, into):
    # The same wallpaper zipped: the archive's folders listed from its entries.
    path = os.path.join(into, "Many.tendies")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(n):
            archive.writestr(f"Many.wallpaper/Plane{i:05d}.ca/main.caml", plane(i))
    return path


def file_of(text, name):
    def make(n, into):
        path = os.path.join(into, name)
        with open(path, "w") as f:
            f.write(text(n))
        return path
    return make


# (what, how to make the input at n, n). n is large enough that the reading
# is as much work as the process's start (about 210 M instructions, most of
# it the argument parser's own checks in a debug build), so that a quadratic
# reader shows well over the limit, and small enough for callgrind (about 50
# times slower than running free): the thirteen runs take about 50 s.
CASES = [
    ("distinct unknown CAML elements", file_of(unknown_elements, "unknown.caml"), 2_500),
    ("transition elements naming one layer", file_of(layers_with_transitions, "transitions.caml"), 1_000),
    ("a state's set values times transition elements", file_of(set_values_times_transitions, "states.caml"), 500),
    ("layers of scene JSON", file_of(many_layers_json, "layers.json"), 1_000),
    ("bundles of a .wallpaper folder", wallpaper_folder, 80),
    ("entries of a .tendies archive", tendies_archive, 80),
]


def instructions(lamina, path):
    """Instructions of `lamina validate PATH` under callgrind (the refusal of
    an input over a limit counts: the reading is what is measured)."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", lamina, "validate", path],
                         capture_output=True, text=True, timeout=900)
    found = re.findall(r"Collected : (\d+)", run.stderr)
    if not found:
        raise RuntimeError(f"no instruction count for {path}:\n{run.stderr[-2000:]}")
    return int(found[-1])


def main():
    if shutil.which("valgrind") is None:
        for what, _, _ in CASES:
            skip(f"{what}: linear in instructions", "valgrind is not installed")
        return
    with tempfile.TemporaryDirectory() as scratch:
        # Debian's valgrind 3.19 gives up on the DWARF of a binary this size:
        # it runs a copy without it.
        lamina = os.path.join(scratch, "lamina")
        subprocess.run(["strip", "--strip-debug", "-o", lamina, LAMINA], check=True)
        base_dir = os.path.join(scratch, "base")
        os.makedirs(base_dir)
        base = instructions(lamina, file_of(lambda _: caml(""), "one.caml")(0, base_dir))
        for what, make, n in CASES:
            counts = []
            for size in (n, 2 * n):
                folder = os.path.join(scratch, f"{len(counts)}-{what[:8].replace(' ', '_')}")
                os.makedirs(folder)
                counts.append(instructions(lamina, make(size, folder)) - base)
            growth = counts[1] / counts[0] if counts[0] > 0 else float("inf")
            check(f"{what}: twice the input, {growth:.2f} times the instructions "
                  f"({counts[0] / 1e6:.0f} M at {n:,}, {counts[1] / 1e6:.0f} M at {2 * n:,})",
                  growth < GROWTH_LIMIT, counts)


if __name__ == "__main__":
    if not os.access(LAMINA, os.X_OK):
        sys.exit(f"no lamina binary at {LAMINA} (set LAMINA)")
    main()
    finish()
