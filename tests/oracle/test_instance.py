#!/usr/bin/python3
"""test_instance.py - `otvar instance` against fontTools' varLib.instancer (Debian fontTools 4.38).

otvar runs with the normalization model that reproduces fontTools, `--normalize fonttools`
(docs/normalization.md). For every TrueType test font (tests/fonts) at every named instance, the
real TrueType VFs in $OTV_FONT_CACHE at some (every one with OTV_INSTANCE_FULL=1), seeded random
locations and locations where GSUB FeatureVariations substitute features, both instancers make a
full static instance and the two fonts are compared table by table after a compile round trip
through fontTools:
  - the table set (fontTools keeps what we keep, drops what we drop)
  - every glyph: contours, on-curve flags and coordinates, composite components (glyph,
    offsets, transform, flags), bounding box
  - hmtx/vmtx advances and side bearings
  - head / hhea / vhea / maxp / OS/2 / post values, cvt, name records
  - GSUB/GPOS/GDEF as fontTools XML (only where neither font has variations in them), and the
    glyphs and positions hb-shape gives every mapped character with both fonts
Known, deliberate differences are listed in KNOWN with their reason and are not failures:
head.modified (fontTools stamps the time; we keep the source value, for reproducible output),
head.checkSumAdjustment (follows from the former), indexToLocFormat (glyph padding choices);
STAT: both keep it, pruned to the axis values at the location (compared: the same values), and
so the name records STAT uses.
Every location's F2Dot14 coordinates from `otvar normalize --normalize fonttools` must equal
fontTools' normalization (a failure otherwise).
"""
import io
import os
import random
import struct
import subprocess
import sys
import tempfile

from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._g_l_y_f import GlyphComponent
from fontTools.varLib import instancer
from fontTools.ttLib import newTable
from fontTools.ttLib.tables.DefaultTable import DefaultTable
from fontTools.ttLib.tables import otTables as ot
from fontTools.otlLib import builder as otl
from fontTools.varLib.varStore import OnlineVarStoreBuilder
from fontTools.varLib.builder import buildVarDevTable
from fontTools.varLib.models import VariationModel

OTVAR = os.environ.get("OTVAR")
FONTS = os.environ.get("OTV_FONTS", os.path.join(os.path.dirname(__file__), "..", "fonts"))
CACHE = os.environ.get("OTV_FONT_CACHE", "")

VARIATION_TABLES = {"fvar", "gvar", "avar", "HVAR", "VVAR", "MVAR", "cvar"}
KNOWN_HEAD = {"modified", "checkSumAdjustment", "indexToLocFormat"}

TEST_FONTS = [
    # font, named instances to try (indices; None: every one), random locations
    ("Roboto-Variable.ABC.ttf", None, 2),
    ("Roboto-Variable.composite.ttf", None, 2),
    ("NotoSans-VF.abc.ttf", None, 2),
    ("SourceSerifVariable-Roman-VVAR.abc.ttf", None, 2),
    ("Muli-ABC.ttf", None, 2),
    ("material_symbols_subset.ttf", None, 3),
    ("vazirmatn_var_trimmed.ttf", None, 2),
    ("Handjet.ttf", None, 2),
    ("PartialInstancerTest-VF.ttf", None, 2),
    ("PartialInstancerTest2-VF.ttf", None, 2),
    ("STATInstancerTest.ttf", None, 1),
    ("SparseMasters-VF.ttf", None, 3),
]
# fontTools takes seconds per instance of these: the default run keeps under ~3 minutes under
# ASan on the shared machine; OTV_INSTANCE_FULL=1 adds the larger fonts and locations.
REAL_FONTS = [
    ("Inter-roman.var.ttf", [8], 1),
    ("Karla-Italic-VF.ttf", [0], 1),
    ("SourceSans3VF-Upright.ttf", [5], 1),
    ("RobotoFlex-latin.ttf", [0], 0),
]
if os.environ.get("OTV_INSTANCE_FULL"):
    REAL_FONTS = [
        ("Inter-roman.var.ttf", None, 1),
        ("Karla-Italic-VF.ttf", None, 1),
        ("SourceSans3VF-Upright.ttf", None, 1),
        ("RobotoFlex-latin.ttf", None, 1),
        ("Recursive-latin.ttf", None, 1),
        ("SourceSerif4Variable-Roman.ttf", None, 1),
    ]

# Locations where GSUB FeatureVariations substitute features (fontTools applies them; random
# draws rarely land there): FILL >= 0.99; Recursive's default (MONO <= 0.5, slnt > -15) and
# MONO=1 with CRSV=0 and slnt=-15; Roboto Flex at wght >= 600.
FEATURE_VARIATION_LOCATIONS = {
    "material_symbols_subset.ttf": [{"FILL": 1.0}, {"FILL": 1.0, "wght": 700.0, "opsz": 48.0}],
    "Recursive-latin.ttf": [{"MONO": 1.0, "CRSV": 0.0, "slnt": -15.0}],
    "RobotoFlex-latin.ttf": [{"wght": 900.0}],
}
if not os.environ.get("OTV_INSTANCE_FULL"):
    REAL_FONTS.append(("Recursive-latin.ttf", [0], 0))

