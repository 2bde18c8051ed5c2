#!/usr/bin/env bash
# run-all.sh - the one test command: install what is missing (Debian packages),
# build from scratch, run every test; then the same under ASan+UBSan.
# Usage: tests/run-all.sh            (root, or a user with sudo for apt)
# Env:   SUDOKU_SKIP_SANITIZE=1 skips the sanitizer pass; SUDOKU_SKIP_CLANG=1 the
#        extra compiler/build-type builds; SUDOKU_SKIP_PACKAGES=1 the Debian
#        package test (root only: it installs and removes the packages).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

packages="build-essential clang cmake pkg-config libuv1-dev libmsgpack-dev libcmocka-dev python3 python3-msgpack valgrind clang-format chromium gettext lintian parallel groff-base zsh fish"
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
echo "== format (tests/check-format.sh: .clang-format on every C file)"
tests/check-format.sh

echo "== build (release) in build-test"
rm -rf build-test
# The soundness walk is sampled here (1,200 puzzles); tests/runners has the
# whole run (--puzzles N, --full) for benchmarks.
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSUDOKU_WERROR=ON \
  -DSUDOKU_SOUNDNESS_PUZZLES=1200 >/dev/null
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

if [ "${SUDOKU_SKIP_CLANG:-0}" != 1 ]; then
  # Both compilers, every build type a user may pick, warning-free (gcc
  # RelWithDebInfo is the test build above; its -O3 Release warns where -O2
  # does not).
  for spec in gcc:Debug gcc:Release clang:Debug clang:RelWithDebInfo clang:Release; do
    cc=${spec%%:*} type=${spec#*:}
    echo "== build ($cc $type, -Werror) in build-$cc-$type"
    rm -rf "build-$cc-$type"
    CC=$cc cmake -S . -B "build-$cc-$type" -DCMAKE_BUILD_TYPE="$type" -DSUDOKU_WERROR=ON \
      -DSUDOKU_TESTS=ON -DSUDOKU_BENCH=ON >/dev/null
    cmake --build "build-$cc-$type" -j"$jobs"
    rm -rf "build-$cc-$type"
  done
fi

if [ "${SUDOKU_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== build (ASan+UBSan) in build-asan"
  rm -rf build-asan
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSUDOKU_WERROR=ON -DSUDOKU_SANITIZE=ON -DSUDOKU_BENCH=OFF \
    -DSUDOKU_SOUNDNESS_PUZZLES=150 >/dev/null
  cmake --build build-asan -j"$jobs"
  echo "== tests (ASan+UBSan)"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j"$jobs")
fi
if [ "${SUDOKU_SKIP_PACKAGES:-0}" != 1 ]; then
  # last, so that nothing else runs while its packages are installed
  echo "== Debian packages: build, lintian, install, run, remove (packaging/smoke-test.sh)"
  rc=0
  packaging/smoke-test.sh build-deb || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 77 ] || exit "$rc"
  rm -rf build-deb
fi
echo "== all tests passed"
