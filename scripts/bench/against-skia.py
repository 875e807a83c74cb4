#!/usr/bin/env python3
"""Side by side: Lamina's CPU rasterizer against Skia's CPU raster.

  scripts/bench/against-skia.py [SCENE.json ...] [--frames N] [--lamina PATH]

Draws each scene (default: the three of ../shared/bench) with skia-python
on a raster surface of the scene's size, the same layers with the same
geometry, colours and anti-aliasing, then runs `lamina bench` on the same
scene with the CPU backend, in the same run, and prints both medians
(draw alone: Lamina's snapshot + plan + render against Skia's drawing into
its surface; and draw + PNG) and their ratio, with what skia-python's calls
cost without drawing (part of Skia's figure that C++ users do not pay).

What is mapped is what the bench scenes use: layers with bounds, position,
anchor point, transform and sublayerTransform (4x4 matrices, flattened into
each layer's plane as Core Animation does, drawn through Skia's projective
matrices), background colour, corner radius, border, a shadow (Skia's
blur mask filter of the same sigma, under the layer's rounded rectangle),
axial gradient layers, shape layers (paths of moveTo, lineTo, curves,
close and rounded rectangles; fill and stroke with their joins) and text
layers (DejaVu Sans through Skia's text, wrapped greedily at the bounds).
Anything else is refused, not skipped.

Needs skia-python and numpy (pip install skia-python numpy; the script makes
a venv under ~/.cache when run without them).
"""
import json, math, os, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


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


def color(c, alpha=1.0):
    import skia
    if c is None or c == "clear":
        return skia.ColorTRANSPARENT
    if isinstance(c, str):
        h = c.lstrip("#")
        if len(h) in (3, 4):
            h = "".join(x * 2 for x in h)
        a = int(h[6:8], 16) if len(h) == 8 else 255
        return skia.Color(int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), round(a * alpha))
    a = c[3] if len(c) > 3 else 1
    return skia.Color(*(round(v * 255) for v in (c[0], c[1], c[2])), round(a * alpha * 255))


# 4x4 matrices as CATransform3D: row vectors, p' = p . M.
def translate(x, y, z=0.0):
    import numpy as np
    m = np.identity(4)
    m[3, 0:3] = (x, y, z)
    return m


def rotate(angle, x, y, z):
    import numpy as np
    n = math.sqrt(x * x + y * y + z * z)
    if n == 0:
        return np.identity(4)
    x, y, z = x / n, y / n, z / n
    c, s, t = math.cos(angle), math.sin(angle), 1 - math.cos(angle)
    # Rodrigues' rotation for column vectors, transposed for row vectors.
    r = np.array([[t * x * x + c, t * x * y - s * z, t * x * z + s * y],
                  [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
                  [t * x * z - s * y, t * y * z + s * x, t * z * z + c]])
    m = np.identity(4)
    m[0:3, 0:3] = r.T
    return m


def transform(value):
    """A scene transform (16 numbers or operations) as a 4x4 matrix."""
    import numpy as np
    if value is None:
        return np.identity(4)
    if value and not isinstance(value[0], dict):
        return np.array(value, dtype=float).reshape(4, 4)
    t = np.identity(4)
    for op in value:
        (name, arg), = op.items()
        if name == "translate":
            t = translate(*arg) @ t
        elif name == "scale":
            m = np.identity(4)
            m[0, 0], m[1, 1], m[2, 2] = arg
            t = m @ t
        elif name == "rotate":
            t = rotate(*arg) @ t
        elif name == "rotateDegrees":
            t = rotate(math.radians(arg[0]), *arg[1:]) @ t
        elif name == "perspective":
            p = np.identity(4)
            p[2, 3] = -1 / arg
            t = p @ t
        else:
            raise SystemExit("bench-skia: transform operation %r is not supported" % name)
    return t


def skia_matrix(m):
    """The 3x3 projective map of the z = 0 plane under 4x4 `m`."""
    import skia
    return skia.Matrix.MakeAll(m[0, 0], m[1, 0], m[3, 0], m[0, 1], m[1, 1], m[3, 1], m[0, 3], m[1, 3], m[3, 3])


def path_of(ops):
    import skia
    path = skia.Path()
    for op in ops:
        name, a = op[0], op[1:]
        if name == "moveTo":
            path.moveTo(*a)
        elif name == "lineTo":
            path.lineTo(*a)
        elif name == "quadTo":
            path.quadTo(*a)
        elif name == "curveTo":
            path.cubicTo(*a)
        elif name == "close":
            path.close()
        elif name == "rect":
            path.addRect(skia.Rect.MakeXYWH(*a))
        elif name == "roundedRect":
            path.addRRect(skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(*a[0:4]), a[4], a[4]))
        else:
            raise SystemExit("bench-skia: path operation %r is not supported" % name)
    return path


