#!/usr/bin/env python3
"""GL and CPU draw the same picture: every conformance scene (../shared's and
Tests/Conformance's) rendered by both backends and compared with each other
by the conformance comparison (compare.py: a pixel is bad when it lies more
than 24 levels outside the other picture's 3x3 neighbourhood), held to the
same limit as against a reference (0.5% bad pixels). Prints, per scene, how
far apart they are: the bad fraction, the mean and the largest difference of
a channel (over mid grey).

    LAMINA=path/to/lamina scripts/checks/backends.py [--out DIR] [--pictures DIR ...]

--pictures names folders where the conformance check has just drawn the same
scenes (`NAME.gl.png`, `NAME.cpu.png`, with the same `lamina render`
command): a picture there that is newer than the lamina binary is compared
instead of being drawn again.
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(root / "scripts" / "checks"))
sys.path.insert(0, str(root.parent / "shared" / "conformance"))
from checks import check, finish  # noqa: E402
import compare  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--out", default=str(root / ".build" / "backends"))
parser.add_argument("--pictures", nargs="*", default=[], help="folders of pictures the conformance check drew")
args = parser.parse_args()
lamina = os.environ.get("LAMINA") or str(root / ".build" / "debug" / "lamina")
out = Path(args.out)
out.mkdir(parents=True, exist_ok=True)

scenes = sorted((root.parent / "shared" / "conformance" / "scenes").glob("*.json"))
scenes += sorted((root / "Tests" / "Conformance" / "scenes").glob("*.json"))
if not scenes:
    print("no conformance scenes found (../shared/conformance is missing)", file=sys.stderr)
    sys.exit(1)

import numpy as np  # noqa: E402

for scene in scenes:
    pictures = {}
    for backend in ("gl", "cpu"):
        drawn = [Path(d) / f"{scene.stem}.{backend}.png" for d in args.pictures]
        fresh = [p for p in drawn if p.exists() and p.stat().st_mtime > os.stat(lamina).st_mtime]
        if fresh:
            pictures[backend] = fresh[0]
            continue
        path = out / f"{scene.stem}-{backend}.png"
        run = subprocess.run([lamina, "render", str(scene), "--backend", backend, "--output", str(path)],
                             capture_output=True, text=True, env={**os.environ, "LAMINA_REQUIRE_GL": "1"})
        if run.returncode != 0:
            check(f"{scene.stem}: both backends draw it", False, run.stderr.strip()[:300])
            break
        pictures[backend] = path
    else:
        frac, line = compare.compare(str(pictures["cpu"]), str(pictures["gl"]), str(out / f"{scene.stem}-diff.png"))
        largest = float(np.abs(compare.load(str(pictures["cpu"])) - compare.load(str(pictures["gl"]))).max())
        check(f"{scene.stem}: GL and CPU agree ({line} max={largest:.0f})", frac is not None and frac <= 0.005)
finish()
