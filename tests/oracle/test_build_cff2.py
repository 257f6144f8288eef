#!/usr/bin/python3
"""test_build_cff2.py - `otvar build` from CFF and CFF2 masters (src/build/cff2.c, issue 27)
against fontTools 4.38's varLib.build.

For each of fontTools' varLib test cases with CFF (or CFF2) masters, compiled from their TTX
files at test time, both builders make a variable CFF2 font from the same designspace. Then:
  - otvar's font passes ots-sanitize (when installed) and every table decompiles in fontTools;
  - at every master's location its outlines equal the master's own glyphs (the master drawn by
    fontTools' CFF interpreter) within 0.5 unit (the rounding of the deltas; fontTools keeps
    them fractional instead, in 5-byte numbers), read twice: through fontTools' CFF2
    interpreter (blend at the master's normalized location in F2Dot14) and through
    `otvar outline` (its user location);
  - at the masters and at seeded random locations the outlines equal those of fontTools' own
    build within 1 unit (TestSparseCFF2VF: 2.5, see CASES) (both read by fontTools' interpreter), and HarfBuzz (hb-shape
    --show-extents: its own CFF2 interpreter) gives the same glyph extents and advances (HVAR)
    within 1 unit for every mapped character; TestVVAR: top-to-bottom advances (VVAR) too;
  - the CFF2 table is no larger than fontTools' (sizes of the file and CFF2 are printed);
  - post is version 2.0 with the default master's glyph names (the CFF charset's; CFF2 keeps
    none), byte for byte fontTools' post; CID-keyed masters (TestSparseCFF2VF): post 3.0; a
    glyph name of 255 bytes kept, one of 256 (too long for post's Pascal strings): post 3.0;
  - `otvar build -o X.woff2` is no larger than fontTools' build saved as WOFF2 by fontTools'
    encoder (with Brotli installed);
  - masters made incompatible (one master's glyph given an extra segment, or a line made a
    curve) are refused with a message naming the glyph and the master.
SparseCFF2 (which fontTools 4.38 cannot build: an AssertionError in its merger) is checked at
the masters and against the expected charstrings of fontTools' own test result instead.
Exit 77 (skip) without the test data or fontTools.
"""
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

try:
    from fontTools.ttLib import TTFont
    from fontTools import varLib
    from fontTools.designspaceLib import DesignSpaceDocument
    from fontTools.pens.recordingPen import RecordingPen
except ImportError:
    print("SKIP: no fontTools")
    sys.exit(77)
try:
    import brotli  # noqa: F401 (fontTools' WOFF2 encoder)
    woff2_ok = True
except ImportError:
    woff2_ok = False

from buildtest import (DATA, OTVAR, compile_ttx, decompile_all, fail, finish, master_locations,
                       no_data, ots_check)
FULL = os.environ.get("OTV_BUILD_FULL") == "1"

CASES = [
    # designspace, random locations, fontTools 4.38 builds it, tolerance at user locations
    ("TestCFF2", 3, True, 1),
    ("TestCFF2Input", 2, True, 1),
    ("TestNonMarkingCFF2", 2, True, 1),
    # masters one design unit apart (439/440, 599/600, ... of 1000): a region 16 F2Dot14 steps
    # wide, so a user location that normalizes one step off (avar, each reader's rounding)
    # moves a point by a sixteenth of the delta across it, and rounding the deltas to
    # integers (fontTools keeps them fractional) shows up to 2 units there
    ("TestSparseCFF2VF", 3, True, 2.5),
    ("TestVVAR", 2, True, 1),
    ("SparseCFF2", 2, False, 1),
]

def norm(contours):
    """contours as lists of (op, points...): zero-length lines and the closing line back to
    the start dropped, coordinates as floats"""
    out = []
    for c in contours:
        start = c[0]
        segs = []
        cur = start
        for s in c[1:]:
            if s[0] == "C" and s[1] == cur and s[2] == s[3]:
                s = ("L", s[3])  # a curve without handles: a line (the specializer's too)
            if s[0] == "L" and abs(s[1][0] - cur[0]) < 1e-6 and abs(s[1][1] - cur[1]) < 1e-6:
                continue
            if s[0] == "L" and segs and segs[-1][0] == "L":
                p0 = segs[-2][-1] if len(segs) > 1 else start
                p1 = segs[-1][1]
                # two horizontal (or vertical) lines in a row: one, as the specializer joins
                if (abs(p0[1] - p1[1]) < 1e-6 and abs(p1[1] - s[1][1]) < 1e-6) or \
                        (abs(p0[0] - p1[0]) < 1e-6 and abs(p1[0] - s[1][0]) < 1e-6):
                    segs[-1] = s
                    cur = s[-1]
                    continue
            segs.append(s)
            cur = s[-1]
        if segs and segs[-1][0] == "L" and abs(cur[0] - start[0]) < 1e-6 and \
                abs(cur[1] - start[1]) < 1e-6:
            segs.pop()
        if segs:
            out.append([start] + segs)
    return out


