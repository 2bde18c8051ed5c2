#!/usr/bin/python3
"""test_formats.py - puzzle formats in and out through sudoctl and a real
sudokud: SadMan .sdk files, HoDoKu library lines and '*'/'_' blanks read as
the same puzzle as its 81-character line; --lines, --csv and serate's --format
agree with --json on every value."""

import csv
import io
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import EASY, HARD, Daemon, check, eq, main, read_puzzles, valid_solution  # noqa: E402

# A reglib line: givens, placed digits ('+'), removed candidates.
LIBRARY = (":0002:1:74..+2+9..6+3+9.8..2..+28.3+7.+945.+2..651......+9+3.+2...328....63...7.9+2.+79"
           "+6.2...5+1+2+9+3+8+764:118 123 125 126 185::175:")


def jlines(out):
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def sdk_text(p81, state=None):
    """A SadMan .sdk file: headers, [Puzzle], and a [State] section to skip."""
    rows = [p81[r * 9:r * 9 + 9] for r in range(9)]
    out = ["#ATest", "#DA puzzle", "#LHard", "[Puzzle]"] + rows
    if state:
        out += ["[State]"] + [state[r * 9:r * 9 + 9] for r in range(9)]
    return "\n".join(out) + "\n"


def test_input():
    with Daemon() as d, tempfile.TemporaryDirectory() as tmp:
        blanks = "".join(c if c != "." else "*_"[i % 2] for i, c in enumerate(HARD))
        solved = d.sudoctl("--json", "solve", HARD)
        sol = jlines(solved.stdout)[0]["solution"]
        path = os.path.join(tmp, "a.sdk")
        with open(path, "w") as f:
            f.write(sdk_text(HARD, state=sol))  # the [State] section is a full grid
        want = jlines(d.sudoctl("--json", "rate", HARD).stdout)[0]
        for what, args in (("*/_ blanks", [blanks]), (".sdk file", ["-f", path])):
            p = d.sudoctl("--json", "rate", *args)
            eq(p.returncode, 0, f"{what} rc {p.stderr}")
            [o] = jlines(p.stdout)
            eq({k: o[k] for k in ("er", "ep", "ed", "hardest")},
               {k: want[k] for k in ("er", "ep", "ed", "hardest")}, what)
        # two .sdk files in a row (cat *.sdk): two puzzles, the [State] skipped
        with open(path, "w") as f:
            f.write(sdk_text(HARD, state=sol) + sdk_text(EASY))
        p = d.sudoctl("--lines", "solve", "-f", path)
        eq(p.returncode, 0, "two .sdk rc " + p.stderr)
        lines = p.stdout.split()
        eq(len(lines), 2, "two puzzles")
        check(valid_solution(HARD, lines[0]) and valid_solution(EASY, lines[1]), "solutions")
        # a library line: the position with its removed candidates
        p = d.sudoctl("--json", "hint", LIBRARY)
        eq(p.returncode, 0, "library rc " + p.stderr)
        [o] = jlines(p.stdout)
        # life's --json: puzzle in its 81-character form, input as read
        eq((len(o["puzzle"]), o.get("input")), (81, LIBRARY), "echo")
        check(o["steps"], "a hint")
        # errors name the field and the cell
        p = d.sudoctl("--json", "rate", LIBRARY.replace(":118 ", ":1x8 "))
        eq(p.returncode, 1, "bad library rc")
        [o] = jlines(p.stdout)
        eq(o["error"]["message"], "library line, removed field: '1x8' is not a candidate "
           "(<digit><row><column>, each 1-9)", "library error")
        with open(path, "w") as f:
            f.write("[Puzzle]\n" + "\n".join(HARD[r * 9:r * 9 + 9] for r in range(8)) + "\n[State]\n")
        p = d.sudoctl("rate", "-f", path)
        eq(p.returncode, 1, "short .sdk rc")
        check("8 rows, expected 9" in p.stdout and "a.sdk:2" in p.stdout, p.stdout)


