#!/usr/bin/python3
"""Generate the small static CFF fonts with non-default FontMatrix used by test_cff (issue 5).

    /usr/bin/python3 tests/fonts/make_cff_fontmatrix.py tests/fonts

Each font has the same three glyphs (.notdef empty; "square": 0 0 rmoveto, 100 0 rlineto,
0 100 rlineto, -100 0 rlineto; "curve": 10 20 rmoveto, 30 0 40 10 50 50 rrcurveto) and differs
only in unitsPerEm and the Top DICT FontMatrix:

    cff_fm_skew.otf     upem 1000, [0.001 0 0.00025 0.001 0 0]   (x += y / 4)
    cff_fm_2048.otf     upem 2048, [1/2048 0 0 1/2048 0 0]      (identity in font units)
    cff_fm_half.otf     upem 1000, [0.0005 0 0 0.0005 0 0]      (charstring units are half size)
    cff_fm_offset.otf   upem 1000, [0.001 0 0 0.001 0.01 0.02]  (translated by 10, 20 units)

Written with fontTools 4.38 (Debian); glyph bounds are not recomputed (fontTools ignores the
FontMatrix there).
"""
import os
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.misc.psCharStrings import T2CharString

FONTS = {
    "cff_fm_skew.otf": (1000, [0.001, 0, 0.00025, 0.001, 0, 0]),
    "cff_fm_2048.otf": (2048, [1 / 2048, 0, 0, 1 / 2048, 0, 0]),
    "cff_fm_half.otf": (1000, [0.0005, 0, 0, 0.0005, 0, 0]),
    "cff_fm_offset.otf": (1000, [0.001, 0, 0, 0.001, 0.01, 0.02]),
}


def build(path, upem, matrix):
    order = [".notdef", "square", "curve"]
    progs = {
        ".notdef": ["endchar"],
        "square": [0, 0, "rmoveto", 100, 0, "rlineto", 0, 100, "rlineto", -100, 0, "rlineto",
                   "endchar"],
        "curve": [10, 20, "rmoveto", 30, 0, 40, 10, 50, 50, "rrcurveto", "endchar"],
    }
    fb = FontBuilder(upem, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x41: "square", 0x42: "curve"})
    css = {n: T2CharString(program=p) for n, p in progs.items()}
    fb.setupCFF("FontMatrixTest", {"FullName": "FontMatrix Test", "FontMatrix": matrix}, css, {})
    fb.setupHorizontalMetrics({n: (500, 0) for n in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "FontMatrix Test", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost()
    fb.font.recalcBBoxes = False
    fb.save(path)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, (upem, matrix) in FONTS.items():
        build(os.path.join(out, name), upem, matrix)


if __name__ == "__main__":
    main()
