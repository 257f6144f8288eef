#!/usr/bin/python3
"""Generate two variable TrueType fonts with few glyphs and a lot of layout, for the layout
instancing tests (tests/oracle/test_layout_instance.py generates them at test time; they are not
committed):

    /usr/bin/python3 tests/fonts/make_layout_stress.py OUTDIR [featvars_far|gpos_overflow ...]

featvars_far.ttf  axes wght 100..400..900 and wdth 75..100 (default 100), 7 named instances,
    ~400 glyphs (Latin, Hebrew with two points, a combining acute, 300 PUA fillers), a small gvar
    (lowercase widened by wght, capitals' advances too). GSUB: 119 optional features (ss01-ss20,
    cv01-cv99) each listing 200 of 2000 small lookups (SingleSubst and LigatureSubst on the PUA
    fillers), so the FeatureList is ~48 KiB and the LookupList ~35 KiB; the FeatureVariations
    therefore lie past both, and every substitute Feature table is more than 64 KiB after the
    FeatureList (the script checks the bytes). Its two records (the first that holds applies),
    which shaping observes:
      wght >= 0.8 (user 800), wdth <= -0.5   rvrn: a e o g y -> a.alt e.alt o.alt g.alt y.alt;
                                             liga: only f f i and f f ligate (not fi, fl)
      wght >= 0.5 (user 650)                 rvrn: a e o -> .alt; liga as above
    rvrn is appended last to every LangSys (a FeatureIndex list that is not sorted).
    GPOS: kern (PairPos format 1 on capitals, format 2 on lowercase classes), mark (MarkBasePos:
    acute on Latin letters, qamats and dagesh on Hebrew letters) and mkmk (acute on acute), every
    value and anchor varied through VariationIndex devices; GDEF: glyph classes, ligature carets
    of format 3 (varied) and the ItemVariationStore (wght, wdth and a wght+wdth region).

gpos_overflow.ttf  axis wght 100..400..900, 4 named instances, 2002 glyphs (2000 mapped to
    U+E000..U+E7CF), a small gvar. GPOS kern: two PairPos format 1 lookups of four subtables each
    (500 first glyphs x ~12 second glyphs, XAdvance + a VariationIndex device per pair), ~150 KB
    of subtables per lookup, and one PairPos format 2 lookup (96 x 48 classes, varied). Without
    Extension lookups the 16-bit Lookup -> subtable offsets overflow; fontTools promotes the two
    big lookups to Extension (type 9) when it compiles, and the script checks that it did. An
    instance still needs Extension: with the devices gone each of those lookups is ~100 KiB.

Both are built with fontTools 4.38 (Debian): fontBuilder, otlLib and
varLib.featureVars.addFeatureVariationsRaw; our own glyphs (rectangles), no license constraint.
Each takes a few seconds; the script prints the table sizes and the checked properties.
"""
import os
import struct
import sys
import time

from fontTools.fontBuilder import FontBuilder
from fontTools.otlLib import builder as otl
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables import otTables as ot
from fontTools.ttLib.tables.TupleVariation import TupleVariation
from fontTools.ttLib.tables.otBase import CountReference, OTTableWriter
from fontTools.varLib.builder import buildVarDevTable
from fontTools.varLib.featureVars import addFeatureVariationsRaw
from fontTools.varLib.models import VariationModel
from fontTools.varLib.varStore import OnlineVarStoreBuilder

LC = [chr(c) for c in range(ord("a"), ord("z") + 1)]
UC = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
HEBREW = list(range(0x05D0, 0x05EB))  # alef .. tav, final forms included
QAMATS, DAGESH, ACUTE = 0x05B8, 0x05BC, 0x0301


def rect(x0, y0, x1, y1):
    pen = TTGlyphPen(None)
    pen.moveTo((x0, y0))
    pen.lineTo((x0, y1))
    pen.lineTo((x1, y1))
    pen.lineTo((x1, y0))
    pen.closePath()
    return pen.glyph()


