#!/usr/bin/env python3
"""Random scenes through `lamina render` on both backends.

  scripts/fuzz/render.py [--seeds A:B] [--lamina PATH] [--timeout S] [--keep DIR]

Each seed makes one random but valid-looking scene: deep trees of every layer
type, extreme and singular transforms (zero scales, perspective at the eye,
huge sizes), masks, shadows, dashes down to 0.001, text. Each is rendered with
`--backend gl` and `--backend cpu`. A seed fails when lamina crashes, hangs
past the timeout, or fails to render a scene it accepted (exit 1 with a JSON
location is a refusal, which is fine), or when the two backends' pictures
differ beyond compare.py's rule. Not part of scripts/test.sh (minutes, not
seconds); run it after changing the planner or a backend.
"""
import json, os, random, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPARE = os.path.join(ROOT, "..", "shared", "conformance", "compare.py")


class SceneMaker:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def color(self):
        r = self.r
        return r.choice(["#ff0000", "#00ff0080", [r.random(), r.random(), r.random(), r.random()], "clear"])

    def transform(self):
        r, ops = self.r, []
        for _ in range(r.randint(0, 3)):
            k = r.choice(["translate", "scale", "rotate", "perspective", "rotateDegrees"])
            if k == "translate":
                ops.append({k: [r.uniform(-500, 500), r.uniform(-500, 500), r.uniform(-800, 800)]})
            elif k == "scale":
                ops.append({k: [r.choice([0, 1e-6, r.uniform(-5, 5), 1000]), r.uniform(-5, 5), r.uniform(-5, 5)]})
            elif k == "rotate":
                ops.append({k: [r.uniform(-7, 7), r.random(), r.random(), r.random() + 0.01]})
            elif k == "rotateDegrees":
                ops.append({k: [r.choice([90, 180, 89.999, 270]), r.choice([0, 1]), 1, 0]})
            else:
                ops.append({k: r.choice([1, 10, 100, 500, 1e6, -200])})
        return ops

    def layer(self, depth, mask=False):
        r = self.r
        L = {"bounds": [r.uniform(-50, 50), r.uniform(-50, 50), r.choice([0, 0.001, r.uniform(0, 300), 5000]),
                        r.choice([0, r.uniform(0, 300), 20000])],
             "position": [r.uniform(-100, 400), r.uniform(-100, 400)]}
        t = r.random()
        if t < 0.15 and not mask:
            L["type"] = "transform"
        elif t < 0.35:
            L["type"] = "shape"
            L["path"] = r.choice(["M 0 0 L 100 0 L 50 80 Z", "M 0 0 C 100 0 0 100 100 100",
                                  [["arc", 50, 50, 40, 0, 6.283, True]], [["moveTo", 0, 0]],
                                  [["roundedRect", 0, 0, 80, 40, 100]]])
            L["strokeColor"] = self.color()
            L["lineWidth"] = r.choice([0, 1, 30])
            L["lineDashPattern"] = r.choice([[], [1, 2], [0, 5], [1e-3, 1e-3]])
            L["lineJoin"] = r.choice(["miter", "round", "bevel"])
            L["lineCap"] = r.choice(["butt", "round", "square"])
        elif t < 0.45:
            L["type"] = "gradient"
            L["colors"] = [self.color(), self.color()]
            L["gradientType"] = r.choice(["axial", "radial", "conic"])
        elif t < 0.5:
            L["type"] = "replicator"
            L["instanceCount"] = r.randint(0, 5)
            L["instanceTransform"] = self.transform()
        elif t < 0.55:
            L["type"] = "text"
            L["string"] = r.choice(["Hello", "שלום world", "a" * 300, ""])
            L["wrapped"] = r.random() < 0.5
            L["truncationMode"] = r.choice(["none", "end", "middle"])
        if r.random() < 0.5: L["backgroundColor"] = self.color()
        if r.random() < 0.4: L["transform"] = self.transform()
        if r.random() < 0.3: L["sublayerTransform"] = self.transform()
        if r.random() < 0.2: L["opacity"] = r.random()
        if r.random() < 0.2: L["cornerRadius"] = r.uniform(0, 200)
        if r.random() < 0.2: L["borderWidth"] = r.uniform(0, 50)
        if r.random() < 0.2: L["masksToBounds"] = True
        if r.random() < 0.15:
            L["shadowOpacity"] = r.random()
            L["shadowRadius"] = r.choice([0, 3, 40, 200])
        if r.random() < 0.1: L["doubleSided"] = False
        if r.random() < 0.1: L["geometryFlipped"] = True
        if r.random() < 0.15:
            L["contents"] = {"checker": [r.randint(1, 40), r.randint(1, 40), r.randint(1, 8)],
                             "colors": [self.color(), self.color()]}
            L["contentsGravity"] = r.choice(["center", "top", "resizeAspectFill", "resize"])
            L["contentsCenter"] = r.choice([[0, 0, 1, 1], [0.3, 0.3, 0.4, 0.4]])
        if depth < 3 and r.random() < 0.6:
            L["sublayers"] = [self.layer(depth + 1) for _ in range(r.randint(1, 4))]
        if depth < 2 and r.random() < 0.1 and L.get("type") != "transform":
            L["mask"] = self.layer(3, mask=True)
        return L

    def scene(self):
        r = self.r
        s = {"width": r.choice([10, 200, 333]), "height": r.choice([10, 150, 257]), "scale": r.choice([1, 2, 0.5]),
             "origin": r.choice(["topLeft", "bottomLeft"]), "sublayers": [self.layer(0) for _ in range(r.randint(1, 4))]}
        if r.random() < 0.3:
            s["sublayerTransform"] = [{"perspective": 300}, {"rotateDegrees": [r.uniform(-80, 80), 1, 0, 0]}]
        return s