def ft_path(glyphset, name):
    pen = RecordingPen()
    try:
        glyphset[name].draw(pen)
    except AssertionError:
        # a CFF2 master with widths in its charstrings (TestCFF2Input's, as fontTools wrote
        # them): read as fontTools' merger reads them, the width dropped
        cs = glyphset.charStrings[name]
        cs.private.defaultWidthX = cs.private.nominalWidthX = 0
        pen = RecordingPen()
        glyphset[name].draw(pen)
    contours, cur = [], None
    for op, args in pen.value:
        if op == "moveTo":
            cur = [tuple(args[0])]
            contours.append(cur)
        elif op == "lineTo":
            cur.append(("L", tuple(args[0])))
        elif op == "curveTo":
            cur.append(("C",) + tuple(tuple(a) for a in args))
        elif op == "qCurveTo":
            cur.append(("Q",) + tuple(tuple(a) for a in args))
    return norm(contours)


def otvar_paths(path, loc):
    var = ",".join(f"{k}={v:g}" for k, v in loc.items())
    r = subprocess.run([OTVAR, "outline", path, "--var", var], capture_output=True, text=True)
    if r.returncode:
        fail(f"otvar outline {path}: {r.stderr.strip()}")
        return {}
    out = {}
    for line in r.stdout.splitlines():
        parts = line.split(" ", 2)
        gid = int(parts[0])
        toks = re.findall(r"[MLQCZ]|-?[0-9.]+", parts[2]) if len(parts) > 2 else []
        contours, cur, i = [], None, 0
        while i < len(toks):
            t = toks[i]
            if t == "M":
                cur = [(float(toks[i + 1]), float(toks[i + 2]))]
                contours.append(cur)
                i += 3
            elif t == "L":
                cur.append(("L", (float(toks[i + 1]), float(toks[i + 2]))))
                i += 3
            elif t == "C":
                v = [float(x) for x in toks[i + 1:i + 7]]
                cur.append(("C", (v[0], v[1]), (v[2], v[3]), (v[4], v[5])))
                i += 7
            elif t == "Q":
                v = [float(x) for x in toks[i + 1:i + 5]]
                cur.append(("Q", (v[0], v[1]), (v[2], v[3])))
                i += 5
            else:
                i += 1
        out[gid] = norm(contours)
    return out


def path_diff(a, b):
    """largest coordinate difference, None when the structure differs"""
    if len(a) != len(b):
        return None
    worst = 0.0
    for ca, cb in zip(a, b):
        if len(ca) != len(cb):
            return None
        pa = [ca[0]] + [p for s in ca[1:] for p in s[1:]]
        pb = [cb[0]] + [p for s in cb[1:] for p in s[1:]]
        if [s[0] for s in ca[1:]] != [s[0] for s in cb[1:]] or len(pa) != len(pb):
            return None
        for p, q in zip(pa, pb):
            worst = max(worst, abs(p[0] - q[0]), abs(p[1] - q[1]))
    return worst


def hb(path, loc, text, ttb=False):
    var = ",".join(f"{k}={v:g}" for k, v in loc.items())
    cmd = ["hb-shape", "--no-glyph-names", "--output-format=json", "--show-extents",
           "--features=-kern", f"--variations={var}", path, text]
    if ttb:
        cmd.insert(1, "--direction=ttb")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return None
    return [(g["g"], g["ax"], g["ay"], g.get("xb"), g.get("yb"), g.get("w"), g.get("h"))
            for g in json.loads(r.stdout)]


def masters_of(tmp, name):
    """compile the designspace's TTX masters; returns (folder, {source name: path})"""
    doc = DesignSpaceDocument.fromfile(os.path.join(DATA, name + ".designspace"))
    mdir = os.path.dirname(doc.sources[0].filename)
    out_m = os.path.join(tmp, mdir)
    os.makedirs(out_m, exist_ok=True)
    masters = {}
    for s in doc.sources:
        stem = os.path.splitext(os.path.basename(s.filename))[0]
        masters[s.name or stem] = compile_ttx(os.path.join(DATA, mdir, stem + ".ttx"),
                                              os.path.join(out_m, stem + ".otf"))
    return doc, out_m, masters


