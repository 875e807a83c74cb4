#!/usr/bin/env python3
"""The playground in a real browser: headless Chromium (Debian's) driven by
Playwright (PyPI, in .build-tools/venv), against a live `lamina serve`.

    LAMINA=.build/debug/lamina .build-tools/venv/bin/python scripts/checks/playground.py [--screenshots DIR]

Loads the page, picks an example, edits a colour and sees the picture
change (its pixels, read back from the page), types a bad key and sees the
problem at its line, moves the time slider of an animated scene and sees
the picture change, makes an animated PNG, follows a share link and gets
the same scene, walks the controls with the keyboard, checks the page at
phone width, and that no console error was logged. Also: the playground is
off unless asked for, and its files carry a content security policy.
Prints one line per check and ends with "N passed, M failed".
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

LAMINA = os.environ.get("LAMINA", ".build/debug/lamina")
CHROMIUM = next((p for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] if os.access(p, os.X_OK)), None)


def serve(*args):
    process = subprocess.Popen([LAMINA, "serve", "--port", "0", "--metrics-port", "off", "--backend", "cpu",
                                "--workers", "2"] + list(args), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    banner = ""
    while "  queue " not in banner:
        line = process.stdout.readline().decode()
        if not line:
            raise RuntimeError("no banner from lamina serve")
        banner += line
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return process, re.search(r"listening on (http://127\.0\.0\.1:\d+)", banner).group(1)


def get(url):
    try:
        with urllib.request.urlopen(url) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def server_checks():
    process, url = serve()
    try:
        check("without --playground, GET / is 404", get(url + "/")[0] == 404)
    finally:
        process.terminate()
        process.wait()


def pixel(page, x, y):
    """The shown picture's pixel at (x, y), read back through a canvas."""
    return page.evaluate("""([x, y]) => {
        const img = document.getElementById('picture');
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
        const context = canvas.getContext('2d');
        context.drawImage(img, 0, 0);
        return Array.from(context.getImageData(x, y, 1, 1).data);
    }""", [x, y])


def picture_digest(page):
    return page.evaluate("""async () => {
        const r = await fetch(document.getElementById('picture').src);
        const digest = await crypto.subtle.digest('SHA-256', await r.arrayBuffer());
        return Array.from(new Uint8Array(digest)).map(b => b.toString(16).padStart(2, '0')).join('');
    }""")


