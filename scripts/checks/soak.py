#!/usr/bin/env python3
"""Soak test of `lamina serve`: good and hostile requests for a while, at a
bounded rate, on loopback.

    LAMINA=.build/release/lamina scripts/checks/soak.py [--seconds 600] [--rate 30]

The mix: good scenes (small ones of many colours, so the cache keeps
changing, and the bench card), JSON that is not JSON, scenes the format
refuses, scenes over the limits, garbage bytes, bodies cut short before
their Content-Length, bodies sent slower than the deadline, huge declared
lengths, and connections reset mid-request. Checks: the server never
answers 500 and never dies; every well-formed request gets an answer; its
memory (RSS) at the end is within 10% of its memory after the warm-up
(the first fifth of the run). The picture cache is on but small (2 MiB),
so that it is full by the end of the warm-up and its growth is not taken
for a leak. Prints the counts, the memory at each tenth of the run, and
"N passed, M failed".
"""
import argparse
import http.client
import json
import os
import random
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from collections import Counter

LAMINA = os.environ.get("LAMINA", ".build/release/lamina")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CARD_PATH = os.path.join(ROOT, "..", "shared", "bench", "card-1200x630.json")
CARD = open(CARD_PATH, "rb").read() if os.path.exists(CARD_PATH) else None


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def small(rng):
    color = "#%06x" % rng.randrange(1 << 24)
    return json.dumps({"width": rng.randrange(20, 200), "height": rng.randrange(20, 200), "backgroundColor": "#ffffff",
                       "sublayers": [{"bounds": [0, 0, 40, 30], "position": [50, 40], "backgroundColor": color,
                                      "cornerRadius": rng.randrange(0, 15), "shadowOpacity": 0.5, "shadowRadius": 4}]}).encode()


