#!/usr/bin/env bash
# test_build.sh - `otvar build` (issue 27): usage errors, hostile designspaces and masters (each a
# one-line error and exit 1, never a crash), a single-master build that opens, and every prefix
# of a master refused cleanly. The comparison with fontTools' builds is
# tests/oracle/test_build.py.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts).
set -u
OTVAR=${OTVAR:-build/otvar}
FONTS=${OTV_FONTS:-tests/fonts}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/lib.sh"

expect 0 "help" -- "$OTVAR" build --help
grep -q '^usage: otvar build' "$TMP/out" && ok || bad "help text"
expect 2 "no designspace" -- "$OTVAR" build
one_line_err "no designspace"
expect 2 "no -o" -- "$OTVAR" build "$TMP/x.designspace"
one_line_err "no -o"
expect 1 "missing file" -- "$OTVAR" build "$TMP/none.designspace" -o "$TMP/o.ttf"
one_line_err "missing file"

ds() { # ds NAME BODY: a designspace with one wght axis and BODY as its sources
  printf '<?xml version="1.0"?>\n<designspace format="4.1"><axes>%s</axes><sources>%s</sources></designspace>\n' \
    '<axis tag="wght" name="Weight" minimum="100" default="400" maximum="900"/>' "$2" >"$TMP/$1.designspace"
}
src() { printf '<source filename="%s.ufo" name="%s"><location><dimension name="%s" xvalue="%s"/></location></source>' "$1" "$1" "${3:-Weight}" "$2"; }

cp "$FONTS/Muli-ABC.ttf" "$TMP/Reg.ttf"
ds one "$(src Reg 400)"
expect 0 "single master" -- "$OTVAR" build "$TMP/one.designspace" -o "$TMP/one.ttf" -q
empty_err "single master"
expect 0 "opens" -- "$OTVAR" info "$TMP/one.ttf"
has "opens" "wght"

# OTV_BUILD_ALLOCS=1: otv_build through a counting allocator (a diagnostic): the counts on
# stderr, the same bytes written; =2 lists every call
expect 0 "allocation count" -- env OTV_BUILD_ALLOCS=1 "$OTVAR" build "$TMP/one.designspace" -o "$TMP/one-ac.ttf" -q
err_has "allocation count" '^otv_build: [1-9][0-9]* allocations and reallocations ([0-9]* bytes asked), [0-9]* frees, peak [1-9][0-9]* bytes live; [0-9]* page faults'
cmp -s "$TMP/one.ttf" "$TMP/one-ac.ttf" && ok || bad "allocation count: other bytes"
expect 0 "allocation list" -- env OTV_BUILD_ALLOCS=2 "$OTVAR" build "$TMP/one.designspace" -o "$TMP/one-ac2.ttf" -q
err_has "allocation list" '^alloc [^ ]* 0 -> [1-9]'
cmp -s "$TMP/one.ttf" "$TMP/one-ac2.ttf" && ok || bad "allocation list: other bytes"

# OUT.woff2 / OUT.woff: the web font, which decompresses to a font that opens
expect 0 "woff2 output" -- "$OTVAR" build "$TMP/one.designspace" -o "$TMP/one.woff2" -q
expect 0 "woff2 decompresses" -- "$OTVAR" decompress "$TMP/one.woff2" -o "$TMP/one2.ttf"
expect 0 "woff2 opens" -- "$OTVAR" info "$TMP/one2.ttf"
has "woff2 opens" "wght"
expect 0 "woff output" -- "$OTVAR" build "$TMP/one.designspace" -o "$TMP/one.woff" -q
expect 0 "woff opens" -- "$OTVAR" info "$TMP/one.woff"
has "woff opens" "wght"

