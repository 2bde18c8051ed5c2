#!/bin/sh
# check-format.sh - every C file of the tree against .clang-format, and the
# one layout of technique descriptors (an initializer that ends with a comma,
# so that clang-format keeps one field per line; see .clang-format).
#
# Usage: tests/check-format.sh [--fix] [FILE...]
#   no FILE: every *.c and *.h git knows of. --fix rewrites the files
#   instead of reporting them (adds the descriptors' commas, then
#   clang-format -i). Exit status 1 when a file is not formatted.
# Env: CLANG_FORMAT (default clang-format-14, else clang-format): the layout
#   depends on the version, and the tree is formatted with 14.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fix=0
if [ "${1:-}" = --fix ]; then
  fix=1
  shift
fi
cf=${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}
if [ -z "$cf" ]; then
  echo "check-format: no clang-format (apt-get install clang-format)" >&2
  exit 2
fi
if [ $# -eq 0 ]; then
  set -- $(git ls-files '*.c' '*.h')
fi

# A technique descriptor whose initializer does not end with a comma: print
# file:line.
descriptors() {
  perl -0777 -ne '
    while (/\bsdk_technique\s+(\w+)\s*=\s*(\{((?:[^{}]++|\{(?3)\})*)\})\s*;/g) {
      next if $3 =~ /,\s*$/ || $3 =~ /\\\n/; # inside a macro: as it is
      my $line = 1 + (substr($_, 0, $-[0]) =~ tr/\n//);
      print "$ARGV:$line: descriptor $1 does not end with a comma\n";
    }' "$1"
}

bad=0
for f in "$@"; do
  [ -f "$f" ] || continue
  if [ $fix = 1 ]; then
    perl -0777 -i -pe \
      's/(\bsdk_technique\s+\w+\s*=\s*\{((?:[^{}]++|\{(?2)\})*?))(\s*)\}\s*;/my ($a, $b, $s) = ($1, $2, $3); $b =~ m{,\s*\z} || $b =~ m{\\\n} ? "$a$s};" : "$a,$s};"/ge' "$f"
    "$cf" -i "$f"
    continue
  fi
  out=$(descriptors "$f")
  if [ -n "$out" ]; then
    echo "$out"
    bad=1
  fi
  if ! "$cf" "$f" | cmp -s "$f" -; then
    echo "$f: not formatted ($cf: run tests/check-format.sh --fix $f)"
    bad=1
  fi
done
[ $fix = 1 ] && exit 0
[ $bad = 0 ] && echo "check-format: $# files formatted ($("$cf" --version | head -1))"
exit $bad
