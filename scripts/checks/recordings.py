#!/usr/bin/env python3
"""The community wallpapers of ../shared/caml-corpus against the screen
recordings of them running on phones: the reference for CAML.

    LAMINA=.build/debug/lamina scripts/checks/recordings.py [--pictures docs/images/wallpapers]

For each recording, the wallpaper is drawn as the phone shows it (`--device`
for the phone's screen, `--preview` held on the lock screen, the recording's
appearance) and compared with the recording where the lock screen leaves the
wallpaper free: below the clock and widgets (the top third) and above the
buttons (the bottom eighth).

The phone's wallpaper had been running for a while when the recording
began, and its particles are random: no frame of ours can be the recording's
frame. So both are averaged over several frames (the recording's over its
lock-screen seconds, ours over ten seconds of a wallpaper that has run for
ten minutes, long enough for its particles to fill the screen) and compared on a coarse grid: each cell's mean colour, the
distance between them (0 to 1 per channel, Euclidean over RGB / √3). The
same layers in the same places make most cells agree; a layer missing,
moved or coloured otherwise makes the cells it covers disagree. What the
tolerances allow and why:

  - a cell agrees within 0.12: the recording is H.264 video, darkened by the
    lock screen's dimming (a few percent) and its edges softened;
  - 75% of the cells agree: the averages of random particles are not
    uniform over ten seconds (a cell a star crossed twice is brighter).
A starfield is also compared by its stars: the share of the free area that
is bright (stars and sprinkles) in one frame, ours against the recording's,
within a factor of two: density, not the particles themselves.
"""
import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageChops, ImageStat

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "..", "shared", "caml-corpus")
LAMINA = os.environ.get("LAMINA", os.path.join(ROOT, ".build", "debug", "lamina"))

# name: the phone's screen (the recording's aspect, at 3x), the appearance,
# the recording's lock-screen seconds, what is compared ("layout", "density"),
# and what Lamina is known to draw otherwise, by comparison.
RECORDINGS = {
    "TintedCubes": ("402x874@3", "Dark", (0.0, 7.5), ["layout"], {}),
    "RainbowSprinkles": ("360x720@3", "Dark", (0.0, 5.5), ["layout", "density"], {}),
    # A starfield: a black backdrop under stars, fog and planets placed at
    # random, so it is compared by its stars' density, not their places.
    "Space": ("390x844@3", "Dark", (0.0, 15.0), ["density"], {}),
    "Snoopy": ("428x926@3", "Dark", (1.5, 6.0), ["layout"], {}),
}
WIDTH = 150          # pixels across both pictures are compared at
START = 600          # seconds the wallpaper has run: particles of lives up to 500 s are in their steady state
GRID = (9, 12)       # cells across and down the free area
FRAMES = 6
CELL_TOLERANCE = 0.12
AGREEING_SHARE = 0.75

passed = failed = known = 0


def check(name, ok, detail="", known_issue=None):
    """A comparison; one Lamina is known to fail is reported as KNOWN with
    why, and one that passes although it is listed as known says so (the
    list is then out of date, which fails)."""
    global passed, failed, known
    if known_issue and not ok:
        print(f"KNOWN {name}  ({detail}; {known_issue})")
        known += 1
        return
    if known_issue and ok:
        print(f"FAIL  {name}  (passes, but is listed as a known difference: update RECORDINGS)")
        failed += 1
        return
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok else f"  ({detail})"))
    if ok:
        passed += 1
    else:
        failed += 1


