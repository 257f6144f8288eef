#!/usr/bin/python3
"""test_build.py - `otvar build` (src/build/, issue 27) against fontTools 4.38's varLib.build.

For each of fontTools' own varLib test cases the slice covers (TrueType masters compiled from
their TTX files at test time, in /usr/bin/python3's fontTools 4.38), both builders make a
variable font from the same designspace and masters. Then:
  - otvar's font passes ots-sanitize (when installed) and opens in fontTools;
  - at every master's location, fontTools' instancer (the oracle that applies the variations)
    makes a static instance of otvar's font: every glyph's points and advance equal the
    master's own glyph (the build is exact at the masters; a sparse master is checked for the
    glyphs it has), and the OS/2 / hhea / post values MVAR varies equal the master's;
  - at the masters and at seeded random locations, the instances of otvar's font and of
    fontTools' font agree: points and advances within 1 unit (both round the interpolated
    deltas, IUP may leave different points to infer: each side is within 0.5 of the exact
    value), exactly at the masters' locations for fontTools' font where fontTools' is exact;
  - HarfBuzz (hb-shape, which reads gvar phantom points or HVAR) gives the same advances for
    every mapped character of both fonts at those locations (within 1 unit), and the same
    glyphs and positions (GPOS: kerning, mark attachment, single adjustments merged from the
    masters) for every pair of the first 24 characters;
  - otvar's own instancer (`otvar instance`) of otvar's font equals fontTools' instance of it.
Sizes (file, gvar) of both builds are printed, never asserted.
Exit 77 (skip) without the test data or fontTools.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

try:
    from fontTools.ttLib import TTFont
    from fontTools import varLib
    from fontTools.varLib import instancer
    from fontTools.designspaceLib import DesignSpaceDocument
except ImportError:
    print("SKIP: no fontTools")
    sys.exit(77)

from buildtest import (DATA, OTVAR, compile_ttx, decompile_all, fail, finish, master_locations,
                       ots_check)
FULL = os.environ.get("OTV_BUILD_FULL") == "1"

CASES = [
    # designspace, folder of the TTX masters, random locations
    ("Build", "master_ttx_interpolatable_ttf", 3),
    ("BuildAvarSingleAxis", "master_ttx_interpolatable_ttf", 2),
    ("BuildAvarIdentityMaps", "master_ttx_interpolatable_ttf", 2),
    ("BuildAvarEmptyAxis", "master_ttx_interpolatable_ttf", 2),
    ("BuildGvarCompositeExplicitDelta", "master_ttx_interpolatable_ttf", 2),
    ("BuildReuseNameId2", "master_ttx_interpolatable_ttf", 2),
    ("SparseMasters", "master_ttx_interpolatable_ttf", 3),
    ("SingleMaster", "master_ttx_interpolatable_ttf", 0),
    ("DropOnCurves", "master_ttx_drop_oncurves", 3),
    ("KerningMerging", "master_kerning_merging", 3),
    ("FeatureVars", "master_ttx_interpolatable_ttf", 2),
    ("FeatureVarsWholeRange", "master_ttx_interpolatable_ttf", 1),
    ("FeatureVarsWholeRangeEmpty", "master_ttx_interpolatable_ttf", 1),
    ("InconsistentUseMyMetrics", "master_ttx_interpolatable_ttf", 1),
]

FIELDS = [("OS/2", f) for f in ("sTypoAscender", "sTypoDescender", "sTypoLineGap", "usWinAscent",
                                 "usWinDescent", "sxHeight", "sCapHeight", "ySubscriptXSize",
                                 "ySubscriptYSize", "ySubscriptXOffset", "ySubscriptYOffset",
                                 "ySuperscriptXSize", "ySuperscriptYSize", "ySuperscriptXOffset",
                                 "ySuperscriptYOffset", "yStrikeoutSize", "yStrikeoutPosition")]
FIELDS += [("hhea", f) for f in ("caretSlopeRise", "caretSlopeRun", "caretOffset")]
FIELDS += [("post", f) for f in ("underlinePosition", "underlineThickness")]

def glyph_data(font):
    """name -> (coordinates incl. phantom points as a list of (x, y), advance)"""
    glyf, hmtx = font["glyf"], font["hmtx"]
    out = {}
    for name in font.getGlyphOrder():
        coords, _ = glyf._getCoordinatesAndControls(name, hmtx.metrics)[:2]
        out[name] = ([tuple(round(v) for v in p) for p in coords], hmtx[name][0])
    return out


def compare(a, b, tol, what):
    bad = 0
    for name, (ca, adv_a) in a.items():
        if name not in b:
            continue
        cb, adv_b = b[name]
        if abs(adv_a - adv_b) > tol:
            fail(f"{what}: glyph {name}: advance {adv_a} vs {adv_b}")
            bad += 1
        if len(ca) != len(cb):
            fail(f"{what}: glyph {name}: {len(ca)} vs {len(cb)} points")
            bad += 1
            continue
        # the phantom points are compared through the advance (their absolute position depends
        # on the instancer's bounding box recalculation)
        for i, (p, q) in enumerate(zip(ca[:-4], cb[:-4])):
            if abs(p[0] - q[0]) > tol or abs(p[1] - q[1]) > tol:
                fail(f"{what}: glyph {name} point {i}: {p} vs {q}")
                bad += 1
                break
        if bad > 5:
            return


def instance(path, loc):
    return instancer.instantiateVariableFont(TTFont(path), dict(loc))


def fields_of(font):
    out = {}
    for tag, f in FIELDS:
        if tag in font and hasattr(font[tag], f):
            out[(tag, f)] = getattr(font[tag], f)
    return out


def hb_advances(path, loc, text):
    var = ",".join(f"{k}={v:g}" for k, v in loc.items())
    cmd = ["hb-shape", "--no-glyph-names", "--output-format=json", "--features=-kern",
           f"--variations={var}", path, text]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return None
    import json
    return [g["ax"] for g in json.loads(r.stdout)]


def hb_positions(path, loc, text):
    """HarfBuzz's glyphs and positions with the font's features on (GPOS applied)"""
    var = ",".join(f"{k}={v:g}" for k, v in loc.items())
    cmd = ["hb-shape", "--no-glyph-names", "--output-format=json", f"--variations={var}", path,
           text]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return None
    import json
    return [(g["g"], g["ax"], g["ay"], g["dx"], g["dy"]) for g in json.loads(r.stdout)]


TWO_MASTERS = """<?xml version='1.0' encoding='UTF-8'?>
<designspace format="4.1"><axes><axis tag="wght" name="Weight" minimum="0" maximum="368"
default="0"/></axes>%s<sources>
<source filename="TestFamily-Master0.ufo" name="m0"><location><dimension name="Weight" xvalue="0"/></location></source>
<source filename="TestFamily-Master1.ufo" name="m1"><location><dimension name="Weight" xvalue="368"/></location></source>
</sources></designspace>"""


def two_masters(path, rules=""):
    """writes a designspace of Build's Master0 (wght 0) and Master1 (368), rules optional"""
    with open(path, "w") as out:
        out.write(TWO_MASTERS % rules)
    return path


