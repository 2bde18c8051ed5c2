#!/usr/bin/python3
"""test_cli.py - sudoctl against a real sudokud: every command, the JSON
fields, text and HTML output, input formats and batches in input order, exit
status, and starting a per-user daemon on demand."""

import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (DATA, EASY, HARD, SUDOCTL, Daemon, check, eq, main, make_conf, read_puzzles, run,  # noqa: E402
                     valid_solution)
from sudoctl_common import CHAINY, pids_with, printed, stop_autostarted, sudoctl_argv  # noqa: E402

DUTCH = "..76.......3.45..2......59........4..41.2....3....9...5..7.49...8.9...7...4..2.8."

STEP_FIELDS = {"technique", "name", "difficulty", "placements", "eliminations", "text"}


def jlines(out):
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_json():
    with Daemon() as d:
        p = d.sudoctl("--json", "solve", EASY)
        eq(p.returncode, 0, "solve rc " + p.stderr)
        [o] = jlines(p.stdout)
        eq(set(o), {"puzzle", "status", "solution", "solutions", "guesses"}, "solve fields (all the wire's)")
        eq(o["status"], "unique", "status")
        check(valid_solution(EASY, o["solution"]), "solution")

        p = d.sudoctl("--json", "rate", EASY, HARD)
        eq(p.returncode, 0, "rate rc " + p.stderr)
        a, b = jlines(p.stdout)
        eq(set(a), {"puzzle", "er", "ep", "ed", "level", "score", "hardest", "solved", "steps",
                    "ep_technique", "ed_technique"}, "rate fields")
        eq((a["puzzle"], b["puzzle"]), (EASY, HARD), "rate order")
        check(b["er"] > a["er"], "hard above easy")

        p = d.sudoctl("--json", "explain", EASY)
        eq(p.returncode, 0, "explain rc " + p.stderr)
        [o] = jlines(p.stdout)
        check({"puzzle", "solved", "steps", "status"} <= set(o), f"explain fields {set(o)}")
        check(o["solved"] and o["steps"], "explain steps")
        for s in o["steps"]:
            check(STEP_FIELDS <= set(s) <= STEP_FIELDS | {"links", "marks", "houses", "truncated"},
                  f"step fields {set(s)}")
            check("links" not in s or s["links"], "links only when present")

        p = d.sudoctl("--json", "hint", EASY)
        [o] = jlines(p.stdout)
        eq(set(o), {"puzzle", "steps"}, "hint fields")
        eq(len(o["steps"]), 1, "one hint")
        p = d.sudoctl("--json", "hint", "--all", "--technique", "naked-single,hidden-single-box", EASY)
        [o] = jlines(p.stdout)
        check(len(o["steps"]) > 1, "hint --all")
        check({s["technique"] for s in o["steps"]} <= {"naked-single", "hidden-single-box"}, "only those")

        p = d.sudoctl("--json", "solve", "12345")
        eq(p.returncode, 1, "invalid puzzle rc")
        [o] = jlines(p.stdout)
        eq(set(o), {"puzzle", "error"}, "failure fields")
        eq(set(o["error"]), {"code", "message"}, "error fields")
        eq(o["error"]["code"], "bad-format", "code")

        p = d.sudoctl("--json", "trace", "r1c2=1", EASY, HARD)
        eq(p.returncode, 0, "trace rc " + p.stderr)
        a, b = jlines(p.stdout)
        eq(set(a), {"puzzle", "assumption", "lines", "contradiction", "summary"}, "trace fields")
        eq((a["puzzle"], b["puzzle"], a["contradiction"]), (EASY, HARD, True), "trace batch")

        p = d.sudoctl("--json", "explain", "--trace", EASY)
        [o] = jlines(p.stdout)
        check({"puzzle", "solved", "steps", "trace", "trace_status", "trace_truncated", "status",
               "trace_seconds"} <= set(o), f"explain --trace fields {set(o)}")

        p = d.sudoctl("--json", "solve", "--logic", EASY)
        [o] = jlines(p.stdout)
        check(o["solved"] and o["steps"] and o["status"] == "unique", "solve --logic")

        p = d.sudoctl("--json", "techniques")
        eq(p.returncode, 0, "techniques rc")
        o = json.loads(p.stdout)
        check(any(t["id"] == "naked-single" for t in o["techniques"]), "techniques json")
        p = d.sudoctl("--json", "status")
        o = json.loads(p.stdout)
        eq(o["workers"], 2, "status json")


