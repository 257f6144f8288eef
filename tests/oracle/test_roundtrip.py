#!/usr/bin/python3
"""test_roundtrip.py - `otvar instance` + `otvar build` round trip on variable TrueType fonts.

For every variable TrueType test font (tests/fonts) and the cached real fonts:
  1. the masters: the peak of every region of the font (gvar and cvar tuples, the regions of
     HVAR, VVAR, MVAR and GDEF), each distinct one, plus the default location. `otvar instance`
     writes a static font at each (the user location whose normalized coordinates, after avar,
     are the peak: avar inverted per axis, checked with `otvar normalize`);
  2. a designspace: the axes of fvar (user minimum, default, maximum, name, hidden flag), design
     coordinates the normalized ones after avar (-1..1), so the axis maps are avar 1's segment
     maps (user value of each `from` -> `to`); the sources the instances at their peaks;
  3. `otvar build` of it, then the new font against the original at seeded random user
     locations: every glyph's outline drawn by otvar (`otvar outline`) and by HarfBuzz
     (harfbuzzjs, hbjs_instance.mjs dump) within 1 unit, advances equal (HarfBuzz's, whole
     units; otvar's unrounded ones within 1), HarfBuzz's shaping (hb-shape: glyphs and GPOS
     positions of pairs of the font's characters) equal; ots-sanitize clean.
  avar 2 (read here: fontTools 4.38 cannot): its segment maps are the axis maps as for avar 1,
  and its ItemVariationStore becomes format 5 `<mappings>`: one per peak of its regions, input
  the peak (design coordinates: after the segment maps), output the peak plus the store's deltas
  there; the new font's normalized coordinates (`otvar normalize`) must equal the original's
  at every random location.
  GSUB FeatureVariations become designspace rules (each lookup a record adds: a rule whose
  condition sets are those records' boxes), exact for the record lists varLib builds.
The model derives one region per master (fontTools' VariationModel). When the rebuilt font's
regions are those of the original, the round trip is exact and every comparison must pass
(the masters are rounded instances: at a peak another region's fractional scalar can leave
up to 0.5 unit of rounding in a master, hence the 1-unit tolerance). When the original has
regions the model does not derive from its peaks (intermediate regions, regions whose start or
end is not where the model puts it), the font is reported as approximate, naming the regions,
with its largest differences, and never fails.
Default run: the test fonts and the smaller real fonts at 2 locations; OTV_ROUNDTRIP_FULL=1: every
font, 8 locations. Exit 77 (skip) without fontTools or the CLI.
"""
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

try:
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables import otBase, otTables
    from fontTools.varLib.varStore import VarStoreInstancer
except ImportError:
    print("SKIP: no fontTools")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
OTVAR = os.environ.get("OTVAR") or shutil.which("otvar")
FONTS = os.environ.get("OTV_FONTS", os.path.join(HERE, "..", "fonts"))
CACHE = os.environ.get("OTV_FONT_CACHE", "")
HBJS = os.path.join(CACHE, "harfbuzzjs") if CACHE else ""
SCRIPT = os.path.join(HERE, "hbjs_instance.mjs")
FULL = os.environ.get("OTV_ROUNDTRIP_FULL") == "1"
NLOC = 8 if FULL else 2

# (file, in the default run)
TEST_FONTS = ["Handjet.ttf", "Muli-ABC.ttf", "NotoSans-VF.abc.ttf", "PartialInstancerTest-VF.ttf",
              "PartialInstancerTest2-VF.ttf", "Roboto-Variable.ABC.ttf",
              "Roboto-Variable.composite.ttf", "STATInstancerTest.ttf",
              "SourceSerifVariable-Roman-VVAR.abc.ttf", "SparseMasters-VF.ttf",
              "material_symbols_subset.ttf", "vazirmatn_var_trimmed.ttf", "Amstelvar-avar2.A.ttf",
              "avar2checker.ttf"]
REAL_FONTS = [("Karla-Italic-VF.ttf", True), ("SourceSans3VF-Upright.ttf", True),
              ("NotoSansBengali-VF.ttf", True), ("Recursive-latin.ttf", True),
              ("Inter-roman.var.ttf", False), ("SourceSerif4Variable-Roman.ttf", False),
              ("NotoSansArabic-VF.ttf", False), ("RobotoFlex-latin.ttf", False)]

