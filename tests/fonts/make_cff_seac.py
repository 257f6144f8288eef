#!/usr/bin/python3
"""Generate the small static CFF fonts with accented glyphs made by seac (Type 2 endchar with
four arguments: adx ady bchar achar, the base and the accent named by their Standard Encoding
codes), one per way a CFF charset maps the accent's and the base's names to glyphs:

    /usr/bin/python3 tests/fonts/make_cff_seac.py tests/fonts

    cff_seac_iso.otf   the 229 glyphs of the predefined ISOAdobe charset, in its order
                       (charset offset 0: no charset data in the font)
    cff_seac_f1.otf    .notdef, A..Z, acute, Aacute, Aacute.w: charset format 1 (ranges with
                       8-bit counts)
    cff_seac_f2.otf    .notdef, 300 glyphs with custom names, then A, acute, Aacute: charset
                       format 2 (16-bit counts; the lookups pass its range of 300)

In each font "A" is a triangle, "acute" a small slanted quadrilateral with a curve, "Aacute" is
`50 210 65 194 endchar` (accent offset (50, 210), base Standard Encoding code 65 = A, accent code
194 = acute) and, where present, "Aacute.w" is the same with a width operand first. Other glyphs
are empty. Written with fontTools 4.38 (Debian), which picks the charset format itself (the
smallest data, the predefined charset when the glyph order is ISOAdobe's); the script checks
the format it wrote.
"""
import os
import sys

from fontTools.cffLib import cffISOAdobeStrings
from fontTools.fontBuilder import FontBuilder
from fontTools.misc.psCharStrings import T2CharString
from fontTools.ttLib import TTFont

A = [100, 0, "rmoveto", 200, 0, "rlineto", -100, 300, "rlineto", "endchar"]
ACUTE = [120, 400, "rmoveto", 40, 0, "rlineto", 10, 20, 20, 40, 30, 60, "rrcurveto", -40, 0,
         "rlineto", "endchar"]
SEAC = [50, 210, 65, 194, "endchar"]
SEAC_W = [480, 50, 210, 65, 194, "endchar"]


def build(path, order):
    progs = {name: ["endchar"] for name in order}
    progs["A"] = A
    progs["acute"] = ACUTE
    progs["Aacute"] = SEAC
    if "Aacute.w" in progs:
        progs["Aacute.w"] = SEAC_W
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x41: "A", 0xB4: "acute", 0xC1: "Aacute"})
    charstrings = {name: T2CharString(program=list(p)) for name, p in progs.items()}
    fb.setupCFF("SeacTest", {"FullName": "Seac Test"}, charstrings, {})
    fb.setupHorizontalMetrics({name: (500, 0) for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Seac Test", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost()
    fb.save(path)


def charset_format(path):
    """0 for a predefined charset, else the format byte of the charset data."""
    f = TTFont(path)
    cff = f["CFF "].cff
    raw = f.reader["CFF "]
    off = cff[cff.fontNames[0]].rawDict.get("charset", 0)
    return ("predefined %d" % off) if off <= 2 else raw[off]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    fonts = {
        "cff_seac_iso.otf": (list(cffISOAdobeStrings[:229]), "predefined 0"),
        "cff_seac_f1.otf": ([".notdef"] + [chr(c) for c in range(65, 91)]
                            + ["acute", "Aacute", "Aacute.w"], 1),
        "cff_seac_f2.otf": ([".notdef"] + ["g%03d" % i for i in range(300)]
                            + ["A", "acute", "Aacute"], 2),
    }
    for name, (order, want) in fonts.items():
        path = os.path.join(out, name)
        build(path, order)
        got = charset_format(path)
        if got != want:
            sys.exit("%s: charset %r, wanted %r" % (name, got, want))
        print("%s: %d glyphs, charset %s" % (name, len(order), got))


if __name__ == "__main__":
    main()
