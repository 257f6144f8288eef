#!/usr/bin/env python3
"""test_instance_cff1.py - static instances of CFF2 fonts written as CFF (version 1), checked by
the tools that read CFF: fontTools 4.38 loads each instance and draws every glyph, ots-sanitize
passes it, AFDKO's tx reads it (`tx -dump` and a conversion that decodes every charstring;
Debian's afdko-bin installs it in /usr/libexec/afdko), and for every real font:
  - the instance's `CFF ` table is no larger than the variable font's CFF2 table;
  - its subroutines are there: the same global and local subroutine counts as the source
    (numbering kept), and the stem hints (hstem/vstem/hintmask/cntrmask operators over glyphs
    and subroutines) as many as the source's;
  - a name-keyed instance keeps the source's glyph names (post 2.0 -> charset, post 3.0);
  - the --cff2 instance (a static CFF2 table) keeps the subroutines and hints too (run_cff2);
  - a font with a FontMatrix (tests/fonts/cff2_flat_fm.otf): the --cff2 instance is flattened
    (no subroutine, no hint, the plain matrix, the points in font units as the hand-computed
    outline rounded), the CFF one keeps the matrix and its subroutine (run_flat_fm);
  - a vsindex whose operand a subroutine pushes (tests/fonts/cff2_vsindex_subr.otf): the
    outlines are the hand-computed ones over the ItemVariationData it selects (run_vsindex).
Sizes are printed next to tx's own CFF instances of the same location (tx -cff, flattened and
hint-less; tx -cff +S, subroutinized again) for the report.
Fonts: the CFF2 test fonts and, when cached, Source Serif 4 / Source Sans 3 / Cantarell.
Locations: the default, each axis 70% toward its maximum and the last named instance;
OTV_CFF1_FULL=1: every named
instance and 20 random locations too (the tx size comparisons only at the first two), and a
summary line per font."""
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

from fontTools.ttLib import TTFont
from fontTools.pens.recordingPen import RecordingPen

OTVAR = os.environ.get("OTVAR")
FONTS = os.environ.get("OTV_FONTS", "tests/fonts")
CACHE = os.environ.get("OTV_FONT_CACHE", "")
TX = shutil.which("tx") or ("/usr/libexec/afdko/tx" if os.path.exists("/usr/libexec/afdko/tx")
                            else None)
OTS = shutil.which("ots-sanitize")

TEST_FONTS = ["AdobeVFPrototype_vsindex.otf", "CFF2Instancer-VF-1.otf", "NotoSansJP-VF.subset.otf",
              "AdobeVFPrototype_chained_blend.otf", "cff2_nested_blend.otf",
              "cff2_blend_numbers.otf", "cff2_vsindex_subr.otf"]
REAL_FONTS = ["SourceSerif4Variable-Roman.otf", "SourceSans3VF-Upright.otf", "Cantarell-VF.otf"]

checks = 0
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


def check(cond, msg):
    global checks
    checks += 1
    if not cond:
        fail(msg)


HINT_OPS = ("hstem", "vstem", "hstemhm", "vstemhm", "hintmask", "cntrmask")


def hint_count(cff, charstrings):
    """Stem hint operators over every glyph and every subroutine."""
    progs = [charstrings[g] for g in charstrings.keys()]
    progs += list(cff.GlobalSubrs)
    for fd in getattr(cff.topDictIndex[0], "FDArray", None) or [cff.topDictIndex[0]]:
        subrs = getattr(fd.Private, "Subrs", None)
        if subrs:
            for cs in subrs:  # (one no glyph calls is decompiled with its Font DICT's subrs)
                cs.private = fd.Private
            progs += list(subrs)
    n = 0
    for cs in progs:
        cs.decompile()
        n += sum(1 for t in cs.program if isinstance(t, str) and t in HINT_OPS)
    return n


def subr_counts(cff):
    top = cff.topDictIndex[0]
    fds = getattr(top, "FDArray", None) or [top]
    local = sum(len(getattr(fd.Private, "Subrs", None) or []) for fd in fds)
    return len(cff.GlobalSubrs), local


FULL = os.environ.get("OTV_CFF1_FULL") == "1"
RANDOM_LOCATIONS = 20


def locations(src):
    """The locations checked: the default, 'high', and with OTV_CFF1_FULL=1 every named instance
    and RANDOM_LOCATIONS random ones (seeded by the glyph count: the same every run)."""
    locs = [location_of(src, "default"), location_of(src, "high")]
    axes = src["fvar"].axes
    if not FULL:  # and the last named instance (a master in the real fonts)
        named = src["fvar"].instances
        if named:
            locs.append({a.axisTag: round(named[-1].coordinates.get(a.axisTag, a.defaultValue), 3)
                         for a in axes})
        return locs
    for i in src["fvar"].instances:
        locs.append({a.axisTag: round(i.coordinates.get(a.axisTag, a.defaultValue), 3)
                     for a in axes})
    rnd = random.Random(len(src.getGlyphOrder()))
    for _ in range(RANDOM_LOCATIONS):
        locs.append({a.axisTag: round(rnd.uniform(a.minValue, a.maxValue), 2) for a in axes})
    return locs


