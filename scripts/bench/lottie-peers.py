#!/usr/bin/env python3
"""Lottie animations drawn by Lamina, rlottie and ThorVG, side by side.

    scripts/bench/lottie-peers.py [--lamina BIN] [--runs 3] [--rounds 3] [--cores N] [SAMPLE ...]
    scripts/bench/lottie-peers.py --folder DIR [--side 256] [--runs 1]

Each animation's every frame (its own range and frame rate) is drawn into
memory, at the size of the pictures Apple drew of it (../shared/lottie's
manifest: the animation fitted into the snapshot's points, at 2x):
  - Lamina: `lamina bench --animation --backend cpu --frame-threads 1`: the
    Lottie file read into a CALayer tree with animations, then per frame the
    presentation tree, snapshot, plan and the CPU backend's pixels;
  - rlottie (rlottie-python, Samsung's renderer that Telegram uses):
    `lottie_animation_render` per frame;
  - ThorVG (thorvg-python, the renderer of dotLottie's players): set_frame,
    update, draw, sync on a software canvas with no worker threads.
No encoding: pixels only. Each renderer runs in a process of its own:
  - one core: the best of --runs passes over the whole animation, drawn one
    after another in that process, in milliseconds a frame (the same for the
    three: a process's first pass also pays for what it does once; each of
    Lamina's passes has a renderer of its own, `--passes`, so nothing drawn
    in one pass is kept for the next); the three take turns, --rounds
    processes each, and each keeps its best (a machine whose speed drifts
    then slows the three alike);
  - all cores: --cores processes (default: every core) each drawing the
    whole animation once at the same time, in frames per second all
    together (the frames drawn over the slowest process's drawing time),
    the best of the --rounds turns;
  - memory: the peak resident memory of the one-core process (`/usr/bin/time
    -f %M`), Python and the binding included for the peers.
With --folder, every Lottie JSON file in DIR (files of any origin, without
pictures of Apple's) is drawn on one core, fitted into --side pixels: the
milliseconds a frame of each renderer that reads it (a peer that fails or
crashes on a file is left out of that file's row), and the geometric means
over the files all three draw.

A benchmark, not a test: it prints figures and asserts nothing. The peers
come from PyPI into a venv in the cache (created on first use).
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


# Runs in the peers' venv: draws every frame of one file with one peer,
# RUNS times, and prints {"ms": best whole-animation time, "frames": n}.
PEER = r"""
import json, sys, time
peer, path, w, h, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
best = float("inf")
if peer == "rlottie":
    from rlottie_python import LottieAnimation
    anim = LottieAnimation.from_file(path)
    frames = anim.lottie_animation_get_totalframe()
    for _ in range(runs):
        start = time.perf_counter()
        for f in range(frames):
            anim.lottie_animation_render(frame_num=f, width=w, height=h)
        best = min(best, time.perf_counter() - start)
else:
    import thorvg_python as tvg
    engine = tvg.Engine(threads=0)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(w, h)
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    picture.load(path)
    picture.set_size(w, h)
    canvas.add(picture)
    frames = int(animation.get_total_frame()[1])
    for _ in range(runs):
        start = time.perf_counter()
        for f in range(frames):
            animation.set_frame(f)
            canvas.update()
            canvas.draw(True)
            canvas.sync()
        best = min(best, time.perf_counter() - start)
print(json.dumps({"ms": best * 1000, "frames": frames}))
"""


def command(renderer, lamina, python, path, w, h, scale, runs):
    """The command that draws every frame of `path` `runs` times with one renderer, on one core."""
    if renderer == "lamina":
        return [lamina, "bench", "--animation", "--backend", "cpu", "--frame-threads", "1", "--warmup", "1",
                "--passes", str(runs), "--scale", repr(scale), path]
    return [python, "-c", PEER, renderer, path, str(w), str(h), str(runs)]


def result(renderer, stdout):
    """(whole-animation ms, frames) from a command's output."""
    if renderer == "lamina":
        row = stdout.strip().splitlines()[-1].split()
        return float(row[-1]), int(row[2])
    out = json.loads(stdout)
    return out["ms"], out["frames"]


def one_core(renderer, cmd):
    """Best whole-animation ms of the process's passes, frames, and its peak resident KiB."""
    run = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, check=True)
    ms, frames = result(renderer, run.stdout)
    return ms, frames, int(run.stderr.strip().splitlines()[-1])


def all_cores(renderer, cmd, cores):
    """Frames per second of `cores` processes drawing the animation at once."""
    processes = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) for _ in range(cores)]
    outcomes = [result(renderer, p.communicate()[0]) for p in processes]
    slowest = max(ms for ms, _ in outcomes)
    return sum(frames for _, frames in outcomes) / (slowest / 1000)


