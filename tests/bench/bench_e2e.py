#!/usr/bin/python3
"""bench_e2e.py - end-to-end benchmark of sudokud + sudoctl (not a ctest test).

  1. `sudoctl solve -f kaggle_10k.txt` against a sudokud with two workers, vs
     the same puzzles solved in-process on one core (bench_e2e_inproc: direct
     parse+solve+print, and through the service layer as a worker runs it);
     reported as a throughput ratio (target >= 0.5), medians of several runs
     measured in this same run.
  2. Single small requests (one puzzle each, bench_e2e_rpc): requests/s and
     p50/p99 latency, pipelined (16 in flight) and not, one connection and four.
  3. Memory: RSS (and PSS) of an idle sudokud with two workers (target < 20 MiB
     total), and the peak while 100,000 puzzles stream through `sudoctl solve`
     from stdin (sudoctl's own peak too: it must stay flat).

  4. With --baseline-sudokud EXE (another build of sudokud, e.g. of the commit
     before a change): `sudoctl solve -f kaggle_10k.txt` against both daemons,
     runs interleaved (A B A B ...), medians and their ratio.

usage: /usr/bin/python3 tests/bench/bench_e2e.py [--build DIR] [--runs N] [--stream N]
           [--baseline-sudokud EXE] [--only-ab]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))


def proc_tree(root):
    """root and all its descendants (pids)."""
    children = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                s = f.read()
            ppid = int(s[s.rindex(")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(pid))
        except (OSError, ValueError):
            pass
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def mem_kb(pid):
    """(rss, pss) in KiB of one process (pss 0 when unknown)."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def tree_mem(root):
    pids = proc_tree(root)
    rss = pss = 0
    for p in pids:
        r, s = mem_kb(p)
        rss += r
        pss += s
    return rss, pss, len(pids)