class Soak:
    def __init__(self, port, rng):
        self.port = port
        self.rng = rng
        self.counts = Counter()
        self.lock = threading.Lock()
        self.failures = []

    def count(self, kind, outcome):
        with self.lock:
            self.counts[(kind, outcome)] += 1

    def post(self, body, content_type="application/json"):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request("POST", "/render", body=body, headers={"Content-Type": content_type})
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    def raw(self, data, pause=0.0, reset=False, read=True):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        try:
            s.sendall(data)
            if pause:
                time.sleep(pause)
            if reset:
                # SO_LINGER 0: close() sends a RST instead of a FIN.
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                return "reset"
            if not read:
                return "sent"
            received = b""
            while b"\r\n" not in received:
                chunk = s.recv(4096)
                if not chunk:
                    break
                received += chunk
            line = received.split(b"\r\n", 1)[0].decode(errors="replace")
            return line.split(" ")[1] if line.count(" ") >= 1 else "closed"
        finally:
            s.close()

    def one(self):
        rng = self.rng
        kind = rng.choices(["good", "card", "badjson", "refused", "limits", "garbage", "truncated", "slow",
                            "hugelength", "reset", "wrongtype"],
                           weights=[30, 5, 8, 8, 6, 6, 6, 2, 6, 6, 4])[0]
        try:
            if kind == "good":
                status = self.post(small(rng))
            elif kind == "card":
                status = self.post(CARD or small(rng))
            elif kind == "badjson":
                status = self.post(b'{"width": 10, "height": [' + bytes(rng.randrange(256) for _ in range(20)))
            elif kind == "refused":
                status = self.post(json.dumps({"width": 10, "height": 10, "sublayers": [{"opacity": "x", "colour": 1}]}).encode())
            elif kind == "limits":
                status = self.post(json.dumps({"width": 10, "height": 10, "sublayers": [
                    {"type": "replicator", "instanceCount": 100000,
                     "sublayers": [{"type": "replicator", "instanceCount": 100000}]}]}).encode())
            elif kind == "garbage":
                status = self.post(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4000))))
            elif kind == "wrongtype":
                status = self.post(b"<svg/>", content_type="image/svg+xml")
            elif kind == "truncated":
                status = self.raw(b"POST /render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                  b"Content-Length: 5000\r\n\r\n{\"width\": 10", read=False)
            elif kind == "slow":
                status = self.raw(b"POST /render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                  b"Content-Length: 100\r\n\r\n{", pause=0.2)
            elif kind == "hugelength":
                status = self.raw(b"POST /render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                  b"Content-Length: 999999999999\r\n\r\n{")
            else:
                status = self.raw(b"POST /render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                  b"Content-Length: 300\r\n\r\n{\"width\": 10, \"height\": 10, ", reset=True)
        except (ConnectionError, socket.timeout, http.client.HTTPException) as error:
            status = type(error).__name__
        self.count(kind, str(status))
        if str(status) == "500":
            self.failures.append(kind)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--rate", type=float, default=30, help="requests per second, all threads together")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--memory-tolerance", type=float, default=0.10)
    args = parser.parse_args()

    process = subprocess.Popen([LAMINA, "serve", "--port", "0", "--metrics-port", "off", "--backend", "cpu",
                                "--deadline", "2", "--queue", "32", "--cache-bytes", str(2 << 20), "--log-level", "warning"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    banner = process.stdout.readline().decode()
    port = int(re.search(r":(\d+)", banner.split("listening on")[1]).group(1))
    threading.Thread(target=process.stdout.read, daemon=True).start()
    soak = Soak(port, random.Random(7))
    stop = time.time() + args.seconds
    warm_until = time.time() + args.seconds / 5
    warm_rss = None
    interval = args.threads / args.rate

    def worker():
        next_at = time.time()
        while time.time() < stop and process.poll() is None:
            soak.one()
            next_at += interval
            time.sleep(max(0.0, next_at - time.time()))

    threads = [threading.Thread(target=worker) for _ in range(args.threads)]
    for t in threads:
        t.start()
    samples = []
    while any(t.is_alive() for t in threads):
        time.sleep(1)
        if process.poll() is None:
            samples.append((time.time(), rss_kib(process.pid)))
            if warm_rss is None and time.time() >= warm_until:
                warm_rss = samples[-1][1]
    for t in threads:
        t.join()
    alive = process.poll() is None
    end_rss = rss_kib(process.pid) if alive else None
    process.terminate()
    code = process.wait(timeout=60)

    total = sum(soak.counts.values())
    print(f"soak: {args.seconds:g} s, {total} requests ({total / args.seconds:.1f}/s), {args.threads} threads")
    for (kind, outcome), n in sorted(soak.counts.items()):
        print(f"  {kind:11} {outcome:22} {n}")
    peak = max(r for _, r in samples) if samples else 0
    print(f"  memory: after warm-up {warm_rss} KiB, at the end {end_rss} KiB, peak {peak} KiB")
    if samples:
        start = samples[0][0]
        tenths = [min(samples, key=lambda s: abs(s[0] - start - args.seconds * k / 10))[1] for k in range(1, 11)]
        print("  memory at each tenth of the run (KiB): " + " ".join(str(r) for r in tenths))
    checks = [
        ("the server never answered 500", not soak.failures),
        ("the server stayed up", alive),
        ("it exited 0 on SIGTERM after the soak", code == 0),
        ("every well-formed request was answered",
         all(outcome.isdigit() for (kind, outcome) in soak.counts if kind in ("good", "card", "badjson", "refused", "limits", "wrongtype"))),
        ("good scenes were drawn", soak.counts[("good", "200")] > 0),
    ]
    if args.seconds >= 120 and warm_rss:
        checks.append((f"memory at the end within {args.memory_tolerance:.0%} of after warm-up",
                       end_rss is not None and end_rss <= warm_rss * (1 + args.memory_tolerance)))
    failed = 0
    for name, ok in checks:
        print(("ok    " if ok else "FAIL  ") + name)
        failed += 0 if ok else 1
    print(f"{len(checks) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
