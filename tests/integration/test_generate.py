#!/usr/bin/python3
"""test_generate.py - `generate` end to end through a real sudokud: sudoctl
generate's lines rate back to themselves with `sudoctl rate`, every puzzle has
one solution and meets its target (rating range, level through the hodoku
profile, technique, symmetry, clues, minimal, clue pattern), the same seed
gives the same puzzles however the batch is split over the workers, and bad
targets get precise errors."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import CONF, Daemon, check, eq, main  # noqa: E402

import msgpack  # noqa: E402,F401


def jlines(out):
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def solutions(d, puzzle):
    r = d.rpc().call("solve", {"puzzle": puzzle})
    return r["solutions"]


def symmetric(p, kind):
    maps = {
        "rotational": [lambda r, c: (8 - r, 8 - c)],
        "mirror": [lambda r, c: (r, 8 - c)],
        "diagonal": [lambda r, c: (c, r)],
        "rot90": [lambda r, c: (c, 8 - r)],
    }[kind]
    for f in maps:
        for r in range(9):
            for c in range(9):
                r2, c2 = f(r, c)
                if (p[r * 9 + c] == ".") != (p[r2 * 9 + c2] == "."):
                    return False
    return True


def test_rates_back():
    """Text lines are `rate`'s lines for the same puzzles; JSON has every field."""
    with Daemon(conf=CONF) as d:
        p = d.sudoctl("generate", "--count", "8", "--seed", "17", "--no-progress")
        eq(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        eq(len(lines), 8, "eight puzzles")
        puzzles = [ln.split()[0] for ln in lines]
        for pz in puzzles:
            eq(len(pz), 81, "81-character puzzle")
            eq(solutions(d, pz), 1, f"one solution: {pz}")
        q = d.sudoctl("rate", *puzzles)
        eq(q.returncode, 0, q.stderr)
        eq(q.stdout.splitlines(), lines, "generate's lines are rate's lines")
        j = d.sudoctl("generate", "--count", "8", "--seed", "17", "--json")
        eq(j.returncode, 0, j.stderr)
        objs = jlines(j.stdout)
        eq([o["puzzle"] for o in objs], puzzles, "same seed, same puzzles (text and JSON)")
        for k in ("index", "puzzle", "solution", "clues", "symmetry", "er", "ep", "ed", "level",
                  "score", "hardest", "steps", "built", "rated", "seconds"):
            check(k in objs[0], f"field {k} in {objs[0]}")
        eq([o["index"] for o in objs], list(range(8)), "indices in order")


def test_split_invariance():
    """Puzzle i of a seed does not depend on how the batch is split."""
    with Daemon(conf=CONF) as d:
        r = d.rpc()
        whole = r.call("generate", {"seed": 5, "count": 6})["results"]
        tail = r.call("generate", {"seed": 5, "first": 3, "count": 3})["results"]
        eq([x["puzzle"] for x in whole[3:]], [x["puzzle"] for x in tail], "first=3 continues")
        eq([x["index"] for x in tail], [3, 4, 5], "indices")


def test_targets():
    with Daemon(conf=CONF) as d:
        p = d.sudoctl("generate", "--count", "3", "--seed", "2", "--er", "3.0-4.5",
                      "--symmetry", "rotational", "--clues", "24-30", "--json")
        eq(p.returncode, 0, p.stderr)
        for o in jlines(p.stdout):
            check(3.0 <= o["er"] <= 4.5, f"er {o['er']}")
            check(24 <= o["clues"] <= 30, f"clues {o['clues']}")
            check(symmetric(o["puzzle"], "rotational"), o["puzzle"])
            eq(o["puzzle"].count(".") , 81 - o["clues"], "clue count")
            rated = jlines(d.sudoctl("rate", "--json", o["puzzle"]).stdout)[0]
            eq((rated["er"], rated["ep"], rated["ed"]), (o["er"], o["ep"], o["ed"]), "rate agrees")
        # a level, judged with the hodoku profile
        p = d.sudoctl("generate", "--count", "2", "--seed", "3", "--level", "hard", "--json")
        eq(p.returncode, 0, p.stderr)
        for o in jlines(p.stdout):
            eq(o["level"], "hard", "level")
            eq(o["level_profile"], "hodoku", "judged by hodoku")
            rated = jlines(d.sudoctl("rate", "--json", "--profile", "hodoku", o["puzzle"]).stdout)[0]
            eq((rated["level"], rated["score"]), ("hard", o["score"]), "rate --profile hodoku agrees")
        # a technique right after simple steps, and the hardest step
        p = d.sudoctl("generate", "--seed", "4", "--needs", "x-wing", "--pattern", "--json")
        eq(p.returncode, 0, p.stderr)
        o = jlines(p.stdout)[0]
        steps = jlines(d.sudoctl("explain", "--json", o["puzzle"]).stdout)[0]["steps"]
        ids = [s["technique"] for s in steps]
        check("x-wing" in ids, ids)
        p = d.sudoctl("generate", "--seed", "4", "--hardest", "xy-wing", "--json")
        eq(p.returncode, 0, p.stderr)
        eq(jlines(p.stdout)[0]["hardest"], "xy-wing", "hardest")
        # minimal and a clue pattern
        p = d.sudoctl("generate", "--seed", "6", "--minimal", "--symmetry", "mirror", "--json")
        eq(p.returncode, 0, p.stderr)
        o = jlines(p.stdout)[0]
        check(symmetric(o["puzzle"], "mirror"), o["puzzle"])
        pz = o["puzzle"]
        for i, ch in enumerate(pz):
            if ch != ".":
                less = pz[:i] + "." + pz[i + 1:]
                check(solutions(d, less) > 1, f"clue r{i // 9 + 1}c{i % 9 + 1} can go")
        pattern = "".join("x" if ch != "." else "." for ch in pz)
        p = d.sudoctl("generate", "--seed", "9", "--givens", pattern, "--json")
        eq(p.returncode, 0, p.stderr)
        o = jlines(p.stdout)[0]
        eq(["." if ch == "." else "x" for ch in o["puzzle"]], list(pattern), "clue cells kept")


def test_hard_target():
    """A rare target (SE 8.5 and up) comes from the local search."""
    with Daemon(conf=CONF) as d:
        p = d.sudoctl("generate", "--seed", "7", "--er", "8.5-", "--json")
        eq(p.returncode, 0, p.stderr)
        o = jlines(p.stdout)[0]
        check(o["er"] >= 8.5, o)
        rated = jlines(d.sudoctl("rate", "--json", o["puzzle"]).stdout)[0]
        eq(rated["er"], o["er"], "rate agrees")


def test_errors():
    with Daemon(conf=CONF) as d:
        cases = [
            (["--er", "9-3"], 2, "--er wants a rating range"),
            (["--clues", "10-20"], 2, "--clues wants a whole range within 17-81"),
            (["--needs", "no-such"], 2, "unknown technique 'no-such'"),
            (["--symmetry", "spiral"], 2, "unknown symmetry 'spiral'"),
            (["--level", "tough"], 2, "unknown level 'tough'"),
            (["--pattern"], 2, "--pattern goes with --needs"),
            (["--givens", "x" * 10], 2, "'givens' has 10 cells, expected 81"),
            (["--needs", "kraken-fish"], 2, "not in profile 'default'"),
            (["PUZZLE"], 2, "generate takes no puzzles"),
        ]
        for args, code, text in cases:
            p = d.sudoctl("generate", *args)
            eq(p.returncode, code, f"{args}: {p.stderr}")
            check(text in p.stderr, f"{args}: {p.stderr}")
        # a target out of reach within its budget: exit 1, the reason per puzzle
        p = d.sudoctl("generate", "--count", "2", "--er", "1.0-1.0", "--max-tries", "5")
        eq(p.returncode, 1, p.stderr)
        check("not-found" in p.stderr and "5 rated" in p.stderr, p.stderr)
        r = d.rpc().call_error("generate", {"count": 0})
        check("count" in r["message"], r)


TESTS = {
    "rates_back": test_rates_back,
    "split_invariance": test_split_invariance,
    "targets": test_targets,
    "hard_target": test_hard_target,
    "errors": test_errors,
}

if __name__ == "__main__":
    sys.exit(main(TESTS))