failures = 0
checks = 0
diffs = []


def fail(msg):
    global failures
    failures += 1
    if failures <= 60:
        print("FAIL", msg)


def same_normalization(path, font, loc):
    """True when otvar's fonttools model and fontTools normalize loc to the same F2Dot14."""
    global checks
    checks += 1
    lim = instancer.AxisLimits(loc).populateDefaults(font).normalize(font)
    ft = {k: round(v[0] * 16384) for k, v in lim.items()}
    r = subprocess.run([OTVAR, "normalize", path, "--normalize", "fonttools"] +
                       ["%s=%r" % kv for kv in loc.items()], capture_output=True, text=True)
    if r.returncode != 0:
        return False
    ours = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        ours[parts[0]] = int(parts[2])
    return all(ours.get(k) == v for k, v in ft.items())


def locations(path, font, named, nrand, seed):
    fvar = font["fvar"]
    out = []
    for i in range(len(fvar.instances)) if named is None else named:
        if i < len(fvar.instances):
            out.append(("named %d" % i, dict(fvar.instances[i].coordinates), i))
    rnd = random.Random(seed)
    for k in range(nrand):
        loc = {}
        for a in fvar.axes:
            v = rnd.uniform(a.minValue, a.maxValue)
            loc[a.axisTag] = round(v, 2)
        out.append(("random %d" % k, loc, None))
    for label, loc, _ in out:
        if not same_normalization(path, font, loc):
            fail("%s %s: otvar --normalize fonttools and fontTools normalize %r differently"
                 % (os.path.basename(path), label, loc))
    for k, given in enumerate(FEATURE_VARIATION_LOCATIONS.get(os.path.basename(path), [])):
        loc = {a.axisTag: a.defaultValue for a in fvar.axes}  # all axes: a full instance
        loc.update(given)
        out.append(("feature variations %d" % k, loc, None))
    return out


def fonttools_instance(path, loc, tmp):
    f = TTFont(path)
    inst = instancer.instantiateVariableFont(f, loc)
    out = os.path.join(tmp, "ref.ttf")
    inst.save(out)
    return TTFont(out), out


def otvar_instance(path, loc, named, tmp):
    out = os.path.join(tmp, "o.ttf")
    if os.path.exists(out):
        os.unlink(out)
    if named is not None:
        args = [OTVAR, "instance", path, "--named", str(named), "-o", out, "-q"]
    else:
        spec = ",".join("%s=%r" % (t, v) for t, v in loc.items())
        args = [OTVAR, "instance", path, "--var", spec, "-o", out, "-q"]
    args += ["--normalize", "fonttools"]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return TTFont(out), None


def cmp_attrs(what, a, b, skip=()):
    global checks
    for k in sorted(set(vars(a)) | set(vars(b))):
        if k.startswith("_") or k in skip or k in ("tableTag", "reserved", "reserved0",
                                                  "reserved1", "reserved2", "reserved3"):
            continue
        va, vb = getattr(a, k, None), getattr(b, k, None)
        if callable(va) or callable(vb):
            continue
        if hasattr(va, "__dict__") and hasattr(vb, "__dict__"):
            va, vb = vars(va), vars(vb)
        checks += 1
        if va != vb:
            fail("%s.%s: otvar %r, fontTools %r" % (what, k, va, vb))


def cmp_glyphs(what, a, b):
    global checks
    ga, gb = a["glyf"], b["glyf"]
    order = a.getGlyphOrder()
    if order != b.getGlyphOrder():
        fail("%s: glyph order differs" % what)
        return
    nbad = 0
    for name in order:
        x, y = ga[name], gb[name]
        checks += 1
        if x.numberOfContours != y.numberOfContours:
            fail("%s glyph %s: numberOfContours %d vs %d" % (what, name, x.numberOfContours, y.numberOfContours))
            continue
        if x.numberOfContours == 0:
            continue
        if (x.xMin, x.yMin, x.xMax, x.yMax) != (y.xMin, y.yMin, y.xMax, y.yMax):
            nbad += 1
            fail("%s glyph %s: bbox %r vs %r" % (what, name, (x.xMin, x.yMin, x.xMax, x.yMax), (y.xMin, y.yMin, y.xMax, y.yMax)))
        if x.isComposite():
            ca = [(c.glyphName, getattr(c, "x", None), getattr(c, "y", None), getattr(c, "transform", None), c.flags & ~0x0100 & ~0x0020 & ~0x0001) for c in x.components]
            cb = [(c.glyphName, getattr(c, "x", None), getattr(c, "y", None), getattr(c, "transform", None), c.flags & ~0x0100 & ~0x0020 & ~0x0001) for c in y.components]
            if ca != cb:
                nbad += 1
                fail("%s glyph %s: components %r vs %r" % (what, name, ca, cb))
        else:
            if list(x.endPtsOfContours) != list(y.endPtsOfContours):
                fail("%s glyph %s: contour ends differ" % (what, name))
            pa, pb = list(x.coordinates), list(y.coordinates)
            if pa != pb:
                nbad += 1
                k = [i for i in range(min(len(pa), len(pb))) if pa[i] != pb[i]]
                fail("%s glyph %s: %d points differ, first %d: %r vs %r" % (what, name, len(k), k[0] if k else -1, pa[k[0]] if k else None, pb[k[0]] if k else None))
            fa = [f & 0x41 for f in x.flags]
            fb = [f & 0x41 for f in y.flags]
            if fa != fb:
                fail("%s glyph %s: on-curve/overlap flags differ" % (what, name))
            if x.program.getBytecode() != y.program.getBytecode():
                fail("%s glyph %s: instructions differ" % (what, name))