def test_text():
    with Daemon() as d:
        p = d.sudoctl("solve", EASY)
        eq(p.returncode, 0, "rc")
        lines = p.stdout.splitlines()
        eq(len(lines), 12, "9 rows, 2 rules, status")
        check(lines[-1].startswith("status: unique"), lines[-1])
        p = d.sudoctl("rate", HARD)
        check(HARD in p.stdout and "/" in p.stdout, p.stdout)
        er, ep, ed = p.stdout.split()[1].split("/")
        check(float(er) >= float(ep) >= float(ed), "ER/EP/ED")
        p = d.sudoctl("explain", HARD)
        # numbered steps; a step of several chains lists them under it, indented
        lines = [ln for ln in p.stdout.splitlines() if not ln.startswith("    ")]
        check(lines[0].startswith("1. ") and lines[1].startswith("2. "), "numbered steps")
        check(lines[-1].startswith("solved in "), lines[-1])
        eq(int(lines[-1].split()[2]), len(lines) - 1, "step count")
        p = d.sudoctl("explain", "--grid=pencil", EASY)
        nsteps = sum(1 for ln in p.stdout.splitlines() if ln[:1].isdigit())
        check(nsteps > 1 and sum(1 for ln in p.stdout.splitlines() if ln.startswith(".-")) == nsteps, "a pencilmark grid before each step")
        p = d.sudoctl("hint", EASY)
        eq(len(p.stdout.splitlines()), 1, "one hint line")
        # a printed pencilmark grid (from explain --grid) read back: the hint
        # there is the step explain took there
        mid = read_puzzles("top1465.txt", 5)[4]
        out = d.sudoctl("explain", "--grid=pencil", mid).stdout.splitlines()
        grids, cur = [], None
        for ln in out:
            if ln.startswith(".-"):
                cur = [ln]
            elif cur is not None:
                cur.append(ln)
                if ln.startswith("'"):
                    grids.append("\n".join(cur) + "\n")
                    cur = None
        steps = [ln.split(". ", 1)[1] for ln in out if ln[:1].isdigit()]
        eq(len(grids), len(steps), "a grid per step")
        k = min(2, len(steps) - 1)
        p = d.sudoctl("hint", input=grids[k])
        eq(p.returncode, 0, "hint from a pencilmark grid: " + p.stdout + p.stderr)
        eq(p.stdout.splitlines()[-1].split(". ", 1)[1], steps[k], "same step as explain")
        p = d.sudoctl("explain", "--trace", DUTCH)
        eq(p.returncode, 0, "explain --trace rc")
        trace = p.stdout.split("backtracking trace:\n", 1)[1].splitlines()
        check(trace[0].startswith("step 1: cell "), trace[:2])
        check("already in this row" in p.stdout, "trace texts")
        eq(trace[-1], "trace: solved", "trace status")
        p = d.sudoctl("explain", "--trace", "--max-trace", "30", DUTCH)
        check(p.stdout.rstrip().endswith("(trace cut off)"), "trace capped")
        # trace: what follows from an assumption
        p = d.sudoctl("trace", "r1c2=1", EASY)
        eq(p.returncode, 0, "trace rc " + p.stderr)
        check("r1c2/#1 is false" in p.stdout, "a contradiction: " + p.stdout[-300:])
        p = d.sudoctl("trace", "--assume", "r1c2=8", EASY)
        check(p.stdout.splitlines() and "[W r1c2/+8 -> " in p.stdout, p.stdout[:300])
        p = d.sudoctl("trace", EASY)
        eq(p.returncode, 2, "trace without an assumption")
        check("explain --trace" in p.stderr, "points to the backtracking trace")
        p = d.sudoctl("trace", "r1c3=1", EASY)
        eq(p.returncode, 1, "assumption on a given")
        check("bad-request" in p.stdout, p.stdout)
        p = d.sudoctl("techniques")
        check("naked-single" in p.stdout, "techniques text")
        p = d.sudoctl("status")
        check("workers: 2" in p.stdout, p.stdout)
        p = d.sudoctl("reload")
        eq(p.returncode, 0, "reload rc")
        check(p.stdout.startswith("reloaded ") and "sudokud.conf" in p.stdout, p.stdout)


