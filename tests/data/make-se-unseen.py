#!/usr/bin/env python3
"""make-se-unseen.py - Sudoku Explainer's own ratings of puzzles the default
profile was not tuned on (tests/data/se_ratings_unseen.tsv).

Runs SukakuExplainer's batch rater `serate` (compiled from source, see
README.md) set to the classic Sudoku Explainer 1.2.1 technique set (the
--techs string below: no variant constraints, no Scraper/Kite/Turbot,
WXYZ..TUVWXYZ wings, strong-linked fishes or generalized subsets), as
../shared/data/se_ratings_public.tsv was made. One JVM rates a puzzle at a
time through stdin/stdout; a puzzle that takes more than --cpu seconds of the
JVM's CPU time is recorded as a timeout (the sample is of puzzles SE rates
quickly) and the JVM restarted.

The sample, in this order, puzzles of se_ratings_public.tsv left out: every
3rd line of unbiased_1k.txt from the 1st (the first 300), every 9th of
top1465.txt from the 5th (the first 150), every 66th of kaggle_10k.txt from
the 1st (150), the other lines of unbiased_1k.txt, every 9th of top1465.txt
from the 2nd (the first 150), every 245th of 17clue.txt from the 11th (the
first 200); then each --also list (puzzles of one file of --data, chosen as
README.md says).

  make-se-unseen.py --classes DIR [--data DIR] [--cpu S] [--work DIR]
                    [--also FILE:LIST]... OUT.tsv

Resumable: per-sample results are kept in --work (default ./se-unseen-work)
and puzzles already rated there are not rated again.
"""
import argparse, os, select, subprocess, sys, time

TECHS = "1111000011010111011011011011000010100010111111"  # SE 1.2.1's set


def cpu_seconds(pid):
    try:
        f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


class Serate:
    """serate in one JVM; rate() sends one puzzle and waits for its line."""

    def __init__(self, classes):
        self.cmd = ["nice", "-n", "19", "java", "-Xmx512m", "-cp", classes,
                    "diuf.sudoku.test.serate", "--threads=1", "--techs=" + TECHS,
                    "--input=-", "--output=-", "--after=S %r %s",
                    "--format=R %g %r/%p/%d %e %R"]
        self.proc = None

    def rate(self, puzzle, cpu_limit, wall_limit=600):
        if self.proc is None:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            self.buf = b""
        self.proc.stdin.write(puzzle.encode() + b"\n")
        self.proc.stdin.flush()
        fd, steps = self.proc.stdout.fileno(), []
        t0, c0 = time.time(), cpu_seconds(self.proc.pid)
        while cpu_seconds(self.proc.pid) - c0 <= cpu_limit and time.time() - t0 <= wall_limit:
            if not select.select([fd], [], [], 0.5)[0]:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            self.buf += chunk
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                line = line.decode()
                if line.startswith("R "):  # R puzzle ER/EP/ED seconds technique
                    f = line.split(" ", 4)
                    return f[2], f[4] if len(f) > 4 else "", steps
                steps.append(line)
        used = cpu_seconds(self.proc.pid) - c0
        self.proc.kill()
        self.proc.wait()
        self.proc = None
        return None, "%.0f s CPU" % used, steps


def lines(path):
    return [l.strip() for l in open(path) if len(l.strip()) >= 81]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--classes", required=True, help="SukakuExplainer's compiled classes")
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "../../../shared/data"))
    ap.add_argument("--cpu", type=float, default=20.0)
    ap.add_argument("--work", default="se-unseen-work")
    ap.add_argument("--also", action="append", default=[], metavar="FILE:LIST",
                    help="also the puzzles listed in LIST, all from FILE of --data")
    ap.add_argument("out")
    a = ap.parse_args()
    seen = set(l.split("\t")[0] for l in open(os.path.join(a.data, "se_ratings_public.tsv")))
    unb = lines(os.path.join(a.data, "unbiased_1k.txt"))
    first = [p for p in unb[0::3] if p not in seen][:300]
    samples = [
        ("unbiased_1k.txt", first),
        ("top1465.txt", [p for p in lines(os.path.join(a.data, "top1465.txt"))[4::9] if p not in seen][:150]),
        ("kaggle_10k.txt", [p for p in lines(os.path.join(a.data, "kaggle_10k.txt"))[0::66] if p not in seen][:150]),
        ("unbiased_1k.txt", [p for p in unb if p not in seen and p not in set(first)]),
        ("top1465.txt", [p for p in lines(os.path.join(a.data, "top1465.txt"))[1::9] if p not in seen][:150]),
        ("17clue.txt", [p for p in lines(os.path.join(a.data, "17clue.txt"))[10::245] if p not in seen][:200]),
    ]
    for also in a.also:
        fname, listed = also.split(":", 1)
        samples.append((fname, [p for p in lines(listed) if p not in seen]))
    os.makedirs(a.work, exist_ok=True)
    se = Serate(a.classes)
    out = open(a.out, "w")
    out.write("puzzle\tER\tEP\tED\tsource\thardest_technique\n")
    timeouts = 0
    for n, (fname, puzzles) in enumerate(samples):
        lineno = {}
        for i, p in enumerate(lines(os.path.join(a.data, fname)), 1):
            lineno.setdefault(p, i)
        done = {}
        work = os.path.join(a.work, "%d.r" % n)
        if os.path.exists(work):
            for l in open(work):
                f = l.rstrip("\n").split("\t")
                done[f[0]] = f
        with open(work, "a") as w, open(os.path.join(a.work, "%d.steps" % n), "a") as ws:
            for p in puzzles:
                if p in done:
                    continue
                er, name, steps = se.rate(p, a.cpu)
                done[p] = [p, er or "TIMEOUT", name]
                w.write("\t".join(done[p]) + "\n")
                w.flush()
                ws.write("# %s %s\n%s" % (p, er or "TIMEOUT", "".join(s + "\n" for s in steps)))
        for p in puzzles:
            f = done[p]
            if f[1] == "TIMEOUT":
                timeouts += 1
                print("timeout: %s %s #%d (%s)" % (p, fname, lineno[p], f[2]), file=sys.stderr)
                continue
            er, ep, ed = f[1].split("/")
            out.write("%s\t%s\t%s\t%s\t%s #%d\t%s\n" % (p, er, ep, ed, fname, lineno[p], f[2]))
    print("timeouts: %d" % timeouts, file=sys.stderr)


if __name__ == "__main__":
    main()
