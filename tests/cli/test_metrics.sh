#!/usr/bin/env bash
# test_metrics.sh - `otvar metrics` and `otvar info --metrics`: exit codes, one-line errors,
# output shape and number format (at most 3 decimals, no trailing zeros), and values against
# static instances made by fontTools / hb-subset (tests/fonts/instances): the rounded advances
# of the VF at the instance's location must equal the instance's hmtx/vmtx, and font-wide
# values must equal its OS/2 fields (read with fontTools: sxHeight 528, yStrikeoutPosition 317).
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts).
set -u
OTVAR=${OTVAR:-build/otvar}
FONTS=${OTV_FONTS:-tests/fonts}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
checks=0
ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }
expect() {
  local want=$1 desc=$2
  shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  if [ "$rc" -eq "$want" ]; then ok; else bad "$desc: exit $rc, expected $want ($(head -c 300 "$TMP/err"))"; fi
}
one_line_err() {
  if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q '^otvar: ' "$TMP/err"; then ok; else bad "$1: stderr: $(cat "$TMP/err")"; fi
}

expect 0 "help" -- "$OTVAR" metrics --help
grep -q '^usage: otvar metrics' "$TMP/out" && ok || bad "help text"
expect 2 "no font" -- "$OTVAR" metrics
one_line_err "no font"
expect 2 "bad option" -- "$OTVAR" metrics "$FONTS/Muli-ABC.ttf" --bogus
one_line_err "bad option"
expect 1 "missing file" -- "$OTVAR" metrics "$TMP/none.ttf"
one_line_err "missing file"
expect 2 "bad glyphs" -- "$OTVAR" metrics "$FONTS/Muli-ABC.ttf" --glyphs 99999
one_line_err "bad glyphs"
expect 2 "axis out of range" -- "$OTVAR" metrics "$FONTS/Muli-ABC.ttf" --var wght=5000
expect 1 "no vertical metrics" -- "$OTVAR" metrics "$FONTS/Muli-ABC.ttf" --vertical
one_line_err "no vertical metrics"

# shape and number format
expect 0 "horizontal" -- "$OTVAR" metrics "$FONTS/Roboto-Variable.ABC.ttf" --var wght=345,wdth=87
awk 'NF != 4 { exit 1 }' "$TMP/out" && ok || bad "horizontal lines have 4 fields"
[ "$(wc -l <"$TMP/out")" -eq 8 ] && ok || bad "one line per glyph (8 glyphs)"
grep -Eq '\.[0-9]*0( |$)|\.[0-9]{4}|\.( |$)|-0( |$)' "$TMP/out" && bad "number format: $(head -3 "$TMP/out")" || ok
expect 0 "vertical" -- "$OTVAR" metrics "$FONTS/SourceSerifVariable-Roman-VVAR.abc.ttf" --vertical --named 1
awk 'NF != 5 { exit 1 }' "$TMP/out" && ok || bad "vertical lines have 5 fields"

# advances vs static instances (rounded, as instancers store them)
inst() {
  local vf=$1 instance=$2 var=$3 extra=${4:-}
  expect 0 "$instance" -- "$OTVAR" metrics "$FONTS/$vf" --var "$var" --round $extra
  cut -d' ' -f1,2 "$TMP/out" >"$TMP/a"
  expect 0 "$instance itself" -- "$OTVAR" metrics "$FONTS/instances/$instance" --round $extra
  cut -d' ' -f1,2 "$TMP/out" >"$TMP/b"
  if [ -s "$TMP/a" ] && cmp -s "$TMP/a" "$TMP/b"; then ok; else bad "$instance: advances differ: $(diff "$TMP/a" "$TMP/b" | head -5)"; fi
}
inst PartialInstancerTest2-VF.ttf PartialInstancerTest2-VF.fonttools-instance.wght400-wdth100.ttf wght=400,wdth=100
inst PartialInstancerTest2-VF.ttf PartialInstancerTest2-VF.fonttools-instance.wght100-wdth62.5.ttf wght=100,wdth=62.5
inst PartialInstancerTest2-VF.ttf PartialInstancerTest2-VF.fonttools-instance.wght900-wdth100.ttf wght=900,wdth=100
inst CFF2Instancer-VF-1.otf CFF2Instancer-VF-1.fonttools-instance.wght400.otf wght=400
inst CFF2Instancer-VF-1.otf CFF2Instancer-VF-1.fonttools-instance.wght400.otf wght=400 --vertical
inst Muli-ABC.ttf Muli-ABC.hb-instance.wght300.ttf wght=300

# info --metrics: text and JSON
expect 0 "info --metrics" -- "$OTVAR" info "$FONTS/NotoSans-VF.abc.ttf" --var wght=150,wdth=80,CTGR=0 --metrics
x=$(awk '$1 == "xhgt" { printf "%d", $2 + 0.5 }' "$TMP/out")
s=$(awk '$1 == "stro" { printf "%d", $2 + 0.5 }' "$TMP/out")
[ "$x" = 528 ] && ok || bad "xhgt at wght=150,wdth=80: '$x', expected 528"
[ "$s" = 317 ] && ok || bad "stro at wght=150,wdth=80: '$s', expected 317"
grep -q '^  gsp' "$TMP/out" && bad "NotoSans has no gasp" || ok
expect 0 "info --metrics --json" -- "$OTVAR" info "$FONTS/NotoSans-VF.abc.ttf" --var wght=900 --metrics --json
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d["metrics"]; assert "xhgt" in m and "hasc" in m, m' "$TMP/out" && ok || bad "JSON metrics"
fi
expect 0 "gasp tags" -- "$OTVAR" info "$FONTS/Muli-ABC.ttf" --metrics
grep -q '^  gsp0 ' "$TMP/out" && ok || bad "gsp0 from gasp"

echo "test_metrics.sh: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