def build_both(what, ds, mdir, ours, theirs):
    """otvar's build of ds (masters in mdir) to ours and fontTools' to theirs; fontTools' font,
    or None (a failure recorded) when otvar refused"""
    r = subprocess.run([OTVAR, "build", ds, "-o", ours, "--master-dir", mdir, "-q", "--force"],
                       capture_output=True, text=True)
    if r.returncode:
        fail(f"{what}: otvar build: {r.stderr.strip()}")
        return None
    finder = lambda p: os.path.join(mdir, os.path.splitext(os.path.basename(p))[0] + ".ttf")
    vf, _, _ = varLib.build(ds, master_finder=finder)
    vf.save(theirs)
    return vf


def build_featured(tmp, what, folder, fea):
    """Build's Master0 and Master1 with feaLib features added (fea: {master stem: feature
    text}) in tmp/folder, and both builds of them (ours, theirs); (ours, theirs) or None when
    otvar refused (a failure recorded)"""
    from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
    src = os.path.join(tmp, "master_ttx_interpolatable_ttf")
    out = os.path.join(tmp, folder)
    os.makedirs(out)
    for n, fe in fea.items():
        f = TTFont(os.path.join(src, n + ".ttf"))
        addOpenTypeFeaturesFromString(f, fe)
        f.save(os.path.join(out, n + ".ttf"))
    ds = os.path.join(out, folder + ".designspace")
    two_masters(ds)
    ours, theirs = os.path.join(out, "o.ttf"), os.path.join(out, "f.ttf")
    if build_both(what, ds, out, ours, theirs) is None:
        return None
    return ours, theirs


