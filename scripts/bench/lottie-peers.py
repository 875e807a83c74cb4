#!/usr/bin/env python3
"""Lottie animations drawn by Lamina, rlottie and ThorVG, side by side.

    scripts/bench/lottie-peers.py [--lamina BIN] [--runs 3] [--only NAME] [SAMPLE.json ...]

Each animation's every frame (its own range and frame rate) is drawn into
memory, at the size of the pictures Apple drew of it (../shared/lottie's
manifest: the animation fitted into the snapshot's points, at 2x), on one
core:
  - Lamina: `lamina bench --animation --backend cpu --frame-threads 1`: the
    Lottie file read into a CALayer tree with animations, then per frame the
    presentation tree, snapshot, plan and the CPU backend's pixels;
  - rlottie (rlottie-python, Samsung's renderer that Telegram uses):
    `lottie_animation_render` per frame;
  - ThorVG (thorvg-python, the renderer of dotLottie's players): set_frame,
    update, draw, sync on a software canvas with no worker threads.
No encoding: pixels only. The best of --runs whole-animation times is kept
for each. A benchmark, not a test: it prints figures and asserts nothing.
The peers come from PyPI into a venv in the cache (created on first use).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOTTIE = os.path.join(ROOT, "..", "shared", "lottie")
VENV = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "lamina-lottie-peers-venv")
# JSON samples of ../shared/lottie that each of the three reads, of several kinds:
# shapes and trim paths, gradients, strokes and dashes, masks and mattes, repeaters.
DEFAULT_SAMPLES = ["9squares_AlBoardman", "LottieLogo2", "TwitterHeartButton", "LottieFiles/loading_dots_1",
                   "LottieFiles/step_loader", "LottieFiles/gradient_1", "LottieFiles/fireworks", "TypeFace/S",
                   "vcTransition1", "Issues/issue_1541"]


def peers_python():
    python = os.path.join(VENV, "bin", "python")
    check = [python, "-c", "import rlottie_python, thorvg_python"]
    if not os.path.exists(python) or subprocess.run(check, capture_output=True).returncode != 0:
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", "rlottie-python", "thorvg-python"], check=True)
    return python


# Runs in the peers' venv: prints one JSON line {"rlottie": ms, "thorvg": ms, "frames": n}.
PEERS = r"""
import json, sys, time
path, w, h, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
from rlottie_python import LottieAnimation
anim = LottieAnimation.from_file(path)
frames = anim.lottie_animation_get_totalframe()
best = float("inf")
for _ in range(runs):
    start = time.perf_counter()
    for f in range(frames):
        anim.lottie_animation_render(frame_num=f, width=w, height=h)
    best = min(best, time.perf_counter() - start)
out = {"rlottie": best * 1000, "frames": frames}
import thorvg_python as tvg
engine = tvg.Engine(threads=0)
canvas = tvg.SwCanvas(engine)
canvas.set_target(w, h)
animation = tvg.LottieAnimation(engine)
picture = animation.get_picture()
picture.load(path)
picture.set_size(w, h)
canvas.add(picture)
total = int(animation.get_total_frame()[1])
best = float("inf")
for _ in range(runs):
    start = time.perf_counter()
    for f in range(total):
        animation.set_frame(f)
        canvas.update()
        canvas.draw(True)
        canvas.sync()
    best = min(best, time.perf_counter() - start)
out["thorvg"] = best * 1000
out["thorvg_frames"] = total
print(json.dumps(out))
"""


def lamina_ms(lamina, path, scale, runs):
    best, frames = float("inf"), None
    for _ in range(runs):
        run = subprocess.run([lamina, "bench", "--animation", "--backend", "cpu", "--frame-threads", "1", "--warmup", "1",
                              "--scale", repr(scale), path], capture_output=True, text=True, check=True)
        row = run.stdout.strip().splitlines()[-1].split()
        frames, whole = int(row[2]), float(row[-1])
        best = min(best, whole)
    return best, frames


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("samples", nargs="*", help="sample names of ../shared/lottie (default: a fixed set)")
    parser.add_argument("--lamina", default=os.environ.get("LAMINA", os.path.join(ROOT, ".build", "release", "lamina")))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    manifest = json.load(open(os.path.join(LOTTIE, "manifest.json")))["samples"]
    by_name = {s["name"]: s for s in manifest}
    python = peers_python()
    print("%-28s %7s %9s  %12s %12s %12s  %8s %8s" % ("sample", "frames", "pixels", "Lamina ms/f", "rlottie ms/f",
                                                      "ThorVG ms/f", "rl/Lam", "tvg/Lam"))
    ratios = {"rlottie": [], "thorvg": []}
    for name in args.samples or DEFAULT_SAMPLES:
        sample = by_name[name]
        path = os.path.join(LOTTIE, sample["file"])
        points = sample["snapshot_points"]
        fit = min(points[0] / sample["w"], points[1] / sample["h"])
        w, h = math.ceil(sample["w"] * fit * 2 - 1e-9), math.ceil(sample["h"] * fit * 2 - 1e-9)
        lamina, frames = lamina_ms(args.lamina, path, 2 * fit * (1 - 1e-12), args.runs)
        peers = json.loads(subprocess.run([python, "-c", PEERS, path, str(w), str(h), str(args.runs)], capture_output=True,
                                          text=True, check=True).stdout)
        per = {"lamina": lamina / frames, "rlottie": peers["rlottie"] / peers["frames"],
               "thorvg": peers["thorvg"] / peers["thorvg_frames"]}
        for peer in ratios:
            ratios[peer].append(per[peer] / per["lamina"])
        print("%-28s %7d %9s  %12.3f %12.3f %12.3f  %8.2f %8.2f" % (
            name, frames, "%dx%d" % (w, h), per["lamina"], per["rlottie"], per["thorvg"],
            per["rlottie"] / per["lamina"], per["thorvg"] / per["lamina"]))
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    print("geometric mean of the peer's time over Lamina's: rlottie %.2f, ThorVG %.2f (above 1: Lamina is faster)" % (
        geo(ratios["rlottie"]), geo(ratios["thorvg"])))


if __name__ == "__main__":
    main()
