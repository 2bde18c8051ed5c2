"""bench_explain.py - how long `explain` takes per puzzle with the reading
profile (what explain uses by default) on forum_hardest_1106.txt, against the
`standard` profile as the baseline, in the same run. --methods picks the
request per profile (issue 11 item 4: `--profiles standard,hodoku --methods
explain,rate`).

One daemon with one worker; each puzzle is one explain request; the time is
the worker's CPU time (from /proc/PID/schedstat, in ns) for that request. Prints the
median, 90th percentile and max per profile, the slowest puzzles, and how many
take longer than 3 s.

    SUDOKU_BUILD=build /usr/bin/python3 tests/bench/bench_explain.py \
        [--stride 5] [--baseline-stride 25] [--file forum_hardest_1106.txt]
"""

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "integration"))
from harness import Daemon, Rpc, make_conf, read_puzzles  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid):
    """CPU seconds of a (single-threaded) worker. /proc/PID/schedstat's first
    field is its time on a CPU in nanoseconds; utime + stime in /proc/PID/stat
    count clock ticks (10 ms), too coarse for a median near 0.1 s. The stat
    fields are the fallback on kernels without schedstat."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        pass
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def worker_pids(daemon_pid):
    out = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if ppid == daemon_pid:
            out.append(int(p))
    return out


def run(d, rpc, profile, puzzles, lines, method="explain"):
    times = []
    for line, p in zip(lines, puzzles):
        pids = worker_pids(d.proc.pid)
        before = sum(cpu_of(w) for w in pids)
        r = rpc.call(method, {"puzzle": p, "profile": profile})
        after = sum(cpu_of(w) for w in pids)
        times.append((after - before, line, r.get("solved")))
    return times


def report(profile, times):
    ts = sorted(t for t, _, _ in times)
    print(f"{profile}: {len(ts)} puzzles, CPU s per puzzle: median {statistics.median(ts):.3f}, "
          f"p90 {ts[int(0.9 * (len(ts) - 1))]:.3f}, max {ts[-1]:.3f}; "
          f"over 3 s: {sum(t > 3 for t in ts)}; solved: {sum(1 for _, _, s in times if s)}"
          if any(s is not None for _, _, s in times) else
          f"over 3 s: {sum(t > 3 for t in ts)}")
    print("  slowest (CPU s, line):", [(round(t, 3), ln) for t, ln, _ in sorted(times)[-5:]])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default="forum_hardest_1106.txt")
    ap.add_argument("--stride", type=int, default=5)
    ap.add_argument("--baseline-stride", type=int, default=25)
    ap.add_argument("--lines", help="only these lines (1-based, comma-separated)")
    ap.add_argument("--profiles", default="reading,standard",
                    help="the measured profile, then the baseline")
    ap.add_argument("--methods", default="explain,explain",
                    help="the request for each of the two profiles (explain or rate)")
    a = ap.parse_args()
    allp = read_puzzles(a.file)
    only = {int(x) for x in a.lines.split(",")} if a.lines else None
    keep = lambda i, s: (i + 1 in only) if only else i % s == 0  # noqa: E731
    pick = lambda s: ([p for i, p in enumerate(allp) if keep(i, s)],  # noqa: E731
                      [i + 1 for i in range(len(allp)) if keep(i, s)])
    measured, baseline = a.profiles.split(",")
    m_measured, m_baseline = a.methods.split(",")
    tmp = tempfile.mkdtemp(prefix="bench-explain-")
    conf = make_conf(os.path.join(tmp, "bench.conf"), sudokud=("deadline_ms = 600000",),
                     workers=1)
    with Daemon(conf=conf) as d:
        rpc = Rpc(d.sock, timeout=900)
        p, lines = pick(a.stride)
        first = run(d, rpc, measured, p, lines, m_measured)
        p, lines = pick(a.baseline_stride)
        second = run(d, rpc, baseline, p, lines, m_baseline)
    report(f"{m_measured} {measured}", first)
    report(f"{m_baseline} {baseline} (baseline)", second)


if __name__ == "__main__":
    main()
