#!/usr/bin/env python3
"""Apple's scene files through the command line: the example wallpaper
(examples/wallpapers/Orbit.wallpaper: three .ca bundles with animations that
repeat for ever, states and a transition) rendered, played, converted and
zipped as a .tendies archive.

    LAMINA=.build/debug/lamina scripts/checks/caml.py

Checks that `lamina frames` turns the wallpaper into a looping animated PNG
and an MP4 of the length asked for, that `lamina convert`'s scene JSON draws
the same pixels, that states, transitions and --strict do what they say,
that a .tendies archive and a CAML document on standard input read, and that
bad input fails with its place. Prints one line per check and
"N passed, M failed".
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

from checks import check, finish

LAMINA = os.environ.get("LAMINA", ".build/debug/lamina")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WALLPAPER = os.path.join(ROOT, "examples", "wallpapers", "Orbit.wallpaper")
OUT = tempfile.mkdtemp(prefix="lamina-caml-")


def run(*args, stdin=None):
    result = subprocess.run([LAMINA] + list(args), input=stdin, capture_output=True)
    return result.returncode, result.stdout, result.stderr.decode(errors="replace")


def render(source, *args):
    path = os.path.join(OUT, "render.png")
    code, _, err = run("render", source, "--backend", "cpu", "--output", path, *args)
    if code != 0:
        return None, err
    with open(path, "rb") as f:
        return f.read(), err


def apng_frames(path):
    """The frame count and play count of an animated PNG's acTL chunk."""
    with open(path, "rb") as f:
        data = f.read()
    at = data.find(b"acTL")
    return struct.unpack(">II", data[at + 4:at + 12]) if at >= 0 else (0, -1)


