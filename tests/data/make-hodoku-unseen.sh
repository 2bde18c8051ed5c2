#!/bin/bash
# make-hodoku-unseen.sh - remake hodoku_ratings_unseen.tsv and
# hodoku_paths_unseen.txt: HoDoKu's own level, score and path for puzzles the
# profile `hodoku` was not tuned on (see README.md here).
#
#   tests/data/make-hodoku-unseen.sh HODOKU_CLASSES [DATA_DIR] [OUT_DIR]
#
# HODOKU_CLASSES: HoDoKu 2.3 compiled from source (javac --release 8 -d DIR
# over its src/, with src/'s resource files copied beside the classes), never
# part of this repository. DATA_DIR: ../shared/data. Each sample is every k-th
# line of a shared file; HoDoKu rates each puzzle in its own JVM (batch solve,
# default settings, path printed) with a time limit, a puzzle it does not
# finish in time is left out.
set -euo pipefail
classes=${1:?usage: make-hodoku-unseen.sh HODOKU_CLASSES [DATA_DIR] [OUT_DIR]}
data=${2:-$(dirname "$0")/../../../shared/data}
out=${3:-$(dirname "$0")}
limit=${HODOKU_TIME_LIMIT:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# file, every k-th line, first line taken, how many, batch (one JVM for the
# sample) or each (one JVM per puzzle, with the time limit: the hard files)
samples=(
    "kaggle_10k.txt 33 1 300 batch"
    "17clue.txt 163 5 300 batch"
    "top1465.txt 7 3 200 batch"
    "forum_hardest_1106.txt 15 7 25 each"
    "forum_hardest_1905_11plus.txt 1950 11 25 each"
)

hodoku() { # in.txt out.txt seconds
    nice timeout "$3" java -Djava.awt.headless=true -Djava.io.tmpdir="$work" -Xmx512m \
        -cp "$classes" sudoku.Main /c default /vp /bs "$1" /o "$2" >/dev/null 2>&1 || true
}

tsv=$out/hodoku_ratings_unseen.tsv paths=$out/hodoku_paths_unseen.txt
printf 'puzzle\tsource\tlevel\tscore\tflags\n' >"$tsv"
: >"$paths"
for s in "${samples[@]}"; do
    read -r file k first count mode <<<"$s"
    awk -v k="$k" -v f="$first" 'NR % k == f % k { print NR, $0 }' "$data/$file" |
        head -n "$count" >"$work/lines"
    rm -f "$work/all.out"
    if [[ $mode == batch ]]; then
        cut -d' ' -f2 "$work/lines" >"$work/p.txt"
        hodoku "$work/p.txt" "$work/all.out" $((limit * 20))
    else
        while read -r line puzzle; do
            echo "$puzzle" >"$work/p.txt"
            rm -f "$work/p.out"
            hodoku "$work/p.txt" "$work/p.out" "$limit"
            if [[ -s $work/p.out ]]; then cat "$work/p.out" >>"$work/all.out"; else
                echo "$file:$line: no rating within ${limit}s" >&2; fi
        done <"$work/lines"
    fi
    # "<puzzle> #n <Level> (<score>)[ bf][ td][ gu]", then its steps indented
    python3 - "$work/all.out" "$work/lines" "$file" "$tsv" "$paths" <<'PY'
import re, sys
out, lines, file, tsv, paths = sys.argv[1:]
line_of = {}
for l in open(lines):
    n, p = l.split()
    line_of.setdefault(p, n)
rows, blocks = [], []
for l in open(out, errors="replace"):
    l = l.rstrip("\r\n")
    m = re.match(r"^(\S{81}) #\d+ (\w+) \((\d+)\) ?(.*)$", l)
    if m:
        src = "%s:%s" % (file, line_of[m.group(1)])
        rows.append("\t".join([m.group(1), src, m.group(2), m.group(3), m.group(4).strip()]))
        blocks.append(["%s #%s %s (%s)" % (m.group(1), src, m.group(2), m.group(3)), m.group(2)])
    elif blocks and l.startswith(" "):
        blocks[-1].insert(-1, l)
with open(tsv, "a") as f:
    f.writelines(r + "\n" for r in rows)
with open(paths, "a") as f:  # paths kept past Easy (Easy: singles, a few intersections)
    for b in blocks:
        if b[-1] != "Easy":
            f.writelines(x + "\n" for x in b[:-1])
PY
done
echo "$(($(wc -l <"$tsv") - 1)) puzzles rated"
