#!/usr/bin/env python3
"""How often rlottie and ThorVG draw ../shared/lottie's samples as Apple's Core Animation does.

    scripts/bench/lottie-peers-apple.py [--out DIR] [--only NAME] [--corpus DIR]

The peers' side of `scripts/checks/lottie.py`: each sample drawn by rlottie
(rlottie-python) and ThorVG (thorvg-python) at the five moments Apple's
pictures show (progress 0, 0.25, 0.5, 0.75, 1), at the pictures' pixel size,
on a transparent background, and judged by the folder's `compare.py` at the
sample's precision, as Lamina's pictures are. A benchmark, not a test: it
prints figures and asserts nothing. `--corpus DIR` judges another folder of
the same layout (scripts/checks/lottie-ios-corpus.py makes one of
lottie-ios's own pictures), as `scripts/checks/lottie.py --corpus` does.

How each peer is asked for a moment, in its own terms:
  - rlottie: `lottie_animation_get_frame_at_pos(progress)`, its own progress
    API (whole frames only: rlottie draws no frame between two);
  - ThorVG: `set_frame(progress x total frames)` (fractional frames).
A `.lottie` file (a zip), which neither Python binding opens, is given to
both as its first animation's JSON with its images inlined as data URIs.
The peers come from PyPI into the venv `lottie-peers.py` makes.
"""
import argparse
import base64
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOTTIE = os.path.join(ROOT, "..", "shared", "lottie")

# Runs in the peers' venv: draws one file at the given progresses into raw
# premultiplied RGBA files, OUT-rlottie-i.rgba and OUT-thorvg-i.rgba.
DRAW = r"""
import sys
path, w, h, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
progresses = [float(p) for p in sys.argv[5:]]
from rlottie_python import LottieAnimation
try:
    anim = LottieAnimation.from_file(path)
    total = anim.lottie_animation_get_totalframe()
    for i, p in enumerate(progresses):
        frame = min(anim.lottie_animation_get_frame_at_pos(p), total - 1)
        bgra = anim.lottie_animation_render(frame_num=frame, width=w, height=h)
        rgba = bytearray(bgra)
        rgba[0::4], rgba[2::4] = bgra[2::4], bgra[0::4]
        open(f"{out}-rlottie-{i}.rgba", "wb").write(bytes(rgba))
except Exception as error:
    print(f"rlottie: {error}", file=sys.stderr)
import thorvg_python as tvg
try:
    engine = tvg.Engine(threads=0)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(w, h, cs=tvg.Colorspace.ABGR8888)
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    if picture.load(path) != tvg.Result.SUCCESS:
        raise RuntimeError("cannot load")
    picture.set_size(w, h)
    canvas.add(picture)
    total = animation.get_total_frame()[1]
    for i, p in enumerate(progresses):
        animation.set_frame(min(p * total, total - 1e-3))
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        open(f"{out}-thorvg-{i}.rgba", "wb").write(bytes(memoryview(canvas.buffer_arr).cast("B")))
except Exception as error:
    print(f"thorvg: {error}", file=sys.stderr)
"""

# Runs in the conformance Python (Pillow, NumPy): each raw picture as a PNG
# (straight alpha, as Apple's are), judged by compare.py. Reads
# [[raw, width, height, reference, precision]...] as JSON, prints verdicts.
JUDGE = r"""
import importlib.util, json, os, sys
import numpy as np
from PIL import Image
spec = importlib.util.spec_from_file_location("compare", sys.argv[1])
compare = importlib.util.module_from_spec(spec); spec.loader.exec_module(compare)
verdicts = []
for raw, w, h, reference, precision in json.load(sys.stdin):
    if not os.path.exists(raw):
        verdicts.append(None); continue
    pixels = np.frombuffer(open(raw, "rb").read(), dtype=np.uint8).reshape(h, w, 4).astype(np.float64)
    alpha = pixels[..., 3:4]
    straight = np.where(alpha > 0, np.clip(pixels[..., :3] * 255 / np.maximum(alpha, 1), 0, 255), 0)
    png = raw[:-5] + ".png"
    Image.fromarray(np.concatenate([straight, alpha], axis=2).round().astype(np.uint8), "RGBA").save(png)
    verdicts.append(bool(compare.compare_files(reference, png, precision)["ok"]))
print(json.dumps(verdicts))
"""


