"""test_explain.py - explanations for people, through a real daemon:

  reading    explain and hint use the `reading` profile unless told otherwise,
             rate keeps the default one; chain steps read in Eureka notation
  effects    no step text states its effect twice (`=> r2c7<>9 => r2c7<>9`)
             over the first puzzles of top1465 (all 300 with
             SUDOKU_EXPLAIN_FULL=1; a sample of them in CI)
  branches   every step of several chains (forcing chains and nets) is
             printed branch by branch, and each branch replays on the grid:
             every link follows from the premise and the links before it;
             a nested step's inner steps, claim by claim, applied to the
             branch's position, hold one by one and remove the candidate
             each claim names, and the claims make the whole contradiction
"""

import collections
import json
import os
import re

from harness import Daemon, check, eq, main, read_puzzles

FULL = os.environ.get("SUDOKU_EXPLAIN_FULL") == "1"

HOUSES = [[r * 9 + c for c in range(9)] for r in range(9)]
HOUSES += [[r * 9 + c for r in range(9)] for c in range(9)]
HOUSES += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
PEERS = [set() for _ in range(81)]
for h in HOUSES:
    for a in h:
        PEERS[a].update(x for x in h if x != a)


def grid_of(puzzle):
    """Candidates of a givens-only puzzle: value per cell, candidate sets."""
    val = [0] * 81
    cand = [set(range(1, 10)) for _ in range(81)]
    for i, ch in enumerate(puzzle[:81]):
        if ch in "123456789":
            place(val, cand, i, int(ch))
    return val, cand


def place(val, cand, c, d):
    val[c] = d
    cand[c] = set()
    for p in PEERS[c]:
        cand[p].discard(d)


def apply_step(val, cand, s):
    for p in s["placements"]:
        c, d = (int(p[1]) - 1) * 9 + int(p[3]) - 1, int(p[5])
        if not val[c]:
            place(val, cand, c, d)
    for e in s["eliminations"]:
        c, d = (int(e[1]) - 1) * 9 + int(e[3]) - 1, int(e[6])
        cand[c].discard(d)


def node(text):
    """'r2c46/-1' -> (cells, digit, on)."""
    m = re.fullmatch(r"(.*)/([+-])([1-9])", text)
    cells = []
    for part in m.group(1).split(","):
        rc = re.fullmatch(r"r([1-9]+)c([1-9]+)", part)
        cells += [(int(r) - 1) * 9 + int(c) - 1 for r in rc.group(1) for c in rc.group(2)]
    return tuple(cells), int(m.group(3)), m.group(2) == "+"


def branches(links):
    out, cur = [], []
    for l in links:
        if cur and l["from"] != cur[-1]["to"]:
            out.append(cur)
            cur = []
        cur.append(l)
    if cur:
        out.append(cur)
    return out


def sees_all(a_cells, b_cells):
    return all(b != a and b in PEERS[a] for a in a_cells for b in b_cells)


def replay(val, cand, premise_links):
    """Links sharing one premise: apply the premise, then verify links until
    none is left or none can be verified. Returns the unverified links."""
    cand = [set(x) for x in cand]
    true = set()

    def apply(n):
        cells, d, on = n
        if on:
            if len(cells) == 1:
                c = cells[0]
                true.add((c, d))
                for x in list(cand[c]):
                    if x != d:
                        cand[c].discard(x)
                for p in PEERS[c]:
                    cand[p].discard(d)
        else:
            for c in cells:
                cand[c].discard(d)

    first = node(premise_links[0]["from"])
    apply(first)
    known = {first}
    todo = list(premise_links)
    progress = True
    while todo and progress:
        progress = False
        for l in list(todo):
            a, b = node(l["from"]), node(l["to"])
            if a not in known:
                continue
            ok = False
            if l["kind"] == "als":
                ok = True  # the set's own logic; its cells are drawn, not replayed here
            elif not l["strong"]:
                # a true node makes the other false: same cell, or same digit seen by all
                if a[2] and not b[2]:
                    if a[0] == b[0] and len(a[0]) == 1 and a[1] != b[1]:
                        ok = True
                    elif a[1] == b[1] and sees_all(a[0], b[0]):
                        ok = True
            else:
                # a false node makes the other true: the last candidate of a
                # cell, or the last place of a digit in a house
                # (whichever the link's kind says: a chain may lean on either)
                if not a[2] and b[2]:
                    if len(b[0]) == 1 and cand[b[0][0]] <= {b[1]}:
                        ok = True
                    else:
                        d = b[1]
                        for h in HOUSES:
                            if set(b[0]) <= set(h):
                                rest = {c for c in h if d in cand[c]} - set(b[0])
                                if not rest:
                                    ok = True
                                    break
            if ok:
                apply(b)
                known.add(b)
                todo.remove(l)
                progress = True
    return todo