printf 'not xml' >"$TMP/bad.designspace"
expect 1 "bad xml" -- "$OTVAR" build "$TMP/bad.designspace" -o "$TMP/o.ttf"
one_line_err "bad xml"
err_has "bad xml" "line 1"
printf '<designspace format="4"><axes/><sources/></designspace>' >"$TMP/empty.designspace"
expect 1 "no axes" -- "$OTVAR" build "$TMP/empty.designspace" -o "$TMP/o.ttf"
one_line_err "no axes"
ds unknown "$(src Reg 400 Width)"
expect 1 "unknown axis" -- "$OTVAR" build "$TMP/unknown.designspace" -o "$TMP/o.ttf"
err_has "unknown axis" "names no axis"
ds nomaster "$(src Nope 400)"
expect 1 "missing master" -- "$OTVAR" build "$TMP/nomaster.designspace" -o "$TMP/o.ttf"
err_has "missing master" "Nope.ttf"
ds nodefault "$(src Reg 900)"
expect 1 "no default" -- "$OTVAR" build "$TMP/nodefault.designspace" -o "$TMP/o.ttf"
err_has "no default" "default"
ds twice "$(src Reg 400)$(src Reg 400)"
expect 1 "same location" -- "$OTVAR" build "$TMP/twice.designspace" -o "$TMP/o.ttf"
one_line_err "same location"
printf '<designspace format="4"><axes><axis tag="wght" name="W" minimum="900" default="400" maximum="100"/></axes><sources>%s</sources></designspace>' \
  "$(src Reg 400 W)" >"$TMP/range.designspace"
expect 1 "bad range" -- "$OTVAR" build "$TMP/range.designspace" -o "$TMP/o.ttf"
one_line_err "bad range"

# avar 2 mappings (format 5 <mappings>): one that moves weight 600 builds avar version 2 and
# normalizes as hand-computed (design = user here: 600 -> 0.4 = 6554, + (650 - 600) / 500 =
# 1638 -> 8192); hostile ones are one-line errors
dsm() { # dsm NAME MAPPINGS [AFTER]: one wght axis, the Reg master, MAPPINGS inside <axes>
  printf '<?xml version="1.0"?>\n<designspace format="5.0"><axes>%s%s%s</axes><sources>%s</sources></designspace>\n' \
    '<axis tag="wght" name="Weight" minimum="100" default="400" maximum="900"/>' "<mappings>$2</mappings>" "${3:-}" \
    "$(src Reg 400)" >"$TMP/$1.designspace"
}
mp() { printf '<mapping><input><dimension name="%s" xvalue="%s"/></input><output><dimension name="Weight" xvalue="%s"/></output></mapping>' "$1" "$2" "$3"; }
dsm map "$(mp Weight 600 650)"
expect 0 "avar2 mapping" -- "$OTVAR" build "$TMP/map.designspace" -o "$TMP/map.ttf" -q
expect 0 "avar2 info" -- "$OTVAR" info "$TMP/map.ttf"
has "avar2 info" "avar: version 2"
expect 0 "avar2 normalize" -- "$OTVAR" normalize "$TMP/map.ttf" wght=600
has "avar2 normalize" "wght 600 8192 "
dsm mapunknown "$(mp Width 600 650)"
expect 1 "mapping unknown axis" -- "$OTVAR" build "$TMP/mapunknown.designspace" -o "$TMP/o.ttf"
err_has "mapping unknown axis" "names no axis"
dsm maptwice "$(mp Weight 600 650)$(mp Weight 600 700)"
expect 1 "mapping inputs repeated" -- "$OTVAR" build "$TMP/maptwice.designspace" -o "$TMP/o.ttf"
one_line_err "mapping inputs repeated"
err_has "mapping inputs repeated" "axis mappings"
dsm mapaxis "$(mp Weight 600 650)" '<axis tag="wdth" name="Width" minimum="50" default="100" maximum="100"/>'
expect 1 "axis after mappings" -- "$OTVAR" build "$TMP/mapaxis.designspace" -o "$TMP/o.ttf"
err_has "axis after mappings" "after the axis mappings"
dsm mapbad '<mapping><input><dimension name="Weight" xvalue="abc"/></input></mapping>'
expect 1 "mapping bad number" -- "$OTVAR" build "$TMP/mapbad.designspace" -o "$TMP/o.ttf"
err_has "mapping bad number" "bad number"