def stat_xml(font):
    """STAT as fontTools XML: the design axes and the axis values kept."""
    from fontTools.misc.xmlWriter import XMLWriter
    buf = io.BytesIO()
    w = XMLWriter(buf)
    font["STAT"].toXML(w, font)
    return buf.getvalue()


def compare(label, a, b, pa, pb):
    global checks
    ta = set(a.keys()) - {"GlyphOrder"}
    tb = set(b.keys()) - {"GlyphOrder"}
    checks += 1
    if "STAT" in ta and "STAT" in tb:
        checks += 1
        if stat_xml(a) != stat_xml(b):
            fail("%s: STAT differs from fontTools' pruned STAT" % label)
    if ta != tb:
        fail("%s: tables otvar-only %s, fontTools-only %s" % (label, sorted(ta - tb), sorted(tb - ta)))
    for t in ta & VARIATION_TABLES:
        fail("%s: variation table %s kept" % (label, t))
    cmp_glyphs(label, a, b)
    for tag in ("hmtx", "vmtx"):
        if tag in a and tag in b:
            ma, mb = a[tag].metrics, b[tag].metrics
            for g in a.getGlyphOrder():
                checks += 1
                if ma[g] != mb[g]:
                    fail("%s %s %s: %r vs %r" % (label, tag, g, ma[g], mb[g]))
    cmp_attrs(label + " head", a["head"], b["head"], KNOWN_HEAD)
    for tag in ("hhea", "vhea", "maxp", "OS/2"):
        if tag in a and tag in b:
            cmp_attrs(label + " " + tag, a[tag], b[tag])
    if "post" in a and "post" in b:
        cmp_attrs(label + " post", a["post"], b["post"], {"glyphOrder", "extraNames", "mapping", "data"})
    if "cvt " in a and "cvt " in b:
        checks += 1
        if list(a["cvt "].values) != list(b["cvt "].values):
            va, vb = list(a["cvt "].values), list(b["cvt "].values)
            k = [i for i in range(len(va)) if va[i] != vb[i]]
            fail("%s cvt: %d values differ, first %d: %r vs %r" % (label, len(k), k[0], va[k[0]], vb[k[0]]))
    if "name" in a and "name" in b:
        na = sorted((n.nameID, n.platformID, n.platEncID, n.langID, n.toUnicode()) for n in a["name"].names)
        nb = sorted((n.nameID, n.platformID, n.platEncID, n.langID, n.toUnicode()) for n in b["name"].names)
        checks += 1
        if na != nb:
            fail("%s name: otvar-only %r, fontTools-only %r" % (label, sorted(set(na) - set(nb))[:4], sorted(set(nb) - set(na))[:4]))
    xml_differs = []
    for tag in ("GSUB", "GPOS", "GDEF"):
        if tag in a and tag in b:
            from fontTools.misc.xmlWriter import XMLWriter
            xa, xb = io.StringIO(), io.StringIO()
            a[tag].toXML(XMLWriter(xa), a)
            b[tag].toXML(XMLWriter(xb), b)
            checks += 1
            if xa.getvalue() != xb.getvalue():
                xml_differs.append(tag)
    # what shaping does with both fonts: glyphs and GPOS positions, exactly
    if "GSUB" in a or "GPOS" in a:
        checks += 1
        if shaping(a, pa) != shaping(b, pb):
            fail("%s: shaping differs (%s)" % (label, ",".join(xml_differs) or "tables equal"))
    if xml_differs:
        # otvar patches device values in place (device offsets set to NULL, ValueFormat kept) and
        # rebuilds the FeatureList; fontTools re-serializes: encoded differently, shapes the same.
        diffs.append("%s %s: encoded differently, shapes the same" % (label, ",".join(xml_differs)))