def cells_of(text):
    """'r35c2,r1c7' -> the cells."""
    out = []
    for part in text.split(","):
        rc = re.fullmatch(r"r([1-9]+)c([1-9]+)", part)
        out += [(int(r) - 1) * 9 + int(c) - 1 for r in rc.group(1) for c in rc.group(2)]
    return out


def cand_of(text):
    """'r6c6<>2' -> (cell, digit, False); 'r4c4=7' -> (cell, digit, True)."""
    m = re.fullmatch(r"r([1-9])c([1-9])(<>|=)([1-9])", text)
    return (int(m.group(1)) - 1) * 9 + int(m.group(2)) - 1, int(m.group(4)), m.group(3) == "="


def places(cand, h, d):
    return {c for c in HOUSES[h] if d in cand[c]}


def inner_holds(val, cand, st):
    """Does the inner step st hold where it is applied? None when its
    technique is not one this test knows how to check."""
    t, text = st["technique"], st["text"]
    pl = [cand_of(x) for x in st["placements"]]
    el = [cand_of(x) for x in st["eliminations"]]
    if t in ("naked-single", "full-house", "hidden-single-box", "hidden-single-line"):
        (c, d, _), = pl
        if t in ("naked-single", "full-house") and cand[c] == {d}:
            return True
        return any(c in HOUSES[h] and places(cand, h, d) == {c} and
                   all(val[x] != d for x in HOUSES[h]) for h in range(27))
    m = re.search(r": ([1-9]) in ([rcb])([1-9]) =>", text)
    if t in ("pointing", "claiming") and m:
        d, h = int(m.group(1)), "rcb".index(m.group(2)) * 9 + int(m.group(3)) - 1
        ps = places(cand, h, d)
        return bool(ps) and all(x == d and c not in HOUSES[h] and any(
            ps <= set(HOUSES[k]) and c in HOUSES[k] for k in range(27) if k != h)
            for c, x, _ in el)
    m = re.search(r": ([1-9](,[1-9])*) in ([rc1-9,]+) =>", text)
    if m and t.startswith(("naked-", "locked-", "hidden-")) and \
            t.endswith(("-pair", "-triple", "-quad")):
        ds, cs = {int(x) for x in m.group(1).split(",")}, set(cells_of(m.group(3)))
        if len(ds) != len(cs):
            return False
        if t.startswith("hidden-"):
            return any(cs <= set(HOUSES[h]) and all(places(cand, h, d) <= cs for d in ds)
                       for h in range(27)) and all(c in cs and x not in ds for c, x, _ in el)
        return set().union(*(cand[c] for c in cs)) <= ds and all(
            x in ds and c not in cs and all(c in PEERS[y] for y in cs) for c, x, _ in el)
    return None


def branch_position(val, cand, links):
    """The grid a nested step's propagation starts from: the premise and
    every node its chains reach (on: placed, off: removed)."""
    val, cand = list(val), [set(x) for x in cand]
    for n in [links[0]["from"]] + [l["to"] for l in links]:
        cells, d, on = node(n)
        if on and len(cells) == 1:
            if not val[cells[0]]:
                place(val, cand, cells[0], d)
        elif not on:
            for c in cells:
                cand[c].discard(d)
    return val, cand


def apply_inner(val, cand, st):
    for x in st["placements"]:
        c, d, _ = cand_of(x)
        if not val[c]:
            place(val, cand, c, d)
    for x in st["eliminations"]:
        c, d, _ = cand_of(x)
        cand[c].discard(d)


