#!/usr/bin/python3
"""hostile_clients.py - a real sudokud (a fresh one per case, on a Unix
socket in a temporary folder) against hostile clients, bounded in count and
time. One line per case: what was sent, what came back, whether the daemon
still served a well-behaved client, and its peak RSS (VmHWM from /proc).

Cases: fuzz (random bytes, lying headers, deep nesting, wrong shapes, every
method with wrong params, duplicate msgids), amplification (connections
holding incomplete messages as large as the limit allows), slowloris (half
requests trickling in on many connections), no-read (pipelined explain with
trace, never read), disconnects (requests then gone, mid-answer), reloads
under load (good, broken and plugin-aborting configs while solving).

Usage: tests/hostile_clients.py [--seconds S] [case ...]
(env SUDOKU_BUILD, SUDOKU_CONF, SUDOKU_DATA as for the integration tests).
Exit status 1 when a case finds a fault (the daemon died, a request went
unanswered or was answered twice, a well-behaved client was not served)."""

import argparse
import os
import random
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integration"))
from harness import BUILD, EASY, HARD, Daemon, make_conf, read_puzzles, valid_solution  # noqa: E402
import msgpack  # noqa: E402

METHODS = ["solve", "rate", "explain", "hint", "techniques", "trace", "status", "reload", "nope"]
CONF_LINES = ["read_timeout_ms = 1000", "idle_timeout_ms = 5000", "max_connections = 256",
              "max_connections_per_uid = 200", "load_timeout_ms = 3000", "max_output = 1M",
              "worker_memory = 512M", "deadline_ms = 5000", "max_input_memory = 64M"]


