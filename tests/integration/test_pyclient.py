#!/usr/bin/python3
"""test_pyclient.py - the Python client module (python/sudokud) against a
real sudokud: finding the socket as sudoctl does, every method, batches in
input order and streamed (an endless generator), busy answers retried,
errors as exceptions carrying the wire's code and message."""

import itertools
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# the module under test: from the source tree unless PYTHONPATH says otherwise
sys.path.insert(1, os.path.join(os.environ.get("SUDOKU_SOURCE", os.path.join(HERE, "../..")), "python"))
from harness import (EASY, HARD, SUDOCTL, Daemon, check, eq, main, make_conf, read_puzzles,  # noqa: E402
                     valid_solution)

from sudoctl_common import kill_matching, pids_with  # noqa: E402
import sudokud  # noqa: E402
from sudokud import Client, PuzzleError, SudokudError  # noqa: E402


def test_socket():
    """Client() finds the per-user socket as sudoctl does; a missing daemon
    is a ConnectionError naming the path."""
    tmp = tempfile.mkdtemp(prefix="pyclient-")
    old = os.environ.get("XDG_RUNTIME_DIR")
    try:
        os.environ["XDG_RUNTIME_DIR"] = tmp
        eq(sudokud.default_socket(), os.path.join(tmp, "sudokud.sock"), "default socket")
        try:
            Client()
            check(False, "no daemon: should fail")
        except ConnectionError as e:
            check(os.path.join(tmp, "sudokud.sock") in str(e), str(e))
        with Daemon(tmp=tmp, sock=os.path.join(tmp, "sudokud.sock")) as d:
            with Client() as c:
                eq(c.status()["pid"], d.proc.pid, "status through the default socket")
        del os.environ["XDG_RUNTIME_DIR"]
        eq(sudokud.default_socket(), "/run/sudokud/sudokud.sock", "system socket without XDG")
    finally:
        if old is None:
            os.environ.pop("XDG_RUNTIME_DIR", None)
        else:
            os.environ["XDG_RUNTIME_DIR"] = old
        shutil.rmtree(tmp, ignore_errors=True)


def test_autostart():
    """autostart=True: no daemon on the default socket, sudoctl starts one."""
    tmp = tempfile.mkdtemp(prefix="pyclient-auto-")
    old = os.environ.get("XDG_RUNTIME_DIR")
    try:
        os.environ["XDG_RUNTIME_DIR"] = tmp
        with Client(autostart=True, sudoctl=SUDOCTL, timeout=60) as c:
            eq(c.solve(EASY)["status"], "unique", "solve on the started daemon")
            check(c.status()["pid"] in pids_with(tmp), "a sudokud on the temp socket")
        try:
            Client(os.path.join(tmp, "other.sock"), autostart=True, sudoctl=SUDOCTL)
            check(False, "a given socket is never autostarted (as sudoctl)")
        except ConnectionError:
            pass
    finally:
        if old is None:
            os.environ.pop("XDG_RUNTIME_DIR", None)
        else:
            os.environ["XDG_RUNTIME_DIR"] = old
        kill_matching(tmp)
        shutil.rmtree(tmp, ignore_errors=True)


def test_methods():
    with Daemon() as d, Client(d.sock, timeout=60) as c:
        r = c.solve(EASY)
        eq(r["status"], "unique", "solve")
        check(valid_solution(EASY, r["solution"]), "solution")
        r = c.rate(HARD)
        want = json.loads(d.sudoctl("--json", "rate", HARD).stdout)
        eq((r["er"], r["ep"], r["ed"], r["hardest"]),
           (want["er"], want["ep"], want["ed"], want["hardest"]), "rate = sudoctl's")
        check(r["ep_technique"] and r["ed_technique"], "EP/ED techniques")
        check("time" not in r and c.rate(HARD, timing=True)["time"] >= 0, "timing on request")
        r = c.explain(EASY)
        check(r["solved"] and r["steps"][0]["text"], "explain")
        r = c.hint(EASY, techniques="naked-single,hidden-single-box", all=True)
        check(len(r["steps"]) > 1, "hint --all")
        check({s["technique"] for s in r["steps"]} <= {"naked-single", "hidden-single-box"}, "only")
        r = c.trace(EASY, "r1c2=1")
        eq(r["assumption"], "r1c2=1", "trace")
        t = c.techniques()
        check(any(x["id"] == "naked-single" for x in t), "techniques")
        eq(c.techniques("fast")[0]["id"], "full-house", "techniques of a profile")
        r = c.solve(EASY, logic=True)
        check(r["solved"] and r["steps"], "solve logic")