# the most masters the builder takes (src/build/model.h OTV_BUILD_MAX_MASTERS): fonts with more
# peaks are reported without instancing them (none now: Handjet has 168, Roboto Flex 85; the
# limit was 64 before the master sets became bitsets)
BUILDER_MAX_MASTERS = 256
# fonts the builder cannot rebuild yet: (what its error says, why). (Source Sans 3 and Source
# Serif 4 were here until merged PairPos sub-tables past 64 KiB were split.)
KNOWN = {}

failures = []
summary = []


def fail(msg):
    failures.append(msg)
    if len(failures) <= 40:
        print("FAIL: " + msg)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def f2(x):
    return int(round(x * 16384))


def regions(font, axes):
    """the set of regions (per axis (start, peak, end) in F2Dot14) of every variation table
    that carry a delta other than 0 (a region of zeros moves nothing: the model may drop it)"""
    out = set()

    def add(axes_of):
        reg = tuple(axes_of)
        reg += ((0, 0, 0),) * (len(axes) - len(reg))  # a store of fewer axes than fvar's
        # an axis whose peak is 0 does not take part, whatever its start and end
        out.add(tuple(r if r[1] else (0, 0, 0) for r in reg))

    for tag in ("gvar", "cvar"):
        if tag not in font:
            continue
        t = font[tag]
        lists = t.variations.values() if tag == "gvar" else [t.variations]
        for tvs in lists:
            for tv in tvs:
                if any(c is not None and c != (0, 0) and c != 0 for c in tv.coordinates):
                    add(tuple(f2(v) for v in tv.axes.get(a, (0, 0, 0))) for a in axes)
    for tag in ("HVAR", "VVAR", "MVAR", "GDEF"):
        if tag not in font:
            continue
        store = getattr(font[tag].table, "VarStore", None)
        if store is None:
            continue
        used = set()
        for vd in store.VarData:
            for col, ri in enumerate(vd.VarRegionIndex):
                if any(row[col] for row in vd.Item):
                    used.add(ri)
        for ri in sorted(used):
            reg = store.VarRegionList.Region[ri]
            add((f2(r.StartCoord), f2(r.PeakCoord), f2(r.EndCoord)) for r in reg.VarRegionAxis)
    return out


def avar_maps(font, axes):
    """per axis the avar 1 segment map [(from, to)] in F2Dot14 (identity without avar)"""
    maps = {}
    for a in axes:
        maps[a] = [(-16384, -16384), (0, 0), (16384, 16384)]
    if "avar" in font:
        for a, m in font["avar"].segments.items():
            if m:
                maps[a] = sorted((f2(k), f2(v)) for k, v in m.items())
    return maps


def read_avar2(font, axes):
    """avar version 2 (fontTools 4.38 reads version 1 only): (segment maps as avar_maps gives
    them, [per axis the delta-set index (outer << 16 | inner) or None], the VarStore or None)"""
    data = font.reader["avar"]
    _, _, _, n = struct.unpack(">HHHH", data[:8])
    maps = {a: [(-16384, -16384), (0, 0), (16384, 16384)] for a in axes}
    pos = 8
    for a in axes[:n]:
        (c,) = struct.unpack(">H", data[pos:pos + 2])
        pairs = [struct.unpack(">hh", data[pos + 2 + 4 * i:pos + 6 + 4 * i]) for i in range(c)]
        pos += 2 + 4 * c
        if pairs:
            maps[a] = sorted(pairs)
    imap, vs = struct.unpack(">LL", data[pos:pos + 8])
    store = None
    if vs:
        store = otTables.VarStore()
        store.decompile(otBase.OTTableReader(data, offset=vs), font)
    if not imap:  # no axisIndexMap: the axis index is the delta-set index
        return maps, [i for i in range(len(axes))], store
    fmt, ef = data[imap], data[imap + 1]
    cnt, p = ((struct.unpack(">H", data[imap + 2:imap + 4])[0], imap + 4) if fmt == 0 else
              (struct.unpack(">L", data[imap + 2:imap + 6])[0], imap + 6))
    size, inner = ((ef >> 4) & 3) + 1, (ef & 15) + 1
    ent = [int.from_bytes(data[p + size * i:p + size * (i + 1)], "big") for i in range(cnt)]
    idx = []
    for i in range(len(axes)):  # past the map's end: its last entry
        e = ent[min(i, cnt - 1)] if cnt else 0xFFFFFFFF
        idx.append(None if e == (1 << (8 * size)) - 1 else
                   (e >> inner) << 16 | (e & ((1 << inner) - 1)))
    return maps, idx, store