def test_output():
    puzzles = read_puzzles("top1465.txt", 6, stride=97) + ["12345"]
    with Daemon() as d, tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "p.txt")
        with open(path, "w") as f:
            f.write("\n".join(puzzles) + "\n")
        js = jlines(d.sudoctl("--json", "rate", "-f", path).stdout)
        eq(len(js), 7, "json lines")
        # --lines: solve gives the solutions; a failure gives no line but a message
        p = d.sudoctl("--lines", "solve", "-f", path)
        eq(p.returncode, 1, "rc with a bad puzzle")
        lines = p.stdout.splitlines()
        eq(len(lines), 6, "one line per good puzzle")
        check(all(valid_solution(q, s) for q, s in zip(puzzles, lines)), "solutions in order")
        check("p.txt:7: bad-format: 5 cells, expected 81" in p.stderr, p.stderr)
        multi = read_puzzles("serg_benchmark.txt", 1)[0]
        p = d.sudoctl("--lines", "solve", multi, EASY)
        eq((p.returncode, len(p.stdout.split())), (1, 1), "several solutions: no line, exit 1")
        check("argument 1: more than one solution" in p.stderr, p.stderr)
        p = d.sudoctl("--lines", "rate", "-f", path)
        eq(p.stdout.splitlines(), puzzles[:6], "rate --lines: the puzzles")
        # --csv: a header, one row per puzzle, the same values as --json
        p = d.sudoctl("--csv", "rate", "-f", path)
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        eq(len(rows), 7, "csv rows")
        for row, o in zip(rows, js):
            if "error" in o:
                eq(row["error"], "bad-format: 5 cells, expected 81", "csv error column")
                continue
            eq((row["puzzle"], float(row["er"]), float(row["ep"]), float(row["ed"]), row["hardest"],
                row["level"], int(row["score"])),
               (o["puzzle"], o["er"], o["ep"], o["ed"], o["hardest"], o["level"], o["score"]),
               "csv = json")
            eq(row["error"], "", "no error")
        p = d.sudoctl("--csv", "explain", EASY)
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        [o] = jlines(d.sudoctl("--json", "explain", EASY).stdout)
        eq(len(rows), len(o["steps"]), "a row per step")
        for row, s in zip(rows, o["steps"]):
            eq((row["technique"], row["text"], row["placements"].split(), row["eliminations"].split()),
               (s["technique"], s["text"], s["placements"], s["eliminations"]), "step row")
        eq([int(r["step"]) for r in rows], list(range(1, len(rows) + 1)), "step numbers")
        # serate's --format
        p = d.sudoctl("rate", "--format", "%n%t%g ED=%r/%p/%d %S|%T|%U|%R %i %e%%", "-f", path)
        eq(p.returncode, 1, "format rc")
        out = p.stdout.splitlines()
        eq(len(out), 7, "a line per puzzle, failures too")
        names = {t["id"]: t["name"] for t in
                 json.loads(d.sudoctl("--json", "techniques").stdout)["techniques"]}
        for i, (line, o) in enumerate(zip(out, js)):
            n, rest = line.split("\t", 1)
            eq(int(n), i + 1, "%n")
            if "error" in o:
                eq(rest, "12345 ED=0.0/0.0/0.0 ||| 12345 0.00s%", "a failure: ratings 0.0")
                continue
            m = re.fullmatch(r"(\S+) ED=(\S+)/(\S+)/(\S+) (\S*)\|(\S*)\|(\S*)\|(.*) (\d{81}) (\d+\.\d\ds)%", rest)
            check(m, f"format line {rest!r}")
            eq(m.group(1), o["puzzle"], "%g")
            eq(tuple(float(x) for x in m.group(2, 3, 4)), (o["er"], o["ep"], o["ed"]), "%r/%p/%d")
            eq(m.group(5), o["hardest"], "%S")
            eq(m.group(8), names[o["hardest"]], "%R")
            check(m.group(6) in names and m.group(7) in names, "%T %U are technique ids")
            eq(m.group(9), o["puzzle"].replace(".", "0"), "%i")
        # as serate: 20.0 for a valid puzzle the techniques do not solve
        p = d.sudoctl("rate", "--no-guess", "--format", "%r/%p/%d", HARD)
        [o] = jlines(d.sudoctl("--json", "rate", "--no-guess", HARD).stdout)
        check(not o["solved"], "fast without guessing is stuck on HARD")
        eq(p.stdout, "20.0/%.1f/%.1f\n" % (o["ep"], o["ed"]), "unsolved: ER 20.0")
        # usage errors: precise, exit status 2
        for fmt, msg in (("%x", "'%x' is not a conversion"), ("%s", "per-step conversions"),
                         ("50%", "lone '%'")):
            p = d.sudoctl("rate", "--format", fmt, EASY)
            eq(p.returncode, 2, f"rc for {fmt}")
            check(msg in p.stderr, p.stderr)
        p = d.sudoctl("solve", "--format", "%r", EASY)
        eq(p.returncode, 2, "--format %r with solve")
        check("--format goes with rate only" in p.stderr, p.stderr)


TESTS = {"input": test_input, "output": test_output}

if __name__ == "__main__":
    sys.exit(main(TESTS))