def replay_inner(val, cand, s):
    """A nested step's inner steps, claim by claim: applied in order to the
    branch's position, each claim's steps must remove (place) its candidate,
    and each of them must hold where it is applied (checked for the
    techniques inner_holds knows). The claims together must be the whole
    contradiction: every candidate of one cell, or every place of one digit
    in one house (gone), or one digit twice in a house (placed). Returns
    (problems, inner steps checked, inner steps of unknown techniques)."""
    bad, checked, unknown = [], 0, 0
    inner, because = s.get("inner", []), s.get("because", [])
    if not inner or not because:
        return ["no inner steps"], 0, 0
    pval, pcand = branch_position(val, cand, s["links"])
    claims = [cand_of(b["candidate"]) for b in because]
    for b, (c, d, on) in zip(because, claims):
        v, cs = list(pval), [set(x) for x in pcand]
        for i in b["steps"]:
            ok = inner_holds(v, cs, inner[i])
            if ok is None:
                unknown += 1
            else:
                checked += 1
                if not ok:
                    bad.append(f"inner step {i + 1} does not hold: {inner[i]['text']}")
            apply_inner(v, cs, inner[i])
        done = v[c] == d if on else (d not in cs[c] and v[c] != d)
        if not done:
            bad.append(f"{b['candidate']} not done by steps {b['steps']}")
    cells = {c for c, _, _ in claims}
    digits = {d for _, d, _ in claims}
    if all(on for _, _, on in claims):
        whole = len(digits) == 1 and len(claims) >= 2 and any(
            cells <= set(HOUSES[h]) for h in range(27))
    elif len(cells) == 1:
        whole = {d for _, d, _ in claims} == pcand[next(iter(cells))]
    else:
        d = next(iter(digits))
        whole = len(digits) == 1 and any(
            cells == places(pcand, h, d) and all(pval[x] != d for x in HOUSES[h])
            for h in range(27))
    if not whole:
        bad.append(f"claims {[b['candidate'] for b in because]} are not a whole contradiction")
    return bad, checked, unknown


def explain_json(d, puzzles, *args):
    p = d.sudoctl("--json", *args, "explain", "-f", "-", input="\n".join(puzzles) + "\n",
                  timeout=1200)
    eq(p.returncode, 0, "explain rc " + p.stderr[-500:])
    return [json.loads(ln) for ln in p.stdout.splitlines()]


def test_reading():
    puzzle = read_puzzles("top1465.txt", 3)[2]
    with Daemon() as d:
        prof = d.rpc().call("techniques", {"profile": "reading"})
        ids = [t["id"] for t in prof["techniques"]]
        check(ids.index("xy-wing") < ids.index("aic") < ids.index("als-xz") <
              ids.index("dynamic-forcing-chain"), "named patterns before chains, forcing last")
        r = d.rpc()
        ex = r.call("explain", {"puzzle": puzzle})
        ex_reading = r.call("explain", {"puzzle": puzzle, "profile": "reading"})
        eq([s["text"] for s in ex["steps"]], [s["text"] for s in ex_reading["steps"]],
           "explain without a profile reads like the reading profile")
        hint = r.call("hint", {"puzzle": puzzle})
        eq(hint["steps"][0]["text"], ex["steps"][0]["text"], "hint: the reading profile's step")
        default = r.call("techniques", {})["profile"]
        check(default != "reading", "the config's default profile is another")
        rate = r.call("rate", {"puzzle": puzzle})
        rate_default = r.call("rate", {"puzzle": puzzle, "profile": default})
        eq((rate["er"], rate["ep"], rate["ed"]), (rate_default["er"], rate_default["ep"],
           rate_default["ed"]), "rate keeps the default (SE) profile")
        for k in ("er", "ep", "ed", "level", "score", "hardest"):
            check(k in ex, f"explain carries the run's rating: {k}")
        # chain steps print in Eureka notation: (d)rXcY, = strong, - weak
        p = d.sudoctl("explain", "--profile", "standard", read_puzzles("top1465.txt", 1)[0])
        chains = [ln for ln in p.stdout.splitlines()
                  if re.match(r"\d+\. (XY-Chain|X-Chain|AIC|.*Nice Loop):", ln)]
        check(chains, "some chain steps: " + p.stdout[:2000])
        for ln in chains:
            check(re.search(r": \(\d[-=\d]*\)r\d+c\d+([-=]\(\d[-=\d]*\)r[\d]+c[\d]+)+ => ", ln),
                  "Eureka chain: " + ln)


def test_effects():
    n = 300 if FULL else 24
    stride = 1 if FULL else 12
    puzzles = read_puzzles("top1465.txt", 300)[::stride][:n]
    with Daemon() as d:
        res = explain_json(d, puzzles)
    steps = 0
    for o in res:
        check(o.get("solved"), f"explained: {o.get('puzzle')} {o.get('error')}")
        for s in o["steps"]:
            steps += 1
            parts = [x.strip() for x in s["text"].split(" => ")]
            check(all(parts[i] != parts[i + 1] for i in range(len(parts) - 1)),
                  "repeated effect: " + s["text"])
            check(len(parts) < 2 or parts.count(parts[-1]) == 1, "effect stated twice: " + s["text"])
            for w in ("all candidates of", " false =>"):
                check(w not in s["text"] or "true and false" in s["text"],
                      "one wording for an emptied cell: " + s["text"])
            m = re.search(r"=> (\d) (has no place|twice)", s["text"])
            check(not m, "'digit N has no place' wording: " + s["text"])
    print(f"{len(res)} puzzles, {steps} steps, no repeated effect")