def test_html():
    with Daemon() as d:
        p = d.sudoctl("--html", "explain", HARD)
        eq(p.returncode, 0, "rc " + p.stderr)
        h = p.stdout
        check(h.startswith("<!DOCTYPE html>") and h.rstrip().endswith("</html>"), "a whole page")
        nsteps = len(jlines(d.sudoctl("--json", "explain", HARD).stdout)[0]["steps"])
        # the interactive report: data per puzzle, drawn by the page's own script
        data = re.search(r'<script type="application/json" class="puzzle-data">(.*?)</script>',
                         h, re.S)
        check(data, "the puzzle's data block")
        pz = json.loads(data.group(1))
        eq(len(pz["steps"]), nsteps, "every step in the data")
        eq(len(pz["states"]), nsteps + 1, "the grid before every step, and the last")
        check(all("branches" in s and "reading" in s for s in pz["steps"]), "branches, text")
        check(not re.search(r'(src|href)=|https?://', h.replace("http://www.w3.org/2000/svg", "")),
              "self-contained: nothing loaded from elsewhere")
        check("sudokuReport" in h and "ArrowRight" in h, "the script")
        p = d.sudoctl("--html", "trace", "r1c2=1", EASY)
        eq(p.returncode, 0, "trace --html")
        check(p.stdout.count("<svg") == 1 and "contradiction" in p.stdout, "trace drawn")
        p = d.sudoctl("--html", "solve", EASY)
        eq(p.returncode, 0, "solve")
        check("<svg" in p.stdout, "solve draws a grid")
        p = d.sudoctl("--html", "hint", EASY)
        eq(p.returncode, 0, "hint")
        check('class="puzzle-data"' in p.stdout, "hint: the report")
        p = d.sudoctl("--html", "rate", EASY, HARD)
        eq(p.returncode, 0, "rate")
        eq(p.stdout.count("<tr><td>"), 2, "rate: one table row per puzzle")
        check('class="sortable"' in p.stdout, "rate: a sortable table")


