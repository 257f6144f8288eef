#!/usr/bin/env bash
# test_instance.sh - `otvar instance`: every output is a valid font (OpenType Sanitizer, FreeType
# and HarfBuzz load and draw it, fontTools decompiles every table, hb-subset accepts it), the
# safe-output rules (temp + rename, no overwrite without --force, never the input, no partial
# file on error), bad inputs give one error line and a non-zero exit, --all-named with -j 2.
set -u
: "${OTVAR:?}" "${OTV_FONTS:?}"
PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
checks=0
ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }

# Validate one output font: ots-sanitize, FreeType + HarfBuzz (hb-view renders through FreeType
# funcs when asked), fontTools decompiles every table, hb-subset keeps it loadable.
validate() {
  local f=$1 what=$2 use_ots=${3:-1}
  if [ "$use_ots" = 1 ] && command -v ots-sanitize >/dev/null; then
    if ots-sanitize "$f" >"$T/ots.log" 2>&1; then ok; else bad "$what: ots-sanitize: $(head -3 "$T/ots.log" | tr '\n' ' ')"; fi
  fi
  if command -v hb-view >/dev/null; then
    if hb-view --font-funcs=ft "$f" "Hamburgefonstiv 0123" -o "$T/v.png" 2>"$T/hb.log" && [ -s "$T/v.png" ]; then ok
    else bad "$what: hb-view (FreeType) failed: $(head -2 "$T/hb.log")"; fi
    if hb-shape "$f" "AVATAR office" >/dev/null 2>"$T/hb.log"; then ok; else bad "$what: hb-shape failed"; fi
  fi
  if $PY - "$f" >"$T/tt.log" 2>&1 <<'EOF'
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
for tag in f.keys():
    if tag != "GlyphOrder":
        f[tag]  # decompile every table
from fontTools.pens.recordingPen import RecordingPen
gs = f.getGlyphSet()
for g in f.getGlyphOrder():
    gs[g].draw(RecordingPen())  # every outline decodes (glyf or CFF2 charstrings)
assert "fvar" not in f and "gvar" not in f
if "CFF2" in f:
    assert not hasattr(f["CFF2"].cff.topDictIndex[0], "VarStore") or f["CFF2"].cff.topDictIndex[0].VarStore is None
EOF
  then ok; else bad "$what: fontTools decompile: $(tail -2 "$T/tt.log" | tr '\n' ' ')"; fi
  if command -v hb-subset >/dev/null; then
    if hb-subset "$f" --text="Hamburg" -o "$T/sub.ttf" 2>"$T/sub.log" && [ -s "$T/sub.ttf" ]; then ok
    else bad "$what: hb-subset rejected it: $(head -2 "$T/sub.log")"; fi
  fi
}