def avar2_mappings(font, fvar, idx, store):
    """[(input peak, output)] in F2Dot14 (after the segment maps): per region peak of the store,
    the peak and the peak plus the deltas there (rounded as HarfBuzz and otvar do)"""
    if store is None:
        return []
    axes = fvar.axes
    peaks = set()
    for vd in store.VarData:
        for ri in vd.VarRegionIndex:
            reg = store.VarRegionList.Region[ri]
            peaks.add(tuple(f2(r.PeakCoord) for r in reg.VarRegionAxis))
    out = []
    for peak in sorted(peaks):
        inst = VarStoreInstancer(store, axes, {a.axisTag: p / 16384.0 for a, p in zip(axes, peak)})
        # not clamped: a delta past the axis's end at the peak still counts between peaks
        res = tuple(p + (int(round(inst[v])) if v is not None else 0) for p, v in zip(peak, idx))
        out.append((peak, res))
    return out


def invert(seg, p):
    """the normalized coordinate (before avar) that avar maps to p (F2Dot14), as a real"""
    for (x0, y0), (x1, y1) in zip(seg, seg[1:]):
        if y0 <= p <= y1:
            if y1 == y0:
                return float(x0)
            return x0 + (p - y0) * (x1 - x0) / (y1 - y0)
    return float(p)


def user_of(ax, n):
    """user value of a normalized coordinate (real, F2Dot14 units) before avar"""
    n /= 16384.0
    if n >= 0:
        return ax.defaultValue + n * (ax.maxValue - ax.defaultValue)
    return ax.defaultValue + n * (ax.defaultValue - ax.minValue)


def normalize(path, loc):
    r = run([OTVAR, "normalize", path] + [f"{t}={v!r}" for t, v in loc.items()])
    if r.returncode:
        return None
    return {ln.split()[0]: int(ln.split()[2]) for ln in r.stdout.splitlines() if ln.strip()}


def user_location(path, fvar, maps, peak, tries=4):
    """a user location whose normalized coordinates (after avar) are peak; None if none found"""
    loc = {}
    for ax, p in zip(fvar.axes, peak):
        loc[ax.axisTag] = user_of(ax, invert(maps[ax.axisTag], p)) if p else ax.defaultValue
    for _ in range(tries):
        got = normalize(path, loc)
        if got is None:
            return None
        off = [(ax, p, got[ax.axisTag]) for ax, p in zip(fvar.axes, peak)
               if got[ax.axisTag] != p]
        if not off:
            return loc
        for ax, p, g in off:  # nudge by the user distance of the F2Dot14 steps missed
            t = ax.axisTag
            step = (ax.maxValue - ax.defaultValue) if p > 0 else (ax.defaultValue - ax.minValue)
            loc[t] += (p - g) * step / 16384.0 / 2
    return None


def axis_name(font, ax):
    n = font["name"].getDebugName(ax.axisNameID)
    return n or ax.axisTag


def single_subst(lookup):
    """the glyph mapping of a SingleSubst lookup (through Extension), else None"""
    out = {}
    for st in lookup.SubTable:
        if lookup.LookupType == 7:
            if st.ExtensionLookupType != 1:
                return None
            st = st.ExtSubTable
        elif lookup.LookupType != 1:
            return None
        for k, v in st.mapping.items():
            out.setdefault(k, v)
    return out


