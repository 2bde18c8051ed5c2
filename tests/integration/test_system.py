#!/usr/bin/python3
"""test_system.py - sudokud as a system service, without systemd: the
notifications a Type=notify unit needs (READY=1, RELOADING=1, STOPPING=1) sent
to a datagram socket the test listens on (a path and an abstract name); the
socket's mode and group (--group, --system) and who may connect (our uid,
root, members of the socket's group: checked as other users when the tests
run as root); the pid file a second daemon refuses; socket activation
(LISTEN_FDS); the unit files CMake fills in."""

import grp
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import BUILD, EASY, SUDOKUD, Daemon, TestFailure, check, eq, main, make_conf, skip  # noqa: E402


class Notify:
    """A datagram socket standing in for systemd's notify socket."""

    def __init__(self, tmp, abstract=False):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        if abstract:
            name = f"sudokud-it-notify-{os.getpid()}-{time.monotonic_ns()}"
            self.s.bind("\0" + name)
            self.env_value = "@" + name
        else:
            path = os.path.join(tmp, "notify.sock")
            self.s.bind(path)
            self.env_value = path
        self.s.settimeout(15)

    def env(self):
        e = dict(os.environ)
        e["NOTIFY_SOCKET"] = self.env_value
        return e

    def next(self):
        """The next message as {key: value}."""
        try:
            data = self.s.recv(4096).decode()
        except socket.timeout:
            raise TestFailure("no notification within 15 s")
        out = {}
        for line in data.split("\n"):
            if "=" in line:
                k, v = line.split("=", 1)
                out[k] = v
        return out

    def close(self):
        self.s.close()


def check_notifications(abstract):
    tmp = tempfile.mkdtemp(prefix="sudokud-notify-")
    n = Notify(tmp, abstract)
    try:
        with Daemon(tmp=tmp, env=n.env()) as d:
            m = n.next()
            eq(m.get("READY"), "1", f"first message is READY=1: {m}")
            eq(m.get("MAINPID"), str(d.proc.pid), "MAINPID is the daemon")
            check(d.sock in m.get("STATUS", ""), f"STATUS names the socket: {m}")
            # sudoctl reload: RELOADING=1 (with the monotonic time), then READY=1
            p = d.sudoctl("reload")
            eq(p.returncode, 0, "reload: " + p.stderr)
            m = n.next()
            eq(m.get("RELOADING"), "1", f"reload starts with RELOADING=1: {m}")
            check(m.get("MONOTONIC_USEC", "").isdigit(), f"RELOADING carries MONOTONIC_USEC: {m}")
            m = n.next()
            eq(m.get("READY"), "1", f"reload ends with READY=1: {m}")
            # SIGHUP (ExecReload=kill -HUP $MAINPID) does the same
            d.proc.send_signal(signal.SIGHUP)
            eq(n.next().get("RELOADING"), "1", "SIGHUP: RELOADING=1")
            eq(n.next().get("READY"), "1", "SIGHUP: READY=1")
            # a reload that fails: READY=1 again (the old config serves)
            with open(d.conf, "a") as f:
                f.write("\n[sudokud]\nno_such_key = 1\n")
            p = d.sudoctl("reload")
            eq(p.returncode, 1, "a bad reload fails")
            eq(n.next().get("RELOADING"), "1", "bad reload: RELOADING=1")
            m = n.next()
            eq(m.get("READY"), "1", "bad reload: READY=1")
            check("failed" in m.get("STATUS", ""), f"STATUS says the reload failed: {m}")
            # the workers do not inherit NOTIFY_SOCKET
            # (a request makes sure workers run; then poll, as they may still be
            # starting after the reloads, slowly under ASan)
            eq(d.rpc().call("solve", {"puzzle": EASY})["status"], "unique", "serves")
            deadline = time.monotonic() + 10
            workers = []
            while not workers and time.monotonic() < deadline:
                workers = subprocess.run(["pgrep", "-P", str(d.proc.pid)], capture_output=True,
                                         text=True).stdout.split()
                if not workers:
                    time.sleep(0.1)
            check(workers, "the daemon has workers")
            for w in workers:
                with open(f"/proc/{w}/environ", "rb") as f:
                    check(b"NOTIFY_SOCKET=" not in f.read(), "a worker's environment")
            d.proc.send_signal(signal.SIGTERM)
            eq(n.next().get("STOPPING"), "1", "SIGTERM: STOPPING=1")
            eq(d.proc.wait(15), 0, "clean exit")
    finally:
        n.close()
        shutil.rmtree(tmp, ignore_errors=True)


