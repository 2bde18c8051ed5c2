"""harness.py - what the integration tests share: start a real sudokud on a
temporary socket (and always stop it), a raw msgpack-rpc client, temporary
configs, puzzle data, solution checks and a tiny test runner with a time bound.

Run with /usr/bin/python3 (python3-msgpack from Debian)."""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

import msgpack

BUILD = os.environ.get("SUDOKU_BUILD", os.path.join(os.path.dirname(__file__), "../../build"))
SOURCE = os.environ.get("SUDOKU_SOURCE", os.path.join(os.path.dirname(__file__), "../.."))
CONF = os.environ.get("SUDOKU_CONF", os.path.join(BUILD, "etc/sudokud/sudokud.conf"))
DATA = os.environ.get("SUDOKU_DATA", os.path.join(SOURCE, "../shared/data"))
SUDOKUD = os.path.join(BUILD, "bin", "sudokud")
SUDOCTL = os.path.join(BUILD, "bin", "sudoctl")

EASY = "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
# Arto Inkala's puzzle: needs more than singles.
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


class TestFailure(Exception):
    pass


class Timeout(Exception):
    pass


class Skipped(Exception):
    """A test that cannot run here (raise skip(why)): reported as skipped."""


# The exit status ctest reads as "skipped" (SKIP_RETURN_CODE in CMakeLists.txt).
SKIP_RETURN_CODE = 77


def skip(why):
    raise Skipped(why)


def check(cond, what):
    if not cond:
        raise TestFailure(what)


def eq(a, b, what):
    if a != b:
        raise TestFailure(f"{what}: got {a!r}, expected {b!r}")


def read_puzzles(name, n=None, stride=1):
    out = []
    with open(os.path.join(DATA, name)) as f:
        for i, line in enumerate(f):
            line = line.strip()
            if not line or line.startswith("#") or i % stride:
                continue
            out.append(line)
            if n is not None and len(out) >= n:
                break
    return out


def valid_solution(puzzle81, sol):
    """sol is a complete valid grid that keeps the puzzle's givens."""
    if not isinstance(sol, str) or len(sol) != 81 or not all(c in "123456789" for c in sol):
        return False
    for i, c in enumerate(puzzle81[:81]):
        if c in "123456789" and sol[i] != c:
            return False
    houses = [[r * 9 + c for c in range(9)] for r in range(9)]
    houses += [[r * 9 + c for r in range(9)] for c in range(9)]
    houses += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
    return all(sorted(sol[i] for i in h) == list("123456789") for h in houses)


def cand(s):
    """'r1c2=5' -> (cell, digit, True); 'r3c2<>7' -> (cell, digit, False)."""
    r, c = int(s[1]), int(s[3])
    if s[4] == "=":
        return (r - 1) * 9 + c - 1, int(s[5]), True
    return (r - 1) * 9 + c - 1, int(s[6]), False


# ---- a temporary config ---------------------------------------------------


# The techniques of the core plugins (singles, intersections, subsets, trial
# and error): quick on every puzzle, so the tests stay fast whatever the full
# ladder costs on hard puzzles.
FAST = ["full-house", "hidden-single-box", "hidden-single-line", "naked-single", "pointing",
        "claiming", "locked-pair", "naked-pair", "hidden-pair", "locked-triple", "naked-triple",
        "hidden-triple", "naked-quad", "hidden-quad", "bifurcation"]


def make_conf(path, sudokud=("default_profile = fast",), profiles=None, base=CONF, workers=2):
    """Write a config at path: the build tree's config with plugin_dir made
    absolute, workers fixed, extra [sudokud] lines (replacing the same keys),
    extra profile sections ({name: [ids or 'id = options']}, replacing the
    base's section of that name) and a profile `fast` (FAST), the default
    unless sudokud says otherwise."""
    profiles = dict(profiles or {})
    profiles.setdefault("fast", FAST)
    if not any(ln.split("=", 1)[0].strip() == "default_profile" for ln in sudokud):
        sudokud = list(sudokud) + ["default_profile = fast"]
    base_dir = os.path.dirname(os.path.abspath(base))
    # keys given in `sudokud` replace the base's (plugin lines add up)
    override = {ln.split("=", 1)[0].strip() for ln in sudokud if "=" in ln} - {"plugin"}
    out = []
    section = None
    with open(base) as f:
        for line in f:
            s = line.strip()
            if s.startswith("["):
                section = s
                # a profile the test defines replaces the base's of that name
                if s.startswith("[profile ") and s[9:-1].strip() in profiles:
                    section = "skip"
                    continue
                out.append(line.rstrip("\n"))
                if s == "[sudokud]":
                    out.append(f"workers = {workers}")
                    out.extend(sudokud)
                continue
            if section == "skip":
                continue
            if section == "[sudokud]":
                key = s.split("=", 1)[0].strip()
                if key == "workers" or key in override:
                    continue
                if key == "plugin_dir":
                    val = s.split("=", 1)[1].split(";")[0].strip()
                    out.append("plugin_dir = " + os.path.normpath(os.path.join(base_dir, val)))
                    continue
            out.append(line.rstrip("\n"))
    for name, ids in profiles.items():
        out.append("")
        out.append(f"[profile {name}]")
        for t in ids:
            out.append(t if "=" in t else t + " =")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path


# ---- the daemon -------------------------------------------------------------


