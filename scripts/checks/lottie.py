#!/usr/bin/env python3
"""Lottie samples drawn by Lamina against Apple's Core Animation.

    LAMINA=.build/debug/lamina scripts/checks/lottie.py [--out DIR] [--backend cpu|gl] [--only NAME] [--corpus DIR]

For each sample of ../shared/lottie/manifest.json, renders the five
snapshots (progress 0, 25, 50, 75, 100%) as the reference pictures were
taken: frame `ip + p * (op - ip)`, which is scene time `(frame - ip) / fr`
in Lamina, at the picture's pixel size (the animation fitted into its
snapshot size, at 2x), on a transparent background; then judges them with
the folder's own compare.py (CIE94 Delta E, the sample's precision, over
black and over white).

Prints one line per sample (its snapshots that match). Two checks: every
sample is read and drawn at its five moments, and at least MATCHED_FLOOR
snapshots match Apple's (the count when the floor was last raised: a
change that loses a match fails; raise it when matches are won). The
figures and what is missing are in docs/lottie.md.

`--corpus DIR` judges another folder of the same layout instead, such as
the one scripts/checks/lottie-ios-corpus.py builds from a lottie-ios
checkout (every picture its tests hold); there the floor is not checked.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

LAMINA = os.environ.get("LAMINA", ".build/debug/lamina")
# Snapshots of the 280 that matched when this was last raised.
MATCHED_FLOOR = 260
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOTTIE = os.path.join(ROOT, "..", "shared", "lottie")


# Judges (reference, candidate, precision) pairs read as JSON from standard
# input with compare.py's own `compare_files`, as its command line does
# (its default perceptual tolerance; a picture it cannot read fails).
JUDGE = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("compare", sys.argv[1])
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)
def judged(reference, candidate, precision):
    try:
        return bool(compare.compare_files(reference, candidate, precision)["ok"])
    except Exception:
        return False
print(json.dumps([judged(*pair) for pair in json.load(sys.stdin)]))
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=None)
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--only", default=None)
    parser.add_argument("--corpus", default=None)
    args = parser.parse_args()
    global LOTTIE
    if args.corpus:
        LOTTIE = os.path.abspath(args.corpus)
    manifest = json.load(open(os.path.join(LOTTIE, "manifest.json")))
    samples = manifest["samples"] if isinstance(manifest, dict) and "samples" in manifest else manifest
    if isinstance(samples, dict):
        samples = list(samples.values())
    out = args.out or tempfile.mkdtemp(prefix="lamina-lottie-")
    os.makedirs(out, exist_ok=True)
    python = subprocess.run([os.path.join(ROOT, "scripts", "setup", "conformance-python.sh")], capture_output=True, text=True,
                            check=True).stdout.strip()
    matched = total = 0
    unreadable = []
    drawn = []  # (sample, [(reference, candidate, precision)])
    for sample in samples:
        if args.only and args.only not in sample["name"]:
            continue
        path = os.path.join(LOTTIE, sample["file"])
        # Fitted into the snapshot's size (scaleAspectFit), at 2x; a hair
        # less, so that rounding never adds a pixel row.
        points = sample["snapshot_points"]
        scale = 2 * min(points[0] / sample["w"], points[1] / sample["h"]) * (1 - 1e-12)
        pairs = []
        error = None
        times = [(snap["frame"] - sample["ip"]) / sample["fr"] for snap in sample["snapshots"]]
        candidates = [os.path.join(out, os.path.basename(snap["reference"])) for snap in sample["snapshots"]]
        # Moments evenly spaced from the start (0, 25 ... 100%): one `lamina
        # frames` process draws them all, frame i at i / fps seconds (a
        # process per picture spent a third of this check starting up).
        step = times[-1] / (len(times) - 1) if len(times) > 1 else 0
        if step > 0 and all(abs(t - i * step) <= 1e-9 * max(1, times[-1]) for i, t in enumerate(times)):
            folder = os.path.join(out, "frames-" + sample["name"].replace("/", "-"))
            shutil.rmtree(folder, ignore_errors=True)
            run = subprocess.run([LAMINA, "frames", path, "--backend", args.backend, "--fps", repr(1 / step), "--from", "0",
                                  "--to", repr(times[-1] + step / 2), "--scale", repr(scale), "--output", folder + "/", "--quiet"],
                                 capture_output=True, text=True, timeout=300)
            drawn_frames = sorted(os.listdir(folder)) if run.returncode == 0 else []
            if run.returncode != 0 or len(drawn_frames) != len(times):
                error = (run.stderr.strip().splitlines() or [f"{len(drawn_frames)} frames for {len(times)} moments"])[-1]
            else:
                for frame, candidate in zip(drawn_frames, candidates):
                    os.replace(os.path.join(folder, frame), candidate)
                shutil.rmtree(folder, ignore_errors=True)
        else:
            for time, candidate in zip(times, candidates):
                run = subprocess.run([LAMINA, "render", path, "--backend", args.backend, "--time", repr(time),
                                      "--scale", repr(scale), "--output", candidate], capture_output=True, text=True, timeout=300)
                if run.returncode != 0:
                    error = (run.stderr.strip().splitlines() or ["failed"])[-1]
                    break
        if error is None:
            pairs = [(os.path.join(LOTTIE, snap["reference"]), candidate, sample.get("precision", 0.985))
                     for snap, candidate in zip(sample["snapshots"], candidates)]
        total += len(sample["snapshots"])
        if error is not None:
            unreadable.append((sample["name"], error))
            print(f"      {sample['name']}: not drawn: {error[:160]}")
            continue
        drawn.append((sample, pairs))
    # Every picture judged by the folder's compare.py in one process (a
    # process per picture spent most of this check starting Python).
    judge = subprocess.run([python, "-c", JUDGE, os.path.join(LOTTIE, "compare.py")], capture_output=True, text=True,
                           input=json.dumps([pair for _, pairs in drawn for pair in pairs]), check=True)
    verdicts = iter(json.loads(judge.stdout))
    for sample, pairs in drawn:
        results = [next(verdicts) for _ in pairs]
        matched += sum(results)
        print(f"      {sample['name']}: {sum(results)} of {len(results)} snapshots match "
              f"({', '.join('ok' if r else 'x' for r in results)})")
    print(f"      snapshots matching Apple's: {matched} of {total} ({100 * matched / max(total, 1):.0f}%); "
          f"{len(unreadable)} samples not drawn; pictures in {out}")
    check(f"every Lottie sample is read and drawn at its five moments ({len(samples) - len(unreadable)} of {len(samples)})",
          not unreadable, unreadable[:3])
    if not args.only and not args.corpus:
        check(f"at least {MATCHED_FLOOR} of the snapshots match Apple's Core Animation ({matched} of {total})",
              matched >= MATCHED_FLOOR, matched)
    finish()


if __name__ == "__main__":
    if not os.access(LAMINA, os.X_OK):
        sys.exit(f"no lamina binary at {LAMINA} (set LAMINA)")
    main()