def test_notify():
    check_notifications(abstract=False)


def test_notify_abstract():
    check_notifications(abstract=True)


def start_fails(args, what, conf=None, foreground=True):
    """sudokud with args must exit non-zero at once; returns its stderr."""
    argv = [SUDOKUD] + (["--foreground"] if foreground else []) + args
    if conf:
        argv += ["--config", conf]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=30,
                       stdin=subprocess.DEVNULL)
    check(p.returncode != 0, f"{what}: sudokud should refuse to start")
    return p.stderr


def other_group():
    """A group that is not ours (for --group)."""
    for g in grp.getgrall():
        if g.gr_gid != os.getgid() and g.gr_gid != 0:
            return g
    raise TestFailure("no group to test with")


def test_group_socket():
    tmp = tempfile.mkdtemp(prefix="sudokud-group-")
    try:
        conf = make_conf(os.path.join(tmp, "sudokud.conf"))
        err = start_fails(["--group", "no-such-group-xyz", "--socket", os.path.join(tmp, "a.sock")],
                          "unknown group", conf)
        check("no group named 'no-such-group-xyz'" in err, f"clear error: {err}")
        check(not os.path.exists(os.path.join(tmp, "a.sock")), "no socket left behind")
        # user mode: 0600, the runtime dir is made 0700 when missing
        sock = os.path.join(tmp, "user", "sudokud.sock")
        with Daemon(conf=conf, tmp=tmp, sock=sock):
            st = os.stat(sock)
            eq(stat.S_IMODE(st.st_mode), 0o600, "user socket mode")
            eq(stat.S_IMODE(os.stat(os.path.dirname(sock)).st_mode), 0o700, "user dir mode")
        if os.getuid() != 0:
            skip("not root: the user-mode socket passed; --group with another group not tried")
        g = other_group()
        sock = os.path.join(tmp, "run", "sudokud.sock")  # the folder is made
        with Daemon(conf=conf, tmp=tmp, sock=sock, args=["--group", g.gr_name]) as d:
            st = os.stat(sock)
            eq(stat.S_IMODE(st.st_mode), 0o660, "group socket mode")
            eq(st.st_gid, g.gr_gid, "the socket's group")
            eq(stat.S_IMODE(os.stat(os.path.dirname(sock)).st_mode), 0o755, "shared dir mode")
            eq(d.rpc().call("solve", {"puzzle": EASY})["status"], "unique", "serves")
        check(not os.path.exists(sock), "socket removed at exit")
        # --system: 0660, our own group when --group is not given
        sock = os.path.join(tmp, "sys", "sudokud.sock")
        with Daemon(conf=conf, tmp=tmp, sock=sock, args=["--system"]):
            st = os.stat(sock)
            eq(stat.S_IMODE(st.st_mode), 0o660, "--system socket mode")
            eq(st.st_gid, os.getgid(), "--system: the daemon's group")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