def rules_xml(font, fvar, approx):
    """GSUB FeatureVariations as designspace rules: each lookup a substitution record adds to
    its feature becomes a rule whose condition sets are the boxes of the records that add it
    (design coordinates are the normalized ones: the filter ranges as they are). This is
    the inverse of what varLib builds (records for the boxes and their overlaps, the overlaps
    first); other first-match record lists come back only approximately."""
    gsub = font["GSUB"].table if "GSUB" in font else None
    fv = getattr(gsub, "FeatureVariations", None) if gsub else None
    if not fv:
        return [], []
    feats = gsub.FeatureList.FeatureRecord
    lookups = gsub.LookupList.Lookup
    boxes, tags, recs = {}, [], []
    for rec in fv.FeatureVariationRecord:
        box = []
        for c in rec.ConditionSet.ConditionTable:
            if c.Format != 1:
                approx.append("a FeatureVariations condition of format %d left out" % c.Format)
                box = None
                break
            box.append((fvar.axes[c.AxisIndex], c.FilterRangeMinValue, c.FilterRangeMaxValue))
        if box is None:
            continue
        added = set()
        for sr in rec.FeatureTableSubstitution.SubstitutionRecord:
            fr = feats[sr.FeatureIndex]
            if fr.FeatureTag not in tags:
                tags.append(fr.FeatureTag)
            for li in sr.Feature.LookupListIndex:
                if li not in fr.Feature.LookupListIndex:
                    added.add(li)
                    boxes.setdefault(li, [])
                    if box not in boxes[li]:
                        boxes[li].append(box)
        recs.append(({a.axisTag: (lo, hi) for a, lo, hi in box}, added))
    # rules apply every rule whose box holds; the records, the first that holds: the same when
    # every later record that meets an earlier one adds no lookup the earlier one lacks
    for i, (bi, li) in enumerate(recs):
        for j in range(i + 1, len(recs)):
            bj, lj = recs[j]
            meet = all(max(bi.get(t, (-1, 1))[0], bj.get(t, (-1, 1))[0]) <=
                       min(bi.get(t, (-1, 1))[1], bj.get(t, (-1, 1))[1]) for t in set(bi) | set(bj))
            if meet and not lj <= li:
                approx.append(f"GSUB FeatureVariations: records {i} and {j} overlap and the first "
                              f"shadows lookups {sorted(lj - li)} of the second (first match): "
                              "rules cannot say that")
                break
        else:
            continue
        break
    order = font.getGlyphOrder()
    # without post names (format 3) glyphs are named as fontTools names them: glyph00012
    named = "post" in font and font["post"].formatType == 2
    gname = (lambda g: g) if named else (lambda g: f"glyph{order.index(g):05d}")
    lines = ["  <rules>"]
    for li in sorted(boxes):
        m = single_subst(lookups[li])
        if m is None:
            approx.append(f"FeatureVariations lookup {li} is not a SingleSubst: left out")
            continue
        lines.append(f'    <rule name="lookup{li}">')
        for box in boxes[li]:
            lines.append("      <conditionset>")
            for ax, lo, hi in box:
                lines.append(f'        <condition name="{ax.axisTag}" minimum="{lo!r}" '
                             f'maximum="{hi!r}"/>')
            lines.append("      </conditionset>")
        for k in sorted(m, key=order.index):
            lines.append(f'      <sub name="{gname(k)}" with="{gname(m[k])}"/>')
        lines.append("    </rule>")
    lines.append("  </rules>")
    return lines, tags


def write_designspace(path, font, fvar, maps, masters, approx, mappings=()):
    """masters: [(file stem, peak)]; design coordinates: normalized after avar, -1..1; axes
    named by their tags (names are for the masters' dimensions only); mappings (avar 2):
    [(input, output)] in F2Dot14"""
    fmt = "5.0" if mappings else "4.1"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<designspace format="{fmt}">', "  <axes>"]
    for ax in fvar.axes:
        t = ax.axisTag
        lo = -1 if ax.minValue < ax.defaultValue else 0
        hi = 1 if ax.maxValue > ax.defaultValue else 0
        hidden = ' hidden="1"' if ax.flags & 1 else ""
        lines.append(f'    <axis tag="{t}" name="{t}" minimum="{ax.minValue!r}" '
                     f'maximum="{ax.maxValue!r}" default="{ax.defaultValue!r}"{hidden}>')
        for x, y in maps[t]:
            if (x < 0 and lo == 0) or (x > 0 and hi == 0):
                continue
            lines.append(f'      <map input="{user_of(ax, x)!r}" output="{y / 16384.0!r}"/>')
        name = axis_name(font, ax).replace("&", "&amp;").replace("<", "&lt;")
        lines.append(f'      <labelname xml:lang="en">{name}</labelname>')
        lines.append("    </axis>")
    if mappings:
        lines.append("    <mappings>")
        for inp, outp in mappings:
            lines.append("      <mapping>")
            for what, loc in (("input", inp), ("output", outp)):
                lines.append(f"        <{what}>")
                for ax, v in zip(fvar.axes, loc):
                    lines.append(f'          <dimension name="{ax.axisTag}" '
                                 f'xvalue="{v / 16384.0!r}"/>')
                lines.append(f"        </{what}>")
            lines.append("      </mapping>")
        lines.append("    </mappings>")
    lines += ["  </axes>", "  <sources>"]
    for stem, peak in masters:
        lines.append(f'    <source filename="{stem}.ufo" name="{stem}">')
        lines.append("      <location>")
        for ax, p in zip(fvar.axes, peak):
            lines.append(f'        <dimension name="{ax.axisTag}" xvalue="{p / 16384.0!r}"/>')
        lines += ["      </location>", "    </source>"]
    lines.append("  </sources>")
    rules, tags = rules_xml(font, fvar, approx)
    lines += rules
    if tags and tags != ["rvrn"]:
        lines += ["  <lib>", "    <dict>",
                  "      <key>com.github.fonttools.varLib.featureVarsFeatureTag</key>",
                  f"      <string>{','.join(tags)}</string>", "    </dict>", "  </lib>"]
    lines += ["</designspace>", ""]
    with open(path, "w") as fp:
        fp.write("\n".join(lines))


