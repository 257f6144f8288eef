#!/usr/bin/python3
"""make_cff2_nested_blend.py - a small CFF2 font whose blends take other blends' results as their
delta operands (a blend of blends): cff2_nested_blend.otf (issue 21).

    /usr/bin/python3 tests/fonts/make_cff2_nested_blend.py tests/fonts

Axes wght 100..900 (default 100) and wdth 50..100 (default 50); one ItemVariationData of two
regions, R0 = wght (0, 1, 1) and R1 = wdth (0, 1, 1): with a = the normalized wght and b the
normalized wdth (both 0..1), the blend scalars are a and b. Glyphs (upem 1000, advance 600):

  tri    10 20 rmoveto  100  50 40 30 1 blend  20 1 blend  0 rlineto  0 200 rlineto
         the first blend's result (50 + 40a + 30b) is the wght delta of the second:
         W = 100 + (50 + 40a + 30b) a + 20 b; points (10, 20) (10 + W, 20) (10 + W, 220)
         a = 0, b = 0: W = 100; a = 1, b = 0: W = 190; a = 1, b = 1: W = 240;
         a = 0.5, b = 0: W = 135; a = 0.5, b = 0.5: W = 152.5
  two    0 0 rmoveto  300 7 3 1 blend  100  60 -30 10 5 8 -4 2 blend  20 -15 2 blend  rlineto
         0 150 rlineto
         a chain (the default 300 + 7a + 3b) and both delta operands of the first value from one
         inner blend (u = 60 + 10a + 5b, v = -30 + 8a - 4b):
         dx = 300 + 7a + 3b + u a + v b, dy = 100 + 20a - 15b; points (0, 0) (dx, dy) (dx, dy + 150)
         a = 1, b = 0: dx = 377, dy = 120; a = 1, b = 1: dx = 310 + 75 - 26 = 359, dy = 105
  sub    10 20 rmoveto  100 -107 callgsubr  20 1 blend  0 rlineto  0 200 rlineto
         "tri" with its inner blend in global subroutine 0 (50 40 30 1 blend)
  hint   the blend of blends as an hstem and a vstem (0 [W] hstem, 10 [W] vstem) before
         "tri"'s path
and cff2_nested_blend_taken.otf: "tri" whose W is then the default of a third blend (W + 5a),
which a partial instance keeping wght cannot write (refused).
HVAR keeps the advances at 600. Glyph names are ours; the font is written by fontTools 4.38 (Debian)."""
import os
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.misc.psCharStrings import T2CharString
from fontTools.ttLib import newTable
from fontTools.ttLib.tables import otTables as ot
from fontTools.varLib.builder import buildVarData, buildVarRegionList, buildVarStore

W = [100, 50, 40, 30, 1, "blend", 20, 1, "blend"]
TRI = [10, 20, "rmoveto"] + W + [0, "rlineto", 0, 200, "rlineto"]
TWO = [0, 0, "rmoveto", 300, 7, 3, 1, "blend", 100, 60, -30, 10, 5, 8, -4, 2, "blend", 20, -15, 2,
       "blend", "rlineto", 0, 150, "rlineto"]
SUB = [10, 20, "rmoveto", 100, -107, "callgsubr", 20, 1, "blend", 0, "rlineto", 0, 200, "rlineto"]
GSUBR = [50, 40, 30, 1, "blend"]
HINT = [0] + W + ["hstem", 10] + W + ["vstem"] + TRI


# cff2_nested_blend_taken.otf: "tri" whose blend of blends is then a default of a third blend
# (W + 5a): a partial instance that keeps wght cannot write it (OTV_E_UNSUPPORTED)
TAKEN = [10, 20, "rmoveto"] + W + [5, 0, 1, "blend", 0, "rlineto", 0, 200, "rlineto"]


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    build(os.path.join(d, "cff2_nested_blend.otf"), {"tri": TRI, "two": TWO, "sub": SUB,
                                                     "hint": HINT})
    build(os.path.join(d, "cff2_nested_blend_taken.otf"), {"tri": TAKEN})


def build(out, glyphs):
    order = [".notdef"] + list(glyphs)
    progs = dict(glyphs)
    progs[".notdef"] = []
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x41 + i: name for i, name in enumerate(order[1:])})
    fb.setupNameTable({"familyName": "Nested Blend", "styleName": "Regular"})
    fb.setupFvar([("wght", 100, 100, 900, "Weight"), ("wdth", 50, 50, 100, "Width")], [])
    charstrings = {name: T2CharString(program=list(p)) for name, p in progs.items()}
    fb.setupCFF2(charstrings)
    fb.setupCFF2Regions([{"wght": (0, 1, 1)}, {"wdth": (0, 1, 1)}])
    cff = fb.font["CFF2"].cff
    top = cff.topDictIndex[0]
    gs = T2CharString(program=list(GSUBR), private=top.FDArray[0].Private,
                      globalSubrs=cff.GlobalSubrs)
    cff.GlobalSubrs.append(gs)
    fb.setupHorizontalMetrics({name: (600, 0) for name in order})
    # HVAR: the advances do not vary (every glyph's item has zero deltas, implicit mapping)
    regions = buildVarRegionList([{"wght": (0, 1, 1)}, {"wdth": (0, 1, 1)}], ["wght", "wdth"])
    hvar = newTable("HVAR")
    hvar.table = ot.HVAR()
    hvar.table.Version = 0x00010000
    hvar.table.VarStore = buildVarStore(regions, [buildVarData([0, 1], [[0, 0]] * len(order))])
    hvar.table.AdvWidthMap = hvar.table.LsbMap = hvar.table.RsbMap = None
    fb.font["HVAR"] = hvar
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupOS2()
    fb.setupPost()
    fb.save(out)
    print(out)


if __name__ == "__main__":
    main()
