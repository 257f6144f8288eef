#!/usr/bin/python3
"""test_limits.py - instances with axis limits (`otvar instance FONT TAG=MIN:MAX ...`).

The equivalence test: an instance P of font F with axis limits (ranges restricted, a default
moved, axes dropped or pinned, as fontTools' instancer takes them; axes not named stay variable)
must draw at every user location L inside its new ranges what F draws at L (the pinned axes at
their pins). As in test_partial.py (whose helpers this uses), fontTools 4.38's full instancer
applies the variations of both fonts (otvar normalizes with --normalize fonttools, that
oracle's model), so P's fvar, avar, gvar, cvar, HVAR and MVAR are all exercised by
instantiating P at L through its own tables:
  - every glyph's points and advance within the rounding allowance of test_partial.py;
  - cvt and the OS/2 / hhea / post values MVAR varies (within 3);
  - HarfBuzz's shaping of every mapped character (GPOS through GDEF's store, FeatureVariations
    conditions remapped) at L: the same glyphs and positions within 3.
Locations: the new minima, maxima and defaults, and seeded random ones (OTV_LIMITS_FULL=1: 50
per case, as the issue asks; the default run fewer).
Against fontTools' own instance with the same limits (4.38 does L3, L4 and drop for TrueType):
fvar (axes and named instances), STAT axis values and the name records equal; file sizes
reported, within 5%.
--update-names against fontTools' updateFontNames (names from STAT at the new default; both
refuse a default without STAT axis values).
Also: P passes ots-sanitize when F does and opens in otvar; hostile limits are usage errors
(exit 2, one line, no file).
"""
import os
import random
import re
import unicodedata
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_partial as tp  # noqa: E402  (the helpers and the check counters)

from fontTools.ttLib import TTFont  # noqa: E402
from fontTools.varLib import instancer  # noqa: E402

OTVAR = tp.OTVAR
FONTS = tp.FONTS
CACHE = tp.CACHE
FULL = os.environ.get("OTV_LIMITS_FULL") == "1"

# font, limits (tag -> VALUE | (MIN, MAX) | (MIN, DEFAULT, MAX) | "drop"), random locations
CASES = [
    ("PartialInstancerTest-VF.ttf", {"wght": (300, 700)}, 3),
    ("PartialInstancerTest-VF.ttf", {"wght": (100, 400, 700), "wdth": (80, 100)}, 3),
    ("PartialInstancerTest-VF.ttf", {"wght": (500, 900)}, 3),  # the default moves to 500
    ("PartialInstancerTest-VF.ttf", {"wght": (200, 650, 800)}, 3),  # an explicit new default
    ("PartialInstancerTest-VF.ttf", {"wdth": "drop", "wght": (200, 600)}, 3),
    ("PartialInstancerTest2-VF.ttf", {"wdth": (70, 90)}, 3),  # default 100 -> 90
    ("PartialInstancerTest2-VF.ttf", {"wght": (250, 600), "wdth": (80, 100)}, 3),
    ("Roboto-Variable.ABC.ttf", {"wght": (300, 800), "wdth": 90}, 3),
    ("Roboto-Variable.composite.ttf", {"wght": (100, 300)}, 2),
    ("NotoSans-VF.abc.ttf", {"wght": (350, 700), "CTGR": "drop"}, 2),
    ("material_symbols_subset.ttf", {"FILL": (0.25, 1), "wght": (200, 500)}, 2),
    ("material_symbols_subset.ttf", {"FILL": (0, 0.5), "opsz": 30}, 2),
    ("Handjet.ttf", {"wght": (300, 700), "ELSH": (2, 8)}, 2),
    ("STATInstancerTest.ttf", {"wght": (400, 700), "wdth": (100, 125), "ital": 0}, 2),
    ("Muli-ABC.ttf", {"wght": (300, 600)}, 3),
    ("SourceSerifVariable-Roman-VVAR.abc.ttf", {"wght": (300, 600)}, 3),
    ("SparseMasters-VF.ttf", {"wght": (400, 600)}, 3),
    ("vazirmatn_var_trimmed.ttf", {"wght": (300, 700, 800)}, 2),
]
REAL_CASES = [
    ("RobotoFlex-latin.ttf", {"wght": (300, 700), "opsz": (12, 36), "wdth": 100, "GRAD": 0,
                              "slnt": 0, "XOPQ": "drop", "YOPQ": "drop", "XTRA": "drop",
                              "YTUC": "drop", "YTLC": "drop", "YTAS": "drop", "YTDE": "drop",
                              "YTFI": "drop"}, 1),
    ("Recursive-latin.ttf", {"wght": (400, 700), "CASL": (0, 0.5), "MONO": 0, "slnt": 0,
                             "CRSV": 0.5}, 1),
    ("Inter-roman.var.ttf", {"wght": (400, 700)}, 1),
    ("Karla-Italic-VF.ttf", {"wght": (300, 600)}, 1),
]
# the large ones (fontTools takes a minute an instance): OTV_LIMITS_FULL=1 only
FULL_CASES = [
    ("SourceSans3VF-Upright.ttf", {"wght": (300, 700)}, 1),
    ("SourceSerif4Variable-Roman.ttf", {"wght": (300, 700), "opsz": (8, 30)}, 1),
]


