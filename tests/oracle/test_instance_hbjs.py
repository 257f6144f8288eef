#!/usr/bin/python3
"""test_instance_hbjs.py - `otvar instance` against the current hb-subset (npm harfbuzzjs).

Debian's fontTools 4.38 cannot instance CFF2 and Debian's hb-subset 6.0 makes broken CFF2
instances, so the CFF2 variable fonts are compared with the hb-subset of a current HarfBuzz,
compiled to WebAssembly in the npm package harfbuzzjs (fetched by tests/fetch-fonts.sh into
$OTV_FONT_CACHE/harfbuzzjs; version pinned there). TrueType VFs are compared too, as a second
oracle next to fontTools (tests/oracle/test_instance.py). hb-subset normalizes as fontTools does
(one rounding to F2Dot14), so otvar runs with --normalize fonttools; HarfBuzz's runtime, which
draws the CFF2 variable fonts here, is otvar's harfbuzz model (docs/normalization.md).

For each font, at named instances and seeded random locations, both tools cut a full static
instance (hb-subset: every glyph, table, name and layout feature kept, every axis pinned), then:
  - every glyph is drawn by HarfBuzz (harfbuzzjs) from each output and the two outlines are
    compared point by point after normalising the contour decomposition (the closing line of a
    contour back to its start point is implicit); CFF2: also against HarfBuzz's runtime outline
    of the variable font at the location, every point rounded
  - advances: CFF2 against HarfBuzz's runtime advance (HVAR), TrueType against hb-subset's
  - through fontTools: hmtx, OS/2, hhea, vhea, post, head, maxp values, the name records, the
    glyph order, the table set; head bbox and hhea extremes against otvar's own outlines/hmtx
A difference that is a known, explained choice (HarfBuzz's or ours; the predicates in compare()
check exactly that pattern, reasons in docs/instance.md) is counted and printed, not failed;
anything else fails.
"""
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

HERE = os.path.dirname(os.path.abspath(__file__))
OTVAR = os.environ.get("OTVAR")
FONTS = os.environ.get("OTV_FONTS", os.path.join(HERE, "..", "fonts"))
CACHE = os.environ.get("OTV_FONT_CACHE", "")
HBJS = os.path.join(CACHE, "harfbuzzjs") if CACHE else ""
SCRIPT = os.path.join(HERE, "hbjs_instance.mjs")
FULL = bool(os.environ.get("OTV_INSTANCE_FULL"))

# font, where, named instances to try (indices; None = all), random locations
CFF2_FONTS = [
    ("CFF2Instancer-VF-1.otf", "fonts", None, 2),
    ("AdobeVFPrototype_vsindex.otf", "fonts", None, 2),
    ("NotoSansJP-VF.subset.otf", "fonts", None, 2),
    ("cantarell_vf_trimmed.ttf", "fonts", [], 3),
    ("Cantarell-VF.otf", "cache", None, 2),
    ("SourceSans3VF-Upright.otf", "cache", None if FULL else [0, 6], 2 if FULL else 1),
    ("SourceSerif4Variable-Roman.otf", "cache", None if FULL else [7, 29], 2 if FULL else 0),
]
TT_FONTS = [
    ("Roboto-Variable.ABC.ttf", "fonts", [0, 17], 1),
    ("NotoSans-VF.abc.ttf", "fonts", [0, 71], 1),
    ("Muli-ABC.ttf", "fonts", [2], 1),
    ("SourceSerifVariable-Roman-VVAR.abc.ttf", "fonts", [1], 1),
    ("Inter-roman.var.ttf", "cache", [8], 0),
    ("SourceSerif4Variable-Roman.ttf", "cache", [7] if not FULL else None, 0),
]

failures = 0
checks = 0
known_seen = {}
diff_seen = {}  # (font, category) -> [count, first message]


def fail(msg, cat=None):
    """Records a difference; the first of each (font, category) is printed in full."""
    global failures
    failures += 1
    key = (msg.split(" ", 1)[0], cat or msg)
    if key in diff_seen:
        diff_seen[key][0] += 1
        return
    diff_seen[key] = [1, msg]
    print("FAIL " + msg)