SUPPORTED = {"type", "name", "width", "height", "bounds", "position", "anchorPoint", "transform", "sublayerTransform",
             "backgroundColor", "cornerRadius", "borderWidth", "borderColor", "shadowOpacity", "shadowRadius",
             "shadowOffset", "shadowColor", "sublayers", "colors", "startPoint", "endPoint", "path", "fillColor",
             "strokeColor", "lineWidth", "lineJoin", "string", "font", "fontSize", "foregroundColor", "wrapped"}


def build(scene):
    """Draw calls, each (4x4 matrix to the canvas, function drawing on a canvas in layer coordinates)."""
    import numpy as np
    import skia
    calls = []
    flatten = np.identity(4)
    flatten[2, 2] = 0

    def visit(layer, to_parent, is_root):
        unknown = set(layer) - SUPPORTED
        if unknown:
            raise SystemExit("bench-skia: keys %s are not supported" % sorted(unknown))
        if is_root:
            bx, by, w, h = 0, 0, layer["width"], layer["height"]
            m = np.identity(4)
        else:
            bx, by, w, h = layer.get("bounds", [0, 0, 0, 0])
            ax, ay = layer.get("anchorPoint", [0.5, 0.5])
            px, py = layer.get("position", [0, 0])
            local = translate(-(bx + ax * w), -(by + ay * h)) @ transform(layer.get("transform")) @ translate(px, py)
            m = local @ to_parent
        rect = skia.Rect.MakeXYWH(bx, by, w, h)
        radius = layer.get("cornerRadius", 0)
        rrect = skia.RRect.MakeRectXY(rect, radius, radius)
        if layer.get("shadowOpacity", 0) > 0:
            dx, dy = layer.get("shadowOffset", [0, -3])
            paint = skia.Paint(AntiAlias=True, Color=color(layer.get("shadowColor", "#000000"), layer["shadowOpacity"]),
                               MaskFilter=skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle, layer.get("shadowRadius", 3)))
            shadow = skia.RRect(rrect)
            shadow.offset(dx, dy)
            calls.append((m, lambda c, p=paint, r=shadow: c.drawRRect(r, p)))
        if layer.get("backgroundColor") not in (None, "clear"):
            paint = skia.Paint(AntiAlias=True, Color=color(layer["backgroundColor"]))
            calls.append((m, lambda c, p=paint, r=rrect: c.drawRRect(r, p)))
        kind = layer.get("type", "layer")
        if kind == "gradient":
            sx, sy = layer.get("startPoint", [0.5, 0])
            ex, ey = layer.get("endPoint", [0.5, 1])
            shader = skia.GradientShader.MakeLinear(
                [skia.Point(bx + sx * w, by + sy * h), skia.Point(bx + ex * w, by + ey * h)],
                [color(c) for c in layer["colors"]])
            paint = skia.Paint(AntiAlias=True, Shader=shader)
            calls.append((m, lambda c, p=paint, r=rect: c.drawRect(r, p)))
        elif kind == "shape":
            path = path_of(layer["path"])
            if layer.get("fillColor", "#000000") != "clear":
                fill = skia.Paint(AntiAlias=True, Color=color(layer.get("fillColor", "#000000")))
                calls.append((m, lambda c, p=fill, q=path: c.drawPath(q, p)))
            if layer.get("strokeColor") is not None:
                join = {"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join,
                        "bevel": skia.Paint.kBevel_Join}[layer.get("lineJoin", "miter")]
                stroke = skia.Paint(AntiAlias=True, Color=color(layer["strokeColor"]), Style=skia.Paint.kStroke_Style,
                                    StrokeWidth=layer.get("lineWidth", 1), StrokeJoin=join)
                calls.append((m, lambda c, p=stroke, q=path: c.drawPath(q, p)))
        elif kind == "text":
            font = skia.Font(skia.Typeface(layer.get("font", "DejaVu Sans")), layer.get("fontSize", 36))
            paint = skia.Paint(AntiAlias=True, Color=color(layer.get("foregroundColor", "#ffffff")))
            lines, line = [], ""
            for word in layer["string"].split():
                candidate = (line + " " + word).strip()
                if line and layer.get("wrapped") and font.measureText(candidate) > w:
                    lines.append(line)
                    line = word
                else:
                    line = candidate
            lines.append(line)
            spacing = font.getSpacing()

            def text(c, lines=lines, font=font, paint=paint, spacing=spacing):
                for i, l in enumerate(lines):
                    c.drawString(l, bx, by + spacing * (i + 1) - font.getMetrics().fDescent, font, paint)
            calls.append((m, text))
        elif kind != "layer":
            raise SystemExit("bench-skia: layer type %r is not supported" % kind)
        if layer.get("borderWidth", 0) > 0:
            bw = layer["borderWidth"]
            inner = skia.RRect(rrect)
            inner.inset(bw / 2, bw / 2)
            paint = skia.Paint(AntiAlias=True, Color=color(layer.get("borderColor", "#000000")),
                               Style=skia.Paint.kStroke_Style, StrokeWidth=bw)
            calls.append((m, lambda c, p=paint, r=inner: c.drawRRect(r, p)))
        # Sublayers: the sublayer transform about the anchor, into this plane.
        ax, ay = (0.5, 0.5) if is_root else layer.get("anchorPoint", [0.5, 0.5])
        anchor = (bx + ax * w, by + ay * h)
        sub_transform = translate(-anchor[0], -anchor[1]) @ transform(layer.get("sublayerTransform")) @ translate(*anchor)
        # Into this layer's plane, then flattened there (not a transform layer).
        sub = sub_transform @ flatten @ m
        children = layer.get("sublayers", [])
        if layer.get("sublayerTransform") is not None:
            # Sublayers sharing a 3D space are drawn back to front (as Lamina's
            # depth sorter and Chromium draw them): by the depth of their centres.
            def depth(child):
                cbx, cby, cw, ch = child.get("bounds", [0, 0, 0, 0])
                cax, cay = child.get("anchorPoint", [0.5, 0.5])
                cpx, cpy = child.get("position", [0, 0])
                local = translate(-(cbx + cax * cw), -(cby + cay * ch)) @ transform(child.get("transform")) @ translate(cpx, cpy)
                p = np.array([cbx + cw / 2, cby + ch / 2, 0, 1]) @ local @ sub_transform
                return p[2] / p[3]
            children = sorted(children, key=depth)
        for child in children:
            visit(child, sub, False)

    visit(scene, None, True)
    return calls


