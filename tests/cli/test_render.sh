#!/usr/bin/env bash
# test_render.sh - `otvar render` and `otvar specimen`: outputs that are valid PNG/SVG of the
# expected kind, ink that follows the design space (a bolder location puts more ink on the page:
# a property of the fonts, not of our own earlier output), bad input giving a one-line error, a
# non-zero exit and no file (partial or temporary).
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts), OTV_ROOT (repository root).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup
KARLA=$ROOT/fonts/Karla-VF.ttf
PY=/usr/bin/python3
no_temp() {
  if ls "$TMP"/out-dir/*.tmp-* >/dev/null 2>&1; then bad "$1: temp file left"; else ok; fi
}

# png_info FILE: prints "W H COLORTYPE INK" where INK is the mean darkness (0..1) of the picture
# (gray: 1 - v/255; RGBA: the mean alpha), as ink.py info reads it
png_info() { "$PY" "$(dirname "$0")/ink.py" info "$1"; }

mkdir -p "$TMP/out-dir"
O=$TMP/out-dir

# ---- help ----
for cmd in render specimen; do
  expect 0 "$cmd --help" -- "$OTVAR" $cmd --help
  if grep -q "usage: otvar $cmd" "$TMP/out"; then ok; else bad "$cmd --help: no usage"; fi
done

# ---- render: PNG kinds ----
expect 0 "render Hello" -- "$OTVAR" render "$KARLA" --text Hello -o "$O/h.png"
read -r w h ct ink < <(png_info "$O/h.png")
if [ "$ct" = 0 ] && [ "$w" -gt 100 ] && [ "$h" -gt 40 ]; then ok; else bad "render Hello: $w x $h type $ct"; fi
# ink of a text line is a small fraction of the picture, never none
if "$PY" -c "import sys; sys.exit(0 if 0.03 < $ink < 0.5 else 1)"; then ok; else bad "render Hello: ink $ink"; fi
expect 0 "render colours" -- "$OTVAR" render "$KARLA" --text Hello --fg 1a4d8f --bg fff6e0 -o "$O/c.png"
read -r _ _ ct _ < <(png_info "$O/c.png")
if [ "$ct" = 6 ]; then ok; else bad "coloured render is not RGBA (type $ct)"; fi
expect 0 "render transparent" -- "$OTVAR" render "$KARLA" --text Hello --bg none -o "$O/t.png"
read -r _ _ ct tink < <(png_info "$O/t.png")
if [ "$ct" = 6 ]; then ok; else bad "transparent render is not RGBA (type $ct)"; fi
# the same coverage: alpha of the transparent picture = darkness of the gray one
if "$PY" -c "import sys; sys.exit(0 if abs($tink - $ink) < 0.002 else 1)"; then ok; else bad "alpha ink $tink != gray ink $ink"; fi

# ---- the design space: weight adds ink, monotonically ----
prev=0
for wght in 200 400 600 800; do
  expect 0 "render wght=$wght" -- "$OTVAR" render "$KARLA" --text Hamburgefonstiv --size 40 --var wght=$wght -o "$O/w$wght.png"
  read -r _ _ _ i < <(png_info "$O/w$wght.png")
  if "$PY" -c "import sys; sys.exit(0 if $i > $prev * 1.05 else 1)"; then ok; else bad "ink at wght=$wght ($i) not above the lighter one ($prev)"; fi
  prev=$i
done
expect 0 "render --named Bold" -- "$OTVAR" render "$KARLA" --text Hamburgefonstiv --size 40 --named Bold -o "$O/bold.png"
read -r _ _ _ ib < <(png_info "$O/bold.png")
read -r _ _ _ i6 < <(png_info "$O/w600.png")
read -r _ _ _ i8 < <(png_info "$O/w800.png")
if "$PY" -c "import sys; sys.exit(0 if $i6 < $ib < $i8 else 1)"; then ok; else bad "Bold (700) ink $ib not between 600 ($i6) and 800 ($i8)"; fi
# a CFF2 font renders too
expect 0 "render CFF2" -- "$OTVAR" render "$FONTS/AdobeVFPrototype_vsindex.otf" --text A --var wght=700 --size 100 -o "$O/cff2.png"
[ -s "$O/cff2.png" ] && ok || bad "render CFF2: no output"

# ---- kern format 0: a copy of Karla with one pair H,o = -300 units and no GPOS (fontTools) ----
kdiff=$("$PY" - "$KARLA" "$O/kern.ttf" 2>/dev/null <<'EOF'
import sys
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._k_e_r_n import KernTable_format_0
f = TTFont(sys.argv[1])
cmap = f.getBestCmap()
k = newTable('kern'); k.version = 0
st = KernTable_format_0(); st.version = 0; st.coverage = 1; st.format = 0
st.kernTable = {(cmap[ord('H')], cmap[ord('o')]): -300}
k.kernTables = [st]
f['kern'] = k
# HarfBuzz reads a kern table only when GPOS has no kerning: drop GPOS
if 'GPOS' in f: del f['GPOS']
f.save(sys.argv[2])
print(round(300 * 100 / f['head'].unitsPerEm))
EOF
)
if [ -n "$kdiff" ]; then
  expect 0 "render kern" -- "$OTVAR" render "$O/kern.ttf" --text Ho --size 100 -o "$O/k1.png"
  expect 0 "render no-kern" -- "$OTVAR" render "$O/kern.ttf" --text Ho --size 100 --no-kern -o "$O/k2.png"
  read -r kw1 _ < <(png_info "$O/k1.png")
  read -r kw2 _ < <(png_info "$O/k2.png")
  d=$((kw2 - kw1))
  if [ $((d - kdiff)) -le 1 ] && [ $((kdiff - d)) -le 1 ]; then ok; else bad "kern: width shrank by $d px, expected $kdiff"; fi
  # a pair the table does not list is not kerned
  expect 0 "render unkerned pair" -- "$OTVAR" render "$O/kern.ttf" --text oH --size 100 -o "$O/k3.png"
  expect 0 "render unkerned pair, no-kern" -- "$OTVAR" render "$O/kern.ttf" --text oH --size 100 --no-kern -o "$O/k4.png"
  cmp -s "$O/k3.png" "$O/k4.png" && ok || bad "kern: an unlisted pair changed the picture"
else
  echo "SKIP kern test: fontTools unavailable in $PY"
fi

# ---- SVG ----
expect 0 "render svg" -- "$OTVAR" render "$KARLA" --text "Hi" -o "$O/h.svg"
if grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$O/h.svg" && grep -q '<path fill="#000000" d="M' "$O/h.svg" &&
   grep -q '</svg>' "$O/h.svg"; then ok; else bad "svg output malformed: $(head -c 300 "$O/h.svg")"; fi

# ---- bad input: one line, non-zero, no file ----
expect 2 "unknown axis" -- "$OTVAR" render "$KARLA" --text Hi --var wdth=80 -o "$O/x1.png"
one_line_err "unknown axis"; err_has "unknown axis" "wdth"; no_file "unknown axis" "$O/x1.png"
# a character the font does not map draws as .notdef (as HarfBuzz and outline --text do): the
# picture is wider than without it, and nothing is said
expect 0 "unmapped character" -- "$OTVAR" render "$KARLA" --text "Hi 漢" -o "$O/x2.png"
# (without HarfBuzz the one line is the warning that text is not shaped)
if "$OTVAR" shape "$KARLA" --text H >/dev/null 2>&1; then empty_err "unmapped character"; fi
expect 0 "without the unmapped character" -- "$OTVAR" render "$KARLA" --text "Hi " -o "$O/x2b.png"
read -r nw1 _ < <(png_info "$O/x2.png")
read -r nw2 _ < <(png_info "$O/x2b.png")
if [ "$nw1" -gt $((nw2 + 10)) ]; then ok; else bad "unmapped character: .notdef not drawn ($nw1 vs $nw2 px)"; fi
for s in 0 100000 -5 nan abc; do
  expect 2 "size $s" -- "$OTVAR" render "$KARLA" --text Hi --size $s -o "$O/x3.png"
  one_line_err "size $s"; no_file "size $s" "$O/x3.png"
done
expect 1 "unwritable path" -- "$OTVAR" render "$KARLA" --text Hi -o "$TMP/no/such/dir/x.png"
one_line_err "unwritable path"
chmod 500 "$O"
if [ "$(id -u)" != 0 ]; then
  expect 1 "read-only dir" -- "$OTVAR" render "$KARLA" --text Hi -o "$O/ro.png"
  one_line_err "read-only dir"; no_file "read-only dir" "$O/ro.png"
fi
chmod 700 "$O"
cp "$O/h.png" "$O/keep.png"
expect 2 "existing output" -- "$OTVAR" render "$KARLA" --text Other -o "$O/h.png"
one_line_err "existing output"
cmp -s "$O/h.png" "$O/keep.png" && ok || bad "existing output was changed without --force"
expect 0 "--force" -- "$OTVAR" render "$KARLA" --text Other -o "$O/h.png" --force
cmp -s "$O/h.png" "$O/keep.png" && bad "--force did not replace the output" || ok
cp "$KARLA" "$O/in.ttf"
expect 2 "the input as output" -- "$OTVAR" render "$O/in.ttf" --text Hi -o "$O/in.ttf" --force
one_line_err "the input as output"
cmp -s "$O/in.ttf" "$KARLA" && ok || bad "render wrote over its input"
expect 2 "no text" -- "$OTVAR" render "$KARLA" -o "$O/x4.png"
one_line_err "no text"
expect 2 "empty text" -- "$OTVAR" render "$KARLA" --text "" -o "$O/x4.png"
one_line_err "empty text"; err_has "empty text" "empty"; no_file "empty text" "$O/x4.png"
expect 2 "bad colour" -- "$OTVAR" render "$KARLA" --text Hi --fg 12345 -o "$O/x5.png"
one_line_err "bad colour"; no_file "bad colour" "$O/x5.png"
expect 2 "bad named" -- "$OTVAR" render "$KARLA" --text Hi --named Nope -o "$O/x6.png"
one_line_err "bad named"
head -c 1000 /dev/urandom >"$O/junk.ttf"
expect 1 "not a font" -- "$OTVAR" render "$O/junk.ttf" --text Hi -o "$O/x7.png"
one_line_err "not a font"; no_file "not a font" "$O/x7.png"
expect 1 "specimen not a font" -- "$OTVAR" specimen "$O/junk.ttf" -o "$O/x8.png"
one_line_err "specimen not a font"; no_file "specimen not a font" "$O/x8.png"
expect 2 "specimen bad size" -- "$OTVAR" specimen "$KARLA" --size 0 -o "$O/x9.png"
one_line_err "specimen bad size"; no_file "specimen bad size" "$O/x9.png"
expect 1 "specimen unwritable path" -- "$OTVAR" specimen "$KARLA" -o "$TMP/no/such/dir/s.png"
one_line_err "specimen unwritable path"
# a write that fails after the output was opened (file size limit: write returns EFBIG once
# SIGXFSZ is ignored): exit 1, no file, no temp file
for cmd in render specimen; do
  rm -f "$O/big.png"
  (trap '' XFSZ; ulimit -f 2; "$OTVAR" $cmd "$KARLA" --text "Hello world" --size 120 -o "$O/big.png" 2>"$TMP/err")
  rc=$?
  [ $rc = 1 ] && ok || bad "$cmd: failed write: exit $rc (want 1)"
  one_line_err "$cmd: failed write"; err_has "$cmd: failed write" "File too large"
  no_file "$cmd: failed write" "$O/big.png"
  if ls "$O"/big.png.tmp-* >/dev/null 2>&1; then bad "$cmd: failed write left a temp file"; else ok; fi
done
# a glyph whose data is broken (an end point past its data): one line naming glyf, exit 1
# (H for render's "Hi"; o, which the specimen's Latin sample has, for specimen)
for ch in H o; do
$PY - "$KARLA" "$O/bad$ch.ttf" "$ch" <<'PYEOF'
import struct, sys
from fontTools.ttLib import TTFont
data = bytearray(open(sys.argv[1], "rb").read())
f = TTFont(sys.argv[1])
gid = f.getGlyphID(f.getBestCmap()[ord(sys.argv[3])])
at = f.reader.tables["glyf"].offset + f["loca"][gid]
n = struct.unpack(">h", data[at:at + 2])[0]
struct.pack_into(">H", data, at + 10 + 2 * (n - 1), 0xFFF0)
open(sys.argv[2], "wb").write(data)
PYEOF
done
expect 1 "broken glyph" -- "$OTVAR" render "$O/badH.ttf" --text Hi -o "$O/x10.png"
one_line_err "broken glyph"; err_has "broken glyph" "glyf+0x"; no_file "broken glyph" "$O/x10.png"
expect 1 "specimen broken glyph" -- "$OTVAR" specimen "$O/bado.ttf" -o "$O/x11.png"
one_line_err "specimen broken glyph"; err_has "specimen broken glyph" "glyf+0x"
no_file "specimen broken glyph" "$O/x11.png"
no_temp "after errors"

# ---- specimen ----
expect 0 "specimen Karla" -- "$OTVAR" specimen "$KARLA" -o "$O/s.png"
read -r w h ct ink < <(png_info "$O/s.png")
# Karla: 6 named instances + a 7-step wght sweep at 40 px: taller than wide, several hundred px
if [ "$ct" = 0 ] && [ "$h" -gt 400 ] && [ "$w" -gt 300 ]; then ok; else bad "specimen Karla: $w x $h type $ct"; fi
for f in Roboto-Variable.ABC.ttf AdobeVFPrototype_vsindex.otf NotoSans-VF.abc.ttf Handjet.ttf; do
  expect 0 "specimen $f" -- "$OTVAR" specimen "$FONTS/$f" -o "$O/s-$f.png"
  [ -s "$O/s-$f.png" ] && ok || bad "specimen $f: no output"
done
# a static font is one point of a design space: its specimen shows that instance, a line of
# --size 40 px text below the title and the note (these two alone are about 100 px tall)
STATIC=$FONTS/instances/Muli-ABC.hb-instance.wght300.ttf
expect 0 "specimen static" -- "$OTVAR" specimen "$STATIC" --size 40 -o "$O/s-static.png"
read -r w h ct ink < <(png_info "$O/s-static.png")
if [ "$h" -gt 140 ]; then ok; else bad "specimen static: $w x $h, no sample line"; fi
no_temp "after specimens"

# ---- specimens in the font's own script (fonts/samples.txt): the first script listed is the
# font's, and every glyph of its sample is mapped (shaped by otvar shape: no glyph 0) ----
CACHE=${OTV_FONT_CACHE:-$ROOT/build-test/fonts-cache}
own() { # font expected-script
  expect 0 "list-samples $(basename "$1")" -- "$OTVAR" specimen "$1" --list-samples
  local script sample
  script=$(head -1 "$TMP/out" | cut -f1)
  sample=$(head -1 "$TMP/out" | cut -f3)
  if [ "$script" = "$2" ]; then ok; else bad "$(basename "$1"): own script '$script', expected $2"; fi
  if "$OTVAR" shape "$1" --text "$sample" --no-glyph-names >"$TMP/sh" 2>/dev/null; then
    if grep -qE '(\[|\|)0=' "$TMP/sh"; then bad "$(basename "$1"): .notdef in the sample '$sample': $(cat "$TMP/sh")"; else ok; fi
  elif "$OTVAR" shape --help >/dev/null 2>&1; then
    bad "$(basename "$1"): otvar shape failed on '$sample'"
  fi
  # the other scripts listed are mapped whole too
  tail -n +2 "$TMP/out" | cut -f3 | while IFS= read -r t; do
    "$OTVAR" shape "$1" --text "$t" --no-glyph-names 2>/dev/null | grep -qE '(\[|\|)0=' && echo "notdef: $t"
  done >"$TMP/nd"
  if [ ! -s "$TMP/nd" ]; then ok; else bad "$(basename "$1"): $(cat "$TMP/nd")"; fi
}
own "$KARLA" Latn
for spec in Inter-roman.var.ttf:Latn NotoSansArabic-VF.ttf:Arab NotoSansBengali-VF.ttf:Beng \
            SourceSerif4Variable-Roman.otf:Latn Cantarell-VF.otf:Latn RobotoFlex-latin.ttf:Latn \
            Recursive-latin.ttf:Latn SourceSans3VF-Upright.ttf:Latn; do
  f=$CACHE/${spec%%:*}
  if [ -s "$f" ]; then own "$f" "${spec##*:}"; else echo "SKIP own script: $f missing (tests/fetch-fonts.sh)"; fi
done
# a subset font with no whole sample lists none (its specimen uses its first mapped characters)
expect 0 "list-samples subset" -- "$OTVAR" specimen "$FONTS/NotoSansJP-VF.subset.otf" --list-samples
if [ ! -s "$TMP/out" ]; then ok; else bad "subset font lists samples: $(cat "$TMP/out")"; fi
# Arabic specimen draws Arabic: its picture's sample rows come from the Arabic sample
if [ -s "$CACHE/NotoSansArabic-VF.ttf" ]; then
  expect 0 "specimen Arabic" -- "$OTVAR" specimen "$CACHE/NotoSansArabic-VF.ttf" --size 24 -o "$O/ar.png"
  [ -s "$O/ar.png" ] && ok || bad "specimen Arabic: no output"
fi

# ---- --grid: a 2-D grid of two axes adds rows; bad grids are usage errors ----
ROBOTO=$FONTS/Roboto-Variable.ABC.ttf
expect 0 "specimen no grid" -- "$OTVAR" specimen "$ROBOTO" --steps 3 -o "$O/g0.png"
expect 0 "specimen grid" -- "$OTVAR" specimen "$ROBOTO" --steps 3 --grid wght,wdth -o "$O/g1.png"
read -r _ h0 _ _ < <(png_info "$O/g0.png")
read -r _ h1 _ _ < <(png_info "$O/g1.png")
if [ "$h1" -gt $((h0 + 100)) ]; then ok; else bad "grid: height $h1 not above $h0 + 3 rows"; fi
for g in wght wght,wght wght,ZZZZ ,wdth wght,wdth,opsz toolongtag,wdth; do
  expect 2 "grid $g" -- "$OTVAR" specimen "$ROBOTO" --grid "$g" -o "$O/g2.png"
  one_line_err "grid $g"; no_file "grid $g" "$O/g2.png"
done

# ---- SVG specimens: -o x.svg writes SVG (paths, the same page size as the PNG) ----
expect 0 "specimen svg" -- "$OTVAR" specimen "$ROBOTO" --steps 3 -o "$O/g0.svg"
if head -c 100 "$O/g0.svg" | grep -q '<?xml' && grep -q '<svg xmlns="http://www.w3.org/2000/svg" width="[0-9]*" height="'"$h0"'"' "$O/g0.svg" &&
   grep -q '<path fill="#000000" d="M' "$O/g0.svg" && tail -1 "$O/g0.svg" | grep -q '</svg>'; then ok; else
  bad "specimen svg: not the page as SVG: $(head -c 300 "$O/g0.svg")"; fi
no_temp "after grids"

cli_summary test_render.sh
