#!/usr/bin/python3
"""test_rpc.py - sudokud driven with raw msgpack-rpc: every method and its
errors, pipelined requests answered out of order and matched by msgid, several
connections, malformed messages and the message size limit."""

import os
import shutil
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (EASY, HARD, Daemon, RpcError, TestFailure, cand, check, eq, main,  # noqa: E402
                     make_conf, read_puzzles, valid_solution)
import msgpack  # noqa: E402

STEP_KEYS = {"technique", "name", "difficulty", "placements", "eliminations", "text", "marks",
             "houses", "links"}


def check_steps(puzzle, steps, solution):
    """Every step is well formed and sound: placements agree with the
    solution, no elimination removes a solution digit."""
    for s in steps:
        missing = STEP_KEYS - set(s)
        check(not missing, f"step lacks {missing}: {s}")
        check(isinstance(s["difficulty"], float), f"difficulty is a float: {s['difficulty']!r}")
        check(s["placements"] or s["eliminations"], f"step does nothing: {s}")
        for p in s["placements"]:
            c, d, place = cand(p)
            check(place, p)
            eq(int(solution[c]), d, f"placement {p} of {s['technique']}")
        for e in s["eliminations"]:
            c, d, place = cand(e)
            check(not place, e)
            check(int(solution[c]) != d, f"{s['technique']} eliminates the solution: {e} ({s['text']})")
        for m in s["marks"]:
            check(len(m) == 3 and 0 <= m[0] < 81 and 0 <= m[1] <= 9 and isinstance(m[2], str), f"mark {m}")
        for h in s["houses"]:
            check(len(h) == 2 and 0 <= h[0] < 27 and isinstance(h[1], str), f"house {h}")
        for link in s["links"]:
            check({"from", "to", "strong", "kind"} <= set(link), f"link {link}")
            check(link["kind"] in ("cell", "house", "group", "als"), f"link kind {link}")


