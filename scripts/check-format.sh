#!/usr/bin/env bash
# check-format.sh - every C file in the .clang-format scope (src/, include/, tools/, tests/,
# fuzz/, bench/) is formatted as clang-format 14 (Debian 12's, the one the tree was formatted
# with) formats it. Exit 0: all formatted; 1: a file is not (its name and the diff are printed;
# fix with: clang-format -i FILE); 77: no clang-format 14 here (other versions format some
# constructs differently, so they are not asked).
# usage: scripts/check-format.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
cf=""
for c in clang-format-14 clang-format; do
  if command -v "$c" >/dev/null && "$c" --version | grep -q 'version 14\.'; then cf=$c; break; fi
done
if [ -z "$cf" ]; then echo "check-format: no clang-format 14, skipped"; exit 77; fi
files=$(find src include tools tests fuzz bench -name '*.[ch]' -not -path '*/generated/*' | sort)
bad=0
for f in $files; do
  if ! out=$("$cf" "$f" | diff -u "$f" - 2>&1); then
    echo "check-format: $f is not formatted (clang-format -i $f):"
    echo "$out" | head -20
    bad=1
  fi
done
[ $bad = 0 ] && echo "check-format: $(echo "$files" | wc -l) files formatted"
exit $bad