CLIENT = r"""
import socket, sys, msgpack
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
try:
    s.connect(sys.argv[1])
except OSError as e:
    print("connect-refused", e.errno); sys.exit(0)
try:
    s.sendall(msgpack.packb([0, 7, "status", [{}]]))
except OSError:
    print("closed"); sys.exit(0)
u = msgpack.Unpacker(raw=False)
while True:
    try:
        data = s.recv(65536)
    except OSError:
        data = b""
    if not data:
        print("closed"); break
    u.feed(data)
    for m in u:
        print("answered" if m[1] == 7 and m[2] is None else "error " + repr(m)); sys.exit(0)
"""


def as_user(sock, uid, gid, groups):
    p = subprocess.run([sys.executable, "-c", CLIENT, sock], capture_output=True, text=True,
                       timeout=30, user=uid, group=gid, extra_groups=groups)
    check(p.returncode == 0, f"client as uid {uid}: {p.stderr}")
    return p.stdout.strip()


def test_peer_credentials():
    if os.getuid() != 0:
        skip("not root: cannot connect as other users")
    tmp = tempfile.mkdtemp(prefix="sudokud-peer-")
    os.chmod(tmp, 0o755)  # other users must reach the socket
    try:
        conf = make_conf(os.path.join(tmp, "sudokud.conf"))
        os.chmod(conf, 0o644)
        g = other_group()
        nobody = 65534
        sock = os.path.join(tmp, "run", "sudokud.sock")
        with Daemon(conf=conf, tmp=tmp, sock=sock, args=["--group", g.gr_name]) as d:
            eq(as_user(sock, nobody, g.gr_gid, []), "answered", "primary group member")
            eq(as_user(sock, nobody, nobody, [g.gr_gid]), "answered", "supplementary member")
            out = as_user(sock, nobody, nobody, [])
            check(out.startswith("connect-refused"), f"the socket's mode keeps others out: {out}")
            # past the file mode, the daemon's own check refuses the peer
            os.chmod(sock, 0o666)
            eq(as_user(sock, nobody, nobody, []), "closed", "a stranger is refused by sudokud")
            check("refused peer uid 65534" in d.log_text(), "the refusal is logged")
            eq(d.rpc().call("status", {})["connections"], 1, "root still served")
        # without --group only our uid and root
        sock2 = os.path.join(tmp, "user.sock")
        with Daemon(conf=conf, tmp=tmp, sock=sock2):
            os.chmod(sock2, 0o666)
            eq(as_user(sock2, nobody, g.gr_gid, [g.gr_gid]), "closed", "no group: others refused")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_pid_file():
    tmp = tempfile.mkdtemp(prefix="sudokud-pid-")
    try:
        conf = make_conf(os.path.join(tmp, "sudokud.conf"))
        pid_file = os.path.join(tmp, "sudokud.pid")
        with Daemon(conf=conf, tmp=tmp, args=["--pid-file", pid_file]) as d:
            with open(pid_file) as f:
                eq(f.read().strip(), str(d.proc.pid), "the pid file names the daemon")
            other = os.path.join(tmp, "other.sock")
            for fg in (True, False):
                err = start_fails(["--socket", other, "--pid-file", pid_file], "same pid file", conf,
                                  foreground=fg)
                check(f"another sudokud (pid {d.proc.pid}) holds the pid file" in err,
                      f"clear error ({'foreground' if fg else 'detaching'}): {err}")
                check(not os.path.exists(other), "the refused daemon does not listen")
            with open(pid_file) as f:
                eq(f.read().strip(), str(d.proc.pid), "the pid file is left alone")
            eq(d.rpc().call("solve", {"puzzle": EASY})["status"], "unique", "the first one serves")
        check(not os.path.exists(pid_file), "the pid file goes at exit")
        # stale pid files: a dead pid, a live process that is not sudokud
        dead = subprocess.Popen(["true"])
        dead.wait()
        for stale in (str(dead.pid), str(os.getpid())):
            with open(pid_file, "w") as f:
                f.write(stale + "\n")
            with Daemon(conf=conf, tmp=tmp, args=["--pid-file", pid_file]) as d:
                with open(pid_file) as f:
                    eq(f.read().strip(), str(d.proc.pid), f"stale pid {stale} replaced")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