def sample_text(cmap):
    """Every mapped character (the first 300), each combining mark after a base of its own: a
    run of marks stacks them, and the rounding of each anchor would add up along the stack."""
    base = "o" if ord("o") in cmap else ""
    out = []
    for c in sorted(cmap):
        if c < 0x20 or 0xD800 <= c < 0xE000:
            continue
        ch = chr(c)
        out.append(base + ch if unicodedata.category(ch) == "Mn" else ch)
    return "".join(out)[:300]


def spec_args(limits):
    out = []
    for tag, v in limits.items():
        if v == "drop":
            out.append("%s=drop" % tag)
        elif isinstance(v, tuple):
            out.append("%s=%s" % (tag, ":".join("%g" % x for x in v)))
        else:
            out.append("%s=%g" % (tag, v))
    return out


def new_ranges(font, limits):
    """The instance's variable axes: tag -> (min, default, max), as fontTools fills them in."""
    out = {}
    for a in font["fvar"].axes:
        v = limits.get(a.axisTag)
        if v is None:
            out[a.axisTag] = (a.minValue, a.defaultValue, a.maxValue)
        elif isinstance(v, tuple):
            lo, hi = v[0], v[-1]
            d = v[1] if len(v) == 3 else min(max(a.defaultValue, lo), hi)
            if lo != hi:
                out[a.axisTag] = (lo, d, hi)
    return out


def pinned(font, limits):
    pins = {}
    for a in font["fvar"].axes:
        v = limits.get(a.axisTag)
        if v == "drop":
            pins[a.axisTag] = a.defaultValue
        elif v is not None and not isinstance(v, tuple):
            pins[a.axisTag] = v
        elif isinstance(v, tuple) and v[0] == v[-1]:
            pins[a.axisTag] = v[0]
    return pins


def ft_limits(font, limits):
    """The limits as fontTools' instancer takes them."""
    out = {}
    for a in font["fvar"].axes:
        v = limits.get(a.axisTag)
        if v == "drop":
            out[a.axisTag] = None
        elif v is not None:
            out[a.axisTag] = v
    return out


def locations(ranges, n_random, rnd):
    locs = [{t: r[1] for t, r in ranges.items()},
            {t: r[0] for t, r in ranges.items()},
            {t: r[2] for t, r in ranges.items()}]
    for _ in range(n_random):
        locs.append({t: round(rnd.uniform(r[0], r[2]), 1) for t, r in ranges.items()})
    return locs


def stat_values(font):
    if "STAT" not in font or not font["STAT"].table.AxisValueArray:
        return []
    out = []
    for v in font["STAT"].table.AxisValueArray.AxisValue:
        d = dict(v.__dict__)
        d.pop("AxisValueRecord", None)
        recs = [(r.AxisIndex, r.Value) for r in getattr(v, "AxisValueRecord", [])]
        out.append((sorted((k, str(x)) for k, x in d.items()), recs))
    return out


def names(font):
    return sorted((r.nameID, r.platformID, r.platEncID, r.langID, r.toUnicode())
                  for r in font["name"].names)


