#!/usr/bin/env bash
# test_instance_cff1.sh - `otvar instance` on CFF2 fonts: a CFF table by default, CFF2 with
# --cff2 (each validated by ots-sanitize and fontTools), --cff-exact (16.16 values, both
# outputs), --cff2 and --cff-exact in the help text, the CFF2
# table of --cff2 and the CFF table otherwise; a hostile CFF2 font (a charstring that calls a
# missing subroutine) gives one error line and exit 1 in both modes, and no output file.
set -u
: "${OTVAR:?}" "${OTV_FONTS:?}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

# the charstring operands (glyphs and subroutines) of a CFF or CFF2 font that are not integers
fractions() { $PY - "$1" <<'PYEOF'
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
cff = (f["CFF2"] if "CFF2" in f else f["CFF "]).cff
cff.desubroutinize = False
top = cff.topDictIndex[0]
progs = [top.CharStrings[g] for g in top.CharStrings.keys()] + list(cff.GlobalSubrs)
for fd in getattr(top, "FDArray", None) or [top]:
    progs += list(getattr(fd.Private, "Subrs", None) or [])
n = 0
for cs in progs:
    cs.decompile()
    n += sum(1 for t in cs.program if isinstance(t, float) and t != int(t))
print(n)
PYEOF
}

tables() { $PY -c 'import sys; from fontTools.ttLib import TTFont; f = TTFont(sys.argv[1]); print(" ".join(sorted(f.keys())))' "$1"; }

for font in AdobeVFPrototype_vsindex.otf NotoSansJP-VF.subset.otf CFF2Instancer-VF-1.otf; do
  expect 0 "$font default" -- "$OTVAR" instance "$OTV_FONTS/$font" --var wght=600 -o "$TMP/a.otf" -q
  t=$(tables "$TMP/a.otf")
  case " $t " in *" CFF  "*|*" CFF "*) ok ;; *) bad "$font: no CFF table ($t)" ;; esac
  case " $t " in *" CFF2 "*) bad "$font: a CFF2 table without --cff2" ;; *) ok ;; esac
  if command -v ots-sanitize >/dev/null; then
    if ots-sanitize "$TMP/a.otf" >"$TMP/ots" 2>&1; then ok; else bad "$font: ots-sanitize: $(head -2 "$TMP/ots")"; fi
  fi
  expect 0 "$font --cff2" -- "$OTVAR" instance "$OTV_FONTS/$font" --var wght=600 --cff2 -o "$TMP/b.otf" -q
  t=$(tables "$TMP/b.otf")
  case " $t " in *" CFF2 "*) ok ;; *) bad "$font --cff2: no CFF2 table ($t)" ;; esac
  # --cff-exact: values that are not integers as 16.16 numbers (fontTools reads them as
  # floats), in the CFF and the CFF2 output; the integer outputs have none
  for flags in "" "--cff2"; do
    expect 0 "$font $flags --cff-exact" -- "$OTVAR" instance "$OTV_FONTS/$font" --var wght=600 \
      $flags --cff-exact -o "$TMP/e.otf" -q
    n=$(fractions "$TMP/e.otf")
    if [ "${n:-0}" -gt 0 ]; then ok; else bad "$font $flags --cff-exact: no 16.16 value"; fi
    rm -f "$TMP/e.otf"
  done
  n=$(fractions "$TMP/a.otf")
  if [ "$n" = 0 ]; then ok; else bad "$font: $n values that are not integers without --cff-exact"; fi
  rm -f "$TMP/a.otf" "$TMP/b.otf"
done

expect 0 "help" -- "$OTVAR" instance --help
has "help lists --cff2" "--cff2"
has "help lists --cff-exact" "--cff-exact"

# hostile: the first charstring's first byte becomes callsubr with no subroutines (the
# charstring starts with a number; 10 = callsubr)
$PY - "$OTV_FONTS/CFF2Instancer-VF-1.otf" "$TMP/bad.otf" <<'PYEOF'
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1], recalcBBoxes=False)
top = f["CFF2"].cff.topDictIndex[0]
cs = top.CharStrings[f.getGlyphOrder()[1]]
cs.decompile()
cs.program = [5, "callsubr"] + cs.program
f.save(sys.argv[2])
PYEOF
for flag in "" "--cff2" "--cff-exact"; do
  expect 1 "hostile $flag" -- "$OTVAR" instance "$TMP/bad.otf" --var wght=600 $flag -o "$TMP/c.otf"
  one_line_err "hostile $flag"
  err_has "hostile $flag names CFF2" "CFF2"
  if [ -e "$TMP/c.otf" ]; then bad "hostile $flag: an output file was left"; else ok; fi
done
cli_summary test_instance_cff1
