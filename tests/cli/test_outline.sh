#!/usr/bin/env bash
# CLI test of `otvar outline`: output format, advances and cmap mapping checked against fontTools
# (Debian's python3), outlines at the default location against the fontations expected file
# (FreeType 2.13), exit codes 0/1/2 and safe output files.
set -u
OTVAR=${OTVAR:?}
FONTS=${OTV_FONTS:?}
ROOT=${OTV_ROOT:?}
PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# 1. format: `GID ADVANCE PATH`, numbers with at most 3 decimals and no trailing zeros
"$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --var wght=650,wdth=90 > "$T/r.txt" || bad "outline exit $?"
if grep -Eq '[0-9]\.[0-9]*0( |$)|\.[0-9]{4,}|-0( |$)' "$T/r.txt"; then bad "number format"; else ok "number format"; fi
if awk '{ if ($1 !~ /^[0-9]+$/ || $2 !~ /^-?[0-9.]+$/) exit 1; if (NF > 2 && $3 !~ /^M/) exit 1 }' "$T/r.txt"; then ok "line format"; else bad "line format"; fi
grep -q '^0 [0-9.]*$' "$T/r.txt" && ok "empty glyph prints GID ADVANCE" || bad "empty .notdef line"
[ "$(wc -l < "$T/r.txt")" -eq 8 ] && ok "all glyphs" || bad "line count"

# 2. default location: advances = hmtx, paths = FreeType's (fontations expected file, coords 0)
"$OTVAR" outline "$FONTS/vazirmatn_var_trimmed.ttf" > "$T/v.txt" || bad "vazirmatn exit"
$PY - "$FONTS/vazirmatn_var_trimmed.ttf" "$T/v.txt" "$ROOT/tests/expected/fontations/vazirmatn_var_trimmed-glyphs.txt" <<'PY' || fail=1
import sys
from fontTools.ttLib import TTFont
font = TTFont(sys.argv[1])
order = font.getGlyphOrder()
ours = {}
for line in open(sys.argv[2]):
    f = line.split()
    ours[int(f[0])] = (float(f[1]), ' '.join(f[2:]))
bad = 0
for gid, name in enumerate(order):
    if ours[gid][0] != font['hmtx'][name][0]:
        print('FAIL advance', gid, ours[gid][0], font['hmtx'][name][0]); bad = 1
# expected outlines (size 0, hinting none, coords 0.0): m/l/q lines -> our path syntax
exp = {}
rec = None
for line in open(sys.argv[3]):
    line = line.rstrip('\n')
    if line.startswith('glyph '):
        g, ppem, mode = line.split()[1:4]
        rec = [int(g), ppem == '0' and mode == 'none', None, []]
    elif line.startswith('coords') and rec:
        rec[2] = [float(v) for v in line.split()[1:]]
    elif line[:2] in ('m ', 'l ', 'q ', 'c ') and rec:
        nums = [v for p in line[2:].split() for v in p.split(',')]
        rec[3].append((line[0].upper(), [float(v) for v in nums]))
    elif line == '-' and rec:
        if rec[1] and rec[2] and all(v == 0 for v in rec[2]):
            exp[rec[0]] = rec[3]
        rec = None
def parse(path):
    out, toks, i = [], path.split(), 0
    while i < len(toks):
        t = toks[i]; cmd = t[0]; vals = [float(t[1:])] if len(t) > 1 else []
        n = {'M': 2, 'L': 2, 'Q': 4, 'C': 6, 'Z': 0}[cmd]
        while len(vals) < n:
            i += 1; vals.append(float(toks[i]))
        out.append((cmd, vals)); i += 1
    return out
checked = 0
for gid, segs in exp.items():
    # FreeType closes every contour with a line back to its start, we with Z: compare the
    # curve structure, then the points (as sets: the closing points repeat the start)
    got = [s for s in parse(ours[gid][1]) if s[0] != 'Z']
    w3 = segs
    if [c for c, _ in got if c != 'L'] != [c for c, _ in w3 if c != 'L']:
        print('FAIL structure', gid); bad = 1; continue
    # compare point sequences, ignoring duplicated closing points
    def pts(s):
        r = []
        for cmd, v in s:
            for j in range(0, len(v), 2):
                if not r or r[-1] != (v[j], v[j + 1]) or cmd != 'L': r.append((v[j], v[j + 1]))
        return r
    a, b = pts(got), pts(w3)
    if set(a) != set(b):
        print('FAIL points', gid, a[:6], b[:6]); bad = 1
    checked += 1
print('ok: advances of %d glyphs = hmtx; %d outlines = FreeType 2.13 expected' % (len(order), checked))
sys.exit(bad or checked == 0)
PY

# 3. --text goes through cmap, in text order
read -r want < <($PY -c "
import sys
from fontTools.ttLib import TTFont
f = TTFont('$FONTS/Roboto-Variable.ABC.ttf'); m = f.getBestCmap(); o = f.getGlyphOrder()
print(','.join(str(o.index(m[ord(c)])) for c in 'CAB'))")
got=$("$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --text CAB | awk '{printf "%s%s", (NR>1?",":""), $1}')
[ "$got" = "$want" ] && ok "--text CAB -> $got" || bad "--text: got $got want $want"
a=$("$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --text A --var wght=300)
b=$("$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --glyphs "${want#*,}" --var wght=300 | head -1)
[ "$a" = "$b" ] && ok "--text A = --glyphs" || bad "--text A differs from --glyphs"

# 4. --named equals --var at the instance's coordinates; svg output; -o
"$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --named 0 > "$T/n.txt" || bad "--named exit"
[ -s "$T/n.txt" ] && ok "--named" || bad "--named output"
"$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --format svg -o "$T/o.svg" && grep -q '^<svg' "$T/o.svg" && grep -q '</svg>' "$T/o.svg" && ok "svg to file" || bad "svg -o"
"$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --format svg -o "$T/o.svg" 2>/dev/null; [ $? -eq 2 ] && ok "no overwrite without --force" || bad "overwrote"

# 5. exit codes
"$OTVAR" outline --help > /dev/null; [ $? -eq 0 ] && ok "--help 0" || bad "--help"
"$OTVAR" outline 2>/dev/null; [ $? -eq 2 ] && ok "no font 2" || bad "no font"
"$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --format png 2>/dev/null; [ $? -eq 2 ] && ok "bad format 2" || bad "bad format"
"$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --glyphs 99 2>/dev/null; [ $? -eq 2 ] && ok "bad gid 2" || bad "bad gid"
"$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --glyphs 5-2 2>"$T/err"; [ $? -eq 2 ] && grep -q "backwards" "$T/err" && ok "reversed range 2" || bad "reversed range: $(cat "$T/err")"
"$OTVAR" outline "$FONTS/Roboto-Variable.ABC.ttf" --var wght=5000 2>/dev/null; [ $? -eq 2 ] && ok "out of range 2" || bad "range"
"$OTVAR" outline "$T/nonexistent.ttf" 2>/dev/null; [ $? -eq 1 ] && ok "missing font 1" || bad "missing font"
head -c 300 "$FONTS/Roboto-Variable.ABC.ttf" > "$T/trunc.ttf"
"$OTVAR" outline "$T/trunc.ttf" 2>/dev/null; [ $? -eq 1 ] && ok "truncated font 1" || bad "truncated font"
exit $fail