MULTI = ("forcing-chain-contradiction", "forcing-chain-verity", "dynamic-forcing-chain",
         "forcing-net-contradiction", "forcing-net-verity", "nested-forcing-chain")


def test_branches():
    puzzles = read_puzzles("top1465.txt", 300)[: (300 if FULL else 8)]
    with Daemon() as d:
        res = explain_json(d, puzzles)
        text = d.sudoctl("explain", puzzles[2]).stdout
    checked = links = nested = inner_checked = inner_unknown = 0
    bad = []
    for o in res:
        val, cand = grid_of(o["puzzle"])
        for s in o["steps"]:
            if s["technique"] in MULTI:
                check(s.get("links"), f"{s['technique']} carries its chains: {s['text']}")
                check(not s.get("truncated"), f"all of its chains: {s['text']}")
                # a branch starts at its premise or at a node of an earlier
                # branch of the same premise (the part they share is written once)
                groups, seen = [], set()
                for b in branches(s["links"]):
                    if not groups or b[0]["from"] not in seen:
                        groups.append([])
                        seen = {b[0]["from"]}
                    groups[-1].extend(b)
                    seen.update(l["to"] for l in b)
                for ls in groups:
                    left = replay(val, cand, ls)
                    if left:
                        bad.append(f"{left[:2]} in {s['text']} ({o['puzzle']})"
                                   f"{' truncated' if s.get('truncated') else ''}")
                    links += len(ls)
                checked += 1
            if s["technique"] == "nested-forcing-chain":
                nested += 1
                problems, n_ok, n_unknown = replay_inner(val, cand, s)
                inner_checked += n_ok
                inner_unknown += n_unknown
                bad += [f"{p} in {s['text']} ({o['puzzle']})" for p in problems]
            apply_step(val, cand, s)
    check(checked > 0, "some forcing steps")
    check(not bad, f"{len(bad)} of {checked} steps with links that do not follow:\n" +
          "\n".join(bad[:10]))
    # the text lists the branches under a step of several chains
    lines = text.splitlines()
    idx = [i for i, ln in enumerate(lines) if "Forcing Chain" in ln]
    check(idx and lines[idx[0] + 1].startswith("    1) ("), "branches listed: " + text[:3000])
    check(inner_unknown == 0, f"{inner_unknown} inner steps of techniques this test cannot check")
    # the standard profile nests every technique before it (ALS, chains,
    # dynamic forcing chains): the claims and the contradiction are checked,
    # and the inner steps this test knows (singles, intersections, subsets)
    with Daemon() as d:
        std = explain_json(d, [read_puzzles("top1465.txt", 2)[1]], "--profile", "standard")
    s_nested = s_ok = s_unknown = 0
    for o in std:
        val, cand = grid_of(o["puzzle"])
        for s in o["steps"]:
            if s["technique"] == "nested-forcing-chain":
                s_nested += 1
                problems, n_ok, n_unknown = replay_inner(val, cand, s)
                s_ok += n_ok
                s_unknown += n_unknown
                check(not problems, f"standard: {problems[:3]} in {s['text']}")
            apply_step(val, cand, s)
    check(s_nested > 0, "a nested step in the standard profile (top1465 #2)")
    print(f"{checked} forcing steps, {links} links replayed; {nested} nested steps, "
          f"{inner_checked} inner steps replayed; standard profile: {s_nested} nested steps, "
          f"{s_ok} inner steps replayed, {s_unknown} of other techniques applied as stated")