def known(key, label):
    known_seen.setdefault(key, []).append(label)


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def node():
    return shutil.which("node") or shutil.which("nodejs")


# ---- locations ----
def locations(path, font, named, nrand, seed):
    """[(label, otvar args, {tag: user value})]"""
    out = []
    fvar = font["fvar"]
    idx = range(len(fvar.instances)) if named is None else [i for i in named if i < len(fvar.instances)]
    for i in idx:
        loc = dict(fvar.instances[i].coordinates)
        out.append(("named %d" % i, ["--named", str(i)], loc))
    rng = random.Random(seed)
    for k in range(nrand):
        for attempt in range(20):
            loc = {a.axisTag: float(rng.randint(int(math.ceil(a.minValue)), int(a.maxValue)))
                   for a in fvar.axes}
            if same_normalization(path, font, loc):
                break
            redrawn[0] += 1
        spec = ",".join("%s=%g" % (t, v) for t, v in loc.items())
        out.append(("random %s" % spec, ["--var", spec], loc))
    return out


redrawn = [0]


def otvar_coords(path, loc, model):
    rc, out = run([OTVAR, "normalize", path, "--normalize", model] +
                  ["%s=%r" % kv for kv in loc.items()])
    return {line.split()[0]: int(line.split()[2]) for line in out.splitlines()} if rc == 0 else None


def same_normalization(path, font, loc):
    """True when hb-subset's instancer (binary32, one rounding: what fontTools computes in double,
    and otvar's fonttools model, which the instances here use) and HarfBuzz's runtime (16.16:
    otvar's harfbuzz model; it draws the CFF2 variable font) give loc the same F2Dot14
    coordinates: at the rare locations where the two pipelines differ by one unit the instances
    legitimately differ from the runtime outlines, so such draws are redrawn."""
    lim = instancer.AxisLimits(loc).populateDefaults(font).normalize(font)
    ft = {k: round(v[0] * 16384) for k, v in lim.items()}
    ours, runtime = otvar_coords(path, loc, "fonttools"), otvar_coords(path, loc, "harfbuzz")
    return ours is not None and ours == runtime and all(ours.get(k) == v for k, v in ft.items())


# ---- outlines ----
def contours(path):
    """HarfBuzz draw commands -> list of contours, each (start point, [segments]); the line
    back to the start point that closes a contour is dropped (CFF closes contours implicitly,
    glyf too; HarfBuzz draws it when the charstring ends away from the start)."""
    out = []
    cur = None
    for c in path:
        op = c[0]
        if op == "M":
            if cur is not None:
                out.append(cur)
            cur = [(c[1], c[2]), []]
        elif op == "Z":
            if cur is not None:
                out.append(cur)
            cur = None
        else:
            if cur is None:  # drawing without a move: start at the last point
                cur = [(0, 0), []]
            cur[1].append((op,) + tuple(c[1:]))
    if cur is not None:
        out.append(cur)
    norm = []
    for start, segs in out:
        # HarfBuzz draws a closing line when the end point is not exactly the start point:
        # after an explicit line back to the start (within float error), that makes two
        while segs and segs[-1][0] == "L" and (segs[-1][1], segs[-1][2]) == start:
            segs = segs[:-1]
        norm.append((start, segs))
    return norm


def rounded(path):
    return [[c[0]] + [int(math.floor(x + 0.5)) for x in c[1:]] for c in path]


def shape_diff(ca, cb):
    """'points differ by up to N' when the contours have the same segments, else a summary."""
    if len(ca) == len(cb) and all(len(x[1]) == len(y[1]) and all(s[0] == t[0] for s, t in zip(x[1], y[1]))
                                  for x, y in zip(ca, cb)):
        d = 0
        for x, y in zip(ca, cb):
            d = max(d, abs(x[0][0] - y[0][0]), abs(x[0][1] - y[0][1]))
            for s, t in zip(x[1], y[1]):
                d = max([d] + [abs(u - v) for u, v in zip(s[1:], t[1:])])
        return "outline points", "points differ by up to %g" % d
    return "outline contours", "contours differ (%d contours/%d segments vs %d/%d)" % (
        len(ca), sum(len(c[1]) for c in ca), len(cb), sum(len(c[1]) for c in cb))


