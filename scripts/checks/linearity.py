#!/usr/bin/env python3
"""The readers are linear in their input, counted in instructions.

    LAMINA=.build/debug/lamina scripts/checks/linearity.py

For each shape of input that once made a reader grow with the square of its
size (docs/reliability.md), and a few more of our own, writes the input at
1, n and 2n, reads them all in one `lamina validate` under callgrind (a
count starting at each file's reading), and compares the instructions of
the reading itself (each count less the count at size 1). Doubling a linear
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


# (what, how to make the input at n, n). n is large enough that a quadratic
# reader shows well over the limit (the reading at n is 50 to 230 M
# instructions), and small enough for callgrind (about 50 times slower than
# running free).
CASES = [
    ("distinct unknown CAML elements", file_of(unknown_elements, "unknown.caml"), 2_500),
    ("transition elements naming one layer", file_of(layers_with_transitions, "transitions.caml"), 1_000),
    ("a state's set values times transition elements", file_of(set_values_times_transitions, "states.caml"), 500),
    ("layers of scene JSON", file_of(many_layers_json, "layers.json"), 1_000),
    ("bundles of a .wallpaper folder", wallpaper_folder, 80),
    ("entries of a .tendies archive", tendies_archive, 80),
]


def reading_symbol(lamina):
    """The function each file's reading starts with (`SceneInput.decode`),
    as the binary names it: callgrind starts a new count there."""
    names = subprocess.run(["nm", lamina], capture_output=True, text=True, check=True).stdout
    found = [line.split()[-1] for line in names.splitlines()
             if line.split()[-1].startswith("$s6lamina10SceneInputO6decode_") and line.split()[1] in "Tt"
             and not line.split()[-1].endswith(("_", "Z_")) and "fA" not in line.split()[-1]]
    if not found:
        raise RuntimeError("no SceneInput.decode in the lamina binary: linearity.py names the function each file's reading starts with")
    return min(found, key=len)


def instructions_per_file(lamina, paths, scratch):
    """The instructions of reading each of `paths`, in one `lamina validate`
    run under callgrind: a count starts where each file's reading does
    (`--dump-before` its first function), so the process's start, most of a
    small run's instructions, is paid once. (The refusal of an input over a
    limit counts: the reading is what is measured.)"""
    out = os.path.join(scratch, "callgrind.out")
    run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                          f"--dump-before={reading_symbol(lamina)}", lamina, "validate", *paths],
                         capture_output=True, text=True, timeout=1800)
    def total(path):
        with open(path) as f:
            for line in f:
                if line.startswith("summary:"):
                    return int(line.split()[1])
        raise RuntimeError(f"no instruction count in {path}")
    dumps = sorted((f for f in os.listdir(scratch) if f.startswith("callgrind.out.")), key=lambda f: int(f.rsplit(".", 1)[1]))
    # The first dump is the start; each next one a file; the last file's
    # count is in the file written at the exit.
    counts = [total(os.path.join(scratch, f)) for f in dumps] + [total(out)]
    if len(counts) != len(paths) + 1:
        raise RuntimeError(f"{len(counts) - 1} counts for {len(paths)} files:\n{run.stderr[-2000:]}")
    return counts[1:]


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
        # Every input in one run: a one-layer document first (the first
        # reading also makes what every reading shares), then, for each
        # shape of input, one of size 1 (the kind's own first-use work, and
        # what a document costs whatever its size), one at n and one at 2n;
        # a one-layer document last (its count holds the process's exit).
        paths = []
        def add(make, size, name):
            folder = os.path.join(scratch, name)
            os.makedirs(folder)
            paths.append(make(size, folder))
        one = file_of(lambda _: caml(""), "one.caml")
        add(one, 0, "first")
        for k, (what, make, n) in enumerate(CASES):
            for size in (1, n, 2 * n):
                add(make, size, f"{k}-{size}")
        add(one, 0, "last")
        counts = instructions_per_file(lamina, paths, os.path.join(scratch, "first"))
        for k, (what, make, n) in enumerate(CASES):
            smallest, at_n, at_2n = counts[1 + 3 * k: 4 + 3 * k]
            reading = (at_n - smallest, at_2n - smallest)
            growth = reading[1] / reading[0] if reading[0] > 0 else float("inf")
            check(f"{what}: twice the input, {growth:.2f} times the instructions "
                  f"({reading[0] / 1e6:.0f} M at {n:,}, {reading[1] / 1e6:.0f} M at {2 * n:,})",
                  growth < GROWTH_LIMIT, (smallest, at_n, at_2n))


if __name__ == "__main__":
    if not os.access(LAMINA, os.X_OK):
        sys.exit(f"no lamina binary at {LAMINA} (set LAMINA)")
    main()
    finish()