def compare_fonttools(src, limits, out, label, tmp):
    """fvar, STAT and name equal to fontTools' instance with the same limits; sizes reported."""
    ref = os.path.join(tmp, "ft.ttf")
    try:
        ft = instancer.instantiateVariableFont(TTFont(src), ft_limits(TTFont(src), limits))
        ft.save(ref)
    except Exception as e:  # what 4.38 cannot do is reported, not failed
        print("%s: fontTools 4.38 cannot make it (%s): equivalence test only" % (label, e))
        return
    a, b = TTFont(out), TTFont(ref)
    fa = ([(x.axisTag, x.minValue, x.defaultValue, x.maxValue, x.axisNameID, x.flags)
           for x in a["fvar"].axes],
          sorted((i.subfamilyNameID, i.postscriptNameID, sorted(i.coordinates.items()))
                 for i in a["fvar"].instances))
    fb = ([(x.axisTag, x.minValue, x.defaultValue, x.maxValue, x.axisNameID, x.flags)
           for x in b["fvar"].axes],
          sorted((i.subfamilyNameID, i.postscriptNameID, sorted(i.coordinates.items()))
                 for i in b["fvar"].instances))
    tp.check(fa == fb, "%s: fvar %s, fontTools %s" % (label, fa, fb))
    tp.check(stat_values(a) == stat_values(b), "%s: STAT axis values differ from fontTools'" % label)
    na, nb = names(a), names(b)
    tp.check(na == nb, "%s: name records differ from fontTools': extra %s, missing %s" %
             (label, sorted(set(na) - set(nb))[:4], sorted(set(nb) - set(na))[:4]))
    sa, sb = os.path.getsize(out), os.path.getsize(ref)
    print("%s: %d bytes, fontTools %d (%.3f)" % (label, sa, sb, sa / sb))
    tp.check(sa <= sb * 1.05, "%s: %d bytes, more than 5%% over fontTools' %d" % (label, sa, sb))


def run_case(src, limits, n_random, seed, tmp):
    name = os.path.basename(src)
    label = "%s %s" % (name, " ".join(spec_args(limits)))
    out = os.path.join(tmp, "limited.ttf")
    r = subprocess.run([OTVAR, "instance", src] + spec_args(limits) +
                       ["-o", out, "--normalize", "fonttools", "--force", "-q"],
                       capture_output=True, text=True)
    tp.check(r.returncode == 0, "%s: otvar exit %d: %s" % (label, r.returncode, r.stderr.strip()))
    if r.returncode:
        return
    tp.check(subprocess.run([OTVAR, "info", out], capture_output=True).returncode == 0,
             "%s: otvar info cannot read the instance" % label)
    if tp.ots_ok(src):
        tp.check(tp.ots_ok(out), "%s: ots-sanitize rejects the instance" % label)
    f = TTFont(src)
    p = TTFont(out)
    for tag in p.keys():
        p[tag]  # decompile every table
    ranges = new_ranges(f, limits)
    pins = pinned(f, limits)
    got = [(a.axisTag, a.minValue, a.defaultValue, a.maxValue) for a in p["fvar"].axes] \
        if "fvar" in p else []
    want = [(t, float(r[0]), float(r[1]), float(r[2])) for t, r in ranges.items()]
    tp.check([(t, round(a, 3), round(b, 3), round(c, 3)) for t, a, b, c in got] ==
             [(t, round(a, 3), round(b, 3), round(c, 3)) for t, a, b, c in want],
             "%s: fvar axes %s, want %s" % (label, got, want))
    compare_fonttools(src, limits, out, label, tmp)

    cmap = f.getBestCmap() or {}
    text = sample_text(cmap)
    rnd = random.Random(seed)
    for loc in locations(ranges, n_random, rnd):
        full = dict(pins)
        full.update(loc)
        a = instancer.instantiateVariableFont(TTFont(src), dict(full))
        b = instancer.instantiateVariableFont(TTFont(out), dict(loc)) if loc else TTFont(out)
        nloc = tp.normalized(p, loc) if loc else {}
        worst = 0.0
        memo = {}
        for g in a.getGlyphOrder():
            allow = tp.allowance(p, g, nloc, memo) + 1e-6
            ca, cb = tp.coords(a, g), tp.coords(b, g)
            if len(ca) != len(cb):
                tp.check(False, "%s at %s: glyph %s has %d points, not %d" %
                         (label, loc, g, len(cb), len(ca)))
                continue
            d = max([abs(x1 - x2) for (x1, y1), (x2, y2) in zip(ca, cb)] +
                    [abs(y1 - y2) for (x1, y1), (x2, y2) in zip(ca, cb)] +
                    [abs(a["hmtx"][g][0] - b["hmtx"][g][0])])
            worst = max(worst, d)
            tp.check(d <= allow, "%s at %s: glyph %s off by %g (allowed %g)" % (label, loc, g, d, allow))
        print("%s at %s: points and advances within %g" % (label, loc, worst))
        if "cvt " in a:
            va, vb = list(a["cvt "].values), list(b["cvt "].values)
            tp.check(len(va) == len(vb) and all(abs(x - y) <= 3 for x, y in zip(va, vb)),
                     "%s at %s: cvt differs" % (label, loc))
        for t, fld in tp.MVAR_FIELDS:
            if t in a and hasattr(a[t], fld):
                x, y = getattr(a[t], fld), getattr(b[t], fld)
                tp.check(abs(x - y) <= 3, "%s at %s: %s.%s %s, not %s" % (label, loc, t, fld, y, x))
        if text:
            sa, sb = tp.shape(src, full, text), tp.shape(out, loc, text)
            tp.check(sa is not None and sb is not None, "%s at %s: hb-shape failed" % (label, loc))
            if sa is not None and sb is not None:
                tp.check([x["g"] for x in sa] == [x["g"] for x in sb],
                         "%s at %s: hb-shape picks other glyphs" % (label, loc))
                bad = tp.hvar_disagrees(f, a, tp.normalized(f, full))
                dpos = 0
                for x, y in zip(sa, sb):
                    keys = ("ay", "dx", "dy") if x["g"] in bad else ("ax", "ay", "dx", "dy")
                    dpos = max([dpos] + [abs(x[k] - y[k]) for k in keys])
                tp.check(dpos <= 3, "%s at %s: hb-shape positions off by %d" % (label, loc, dpos))


