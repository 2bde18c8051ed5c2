"""test_i18n.py - sudoctl's languages.

  catalogs   every message of sudoctl's sources (xgettext: _() and N_()) is in
             every catalog po/LANG.po (msgcmp), translated, none fuzzy, formats
             matching (msgfmt --check); the technique names are checked by
             the unit test test_catalogs against the loaded plugins
  cli        --lang, else LANGUAGE / LC_ALL / LC_MESSAGES / LANG, choose the
             language of step texts, technique names, the grid legend and
             the HTML report, and the phrases of plugin texts (nested
             steps' inner steps, sudokilo, SE, bifurcation); an unknown
             --lang is a usage error
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from harness import SOURCE, Daemon, check, eq, main, read_puzzles

LANGS = ("eo", "ja", "nl", "hi")
SKIP = 77


def test_catalogs():
    tmp = tempfile.mkdtemp(prefix="sudoctl-i18n-")
    try:
        pot = os.path.join(tmp, "sudoctl.pot")
        client = os.path.join(SOURCE, "client")
        srcs = sorted(os.path.join(client, f) for f in os.listdir(client) if f.endswith(".c"))
        subprocess.run(["xgettext", "--language=C", "--keyword=_", "--keyword=N_",
                        "--from-code=UTF-8", "--no-location", "-o", pot] + srcs, check=True)
        with open(pot, encoding="utf-8") as f:
            n = len(re.findall(r"^msgid ", f.read(), re.M)) - 1
        check(n > 50, f"messages in the sources: {n}")
        for lang in LANGS:
            po = os.path.join(SOURCE, "po", lang + ".po")
            p = subprocess.run(["msgcmp", po, pot], capture_output=True, text=True)
            eq(p.returncode, 0, f"{lang}: every message of the sources in the catalog: "
               + p.stderr[-2000:])
            p = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, po],
                               capture_output=True, text=True)
            eq(p.returncode, 0, f"{lang}: msgfmt --check " + p.stderr[-2000:])
            check("untranslated" not in p.stderr and "fuzzy" not in p.stderr,
                  f"{lang}: all translated: {p.stderr.strip()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_cli():
    puzzle = read_puzzles("top1465.txt", 3)[2]
    with Daemon() as d:
        en = d.sudoctl("explain", puzzle, env=dict(os.environ, LANG="C", LANGUAGE="",
                                                    LC_ALL="")).stdout
        check("Hidden Single" in en and "solved in" in en, "English by default")
        texts = {}
        for lang in LANGS:
            p = d.sudoctl("--lang", lang, "explain", puzzle)
            eq(p.returncode, 0, f"--lang {lang}: " + p.stderr)
            texts[lang] = p.stdout
            check("Hidden Single" not in p.stdout, f"{lang}: technique names translated")
            check("has no place in" not in p.stdout and "solved in" not in p.stdout,
                  f"{lang}: phrases translated: {p.stdout[:1500]}")
        check("Kaŝita unuopo" in texts["eo"] and "subtabelo" in texts["eo"], "Esperanto")
        check("ヒドゥンシングル" in texts["ja"] and "ブロック" in texts["ja"], "Japanese")
        check("Verborgen single" in texts["nl"] and "opgelost in" in texts["nl"], "Dutch")
        check("हिडन लोनेर" in texts["hi"] and "खंड" in texts["hi"], "Hindi")
        # the notation stays: same steps, same effects
        strip = lambda t: re.findall(r"(?:=> |^\d+\. .*?)(r\d+c\d+(?:<>|=)\d)", t, re.M)  # noqa
        eq(strip(texts["ja"]), strip(en), "the same steps and effects in every language")
        # the locale when no --lang
        env = dict(os.environ, LANG="nl_NL.UTF-8", LC_ALL="", LC_MESSAGES="", LANGUAGE="")
        check("opgelost in" in d.sudoctl("explain", puzzle, env=env).stdout, "LANG=nl_NL")
        env["LANGUAGE"] = "eo:nl"
        check("solvita per" in d.sudoctl("explain", puzzle, env=env).stdout, "LANGUAGE first")
        env = dict(os.environ, LANG="C", LC_ALL="ja_JP.UTF-8", LANGUAGE="")
        check("手で解けた" in d.sudoctl("explain", puzzle, env=env).stdout, "LC_ALL=ja_JP")
        p = d.sudoctl("--lang", "xx", "explain", puzzle)
        eq(p.returncode, 2, "unknown --lang: usage error")
        check("eo, ja, nl, hi" in p.stderr, "names the languages: " + p.stderr)
        # the grid legend and the HTML report
        p = d.sudoctl("--lang", "eo", "--grid", "explain", puzzle)
        check("forigita" in p.stdout, "grid legend in Esperanto")
        p = d.sudoctl("--lang", "ja", "--html", "explain", puzzle)
        h = p.stdout
        check('<html lang="ja">' in h and "<title>数独の解説</title>" in h, "report: Japanese")
        labels = json.loads(re.search(r'id="labels">(.*?)</script>', h, re.S).group(1))
        eq(labels["next"], "次へ", "report labels")
        data = json.loads(re.search(r'class="puzzle-data">(.*?)</script>', h, re.S).group(1))
        check(data["steps"][0]["tname"] == "ヒドゥンシングル (ブロック)", "names in the data")
        check(data["tlevel"] in ("最難関", "超難問", "難しい", "普通", "易しい"), "level")
        p = d.sudoctl("--lang", "hi", "--html", "rate", puzzle)
        check('<html lang="hi">' in p.stdout and "पहेली" in p.stdout, "rate table in Hindi")
        # the phrases of plugin texts beyond the names: a nested step's inner
        # steps, the sudokilo program's segments, SE's chains, bifurcation
        nl = texts["nl"]
        check("daarna de eerdere technieken van het profiel:" in nl and "door stappen" in nl,
              "a nested step's inner steps in Dutch: " + nl[:3000])
        top = read_puzzles("top1465.txt", 2)
        for prof, want, english in (("sudokilo", "omdat ", "since "),
                                    ("default", " knopen)", " nodes)"),
                                    ("fast", "proberen breekt het rooster", "breaks the grid")):
            p = d.sudoctl("--lang", "nl", "explain", "--profile", prof, *top, timeout=300)
            eq(p.returncode, 0, f"{prof}: " + p.stderr)
            check(want in p.stdout and english not in p.stdout,
                  f"{prof}: '{want}' for '{english}': " + p.stdout[:3000])


TESTS = {"catalogs": test_catalogs, "cli": test_cli}

if __name__ == "__main__":
    if sys.argv[1:] == ["catalogs"] and not all(shutil.which(t) for t in
                                                ("xgettext", "msgcmp", "msgfmt")):
        print("SKIP: no gettext tools (Debian package gettext)")
        sys.exit(SKIP)
    sys.exit(main(TESTS))