def wait_rendered(page, before=None, timeout=30):
    """Waits until the status says Rendered and the picture differs from `before` (a digest)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        status = page.text_content("#status") or ""
        if status.startswith("Rendered"):
            digest = picture_digest(page)
            if before is None or digest != before:
                return digest
        time.sleep(0.1)
    return None


def console_error(errors):
    """Collects console errors, except Chromium's own line for a 400 or 422
    answer of /validate or /render: the API's answer to a scene being typed,
    which the page shows as problems (any other, and any script error, counts)."""
    def listen(message):
        if message.type != "error":
            return
        answered = message.location.get("url", "").split("?")[0].endswith(("/validate", "/render"))
        if answered and re.search(r"status of (400|422)", message.text):
            return
        errors.append(message.text)
    return listen


def browser_checks(screenshots):
    from playwright.sync_api import sync_playwright

    process, url = serve("--playground")
    errors = []
    try:
        status, headers, body = get(url + "/")
        check("with --playground, GET / is the page, with a content security policy",
              status == 200 and headers.get("Content-Type", "").startswith("text/html")
              and "script-src 'self'" in headers.get("Content-Security-Policy", "") and b"Lamina playground" in body, headers)
        status, _, body = get(url + "/playground/examples.json")
        examples = json.loads(body) if status == 200 else []
        check("the examples and the book's listings are built in",
              any(e["group"] == "Examples" for e in examples) and any(e["name"].startswith("listing-6-5") for e in examples),
              [e["name"] for e in examples])
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--font-render-hinting=none"])
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.on("console", console_error(errors))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url + "/")
            first = wait_rendered(page)
            check("the page loads, picks the first example and shows its picture", first is not None,
                  page.text_content("#status"))

            # Pick an example whose background is the root's, then edit its colour.
            names = [e["name"] for e in examples]
            stick = names.index("stick-figure") if "stick-figure" in names else 0
            page.select_option("#examples", str(stick))
            shown = wait_rendered(page, first)
            scene = page.input_value("#scene")
            check("picking an example puts its scene in the editor and draws it",
                  shown is not None and scene == examples[stick]["scene"], page.text_content("#status"))
            root = json.loads(scene)
            root["backgroundColor"] = "#ff0000"
            edited = json.dumps(root, indent=1)
            page.fill("#scene", edited)
            red = wait_rendered(page, shown)
            check("editing the background colour changes the picture: its corner pixel turns red",
                  red is not None and pixel(page, 1, 1)[:3] == [255, 0, 0], pixel(page, 1, 1) if red else page.text_content("#status"))

            # A bad key: the problem at its line and column, marked in the gutter.
            lines = edited.split("\n")
            lines.insert(2, ' "colour": "#00ff00",')
            page.fill("#scene", "\n".join(lines))
            page.wait_for_selector("#problems li", timeout=10000)
            problem = page.text_content("#problems li")
            marked = page.eval_on_selector_all("#gutter .bad", "marks => marks.map(m => m.textContent)")
            check("a bad key is shown at its line and column, with the message, and its line marked",
                  "line 3, column 2" in problem and "colour" in problem and marked == ["3"], (problem, marked))
            page.click("#problems li button")
            caret = page.evaluate("() => document.getElementById('scene').selectionStart")
            check("the problem's button puts the caret at the line and column",
                  caret == len(lines[0]) + len(lines[1]) + 2 + 1, caret)

            # An animated scene: the slider, a new picture at another time.
            spin = names.index("spinning-cube") if "spinning-cube" in names else None
            page.select_option("#examples", str(spin))
            at_zero = wait_rendered(page)
            visible = page.is_visible("#timeline")
            page.evaluate("""() => { const s = document.getElementById('time');
                s.value = String(Number(s.max) / 4); s.dispatchEvent(new Event('input')); }""")
            later = wait_rendered(page, at_zero)
            check("an animated scene shows the time slider; moving it draws another picture",
                  visible and at_zero is not None and later is not None
                  and float(page.get_attribute("#picture", "data-time")) > 0, page.text_content("#status"))
            # A Lottie animation: its own length on the slider, drawn at a moment of it.
            spinner = names.index("spinner") if "spinner" in names else None
            if spinner is not None:
                page.select_option("#examples", str(spinner))
                lottie_first = wait_rendered(page, later)
                lottie_max = float(page.get_attribute("#time", "max") or 0)
                check("a Lottie example shows its own length (2 s) on the slider and draws its picture",
                      page.is_visible("#timeline") and abs(lottie_max - 2.0) < 1e-6 and lottie_first is not None,
                      (lottie_max, page.text_content("#status")))
                page.select_option("#examples", str(spin))
                wait_rendered(page, lottie_first)
            else:
                check("a Lottie example is built in", False, names)
            page.click("#play")
            time.sleep(1.5)
            page.click("#play")
            check("play advances the time and pause stops it",
                  float(page.input_value("#time")) > 0 and page.get_attribute("#play", "aria-pressed") == "false",
                  page.input_value("#time"))
            page.click("#makeAPNG")
            page.wait_for_selector("#animation:not([hidden])", timeout=60000)
            apng = page.evaluate("""async () => {
                const r = await fetch(document.getElementById('animation').href);
                const b = new Uint8Array(await r.arrayBuffer());
                return {size: b.length, png: b[1] === 0x50 && b[2] === 0x4e, actl: new TextDecoder('latin1').decode(b.slice(0, 200)).includes('acTL')};
            }""")
            check("“Make animated PNG” gives an animated PNG of the scene", apng["size"] > 1000 and apng["png"] and apng["actl"], apng)
            if shutil.which("ffmpeg"):
                page.click("#makeMP4")
                page.wait_for_function("() => document.getElementById('animation').download === 'scene.mp4'", timeout=60000)
                mp4 = page.evaluate("""async () => {
                    const b = new Uint8Array(await (await fetch(document.getElementById('animation').href)).arrayBuffer());
                    return new TextDecoder('latin1').decode(b.slice(4, 8));
                }""")
                check("“Make MP4” gives an MP4 of the scene", mp4 == "ftyp", mp4)
            else:
                print("SKIP  “Make MP4”: no ffmpeg program on this machine")
            timings = page.text_content("#timings")
            check("the stage timings of Server-Timing are shown under the picture",
                  all(stage in timings for stage in ["queue", "decode", "render", "encode", "backend"]), timings)
            if screenshots:
                os.makedirs(screenshots, exist_ok=True)
                page.evaluate("() => { for (const id of ['scene', 'gutter']) document.getElementById(id).scrollTop = 0; }")
                page.screenshot(path=os.path.join(screenshots, "playground.png"))

            # The share link: the same scene in a new page.
            page.select_option("#examples", str(stick))
            original = wait_rendered(page)
            page.click("#share")
            page.wait_for_function("() => document.getElementById('shareLink').value !== ''", timeout=10000)
            link = page.input_value("#shareLink")
            other = browser.new_page(viewport={"width": 1280, "height": 860})
            other.on("console", console_error(errors))
            other.on("pageerror", lambda e: errors.append(str(e)))
            other.goto(link)
            shared = wait_rendered(other)
            check("a share link holds the scene in its fragment and opens the same scene and picture",
                  "#scene=" in link and other.input_value("#scene") == page.input_value("#scene") and shared == original,
                  link[:80])

            # The keyboard reaches every control, in order.
            other.focus("#examples")
            reached = []
            for _ in range(8):
                reached.append(other.evaluate("() => document.activeElement.id"))
                other.keyboard.press("Tab")
            check("Tab walks the controls: example, backend, scale, share, the editor",
                  reached[:5] == ["examples", "backend", "scale", "share", "scene"], reached)

            # Phone width: one column, nothing wider than the screen.
            phone = browser.new_page(viewport={"width": 375, "height": 740}, is_mobile=True)
            phone.on("console", console_error(errors))
            phone.goto(url + "/")
            wait_rendered(phone)
            width = phone.evaluate("() => document.documentElement.scrollWidth")
            check("at phone width (375 px) nothing is wider than the screen", width <= 375, width)
            if screenshots:
                phone.screenshot(path=os.path.join(screenshots, "playground-phone.png"), full_page=False)
            browser.close()
        check("no console errors", not errors, errors)
    finally:
        process.terminate()
        process.wait()


if __name__ == "__main__":
    screenshots = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
    server_checks()
    if CHROMIUM is None:
        print("SKIP  the playground in a browser: chromium is not installed (scripts/setup/install-packages.sh installs it)")
    else:
        browser_checks(screenshots)
    finish()