# rules (GSUB FeatureVariations; the rules themselves: tests/oracle/test_build.py): hostile
# ones are one-line errors; a rule on a glyph the default master lacks names the glyph
dsr() { # dsr NAME RULES: the Reg master and RULES as <rules>
  printf '<?xml version="1.0"?>\n<designspace format="4.1"><axes>%s</axes><rules>%s</rules><sources>%s</sources></designspace>\n' \
    '<axis tag="wght" name="Weight" minimum="100" default="400" maximum="900"/>' "$2" \
    "$(src Reg 400)" >"$TMP/$1.designspace"
}
dsr rnoglyph '<rule name="r"><conditionset><condition name="Weight" minimum="500"/></conditionset><sub name="nosuchglyph" with="A"/></rule>'
expect 1 "rule unknown glyph" -- "$OTVAR" build "$TMP/rnoglyph.designspace" -o "$TMP/o.ttf"
err_has "rule unknown glyph" "nosuchglyph"
dsr rnoaxis '<rule name="r"><conditionset><condition name="Width" minimum="500"/></conditionset><sub name="A" with="B"/></rule>'
expect 1 "rule unknown axis" -- "$OTVAR" build "$TMP/rnoaxis.designspace" -o "$TMP/o.ttf"
err_has "rule unknown axis" "names no axis"
dsr rnowith '<rule name="r"><sub name="A"/></rule>'
expect 1 "rule sub without with" -- "$OTVAR" build "$TMP/rnowith.designspace" -o "$TMP/o.ttf"
one_line_err "rule sub without with"
dsr rbadnum '<rule name="r"><conditionset><condition name="Weight" minimum="x"/></conditionset></rule>'
expect 1 "rule bad number" -- "$OTVAR" build "$TMP/rbadnum.designspace" -o "$TMP/o.ttf"
err_has "rule bad number" "bad number"

# format 5 axis labels (STAT): hostile ones are one-line errors
dsl() { # dsl NAME LABELS: one wght axis with LABELS inside <labels>, the Reg master
  printf '<?xml version="1.0"?>\n<designspace format="5.0"><axes><axis tag="wght" name="Weight" minimum="100" default="400" maximum="900"><labels %s>%s</labels></axis></axes><sources>%s</sources></designspace>\n' \
    "${3:-}" "$2" "$(src Reg 400)" >"$TMP/$1.designspace"
}
dsl lnoname '<label uservalue="400"/>'
expect 1 "label without name" -- "$OTVAR" build "$TMP/lnoname.designspace" -o "$TMP/o.ttf"
err_has "label without name" "without a name"
dsl lbadval '<label uservalue="heavy" name="X"/>'
expect 1 "label bad value" -- "$OTVAR" build "$TMP/lbadval.designspace" -o "$TMP/o.ttf"
err_has "label bad value" "bad number"
dsl lbadord '<label uservalue="400" name="X"/>' 'ordering="-3"'
expect 1 "labels bad ordering" -- "$OTVAR" build "$TMP/lbadord.designspace" -o "$TMP/o.ttf"
one_line_err "labels bad ordering"
dsl lhuge '<label uservalue="400" userminimum="-1e300" name="X"/>'
expect 1 "label huge range" -- "$OTVAR" build "$TMP/lhuge.designspace" -o "$TMP/o.ttf"
one_line_err "label huge range"

# masters that are not fonts, and every 97th prefix of a real one: an error, never a crash
printf 'garbage garbage garbage' >"$TMP/Junk.ttf"
ds junk "$(src Junk 400)"
expect 1 "junk master" -- "$OTVAR" build "$TMP/junk.designspace" -o "$TMP/o.ttf"
one_line_err "junk master"
size=$(stat -c %s "$FONTS/Muli-ABC.ttf")
crashes=0
for ((n = 0; n < size; n += 97)); do
  head -c "$n" "$FONTS/Muli-ABC.ttf" >"$TMP/Junk.ttf"
  "$OTVAR" build "$TMP/junk.designspace" -o "$TMP/p.ttf" --force -q >/dev/null 2>"$TMP/err"
  rc=$?
  [ "$rc" -le 1 ] || { crashes=$((crashes + 1)); echo "prefix $n: exit $rc" >&2; }
done
[ "$crashes" -eq 0 ] && ok || bad "truncated masters: $crashes crashed"

# CFF masters (build/cff2.c; compared with fontTools in tests/oracle/test_build_cff2.py): a
# single CFF master makes a CFF2 font drawing the same outlines (FontMatrix kept: cff_fm_half's
# 0.0005); two masters; a CFF2 variable master (its default); refusals; truncated CFF masters
for f in cff_fm_2048 cff_fm_half; do
  cp "$FONTS/$f.otf" "$TMP/Cff.otf"
  ds cff "$(src Cff 400)"
  expect 0 "cff master $f" -- "$OTVAR" build "$TMP/cff.designspace" -o "$TMP/cff.otf" -q --force
  expect 0 "cff info $f" -- "$OTVAR" info "$TMP/cff.otf"
  has "cff info $f" "flavour: CFF2"
  "$OTVAR" outline "$FONTS/$f.otf" >"$TMP/want" 2>&1
  "$OTVAR" outline "$TMP/cff.otf" >"$TMP/got" 2>&1
  cmp -s "$TMP/want" "$TMP/got" && ok || bad "cff master $f: outlines differ"