NUM = re.compile(r"-?\d+(?:\.\d+)?")


def otvar_outlines(path, loc):
    """gid -> (advance, path string, numbers) drawn by otvar at the user location"""
    var = ",".join(f"{t}={v!r}" for t, v in loc.items())
    r = run([OTVAR, "outline", path, "--var", var])
    if r.returncode:
        return None
    out = {}
    for ln in r.stdout.splitlines():
        parts = ln.split(" ", 2)
        gid, adv = int(parts[0]), float(parts[1])
        p = parts[2] if len(parts) > 2 else ""
        out[gid] = (adv, re.sub(NUM, "#", p), [float(x) for x in NUM.findall(p)])
    return out


def hb_outlines(pairs):
    """[(font, loc, out.json)] drawn by harfbuzzjs: [{glyphs: [{path, adv, ext}]}]"""
    if not HBJS or not os.path.isdir(HBJS) or not shutil.which("node"):
        return None
    args = []
    for font, loc, out in pairs:
        args += [font, ",".join(f"{t}={v!r}" for t, v in loc.items()), out]
    r = run(["node", SCRIPT, HBJS, "dump"] + args)
    if r.returncode:
        return None
    res = []
    for _, _, out in pairs:
        with open(out) as fp:
            res.append(json.load(fp)["glyphs"])
    return res


def hb_shape(path, loc, text):
    var = ",".join(f"{t}={v!r}" for t, v in loc.items())
    r = run(["hb-shape", "--no-glyph-names", "--output-format=json", f"--variations={var}", path,
             "--text-file=/dev/stdin"], input=text)
    if r.returncode:
        return None
    return [(g["g"], g["ax"], g["ay"], g["dx"], g["dy"]) for g in json.loads(r.stdout)]


class Diff:
    """the largest differences of one font, and the first few beyond tolerance"""

    def __init__(self):
        self.outline = 0.0
        self.hb_outline = 0.0
        self.advance = 0.0  # HarfBuzz's (integers)
        self.otvar_advance = 0.0  # otvar's, unrounded
        self.gpos = 0
        self.coords = 0  # avar 2: normalized coordinates, F2Dot14 units
        self.moved = self.unreached = 0  # avar 2: locations compared elsewhere, or not
        self.notes = []

    def note(self, msg):
        if len(self.notes) < 6:
            self.notes.append(msg)


def compare_paths(a, b, what, d, attr, adv_attr):
    """a, b: gid -> (advance, shape, numbers); the largest differences into d"""
    for gid, (adv, shape, nums) in a.items():
        if gid not in b:
            continue
        adv2, shape2, nums2 = b[gid]
        if shape != shape2 or len(nums) != len(nums2):
            setattr(d, attr, max(getattr(d, attr), 1e9))
            d.note(f"{what}: glyph {gid}: the paths differ in structure")
            continue
        m = max((abs(x - y) for x, y in zip(nums, nums2)), default=0.0)
        if m > getattr(d, attr):
            setattr(d, attr, m)
        if m > 1:
            d.note(f"{what}: glyph {gid}: a point {m:.3f} units away")
        if abs(adv - adv2) > getattr(d, adv_attr):
            setattr(d, adv_attr, abs(adv - adv2))
        if abs(adv - adv2) > (1 if adv_attr == "otvar_advance" else 0):
            d.note(f"{what}: glyph {gid}: advance {adv} vs {adv2}")