def skia_frames(scene, frames):
    import skia
    calls = build(scene)
    w, h = math.ceil(scene["width"]), math.ceil(scene["height"])
    surface = skia.Surface(w, h)
    draw, with_png, calls_alone = [], [], []
    for i in range(frames + 3):
        # The same Python calls without drawing: skia-python's cost per call
        # (about a microsecond), which C++ users of Skia do not pay.
        t0 = time.perf_counter()
        with surface as canvas:
            for matrix, call in calls:
                canvas.save()
                canvas.concat(skia_matrix(matrix))
                canvas.restore()
        if i >= 3:
            calls_alone.append((time.perf_counter() - t0) * 1000)

        t0 = time.perf_counter()
        with surface as canvas:
            canvas.clear(skia.ColorTRANSPARENT)
            for matrix, call in calls:
                canvas.save()
                canvas.concat(skia_matrix(matrix))
                call(canvas)
                canvas.restore()
        # A raster canvas draws synchronously: the pixels are there now.
        image = surface.makeImageSnapshot()
        t1 = time.perf_counter()
        image.encodeToData()  # PNG
        t2 = time.perf_counter()
        if i >= 3:
            draw.append((t1 - t0) * 1000)
            with_png.append((t2 - t0) * 1000)
    return statistics.median(draw), statistics.median(with_png), statistics.median(calls_alone), surface.makeImageSnapshot()


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
    scenes, frames, lamina, save = [], 20, None, None
    i = 0
    while i < len(argv):
        if argv[i] == "--frames":
            frames = int(argv[i + 1]); i += 2
        elif argv[i] == "--lamina":
            lamina = argv[i + 1]; i += 2
        elif argv[i] == "--save":  # a folder for Skia's pictures, to look at
            save = argv[i + 1]; i += 2
        else:
            scenes.append(argv[i]); i += 1
    if not scenes:
        bench = os.path.join(ROOT, "..", "shared", "bench")
        scenes = [os.path.join(bench, n) for n in ("card-1200x630.json", "tiles-1000-layers.json", "shapes-200-stars.json")]
    if lamina is None:
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                  check=True, capture_output=True, text=True).stdout.strip()
        lamina = os.path.join(bin_path, "lamina")
    print("| scene | Skia draw | Skia's Python calls alone | Lamina draw | ratio | Skia draw + PNG | Lamina draw + PNG | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for scene_path in scenes:
        with open(scene_path) as f:
            scene = json.load(f)
        s_draw, s_png, s_calls, picture = skia_frames(scene, frames)
        if save:
            os.makedirs(save, exist_ok=True)
            picture.save(os.path.join(save, os.path.basename(scene_path).replace(".json", ".png")))
        l_draw, l_png = lamina_frames(lamina, scene_path, frames)
        print("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            os.path.basename(scene_path).replace(".json", ""), s_draw, s_calls, l_draw, l_draw / s_draw,
            s_png, l_png, l_png / s_png))


if __name__ == "__main__":
    main(sys.argv[1:])
