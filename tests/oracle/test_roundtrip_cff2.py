#!/usr/bin/python3
"""test_roundtrip_cff2.py - `otvar instance` + `otvar build` round trip on variable CFF2 fonts.

The CFF2 half of test_roundtrip.py (whose helpers and result lists it uses): for every variable CFF2
test font (tests/fonts) and the cached real ones (Cantarell-VF.otf, SourceSans3VF-Upright.otf,
SourceSerif4Variable-Roman.otf):
  1. the masters: the peak of every region of the font that carries a delta (the CFF2
     charstrings' blends, every vsindex; the regions of HVAR, VVAR, MVAR and GDEF), each distinct
     one, plus the default location; `otvar instance` writes a static CFF (v1) font at each (the
     user location whose normalized coordinates, after avar, are the peak);
  2. a designspace (as test_roundtrip.py writes it: axes of fvar, avar 1's maps, the sources);
  3. `otvar build` of it (CFF masters -> CFF2), then the new font against the original at seeded
     random user locations: every glyph's outline drawn by otvar (`otvar outline`) and by
     HarfBuzz (harfbuzzjs) within 1 unit, advances equal (HarfBuzz's whole units; otvar's
     unrounded ones within 1), HarfBuzz's shaping (hb-shape, pairs of the font's characters)
     equal; ots-sanitize clean; the glyph names of the original (post 2) kept in the new font;
     the contours repeated across glyphs shared as global subroutines (SUBRS: some there);
     `otvar build -o X.woff2` no larger than `otvar compress` of the font built.
The model derives one region per master. When the rebuilt font's regions are the original's,
the round trip is exact and every comparison must pass (the masters are rounded instances: at a
peak another region's fractional scalar can leave up to 0.5 unit of rounding in a master, hence
the 1-unit tolerance). When the original has regions the model does not derive from its peaks,
the font is reported as approximate, naming the regions and its largest differences, and never
fails. Fonts whose GPOS the builder cannot merge (KNOWN, empty since PairPos sub-tables past
64 KiB are split) would be rebuilt from their masters without GPOS, their outlines and advances
compared, the shaping not, and the limit named.
Default run: the test fonts and Cantarell at 2 locations; OTV_ROUNDTRIP_FULL=1: every font,
8 locations. Exit 77 (skip) without fontTools or the CLI.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_roundtrip as rt  # noqa: E402 (exits 77 without fontTools)
from fontTools.ttLib import TTFont  # noqa: E402
import fontTools.subset  # noqa: E402,F401 (adds CFFFontSet.desubroutinize)

OTVAR, FONTS, CACHE, FULL = rt.OTVAR, rt.FONTS, rt.CACHE, rt.FULL
NLOC = 8 if FULL else 2

TEST_FONTS = ["AdobeVFPrototype_chained_blend.otf", "AdobeVFPrototype_vsindex.otf",
              "CFF2Instancer-VF-1.otf", "NotoSansJP-VF.subset.otf", "cantarell_vf_trimmed.ttf"]
# (file, in the default run)
REAL_FONTS = [("Cantarell-VF.otf", True), ("SourceSans3VF-Upright.otf", False),
              ("SourceSerif4Variable-Roman.otf", False)]

# fonts whose rebuilt CFF2 must share contours in global subroutines
SUBRS = {"cantarell_vf_trimmed.ttf", "Cantarell-VF.otf", "SourceSerif4Variable-Roman.otf"}
# fonts the builder cannot rebuild yet: (what its error says, why)
KNOWN = {}  # none since merged PairPos sub-tables past 64 KiB are split (build/gpos.c)

# this run's failures and report lines: test_roundtrip's (its helpers record there too)
failures, summary, fail = rt.failures, rt.summary, rt.fail


def cff2_regions(font, axes):
    """the regions (per axis (start, peak, end) in F2Dot14) that a CFF2 blend gives a delta other
    than 0: charstrings (each vsindex's VarData) and Private DICTs"""
    out = set()
    cff = font["CFF2"].cff
    cff.desubroutinize()  # fontTools.subset's: the blends of the subroutines inlined
    td = cff.topDictIndex[0]
    store = td.VarStore.otVarStore
    regs = store.VarRegionList.Region
    used = set()
    cs = td.CharStrings
    for name in font.getGlyphOrder():
        c = cs[name]
        c.decompile()
        vsi = getattr(c.private, "vsindex", 0) if c.private is not None else 0
        stack = []
        for tok in c.program:
            if isinstance(tok, str):
                if tok == "vsindex":
                    vsi = int(stack[-1])
                elif tok == "blend":
                    vd = store.VarData[vsi]
                    k = len(vd.VarRegionIndex)
                    n = int(stack[-1])
                    args = stack[-1 - n * (k + 1):-1]
                    for j in range(n):
                        for r in range(k):
                            if args[n + j * k + r]:
                                used.add(vd.VarRegionIndex[r])
                    stack = stack[:-1 - n * (k + 1)] + args[:n]
                    continue
                stack = []
            else:
                stack.append(tok)
    for fd in getattr(td, "FDArray", None) or []:
        priv = fd.Private
        vsi = getattr(priv, "vsindex", 0)
        for key, v in priv.rawDict.items():
            vals = v if isinstance(v, list) else [v]
            for x in vals:
                if isinstance(x, list) and any(x[1:]):  # [default, deltas...]
                    vd = store.VarData[vsi]
                    for r, dv in enumerate(x[1:]):
                        if dv and r < len(vd.VarRegionIndex):
                            used.add(vd.VarRegionIndex[r])
    for ri in used:
        reg = tuple((rt.f2(r.StartCoord), rt.f2(r.PeakCoord), rt.f2(r.EndCoord))
                    for r in regs[ri].VarRegionAxis)
        out.add(tuple(r if r[1] else (0, 0, 0) for r in reg))
    return out


def all_regions(font, axes):
    return rt.regions(font, axes) | (cff2_regions(font, axes) if "CFF2" in font else set())


def glyph_names(font):
    return font.getGlyphOrder() if font["post"].formatType == 2 else None


def roundtrip(tmp, path, nloc):
    name = os.path.basename(path)
    font = TTFont(path)
    if "fvar" not in font or "CFF2" not in font:
        return
    fvar = font["fvar"]
    axes = [a.axisTag for a in fvar.axes]
    maps = rt.avar_maps(font, axes)
    orig = all_regions(font, axes)
    peaks = rt.master_peaks(orig, axes)
    work = os.path.join(tmp, os.path.splitext(name)[0])
    os.makedirs(work, exist_ok=True)
    masters = []
    notes = []
    for i, peak in enumerate(peaks):
        loc = rt.user_location(path, fvar, maps, peak)
        if loc is None:
            fail(f"{name}: no user location normalizes to the peak {peak}")
            return
        stem = f"m{i}"
        var = ",".join(f"{t}={v!r}" for t, v in loc.items())
        r = rt.run([OTVAR, "instance", path, "--var", var, "-o",
                    os.path.join(work, stem + ".otf"), "--force", "-q"])
        if r.returncode:
            fail(f"{name}: otvar instance at {var}: {r.stderr.strip()}")
            return
        masters.append((stem, peak))
    ds = os.path.join(work, "rt.designspace")
    approx = []
    rt.write_designspace(ds, font, fvar, maps, masters, approx)
    out = os.path.join(work, "rt.otf")
    r = rt.run([OTVAR, "build", ds, "-o", out, "-q", "--force"])
    no_gpos = False
    if r.returncode:
        why = KNOWN.get(name)
        if not why or why[0] not in r.stderr:
            fail(f"{name}: otvar build: {r.stderr.strip()}")
            return
        # the known GPOS limit: the CFF2 (and the rest) still checked, from masters without
        # GPOS, and the shaping left out
        for stem, _ in masters:
            m = TTFont(os.path.join(work, stem + ".otf"))
            del m["GPOS"]
            m.save(os.path.join(work, stem + ".otf"))
        r = rt.run([OTVAR, "build", ds, "-o", out, "-q", "--force"])
        if r.returncode:
            fail(f"{name}: otvar build without GPOS: {r.stderr.strip()}")
            return
        no_gpos = True
        notes.append(f"GPOS left out (a known limit: {why[1]}), shaping not compared")
    rt.sanitize(name, path, out, notes)
    # WOFF2: `-o X.woff2` keeps the smaller of the fonts with and without subroutines (Brotli
    # may compress flat charstrings smaller): never larger than the sfnt's own compression
    woff, woff_note = os.path.join(work, "rt.woff2"), ""
    r = rt.run([OTVAR, "build", ds, "-o", woff, "-q", "--force"])
    r2 = rt.run([OTVAR, "compress", out, "-o", woff + ".c.woff2", "-q", "--force"])
    if r.returncode or r2.returncode:
        fail(f"{name}: WOFF2: {r.stderr.strip()} {r2.stderr.strip()}")
    else:
        wa, wb = os.path.getsize(woff), os.path.getsize(woff + ".c.woff2")
        if wa > wb:
            fail(f"{name}: otvar build -o X.woff2: {wa} bytes, the built font compressed {wb}")
        woff_note = f", WOFF2 {wa} ({wb} from the font as built)"
    new = TTFont(out)
    if "CFF2" not in new or "CFF " in new:
        fail(f"{name}: the rebuilt font's tables: {sorted(new.keys())}")
        return
    names = glyph_names(font)
    if names is not None and glyph_names(new) != names:
        fail(f"{name}: glyph names lost or changed (post {new['post'].formatType})")
    got = all_regions(new, axes)
    exact = got == orig
    d = rt.Diff()
    locs = rt.random_locations(fvar, nloc)
    text = "" if no_gpos else rt.pairs_text(font)
    for loc in locs:
        what = f"{name} at {', '.join(f'{t}={v:.6g}' for t, v in loc.items())}"
        rt.compare_at(path, loc, out, loc, work, text, what, d)
    worst = rt.worst_line(d)
    so, sn = os.path.getsize(path), os.path.getsize(out)
    c2o, c2n = len(font.reader["CFF2"]), len(new.reader["CFF2"])
    nsub = len(TTFont(out)["CFF2"].cff.GlobalSubrs)
    if name in SUBRS and not nsub:
        fail(f"{name}: no global subroutines (its accented letters repeat contours)")
    line = (f"{name}: {len(axes)} axes, {len(peaks)} masters, regions {len(orig)} -> {len(got)}, "
            f"{so} -> {sn} bytes (CFF2 {c2o} -> {c2n}, {nsub} global subroutines{woff_note}); ")
    if approx:
        exact = False
        notes += approx
    rt.verdict(line, exact, d, notes, worst, orig, got, summary, fail)


def main():
    return rt.run_all("CFF2 round trip (instance at every region peak, build, compare)",
                      TEST_FONTS, REAL_FONTS, roundtrip, summary, failures, NLOC)


if __name__ == "__main__":
    sys.exit(main())