def location_of(src, which):
    """Axis values: 'default', or 'high' (each axis 70% toward its maximum)."""
    loc = {}
    for a in src["fvar"].axes:
        v = a.defaultValue if which == "default" else a.defaultValue + 0.7 * (a.maxValue - a.defaultValue)
        loc[a.axisTag] = round(v, 2)
    return loc


def instance_of(path, spec, flags, out, what):
    """`otvar instance` of path at spec (flags added) into out: its fontTools font, or None (a
    failure recorded)"""
    r = subprocess.run([OTVAR, "instance", path, "--var", spec, "-o", out, "-q", "--force"]
                       + flags, capture_output=True, text=True)
    check(r.returncode == 0, "%s: otvar instance: %s" % (what, r.stderr.strip()))
    return TTFont(out) if r.returncode == 0 else None


def cff_instance_of(path, spec, flags, out, what, table):
    """instance_of, and its table ("CFF " or "CFF2") checked present: (font, its CFFFontSet with
    the subroutines kept), or (None, None) with a failure recorded"""
    f = instance_of(path, spec, flags, out, what)
    if f is None:
        return None, None
    check(table in f, "%s: a %s table" % (what, table))
    if table not in f:
        return None, None
    cff = f[table].cff
    cff.desubroutinize = False
    return f, cff


def check_points(f, want, what, rnd=lambda c: c):
    """each glyph of want drawn by fontTools: its moveTo/lineTo points (rnd applied) as listed"""
    gs = f.getGlyphSet()
    for g, pts in want.items():
        pen = RecordingPen()
        gs[g].draw(pen)
        got = [tuple(rnd(c) for c in v[0]) for op, v in pen.value if op in ("moveTo", "lineTo")]
        check(got == pts, "%s glyph %s: %s, want %s" % (what, g, got, pts))


def check_ots(out, tmp, what):
    if OTS:
        r = subprocess.run([OTS, out, os.path.join(tmp, "ots.otf")], capture_output=True,
                           text=True)
        check(r.returncode == 0, "%s: ots-sanitize: %s"
              % (what, (r.stdout + r.stderr).strip()[:200]))


def run_font(path, real, tmp):
    src = TTFont(path)
    name = os.path.basename(path)
    cff2_len = len(src.reader["CFF2"])
    scff = src["CFF2"].cff
    scff.desubroutinize = False
    s_subrs = subr_counts(scff)
    s_hints = hint_count(scff, scff.topDictIndex[0].CharStrings)
    done = 0
    start_failures = failures
    for n_loc, loc in enumerate(locations(src)):
        spec = ",".join("%s=%g" % kv for kv in loc.items())
        out = os.path.join(tmp, "i.otf")
        f = instance_of(path, spec, [], out, "%s %s" % (name, spec))
        if f is None:
            continue
        check("CFF " in f and "CFF2" not in f and "fvar" not in f,
              "%s %s: a CFF table and no CFF2/fvar" % (name, spec))
        cff_len = len(f.reader["CFF "])
        gs = f.getGlyphSet()
        for g in f.getGlyphOrder():
            gs[g].draw(RecordingPen())
        checks_drawn = len(f.getGlyphOrder())
        check(checks_drawn == len(src.getGlyphOrder()), "%s: glyph count" % name)
        cff = f["CFF "].cff
        top = cff.topDictIndex[0]
        named = not hasattr(top, "ROS")
        if named:
            check(f.getGlyphOrder() == src.getGlyphOrder(), "%s: glyph names kept" % name)
            check(f["post"].formatType == 3.0, "%s: post 3.0 when the names are in CFF" % name)
        subrs = subr_counts(cff)
        check(subrs == s_subrs, "%s %s: subroutines %s, source %s" % (name, spec, subrs, s_subrs))
        hints = hint_count(cff, top.CharStrings)
        check(hints >= s_hints, "%s %s: %d hint operators, source %d" % (name, spec, hints, s_hints))
        if real:
            check(cff_len <= cff2_len, "%s %s: CFF %d bytes > CFF2 %d" % (name, spec, cff_len, cff2_len))
        check_ots(out, tmp, "%s %s" % (name, spec))
        tx_sizes = ""
        if TX:
            r = subprocess.run([TX, "-dump", "-0", out], capture_output=True, text=True)
            check(r.returncode == 0 and "Top Dict" in r.stdout, "%s %s: tx -dump: %s"
                  % (name, spec, r.stderr.strip()[:200]))
            conv = os.path.join(tmp, "conv.cff")
            r = subprocess.run([TX, "-cff", out, conv], capture_output=True, text=True)
            check(r.returncode == 0 and os.path.exists(conv), "%s %s: tx decodes every charstring: %s"
                  % (name, spec, r.stderr.strip()[:200]))
        if TX and n_loc < 2:
            u = ",".join("%g" % v for v in loc.values())
            sizes = []
            for opt in ([], ["+S"]):
                t = os.path.join(tmp, "tx.cff")
                if os.path.exists(t):
                    os.unlink(t)
                r = subprocess.run([TX, "-cff"] + opt + ["-U", u, path, t], capture_output=True,
                                   text=True)
                sizes.append(os.path.getsize(t) if r.returncode == 0 and os.path.exists(t) else -1)
            tx_sizes = ", tx -cff %d, tx -cff +S %d" % tuple(sizes)
        names = [i for i in src["fvar"].instances if i.postscriptNameID not in (None, 0xFFFF)]
        for i in names:
            if all(abs(i.coordinates.get(t, 0) - v) < 1e-6 for t, v in loc.items()):
                want = src["name"].getDebugName(i.postscriptNameID)
                check(cff.fontNames == [want], "%s %s: CFF name %s, the instance's PostScript "
                      "name is %s" % (name, spec, cff.fontNames, want))
                break
        print("%s %s: CFF2 %d -> CFF %d bytes (%s-keyed; subroutines %d+%d; %d hint operators, "
              "source %d)%s" % (name, spec, cff2_len, cff_len, "name" if named else "CID",
                                subrs[0], subrs[1], hints, s_hints, tx_sizes))
        run_cff2(path, name, spec, real, tmp, cff2_len, s_subrs, s_hints, len(src.getGlyphOrder()))
        done += 1
    if FULL:
        print("%s: %d locations, %d failed checks (OTS %s, tx %s, fontTools, --cff2 too)"
              % (name, done, failures - start_failures, "yes" if OTS else "no",
                 "yes" if TX else "no"))


