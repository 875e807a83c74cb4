#!/usr/bin/env python3
"""Templates and signed links of `lamina serve --templates`: the real binary
on loopback ports.

    LAMINA=.build/debug/lamina scripts/checks/templates.py

A link signed by `lamina sign` draws the template with its slots filled,
the same picture `lamina render` draws of the scene with those values;
tampered, unsigned and wrongly keyed links are 403 and draw nothing; keys
rotate; a value that does not fit its slot is 422 naming the slot; a CDN's
If-None-Match gets 304; animations come as WebP and GIF; image slots take
only what their allow-list names (a local HTTP server stands for the
image host); a folder with a broken template stops the start, saying where.

Prints one line per check and ends with "N passed, M failed".
"""
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402
from server import LAMINA, ROOT, Server, error_of, reference_png  # noqa: E402

TEMPLATES = os.path.join(ROOT, "examples", "templates")
KEYS = "new-key,old-key"


def sign(link, keys=KEYS):
    run = subprocess.run([LAMINA, "sign", link], capture_output=True, text=True, env={**os.environ, "LAMINA_URL_KEYS": keys})
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def pictures_drawn(server):
    """lamina_pictures_rendered_total, every backend together."""
    _, _, body = server.request("GET", "/metrics", port=server.metrics_port)
    return sum(float(line.split()[-1]) for line in body.decode().splitlines()
               if line.startswith("lamina_pictures_rendered_total"))


def card_with(title, accent="#38bdf8", folder=None):
    """examples/templates/card.json with the slots' values set, written to a file."""
    with open(os.path.join(TEMPLATES, "card.json")) as f:
        scene = json.load(f)
    for layer in scene["sublayers"]:
        if layer.get("name") == "title":
            layer["string"] = title
        if layer.get("name") in ("accent", "badge"):
            layer["backgroundColor"] = accent
    path = os.path.join(folder or tempfile.mkdtemp(), "card-filled.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    return path


class Pictures(http.server.BaseHTTPRequestHandler):
    """A host of pictures: /red.png (a PNG), anything else 404."""
    png = b""

    def do_GET(self):
        if self.path == "/img/red.png":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(self.png)))
            self.end_headers()
            self.wfile.write(self.png)
        else:
            self.send_response(404)
            self.end_headers()

    def log_message(self, *args):
        pass


