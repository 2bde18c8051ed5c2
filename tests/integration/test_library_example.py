#!/usr/bin/python3
"""test_library_example.py - examples/library/rate (libsudoku in-process, see
docs/LIBRARY.md) rates puzzles exactly as the daemon does with the same
config and profile, shows its steps with -v, and reports bad input."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import BUILD, EASY, HARD, Daemon, check, eq, main, read_puzzles  # noqa: E402

EXAMPLE = os.path.join(BUILD, "examples", "library", "rate")


def run(*args, input=""):
    return subprocess.run([EXAMPLE, *args], input=input, capture_output=True, text=True, timeout=120)


def test_rate():
    puzzles = [EASY, HARD] + read_puzzles("top1465.txt", 4, stride=50)
    with Daemon() as d:
        p = run(d.conf, "fast", input="\n".join(puzzles) + "\n")
        eq(p.returncode, 0, "rc " + p.stderr)
        lines = p.stdout.splitlines()
        eq(len(lines), len(puzzles), "a line per puzzle")
        js = [json.loads(x) for x in d.sudoctl("--json", "rate", *puzzles).stdout.splitlines()]
        for line, o in zip(lines, js):
            p81, ratings, level, hardest = line.split()
            eq(p81, o["puzzle"], "puzzle")
            eq(ratings, "%.1f/%.1f/%.1f" % (o["er"], o["ep"], o["ed"]), "ER/EP/ED = the daemon's")
            eq((level, hardest), (o["level"], o["hardest"]), "level, hardest")
        # -v: every step, as many as explain gives
        p = run("-v", d.conf, "fast", input=EASY + "\n")
        steps = [x for x in p.stdout.splitlines() if x.startswith("  ")]
        [o] = [json.loads(x) for x in d.sudoctl("--json", "explain", EASY).stdout.splitlines()]
        eq(len(steps), len(o["steps"]), "steps")
        check(steps[0].startswith("  1. [") and o["steps"][0]["text"] in steps[0], steps[0])
    # errors: a bad puzzle named by its line, a config that does not load
    p = run(os.environ["SUDOKU_CONF"], "default", input="12345\n" + EASY[:-1] + "5\n")
    eq(p.returncode, 1, "bad puzzles rc")
    eq(p.stdout.splitlines()[0], "line 1: bad-format: 5 cells, expected 81", "bad line")
    check("no solution" in p.stdout.splitlines()[1] or "conflict" in p.stdout, p.stdout)
    p = run("/nonexistent.conf")
    eq(p.returncode, 2, "bad config rc")
    check("/nonexistent.conf" in p.stderr, p.stderr)


TESTS = {"rate": test_rate}

if __name__ == "__main__":
    sys.exit(main(TESTS))