def run_case(tmp, name, mdir, nrand):
    ds_path = os.path.join(DATA, name + ".designspace")
    src_dir = os.path.join(DATA, mdir)
    out_m = os.path.join(tmp, mdir)
    os.makedirs(out_m, exist_ok=True)
    doc = DesignSpaceDocument.fromfile(ds_path)
    masters = {}
    for s in doc.sources:
        stem = os.path.splitext(os.path.basename(s.filename))[0]
        masters[s.name] = compile_ttx(os.path.join(src_dir, stem + ".ttx"),
                                      os.path.join(out_m, stem + ".ttf"))
    ours = os.path.join(tmp, name + "-otvar.ttf")
    theirs = os.path.join(tmp, name + "-fonttools.ttf")
    if build_both(name, ds_path, out_m, ours, theirs) is None:
        return
    so, st = os.path.getsize(ours), os.path.getsize(theirs)
    go = len(TTFont(ours).reader["gvar"]) if "gvar" in TTFont(ours) else 0
    gt = len(TTFont(theirs).reader["gvar"]) if "gvar" in TTFont(theirs) else 0
    print(f"{name}: size otvar {so} fontTools {st} ({so / st:.3f}); gvar {go} vs {gt}"
          + (f" ({go / gt:.3f})" if gt else ""))
    ots_check(name, ours)
    decompile_all(ours)
    # user locations: the masters', then random ones
    locs = [(s.name, user) for s, user in master_locations(doc)]
    rng = random.Random(27)
    for i in range(nrand * (4 if FULL else 1)):
        locs.append((None, {a.tag: rng.uniform(a.minimum, a.maximum) for a in doc.axes}))
    cmap = TTFont(ours).getBestCmap() or {}
    text = "".join(chr(c) for c in sorted(cmap) if c > 32)[:64]
    for src, loc in locs:
        what = f"{name} at {', '.join(f'{k}={v:g}' for k, v in loc.items())}"
        io = instance(ours, loc)
        it = instance(theirs, loc)
        go, gt = glyph_data(io), glyph_data(it)
        if src is not None:
            mf = TTFont(masters[src])
            gm = glyph_data(mf)
            if "hmtx" in mf:
                present = {g: v for g, v in gm.items()
                           if mf["glyf"][g].numberOfContours != 0 or g == ".notdef"}
                compare(present, go, 0, what + " (otvar vs the master)")
            fo, fm = fields_of(io), fields_of(mf)
            for k, v in fm.items():
                if v == -0x8000 and k[0] == "post":
                    continue  # fontTools' sentinel: no underline values in this master
                if k in fo and fo[k] != v:
                    fail(f"{what}: {k[0]}.{k[1]} {fo[k]} vs the master's {v}")
        compare(gt, go, 1, what + " (otvar vs fontTools)")
        fo, ft = fields_of(io), fields_of(it)
        for k, v in ft.items():
            if k in fo and abs(fo[k] - v) > 1:
                fail(f"{what}: {k[0]}.{k[1]} {fo[k]} vs fontTools' {v}")
        if shutil.which("hb-shape") and text:
            ao, at = hb_advances(ours, loc, text), hb_advances(theirs, loc, text)
            if ao is None or at is None:
                fail(f"{what}: hb-shape failed")
            elif len(ao) != len(at) or any(abs(x - y) > 1 for x, y in zip(ao, at)):
                fail(f"{what}: HarfBuzz advances {ao} vs {at}")
        # GPOS (merged: kerning, marks) through HarfBuzz: every pair of the first characters
        if shutil.which("hb-shape") and text:
            pairs = "".join(a + b for a in text[:24] for b in text[:24])
            po, pt = hb_positions(ours, loc, pairs), hb_positions(theirs, loc, pairs)
            if po is None or pt is None or len(po) != len(pt):
                fail(f"{what}: hb-shape of the pairs failed or differs in length")
            else:
                for i, (x, y) in enumerate(zip(po, pt)):
                    if x[0] != y[0] or any(abs(u - v) > 1 for u, v in zip(x[1:], y[1:])):
                        fail(f"{what}: HarfBuzz GPOS positions at glyph {i}: {x} vs {y}")
                        break
        # otvar's own instancer on otvar's font
        inst = os.path.join(tmp, name + "-inst.ttf")
        var = ",".join(f"{k}={v!r}" for k, v in loc.items())
        r = subprocess.run([OTVAR, "instance", ours, "--var", var, "--normalize", "fonttools",
                            "-o", inst, "--force", "-q"], capture_output=True, text=True)
        if r.returncode:
            fail(f"{what}: otvar instance: {r.stderr.strip()}")
        else:
            compare(go, glyph_data(TTFont(inst)), 1, what + " (otvar instance vs fontTools')")


def hb_extents(path, var, text):
    r = subprocess.run(["hb-shape", "--show-extents", "--no-glyph-names", f"--variations={var}",
                        path, text], capture_output=True, text=True)
    return r.stdout.strip() if not r.returncode else None


def run_avar2(tmp):
    """BuildAvar2: a format 5 <mappings> (design weight 128 -> 138) becomes avar version 2.
    fontTools 4.38 cannot build avar 2 (it builds the same font with avar 1 only); HarfBuzz 6.0
    applies avar 2. Hand-computed: user 600 -> avar 1 gives design 128, normalized
    (128 - 90) / (190 - 90) = 0.38 = 6226 in F2Dot14; the mapping adds (138 - 128) / 100 = 0.1
    = 1638, so 7864 (0.48). The model of the inputs {0, 0.38} gives the region (0, 0.38, 0.38):
    past 0.38 no delta (user 650: avar 1 alone, 8110). In fontTools' avar-1 font the user
    value whose avar 1 result is 0.48 is 400 + 500 * (0.4 + 0.2 * (0.48 - 0.38) / 0.23) =
    643.478: HarfBuzz must draw otvar's font at 600 as fontTools' at 643.478, and both fonts
    alike where the mapping does not act (above 0.38, below 0)."""
    name, mdir = "BuildAvar2", os.path.join(tmp, "master_ttx_interpolatable_ttf")
    ds_path = os.path.join(DATA, name + ".designspace")
    if not os.path.exists(ds_path):
        return
    ours, theirs = os.path.join(tmp, "avar2-otvar.ttf"), os.path.join(tmp, "avar2-ft.ttf")
    r = subprocess.run([OTVAR, "build", ds_path, "-o", ours, "--master-dir", mdir, "-q",
                        "--force"], capture_output=True, text=True)
    if r.returncode:
        fail(f"{name}: otvar build: {r.stderr.strip()}")
        return
    r = subprocess.run([OTVAR, "info", ours], capture_output=True, text=True)
    if "avar: version 2" not in r.stdout:
        fail(f"{name}: no avar version 2 in otvar info")
    # 512: user 0.224 = 3670; avar 1 between (3277, 2949) and (6554, 6226): 3342; the mapping
    # adds 1638 * 3342 / 6226 = 879.2: 4221
    for user, want in (("600", "7864"), ("650", "8110"), ("400", "0"), ("900", "16384"),
                       ("512", "4221")):
        r = subprocess.run([OTVAR, "normalize", ours, "wght=" + user], capture_output=True,
                           text=True)
        got = r.stdout.split()[2] if len(r.stdout.split()) > 2 else r.stderr.strip()
        if got != want:
            fail(f"{name}: otvar normalize wght={user}: {got}, want {want}")
    finder = lambda p: os.path.join(mdir, os.path.splitext(os.path.basename(p))[0] + ".ttf")
    vf, _, _ = varLib.build(ds_path, master_finder=finder)
    vf.save(theirs)
    print(f"{name}: size otvar {os.path.getsize(ours)} fontTools (avar 1 only) "
          f"{os.path.getsize(theirs)}")
    if not shutil.which("hb-shape"):
        return
    text = "".join(chr(c) for c in sorted(vf.getBestCmap()) if c > 32)
    for uo, ut in (("600", "643.478"), ("601", "601"), ("650", "650"), ("100", "100"),
                   ("900", "900")):
        eo, et = hb_extents(ours, "wght=" + uo, text), hb_extents(theirs, "wght=" + ut, text)
        if eo is None or eo != et:
            fail(f"{name}: HarfBuzz at wght={uo} (otvar) vs {ut} (fontTools): {eo} vs {et}")
    print(f"{name}: avar 2 checked (otvar normalize, HarfBuzz 6 extents)")


