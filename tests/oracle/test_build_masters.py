#!/usr/bin/python3
"""test_build_masters.py - `otvar build` of more than 64 masters (issue 27: the master sets were
64-bit masks; Handjet has 168 masters, Roboto Flex 85), against fontTools 4.38's varLib.

100 masters on a grid of 3 axes (normalized wght and wdth -1, -0.5, 0, 0.5, 1; slnt -1, 0, 0.5,
1), each written by fontTools' FontBuilder twice, as TrueType (glyf) and as CFF, with 7 glyphs
whose points, advances and pair kerning (GPOS PairPos format 1) move by non-linear functions of
the location, so every master's region carries deltas; glyph `e` is empty in the 25 TrueType
masters at slnt 0.5 (sparse there: its own sub-model). Both sets are built by otvar and by fontTools'
varLib; at each master's location and at 6 seeded random ones the two builds must draw the same
outlines through otvar (`otvar outline`) within 1 unit and equal advances within 1, and
position the same through HarfBuzz (hb-shape of every pair of the glyphs: glyphs and positions
equal). 257 sources are refused with the limit named.
Exit 77 (skip) without fontTools or hb-shape.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

try:
    from fontTools.fontBuilder import FontBuilder
    from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools import varLib
    from fontTools.designspaceLib import DesignSpaceDocument
except ImportError:
    print("SKIP: no fontTools")
    sys.exit(77)

from buildtest import OTVAR, fail, failures, finish
AXES = [("wght", 100, 400, 900), ("wdth", 50, 100, 150), ("slnt", -10, 0, 10)]
GRID = [(-1, -0.5, 0, 0.5, 1), (-1, -0.5, 0, 0.5, 1), (-1, 0, 0.5, 1)]
NAMES = [".notdef", "a", "b", "c", "d", "e", "f"]
CHARS = "abcdef"
NUM = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")

def user(a, n):
    tag, lo, de, hi = AXES[a]
    return de + n * ((hi - de) if n >= 0 else (de - lo))


def points(gi, loc):
    a, b, c = loc
    s = 30 * a + 12 * a * b + 9 * c * c + 5 * gi * b
    t = 20 * b - 8 * a * c + 6 * gi * a * a
    x0, y0 = 50 + 10 * gi, 0
    return [(round(x0 + s), round(y0 + t)), (round(x0 + 20 + s * 0.5), round(700 + t * 0.7)),
            (round(x0 + 300 + s * 1.5 + c * 11), round(650 - t)),
            (round(x0 + 280 - b * 13), round(30 + a * b * 17))]


def advance(gi, loc):
    a, b, c = loc
    return round(500 + 40 * gi + 90 * a + 25 * b * c - 12 * a * a + 7 * c)


def kern(i, j, loc):
    a, b, c = loc
    return round(-15 - 3 * i + 2 * j - 20 * a + 9 * b * c + 6 * a * b * b)


def draw(pen, i, loc):
    """glyph i's one contour at loc"""
    pts = points(i, loc)
    pen.moveTo(pts[0])
    for p in pts[1:]:
        pen.lineTo(p)
    pen.closePath()


def master(path, loc, cff, drop_e):
    fb = FontBuilder(1000, isTTF=not cff)
    fb.setupGlyphOrder(NAMES)
    fb.setupCharacterMap({ord(ch): ch for ch in CHARS})
    adv = {n: advance(i, loc) for i, n in enumerate(NAMES)}
    if cff:
        cs = {}
        for i, n in enumerate(NAMES):
            pen = T2CharStringPen(adv[n], None)
            draw(pen, i, loc)
            cs[n] = pen.getCharString()
        fb.setupCFF("Masters", {"FullName": "Masters"}, cs, {})
    else:
        gl = {}
        for i, n in enumerate(NAMES):
            pen = TTGlyphPen(None)
            if not (drop_e and n == "e"):
                draw(pen, i, loc)
            gl[n] = pen.glyph()
        fb.setupGlyf(gl)
    fb.setupHorizontalMetrics({n: (adv[n], 0) for n in NAMES})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Masters", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost()
    fea = ["languagesystem DFLT dflt;", "feature kern {"]
    for i, x in enumerate(CHARS):
        for j, y in enumerate(CHARS):
            fea.append(f"  pos {x} {y} {kern(i, j, loc)};")
    fea.append("} kern;")
    addOpenTypeFeaturesFromString(fb.font, "\n".join(fea))
    fb.save(path)


def locations():
    out = []
    for a in GRID[0]:
        for b in GRID[1]:
            for c in GRID[2]:
                out.append((a, b, c))
    out.sort(key=lambda p: (sum(1 for v in p if v), p))  # the default first
    return out


def designspace(path, files, locs):
    ax = "".join(f'<axis tag="{t}" name="{t}" minimum="{lo}" default="{de}" maximum="{hi}"/>'
                 for t, lo, de, hi in AXES)
    src = "".join(
        f'<source filename="{f}" name="m{i}"><location>'
        + "".join(f'<dimension name="{AXES[a][0]}" xvalue="{user(a, v)!r}"/>'
                  for a, v in enumerate(loc)) + "</location></source>"
        for i, (f, loc) in enumerate(zip(files, locs)))
    with open(path, "w") as fp:
        fp.write(f"<?xml version='1.0' encoding='UTF-8'?>\n<designspace format=\"4.1\">"
                 f"<axes>{ax}</axes><sources>{src}</sources></designspace>\n")