done
cp "$FONTS/cff_fm_2048.otf" "$TMP/Cff.otf"
cp "$FONTS/cff_fm_2048.otf" "$TMP/CffB.otf"
ds cff2m "$(src Cff 400)$(src CffB 900)"
expect 0 "two cff masters" -- "$OTVAR" build "$TMP/cff2m.designspace" -o "$TMP/cff2m.otf" -q --force
cp "$FONTS/AdobeVFPrototype_vsindex.otf" "$TMP/Var.otf"
ds cffvar "$(src Var 400)"
expect 0 "cff2 variable master" -- "$OTVAR" build "$TMP/cffvar.designspace" -o "$TMP/cffvar.otf" -q --force
expect 0 "cff2 variable master opens" -- "$OTVAR" outline "$TMP/cffvar.otf" --glyphs 1
ds mixed "$(src Cff 400)$(src Reg 900)"
expect 1 "cff and truetype masters" -- "$OTVAR" build "$TMP/mixed.designspace" -o "$TMP/o.otf"
err_has "cff and truetype masters" "TrueType outlines"
cp "$FONTS/cff_seac_f1.otf" "$TMP/Seac.otf"
ds seac "$(src Seac 400)"
expect 1 "seac master" -- "$OTVAR" build "$TMP/seac.designspace" -o "$TMP/o.otf"
err_has "seac master" "seac"
ds cffjunk "$(src Cff 400)$(src Junk 900)"
size=$(stat -c %s "$FONTS/cff_fm_2048.otf")
crashes=0
for ((n = 0; n < size; n += 23)); do
  head -c "$n" "$FONTS/cff_fm_2048.otf" >"$TMP/Junk.otf"
  rm -f "$TMP/Junk.ttf"
  "$OTVAR" build "$TMP/cffjunk.designspace" -o "$TMP/p.otf" --force -q >/dev/null 2>"$TMP/err"
  rc=$?
  [ "$rc" -le 1 ] || { crashes=$((crashes + 1)); echo "cff prefix $n: exit $rc" >&2; }
  [ "$rc" -eq 0 ] || [ "$(wc -l <"$TMP/err")" -eq 1 ] || { crashes=$((crashes + 1)); echo "cff prefix $n: $(cat "$TMP/err")" >&2; }
done
[ "$crashes" -eq 0 ] && ok || bad "truncated cff masters: $crashes failed"
# discrete axes (format 5 values="..."; builds: tests/oracle/test_build_discrete.py): a folder
# of variable fonts; hostile values and combinations without sources are one-line errors
dsd() { # dsd NAME VALUES SOURCES: wght and a discrete ital axis
  printf '<?xml version="1.0"?>\n<designspace format="5.0"><axes>%s%s</axes><sources>%s</sources></designspace>\n' \
    '<axis tag="wght" name="Weight" minimum="100" default="400" maximum="900"/>' \
    "<axis tag=\"ital\" name=\"Italic\" values=\"$2\" default=\"0\"/>" "$3" >"$TMP/$1.designspace"
}
src2() { printf '<source filename="Reg.ufo" name="%s"><location><dimension name="Weight" xvalue="400"/><dimension name="Italic" xvalue="%s"/></location></source>' "$1" "$2"; }
dsd disc "0 1" "$(src2 up 0)$(src2 it 1)"
expect 0 "discrete axis" -- "$OTVAR" build "$TMP/disc.designspace" -o "$TMP/vfs" -q
[ -f "$TMP/vfs/disc-VF-ital0.0.ttf" ] && [ -f "$TMP/vfs/disc-VF-ital1.0.ttf" ] && ok ||
  bad "discrete axis: the two fonts"
