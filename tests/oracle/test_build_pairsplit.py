#!/usr/bin/python3
"""test_build_pairsplit.py - `otvar build` of masters whose merged PairPos sub-tables do not fit
16-bit offsets (issue 27: Source Sans 3 and Source Serif 4 were built without GPOS for it).

Two TrueType masters (wght 100 and 900, 602 glyphs on Latin characters) are written by
fontTools' FontBuilder with a `kern` feature compiled by feaLib:
  - lookup 0: glyph pairs (PairPos format 1): 250 first glyphs x 50 second glyphs, XAdvance
    values that differ between the masters: ~52 KiB in each master, but 6 bytes a record once
    each record gains its VariationIndex device offset, so ~77 KiB (plus the devices) merged;
  - lookup 1: class pairs (PairPos format 2): 150 x 150 classes of one glyph each, ~45 KiB in
    each master, ~90 KiB merged.
otvar must split each merged sub-table into several (fontTools' build does too: its
splitPairPos), and the variable font must position like fontTools 4.38's build: hb-shape of
pairs drawn from both lookups (the firsts of each piece included) at 3 weights (100, 437.5,
900), glyphs and positions equal; the masters' weights give the masters' own positions.
Exit 77 (skip) without fontTools or hb-shape. OTV_PAIRSPLIT_KEEP=DIR keeps the fonts in DIR.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

try:
    from fontTools.fontBuilder import FontBuilder
    from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont
    from fontTools import varLib
    from fontTools.designspaceLib import DesignSpaceDocument
except ImportError:
    print("SKIP: no fontTools")
    sys.exit(77)

from buildtest import OTVAR, fail, finish, ots_check
NG = 602  # .notdef, the pairs' firsts and seconds, the classes' firsts and seconds
# Latin Extended-A and -B, IPA Extensions, Latin Extended Additional (one script: Latin)
CHARS = list(range(0x100, 0x2B0)) + list(range(0x1E00, 0x1F00))
N1, N2 = 250, 50  # glyph pairs: firsts, seconds
C1 = 150  # class pairs: classes of one glyph each (first and second)

def glyph(width):
    pen = TTGlyphPen(None)
    pen.moveTo((50, 0))
    pen.lineTo((50, 700))
    pen.lineTo((50 + width, 700))
    pen.lineTo((50 + width, 0))
    pen.closePath()
    return pen.glyph()


def fea(bold):
    """the kern feature; values differ by master and by pair (many distinct deltas)"""
    names = [f"g{i:03d}" for i in range(NG)]
    out = ["languagesystem DFLT dflt;", "languagesystem latn dflt;", "lookup pairs {"]
    for a in range(N1):
        for b in range(N2):
            v = -((a + b * 37) % 300) - 1  # pair sets all distinct (none shared)
            out.append(f"  pos {names[1 + a]} {names[1 + N1 + b]} {v * (3 if bold else 1)};")
    out.append("} pairs;")
    for i in range(C1):
        out.append(f"@L{i} = [{names[1 + N1 + N2 + i]}];")
        out.append(f"@R{i} = [{names[1 + N1 + N2 + C1 + i]}];")
    out.append("lookup classes {")
    for i in range(C1):
        for j in range(C1):
            v = ((i * 11 + j * 5) % 89) + 1
            out.append(f"  pos @L{i} @R{j} {v * (2 if bold else 1)};")
    out.append("} classes;")
    out.append("feature kern { lookup pairs; lookup classes; } kern;")
    return "\n".join(out)


def master(path, bold):
    names = [".notdef"] + [f"g{i:03d}" for i in range(1, NG)]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({CHARS[i - 1]: names[i] for i in range(1, NG)})
    w = 600 if bold else 400
    fb.setupGlyf({n: glyph(w) for n in names})
    fb.setupHorizontalMetrics({n: (w + 100, 50) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "PairSplit", "styleName": "Bold" if bold else "Thin"})
    fb.setupOS2(usWeightClass=900 if bold else 100)
    fb.setupPost()
    addOpenTypeFeaturesFromString(fb.font, fea(bold))
    fb.save(path)


def designspace(path):
    with open(path, "w") as f:
        f.write("""<?xml version='1.0' encoding='UTF-8'?>
