#!/usr/bin/env python3
"""A corpus like ../shared/lottie, built from a lottie-ios checkout.

    scripts/checks/lottie-ios-corpus.py LOTTIE_IOS_CHECKOUT OUT [--skip-shared]
    LAMINA=.build/release/lamina scripts/checks/lottie.py --corpus OUT

lottie-ios keeps, beside its sample animations (Tests/Samples), the
pictures Apple's Core Animation drew of them through its Core Animation
engine (Tests/__Snapshots__/SnapshotTests/testCoreAnimationRenderingEngine.*),
about four times as many as ../shared/lottie holds. This writes them in
../shared/lottie's layout (manifest.json, samples/, reference/, compare.py)
so that `scripts/checks/lottie.py --corpus OUT` judges Lamina on all of
them: files nobody here tuned anything to.

Samples are taken as ../shared/lottie's README says its were: those the
engine reports it fully supports (Tests/__Snapshots__/AutomaticEngineTests),
drawn with default settings. A sample Tests/SnapshotConfiguration.swift
gives anything but a precision (value providers, image, text or font
providers, its own moments, a viewport) is left out; its precision is
kept. `--skip-shared` leaves out the samples ../shared/lottie has.
"""
import argparse
import json
import math
import os
import re
import shutil
import sys
import zipfile

PROGRESS = [0.0, 0.25, 0.5, 0.75, 1.0]
PREFIX = "testCoreAnimationRenderingEngine."


def configurations(path):
    """Name -> precision for the samples configured only by precision, and
    the set of every name the configuration customises in any other way."""
    precision, other = {}, set()
    text = open(path, encoding="utf-8").read()
    mapping = text[text.index("customMapping"):]
    for match in re.finditer(r'^ {4}"([^"]+)":\s*(.*)$', mapping, re.M):
        name, rest = match.group(1), match.group(2).strip()
        only_precision = re.fullmatch(r"\.precision\(([\d.]+)\),", rest)
        if only_precision:
            precision[name] = float(only_precision.group(1))
        elif rest not in (".useAutomaticRenderingEngine,", ".useAutomaticRenderingEngine, // Supports the Core Animation engine"):
            other.add(name)
    return precision, other


def snapshot_points(w, h, limit=500.0):
    """lottie-ios's snapshot size: the larger side clamped to `limit` points
    (a square clamps its height), the other scaled with it."""
    if w > h:
        width = min(w, limit)
        return [width, width * h / w]
    height = min(h, limit)
    return [height * w / h, height]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("checkout")
    parser.add_argument("out")
    parser.add_argument("--skip-shared", action="store_true")
    args = parser.parse_args()
    tests = os.path.join(args.checkout, "Tests")
    samples_dir = os.path.join(tests, "Samples")
    snapshots = os.path.join(tests, "__Snapshots__", "SnapshotTests")
    automatic = os.path.join(tests, "__Snapshots__", "AutomaticEngineTests")
    precision, customised = configurations(os.path.join(tests, "SnapshotConfiguration.swift"))
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.path.join(here, "..", "..", "..", "shared", "lottie")
    shared_names = set()
    if args.skip_shared:
        shared_names = {s["name"] for s in json.load(open(os.path.join(shared, "manifest.json")))["samples"]}

    os.makedirs(os.path.join(args.out, "reference"), exist_ok=True)
    shutil.copy(os.path.join(shared, "compare.py"), os.path.join(args.out, "compare.py"))
    entries, left_out = [], []
    for root, _, files in os.walk(samples_dir):
        for file in sorted(files):
            stem, ext = os.path.splitext(file)
            if ext not in (".json", ".lottie"):
                continue
            relative = os.path.relpath(os.path.join(root, stem), samples_dir)
            name = relative.replace(os.sep, "/")
            picture = name.replace("/", "-")
            references = [f"{PREFIX}{picture}-{round(p * 100)}.png" for p in PROGRESS]
            if not all(os.path.exists(os.path.join(snapshots, r)) for r in references):
                continue
            report = os.path.join(automatic, f"testAutomaticEngineDetection.{picture}.txt")
            if name in customised:
                left_out.append((name, "configured beyond precision"))
                continue
            if not os.path.exists(report) or "Supports Core Animation engine" not in open(report).read():
                left_out.append((name, "not fully supported by the Core Animation engine"))
                continue
            if name in shared_names:
                continue
            source = os.path.join(root, file)
            container, first = "json", None
            if ext == ".lottie":
                container = "lottie"
                with zipfile.ZipFile(source) as archive:
                    # The manifest's first animation, as lottie-ios plays.
                    first = json.loads(archive.read("manifest.json"))["animations"][0]["id"]
                    names = set(archive.namelist())
                    inside = next(n for n in (f"animations/{first}.json", f"a/{first}.json") if n in names)
                    animation = json.loads(archive.read(inside))
            else:
                animation = json.load(open(source, encoding="utf-8-sig"))
            w, h, ip, op, fr = (float(animation[k]) for k in ("w", "h", "ip", "op", "fr"))
            points = snapshot_points(w, h)
            target = os.path.join(args.out, "samples", relative + ext)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy(source, target)
            shots = []
            for p, reference in zip(PROGRESS, references):
                shutil.copy(os.path.join(snapshots, reference), os.path.join(args.out, "reference", reference))
                frame = ip + p * (op - ip)
                shots.append({"progress": p, "frame": frame, "time": frame / fr, "reference": "reference/" + reference})
            entries.append({
                "name": name, "file": "samples/" + name + ext, "container": container, "dotlottie_animation": first,
                "w": w, "h": h, "ip": ip, "op": op, "fr": fr,
                "snapshot_points": points, "snapshot_pixels": [math.ceil(2 * v) for v in points],
                "precision": precision.get(name, 0.985), "snapshots": shots,
            })
    json.dump({"source": os.path.abspath(args.checkout), "samples": entries},
              open(os.path.join(args.out, "manifest.json"), "w"), indent=1)
    print(f"{len(entries)} samples, {5 * len(entries)} pictures in {args.out}; left out {len(left_out)}:")
    for name, why in left_out:
        print(f"  {name}: {why}")


if __name__ == "__main__":
    sys.exit(main())