def flat(cs):
    out = []
    for start, segs in cs:
        out.append(("M",) + tuple(start))
        out += segs
    return out


def rounding_ties(ca, cb, cv):
    """True when otvar's and hb-subset's outlines differ only by 1 unit at coordinates whose
    unrounded value (the variable font drawn by HarfBuzz at the location) is x.5 to within
    float error (and by 0.5 at the TrueType implied midpoints next to them): which way such a
    tie rounds depends on the floating-point evaluation order (otvar follows fontTools' order
    for glyf; hb-subset has its own)."""
    fa, fb, fv = flat(ca), flat(cb), flat(cv)
    if not (len(fa) == len(fb) == len(fv)):
        return False
    ties = 0
    for s, t, u in zip(fa, fb, fv):
        if s[0] != t[0] or s[0] != u[0] or len(s) != len(t) or len(s) != len(u):
            return False
        for x, y, z in zip(s[1:], t[1:], u[1:]):
            if x == y:
                continue
            if abs(x - y) == 0.5:
                continue  # a TrueType implied on-curve point next to a tie: half of it
            if abs(x - y) != 1 or abs(abs(z - math.floor(z)) - 0.5) > 0.01:
                return False
            ties += 1
    return ties > 0


SUBR_TOL = 1  # units: tests/oracle/test_instance_cff1.c's TOL_POINTS


def subr_rounding(ca, cb):
    """True when two outlines differ by at most SUBR_TOL units per coordinate, once each
    contour's last line is dropped where it ends within SUBR_TOL of the start (a contour that
    closes a unit off its start draws a closing line the other lacks): otvar's integer CFF2
    instance keeps the subroutines, whose points are rounded from their own start (within a
    unit of the variable font, docs/instance.md), where hb-subset's flattened one rounds
    each value."""
    def trim(cs):
        out = []
        for start, segs in cs:
            if segs and segs[-1][0] == "L" and abs(segs[-1][1] - start[0]) <= SUBR_TOL and \
                    abs(segs[-1][2] - start[1]) <= SUBR_TOL:
                segs = segs[:-1]
            out.append((start, segs))
        return out
    fa, fb = flat(trim(ca)), flat(trim(cb))
    if len(fa) != len(fb):
        return False
    for s, t in zip(fa, fb):
        if s[0] != t[0] or len(s) != len(t):
            return False
        if any(abs(x - y) > SUBR_TOL for x, y in zip(s[1:], t[1:])):
            return False
    return True