def main():
    base, warnings = render(WALLPAPER)
    check("render: a .wallpaper folder renders", base is not None, warnings)
    check("render: what is skipped is a warning with its place",
          "Orbit_Floating-240w-400h@2x~iphone.ca/main.caml:27:7: skipped <CAPortalLayer>" in warnings, warnings)

    # A looping animated PNG: 4 seconds at 10 fps, played for ever; every
    # animation repeats within 4 s, so the frame after the last is the first.
    apng = os.path.join(OUT, "orbit.png")
    code, _, err = run("frames", WALLPAPER, "--backend", "cpu", "--duration", "4", "--fps", "10", "--quiet", "--output", apng)
    frames, plays = apng_frames(apng) if code == 0 else (0, -1)
    check("frames: the wallpaper as a looping animated PNG (40 frames, played for ever)",
          code == 0 and frames == 40 and plays == 0, (code, frames, plays, err))
    at4, _ = render(WALLPAPER, "--time", "4")
    check("frames: the loop is seamless (time 4 draws time 0)", at4 == base)
    at1, _ = render(WALLPAPER, "--time", "1")
    check("frames: and it moves (time 1 differs)", at1 is not None and at1 != base)
    code, _, err = run("frames", WALLPAPER, "--backend", "cpu", "--quiet", "--output", os.path.join(OUT, "x.png"))
    check("frames: endless animations need a length", code == 1 and "never ends" in err, err)

    mp4 = os.path.join(OUT, "orbit.mp4")
    if shutil.which("ffmpeg") and shutil.which("ffprobe"):
        code, _, err = run("frames", WALLPAPER, "--backend", "cpu", "--duration", "2", "--fps", "12", "--quiet", "--output", mp4)
        probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                "stream=nb_read_frames,width,height", "-of", "csv=p=0", mp4], capture_output=True, text=True)
        # The folder names a 240 x 400 point device at 2x: the phone's 480 x 800 pixels.
        check("frames: the wallpaper as an MP4 of the length asked for (24 frames, the named device's 480x800)",
              code == 0 and probe.stdout.strip() == "480,800,24", (code, probe.stdout, err))
    else:
        check("frames: MP4 needs ffmpeg and ffprobe (SKIPPED: not installed)", False)

    # convert: the scene JSON draws the same pixels.
    scene = os.path.join(OUT, "orbit.json")
    code, _, err = run("convert", WALLPAPER, "--output", scene)
    converted, _ = render(scene) if code == 0 else (None, "")
    check("convert: the scene JSON draws the wallpaper's pixels", code == 0 and converted == base, err)
    code, _, err = run("convert", WALLPAPER, "--transition", "Locked:Unlock", "--output", scene)
    moved, _ = render(scene, "--time", "0.3") if code == 0 else (None, "")
    direct, _ = render(WALLPAPER, "--transition", "Locked:Unlock", "--time", "0.3")
    check("convert: a transition's scene JSON draws the transition", code == 0 and moved == direct and moved != base, err)

    # States and transitions.
    unlocked, _ = render(WALLPAPER, "--state", "Unlock")
    check("--state Unlock differs from the base state", unlocked is not None and unlocked != base)
    start, _ = render(WALLPAPER, "--transition", "Locked:Unlock", "--time", "0")
    end, _ = render(WALLPAPER, "--transition", "Locked:Unlock", "--time", "4")
    check("--transition starts in the first state and ends in the second", start == base and end == unlocked)
    locked, _ = render(WALLPAPER, "--state", "Locked")
    held, _ = render(WALLPAPER, "--preview", "--unlock-at", "3", "--time", "2.5")
    after, _ = render(WALLPAPER, "--preview", "--unlock-at", "3", "--time", "30")
    check("--preview shows the lock screen until --unlock-at, then the unlocked state",
          held is not None and held == render(WALLPAPER, "--state", "Locked", "--time", "2.5")[0] and after == render(WALLPAPER, "--state", "Unlock", "--time", "30")[0] and locked is not None)
    path = os.path.join(OUT, "device.png")
    code, _, err = run("render", WALLPAPER, "--device", "60x100@2", "--output", path)
    with open(path, "rb") as f:
        size = struct.unpack(">II", f.read(24)[16:24]) if code == 0 else None
    check("--device crops the centre of the root at the device's pixels", code == 0 and size == (120, 200), (code, size, err))
    code, _, err = run("render", WALLPAPER, "--state", "Dream", "--output", os.path.join(OUT, "x.png"))
    check("an unknown state is refused, naming the known ones", code == 1 and "Locked, Unlock" in err, err)
    code, _, err = run("render", WALLPAPER, "--strict", "--output", os.path.join(OUT, "x.png"))
    check("--strict refuses what would be skipped, with its place",
          code == 1 and "CAPortalLayer" in err and "line 27, column 7" in err, err)
    code, _, err = run("render", os.path.join(ROOT, "examples", "scenes", "spinning-cube.json"), "--state", "Unlock",
                       "--output", os.path.join(OUT, "x.png"))
    check("--state on scene JSON is refused", code == 1 and "CAML" in err, err)

    # A .tendies archive: the wallpaper zipped as PosterBoard ships it.
    tendies = os.path.join(OUT, "Orbit.tendies")
    with zipfile.ZipFile(tendies, "w", zipfile.ZIP_DEFLATED) as archive:
        for folder, _, names in os.walk(WALLPAPER):
            for name in names:
                path = os.path.join(folder, name)
                archive.write(path, "descriptors/orbit/versions/0/contents/Orbit.wallpaper/" + os.path.relpath(path, WALLPAPER))
    zipped, _ = render(tendies)
    check("a .tendies archive renders as its wallpaper", zipped == base)
    evil = os.path.join(OUT, "evil.tendies")
    with zipfile.ZipFile(evil, "w") as archive:
        archive.writestr("../../escape.ca/main.caml", "<caml/>")
    code, _, err = run("render", evil, "--output", os.path.join(OUT, "x.png"))
    check("an archive entry that escapes is refused", code == 1 and "leads outside the archive" in err, err)

    # A CAML document on standard input, and one that is broken.
    foreground = os.path.join(WALLPAPER, "Orbit_Foreground-240w-400h@2x~iphone.ca", "main.caml")
    with open(foreground, "rb") as f:
        document = f.read()
    code, png, err = run("render", "-", "--backend", "cpu", "--output", "-", stdin=document)
    file_png, _ = render(foreground)
    check("a CAML document on standard input renders", code == 0 and png == file_png, err)
    broken = document.replace(b"</sublayers>", b"</sublayer>", 1)
    code, _, err = run("render", "-", "--output", os.path.join(OUT, "x.png"), stdin=broken)
    check("a broken document fails with its line and column", code == 1 and "line 9, column 5" in err, err)
    code, out, err = run("validate", WALLPAPER)
    check("validate accepts the wallpaper", code == 0 and out.decode().endswith(": OK\n"), (out, err))

    # The community wallpapers (../shared/caml-corpus): each opens, and warns
    # only of what Lamina deliberately does not do (scripts), the editors'
    # own extras, and sloppiness it tolerates as Core Animation does.
    corpus = os.path.join(ROOT, "..", "shared", "caml-corpus", "wallpapers")
    if os.path.isdir(corpus):
        for name in sorted(os.listdir(corpus)):
            code, out, err = run("validate", os.path.join(corpus, name))
            unexpected = [line for line in err.splitlines()
                          if "Lamina runs no scripts" not in line and ": tolerated " not in line]
            check(f"the community wallpaper {name} opens, warning only of scripts and tolerated sloppiness",
                  code == 0 and not unexpected, unexpected or err)


if __name__ == "__main__":
    if not os.access(LAMINA, os.X_OK):
        sys.exit(f"no lamina binary at {LAMINA} (set LAMINA)")
    try:
        main()
    finally:
        shutil.rmtree(OUT, ignore_errors=True)
    finish()
