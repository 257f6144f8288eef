#!/usr/bin/env bash
# test_metrics.sh - `otvar metrics` and `otvar info --metrics`: exit codes, one-line errors,
# output shape and number format (at most 3 decimals, no trailing zeros), and values against
# static instances made by fontTools / hb-subset (tests/fonts/instances): the rounded advances
# of the VF at the instance's location must equal the instance's hmtx/vmtx, and font-wide
# values must equal its OS/2 fields (read with fontTools: sxHeight 528, yStrikeoutPosition 317).
# Synthesized vertical metrics (no vmtx) and HVAR/VVAR side-bearing maps against values that
# fontTools computes (see those sections).
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup

help_ok metrics
expect 2 "no font" -- "$OTVAR" metrics
one_line_err "no font"
expect 2 "bad option" -- "$OTVAR" metrics "$FONTS/Muli-ABC.ttf" --bogus
one_line_err "bad option"
expect 1 "missing file" -- "$OTVAR" metrics "$TMP/none.ttf"
one_line_err "missing file"
expect 2 "bad glyphs" -- "$OTVAR" metrics "$FONTS/Muli-ABC.ttf" --glyphs 99999
one_line_err "bad glyphs"
expect 2 "axis out of range" -- "$OTVAR" metrics "$FONTS/Muli-ABC.ttf" --var wght=5000

# a font without vhea/vmtx: synthesized vertical metrics (HarfBuzz's): Muli has USE_TYPO_METRICS,
# OS/2 typo ascender 1005 / descender -250, so every advance is 1255 and the glyph box (glyf
# header, read with fontTools) is centred: TSB = floor((1255 - height) / 2), ORIGIN = yMax + TSB
expect 0 "synthesized vertical metrics" -- "$OTVAR" metrics "$FONTS/Muli-ABC.ttf" --vertical --round
cp "$TMP/out" "$TMP/syn"
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import fontTools' 2>/dev/null; then
  /usr/bin/python3 - "$FONTS/Muli-ABC.ttf" "$TMP/syn" <<'PY' && ok || bad "synthesized vertical metrics of Muli-ABC"
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
os2, glyf, order = f["OS/2"], f["glyf"], f.getGlyphOrder()
assert os2.fsSelection & 0x80, "USE_TYPO_METRICS"
adv = os2.sTypoAscender - os2.sTypoDescender
lines = open(sys.argv[2]).read().split("\n")[:-1]
assert len(lines) == len(order), (len(lines), len(order))
for g, line in enumerate(lines):
    gl = glyf[order[g]]
    ink = gl.numberOfContours != 0 and gl.yMax > gl.yMin and gl.xMax > gl.xMin
    y_max, h = (gl.yMax, gl.yMax - gl.yMin) if ink else (0, 0)
    tsb = (adv - h) // 2
    want = "%d %d %d %d %d" % (g, adv, tsb, adv - h - tsb, y_max + tsb)
    assert line == want, (line, want)
PY
else
  echo "SKIP synthesized vertical metrics vs fontTools: no /usr/bin/python3 with fontTools"
fi

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

# HVAR/VVAR side-bearing maps on real fonts: no test font has LSB/RSB/TSB/BSB maps, so fontTools
# builds copies of two test fonts whose HVAR (and VVAR) map every glyph's advance and side
# bearings to deltas of its own ItemVariationStore (varLib's OnlineVarStoreBuilder; it picks the
# DeltaSetIndexMap formats), reads the compiled fonts back and prints what the spec gives with
# fontTools' VarStoreInstancer: LSB/TSB = hmtx/vmtx + delta, RSB/BSB = (advance - LSB/TSB -
# glyf header box extent) + delta, advance = hmtx/vmtx + delta. avar is dropped from the copies
# so the locations normalize exactly. Our unrounded values must agree within 0.002.
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import fontTools' 2>/dev/null; then
  mkdir -p "$TMP/sb"
  if /usr/bin/python3 - "$FONTS" "$TMP/sb" <<'PY'
# Build variable fonts whose HVAR (and VVAR) have LSB/RSB (TSB/BSB) maps, with fontTools, and
# print the metrics the spec gives at some locations (fontTools' own ItemVariationStore and
# DeltaSetIndexMap reading, on the compiled font read back).
import sys
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables import otTables as ot
from fontTools.varLib import builder
from fontTools.varLib.varStore import OnlineVarStoreBuilder, VarStoreInstancer
from fontTools.pens.boundsPen import ControlBoundsPen

fonts, out = sys.argv[1], sys.argv[2]
SUPPORTS = [{"wght": (0, 1, 1)}, {"wdth": (-1, -1, 0)}, {"wght": (0, 0.5, 1)}]
# normalized targets; each becomes a user-space label for the font's own axis ranges
TARGETS = [{}, {"wght": 1}, {"wght": 0.5, "wdth": -0.5}, {"wght": -1, "wdth": -1},
           {"wght": 0.25, "wdth": -0.4}]

def labels(font):
    out = []
    for t in TARGETS:
        parts = []
        for a in font["fvar"].axes:
            n = t.get(a.axisTag, 0)
            v = a.defaultValue + n * ((a.maxValue if n > 0 else a.defaultValue) -
                                      (a.defaultValue if n > 0 else a.minValue))
            parts.append("%s=%g" % (a.axisTag, v))
        if ",".join(parts) not in out:
            out.append(",".join(parts))
    return out

