#!/bin/sh
# check-error-codes.sh - every error code of include/sudoku/error.h is listed
# in docs/PROTOCOL.md's table, and no C file makes or reads an error with a
# code spelt as a string literal instead of its SDK_E_* name.
# Usage: tests/check-error-codes.sh [SOURCE_DIR]
src=${1:-$(dirname "$0")/..}
codes=$(sed -n 's/^#define SDK_E_[A-Z_]* "\([a-z-]*\)".*/\1/p' "$src/include/sudoku/error.h")
[ -n "$codes" ] || { echo "no codes found in error.h"; exit 1; }
bad=0
for c in $codes; do
  if ! grep -q "^| \`$c\` |" "$src/docs/PROTOCOL.md"; then
    echo "docs/PROTOCOL.md: error code '$c' is not in the table"
    bad=1
  fi
  # a code as a C string literal where an error is made or read (a line
  # naming an error or a code, not a comment), outside error.h; tests may
  # spell them
  hits=$(grep -rn --include='*.c' --include='*.h' "\"$c\"" "$src/lib" "$src/daemon" \
    "$src/client" "$src/plugins" "$src/include" | grep -v 'include/sudoku/error.h' |
    grep -v ':[0-9]*:[[:space:]]*\(/\*\|\*\)' | grep -i ':[0-9]*:.*\(error\|code\)')
  if [ -n "$hits" ]; then
    echo "'$c' spelt as a literal (use its SDK_E_ name):"
    echo "$hits"
    bad=1
  fi
done
[ $bad = 0 ] && echo "$(echo $codes | wc -w) error codes: all in PROTOCOL.md, none spelt as literals"
exit $bad