def cmp_outlines(label, group, src, ja, jb, jv, names):
    """ja: otvar's instance, jb: hb-subset's, jv: the variable font drawn by HarfBuzz at the
    location. Outlines: otvar == hb-subset; for CFF2 also otvar == HarfBuzz's runtime outline
    with every point rounded. Advances: otvar == HarfBuzz's runtime advance (HVAR) for CFF2,
    == hb-subset's for TrueType (both from the phantom points)."""
    global checks
    ga, gb, gv = ja["glyphs"], jb["glyphs"], jv["glyphs"]
    if not len(ga) == len(gb) == len(gv):
        fail("%s: glyph count otvar %d hb %d VF %d" % (label, len(ga), len(gb), len(gv)))
        return
    default_adv = src["hmtx"].metrics
    bad = 0
    for g in range(len(ga)):
        checks += 3
        name = names[g] if g < len(names) else str(g)
        ca, cb = contours(ga[g]["path"]), contours(gb[g]["path"])
        if ca != cb and rounding_ties(ca, cb, contours(gv[g]["path"])):
            known("rounding ties (x.5 exactly)", "%s glyph %d" % (label, g))
        elif ca != cb and group == "CFF2" and subr_rounding(ca, cb):
            known("CFF2 rounding across kept subroutines (<= %d units)" % SUBR_TOL,
                  "%s glyph %d" % (label, g))
        elif ca != cb:
            bad += 1
            cat, what = shape_diff(ca, cb)
            fail("%s: glyph %d (%s) otvar vs hb-subset: %s\n   otvar %s\n   hb    %s" % (
                label, g, name, what, ca[:2], cb[:2]), cat)
        if group == "CFF2":
            cv = contours(rounded(gv[g]["path"]))
            if ca != cv and subr_rounding(ca, cv):
                known("CFF2 rounding across kept subroutines, runtime (<= %d units)" % SUBR_TOL,
                      "%s glyph %d" % (label, g))
            elif ca != cv:
                cat, what = shape_diff(ca, cv)
                fail("%s: glyph %d (%s) otvar vs rounded runtime: %s\n   otvar %s\n   VF    %s" % (
                    label, g, name, what, ca[:2], cv[:2]), cat + " (runtime)")
            if ga[g]["adv"] != gv[g]["adv"]:
                fail("%s: glyph %d (%s) advance otvar %d, HarfBuzz runtime %d" % (
                    label, g, name, ga[g]["adv"], gv[g]["adv"]), "advance (runtime)")
            if gb[g]["adv"] != gv[g]["adv"]:
                if gb[g]["adv"] == default_adv[name][0]:
                    known("hb: CFF2 hmtx not varied", label)
                else:
                    fail("%s: glyph %d (%s) advance hb-subset %d, HarfBuzz runtime %d" % (
                        label, g, name, gb[g]["adv"], gv[g]["adv"]), "hb advance")
        elif ga[g]["adv"] != gb[g]["adv"]:
            fail("%s: glyph %d (%s) advance otvar %d hb-subset %d" % (label, g, name, ga[g]["adv"], gb[g]["adv"]),
                 "advance")
    if bad:
        print("   %s: %d glyphs differ from hb-subset" % (label, bad))


# ---- tables ----
HEAD_SKIP = {"modified", "checkSumAdjustment", "created"}
# post.glyphOrder is fontTools' own cache (set when the glyph order was taken from post);
# the glyph orders themselves are compared in compare()
POST_SKIP = {"glyphOrder", "mapping"}


def attrs(t):
    return {k: v for k, v in vars(t).items() if not k.startswith("_") and k not in ("tableTag",)}


def cmp_table(label, tag, a, b, known_fields):
    global checks
    va, vb = attrs(a), attrs(b)
    for k in sorted(set(va) | set(vb)):
        if (k in HEAD_SKIP and tag == "head") or (k in POST_SKIP and tag == "post"):
            continue
        checks += 1
        x, y = va.get(k), vb.get(k)
        if hasattr(x, "__dict__") and hasattr(y, "__dict__"):
            x, y = attrs(x), attrs(y)
        if x == y:
            continue
        kk = "%s.%s" % (tag, k)
        if kk in known_fields and known_fields[kk](kk, x, y):
            known("hb: " + kk, label)
            continue
        fail("%s: %s otvar %r hb %r" % (label, kk, x, y), kk)


def names(font):
    if "name" not in font:
        return {}
    return {(r.nameID, r.platformID, r.platEncID, r.langID): r.toUnicode() for r in font["name"].names}


