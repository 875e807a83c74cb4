#!/usr/bin/env python3
"""The peer a user would otherwise deploy: a render server on a warm headless
Chromium (what browserless- or Puppeteer-based screenshot services do),
serving the same API as `lamina serve`'s POST /render, for the load test.

    chromium-server.py --port 9000 --pages 2

One Chromium, started once; one tab per page slot, each reused for every
request (warm: no browser start, no tab creation per request). A request's
scene becomes HTML with the conformance oracle's mapping
(../shared/conformance/oracle.py, the same page the reference pictures come
from), is set as the tab's document, and the tab's PNG screenshot at the
scene's size and scale is the answer. Requests wait for a free tab.
"""
import argparse
import base64
import http.server
import json
import math
import os
import queue
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import websocket  # websocket-client, in the tools' virtual environment

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "shared", "conformance"))
import oracle  # noqa: E402


class Tab:
    """One Chromium tab driven over the DevTools protocol."""

    def __init__(self, debugger_url):
        self.socket = websocket.create_connection(debugger_url, timeout=60, suppress_origin=True)
        self.next_id = 0
        self.call("Page.enable")
        self.call("Page.navigate", url="about:blank")

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def render(self, scene):
        width, height = math.ceil(scene["width"]), math.ceil(scene["height"])
        scale = scene.get("scale", 1)
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=scale, mobile=False)
        self.call("Emulation.setDefaultBackgroundColorOverride", color={"r": 0, "g": 0, "b": 0, "a": 0})
        frame = self.call("Page.getFrameTree")["frameTree"]["frame"]["id"]
        self.call("Page.setDocumentContent", frameId=frame, html=oracle.to_html(scene, os.getcwd()))
        shot = self.call("Page.captureScreenshot", format="png", fromSurface=True,
                         clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        return base64.b64decode(shot["data"])


def start_chromium(port):
    profile = tempfile.mkdtemp(prefix="chromium-peer-")
    binary = oracle.chromium()
    process = subprocess.Popen([binary, "--headless=new" if "headless-shell" not in binary else "--headless",
                                "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--font-render-hinting=none",
                                f"--remote-debugging-port={port}", f"--user-data-dir={profile}", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=1):
                return process, profile
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("chromium-server: Chromium did not open its DevTools port")


def new_tab(port):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/json/new?about:blank", method="PUT")
    with urllib.request.urlopen(request, timeout=10) as response:
        return Tab(json.load(response)["webSocketDebuggerUrl"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--devtools-port", type=int, default=9333)
    args = parser.parse_args()
    process, profile = start_chromium(args.devtools_port)
    tabs = queue.Queue()
    for _ in range(args.pages):
        tabs.put(new_tab(args.devtools_port))

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            tab = tabs.get()
            try:
                png = tab.render(json.loads(body))
                status, kind = 200, "image/png"
            except Exception as error:  # noqa: BLE001 - the peer answers 500 like a real service would
                png, status, kind = str(error).encode(), 500, "text/plain"
            finally:
                tabs.put(tab)
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(png)))
            self.end_headers()
            self.wfile.write(png)

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", args.port), Handler)
    print(f"chromium peer listening on http://127.0.0.1:{args.port} ({args.pages} tabs)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
