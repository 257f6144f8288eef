#!/usr/bin/env bash
# specimen_html.sh - `otvar specimen FONT --html DIR` (ctest web/specimen_html): the page and the
# font beside it (as given, or WOFF2), its parts (a slider per axis, the named instances, the
# glyph grid, the waterfall), and the page in headless Chromium: screenshots at two slider
# positions (set through the page's #fragment) differ in the sample and not in the title, and
# the sample's ink matches otvar's own rendering of the same text at the same location (IoU >= 0.95
# of the black-and-white ink masks). Without chromium the browser checks say SKIP.
# Env: OTVAR, OTV_ROOT, CHROMIUM (default chromium).
set -u
ROOT=${OTV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
OTVAR=${OTVAR:?OTVAR must name the otvar binary}
PY=/usr/bin/python3
INK=$ROOT/tests/cli/ink.py
KARLA=$ROOT/fonts/Karla-VF.ttf
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$ROOT/tests/cli/lib.sh"
chromium=${CHROMIUM:-chromium}

# ---- the page ----
D=$TMP/page
expect 0 "html" -- "$OTVAR" specimen "$KARLA" --html "$D"
empty_err "html"
cmp -s "$D/font.ttf" "$KARLA" && ok || bad "html: font.ttf is not the font"
P=$D/index.html
axes=$("$PY" -c "
from fontTools.ttLib import TTFont
f = TTFont('$KARLA'); print(len(f['fvar'].axes), len(f['fvar'].instances))" 2>/dev/null)
read -r naxes ninst <<<"${axes:-1 6}"
n=$(grep -c '<input type="range"' "$P")
[ "$n" = "$naxes" ] && ok || bad "html: $n sliders for $naxes axes"
n=$(grep -c '<button data-coords=' "$P")
[ "$n" = "$ninst" ] && ok || bad "html: $n instance buttons for $ninst named instances"
grep -q "@font-face{font-family:'Specimen';src:url('font.ttf') format('truetype');font-weight:200 800" "$P" && ok || bad "html: no @font-face for font.ttf with the weight range"
grep -q 'font-variation-settings' "$P" && ok || bad "html: nothing sets font-variation-settings"
grep -q '<div class="grid vf"><span title="U+0021">&#x21;</span>' "$P" && ok || bad "html: no glyph grid"
n=$(grep -c '<div class="vf" style="font-size:' "$P")
[ "$n" -ge 6 ] && ok || bad "html: waterfall has $n sizes"
grep -q '<div id="sample" class="vf">Sphinx of black quartz, judge my vow</div>' "$P" && ok || bad "html: no Latin sample"
# WOFF2 beside the page: a WOFF2 file otvar opens, named in the @font-face
expect 0 "html --woff2" -- "$OTVAR" specimen "$KARLA" --html "$TMP/w2" --woff2
[ "$(head -c 4 "$TMP/w2/font.woff2")" = wOF2 ] && ok || bad "html --woff2: font.woff2 is not WOFF2"
grep -q "url('font.woff2') format('woff2')" "$TMP/w2/index.html" && ok || bad "html --woff2: @font-face"
expect 0 "html woff2 opens" -- "$OTVAR" info "$TMP/w2/font.woff2"
# usage: existing files need --force, -o and --html exclusive, standard input refused
expect 2 "html existing" -- "$OTVAR" specimen "$KARLA" --html "$D"
one_line_err "html existing"
expect 0 "html --force" -- "$OTVAR" specimen "$KARLA" --html "$D" --force
expect 2 "html and -o" -- "$OTVAR" specimen "$KARLA" --html "$TMP/x" -o "$TMP/x.png"
one_line_err "html and -o"
expect 2 "html stdin" -- "$OTVAR" specimen - --html "$TMP/y" <"$KARLA"
one_line_err "html stdin"
expect 2 "woff2 without html" -- "$OTVAR" specimen "$KARLA" --woff2 -o "$TMP/z.png"
one_line_err "woff2 without html"
expect 1 "html unwritable" -- "$OTVAR" specimen "$KARLA" --html "$TMP/no/such/dir"
one_line_err "html unwritable"
# an Arabic font's page carries its Arabic sample, the markup escaped
CACHE=${OTV_FONT_CACHE:-$ROOT/build-test/fonts-cache}
if [ -s "$CACHE/NotoSansArabic-VF.ttf" ]; then
  expect 0 "html Arabic" -- "$OTVAR" specimen "$CACHE/NotoSansArabic-VF.ttf" --html "$TMP/ar"
  grep -q '<div id="sample" class="vf">نص حكيم' "$TMP/ar/index.html" && ok || bad "html Arabic: no Arabic sample"
fi

# ---- in the browser ----
shot() { # URL-FRAGMENT OUT.png WIDTH HEIGHT
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --user-data-dir="$TMP/profile" --hide-scrollbars --force-device-scale-factor=1 \
    --window-size="$3,$4" --virtual-time-budget=5000 --screenshot="$2" "file://$D/index.html#$1" \
    >/dev/null 2>"$TMP/chrome.log"
  [ -s "$2" ] && ok || bad "chromium took no screenshot of #$1: $(tail -3 "$TMP/chrome.log")"
}
if command -v "$chromium" >/dev/null; then
  # the sample alone, at two slider positions, against otvar render (Chromium puts each glyph on
  # a whole pixel, otvar at its exact position: a size where that is a small part of a stroke)
  for w in 300 800; do
    shot "wght=$w&size=144&text=Hamburg&only=sample" "$TMP/shot$w.png" 1400 400
    "$OTVAR" render "$KARLA" --text Hamburg --var wght=$w --size 144 -o "$TMP/otvar$w.png"
    read -r iou _ < <("$PY" "$INK" iou "$TMP/shot$w.png" "$TMP/otvar$w.png")
    if "$PY" -c "import sys; sys.exit(0 if ${iou:-0} >= 0.95 else 1)"; then ok; else bad "wght=$w: Chromium vs otvar IoU $iou"; fi
    echo "specimen_html: wght=$w IoU $iou (Chromium screenshot vs otvar render)"
  done
  read -r _ _ _ _ ink3 < <("$PY" "$INK" box "$TMP/shot300.png")
  read -r _ _ _ _ ink8 < <("$PY" "$INK" box "$TMP/shot800.png")
  if [ "${ink8:-0}" -gt $((${ink3:-0} * 3 / 2)) ]; then ok; else bad "wght=800 ink $ink8 not well above wght=300's $ink3"; fi
  # the whole page at two slider positions: the title (not in the font) stays, the samples move
  shot "wght=300" "$TMP/page300.png" 1200 900
  shot "wght=800" "$TMP/page800.png" 1200 900
  # (layout of the page at 1200 px: title above y 65, instance buttons at y 150..200 in the UI
  # font; the samples, waterfall and glyph grid in the font below y 200)
  for region in "0 0 1200 65" "0 150 1200 200"; do
    a=$("$PY" "$INK" box "$TMP/page300.png" $region)
    b=$("$PY" "$INK" box "$TMP/page800.png" $region)
    [ -n "$a" ] && [ "$a" = "$b" ] && [ "${a##* }" -gt 100 ] && ok || bad "page region $region changed with the slider: '$a' / '$b'"
  done
  s3=$("$PY" "$INK" box "$TMP/page300.png" 0 200 1200 900)
  s8=$("$PY" "$INK" box "$TMP/page800.png" 0 200 1200 900)
  if [ "${s8##* }" -gt $((${s3##* } * 5 / 4)) ]; then ok; else bad "page samples: ink ${s8##* } at 800 not above ${s3##* } at 300"; fi
else
  echo "specimen_html: SKIP the browser checks: no '$chromium' (Debian package chromium)"
fi

cli_summary specimen_html.sh