def main():
    if not OTVAR:
        print("OTVAR not set")
        return 1
    if not HBJS or not os.path.isfile(os.path.join(HBJS, "dist", "harfbuzz-subset.wasm")):
        print("SKIP harfbuzzjs not in $OTV_FONT_CACHE/harfbuzzjs (run tests/fetch-fonts.sh)")
        return 0
    if not node():
        print("SKIP node (nodejs) not installed")
        return 0
    nd = node()
    tmp = tempfile.mkdtemp(prefix="otv-hbjs-")
    fonts_done = 0
    try:
        for group, lst in (("CFF2", CFF2_FONTS), ("TrueType", TT_FONTS)):
            for fname, where, named, nrand in lst:
                path = os.path.join(FONTS if where == "fonts" else CACHE, fname)
                if not os.path.isfile(path):
                    print("SKIP %s: not in %s" % (fname, where))
                    continue
                src = TTFont(path)
                fonts_done += 1
                for label, oargs, loc in locations(path, src, named, nrand, sum(map(ord, fname))):
                    lab = "%s %s" % (fname, label)
                    a = os.path.join(tmp, "a.otf")
                    b = os.path.join(tmp, "b.otf")
                    for p in (a, b):
                        if os.path.exists(p):
                            os.remove(p)
                    # CFF2 fonts: the CFF2 output that hb-subset also writes (--cff2; otvar's
                    # default CFF output is checked by tests/oracle/test_instance_cff1.*)
                    rc, out = run([OTVAR, "instance", path] + oargs +
                                  ["--normalize", "fonttools", "-o", a, "-q"] +
                                  (["--cff2"] if "CFF2" in src else []))
                    if rc != 0:
                        fail("%s: otvar instance failed: %s" % (lab, out.strip()))
                        continue
                    spec = ",".join("%s=%r" % kv for kv in loc.items())
                    rc, out = run([nd, SCRIPT, HBJS, "instance", path, b, spec])
                    if rc != 0:
                        fail("%s: hb-subset (harfbuzzjs) failed: %s" % (lab, out.strip()))
                        continue
                    v = os.path.join(tmp, "v.json")
                    rc, out = run([nd, SCRIPT, HBJS, "dump", a, "-", a + ".json", b, "-", b + ".json",
                                   path, spec, v])
                    if rc != 0:
                        fail("%s: harfbuzzjs dump failed: %s" % (lab, out.strip()))
                        continue
                    js = []
                    for p in (a + ".json", b + ".json", v):
                        with open(p) as f:
                            js.append(json.load(f))
                    compare(lab, group, src, TTFont(a), TTFont(b), *js)
                print("ok %s (%s)" % (fname, group))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d checks, %d failures, %d fonts" % (checks, failures, fonts_done))
    for (font, cat), (n, msg) in diff_seen.items():
        print("  %-34s %-28s %5d  e.g. %s" % (font, cat, n, msg.split("\n")[0][:110]))
    for k in sorted(known_seen):
        print("known difference %-28s %4d times (%s, ...)" % (k, len(known_seen[k]), known_seen[k][0]))
    return 1 if failures else 0


def own_extents(fa, ja):
    """head/hhea values recomputed from otvar's instance as HarfBuzz draws it (control boxes) and
    its hmtx: what otvar's values must be."""
    order = fa.getGlyphOrder()
    mt = fa["hmtx"].metrics
    xs, ys, lsb, rsb, ext, advmax = [], [], [], [], [], 0
    for g, j in enumerate(ja["glyphs"]):
        adv = mt[order[g]][0]
        advmax = max(advmax, adv)
        e = j["ext"]
        if not j["path"] or not e:
            continue
        x0, y1, w, h = e
        xs += [x0, x0 + w]
        ys += [y1 + h, y1]
        lsb.append(x0)
        rsb.append(adv - (x0 + w))
        ext.append(x0 + w)
    return {"head.xMin": min(xs), "head.xMax": max(xs), "head.yMin": min(ys), "head.yMax": max(ys),
            "hhea.minLeftSideBearing": min(lsb), "hhea.minRightSideBearing": min(rsb),
            "hhea.xMaxExtent": max(ext), "hhea.advanceWidthMax": advmax}


