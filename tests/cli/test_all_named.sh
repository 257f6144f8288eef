#!/usr/bin/env bash
# test_all_named.sh - `otvar instance --all-named` never loses an instance: a font whose named
# instances have colliding subfamily names ("Bold" three times, "Bold-3" and "Bold-2" literally,
# "bold" differing only in case) gives one distinct file per instance, each byte-identical to
# a sequential run (itself `instance --named I --update-names` where STAT names I), in every one of 100 runs with -j 4 --force; an instance that cannot be
# written is named on stderr, the others are still written, exit 1, and "wrote N" is true.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup
PY=/usr/bin/python3

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

# the reference: one sequential run; each instance STAT can name is byte-identical to
# `--named I --update-names` (the others are named after their instance: checked below)
mkdir -p "$TMP/ref" "$TMP/one"
"$OTVAR" instance "$F" --all-named -d "$TMP/ref" -j 1 -q || bad "sequential --all-named failed"
(cd "$TMP/ref" && md5sum -- *.ttf | cut -d' ' -f1 | sort) >"$TMP/ref.sums"
named_ok=0
for ((i = 0; i < n; i++)); do
  "$OTVAR" instance "$F" --named $i --update-names -o "$TMP/one/$i.ttf" -q 2>/dev/null || continue
  named_ok=$((named_ok + 1))
  grep -qx "$(md5sum <"$TMP/one/$i.ttf" | cut -d' ' -f1)" "$TMP/ref.sums" || bad "instance $i differs from --named $i --update-names"
done
[ "$named_ok" -ge $((n - 2)) ] && ok || bad "only $named_ok instances named from STAT"
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

# distinct internal names: every file's full and PostScript names differ (installed side by side
# they are different fonts), from STAT, and from the named instances when the font has no STAT
# (names in the R/I/B/BI model: "Bold" keeps the family, "SemiBold" joins it)
"$PY" - "$FONTS/Roboto-Variable.ABC.ttf" "$TMP/NoStat.ttf" <<'EOF2' || bad "cannot make the font without STAT"
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
del f["STAT"]
f.save(sys.argv[2])
EOF2
for src in "$FONTS/Roboto-Variable.ABC.ttf" "$TMP/NoStat.ttf"; do
  rm -rf "$TMP/names"
  "$OTVAR" instance "$src" --all-named -d "$TMP/names" -q || bad "--all-named $(basename "$src") failed"
  "$PY" - "$TMP/names" <<'EOF2' && ok || bad "$(basename "$src"): internal names not distinct or not as the instances'"
import os, sys
from fontTools.ttLib import TTFont
d = sys.argv[1]
full, ps = set(), set()
files = sorted(os.listdir(d))
for fn in files:
    n = TTFont(os.path.join(d, fn))["name"]
    full.add(n.getDebugName(4)), ps.add(n.getDebugName(6))
    style = fn.rsplit("-", 1)[1][:-4]  # the file's style, from the instance name
    if not n.getDebugName(6).startswith("Roboto-"):
        sys.exit("%s: PostScript name %s" % (fn, n.getDebugName(6)))
    if style == "Bold" and (n.getDebugName(1), n.getDebugName(2)) != ("Roboto", "Bold"):
        sys.exit("%s: %s / %s" % (fn, n.getDebugName(1), n.getDebugName(2)))
    if style == "SemiBold" and (n.getDebugName(1), n.getDebugName(2), n.getDebugName(17)) != (
            "Roboto SemiBold", "Regular", "SemiBold"):
        sys.exit("%s: %s / %s / %s" % (fn, n.getDebugName(1), n.getDebugName(2), n.getDebugName(17)))
sys.exit(0 if len(full) == len(files) == len(ps) else "duplicates: %d files, %d full names" % (len(files), len(full)))
EOF2
done
# --update-names stays STAT's only (as fontTools'): without STAT, a clear error
expect 1 "--update-names without STAT" -- "$OTVAR" instance "$TMP/NoStat.ttf" --named 0 --update-names -o "$TMP/x.ttf"

cli_summary test_all_named.sh
