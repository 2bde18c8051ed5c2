#!/usr/bin/python3
"""test_docs.py - the command line's documentation and shell glue: the man
pages render without a groff warning and name every command and option of
`--help`; `cmake --install --prefix` writes units, man pages, completions
and the documentation the units name, with that prefix's paths; the bash
completion completes commands, options, and profile and technique ids asked
from a running daemon (zsh and fish: their syntax, when installed)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (BUILD, CONF, SOURCE, SUDOCTL, SUDOKUD, Daemon, check, eq, main,  # noqa: E402
                     make_conf, run, skip)

MAN = os.path.join(BUILD, "man")
COMPLETION = os.path.join(SOURCE, "conf", "completion")
PARALLEL = os.path.join(SOURCE, "tools", "sudoctl-parallel")


def render(page):
    """The page as plain ASCII text, and groff's warnings (-ww)."""
    p = subprocess.run(["groff", "-man", "-Tascii", "-P-cbou", "-ww", os.path.join(MAN, page)],
                       capture_output=True, text=True, timeout=60)
    eq(p.returncode, 0, f"groff {page}: {p.stderr}")
    return p.stdout, p.stderr


def help_words(exe, *sub):
    """Commands (sudoctl) and options that --help lists."""
    out = run([exe, *sub, "--help"]).stdout
    opts = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])\b", out))
    cmds = set()
    in_cmds = False
    for line in out.splitlines():
        if line.strip() == "commands:":
            in_cmds = True
            continue
        if in_cmds:
            if not line.strip():
                break
            cmds.add(line.split()[0])
    return cmds, opts


def test_man_pages():
    if not shutil.which("groff"):
        skip("groff is missing (Debian: groff-base)")
    for page in ("sudoctl.1", "sudoctl-parallel.1", "sudokud.8", "sudokud.conf.5"):
        text, warnings = render(page)
        eq(warnings, "", f"{page}: groff warnings")
        check(not re.search(r"@[A-Z_]+@", text), f"{page}: every @VAR@ filled in")
        check("NAME" in text and "SEE ALSO" in text, page)
        if page == "sudokud.conf.5":
            keys = {"plugin_dir", "plugin", "workers", "default_profile", "uniqueness",
                    "deadline_ms", "max_connections", "max_queue", "max_message", "idle_exit"}
            with open(CONF) as f:
                section = None
                for line in f:
                    s = line.strip()
                    if s.startswith("["):
                        section = s
                    elif section == "[sudokud]" and "=" in s and not s.startswith(";"):
                        keys.add(s.split("=")[0].strip())
            missing = sorted(k for k in keys if k not in text)
            eq(missing, [], "sudokud.conf(5) names every [sudokud] key")
            continue
        exe = {"sudoctl.1": SUDOCTL, "sudokud.8": SUDOKUD, "sudoctl-parallel.1": PARALLEL}[page]
        cmds, opts = help_words(exe)
        if page == "sudoctl.1" and "generate" in cmds:
            opts |= help_words(exe, "generate")[1]
        check(opts, f"options found in {exe} --help")
        missing = sorted(w for w in cmds | opts if not re.search(r"(?<![\w-])" + re.escape(w) + r"\b", text))
        eq(missing, [], f"{page} names every command and option of --help")
    for page in ("sudoctl.1", "sudoctl-parallel.1", "sudokud.8", "sudokud.conf.5"):  # and as man shows it
        p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", os.path.join(MAN, page)],
                           capture_output=True, text=True, timeout=60)
        eq((p.returncode, p.stderr), (0, ""), f"groff -Tutf8 {page}")
    for code in ("0", "1", "2", "3", "4", "130"):
        check(re.search(r"^\s+" + code + r"(\s|$)", render("sudoctl.1")[0], re.M),
              f"sudoctl(1) lists exit status {code}")


def test_install():
    """cmake --install --prefix: units with that prefix's paths, the
    documentation they name, man pages, completions."""
    tmp = tempfile.mkdtemp(prefix="sudokud-install-")
    try:
        p = subprocess.run(["cmake", "--install", BUILD, "--prefix", tmp], capture_output=True,
                           text=True, timeout=120)
        eq(p.returncode, 0, p.stderr[-500:])
        units = {}
        for kind in ("system", "user"):
            for root, _, files in os.walk(tmp):
                for f in files:
                    if root.endswith(os.path.join("systemd", kind)):
                        with open(os.path.join(root, f)) as fh:
                            units[f"{kind}/{f}"] = fh.read()
        check({"system/sudokud.service", "system/sudokud.socket", "user/sudokud.service"}
              <= set(units), str(units.keys()))
        for name, text in units.items():
            for ln in text.splitlines():
                if ln.startswith("ExecStart="):
                    exe = ln.split("=", 1)[1].split()[0]
                    eq(exe, os.path.join(tmp, "bin", "sudokud"), f"{name}: ExecStart")
                    conf = ln.split("--config ")[1].split()[0]
                    check(os.path.exists(conf), f"{name}: its config {conf} is installed")
                if ln.startswith("Documentation="):
                    for doc in ln.split("=", 1)[1].split():
                        if doc.startswith("file://"):
                            check(os.path.exists(doc[7:]), f"{name}: {doc} is installed")
        want = ["share/man/man1/sudoctl.1", "share/man/man1/sudoctl-parallel.1", "share/man/man8/sudokud.8",
                "share/man/man5/sudokud.conf.5", "share/bash-completion/completions/sudoctl",
                "share/zsh/site-functions/_sudoctl", "share/fish/vendor_completions.d/sudoctl.fish"]
        for w in want:
            check(os.path.exists(os.path.join(tmp, w)), f"{w} installed")
        with open(os.path.join(tmp, "share/man/man8/sudokud.8")) as f:
            page = f.read()
        check(os.path.join(tmp, "etc/sudokud/sudokud.conf") in page, "man page with the prefix's paths")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bash_complete(words, env):
    """COMPREPLY of the bash completion for the command line words (the last
    one is being completed)."""
    script = os.path.join(COMPLETION, "sudoctl.bash")
    line = " ".join(words)
    prog = (f"source '{script}'\n"
            f"COMP_WORDS=({' '.join(repr(w) for w in words)})\n"
            f"COMP_CWORD={len(words) - 1}\nCOMP_LINE={line!r}\nCOMP_POINT={len(line)}\n"
            "_sudoctl\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n")
    p = subprocess.run(["bash", "-c", prog], capture_output=True, text=True, env=env, timeout=60)
    eq(p.returncode, 0, p.stderr)
    return [w for w in p.stdout.splitlines() if w]


