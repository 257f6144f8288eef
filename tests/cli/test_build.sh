#!/usr/bin/env bash
# test_build.sh - `otvar build` (issue 27): usage errors, hostile designspaces and masters (each a
# one-line error and exit 1, never a crash), a single-master build that opens, and every prefix
# of a master refused cleanly. The comparison with fontTools' builds is
# tests/oracle/test_build.py.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup

help_ok build
expect 2 "no designspace" -- "$OTVAR" build
one_line_err "no designspace"
expect 2 "no -o" -- "$OTVAR" build "$TMP/x.designspace"
one_line_err "no -o"
expect 1 "missing file" -- "$OTVAR" build "$TMP/none.designspace" -o "$TMP/o.ttf"
one_line_err "missing file"

# the designspaces below are $TMP/NAME.designspace; most have this axis
WGHT='<axis tag="wght" name="Weight" minimum="100" default="400" maximum="900"/>'
doc() { # doc NAME FORMAT BODY: a designspace of format FORMAT holding BODY
  printf '<?xml version="1.0"?>\n<designspace format="%s">%s</designspace>\n' "$2" "$3" >"$TMP/$1.designspace"
}
ds() { doc "$1" 4.1 "<axes>$WGHT</axes><sources>$2</sources>"; } # ds NAME SOURCES: one wght axis
# refused NAME DESC [OUT]: building $TMP/NAME.designspace (to OUT, else $TMP/o.ttf) exits 1
refused() { expect 1 "$2" -- "$OTVAR" build "$TMP/$1.designspace" -o "${3:-$TMP/o.ttf}"; }
# refused_saying NAME DESC MSG [OUT]: refused, with one error line that says MSG
refused_saying() {
  refused "$1" "$2" "${4:-$TMP/o.ttf}"
  one_line_err "$2"
  err_has "$2" "$3"
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
refused_saying bad "bad xml" "line 1"
printf '<designspace format="4"><axes/><sources/></designspace>' >"$TMP/empty.designspace"
refused empty "no axes"
one_line_err "no axes"
ds unknown "$(src Reg 400 Width)"
refused unknown "unknown axis"
err_has "unknown axis" "names no axis"
ds nomaster "$(src Nope 400)"
refused nomaster "missing master"
err_has "missing master" "Nope.ttf"
ds nodefault "$(src Reg 900)"
refused nodefault "no default"
err_has "no default" "default"
ds twice "$(src Reg 400)$(src Reg 400)"
refused twice "same location"
one_line_err "same location"
printf '<designspace format="4"><axes><axis tag="wght" name="W" minimum="900" default="400" maximum="100"/></axes><sources>%s</sources></designspace>' \
  "$(src Reg 400 W)" >"$TMP/range.designspace"
refused range "bad range"
one_line_err "bad range"

# avar 2 mappings (format 5 <mappings>): one that moves weight 600 builds avar version 2 and
# normalizes as hand-computed (design = user here: 600 -> 0.4 = 6554, + (650 - 600) / 500 =
# 1638 -> 8192); hostile ones are one-line errors
dsm() { # dsm NAME MAPPINGS [AFTER]: one wght axis, the Reg master, MAPPINGS inside <axes>
  doc "$1" 5.0 "<axes>$WGHT<mappings>$2</mappings>${3:-}</axes><sources>$(src Reg 400)</sources>"
}
mp() { printf '<mapping><input><dimension name="%s" xvalue="%s"/></input><output><dimension name="Weight" xvalue="%s"/></output></mapping>' "$1" "$2" "$3"; }
dsm map "$(mp Weight 600 650)"
expect 0 "avar2 mapping" -- "$OTVAR" build "$TMP/map.designspace" -o "$TMP/map.ttf" -q
expect 0 "avar2 info" -- "$OTVAR" info "$TMP/map.ttf"
has "avar2 info" "avar: version 2"
expect 0 "avar2 normalize" -- "$OTVAR" normalize "$TMP/map.ttf" wght=600
has "avar2 normalize" "wght 600 8192 "
dsm mapunknown "$(mp Width 600 650)"
refused mapunknown "mapping unknown axis"
err_has "mapping unknown axis" "names no axis"
dsm maptwice "$(mp Weight 600 650)$(mp Weight 600 700)"
refused_saying maptwice "mapping inputs repeated" "axis mappings"
dsm mapaxis "$(mp Weight 600 650)" '<axis tag="wdth" name="Width" minimum="50" default="100" maximum="100"/>'
refused mapaxis "axis after mappings"
err_has "axis after mappings" "after the axis mappings"
dsm mapbad '<mapping><input><dimension name="Weight" xvalue="abc"/></input></mapping>'
refused mapbad "mapping bad number"
err_has "mapping bad number" "bad number"

# rules (GSUB FeatureVariations; the rules themselves: tests/oracle/test_build.py): hostile
# ones are one-line errors; a rule on a glyph the default master lacks names the glyph
dsr() { # dsr NAME RULES: the Reg master and RULES as <rules>
  doc "$1" 4.1 "<axes>$WGHT</axes><rules>$2</rules><sources>$(src Reg 400)</sources>"
}
dsr rnoglyph '<rule name="r"><conditionset><condition name="Weight" minimum="500"/></conditionset><sub name="nosuchglyph" with="A"/></rule>'
refused rnoglyph "rule unknown glyph"
err_has "rule unknown glyph" "nosuchglyph"
dsr rnoaxis '<rule name="r"><conditionset><condition name="Width" minimum="500"/></conditionset><sub name="A" with="B"/></rule>'
refused rnoaxis "rule unknown axis"
err_has "rule unknown axis" "names no axis"
dsr rnowith '<rule name="r"><sub name="A"/></rule>'
refused rnowith "rule sub without with"
one_line_err "rule sub without with"
dsr rbadnum '<rule name="r"><conditionset><condition name="Weight" minimum="x"/></conditionset></rule>'
refused rbadnum "rule bad number"
err_has "rule bad number" "bad number"

# format 5 axis labels (STAT): hostile ones are one-line errors
dsl() { # dsl NAME LABELS [ATTRS]: one wght axis with LABELS inside <labels ATTRS>, the Reg master
  doc "$1" 5.0 "<axes>${WGHT%/>}><labels ${3:-}>$2</labels></axis></axes><sources>$(src Reg 400)</sources>"
}
dsl lnoname '<label uservalue="400"/>'
refused lnoname "label without name"
err_has "label without name" "without a name"
dsl lbadval '<label uservalue="heavy" name="X"/>'
refused lbadval "label bad value"
err_has "label bad value" "bad number"
dsl lbadord '<label uservalue="400" name="X"/>' 'ordering="-3"'
refused lbadord "labels bad ordering"
one_line_err "labels bad ordering"
dsl lhuge '<label uservalue="400" userminimum="-1e300" name="X"/>'
refused lhuge "label huge range"
one_line_err "label huge range"

# masters that are not fonts, and every 97th prefix of a real one: an error, never a crash
printf 'garbage garbage garbage' >"$TMP/Junk.ttf"
ds junk "$(src Junk 400)"
refused junk "junk master"
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
refused mixed "cff and truetype masters" "$TMP/o.otf"
err_has "cff and truetype masters" "TrueType outlines"
cp "$FONTS/cff_seac_f1.otf" "$TMP/Seac.otf"
ds seac "$(src Seac 400)"
refused seac "seac master" "$TMP/o.otf"
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
ital() { printf '<axis tag="ital" name="Italic" values="%s" default="0"/>' "$1"; } # ital VALUES
dsd() { # dsd NAME VALUES SOURCES: wght and a discrete ital axis
  doc "$1" 5.0 "<axes>$WGHT$(ital "$2")</axes><sources>$3</sources>"
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
  refused dbad "discrete values '${v:0:12}'" "$TMP/vfb"
  one_line_err "discrete values '${v:0:12}'"
done
dsd dnosrc "0 1" "$(src2 up 0)"
refused dnosrc "discrete value without sources" "$TMP/vfc"
err_has "discrete value without sources" "no source at its discrete axis values"
[ ! -e "$TMP/vfc/dnosrc-VF-ital0.0.ttf" ] && ok || bad "a font written before the refusal"
# an <instance> inside an <axis> with a map (fuzz_designspace: its location read the map before
# </axis> set it, a null pointer)
printf '<?xml version="1.0"?>\n<designspace format="5.0"><axes><axis tag="wght" name="W" minimum="1" default="2" maximum="3"><map input="1" output="1"/><instance><location/></instance></axis></axes><sources><source filename="Reg.ufo"/></sources></designspace>\n' >"$TMP/inax.designspace"
expect 0 "instance inside an axis" -- "$OTVAR" build "$TMP/inax.designspace" -o "$TMP/inax.ttf" -q
# an axis after the sources (fuzz_designspace: their locations had no value for it, read past)
printf '<?xml version="1.0"?>\n<designspace format="4.1"><axes><axis tag="wght" name="W" minimum="100" default="400" maximum="900"/></axes><sources><source filename="Reg.ufo"/></sources><axes><axis tag="wdth" name="D" minimum="50" default="100" maximum="100"/></axes></designspace>\n' >"$TMP/axafter.designspace"
refused axafter "axis after the sources"
err_has "axis after the sources" "an axis after the sources"

# location labels (STAT format 4; against fontTools: tests/oracle/test_build_stat4.py): hostile
# ones are one-line errors
dsll() { # dsll NAME LABEL: one wght axis, the Reg master, LABEL in the document's <labels>
  doc "$1" 5.0 "<axes>$WGHT</axes><labels>$2</labels><sources>$(src Reg 400)</sources>"
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
  refused_saying "ll$n" "location label $n" "$msg"
done

# format 5 <variable-fonts> (builds against fontTools: tests/oracle/test_build_vfonts.py): each
# <variable-font> a file in the folder OUT; hostile subsets and names are one-line errors, and
# nothing is written
dsv() { # dsv NAME VFONTS: wght and a discrete ital axis, the Reg master at ital 0 and 1
  doc "$1" 5.0 "<axes>$WGHT$(ital "0 1")</axes><sources>$(src2 up 0)$(src2 it 1)</sources><variable-fonts>$2</variable-fonts>"
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
  refused_saying "vb$n" "variable font $n" "$msg" "$TMP/vbo$n"
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
  refused_saying "vn$n" "variable font name $n" "$msg" "$TMP/vno$n"
done
dsv vdup "$(vf A ' filename="B.ttf"' "$W")$(vf B '' "$W")"
refused vdup "two variable fonts to one file" "$TMP/vdupo"
err_has "two variable fonts to one file" "two variable fonts would be written to B.ttf"

cli_summary test_build