def median_time(argv, runs, stdin=None, **kw):
    times = []
    for _ in range(runs):
        t0 = time.monotonic()
        with open(stdin) if stdin else open(os.devnull) as fin, open(os.devnull, "w") as fout:
            p = subprocess.run(argv, stdin=fin, stdout=fout, stderr=subprocess.PIPE, text=True, **kw)
        times.append(time.monotonic() - t0)
        if p.returncode not in (0, 1):
            raise SystemExit(f"{argv[0]} failed ({p.returncode}): {p.stderr[-500:]}")
    return statistics.median(times), times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.environ.get("SUDOKU_BUILD", os.path.join(HERE, "../../build")))
    ap.add_argument("--data", default=os.environ.get("SUDOKU_DATA", os.path.join(HERE, "../../../shared/data")))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--stream", type=int, default=100000, help="puzzles for the streaming RSS test")
    ap.add_argument("--requests", type=int, default=3000, help="small requests per connection")
    ap.add_argument("--baseline-sudokud", help="another sudokud to compare against (A/B)")
    ap.add_argument("--only-ab", action="store_true", help="only the A/B comparison")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    os.environ["SUDOKU_BUILD"] = build
    import harness
    harness.SUDOKUD = os.path.join(build, "bin", "sudokud")
    harness.SUDOCTL = os.path.join(build, "bin", "sudoctl")
    conf_base = os.path.join(build, "etc", "sudokud", "sudokud.conf")
    sudoctl = harness.SUDOCTL
    kaggle = os.path.join(a.data, "kaggle_10k.txt")
    inproc = os.path.join(build, "bin", "bench_e2e_inproc")
    rpcb = os.path.join(build, "bin", "bench_e2e_rpc")
    for f in (harness.SUDOKUD, sudoctl, inproc, rpcb, kaggle):
        if not os.path.exists(f):
            raise SystemExit(f"missing {f} (build the bench targets: cmake --build {build} --target "
                             "bench_e2e_inproc bench_e2e_rpc)")
    npuz = sum(1 for line in open(kaggle) if line.strip())
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; runs {a.runs} (medians)")

    tmp = tempfile.mkdtemp(prefix="bench-e2e-")
    conf = harness.make_conf(os.path.join(tmp, "sudokud.conf"), base=conf_base, workers=2)
    d = harness.Daemon(conf=conf, exe=harness.SUDOKUD, tmp=tmp)
    d.start()
    try:
        if a.baseline_sudokud and a.only_ab:
            ab(a, harness, conf, d, kaggle, npuz)
            return
        time.sleep(0.5)
        rss, pss, n = tree_mem(d.proc.pid)
        print("\n== memory, idle")
        print(f"sudokud + workers ({n} processes): RSS {rss / 1024:.1f} MiB, PSS {pss / 1024:.1f} MiB "
              f"(target < 20 MiB total)")

        print(f"\n== throughput: solve kaggle_10k ({npuz} puzzles)")
        base = [sudoctl, "--socket", d.sock, "--no-autostart", "--no-progress"]
        median_time(base + ["solve", "-f", kaggle], 1)  # warm up
        e2e, e2e_all = median_time(base + ["solve", "-f", kaggle], a.runs)
        e2e_json, _ = median_time(base + ["--json", "solve", "-f", kaggle], a.runs)
        e2e_stdin, _ = median_time(base + ["solve"], a.runs, stdin=kaggle)

        def inproc_median(mode):
            p = subprocess.run([inproc, "-r", str(a.runs), "-m", mode, "-c", conf, kaggle],
                               capture_output=True, text=True)
            if p.returncode:
                raise SystemExit(p.stderr)
            last = p.stdout.strip().splitlines()[-1].split()
            return float(last[1])

        direct = inproc_median("direct")
        service = inproc_median("service")
        print(f"sudoctl solve -f (text)   {e2e:.3f} s  {npuz / e2e:9.0f} puzzles/s  (runs: "
              + ", ".join(f"{t:.3f}" for t in e2e_all) + ")")
        print(f"sudoctl --json solve -f   {e2e_json:.3f} s  {npuz / e2e_json:9.0f} puzzles/s")
        print(f"sudoctl solve < stdin     {e2e_stdin:.3f} s  {npuz / e2e_stdin:9.0f} puzzles/s")
        print(f"in-process, direct        {direct:.3f} s  {npuz / direct:9.0f} puzzles/s  (1 core)")
        print(f"in-process, service layer {service:.3f} s  {npuz / service:9.0f} puzzles/s  (1 core)")
        print(f"ratio end-to-end / in-process direct:  {direct / e2e:.2f}  (target >= 0.5)")
        print(f"ratio end-to-end / in-process service: {service / e2e:.2f}")

        print("\n== small requests (solve, one easy puzzle each)")
        for conns, depth in ((1, 1), (1, 16), (4, 1), (4, 16)):
            p = subprocess.run([rpcb, "-s", d.sock, "-c", str(conns), "-d", str(depth),
                                "-n", str(a.requests)], capture_output=True, text=True, timeout=300)
            line = p.stdout.strip() or p.stderr.strip()
            f = line.split()
            try:
                kv = dict(zip(f[0::2], f[1::2]))
                print(f"{conns} conn{'s' if conns > 1 else ' '} {'pipelined x' + str(depth) if depth > 1 else 'one at a time':16s}"
                      f"{float(kv['rps']):9.0f} req/s   p50 {float(kv['p50_us']):7.0f} us   "
                      f"p99 {float(kv['p99_us']):7.0f} us   errors {kv['errors']}")
            except (KeyError, ValueError):
                print(f"{conns} conns depth {depth}: {line}")
        p = subprocess.run([rpcb, "-s", d.sock, "-c", "1", "-d", "1", "-n", str(a.requests), "-m", "status"],
                           capture_output=True, text=True, timeout=300)
        print(f"status (answered by the event loop, no worker): {p.stdout.strip()}")

        print(f"\n== memory while {a.stream} puzzles stream through sudoctl solve (stdin)")
        src = open(kaggle).read().splitlines()
        stream_file = os.path.join(tmp, "stream.txt")
        with open(stream_file, "w") as f:
            for i in range(a.stream):
                f.write(src[i % len(src)] + "\n")
        peak = {"d_rss": 0, "d_pss": 0, "c_rss": 0}
        stop = threading.Event()
        t0 = time.monotonic()
        with open(stream_file) as fin, open(os.devnull, "w") as fout:
            # read through a pipe, as from another program
            cat = subprocess.Popen(["cat", stream_file], stdout=subprocess.PIPE)
            cl = subprocess.Popen(base + ["solve"], stdin=cat.stdout, stdout=fout, stderr=subprocess.PIPE)
            cat.stdout.close()

            def sample():
                while not stop.is_set():
                    r, s, _ = tree_mem(d.proc.pid)
                    peak["d_rss"] = max(peak["d_rss"], r)
                    peak["d_pss"] = max(peak["d_pss"], s)
                    peak["c_rss"] = max(peak["c_rss"], mem_kb(cl.pid)[0])
                    time.sleep(0.05)

            th = threading.Thread(target=sample)
            th.start()
            cl.wait()
            cat.wait()
            stop.set()
            th.join()
        el = time.monotonic() - t0
        print(f"{a.stream} puzzles in {el:.2f} s ({a.stream / el:.0f}/s), sudoctl exit {cl.returncode}")
        print(f"peak sudokud + workers: RSS {peak['d_rss'] / 1024:.1f} MiB, PSS {peak['d_pss'] / 1024:.1f} MiB")
        print(f"peak sudoctl RSS: {peak['c_rss'] / 1024:.1f} MiB")
        rss, pss, n = tree_mem(d.proc.pid)
        print(f"after: sudokud + workers RSS {rss / 1024:.1f} MiB, PSS {pss / 1024:.1f} MiB")
        if a.baseline_sudokud:  # last: the expensive batch grows the workers
            ab(a, harness, conf, d, kaggle, npuz)
    finally:
        d.stop()
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


