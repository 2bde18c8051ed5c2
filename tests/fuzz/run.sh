#!/bin/sh
# run.sh - build the libFuzzer targets with clang (ASan + UBSan) and fuzz each
# for a set time, one after the other, niced (the machine is shared).
#
# Usage: tests/fuzz/run.sh [SECONDS_PER_TARGET [TARGET...]]
#   SECONDS_PER_TARGET  default 60; TARGETs: wire rpc format config (default all)
# Env: CC_FUZZ (default clang-14, else clang), SUDOKU_FUZZ_BUILD (default
#   build-fuzz/), FUZZ_JOBS (build jobs, default 2).
#
# Seeds come from tests/fuzz/corpus/TARGET (read only); what the fuzzer
# learns goes to BUILD/fuzz-work/TARGET/corpus, crashes, leaks and timeouts
# to BUILD/fuzz-work/TARGET/findings. For each finding: fix it, add the input
# to tests/fuzz/corpus/TARGET/ as a regression (ctest fuzz_corpus_TARGET runs
# it on every build). Prints target, seconds, executions and findings, and
# exits 1 when any target found something.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-wire rpc format config}
cc=${CC_FUZZ:-$(command -v clang-14 || command -v clang || echo clang)}
build=${SUDOKU_FUZZ_BUILD:-$root/build-fuzz}
jobs=${FUZZ_JOBS:-2}

echo "== building the fuzzers with $cc in $build"
CC=$cc cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSUDOKU_FUZZ=ON \
  -DSUDOKU_TESTS=ON -DSUDOKU_BENCH=OFF -DSUDOKU_WERROR=ON >/dev/null
build_targets=""
for t in $targets; do build_targets="$build_targets fuzz_$t"; done
# shellcheck disable=SC2086
nice cmake --build "$build" -j"$jobs" --target $build_targets >/dev/null

status=0
summary=""
for t in $targets; do
  work="$build/fuzz-work/$t"
  mkdir -p "$work/corpus" "$work/findings"
  echo "== fuzz_$t for ${secs}s"
  rc=0
  nice "$build/bin/fuzz_$t" -max_total_time="$secs" -timeout=10 -max_len=8192 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/findings/" \
    "$work/corpus" "$root/tests/fuzz/corpus/$t" >"$work/log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
  found=$(find "$work/findings" -type f | wc -l)
  cov=$(grep -o 'cov: [0-9]*' "$work/log" | tail -1 | cut -d' ' -f2)
  line=$(printf '%-8s %6ss %12s execs  cov %6s  %s findings' "$t" "$secs" "${execs:-?}" \
    "${cov:-?}" "$found")
  echo "$line"
  summary="$summary$line\n"
  if [ "$found" -gt 0 ] || [ "$rc" -ne 0 ]; then
    status=1
    echo "   log: $work/log"
    find "$work/findings" -type f | sed 's/^/   finding: /'
  fi
done
printf '== summary\n%b' "$summary"
exit $status