def test_batch():
    """Files, stdin, many formats, input order, per-puzzle errors."""
    puzzles = read_puzzles("unbiased_1k.txt")
    tmp = tempfile.mkdtemp(prefix="sudoctl-it-")
    try:
        with Daemon() as d:
            # a big file through small chunks and a small window: order kept
            p = d.sudoctl("--json", "--chunk", "7", "--window", "5", "solve", "-f",
                          os.path.join(DATA, "unbiased_1k.txt"), timeout=120)
            eq(p.returncode, 0, "rc " + p.stderr[-500:])
            out = jlines(p.stdout)
            eq(len(out), len(puzzles), "one line per puzzle")
            for i, (o, pz) in enumerate(zip(out, puzzles)):
                eq(o["puzzle"], pz, f"line {i + 1} in order")
                check(valid_solution(pz, o["solution"]), f"solution {i + 1}")
            # a progress bar when asked (by default only on a terminal)
            p = d.sudoctl("--progress", "solve", "-f", os.path.join(DATA, "unbiased_1k.txt"))
            check("100%" in p.stderr and "/s" in p.stderr and "ETA" in p.stderr, "progress: " + p.stderr[-200:])
            p = d.sudoctl("solve", "-f", os.path.join(DATA, "unbiased_1k.txt"))
            eq(p.stderr, "", "no progress bar when stderr is not a terminal")
            # the same through stdin, default chunks
            p = d.sudoctl("rate", input="\n".join(puzzles[:300]) + "\n", timeout=120)
            eq(p.returncode, 0, "rate stdin")
            lines = p.stdout.splitlines()
            eq([ln.split()[0] for ln in lines], puzzles[:300], "rate lines in order")
            # a mixed file: comments, blank lines, a printed grid, 0 for empty,
            # a bad line, a conflicting one
            mixed = os.path.join(tmp, "mixed.txt")
            with open(mixed, "w") as f:
                f.write("# a comment\n\n")
                f.write(EASY + "\n")
                f.write(printed(HARD) + "\n")
                f.write(EASY.replace(".", "0") + "\n")
                f.write("x" + EASY[1:] + "\n")
                f.write("11" + "." * 79 + "\n")
                f.write(puzzles[5] + "\n")
            p = d.sudoctl("--json", "solve", "-f", mixed)
            eq(p.returncode, 1, "some puzzles failed")
            out = jlines(p.stdout)
            eq(len(out), 6, "six puzzles " + p.stdout)
            eq([("error" in o) for o in out], [False, False, False, True, True, False], "failures")
            check(valid_solution(HARD, out[1]["solution"]), "printed grid read")
            eq(out[2]["solution"], out[0]["solution"], "0 as empty")
            eq(out[3]["error"]["code"], "bad-format", "bad character reported")
            eq(out[4]["error"]["code"], "conflict", "conflict reported")
            eq(out[5]["puzzle"], puzzles[5], "last in order")
            p = d.sudoctl("solve", "-f", mixed)
            eq(len(p.stdout.splitlines()), 6, "text: one line per puzzle")
            check("error: bad-format" in p.stdout and "mixed.txt:" in p.stdout, "error names the line")
            # several -f and a missing file
            p = d.sudoctl("--json", "solve", "-f", mixed, "-f", os.path.join(tmp, "nope.txt"))
            eq(p.returncode, 1, "missing file")
            check("nope.txt" in p.stderr, "names the file")
            # serg puzzles: multiple solutions -> exit 1, status multiple
            serg = read_puzzles("serg_benchmark.txt", 3)
            p = d.sudoctl("--json", "solve", *serg)
            eq(p.returncode, 1, "multiple solutions rc")
            check(all(o["status"] == "multiple" for o in jlines(p.stdout)), "multiple")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_interactive():
    """stdin a terminal: each puzzle is answered as soon as its line is typed."""
    import pty
    import select
    with Daemon() as d:
        master, slave = pty.openpty()
        proc = subprocess.Popen(sudoctl_argv(d, "solve"), stdin=slave,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.close(slave)
        try:
            for pz in (EASY, HARD):
                os.write(master, (pz + "\n").encode())
                ready, _, _ = select.select([proc.stdout], [], [], 20)
                check(ready, f"an answer before the next line is typed ({pz[:10]}...)")
                line = proc.stdout.readline().decode()
                check(valid_solution(pz, line.split()[0]) and line.split()[1] == "unique", line)
            os.write(master, b"\x04")  # end of input
            eq(proc.wait(20), 0, "exit status")
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(master)


def test_busy():
    """A daemon with a tiny queue answers `busy`; sudoctl retries and still
    gives every result, in order."""
    tmp = tempfile.mkdtemp(prefix="sudoctl-busy-")
    try:
        conf = make_conf(os.path.join(tmp, "busy.conf"), sudokud=["max_queue = 2"])
        puzzles = read_puzzles("unbiased_1k.txt", 100)
        with Daemon(conf=conf, tmp=tmp) as d:
            r = d.rpc()
            # requests slow enough that two workers cannot drain them as
            # fast as they arrive (20 easy solves now take microseconds)
            slow = read_puzzles("top1465.txt", 20)
            ids = [r.send("rate", {"puzzles": slow}) for _ in range(10)]
            codes = [(r.response(i)[2] or {}).get("code") for i in ids]
            check("busy" in codes, f"the queue limit answers busy: {codes}")
            p = d.sudoctl("--json", "--chunk", "4", "--window", "32", "rate", input="\n".join(puzzles) + "\n",
                          timeout=200)
            eq(p.returncode, 0, "rc " + p.stderr[-300:])
            eq([o["puzzle"] for o in jlines(p.stdout)], puzzles, "all results, in order")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_exit_codes():
    with Daemon() as d:
        eq(d.sudoctl("solve", EASY).returncode, 0, "good")
        eq(d.sudoctl("solve", EASY, "123").returncode, 1, "one bad")
        eq(d.sudoctl("nosuch").returncode, 2, "unknown command")
        eq(d.sudoctl("--bogus", "solve", EASY).returncode, 2, "unknown option")
        eq(d.sudoctl("solve", "--all", EASY).returncode, 2, "--all with solve")
        eq(d.sudoctl("status", EASY).returncode, 2, "status takes no puzzle")
        p = d.sudoctl("--profile", "nosuch", "rate", EASY)
        eq(p.returncode, 1, "unknown profile")
        check("unknown-profile" in p.stderr, p.stderr)
    tmp = tempfile.mkdtemp(prefix="sudoctl-it-")
    try:
        p = run([SUDOCTL, "--socket", os.path.join(tmp, "none.sock"), "status"])
        eq(p.returncode, 3, "unreachable")
        check("sudokud --socket" in p.stderr, "says how to start it: " + p.stderr)
        env = dict(os.environ, XDG_RUNTIME_DIR=tmp)
        p = run([SUDOCTL, "--no-autostart", "status"], env=env)
        eq(p.returncode, 3, "unreachable, no autostart")
        check(os.path.join(tmp, "sudokud.sock") in p.stderr, "default socket under XDG_RUNTIME_DIR")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_autostart():
    """No daemon on the default socket: sudoctl starts one and goes on."""
    tmp = tempfile.mkdtemp(prefix="sudoctl-auto-")
    sock = os.path.join(tmp, "sudokud.sock")
    env = dict(os.environ, XDG_RUNTIME_DIR=tmp)
    try:
        p = run([SUDOCTL, "--json", "solve", EASY], env=env, timeout=30)
        eq(p.returncode, 0, "autostarted solve: " + p.stderr)
        check(os.path.exists(sock), "socket created")
        check(pids_with(sock), "a sudokud runs on it")
        p = run([SUDOCTL, "status"], env=env, timeout=30)
        eq(p.returncode, 0, "second call uses the running daemon")
    finally:
        stop_autostarted(sock, env)
        shutil.rmtree(tmp, ignore_errors=True)


def chains_of(links):
    """Split a step's wire links into chains (a link whose `from` is not the
    previous `to` starts a new one)."""
    out = []
    for lk in links:
        if out and out[-1][-1]["to"] == lk["from"]:
            out[-1].append(lk)
        else:
            out.append([lk])
    return out


def test_trace_links():
    """explain --trace-links: each step's chains as the seed's consequence
    lines (sdk_links_trace_lines on the links decoded from the wire)."""
    with Daemon() as d:
        p = d.sudoctl("--json", "--profile", "standard", "--trace-links", "explain", CHAINY,
                      timeout=120)
        eq(p.returncode, 0, "explain --trace-links rc " + p.stderr)
        (o,) = jlines(p.stdout)
        check(o["solved"], "solved")
        kinds = set()
        for s in o["steps"]:
            links = s.get("links", [])
            if not links:
                check("trace_links" not in s, f"no lines without links: {s['technique']}")
                continue
            lines = s["trace_links"]
            chains = chains_of(links)
            check(1 <= len(lines) <= len(chains), f"{s['technique']}: {len(lines)} lines for "
                  f"{len(chains)} chains")
            text = "\n".join(lines)
            for line in lines:
                head = line.split(" ", 1)[0]
                check(any(c[-1]["to"] == head for c in chains),
                      f"a line starts with the candidate its chain derives: {line}")
            for lk in links:
                kinds.add(lk["kind"])
                if lk["kind"] != "als":  # ALS links are folded, the rest appear as they are
                    want = f"[{'S' if lk['strong'] else 'W'} {lk['from']} -> {lk['to']}]"
                    check(want in text, f"{s['technique']}: {want} in {text}")
                else:
                    check("(ALS:" in text, f"ALS links carry their set: {text}")
            if any(lk["kind"] == "group" for lk in links):
                group_nodes = [x for lk in links for x in (lk["from"], lk["to"])
                               if len(x.split("/")[0]) > 4]
                check(group_nodes and all(g in text for g in group_nodes),
                      f"group labels in the lines: {group_nodes} {text}")
        check({"group", "als", "house", "cell"} <= kinds, f"the puzzle has every link kind: {kinds}")
        # text: the lines indented under their step
        p = d.sudoctl("--profile", "standard", "--trace-links", "explain", CHAINY, timeout=120)
        eq(p.returncode, 0, "text rc")
        out = p.stdout.splitlines()
        loop = [i for i, ln in enumerate(out) if "Grouped Discontinuous Nice Loop" in ln]
        check(loop, "a grouped nice loop step")
        nxt = out[loop[0] + 1]
        check(nxt.startswith("    r") and " => [" in nxt and "[S " in nxt and "[W " in nxt,
              f"its chain under it: {nxt}")
        check(any(ln.startswith("    ") and "(ALS:" in ln for ln in out), "an ALS line")
        # without the option: no such lines; with hint and solve --logic too
        p = d.sudoctl("--profile", "standard", "explain", CHAINY, timeout=120)
        check(not any(ln.startswith("    ") and " => [" in ln for ln in p.stdout.splitlines()),
              "off by default")
        p = d.sudoctl("--json", "--profile", "standard", "--trace-links", "solve", "--logic", CHAINY,
                      timeout=120)
        eq(p.returncode, 0, "solve --logic --trace-links")
        check(any("trace_links" in s for s in jlines(p.stdout)[0]["steps"]), "solve --logic lines")
        for bad in (["rate"], ["solve"], ["trace", "r1c2=1"]):
            p = d.sudoctl("--trace-links", *bad, CHAINY)
            eq(p.returncode, 2, f"--trace-links with {bad[0]}")
            check("--trace-links goes with" in p.stderr, p.stderr)
        # --gnpx: GNPX's notation: in-cell links only as a chain's last link,
        # group (AIC) nodes in angle brackets
        p = d.sudoctl("--json", "--profile", "standard", "--trace-links", "--gnpx", "explain",
                      CHAINY, timeout=120)
        eq(p.returncode, 0, "explain --trace-links --gnpx rc " + p.stderr)
        glines = [ln for s in jlines(p.stdout)[0]["steps"] for ln in s.get("trace_links", [])]
        check(any("<r" in ln for ln in glines), "group nodes in <...>")
        for ln in glines:
            links = re.findall(r"\[[SW] (?:\(\w+:[^)]*\) )?(\S+) -> (\S+)\]", ln)
            for fr, to in links[:-1]:
                check(not (fr.split("/")[0] == to.split("/")[0] and "<" not in fr),
                      f"no in-cell link mid-chain: {ln}")
        p = d.sudoctl("--gnpx", "solve", CHAINY)
        eq(p.returncode, 2, "--gnpx with solve")


def fake_daemon(path, answer):
    """A stand-in sudokud on the socket PATH for one connection: each request
    read is handed to answer(conn, request), which sends what it likes and
    returns True when the connection should close. Returns the listening
    socket (close it) and the serving thread."""
    import socket
    import threading
    import msgpack
    ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ls.bind(path)
    ls.listen(1)

    def serve():
        c, _ = ls.accept()
        u = msgpack.Unpacker(raw=False)
        while True:
            data = c.recv(65536)
            if not data:
                return
            u.feed(data)
            for m in u:
                if answer(c, m):
                    c.close()
                    return

    th = threading.Thread(target=serve, daemon=True)
    th.start()
    return ls, th


def test_progress_notifications():
    """sudoctl --progress asks for the daemon's progress notifications and
    moves its bar with them while a request runs (a stand-in daemon answers
    slowly, notifying between puzzles)."""
    import msgpack
    tmp = tempfile.mkdtemp(prefix="sudoctl-progress-")
    path = os.path.join(tmp, "fake.sock")
    seen = {}

    def answer(c, m):
        params = m[3][0]
        seen.update(params)
        n = len(params["puzzles"])
        for k in range(1, n):
            time.sleep(0.3)
            c.sendall(msgpack.packb([2, "progress", [{"msgid": m[1], "done": k, "total": n}]]))
        time.sleep(0.3)
        res = [{"puzzle": q, "status": "unique", "solution": "1" * 81, "solutions": 1}
               for q in params["puzzles"]]
        c.sendall(msgpack.packb([1, m[1], None, {"results": res}]))
        return True

    ls, th = fake_daemon(path, answer)
    try:
        p = run([SUDOCTL, "--socket", path, "--no-autostart", "--progress", "solve", EASY, HARD,
                 EASY, HARD], timeout=30)
        th.join(10)
        eq(p.returncode, 0, "exit status: " + p.stderr)
        eq(seen.get("progress"), True, "sudoctl asks for progress when it shows a bar")
        for pct in (" 25%  1 ", " 50%  2 ", " 75%  3 ", "100%  4 "):
            check(pct in p.stderr, f"the bar shows {pct.strip()!r}: {p.stderr!r}")
    finally:
        ls.close()
        shutil.rmtree(tmp, ignore_errors=True)
    # a real daemon: the bar ends at 100% with the notifications on
    with Daemon() as d:
        p = d.sudoctl("--progress", "--chunk", "7", "rate", *read_puzzles("top1465.txt", 20))
        eq(p.returncode, 0, p.stderr)
        check("100%  20 " in p.stderr, p.stderr[-300:])


def test_first_request_early():
    """sudoctl sends each request as soon as its puzzles are read, not once
    the window's requests all are: a stand-in daemon gets the first
    request (one puzzle) while the file (a FIFO) has given no more, and the
    rest follows when it does; the answers come out in order."""
    import msgpack
    import threading
    tmp = tempfile.mkdtemp(prefix="sudoctl-early-")
    path = os.path.join(tmp, "fake.sock")
    fifo = os.path.join(tmp, "puzzles")
    os.mkfifo(fifo)
    puzzles = read_puzzles("unbiased_1k.txt", 20)
    first = threading.Event()
    sizes = []

    def answer(c, m):
        params = m[3][0]
        sizes.append(len(params["puzzles"]))
        first.set()
        res = [{"puzzle": q, "status": "unique", "solution": "1" * 81, "solutions": 1}
               for q in params["puzzles"]]
        c.sendall(msgpack.packb([1, m[1], None, {"results": res}]))
        return sum(sizes) == len(puzzles)

    ls, th = fake_daemon(path, answer)
    try:
        p = subprocess.Popen([SUDOCTL, "--socket", path, "--no-autostart", "--no-progress", "--json",
                              "solve", "-f", fifo], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        with open(fifo, "w") as w:
            w.write(puzzles[0] + "\n")
            w.flush()
            got = first.wait(10)  # the FIFO stays open: sudoctl waits for more lines
            w.write("\n".join(puzzles[1:]) + "\n")
        out, err = p.communicate(timeout=30)
        th.join(10)
        check(got, "the first request was sent before the input's next lines came")
        eq(p.returncode, 0, "exit status: " + err)
        eq(sizes[:2], [1, 16], "requests of 1 and 16 puzzles first")
        eq([o["puzzle"] for o in jlines(out)], puzzles, "answers in input order")
    finally:
        ls.close()
        shutil.rmtree(tmp, ignore_errors=True)


def test_compact():
    """--json solve asks for solve's compact answers ([solution, guesses] for a
    unique answer) and prints, byte for byte, the lines of the maps they stand
    for; a daemon that does not know `compact` (older) gets the requests again
    without it."""
    import msgpack
    puzzles = read_puzzles("17clue.txt", 300)
    many = "." * 81
    text = "\n".join(puzzles[:150] + [many, "12" + "." * 79, puzzles[150].replace(".", "0")]
                     + puzzles[151:]) + "\n"
    tmp = tempfile.mkdtemp(prefix="sudoctl-compact-")
    try:
        f = os.path.join(tmp, "in.txt")
        with open(f, "w") as fh:
            fh.write(text)
        with Daemon() as d:
            p = d.sudoctl("--json", "solve", "-f", f)
            eq(p.returncode, 1, "a puzzle with several solutions and a bad one: " + p.stderr)
            sent = [ln for ln in text.splitlines() if ln]
            maps = d.rpc().call("solve", {"puzzles": sent})["results"]
            got = p.stdout.splitlines()
            eq(len(got), len(sent), "one line a puzzle")
            for line, m in zip(got, maps):
                if "error" in m:
                    eq(json.loads(line)["error"]["code"], m["error"]["code"], "the error")
                else:
                    eq(line, json.dumps(m, separators=(",", ":")), "the map's line, byte for byte")
        # an older daemon: `compact` is an unknown parameter there
        path = os.path.join(tmp, "old.sock")
        seen = []

        def answer(c, m):
            params = m[3][0]
            seen.append("compact" in params)
            if "compact" in params:
                err = {"code": "bad-request", "message": "unknown parameter 'compact'"}
                c.sendall(msgpack.packb([1, m[1], err, None]))
                return False
            res = [{"puzzle": q, "status": "unique", "solution": "1" * 81, "solutions": 1,
                    "guesses": 0} for q in params["puzzles"]]
            c.sendall(msgpack.packb([1, m[1], None, {"results": res}]))
            return False

        ls, th = fake_daemon(path, answer)
        p = run([SUDOCTL, "--socket", path, "--no-autostart", "--json", "solve", "-f", f], timeout=30)
        eq(p.returncode, 0, "every puzzle answered: " + p.stderr)
        lines = jlines(p.stdout)
        eq([o["puzzle"] for o in lines], sent, "each puzzle once, in order")
        check(seen and seen[0] and not seen[-1], f"asked with compact, then without: {seen}")
        ls.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_shared_memory():
    """A batch's pieces and answers cross between the daemon and its workers
    in shared memory (daemon.h), or on the socket when they do not fit:
    the same answers, in the same order, whichever way. SUDOKUD_RING_KIB=0:
    the socket only; 4: a ring so small that most bursts take the socket
    between the ring's."""
    puzzles = read_puzzles("17clue.txt", 3000)
    text = "\n".join(puzzles[:1500] + ["." * 81, "12" + "." * 79] + puzzles[1500:]) + "\n"
    tmp = tempfile.mkdtemp(prefix="sudoctl-shm-")
    try:
        f = os.path.join(tmp, "in.txt")
        with open(f, "w") as fh:
            fh.write(text)
        outs = {}
        for ring in ("", "0", "4"):
            env = dict(os.environ, SUDOKUD_RING_KIB=ring)
            with Daemon(env=env) as d:
                # --chunk 3002: one request in pieces of up to 1024 puzzles
                for args in (("--json", "solve", "-f", f), ("--chunk", "3002", "solve", "-f", f),
                             ("rate", *puzzles[:40])):
                    p = d.sudoctl(*args, timeout=120)
                    outs.setdefault(args, []).append((p.returncode, p.stdout, p.stderr))
        for args, got in outs.items():
            eq(got[0][0], 0 if args[0] == "rate" else 1, f"{args[:2]}: exit code: {got[0][2][-300:]}")
            eq(len(got[0][1].splitlines()), 40 if args[0] == "rate" else 3002, "one line a puzzle")
            for ring, g in zip(("0", "4"), got[1:]):
                check(g == got[0], f"{args[:2]} with SUDOKUD_RING_KIB={ring}: the same output")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


TESTS = {
    "compact": test_compact,
    "shared_memory": test_shared_memory,
    "trace_links": test_trace_links,
    "progress_notifications": test_progress_notifications,
    "first_request_early": test_first_request_early,
    "json": test_json,
    "text": test_text,
    "html": test_html,
    "batch": test_batch,
    "exit_codes": test_exit_codes,
    "busy": test_busy,
    "interactive": test_interactive,
    "autostart": test_autostart,
}

if __name__ == "__main__":
    sys.exit(main(TESTS))