# --update-names (fontTools' updateFontNames): names from STAT at the new default
NAME_CASES = [
    ("STATInstancerTest.ttf", {"wght": (400, 700), "wdth": (100, 125), "ital": 0}),
    ("STATInstancerTest.ttf", {"wght": (100, 700, 900), "ital": 1}),
    ("STATInstancerTest.ttf", {"wdth": 75}),
    ("Muli-ABC.ttf", {"wght": (600, 900)}),
    ("NotoSans-VF.abc.ttf", {"wght": (350, 700), "CTGR": "drop"}),  # fontTools refuses: no value
    ("Handjet.ttf", {"wght": (300, 700)}),
]


def run_names(src, limits, tmp):
    label = "%s %s --update-names" % (os.path.basename(src), " ".join(spec_args(limits)))
    out, ref_path = os.path.join(tmp, "names.ttf"), os.path.join(tmp, "ref-names.ttf")
    if os.path.exists(out):
        os.unlink(out)
    try:
        ref = instancer.instantiateVariableFont(TTFont(src), ft_limits(TTFont(src), limits),
                                                updateFontNames=True)
        ref.save(ref_path)
        ref = TTFont(ref_path)
    except ValueError:
        ref = None
    r = subprocess.run([OTVAR, "instance", src] + spec_args(limits) +
                       ["--update-names", "-o", out, "--normalize", "fonttools", "-q"],
                       capture_output=True, text=True)
    if ref is None:
        tp.check(r.returncode == 1 and r.stderr.count("\n") == 1 and not os.path.exists(out),
                 "%s: fontTools refuses (no STAT axis value); otvar exit %d %r" %
                 (label, r.returncode, r.stderr))
        return
    tp.check(r.returncode == 0, "%s: otvar exit %d: %s" % (label, r.returncode, r.stderr.strip()))
    if r.returncode:
        return
    o = TTFont(out)
    na, nb = names(o), names(ref)
    tp.check(na == nb, "%s: names otvar-only %s, fontTools-only %s" %
             (label, sorted(set(na) - set(nb))[:4], sorted(set(nb) - set(na))[:4]))
    tp.check(o["head"].macStyle == ref["head"].macStyle and
             o["OS/2"].fsSelection == ref["OS/2"].fsSelection,
             "%s: macStyle/fsSelection %d/%d, fontTools %d/%d" %
             (label, o["head"].macStyle, o["OS/2"].fsSelection, ref["head"].macStyle,
              ref["OS/2"].fsSelection))


