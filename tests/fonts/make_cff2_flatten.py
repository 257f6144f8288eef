#!/usr/bin/python3
"""make_cff2_flatten.py - small CFF2 fonts for the static CFF2/CFF instances' edge cases
(issue 21):

    /usr/bin/python3 tests/fonts/make_cff2_flatten.py tests/fonts

One axis wght 100..900 (default 100), one region wght (0, 1, 1): with a = the normalized wght
(0..1) the blend scalar is a. upem 1000, advance 600 (HVAR: zero deltas).

  cff2_flat_fm.otf     Top DICT FontMatrix [0.0005 0 0 0.0005 0 0] (charstring units are half a
                       font unit). The charstring walker copies charstrings, which the matrix
                       would then scale, while otvar's interpreter draws in font units: a
                       static CFF2 instance (--cff2) of it is flattened (each glyph drawn at the
                       location, its points rounded, the plain 1/unitsPerEm matrix; no
                       subroutine, no hint), the CFF one keeps the matrix and the charstrings.
        box    20 40 1 blend 0 rmoveto  -107 callgsubr  0 600 rlineto  -400 -50 1 blend 0 rlineto
               global subroutine 0: 400 50 1 blend 0 rlineto (no return)
               font units: (10 + 20a, 0) (210 + 45a, 0) (210 + 45a, 300) (10 + 20a, 300)
        hint   0 30 10 1 blend hstem, then "box"'s path without the call
        tri    0 0 rmoveto  300 100 1 blend 0 rlineto  -150 -50 1 blend 500 rlineto
  cff2_blend_numbers.otf  blend results where a number is needed, in kept subroutines (which
                       a glyph's walk follows without writing them):
        box    as above, but global subroutine 0 is "-106 0 1 blend callgsubr" (the number of
               the subroutine it calls a blend result: -106 everywhere) and global subroutine
               1 is the one above
        cnt    10 20 rmoveto  -105 callgsubr  0 200 rlineto
               global subroutine 2: 100 50 1 0 1 blend blend 0 rlineto (its blend count the
               result of a blend: 100 + 50a)
        hint, tri  as above
  cff2_vsindex_subr.otf  a vsindex whose operand a kept subroutine pushes; two ItemVariationData:
                       0 over the region wght (0, 1, 1) (scalar a), 1 over wght (0, 0.5, 1)
                       (scalar b = 2a up to a = 0.5, then 2 - 2a):
        vsx    -107 callgsubr vsindex  then "box"'s path without the call, its blends over
               ItemVariationData 1 (global subroutine 0: "1", the vsindex operand)
               font units: (20 + 40b, 0) (420 + 90b, 0) (420 + 90b, 600) (20 + 40b, 600)
        box    as in cff2_flat_fm.otf, global subroutine 1 its subroutine (over
               ItemVariationData 0: the Private DICT's vsindex)
        tri    as above
Glyph names are ours; written by fontTools 4.38 (Debian)."""
import os
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.misc.psCharStrings import T2CharString
from fontTools.ttLib import newTable
from fontTools.ttLib.tables import otTables as ot
from fontTools.varLib.builder import buildVarData, buildVarRegionList, buildVarStore

BOX = [20, 40, 1, "blend", 0, "rmoveto", -107, "callgsubr", 0, 600, "rlineto", -400, -50, 1, "blend",
       0, "rlineto"]
GSUBR = [400, 50, 1, "blend", 0, "rlineto"]
GSUBR_NUM = [-106, 0, 1, "blend", "callgsubr"]
GSUBR_CNT = [100, 50, 1, 0, 1, "blend", "blend", 0, "rlineto"]
CNT = [10, 20, "rmoveto", -105, "callgsubr", 0, 200, "rlineto"]
GSUBR_VS = [1]
VSX = [-107, "callgsubr", "vsindex", 20, 40, 1, "blend", 0, "rmoveto", 400, 50, 1, "blend", 0,
       "rlineto", 0, 600, "rlineto", -400, -50, 1, "blend", 0, "rlineto"]
BOX_1 = [20, 40, 1, "blend", 0, "rmoveto", -106, "callgsubr", 0, 600, "rlineto", -400, -50, 1,
         "blend", 0, "rlineto"]
TRI = [0, 0, "rmoveto", 300, 100, 1, "blend", 0, "rlineto", -150, -50, 1, "blend", 500, "rlineto"]
HINT = [0, 30, 10, 1, "blend", "hstem", 20, 40, 1, "blend", 0, "rmoveto"] + GSUBR + \
    [0, 600, "rlineto", -400, -50, 1, "blend", 0, "rlineto"]


def build(out, glyphs, gsubrs, matrix=None, two_stores=False):
    order = [".notdef"] + list(glyphs)
    progs = dict(glyphs)
    progs[".notdef"] = []
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x41 + i: name for i, name in enumerate(order[1:])})
    fb.setupNameTable({"familyName": "Flatten Test", "styleName": "Regular"})
    fb.setupFvar([("wght", 100, 100, 900, "Weight")], [])
    charstrings = {name: T2CharString(program=list(p)) for name, p in progs.items()}
    fb.setupCFF2(charstrings)
    fb.setupCFF2Regions([{"wght": (0, 1, 1)}])
    cff = fb.font["CFF2"].cff
    top = cff.topDictIndex[0]
    if two_stores:  # ItemVariationData 0: region (0, 1, 1); 1: region (0, 0.5, 1)
        from fontTools.cffLib import VarStoreData
        rl = buildVarRegionList([{"wght": (0, 1, 1)}, {"wght": (0, 0.5, 1)}], ["wght"])
        vs = VarStoreData(otVarStore=buildVarStore(
            rl, [buildVarData([0], None, optimize=False), buildVarData([1], None, optimize=False)]))
        top.VarStore = vs
        for fd in top.FDArray:
            fd.Private.vstore = vs
    if matrix:
        top.FontMatrix = matrix
    for p in gsubrs:
        cff.GlobalSubrs.append(T2CharString(program=list(p), private=top.FDArray[0].Private,
                                            globalSubrs=cff.GlobalSubrs))
    fb.setupHorizontalMetrics({name: (600, 0) for name in order})
    regions = buildVarRegionList([{"wght": (0, 1, 1)}], ["wght"])
    hvar = newTable("HVAR")
    hvar.table = ot.HVAR()
    hvar.table.Version = 0x00010000
    hvar.table.VarStore = buildVarStore(regions, [buildVarData([0], [[0]] * len(order))])
    hvar.table.AdvWidthMap = hvar.table.LsbMap = hvar.table.RsbMap = None
    fb.font["HVAR"] = hvar
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupOS2()
    fb.setupPost()
    fb.font.recalcBBoxes = False
    fb.save(out)
    print(out)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    build(os.path.join(d, "cff2_flat_fm.otf"), {"box": BOX, "hint": HINT, "tri": TRI}, [GSUBR],
          [0.0005, 0, 0, 0.0005, 0, 0])
    build(os.path.join(d, "cff2_blend_numbers.otf"), {"box": BOX, "cnt": CNT, "hint": HINT,
                                                      "tri": TRI}, [GSUBR_NUM, GSUBR, GSUBR_CNT])
    build(os.path.join(d, "cff2_vsindex_subr.otf"), {"vsx": VSX, "box": BOX_1, "tri": TRI},
          [GSUBR_VS, GSUBR], two_stores=True)


if __name__ == "__main__":
    main()