def test_methods():
    with Daemon() as d:
        r = d.rpc()
        # solve
        res = r.call("solve", {"puzzle": EASY})
        eq(res["status"], "unique", "solve status")
        check(valid_solution(EASY, res["solution"]), "solve solution valid")
        eq(res["solutions"], 1, "solutions")
        check("guesses" in res, "guesses present")
        hard = r.call("solve", {"puzzle": HARD})
        check(valid_solution(HARD, hard["solution"]), "hard solution valid")
        multi = read_puzzles("serg_benchmark.txt", 1)[0]
        res = r.call("solve", {"puzzle": multi})
        eq(res["status"], "multiple", "serg puzzle status")
        check(valid_solution(multi, res["solution"]) and valid_solution(multi, res["solution2"]),
              "two solutions")
        check(res["solution"] != res["solution2"], "two different solutions")
        want = sorted(f"r{i // 9 + 1}c{i % 9 + 1}" for i in range(81)
                      if res["solution"][i] != res["solution2"][i])
        eq(sorted(res["differ"]), want, "differ cells")
        # solve with logic
        res = r.call("solve", {"puzzle": EASY, "logic": True})
        check(res["solved"] is True and res["steps"], "solve logic gives steps")
        check_steps(EASY, res["steps"], res["solution"])
        sol_easy = res["solution"]
        sol_hard = hard["solution"]
        # rate
        res = r.call("rate", {"puzzle": EASY})
        for k in ("puzzle", "er", "ep", "ed", "level", "score", "hardest", "solved", "steps"):
            check(k in res, f"rate has {k}")
        check(all(isinstance(res[k], float) for k in ("er", "ep", "ed")), "ratings are floats")
        check(res["er"] >= res["ep"] >= res["ed"] > 0, f"ER >= EP >= ED: {res}")
        check(res["solved"] is True, "easy puzzle rated solved")
        res_h = r.call("rate", {"puzzle": HARD})
        check(res_h["er"] > res["er"], f"hard rates above easy: {res_h['er']} vs {res['er']}")
        res = r.call("rate", {"puzzle": HARD, "no_guess": True})
        check("solved" in res, "rate no_guess")
        if not res["solved"]:
            eq(len(res["stuck_grid"]), 729, "stuck grid")
        # explain
        res = r.call("explain", {"puzzle": HARD})
        check(res["solved"] is True, "explain hard solves (with bifurcation)")
        check_steps(HARD, res["steps"], sol_hard)
        res = r.call("explain", {"puzzle": HARD, "no_guess": True})
        check_steps(HARD, res["steps"], sol_hard)
        if not res["solved"]:
            eq(len(res["stuck_grid"]), 729, "explain stuck grid")
        res = r.call("explain", {"puzzle": EASY, "trace": True, "max_trace": 50})
        check(isinstance(res.get("trace"), list) and 0 < len(res["trace"]) <= 50, "trace capped")
        # hint
        res = r.call("hint", {"puzzle": EASY})
        eq(len(res["steps"]), 1, "one hint")
        check_steps(EASY, res["steps"], sol_easy)
        res_all = r.call("hint", {"puzzle": EASY, "all": True})
        check(len(res_all["steps"]) > 1, "hint all gives several")
        check_steps(EASY, res_all["steps"], sol_easy)
        res = r.call("hint", {"puzzle": EASY, "all": True, "techniques": ["naked-single"]})
        check(all(s["technique"] == "naked-single" for s in res["steps"]), "hint restricted")
        # a candidate grid (729) as input to hint
        g = r.call("rate", {"puzzle": HARD, "no_guess": True})
        if not g["solved"]:
            res = r.call("hint", {"puzzle": g["stuck_grid"], "all": True})
            check_steps(g["stuck_grid"], res["steps"], sol_hard)
        # trace: an assumption's consequences in super links
        res = r.call("trace", {"puzzle": EASY, "assumption": "r1c2=1"})
        check({"puzzle", "assumption", "lines", "contradiction", "summary"} <= set(res), f"trace {res}")
        check(res["contradiction"] is True and res["summary"].startswith("r1c2/#1 is false"), res["summary"])
        res = r.call("trace", {"puzzle": HARD, "assumption": "r1c2<>1", "als": True})
        check(res["contradiction"] in (True, False) and isinstance(res["lines"], list), "trace als")
        # gnpx: GNPX's search and notation (the verdict, then the two clashing chains)
        fig3 = ".9..4..6.4..15...2..6..91....4....7.36.....15.8....3....82..4..9...34..1.4..8..3."
        # GNPX reads its links from the position as given: seed 002 takes
        # figure 3 after the singles (tests/unit/test_gnpx_trace.c)
        fig3s = ".9..4..6.473156..2..6..91...14....7.36.4...15.8....3...382..4..9...34..1.4..8..3."
        res = r.call("trace", {"puzzle": fig3s, "assumption": "r1c6=8", "gnpx": True})
        parts = res["summary"].split("\n")
        check(res["contradiction"] is True and parts[0] == "r1c6/#8 is false" and len(parts) == 3
              and all(p.startswith("[W r1c6/+8 -> ") for p in parts[1:]), f"trace gnpx {res['summary']}")
        res = r.call("trace", {"puzzle": fig3, "assumption": "r1c6=8"})
        check(res["summary"].startswith("r1c6/#8 is false: "), "default trace summary unchanged")
        eq(r.call_error("trace", {"puzzle": fig3, "assumption": "r1c6=8", "gnpx": 1})["code"],
           "bad-request", "gnpx must be a boolean")
        eq(r.call_error("trace", {"puzzle": EASY, "assumption": "r1c3=1"})["code"], "bad-request", "given")
        eq(r.call_error("trace", {"puzzle": EASY, "assumption": "x"})["code"], "bad-request", "malformed")
        eq(r.call_error("rate", {"puzzle": EASY, "assumption": "r1c2=1"})["code"], "bad-request",
           "assumption only for trace")
        # techniques
        res = r.call("techniques", {})
        check(res["profile"] and len(res["techniques"]) >= 4, "techniques")
        for t in res["techniques"]:
            check({"id", "name", "difficulty", "score", "level", "flags", "source"} <= set(t), f"technique {t}")
        ids = [t["id"] for t in res["techniques"]]
        check("naked-single" in ids, "naked-single listed")
        st = r.call("techniques", {"profile": "singles"})
        check(len(st["techniques"]) < len(ids), "singles profile is shorter")
        # status
        res = r.call("status", {})
        for k in ("version", "uptime", "workers", "busy", "requests", "config", "profiles"):
            check(k in res, f"status has {k}")
        eq(res["workers"], 2, "workers from the config")
        check(res["requests"] >= 10, "requests counted")
        # reload
        res = r.call("reload", {})
        check(res["ok"] is True and res["techniques"] >= 4, f"reload {res}")
        # batch with failing entries
        res = r.call("solve", {"puzzles": [EASY, "12345", HARD, "11" + "." * 79]})
        eq(len(res["results"]), 4, "one result per puzzle")
        eq(res["results"][0]["status"], "unique", "first ok")
        eq(res["results"][1]["error"]["code"], "bad-format", "short puzzle")
        check("message" in res["results"][1]["error"], "error message")
        eq(res["results"][3]["error"]["code"], "conflict", "digit twice")
        eq(res["results"][1]["puzzle"], "12345", "failing entry echoes its puzzle")
        # request errors
        eq(r.call_error("nosuch", {})["code"], "unknown-method", "unknown method")
        eq(r.call_error("solve", {})["code"], "bad-request", "missing puzzle")
        eq(r.call_error("solve", {"puzzle": 5})["code"], "bad-request", "puzzle not a string")
        eq(r.call_error("rate", {"puzzle": EASY, "profile": "nosuch"})["code"], "unknown-profile", "profile")
        eq(r.call_error("hint", {"puzzle": EASY, "techniques": ["nosuch"]})["code"], "unknown-technique",
           "technique")
        e = r.call_error("solve", {"puzzle": "12345"})
        eq(e["code"], "bad-format", "single bad puzzle fails the request")
        e = r.call_error("rate", {"puzzle": multi})
        eq(e["code"], "multiple-solutions", "rating a puzzle with several solutions")
        r.close()