def outlines(path, var):
    r = subprocess.run([OTVAR, "outline", path, "--var", var], capture_output=True, text=True)
    if r.returncode:
        return None
    out = {}
    for ln in r.stdout.splitlines():
        parts = ln.split(" ", 2)
        p = parts[2] if len(parts) > 2 else ""
        out[int(parts[0])] = (float(parts[1]), re.sub(NUM, "#", p),
                              [float(x) for x in NUM.findall(p)])
    return out


def shape(path, var, text):
    r = subprocess.run(["hb-shape", "--no-glyph-names", "--output-format=json",
                        f"--variations={var}", path, "--text-file=/dev/stdin"], input=text,
                       capture_output=True, text=True)
    if r.returncode:
        return None
    return [(g["g"], g["ax"], g["dx"], g["dy"]) for ln in r.stdout.splitlines()
            for g in json.loads(ln)]


def compare(kind, a, b, locs):
    text = "\n".join(x + y for x in CHARS for y in CHARS)
    worst = 0.0
    for loc in locs:
        var = ",".join(f"{AXES[i][0]}={user(i, v)!r}" for i, v in enumerate(loc))
        oa, ob = outlines(a, var), outlines(b, var)
        if oa is None or ob is None or set(oa) != set(ob):
            fail(f"{kind} at {var}: otvar outline failed or the glyph sets differ")
            continue
        for gid in oa:
            (adv, sh, nums), (adv2, sh2, nums2) = oa[gid], ob[gid]
            if sh != sh2 or len(nums) != len(nums2):
                fail(f"{kind} at {var}: glyph {gid}: the paths differ in structure: {sh} / {sh2}")
                continue
            m = max([abs(x - y) for x, y in zip(nums, nums2)] + [abs(adv - adv2)])
            worst = max(worst, m)
            if m > 1:
                fail(f"{kind} at {var}: glyph {gid}: {m:.3f} units from fontTools' build")
        sa, sb = shape(a, var, text), shape(b, var, text)
        if sa is None or sa != sb:
            d = [(x, y) for x, y in zip(sa or [], sb or []) if x != y]
            fail(f"{kind} at {var}: hb-shape differs from fontTools' build: {d[:3]}")
    print(f"{kind}: {len(locs)} locations, outlines and advances within {worst:.3f} of "
          "fontTools' build, hb-shape equal" if not failures else f"{kind}: compared")


def main():
    if not OTVAR or not shutil.which("hb-shape"):
        print("SKIP: no otvar or hb-shape")
        return 77
    locs = locations()
    rng = random.Random(27)
    extra = [tuple(rng.uniform(-1, 1) for _ in AXES) for _ in range(6)]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.environ.get("OTV_MASTERS_KEEP", tmp)  # a folder to keep the fonts in
        for cff in (False, True):
            kind = "CFF2" if cff else "TrueType"
            ext = ".otf" if cff else ".ttf"
            files = []
            for i, loc in enumerate(locs):
                f = f"{kind[0].lower()}{i}{ext}"  # (stems differ: a source names a stem)
                # sparse: glyph e missing in the TrueType masters with slnt 0.5
                master(os.path.join(tmp, f), loc, cff, not cff and loc[2] == 0.5)
                files.append(f)
            ds = os.path.join(tmp, f"m{ext}.designspace")
            designspace(ds, files, locs)
            out = os.path.join(tmp, "otvar" + ext)
            r = subprocess.run([OTVAR, "build", ds, "-o", out, "-q", "--force"],
                               capture_output=True, text=True)
            if r.returncode:
                fail(f"{kind}: otvar build of {len(locs)} masters: {r.stderr.strip()}")
                continue
            ft = os.path.join(tmp, "fonttools" + ext)
            varLib.build(DesignSpaceDocument.fromfile(ds))[0].save(ft)
            print(f"{kind}: {len(locs)} masters: otvar {os.path.getsize(out)} bytes, fontTools "
                  f"{os.path.getsize(ft)}")
            compare(kind, out, ft, [tuple(v for v in loc) for loc in locs[::7]] + extra)
            if cff:
                continue
            # the limit: 257 sources (the masters repeated at locations of their own)
            many = files * 3
            mlocs = [tuple(round(v * 0.9 ** k, 6) for v in loc)
                     for k in range(3) for loc in locs]
            big = os.path.join(tmp, "many.designspace")
            designspace(big, many[:257], mlocs[:257])
            r = subprocess.run([OTVAR, "build", big, "-o", os.path.join(tmp, "many.ttf"),
                                "-q", "--force"], capture_output=True, text=True)
            if r.returncode == 0 or "256" not in r.stderr:
                fail(f"257 sources: not refused naming the limit: rc {r.returncode}, "
                     f"{r.stderr.strip()[:200]}")
            else:
                print(f"257 sources refused: {r.stderr.strip()[-100:]}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