expect 2 "discrete axis to stdout" -- "$OTVAR" build "$TMP/disc.designspace" -o -
one_line_err "discrete axis to stdout"
for v in "" "0 x" "nan" "1e999" "0,1" "$(seq -s ' ' 0 300)"; do
  dsd dbad "$v" "$(src2 up 0)"
  expect 1 "discrete values '${v:0:12}'" -- "$OTVAR" build "$TMP/dbad.designspace" -o "$TMP/vfb"
  one_line_err "discrete values '${v:0:12}'"
done
dsd dnosrc "0 1" "$(src2 up 0)"
expect 1 "discrete value without sources" -- "$OTVAR" build "$TMP/dnosrc.designspace" -o "$TMP/vfc"
err_has "discrete value without sources" "no source at its discrete axis values"
[ ! -e "$TMP/vfc/dnosrc-VF-ital0.0.ttf" ] && ok || bad "a font written before the refusal"
# an <instance> inside an <axis> with a map (fuzz_designspace: its location read the map before
# </axis> set it, a null pointer)
printf '<?xml version="1.0"?>\n<designspace format="5.0"><axes><axis tag="wght" name="W" minimum="1" default="2" maximum="3"><map input="1" output="1"/><instance><location/></instance></axis></axes><sources><source filename="Reg.ufo"/></sources></designspace>\n' >"$TMP/inax.designspace"
expect 0 "instance inside an axis" -- "$OTVAR" build "$TMP/inax.designspace" -o "$TMP/inax.ttf" -q
# an axis after the sources (fuzz_designspace: their locations had no value for it, read past)
printf '<?xml version="1.0"?>\n<designspace format="4.1"><axes><axis tag="wght" name="W" minimum="100" default="400" maximum="900"/></axes><sources><source filename="Reg.ufo"/></sources><axes><axis tag="wdth" name="D" minimum="50" default="100" maximum="100"/></axes></designspace>\n' >"$TMP/axafter.designspace"
expect 1 "axis after the sources" -- "$OTVAR" build "$TMP/axafter.designspace" -o "$TMP/o.ttf"
err_has "axis after the sources" "an axis after the sources"

# location labels (STAT format 4; against fontTools: tests/oracle/test_build_stat4.py): hostile
# ones are one-line errors
dsll() { # dsll NAME LABEL: one wght axis, the Reg master, LABEL in the document's <labels>
  printf '<?xml version="1.0"?>\n<designspace format="5.0"><axes>%s</axes><labels>%s</labels><sources>%s</sources></designspace>\n' \
    '<axis tag="wght" name="Weight" minimum="100" default="400" maximum="900"/>' "$2" "$(src Reg 400)" >"$TMP/$1.designspace"
}
dsll ll '<label name="Mid" elidable="true"><location><dimension name="Weight" uservalue="500"/></location></label>'
expect 0 "location label" -- "$OTVAR" build "$TMP/ll.designspace" -o "$TMP/ll.ttf" -q
expect 0 "location label info" -- "$OTVAR" info "$TMP/ll.ttf"
for c in 'nonam|<label><location><dimension name="Weight" uservalue="500"/></location></label>|without a name' \
         'noaxis|<label name="X"><location><dimension name="Width" uservalue="5"/></location></label>|names no axis' \
         'xval|<label name="X"><location><dimension name="Weight" xvalue="5"/></location></label>|without uservalue' \
         'badnum|<label name="X"><location><dimension name="Weight" uservalue="1e999"/></location></label>|bad number' \
         'huge|<label name="X"><location><dimension name="Weight" uservalue="1e9"/></location></label>|bad value'; do
  IFS='|' read -r n body msg <<<"$c"
  dsll "ll$n" "$body"
  expect 1 "location label $n" -- "$OTVAR" build "$TMP/ll$n.designspace" -o "$TMP/o.ttf"
  one_line_err "location label $n"
  err_has "location label $n" "$msg"
done