def lcg(seed):
    """A tiny fixed generator (the fonts must not depend on Python's random module)."""
    state = [seed & 0x7FFFFFFF]

    def nxt(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n
    return nxt


def feature_record(tag, lookups):
    fr = ot.FeatureRecord()
    fr.FeatureTag = tag
    fr.Feature = ot.Feature()
    fr.Feature.FeatureParams = None
    fr.Feature.LookupListIndex = sorted(lookups)
    return fr


def langsys(indices):
    ls = ot.LangSys()
    ls.LookupOrder = None
    ls.ReqFeatureIndex = 0xFFFF
    ls.FeatureIndex = sorted(indices)
    return ls


def script_list(scripts):
    """scripts: [(tag, feature indices of the default LangSys, {lang tag: feature indices})]"""
    sl = ot.ScriptList()
    sl.ScriptRecord = []
    for tag, dflt, langs in sorted(scripts):
        sr = ot.ScriptRecord()
        sr.ScriptTag = tag
        sr.Script = ot.Script()
        sr.Script.DefaultLangSys = langsys(dflt)
        sr.Script.LangSysRecord = []
        for lt, idx in sorted(langs.items()):
            lr = ot.LangSysRecord()
            lr.LangSysTag = lt
            lr.LangSys = langsys(idx)
            sr.Script.LangSysRecord.append(lr)
        sl.ScriptRecord.append(sr)
    return sl


def layout_table(tag, version, scripts, features, lookups):
    t = getattr(ot, tag)()
    t.Version = version
    t.ScriptList = script_list(scripts)
    t.FeatureList = ot.FeatureList()
    t.FeatureList.FeatureRecord = features
    t.LookupList = ot.LookupList()
    t.LookupList.Lookup = lookups
    tab = newTable(tag)
    tab.table = t
    return tab


class Devices:
    """VariationIndex devices from master values, on one ItemVariationStore (no optimize: the
    VarIdx the builder hands out are final)."""

    def __init__(self, axes, masters):
        self.model = VariationModel(masters, axisOrder=axes)
        self.vs = OnlineVarStoreBuilder(axes)
        self.vs.setModel(self.model)

    def value(self, vals):
        base, varidx = self.vs.storeMasters(vals)
        return base, buildVarDevTable(varidx)

    def finish(self):
        return self.vs.finish()


def base_font(order, cmap, glyphs, metrics, axes, instances, variations, family):
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(cmap)
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.setupFvar(axes, instances)
    fb.setupGvar(variations)
    return fb


# ---- featvars_far.ttf ----
def build_featvars_far(path):
    order = [".notdef", "space"] + UC + LC + [g + ".alt" for g in LC] + \
        ["f_f", "f_i", "f_l", "f_f_i", "acutecomb"] + ["heb%04X" % c for c in HEBREW] + \
        ["qamats", "dagesh"] + ["p%03d" % i for i in range(300)]
    cmap = {0x20: "space", ACUTE: "acutecomb", QAMATS: "qamats", DAGESH: "dagesh"}
    cmap.update({ord(c): c for c in UC + LC})
    cmap.update({c: "heb%04X" % c for c in HEBREW})
    cmap.update({0xE000 + i: "p%03d" % i for i in range(300)})
    glyphs, metrics, variations = {}, {}, {}
    for k, g in enumerate(order):
        if g == "space":
            glyphs[g], metrics[g] = TTGlyphPen(None).glyph(), (250, 0)
            continue
        if g in ("acutecomb", "qamats", "dagesh"):
            y0 = 600 if g == "acutecomb" else (-150 if g == "qamats" else 250)
            glyphs[g], metrics[g] = rect(-180, y0, -80, y0 + 100), (0, -180)
            continue
        wide = g in UC or g.startswith("f_")
        adv = 600 if wide else 500
        top = 700 if (g in UC or g.startswith("heb")) else 500
        glyphs[g] = rect(50, 0, adv - 50 - (k % 7) * 10, top - (k % 5) * 20)
        metrics[g] = (adv, 50)
        if g in LC or g in UC:
            # wght widens the outline (points 2 and 3 are on the right); capitals also get a
            # wider advance (phantom point 1); wdth narrows it
            dx_w = 40 if g in LC else 60
            adv_w = 0 if g in LC else 60
            variations[g] = [
                TupleVariation({"wght": (0.0, 1.0, 1.0)},
                               [(0, 0), (0, 0), (dx_w, 0), (dx_w, 0), (0, 0), (adv_w, 0), (0, 0), (0, 0)]),
                TupleVariation({"wdth": (-1.0, -1.0, 0.0)},
                               [(0, 0), (0, 0), (-30, 0), (-30, 0), (0, 0), (-30, 0), (0, 0), (0, 0)]),
            ]
    axes = [("wght", 100, 400, 900, "Weight"), ("wdth", 75, 100, 100, "Width")]
    instances = [{"location": {"wght": w, "wdth": d}, "stylename": s} for w, d, s in [
        (100, 100, "Thin"), (400, 100, "Regular"), (600, 100, "SemiBold"), (700, 100, "Bold"),
        (900, 100, "Black"), (400, 75, "Condensed"), (900, 75, "Condensed Black")]]
    fb = base_font(order, cmap, glyphs, metrics, axes, instances, variations, "OTV FeatVars Far")
    font = fb.font
    gm = font.getReverseGlyphMap()

    # GSUB: lookup 0 liga, 1 liga at wght >= 0.5 (substitute), 2.. the fillers
    lookups = [
        otl.buildLookup([otl.buildLigatureSubstSubtable(
            {("f", "f", "i"): "f_f_i", ("f", "f"): "f_f", ("f", "i"): "f_i", ("f", "l"): "f_l"})]),
        otl.buildLookup([otl.buildLigatureSubstSubtable({("f", "f", "i"): "f_f_i", ("f", "f"): "f_f"})]),
    ]
    nfill = 2000
    for i in range(nfill):
        a, step = i % 300, 1 + i // 300
        if i % 10 == 9:
            st = otl.buildLigatureSubstSubtable({("p%03d" % a, "p%03d" % ((a + step) % 300)):
                                                 "p%03d" % ((a + 7 * step) % 300)})
        else:
            st = otl.buildSingleSubstSubtable({"p%03d" % a: "p%03d" % ((a + step) % 300)})
        lookups.append(otl.buildLookup([st]))
    features = [feature_record("liga", [0])]
    tags = ["ss%02d" % k for k in range(1, 21)] + ["cv%02d" % k for k in range(1, 100)]
    for k, tag in enumerate(tags):
        features.append(feature_record(tag, [2 + (k * 16 + j) % nfill for j in range(200)]))
    features.sort(key=lambda fr: fr.FeatureTag)
    every = list(range(len(features)))
    font["GSUB"] = layout_table("GSUB", 0x00010000, [
        ("DFLT", every, {}), ("hebr", every, {}), ("latn", every, {"TRK ": every})], features, lookups)
    # the rvrn feature (added to every LangSys) and its FeatureVariations, in this order (the
    # first record whose conditions hold applies): addFeatureVariationsRaw, since
    # addFeatureVariations' overlay of overlapping boxes drops wght >= 0.8 with wdth > -0.5
    gsub = font["GSUB"].table
    alt_a = len(gsub.LookupList.Lookup)
    gsub.LookupList.Lookup += [
        otl.buildLookup([otl.buildSingleSubstSubtable({"a": "a.alt", "e": "e.alt", "o": "o.alt"})]),
        otl.buildLookup([otl.buildSingleSubstSubtable({"g": "g.alt", "y": "y.alt"})])]
    addFeatureVariationsRaw(font, gsub, [
        ({"wght": (0.8, 1.0), "wdth": (-1.0, -0.5)}, [alt_a, alt_a + 1]),
        ({"wght": (0.5, 1.0)}, [alt_a]),
    ], "rvrn")
    liga = [i for i, fr in enumerate(gsub.FeatureList.FeatureRecord) if fr.FeatureTag == "liga"][0]
    for rec in gsub.FeatureVariations.FeatureVariationRecord:
        sub = ot.FeatureTableSubstitutionRecord()
        sub.FeatureIndex = liga
        sub.Feature = ot.Feature()
        sub.Feature.FeatureParams = None
        sub.Feature.LookupListIndex = [1]
        recs = rec.FeatureTableSubstitution.SubstitutionRecord + [sub]
        recs.sort(key=lambda r: r.FeatureIndex)
        rec.FeatureTableSubstitution.SubstitutionRecord = recs
        rec.FeatureTableSubstitution.SubstitutionCount = len(recs)

    # GPOS and GDEF, every value varied
    dev = Devices(["wght", "wdth"], [{}, {"wght": 1.0}, {"wdth": -1.0}, {"wght": 1.0, "wdth": -1.0}])
    rnd = lcg(7)
    pairs = {}
    for a in UC:
        for b in UC:
            if rnd(4) == 0:
                v = -10 * (1 + rnd(9))
                x, d = dev.value([v, v - 20 - rnd(30), v + 15, v - rnd(40)])
                pairs[(a, b)] = (otl.buildValue({"XAdvance": x, "XAdvDevice": d}), None)
    kern1 = otl.buildPairPosGlyphsSubtable(pairs, gm)
    cls1 = [("a", "d", "g", "q"), ("b", "h", "k", "l"), ("c", "e", "o"), ("v", "w", "y"), ("r",)]
    cls2 = [("c", "d", "e", "o", "q"), ("v", "w", "y"), ("a",), ("f", "t")]
    cpairs = {}
    for i, c1 in enumerate(cls1):
        for j, c2 in enumerate(cls2):
            if (i + j) % 3 == 0:
                continue
            v = -5 * (i + 2 * j + 1)
            x, d = dev.value([v, v - 25, v + 10 * i, v - 5 * j])
            cpairs[(c1, c2)] = (otl.buildValue({"XAdvance": x, "XAdvDevice": d}), None)
    kern2 = otl.buildPairPosClassesSubtable(cpairs, gm)

    def anchor(x, y, k):
        x0, dx = dev.value([x, x + 30 + k % 11, x - 20, x + 5])
        y0, dy = dev.value([y, y + 12, y - 8 - k % 5, y + 20])
        return otl.buildAnchor(x0, y0, deviceX=dx, deviceY=dy)
    marks = {"acutecomb": (0, anchor(-130, 600, 0)), "qamats": (1, anchor(-130, -50, 1)),
             "dagesh": (2, anchor(-130, 300, 2))}
    bases = {}
    for k, g in enumerate(UC + LC):
        bases[g] = {0: anchor(250 + (k % 9) * 10, 720 if g in UC else 520, k)}
    for k, c in enumerate(HEBREW):
        bases["heb%04X" % c] = {1: anchor(240 + k, -20, k), 2: anchor(230 + 2 * k, 300, k + 3)}
    markbase = otl.buildMarkBasePos(marks, bases, gm)
    mm = ot.MarkMarkPos()
    mm.Format = 1
    mm.Mark1Coverage = otl.buildCoverage(["acutecomb"], gm)
    mm.Mark2Coverage = otl.buildCoverage(["acutecomb"], gm)
    mm.ClassCount = 1
    mm.Mark1Array = otl.buildMarkArray({"acutecomb": (0, anchor(-130, 600, 5))}, gm)
    mm.Mark2Array = ot.Mark2Array()
    mm.Mark2Array.Mark2Record = [otl.buildMark2Record([anchor(-130, 720, 6)])]
    gpos_lookups = [otl.buildLookup([kern1, kern2]), otl.buildLookup(markbase),
                    otl.buildLookup([mm])]
    gfeat = [feature_record("kern", [0]), feature_record("mark", [1]), feature_record("mkmk", [2])]
    font["GPOS"] = layout_table("GPOS", 0x00010000, [
        ("DFLT", [0, 1, 2], {}), ("hebr", [0, 1, 2], {}), ("latn", [0, 1, 2], {"TRK ": [0, 1, 2]})],
        gfeat, gpos_lookups)

    gdef = ot.GDEF()
    gdef.Version = 0x00010003
    gdef.GlyphClassDef = ot.ClassDef()
    gdef.GlyphClassDef.classDefs = {g: 1 for g in order if g not in (".notdef",)}
    for g in ("f_f", "f_i", "f_l", "f_f_i"):
        gdef.GlyphClassDef.classDefs[g] = 2
    for g in ("acutecomb", "qamats", "dagesh"):
        gdef.GlyphClassDef.classDefs[g] = 3
    gdef.AttachList = None
    gdef.MarkAttachClassDef = None
    gdef.MarkGlyphSetsDef = None
    carets = {}
    for g, n in (("f_f", 1), ("f_i", 1), ("f_l", 1), ("f_f_i", 2)):
        vals = []
        for k in range(n):
            x, d = dev.value([200 * (k + 1), 220 * (k + 1), 180 * (k + 1), 205 * (k + 1)])
            cv = ot.CaretValue()
            cv.Format = 3
            cv.Coordinate = x
            cv.DeviceTable = d
            vals.append(cv)
        carets[g] = vals
    lcl = ot.LigCaretList()
    lcl.Coverage = otl.buildCoverage(list(carets), gm)
    lcl.LigGlyph = []
    for g in lcl.Coverage.glyphs:
        lg = ot.LigGlyph()
        lg.CaretValue = carets[g]
        lcl.LigGlyph.append(lg)
    gdef.LigCaretList = lcl
    gdef.VarStore = dev.finish()
    font["GDEF"] = newTable("GDEF")
    font["GDEF"].table = gdef
    font.save(path)
    return check_featvars_far(path)


def check_featvars_far(path):
    """Distance in bytes from the FeatureList to the nearest substitute Feature table; a
    ValueError when it is not past 64 KiB."""
    data = TTFont(path).reader["GSUB"]
    major, minor, _sl, fl, _ll, fv = struct.unpack(">HHHHHL", data[:14])
    assert (major, minor) == (1, 1) and fv, "GSUB 1.1 with FeatureVariations expected"
    nrec = struct.unpack(">L", data[fv + 4:fv + 8])[0]
    near, nsub = None, 0
    for r in range(nrec):
        _cs, fts = struct.unpack(">LL", data[fv + 8 + 8 * r:fv + 16 + 8 * r])
        base = fv + fts
        count = struct.unpack(">H", data[base + 4:base + 6])[0]
        for s in range(count):
            _idx, off = struct.unpack(">HL", data[base + 6 + 6 * s:base + 12 + 6 * s])
            nsub += 1
            dist = base + off - fl
            near = dist if near is None else min(near, dist)
    if near is None or near <= 0x10000:
        raise ValueError("%s: substitute Feature tables only %s bytes after the FeatureList"
                         % (path, near))
    return "GSUB %d bytes, %d FeatureVariations records, %d substitute Feature tables, the nearest %d bytes after the FeatureList" % (
        len(data), nrec, nsub, near)


# ---- gpos_overflow.ttf ----
def build_gpos_overflow(path):
    n = 2000
    order = [".notdef", "space"] + ["g%04d" % i for i in range(n)]
    cmap = {0x20: "space"}
    cmap.update({0xE000 + i: "g%04d" % i for i in range(n)})
    glyphs, metrics, variations = {}, {}, {}
    for i, g in enumerate(order):
        if g == "space":
            glyphs[g], metrics[g] = TTGlyphPen(None).glyph(), (250, 0)
            continue
        glyphs[g] = rect(50, 0, 550 - (i % 13) * 10, 700 - (i % 7) * 30)
        metrics[g] = (600, 50)
        if i % 4 == 0:
            variations[g] = [TupleVariation({"wght": (0.0, 1.0, 1.0)},
                                            [(0, 0), (0, 0), (40, 0), (40, 0), (0, 0), (0, 0), (0, 0), (0, 0)])]
    axes = [("wght", 100, 400, 900, "Weight")]
    instances = [{"location": {"wght": w}, "stylename": s} for w, s in [
        (100, "Thin"), (400, "Regular"), (700, "Bold"), (900, "Black")]]
    fb = base_font(order, cmap, glyphs, metrics, axes, instances, variations, "OTV GPOS Overflow")
    font = fb.font
    gm = font.getReverseGlyphMap()
    dev = Devices(["wght"], [{}, {"wght": 1.0}, {"wght": -1.0}])
    # 40 distinct delta rows: the devices are shared (fontTools interns equal tables)
    rows = [dev.value([0, -(k % 8) * 5 - 5, (k // 8) * 4 + 2])[1] for k in range(40)]
    lookups = []
    for lk in range(2):
        rnd = lcg(1000 + lk)
        subtables = []
        for part in range(4):
            pairs = {}
            for f in range(part * 500, part * 500 + 500):
                for s in sorted(set(rnd(n) for _ in range(12))):
                    v = -(10 + (f * 7 + s * 13 + lk * 5) % 90)
                    vr = otl.buildValue({"XAdvance": v, "XAdvDevice": rows[(f + s + lk) % 40]})
                    pairs[("g%04d" % f, "g%04d" % s)] = (vr, None)
            subtables.append(otl.buildPairPosGlyphsSubtable(pairs, gm))
        lookups.append(otl.buildLookup(subtables))
    # class kerning: 96 first classes of 20 glyphs, 48 second classes of 40 glyphs
    cpairs = {}
    rnd = lcg(77)
    c1 = [tuple("g%04d" % (k * 20 + j) for j in range(20)) for k in range(96)]
    c2 = [tuple("g%04d" % (j * 48 + k) for j in range(40)) for k in range(48)]
    for i, a in enumerate(c1):
        for j, b in enumerate(c2):
            if rnd(3):
                v = -(5 + (i * 3 + j * 5) % 60)
                x, d = dev.value([v, v - 10 - rnd(20), v + rnd(15)])
                cpairs[(a, b)] = (otl.buildValue({"XAdvance": x, "XAdvDevice": d}), None)
    lookups.append(otl.buildLookup([otl.buildPairPosClassesSubtable(cpairs, gm)]))
    sizes = [sum(subtable_size(st, font) for st in lk.SubTable) for lk in lookups]
    font["GPOS"] = layout_table("GPOS", 0x00010000, [("DFLT", [0], {}), ("latn", [0], {})],
                                [feature_record("kern", [0, 1, 2])], lookups)
    gdef = ot.GDEF()
    gdef.Version = 0x00010003
    gdef.GlyphClassDef = ot.ClassDef()
    gdef.GlyphClassDef.classDefs = {g: 1 for g in order[2:]}
    gdef.AttachList = gdef.LigCaretList = gdef.MarkAttachClassDef = gdef.MarkGlyphSetsDef = None
    gdef.VarStore = dev.finish()
    font["GDEF"] = newTable("GDEF")
    font["GDEF"].table = gdef
    font.save(path)
    return check_gpos_overflow(path, sizes)


def subtable_size(st, font):
    """A subtable's bytes compiled alone (its coverage, PairSets and devices)."""
    w = OTTableWriter(tableTag="GPOS")
    w.localState = {"LookupType": CountReference({"LookupType": None}, "LookupType")}
    st.compile(w, font)
    return len(w.getAllData())


def check_gpos_overflow(path, sizes):
    """The subtables of the first two lookups exceed 64 KiB per lookup, and fontTools wrote
    them as Extension lookups; a ValueError otherwise."""
    f = TTFont(path)
    gpos = f["GPOS"].table
    types = [lk.LookupType for lk in gpos.LookupList.Lookup]
    if not all(s > 0xFFFF for s in sizes[:2]) or types[:2] != [9, 9]:
        raise ValueError("%s: lookup subtable bytes %r, lookup types %r: expected two lookups "
                         "over 64 KiB written as Extension" % (path, sizes, types))
    return "GPOS %d bytes; subtables per lookup %s bytes; lookup types %s (9: Extension)" % (
        len(f.reader["GPOS"]), "/".join(str(s) for s in sizes), types)


BUILDERS = {"featvars_far": build_featvars_far, "gpos_overflow": build_gpos_overflow}


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    which = argv[2:] or sorted(BUILDERS)
    for name in which:
        t = time.time()
        path = os.path.join(out, name + ".ttf")
        info = BUILDERS[name](path)
        print("%s: %d bytes in %.1f s; %s" % (path, os.path.getsize(path), time.time() - t, info))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
