#!/usr/bin/env bash
# run-all.sh - the one test command: install what is missing (Debian packages),
# build from scratch, run every test; then the same under ASan+UBSan.
# Usage: tests/run-all.sh            (root, or a user with sudo for apt)
# Env:   SUDOKU_SKIP_SANITIZE=1 skips the sanitizer pass.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

packages="build-essential cmake pkg-config libuv1-dev libmsgpack-dev libcmocka-dev python3 python3-msgpack valgrind"
missing=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "== installing:$missing"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

jobs=$(nproc)
echo "== build (release) in build-test"
rm -rf build-test
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-test -j"$jobs"
echo "== tests (release)"
(cd build-test && ctest --output-on-failure -j"$jobs")

echo "== valgrind (memcheck) on the core unit tests"
export SUDOKU_DATA="$root/../shared/data" SUDOKU_REGLIB="$root/../shared/reglib" \
  SUDOKU_BUILD="$root/build-test" SUDOKU_CONF="$root/build-test/etc/sudokud/sudokud.conf"
for t in test_format test_config test_engine test_wire; do
  valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
    "build-test/bin/$t" >/dev/null
  echo "valgrind $t: clean"
done

if [ "${SUDOKU_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== build (ASan+UBSan) in build-asan"
  rm -rf build-asan
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSUDOKU_SANITIZE=ON -DSUDOKU_BENCH=OFF \
    -DSUDOKU_SOUNDNESS_PUZZLES=150 >/dev/null
  cmake --build build-asan -j"$jobs"
  echo "== tests (ASan+UBSan)"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j"$jobs")
fi
echo "== all tests passed"