def folder_survey(folder, side, lamina, python, runs):
    """One-core ms a frame of each renderer on every JSON file of `folder`."""
    print("%-44s %6s %9s | %8s %8s %8s" % ("file", "frames", "pixels", "Lamina", "rlottie", "ThorVG"))
    ratios = {"rlottie": [], "thorvg": []}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(folder, name)
        try:
            document = json.load(open(path, encoding="utf-8"))
            w0, h0 = float(document["w"]), float(document["h"])
            fit = side / max(w0, h0)
        except (ValueError, KeyError, TypeError, ZeroDivisionError, UnicodeDecodeError):
            continue
        w, h = max(1, math.ceil(w0 * fit - 1e-9)), max(1, math.ceil(h0 * fit - 1e-9))
        per, frames = {}, 0
        for renderer in ("lamina", "rlottie", "thorvg"):
            try:
                cmd = command(renderer, lamina, python, path, w, h, fit * (1 - 1e-12), runs)
                ms, n = result(renderer, subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout)
                per[renderer] = ms / max(n, 1)
                frames = frames or n
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired, ValueError, IndexError, KeyError):
                per[renderer] = None
        show = lambda v: "%8.3f" % v if v is not None else "%8s" % "-"
        print("%-44s %6d %9s | %s %s %s" % (name[:-5][-44:], frames, "%dx%d" % (w, h),
                                            show(per["lamina"]), show(per["rlottie"]), show(per["thorvg"])))
        if all(per[r] for r in per):
            for peer in ratios:
                ratios[peer].append(per[peer] / per["lamina"])
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")
    print("geometric mean of the peer's time over Lamina's, one core, over the %d files all three draw: "
          "rlottie %.2f, ThorVG %.2f (above 1: Lamina is faster)" % (len(ratios["rlottie"]), geo(ratios["rlottie"]), geo(ratios["thorvg"])))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("samples", nargs="*", help="sample names of ../shared/lottie (default: a fixed set)")
    parser.add_argument("--lamina", default=os.environ.get("LAMINA", os.path.join(ROOT, ".build", "release", "lamina")))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3, help="turns each renderer takes on one core (the best counts)")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--folder", help="time every Lottie JSON file of this folder instead (one core)")
    parser.add_argument("--side", type=int, default=256, help="with --folder: the longest side, in pixels")
    args = parser.parse_args()
    if args.folder:
        folder_survey(args.folder, args.side, args.lamina, peers_python(), args.runs)
        return
    manifest = json.load(open(os.path.join(LOTTIE, "manifest.json")))["samples"]
    by_name = {s["name"]: s for s in manifest}
    python = peers_python()
    renderers = ("lamina", "rlottie", "thorvg")
    print("%-26s %6s %9s | %-23s | %-23s | %-17s" % ("", "", "", "ms a frame, one core", f"frames/s, {args.cores} cores",
                                                      "peak memory, MiB"))
    print("%-26s %6s %9s | %7s %7s %7s | %7s %7s %7s | %5s %5s %5s" % (
        "sample", "frames", "pixels", "Lamina", "rlottie", "ThorVG", "Lamina", "rlottie", "ThorVG", "Lam", "rl", "tvg"))
    ratios = {"rlottie": [], "thorvg": []}
    parallel = {"rlottie": [], "thorvg": []}
    for name in args.samples or DEFAULT_SAMPLES:
        sample = by_name[name]
        path = os.path.join(LOTTIE, sample["file"])
        points = sample["snapshot_points"]
        fit = min(points[0] / sample["w"], points[1] / sample["h"])
        w, h = math.ceil(sample["w"] * fit * 2 - 1e-9), math.ceil(sample["h"] * fit * 2 - 1e-9)
        per, fps, memory, frames = {}, {}, {}, 0
        for renderer in renderers:
            per[renderer], memory[renderer], fps[renderer] = float("inf"), 0, 0
        for _ in range(args.rounds):
            for renderer in renderers:
                cmd = command(renderer, args.lamina, python, path, w, h, 2 * fit * (1 - 1e-12), args.runs)
                ms, n, peak = one_core(renderer, cmd)
                per[renderer], memory[renderer] = min(per[renderer], ms / n), max(memory[renderer], peak / 1024)
                frames = frames or n
            for renderer in renderers:
                cmd = command(renderer, args.lamina, python, path, w, h, 2 * fit * (1 - 1e-12), 1)
                fps[renderer] = max(fps[renderer], all_cores(renderer, cmd, args.cores))
        for peer in ratios:
            ratios[peer].append(per[peer] / per["lamina"])
            parallel[peer].append(fps["lamina"] / fps[peer])
        print("%-26s %6d %9s | %7.3f %7.3f %7.3f | %7.0f %7.0f %7.0f | %5.0f %5.0f %5.0f" % (
            name[-26:], frames, "%dx%d" % (w, h), per["lamina"], per["rlottie"], per["thorvg"],
            fps["lamina"], fps["rlottie"], fps["thorvg"], memory["lamina"], memory["rlottie"], memory["thorvg"]))
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    print("geometric mean of the peer's time over Lamina's, one core: rlottie %.2f, ThorVG %.2f; "
          "all cores: rlottie %.2f, ThorVG %.2f (above 1: Lamina is faster)" % (
              geo(ratios["rlottie"]), geo(ratios["thorvg"]), geo(parallel["rlottie"]), geo(parallel["thorvg"])))


if __name__ == "__main__":
    main()
