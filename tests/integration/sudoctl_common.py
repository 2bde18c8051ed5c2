"""sudoctl_common.py - what the tests that drive sudoctl share (test_cli.py,
test_life.py): the printed form of a puzzle, a puzzle with chains, the
command line of a sudoctl on a test daemon, and finding and stopping a
daemon that sudoctl started by itself (autostart), which no Daemon object
owns. harness.py has the rest (a Daemon, the raw client, run)."""

import contextlib
import os
import signal
import subprocess
import time

from harness import SUDOCTL

# top1465 #24: the standard profile takes it through ALS-XZ, grouped nice
# loops (group nodes r2c56, r3c46, r79c8) and an ALS chain.
CHAINY = "3.7..4.2....1..8..9............3..9..5.8......4.6...........5.12...7..........6.."


def printed(p81):
    """The 9-line printed form of an 81-char puzzle."""
    rows = []
    for r in range(9):
        if r in (3, 6):
            rows.append("------+-------+------")
        cells = [p81[r * 9 + c] for c in range(9)]
        rows.append(" ".join(cells[0:3]) + " | " + " ".join(cells[3:6]) + " | " + " ".join(cells[6:9]))
    return "\n".join(rows) + "\n"


def sudoctl_argv(d, *args):
    """sudoctl on the test daemon d, never starting one of its own (for
    Popen; d.sudoctl runs it to the end)."""
    return [SUDOCTL, "--socket", d.sock, "--no-autostart", *args]


def pids_with(text):
    """Processes whose command line mentions text (ours: a fresh temp path)."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if text.encode() in f.read():
                    out.append(int(pid))
        except OSError:
            pass
    return out


def stop_autostarted(sock, env, prefix=()):
    """Stop the daemon sudoctl started on sock (env: the environment that
    made sudoctl pick it; prefix: the user it ran as): `sudoctl stop`, then
    SIGTERM and SIGKILL for whatever still runs on that socket."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run(list(prefix) + [SUDOCTL, "stop"], env=env, capture_output=True, timeout=30)
    kill_matching(sock)


def kill_matching(text):
    """SIGTERM every process whose command line holds text, wait up to 5 s,
    then SIGKILL what is left."""
    pids = pids_with(text)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.time() + 5
    while time.time() < deadline and any(os.path.exists(f"/proc/{pid}") for pid in pids):
        time.sleep(0.05)
    for pid in pids_with(text):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