def shaping(font, path):
    """hb-shape output for every mapped character, in order and in pairs with neighbours."""
    cps = sorted(font.getBestCmap() or {})[:400]
    text = "".join(chr(c) for c in cps if c >= 0x20 and not 0xD800 <= c < 0xE000)
    text = text + " " + text[::-1]
    r = subprocess.run(["hb-shape", "--no-clusters", path, "--text-file=/dev/stdin"],
                       input=text.encode("utf-8"), capture_output=True)
    return r.stdout


NAME_FONTS = ["Roboto-Variable.ABC.ttf", "NotoSans-VF.abc.ttf", "STATInstancerTest.ttf",
              "Muli-ABC.ttf", "PartialInstancerTest-VF.ttf", "SourceSerifVariable-Roman-VVAR.abc.ttf",
              "material_symbols_subset.ttf", "vazirmatn_var_trimmed.ttf", "Handjet.ttf"]


def compare_update_names(tmp, path, name, i):
    """One font at named instance i: otvar --update-names against fontTools' updateFontNames."""
    global checks
    f = TTFont(path)
    loc = dict(f["fvar"].instances[i].coordinates)
    lab = "%s named %d --update-names" % (name, i)
    try:
        ref = instancer.instantiateVariableFont(TTFont(path), loc, updateFontNames=True)
        ref_path = os.path.join(tmp, "ref-names.ttf")
        ref.save(ref_path)
        ref = TTFont(ref_path)
    except ValueError:
        ref = None
    except KeyError as e:  # fontTools 4.38 bug: a font without OS/2 crashes it
        diffs.append("%s: fontTools crashes (KeyError %s), not compared" % (lab, e))
        return
    out = os.path.join(tmp, "names.ttf")
    if os.path.exists(out):
        os.unlink(out)
    r = subprocess.run([OTVAR, "instance", path, "--named", str(i), "--update-names",
                        "-o", out, "-q"], capture_output=True, text=True)
    checks += 1
    if ref is None:
        if r.returncode == 0:
            fail("%s: fontTools refuses (no STAT axis value), otvar did not" % lab)
        return
    if r.returncode != 0:
        fail("%s: otvar failed: %s" % (lab, r.stderr.strip()))
        return
    o = TTFont(out)
    # both keep the pruned STAT, and so the names it uses
    na = sorted((x.nameID, x.platformID, x.platEncID, x.langID, x.toUnicode()) for x in o["name"].names)
    nb = sorted((x.nameID, x.platformID, x.platEncID, x.langID, x.toUnicode()) for x in ref["name"].names)
    if na != nb:
        fail("%s: names otvar-only %r, fontTools-only %r" % (lab, sorted(set(na) - set(nb))[:4], sorted(set(nb) - set(na))[:4]))
    checks += 2
    if o["head"].macStyle != ref["head"].macStyle:
        fail("%s: macStyle %d vs %d" % (lab, o["head"].macStyle, ref["head"].macStyle))
    if "OS/2" in ref and o["OS/2"].fsSelection != ref["OS/2"].fsSelection:
        fail("%s: fsSelection %d vs %d" % (lab, o["OS/2"].fsSelection, ref["OS/2"].fsSelection))


def name_variants(tmp):
    """STATInstancerTest.ttf with name tables the test fonts lack, each written to tmp:
    - unique ID (nameID 3) holding neither the full (4) nor the PostScript name (6): the
      updated one is built as "version;vendor;PostScript name", the version from nameID 5
    - the same without nameID 5: the version is head.fontRevision
    - names with characters outside the BMP (UTF-16 surrogate pairs) in the family and the
      unique ID."""
    src = os.path.join(FONTS, "STATInstancerTest.ttf")
    out = []

    def save(f, tag):
        p = os.path.join(tmp, "names-%s.ttf" % tag)
        f.save(p)
        out.append((p, "STATInstancerTest[%s]" % tag))

    f = TTFont(src)
    f["name"].setName("UNIQUE-ID-123", 3, 3, 1, 0x409)
    f["name"].setName("Version 2.500; build 7", 5, 3, 1, 0x409)
    f["OS/2"].achVendID = " Ab "
    save(f, "unique-id")
    f = TTFont(src)
    f["name"].setName("UNIQUE-ID-123", 3, 3, 1, 0x409)
    f["name"].removeNames(nameID=5)
    save(f, "no-version")
    f = TTFont(src)
    fam = f["name"].getDebugName(1)
    f["name"].setName(fam + " \U0001F600", 1, 3, 1, 0x409)
    f["name"].setName("uid \U0001D49C " + fam, 3, 3, 1, 0x409)
    save(f, "astral")
    return out