def test_batches():
    puzzles = read_puzzles("top1465.txt", 300)
    with Daemon() as d, Client(d.sock, chunk=16, window=4) as c:
        out = list(c.solve(puzzles))
        eq([r["puzzle"] for r in out], puzzles, "order kept over 19 requests")
        check(all(valid_solution(p, r["solution"]) for p, r in zip(puzzles, out)), "solutions")
        # the same as one call per puzzle
        for i in (0, 17, 299):
            eq(c.rate(puzzles[i])["er"], list(c.rate(puzzles[i:i + 1]))[0]["er"], "batch = single")
        # streamed: an endless generator, only what is read is asked for
        first = list(itertools.islice(c.rate(itertools.cycle(puzzles[:5])), 23))
        eq([r["puzzle"] for r in first], (puzzles[:5] * 5)[:23], "endless input, order kept")
        # the answers of that batch still in flight are dropped, not kept
        eq([r["puzzle"] for r in c.solve(puzzles[:50])], puzzles[:50], "next batch")
        eq(c._early, {}, "no answer left over")
        # an open file is a batch: line ends dropped, blank and # lines skipped
        path = os.path.join(d.tmp, "p.txt")
        with open(path, "w") as f:
            f.write("# a comment\n" + "\n".join(puzzles[:7]) + "\n\n")
        with open(path) as f:
            eq([r["puzzle"] for r in c.solve(f)], puzzles[:7], "a file")
        # other calls while a batch runs
        it = c.rate(puzzles[:40])
        a = [next(it) for _ in range(3)]
        eq(c.status()["pid"], d.proc.pid, "status mid-batch")
        eq([r["puzzle"] for r in a + list(it)], puzzles[:40], "batch after a call")


def test_errors():
    with Daemon() as d, Client(d.sock) as c:
        try:
            c.rate("12345")
            check(False, "bad puzzle should raise")
        except PuzzleError as e:
            eq((e.code, e.message, e.puzzle), ("bad-format", "5 cells, expected 81", "12345"), "error")
        try:
            c.rate(EASY, profile="nosuch")
            check(False, "unknown profile should raise")
        except PuzzleError:
            check(False, "a request error is not a puzzle error")
        except SudokudError as e:
            eq(e.code, "unknown-profile", "code")
            check("nosuch" in e.message, e.message)
        batch = [EASY, "12345", HARD, EASY[:-1] + "5"]
        out = list(c.solve(batch, errors="yield"))
        eq(len(out), 4, "every puzzle answered")
        check(isinstance(out[1], PuzzleError) and out[1].index == 1 and out[1].code == "bad-format",
              "the bad one in its place")
        eq(out[2]["puzzle"], HARD, "then the rest")
        it = c.rate(batch)
        eq(next(it)["puzzle"], EASY, "first")
        try:
            next(it)
            check(False, "errors='raise' raises at the bad puzzle")
        except PuzzleError as e:
            eq((e.index, e.code), (1, "bad-format"), "raised in place")
        try:
            c.trace(EASY, "r1c1=9")
            check(False, "a solved cell")
        except SudokudError as e:
            eq(e.code, "bad-request", "trace error")
        try:
            list(c.rate([EASY, 5]))
            check(False, "not a str")
        except TypeError:
            pass


def test_busy():
    """A daemon with a tiny queue answers busy; the client retries and still
    gives every result, in order."""
    tmp = tempfile.mkdtemp(prefix="pyclient-busy-")
    try:
        conf = make_conf(os.path.join(tmp, "busy.conf"), sudokud=["max_queue = 2"])
        # puzzles slow enough (top1465: ~8 ms each) that 32 requests in
        # flight outrun two workers; easy ones drained as fast as they came
        puzzles = read_puzzles("top1465.txt", 100)
        with Daemon(conf=conf, tmp=tmp) as d, Client(d.sock, chunk=4, window=32) as c:
            eq([r["puzzle"] for r in c.rate(puzzles)], puzzles, "all results, in order")
            check(c.busy_retries > 0, "the daemon did answer busy")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


TESTS = {"socket": test_socket, "autostart": test_autostart, "methods": test_methods, "batches": test_batches,
         "errors": test_errors, "busy": test_busy}

if __name__ == "__main__":
    sys.exit(main(TESTS))