def hb_glyphs(path, var, text):
    r = subprocess.run(["hb-shape", "--no-positions", "--no-clusters", f"--variations={var}",
                        path, text], capture_output=True, text=True)
    return r.stdout.strip() if not r.returncode else None


def run_rules(tmp):
    """Designspace rules -> GSUB FeatureVariations: HarfBuzz picks the same glyphs from otvar's
    and fontTools' fonts on an 11 x 11 grid of each design space. FeatureVarsCustomTag (rules
    under the features 'rclt' and 'calt', which fontTools 4.38 cannot build) is compared with
    fontTools' FeatureVars (the same rules under 'rclt')."""
    mdir = os.path.join(tmp, "master_ttx_interpolatable_ttf")
    finder = lambda p: os.path.join(mdir, os.path.splitext(os.path.basename(p))[0] + ".ttf")
    for name, ref in (("FeatureVars", "FeatureVars"), ("FeatureVarsWholeRange",
                      "FeatureVarsWholeRange"), ("FeatureVarsWholeRangeEmpty",
                      "FeatureVarsWholeRangeEmpty"), ("FeatureVarsCustomTag", "FeatureVars")):
        ds = os.path.join(DATA, name + ".designspace")
        if not os.path.exists(ds) or not shutil.which("hb-shape"):
            continue
        ours, theirs = os.path.join(tmp, name + "-rules.ttf"), os.path.join(tmp, ref + "-ft.ttf")
        r = subprocess.run([OTVAR, "build", ds, "-o", ours, "--master-dir", mdir, "-q",
                            "--force"], capture_output=True, text=True)
        if r.returncode:
            fail(f"{name}: otvar build: {r.stderr.strip()}")
            continue
        vf, _, _ = varLib.build(os.path.join(DATA, ref + ".designspace"), master_finder=finder)
        vf.save(theirs)
        f = TTFont(ours)
        tags = [fr.FeatureTag for fr in f["GSUB"].table.FeatureList.FeatureRecord]
        want = ["calt", "rclt"] if name == "FeatureVarsCustomTag" else ["rclt"]
        if tags != want:
            fail(f"{name}: GSUB features {tags}, want {want}")
        doc = DesignSpaceDocument.fromfile(ds)
        axes = [(a.tag, a.minimum, a.maximum) for a in doc.axes]
        import itertools
        grid = [[lo + (hi - lo) * i / 10 for i in range(11)] for _, lo, hi in axes]
        text = "".join(chr(c) for c in sorted(vf.getBestCmap()) if c > 32)
        bad = 0
        for vals in itertools.product(*grid):
            var = ",".join(f"{t}={v:g}" for (t, _, _), v in zip(axes, vals))
            go, gt = hb_glyphs(ours, var, text), hb_glyphs(theirs, var, text)
            if go is None or go != gt:
                bad += 1
                if bad <= 3:
                    fail(f"{name} at {var}: HarfBuzz glyphs {go} vs {gt}")
        print(f"{name}: rules checked at {len(list(itertools.product(*grid)))} locations; GSUB "
              f"{len(f.reader['GSUB'])} bytes, fontTools' {ref} "
              f"{len(TTFont(theirs).reader['GSUB'])}")