def hb_paths(glyphs):
    out = {}
    for gid, g in enumerate(glyphs):
        nums = [float(v) for c in g["path"] for v in c[1:]]
        out[gid] = (float(g["adv"]), "".join(c[0] for c in g["path"]), nums)
    return out


def compare_shaping(path, loc, out, loc_b, text, what, d):
    """hb-shape of text on path at loc and on out at loc_b: glyphs equal, the largest position
    difference into d.gpos (10**9 for other glyphs or a failed run), the first one noted"""
    if not (shutil.which("hb-shape") and text):
        return
    sa, sb = hb_shape(path, loc, text), hb_shape(out, loc_b, text)
    if sa is None or sb is None or len(sa) != len(sb):
        d.gpos = max(d.gpos, 10**9)
        d.note(f"{what}: hb-shape failed or the runs differ in length")
        return
    for i, (x, y) in enumerate(zip(sa, sb)):
        m = 10**9 if x[0] != y[0] else max(abs(u - v) for u, v in zip(x[1:], y[1:]))
        if m > d.gpos:
            d.gpos = m
        if m:
            d.note(f"{what}: HarfBuzz shaping at glyph {i}: {x} vs {y}")
            break


def worst_line(d):
    return (f"max differences: otvar outline {d.outline:.3f}, advance {d.otvar_advance:.3f}; "
            f"HarfBuzz outline {d.hb_outline:.3f}, advance {d.advance:g}, shaping {d.gpos}")


def master_peaks(regs, axes):
    """the masters' locations: every region's peak and the default, fewest non-zero axes first"""
    return sorted({tuple(p for _, p, _ in reg) for reg in regs} | {tuple(0 for _ in axes)},
                  key=lambda p: (sum(1 for v in p if v), p))


def sanitize(name, path, out, notes):
    """ots-sanitize (when installed) accepts the rebuilt font out, or refuses the original at
    path too (then a note: the copied tables)"""
    if shutil.which("ots-sanitize"):
        r = run(["ots-sanitize", out, os.devnull])
        if r.returncode:
            r0 = run(["ots-sanitize", path, os.devnull])
            if r0.returncode:  # the original is refused too: the copied tables
                notes.append("ots-sanitize refuses the original too: "
                             + (r0.stdout + r0.stderr).strip().replace("\n", " ")[:120])
            else:
                fail(f"{name}: ots-sanitize: {(r.stdout + r.stderr).strip()[:300]}")


def random_locations(fvar, nloc):
    """nloc seeded random user locations"""
    rng = random.Random(27)
    return [{a.axisTag: rng.uniform(a.minValue, a.maxValue) for a in fvar.axes}
            for _ in range(nloc)]


