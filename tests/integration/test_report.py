"""test_report.py - the HTML report in a real browser (Debian's headless
chromium, driven over the DevTools pipe by browser.py): load `sudoctl explain
--html` pages, step through them with the keyboard, check what the page draws
(from its own sudokuReport.info()) and take screenshots of a singles puzzle,
an X-Wing and an XY-Wing, an ALS-XZ, a forcing chain and a nested forcing
chain with one claim's inner steps drawn. The screenshots stay
in <build>/test-output/report/ for people to look at. Without chromium the
test reports SKIP (exit 77)."""

import json
import os
import sys

import browser
from harness import BUILD, EASY, Daemon, check, eq, main, read_puzzles

OUT = os.path.join(BUILD, "test-output", "report")
SKIP = 77


def page(d, name, *args):
    p = d.sudoctl("--html", *args, timeout=120)
    eq(p.returncode, 0, f"{name}: rc {p.stderr}")
    path = os.path.join(OUT, name + ".html")
    with open(path, "w") as f:
        f.write(p.stdout)
    return "file://" + path


def info(b):
    return json.loads(b.eval("JSON.stringify(sudokuReport.info())"))


def step_to(b, technique, limit=400):
    """Press the right arrow until the page shows a step of technique."""
    for _ in range(limit):
        i = info(b)
        if i["technique"] == technique:
            return i
        check(i["item"] + 1 < i["items"], f"no {technique} step before the end")
        b.key("ArrowRight")
    raise AssertionError(f"no {technique} within {limit} key presses")


def shot(b, name):
    path = b.screenshot(os.path.join(OUT, name + ".png"))
    check(os.path.getsize(path) > 20000, f"{name}: a real picture")


