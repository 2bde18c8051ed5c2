"""browser.py - drive Debian's headless chromium over the DevTools protocol on
a pipe (--remote-debugging-pipe: JSON messages ending in NUL, commands on fd 3,
answers on fd 4), so that a test can load a page, press keys, read the page's
state and take screenshots with nothing but the standard library.

    with Browser() as b:
        b.open("file:///tmp/page.html")
        b.key("ArrowRight")
        info = b.eval("JSON.stringify(sudokuReport.info())")
        b.screenshot("/tmp/shot.png")
"""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "ArrowUp": 38, "ArrowDown": 40, "Home": 36, "End": 35,
        "f": 70}


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        p = shutil.which(name)
        if p:
            return p
    return None


class BrowserError(Exception):
    pass


class Browser:
    def __init__(self, width=1400, height=1050, timeout=60):
        self.width, self.height, self.timeout = width, height, timeout
        self.proc = None
        self.next_id = 0
        self.session = None
        self.events = []
        self.buf = b""

    def __enter__(self):
        exe = find_chromium()
        if not exe:
            raise BrowserError("no chromium")
        self.profile = tempfile.mkdtemp(prefix="sudoku-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # chromium reads fd 3 and writes fd 4
        def child():
            a = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
                "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
                f"--window-size={self.width},{self.height}", "about:blank"]
        self.proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=child, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next((t for t in targets if t["type"] == "page"), None)
        if not page:
            page_id = self.call("Target.createTarget", url="about:blank")["targetId"]
        else:
            page_id = page["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=page_id,
                                 flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=self.width, height=self.height,
                  deviceScaleFactor=1, mobile=False)
        return self

    def __exit__(self, *exc):
        if self.proc:
            try:
                self.call("Browser.close", _session=False, _timeout=5)
            except Exception:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (getattr(self, "to_chrome", None), getattr(self, "from_chrome", None)):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        shutil.rmtree(getattr(self, "profile", ""), ignore_errors=True)
        return False

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("chromium did not answer in time")
            r, _, _ = select.select([self.from_chrome], [], [], left)
            if not r:
                continue
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, _session=True, _timeout=None, **params):
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params}
        if _session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + (_timeout or self.timeout)
        while True:
            m = self._read_message(deadline)
            if m.get("id") == mid:
                if "error" in m:
                    raise BrowserError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    del self.events[i]
                    return e
            self.events.append(self._read_message(deadline))

    def open(self, url):
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if "exceptionDetails" in r:
            raise BrowserError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def key(self, key):
        code = KEYS.get(key, 0)
        common = {"key": key, "code": key if len(key) > 1 else "Key" + key.upper(),
                  "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
        self.call("Input.dispatchKeyEvent", type="rawKeyDown", **common)
        if len(key) == 1:
            self.call("Input.dispatchKeyEvent", type="char", text=key, **common)
        self.call("Input.dispatchKeyEvent", type="keyUp", **common)

    def mouse_move(self, x, y):
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path
