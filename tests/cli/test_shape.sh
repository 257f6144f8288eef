#!/usr/bin/env bash
# test_shape.sh - `otvar shape` against hb-shape 6.0 (the oracle: same glyphs, clusters,
# advances and offsets, byte for byte) for the test fonts and the real fonts of the font cache
# (Latin kerning and ligatures, Arabic, Bengali, FeatureVariations) at the default location,
# named instances and random locations (--normalize harfbuzz6: HarfBuzz 6.0's own normalization
# of --variations); `otvar render` of Latin, Arabic and Bengali against hb-view's picture (IoU of
# the ink masks >= 0.97); bad usage and hostile fonts: one line, the right exit code.
# SKIP (77) without hb-shape. Env: OTVAR, OTV_FONTS, OTV_FONT_CACHE, OTV_SHAPE_FULL=1 (every
# named instance and more random locations).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
cli_setup
CACHE=${OTV_FONT_CACHE:-build-test/fonts-cache}
PY=/usr/bin/python3
command -v hb-shape >/dev/null || { echo "SKIP: hb-shape (libharfbuzz-bin) missing"; exit 77; }
if ! "$OTVAR" shape "$FONTS/Roboto-Variable.ABC.ttf" --text A >/dev/null 2>&1; then
  echo "SKIP: this otvar was built without HarfBuzz"; exit 77
fi

# ---- hb-shape equality: the cases (font, text, location) come from fontTools' view of each
# font; the driver runs both tools and prints one line per difference and a count ----
"$PY" - "$OTVAR" "$FONTS" "$CACHE" "${OTV_SHAPE_FULL:-0}" >"$TMP/eq" 2>&1 <<'EOF'
import glob, os, random, subprocess, sys
from fontTools.ttLib import TTFont
otvar, fonts, cache, full = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == '1'
texts = {
    'latin': ['AVATAR Toffee ﬁ office Wave.', 'The quick brown fox jumps over the lazy dog',
              'ffi ffl fj Th st ct 0123 ½ “quoted”', 'LT Tj Yo P. V, To Ty y. kern'],
    'arabic': ['نص حكيم له سر قاطع', 'وذو شأن عظيم مكتوب على ثوب أخضر', 'لا إله إلا الله ١٢٣'],
    'bengali': ['আমার সোনার বাংলা', 'ক্ষ জ্ঞ ন্ত্র স্ত্র শ্রী র্ক', 'বাংলা ভাষা ১২৩'],
}
rnd = random.Random(23)


def shape_both(path, text, ospec, hspec, flags=()):
    """otvar shape and hb-shape of text (with flags) at a location: otvar's --var, hb-shape's
    --variations ('': the default)"""
    a = [otvar, 'shape', path, '--text', text] + list(flags)
    b = ['hb-shape', path, '--text=' + text] + list(flags)
    if ospec:
        a += ['--var', ospec, '--normalize', 'harfbuzz6']
        b += ['--variations=' + hspec]
    return subprocess.run(a, capture_output=True, text=True), subprocess.run(b, capture_output=True, text=True)