def run_rules_gsub(tmp):
    """rules added to masters that have a GSUB of their own (feaLib: ss01, liga under DFLT,
    latn and latn/TRK): HarfBuzz glyphs with the default features, +ss01 and -liga equal
    fontTools' build on a 6 x 6 grid; the FeatureList stays sorted (ots-sanitize quiet)."""
    from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
    import itertools
    ds = os.path.join(DATA, "FeatureVars.designspace")
    if not os.path.exists(ds) or not shutil.which("hb-shape"):
        return
    src = os.path.join(tmp, "master_ttx_interpolatable_ttf")
    gd = os.path.join(tmp, "gsub")
    os.makedirs(gd)
    doc = DesignSpaceDocument.fromfile(ds)
    fea = """languagesystem DFLT dflt; languagesystem latn dflt; languagesystem latn TRK;
feature ss01 { sub uni0041 by uni0061; } ss01;
feature liga { sub uni0024 uni0024 by uni0024.nostroke; } liga;"""
    for s in doc.sources:
        stem = os.path.splitext(os.path.basename(s.filename))[0]
        f = TTFont(os.path.join(src, stem + ".ttf"))
        addOpenTypeFeaturesFromString(f, fea)
        f.save(os.path.join(gd, stem + ".ttf"))
    ours, theirs = os.path.join(gd, "o.ttf"), os.path.join(gd, "f.ttf")
    vf = build_both("rules with a GSUB", ds, gd, ours, theirs)
    if vf is None:
        return
    axes = [(a.tag, a.minimum, a.maximum) for a in doc.axes]
    grid = [[lo + (hi - lo) * i / 5 for i in range(6)] for _, lo, hi in axes]
    bad = 0
    for vals in itertools.product(*grid):
        var = ",".join(f"{t}={v:g}" for (t, _, _), v in zip(axes, vals))
        for feat in ("", "+ss01", "-liga"):
            args = ["hb-shape", "--no-positions", "--no-clusters", f"--variations={var}",
                    f"--features={feat}", "--script=latn", "--language=tr"]
            go = subprocess.run(args + [ours, "$$Aa"], capture_output=True, text=True).stdout
            gt = subprocess.run(args + [theirs, "$$Aa"], capture_output=True, text=True).stdout
            if go != gt:
                bad += 1
                if bad <= 3:
                    fail(f"rules with a GSUB at {var} {feat}: {go.strip()} vs {gt.strip()}")
    ots_check("rules with a GSUB", ours, quiet=True)
    print(f"rules with a GSUB: GSUB {len(TTFont(ours).reader['GSUB'])} bytes, fontTools' "
          f"{len(TTFont(theirs).reader['GSUB'])}")


def run_incompatible(tmp):
    """fontTools' incompatible cases that otvar must refuse, naming the master and the cause:
    IncompatibleArrays (a master's ScriptList is empty), IncompatibleFeatures (a master's
    lookup differs)"""
    for name, mdir, want in (("IncompatibleArrays", "master_incompatible_arrays", "ScriptList"),
                             ("IncompatibleFeatures", "master_incompatible_features",
                              "lookup 0")):
        ds = os.path.join(DATA, name + ".designspace")
        if not os.path.exists(ds):
            continue
        md = os.path.join(tmp, mdir)
        os.makedirs(md, exist_ok=True)
        for t in os.listdir(os.path.join(DATA, mdir)):
            if t.endswith(".ttx"):
                f = TTFont()
                f.importXML(os.path.join(DATA, mdir, t))
                f.save(os.path.join(md, t[:-4] + ".ttf"))
        r = subprocess.run([OTVAR, "build", ds, "--master-dir", md, "-o",
                            os.path.join(md, "o.ttf")], capture_output=True, text=True)
        if r.returncode != 1 or want not in r.stderr or "Bold" not in r.stderr:
            fail(f"{name}: exit {r.returncode}, {r.stderr.strip()}")
        else:
            print(f"{name} refused: {r.stderr.strip()}")


def run_rule_errors(tmp):
    """a rule substituting a glyph the default master lacks: refused, naming the glyph"""
    mdir = os.path.join(tmp, "master_ttx_interpolatable_ttf")
    ds = os.path.join(tmp, "badrule.designspace")
    two_masters(ds, """<rules><rule name="r"><conditionset>
<condition name="Weight" minimum="100"/></conditionset><sub name="uni0024" with="nosuchglyph"/>
</rule></rules>""")
    r = subprocess.run([OTVAR, "build", ds, "--master-dir", mdir, "-o",
                        os.path.join(tmp, "badrule.ttf")], capture_output=True, text=True)
    if r.returncode != 1 or "nosuchglyph" not in r.stderr:
        fail(f"rule on a missing glyph: exit {r.returncode}, {r.stderr.strip()}")
    else:
        print("rule on a missing glyph refused: " + r.stderr.strip())


def vvar_advances(font, loc):
    """every glyph's advance height from vmtx + VVAR (fontTools' VarStoreInstancer) at loc"""
    from fontTools.varLib.varStore import VarStoreInstancer
    from fontTools.varLib.models import normalizeLocation
    axes = {a.axisTag: (a.minValue, a.defaultValue, a.maxValue) for a in font["fvar"].axes}
    norm = normalizeLocation(loc, axes)
    if "avar" in font:
        from fontTools.varLib.models import piecewiseLinearMap
        norm = {k: piecewiseLinearMap(v, font["avar"].segments[k]) for k, v in norm.items()}
    t = font["VVAR"].table
    inst = VarStoreInstancer(t.VarStore, font["fvar"].axes, norm)
    out = {}
    for gi, g in enumerate(font.getGlyphOrder()):
        if t.AdvHeightMap:
            idx = t.AdvHeightMap.mapping[g]
        else:
            idx = gi
        out[g] = font["vmtx"][g][0] + inst[idx]
    return out


