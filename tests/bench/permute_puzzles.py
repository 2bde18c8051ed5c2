#!/usr/bin/python3
"""permute_puzzles.py - many puzzles from a few, for the streaming benchmarks.

Every output line is a puzzle of the input file (81-character lines) put
through a random validity-preserving transformation: the digits relabelled,
rows permuted within their bands, the bands permuted, columns within their
stacks, the stacks permuted, and a transposition half of the time. A
transformed puzzle has as many solutions as its source (uniqueness and
difficulty for a solver are kept), so `sudoctl solve` answers each one
`unique` when the source is.

usage: /usr/bin/python3 tests/bench/permute_puzzles.py [-n COUNT] [--seed S] FILE > OUT
(default 1,000,000 puzzles, seed 1: the same output every time)
"""

import argparse
import random
import sys


def line_permutation(rng):
    """A random order of 9 lines: bands (or stacks) shuffled, then the three
    lines within each."""
    bands = [0, 1, 2]
    rng.shuffle(bands)
    out = []
    for b in bands:
        inner = [0, 1, 2]
        rng.shuffle(inner)
        out.extend(3 * b + i for i in inner)
    return out


def transform(puzzle, rng):
    rows, cols = line_permutation(rng), line_permutation(rng)
    digits = list("123456789")
    rng.shuffle(digits)
    relabel = {str(d + 1): digits[d] for d in range(9)}
    transpose = rng.random() < 0.5
    out = []
    for r in range(9):
        for c in range(9):
            rr, cc = rows[r], cols[c]
            if transpose:
                rr, cc = cc, rr
            ch = puzzle[rr * 9 + cc]
            out.append(relabel.get(ch, "."))
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("-n", "--count", type=int, default=1000000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    src = []
    with open(a.file) as f:
        for line in f:
            s = line.strip()
            if len(s) == 81:
                src.append(s)
    if not src:
        raise SystemExit(f"{a.file}: no 81-character puzzle lines")
    rng = random.Random(a.seed)
    w = sys.stdout.write
    buf = []
    for i in range(a.count):
        buf.append(transform(src[i % len(src)], rng))
        if len(buf) == 10000:
            w("\n".join(buf) + "\n")
            buf = []
    if buf:
        w("\n".join(buf) + "\n")


if __name__ == "__main__":
    main()
