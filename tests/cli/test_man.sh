#!/usr/bin/env bash
# test_man.sh - the manual pages say what the program and the library are: man/otvar.1 is what
# scripts/gen-man.py makes from the built CLI's help texts (regenerate it when a help text
# changes), man/otvar.3 names only functions the public headers declare and has the library's
# version, and both render without groff warnings.
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OTVAR=${OTVAR:?OTVAR must name the otvar binary}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$ROOT/tests/cli/lib.sh"

if /usr/bin/python3 "$ROOT/scripts/gen-man.py" "$OTVAR" "$TMP/otvar.1"; then ok; else bad "gen-man.py failed"; fi
if cmp -s "$TMP/otvar.1" "$ROOT/man/otvar.1"; then ok; else
  bad "man/otvar.1 is stale: run scripts/gen-man.py $OTVAR man/otvar.1 ($(diff "$ROOT/man/otvar.1" "$TMP/otvar.1" | head -5 | tr '\n' ' '))"
fi
# every subcommand has a section
for cmd in $("$OTVAR" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
  if grep -q "^\.SS otvar $cmd\$" "$ROOT/man/otvar.1"; then ok; else bad "otvar.1 lacks otvar $cmd"; fi
done
# otvar.3: each function it names is declared OTV_API in a public header
for f in $(grep -o 'otv_[a-z0-9_]* ()' "$ROOT/man/otvar.3" | tr -d ' ()' | sort -u); do
  if grep -q "OTV_API [^;(]*\b$f(" "$ROOT/include/otvar.h" "$ROOT/include/otvar_woff.h"; then ok; else
    bad "otvar.3 names $f, which no public header declares"
  fi
done
version=$("$OTVAR" --version | head -1 | awk '{print $2}')
if grep -q "^\.TH OTVAR 3 .*\"otvar $version\"" "$ROOT/man/otvar.3"; then ok; else bad "otvar.3 is not of version $version"; fi
if command -v groff >/dev/null; then
  for p in otvar.1 otvar.3; do
    groff -man -ww -z "$ROOT/man/$p" 2>"$TMP/warn"
    if [ ! -s "$TMP/warn" ]; then ok; else bad "groff warns on $p: $(head -3 "$TMP/warn")"; fi
  done
fi
cli_summary test_man.sh