def run_vvar(tmp):
    """VVAR: Build's masters given vhea/vmtx (heights that differ per master and glyph): the
    advance heights VVAR gives at random locations equal fontTools' VVAR's (within 1), and
    HarfBuzz's top-to-bottom advances agree."""
    ds = os.path.join(DATA, "Build.designspace")
    src = os.path.join(tmp, "master_ttx_interpolatable_ttf")
    vd = os.path.join(tmp, "vvar")
    os.makedirs(vd)
    doc = DesignSpaceDocument.fromfile(ds)
    from fontTools.ttLib import newTable
    for i, s in enumerate(doc.sources):
        stem = os.path.splitext(os.path.basename(s.filename))[0]
        f = TTFont(os.path.join(src, stem + ".ttf"))
        vhea = newTable("vhea")
        for k, v in dict(tableVersion=0x00011000, ascent=500, descent=-500, lineGap=0,
                         advanceHeightMax=0, minTopSideBearing=0, minBottomSideBearing=0,
                         yMaxExtent=0, caretSlopeRise=0, caretSlopeRun=1, caretOffset=0,
                         reserved1=0, reserved2=0, reserved3=0, reserved4=0,
                         metricDataFormat=0, numberOfVMetrics=0).items():
            setattr(vhea, k, v)
        f["vhea"] = vhea
        vm = newTable("vmtx")
        vm.metrics = {g: (1000 + 37 * i + 3 * gi, 100 + 5 * i)
                      for gi, g in enumerate(f.getGlyphOrder())}
        f["vmtx"] = vm
        f.save(os.path.join(vd, stem + ".ttf"))
    ours, theirs = os.path.join(vd, "o.ttf"), os.path.join(vd, "f.ttf")
    vf = build_both("VVAR", ds, vd, ours, theirs)
    if vf is None:
        return
    fo, ft = TTFont(ours), TTFont(theirs)
    if "VVAR" not in fo:
        fail("VVAR: none built")
        return
    rng = random.Random(7)
    locs = [{a.tag: a.map_backward(s.location.get(a.name, a.map_forward(a.default)))
             for a in doc.axes} for s in doc.sources]
    locs += [{a.tag: rng.uniform(a.minimum, a.maximum) for a in doc.axes} for _ in range(6)]
    for loc in locs:
        ao, at = vvar_advances(fo, loc), vvar_advances(ft, loc)
        diff = [g for g in ao if abs(ao[g] - at[g]) > 1]
        if diff:
            fail(f"VVAR at {loc}: {diff[0]} {ao[diff[0]]} vs {at[diff[0]]}")
        if shutil.which("hb-shape"):
            var = ",".join(f"{k}={v:g}" for k, v in loc.items())
            ys = []
            for path in (ours, theirs):
                r = subprocess.run(["hb-shape", "--direction=ttb", "--output-format=json",
                                    f"--variations={var}", path, "Aa$"], capture_output=True,
                                   text=True)
                import json
                ys.append([g["ay"] for g in json.loads(r.stdout)] if not r.returncode else None)
            if ys[0] is None or ys[0] != ys[1]:
                fail(f"VVAR at {var}: HarfBuzz vertical advances {ys[0]} vs {ys[1]}")
    print(f"VVAR: {len(locs)} locations; VVAR {len(fo.reader['VVAR'])} bytes, fontTools' "
          f"{len(ft.reader['VVAR'])}")


def stat_desc(f):
    t, nm = f["STAT"].table, f["name"]
    axes = [(a.AxisTag, nm.getDebugName(a.AxisNameID), a.AxisOrdering)
            for a in t.DesignAxisRecord.Axis]
    vals = []
    for v in t.AxisValueArray.AxisValue if t.AxisValueArray else []:
        d = dict(fmt=v.Format, axis=v.AxisIndex, flags=v.Flags, name=nm.getDebugName(v.ValueNameID))
        for k in ("Value", "NominalValue", "RangeMinValue", "RangeMaxValue", "LinkedValue"):
            if hasattr(v, k):
                d[k] = getattr(v, k)
        vals.append(d)
    vals.sort(key=lambda d: (d["axis"], d.get("Value", d.get("NominalValue"))))
    return axes, vals, nm.getDebugName(t.ElidedFallbackNameID)


def run_stat_labels(tmp):
    """STAT from designspace format 5 axis labels (formats 1, 2 and 3, elidable and older
    sibling flags, ordering, elided fallback name) equals fontTools' buildVFStatTable of the
    same document (varLib.build of 4.38 makes only a minimal STAT)."""
    from fontTools.varLib.stat import buildVFStatTable
    mdir = os.path.join(tmp, "master_ttx_interpolatable_ttf")
    ds = os.path.join(tmp, "labels.designspace")
    with open(ds, "w") as out:
        out.write("""<?xml version='1.0' encoding='UTF-8'?>
<designspace format="5.0"><axes elidedfallbackname="Regular">
<axis tag="wght" name="Weight" minimum="0" maximum="368" default="0"><labels ordering="1">
<label uservalue="0" name="Light" elidable="true" linkeduservalue="200"/>
<label uservalue="200" userminimum="100" usermaximum="300" name="Bold"/>
<label uservalue="368" name="Black" oldersibling="true"/></labels></axis></axes><sources>
<source filename="TestFamily-Master0.ufo" name="m0"><location><dimension name="Weight" xvalue="0"/></location></source>
<source filename="TestFamily-Master1.ufo" name="m1"><location><dimension name="Weight" xvalue="368"/></location></source>
</sources></designspace>""")
    ours, theirs = os.path.join(tmp, "labels-o.ttf"), os.path.join(tmp, "labels-f.ttf")
    r = subprocess.run([OTVAR, "build", ds, "--master-dir", mdir, "-o", ours, "-q"],
                       capture_output=True, text=True)
    if r.returncode:
        fail(f"labels: otvar build: {r.stderr.strip()}")
        return
    doc = DesignSpaceDocument.fromfile(ds)
    finder = lambda p: os.path.join(mdir, os.path.splitext(os.path.basename(p))[0] + ".ttf")
    vf, _, _ = varLib.build(doc, master_finder=finder)
    if "STAT" in vf:
        del vf["STAT"]
    buildVFStatTable(vf, doc, doc.getVariableFonts()[0].name)
    vf.save(theirs)
    a, b = stat_desc(TTFont(ours)), stat_desc(TTFont(theirs))
    if a != b:
        fail(f"labels: STAT {a} vs fontTools' {b}")
    ots_check("labels", ours)
    print(f"STAT from labels: {len(a[1])} axis values equal fontTools'; "
          f"{len(TTFont(ours).reader['STAT'])} vs {len(TTFont(theirs).reader['STAT'])} bytes")


