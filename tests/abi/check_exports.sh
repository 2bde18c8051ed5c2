#!/bin/sh
# check_exports.sh LIB LIST HEADER_DIR - libsudoku.so exports exactly the
# documented API: `nm -D --defined-only LIB` must list the symbols of LIST
# (one per line, # comments) and nothing else, and every function or table
# the installed headers in HEADER_DIR mark SDK_API must be in LIST.
set -eu
lib=$1 list=$2 headers=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# (names starting with '_' are the toolchain's: linker, sanitizers)
nm -D --defined-only "$lib" | awk '{print $NF}' | grep -v '^_' | sort -u > "$tmp/exported"
grep -v '^#' "$list" | grep . | sort -u > "$tmp/documented"
# names declared SDK_API: the identifier before the first '(' or '['
grep -h '^SDK_API' "$headers"/*.h | sed -E 's/\(.*//; s/\[.*//; s/.*[ *]//' | sort -u > "$tmp/declared"
status=0
if ! cmp -s "$tmp/exported" "$tmp/documented"; then
    echo "libsudoku.so exports differ from $list (< exported only, > listed only):"
    diff "$tmp/exported" "$tmp/documented" | grep '^[<>]' || true
    status=1
fi
if ! cmp -s "$tmp/declared" "$tmp/documented"; then
    echo "SDK_API declarations in $headers differ from $list (< declared only, > listed only):"
    diff "$tmp/declared" "$tmp/documented" | grep '^[<>]' || true
    status=1
fi
[ $status = 0 ] && echo "libsudoku.so exports the $(wc -l < "$tmp/exported") documented symbols, no more"
exit $status