files = sorted(glob.glob(os.path.join(fonts, '*.[ot]tf')) + glob.glob(os.path.join(cache, '*.[ot]tf')))
runs = diffs = changed = 0
fv_seen = {}
for path in files:
    try:
        f = TTFont(path, lazy=True)
        cmap = f.getBestCmap() or {}
    except Exception:
        continue
    if not cmap:
        continue
    name = os.path.basename(path)
    cases = []
    for group in texts.values():
        for t in group:
            kept = ''.join(c for c in t if ord(c) in cmap or c == ' ')
            if sum(1 for c in kept if c != ' ') >= 0.8 * sum(1 for c in t if c != ' '):
                cases.append(t)  # the whole text: a few unmapped characters shape as .notdef
    if not cases:  # a subset font: its own characters, and one it lacks
        cps = sorted(cmap)[:12]
        cases = [''.join(chr(c) for c in cps if c >= 0x20), ''.join(chr(c) for c in cps[:3] if c >= 0x20) + 'Z\u0416']
    locs = [('', '')]
    if 'fvar' in f:
        axes = f['fvar'].axes
        insts = f['fvar'].instances
        pick = insts if full else insts[:2] + insts[-1:]
        for i in pick:
            spec = ','.join('%s=%g' % (a.axisTag, i.coordinates[a.axisTag]) for a in axes)
            locs.append((spec, spec))
        for _ in range(8 if full else 2):
            spec = ','.join('%s=%g' % (a.axisTag, round(rnd.uniform(a.minValue, a.maxValue), 2)) for a in axes)
            locs.append((spec, spec))
        # FeatureVariations: each condition's box corner (where a substitution switches on)
        gsub = f['GSUB'].table if 'GSUB' in f else None
        fvs = getattr(gsub, 'FeatureVariations', None) if gsub else None
        if fvs:
            for rec in fvs.FeatureVariationRecord[:4]:
                vals = {}
                for c in rec.ConditionSet.ConditionTable:
                    a = axes[c.AxisIndex]
                    # normalized -> user, no avar: a point well inside the condition's range
                    n = (c.FilterRangeMinValue + c.FilterRangeMaxValue) / 2
                    u = a.defaultValue + n * ((a.maxValue if n > 0 else a.defaultValue) - (a.defaultValue if n > 0 else a.minValue))
                    vals[a.axisTag] = round(u, 2)
                spec = ','.join('%s=%g' % kv for kv in vals.items())
                locs.append((spec, spec))
                fv_seen[name] = fv_seen.get(name, 0) + 1
    for text in cases[: (len(cases) if full else 3)]:
        outs = set()
        for ospec, hspec in locs:
            ra, rb = shape_both(path, text, ospec, hspec)
            runs += 1
            if ra.returncode != 0 or ra.stdout != rb.stdout:
                diffs += 1
                print('DIFF %s %r @%s\n  otvar:    %s %s\n  hb-shape: %s' % (name, text, ospec or 'default',
                      ra.stdout.strip()[:400], ra.stderr.strip()[:200], rb.stdout.strip()[:400]))
            outs.add(ra.stdout)
        changed += len(outs) > 1
    # the flags, on the first text at the last location
    for flags in (['--no-glyph-names'], ['--no-positions'], ['--font-size=12'], ['--no-clusters', '--no-advances']):
        ospec = locs[-1][0]
        ra, rb = shape_both(path, cases[0], ospec, ospec, flags)
        runs += 1
        if ra.stdout != rb.stdout or ra.returncode:
            diffs += 1
            print('DIFF %s %s %r: %s // %s' % (name, flags, cases[0], ra.stdout.strip()[:300], rb.stdout.strip()[:300]))
print('RUNS %d DIFFS %d CHANGED %d FV %s' % (runs, diffs, changed, ' '.join(sorted(fv_seen))))
EOF
tail -1 "$TMP/eq"
read -r _ runs _ diffs _ changed _ fv < <(tail -1 "$TMP/eq")
if [ "${diffs:-1}" = 0 ] && [ "${runs:-0}" -gt 300 ]; then ok; else bad "otvar shape != hb-shape: $(grep -c DIFF "$TMP/eq") cases"; grep -A2 DIFF "$TMP/eq" | head -30 >&2; fi
# the location matters: some texts shape differently across locations (else the comparison
# above would not show that the coordinates reach HarfBuzz)
if [ "${changed:-0}" -gt 5 ]; then ok; else bad "only ${changed:-0} texts changed with the location"; fi

# ---- FeatureVariations at the location: Recursive's and Roboto Flex's substitutions switch ----
REC=$CACHE/Recursive-latin.ttf
if [ -s "$REC" ]; then
  a=$("$OTVAR" shape "$REC" --text "a g i l r" --var CRSV=0,CASL=1 --normalize harfbuzz6)
  b=$("$OTVAR" shape "$REC" --text "a g i l r" --var CRSV=1,CASL=1 --normalize harfbuzz6)
  h=$(hb-shape "$REC" --text="a g i l r" --variations=CRSV=1,CASL=1)
  if [ "$a" != "$b" ] && [ "$b" = "$h" ]; then ok; else bad "Recursive CRSV: '$a' / '$b' / hb '$h'"; fi
else
  echo "SKIP Recursive FeatureVariations: $REC missing (tests/fetch-fonts.sh)"
fi