def ab(a, harness, conf, d, kaggle, npuz):
    """This sudokud (d) against a baseline binary, interleaved runs."""
    tmp = tempfile.mkdtemp(prefix="bench-e2e-base-")
    base_d = harness.Daemon(conf=conf, exe=os.path.abspath(a.baseline_sudokud), tmp=tmp)
    base_d.start()
    try:
        def argv(dd, json=False):
            return ([harness.SUDOCTL, "--socket", dd.sock, "--no-autostart", "--no-progress"]
                    + (["--json"] if json else []) + ["solve", "-f", kaggle])
        print(f"\n== A/B: sudoctl solve -f kaggle_10k, this sudokud vs {a.baseline_sudokud}")
        for json in (False, True):
            median_time(argv(d, json), 1)  # warm up both
            median_time(argv(base_d, json), 1)
            new, old = [], []
            for _ in range(a.runs):
                new.append(median_time(argv(d, json), 1)[0])
                old.append(median_time(argv(base_d, json), 1)[0])
            mn, mo = statistics.median(new), statistics.median(old)
            print(f"{'--json ' if json else 'text   '} this {mn:.3f} s ({npuz / mn:.0f}/s)  "
                  f"baseline {mo:.3f} s ({npuz / mo:.0f}/s)  speed-up x{mo / mn:.2f}")
        # fairness: a small request's latency while an expensive batch runs
        hard = harness.read_puzzles("top1465.txt", 48)
        print("\n== A/B fairness: `solve` of one easy puzzle every 50 ms while `rate` of 48 "
              "top1465 puzzles (default profile) runs in one request")
        for name, dd in (("this", d), ("baseline", base_d)):
            for _ in range(2):  # the second time with the cost learnt
                big, small = dd.rpc(), dd.rpc()
                t0 = time.monotonic()
                bid = big.send("rate", {"puzzles": hard, "profile": "default"})
                lat = []
                done = threading.Event()

                def wait_big():
                    big.response(bid)
                    done.set()

                th = threading.Thread(target=wait_big)
                th.start()
                while not done.is_set():
                    t = time.monotonic()
                    small.call("solve", {"puzzle": harness.EASY})
                    lat.append(time.monotonic() - t)
                    time.sleep(0.05)
                th.join()
                el = time.monotonic() - t0
                big.close(), small.close()
            lat.sort()
            print(f"{name:9s} batch {el:.2f} s; small requests {len(lat)}: median "
                  f"{statistics.median(lat) * 1000:.1f} ms, p90 {lat[int(len(lat) * 0.9)] * 1000:.1f} ms, "
                  f"max {lat[-1] * 1000:.1f} ms")
    finally:
        base_d.stop()
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
