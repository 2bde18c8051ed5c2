#!/bin/sh
# bench_all.sh - the issue-11 figures in one command, each beside its
# baseline from the same run, with the machine's load (never run by ctest).
#
#   tests/bench/bench_all.sh [--build DIR] [--data DIR] [--ref LIB.so]
#                            [--solver-n N] [--runs N] [--e2e] [--million N]
#                            [--hardest] [--profiles STRIDE]
#
# 1. solver (bench_solver): 17clue.txt and forum_hardest_1905_11plus.txt
#    (first N puzzles, default 10000), first solution and count to 2, CPU
#    time; with --ref LIB.so a reference solver (e.g. tdoku built apart as a
#    shared library, see README.md) timed in the same runs, as a ratio.
# 2. ratings (rate_vs_se --times, profile default): every puzzle of
#    se_times_public.tsv, thread CPU per puzzle beside Sudoku Explainer's
#    listed seconds: the total ratio, the smallest per-puzzle ratio, and the
#    23 puzzles SE did not finish (median, worst).
# 3. with --e2e: bench_e2e.py (sudoctl + sudokud vs in-process, memory; the
#    lean path: `sudoctl --json solve -f 17clue.txt` against the in-process
#    count-to-2 solver, CPU and wall; --million N: N permuted puzzles
#    streamed through `sudoctl solve -f`, the RSS curve).
# 4. with --hardest: bench_rate --part logic, profile default, the whole of
#    forum_hardest_1106.txt and top1465.txt (no guessing, 60 s CPU cap per
#    puzzle): median and worst CPU per puzzle (goals: median < 1 s, worst
#    < 3 s on forum_hardest_1106; top1465 reported).
# 5. with --profiles STRIDE: bench_explain.py through a real daemon (one
#    worker), every STRIDE-th puzzle of forum_hardest_1106.txt: `explain
#    --profile standard` and `rate --profile hodoku`, worker CPU per request
#    (median, p90, max; goals median < 100 ms, worst < 3 s).
# Each part prints its CPU (user+sys) and wall seconds; the load average is
# printed before and after. Speed is never asserted: read the figures.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
data=$root/../shared/data
ref=
n=10000
runs=3
e2e=0
million=0
hardest=0
stride=0
python=${PYTHON:-python3}
# the e2e and explain benchmarks need python3-msgpack: prefer Debian's python
if [ -z "$PYTHON" ] && [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; fi
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --ref) ref=$2; shift 2 ;;
    --solver-n) n=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --e2e) e2e=1; shift ;;
    --million) million=$2; shift 2 ;;
    --hardest) hardest=1; shift ;;
    --profiles) stride=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--data DIR] [--ref LIB.so] [--solver-n N] [--runs N] [--e2e] [--million N] [--hardest] [--profiles STRIDE]" >&2
       exit 2 ;;
    esac
done
conf=$build/etc/sudokud/sudokud.conf
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
timed() { # label command...: runs it, then prints its CPU and wall seconds
    label=$1
    shift
    t0=$(date +%s.%N)
    "$@"
    t1=$(date +%s.%N)
    # CPU of the finished children (the shell's own `times`, not in a pipe)
    times >"$tmp"
    set -- $(tail -1 "$tmp")
    echo "[$label] wall $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s; CPU of this script's children so far: user $1 sys $2"
}
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores), $(date -u '+%F %T') UTC"
echo "== build: $build ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo
echo "== 1. solver, first $n puzzles, median of $runs runs, thread CPU"
if [ -n "$ref" ]; then
    timed solver "$build/bin/bench_solver" -r "$runs" -n "$n" -b 200 --ref "$ref" "$data" \
        17clue.txt forum_hardest_1905_11plus.txt
else
    timed solver "$build/bin/bench_solver" -r "$runs" -n "$n" -b 200 "$data" \
        17clue.txt forum_hardest_1905_11plus.txt
fi
echo
echo "== 2. ratings vs Sudoku Explainer (se_times_public.tsv), profile default, thread CPU"
timed rate "$build/bin/rate_vs_se" --config "$conf" --profile default --times --data "$data" \
    --quiet
if [ "$e2e" = 1 ]; then
    echo
    echo "== 3. end to end (bench_e2e.py)"
    timed e2e "$python" "$here/bench_e2e.py" --build "$build" --data "$data" --runs "$runs" \
        --million "$million"
fi
if [ "$hardest" = 1 ]; then
    echo
    echo "== 4. ratings by logic alone, profile default, whole files, thread CPU per puzzle"
    timed hardest "$build/bin/bench_rate" --config "$conf" --data "$data" --part logic \
        --logic-profiles default --logic-files forum_hardest_1106.txt,top1465.txt --cap-ms 60000
fi
if [ "$stride" -gt 0 ] 2>/dev/null; then
    echo
    echo "== 5. explain standard / rate hodoku through the daemon, every ${stride}th of forum_hardest_1106.txt"
    timed profiles env SUDOKU_BUILD="$build" SUDOKU_DATA="$data" "$python" "$here/bench_explain.py" \
        --profiles standard,hodoku --methods explain,rate --stride "$stride" --baseline-stride "$stride"
fi
echo
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
