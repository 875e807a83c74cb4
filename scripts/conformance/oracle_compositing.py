#!/usr/bin/env python3
"""The shared oracle (../shared/conformance/oracle.py), with compositingFilter
and backgroundFilters.

The shared oracle refuses keys it has no CSS for; a layer's blend mode has
one: CSS's mix-blend-mode, which Chromium draws by the same W3C formulas
Core Animation's separable blend-mode filters follow, blending the element
as a group (its opacity, background and children) with what lies under it.
Core Animation applies no non-separable mode (hue, saturation, color,
luminosity): a layer naming one is drawn source-over, as Apple's own
picture of lottie-ios's blend_mode_test shows, so those are CSS's normal. This
wrapper takes each layer's compositingFilter off before the shared oracle
sees it and puts mix-blend-mode on the div the oracle opens for that layer.

backgroundFilters of gaussianBlur and colorInvert become CSS's
backdrop-filter on that div (blur()'s length is the Gaussian's standard
deviation, as inputRadius is; invert(1) is 1 - c per channel): Chromium
filters what lies behind the element and shows it within the element's
border box, rounded by its border-radius, under its background.

  oracle_compositing.py render SCENE.json OUT.png
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "..", "..", "shared", "conformance", "oracle.py")

# Core Animation's filter names and CSS's blend modes.
CSS_MODES = {
    "normalBlendMode": "normal", "sourceOver": "normal",
    "multiplyBlendMode": "multiply", "screenBlendMode": "screen", "overlayBlendMode": "overlay",
    "darkenBlendMode": "darken", "lightenBlendMode": "lighten", "colorDodgeBlendMode": "color-dodge",
    "colorBurnBlendMode": "color-burn", "softLightBlendMode": "soft-light", "hardLightBlendMode": "hard-light",
    "differenceBlendMode": "difference", "exclusionBlendMode": "exclusion", "plusL": "plus-lighter",
    # Named, and drawn source-over by Core Animation.
    "hueBlendMode": "normal", "saturationBlendMode": "normal", "colorBlendMode": "normal",
    "luminosityBlendMode": "normal",
}


def backdrop_css(f):
    kind = f.get("type")
    if kind == "gaussianBlur":
        return "blur(%gpx)" % f.get("inputRadius", 0)
    if kind == "colorInvert":
        return "invert(1)"
    raise ValueError("oracle: background filter %r is not mapped" % kind)


def load_oracle(path=ORACLE):
    spec = importlib.util.spec_from_file_location("oracle", path)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    original = oracle.Writer.layer

    def layer(self, L, *args, **kwargs):
        mode = L.get("compositingFilter")
        backdrop = L.get("backgroundFilters")
        if mode is None and backdrop is None:
            return original(self, L, *args, **kwargs)
        extra = []
        if mode is not None:
            if mode not in CSS_MODES:
                raise ValueError("oracle: compositingFilter %r is not mapped" % mode)
            extra.append("mix-blend-mode:%s" % CSS_MODES[mode])
        if backdrop:
            extra.append("backdrop-filter:" + " ".join(backdrop_css(f) for f in backdrop))
        first = len(self.out)
        original(self, {k: v for k, v in L.items() if k not in ("compositingFilter", "backgroundFilters")}, *args, **kwargs)
        opening = self.out[first]
        marker = 'style="'
        at = opening.index(marker) + len(marker)
        self.out[first] = opening[:at] + "".join(e + ";" for e in extra) + opening[at:]

    oracle.Writer.layer = layer
    return oracle


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "render":
        print(__doc__)
        sys.exit(2)
    load_oracle().render(sys.argv[2], sys.argv[3])