def kib(pid, key="VmHWM"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


def connect(d, timeout=5):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(d.sock)  # blocking: waits while the listen backlog is full
    s.settimeout(timeout)
    return s


def drain(s, until, want=None):
    """Messages read until the peer closes, want messages came, or until."""
    u = msgpack.Unpacker(raw=False, strict_map_key=False)
    out = []
    while time.monotonic() < until and (want is None or len(out) < want):
        s.settimeout(max(0.05, min(1.0, until - time.monotonic())))
        try:
            data = s.recv(1 << 16)
        except socket.timeout:
            continue
        except OSError:
            break
        if not data:
            break
        try:
            u.feed(data)
            out.extend(u)
        except Exception:  # noqa: BLE001 - the daemon never sends garbage; count it
            out.append("garbage")
            break
    return out


def served(d, timeout=10):
    """A well-behaved client (retrying when told busy) gets a right answer:
    seconds it took, None when not within timeout."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        try:
            r = d.rpc()
            r.s.settimeout(timeout)
            res = r.call("solve", {"puzzle": HARD})
            r.close()
            if not valid_solution(HARD, res.get("solution", "")):
                return None
            return time.monotonic() - t0
        except Exception:  # noqa: BLE001 - busy (slots), closed: try again
            time.sleep(0.1)
    return None


class Case:
    def __init__(self, name, d):
        self.name, self.d, self.faults, self.notes = name, d, [], []

    def fault(self, what):
        self.faults.append(what)

    def line(self, sent, got, extra=""):
        alive = self.d.proc.poll() is None
        if not alive:
            self.fault("the daemon died")
        lat = served(self.d) if alive else None
        if lat is None:
            self.fault("a well-behaved client was not served")
        peak = kib(self.d.proc.pid) if alive else -1
        ok = "ok" if not self.faults else "FAULT: " + "; ".join(self.faults[:3])
        served_txt = f"{lat:.2f} s" if lat is not None else "no"
        print(f"{self.name:14s} | sent {sent} | got {got} | {extra}{'; ' if extra else ''}"
              f"good client served in {served_txt} | daemon peak RSS {peak / 1024:.1f} MiB | {ok}",
              flush=True)
        return not self.faults


def fuzz_message(rng, msgid):
    """A hostile message; returns (bytes, msgid it answers to or None, closes)."""
    k = rng.randrange(10)
    if k == 0:  # random bytes
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))), None, True
    if k == 1:  # lying headers
        return rng.choice([b"\xdd\x10\x00\x00\x00", b"\xdf\xff\xff\xff\xff", b"\xdb\x7f\xff\xff\xff",
                           b"\xc6\xff\xff\xff\xff", b"\xdd\x01\x00\x00\x00" + b"\xc0" * 1000]), None, True
    if k == 2:  # deep nesting
        return b"\x91" * rng.choice([33, 100, 10000]), None, True
    if k == 3:  # wrong shapes, well-formed msgpack
        shape = rng.choice([{"a": 1}, [0], [0, msgid], [3, msgid, "solve", []], "x", 5,
                            [0, -1, "solve", [{}]], [0, msgid, 5, [{}]]])
        answers = msgid if isinstance(shape, list) and len(shape) == 4 and shape[1] == msgid \
            and shape[0] == 0 else None
        return msgpack.packb(shape), answers, False
    method = rng.choice(METHODS)
    junk = rng.choice([None, 5, "x" * rng.randrange(200), [1, 2], {"k": "v"}, True, -3, 1.5,
                       EASY, [EASY, "bad"], b"\x00\x01"])
    key = rng.choice(["puzzle", "puzzles", "profile", "no_guess", "techniques", "all", "logic",
                      "trace", "max_trace", "assumption", "als", "progress", "bogus"])
    params = {key: junk}
    if rng.random() < 0.5 and method not in ("status", "reload", "techniques"):
        params.setdefault("puzzle", EASY)
    if method == "reload" and rng.random() < 0.8:
        method = "status"  # keep reloads rare here: they have their own case
    return msgpack.packb([0, msgid, method, [params]], use_bin_type=True), msgid, False


def case_fuzz(d, seconds, rng):
    c = Case("fuzz", d)
    sent = answered = twice = missing = 0
    until = time.monotonic() + seconds
    msgid = 1
    while time.monotonic() < until and sent < 5000:
        s = connect(d)
        expect = {}
        closes = False
        batch = []
        for _ in range(rng.randrange(1, 20)):
            data, mid, cl = fuzz_message(rng, msgid)
            msgid += 1
            batch.append(data)
            if mid is not None:
                expect[mid] = 0
            if cl:
                closes = True
                break
        try:
            s.sendall(b"".join(batch))
            s.shutdown(socket.SHUT_WR)  # half-close: the daemon answers, then closes
        except OSError:
            pass
        sent += len(batch)
        msgs = drain(s, time.monotonic() + 15)
        s.close()
        for m in msgs:
            if m == "garbage" or not isinstance(m, list) or len(m) != 4 or m[0] != 1:
                if m == "garbage":
                    c.fault("the daemon sent bytes that are not msgpack")
                continue
            if m[1] in expect:
                expect[m[1]] += 1
        for mid, n in expect.items():
            if n == 0:
                missing += 1
                if os.environ.get("HOSTILE_DEBUG"):
                    print("unanswered", mid, [b[:80] for b in batch], msgs)
            if n > 1:
                twice += 1
            answered += n > 0
        if d.proc.poll() is not None:
            break
    if missing:
        c.fault(f"{missing} requests unanswered")
    if twice:
        c.fault(f"{twice} answered twice")
    return c.line(f"{sent} messages", f"{answered} answers to readable msgids",
                  f"{missing} unanswered, {twice} twice")


def case_amplification(d, seconds, rng):
    """48 connections each holding an incomplete array of nils just under
    the message limit (600,000 elements: 14.4 MB parsed, 0.6 MB sent), then
    8 each sending 15 MB of a 16 MB string: max_input_memory (64 MiB here)
    refuses the ones past it."""
    c = Case("amplification", d)
    conns = []
    until = time.monotonic() + seconds
    n = 600000
    nils = b"\xdd" + n.to_bytes(4, "big") + b"\xc0" * (n - 10)
    big = b"\xdb" + (16_000_000).to_bytes(4, "big") + b"x" * 15_000_000
    for i in range(56):
        if time.monotonic() > until:
            break
        try:
            s = connect(d, timeout=1)
            conns.append(s)
            s.sendall(nils if i < 48 else big)
        except OSError:
            pass  # refused while sending: its answer is read below
    time.sleep(0.3)
    codes = {}
    for s in conns:
        for m in drain(s, time.monotonic() + 2.5):
            if isinstance(m, list) and m[2]:
                codes[m[2]["code"]] = codes.get(m[2]["code"], 0) + 1
        s.close()
    return c.line(f"{min(len(conns), 48)} x 0.6 MB nil arrays (14.4 MB parsed each), "
                  f"{max(0, len(conns) - 48)} x 15 MB strings",
                  ", ".join(f"{k} x{v}" for k, v in sorted(codes.items())) or "nothing",
                  "issue: ~365 MB held per 16 MB connection before")


def case_slowloris(d, seconds, rng):
    """250 connections each with half a request, a byte every 0.3 s: past
    the uid's 200 slots they are refused (told why); the rest are timed out
    after read_timeout_ms whatever they trickle, which frees the slots."""
    c = Case("slowloris", d)
    req = msgpack.packb([0, 1, "solve", [{"puzzle": EASY}]])
    conns = []
    for _ in range(250):
        try:
            s = connect(d)
            s.sendall(req[:len(req) // 2])
            conns.append(s)
        except OSError:
            pass
    until = time.monotonic() + min(seconds, 4)
    pos = len(req) // 2
    lat_during = served(d)
    while time.monotonic() < until:
        for s in conns:
            try:
                s.send(req[pos:pos + 1])
            except OSError:
                pass
        pos = min(pos + 1, len(req) - 2)
        time.sleep(0.3)
    codes = {}
    for s in conns:
        for m in drain(s, time.monotonic() + 1):
            if isinstance(m, list) and m[2]:
                codes[m[2]["code"]] = codes.get(m[2]["code"], 0) + 1
        s.close()
    if lat_during is None:
        c.fault("not served while 200 stalled")
    lat = f"{lat_during:.2f} s" if lat_during is not None else "no"
    return c.line("250 half requests trickling (one uid: 200 slots)",
                  ", ".join(f"{k} x{v}" for k, v in sorted(codes.items())),
                  f"same-uid client served during the stall in {lat}")


def case_no_read(d, seconds, rng):
    """4 connections pipeline explain with trace (50 KB answers) and never
    read: their jobs wait once max_output (1 MiB here) is unsent; after
    idle_timeout_ms (5 s here) of taking nothing they are dropped."""
    c = Case("no-read", d)
    conns = []
    n = 2000
    req = b"".join(msgpack.packb([0, i, "explain", [{"puzzle": EASY, "trace": True,
                                                     "max_trace": 5000}]]) for i in range(n))
    for _ in range(4):
        s = connect(d, timeout=seconds)
        s.setblocking(False)
        conns.append([s, 0])
    t0 = time.monotonic()
    until = t0 + seconds
    mid = None
    while time.monotonic() < until:
        for cs in conns:
            if cs[1] < len(req):
                try:
                    cs[1] += cs[0].send(req[cs[1]:cs[1] + 65536])
                except (BlockingIOError, OSError):
                    pass
        if mid is None and time.monotonic() - t0 > min(2.0, seconds / 2):
            r = d.rpc()
            mid = r.call("status", {})
            r.close()
        time.sleep(0.05)
    r = d.rpc()
    end = r.call("status", {})
    r.close()
    for cs in conns:
        cs[0].close()
    mid = mid or end
    return c.line(f"4 x {n} explain+trace, never read",
                  f"after {min(2.0, seconds / 2):.0f} s: {mid['jobs']} jobs held, {mid['busy']} "
                  f"workers busy; after {seconds:.0f} s: {end['connections'] - 1} of 4 connections "
                  f"left, {end['jobs']} jobs",
                  f"{sum(cs[1] for cs in conns) // 1024} KiB of requests taken")


def case_disconnects(d, seconds, rng):
    """Requests (single and batch) and gone at once, or after half an answer."""
    c = Case("disconnects", d)
    puzzles = read_puzzles("top1465.txt", 200)
    until = time.monotonic() + seconds
    n = 0
    while time.monotonic() < until and n < 1500:
        s = connect(d)
        what = rng.randrange(3)
        try:
            if what == 0:
                s.sendall(msgpack.packb([0, 1, "rate", [{"puzzles": puzzles[:50]}]]))
            elif what == 1:
                s.sendall(msgpack.packb([0, 1, "explain", [{"puzzle": HARD, "trace": True}]]))
                s.recv(100)
            else:
                s.sendall(msgpack.packb([0, 1, "solve", [{"puzzle": EASY}]])[:7])
        except OSError:
            pass
        s.close()
        n += 1
    deadline = time.monotonic() + 30
    r = d.rpc()
    while time.monotonic() < deadline:
        st = r.call("status", {})
        if st["jobs"] == 0 and st["connections"] == 1:
            break
        time.sleep(0.2)
    r.close()
    if st["jobs"] or st["connections"] != 1:
        c.fault(f"left behind: {st['jobs']} jobs, {st['connections']} connections")
    return c.line(f"{n} connections gone mid-request", f"then jobs {st['jobs']}, "
                  f"connections {st['connections']}")


def case_reloads(d, seconds, rng):
    """4 clients solve while reloads run every 0.2 s: the good config, a
    broken file, a plugin whose constructor aborts."""
    c = Case("reloads", d)
    with open(d.conf) as f:
        good = f.read()
    bad_plugin = good.replace("[sudokud]\n", f"[sudokud]\nplugin = {BUILD}/test-plugins/ctor_abort.so\n", 1)
    puzzles = read_puzzles("top1465.txt", 300)
    stop = time.monotonic() + seconds
    counts = {"ok": 0, "wrong": 0, "error": 0}
    lock = threading.Lock()

    def solver(k):
        try:
            r = d.rpc()
            i = k
            while time.monotonic() < stop:
                p = puzzles[i % len(puzzles)]
                i += 4
                try:
                    res = r.call("solve", {"puzzle": p})
                    key = "ok" if valid_solution(p, res["solution"]) else "wrong"
                except Exception:  # noqa: BLE001
                    key = "error"
                with lock:
                    counts[key] += 1
            r.close()
        except Exception:  # noqa: BLE001
            with lock:
                counts["error"] += 1

    ts = [threading.Thread(target=solver, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    outcomes = {}
    r = d.rpc()
    while time.monotonic() < stop:
        text = rng.choice([good, good, "[sudokud\nbroken\n", bad_plugin])
        with open(d.conf, "w") as f:
            f.write(text)
        m = r.response(r.send("reload", {}))
        key = "ok" if m[2] is None else m[2]["code"]
        outcomes[key] = outcomes.get(key, 0) + 1
        time.sleep(0.2)
    for t in ts:
        t.join(60)
    with open(d.conf, "w") as f:
        f.write(good)
    r.close()
    if counts["wrong"] or counts["error"]:
        c.fault(f"{counts['wrong']} wrong, {counts['error']} errors among solves")
    return c.line(f"{sum(outcomes.values())} reloads + solves on 4 connections",
                  "reloads " + ", ".join(f"{k} x{v}" for k, v in sorted(outcomes.items()))
                  + f"; solves ok {counts['ok']}, wrong {counts['wrong']}, errors {counts['error']}")


CASES = {"fuzz": case_fuzz, "amplification": case_amplification, "slowloris": case_slowloris,
         "no-read": case_no_read, "disconnects": case_disconnects, "reloads": case_reloads}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="time bound per case")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("cases", nargs="*", default=list(CASES))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    good = True
    for name in a.cases:
        tmp = tempfile.mkdtemp(prefix="sudokud-hostile-")
        conf = make_conf(os.path.join(tmp, "sudokud.conf"), sudokud=CONF_LINES)
        d = Daemon(conf=conf, tmp=tmp)
        try:
            d.start()
            good &= CASES[name](d, a.seconds, rng)
            d.proc.send_signal(signal.SIGTERM)
            rc = d.proc.wait(30)
            with open(d.log, errors="replace") as f:
                log = f.read()
            bad = [ln for ln in log.splitlines()
                   if "ERROR: AddressSanitizer" in ln or "ERROR: LeakSanitizer" in ln
                   or "runtime error:" in ln]
            if rc != 0 or bad:
                print(f"{name:14s} | FAULT: the daemon exited with {rc}; {bad[:2]}", flush=True)
                good = False
        finally:
            d.stop()
            shutil.rmtree(tmp, ignore_errors=True)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
