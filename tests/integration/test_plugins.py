#!/usr/bin/python3
"""test_plugins.py - plugins in a running sudokud: a crashing or hanging
plugin costs one request an error and nothing else; reload picks up a changed
config and refuses a bad one (the old config keeps serving); an out-of-tree
plugin built against the installed SDK is dropped in and used after a reload."""

import json
import re
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (BUILD, EASY, HARD, SOURCE, Daemon, check, eq, main, make_conf, run,  # noqa: E402
                     valid_solution)

SINGLES = ["full-house", "hidden-single-box", "hidden-single-line", "naked-single"]


def technique_ids(so):
    """The ids a test plugin exports, read from its source next to it (loading
    the .so into python would fail in a sanitizer build: the ASan runtime must
    come first in a process)."""
    name = os.path.splitext(os.path.basename(so))[0]
    with open(os.path.join(SOURCE, "tests", "plugins", name, name + ".c")) as f:
        return re.findall(r'\.id = "([a-z0-9-]+)"', f.read())


def test_crashy():
    plugins = [os.path.join(BUILD, "test-plugins", "crashy.so")]
    check(os.path.exists(plugins[0]), f"test plugin built in {BUILD}/test-plugins")
    tmp = tempfile.mkdtemp(prefix="sudokud-crashy-")
    try:
        profiles = {}
        ids = []
        for so in plugins:
            for tid in technique_ids(so):
                ids.append(tid)
                # the bad technique first, so that it runs on every request
                profiles["crash-" + tid] = [tid] + SINGLES
        conf = make_conf(os.path.join(tmp, "crashy.conf"),
                         sudokud=[f"plugin = {so}" for so in plugins] + ["deadline_ms = 3000"],
                         profiles=profiles)
        # the test plugin misbehaves on two puzzles only: read them from its source
        with open(os.path.join(SOURCE, "tests", "plugins", "crashy", "crashy.c")) as f:
            victims = re.findall(r'"([1-9.]{81})"', f.read())
        eq(len(victims), 2, "the crash and the hang puzzle")
        with Daemon(conf=conf, tmp=tmp) as d:
            r = d.rpc()
            failures = 0
            for tid in ids:
                for victim in victims:
                    # the bad request between good ones, all in flight together
                    good = [r.send("solve", {"puzzle": EASY}) for _ in range(5)]
                    bad = r.send("rate", {"puzzle": victim, "profile": "crash-" + tid})
                    good += [r.send("rate", {"puzzle": EASY, "profile": "crash-" + tid}) for _ in range(5)]
                    m = r.response(bad)
                    for g in good:
                        mg = r.response(g)
                        check(mg[2] is None, f"other requests are served while {tid} fails: {mg[2]}")
                    if m[2] is None:
                        continue  # this technique does not mind this puzzle
                    failures += 1
                    check(m[2]["code"] in ("plugin-crashed", "deadline-exceeded"), f"{tid}: {m[2]}")
                    check(tid in m[2]["message"], f"the error names the technique: {m[2]}")
                    print(f"  {tid}: {m[2]['code']}: {m[2]['message']}")
                # the same through sudoctl, in a batch: only the victim fails
                p = d.sudoctl("--json", "--profile", "crash-" + tid, "rate", EASY, *victims, EASY,
                              timeout=60)
                eq(p.returncode, 1, f"sudoctl exit status with {tid}")
                out = [json.loads(x) for x in p.stdout.splitlines()]
                eq(len(out), 4, "one line per puzzle")
                check("error" not in out[0] and "error" not in out[3], f"good puzzles rated: {p.stdout}")
                bad_codes = [o["error"]["code"] for o in out[1:3] if "error" in o]
                eq(len(bad_codes), 1, f"one victim fails with {tid}: {p.stdout}")
                check(bad_codes[0] in ("plugin-crashed", "deadline-exceeded"), bad_codes[0])
                # a long batch with the victims inside pieces of many puzzles:
                # the puzzles served before the failure in the same piece (sent
                # in bursts by the worker) must still come back, once each
                batch = [EASY] * 30 + [victims[0]] + [EASY] * 30 + [victims[1]] + [EASY] * 30
                for _ in range(2):  # the second time with the cost of `rate` learnt
                    res = r.call("rate", {"puzzles": batch, "profile": "crash-" + tid})["results"]
                    eq(len(res), len(batch), "one result per puzzle")
                    errs = [i for i, x in enumerate(res) if "error" in x]
                    eq(len(errs), 1, f"{tid}: only one victim fails in a long batch: "
                       f"{[(i, res[i]) for i in errs]}")
                    check(errs[0] in (30, 61), f"the failing entry is a victim's: {errs}")
                    check(all(x["puzzle"] == batch[i] for i, x in enumerate(res)), "in order")
                    check(all("er" in x for i, x in enumerate(res) if i != errs[0]),
                          "every other puzzle rated")
            eq(failures, len(ids), "each misbehaving technique caught once")
            # --timeout is the request's deadline: the daemon answers it and
            # stops the hanging worker (exit 4)
            p = d.sudoctl("--timeout", "0.5", "--profile", "crash-hang-test", "rate", victims[1], timeout=30)
            eq(p.returncode, 4, "--timeout exit status")
            check("timeout of 500 ms passed" in p.stdout, p.stdout + p.stderr)
            eq(r.call("solve", {"puzzle": HARD})["status"], "unique", "serves after the crashes")
            deadline = time.time() + 10
            while r.call("status", {})["workers"] != 2 and time.time() < deadline:
                time.sleep(0.1)
            eq(r.call("status", {})["workers"], 2, "workers replaced")
            r.close()
            eq(d.proc.poll(), None, "the daemon survived")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def tech_ids(d, profile=None):
    p = d.sudoctl("--json", "techniques", *(["--profile", profile] if profile else []))
    eq(p.returncode, 0, "techniques: " + p.stderr)
    return [t["id"] for t in json.loads(p.stdout)["techniques"]]