# avar 2 fonts (fontTools 4.38 cannot read them): pinned axes folded into the kept axes' avar 2
# store; compared through otvar's own drawing (its avar 2 normalization is checked against
# HarfBuzz in test_normalize/test_outline_hbjs) and hb-shape advances (HarfBuzz 6.0 applies
# avar 2): the instance at L draws what the font draws at PINS + L.
AVAR2_CASES = [
    ("avar2checker.ttf", {"AVAR": 0}, ["AVWK"]),
    ("avar2checker.ttf", {}, ["AVAR", "AVWK"]),  # the store kept whole
    # the parametric axes with the axes that drive them (wght, opsz), others pinned
    ("Amstelvar-avar2.A.ttf", {"GRAD": 100}, ["wght", "wdth", "opsz", "XTRA", "XOPQ", "YOPQ",
                                              "YTLC", "YTUC", "YTAS", "YTDE", "YTFI"]),
    ("Amstelvar-avar2.A.ttf", {"wdth": 100}, ["wght", "XTRA", "XOPQ", "YOPQ", "YTLC", "YTUC",
                                             "YTAS", "YTDE", "YTFI"]),
    ("Amstelvar-avar2.A.ttf", {}, ["XOPQ", "YOPQ", "XTRA"]),
]
# and what cannot be expressed: a pinned axis driven by a kept one, a kept axis moved off its
# default by the pins, a restricted range
AVAR2_REFUSED = [
    ("avar2checker.ttf", ["--var", "AVAR=50", "--keep", "AVWK"], "moves kept axis 'AVWK'"),
    ("avar2checker.ttf", ["--keep", "AVAR"], "maps pinned axis 'AVWK' from kept axis 'AVAR'"),
    ("Amstelvar-avar2.A.ttf", ["--keep", "wght,wdth,opsz"], "maps pinned axis"),
    ("Amstelvar-avar2.A.ttf", ["XOPQ=50:200"], "avar 2 moves restricted axis 'XOPQ'"),
    # a driver's moved default moves the axes it drives off their defaults
    ("Amstelvar-avar2.A.ttf", ["opsz=10:30:40"], "avar 2 moves kept axis"),
]


def outlines(path, loc):
    var = ",".join("%s=%g" % kv for kv in sorted(loc.items()))
    args = [OTVAR, "outline", path, "--glyphs", "all"] + (["--var", var] if var else [])
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode:
        return None
    out = {}
    for line in r.stdout.splitlines():
        f = line.split(None, 1)
        out[f[0]] = numbers(f[1] if len(f) > 1 else "")
    return out


def numbers(path):
    """The advance and the path's numbers, without a contour's last linetos back to its start
    (within 0.05: drawn or not, the contour closes there; region corners rounded to F2Dot14 can
    move a point that sat on the start by a few thousandths, and then a zero-length line is
    drawn)."""
    toks = re.findall(r"[MLQCZ]|-?[0-9.]+(?:e-?[0-9]+)?", path)
    out, start, seg = [], None, []
    i = 0
    if toks and toks[0] not in "MLQCZ":
        out.append(float(toks[0]))
        i = 1
    while i < len(toks):
        t = toks[i]
        n = {"M": 2, "L": 2, "Q": 4, "C": 6, "Z": 0}[t]
        vals = [float(x) for x in toks[i + 1:i + 1 + n]]
        i += 1 + n
        if t == "M":
            start = vals
        while t == "Z" and seg and seg[-1][0] == "L" and start and \
                max(abs(a - b) for a, b in zip(seg[-1][1], start)) <= 0.05:
            seg.pop()
        seg.append((t, vals))
        if t == "Z":
            for _, v in seg:
                out.extend(v)
            seg = []
    for _, v in seg:
        out.extend(v)
    return out


def compare_drawn(src, full, out, loc, label, text, adv_tol, point_tol):
    """The instance out at loc against src at full (loc with the pinned axes): every glyph's
    advance within adv_tol and its points within point_tol (otvar's drawing of both), and
    hb-shape's positions of text within 2."""
    a, b = outlines(src, full), outlines(out, loc)
    tp.check(a is not None and b is not None and a.keys() == b.keys(),
             "%s at %s: outline failed or glyphs differ" % (label, loc))
    if a is None or b is None:
        return
    worst = 0.0
    for g in a:
        if len(a[g]) != len(b[g]):
            tp.check(False, "%s at %s: glyph %s has other points" % (label, loc, g))
            continue
        dadv = abs(a[g][0] - b[g][0]) if a[g] else 0  # numbers(): the advance first
        d = max([abs(x - y) for x, y in zip(a[g][1:], b[g][1:])] + [0])
        worst = max(worst, d, dadv)
        tp.check(dadv <= adv_tol and d <= point_tol,
                 "%s at %s: glyph %s off by %g (advance %g)" % (label, loc, g, d, dadv))
    print("%s at %s: within %g" % (label, loc, worst))
    if text:
        sa, sb = tp.shape(src, full, text), tp.shape(out, loc, text)
        tp.check(sa is not None and sb is not None and
                 max([abs(x[k] - y[k]) for x, y in zip(sa, sb) for k in ("ax", "dx", "dy")] +
                     [0]) <= 2,
                 "%s at %s: hb-shape positions differ" % (label, loc))