def pairs_text(font):
    """every pair of up to 20 of the font's characters, spread over its cmap"""
    cmap = font.getBestCmap() or {}
    chars = "".join(chr(c) for c in sorted(cmap) if c > 32 and not 0xD800 <= c < 0xE000)
    step = max(1, len(chars) // 20)
    some = chars[::step][:20]
    return "".join(a + b for a in some for b in some)


def compare_at(path, loc, out, loc_b, work, text, what, d):
    """the original at loc against the rebuilt font at loc_b: otvar's and HarfBuzz's outlines
    and advances, HarfBuzz's shaping of text; differences into d"""
    a, b = otvar_outlines(path, loc), otvar_outlines(out, loc_b)
    if a is None or b is None:
        fail(f"{what}: otvar outline failed")
        return
    compare_paths(a, b, what + " (otvar)", d, "outline", "otvar_advance")
    hb = hb_outlines([(path, loc, os.path.join(work, "a.json")),
                      (out, loc_b, os.path.join(work, "b.json"))])
    if hb is not None:
        compare_paths(hb_paths(hb[0]), hb_paths(hb[1]), what + " (HarfBuzz)", d,
                      "hb_outline", "advance")
    compare_shaping(path, loc, out, loc_b, text, what, d)


def roundtrip(tmp, path, nloc):
    name = os.path.basename(path)
    font = TTFont(path)
    if "fvar" not in font or "glyf" not in font:
        return
    fvar = font["fvar"]
    axes = [a.axisTag for a in fvar.axes]
    mappings = []
    avar2_past = None
    avar2 = "avar" in font and font.reader["avar"][1] == 2
    if avar2:
        maps, idx, store = read_avar2(font, axes)
        mappings = avar2_mappings(font, fvar, idx, store)
        # a delta that reaches past the axis's end at a peak (the font clamps the sum there,
        # not between peaks): a mapping's output is a location in the axis's range (the
        # builder clamps it, as varLib does), so the rebuilt avar 2 differs between the peaks
        past = [(a, peak, o) for peak, out in mappings for a, o in zip(axes, out)
                if abs(o) > 16384]
        if past:
            a, peak, o = past[0]
            pk = " ".join(f"{t}={p / 16384:g}" for t, p in zip(axes, peak) if p)
            avar2_past = (f"avar 2 moves {len(past)} coordinates past the axis's end at a "
                          f"region peak (e.g. {a} to {o / 16384:.4g} at {pk}), where a "
                          f"designspace mapping's output stops: the rebuilt avar 2 differs "
                          f"between the peaks")
            mappings = [(i, tuple(max(-16384, min(16384, v)) for v in o)) for i, o in mappings]
    else:
        maps = avar_maps(font, axes)
    orig = regions(font, axes)
    peaks = master_peaks(orig, axes)
    if len(peaks) > BUILDER_MAX_MASTERS:
        summary.append(f"{name}: {len(axes)} axes, {len(peaks)} masters: NOT built, a known "
                       f"limit: the builder takes at most {BUILDER_MAX_MASTERS} masters")
        return
    work = os.path.join(tmp, os.path.splitext(name)[0])
    os.makedirs(work, exist_ok=True)
    masters = []
    inconsistent = set()
    notes = []
    for i, peak in enumerate(peaks):
        loc = user_location(path, fvar, maps, peak, 40 if avar2 else 4)
        if loc is None and avar2:  # avar 2 may map no user location to a master's peak
            pk = " ".join(f"{t}={p / 16384:g}" for t, p in zip(axes, peak) if p)
            summary.append(f"{name}: {len(axes)} axes, {len(peaks)} masters: NOT built: no user "
                           f"location normalizes to the peak ({pk}) of a region the font varies "
                           f"by (avar 2 moves every location there elsewhere), so no instance "
                           f"is that master")
            return
        if loc is None:
            fail(f"{name}: no user location normalizes to the peak {peak}")
            return
        stem = f"m{i}"
        var = ",".join(f"{t}={v!r}" for t, v in loc.items())
        r = run([OTVAR, "instance", path, "--var", var, "-o", os.path.join(work, stem + ".ttf"),
                 "--force", "-q"])
        if r.returncode:
            fail(f"{name}: otvar instance at {var}: {r.stderr.strip()}")
            return
        masters.append((stem, peak))
        # the instance's advances against the original's at the peak (HVAR when the font has
        # one): where they differ, the font's HVAR and gvar phantom points disagree and the
        # instancer (like fontTools') takes gvar's
        ma = run([OTVAR, "metrics", path, "--var", var]).stdout.split("\n")
        mb = run([OTVAR, "metrics", os.path.join(work, stem + ".ttf")]).stdout.split("\n")
        for la, lb in zip(ma, mb):
            xa, xb = la.split(), lb.split()
            if len(xa) > 1 and len(xb) > 1 and abs(float(xa[1]) - float(xb[1])) > 0.5:
                inconsistent.add(int(xa[0]))
    ds = os.path.join(work, "rt.designspace")
    approx = []
    write_designspace(ds, font, fvar, maps, masters, approx, mappings)
    out = os.path.join(work, "rt.ttf")
    r = run([OTVAR, "build", ds, "-o", out, "-q", "--force"])
    if r.returncode:
        why = KNOWN.get(name)
        if why and why[0] in r.stderr:
            summary.append(f"{name}: {len(axes)} axes, {len(peaks)} masters: NOT built, a known "
                           f"limit: {why[1]} ({r.stderr.strip()[-120:]})")
        else:
            fail(f"{name}: otvar build: {r.stderr.strip()}")
        return
    sanitize(name, path, out, notes)
    new = TTFont(out)
    got = regions(new, axes)
    exact = got == orig
    d = Diff()
    locs = random_locations(fvar, nloc)
    text = pairs_text(font)
    for k, loc in enumerate(locs):
        what = f"{name} at {', '.join(f'{t}={v:.6g}' for t, v in loc.items())}"
        if avar2:  # the rebuilt avar 2 against the original's: the normalized coordinates
            na, nb = normalize(path, loc), normalize(out, loc)
            if na is None or nb is None:
                fail(f"{what}: otvar normalize failed")
            elif na != nb and not avar2_past:
                fail(f"{what}: normalized coordinates {na} vs the rebuilt font's {nb}")
            elif na != nb:
                d.coords = max(d.coords, max(abs(na[t] - nb[t]) for t in na))
        # the rebuilt font where its normalized coordinates are the original's (they differ
        # only for avar2_past): what else the round trip keeps, compared as for other fonts
        loc_b = loc
        if avar2 and avar2_past and na and nb and na != nb:
            loc_b = user_location(out, fvar, maps, tuple(na[t] for t in axes), 40)
            if loc_b is None:
                d.unreached += 1
                continue
            d.moved += 1
        compare_at(path, loc, out, loc_b, work, text, what, d)
    worst = worst_line(d)
    av2 = f"avar 2 with {len(mappings)} mappings, " if avar2 else ""
    line = (f"{name}: {len(axes)} axes, {len(peaks)} masters, {av2}regions {len(orig)} -> "
            f"{len(got)}, {os.path.getsize(path)} -> {os.path.getsize(out)} bytes; ")
    if avar2_past:
        approx.append(avar2_past + f" (normalized coordinates up to {d.coords} F2Dot14 units "
                      f"apart at the random locations; the rebuilt font compared at the user "
                      f"location with the original's normalized coordinates at {d.moved}, none "
                      f"found at {d.unreached})")
    if approx:
        exact = False
        notes += approx
    if inconsistent:
        exact = False
        notes.append(f"HVAR and gvar disagree on the advances of {len(inconsistent)} glyphs "
                     f"(e.g. {sorted(inconsistent)[:4]}): the instances take gvar's")
    verdict(line, exact, d, notes, worst, orig, got, summary, fail)


def verdict(line, exact, d, notes, worst, orig, got, summary, fail):
    """One font's line of the report: exact (every comparison within tolerance, else each
    difference a failure) when the rebuilt regions are the original's, else approximate,
    naming the regions the model did not rebuild or added."""
    if exact:
        ok = (d.outline <= 1 and d.hb_outline <= 1 and d.otvar_advance <= 1 and d.advance == 0
              and d.gpos == 0)
        summary.append(line + ("exact" if ok else "regions equal but NOT within tolerance")
                       + "".join("; " + n for n in notes) + f" ({worst})")
        if not ok:
            for n in d.notes:
                fail(n)
    else:
        missing = sorted(orig - got)
        extra = sorted(got - orig)
        fmt = lambda reg: "(" + " ".join(f"{s / 16384:g}:{p / 16384:g}:{e / 16384:g}"
                                         for s, p, e in reg) + ")"
        if missing or extra:
            eg = lambda rs: (", e.g. " + ", ".join(fmt(r) for r in rs[:2])) if rs else ""
            notes.append(f"the model's regions are not the font's: {len(missing)} of the "
                         f"original's not rebuilt{eg(missing)}; {len(extra)} new{eg(extra)}")
        summary.append(line + "approximate: " + "; ".join(notes) + f" ({worst})")


def run_all(title, test_fonts, real_fonts, roundtrip, summary, failures, nloc):
    """Round-trip the test fonts and the cached real ones (those marked for the default
    run, or all with OTV_ROUNDTRIP_FULL=1) and print the report under title."""
    if not OTVAR:
        print("SKIP: no otvar")
        return 77
    fonts = [os.path.join(FONTS, f) for f in test_fonts]
    for f, default in real_fonts:
        p = os.path.join(CACHE, f) if CACHE else ""
        if p and os.path.exists(p) and (default or FULL):
            fonts.append(p)
    with tempfile.TemporaryDirectory() as tmp:
        for p in fonts:
            if os.path.exists(p):
                roundtrip(tmp, p, nloc)
    print(title + ":")
    for s in summary:
        print("  " + s)
    if failures:
        print(f"{len(failures)} failures")
        return 1
    print("ok")
    return 0


def main():
    return run_all("round trip (instance at every region peak, build, compare)",
                   TEST_FONTS, REAL_FONTS, roundtrip, summary, failures, NLOC)


if __name__ == "__main__":
    sys.exit(main())
