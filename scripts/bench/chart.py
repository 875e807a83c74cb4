#!/usr/bin/env python3
"""The cost of a frame against canvas size and layer count, on both
backends, measured with `lamina bench` and drawn by Lamina itself.

    scripts/bench/chart.py [--lamina .build/release/lamina] [--out docs/benchmarks-chart.png] [--frames 10]

Left: the card of ../shared/bench at scales 0.5 to 2 (0.2 to 3 megapixels).
Right: the first N tiles of the tiles scene, 125 to 2,000 (the tiles
repeated past 1,000). Each point is the median frame, JSON bytes in to PNG
bytes out (`lamina bench --decode --png`). The chart is a scene (axes and
lines as shape layers, labels as text layers) rendered by `lamina render`;
the figures are printed as a Markdown table too.
"""
import argparse
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "..", "shared", "bench")


def median_ms(lamina, scene, backend, frames):
    out = subprocess.run([lamina, "bench", scene, "--backend", backend, "--frames", str(frames), "--warmup", "2",
                          "--decode", "--png"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r"\S+\.json\s+\S+\s+([\d.]+)\s*/", line)
        if m:
            return float(m.group(1))
    raise RuntimeError("no figure in: " + out)


def measure(lamina, frames, work):
    card = json.load(open(os.path.join(BENCH, "card-1200x630.json")))
    tiles = json.load(open(os.path.join(BENCH, "tiles-1000-layers.json")))
    series = {"canvas": {}, "layers": {}}
    for backend in ("cpu", "gl"):
        points = []
        for scale in (0.5, 1, 1.5, 2):
            scene = dict(card, scale=scale)
            path = os.path.join(work, "card.json")
            json.dump(scene, open(path, "w"))
            megapixels = card["width"] * scale * card["height"] * scale / 1e6
            points.append((megapixels, median_ms(lamina, path, backend, frames)))
        series["canvas"][backend] = points
        points = []
        for n in (125, 250, 500, 1000, 2000):
            scene = copy.deepcopy(tiles)
            layers = tiles["sublayers"]
            scene["sublayers"] = (layers * (n // len(layers) + 1))[:n]
            path = os.path.join(work, "tiles.json")
            json.dump(scene, open(path, "w"))
            points.append((n, median_ms(lamina, path, backend, frames)))
        series["layers"][backend] = points
    return series


COLORS = {"cpu": "#2563eb", "gl": "#db2777"}
NAMES = {"cpu": "CPU backend", "gl": "GL backend (llvmpipe)"}


def text(string, x, y, w, h, size=13, color="#334155", align="left"):
    return {"type": "text", "bounds": [0, 0, w, h], "position": [x + w / 2, y + h / 2], "string": string,
            "fontSize": size, "foregroundColor": color, "alignmentMode": align, "contentsScale": 2}


def panel(x0, y0, w, h, title, xlabel, series, xfmt):
    """A plot of `series` (backend -> [(x, ms)]) in the rectangle x0, y0, w, h."""
    layers = [text(title, x0, y0 - 34, w, 22, size=15, color="#0f172a")]
    xs = [p[0] for pts in series.values() for p in pts]
    ys = [p[1] for pts in series.values() for p in pts]
    xmax = max(xs) * 1.05
    # Four gridlines a round number apart (1, 2 or 5 times a power of ten).
    magnitude = 10 ** int(f"{max(ys) / 4:e}".split("e")[1])
    step = next(m * magnitude for m in (1, 2, 5, 10) if 4 * m * magnitude >= max(ys))
    ymax = 4 * step
    ticks = [step * i for i in range(5)]
    grid = " ".join(f"M 0 {h - h * t / ymax:.1f} L {w} {h - h * t / ymax:.1f}" for t in ticks)
    layers.append({"type": "shape", "position": [x0, y0], "path": grid, "fillColor": None,
                   "strokeColor": "#e2e8f0", "lineWidth": 1})
    layers.append({"type": "shape", "position": [x0, y0], "path": f"M 0 0 L 0 {h} L {w} {h}", "fillColor": None,
                   "strokeColor": "#64748b", "lineWidth": 1.5})
    for t in ticks:
        layers.append(text(f"{t:g} ms", x0 - 64, y0 + h - h * t / ymax - 9, 58, 18, size=11, align="right"))
    for xv in sorted(set(xs)):
        layers.append(text(xfmt(xv), x0 + w * xv / xmax - 30, y0 + h + 6, 60, 18, size=11, align="center"))
    layers.append(text(xlabel, x0, y0 + h + 28, w, 18, size=12, align="center"))
    for backend, pts in series.items():
        coords = [(w * px / xmax, h - h * py / ymax) for px, py in pts]
        path = "M " + " L ".join(f"{cx:.1f} {cy:.1f}" for cx, cy in coords)
        layers.append({"type": "shape", "position": [x0, y0], "path": path, "fillColor": None,
                       "strokeColor": COLORS[backend], "lineWidth": 2.5, "lineJoin": "round", "lineCap": "round"})
        for cx, cy in coords:
            layers.append({"bounds": [0, 0, 8, 8], "position": [x0 + cx, y0 + cy], "cornerRadius": 4,
                           "backgroundColor": COLORS[backend]})
    return layers


def chart(series):
    width, height = 1000, 460
    layers = [text("One frame, JSON in to PNG out (lamina bench --decode --png, median)", 40, 16, 920, 26,
                   size=18, color="#0f172a")]
    layers += panel(110, 110, 340, 250, "Against canvas size: the card", "megapixels",
                    series["canvas"], lambda v: f"{v:.2g}")
    layers += panel(600, 110, 340, 250, "Against layer count: the tiles", "layers",
                    series["layers"], lambda v: f"{v:g}")
    for i, backend in enumerate(("cpu", "gl")):
        layers.append({"bounds": [0, 0, 24, 4], "position": [130 + 250 * i, 425], "backgroundColor": COLORS[backend]})
        layers.append(text(NAMES[backend], 148 + 250 * i, 416, 220, 18, size=12))
    return {"width": width, "height": height, "backgroundColor": "#ffffff", "sublayers": layers}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lamina", default=os.path.join(ROOT, ".build", "release", "lamina"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks-chart.png"))
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--figures", help="a JSON file of figures from an earlier run, instead of measuring")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        series = json.load(open(args.figures)) if args.figures else measure(args.lamina, args.frames, work)
        print("| case | x | cpu ms | gl ms |\n|---|---|---|---|")
        for kind in ("canvas", "layers"):
            for (x, cpu), (_, gl) in zip(series[kind]["cpu"], series[kind]["gl"]):
                print(f"| {kind} | {x:g} | {cpu:.1f} | {gl:.1f} |")
        json.dump(series, open(os.path.join(work, "figures.json"), "w"))
        scene = os.path.join(work, "chart.json")
        json.dump(chart(series), open(scene, "w"))
        subprocess.run([args.lamina, "render", scene, "--backend", "cpu", "--scale", "2", "--output", args.out], check=True)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