def composite_variants(tmp):
    """Roboto-Variable.composite.ttf with AEacute's accent placed the two ways no test font
    has, each written to tmp and instanced like the test fonts (glyph bounds included):
    - by point matching (ARGS_ARE_XY_VALUES clear): the accent's point 0 on the base's point 3,
      (866, 1456) at the default, which lifts it above the base
    - scaled by 1.25 with SCALED_COMPONENT_OFFSET: the offset is scaled too
    - by point matching with a point number over 255 (16-bit arguments): the base drawn 11
      times, the accent's top point 2 on point 260; AEacute's gvar entry is dropped (its point
      count changed), the other glyphs still vary."""
    src = os.path.join(FONTS, "Roboto-Variable.composite.ttf")
    out = []
    f = TTFont(src)
    c = f["glyf"]["AEacute"].components[1]
    del c.x, c.y
    c.firstPt, c.secondPt = 3, 0
    c.flags &= ~0x0002  # ARGS_ARE_XY_VALUES
    out.append(os.path.join(tmp, "composite-point-matched.ttf"))
    f.save(out[-1])
    f = TTFont(src)
    c = f["glyf"]["AEacute"].components[1]
    c.transform = [[1.25, 0], [0, 1.25]]
    c.flags |= 0x0008 | 0x0800  # WE_HAVE_A_SCALE, SCALED_COMPONENT_OFFSET
    out.append(os.path.join(tmp, "composite-scaled-offset.ttf"))
    f.save(out[-1])
    f = TTFont(src)
    g = f["glyf"]["AEacute"]
    base, accent = g.components
    comps = []
    for k in range(11):
        c = GlyphComponent()
        c.glyphName, c.x, c.y, c.flags = base.glyphName, 40 * k, 0, 0x0004 if k == 0 else 0
        comps.append(c)
    c = GlyphComponent()
    c.glyphName, c.firstPt, c.secondPt, c.flags = accent.glyphName, 260, 2, 0
    g.components = comps + [c]
    del f["gvar"].variations["AEacute"]
    out.append(os.path.join(tmp, "composite-point-matched-words.ttf"))
    f.save(out[-1])
    return out


def gpos_variant(tmp):
    """Roboto-Variable.ABC.ttf with a GPOS of the two variable lookups no test font has, written
    to tmp and instanced like the test fonts (GPOS compared by shaping with hb-shape):
    - SinglePos format 2 (a value record per glyph) with XPlacement and XAdvance varied through
      VariationIndex devices;
    - CursivePos with entry and exit anchors of format 3, x and y varied.
    A new GDEF ItemVariationStore holds the deltas, on regions of wght and of wght with wdth."""
    src = os.path.join(FONTS, "Roboto-Variable.ABC.ttf")
    dst = os.path.join(tmp, "gpos-single2-cursive.ttf")
    f = TTFont(src)
    axes = [a.axisTag for a in f["fvar"].axes]
    # masters: default, wght max, wght min, wght max + wdth min (a two-axis region)
    locs = [{}, {"wght": 1.0}, {"wght": -1.0}, {"wght": 1.0, "wdth": -1.0}]
    model = VariationModel(locs, axisOrder=axes)
    vs = OnlineVarStoreBuilder(axes)
    vs.setModel(model)

    def dev(vals):
        """A master value list -> the default value and a VariationIndex device."""
        base, deltas = vs.storeMasters(vals)
        return base, buildVarDevTable(deltas)
    gm = f.getReverseGlyphMap()
    # SinglePos format 2: a value record per glyph, placement and advance varying
    single = {}
    for k, g in enumerate(["A", "B", "C"]):
        xp, dxp = dev([10 * k, 10 * k + 37, 10 * k - 21, 10 * k + 55])
        xa, dxa = dev([-5 * k, -5 * k - 60, -5 * k + 44, -5 * k - 90])
        single[g] = otl.buildValue({"XPlacement": xp, "XPlaDevice": dxp, "XAdvance": xa, "XAdvDevice": dxa})
    st1 = otl.buildSinglePosSubtable(single, gm)
    assert st1.Format == 2, st1.Format
    # CursivePos: entry and exit anchors of format 3 with variable x and y
    attach = {}
    for k, g in enumerate(["A", "B", "C"]):
        ex, dex = dev([0, 15, -12, 30 + k])
        ey, dey = dev([100 + k, 180 + k, 60, 210])
        xx, dxx = dev([500 + 20 * k, 620, 430, 700])
        xy, dxy = dev([300, 260 - k, 330, 250])
        attach[g] = (otl.buildAnchor(ex, ey, deviceX=dex, deviceY=dey),
                     otl.buildAnchor(xx, xy, deviceX=dxx, deviceY=dxy))
    st2 = otl.buildCursivePosSubtable(attach, gm)
    lookups = [otl.buildLookup([st1]), otl.buildLookup([st2])]
    gpos = ot.GPOS()
    gpos.Version = 0x00010000
    gpos.LookupList = ot.LookupList()
    gpos.LookupList.Lookup = lookups
    gpos.FeatureList = ot.FeatureList()
    recs = []
    for i, tag in enumerate(["kern", "curs"]):
        fr = ot.FeatureRecord()
        fr.FeatureTag = tag
        fr.Feature = ot.Feature()
        fr.Feature.FeatureParams = None
        fr.Feature.LookupListIndex = [i]
        recs.append(fr)
    gpos.FeatureList.FeatureRecord = recs
    gpos.ScriptList = ot.ScriptList()
    sr = ot.ScriptRecord()
    sr.ScriptTag = "DFLT"
    sr.Script = ot.Script()
    sr.Script.LangSysRecord = []
    ls = ot.LangSys()
    ls.LookupOrder = None
    ls.ReqFeatureIndex = 0xFFFF
    ls.FeatureIndex = [0, 1]
    sr.Script.DefaultLangSys = ls
    gpos.ScriptList.ScriptRecord = [sr]
    f["GPOS"] = newTable("GPOS")
    f["GPOS"].table = gpos
    store = vs.finish()
    mapping = store.optimize()
    # the devices hold VarIdx as (outer << 16 | inner): remap after optimize

    def remap(d):
        if d is not None:
            v = (d.StartSize << 16) + d.EndSize
            v = mapping[v]
            d.StartSize, d.EndSize = v >> 16, v & 0xFFFF
    for vr in single.values():
        remap(vr.XPlaDevice); remap(vr.XAdvDevice)
    for a, b in attach.values():
        for an in (a, b):
            remap(an.XDeviceTable); remap(an.YDeviceTable)
    gdef = f["GDEF"].table
    gdef.Version = 0x00010003
    gdef.VarStore = store
    f.save(dst)
    return dst


