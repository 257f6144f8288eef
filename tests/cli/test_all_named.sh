#!/usr/bin/env bash
# test_all_named.sh - `otvar instance --all-named` never loses an instance: a font whose named
# instances have colliding subfamily names ("Bold" three times, "Bold-3" and "Bold-2" literally,
# "bold" differing only in case) gives one distinct file per instance, each byte-identical to
# `instance --named I`, in every one of 100 runs with -j 4 --force; an instance that cannot be
# written is named on stderr, the others are still written, exit 1, and "wrote N" is true.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts).
set -u
OTVAR=${OTVAR:-build/otvar}
FONTS=${OTV_FONTS:-tests/fonts}
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/lib.sh"

F=$TMP/Clash.ttf
# Old numbering (`NAME-<index>`, not checked again) put instance 3 ("Bold" -> "Bold-3") on
# instance 2's literal "Bold-3": one file for two instances.
"$PY" - "$FONTS/Roboto-Variable.ABC.ttf" "$F" <<'EOF' || { echo "cannot make the test font"; exit 1; }
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
names = {0: "Bold", 1: "Bold", 2: "Bold-3", 3: "Bold", 4: "bold", 5: "Bold-2"}
for i, s in names.items():
    f["fvar"].instances[i].subfamilyNameID = f["name"].addName(s)
f.save(sys.argv[2])
EOF
n=$("$OTVAR" info "$F" --json | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)["named_instances"]))' 2>/dev/null)
[ -n "$n" ] || n=18

# the reference: each instance on its own, by index
mkdir -p "$TMP/ref"
for ((i = 0; i < n; i++)); do "$OTVAR" instance "$F" --named $i -o "$TMP/ref/$i.ttf" -q || bad "--named $i failed"; done
(cd "$TMP/ref" && md5sum -- *.ttf | cut -d' ' -f1 | sort) >"$TMP/ref.sums"
distinct=$(sort -u "$TMP/ref.sums" | wc -l)
if [ "$distinct" -eq "$n" ]; then ok; else bad "the $n instances are not distinct fonts ($distinct)"; fi

runs_bad=0
for run in $(seq 1 100); do
  "$OTVAR" instance "$F" --all-named -d "$TMP/all" -j 4 --force >"$TMP/out" 2>"$TMP/err"
  rc=$?
  files=$(find "$TMP/all" -type f | wc -l)
  (cd "$TMP/all" && md5sum -- * | cut -d' ' -f1 | sort) >"$TMP/got.sums"
  why=""
  [ "$rc" -eq 0 ] || why="exit $rc ($(head -c 200 "$TMP/err"))"
  [ "$files" -eq "$n" ] || why="$why; $files files, want $n"
  cmp -s "$TMP/got.sums" "$TMP/ref.sums" || why="$why; files differ from the --named outputs"
  grep -q "^wrote $n instances" "$TMP/out" || why="$why; stdout: $(cat "$TMP/out")"
  if [ -n "$why" ]; then
    runs_bad=$((runs_bad + 1))
    bad "run $run: $why"
    [ "$runs_bad" -lt 3 ] || break
  else ok; fi
done
# every file loads
loads=0
for f in "$TMP/all"/*; do "$OTVAR" info "$f" >/dev/null 2>&1 && loads=$((loads + 1)); done
if [ "$loads" -eq "$n" ]; then ok; else bad "$loads of $n files load"; fi
# the names: distinct even ignoring case, numbered from 2
for want in Clash-Bold.ttf Clash-Bold-2.ttf Clash-Bold-3.ttf Clash-Bold-2-2.ttf Clash-Bold-4.ttf Clash-bold-5.ttf; do
  if [ -f "$TMP/all/$want" ]; then ok; else bad "no $want: $(ls "$TMP/all" | tr '\n' ' ')"; fi
done
if [ "$(ls "$TMP/all" | tr 'A-Z' 'a-z' | sort -u | wc -l)" -eq "$n" ]; then ok; else bad "names collide ignoring case"; fi

# one instance that cannot be written (its target is a directory): named on stderr, the others
# written, exit 1, the count true
rm -rf "$TMP/part"
mkdir -p "$TMP/part/Clash-Bold-3.ttf"
expect 1 "--all-named with one target blocked" -- "$OTVAR" instance "$F" --all-named -d "$TMP/part" -j 4 --force
err_has "blocked instance named" "named instance 2 'Bold-3' not written"
has "count of the files written" "^wrote $((n - 1)) of $n instances"
files=$(find "$TMP/part" -type f | wc -l)
if [ "$files" -eq $((n - 1)) ]; then ok; else bad "blocked run left $files files, want $((n - 1))"; fi
# without --force: every existing file is refused, each instance named, exit 1
expect 1 "--all-named over existing files" -- "$OTVAR" instance "$F" --all-named -d "$TMP/all" -q
if [ "$(grep -c 'not written' "$TMP/err")" -eq "$n" ]; then ok; else bad "not every refused instance named: $(head -3 "$TMP/err")"; fi
cmp -s <(cd "$TMP/all" && md5sum -- * | cut -d' ' -f1 | sort) "$TMP/ref.sums" && ok || bad "refused run changed the files"

cli_summary test_all_named.sh