def test_pipeline():
    """Many requests in flight on one connection; answers matched by msgid,
    some of them out of order."""
    puzzles = read_puzzles("top1465.txt", 300)
    # a dozen is slow enough for the quick ones to overtake it, and keeps
    # the test well inside the socket's 60 s wait on a loaded machine (40
    # took over 60 s of wall time at load 15-20)
    hard = read_puzzles("forum_hardest_1106.txt", 12)
    with Daemon() as d:
        r = d.rpc()
        sent = {}
        # a slow request first, then quick ones behind it
        slow = r.send("explain", {"puzzles": hard})
        for p in puzzles:
            sent[r.send("solve", {"puzzle": p})] = p
        quick = r.send("status", {})
        order = []
        answers = {}
        while len(answers) < len(sent) + 2:
            m = r.recv()
            check(m is not None, "connection closed early")
            if m[0] == 2:
                continue
            eq(m[0], 1, "response type")
            check(m[1] not in answers, f"msgid {m[1]} answered twice")
            answers[m[1]] = m
            order.append(m[1])
        check(set(answers) == set(sent) | {slow, quick}, "every msgid answered")
        for msgid, p in sent.items():
            m = answers[msgid]
            check(m[2] is None, f"error {m[2]}")
            eq(m[3]["puzzle"], p, f"msgid {msgid} carries its own puzzle")
            check(valid_solution(p, m[3]["solution"]), f"solution of msgid {msgid}")
        eq(len(answers[slow][3]["results"]), len(hard), "slow batch complete")
        check(order != sorted(order), "answers came back out of order")
        check(order.index(quick) < order.index(slow), "status overtook the slow explain")
        r.close()