def inlined_json(path, animation_id, folder):
    """A .lottie's animation `animation_id` as one JSON file, its images inlined."""
    with zipfile.ZipFile(path) as archive:
        names = [n for n in archive.namelist() if not n.startswith("__MACOSX")]
        animation = next(n for n in names if n.endswith(".json") and os.path.splitext(os.path.basename(n))[0] == animation_id)
        document = json.loads(archive.read(animation))
        for asset in document.get("assets", []):
            if "p" in asset and not str(asset["p"]).startswith("data:"):
                candidates = [n for n in names if n.endswith("/" + asset["p"]) and not n.startswith("__MACOSX")]
                if candidates:
                    data = archive.read(candidates[0])
                    kind = "png" if data[:4] == b"\x89PNG" else "jpeg" if data[:2] == b"\xff\xd8" else "webp"
                    asset["p"] = f"data:image/{kind};base64," + base64.b64encode(data).decode()
                    asset["u"] = ""
                    asset["e"] = 1
    out = os.path.join(folder, os.path.basename(path) + ".json")
    json.dump(document, open(out, "w"))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", help="where the pictures go (default: a temporary folder)")
    parser.add_argument("--only", help="only samples whose name contains this")
    parser.add_argument("--corpus", help="a folder of ../shared/lottie's layout to judge instead")
    args = parser.parse_args()
    global LOTTIE
    if args.corpus:
        LOTTIE = os.path.abspath(args.corpus)
    spec = importlib.util.spec_from_file_location("peers", os.path.join(os.path.dirname(__file__), "lottie-peers.py"))
    peers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peers)
    python = peers.peers_python()
    judge_python = subprocess.run([os.path.join(ROOT, "scripts", "setup", "conformance-python.sh")], capture_output=True,
                                  text=True, check=True).stdout.strip()
    out = args.out or tempfile.mkdtemp(prefix="lottie-peers-apple-")
    os.makedirs(out, exist_ok=True)
    samples = json.load(open(os.path.join(LOTTIE, "manifest.json")))["samples"]
    pending, rows = [], []
    for sample in samples:
        if args.only and args.only not in sample["name"]:
            continue
        path = os.path.join(LOTTIE, sample["file"])
        if sample["file"].endswith(".lottie"):
            path = inlined_json(path, sample["dotlottie_animation"], out)
        w, h = sample["snapshot_pixels"]
        stem = os.path.join(out, sample["name"].replace("/", "-"))
        progresses = [str(s["progress"]) for s in sample["snapshots"]]
        drawn = subprocess.run([python, "-c", DRAW, path, str(w), str(h), stem] + progresses, capture_output=True, text=True,
                               timeout=600)
        rows.append((sample["name"], drawn.stderr.strip().splitlines()))
        for peer in ("rlottie", "thorvg"):
            for i, snap in enumerate(sample["snapshots"]):
                pending.append((peer, sample["name"], [f"{stem}-{peer}-{i}.rgba", w, h, os.path.join(LOTTIE, snap["reference"]),
                                                       sample.get("precision", 0.985)]))
    judged = json.loads(subprocess.run([judge_python, "-c", JUDGE, os.path.join(LOTTIE, "compare.py")], capture_output=True,
                                       text=True, check=True, input=json.dumps([p[2] for p in pending])).stdout)
    totals = {"rlottie": [0, 0, 0], "thorvg": [0, 0, 0]}  # matched, drawn, all
    per_sample = {}
    for (peer, name, _), verdict in zip(pending, judged):
        totals[peer][2] += 1
        if verdict is not None:
            totals[peer][1] += 1
            totals[peer][0] += verdict
        per_sample.setdefault(name, {}).setdefault(peer, []).append(verdict)
    print("%-40s %-14s %-14s" % ("sample", "rlottie", "ThorVG"))
    for name, errors in rows:
        cells = ["".join("-" if v is None else ("o" if v else "x") for v in per_sample[name][peer]) for peer in ("rlottie", "thorvg")]
        print("%-40s %-14s %-14s %s" % (name, cells[0], cells[1], "; ".join(errors)[:80]))
    for peer, label in (("rlottie", "rlottie"), ("thorvg", "ThorVG")):
        matched, drawn, total = totals[peer]
        print(f"{label}: {matched} of {total} pictures match Apple's ({100 * matched / max(total, 1):.0f}%); "
              f"{total - drawn} not drawn")
    print(f"pictures in {out}")


if __name__ == "__main__":
    main()
