#!/usr/bin/python3
"""test_seeds.py - the two small seed programs' outputs through a real
sudokud: the Dutch backtracking program's printed trace (seeds/001) line for
line against the seed document, and the Hindi singles program's pass count
(seeds/004) on its own example."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import CONF, DATA, Daemon, check, eq, main  # noqa: E402

SEEDS = os.path.join(os.path.dirname(DATA), "seeds")
DUTCH = "..76.......3.45..2......59........4..41.2....3....9...5..7.49...8.9...7...4..2.8."
# seeds/004's in_val, row by row
HINDI = ("..3..82.4" ".2..64.1." "9.......8" ".8......." ".....698."
         "......5.." "..49.7.3." "8....1..." ".7..5.4..")


def test_seed001():
    """Every line the document shows (its first 10 steps and its last ones,
    1,087 + 1,333 lines) but one: the document writes one backtrack row
    `8 -1` where its two others are `4-1` and `3-1` (a field of two per
    cell); we print all three the same way."""
    with open(os.path.join(SEEDS, "001_1c14b29663723da1.txt"), encoding="utf-8") as f:
        seed = f.read().split("\n")
    with Daemon(conf=CONF) as d:
        p = d.sudoctl("explain", "--trace", "--grid", "--max-trace", "1000000", DUTCH, timeout=120)
        eq(p.returncode, 0, p.stderr)
    out = p.stdout.split("\n")
    s0, o0 = seed.index("Op te lossen sudoku:"), out.index("Op te lossen sudoku:")
    end = s0
    while not seed[end].startswith(":"):
        end += 1
    head = seed[s0:end]
    diff = [(i, a, b) for i, (a, b) in enumerate(zip(head, out[o0:o0 + len(head)])) if a != b]
    eq(diff, [(834, "1 2 7 6 3 8 -1 0 0", "1 2 7 6 3 8-1 0 0")], "the document's first steps")
    t0 = end
    while seed[t0].startswith(":"):
        t0 += 1
    t1 = next(i for i, line in enumerate(seed) if line.startswith("De totale"))
    tail = seed[t0:t1]
    o1 = next(i for i, line in enumerate(out) if line.startswith("De totale"))
    eq(out[o1 - len(tail):o1], tail, "the document's last steps and the solved grid")
    check(out[o1].startswith("De totale rekentijd bedraagt slechts ") and out[o1].endswith(" sec."),
          out[o1])
    check("stap 10789: geldig getal gevonden" in out, "the last step is 10,789")


def test_seed004():
    with Daemon(conf=CONF) as d:
        p = d.sudoctl("explain", "--passes", "--profile", "singles", "--json", HINDI)
        eq(p.returncode, 0, p.stderr)
        r = json.loads(p.stdout)
        sol = d.rpc().call("solve", {"puzzle": HINDI})["solution"]
        eq(r["passes_grid"], sol, "the program solves its example")
        eq(r["passes"], 11, "passes on the seed's example (10 that place, the idle last one)")
        t = d.sudoctl("explain", "--passes", "--profile", "singles", HINDI)
        check("singles program: 11 passes, solved" in t.stdout, t.stdout[:300])
        # a puzzle singles cannot finish: the program stops with cells unknown
        hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        r = json.loads(d.sudoctl("explain", "--passes", "--profile", "singles", "--no-guess",
                                 "--json", hard).stdout)
        check("." in r["passes_grid"] and 1 <= r["passes"] <= 81, r)


def test_sudokilo_order():
    """The sudokilo profile runs the ids of plugins/sudokilo/README.md's
    profile block, in that order (the seed's steps 1..36, rule 5 last)."""
    import re
    from harness import SOURCE
    with open(os.path.join(SOURCE, "plugins/sudokilo/README.md"), encoding="utf-8") as f:
        text = f.read()
    block = text.split("in the seed's order;")[1].split("\n\n")[1]
    ids = re.findall(r"[a-z0-9-]+", block)
    with Daemon(conf=CONF) as d:
        got = [t["id"] for t in d.rpc().call("techniques", {"profile": "sudokilo"})["techniques"]]
    eq(got, ids, "profile order")
    check(got.index("swordfish-222") < got.index("turbot-fish") < got.index("xyz-wing")
          < got.index("swordfish") < got.index("bifurcation"), "steps 16/17, 34, 35/36, rule 5")


TESTS = {"seed001": test_seed001, "seed004": test_seed004, "sudokilo_order": test_sudokilo_order}

if __name__ == "__main__":
    sys.exit(main(TESTS))