ACTIVATE = ("import os, sys; os.dup2(int(sys.argv[1]), 3); "
            "os.environ['LISTEN_PID'] = str(os.getpid()); os.environ['LISTEN_FDS'] = '1'; "
            "os.execv(sys.argv[2], sys.argv[2:])")


def test_socket_activation():
    tmp = tempfile.mkdtemp(prefix="sudokud-act-")
    try:
        conf = make_conf(os.path.join(tmp, "sudokud.conf"))
        path = os.path.join(tmp, "activated.sock")
        ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        ls.bind(path)
        ls.listen(16)
        # the --socket given is ignored: the socket passed wins
        d = Daemon(conf=conf, tmp=tmp, sock=os.path.join(tmp, "ignored.sock"),
                   wrap=[sys.executable, "-c", ACTIVATE, str(ls.fileno())], pass_fds=[ls.fileno()])
        d.sock = path  # what start() waits for and sudoctl uses
        with d:
            eq(d.rpc().call("solve", {"puzzle": EASY})["status"], "unique", "serves")
            check("from systemd" in d.log_text(), "logs that the socket came from systemd")
            check(not os.path.exists(os.path.join(tmp, "ignored.sock")), "no socket of its own")
            workers = subprocess.run(["pgrep", "-P", str(d.proc.pid)], capture_output=True,
                                     text=True).stdout.split()
            for w in workers:
                with open(f"/proc/{w}/environ", "rb") as f:
                    check(b"LISTEN_FDS=" not in f.read(), "a worker's environment")
        check(os.path.exists(path), "systemd's socket stays when sudokud stops")
        ls.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_units():
    """The units CMake fills in: paths substituted, the keys systemd needs."""
    units = os.path.join(BUILD, "systemd")
    with open(os.path.join(units, "sudokud.service")) as f:
        svc = f.read()
    for want in ("Type=notify", "User=sudokud", "RuntimeDirectory=sudokud",
                 "ExecReload=/bin/kill -HUP $MAINPID", "--system", "--foreground"):
        check(want in svc, f"sudokud.service has {want}")
    with open(os.path.join(units, "sudokud-user.service")) as f:
        user = f.read()
    for want in ("Type=notify", "--socket %t/sudokud.sock", "--foreground"):
        check(want in user, f"sudokud-user.service has {want}")
    with open(os.path.join(units, "sudokud.socket")) as f:
        sk = f.read()
    check("ListenStream=/run/sudokud/sudokud.sock" in sk and "SocketMode=0660" in sk, "socket unit")
    for text in (svc, user, sk):
        check("@" + "CMAKE" not in text, "every path filled in")
    exe = [ln.split("=", 1)[1].split()[0] for ln in svc.splitlines() if ln.startswith("ExecStart=")]
    eq(len(exe), 1, "one ExecStart")
    check(os.path.isabs(exe[0]) and exe[0].endswith("/sudokud"), f"ExecStart: {exe[0]}")
    if shutil.which("systemd-analyze"):
        for u in ("sudokud.service", "sudokud.socket"):
            p = subprocess.run(["systemd-analyze", "verify", os.path.join(units, u)],
                               capture_output=True, text=True, timeout=60)
            # syntax complaints only (the binary is not installed here)
            bad = [ln for ln in p.stderr.splitlines()
                   if any(w in ln for w in ("Unknown", "unknown", "Invalid", "Failed to parse"))]
            eq(bad, [], f"systemd-analyze verify {u}")


if __name__ == "__main__":
    sys.exit(main({
        "notify": test_notify,
        "notify_abstract": test_notify_abstract,
        "group_socket": test_group_socket,
        "peer_credentials": test_peer_credentials,
        "pid_file": test_pid_file,
        "socket_activation": test_socket_activation,
        "units": test_units,
    }))