def run_avar2(src, pins, kept, seed, tmp):
    label = "%s pins %s keep %s" % (os.path.basename(src), pins, ",".join(kept))
    out = os.path.join(tmp, "avar2.ttf")
    var = ["--var", ",".join("%s=%g" % kv for kv in pins.items())] if pins else []
    r = subprocess.run([OTVAR, "instance", src] + var + ["--keep", ",".join(kept), "-o", out,
                        "--force", "-q"], capture_output=True, text=True)
    tp.check(r.returncode == 0, "%s: otvar exit %d: %s" % (label, r.returncode, r.stderr.strip()))
    if r.returncode:
        return
    f = TTFont(src)
    axes = {a.axisTag: a for a in f["fvar"].axes}
    rnd = random.Random(seed)
    locs = [{t: axes[t].minValue for t in kept}, {t: axes[t].maxValue for t in kept}]
    locs += [{t: round(rnd.uniform(axes[t].minValue, axes[t].maxValue), 1) for t in kept}
             for _ in range(8 if FULL else 3)]
    cmap = f.getBestCmap() or {}
    text = "".join(chr(c) for c in sorted(cmap) if c >= 0x20)[:100]
    for loc in locs:
        full = dict(pins)
        full.update(loc)
        compare_drawn(src, full, out, loc, label, text, 1.5, 1.5)


# CFF2 fonts (fontTools 4.38 cannot instance them): through otvar's drawing and hb-shape, as the
# avar 2 cases; limits whose regions stay one piece each (a split region is refused, below)
CFF2_CASES = [
    ("CFF2Instancer-VF-1.otf", {"wght": (300, 700)}),
    ("AdobeVFPrototype_vsindex.otf", {"wght": (300, 600)}),
    ("cantarell_vf_trimmed.ttf", {"wght": (200, 600)}),  # CFF2 in a .ttf
]
# avar 2 fonts with a restricted axis whose own avar 2 row is empty (a driver, not a driven
# axis): its range rebased in the other rows' regions, drawn as the CFF2 cases
AVAR2_LIMIT_CASES = [
    ("Amstelvar-avar2.A.ttf", {"opsz": (10, 40)}),
    ("Amstelvar-avar2.A.ttf", {"opsz": (10, 40), "wght": (300, 700), "GRAD": 0}),
    ("avar2checker.ttf", {"AVAR": (0, 50)}),
]
REAL_CFF2_CASES = [
    ("SourceSerif4Variable-Roman.otf", {"wght": (300, 700), "opsz": 20}),
    ("Cantarell-VF.otf", {"wght": (200, 600)}),
    # regions split in two: the blends get the new columns (in->cff_remap)
    ("SourceSans3VF-Upright.otf", {"wght": (300, 700)}),
    ("SourceSerif4Variable-Roman.otf", {"wght": (300, 500, 800), "opsz": "drop"}),
]
CFF2_REFUSED = []


def run_cff2(src, limits, seed, tmp):
    label = "%s %s" % (os.path.basename(src), " ".join(spec_args(limits)))
    out = os.path.join(tmp, "cff2.otf")
    r = subprocess.run([OTVAR, "instance", src] + spec_args(limits) + ["-o", out, "--force", "-q"],
                       capture_output=True, text=True)
    tp.check(r.returncode == 0, "%s: otvar exit %d: %s" % (label, r.returncode, r.stderr.strip()))
    if r.returncode:
        return
    if tp.ots_ok(src):
        tp.check(tp.ots_ok(out), "%s: ots-sanitize rejects the instance" % label)
    f = TTFont(src)
    ranges, pins = new_ranges(f, limits), pinned(f, limits)
    rnd = random.Random(seed)
    cmap = f.getBestCmap() or {}
    text = "".join(chr(c) for c in sorted(cmap) if c >= 0x20)[:100]
    for loc in locations(ranges, 8 if FULL else 2, rnd):
        full = dict(pins)
        full.update(loc)
        # the advance comes from hmtx (rounded at the new default) and HVAR (rounded deltas): 1;
        # the points are blends kept exact (16.16) but for the F2Dot14 corners of the new
        # regions: 0.1
        compare_drawn(src, full, out, loc, label, text, 1, 0.1)