def run_cff2(path, name, spec, real, tmp, cff2_len, s_subrs, s_hints, glyph_count):
    """The --cff2 instance at the same location: a CFF2 table without a VariationStore, its
    subroutines there (the source's counts: numbering kept) and its hints, loaded and drawn by
    fontTools, passed by OTS, no larger than the source's CFF2 table (real fonts)."""
    out = os.path.join(tmp, "c2.otf")
    f = instance_of(path, spec, ["--cff2"], out, "%s %s --cff2" % (name, spec))
    if f is None:
        return
    check("CFF2" in f and "CFF " not in f and "fvar" not in f,
          "%s %s --cff2: a CFF2 table and no CFF/fvar" % (name, spec))
    c2_len = len(f.reader["CFF2"])
    cff = f["CFF2"].cff
    cff.desubroutinize = False
    top = cff.topDictIndex[0]
    check(getattr(top, "VarStore", None) is None, "%s %s --cff2: no VariationStore" % (name, spec))
    gs = f.getGlyphSet()
    for g in f.getGlyphOrder():
        gs[g].draw(RecordingPen())
    check(len(f.getGlyphOrder()) == glyph_count, "%s --cff2: glyph count" % name)
    subrs = subr_counts(cff)
    check(subrs == s_subrs, "%s %s --cff2: subroutines %s, source %s" % (name, spec, subrs, s_subrs))
    hints = hint_count(cff, top.CharStrings)
    check(hints >= s_hints, "%s %s --cff2: %d hint operators, source %d" % (name, spec, hints,
                                                                           s_hints))
    if real:
        check(c2_len <= cff2_len, "%s %s --cff2: CFF2 %d bytes > source CFF2 %d"
              % (name, spec, c2_len, cff2_len))
    check_ots(out, tmp, "%s %s --cff2" % (name, spec))
    print("%s %s --cff2: CFF2 %d -> static CFF2 %d bytes (subroutines %d+%d; %d hint operators)"
          % (name, spec, cff2_len, c2_len, subrs[0], subrs[1], hints))