# format 5 <variable-fonts> (builds against fontTools: tests/oracle/test_build_vfonts.py): each
# <variable-font> a file in the folder OUT; hostile subsets and names are one-line errors, and
# nothing is written
dsv() { # dsv NAME VFONTS: wght and a discrete ital axis, the Reg master at ital 0 and 1
  printf '<?xml version="1.0"?>\n<designspace format="5.0"><axes>%s%s</axes><sources>%s</sources><variable-fonts>%s</variable-fonts></designspace>\n' \
    '<axis tag="wght" name="Weight" minimum="100" default="400" maximum="900"/>' \
    '<axis tag="ital" name="Italic" values="0 1" default="0"/>' "$(src2 up 0)$(src2 it 1)" "$2" >"$TMP/$1.designspace"
}
vf() { printf '<variable-font name="%s"%s><axis-subsets>%s</axis-subsets></variable-font>' "$@"; }
dsv vfs "$(vf Up '' '<axis-subset name="Weight"/>')$(vf It ' filename="../x/It.ttf"' '<axis-subset name="Weight" userminimum="100" userdefault="400" usermaximum="700"/><axis-subset name="Italic" uservalue="1"/>')"
expect 0 "variable fonts" -- "$OTVAR" build "$TMP/vfs.designspace" -o "$TMP/vfo" -q
[ "$(ls "$TMP/vfo" | tr '\n' ' ')" = "It.ttf Up.ttf " ] && ok || bad "variable fonts: files $(ls "$TMP/vfo")"
expect 0 "variable font info" -- "$OTVAR" info "$TMP/vfo/It.ttf"
expect 2 "variable fonts again without --force" -- "$OTVAR" build "$TMP/vfs.designspace" -o "$TMP/vfo"
one_line_err "variable fonts again without --force"
expect 2 "variable fonts to stdout" -- "$OTVAR" build "$TMP/vfs.designspace" -o -
one_line_err "variable fonts to stdout"
W='<axis-subset name="Weight"/>'
for c in "nan|$W<axis-subset name=\"Italic\" uservalue=\"nan\"/>|bad number" \
         "inf|$W<axis-subset name=\"Italic\" uservalue=\"1e999\"/>|bad number" \
         "notval|$W<axis-subset name=\"Italic\" uservalue=\"0.5\"/>|is not a value of axis" \
         "range|<axis-subset name=\"Italic\"/>$W|a range of discrete axis" \
         "partial|<axis-subset name=\"Weight\" usermaximum=\"500\"/>|needs userminimum" \
         "badnum|<axis-subset name=\"Weight\" userminimum=\"x\" userdefault=\"1\" usermaximum=\"2\"/>|bad number" \
         "outside|<axis-subset name=\"Weight\" userminimum=\"1e308\" userdefault=\"0\" usermaximum=\"1e308\"/>|outside the axis" \
         "huge|<axis-subset name=\"Weight\" userminimum=\"-1e308\" userdefault=\"1e308\" usermaximum=\"1e308\"/>|no source at the default" \
         "noaxis|<axis-subset name=\"Slant\"/>|names no axis" \
         "twice|$W$W|subset twice" \
         "nosubset||no axis varies" \
         "nosrc|<axis-subset name=\"Weight\" userminimum=\"500\" userdefault=\"500\" usermaximum=\"900\"/>|no source in its region"; do
  IFS='|' read -r n body msg <<<"$c"
  dsv "vb$n" "$(vf Up '' "$body")"
  expect 1 "variable font $n" -- "$OTVAR" build "$TMP/vb$n.designspace" -o "$TMP/vbo$n"
  one_line_err "variable font $n"
  err_has "variable font $n" "$msg"
  [ -z "$(ls "$TMP/vbo$n" 2>/dev/null)" ] && ok || bad "variable font $n: a file written"
done
for c in 'fndot|<variable-font name="A" filename=".">|not a file name' \
         'fnempty|<variable-font name="A" filename="x/">|not a file name' \
         'fndotdot|<variable-font name="A" filename="x/..">|not a file name' \
         'slash|<variable-font name="a/b">|not a file name' \
         'noname|<variable-font>|without a name' \
         'emptyname|<variable-font name="">|without a name'; do
  IFS='|' read -r n open msg <<<"$c"
  dsv "vn$n" "$open<axis-subsets>$W</axis-subsets></variable-font>"
  expect 1 "variable font name $n" -- "$OTVAR" build "$TMP/vn$n.designspace" -o "$TMP/vno$n"
  one_line_err "variable font name $n"
  err_has "variable font name $n" "$msg"
done
dsv vdup "$(vf A ' filename="B.ttf"' "$W")$(vf B '' "$W")"
expect 1 "two variable fonts to one file" -- "$OTVAR" build "$TMP/vdup.designspace" -o "$TMP/vdupo"
err_has "two variable fonts to one file" "two variable fonts would be written to B.ttf"

cli_summary test_build
