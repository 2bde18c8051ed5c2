#!/usr/bin/env bash
# smoke-test.sh - the Debian packages on this machine, end to end: build them
# (packaging/build-debs.sh, lintian without errors), install them with apt,
# start the installed /usr/bin/sudokud (its default config
# /etc/sudokud/sudokud.conf, the plugins from /usr/lib/...), rate a small file
# with the installed sudoctl and sudoctl-parallel, use the installed Python
# module, build the SDK's example plugin (examples/line-singles) against the
# installed libsudoku-dev (pkg-config) and run it in the installed daemon,
# purge the packages and check that none of their files is left.
#
#   packaging/smoke-test.sh [BUILD_DIR]       (default: build-deb)
#
# Exit status 0: passed; 77: skipped (not root, no dpkg/apt, or a sudokud
# from elsewhere is installed: this test does not replace it); else failed.
# It never leaves its packages installed (a trap purges them), and holds a
# lock so that two runs on one machine take turns.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$src/build-deb}
mkdir -p "$out" && out=$(cd "$out" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root (installing packages needs root)"
command -v dpkg >/dev/null && command -v apt-get >/dev/null || skip "no dpkg/apt-get"
packages="sudokud sudokud-plugins libsudoku-dev python3-sudokud"
for f in /usr/bin/sudokud /usr/bin/sudoctl; do
  if [ -e "$f" ] && ! dpkg -S "$f" >/dev/null 2>&1; then
    skip "$f exists and belongs to no package: not replacing it"
  fi
done

exec 9>/var/lock/sudokud-smoke-test.lock
flock 9
tmp=$(mktemp -d /tmp/sudokud-smoke.XXXXXX)
daemon_pid=""
cleanup() {
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
  installed=""
  for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 && installed="$installed $p"; done
  [ -z "$installed" ] || dpkg -P $installed >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== build the packages, lintian"
debs=$("$src/packaging/build-debs.sh" "$out" 2>"$tmp/lintian.txt") || { cat "$tmp/lintian.txt" >&2; fail "build-debs.sh"; }
echo "lintian warnings: $(grep -c "^W: " "$tmp/lintian.txt" || true)"
grep "^E: " "$tmp/lintian.txt" && fail "lintian errors"
[ "$(echo "$debs" | wc -l)" = 5 ] || fail "expected 5 packages, got: $debs"
libpkg=$(for d in $debs; do dpkg-deb -f "$d" Package; done | grep '^libsudoku[0-9]') || fail "no library package"
packages="$packages $libpkg"

echo "== install"
# a leftover of an interrupted run first
for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 && dpkg -P "$p" >/dev/null; done
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  -o DPkg::Lock::Timeout=300 $debs >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get install"; }
for p in $packages; do
  dpkg -s "$p" | grep -q "^Status: install ok installed" || fail "$p is not installed"
  dpkg -L "$p" >>"$tmp/files"
done
[ "$(dpkg -L sudokud | grep -c '^/etc/sudokud/sudokud.conf$')" = 1 ] || fail "no config"
grep -qx /etc/sudokud/sudokud.conf /var/lib/dpkg/info/sudokud.conffiles || fail "config not a conffile"

echo "== run the installed sudokud and sudoctl"
head -5 "$src/../shared/data/top1465.txt" >"$tmp/five.txt" 2>/dev/null ||
  printf '%s\n' 4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........ \
    ..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.. >"$tmp/five.txt"
n=$(grep -c . "$tmp/five.txt")
/usr/bin/sudokud --version >/dev/null || fail "sudokud --version"
/usr/bin/sudokud --foreground --socket "$tmp/s.sock" --workers 2 >"$tmp/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do [ -S "$tmp/s.sock" ] && break; sleep 0.1; done
[ -S "$tmp/s.sock" ] || { cat "$tmp/daemon.log" >&2; fail "the installed sudokud did not open its socket"; }
sudoctl="/usr/bin/sudoctl --socket $tmp/s.sock --no-autostart"
$sudoctl status | grep -q "^config: /etc/sudokud/sudokud.conf" || fail "not the installed config"
$sudoctl rate --no-progress -f "$tmp/five.txt" >"$tmp/rate.txt" || { cat "$tmp/rate.txt" >&2; fail "sudoctl rate"; }
[ "$(grep -cE '  [0-9]+\.[0-9]/[0-9]+\.[0-9]/[0-9]+\.[0-9]  ' "$tmp/rate.txt")" = "$n" ] ||
  { cat "$tmp/rate.txt" >&2; fail "not $n ratings"; }
echo "sudoctl rate -f: $n puzzles rated"
$sudoctl --json techniques | grep -q "/usr/lib/.*/sudokud/plugins/singles.so" || fail "plugins not from /usr/lib"

echo "== the installed Python module"
(cd / && /usr/bin/python3 -I -c "
import sys, sudokud
assert sudokud.__file__.startswith('/usr/lib/python3/dist-packages/sudokud/'), sudokud.__file__
with sudokud.Client('$tmp/s.sock') as c:
    rs = list(c.rate(open('$tmp/five.txt')))
    assert len(rs) == $n and all(r['er'] > 0 for r in rs), rs
print('python: %d puzzles rated through %s' % (len(rs), sudokud.__file__))
") || fail "python module"

echo "== a plugin built against the installed SDK (examples/line-singles), in the installed daemon"
cp -r "$src/examples/line-singles" "$tmp/plugin"
make -s -C "$tmp/plugin" CFLAGS="-O2 -Wall -Wextra -Werror" >"$tmp/make.log" 2>&1 ||
  { cat "$tmp/make.log" >&2; fail "examples/line-singles does not build with pkg-config sudoku"; }
plugindir=$(pkg-config --variable=plugindir sudoku)
[ -e "$plugindir/singles.so" ] || fail "pkg-config's plugindir $plugindir holds no plugins"
# the installed config, its plugin_dir made absolute, the plugin and a profile added
sed -e "s|^plugin_dir = .*|plugin_dir = $plugindir\nplugin = $tmp/plugin/line_singles.so|" \
  /etc/sudokud/sudokud.conf >"$tmp/lines.conf"
printf '\n[profile lines]\nexample-row-single =\nexample-column-single =\nbifurcation =\n' >>"$tmp/lines.conf"
/usr/bin/sudokud --foreground --socket "$tmp/p.sock" --config "$tmp/lines.conf" --workers 1 \
  >"$tmp/daemon2.log" 2>&1 &
plugin_daemon=$!
for _ in $(seq 100); do [ -S "$tmp/p.sock" ] && break; sleep 0.1; done
out=$(/usr/bin/sudoctl --socket "$tmp/p.sock" --no-autostart --json --profile lines explain \
  ..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..) ||
  { cat "$tmp/daemon2.log" >&2; kill "$plugin_daemon"; fail "explain with the plugin"; }
kill "$plugin_daemon"
wait "$plugin_daemon" || true
echo "$out" | grep -q '"technique":"example-row-single"' || fail "the plugin's technique not used"
echo "the SDK example plugin builds against libsudoku-dev and runs in the installed sudokud"

if command -v parallel >/dev/null; then
  /usr/bin/sudoctl-parallel -q --hosts "local:$tmp/s.sock" --block 2 -- rate <"$tmp/five.txt" >"$tmp/par.txt" ||
    fail "sudoctl-parallel"
  $sudoctl rate <"$tmp/five.txt" | cmp -s - "$tmp/par.txt" || fail "sudoctl-parallel output differs"
  echo "sudoctl-parallel: the same $n ratings"
fi

kill "$daemon_pid"
wait "$daemon_pid" || true
daemon_pid=""

echo "== remove"
leftover() { # the packages' files still there
  local f left=""
  while read -r f; do
    [ -e "$f" ] || continue
    # a folder still holding other packages' files (/usr/bin, /lib/systemd/user)
    [ -d "$f" ] && [ -n "$(ls -A "$f" | grep -v '^sudokud.conf$')" ] && continue
    # an empty folder another package owns (fish's vendor_completions.d)
    if [ -d "$f" ]; then
      others=$(dpkg -S "$f" 2>/dev/null | sed 's/: .*//' | tr ', ' '\n\n' | grep . |
        grep -v -x -e sudokud -e sudokud-plugins -e libsudoku-dev -e python3-sudokud \
          -e libsudoku2 || true)
      [ -n "$others" ] && continue
    fi
    left="$left $f"
  done <"$tmp/files"
  echo "$left"
}
dpkg -r $packages >/dev/null || fail "dpkg -r"
left=$(leftover)
[ "$left" = " /etc/sudokud /etc/sudokud/sudokud.conf" ] ||
  fail "after dpkg -r, not only the conffile is left:$left"
dpkg -P $packages >/dev/null 2>&1 || fail "dpkg -P" # -r left sudokud's conffile
left=$(leftover)
[ -z "$left" ] || fail "left after purge:$left"
echo "dpkg -r left only /etc/sudokud/sudokud.conf; dpkg -P left nothing"
echo "== packages built, lintian-clean, installed, run, removed: PASS"