<designspace format="4.1">
  <axes><axis tag="wght" name="Weight" minimum="100" maximum="900" default="100"/></axes>
  <sources>
    <source filename="thin.ttf" name="thin"><location><dimension name="Weight" xvalue="100"/></location></source>
    <source filename="bold.ttf" name="bold"><location><dimension name="Weight" xvalue="900"/></location></source>
  </sources>
</designspace>
""")


def shape(path, var, text):
    cmd = ["hb-shape", "--no-glyph-names", "--output-format=json", path, "--text-file=/dev/stdin"]
    if var:
        cmd.append(f"--variations={var}")
    r = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if r.returncode:
        return None
    return [(g["g"], g["ax"], g["ay"], g["dx"], g["dy"]) for line in r.stdout.splitlines()
            for g in json.loads(line)]


def subtables(path):
    """per kern lookup: (format, sub-table count)"""
    t = TTFont(path)["GPOS"].table
    out = []
    for lk in t.LookupList.Lookup:
        sts = [st.ExtSubTable if lk.LookupType == 9 else st for st in lk.SubTable]
        out.append((sorted({st.Format for st in sts}), len(sts)))
    return out


def main():
    if not OTVAR or not shutil.which("hb-shape"):
        print("SKIP: no otvar or hb-shape")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.environ.get("OTV_PAIRSPLIT_KEEP", tmp)  # a folder to keep the fonts in
        master(os.path.join(tmp, "thin.ttf"), False)
        master(os.path.join(tmp, "bold.ttf"), True)
        ds = os.path.join(tmp, "ps.designspace")
        designspace(ds)
        print("masters:", subtables(os.path.join(tmp, "thin.ttf")))
        out = os.path.join(tmp, "otvar.ttf")
        r = subprocess.run([OTVAR, "build", ds, "-o", out, "-q", "--force"], capture_output=True,
                           text=True)
        if r.returncode:
            fail(f"otvar build: {r.stderr.strip()}")
            return 1
        ft = os.path.join(tmp, "fonttools.ttf")
        doc = DesignSpaceDocument.fromfile(ds)
        varLib.build(doc)[0].save(ft)
        got = subtables(out)
        print("otvar:", got, os.path.getsize(out), "bytes; fontTools:", subtables(ft),
              os.path.getsize(ft), "bytes")
        if len(got) != 2 or got[0][0] != [1] or got[1][0] != [2] or got[0][1] < 2 or got[1][1] < 2:
            fail(f"otvar's kern lookups are not split PairPos formats 1 and 2: {got}")
        ots_check("", out)
        # pairs of both lookups: every first glyph against a few seconds, so each piece is hit
        ch = lambda gid: chr(CHARS[gid - 1])
        pairs = [(1 + a, 1 + N1 + b) for a in range(N1) for b in (a % N2, (a * 7) % N2)]
        pairs += [(1 + N1 + N2 + i, 1 + N1 + N2 + C1 + j) for i in range(C1)
                  for j in (i % C1, (i * 13) % C1)]
        text = "\n".join(ch(a) + ch(b) for a, b in pairs)
        for wght in (100, 437.5, 900):
            a, b = shape(out, f"wght={wght}", text), shape(ft, f"wght={wght}", text)
            if a is None or b is None or len(a) != len(b):
                fail(f"wght={wght}: hb-shape failed or the runs differ in length")
                continue
            diff = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]
            kerned = len(a) - max(sum(1 for x in a if x[1] == v) for v in {x[1] for x in a})
            if diff:
                fail(f"wght={wght}: {len(diff)} of {len(a)} glyphs differ from fontTools' build, "
                     f"e.g. {diff[:3]}")
            elif not kerned:
                fail(f"wght={wght}: no glyph kerned (the lookups did not apply)")
            else:
                print(f"wght={wght}: {len(a)} glyphs equal to fontTools' build ({kerned} kerned)")
        for wght, m in ((100, "thin.ttf"), (900, "bold.ttf")):
            a, b = shape(out, f"wght={wght}", text), shape(os.path.join(tmp, m), None, text)
            if a != b:
                fail(f"wght={wght}: otvar's build does not position as the master {m}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