def test_reload():
    tmp = tempfile.mkdtemp(prefix="sudokud-reload-")
    try:
        conf = os.path.join(tmp, "sudokud.conf")
        make_conf(conf)
        with Daemon(conf=conf, tmp=tmp) as d:
            before = tech_ids(d, "default")
            check("naked-single" in before and len(before) > 4, f"techniques {before}")
            # change the config: a new profile, the default without naked-single
            with open(conf) as f:
                text = f.read()
            text2 = text.replace("\nnaked-single =", "\n; naked-single removed", 1)
            check(text2 != text, "config edited")
            text2 += "\n[profile only-singles]\nhidden-single-line =\nnaked-single =\n"
            with open(conf, "w") as f:
                f.write(text2)
            p = d.sudoctl("reload")
            eq(p.returncode, 0, "reload: " + p.stderr)
            after = tech_ids(d, "default")
            eq(after, [t for t in before if t != "naked-single"], "new technique list")
            eq(tech_ids(d, "only-singles"), ["hidden-single-line", "naked-single"], "new profile")
            p = d.sudoctl("--json", "--profile", "only-singles", "explain", EASY)
            eq(p.returncode, 0, "new profile serves")
            # a bad config is refused with its error; the old one keeps serving
            for bad, why in (("[profile broken]\nno-such-technique =\n", "no-such-technique"),
                             ("[sudokud\nworkers = 2\n", "sudokud.conf")):
                with open(conf, "w") as f:
                    f.write(text2 + "\n" + bad)
                p = d.sudoctl("reload")
                eq(p.returncode, 1, "bad config refused")
                check(why in p.stderr, f"the error says why ({why}): {p.stderr}")
                eq(tech_ids(d, "default"), after, "old config still serving")
                p = d.sudoctl("--json", "solve", HARD)
                eq(p.returncode, 0, "solve after a refused reload")
            # SIGHUP reloads too
            with open(conf, "w") as f:
                f.write(text)
            d.proc.send_signal(1)
            deadline = time.time() + 10
            while time.time() < deadline and tech_ids(d, "default") != before:
                time.sleep(0.1)
            eq(tech_ids(d, "default"), before, "SIGHUP reload")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_out_of_tree():
    tmp = tempfile.mkdtemp(prefix="sudokud-oot-")
    prefix = os.path.join(tmp, "prefix")
    try:
        p = run(["cmake", "--install", BUILD, "--prefix", prefix], timeout=120)
        eq(p.returncode, 0, "cmake --install: " + p.stderr[-2000:])
        sudokud = os.path.join(prefix, "bin", "sudokud")
        sudoctl = os.path.join(prefix, "bin", "sudoctl")
        conf = os.path.join(prefix, "etc", "sudokud", "sudokud.conf")
        for f in (sudokud, sudoctl, conf):
            check(os.path.exists(f), f"installed {f}")
        # the SDK: the headers a plugin needs, no internal ones (service, wire, ...)
        incs = glob.glob(os.path.join(prefix, "include", "sudoku", "*.h"))
        eq(sorted(os.path.basename(h) for h in incs),
           ["alloc.h", "als.h", "cache.h", "export.h", "fish.h", "grid.h", "links.h", "step.h",
            "strong.h", "technique.h"], "installed headers")
        pcdirs = glob.glob(os.path.join(prefix, "lib*", "pkgconfig")) + \
            glob.glob(os.path.join(prefix, "lib", "*", "pkgconfig"))
        check(pcdirs, "sudoku.pc installed")
        plugdir = glob.glob(os.path.join(prefix, "lib*", "sudokud", "plugins")) + \
            glob.glob(os.path.join(prefix, "lib", "*", "sudokud", "plugins"))
        check(plugdir, "plugin dir installed")
        env = dict(os.environ, PKG_CONFIG_PATH=pcdirs[0])
        # the .pc finds its prefix relative to itself: the installed tree, wherever it is
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "sudoku"], env=env,
                               capture_output=True, text=True)
        eq(flags.returncode, 0, "pkg-config: " + flags.stderr)
        check(os.path.realpath(prefix) in os.path.realpath(flags.stdout.split()[0][2:]),
              "pkg-config points into the installed prefix: " + flags.stdout)
        # the example, copied out of the source tree, built with its own Makefile
        example = os.path.join(tmp, "line-singles")
        shutil.copytree(os.path.join(SOURCE, "examples", "line-singles"), example)
        # the installed daemon, with the installed config, before the plugin exists
        with Daemon(conf=conf, exe=sudokud, tmp=tmp) as d:
            d_ids = tech_ids(d)
            check("example-row-single" not in d_ids, "not there yet")
            # as docs/PLUGINS.md says: PKG_CONFIG_PATH given to make
            clean_env = {k: v for k, v in os.environ.items() if k != "PKG_CONFIG_PATH"}
            p = run(["make", "-C", example, f"PKG_CONFIG_PATH={pcdirs[0]}",
                     "CFLAGS=-O2 -Wall -Wextra -Werror", "install-plugin"], env=clean_env, timeout=120)
            eq(p.returncode, 0, "the example builds against the installed SDK: " + p.stdout + p.stderr)
            check(os.path.exists(os.path.join(plugdir[0], "line_singles.so")),
                  "make install-plugin put it in the plugin folder")
            with open(conf, "a") as f:
                f.write("\n[profile lines]\nexample-row-single =\n"
                        "example-column-single = mark-house=0\nbifurcation =\n")
            p = d.sudoctl("reload", exe=sudoctl)
            eq(p.returncode, 0, "reload with the new plugin: " + p.stderr)
            p = d.sudoctl("--json", "techniques", "--profile", "lines", exe=sudoctl)
            check('"example-row-single"' in p.stdout and "line_singles.so" in p.stdout, p.stdout)
            p = d.sudoctl("--json", "--profile", "lines", "explain", EASY, exe=sudoctl)
            eq(p.returncode, 0, "explain with the plugin: " + p.stderr)
            o = json.loads(p.stdout)
            check(o["solved"] and o["steps"], "solved")
            used = {s["technique"] for s in o["steps"]}
            check(used <= {"example-row-single", "example-column-single", "bifurcation"},
                  f"only the profile's techniques: {used}")
            check("example-row-single" in used, "the row technique acted")
            rows = [s for s in o["steps"] if s["technique"] == "example-row-single"]
            check(rows[0]["text"].startswith("Row Single (example): r") and " in row " in rows[0]["text"],
                  rows[0]["text"])
            p = d.sudoctl("--json", "--profile", "lines", "solve", EASY, exe=sudoctl)
            check(valid_solution(EASY, json.loads(p.stdout)["solution"]), "solve")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


TESTS = {
    "crashy": test_crashy,
    "reload": test_reload,
    "out_of_tree": test_out_of_tree,
}

if __name__ == "__main__":
    sys.exit(main(TESTS))