LANG_TAGS = ["en-Latn-GB", "de-CH"]


def name_format1(raw, extra):
    """A name table of format 1 from the format-0 table raw: its records, the language tags
    LANG_TAGS, and the records `extra` (nameID, platform, encoding, languageID, string) whose
    languageIDs 0x8000 + k refer to those tags."""
    fmt, count, off = struct.unpack(">HHH", raw[:6])
    assert fmt == 0
    recs = [struct.unpack(">6H", raw[6 + 12 * i:18 + 12 * i]) for i in range(count)]
    pool = bytearray(raw[off:])
    rows = list(recs)
    for nid, plat, enc, lang, text in extra:
        data = text.encode("utf-16-be")
        rows.append((plat, enc, lang, nid, len(data), len(pool)))
        pool += data
    rows.sort()
    tags = []
    for t in LANG_TAGS:
        data = t.encode("utf-16-be")
        tags.append((len(data), len(pool)))
        pool += data
    hdr = 6 + 12 * len(rows) + 2 + 4 * len(tags)
    out = struct.pack(">HHH", 1, len(rows), hdr)
    out += b"".join(struct.pack(">6H", *r) for r in rows)
    out += struct.pack(">H", len(tags)) + b"".join(struct.pack(">HH", *t) for t in tags)
    return out + bytes(pool)


def name_format1_variant(tmp):
    """Roboto-Variable.ABC.ttf with a name table of format 1: two language tags and a family
    name for each (languageIDs 0x8000 and 0x8001). Written to tmp; instanced like the test fonts
    (name records against fontTools', which reads the records and drops the tags) and checked by
    check_name_format1."""
    src = os.path.join(FONTS, "Roboto-Variable.ABC.ttf")
    dst = os.path.join(tmp, "name-format1.ttf")
    f = TTFont(src)
    raw = f["name"].compile(f)
    extra = [(1, 3, 1, 0x8000, "Roboto Tagged"), (1, 3, 1, 0x8001, "Roboto Schweiz")]
    t = DefaultTable("name")
    t.data = name_format1(raw, extra)
    f["name"] = t
    f.save(dst)
    return dst


def check_name_format1(tmp):
    """otvar's instance of the format-1 name table keeps format 1 and its language tags, and
    the tagged records with their strings; --update-names refuses it (not supported)."""
    global checks
    path = name_format1_variant(tmp)
    font, err = otvar_instance(path, None, 2, tmp)
    checks += 1
    if font is None:
        fail("name format 1: otvar failed: %s" % err)
        return
    raw = font.reader["name"]
    fmt, count, off = struct.unpack(">HHH", raw[:6])
    checks += 1
    if fmt != 1:
        fail("name format 1: output has format %d" % fmt)
        return
    (ntags,) = struct.unpack(">H", raw[6 + 12 * count:8 + 12 * count])
    tags = []
    for k in range(ntags):
        length, o = struct.unpack(">HH", raw[8 + 12 * count + 4 * k:12 + 12 * count + 4 * k])
        tags.append(raw[off + o:off + o + length].decode("utf-16-be"))
    checks += 1
    if tags != LANG_TAGS:
        fail("name format 1: language tags %r, want %r" % (tags, LANG_TAGS))
    tagged = {}
    for i in range(count):
        plat, enc, lang, nid, length, o = struct.unpack(">6H", raw[6 + 12 * i:18 + 12 * i])
        if lang >= 0x8000:
            tagged[(nid, lang)] = raw[off + o:off + o + length].decode("utf-16-be")
    checks += 1
    want = {(1, 0x8000): "Roboto Tagged", (1, 0x8001): "Roboto Schweiz"}
    if tagged != want:
        fail("name format 1: tagged records %r, want %r" % (tagged, want))
    out = os.path.join(tmp, "name-format1-update.ttf")
    r = subprocess.run([OTVAR, "instance", path, "--named", "2", "--update-names", "-o", out,
                        "-q", "--force"], capture_output=True, text=True)
    checks += 1
    if r.returncode != 1 or "name format 1" not in r.stderr:
        fail("name format 1 --update-names: exit %d, %r (want 1, unsupported)" % (r.returncode, r.stderr.strip()))