def otvar_build(ds_path, out, mdir):
    return subprocess.run([OTVAR, "build", ds_path, "-o", out, "--master-dir", mdir, "-q",
                           "--force"], capture_output=True, text=True)


def run_case(tmp, name, nrand, ft_builds, tol):
    ds_path = os.path.join(DATA, name + ".designspace")
    doc, out_m, masters = masters_of(tmp, name)
    ours = os.path.join(tmp, name + "-otvar.otf")
    theirs = os.path.join(tmp, name + "-fonttools.otf")
    r = otvar_build(ds_path, ours, out_m)
    if r.returncode:
        fail(f"{name}: otvar build: {r.stderr.strip()}")
        return
    if ft_builds:
        finder = lambda p: os.path.join(out_m, os.path.splitext(os.path.basename(p))[0] + ".otf")
        vf, _, _ = varLib.build(ds_path, master_finder=finder)
        vf.save(theirs)
    ots_check(name, ours)
    f = decompile_all(ours)
    if "CFF2" not in f or "CFF " in f or "glyf" in f:
        fail(f"{name}: tables {sorted(f.keys())}")
        return
    if f["maxp"].tableVersion != 0x5000:
        fail(f"{name}: maxp version {f['maxp'].tableVersion:#x}")
    so, c2o = os.path.getsize(ours), len(f.reader["CFF2"])
    if ft_builds:
        t = TTFont(theirs)
        st, c2t = os.path.getsize(theirs), len(t.reader["CFF2"])
        print(f"{name}: size otvar {so} fontTools {st} ({so / st:.3f}); CFF2 {c2o} vs {c2t} "
              f"({c2o / c2t:.3f})")
        if c2o > c2t:
            fail(f"{name}: CFF2 {c2o} bytes, fontTools' {c2t}")
    else:
        print(f"{name}: size otvar {so}; CFF2 {c2o} (fontTools 4.38 cannot build it)")
    # glyph names: post 2.0 with the default master's charset names (CID-keyed: post 3.0, the
    # CIDs are no names), byte for byte fontTools' post when it writes the same names
    dm0 = TTFont(masters[doc.findDefault().name or os.path.splitext(
        os.path.basename(doc.findDefault().filename))[0]])
    cid = "CFF " in dm0 and hasattr(dm0["CFF "].cff.topDictIndex[0], "ROS")
    want_v = 3.0 if cid else 2.0
    if f["post"].formatType != want_v:
        fail(f"{name}: post version {f['post'].formatType}, expected {want_v}")
    elif want_v == 2.0 and f.getGlyphOrder() != dm0.getGlyphOrder():
        fail(f"{name}: post names {f.getGlyphOrder()[:8]} vs the master's "
             f"{dm0.getGlyphOrder()[:8]}")
    if ft_builds and want_v == 2.0 and f.reader["post"] != TTFont(theirs).reader["post"]:
        fail(f"{name}: post differs from fontTools' ({len(f.reader['post'])} vs "
             f"{len(TTFont(theirs).reader['post'])} bytes)")
    # WOFF2: `otvar build -o X.woff2` no larger than fontTools' build through its own encoder
    # (head.modified pinned: the size must not move with the clock)
    if ft_builds and woff2_ok:
        ow = os.path.join(tmp, name + "-otvar.woff2")
        r = otvar_build(ds_path, ow, out_m)
        if r.returncode:
            fail(f"{name}: otvar build -o .woff2: {r.stderr.strip()}")
        else:
            tf = TTFont(theirs, recalcTimestamp=False)
            tf["head"].modified = 0x7FFFFFFF
            tf.flavor = "woff2"
            buf = io.BytesIO()
            tf.save(buf)
            a, bsz = os.path.getsize(ow), len(buf.getvalue())
            print(f"{name}: WOFF2 otvar {a} fontTools {bsz} ({a / bsz:.3f})")
            if a > bsz:
                fail(f"{name}: otvar's WOFF2 {a} bytes, fontTools' {bsz}")
    order = f.getGlyphOrder()
    # user locations: the masters', then random ones
    locs = [(s.name or os.path.splitext(os.path.basename(s.filename))[0], user)
            for s, user in master_locations(doc)]
    rng = random.Random(27)
    for i in range(nrand * (4 if FULL else 1)):
        locs.append((None, {a.tag: rng.uniform(a.minimum, a.maximum) for a in doc.axes}))
    cmap = f.getBestCmap() or {}
    text = "".join(chr(c) for c in sorted(cmap) if c > 32)[:64]
    t = TTFont(theirs) if ft_builds else None
    checked = 0
    for src, loc in locs:
        what = f"{name} at {', '.join(f'{k}={v:g}' for k, v in loc.items())}"
        gs_o = f.getGlyphSet(location=loc)
        if src:
            # at a master: its normalized design location in F2Dot14, as a renderer sets it
            s = [x for x in doc.sources if (x.name or os.path.splitext(
                os.path.basename(x.filename))[0]) == src][0]
            nloc = {}
            for a in doc.axes:
                lo, de, hi = (a.map_forward(a.minimum), a.map_forward(a.default),
                              a.map_forward(a.maximum))
                v = s.location.get(a.name, de)
                n = 0 if v == de else (v - de) / (hi - de) if v > de else (v - de) / (de - lo)
                nloc[a.tag] = math.floor(n * 16384 + 0.5) / 16384
            gs_o = f.getGlyphSet(location=nloc, normalized=True)
        gs_t = t.getGlyphSet(location=loc) if t else None
        ov = otvar_paths(ours, loc) if src else {}
        if src:
            m = TTFont(masters[src])
            mgs = m.getGlyphSet()
            # the master's glyphs by name (fontTools' order for our font has no names: the
            # default master's order is ours)
            dm = TTFont(masters[doc.findDefault().name or os.path.splitext(
                os.path.basename(doc.findDefault().filename))[0]])
            names = dm.getGlyphOrder()
            for gid, gname in enumerate(names):
                if gname not in mgs:
                    continue
                want = ft_path(mgs, gname)
                if not want and ft_path(dm.getGlyphSet(), gname):
                    continue  # empty in this master: sparse
                got = ft_path(gs_o, order[gid])
                d = path_diff(got, want)
                if d is None or d > 0.5:
                    fail(f"{what} (master {src}): glyph {gname}: fontTools reads it "
                         f"{'with another structure' if d is None else f'{d:.3f} off'}")
                d2 = path_diff(ov.get(gid, []), want)
                if d2 is None or d2 > (0.5 if tol == 1 else tol):
                    fail(f"{what} (master {src}): glyph {gname}: otvar outline "
                         f"{'has another structure' if d2 is None else f'{d2:.3f} off'}")
                checked += 1
        if t:
            for gid, gname in enumerate(order):
                d = path_diff(ft_path(gs_o, gname), ft_path(gs_t, t.getGlyphOrder()[gid]))
                if d is None or d > tol:
                    fail(f"{what}: glyph {gid}: outline differs from fontTools' build ({d})")
                checked += 1
            ho, ht = hb(ours, loc, text), hb(theirs, loc, text)
            if ho is None or ho != ht:
                bad = [(a, c) for a, c in zip(ho or [], ht or [])
                       if any(abs(p - q) > tol for p, q in zip(a[1:], c[1:]))]
                if ho is None or len(ho) != len(ht) or bad:
                    fail(f"{what}: HarfBuzz extents/advances {bad[:3] if ho else ho} ")
            if "VVAR" in t:
                vo, vt = hb(ours, loc, text, True), hb(theirs, loc, text, True)
                if vo is None or [g[2] for g in vo] != [g[2] for g in vt]:
                    fail(f"{what}: HarfBuzz vertical advances {vo and [g[2] for g in vo]} vs "
                         f"{[g[2] for g in vt]}")
    if t and ("VVAR" in t) != ("VVAR" in f):
        fail(f"{name}: VVAR in otvar's font: {'VVAR' in f}, in fontTools': {'VVAR' in t}")
    print(f"{name}: {len(locs)} locations, {checked} glyph outlines compared")