def run_flat_fm(path, tmp):
    """cff2_flat_fm.otf (tests/fonts/make_cff2_flatten.py; FontMatrix 0.0005, so charstring
    units are half font units) at wght = 100 + 800a: the --cff2 instance is flattened (otvar's
    interpreter draws each glyph in font units at the location; each point rounded with
    floor(x + 0.5), the plain matrix, no subroutine, no hint); the CFF one keeps the matrix, the
    global subroutine and the hint, its points in charstring units rounded."""
    name = os.path.basename(path)
    r5 = lambda x: int(math.floor(x + 0.5))
    for a in (0, 0.25, 0.5, 0.7, 1):
        spec = "wght=%g" % (100 + 800 * a)
        # font units: box (10 + 20a, 0) (210 + 45a, 0) (210 + 45a, 300) (10 + 20a, 300);
        # tri (0, 0) (150 + 50a, 0) (75 + 25a, 250)
        box = [(r5(10 + 20 * a), 0), (r5(210 + 45 * a), 0), (r5(210 + 45 * a), 300),
               (r5(10 + 20 * a), 300)]
        tri = [(0, 0), (r5(150 + 50 * a), 0), (r5(75 + 25 * a), 250)]
        # charstring units (twice): box (20 + 40a, 0) (420 + 90a, 0) ...; tri (0, 0) ...
        cbox = [(r5(20 + 40 * a), 0), (r5(420 + 90 * a), 0), (r5(420 + 90 * a), 600),
                (r5(20 + 40 * a), 600)]
        ctri = [(0, 0), (r5(300 + 100 * a), 0), (r5(150 + 50 * a), 500)]
        for flag, want, table in ((["--cff2"], {"box": box, "hint": box, "tri": tri}, "CFF2"),
                                  ([], {"box": cbox, "hint": cbox, "tri": ctri}, "CFF ")):
            out = os.path.join(tmp, "fm.otf")
            what = "%s %s %s" % (name, spec, " ".join(flag))
            f, cff = cff_instance_of(path, spec, flag, out, what, table)
            if f is None:
                continue
            top = cff.topDictIndex[0]
            matrix = [0.001, 0, 0, 0.001, 0, 0] if flag else [0.0005, 0, 0, 0.0005, 0, 0]
            check(all(abs(x - y) < 1e-9 for x, y in zip(top.FontMatrix, matrix)),
                  "%s: FontMatrix %s, want %s" % (what, top.FontMatrix, matrix))
            subrs, hints = subr_counts(cff), hint_count(cff, top.CharStrings)
            check(subrs == ((0, 0) if flag else (1, 0)), "%s: subroutines %s" % (what, subrs))
            check(hints == (0 if flag else 1), "%s: %d hint operators" % (what, hints))
            check_points(f, want, what)
            check_ots(out, tmp, what)
    print("%s: --cff2 flattened, CFF with its FontMatrix, at 5 locations" % name)


def run_vsindex(path, tmp):
    """cff2_vsindex_subr.otf (tests/fonts/make_cff2_flatten.py) at wght = 100 + 800a: glyph vsx
    selects ItemVariationData 1 (scalar b = 2a to a = 0.5, then 2 - 2a) with a vsindex whose
    operand global subroutine 0 pushes; box keeps ItemVariationData 0 (scalar a). The CFF, the
    --cff-exact and the --cff2 instances draw the hand-computed outlines (rounded), keep both
    global subroutines (numbering kept; the one the vsindex needs is called inline) and pass
    OTS."""
    name = os.path.basename(path)
    r5 = lambda x: int(math.floor(x + 0.5))
    for a in (0, 0.25, 0.5, 0.7, 1):
        spec = "wght=%g" % (100 + 800 * a)
        b = 2 * a if a <= 0.5 else 2 - 2 * a
        quad = lambda s: [(r5(20 + 40 * s), 0), (r5(420 + 90 * s), 0), (r5(420 + 90 * s), 600),
                          (r5(20 + 40 * s), 600)]
        want = {"vsx": quad(b), "box": quad(a)}
        for flag, table in (([], "CFF "), (["--cff-exact"], "CFF "), (["--cff2"], "CFF2")):
            out = os.path.join(tmp, "vs.otf")
            what = "%s %s %s" % (name, spec, " ".join(flag))
            f, cff = cff_instance_of(path, spec, flag, out, what, table)
            if f is None:
                continue
            check(subr_counts(cff) == (2, 0), "%s: subroutines %s" % (what, subr_counts(cff)))
            check_points(f, want, what, r5)
            check_ots(out, tmp, what)
    print("%s: vsindex from a subroutine, CFF, --cff-exact and --cff2 at 5 locations" % name)


def main():
    if not OTVAR:
        print("OTVAR not set")
        return 1
    if not TX:
        print("NOTE: tx (Debian afdko-bin) not installed: not checked with tx")
    if not OTS:
        print("NOTE: ots-sanitize not installed: not checked with OTS")
    tmp = tempfile.mkdtemp()
    try:
        for n in TEST_FONTS:
            run_font(os.path.join(FONTS, n), False, tmp)
        run_flat_fm(os.path.join(FONTS, "cff2_flat_fm.otf"), tmp)
        run_vsindex(os.path.join(FONTS, "cff2_vsindex_subr.otf"), tmp)
        for n in REAL_FONTS:
            p = os.path.join(CACHE, n)
            if CACHE and os.path.exists(p):
                run_font(p, True, tmp)
            else:
                print("SKIP %s: not in $OTV_FONT_CACHE" % n)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("test_instance_cff1.py: %d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