def test_grid():
    """explain/hint --grid: the box-drawing candidate grid, the pattern marked;
    colour only when asked or on a terminal (not here: a pipe), never with
    --color=never; --grid=pencil keeps the pencilmark form."""
    puzzle = read_puzzles("top1465.txt", 3)[1]
    with Daemon() as d:
        p = d.sudoctl("--grid", "explain", puzzle)
        eq(p.returncode, 0, "explain --grid " + p.stderr)
        out = p.stdout
        check("\033[" not in out, "no colour into a pipe")
        nsteps = sum(1 for ln in out.splitlines() if re.match(r"\d+\. ", ln))
        eq(out.count("┏━━━━━━━┯"), nsteps, "a grid before every step")
        check(re.search(r"^r5 ┃", out, re.M) and "╋" in out, "box-drawing lines, row labels")
        check(re.search(r"-[1-9]", out) and re.search(r"\*[1-9]", out) and
              re.search(r"\+[1-9]", out), "markers: eliminated, pattern, placed")
        als = out[:out.index("ALS-XZ")]
        last = als[als.rindex("┏"):]
        check(last.count("*") >= 6, "the ALS-XZ's sets marked in the grid before it")
        p = d.sudoctl("--grid", "--color=always", "explain", puzzle)
        check("\033[48;5;" in p.stdout and "\033[1;9;91" in p.stdout,
              "--color=always: roles on coloured backgrounds, eliminations struck")
        p = d.sudoctl("--grid", "--color=never", "explain", puzzle, env=dict(os.environ))
        check("\033[" not in p.stdout, "--color=never")
        p = d.sudoctl("--grid", "hint", puzzle)
        eq(p.returncode, 0, "hint --grid " + p.stderr)
        eq(p.stdout.count("┏"), 1, "hint --grid: one grid")
        p = d.sudoctl("--grid=pencil", "explain", puzzle)
        eq(sum(ln.startswith(".-") for ln in p.stdout.splitlines()), nsteps, "--grid=pencil")
        p = d.sudoctl("--color=sometimes", "explain", puzzle)
        eq(p.returncode, 2, "a bad --color is a usage error")


def test_formats():
    """explain --format forum: one line per step, singles runs on one line,
    chains in Eureka, forcing branches on the step's line. --format hodoku:
    HoDoKu's solution path; with --profile hodoku most of HoDoKu's own lines
    (hodoku_paths_public.txt) come out word for word."""
    puzzle = read_puzzles("top1465.txt", 3)[2]
    with Daemon() as d:
        p = d.sudoctl("--format", "forum", "explain", puzzle)
        eq(p.returncode, 0, "forum " + p.stderr)
        lines = p.stdout.splitlines()
        eq(lines[0], puzzle[:81], "the puzzle first")
        check(lines[1].startswith("singles: r"), "a run of singles on one line")
        check(not any(re.match(r"\d+\. ", ln) for ln in lines), "no numbering")
        forcing = [ln for ln in lines if "Forcing Chain" in ln]
        check(forcing and all(" [1) (" in ln and "; 2) (" in ln for ln in forcing),
              "forcing steps carry their branches (Eureka) on their line")
        ex = json.loads(d.sudoctl("--json", "explain", puzzle).stdout)
        nonsingle = [s for s in ex["steps"] if "single" not in s["technique"]
                     and s["technique"] != "full-house"]
        eq(len([ln for ln in lines[1:] if not ln.startswith("singles:")]), len(nonsingle),
           "one line per step")
        # HoDoKu's path
        with open(os.path.join(os.environ["SUDOKU_DATA"], "hodoku_paths_public.txt")) as f:
            paths, cur = [], None
            for ln in f:
                ln = ln.rstrip()
                if ln and not ln.startswith(" "):
                    cur = [ln, []]
                    paths.append(cur)
                elif ln.strip() and cur:
                    cur[1].append(ln)
        paths = paths[:10]
        p = d.sudoctl("--profile", "hodoku", "--format", "hodoku", "explain", "-f", "-",
                      input="".join(x[0].split()[0] + "\n" for x in paths), timeout=300)
        eq(p.returncode, 0, "hodoku " + p.stderr)
        ours, cur = [], None
        for ln in p.stdout.splitlines():
            if ln and not ln.startswith(" "):
                check(re.fullmatch(r"\S{81} #\d+ [A-Z][a-z]+ \(\d+\)", ln), "header: " + ln)
                cur = [ln, []]
                ours.append(cur)
            else:
                check(ln.startswith("   ") and ": " in ln or " => " in ln, "step line: " + ln)
                cur[1].append(ln)
        eq(len(ours), len(paths), "one path per puzzle")
        theirs = collections.Counter(ln for x in paths for ln in x[1])
        mine = collections.Counter(ln for x in ours for ln in x[1])
        share = sum((theirs & mine).values()) / sum(theirs.values())
        check(share > 0.6, f"HoDoKu's lines in ours: {share:.2f}")
        print(f"HoDoKu's lines found word for word: {100 * share:.1f}%")
        p = d.sudoctl("--format", "tweet", "explain", puzzle)
        eq(p.returncode, 2, "unknown format: usage error")
        p = d.sudoctl("--format", "forum", "rate", puzzle)
        eq(p.returncode, 2, "--format with explain only")


TESTS = {"formats": test_formats, "reading": test_reading, "effects": test_effects, "branches": test_branches,
         "grid": test_grid}

if __name__ == "__main__":
    raise SystemExit(main(TESTS, time_limit=3000 if FULL else 280))