def run_pair_sets(tmp):
    """PairPos format 1 whose pair sets differ between masters (feaLib kerning added to Build's
    first two masters, different pairs in each): HarfBuzz positions of every pair equal those of
    fontTools' build at 5 weights."""
    fea = {"TestFamily-Master0": "feature kern { pos uni0041 uni0061 -20; "
                                 "pos uni0061 uni0041 -10; } kern;",
           "TestFamily-Master1": "feature kern { pos uni0041 uni0061 -40; "
                                 "pos uni0041 uni0024 15; pos uni0024 uni0024 5; } kern;"}
    built = build_featured(tmp, "pair sets", "pairsets", fea)
    if built is None:
        return
    ours, theirs = built
    if not shutil.which("hb-shape"):
        return
    text = "Aa$ "
    pairs = "".join(x + y for x in text for y in text)
    for w in (0, 50, 184, 300, 368):
        po, pt = hb_positions(ours, {"wght": w}, pairs), hb_positions(theirs, {"wght": w}, pairs)
        if po is None or po != pt:
            fail(f"pair sets at wght={w}: HarfBuzz {po} vs {pt}")
    print(f"pair sets: GPOS {len(TTFont(ours).reader['GPOS'])} bytes, fontTools' "
          f"{len(TTFont(theirs).reader['GPOS'])}")


def base_coords(font, loc, masters=False):
    """every BaseCoord of BASE at user location loc (VariationIndex devices applied through
    fontTools' VarStoreInstancer; fontTools 4.38's instancer leaves BASE alone)"""
    from fontTools.varLib.varStore import VarStoreInstancer
    from fontTools.varLib.models import normalizeLocation
    t = font["BASE"].table
    inst = None
    if not masters and getattr(t, "VarStore", None):
        axes = {a.axisTag: (a.minValue, a.defaultValue, a.maxValue) for a in font["fvar"].axes}
        inst = VarStoreInstancer(t.VarStore, font["fvar"].axes, normalizeLocation(loc, axes))

    def val(c):
        if c is None:
            return None
        v = c.Coordinate
        dev = getattr(c, "DeviceTable", None)
        if c.Format == 3 and dev is not None and dev.DeltaFormat == 0x8000 and inst:
            v += inst[(dev.StartSize << 16) | dev.EndSize]
        return round(v, 6)

    out = []
    for ax in (t.HorizAxis, t.VertAxis):
        if not ax:
            continue
        for rec in ax.BaseScriptList.BaseScriptRecord:
            bs = rec.BaseScript
            mm = bs.DefaultMinMax
            out.append((rec.BaseScriptTag,
                        [val(c) for c in bs.BaseValues.BaseCoord] if bs.BaseValues else None,
                        (val(mm.MinCoord), val(mm.MaxCoord)) if mm else None))
    return out


def run_carets(tmp):
    """GDEF ligature carets (feaLib LigatureCaretByPos, one moving, one not) on two of Build's
    masters with kerning: every caret, VariationIndex deltas applied, equals fontTools' build
    at 3 weights (the masters' and between)."""
    from fontTools.varLib.varStore import VarStoreInstancer
    from fontTools.varLib.models import normalizeLocation
    fea = {"TestFamily-Master0": "table GDEF { LigatureCaretByPos uni0024 300 500; "
                                 "LigatureCaretByPos uni0041 200; } GDEF; "
                                 "feature kern { pos uni0041 uni0061 -20; } kern;",
           "TestFamily-Master1": "table GDEF { LigatureCaretByPos uni0024 340 520; "
                                 "LigatureCaretByPos uni0041 200; } GDEF; "
                                 "feature kern { pos uni0041 uni0061 -40; } kern;"}
    built = build_featured(tmp, "carets", "carets", fea)
    if built is None:
        return
    ours, theirs = built

    def carets(font, w):
        t = font["GDEF"].table
        axes = {a.axisTag: (a.minValue, a.defaultValue, a.maxValue) for a in font["fvar"].axes}
        inst = VarStoreInstancer(t.VarStore, font["fvar"].axes,
                                 normalizeLocation({"wght": w}, axes))
        out = []
        for g, lg in zip(t.LigCaretList.Coverage.glyphs, t.LigCaretList.LigGlyph):
            row = []
            for cv in lg.CaretValue:
                v = cv.Coordinate
                dev = getattr(cv, "DeviceTable", None)
                if cv.Format == 3 and dev is not None and dev.DeltaFormat == 0x8000:
                    v += inst[(dev.StartSize << 16) | dev.EndSize]
                row.append(round(v, 4))
            out.append((g, row))
        return out

    for w in (0, 100, 368):
        a, b = carets(TTFont(ours), w), carets(TTFont(theirs), w)
        if a != b:
            fail(f"carets at wght={w}: {a} vs fontTools' {b}")
    if carets(TTFont(ours), 368)[-1][1] != [340.0, 520.0]:
        fail(f"carets at the second master: {carets(TTFont(ours), 368)}")
    print(f"carets: GDEF {len(TTFont(ours).reader['GDEF'])} bytes, fontTools' "
          f"{len(TTFont(theirs).reader['GDEF'])}")