def compare(lab, group, src, fa, fb, ja, jb, jv):
    global checks
    order = fa.getGlyphOrder()
    checks += 1
    if order != fb.getGlyphOrder():
        fail("%s: glyph orders (names) differ" % lab, "glyph order")
    cmp_outlines(lab, group, src, ja, jb, jv, order)
    ta, tb = set(fa.keys()) - {"GlyphOrder"}, set(fb.keys()) - {"GlyphOrder"}
    for t in sorted(ta ^ tb):
        checks += 1
        if t == "STAT" and t in tb:
            known("hb keeps STAT", lab)
        elif t == "GDEF" and t in ta and gdef_empty(fa):
            known("hb drops an empty GDEF", lab)
        else:
            fail("%s: table %s only in %s" % (lab, t, "otvar" if t in ta else "hb"), "table " + t)
    own = own_extents(fa, ja)
    for k, v in own.items():
        tag, field = k.split(".")
        checks += 1
        if getattr(fa[tag], field) != v:
            fail("%s: %s otvar %r, from its own outlines and hmtx %r" % (lab, k, getattr(fa[tag], field), v),
                 k + " (own)")

    def hb_kept_source(k, x, y):
        tag, field = k.split(".")
        return tag in src and y == getattr(src[tag], field, None)

    def hb_avg(k, x, y):
        adv = [m[0] for m in fb["hmtx"].metrics.values() if m[0]]
        return y == int(math.floor(sum(adv) / len(adv) + 0.5)) and x == src["OS/2"].xAvgCharWidth

    known_fields = {
        "head.xMin": lambda k, x, y: y == 32767, "head.yMin": lambda k, x, y: y == 32767,
        "head.xMax": lambda k, x, y: y == -32767, "head.yMax": lambda k, x, y: y == -32767,
        "hhea.advanceWidthMax": lambda k, x, y: y == 0 and group == "CFF2",
        "vhea.advanceHeightMax": lambda k, x, y: y == 0 and group == "CFF2",
        "OS/2.xAvgCharWidth": lambda k, x, y: (y == 0 and group == "CFF2") or hb_avg(k, x, y),
        "hhea.minLeftSideBearing": hb_kept_source, "hhea.minRightSideBearing": hb_kept_source,
        "hhea.xMaxExtent": hb_kept_source, "vhea.minTopSideBearing": hb_kept_source,
        "vhea.minBottomSideBearing": hb_kept_source, "vhea.yMaxExtent": hb_kept_source,
    }
    for tag in ("head", "hhea", "OS/2", "post", "maxp", "vhea"):
        if tag in fa and tag in fb:
            cmp_table(lab, tag, fa[tag], fb[tag], known_fields)
    if "hmtx" in fa and "hmtx" in fb:
        ma, mb, ms = fa["hmtx"].metrics, fb["hmtx"].metrics, src["hmtx"].metrics
        for g in order:
            checks += 1
            if ma.get(g) == mb.get(g):
                continue
            if group == "CFF2" and mb.get(g) == ms.get(g):
                known("hb: CFF2 hmtx not varied", lab)  # ours checked against the runtime above
                continue
            fail("%s: hmtx %s otvar %r hb %r" % (lab, g, ma.get(g), mb.get(g)),
                 "hmtx advance" if (ma.get(g) or (0,))[0] != (mb.get(g) or (0,))[0] else "hmtx lsb")
    na, nb = names(fa), names(fb)
    stat_fvar_ids = stat_fvar_names(src)
    for k in sorted(set(na) | set(nb)):
        checks += 1
        if na.get(k) == nb.get(k):
            continue
        if k[0] > 255 and na.get(k) is None and k[0] in stat_fvar_ids:
            known("hb keeps fvar/STAT names", lab)
            continue
        fail("%s: name %r otvar %r hb %r" % (lab, k, na.get(k), nb.get(k)),
             "name %s" % ("ID > 255" if k[0] > 255 else k[0]))


def gdef_empty(f):
    t = f["GDEF"].table
    return not any(getattr(t, a, None) for a in ("GlyphClassDef", "AttachList", "LigCaretList",
                                                  "MarkAttachClassDef", "MarkGlyphSetsDef"))


def stat_fvar_names(f):
    ids = set()
    if "fvar" in f:
        for a in f["fvar"].axes:
            ids.add(a.axisNameID)
        for i in f["fvar"].instances:
            ids.add(i.subfamilyNameID)
            ids.add(i.postscriptNameID)
    if "STAT" in f:
        st = f["STAT"].table
        ids.add(getattr(st, "ElidedFallbackNameID", None))
        for a in (st.DesignAxisRecord.Axis if st.DesignAxisRecord else []):
            ids.add(a.AxisNameID)
        for v in (st.AxisValueArray.AxisValue if st.AxisValueArray else []):
            ids.add(v.ValueNameID)
    return ids


if __name__ == "__main__":
    sys.exit(main())
