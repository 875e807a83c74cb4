#!/usr/bin/env python3
"""Where Lamina draws a folder of Lottie files differently from both rlottie and ThorVG.

    scripts/bench/lottie-disagreements.py DIR [--lamina BIN] [--out DIR] [--side 256]

Files without Apple's pictures of them can still be judged: each JSON file
of DIR is drawn at 30% and 60% of its range by Lamina (`lamina render
--progress`, the CPU backend), rlottie and ThorVG (through the drawing code
of `lottie-peers-apple.py`), fitted into --side pixels. A moment where
Lamina is far from both peers (a mean difference over 4 of 255 a channel,
premultiplied) while the peers are near each other (under half that) is
listed, and the three pictures are put side by side in --out, over a grey
that shows white and transparency apart. A benchmark's helper, not a test:
it prints and asserts nothing. Most of what it lists are places where the
peers read Lottie as lottie-web does and Lamina as lottie-ios does (colours
of 0...255, motion along a curve's parameter, time stretch outside
precompositions: docs/lottie.md, "Against rlottie and ThorVG, on files from
elsewhere"); the rest are worth a look.
"""
import argparse
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRESS = [0.3, 0.6]

# Runs in the Python that has NumPy and Pillow: for each (lamina PNG, rlottie
# raw, ThorVG raw, w, h, side by side PNG) the three mean differences, and
# the picture side by side where asked.
JUDGE = r"""
import json, sys
import numpy as np
from PIL import Image
grey = np.array([90.0, 90.0, 120.0])
def lamina(path, w, h):
    try:
        im = np.asarray(Image.open(path).convert("RGBA")).astype(np.float64)
    except Exception:
        return None
    if im.shape[:2] != (h, w):
        return None
    a = im[..., 3:4] / 255
    return np.concatenate([im[..., :3] * a, im[..., 3:4]], axis=2)
def peer(path, w, h):
    try:
        return np.frombuffer(open(path, "rb").read(), dtype=np.uint8).reshape(h, w, 4).astype(np.float64)
    except Exception:
        return None
def distance(a, b):
    return None if a is None or b is None else float(np.abs(a - b).mean())
out = []
for lam, rl, tvg, w, h, picture in json.load(sys.stdin):
    L, R, T = lamina(lam, w, h), peer(rl, w, h), peer(tvg, w, h)
    out.append([distance(L, R), distance(L, T), distance(R, T)])
    if picture and L is not None:
        parts = [p for p in (L, T, R) if p is not None]
        row = np.concatenate([(p[..., :3] + grey * (1 - p[..., 3:4] / 255)).clip(0, 255) for p in parts], axis=1)
        Image.fromarray(row.astype(np.uint8)).save(picture)
print(json.dumps(out))
"""


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", help="a folder of Lottie JSON files")
    parser.add_argument("--lamina", default=os.environ.get("LAMINA", os.path.join(ROOT, ".build", "release", "lamina")))
    parser.add_argument("--out", help="where the pictures go (default: a temporary folder)")
    parser.add_argument("--side", type=int, default=256, help="the longest side, in pixels")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    peers = load("peers", os.path.join(here, "lottie-peers.py"))
    apple = load("apple", os.path.join(here, "lottie-peers-apple.py"))
    python = peers.peers_python()
    judge_python = subprocess.run([os.path.join(ROOT, "scripts", "setup", "conformance-python.sh")], capture_output=True,
                                  text=True, check=True).stdout.strip()
    out = args.out or tempfile.mkdtemp(prefix="lottie-disagreements-")
    os.makedirs(out, exist_ok=True)
    rows = []
    for name in sorted(os.listdir(args.folder)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(args.folder, name)
        try:
            document = json.load(open(path, encoding="utf-8"))
            w0, h0 = float(document["w"]), float(document["h"])
            fit = args.side / max(w0, h0)
        except (ValueError, KeyError, TypeError, ZeroDivisionError, UnicodeDecodeError):
            continue
        w, h = max(1, math.ceil(w0 * fit - 1e-9)), max(1, math.ceil(h0 * fit - 1e-9))
        stem = os.path.join(out, name[:-5].replace(" ", "_"))
        subprocess.run([python, "-c", apple.DRAW, path, str(w), str(h), stem] + [str(p) for p in PROGRESS],
                       capture_output=True, timeout=600)
        for i, progress in enumerate(PROGRESS):
            subprocess.run([args.lamina, "render", path, "--progress", str(progress), "--backend", "cpu",
                            "--scale", repr(fit * (1 - 1e-12)), "-o", f"{stem}-lamina-{i}.png"], capture_output=True, timeout=600)
            rows.append((name, progress, [f"{stem}-lamina-{i}.png", f"{stem}-rlottie-{i}.rgba", f"{stem}-thorvg-{i}.rgba", w, h,
                                         f"{stem}-{int(progress * 100)}.png"]))
    distances = json.loads(subprocess.run([judge_python, "-c", JUDGE], capture_output=True, text=True, check=True,
                                          input=json.dumps([r[2] for r in rows])).stdout)
    listed = 0
    print("%-48s %8s %8s %8s %8s" % ("file", "moment", "L-rl", "L-tvg", "rl-tvg"))
    for (name, progress, _), (lr, lt, rt) in zip(rows, distances):
        lamina_off = [d for d in (lr, lt) if d is not None]
        if not lamina_off or min(lamina_off) <= 4 or (rt is not None and rt >= min(lamina_off) / 2):
            continue
        listed += 1
        show = lambda d: "%8s" % "-" if d is None else "%8.1f" % d
        print("%-48s %7d%% %s %s %s" % (name[:48], int(progress * 100), show(lr), show(lt), show(rt)))
    print(f"{listed} of {len(rows)} moments where Lamina differs from both peers while they agree; "
          f"pictures (Lamina, ThorVG, rlottie) in {out}")


if __name__ == "__main__":
    sys.exit(main())