def check_sparse_expected(tmp):
    """SparseCFF2: charstrings equal fontTools' expected result (test_results, newer fontTools)"""
    exp = os.path.join(DATA, "test_results", "SparseCFF2-VF.ttx")
    ours = os.path.join(tmp, "SparseCFF2-otvar.otf")
    if not os.path.exists(exp) or not os.path.exists(ours):
        return
    text = open(exp).read()
    want = re.findall(r'<CharString name="([^"]+)">(.*?)</CharString>', text, re.S)
    f = TTFont(ours)
    td = f["CFF2"].cff.topDictIndex[0]
    order = f.getGlyphOrder()
    dm = TTFont(os.path.join(tmp, "master_sparse_cff2_empty", "SparseCFF-Regular.otf"))
    names = dm.getGlyphOrder()
    for gname, prog in want:
        cs = td.CharStrings[order[names.index(gname)]]
        cs.decompile()
        got = " ".join(str(x) for x in cs.program)
        if got.split() != prog.split():
            fail(f"SparseCFF2: glyph {gname}: {got} vs fontTools' expected {' '.join(prog.split())}")
    print(f"SparseCFF2: {len(want)} charstrings equal fontTools' expected result")


def incompatible(tmp):
    """masters made incompatible: refused naming the glyph and the master"""
    doc, out_m, masters = masters_of(tmp, "TestCFF2")
    src = os.path.join(DATA, "master_cff2", "TestCFF2_ExtraLight.ttx")
    ttx = open(src).read()
    glyph_a = re.search(r'(<CharString name="A">)(.*?)(</CharString>)', ttx, re.S)
    body = glyph_a.group(2)
    cases = [
        ("extra segment", body.replace("endchar", "10 0 rlineto\n          endchar", 1),
         "charstring commands"),
        ("line made a curve", re.sub(r"(-?\d+) (-?\d+) rlineto", r"\1 0 0 \2 0 0 rrcurveto", body,
                                     count=1), "curveto"),
    ]
    for what, new_body, expect in cases:
        d = os.path.join(tmp, "bad_" + what.replace(" ", "_"))
        mdir = os.path.join(d, "master_cff2")
        os.makedirs(mdir, exist_ok=True)
        for p in masters.values():
            shutil.copy(p, mdir)
        bad = ttx[:glyph_a.start(2)] + new_body + ttx[glyph_a.end(2):]
        with open(os.path.join(d, "bad.ttx"), "w") as fh:
            fh.write(bad)
        f = TTFont()
        f.importXML(os.path.join(d, "bad.ttx"))
        f.save(os.path.join(mdir, "TestCFF2_ExtraLight.otf"))
        r = otvar_build(os.path.join(DATA, "TestCFF2.designspace"), os.path.join(d, "x.otf"),
                        mdir)
        msg = r.stderr.strip()
        if r.returncode == 0 or "glyph 1" not in msg or "master_0" not in msg or expect not in msg:
            fail(f"incompatible master ({what}): exit {r.returncode}: {msg}")
        else:
            print(f"incompatible master ({what}): {msg}")