def run_base(tmp):
    """TestBASE: BASE coordinates merged (VariationIndex devices, BASE 1.1 store): at the
    masters they equal the masters', elsewhere fontTools' build (evaluated the same way)."""
    ds = os.path.join(DATA, "TestBASE.designspace")
    if not os.path.exists(ds):
        return
    bd = os.path.join(tmp, "base")
    os.makedirs(bd)
    for n in ("TestBASE.0", "TestBASE.900"):
        f = TTFont()
        f.importXML(os.path.join(DATA, "master_base_test", n + ".ttx"))
        f.save(os.path.join(bd, n + ".ttf"))
    ours, theirs = os.path.join(bd, "o.ttf"), os.path.join(bd, "f.ttf")
    vf = build_both("TestBASE", ds, bd, ours, theirs)
    if vf is None:
        return
    fo, ft = TTFont(ours), TTFont(theirs)
    for w, m in ((0, "TestBASE.0"), (900, "TestBASE.900")):
        if base_coords(fo, {"wght": w}) != base_coords(TTFont(os.path.join(bd, m + ".ttf")),
                                                       None, masters=True):
            fail(f"TestBASE at wght={w}: BASE differs from the master's")
    for w in (0, 123, 450, 777, 900):
        if base_coords(fo, {"wght": w}) != base_coords(ft, {"wght": w}):
            fail(f"TestBASE at wght={w}: BASE differs from fontTools'")
    ots_check("TestBASE", ours)
    print(f"TestBASE: size otvar {os.path.getsize(ours)} fontTools {os.path.getsize(theirs)}; "
          f"BASE {len(fo.reader['BASE'])} vs {len(ft.reader['BASE'])}")


def main():
    if not os.path.isdir(DATA):
        print(f"SKIP: no {DATA}")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        for name, mdir, nrand in CASES:
            run_case(tmp, name, mdir, nrand)
        run_avar2(tmp)
        run_rules(tmp)
        run_vvar(tmp)
        run_stat_labels(tmp)
        run_pair_sets(tmp)
        run_base(tmp)
        run_carets(tmp)
        run_rule_errors(tmp)
        run_rules_gsub(tmp)
        run_incompatible(tmp)
        # masters whose GPOS differs in more than values and classes (here a lookup flag) are
        # refused with a message naming the master and the lookup (never a silent wrong font)
        km = os.path.join(DATA, "KerningMerging.designspace")
        kd = os.path.join(tmp, "master_kerning_merging")
        if os.path.exists(km) and os.path.isdir(kd):
            bd = os.path.join(tmp, "km-bad")
            os.makedirs(bd)
            for n in "012":
                shutil.copy(os.path.join(kd, n + ".ttf"), bd)
            f = TTFont(os.path.join(bd, "2.ttf"))
            f["GPOS"].table.LookupList.Lookup[0].LookupFlag = 0
            f.save(os.path.join(bd, "2.ttf"))
            r = subprocess.run([OTVAR, "build", km, "--master-dir", bd, "-o",
                                os.path.join(bd, "o.ttf")], capture_output=True, text=True)
            if r.returncode != 1 or "not merged yet" not in r.stderr or "lookup 0" not in r.stderr:
                fail(f"GPOS lookup flag differs: exit {r.returncode}, {r.stderr.strip()}")
            else:
                print("GPOS structure differs, refused: " + r.stderr.strip())
        # incompatible masters fail with a message naming the glyph and the master
        bad = os.path.join(tmp, "bad")
        os.makedirs(bad)
        for n in ("TestFamily-Master0", "TestFamily-Master1"):
            shutil.copy(os.path.join(tmp, "master_ttx_interpolatable_ttf", n + ".ttf"), bad)
        f = TTFont(os.path.join(bad, "TestFamily-Master1.ttf"))
        g = next(f["glyf"][n] for n in f.getGlyphOrder() if f["glyf"][n].numberOfContours > 0)
        g.coordinates.append((0, 0))
        g.flags.append(1)
        g.endPtsOfContours[-1] += 1
        f.save(os.path.join(bad, "TestFamily-Master1.ttf"))
        ds = os.path.join(bad, "bad.designspace")
        two_masters(ds)
        r = subprocess.run([OTVAR, "build", ds, "-o", os.path.join(bad, "out.ttf")],
                           capture_output=True, text=True)
        if r.returncode != 1 or "m1" not in r.stderr or "glyph" not in r.stderr:
            fail(f"incompatible masters: exit {r.returncode}, {r.stderr.strip()}")
        else:
            print("incompatible masters refused: " + r.stderr.strip())
    return finish()


if __name__ == "__main__":
    sys.exit(main())