HOSTILE = [
    ["wght=700:300"],              # min > max
    ["wght=50:700"],               # outside the axis
    ["wght=300:1000"],
    ["wght=300:800:700"],          # an explicit default outside the range
    ["wght=nan"], ["wght=nan:700"], ["wght=inf"],
    ["zzzz=300"],                  # no such axis
    ["wght=300:700", "wght=400"],  # twice
    ["wght=300:700:"], ["wght=:"], ["wght="], ["=300"], ["wght"], ["wght=300::700"],
    ["toolong=3"],
]


def main():
    if not OTVAR:
        print("OTVAR not set")
        return 1
    n_extra = 50 if FULL else 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (font, limits, n) in enumerate(CASES):
            run_case(os.path.join(FONTS, font), limits, max(n, n_extra), 300 + i, tmp)
        for i, (font, limits, n) in enumerate(REAL_CASES + (FULL_CASES if FULL else [])):
            path = os.path.join(CACHE, font) if CACHE else ""
            if not path or not os.path.exists(path):
                print("SKIP %s: not in OTV_FONT_CACHE (tests/fetch-fonts.sh fetches it)" % font)
                continue
            run_case(path, limits, max(n, n_extra // 5), 400 + i, tmp)
        for i, (font, pins, kept) in enumerate(AVAR2_CASES):
            run_avar2(os.path.join(FONTS, font), pins, kept, 500 + i, tmp)
        for font, args, msg in AVAR2_REFUSED:
            bad = os.path.join(tmp, "refused.ttf")
            r = subprocess.run([OTVAR, "instance", os.path.join(FONTS, font)] + args + ["-o", bad],
                               capture_output=True, text=True)
            tp.check(r.returncode == 1 and msg in r.stderr and r.stderr.count("\n") == 1 and
                     not os.path.exists(bad),
                     "%s %s: exit %d (want 1), stderr %r" % (font, " ".join(args), r.returncode,
                                                            r.stderr))
        for i, (font, limits) in enumerate(AVAR2_LIMIT_CASES + CFF2_CASES):
            run_cff2(os.path.join(FONTS, font), limits, 600 + i, tmp)
        for i, (font, limits) in enumerate(REAL_CFF2_CASES):
            path = os.path.join(CACHE, font) if CACHE else ""
            if path and os.path.exists(path):
                run_cff2(path, limits, 700 + i, tmp)
        for font, args, msg in CFF2_REFUSED:
            path = os.path.join(CACHE, font) if CACHE else ""
            if not path or not os.path.exists(path):
                continue
            bad = os.path.join(tmp, "refused.otf")
            r = subprocess.run([OTVAR, "instance", path] + args + ["-o", bad],
                               capture_output=True, text=True)
            tp.check(r.returncode == 1 and msg in r.stderr and not os.path.exists(bad),
                     "%s %s: exit %d (want 1), stderr %r" % (font, " ".join(args), r.returncode,
                                                            r.stderr))
        for font, limits in NAME_CASES:
            run_names(os.path.join(FONTS, font), limits, tmp)
        bad = os.path.join(tmp, "bad.ttf")
        src = os.path.join(FONTS, "PartialInstancerTest-VF.ttf")
        for args in HOSTILE:
            r = subprocess.run([OTVAR, "instance", src] + args + ["-o", bad],
                               capture_output=True, text=True)
            tp.check(r.returncode == 2 and r.stderr.count("\n") == 1 and not os.path.exists(bad),
                     "instance %s: exit %d (want 2), stderr %r" % (" ".join(args), r.returncode,
                                                                   r.stderr))
        # the same limits in --var (otvar's syntax: axes not named are at their defaults)
        r = subprocess.run([OTVAR, "instance", src, "--var", "wght=300:700", "-o", bad, "-q"],
                           capture_output=True, text=True)
        tp.check(r.returncode == 0 and [a.axisTag for a in TTFont(bad)["fvar"].axes] == ["wght"],
                 "--var wght=300:700: exit %d %s" % (r.returncode, r.stderr))
    print("test_limits: %d checks, %d failures" % (tp.checks, tp.failures))
    return 1 if tp.failures else 0


if __name__ == "__main__":
    sys.exit(main())