def free_area(image):
    """The part the lock screen leaves free: below the top third, above the bottom eighth."""
    w, h = image.size
    return image.crop((0, h // 3, w, h - h // 8))


def mean_image(images):
    acc = images[0].convert("RGB")
    for k, image in enumerate(images[1:], start=2):
        acc = Image.blend(acc, image.convert("RGB"), 1.0 / k)
    return acc


def recording_frames(name, window, size):
    path = os.path.join(CORPUS, "recordings", name + ".mov")
    t0, t1 = window
    frames = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(FRAMES):
            t = t0 + (t1 - t0) * (k + 0.5) / FRAMES
            out = os.path.join(tmp, f"{k}.png")
            subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-ss", f"{t:.2f}", "-i", path, "-frames:v", "1", out], check=True)
            frames.append(Image.open(out).convert("RGB").resize(size, Image.BILINEAR))
    return frames


def our_frames(name, device, appearance, size):
    points = device.split("@")[0].split("x")
    scale = size[0] / float(points[0])
    frames = []
    with tempfile.TemporaryDirectory() as tmp:
        command = [LAMINA, "frames", os.path.join(CORPUS, "wallpapers", name + ".tendies"), "--device", device,
                   "--preview", "--unlock-at", "100000", "--appearance", appearance, "--from", str(START), "--duration", "10",
                   "--fps", str(FRAMES / 10), "--scale", f"{scale / float(device.split('@')[1]):.6f}", "--backend", "cpu",
                   "--quiet", "--output", tmp]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            return None, run.stderr
        for f in sorted(os.listdir(tmp)):
            frames.append(Image.open(os.path.join(tmp, f)).convert("RGB").resize(size, Image.BILINEAR))
    return frames, ""


def cells(image):
    w, h = image.size
    out = []
    for j in range(GRID[1]):
        for i in range(GRID[0]):
            box = (i * w // GRID[0], j * h // GRID[1], (i + 1) * w // GRID[0], (j + 1) * h // GRID[1])
            out.append([c / 255.0 for c in ImageStat.Stat(image.crop(box)).mean[:3]])
    return out


def bright_share(image):
    grey = image.convert("L")
    histogram = grey.histogram()
    return sum(histogram[200:]) / float(sum(histogram))


def main():
    pictures = None
    if "--pictures" in sys.argv:
        pictures = sys.argv[sys.argv.index("--pictures") + 1]
    for name, (device, appearance, window, compared, differences) in RECORDINGS.items():
        w, h = (float(v) for v in device.split("@")[0].split("x"))
        size = (WIDTH, int(round(WIDTH * h / w)))
        theirs = recording_frames(name, window, size)
        ours, err = our_frames(name, device, appearance, size)
        if ours is None:
            check(f"{name}: drawn as the phone shows it", False, err.strip()[-300:])
            continue
        if "layout" in compared:
            a, b = free_area(mean_image(theirs)), free_area(mean_image(ours))
            distances = [sum((x - y) ** 2 for x, y in zip(p, q)) ** 0.5 / 3 ** 0.5 for p, q in zip(cells(a), cells(b))]
            agreeing = sum(d <= CELL_TOLERANCE for d in distances) / float(len(distances))
            check(f"{name}: the same layers in the same places ({agreeing:.0%} of the free area's cells within {CELL_TOLERANCE})",
                  agreeing >= AGREEING_SHARE, f"{agreeing:.0%} agree, mean distance {sum(distances) / len(distances):.3f}",
                  differences.get("layout"))
        if "density" in compared:
            theirs_bright = sum(bright_share(free_area(f)) for f in theirs) / len(theirs)
            ours_bright = sum(bright_share(free_area(f)) for f in ours) / len(ours)
            ratio = ours_bright / theirs_bright if theirs_bright > 0 else float("inf")
            check(f"{name}: particles as dense as the phone's (ours {ours_bright:.2%} of the free area bright, the phone's {theirs_bright:.2%})",
                  0.5 <= ratio <= 2.0, f"ratio {ratio:.2f}", differences.get("density"))
        if pictures:
            side = Image.new("RGB", (2 * size[0] + 8, size[1]), (255, 255, 255))
            side.paste(theirs[FRAMES // 2], (0, 0))
            side.paste(ours[FRAMES // 2], (size[0] + 8, 0))
            os.makedirs(pictures, exist_ok=True)
            side.save(os.path.join(pictures, name + ".png"), optimize=True)
    print(f"{passed} passed, {failed} failed" + (f", {known} known" if known else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