def long_names(tmp):
    """glyph A renamed in every master: a name of 255 bytes is kept (post 2), one of 256 does not
    fit post's Pascal strings and the font gets post 3 (never a truncated name)"""
    doc, out_m, masters = masters_of(tmp, "TestCFF2")
    for n in (255, 256):
        long = "A" + "x" * (n - 1)
        d = os.path.join(tmp, f"long{n}", "master_cff2")
        os.makedirs(d, exist_ok=True)
        for src in doc.sources:
            stem = os.path.splitext(os.path.basename(src.filename))[0]
            ttx = open(os.path.join(DATA, "master_cff2", stem + ".ttx")).read()
            f = TTFont()
            path = os.path.join(d, stem + ".ttx")
            with open(path, "w") as fh:
                fh.write(ttx.replace('"A"', f'"{long}"'))
            f.importXML(path)
            f.save(os.path.join(d, stem + ".otf"))
        out = os.path.join(tmp, f"long{n}.otf")
        r = otvar_build(os.path.join(DATA, "TestCFF2.designspace"), out, d)
        if r.returncode:
            fail(f"glyph name of {n} bytes: otvar build: {r.stderr.strip()}")
            continue
        f = TTFont(out)
        want = 2.0 if n <= 255 else 3.0
        if f["post"].formatType != want or (want == 2.0 and f.getGlyphOrder()[1] != long):
            fail(f"glyph name of {n} bytes: post {f['post'].formatType}, glyph 1 "
                 f"{f.getGlyphOrder()[1][:12]}...")
        else:
            print(f"glyph name of {n} bytes: post {want}")


def main():
    if no_data():
        return 77
    if not shutil.which("hb-shape"):
        print("SKIP: no hb-shape")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        for name, nrand, ft_builds, tol in CASES:
            run_case(tmp, name, nrand, ft_builds, tol)
        check_sparse_expected(tmp)
        incompatible(tmp)
        long_names(tmp)
    return finish("test_build_cff2: all passed")


if __name__ == "__main__":
    sys.exit(main())