# ---- render = hb-view: the same glyphs at the same places (ink masks, IoU >= 0.97). hb-view
# (cairo 1.16) puts each glyph at a whole pixel, otvar at its exact position: sizes where that
# half pixel is a small part of a stroke ----
iou_case() { # font size text var
  local f=$1 sz=$2 t=$3 v=$4
  [ -s "$f" ] || { echo "SKIP render vs hb-view: $f missing"; return; }
  hb-view "$f" --text="$t" --variations="$v" --font-size="$sz" --margin=0 -o "$TMP/hv.png" 2>/dev/null
  expect 0 "render $(basename "$f") $v" -- "$OTVAR" render "$f" --text "$t" --var "$v" --normalize harfbuzz6 --size "$sz" -o "$TMP/ov.png" --force
  read -r iou _ < <("$PY" "$HERE/ink.py" iou "$TMP/hv.png" "$TMP/ov.png")
  if "$PY" -c "import sys; sys.exit(0 if ${iou:-0} >= 0.97 else 1)"; then ok; else bad "render $(basename "$f") '$t' $v: IoU $iou with hb-view"; fi
}
if command -v hb-view >/dev/null; then
  iou_case "$CACHE/Inter-roman.var.ttf" 96 "AVATAR Toffee ﬁ Wave" wght=700
  iou_case "$CACHE/NotoSansArabic-VF.ttf" 96 "نص حكيم له سر قاطع" wght=700,wdth=80
  iou_case "$CACHE/NotoSansBengali-VF.ttf" 200 "আমার সোনার বাংলা ক্ষ" wght=300
  # kerning is GPOS: AVATAR is narrower shaped than with --no-kern (by hb-shape's kerning)
  if [ -s "$CACHE/Inter-roman.var.ttf" ]; then
    "$OTVAR" render "$CACHE/Inter-roman.var.ttf" --text AVATAR --size 48 -o "$TMP/k1.png" --force
    "$OTVAR" render "$CACHE/Inter-roman.var.ttf" --text AVATAR --size 48 --no-kern -o "$TMP/k2.png" --force
    read -r _ _ w1 _ < <("$PY" "$HERE/ink.py" box "$TMP/k1.png")
    read -r _ _ w2 _ < <("$PY" "$HERE/ink.py" box "$TMP/k2.png")
    if [ $((w2 - w1)) -ge 10 ]; then ok; else bad "AVATAR kerning: $w1 px kerned, $w2 px not"; fi
  fi
fi

# ---- mixed directions: an Arabic word inside Latin text keeps the Latin order, the Arabic
# reversed (FriBidi): the glyphs of `abc <arabic> xyz` shaped in runs ----
AR=$CACHE/NotoSansArabic-VF.ttf
if [ -s "$AR" ]; then
  expect 0 "render mixed" -- "$OTVAR" render "$AR" --text "١٢ سلام" --size 40 -o "$TMP/mixed.png" --force
  empty_err "render mixed"
  # bidi: "abc SALAM" (an LTR paragraph) and "SALAM abc" (an RTL one) both read abc, space,
  # then the Arabic word on the right, shaped right to left: the same picture (one run per line,
  # as without FriBidi, would shape one of the two Arabic words left to right)
  if "$OTVAR" shape --help | grep -q .; then
    expect 0 "bidi ltr paragraph" -- "$OTVAR" render "$AR" --text "abc سلام" --size 40 -o "$TMP/b1.png" --force
    expect 0 "bidi rtl paragraph" -- "$OTVAR" render "$AR" --text "سلام abc" --size 40 -o "$TMP/b2.png" --force
    cmp -s "$TMP/b1.png" "$TMP/b2.png" && ok || bad "bidi: 'abc سلام' and 'سلام abc' differ"
    expect 0 "bidi forced ltr" -- "$OTVAR" render "$AR" --text "سلام abc" --direction ltr --size 40 -o "$TMP/b3.png" --force
    cmp -s "$TMP/b2.png" "$TMP/b3.png" && bad "bidi: --direction ltr did not change the picture" || ok
  fi
  expect 0 "render --direction rtl" -- "$OTVAR" render "$AR" --text "سلام" --direction rtl --script Arab --language ar --size 40 -o "$TMP/rtl.png" --force