def main():
    scratch = tempfile.mkdtemp()
    try:
        run(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(scratch):
    # A second template with an image slot whose hosts are a local server.
    red = os.path.join(scratch, "red.png")
    subprocess.run([LAMINA, "render", "-", "--output", red], input=json.dumps(
        {"width": 8, "height": 8, "backgroundColor": "#ff0000"}).encode(), check=True)
    with open(red, "rb") as f:
        Pictures.png = f.read()
    host = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pictures)
    threading.Thread(target=host.serve_forever, daemon=True).start()
    prefix = f"http://127.0.0.1:{host.server_address[1]}/img/"
    folder = os.path.join(scratch, "templates")
    os.makedirs(folder)
    for name in ("card.json", "card.slots.json"):
        shutil.copy(os.path.join(TEMPLATES, name), folder)
    with open(os.path.join(folder, "badge.json"), "w") as f:
        json.dump({"width": 40, "height": 40, "sublayers": [
            {"name": "picture", "frame": [0, 0, 40, 40], "backgroundColor": "#ffffff"}]}, f)
    with open(os.path.join(folder, "badge.slots.json"), "w") as f:
        json.dump({"slots": {"picture": {"type": "image", "layer": "picture", "allow": [prefix, "data:"]},
                             "size": {"type": "number", "layer": "picture", "key": "opacity", "min": 0, "max": 1, "default": 1}}}, f)

    refused = subprocess.run([LAMINA, "serve", "--port", "0", "--templates", folder], capture_output=True, text=True,
                             env={k: v for k, v in os.environ.items() if not k.startswith("LAMINA_URL_KEYS")}, timeout=60)
    check("--templates without keys stops the start, saying why",
          refused.returncode != 0 and "LAMINA_URL_KEYS" in refused.stderr, refused.stderr[-400:])
    broken = os.path.join(scratch, "broken")
    os.makedirs(broken)
    shutil.copy(os.path.join(TEMPLATES, "card.json"), broken)
    with open(os.path.join(broken, "card.slots.json"), "w") as f:
        f.write('{"slots": {\n  "title": {"type": "text", "layer": "headline"}\n}}')
    refused = subprocess.run([LAMINA, "serve", "--port", "0", "--templates", broken], capture_output=True, text=True,
                             env={**os.environ, "LAMINA_URL_KEYS": KEYS}, timeout=60)
    check("a slot naming a layer the scene lacks stops the start, naming the file, the slot and the layer",
          refused.returncode != 0 and "card.slots.json" in refused.stderr and "slot title" in refused.stderr
          and "headline" in refused.stderr, refused.stderr[-400:])

    # A deadline for the animated links: 60 frames of 1200 x 630 as a GIF, on a busy machine.
    server = Server("--workers", "2", "--backend", "cpu", "--deadline", "60", "--templates", folder, env={"LAMINA_URL_KEYS": KEYS})
    try:
        check("the banner names the templates", any("templates:" in line for line in server.banner), server.banner)
        link = sign("/t/card.png?title=Hello%20from%20a%20link&accent=ff5500")
        check("lamina sign appends sig, 43 characters of base64url",
              re.fullmatch(r"/t/card\.png\?title=Hello%20from%20a%20link&accent=ff5500&sig=[A-Za-z0-9_-]{43}", link) is not None, link)
        status, headers, png = server.request("GET", link)
        check("a signed link is 200 image/png", status == 200 and headers.get("content-type") == "image/png", (status, png[:200]))
        check("its picture is lamina render's of the template with the link's values",
              png == reference_png(card_with("Hello from a link", "#ff5500", scratch)))
        check("Cache-Control says cache it for ever",
              headers.get("cache-control") == "public, max-age=31536000, immutable", headers.get("cache-control"))
        etag = headers.get("etag", "")
        check("it has a strong ETag", re.fullmatch(r'"[0-9a-f]{32}"', etag) is not None, etag)

        drawn = pictures_drawn(server)
        status, headers, body = server.request("GET", link, headers={"If-None-Match": etag})
        check("a CDN's If-None-Match with the ETag is 304, empty, with the same ETag and Cache-Control",
              status == 304 and body == b"" and headers.get("etag") == etag
              and headers.get("cache-control") == "public, max-age=31536000, immutable", (status, headers))
        status, headers, again = server.request("GET", link)
        check("the same link again is the same picture, from the cache",
              status == 200 and again == png and headers.get("x-lamina-cache") == "hit", headers.get("x-lamina-cache"))

        tampered = link.replace("Hello", "Hallo")
        status, _, body = server.request("GET", tampered)
        check("a tampered link is 403 badSignature", status == 403 and error_of(body).get("code") == "badSignature", (status, body))
        status, _, body = server.request("GET", "/t/card.png?title=Hello")
        check("an unsigned link is 403 signatureRequired", status == 403 and error_of(body).get("code") == "signatureRequired",
              (status, body))
        status, _, body = server.request("GET", sign("/t/card.png?title=Hello", keys="someone-elses-key"))
        check("a link signed with a key the server lacks is 403", status == 403, (status, body))
        check("refused links draw nothing", drawn >= 1 and pictures_drawn(server) == drawn, (drawn, pictures_drawn(server)))

        status, _, rotated = server.request("GET", sign("/t/card.png?title=Rotated", keys="old-key"))
        check("keys rotate: a link signed with the second key of LAMINA_URL_KEYS is accepted", status == 200, status)

        for query, slot, why in [("title=x&accent=zzz", "accent", "a colour that is not one"),
                                 ("title=" + "x" * 121, "title", "text over its maxLength"),
                                 ("subtitle=no%20title", "title", "a slot with no default left out"),
                                 ("title=x&titel=y", "titel", "a parameter no slot has"),
                                 ("title=a&title=b", "title", "a slot given twice")]:
            status, _, body = server.request("GET", sign("/t/card.png?" + query))
            error = error_of(body)
            check(f"{why} is 422 invalidSlot naming {slot}",
                  status == 422 and error.get("code") == "invalidSlot" and error.get("path") == slot, (status, body))
        status, _, body = server.request("GET", sign("/t/nothing.png?title=x"))
        check("a signed link to no template is 404", status == 404 and error_of(body).get("code") == "templateNotFound", (status, body))
        status, _, body = server.request("GET", sign("/t/card.bmp?title=x"))
        check("a format templates are not drawn in is 404", status == 404, (status, body))
        status, _, body = server.request("POST", sign("/t/card.png?title=x"))
        check("POST on a template link is 405", status == 405, status)

        status, headers, webp = server.request("GET", sign("/t/card.webp?title=Moving"))
        check("an animated template link is 200 image/webp", status == 200 and headers.get("content-type") == "image/webp"
              and webp[:4] == b"RIFF" and headers.get("cache-control", "").endswith("immutable"), (status, headers))
        status, headers, gif = server.request("GET", sign("/t/card.gif?title=Moving"))
        check("and as a GIF", status == 200 and headers.get("content-type") == "image/gif" and gif[:6] == b"GIF89a", (status, headers))

        status, _, png = server.request("GET", sign("/t/badge.png?picture=" + urllib.parse.quote(prefix + "red.png", safe="")))
        check("an image slot fetches a URL on its allow-list", status == 200 and png == reference_png_of(
            {"width": 40, "height": 40, "sublayers": [{"name": "picture", "frame": [0, 0, 40, 40], "backgroundColor": "#ffffff",
                                                        "contents": "data:image/png;base64," + __import__("base64").b64encode(Pictures.png).decode()}]},
            scratch), (status, png[:100]))
        status, _, body = server.request("GET", sign("/t/badge.png?picture=" + urllib.parse.quote("http://169.254.169.254/latest/meta-data", safe="")))
        check("an image URL off its allow-list is 422, and never fetched", status == 422 and error_of(body).get("path") == "picture",
              (status, body))
        status, _, body = server.request("GET", sign("/t/badge.png?picture=" + urllib.parse.quote(prefix + "missing.png", safe="")))
        check("an image URL that answers 404 is 422 naming the slot", status == 422 and "404" in error_of(body).get("message", ""),
              (status, body))
        status, _, body = server.request("GET", sign("/t/badge.png?picture=" + urllib.parse.quote("data:image/png;base64,AAAA", safe="")))
        check("a data URI that is no picture is 422 naming the slot", status == 422 and error_of(body).get("path") == "picture",
              (status, body))
        status, _, body = server.request("GET", sign("/t/badge.png?picture=" + urllib.parse.quote(prefix + "red.png", safe="") + "&size=2"))
        check("a number out of its slot's range is 422", status == 422 and error_of(body).get("path") == "size", (status, body))
    finally:
        check("the server stops cleanly", server.stop() == 0, server.log()[-2000:])
        host.shutdown()


def reference_png_of(scene, scratch):
    path = os.path.join(scratch, "reference.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    return reference_png(path)


if __name__ == "__main__":
    if not os.access(LAMINA, os.X_OK):
        sys.exit(f"no lamina binary at {LAMINA} (set LAMINA)")
    main()
    finish()