def test_connections():
    """Several connections at once, each pipelining."""
    puzzles = read_puzzles("unbiased_1k.txt", 400)
    with Daemon() as d:
        errors = []

        def client(k):
            try:
                r = d.rpc()
                mine = puzzles[k::4]
                ids = {r.send("solve", {"puzzle": p}): p for p in mine}
                for msgid, p in ids.items():
                    m = r.response(msgid)
                    if m[2] is not None or m[3]["puzzle"] != p or not valid_solution(p, m[3]["solution"]):
                        errors.append(f"conn {k} msgid {msgid}: {m}")
                r.close()
            except Exception as e:  # noqa: BLE001
                errors.append(f"conn {k}: {e!r}")

        threads = [threading.Thread(target=client, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        check(not errors, "; ".join(errors[:5]))
        st = d.rpc().call("status", {})
        check(st["requests"] >= len(puzzles), f"requests counted: {st['requests']}")


def expect_error_then_close(d, data, code, msgid=0):
    r = d.rpc()
    r.send_raw(data)
    m = r.recv()
    check(m is not None, f"an error response to {data[:20]!r}")
    eq(m[0], 1, "response")
    eq(m[1], msgid, "msgid")
    check(m[2] is not None and m[3] is None, f"error response: {m}")
    eq(m[2]["code"], code, f"error code for {data[:20]!r}")
    return r, m


def test_malformed():
    conf_dir = None
    with Daemon() as d:
        conf_dir = d.tmp
        # not msgpack at all (0xc1 is never used): error with msgid 0, then closed
        r, m = expect_error_then_close(d, b"\xc1\x00\x00", "bad-request")
        r.s.settimeout(10)
        eq(r.recv(), None, "connection closed after garbage")
        r.close()
        # msgpack, but not msgpack-rpc
        r, m = expect_error_then_close(d, msgpack.packb({"a": 1}), "bad-request")
        r.close()
        # a request whose params is not an array of one map: error with its msgid
        r, m = expect_error_then_close(d, msgpack.packb([0, 77, "solve", "x"]), "bad-request", 77)
        r.close()
        r, m = expect_error_then_close(d, msgpack.packb([0, 78, 5, [{}]]), "bad-request", 78)
        r.close()
        # the daemon still serves
        r = d.rpc()
        eq(r.call("solve", {"puzzle": EASY})["status"], "unique", "serves after malformed input")
        r.close()
        eq(d.proc.poll(), None, "daemon alive")
    # message size limit
    tmp = conf_dir + "-limit"
    os.makedirs(tmp, exist_ok=True)
    conf = make_conf(os.path.join(tmp, "small.conf"), sudokud=["max_message = 4096"])
    with Daemon(conf=conf) as d:
        r = d.rpc()
        r.send_raw(msgpack.packb([0, 9, "solve", [{"puzzle": EASY, "pad": "x" * 100000}]]))
        m = r.recv()
        check(m is not None and m[0] == 1 and m[2] is not None, f"too-large answered: {m}")
        eq(m[2]["code"], "too-large", "too-large code")
        r.close()
        r = d.rpc()
        eq(r.call("solve", {"puzzle": EASY})["status"], "unique", "serves after too-large")
        r.close()
    import shutil
    shutil.rmtree(tmp, ignore_errors=True)


def test_half_messages():
    """A request split in tiny pieces, with pauses, is still one request."""
    with Daemon() as d:
        r = d.rpc()
        data = msgpack.packb([0, 5, "solve", [{"puzzle": EASY}]]) * 3
        for i in range(0, len(data), 7):
            r.send_raw(data[i:i + 7])
            time.sleep(0.002)
        for _ in range(3):
            m = r.recv()
            eq((m[0], m[1], m[2]), (1, 5, None), "answer to the split request")
        r.close()
        # a client that leaves in the middle of a message does not hurt
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(d.sock)
        s.sendall(data[:10])
        s.close()
        eq(d.rpc().call("solve", {"puzzle": EASY})["status"], "unique", "still serving")
        # a batch's strings with wider heads than msgpack needs (str16 for
        # 81 bytes, str8 for a short one: the daemon takes such puzzles one
        # by one, the usual ones in one run) gets the same answers
        def head16(t):
            b = t.encode()
            return b"\xda" + len(b).to_bytes(2, "big") + b

        def head8(t):
            b = t.encode()
            return b"\xd9" + bytes([len(b)]) + b
        texts = [EASY, HARD, "x" * 20]
        usual = msgpack.packb([0, 7, "solve", [{"puzzles": texts}]])
        arr = msgpack.packb(texts)
        wide = usual.replace(arr, b"\x93" + head16(EASY) + head16(HARD) + head8("x" * 20))
        check(wide != usual, "the wide request differs on the wire")
        r = d.rpc()
        r.send_raw(usual)
        a = r.recv()
        r.send_raw(wide)
        b = r.recv()
        r.close()
        eq(b, a, "the same answers whatever the strings' heads")
        eq(len(a[3]["results"]), 3, "three answers")


def test_turns():
    """Connections take turns for the workers: with one worker, a request
    from a second connection is answered before a long batch sent just
    before it on the first connection (which keeps the worker busy piece by
    piece), and each connection's own requests are served in order."""
    tmp = tempfile.mkdtemp(prefix="sudokud-turns-")
    try:
        conf = make_conf(os.path.join(tmp, "sudokud.conf"), workers=1)
        # long enough (~0.25 s in a release build, pieces of ~20 ms) that the
        # second request comes while pieces are left: 8 of these (~50 ms)
        # were sometimes all handed out before it came
        hard = read_puzzles("top1465.txt", 40)
        with Daemon(conf=conf, tmp=tmp) as d:
            a, b = d.rpc(), d.rpc()
            # the worker up and idle first: were it still starting when the
            # second request comes, both would be queued when the first
            # piece is cut, and with other work queued a piece is not
            # shrunk (the whole batch of 8 would go at once)
            eq(a.call("solve", {"puzzle": EASY})["status"], "unique", "worker ready")
            big = a.send("rate", {"puzzles": hard, "profile": "default"})
            time.sleep(0.05)  # the batch is on the worker
            small = b.send("solve", {"puzzle": EASY})
            order = []
            done = {}

            def wait(conn, msgid, name):
                done[name] = conn.response(msgid)
                order.append(name)

            ts = [threading.Thread(target=wait, args=(a, big, "batch")),
                  threading.Thread(target=wait, args=(b, small, "small"))]
            for t in ts:
                t.start()
            for t in ts:
                t.join(120)
            eq(order, ["small", "batch"], "the other connection's request goes between pieces")
            eq(len(done["batch"][3]["results"]), len(hard), "the batch is whole")
            check(all("er" in r for r in done["batch"][3]["results"]), "every puzzle rated")
            a.close(), b.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


TESTS = {
    "turns": test_turns,
    "methods": test_methods,
    "pipeline": test_pipeline,
    "connections": test_connections,
    "malformed": test_malformed,
    "half_messages": test_half_messages,
}

if __name__ == "__main__":
    sys.exit(main(TESTS))