def test_completion():
    env = dict(os.environ, PATH=os.path.join(BUILD, "bin") + ":" + os.environ.get("PATH", ""))
    eq(bash_complete(["sudoctl", "st"], env), ["status", "stop"], "commands")
    check("--no-autostart" in bash_complete(["sudoctl", "--no-a"], env), "options")
    eq(bash_complete(["sudoctl", "--color=al"], env), ["--color=always"], "--color values")
    with Daemon() as d:
        ids = bash_complete(["sudoctl", "--socket", d.sock, "hint", "--technique", "x-w"], env)
        check("x-wing" in ids, f"technique ids from the daemon: {ids}")
        ids = bash_complete(["sudoctl", "--socket", d.sock, "hint", "--technique", "x-wing,sky"], env)
        eq(ids, ["x-wing,skyscraper"], "the last id of a list")
        profs = bash_complete(["sudoctl", "--socket", d.sock, "--profile", ""], env)
        check({"default", "fast", "standard"} <= set(profs), f"profiles from the daemon: {profs}")
        if shutil.which("fish"):
            script = os.path.join(COMPLETION, "sudoctl.fish")
            p = subprocess.run(
                ["fish", "-c", f"source '{script}'; "
                 f"complete -C 'sudoctl --socket {d.sock} hint --technique x-w'; "
                 f"complete -C 'sudoctl --socket {d.sock} --profile st'; complete -C 'sudoctl sto'"],
                capture_output=True, text=True, env=env, timeout=60)
            got = [ln.split("\t")[0] for ln in p.stdout.splitlines()]
            check({"x-wing", "standard", "stop"} <= set(got), f"fish: {got} {p.stderr}")
    for shell, script in (("zsh", "_sudoctl"), ("fish", "sudoctl.fish")):
        if shutil.which(shell):
            p = subprocess.run([shell, "-n", os.path.join(COMPLETION, script)], capture_output=True,
                               text=True, timeout=60)
            eq(p.returncode, 0, f"{shell} -n {script}: {p.stderr}")
        else:
            print(f"{shell} not installed: its completion's syntax not checked")


def test_readme():
    """The README's sudoctl examples, as written (puzzles and files filled
    in), against a real daemon: none is refused."""
    from harness import DATA, HARD
    with open(os.path.join(SOURCE, "README.md")) as f:
        readme = f.read()
    block = readme.split("## Using sudoctl", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    cmds = []
    for line in block.splitlines():
        line = line.split("#", 1)[0].strip()
        cmds += [c.strip() for c in line.split(";") if c.strip()]
    check(len(cmds) >= 8 and cmds[-1] == "sudoctl stop", str(cmds))
    # the README's own puzzle (seconds less than Inkala's on SE's ladder), the
    # first 30 of top1465 (the whole file takes a while in a sanitizer build)
    readme_puzzle = readme.split("sudoctl explain ", 1)[1].split()[0]
    check(len(readme_puzzle) == 81, readme_puzzle)
    top = os.path.join(tempfile.mkdtemp(prefix="sudoctl-top-"), "top1465.txt")
    with open(os.path.join(DATA, "top1465.txt")) as f, open(top, "w") as out:
        out.writelines(f.readlines()[:30])
    tmp = tempfile.mkdtemp(prefix="sudokud-readme-")
    conf = make_conf(os.path.join(tmp, "readme.conf"), sudokud=("default_profile = default",))
    with Daemon(conf=conf, tmp=tmp) as d:
        for c in cmds:
            argv = c.replace("PUZZLE", readme_puzzle).replace("GRID", HARD).split()
            if ">" in argv:  # a redirection: the output is checked below, not saved
                argv = argv[:argv.index(">")]
            if "generate" in argv:  # one puzzle is enough to see it works
                argv = [a for a in argv if a not in ("--count", "10")] + ["--seed", "1"]
            argv = [top if a == "top1465.txt" else a for a in argv]
            t0 = time.time()
            p = d.sudoctl(*argv[1:], timeout=200)
            print(f"{time.time() - t0:6.2f} s  {c}", flush=True)
            eq(p.returncode, 0, f"{c}: {p.stderr[-300:]}")
        d.proc.wait(10)
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(os.path.dirname(top), ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main({
        "man_pages": test_man_pages,
        "install": test_install,
        "completion": test_completion,
        "readme": test_readme,
    }))
