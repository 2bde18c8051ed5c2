#!/usr/bin/python3
"""test_scaleout.py - tools/sudoctl-parallel (GNU parallel --pipe
--keep-order over several nodes, each its own sudokud): with several local
job slots on two live nodes and a dead one, the output equals a single
sudoctl run byte for byte (text, JSON, CSV), blocks sent to the dead node are
retried on the next, the totals say so; a block that fails everywhere is
reported with its lines and exit status 3. Skipped without GNU parallel."""

import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import SOURCE, SUDOCTL, Daemon, check, eq, main, read_puzzles  # noqa: E402

TOOL = os.path.join(SOURCE, "tools", "sudoctl-parallel")


def par(hosts, *args, input, slots=2, block=23, retries=3, env=None):
    return subprocess.run([TOOL, "--hosts", ",".join(hosts), "--slots", str(slots), "--block",
                           str(block), "--retries", str(retries), "--sudoctl", SUDOCTL, "--", *args],
                          input=input, capture_output=True, text=True, timeout=240, env=env)


# An ssh stand-in: drops ssh's options, logs the host, runs the remote
# command line here through a shell, as sshd would; host "down" is
# unreachable (ssh's exit status 255).
FAKE_SSH = """#!/bin/sh
while [ $# -gt 0 ]; do case $1 in -o) shift 2 ;; -*) shift ;; *) break ;; esac; done
host=$1; shift
echo "$host" >>"$FAKE_SSH_LOG"
[ "$host" = down ] && { echo "ssh: connect to host down: No route to host" >&2; exit 255; }
exec sh -c "$*"
"""


def totals(stderr):
    m = re.search(r"(\d+) puzzles in (\d+) blocks .*: (\d+) blocks retried \((\d+) more attempts\), "
                  r"(\d+) failed, (\d+) with invalid puzzles", stderr)
    check(m, f"totals line in {stderr!r}")
    return tuple(int(x) for x in m.groups())


def collection():
    lines = read_puzzles("top1465.txt", 120, stride=7) + ["", "# a comment", "12345"]
    lines += read_puzzles("kaggle_10k.txt", 60)
    return "\n".join(lines) + "\n", 181


def test_equal_to_single_run():
    text, n = collection()
    with Daemon() as a, Daemon() as b:
        dead = os.path.join(a.tmp, "no-daemon.sock")
        hosts = ["local:" + a.sock, "local:" + dead, "local:" + b.sock]
        for args in (["rate"], ["--json", "rate"], ["--csv", "rate"], ["--lines", "solve"]):
            single = a.sudoctl("--no-progress", *args, input=text)
            p = par(hosts, *args, input=text)
            eq(p.returncode, single.returncode, f"{args} exit status {p.stderr[-500:]}")
            eq(p.stdout, single.stdout, f"{args}: output equals one sudoctl run")
            puzzles, blocks, retried, extra, failed, invalid = totals(p.stderr)
            eq((puzzles, blocks, failed, invalid), (n, 8, 0, 1), f"{args} totals")
            check(retried >= 1 and extra >= retried, f"blocks of the dead node retried: {p.stderr}")
            used = re.search(r"blocks answered per node: (.*)", p.stderr).group(1)
            check(a.sock in used and b.sock in used and dead not in used, used)
        # messages carry the line in the whole input
        check("(stdin:123)" in a.sudoctl("rate", input=text).stdout, "the bad line is line 123")
        p = par(hosts, "--lines", "rate", input=text)
        check("stdin:123: bad-format" in p.stderr, p.stderr)
        # explain, several steps per puzzle, small blocks
        few = "\n".join(read_puzzles("top1465.txt", 8, stride=50)) + "\n"
        single = a.sudoctl("--json", "explain", input=few)
        p = par(hosts, "--json", "explain", input=few, block=3, slots=3)
        eq((p.returncode, p.stdout), (0, single.stdout), "explain = one run")


def test_failures():
    text, n = collection()
    with Daemon() as a:
        dead1 = os.path.join(a.tmp, "dead1.sock")
        dead2 = os.path.join(a.tmp, "dead2.sock")
        # every node dead: every block fails after its attempts, nothing is printed
        p = par(["local:" + dead1, "local:" + dead2], "rate", input=text, retries=1)
        eq(p.returncode, 3, "exit status when blocks fail")
        eq(p.stdout, "", "no output")
        check("lines 1-23 failed on 2 attempt(s)" in p.stderr, p.stderr)
        eq(totals(p.stderr)[4], 8, "8 blocks (183 lines / 23) failed")
        # no retries: the dead node's blocks fail, the others keep their order
        p = par(["local:" + a.sock, "local:" + dead1], "--lines", "solve", input=text, retries=0)
        eq(p.returncode, 3, "some blocks failed")
        single = a.sudoctl("--lines", "solve", input=text).stdout.splitlines()
        out = p.stdout.splitlines()
        check(0 < len(out) < len(single), "partial output")
        it = iter(single)
        check(all(any(x == y for y in it) for x in out), "what is printed is in input order")
        # usage errors: precise, exit status 2
        for args, msg in ((["--html", "rate"], "--html makes one page per block"),
                          (["rate", "-f", "x"], "-f belongs to"),
                          (["status"], "not a puzzle command")):
            p = par(["local:" + a.sock], *args, input="")
            eq(p.returncode, 2, f"{args} exit status")
            check(msg in p.stderr, p.stderr)


def test_ssh():
    """Remote nodes through ssh (a stand-in that runs the command here): the
    sudoctl arguments survive the remote shell (spaces, %, quotes), HOST
    uses the node's default socket, HOST:/SOCK a given one, an unreachable
    node's blocks go elsewhere."""
    text, n = collection()
    with Daemon() as a, Daemon() as b:
        bindir = os.path.join(a.tmp, "bin")
        os.makedirs(bindir)
        with open(os.path.join(bindir, "ssh"), "w") as f:
            f.write(FAKE_SSH)
        os.chmod(os.path.join(bindir, "ssh"), 0o755)
        log = os.path.join(a.tmp, "ssh.log")
        # node2's default socket: $XDG_RUNTIME_DIR/sudokud.sock is b's
        runtime = os.path.join(a.tmp, "run")
        os.makedirs(runtime)
        os.symlink(b.sock, os.path.join(runtime, "sudokud.sock"))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], FAKE_SSH_LOG=log,
                   XDG_RUNTIME_DIR=runtime)
        fmt = "%g ED=%r/%p/%d it's \"%S\" $HOME"
        single = a.sudoctl("--no-autostart", "rate", "--format", fmt, input=text)
        p = par(["node1:" + a.sock, "down", "node2"], "rate", "--format", fmt, "--no-autostart",
                input=text, env=env)
        eq(p.returncode, single.returncode, "exit status " + p.stderr[-500:])
        eq(p.stdout, single.stdout, "output equals one run, the format intact")
        check("$HOME" in p.stdout.splitlines()[0] and "it's" in p.stdout, p.stdout[:300])
        with open(log) as f:
            seen = set(f.read().split())
        eq(seen, {"node1", "down", "node2"}, "every node tried")
        puzzles, blocks, retried, extra, failed, invalid = totals(p.stderr)
        check(retried >= 1 and failed == 0, p.stderr)


TESTS = {"equal": test_equal_to_single_run, "failures": test_failures, "ssh": test_ssh}

if __name__ == "__main__":
    if not shutil.which("parallel"):
        print("SKIP: GNU parallel is not installed (apt-get install parallel)")
        sys.exit(77)
    sys.exit(main(TESTS))