class Daemon:
    """A sudokud on a socket in a fresh temporary folder; a context manager
    that always stops it (SIGTERM, then SIGKILL of its process group)."""

    def __init__(self, conf=None, exe=SUDOKUD, env=None, tmp=None, args=(), sock=None, wrap=(),
                 pass_fds=()):
        self.tmp = tmp or tempfile.mkdtemp(prefix="sudokud-it-")
        self.own_tmp = tmp is None
        self.sock = sock or os.path.join(self.tmp, "sudokud.sock")
        self.args = list(args)  # more options for sudokud
        self.wrap = list(wrap)  # a command that execs sudokud (argv follows)
        self.pass_fds = tuple(pass_fds)
        self.conf = conf or make_conf(os.path.join(self.tmp, "sudokud.conf"))
        self.exe = exe
        self.env = env
        self.proc = None
        self.log = os.path.join(self.tmp, "sudokud.log")

    def start(self, wait=15.0):
        logf = open(self.log, "ab")
        self.proc = subprocess.Popen(
            self.wrap + [self.exe, "--foreground", "--socket", self.sock, "--config", self.conf]
            + self.args,
            stdin=subprocess.DEVNULL, stdout=logf, stderr=logf,
            start_new_session=True, env=self.env, pass_fds=self.pass_fds)
        logf.close()
        deadline = time.time() + wait
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise TestFailure(f"sudokud exited with {self.proc.returncode}: {self.log_text()}")
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(self.sock)
                s.close()
                return self
            except OSError:
                time.sleep(0.02)
        raise TestFailure(f"sudokud did not open {self.sock} in {wait} s: {self.log_text()}")

    def log_text(self):
        try:
            with open(self.log, errors="replace") as f:
                return f.read()[-4000:]
        except OSError:
            return ""

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
        if self.proc:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(5)
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        if self.own_tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
        return False

    def rpc(self):
        return Rpc(self.sock)

    def sudoctl(self, *args, input=None, timeout=60, exe=SUDOCTL, env=None):
        return run([exe, "--socket", self.sock, "--no-autostart", *args], input=input,
                   timeout=timeout, env=env)


def run(argv, input=None, timeout=60, env=None):
    p = subprocess.run(argv, input=input, capture_output=True, text=True, timeout=timeout, env=env)
    return p


# ---- raw msgpack-rpc -----------------------------------------------------------


class Rpc:
    def __init__(self, path, timeout=60):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        self.next_id = 1
        self.pending = []  # messages read but not yet returned

    def close(self):
        self.s.close()

    def send_raw(self, data):
        self.s.sendall(data)

    def send(self, method, params=None, msgid=None):
        if msgid is None:
            msgid = self.next_id
            self.next_id += 1
        self.send_raw(msgpack.packb([0, msgid, method, [params or {}]], use_bin_type=True))
        return msgid

    def recv(self):
        """The next message (a list), or None at end of stream."""
        while True:
            for msg in self.unpacker:
                return msg
            data = self.s.recv(1 << 16)
            if not data:
                return None
            self.unpacker.feed(data)

    def response(self, msgid):
        """Wait for msgid's response (other messages are kept)."""
        for i, m in enumerate(self.pending):
            if m[0] == 1 and m[1] == msgid:
                return self.pending.pop(i)
        while True:
            m = self.recv()
            if m is None:
                raise TestFailure(f"connection closed while waiting for msgid {msgid}")
            if m[0] == 1 and m[1] == msgid:
                return m
            self.pending.append(m)

    def call(self, method, params=None):
        """result, or raises with the error."""
        m = self.response(self.send(method, params))
        if m[2] is not None:
            raise RpcError(m[2])
        return m[3]

    def call_error(self, method, params=None):
        """The error map of a call that must fail."""
        m = self.response(self.send(method, params))
        check(m[2] is not None, f"{method} {params!r} should fail, got {str(m[3])[:200]}")
        check(m[3] is None, "result must be nil with an error")
        return m[2]


class RpcError(Exception):
    def __init__(self, err):
        super().__init__(f"{err.get('code')}: {err.get('message')}")
        self.err = err


# ---- a tiny runner ------------------------------------------------------------


def main(tests, time_limit=240):
    """Run the named tests (argv, default all); each within time_limit seconds
    (SIGALRM raises, so cleanups run and no daemon is left behind)."""

    def on_alarm(sig, frame):
        raise Timeout(f"test took more than {time_limit} s")

    def on_term(sig, frame):
        raise Timeout("terminated")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_term)
    names = sys.argv[1:] or list(tests)
    failed = passed = skipped = 0
    for name in names:
        if name not in tests:
            print(f"unknown test {name}; have {', '.join(tests)}")
            return 2
        t0 = time.time()
        signal.alarm(time_limit)
        try:
            tests[name]()
            signal.alarm(0)
            passed += 1
            print(f"PASS {name} ({time.time() - t0:.2f} s)", flush=True)
        except Skipped as e:
            signal.alarm(0)
            skipped += 1
            print(f"SKIP {name}: {e}", flush=True)
        except Exception:
            signal.alarm(0)
            failed += 1
            print(f"FAIL {name} ({time.time() - t0:.2f} s)", flush=True)
            traceback.print_exc()
    if failed:
        return 1
    return SKIP_RETURN_CODE if skipped and not passed else 0
