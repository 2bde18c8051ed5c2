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
  5. The lean path (issue 11): `sudoctl --json solve -f 17clue.txt` against
     the in-process count-to-2 solver (bench_e2e_inproc -m solver: the
     puzzles parsed first, then sdk_solve(values, 2) alone), runs
     interleaved. CPU of client + daemon + workers together (the client's
     rusage, the daemon's and workers' /proc/PID/schedstat) per answer
     against the solver's (goal <= 1.2x), and wall throughput against the
     solver on one core (goal >= 1.6x with two workers). --lean-baseline DIR:
     another build's sudokud and sudoctl in the same runs (before/after).
  6. With --million N: N puzzles made by permute_puzzles.py from 17clue.txt
     stream through `sudoctl solve -f`; RSS of sudoctl and of sudokud +
     workers sampled over time (the curve and the peaks; flat is the goal).

usage: /usr/bin/python3 tests/bench/bench_e2e.py [--build DIR] [--runs N] [--stream N]
           [--baseline-sudokud EXE] [--only-ab] [--only lean|memory] [--million N]
           [--lean-baseline BUILD-DIR]
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


def tree_cpu(root):
    """CPU seconds run so far by root and its descendants (schedstat: ns)."""
    total = 0
    for p in proc_tree(root):
        try:
            with open(f"/proc/{p}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e9


def timed_child(argv, stdout=None, stdin=None):
    """Run argv; (wall s, CPU s of the child: user + sys, exit status)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdin=stdin or subprocess.DEVNULL, stdout=stdout or subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if p.returncode not in (0, 1):
        raise SystemExit(f"{argv[0]} failed ({p.returncode}): {err[-500:]}")
    return wall, ru.ru_utime + ru.ru_stime, p.returncode


def e2e_run(d, argv):
    """One run of argv (a sudoctl) against daemon d: wall, client, daemon, workers CPU."""
    d0 = tree_cpu(d.proc.pid)
    dm0 = tree_cpu_one(d.proc.pid)
    wall, ccpu, _ = timed_child(argv)
    dcpu = tree_cpu(d.proc.pid) - d0
    dmain = tree_cpu_one(d.proc.pid) - dm0
    return {"wall": wall, "client": ccpu, "daemon": dmain, "workers": dcpu - dmain,
            "cpu": ccpu + dcpu}


def lean(a, d, base, inproc, harness=None, conf=None):
    """Issue 11 item 1: sudoctl --json solve -f 17clue.txt vs the in-process
    count-to-2 solver, interleaved runs, CPU and wall; with --lean-baseline
    DIR, the sudokud and sudoctl of another build in the same runs."""
    f = os.path.join(a.data, a.lean_file)
    npuz = sum(1 for line in open(f) if line.strip())
    print(f"\n== lean path: sudoctl --json solve -f {a.lean_file} ({npuz} puzzles), two workers, "
          f"vs the in-process count-to-2 solver; {a.runs} interleaved runs, medians; "
          f"load {os.getloadavg()[0]:.2f}")
    argv = base + ["--json", "solve", "-f", f]
    timed_child(argv)  # warm up (the cost estimate, the page cache)
    other = None
    if a.lean_baseline:
        tmp = tempfile.mkdtemp(prefix="bench-e2e-lean-base-")
        # its own plugins (another plugin ABI, maybe), else this build's
        own = os.path.join(a.lean_baseline, "etc", "sudokud", "sudokud.conf")
        oconf = harness.make_conf(os.path.join(tmp, "sudokud.conf"), base=own, workers=2) \
            if os.path.exists(own) else conf
        other = harness.Daemon(conf=oconf, exe=os.path.join(a.lean_baseline, "bin", "sudokud"),
                               tmp=tmp)
        other.start()
        oargv = [os.path.join(a.lean_baseline, "bin", "sudoctl"), "--socket", other.sock,
                 "--no-autostart", "--no-progress", "--json", "solve", "-f", f]
        timed_child(oargv)
    rows, orows = [], []
    try:
        for _ in range(a.runs):
            p = subprocess.run([inproc, "-r", "1", "-m", "solver", f], capture_output=True, text=True)
            if p.returncode:
                raise SystemExit(p.stderr)
            kv = p.stdout.strip().splitlines()[-1].split()
            kv = dict(zip(kv[0::2], kv[1::2]))
            row = e2e_run(d, argv)
            row.update({"s_wall": float(kv["median_s"]), "s_cpu": float(kv["cpu_s"])})
            rows.append(row)
            if other:
                orow = e2e_run(other, oargv)
                orow.update({"s_wall": row["s_wall"], "s_cpu": row["s_cpu"]})
                orows.append(orow)
    finally:
        if other:
            other.stop()
            import shutil
            shutil.rmtree(tmp, ignore_errors=True)
    us = lambda s: s / npuz * 1e6  # noqa: E731
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    print(f"in-process solver (1 core)  CPU {med['s_cpu']:.3f} s ({us(med['s_cpu']):.2f} us/puzzle)  "
          f"wall {med['s_wall']:.3f} s ({npuz / med['s_wall']:.0f} puzzles/s)")
    for name, rr in (("this build", rows), (f"baseline {a.lean_baseline}", orows)):
        if not rr:
            continue
        m = {k: statistics.median(r[k] for r in rr) for k in rr[0]}
        print(f"\n{name}: sudoctl --json solve -f  CPU {m['cpu']:.3f} s ({us(m['cpu']):.2f} us/puzzle): "
              f"client {m['client']:.3f}, daemon {m['daemon']:.3f}, workers {m['workers']:.3f}  "
              f"wall {m['wall']:.3f} s ({npuz / m['wall']:.0f} puzzles/s)")
        cpu_ratios = sorted(r["cpu"] / r["s_cpu"] for r in rr)
        wall_ratios = sorted(r["s_wall"] / r["wall"] for r in rr)
        print(f"  CPU per answer / solver's: {statistics.median(cpu_ratios):.2f}  (goal <= 1.20; runs "
              + ", ".join(f"{x:.2f}" for x in cpu_ratios) + ")")
        print(f"  wall throughput / solver's on one core: {statistics.median(wall_ratios):.2f}  "
              f"(goal >= 1.60; runs " + ", ".join(f"{x:.2f}" for x in wall_ratios) + ")")
    print(f"\nload after: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (wall figures need "
          "idle cores: read them with the load)")


def tree_cpu_one(pid):
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def million(a, d, base, tmp):
    """Issue 11 item 5: a long batch streams with flat memory."""
    gen = os.path.join(HERE, "permute_puzzles.py")
    src = os.path.join(a.data, "17clue.txt")
    f = os.path.join(tmp, "million.txt")
    t0 = time.monotonic()
    subprocess.run([sys.executable, gen, "-n", str(a.million), src], check=True, stdout=open(f, "w"))
    print(f"\n== memory: {a.million} puzzles (permuted 17clue.txt, {os.path.getsize(f) >> 20} MiB, "
          f"made in {time.monotonic() - t0:.1f} s) through sudoctl solve -f; RSS sampled every "
          f"{a.sample:g} s")
    idle_rss, _, n = tree_mem(d.proc.pid)
    print(f"before: sudokud + workers ({n} processes) RSS {idle_rss / 1024:.1f} MiB")
    samples = []
    t0 = time.monotonic()
    out = open(os.devnull, "w")
    cl = subprocess.Popen(base + ["solve", "-f", f], stdout=out, stderr=subprocess.PIPE)
    while cl.poll() is None:
        r, _, _ = tree_mem(d.proc.pid)
        c = mem_kb(cl.pid)[0]
        samples.append((time.monotonic() - t0, c, r))
        time.sleep(a.sample)
    el = time.monotonic() - t0
    err = cl.stderr.read().decode(errors="replace")
    print(f"{a.million} puzzles in {el:.1f} s wall ({a.million / el:.0f}/s), sudoctl exit "
          f"{cl.returncode}{(': ' + err[-300:]) if cl.returncode else ''}")
    samples = [s for s in samples if s[1]]  # the client's RSS is 0 once it exited
    if samples:
        step = max(1, len(samples) // 12)
        print("   t (s)   sudoctl RSS (MiB)   sudokud + workers RSS (MiB)")
        for t, c, r in samples[::step] + ([samples[-1]] if (len(samples) - 1) % step else []):
            print(f"{t:8.1f}   {c / 1024:17.1f}   {r / 1024:27.1f}")
        half = samples[len(samples) // 2:]
        print(f"peak: sudoctl {max(s[1] for s in samples) / 1024:.1f} MiB, sudokud + workers "
              f"{max(s[2] for s in samples) / 1024:.1f} MiB; second half of the run: sudoctl "
              f"{min(s[1] for s in half) / 1024:.1f}..{max(s[1] for s in half) / 1024:.1f} MiB, "
              f"daemon {min(s[2] for s in half) / 1024:.1f}..{max(s[2] for s in half) / 1024:.1f} MiB")
    r, _, _ = tree_mem(d.proc.pid)
    print(f"just after: sudokud + workers RSS {r / 1024:.1f} MiB")
    time.sleep(6.0)  # the idle trim (after 5 s without requests)
    r, _, _ = tree_mem(d.proc.pid)
    print(f"6 s later (idle): sudokud + workers RSS {r / 1024:.1f} MiB")
    os.unlink(f)


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
    ap.add_argument("--only", choices=("lean", "memory"),
                    help="only the lean-path comparison, or only the memory figures")
    ap.add_argument("--lean-file", default="17clue.txt", help="the lean-path comparison's file")
    ap.add_argument("--lean-baseline", help="a build folder of another commit (bin/sudokud, "
                    "bin/sudoctl) timed in the same lean-path runs")
    ap.add_argument("--million", type=int, default=0,
                    help="stream this many permuted puzzles (1000000 for issue 11)")
    ap.add_argument("--sample", type=float, default=0.5, help="RSS sampling interval (s)")
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
              f"(goal < 10 MiB RSS total); " + ", ".join(
                  f"{p} {mem_kb(p)[0] / 1024:.1f}" for p in proc_tree(d.proc.pid)))
        base = [sudoctl, "--socket", d.sock, "--no-autostart", "--no-progress"]
        if a.only == "lean":
            lean(a, d, base, inproc, harness, conf)
            return
        if a.only == "memory":
            if a.million:
                million(a, d, base, tmp)
            return

        print(f"\n== throughput: solve kaggle_10k ({npuz} puzzles)")
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
        print(f"just after: sudokud + workers RSS {rss / 1024:.1f} MiB, PSS {pss / 1024:.1f} MiB")
        time.sleep(6.0)  # the daemon trims after 5 s without requests (looks every 0.25 s), a worker after 5 s idle
        rss, pss, n = tree_mem(d.proc.pid)
        print(f"6 s later (idle): sudokud + workers RSS {rss / 1024:.1f} MiB, PSS {pss / 1024:.1f} MiB")
        lean(a, d, base, inproc, harness, conf)
        if a.million:
            million(a, d, base, tmp)
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