# 1. named instances and a user location of every TrueType test font and the bundled Karla
for src in "$OTV_FONTS"/*.ttf ${OTV_ROOT:+"$OTV_ROOT/fonts/Karla-VF.ttf"}; do
  b=$(basename "$src" .ttf)
  "$OTVAR" tables "$src" >"$T/tables" 2>/dev/null
  grep -q '^CFF2 ' "$T/tables" && continue   # CFF2 (cantarell_vf_trimmed.ttf): see part 2
  # trimmed test fonts without OS/2 (OTS rejects their sources too): no OTS check
  use_ots=1
  grep -q '^OS/2 ' "$T/tables" || use_ots=0
  if ! "$OTVAR" instance "$src" --named 0 -o "$T/$b.ttf" -q 2>"$T/err"; then
    if grep -q "has 0\|no named" "$T/err"; then
      "$OTVAR" instance "$src" -o "$T/$b.ttf" -q 2>"$T/err" || { bad "$b: default instance failed: $(cat "$T/err")"; continue; }
    else
      bad "$b: instance failed: $(cat "$T/err")"; continue
    fi
  fi
  ok
  validate "$T/$b.ttf" "$b" $use_ots
  # and at a user location away from the named instances
  axis=$("$OTVAR" normalize "$src" 2>/dev/null | head -1 | cut -d' ' -f1)
  if [ -n "$axis" ] && "$OTVAR" instance "$src" --var "$axis=$("$PY" -c "
from fontTools.ttLib import TTFont; import sys
a = TTFont(sys.argv[1])['fvar'].axes[0]; print(round(a.minValue + 0.37 * (a.maxValue - a.minValue), 3))" "$src")" \
      -o "$T/$b.loc.ttf" -q 2>"$T/err"; then
    validate "$T/$b.loc.ttf" "$b at $axis" $use_ots
  else
    bad "$b: instance at a user location failed: $(cat "$T/err")"
  fi
done

# 2. CFF2 fonts: a static CFF2 (no VariationStore), valid everywhere
for src in "$OTV_FONTS/cantarell_vf_trimmed.ttf" "$OTV_FONTS/AdobeVFPrototype_vsindex.otf" \
           "$OTV_FONTS/NotoSansJP-VF.subset.otf" "$OTV_FONTS/CFF2Instancer-VF-1.otf" \
           ${OTV_FONT_CACHE:+"$OTV_FONT_CACHE/Cantarell-VF.otf"}; do
  [ -f "$src" ] || { echo "SKIP $src: not present"; continue; }
  b=$(basename "$src")
  if "$OTVAR" instance "$src" --named 0 -o "$T/c-$b.otf" -q 2>"$T/err"; then ok; validate "$T/c-$b.otf" "CFF2 $b"
  else bad "CFF2 $b: $(cat "$T/err")"; fi
done

# 3. bad inputs: one line on stderr, non-zero exit, no file left
R="$OTV_FONTS/Roboto-Variable.ABC.ttf"
head -c 3000 "$R" >"$T/trunc.ttf"
expect_error() { # description, expected exit code, command...
  local what=$1 want=$2
  shift 2
  "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$T/err")
  if [ "$rc" -eq "$want" ] && [ "$lines" -eq 1 ]; then ok; else bad "$what: rc=$rc (want $want), $lines stderr lines: $(cat "$T/err")"; fi
  if ls "$T"/bad.ttf* >/dev/null 2>&1; then bad "$what: left a file: $(ls "$T"/bad.ttf*)"; rm -f "$T"/bad.ttf*; else ok; fi
}
expect_error "truncated font" 1 "$OTVAR" instance "$T/trunc.ttf" -o "$T/bad.ttf"
expect_error "not a variable font" 1 "$OTVAR" instance "$T/Roboto-Variable.ABC.ttf" -o "$T/bad.ttf"
expect_error "unknown axis" 2 "$OTVAR" instance "$R" --var XXXX=3 -o "$T/bad.ttf"
expect_error "value out of range" 2 "$OTVAR" instance "$R" --var wght=5000 -o "$T/bad.ttf"
expect_error "malformed --var" 2 "$OTVAR" instance "$R" --var wght -o "$T/bad.ttf"
expect_error "unknown named instance" 2 "$OTVAR" instance "$R" --named NoSuchStyle -o "$T/bad.ttf"
expect_error "missing -o" 2 "$OTVAR" instance "$R"
expect_error "unwritable path" 1 "$OTVAR" instance "$R" -o "/nonexistent-dir/x/bad.ttf"
expect_error "missing file" 1 "$OTVAR" instance "$T/nope.ttf" -o "$T/bad.ttf"
mkdir -p "$T/a-dir" && touch "$T/a-file"
expect_error "-o a directory" 2 "$OTVAR" instance "$R" -o "$T/a-dir" --force
expect_error "--all-named -d a file" 1 "$OTVAR" instance "$R" --all-named -d "$T/a-file"

# 4. no overwrite without --force; never the input
cp "$R" "$T/in.ttf"
sum_in=$(md5sum <"$T/in.ttf")
echo keep >"$T/exists.ttf"
"$OTVAR" instance "$T/in.ttf" --var wght=700 -o "$T/exists.ttf" -q 2>"$T/err"
if [ $? -eq 2 ] && [ "$(cat "$T/exists.ttf")" = keep ]; then ok; else bad "overwrote without --force (or not exit 2)"; fi
"$OTVAR" instance "$T/in.ttf" --var wght=700 -o "$T/exists.ttf" -q --force 2>"$T/err"
if [ $? -eq 0 ] && [ "$(head -c 4 "$T/exists.ttf" | od -An -tx1 | tr -d ' ')" = 00010000 ]; then ok; else bad "--force did not write"; fi
"$OTVAR" instance "$T/in.ttf" --var wght=700 -o "$T/in.ttf" --force -q 2>"$T/err"
if [ $? -eq 2 ] && [ "$(md5sum <"$T/in.ttf")" = "$sum_in" ]; then ok; else bad "wrote over the input (or not exit 2)"; fi
ln "$T/in.ttf" "$T/in-hardlink.ttf"
"$OTVAR" instance "$T/in.ttf" --var wght=700 -o "$T/in-hardlink.ttf" --force -q 2>"$T/err"
if [ $? -eq 2 ] && [ "$(md5sum <"$T/in.ttf")" = "$sum_in" ]; then ok; else bad "wrote over the input through a hard link"; fi
if ls "$T"/*.tmp-* >/dev/null 2>&1; then bad "temp files left: $(ls "$T"/*.tmp-*)"; else ok; fi

# 4b. a face of a collection (--index): the same outlines as the standalone font's instance
$PY -c "
import sys
from fontTools.ttLib import TTFont, TTCollection
c = TTCollection()
c.fonts = [TTFont(sys.argv[1]), TTFont(sys.argv[2])]
c.save(sys.argv[3])" "$R" "$OTV_FONTS/Muli-ABC.ttf" "$T/two.ttc"
"$OTVAR" instance "$T/two.ttc" --index 1 --var wght=700 -o "$T/ttc1.ttf" -q 2>"$T/err" && ok || bad "--index 1: $(cat "$T/err")"
"$OTVAR" instance "$OTV_FONTS/Muli-ABC.ttf" --var wght=700 -o "$T/muli700.ttf" -q
if cmp -s <("$OTVAR" outline "$T/ttc1.ttf" --glyphs all) <("$OTVAR" outline "$T/muli700.ttf" --glyphs all); then ok; else bad "--index 1: outlines differ from the standalone font's instance"; fi
expect_error "--index past the collection" 1 "$OTVAR" instance "$T/two.ttc" --index 2 --var wght=700 -o "$T/bad.ttf"
expect_error "--index not a number" 2 "$OTVAR" instance "$T/two.ttc" --index x --var wght=700 -o "$T/bad.ttf"

# 5. --all-named, 2 threads: one valid file per named instance, same bytes as one by one
"$OTVAR" instance "$R" --all-named -d "$T/all" -j 2 -q 2>"$T/err"
if [ $? -eq 0 ]; then ok; else bad "--all-named failed: $(cat "$T/err")"; fi
count=$(ls "$T/all" | wc -l)
want=$($PY -c "from fontTools.ttLib import TTFont; import sys; print(len(TTFont(sys.argv[1])['fvar'].instances))" "$R")
if [ "$count" -eq "$want" ]; then ok; else bad "--all-named wrote $count files, want $want"; fi
first=$(ls "$T/all" | head -1)
validate "$T/all/$first" "all-named $first"
# --all-named names each file after its instance (from STAT where it can): as --update-names
"$OTVAR" instance "$R" --named 6 --update-names -o "$T/n6.ttf" -q
name6=$($PY -c "
from fontTools.ttLib import TTFont; import sys
f = TTFont(sys.argv[1]); i = f['fvar'].instances[6]
print(f['name'].getDebugName(i.subfamilyNameID).replace(' ', ''))" "$R")
if cmp -s "$T/n6.ttf" "$T/all/Roboto-Variable.ABC-$name6.ttf"; then ok; else bad "--all-named -j 2 output differs from --named 6 --update-names ($name6)"; fi
# a CFF2 font's instances are .otf files
C2="$OTV_FONTS/CFF2Instancer-VF-1.otf"
"$OTVAR" instance "$C2" --all-named -d "$T/allc" -j 2 -q 2>"$T/err" && ok || bad "--all-named (CFF2) failed: $(cat "$T/err")"
want=$($PY -c "from fontTools.ttLib import TTFont; import sys; print(len(TTFont(sys.argv[1])['fvar'].instances))" "$C2")
count=$(ls "$T/allc"/*.otf 2>/dev/null | wc -l)
if [ "$count" -eq "$want" ]; then ok; else bad "--all-named (CFF2) wrote $count .otf files, want $want"; fi
# rerun without --force: refuses, with --force: fine
"$OTVAR" instance "$R" --all-named -d "$T/all" -q 2>/dev/null && bad "--all-named overwrote without --force" || ok
"$OTVAR" instance "$R" --all-named -d "$T/all" -j 2 -q --force && ok || bad "--all-named --force failed"

# 6. --update-names (names from STAT, as fontTools' --update-name-table): a valid font
"$OTVAR" instance "$R" --named 6 --update-names -o "$T/names.ttf" -q 2>"$T/err" && ok || bad "--update-names failed: $(cat "$T/err")"
[ -s "$T/names.ttf" ] && validate "$T/names.ttf" "--update-names"

# 7. deterministic output
"$OTVAR" instance "$R" --var wght=333,wdth=90 -o "$T/d1.ttf" -q
"$OTVAR" instance "$R" --var wght=333,wdth=90 -o "$T/d2.ttf" -q
cmp -s "$T/d1.ttf" "$T/d2.ttf" && ok || bad "two runs differ"

echo "test_instance.sh: $checks checks, $fails failed"
[ "$fails" -eq 0 ] && [ "$checks" -gt 0 ]