def main(argv):
    seeds, lamina, timeout, keep = (1, 100), None, 30, None
    i = 0
    while i < len(argv):
        if argv[i] == "--seeds":
            a, b = argv[i + 1].split(":"); seeds = (int(a), int(b)); i += 2
        elif argv[i] == "--lamina":
            lamina = argv[i + 1]; i += 2
        elif argv[i] == "--timeout":
            timeout = float(argv[i + 1]); i += 2
        elif argv[i] == "--keep":
            keep = argv[i + 1]; i += 2
        else:
            print(__doc__); return 2
    if lamina is None:
        lamina = os.path.join(subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                                             capture_output=True, text=True).stdout.strip(), "lamina")
    venv_python = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                               "lamina-conformance-venv", "bin", "python")
    work = keep or tempfile.mkdtemp(prefix="lamina-fuzz-")
    os.makedirs(work, exist_ok=True)
    failures = 0
    for seed in range(seeds[0], seeds[1] + 1):
        path = os.path.join(work, "s%d.json" % seed)
        with open(path, "w") as f:
            json.dump(SceneMaker(seed).scene(), f)
        outputs = {}
        for backend in ("gl", "cpu"):
            png = os.path.join(work, "s%d.%s.png" % (seed, backend))
            try:
                run = subprocess.run([lamina, "render", path, "--output", png, "--backend", backend],
                                     capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                print("seed %d %s: hung past %gs" % (seed, backend, timeout)); failures += 1; continue
            if run.returncode == 1 and "$." in run.stderr:
                continue  # refused with a location: the generator made an invalid scene
            if run.returncode != 0:
                print("seed %d %s: exit %d: %s" % (seed, backend, run.returncode, run.stderr.strip()[-300:]))
                failures += 1; continue
            outputs[backend] = png
        if len(outputs) == 2 and os.path.exists(venv_python) and os.path.exists(COMPARE):
            cmp = subprocess.run([venv_python, COMPARE, outputs["gl"], outputs["cpu"]], capture_output=True, text=True)
            if cmp.returncode != 0:
                print("seed %d: backends disagree: %s" % (seed, cmp.stdout.strip())); failures += 1
    total = seeds[1] - seeds[0] + 1
    print("%d passed, %d failed" % (total - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
