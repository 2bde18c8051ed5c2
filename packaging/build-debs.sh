#!/usr/bin/env bash
# build-debs.sh - the Debian packages of sudokud: configure a build tree with
# the Debian layout (prefix /usr, config in /etc/sudokud, systemd units in
# /lib/systemd, no RPATH, Python module in /usr/lib/python3/dist-packages),
# build what is installed, `cpack -G DEB`, then `lintian` on the result.
#
#   packaging/build-debs.sh [BUILD_DIR]      (default: build-deb)
#
# Prints the paths of the .deb files last. Exit status: 0 when the packages
# are built and lintian reports no error (warnings are shown, not fatal).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$src/build-deb}
mkdir -p "$out" && out=$(cd "$out" && pwd) # absolute: the steps below cd into it
jobs=${SUDOKU_JOBS:-$(nproc)}
cmake -S "$src" -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_INSTALL_SYSCONFDIR=/etc \
  -DSUDOKU_SYSTEMD_DIR=/lib/systemd -DCMAKE_SKIP_INSTALL_RPATH=ON -DSUDOKU_DEB=ON \
  -DSUDOKU_TESTS=OFF -DSUDOKU_BENCH=OFF >/dev/null
cmake --build "$out" -j"$jobs" >/dev/null
rm -f "$out"/*.deb
# CPack warns that plugins have no soname (they are modules): kept in a log
if ! (cd "$out" && cpack -G DEB >"$out/cpack.log" 2>&1); then
  cat "$out/cpack.log" >&2
  exit 1
fi
debs=$(ls "$out"/*.deb)
# every installed file is in some package (an install rule in a component
# the packages do not list would be lost silently)
rm -rf "$out/stage"
DESTDIR="$out/stage" cmake --install "$out" >/dev/null
(cd "$out/stage" && find . ! -type d | sed 's|^\./|/|' | sort) >"$out/installed.txt"
for d in $debs; do dpkg-deb -c "$d"; done | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' |
  sort >"$out/packaged.txt"
if ! cmp -s "$out/installed.txt" "$out/packaged.txt"; then
  echo "build-debs: installed files and packaged files differ (< installed only, > packaged only):" >&2
  diff "$out/installed.txt" "$out/packaged.txt" >&2
  exit 1
fi
rm -rf "$out/stage"
if command -v lintian >/dev/null; then
  # errors fail; everything lintian says is shown
  lintian --fail-on error --no-tag-display-limit $debs >&2
else
  echo "build-debs: lintian is not installed (apt-get install lintian): not checked" >&2
fi
echo "$debs"