def normalize(font, label):  # spec: linear normalization (no avar), then F2Dot14
    user = {k: float(v) for k, v in (kv.split("=") for kv in label.split(","))}
    loc = {}
    for a in font["fvar"].axes:
        v = min(max(user.get(a.axisTag, a.defaultValue), a.minValue), a.maxValue)
        if v < a.defaultValue:
            n = (v - a.defaultValue) / (a.defaultValue - a.minValue)
        elif v > a.defaultValue:
            n = (v - a.defaultValue) / (a.maxValue - a.defaultValue)
        else:
            n = 0.0
        loc[a.axisTag] = int(n * 16384 + 0.5 if n >= 0 else -(-n * 16384 + 0.5)) / 16384
    return loc

KINDS = {"HVAR": ("AdvWidthMap", "LsbMap", "RsbMap"),
         "VVAR": ("AdvHeightMap", "TsbMap", "BsbMap", "VOrgMap")}

def var_table(tag, font):
    axis_tags = [a.axisTag for a in font["fvar"].axes]
    sups = [s for s in SUPPORTS if all(k in axis_tags for k in s)]
    sb = OnlineVarStoreBuilder(axis_tags)
    sb.setSupports(sups)
    order = font.getGlyphOrder()
    maps = {}
    for k_i, k in enumerate(KINDS[tag][:3]):  # deterministic small deltas per glyph and kind
        maps[k] = [sb.storeDeltas([((g * 7 + k_i * 5 + i * 3) % 23) - 11 for i in range(len(sups))])
                   for g in range(len(order))]
    t = newTable(tag)
    t.table = getattr(ot, tag)()
    t.table.Version = 0x00010000
    t.table.VarStore = sb.finish()
    for k in KINDS[tag]:
        setattr(t.table, k, builder.buildVarIdxMap(maps[k], order) if k in maps else None)
    return t

def expected(path, tag, name):
    f = TTFont(path)
    axes = f["fvar"].axes
    t = f[tag].table
    mtx = f["hmtx" if tag == "HVAR" else "vmtx"]
    cff = "CFF2" in f
    with open("%s/%s.%s.expected" % (out, name, tag), "w") as o:
        for label in labels(f):
            loc = normalize(f, label)
            inst = VarStoreInstancer(t.VarStore, axes, loc)
            gs = f.getGlyphSet(location=loc, normalized=True)
            for g, gname in enumerate(f.getGlyphOrder()):
                adv, near = mtx[gname]
                d = [inst[getattr(t, n).mapping[gname]] for n in KINDS[tag][:3]]
                adv += d[0]
                if not cff:
                    gl = f["glyf"][gname]
                    ext = 0
                    if gl.numberOfContours != 0:
                        ext = (gl.xMax - gl.xMin) if tag == "HVAR" else (gl.yMax - gl.yMin)
                    # spec: LSB/TSB = hmtx/vmtx + delta; RSB/BSB = default RSB/BSB + delta
                    near, far = near + d[1], (adv - d[0]) - near - ext + d[2]
                else:
                    # CFF2: side-bearing maps are for TrueType; LSB = xMin of the varied
                    # outline, TSB = vmtx + delta (no VORG), far side = advance - near - extent
                    pen = ControlBoundsPen(gs)
                    gs[gname].draw(pen)
                    b = pen.bounds or (0, 0, 0, 0)
                    if tag == "HVAR":
                        near, far = b[0], adv - b[0] - (b[2] - b[0])
                    else:
                        near = near + d[1]
                        far = adv - near - (b[3] - b[1])
                o.write("%s %d %.4f %.4f %.4f\n" % (label, g, adv, near, far))

for src, name, tags in (("Roboto-Variable.ABC.ttf", "roboto-sb", ("HVAR",)),
                        ("PartialInstancerTest-VF.ttf", "pit-sb", ("HVAR", "VVAR")),
                        ("CFF2Instancer-VF-1.otf", "cff2-sb", ("HVAR", "VVAR"))):
    f = TTFont("%s/%s" % (fonts, src))
    for drop in ("avar", "VORG"):  # avar: plain normalization; VORG: the TSB places the origin
        if drop in f:
            del f[drop]
    for tag in tags:
        f[tag] = var_table(tag, f)
    path = "%s/%s.ttf" % (out, name)
    f.save(path)
    for tag in tags:
        expected(path, tag, name)
PY
  then
    ok
    for exp in "$TMP"/sb/*.expected; do
      base=$(basename "$exp" .expected)
      font="$TMP/sb/${base%.*}.ttf"
      v=""
      [ "${base##*.}" = VVAR ] && v=--vertical
      for label in $(cut -d' ' -f1 "$exp" | sort -u); do
        expect 0 "$base $label" -- "$OTVAR" metrics "$font" --var "$label" $v
        grep "^$label " "$exp" | cut -d' ' -f2- >"$TMP/want"
        if [ -s "$TMP/want" ] && [ "$(wc -l <"$TMP/want")" -eq "$(wc -l <"$TMP/out")" ] &&
          paste -d' ' "$TMP/out" "$TMP/want" | awk -v v="$v" '{
            n = v == "" ? 4 : 5
            if ($1 != $(n + 1)) exit 1
            for (i = 2; i <= 4; i++) { d = $i - $(n + i); if (d < -0.002 || d > 0.002) exit 1 }
          }'; then ok; else bad "$base at $label: $(paste -d' ' "$TMP/out" "$TMP/want" | head -4)"; fi
      done
    done
  else
    bad "fontTools could not build the side-bearing-map fonts"
  fi
else
  echo "SKIP side-bearing maps vs fontTools: no /usr/bin/python3 with fontTools"
fi

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

cli_summary test_metrics.sh