def test_browser():
    os.makedirs(OUT, exist_ok=True)
    top = read_puzzles("top1465.txt", 21)
    with Daemon() as d, browser.Browser(width=1400, height=1100) as b:
        # singles: the start, a folded run of singles, unfolding, the end
        b.open(page(d, "singles", "explain", EASY))
        i = info(b)
        eq((i["item"], i["kind"]), (0, "start"), "opens at the start")
        b.key("ArrowRight")
        i = info(b)
        eq(i["kind"], "run", "singles folded into one item")
        check(i["places"] > 1, f"the run's placements marked: {i}")
        shot(b, "singles")
        n_folded = i["items"]
        b.key("f")
        i = info(b)
        check(i["items"] > n_folded and not i["fold"], "unfolded: one item per single")
        check(i["kind"] == "step" and i["places"] == 1, f"a single placement: {i}")
        b.key("End")
        i = info(b)
        eq(i["kind"], "end", "End goes to the last item")
        b.key("ArrowLeft")
        eq(info(b)["item"], i["item"] - 1, "left arrow: one back")
        b.key("Home")
        eq(info(b)["item"], 0, "Home")
        # hovering a cell shows its candidates
        b.eval("window.scrollTo(0,0)")
        box = b.eval("JSON.stringify(document.getElementById('grid').getBoundingClientRect())")
        r = json.loads(box)
        b.mouse_move(r["x"] + 26 + 54 * 0.5 + 54 * 2, r["y"] + 26 + 54 * 0.5)  # r1c3
        tip = b.eval("document.getElementById('tip').textContent")
        vis = b.eval("document.getElementById('tip').style.display")
        eq(vis, "block", "a tooltip on hover")
        check(tip.startswith("r1c3"), f"the hovered cell: {tip}")
        eq(tip, b.eval("sudokuReport.hover(2)"), "its candidates")

        # X-Wing and XY-Wing: roles coloured, eliminations struck
        b.open(page(d, "xwing", "explain", top[20]))
        i = step_to(b, "x-wing")
        check(i["roles"] >= 4 and i["elims"] >= 1 and i["houses"] >= 4,
              f"x-wing: base/cover houses, corners, eliminations: {i}")
        shot(b, "x-wing")
        b.open(page(d, "xywing", "explain", top[15]))
        i = step_to(b, "xy-wing")
        check(i["roles"] >= 3 and i["elims"] >= 1, f"xy-wing: pivot, pincers, eliminations: {i}")
        shot(b, "xy-wing")

        # ALS-XZ: each set its own colour
        b.open(page(d, "als", "explain", top[1]))
        i = step_to(b, "als-xz")
        check(i["alsSets"] >= 2 and i["elims"] >= 1, f"two sets, two colours: {i}")
        shot(b, "als-xz")

        # a dynamic forcing chain: one branch at a time, arrows strong and weak
        b.open(page(d, "forcing", "explain", top[2]))
        i = step_to(b, "dynamic-forcing-chain")
        check(i["branches"] > 1, f"several branches: {i}")
        check(i["strong"] > 0 and i["weak"] > 0, f"strong and weak links drawn: {i}")
        data = json.loads(b.eval(
            "JSON.stringify((function(){var it=sudokuReport.info();"
            "var pz=JSON.parse(document.querySelector('script.puzzle-data').textContent);"
            "return pz.steps[it.step];})())"))
        shown = i["links"]
        if i["branch"] >= 0:
            bs = data["branches"][i["branch"]]
            eq(shown, bs[1] - bs[0], "only the chosen branch's links")
        b.key("ArrowDown")
        j = info(b)
        check(j["branch"] != i["branch"], "down arrow: the next branch")
        if j["branch"] >= 0:
            bs = data["branches"][j["branch"]]
            eq(j["links"], bs[1] - bs[0], "that branch's links")
        while info(b)["branch"] != 0:
            b.key("ArrowDown")
        shot(b, "forcing-chain")
        b.key("ArrowDown")
        shot(b, "forcing-chain-branch2")

        # a nested forcing chain: pick a claim, its inner steps drawn
        b.open(page(d, "nested", "explain", top[2]))
        i = step_to(b, "nested-forcing-chain")
        check(i["claims"] >= 1 and i["inner"] >= 1, f"inner steps and claims listed: {i}")
        eq((i["claim"], i["claimRings"], i["innerElims"] + i["innerPlaces"]), (-1, 0, 0),
           "no claim drawn until one is picked")
        b.eval("document.querySelector('#inner .claim').click()")
        i = info(b)
        eq((i["claim"], i["claimRings"]), (0, 1), "a click picks the first claim, ringed")
        check(i["innerElims"] + i["innerPlaces"] >= 1, f"its inner steps drawn: {i}")
        n_on = b.eval("document.querySelectorAll('#inner .innerstep.on').length")
        data = json.loads(b.eval(
            "JSON.stringify((function(){var it=sudokuReport.info();"
            "var pz=JSON.parse(document.querySelector('script.puzzle-data').textContent);"
            "return pz.steps[it.step];})())"))
        eq(n_on, len(data["because"][0]["steps"]), "the claim's inner steps highlighted")
        shot(b, "nested-forcing-chain")

        # rate --html: one table for a collection, sortable
        b.open(page(d, "rate", "rate", *top[:6], EASY))
        eq(b.eval("sudokuReport.rows()"), 7, "one row per puzzle")
        b.eval("document.querySelectorAll('#rates th')[2].click()")
        ers = json.loads(b.eval("JSON.stringify(Array.prototype.map.call("
                                "document.querySelectorAll('#rates tbody tr'),"
                                "function(r){return parseFloat(r.cells[2].textContent)}))"))
        eq(ers, sorted(ers), "sorted by ER, ascending")
        b.eval("document.querySelectorAll('#rates th')[2].click()")
        ers = json.loads(b.eval("JSON.stringify(Array.prototype.map.call("
                                "document.querySelectorAll('#rates tbody tr'),"
                                "function(r){return parseFloat(r.cells[2].textContent)}))"))
        eq(ers, sorted(ers, reverse=True), "then descending")
        shot(b, "rate")
    print("screenshots in", OUT)


TESTS = {"browser": test_browser}

if __name__ == "__main__":
    if not browser.find_chromium():
        print("SKIP: no chromium (Debian package chromium)")
        sys.exit(SKIP)
    sys.exit(main(TESTS, time_limit=280))
