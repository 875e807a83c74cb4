#!/usr/bin/env python3
"""Side by side: Lamina's CPU rasterizer against Skia's CPU raster.

  scripts/bench-skia.py [SCENE.json] [--frames N] [--lamina PATH]

Draws the shape layers of a scene (default ../shared/bench/shapes-200-stars.json:
200 rotated 40-vertex stars, filled and stroked) with skia-python, the same
paths, colours, line widths and joins, anti-aliased, on a raster surface of
the scene's size; then runs `lamina bench` on the same scene with the CPU
backend, in the same run, and prints both medians and their ratio.

Needs skia-python and numpy (pip install skia-python numpy; the script makes
a venv under ~/.cache when run without them). Only what the bench scenes use
is supported: shape layers with operation-array paths (moveTo, lineTo,
close), position, bounds, anchor point and a rotation about z.
"""
import json, math, os, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def ensure_skia():
    try:
        import skia  # noqa: F401
        return
    except ImportError:
        pass
    venv = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "lamina-skia-venv")
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", "skia-python", "numpy"], check=True)
    os.execv(py, [py] + sys.argv)


def color(c):
    import skia
    if c is None:
        return None
    if isinstance(c, str):
        h = c.lstrip("#")
        if len(h) == 3:
            h = "".join(x * 2 for x in h)
        a = int(h[6:8], 16) if len(h) == 8 else 255
        return skia.Color(int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), a)
    a = c[3] if len(c) > 3 else 1
    return skia.Color(*(round(v * 255) for v in (c[0], c[1], c[2], a)))


def build(scene):
    """Skia paths and paints for each shape layer, in canvas coordinates."""
    import skia
    items = []
    for layer in scene.get("sublayers", []):
        if layer.get("type") != "shape":
            raise SystemExit("bench-skia: only shape layers are supported")
        bx, by, w, h = layer.get("bounds", [0, 0, 0, 0])
        px, py = layer.get("position", [0, 0])
        ax, ay = layer.get("anchorPoint", [0.5, 0.5])
        angle = 0.0
        for op in layer.get("transform", []):
            (name, arg), = op.items()
            if name != "rotate" or list(arg[1:]) != [0, 0, 1]:
                raise SystemExit("bench-skia: only rotations about z are supported")
            angle += arg[0]
        path = skia.Path()
        for op in layer["path"]:
            if op[0] == "moveTo":
                path.moveTo(op[1], op[2])
            elif op[0] == "lineTo":
                path.lineTo(op[1], op[2])
            elif op[0] == "close":
                path.close()
            else:
                raise SystemExit("bench-skia: unsupported path operation " + op[0])
        m = skia.Matrix()
        m.setTranslate(-(bx + ax * w), -(by + ay * h))
        m.postRotate(math.degrees(angle))
        m.postTranslate(px, py)
        path.transform(m)
        fill = skia.Paint(AntiAlias=True, Color=color(layer.get("fillColor", "#000000")))
        stroke = None
        if layer.get("strokeColor") is not None:
            join = {"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join,
                    "bevel": skia.Paint.kBevel_Join}[layer.get("lineJoin", "miter")]
            stroke = skia.Paint(AntiAlias=True, Color=color(layer["strokeColor"]), Style=skia.Paint.kStroke_Style,
                                StrokeWidth=layer.get("lineWidth", 1), StrokeJoin=join)
        items.append((path, fill, stroke))
    return items


def skia_frames(scene, frames):
    import skia
    items = build(scene)
    w, h = math.ceil(scene["width"]), math.ceil(scene["height"])
    surface = skia.Surface(w, h)
    background = color(scene.get("backgroundColor", "clear")) if scene.get("backgroundColor") != "clear" else skia.ColorTRANSPARENT
    draw, with_png = [], []
    for i in range(frames + 3):
        t0 = time.perf_counter()
        with surface as canvas:
            canvas.clear(background)
            for path, fill, stroke in items:
                canvas.drawPath(path, fill)
                if stroke is not None:
                    canvas.drawPath(path, stroke)
        # A raster canvas draws synchronously: the pixels are there now.
        image = surface.makeImageSnapshot()
        t1 = time.perf_counter()
        image.encodeToData()  # PNG
        t2 = time.perf_counter()
        if i >= 3:
            draw.append((t1 - t0) * 1000)
            with_png.append((t2 - t0) * 1000)
    return statistics.median(draw), statistics.median(with_png)


def lamina_frames(lamina, scene_path, frames):
    out = subprocess.run([lamina, "bench", scene_path, "--backend", "cpu", "--frames", str(frames), "--png"],
                         check=True, capture_output=True, text=True).stdout
    # The case's row (the line after it summarises the plan):
    # case backend total / best decode snapshot plan render png KB
    row = next(line for line in out.splitlines() if line.startswith(os.path.basename(scene_path))).split()
    total, snapshot, plan, render = float(row[2]), float(row[6]), float(row[7]), float(row[8])
    return snapshot + plan + render, total


def main(argv):
    ensure_skia()
    scene_path = os.path.join(ROOT, "..", "shared", "bench", "shapes-200-stars.json")
    frames, lamina = 20, None
    i = 0
    while i < len(argv):
        if argv[i] == "--frames":
            frames = int(argv[i + 1]); i += 2
        elif argv[i] == "--lamina":
            lamina = argv[i + 1]; i += 2
        else:
            scene_path = argv[i]; i += 1
    if lamina is None:
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                  check=True, capture_output=True, text=True).stdout.strip()
        lamina = os.path.join(bin_path, "lamina")
    with open(scene_path) as f:
        scene = json.load(f)
    s_draw, s_png = skia_frames(scene, frames)
    l_draw, l_png = lamina_frames(lamina, scene_path, frames)
    print("%-28s %12s %14s" % ("median per frame, ms", "draw", "draw + PNG"))
    print("%-28s %12.2f %14.2f" % ("Skia CPU raster", s_draw, s_png))
    print("%-28s %12.2f %14.2f" % ("Lamina CPU backend", l_draw, l_png))
    print("%-28s %12.2f %14.2f" % ("ratio (Lamina / Skia)", l_draw / s_draw, l_png / s_png))


if __name__ == "__main__":
    main(sys.argv[1:])