fi

# ---- usage and hostile input ----
K=$FONTS/Roboto-Variable.ABC.ttf
expect 0 "shape --help" -- "$OTVAR" shape --help
has "shape --help" "usage: otvar shape"
expect 2 "shape no text" -- "$OTVAR" shape "$K"
one_line_err "shape no text"
expect 2 "shape bad feature" -- "$OTVAR" shape "$K" --text A --features "kern,+"
one_line_err "shape bad feature"; err_has "shape bad feature" "feature"
expect 2 "shape bad direction" -- "$OTVAR" shape "$K" --text A --direction sideways
one_line_err "shape bad direction"
expect 2 "shape bad script" -- "$OTVAR" shape "$K" --text A --script Latin1
one_line_err "shape bad script"
expect 2 "shape bad size" -- "$OTVAR" shape "$K" --text A --font-size 0
one_line_err "shape bad size"
expect 2 "shape unknown axis" -- "$OTVAR" shape "$K" --text A --var ZZZZ=1
one_line_err "shape unknown axis"
expect 2 "shape bad utf-8" -- "$OTVAR" shape "$K" --text $'\xff\xfe'
one_line_err "shape bad utf-8"
expect 2 "render vertical" -- "$OTVAR" render "$K" --text A --direction ttb -o "$TMP/v.png"
one_line_err "render vertical"
expect 0 "shape features" -- "$OTVAR" shape "$K" --text ABC --features "-kern,liga=0, ss01"
# lines as hb-shape reads them: none for "", an empty one for an empty line, none after a final
# newline, a carriage return shaped as a character
for t in "" $'A\n\nB' $'A\nB\n' $'A\r\nB' $'\n'; do
  a=$("$OTVAR" shape "$K" --text "$t"; echo x)
  b=$(hb-shape "$K" --text="$t"; echo x)
  [ "$a" = "$b" ] && ok || bad "shape lines of $(printf %q "$t"): '$a' vs hb-shape '$b'"
done
head -c 2000 /dev/urandom >"$TMP/junk.ttf"
expect 1 "shape junk" -- "$OTVAR" shape "$TMP/junk.ttf" --text A
one_line_err "shape junk"
# hostile fonts: a real font with bytes of its layout tables (GSUB, GPOS, GDEF, cmap) flipped or
# the file cut short: each shapes or fails with one line, never crashes
"$PY" - "$FONTS/Roboto-Variable.ABC.ttf" "$TMP" <<'PYEOF'
import random, struct, sys
data = open(sys.argv[1], 'rb').read()
n = struct.unpack('>H', data[4:6])[0]
tabs = {}
for i in range(n):
    tag, _, off, ln = struct.unpack('>4sIII', data[12 + 16 * i:28 + 16 * i])
    tabs[tag.decode('latin-1')] = (off, ln)
rnd = random.Random(23)
k = 0
for tag in ('GSUB', 'GPOS', 'GDEF', 'cmap', 'fvar', 'hmtx'):
    if tag not in tabs:
        continue
    off, ln = tabs[tag]
    for _ in range(5):
        d = bytearray(data)
        for _ in range(8):
            d[off + rnd.randrange(min(ln, 256))] = rnd.randrange(256)
        open('%s/hostile%02d.ttf' % (sys.argv[2], k), 'wb').write(d)
        k += 1
for cut in (12, 100, len(data) // 3, len(data) - 7):
    open('%s/hostile%02d.ttf' % (sys.argv[2], k), 'wb').write(data[:cut])
    k += 1
PYEOF
for f in "$TMP"/hostile*.ttf; do
  "$OTVAR" shape "$f" --text "ABC AVfi سلام" >/dev/null 2>"$TMP/err"
  rc=$?
  if [ $rc -le 1 ]; then ok; else bad "hostile $(basename "$f"): exit $rc $(head -c 300 "$TMP/err")"; fi
  "$OTVAR" render "$f" --text "ABC سلام" -o "$TMP/h.png" --force >/dev/null 2>"$TMP/err"
  rc=$?
  if [ $rc -le 1 ]; then ok; else bad "hostile render $(basename "$f"): exit $rc $(head -c 300 "$TMP/err")"; fi
done

cli_summary test_shape.sh