def check_update_names(tmp):
    """--update-names against fontTools' updateFontNames=True: the same name records (those only
    the pruned STAT kept in fontTools' output aside), head.macStyle and OS/2.fsSelection, and
    both refusing a location without STAT axis values."""
    for name in NAME_FONTS:
        path = os.path.join(FONTS, name)
        n = len(TTFont(path)["fvar"].instances)
        for i in sorted(set([0, n // 3, n // 2, n - 1])):
            compare_update_names(tmp, path, name, i)
    for path, name in name_variants(tmp):
        n = len(TTFont(path)["fvar"].instances)
        for i in sorted(set([0, n // 2, n - 1])):
            compare_update_names(tmp, path, name, i)
    if os.environ.get("OTV_INSTANCE_FULL") and CACHE:
        # real fonts whose STAT names every named instance (Roboto Flex's lacks XOPQ values:
        # both refuse it)
        for name in ["Inter-roman.var.ttf", "Karla-Italic-VF.ttf", "SourceSans3VF-Upright.ttf",
                     "Recursive-latin.ttf", "SourceSerif4Variable-Roman.ttf"]:
            path = os.path.join(CACHE, name)
            if not os.path.exists(path):
                continue
            n = len(TTFont(path)["fvar"].instances)
            for i in sorted(set([0, n // 2, n - 1])):
                compare_update_names(tmp, path, name, i)


def within_one(a, b):
    """Same pen calls, every coordinate within 1 unit."""
    if len(a) != len(b):
        return False
    for (op1, args1), (op2, args2) in zip(a, b):
        if op1 != op2 or len(args1) != len(args2):
            return False
        for p, q in zip(args1, args2):
            if abs(p[0] - q[0]) > 1 or abs(p[1] - q[1]) > 1:
                return False
    return True


def check_cff2_reference(tmp):
    """CFF2: Debian's fontTools cannot instance CFF2; tests/fonts/instances holds a newer
    fontTools' instance of CFF2Instancer-VF-1 at wght=400: advances must be equal, outlines equal
    or within 1 unit (fontTools rounds each blended operand, otvar and hb-subset the absolute
    points; side bearings: otvar writes the outline's xMin, fontTools keeps the source's)."""
    global checks
    from fontTools.pens.recordingPen import RecordingPen
    ref_path = os.path.join(FONTS, "instances", "CFF2Instancer-VF-1.fonttools-instance.wght400.otf")
    out = os.path.join(tmp, "cff2.otf")
    if os.path.exists(out):
        os.unlink(out)
    r = subprocess.run([OTVAR, "instance", os.path.join(FONTS, "CFF2Instancer-VF-1.otf"), "--var",
                        "wght=400", "-o", out, "-q"], capture_output=True, text=True)
    checks += 1
    if r.returncode:
        fail("CFF2Instancer wght=400: otvar failed: %s" % r.stderr.strip())
        return
    a, b = TTFont(out), TTFont(ref_path)
    ga, gb = a.getGlyphSet(), b.getGlyphSet()
    # otvar writes CFF, CID-keyed here (post 3.0 names no glyph): glyphs compared by index
    for ng, g in zip(a.getGlyphOrder(), b.getGlyphOrder()):
        pa, pb = RecordingPen(), RecordingPen()
        ga[ng].draw(pa)
        gb[g].draw(pb)
        checks += 2
        if pa.value != pb.value:
            if within_one(pa.value, pb.value):
                diffs.append("CFF2Instancer wght=400 glyph %s: points within 1 unit of fontTools' "
                             "(it rounds each blended operand, relative moves, so its points drift; "
                             "otvar rounds the absolute points like hb-subset: "
                             "tests/oracle/test_instance_hbjs.py)" % g)
            else:
                fail("CFF2Instancer wght=400 glyph %s: outline differs from fontTools' instance" % g)
        if a["hmtx"][ng][0] != b["hmtx"][g][0]:
            fail("CFF2Instancer wght=400 glyph %s: advance %d vs %d" % (g, a["hmtx"][ng][0], b["hmtx"][g][0]))
        if a["hmtx"][ng][1] != b["hmtx"][g][1]:
            diffs.append("CFF2Instancer wght=400 glyph %s: lsb %d (outline xMin) vs fontTools %d"
                         % (g, a["hmtx"][ng][1], b["hmtx"][g][1]))


def check_cff2_fontmatrix(tmp):
    """CFF2 with a non-default FontMatrix (scale 2/upem, set with fontTools): otvar's outlines are
    in font units with the matrix applied, so the instance must carry the plain 1/upem matrix and
    its outlines must equal the variable font's runtime outlines rounded (floor(x + 0.5)), not
    have the matrix applied a second time."""
    global checks
    import math
    import re
    src = TTFont(os.path.join(FONTS, "CFF2Instancer-VF-1.otf"))
    upem = src["head"].unitsPerEm
    src["CFF2"].cff.topDictIndex[0].FontMatrix = [2.0 / upem, 0, 0, 2.0 / upem, 0, 0]
    vf = os.path.join(tmp, "fm-vf.otf")
    src.save(vf)
    out = os.path.join(tmp, "fm-inst.otf")
    if os.path.exists(out):
        os.unlink(out)
    r = subprocess.run([OTVAR, "instance", vf, "--var", "wght=500", "-o", out, "-q", "--cff2"],
                       capture_output=True, text=True)
    checks += 1
    if r.returncode:
        fail("FontMatrix CFF2 instance: otvar failed: %s" % r.stderr.strip())
        return
    fm = TTFont(out)["CFF2"].cff.topDictIndex[0].FontMatrix
    checks += 1
    if [abs(v - w) > 1e-9 for v, w in zip(fm, [1.0 / upem, 0, 0, 1.0 / upem, 0, 0])] != [False] * 6:
        fail("FontMatrix CFF2 instance: matrix %s, expected 1/upem" % fm)

    def outlines(*args):
        r = subprocess.run([OTVAR, "outline"] + list(args), capture_output=True, text=True)
        return r.stdout.splitlines() if r.returncode == 0 else None

    def rounded(line):
        return re.sub(r"-?[0-9]+(\.[0-9]+)?", lambda m: str(math.floor(float(m.group(0)) + 0.5)), line)

    want = outlines(vf, "--var", "wght=500")
    got = outlines(out)
    checks += 1
    if not want or not got or len(want) != len(got):
        fail("FontMatrix CFF2 instance: outline listing failed")
        return
    for w, g in zip(want, got):
        checks += 1
        # the advance (second field) comes from hmtx, not the matrix: compare the path only
        if rounded(w).split()[2:] != g.split()[2:]:
            fail("FontMatrix CFF2 instance glyph %s: %s vs runtime rounded %s"
                 % (g.split()[0], g[:80], rounded(w)[:80]))


def main():
    if not OTVAR:
        print("OTVAR not set")
        return 1
    tmp = tempfile.mkdtemp()
    fonts = [(os.path.join(FONTS, n), named, nr) for n, named, nr in TEST_FONTS]
    root = os.environ.get("OTV_ROOT")
    if root and os.path.exists(os.path.join(root, "fonts", "Karla-VF.ttf")):
        fonts.append((os.path.join(root, "fonts", "Karla-VF.ttf"), [1, 4], 1))  # the bundled font
    for n, named, nr in REAL_FONTS:
        p = os.path.join(CACHE, n)
        if CACHE and os.path.exists(p):
            fonts.append((p, named, nr))
        else:
            print("SKIP %s: not in $OTV_FONT_CACHE" % n)
    fonts += [(p, [0], 2) for p in composite_variants(tmp)]
    fonts.append((gpos_variant(tmp), [0, 5], 2))
    fonts.append((name_format1_variant(tmp), [2], 0))
    # OTV_ORACLE_SEED=N (as for the C oracles): other random locations, as many
    stress = int(os.environ.get("OTV_ORACLE_SEED", "0") or 0)
    for seed, (path, named, nrand) in enumerate(fonts):
        src = TTFont(path)
        for label, loc, ni in locations(path, src, named, nrand, seed + 1000003 * stress):
            lab = "%s %s %s" % (os.path.basename(path), label, ",".join("%s=%g" % kv for kv in loc.items()))
            try:
                ref, ref_path = fonttools_instance(path, loc, tmp)
            except Exception as e:  # noqa: BLE001 (fontTools cannot instance it: say so)
                print("SKIP %s: fontTools fails: %s" % (lab, e))
                continue
            ours, err = otvar_instance(path, loc, ni, tmp)
            if ours is None:
                fail("%s: otvar failed: %s" % (lab, err))
                continue
            compare(lab, ours, ref, os.path.join(tmp, "o.ttf"), ref_path)
            print("ok" if not failures else "..", lab)
    check_update_names(tmp)
    check_name_format1(tmp)
    check_cff2_reference(tmp)
    check_cff2_fontmatrix(tmp)
    for d in diffs[:20]:
        print("DIFF", d)
    print("test_instance: %d checks, %d failed, %d known differences"
          % (checks, failures, len(diffs)))
    return 1 if failures or not checks else 0


if __name__ == "__main__":
    sys.exit(main())
