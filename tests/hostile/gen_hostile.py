#!/usr/bin/python3
"""gen_hostile.py - writes the hostile-font corpus that tests/unit/test_hostile.c replays.

Usage: /usr/bin/python3 tests/hostile/gen_hostile.py OUTDIR [--count] [--only PREFIX]
(--only writes the cases whose names start with PREFIX, e.g. "lay_" for the layout family that
tests/cli/test_hostile_layout.sh runs through the CLI.)

Every case is a file OUTDIR/<name>.bin plus one line of OUTDIR/MANIFEST:

    name <TAB> class <TAB> detail <TAB> description

class (what test_hostile.c checks, besides "no crash, no hang, no leak, no out-of-bounds read",
which ASan/UBSan, the counting allocator and a pen-call budget check for every case):
  valid   a well-formed font: opens, and every call returns OK (or NOT_FOUND for an absent
          name/metric, or UNSUPPORTED while a module is still a placeholder).
  reject  open must fail; detail = the table the error must name ("-" = the file, tag 0), with an
          optional "@CODE" the status must equal (e.g. "fvar@LIMIT").
  blame   anything may succeed, but every error (at open or later) must name one of the tables in
          detail ("glyf|loca|gvar"; "*" = any table). UNSUPPORTED/NOT_FOUND are always allowed.
  same    open must succeed and every answer must equal the one for the case named in detail
          (the bytes otvar does not read were changed, or tables were legally shared).
  accept  open must succeed; detail lists extra checks "norm=AXIS:USER:F2DOT14" (the spec's
          fallback applied: user value USER on axis AXIS normalizes to F2DOT14), separated by ",".

Fonts come from two sources: small fonts built here byte by byte (so broken structure can be
written exactly: composite cycles, CFF2 subroutine recursion, gvar point numbers...) and the test
fonts in tests/fonts/ with bytes patched in place (truncations at every table boundary, bad
offsets, counts of 0 and 0xFFFF, overlapping tables).

The layout family (lay_*: GSUB, GPOS, GDEF, BASE) puts tables assembled here with labels (so any
field of any sub-table can be found and broken) into Roboto-Variable.ABC.ttf: a valid rich set
(every lookup type and format, FeatureVariations, a GDEF and a BASE store with VariationIndex
devices), then offsets that meet themselves (offset 0 taken as 'here', 32-bit offsets that wrap,
FeatureVariations laid out before the FeatureList), the same bytes reached as different types
(Coverage = ClassDef = Anchor = Device, a PairSet that is a Lookup, GDEF and GPOS sharing bytes),
counts of 0xFFFF whose arrays pass the end, fan-outs (thousands of offsets to one large sub-table,
overlapping structures 2-6 bytes apart each claiming 60 KB; each at two sizes n and 4n), deep or
out-of-range structure (Extension chains, lookup indices, ValueFormat reserved bits, DeltaFormat,
VariationIndex outer/inner, FeatureParams, unknown conditions) and BASE stores.
"""
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FONTS = os.path.join(ROOT, "tests", "fonts")

CASES = []  # (name, class, detail, description, bytes)


def case(name, cls, detail, desc, data):
    assert all(c.isalnum() or c in "_-." for c in name), name
    assert name not in {c[0] for c in CASES}, name
    CASES.append((name, cls, detail, desc, bytes(data)))


# --------------------------------------------------------------------------------------------
# sfnt writing and reading
# --------------------------------------------------------------------------------------------

def u8(v): return struct.pack(">B", v & 0xFF)
def u16(v): return struct.pack(">H", v & 0xFFFF)
def i16(v): return struct.pack(">h", v)
def u32(v): return struct.pack(">I", v & 0xFFFFFFFF)
def i32(v): return struct.pack(">i", v)
def fixed(v): return struct.pack(">i", int(round(v * 65536)))
def f2d14(v): return struct.pack(">h", int(round(v * 16384)))
def tag(s): return s.encode("latin-1")


def checksum(b):
    b = b + b"\0" * (-len(b) % 4)
    return sum(struct.unpack(">%dI" % (len(b) // 4), b)) & 0xFFFFFFFF


def sfnt(tables, version=0x00010000):
    """tables: dict tag -> bytes. Directory sorted by tag, tables 4-aligned."""
    tags = sorted(tables)
    n = len(tags)
    es = max(0, n.bit_length() - 1)
    hdr = u32(version) + u16(n) + u16(16 << es) + u16(es) + u16(n * 16 - (16 << es))
    off = 12 + 16 * n
    recs, body = b"", b""
    for t in tags:
        d = tables[t]
        recs += tag(t) + u32(checksum(d)) + u32(off + len(body)) + u32(len(d))
        body += d + b"\0" * (-len(d) % 4)
    return hdr + recs + body


def directory(data):
    """[(tag, record_pos, offset, length)] of a plain sfnt."""
    n = struct.unpack_from(">H", data, 4)[0]
    out = []
    for i in range(n):
        p = 12 + 16 * i
        t, _, o, l = struct.unpack_from(">4sIII", data, p)
        out.append((t.decode("latin-1"), p, o, l))
    return out


def table_of(data, t):
    for tg, p, o, l in directory(data):
        if tg == t:
            return p, o, l
    raise KeyError(t)


def patch(data, pos, b):
    d = bytearray(data)
    d[pos:pos + len(b)] = b
    return bytes(d)


def set_record(data, t, off=None, length=None):
    p, o, l = table_of(data, t)
    if off is not None:
        data = patch(data, p + 8, u32(off))
    if length is not None:
        data = patch(data, p + 12, u32(length))
    return data


def patch_table(data, t, rel, b):
    """Overwrite bytes at offset rel inside table t (must fit inside the table)."""
    _, o, l = table_of(data, t)
    assert rel + len(b) <= l, (t, rel, l)
    return patch(data, o + rel, b)


def replace_table(data, t, new):
    """Append new bytes at the end of the file and point table t at them."""
    pad = b"\0" * (-len(data) % 4)
    off = len(data) + len(pad)
    return set_record(data + pad + new, t, off=off, length=len(new))


def read_font(name):
    with open(os.path.join(FONTS, name), "rb") as f:
        return f.read()


# --------------------------------------------------------------------------------------------
# a small variable TrueType font, built from parts so that any part can be made hostile
# --------------------------------------------------------------------------------------------

def glyf_simple(contours, instructions=b""):
    """contours: [[(x, y, on), ...], ...]. Flags without repeats, 16-bit coordinates."""
    pts = [p for c in contours for p in c]
    xs = [p[0] for p in pts] or [0]
    ys = [p[1] for p in pts] or [0]
    out = i16(len(contours)) + i16(min(xs)) + i16(min(ys)) + i16(max(xs)) + i16(max(ys))
    end = -1
    for c in contours:
        end += len(c)
        out += u16(end)
    out += u16(len(instructions)) + instructions
    out += bytes(1 if p[2] else 0 for p in pts)
    px = py = 0
    xb = yb = b""
    for x, y, _ in pts:
        xb += i16(x - px)
        yb += i16(y - py)
        px, py = x, y
    return out + xb + yb


def glyf_composite(components, bbox=(0, 0, 1000, 1000)):
    """components: [(gid, dx, dy)] with 16-bit XY offsets."""
    out = i16(-1) + b"".join(i16(v) for v in bbox)
    for i, (gid, dx, dy) in enumerate(components):
        flags = 0x0001 | 0x0002  # ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES
        if i + 1 < len(components):
            flags |= 0x0020  # MORE_COMPONENTS
        out += u16(flags) + u16(gid) + i16(dx) + i16(dy)
    return out


SQUARE = [[(100, 0, 1), (100, 700, 1), (500, 700, 1), (500, 0, 1)]]
TRI_SQUARE = [[(50, 0, 1), (300, 600, 0), (550, 0, 1)],
              [(200, 100, 1), (200, 300, 1), (400, 300, 1), (400, 100, 1)]]


def packed_points(points):
    """spec gvar 'Packed point numbers'. None = all points (count byte 0)."""
    if points is None:
        return b"\0"
    n = len(points)
    out = u8(n) if n < 128 else u8(0x80 | (n >> 8)) + u8(n & 0xFF)
    prev, i = 0, 0
    while i < n:
        run = points[i:i + 128]
        words = any(p - q > 255 for p, q in zip(run, [prev] + run[:-1]))
        out += u8((0x80 if words else 0) | (len(run) - 1))
        for p in run:
            out += u16(p - prev) if words else u8(p - prev)
            prev = p
        i += len(run)
    return out


def packed_deltas(ds):
    """spec gvar 'Packed deltas': runs of 16-bit deltas (64 per run)."""
    out = b""
    for i in range(0, len(ds), 64):
        run = ds[i:i + 64]
        out += u8(0x40 | (len(run) - 1)) + b"".join(i16(d) for d in run)
    return out


def gvar_glyph(tuples, shared_points=None, axis_count=1):
    """tuples: [dict(peak=[..] or shared=i, start=, end=, points=None|[...], dx=[], dy=[])]."""
    hdrs, data = b"", b""
    if shared_points is not None:
        data += packed_points(shared_points)
    for t in tuples:
        idx = 0
        extra = b""
        if "shared" in t:
            idx = t["shared"]
        else:
            idx |= 0x8000
            extra += b"".join(f2d14(v) for v in t["peak"])
        if "start" in t:
            idx |= 0x4000
            extra += b"".join(f2d14(v) for v in t["start"]) + b"".join(f2d14(v) for v in t["end"])
        body = b""
        if "points" not in t and "points_raw" not in t and shared_points is None and not t.get("no_points"):
            t = dict(t, points=None)  # explicit "all points" (count byte 0), as compilers write it
        if "points" in t or "points_raw" in t:
            idx |= 0x2000
            body += t["points_raw"] if "points_raw" in t else packed_points(t["points"])
        body += packed_deltas(t["dx"]) + packed_deltas(t["dy"])
        hdrs += u16(t.get("size", len(body))) + u16(idx) + extra
        data += body
    count = len(tuples) | (0x8000 if shared_points is not None else 0)
    return u16(count) + u16(4 + len(hdrs)) + hdrs + data


def gvar_table(glyph_data, axis_count=1, shared_tuples=()):
    n = len(glyph_data)
    shared = b"".join(b"".join(f2d14(v) for v in t) for t in shared_tuples)
    shared_off = 20 + 4 * (n + 1)
    data_off = shared_off + len(shared)
    offs, blob = [], b""
    for g in glyph_data:
        offs.append(len(blob))
        blob += g + b"\0" * (len(g) % 2)
    offs.append(len(blob))
    hdr = (u16(1) + u16(0) + u16(axis_count) + u16(len(shared_tuples)) + u32(shared_off) +
           u16(n) + u16(1) + u32(data_off))
    return hdr + b"".join(u32(o) for o in offs) + shared + blob


def fvar_table(axes, instances):
    """axes: [(tag, min, def, max)]; instances: [(nameid, [coords])]."""
    n = len(axes)
    out = u16(1) + u16(0) + u16(16) + u16(2) + u16(n) + u16(20) + u16(len(instances)) + u16(4 + 4 * n)
    for i, (t, lo, de, hi) in enumerate(axes):
        out += tag(t) + fixed(lo) + fixed(de) + fixed(hi) + u16(0) + u16(256 + i)
    for nid, coords in instances:
        out += u16(nid) + u16(0) + b"".join(fixed(c) for c in coords)
    return out


def avar_table(maps):
    out = u16(1) + u16(0) + u16(0) + u16(len(maps))
    for m in maps:
        out += u16(len(m)) + b"".join(f2d14(a) + f2d14(b) for a, b in m)
    return out


def name_table(names):
    """names: {nameID: str}, Windows Unicode English."""
    recs, strs = b"", b""
    for nid in sorted(names):
        s = names[nid].encode("utf-16-be")
        recs += u16(3) + u16(1) + u16(0x409) + u16(nid) + u16(len(s)) + u16(len(strs))
        strs += s
    return u16(0) + u16(len(names)) + u16(6 + len(recs)) + recs + strs


def cmap_table(first_cp, count):
    """format 4 mapping first_cp.. to glyphs 1..count."""
    segs = [(first_cp, first_cp + count - 1, (1 - first_cp) & 0xFFFF), (0xFFFF, 0xFFFF, 1)]
    n = len(segs)
    sub = (u16(4) + u16(16 + 8 * n) + u16(0) + u16(2 * n) + u16(4) + u16(1) + u16(0) +
           b"".join(u16(e) for _, e, _ in segs) + u16(0) + b"".join(u16(s) for s, _, _ in segs) +
           b"".join(u16(d) for _, _, d in segs) + b"".join(u16(0) for _ in segs))
    return u16(0) + u16(1) + u16(3) + u16(1) + u32(12) + sub


def ivs_table(axis_count, regions, datas):
    """regions: [[(start, peak, end) per axis]]; datas: [(region_indexes, rows)] 16-bit deltas."""
    rl = u16(axis_count) + u16(len(regions))
    for r in regions:
        rl += b"".join(f2d14(s) + f2d14(p) + f2d14(e) for s, p, e in r)
    hdr_len = 8 + 4 * len(datas)
    blobs, offs = b"", []
    for ri, rows in datas:
        offs.append(hdr_len + len(rl) + len(blobs))
        d = u16(len(rows)) + u16(len(ri)) + u16(len(ri)) + b"".join(u16(i) for i in ri)
        for row in rows:
            d += b"".join(i16(v) for v in row)
        blobs += d
    return u16(1) + u32(hdr_len) + u16(len(datas)) + b"".join(u32(o) for o in offs) + rl + blobs


def hvar_table(ivs):
    return u16(1) + u16(0) + u32(20) + u32(0) + u32(0) + u32(0) + ivs


def mvar_table(ivs, records):
    """records: [(tag, outer, inner)], sorted by tag."""
    n = len(records)
    out = u16(1) + u16(0) + u16(0) + u16(8) + u16(n) + u16(12 + 8 * n)
    for t, o, i in sorted(records):
        out += tag(t) + u16(o) + u16(i)
    return out + ivs


def head_table(upem=1000, loc_format=1, bbox=(0, 0, 1000, 1000)):
    return (u32(0x00010000) + u32(0x00010000) + u32(0) + u32(0x5F0F3CF5) + u16(0) + u16(upem) +
            b"\0" * 16 + b"".join(i16(v) for v in bbox) + u16(0) + u16(8) + i16(2) +
            i16(loc_format) + i16(0))


def hhea_table(nhm):
    return u32(0x00010000) + i16(800) + i16(-200) + i16(0) + u16(1000) + b"\0" * 22 + u16(nhm)


def maxp_table(n, v05=False):
    if v05:
        return u32(0x00005000) + u16(n)
    return u32(0x00010000) + u16(n) + u16(200) + u16(20) + u16(400) + u16(40) + u16(2) + b"\0" * 12 + u16(16) + u16(16)


def os2_table():
    # version 4, 96 bytes: xAvgCharWidth ... sxHeight at 86, sCapHeight at 88
    d = bytearray(96)
    d[0:2] = u16(4)
    d[86:88] = i16(500)
    d[88:90] = i16(700)
    return bytes(d)


def post_table():
    return u32(0x00030000) + u32(0) + i16(-100) + i16(50) + b"\0" * 20


AXES1 = [("wght", 100, 400, 900)]
NAMES = {1: "Hostile", 2: "Regular", 4: "Hostile Regular", 6: "Hostile-Regular",
         256: "Weight", 257: "Bold", 258: "Thin"}


def ttf_font(glyphs, gvar=None, extra=None, drop=(), advances=None, axes=AXES1, hvar=True,
             avar=None, loc_format=1):
    """glyphs: list of glyf bytes (b"" = empty glyph). gvar: list of GlyphVariationData bytes
    (one per glyph) or a whole table (bytes). Returns the font bytes."""
    n = len(glyphs)
    blob, loca = b"", []
    for g in glyphs:
        loca.append(len(blob))
        blob += g + b"\0" * (-len(g) % 4)
    loca.append(len(blob))
    if loc_format == 1:
        loca_b = b"".join(u32(o) for o in loca)
    else:
        loca_b = b"".join(u16(o // 2) for o in loca)
    adv = advances or [600] * n
    # left side bearing = xMin of the glyph, as a compiler writes it
    lsb = [struct.unpack_from(">h", g, 2)[0] if len(g) >= 10 else 0 for g in glyphs]
    t = {
        "head": head_table(loc_format=loc_format), "hhea": hhea_table(n), "maxp": maxp_table(n),
        "hmtx": b"".join(u16(a) + i16(b) for a, b in zip(adv, lsb)), "loca": loca_b, "glyf": blob,
        "name": name_table(NAMES), "cmap": cmap_table(0x41, n - 1), "post": post_table(),
        "OS/2": os2_table(),
    }
    if axes:
        t["fvar"] = fvar_table(axes, [(257, [900] * len(axes)), (258, [100] * len(axes))])
        if gvar is not None:
            t["gvar"] = gvar if isinstance(gvar, bytes) else gvar_table(gvar, len(axes))
        if hvar:
            ivs = ivs_table(len(axes), [[(0, 1, 1)] * len(axes)], [([0], [[10 * (i % 7)] for i in range(n)])])
            t["HVAR"] = hvar_table(ivs)
            mivs = ivs_table(len(axes), [[(0, 1, 1)] * len(axes)], [([0], [[20], [-30]])])
            t["MVAR"] = mvar_table(mivs, [("xhgt", 0, 0), ("cpht", 0, 1)])
        if avar is not None:
            t["avar"] = avar
    if extra:
        t.update(extra)
    for d in drop:
        t.pop(d, None)
    return sfnt(t)


def base_glyphs():
    return [b"", glyf_simple(SQUARE), glyf_simple(TRI_SQUARE), glyf_composite([(1, 0, 0), (2, 600, 0)])]


def base_gvar():
    a = gvar_glyph([dict(peak=[1.0], dx=[10, 10, 20, 20, 0, 30, 0, 0], dy=[0, 5, 5, 0, 0, 0, 0, 0]),
                    dict(peak=[-1.0], dx=[-10] * 8, dy=[-5] * 8)])
    b = gvar_glyph([dict(peak=[1.0], points=[0, 3, 5], dx=[10, 20, 30], dy=[1, 2, 3]),
                    dict(peak=[0.5], start=[0.0], end=[1.0], dx=[1] * 11, dy=[2] * 11)])
    c = gvar_glyph([dict(peak=[1.0], dx=[5, 7, 0, 40, 0, 0], dy=[0, 3, 0, 0, 0, 0])])
    return [b"", a, b, c]


GOOD_AVAR = avar_table([[(-1, -1), (0, 0), (0.5, 0.25), (1, 1)]])


def base_ttf(**kw):
    kw.setdefault("gvar", base_gvar())
    kw.setdefault("avar", GOOD_AVAR)
    return ttf_font(kw.pop("glyphs", base_glyphs()), **kw)


# --------------------------------------------------------------------------------------------
# a small CFF2 variable font
# --------------------------------------------------------------------------------------------

def cs_num(v):
    """Type 2 charstring number."""
    if -107 <= v <= 107:
        return u8(v + 139)
    if 108 <= v <= 1131:
        v -= 108
        return u8(247 + (v >> 8)) + u8(v & 0xFF)
    if -1131 <= v <= -108:
        v = -v - 108
        return u8(251 + (v >> 8)) + u8(v & 0xFF)
    return u8(28) + i16(v)


def cs(*items):
    """items: ints are numbers, strings are operators."""
    ops = {"rmoveto": [21], "rlineto": [5], "callsubr": [10], "callgsubr": [29], "vsindex": [15],
           "blend": [16], "hstem": [1], "vstem": [3], "hintmask": [19], "endchar": [14],
           "return": [11], "hlineto": [6], "vlineto": [7], "rrcurveto": [8]}
    out = b""
    for it in items:
        out += cs_num(it) if isinstance(it, int) else bytes(ops[it])
    return out


def cff2_index(items, off_size=None):
    if not items:
        return u32(0)
    offs = [1]
    for it in items:
        offs.append(offs[-1] + len(it))
    osz = off_size or (1 if offs[-1] < 0x100 else 2 if offs[-1] < 0x10000 else 3 if offs[-1] < 0x1000000 else 4)
    return u32(len(items)) + u8(osz) + b"".join(o.to_bytes(osz, "big") for o in offs) + b"".join(items)


def bias(n):
    return 107 if n < 1240 else 1131 if n < 33900 else 32768


def dict_int(v):
    return u8(29) + i32(v)


def cff2_table(charstrings, gsubrs=(), lsubrs=None, vstore=None, top_extra=b""):
    """Layout: header | TopDICT | GlobalSubrs | VariationStore | CharStrings | FDArray |
    Private | local Subrs. Every DICT offset is a 5-byte integer so sizes are known ahead."""
    top_len = 6 + 7 + (6 if vstore is not None else 0) + len(top_extra)
    off = 5 + top_len
    g = cff2_index(list(gsubrs))
    off_g = off
    off += len(g)
    vs = b""
    off_vs = 0
    if vstore is not None:
        vs = u16(len(vstore)) + vstore
        off_vs = off
        off += len(vs)
    c = cff2_index(list(charstrings))
    off_cs = off
    off += len(c)
    priv_len = 6 if lsubrs is not None else 0
    fd = dict_int(priv_len) + dict_int(0) + u8(18)  # placeholder, fixed below
    fda = cff2_index([fd])
    off_fda = off
    off += len(fda)
    off_priv = off
    fd = dict_int(priv_len) + dict_int(off_priv) + u8(18)
    fda = cff2_index([fd])
    priv = (dict_int(priv_len) + u8(19)) if lsubrs is not None else b""
    ls = cff2_index(list(lsubrs)) if lsubrs is not None else b""
    top = dict_int(off_cs) + u8(17) + dict_int(off_fda) + u8(12) + u8(36)
    if vstore is not None:
        top += dict_int(off_vs) + u8(24)
    top += top_extra
    assert len(top) == top_len
    del off_g
    return u8(2) + u8(0) + u8(5) + u16(top_len) + top + g + vs + c + fda + priv + ls


def cff2_font(charstrings, gsubrs=(), lsubrs=None, vstore="default", axes=AXES1, top_extra=b""):
    n = len(charstrings)
    if vstore == "default":
        vstore = ivs_table(len(axes), [[(0, 1, 1)] * len(axes)], [([0], [])])
    t = {
        "head": head_table(), "hhea": hhea_table(n), "maxp": maxp_table(n, v05=True),
        "hmtx": b"".join(u16(600) + i16(0) for _ in range(n)), "name": name_table(NAMES),
        "cmap": cmap_table(0x41, n - 1), "post": post_table(), "OS/2": os2_table(),
        "CFF2": cff2_table(charstrings, gsubrs, lsubrs, vstore, top_extra),
    }
    if axes:
        t["fvar"] = fvar_table(axes, [(257, [900] * len(axes)), (258, [100] * len(axes))])
    return sfnt(t, version=0x4F54544F)


# a box drawn with one blend per coordinate: 'x dx 1 blend' = x + dx * scalar
def box_cs():
    return cs(100, 0, "rmoveto", 400, 50, 1, "blend", 0, "rlineto", 0, 700, "rlineto",
              -400, -50, 1, "blend", 0, "rlineto")


def base_cff2_glyphs():
    # callsubr/callgsubr operands are index - bias (107 for fewer than 1240 subroutines)
    return [b"", box_cs(), cs(50, 50, "rmoveto", -107, "callsubr", -107, "callgsubr")]


def base_cff2(**kw):
    kw.setdefault("gsubrs", [cs(0, 300, "rlineto", 300, 0, "rlineto")] * 1)
    kw.setdefault("lsubrs", [cs(200, 0, "rlineto")] * 1)
    cs_list = kw.pop("charstrings", None) or base_cff2_glyphs()
    return cff2_font(cs_list, **kw)


# --------------------------------------------------------------------------------------------
# the cases
# --------------------------------------------------------------------------------------------

# Which tables an error may name when table T is damaged (structures that otvar cross-checks).
GROUPS = {
    "glyf": "glyf|loca|gvar", "loca": "loca|glyf|head|gvar", "head": "head|loca|glyf|gvar",
    "hhea": "hhea|hmtx|HVAR", "hmtx": "hmtx|hhea|HVAR", "vhea": "vhea|vmtx|VVAR",
    "vmtx": "vmtx|vhea|VVAR", "avar": "avar|fvar", "gvar": "gvar|glyf", "CFF2": "CFF2",
    "CFF ": "CFF ", "HVAR": "HVAR|hmtx", "VVAR": "VVAR|vmtx|VORG", "MVAR": "MVAR|OS/2|hhea|post|vhea",
    "name": "name", "STAT": "STAT", "cmap": "cmap", "OS/2": "OS/2|MVAR", "post": "post|MVAR",
    "VORG": "VORG|VVAR", "cvar": "cvar",
    "fvar": "*", "maxp": "*",
    # read by the instancer (GDEF variation store, FeatureVariations dropped)
    "GDEF": "GDEF|GSUB|GPOS", "GSUB": "GSUB|GDEF|GPOS", "GPOS": "GPOS|GDEF|GSUB",
    # instanced through the layout writer (its ItemVariationStore and devices)
    "BASE": "BASE",
}
PARSED = set(GROUPS)


def blame_for(t):
    return GROUPS.get(t, "")


def sweep_font(label, data):
    """Truncations at every table boundary, length and offset sweeps for every table."""
    dirs = directory(data)
    # (1) the file cut at the start and at the end of every table
    bounds = sorted({o for _, _, o, _ in dirs} | {o + l for _, _, o, l in dirs})
    table_end = max(o + l for _, _, o, l in dirs)
    for b in bounds:
        if b >= len(data):
            continue
        cut = data[:b]
        if b >= table_end:
            case("%s_cut%d" % (label, b), "same", label + "_orig", "file cut after the last table", cut)
        else:
            case("%s_cut%d" % (label, b), "reject", "-", "file cut at table boundary %d" % b, cut)
    for cut in (0, 1, 4, 11, 12, 12 + 16 * len(dirs) - 1):
        case("%s_head%d" % (label, cut), "reject", "-", "file cut inside the directory", data[:cut])
    # (2) every table: length 0, 1, half, len-1; offset into the directory, the file end,
    #     past the end, and an offset+length that overflows 32 bits.
    for t, p, o, l in dirs:
        tl = t.replace("/", "_").replace(" ", "_")
        blame = blame_for(t)
        cls = "blame" if t in PARSED else "same"
        det = blame if t in PARSED else label + "_orig"
        for nl in sorted({0, 1, l // 2, max(l - 1, 0)}):
            if nl >= l:
                continue
            case("%s_%s_len%d" % (label, tl, nl), cls, det, "%s truncated to %d bytes" % (t, nl),
                 patch(data, p + 12, u32(nl)))
        case("%s_%s_at0" % (label, tl), "blame" if t in PARSED else "same",
             "*" if t in PARSED else label + "_orig", "%s points at the sfnt header" % t,
             patch(data, p + 8, u32(0)))
        case("%s_%s_atdir" % (label, tl), "blame" if t in PARSED else "same",
             "*" if t in PARSED else label + "_orig", "%s overlaps the table directory" % t,
             patch(data, p + 8, u32(12)))
        case("%s_%s_ateof" % (label, tl), cls, det, "%s empty at the end of the file" % t,
             patch(patch(data, p + 8, u32(len(data))), p + 12, u32(0)))
        case("%s_%s_pasteof" % (label, tl), "reject", "-", "%s starts past the end" % t,
             patch(data, p + 8, u32(len(data) + 1)))
        case("%s_%s_lenFFFF" % (label, tl), "reject", "-", "%s length 0xFFFFFFFF" % t,
             patch(data, p + 12, u32(0xFFFFFFFF)))
        case("%s_%s_wrap" % (label, tl), "reject", "-", "%s offset+length wraps 32 bits" % t,
             patch(patch(data, p + 8, u32(0xFFFFFF00)), p + 12, u32(0x200)))
    # (3) overlapping tables: an unparsed table shares the bytes of a parsed one (legal); two
    #     parsed tables overlap each other (garbage, but no crash)
    parsed = [d for d in dirs if d[0] in PARSED]
    unparsed = [d for d in dirs if d[0] not in PARSED]
    if unparsed and parsed:
        t, p, o, l = unparsed[0]
        _, _, o2, l2 = parsed[-1]
        case("%s_overlap_share" % label, "same", label + "_orig",
             "%s shares the bytes of %s" % (t, parsed[-1][0]), patch(patch(data, p + 8, u32(o2)), p + 12, u32(l2)))
    for i in range(len(parsed) - 1):
        t, p, o, l = parsed[i]
        t2, _, o2, l2 = parsed[i + 1]
        case("%s_overlap_%d" % (label, i), "blame", "*", "%s overlaps %s" % (t, t2),
             patch(data, p + 8, u32(o2 + l2 // 3)) if o2 + l2 // 3 + l <= len(data) else patch(data, p + 8, u32(o2)))
    case("%s_overlap_all" % label, "blame", "*", "every table covers the whole file",
         b"".join([data[:12]] + [tag(t) + u32(0) + u32(0) + u32(len(data)) for t, _, _, _ in dirs]) + data[12 + 16 * len(dirs):])
    # (4) numTables 0 and 0xFFFF
    case("%s_numtables0" % label, "reject", "maxp", "numTables 0", patch(data, 4, u16(0)))
    case("%s_numtablesFFFF" % label, "reject", "-", "numTables 0xFFFF", patch(data, 4, u16(0xFFFF)))


def sfnt_cases():
    d = base_ttf()
    case("ttc_numfonts_huge", "reject", "-", "TTC with numFonts 0xFFFFFFFF",
         tag("ttcf") + u16(1) + u16(0) + u32(0xFFFFFFFF) + u32(16) + d)
    case("ttc_offset_self", "reject", "-", "TTC face offset pointing at the TTC header",
         tag("ttcf") + u16(1) + u16(0) + u32(1) + u32(0) + d)
    case("ttc_offset_eof", "reject", "-", "TTC face offset past the end",
         tag("ttcf") + u16(1) + u16(0) + u32(1) + u32(0xFFFFFFF0) + d)
    case("ttc_version9", "reject", "-", "TTC major version 9",
         tag("ttcf") + u16(9) + u16(0) + u32(1) + u32(16) + d)
    case("ttc_ok", "same", "syn_ttf", "TTC wrapping the synthetic font (offsets rebased)",
         tag("ttcf") + u16(1) + u16(0) + u32(1) + u32(16) + rebase(d, 16))
    case("woff_magic", "reject", "-@UNSUPPORTED", "WOFF signature", tag("wOFF") + d[4:])
    case("woff2_magic", "reject", "-@UNSUPPORTED", "WOFF2 signature", tag("wOF2") + d[4:])
    case("bad_magic", "reject", "-", "unknown sfnt version", u32(0x12345678) + d[4:])
    case("empty_file", "reject", "-", "0 bytes", b"")
    case("dup_table", "reject", "-", "the same tag twice",
         patch(d, 12 + 16, d[12:16]))
    case("bad_tag", "reject", "-", "tag with a control character", patch(d, 12, b"\x01\x02\x03\x04"))
    _, o, l = table_of(d, "head")
    case("head_magic", "reject", "head", "head magicNumber wrong", patch_table(d, "head", 12, u32(0xDEADBEEF)))
    case("head_upem0", "reject", "head", "unitsPerEm 0", patch_table(d, "head", 18, u16(0)))
    case("head_upemFFFF", "reject", "head", "unitsPerEm 0xFFFF", patch_table(d, "head", 18, u16(0xFFFF)))
    case("head_locfmt5", "blame", "head|loca|glyf|gvar", "indexToLocFormat 5", patch_table(d, "head", 50, i16(5)))
    case("head_locfmt_short", "blame", "head|loca|glyf|gvar", "indexToLocFormat 0 over a long loca",
         patch_table(d, "head", 50, i16(0)))
    case("no_maxp", "reject", "maxp", "maxp missing", sfnt({k: v for k, v in parse_tables(d).items() if k != "maxp"}))
    case("no_head", "reject", "head", "head missing in a glyf font",
         sfnt({k: v for k, v in parse_tables(d).items() if k != "head"}))
    case("maxp_glyphs0", "blame", "*", "maxp.numGlyphs 0", patch_table(d, "maxp", 4, u16(0)))
    case("maxp_glyphsFFFF", "blame", "*", "maxp.numGlyphs 0xFFFF", patch_table(d, "maxp", 4, u16(0xFFFF)))
    case("maxp_glyphs1", "blame", "*", "maxp.numGlyphs 1", patch_table(d, "maxp", 4, u16(1)))


def parse_tables(d):
    return {t: d[o:o + l] for t, _, o, l in directory(d)}


def rebase(d, delta):
    """Shift every table offset by delta (the font is moved inside a TTC)."""
    for t, p, o, l in directory(d):
        d = patch(d, p + 8, u32(o + delta))
    return d


def glyf_cases():
    G = base_glyphs()
    gv = base_gvar()

    def font(glyphs, gvar=None):
        # glyph 3 is usually replaced: its original deltas (2 components) would not match
        keep = 4 if glyphs[3:4] == G[3:4] else 3
        return base_ttf(glyphs=glyphs, gvar=gvar if gvar is not None else gv[:keep] + [b""] * max(0, len(glyphs) - keep))

    case("comp_self", "blame", "glyf", "composite glyph 3 contains itself",
         font(G[:3] + [glyf_composite([(1, 0, 0), (3, 10, 0)])]))
    case("comp_cycle2", "blame", "glyf", "composites 3 -> 4 -> 3",
         font(G[:3] + [glyf_composite([(4, 0, 0)]), glyf_composite([(3, 5, 0)])]))
    chain = G[:3] + [glyf_composite([(i + 1, 1, 0)]) for i in range(3, 43)] + [glyf_composite([(1, 0, 0)])]
    case("comp_chain40", "blame", "glyf", "40 nested composites (each contains the next)", font(chain))
    bomb = G[:3] + [glyf_composite([(i - 1 if i > 3 else 1, 0, 0), (i - 1 if i > 3 else 2, 7, 0)]) for i in range(3, 40)]
    case("comp_dag_bomb", "blame", "glyf", "each composite contains the previous one twice (2^36 points)", font(bomb))
    case("comp_gid_FFFF", "blame", "glyf", "component glyph 0xFFFF",
         font(G[:3] + [glyf_composite([(1, 0, 0), (0xFFFF, 0, 0)])]))
    case("comp_gid_count", "blame", "glyf", "component glyph == numGlyphs",
         font(G[:3] + [glyf_composite([(4, 0, 0)])]))
    case("comp_many_ok", "valid", "", "one composite with 3000 components (12000 points)",
         font(G[:3] + [glyf_composite([(1, i % 50, 0) for i in range(3000)])], gvar=gv[:3] + [b""]))
    case("comp_many_cap", "blame", "glyf", "one composite with 20000 components (80000 points > cap)",
         font(G[:3] + [glyf_composite([(1, i % 50, 0) for i in range(20000)])], gvar=gv[:3] + [b""]))
    trunc = glyf_composite([(1, 0, 0), (2, 0, 0)])
    case("comp_truncated", "blame", "glyf", "composite whose last component is cut",
         font(G[:3] + [trunc[:-3]]))
    more = glyf_composite([(1, 0, 0)])
    more = more[:10] + u16(0x0023) + more[12:]  # MORE_COMPONENTS on the last one
    case("comp_more_past_end", "blame", "glyf", "MORE_COMPONENTS set on the last component", font(G[:3] + [more]))
    # simple glyph damage
    sq = glyf_simple(SQUARE)
    case("simple_contours7FFF", "blame", "glyf|gvar", "numberOfContours 0x7FFF", font([b"", i16(0x7FFF) + sq[2:]] + G[2:]))
    case("simple_endpts_decreasing", "blame", "glyf|gvar", "endPtsOfContours decreasing",
         font(G[:2] + [patch(G[2], 10, u16(5) + u16(2))] + G[3:]))
    # ends 65533, 3, 4 with sparse deltas, as the second component of glyph 3: added to the
    # component's first point index in 16 bits, 65533 wraps below 3 (fuzz_raster found IUP
    # writing past its scratch when the check compared the wrapped values)
    wrap = glyf_simple([[(0, 0, 1)], [(100, 0, 1), (100, 100, 1), (0, 100, 1)], [(50, 50, 1)]])
    wrap = patch(wrap, 10, u16(65533))
    wgv = gvar_glyph([dict(peak=[1.0], points=[0, 2], dx=[10, 20], dy=[5, 5])])
    case("comp_endpts_wrap", "blame", "glyf|gvar", "component with endPtsOfContours 65533, 3, 4 after 4 points, sparse deltas",
         base_ttf(glyphs=G[:2] + [wrap, glyf_composite([(1, 0, 0), (2, 0, 0)])], gvar=gv[:2] + [wgv, b""]))
    case("simple_endpts_FFFF", "blame", "glyf|gvar", "last endPt 0xFFFF (65536 points, data for 4)",
         font([b"", patch(sq, 10, u16(0xFFFF))] + G[2:]))
    case("simple_instr_FFFF", "blame", "glyf|gvar", "instructionLength 0xFFFF",
         font([b"", patch(sq, 12, u16(0xFFFF))] + G[2:]))
    rep = sq[:14] + bytes([1 | 8, 255]) + sq[18:]  # flag repeated 255 times, 4 points
    case("simple_flag_repeat", "blame", "glyf|gvar", "flag repeat count runs past the points", font([b"", rep] + G[2:]))
    case("simple_coords_cut", "blame", "glyf|gvar", "coordinates cut short", font([b"", sq[:-3]] + G[2:]))
    case("simple_header_only", "blame", "glyf|gvar", "glyph of 10 bytes with 1 contour", font([b"", sq[:10]] + G[2:]))
    case("simple_neg_contours", "blame", "glyf|gvar", "numberOfContours -2", font([b"", i16(-2) + sq[2:]] + G[2:]))
    # zero-length and one-point contours with sparse gvar points (IUP edge cases)
    zc = glyf_simple([[(0, 0, 1), (0, 500, 1), (500, 500, 1)], [], [(700, 0, 1)], [(800, 0, 1), (900, 100, 0), (1000, 0, 1)]])
    zgv = gvar_glyph([dict(peak=[1.0], points=[0, 3, 5], dx=[10, 20, 30], dy=[5, 5, 5])])
    case("iup_zero_len_contour", "blame", "glyf|gvar", "empty contour (repeated endPt) + one-point contour, sparse deltas",
         font(G[:2] + [zc] + G[3:], gvar=gv[:2] + [zgv] + gv[3:]))
    one = glyf_simple([[(300, 300, 1)]])
    case("iup_one_point_untouched", "blame", "glyf|gvar", "one-point contour not touched by sparse deltas",
         font(G[:2] + [one] + G[3:], gvar=gv[:2] + [gvar_glyph([dict(peak=[1.0], points=[1], dx=[10], dy=[10])])] + gv[3:]))
    case("glyph_empty_with_gvar", "blame", "glyf|gvar", "empty glyph with variation data for phantoms",
         font(G, gvar=[gvar_glyph([dict(peak=[1.0], dx=[1, 2, 3, 4], dy=[1, 2, 3, 4])])] + gv[1:]))
    # loca
    d = font(G)
    _, lo, ll = table_of(d, "loca")
    case("loca_decreasing", "blame", "glyf|loca", "loca offsets decreasing", patch_table(d, "loca", 8, u32(0x40)))
    case("loca_past_glyf", "blame", "glyf|loca", "loca offset past the glyf table", patch_table(d, "loca", 8, u32(0x7FFFFFF0)))
    case("loca_short", "blame", "glyf|loca|maxp|head", "loca one entry short", set_record(d, "loca", length=ll - 4))
    case("loca_odd", "blame", "glyf|loca", "unaligned glyph offsets", patch_table(d, "loca", 8, u32(3)))
    dd = base_ttf(loc_format=0)
    case("syn_ttf_shortloca", "valid", "", "synthetic font, short loca", dd)


def gvar_cases():
    G = base_glyphs()
    gv = base_gvar()
    d = base_ttf()
    case("gvar_axes2", "blame", "gvar", "gvar.axisCount 2, fvar has 1", patch_table(d, "gvar", 4, u16(2)))
    case("gvar_axes0", "blame", "gvar", "gvar.axisCount 0", patch_table(d, "gvar", 4, u16(0)))
    case("gvar_glyphcount_more", "blame", "gvar", "gvar.glyphCount 0xFFFF", patch_table(d, "gvar", 12, u16(0xFFFF)))
    case("gvar_glyphcount_less", "blame", "gvar", "gvar.glyphCount 2 (< numGlyphs)", patch_table(d, "gvar", 12, u16(2)))
    case("gvar_sharedFFFF", "blame", "gvar", "sharedTupleCount 0xFFFF", patch_table(d, "gvar", 6, u16(0xFFFF)))
    case("gvar_shared_off_eof", "blame", "gvar", "sharedTuplesOffset past the end", patch_table(d, "gvar", 8, u32(0xFFFFFF)))
    case("gvar_data_off_self", "blame", "gvar", "glyphVariationDataArrayOffset 0 (the header)", patch_table(d, "gvar", 16, u32(0)))
    case("gvar_data_off_eof", "blame", "gvar", "glyphVariationDataArrayOffset past the end", patch_table(d, "gvar", 16, u32(0xFFFFFFF0)))
    case("gvar_offsets_decreasing", "blame", "gvar", "glyph data offsets decreasing", patch_table(d, "gvar", 20 + 8, u32(0x7FFF)))
    case("gvar_flags_short", "blame", "gvar", "short offsets flag over long offsets", patch_table(d, "gvar", 14, u16(0)))
    case("gvar_version2", "blame", "gvar", "gvar majorVersion 2", patch_table(d, "gvar", 0, u16(2)))

    def with_glyph(idx, gd, glyphs=None):
        g = list(gv)
        g[idx] = gd
        return base_ttf(glyphs=glyphs or G, gvar=g)

    a = gv[1]
    case("gvar_tuples_0FFF", "blame", "gvar", "tupleVariationCount 4095 with data for 2", with_glyph(1, u16(0x0FFF) + a[2:]))
    case("gvar_tuples_0", "valid", "", "tupleVariationCount 0", with_glyph(1, u16(0) + u16(4)))
    case("gvar_dataoff_0", "blame", "gvar", "dataOffset 0 (serialized data overlaps the headers)", with_glyph(1, a[:2] + u16(0) + a[4:]))
    case("gvar_dataoff_FFFF", "blame", "gvar", "dataOffset 0xFFFF", with_glyph(1, a[:2] + u16(0xFFFF) + a[4:]))
    case("gvar_shared_index_oob", "blame", "gvar", "shared tuple index 5 with no shared tuples",
         with_glyph(1, gvar_glyph([dict(shared=5, dx=[1] * 8, dy=[1] * 8)])))
    case("gvar_points_oob", "blame", "gvar|glyf", "point number 500 in a 4-point glyph",
         with_glyph(1, gvar_glyph([dict(peak=[1.0], points=[0, 500], dx=[1, 2], dy=[1, 2])])))
    case("gvar_points_count_huge", "blame", "gvar|glyf", "packed point count 0x7FFF with 3 numbers",
         with_glyph(2, gvar_glyph([dict(peak=[1.0], points_raw=b"\xff\xff\x02\x00\x03\x02", dx=[10, 20, 30], dy=[1, 2, 3])])))
    case("gvar_points_wrap", "blame", "gvar|glyf", "16-bit point deltas summing past 65535",
         with_glyph(2, gvar_glyph([dict(peak=[1.0], points=[0, 40000, 80000 - 65536 + 65536], dx=[1, 2, 3], dy=[1, 2, 3])])))
    case("gvar_points_dup", "blame", "gvar|glyf", "repeated point numbers (delta 0 runs)",
         with_glyph(2, gvar_glyph([dict(peak=[1.0], points=[1, 1, 1, 1], dx=[1, 2, 3, 4], dy=[1, 2, 3, 4])])))
    case("gvar_deltas_short", "blame", "gvar", "variationDataSize larger than the data left",
         with_glyph(1, gvar_glyph([dict(peak=[1.0], dx=[1] * 8, dy=[1] * 8, size=0x7FFF)])))
    case("gvar_deltas_size0", "blame", "gvar", "variationDataSize 0 on every tuple",
         with_glyph(1, gvar_glyph([dict(peak=[1.0], dx=[1] * 8, dy=[1] * 8, size=0), dict(peak=[-1.0], dx=[1] * 8, dy=[1] * 8, size=0)])))
    case("gvar_deltas_too_few", "blame", "gvar", "fewer deltas than points",
         with_glyph(1, gvar_glyph([dict(peak=[1.0], dx=[1] * 3, dy=[1] * 3)])))
    case("gvar_region_bad", "blame", "gvar", "intermediate region start > peak > end",
         with_glyph(1, gvar_glyph([dict(peak=[0.5], start=[1.0], end=[-1.0], dx=[1] * 8, dy=[1] * 8)])))
    case("gvar_peak_zero", "blame", "gvar", "tuple with peak 0 on every axis",
         with_glyph(1, gvar_glyph([dict(peak=[0.0], dx=[100] * 8, dy=[100] * 8)])))
    case("gvar_peak_out_of_range", "blame", "gvar", "peak -2.0 and 1.99",
         with_glyph(1, gvar_glyph([dict(peak=[-2.0], dx=[100] * 8, dy=[100] * 8), dict(peak=[1.99], dx=[1] * 8, dy=[1] * 8)])))
    case("gvar_no_points_anywhere", "blame", "gvar", "tuple with neither private nor shared point numbers",
         with_glyph(1, gvar_glyph([dict(peak=[1.0], no_points=True, dx=[1] * 8, dy=[1] * 8)])))
    case("gvar_shared_points_all", "valid", "", "shared point numbers (every point, listed) used by 2 tuples",
         with_glyph(1, gvar_glyph([dict(peak=[1.0], dx=[1] * 8, dy=[1] * 8), dict(peak=[-1.0], dx=[2] * 8, dy=[2] * 8)], shared_points=[0, 1, 2, 3, 4, 5, 6, 7])))
    many = gvar_glyph([dict(peak=[(i % 16 + 1) / 16.0], dx=[i % 5] * 8, dy=[1] * 8) for i in range(4095)])
    case("gvar_tuples_4095_real", "blame", "gvar", "4095 real tuples on one glyph", with_glyph(1, many))
    # one tuple, all points; the x-delta run claims 64 byte-deltas and 3 are present
    runs = u16(1) + u16(10) + u16(5) + u16(0xA000) + f2d14(1.0) + b"\x00\x3f\x01\x01\x01"
    case("gvar_delta_run_overrun", "blame", "gvar", "a delta run longer than the data", with_glyph(1, runs))


def fvar_cases():
    d = base_ttf()
    case("syn_ttf", "valid", "", "the synthetic variable TrueType font", d)
    # the spec's fallback: a malformed avar segment map is ignored (identity)
    # spec (avar): a non-empty map lacking -1->-1, 0->0 or +1->+1 is invalid: the default
    # normalization applies to that axis
    bad_maps = {
        "avar_no_zero": [[(-1, -1), (0.5, 0.25), (1, 1)]],
        "avar_no_ends": [[(0, 0), (0.5, 0.25)]],
    }
    for nm, m in bad_maps.items():
        case(nm, "accept", "norm=0:650:8192", "malformed avar segment map: ignored (identity)",
             base_ttf(avar=avar_table(m)))
    # spec: "If a given record has a fromCoordinate value less than or equal to the value of a
    # previous record in the array, then the given record may be ignored": 0.5 -> 0.25 is dropped
    # and 0.5 interpolates between 0 -> 0 and 0.75 -> 0.5: 1/3 = 5461 in F2Dot14
    case("avar_decreasing", "accept", "norm=0:650:5461", "avar record with a decreasing fromCoordinate: ignored",
         base_ttf(avar=avar_table([[(-1, -1), (0, 0), (0.75, 0.5), (0.5, 0.25), (1, 1)]])))
    case("avar_ok", "accept", "norm=0:650:4096", "well-formed avar maps 0.5 to 0.25", base_ttf())
    case("avar_count0", "accept", "norm=0:650:8192", "positionMapCount 0: identity", base_ttf(avar=avar_table([[]])))
    case("avar_axes2", "blame", "avar", "avar.axisCount 2, fvar has 1", patch_table(d, "avar", 6, u16(2)))
    case("avar_mapsFFFF", "blame", "avar", "positionMapCount 0xFFFF", patch_table(d, "avar", 8, u16(0xFFFF)))
    case("avar_version3", "blame", "avar", "avar majorVersion 3", patch_table(d, "avar", 0, u16(3)))
    case("avar_v2_bad_offsets", "blame", "avar", "avar 2.0 with offsets past the end",
         base_ttf(avar=u16(2) + u16(0) + avar_table([[(-1, -1), (0, 0), (1, 1)]])[4:] + u32(0xFFFF0) + u32(0xFFFF0)))
    case("avar_v2_offsets_self", "blame", "avar", "avar 2.0 with offsets 0 (into its own header)",
         base_ttf(avar=u16(2) + u16(0) + avar_table([[(-1, -1), (0, 0), (1, 1)]])[4:] + u32(0) + u32(0)))
    # fvar fields
    case("fvar_axes0", "blame", "fvar|avar|gvar|HVAR|MVAR", "axisCount 0 with 2 instances", patch_table(d, "fvar", 8, u16(0)))
    case("fvar_axesFFFF", "blame", "*", "axisCount 0xFFFF, data for 1", patch_table(d, "fvar", 8, u16(0xFFFF)))
    case("fvar_axissize0", "blame", "fvar", "axisSize 0", patch_table(d, "fvar", 10, u16(0)))
    case("fvar_axissizeFFFF", "blame", "fvar", "axisSize 0xFFFF", patch_table(d, "fvar", 10, u16(0xFFFF)))
    case("fvar_instFFFF", "blame", "fvar", "instanceCount 0xFFFF", patch_table(d, "fvar", 12, u16(0xFFFF)))
    case("fvar_instsize0", "blame", "fvar", "instanceSize 0", patch_table(d, "fvar", 14, u16(0)))
    case("fvar_instsize3", "blame", "fvar", "instanceSize 3", patch_table(d, "fvar", 14, u16(3)))
    case("fvar_axesoff0", "blame", "*", "axesArrayOffset 0 (the fvar header itself)", patch_table(d, "fvar", 4, u16(0)))
    case("fvar_axesoffFFFF", "blame", "fvar", "axesArrayOffset 0xFFFF", patch_table(d, "fvar", 4, u16(0xFFFF)))
    case("fvar_version2", "blame", "fvar", "fvar majorVersion 2", patch_table(d, "fvar", 0, u16(2)))
    case("fvar_min_gt_max", "blame", "*", "axis min 900 > max 100",
         base_ttf(axes=[("wght", 900, 400, 100)]))
    case("fvar_extreme", "blame", "*", "axis range -32768..32767.99",
         base_ttf(axes=[("wght", -32768, 0, 32767.99)]))
    case("fvar_default_eq_min_max", "blame", "*", "axis min == default == max",
         base_ttf(axes=[("wght", 400, 400, 400)]))
    # huge axis counts: as many real axes as the limit, one more, and 1000
    for n in (64, 65, 1000):
        axes = [(("%04d" % i).replace("0", "z", 1), 0, 0, 1) for i in range(n)]
        f = ttf_font(base_glyphs(), gvar=None, axes=axes, hvar=False)
        cls, det = ("blame", "*") if n <= 64 else ("blame", "fvar|avar|gvar|HVAR|MVAR|STAT")
        case("fvar_axes%d" % n, cls, det, "%d axes (limit OTV_MAX_AXES = 64)" % n, f)
    case("fvar_dup_tags", "blame", "*", "two axes with the same tag",
         ttf_font(base_glyphs(), gvar=None, axes=[("wght", 100, 400, 900), ("wght", 0, 0, 1)], hvar=False))


def table_field_cases():
    d = base_ttf()
    # name
    case("name_countFFFF", "blame", "name", "name count 0xFFFF", patch_table(d, "name", 2, u16(0xFFFF)))
    case("name_stroff_eof", "blame", "name", "name stringOffset past the end", patch_table(d, "name", 4, u16(0xFFFF)))
    case("name_stroff0", "blame", "name", "name stringOffset 0 (the header)", patch_table(d, "name", 4, u16(0)))
    case("name_rec_len_odd", "blame", "name", "UTF-16 string of odd length", patch_table(d, "name", 6 + 8, u16(7)))
    case("name_rec_past", "blame", "name", "string offset+length past the table", patch_table(d, "name", 6 + 10, u16(0xFFF0)))
    case("name_format1_bad", "blame", "name", "format 1 with langTagCount past the end", patch_table(d, "name", 0, u16(1)))
    nt = name_table(NAMES)
    tagged = u16(1) + nt[2:6 + 12 * len(NAMES)] + u16(1) + u16(4) + u16(0xFFF0) + nt[6 + 12 * len(NAMES):]
    tagged = tagged[:4] + u16(6 + 12 * len(NAMES) + 6) + tagged[6:]
    case("name_format1_tag_past", "blame", "name", "format 1: a language tag string past the end",
         replace_table(d, "name", tagged))
    # 6000 records (72 KB) whose strings overlap them: no 16-bit stringOffset can follow them
    many = u16(0) + u16(6000) + u16(6) + (u16(3) + u16(1) + u16(0x409) + u16(300) + u16(2) + u16(0)) * 6000
    case("name_records6000", "blame", "name", "6000 name records: the instance's string offset would pass 64 KiB",
         replace_table(d, "name", many))
    # cmap
    case("cmap_tablesFFFF", "blame", "cmap", "cmap numTables 0xFFFF", patch_table(d, "cmap", 2, u16(0xFFFF)))
    case("cmap_suboff_eof", "blame", "cmap", "subtable offset past the end", patch_table(d, "cmap", 8, u32(0xFFFFFF)))
    case("cmap_suboff0", "blame", "cmap", "subtable offset 0 (the cmap header)", patch_table(d, "cmap", 8, u32(0)))
    case("cmap_segx2_0", "blame", "cmap", "format 4 segCountX2 0", patch_table(d, "cmap", 12 + 6, u16(0)))
    case("cmap_segx2_odd", "blame", "cmap", "format 4 segCountX2 odd", patch_table(d, "cmap", 12 + 6, u16(3)))
    case("cmap_segx2_FFFE", "blame", "cmap", "format 4 segCountX2 0xFFFE", patch_table(d, "cmap", 12 + 6, u16(0xFFFE)))
    case("cmap_len_FFFF", "blame", "cmap", "format 4 length 0xFFFF", patch_table(d, "cmap", 12 + 2, u16(0xFFFF)))
    # idRangeOffset of segment 0 pointing far outside
    case("cmap_rangeoff_out", "blame", "cmap", "idRangeOffset pointing past the table",
         patch_table(d, "cmap", 12 + 14 + 2 * 2 + 2 + 2 * 2 + 2 * 2, u16(0xFFFE)))
    f12 = u16(12) + u16(0) + u32(16 + 12 * 2) + u32(0) + u32(0xFFFFFFFF) + u32(0x41) + u32(0x43) + u32(1)
    cm12 = u16(0) + u16(1) + u16(3) + u16(10) + u32(12) + f12
    case("cmap12_groupsFFFFFFFF", "blame", "cmap", "format 12 numGroups 0xFFFFFFFF", base_ttf(extra={"cmap": cm12}))
    f12b = u16(12) + u16(0) + u32(16 + 12 * 2) + u32(0) + u32(2) + u32(0x60) + u32(0x70) + u32(1) + u32(0x41) + u32(0x10FFFF) + u32(0xFFFFFFF0)
    case("cmap12_unsorted", "blame", "cmap", "format 12 groups unsorted, glyph ids past numGlyphs",
         base_ttf(extra={"cmap": u16(0) + u16(1) + u16(3) + u16(10) + u32(12) + f12b}))
    f14 = u16(14) + u32(10 + 11) + u32(1) + b"\x00\xfe\x0f" + u32(0xFFFF) + u32(0xFFFF)
    cm14 = u16(0) + u16(2) + u16(0) + u16(5) + u32(20) + u16(3) + u16(1) + u32(20 + len(f14)) + f14
    case("cmap14_offsets_bad", "blame", "cmap", "format 14 offsets past the end",
         base_ttf(extra={"cmap": cm14 + cmap_table(0x41, 3)[12:]}))
    # hhea/hmtx
    case("hhea_nhm0", "blame", "hhea|hmtx", "numberOfHMetrics 0", patch_table(d, "hhea", 34, u16(0)))
    case("hhea_nhmFFFF", "blame", "hhea|hmtx", "numberOfHMetrics 0xFFFF", patch_table(d, "hhea", 34, u16(0xFFFF)))
    case("hhea_nhm1", "valid", "", "numberOfHMetrics 1 (the rest share it, lsbs follow)",
         patch_table(d, "hhea", 34, u16(1)))
    # HVAR / IVS
    case("hvar_ivs_off0", "blame", "HVAR", "itemVariationStoreOffset 0 (the HVAR header)", patch_table(d, "HVAR", 4, u32(0)))
    case("hvar_ivs_off_eof", "blame", "HVAR", "itemVariationStoreOffset past the end", patch_table(d, "HVAR", 4, u32(0xFFFFF)))
    case("hvar_advmap_eof", "blame", "HVAR", "advance mapping offset past the end", patch_table(d, "HVAR", 8, u32(0xFFFFF)))
    case("hvar_advmap_self", "blame", "HVAR", "advance mapping offset 4 (inside the header)", patch_table(d, "HVAR", 8, u32(4)))
    case("hvar_datacountFFFF", "blame", "HVAR", "itemVariationDataCount 0xFFFF", patch_table(d, "HVAR", 20 + 6, u16(0xFFFF)))
    case("hvar_regionlist_eof", "blame", "HVAR", "variationRegionListOffset past the end", patch_table(d, "HVAR", 20 + 2, u32(0xFFFFF)))
    rl = 20 + 8 + 4
    case("hvar_regions_axes", "blame", "HVAR", "region list axisCount 7 (fvar has 1)", patch_table(d, "HVAR", rl, u16(7)))
    case("hvar_regionsFFFF", "blame", "HVAR", "regionCount 0xFFFF", patch_table(d, "HVAR", rl + 2, u16(0xFFFF)))
    ivd = rl + 4 + 6
    case("hvar_itemcount_small", "blame", "HVAR", "itemCount 1 (< numGlyphs): glyphs past it", patch_table(d, "HVAR", ivd, u16(1)))
    case("hvar_itemcountFFFF", "blame", "HVAR", "itemCount 0xFFFF", patch_table(d, "HVAR", ivd, u16(0xFFFF)))
    case("hvar_wordcount_gt", "blame", "HVAR", "wordDeltaCount > regionIndexCount", patch_table(d, "HVAR", ivd + 2, u16(5)))
    case("hvar_longwords", "blame", "HVAR", "LONG_WORDS with wordDeltaCount past regions", patch_table(d, "HVAR", ivd + 2, u16(0x8005)))
    case("hvar_regionidx_oob", "blame", "HVAR", "regionIndex 9 (1 region)", patch_table(d, "HVAR", ivd + 6, u16(9)))
    case("hvar_regionidxcountFFFF", "blame", "HVAR", "regionIndexCount 0xFFFF", patch_table(d, "HVAR", ivd + 4, u16(0xFFFF)))
    dsim = u8(0) + u8(0x0F) + u16(0xFFFF) + b"\x00\x01"
    hv = hvar_table(ivs_table(1, [[(0, 1, 1)]], [([0], [[5]] * 4)]))
    hv = hv[:8] + u32(len(hv)) + hv[12:] + dsim
    case("hvar_map_countFFFF", "blame", "HVAR", "DeltaSetIndexMap mapCount 0xFFFF, 16 inner bits in 1-byte entries, data for 1", base_ttf(extra={"HVAR": hv}))
    dsim2 = u8(1) + u8(0x3F) + u32(4) + b"\xff" * 16
    hv2 = hv[:-len(dsim)] + dsim2
    case("hvar_map_outer_oob", "blame", "HVAR", "DeltaSetIndexMap format 1, entries pointing at outer 0xFF.. (no such data)", base_ttf(extra={"HVAR": hv2}))
    dsim3 = u8(2) + u8(0) + u32(0)
    case("hvar_map_format2", "blame", "HVAR", "DeltaSetIndexMap format 2", base_ttf(extra={"HVAR": hv[:-len(dsim)] + dsim3}))
    # MVAR
    case("mvar_recsize0", "blame", "MVAR", "valueRecordSize 0", patch_table(d, "MVAR", 6, u16(0)))
    case("mvar_recsize4", "blame", "MVAR", "valueRecordSize 4 (< 8)", patch_table(d, "MVAR", 6, u16(4)))
    case("mvar_recsizeFFFF", "blame", "MVAR", "valueRecordSize 0xFFFF", patch_table(d, "MVAR", 6, u16(0xFFFF)))
    case("mvar_countFFFF", "blame", "MVAR", "valueRecordCount 0xFFFF", patch_table(d, "MVAR", 8, u16(0xFFFF)))
    case("mvar_ivs_self", "blame", "MVAR", "itemVariationStoreOffset 0 (the MVAR header)", patch_table(d, "MVAR", 10, u16(0)))
    case("mvar_inner_oob", "blame", "MVAR", "deltaSetInnerIndex 0xFFFF", patch_table(d, "MVAR", 12 + 6, u16(0xFFFF)))
    case("mvar_outer_oob", "blame", "MVAR", "deltaSetOuterIndex 0xFFFF", patch_table(d, "MVAR", 12 + 4, u16(0xFFFF)))
    # 32-bit deltas (LONG_WORDS) of 0x7FFFFFFF on two regions that both apply at wght max: the
    # sum passes the int range (the instancer rounded it into an int: undefined behaviour)
    regions = u16(1) + u16(2) + (f2d14(0) + f2d14(1) + f2d14(1)) * 2
    ivd = u16(1) + u16(0x8002) + u16(2) + u16(0) + u16(1) + i32(0x7FFFFFFF) * 2
    long_ivs = u16(1) + u32(12) + u16(1) + u32(12 + len(regions)) + regions + ivd
    case("mvar_long_deltas_sum", "blame", "MVAR", "32-bit deltas 0x7FFFFFFF on two regions (sum past 2^31)",
         base_ttf(extra={"MVAR": mvar_table(long_ivs, [("xhgt", 0, 0)])}))
    # STAT
    stat = (u16(1) + u16(2) + u16(8) + u16(1) + u32(20) + u16(2) + u32(28) + u16(2) + tag("wght") + u16(256) + u16(0) +
            u16(4) + u16(4 + 12) +
            u16(1) + u16(0) + u16(0) + u16(257) + fixed(900) +
            u16(4) + u16(2) + u16(0) + u16(258) + u16(0) + fixed(100) + u16(0xFFFF) + fixed(1))
    d2 = base_ttf(extra={"STAT": stat})
    case("stat_ok", "blame", "STAT", "STAT with a format 4 record pointing at axis 0xFFFF", d2)
    case("stat_axesFFFF", "blame", "STAT", "designAxisCount 0xFFFF", patch_table(d2, "STAT", 6, u16(0xFFFF)))
    case("stat_axissize0", "blame", "STAT", "designAxisSize 0", patch_table(d2, "STAT", 4, u16(0)))
    case("stat_axissizeFFFF", "blame", "STAT", "designAxisSize 0xFFFF", patch_table(d2, "STAT", 4, u16(0xFFFF)))
    case("stat_axesoff_eof", "blame", "STAT", "designAxesOffset past the end", patch_table(d2, "STAT", 8, u32(0xFFFFFF)))
    case("stat_valuesFFFF", "blame", "STAT", "axisValueCount 0xFFFF", patch_table(d2, "STAT", 12, u16(0xFFFF)))
    case("stat_valoff_self", "blame", "STAT", "offsetToAxisValueOffsets 0 (the header)", patch_table(d2, "STAT", 14, u32(0)))
    case("stat_value_off_self", "blame", "STAT", "axis value offset 0 (points at the offset array)", patch_table(d2, "STAT", 28, u16(0)))
    case("stat_value_off_eof", "blame", "STAT", "axis value offset past the end", patch_table(d2, "STAT", 28, u16(0xFFFF)))
    case("stat_format99", "blame", "STAT", "axis value format 99", patch_table(d2, "STAT", 32, u16(99)))
    case("stat_axisindex_oob", "blame", "STAT", "format 1 axisIndex 0xFFFF", patch_table(d2, "STAT", 32 + 2, u16(0xFFFF)))
    case("stat_f4_countFFFF", "blame", "STAT", "format 4 axisCount 0xFFFF", patch_table(d2, "STAT", 44 + 2, u16(0xFFFF)))


def cff2_cases():
    d = base_cff2()
    case("syn_cff2", "valid", "", "the synthetic CFF2 variable font", d)
    B = 107

    def cf(**kw):
        return base_cff2(**kw)

    # subroutine recursion
    case("cff2_gsubr_self", "blame", "CFF2", "global subr 0 calls itself",
         cf(gsubrs=[cs(0 - B, "callgsubr")], charstrings=[b"", cs(0, 0, "rmoveto", -B, "callgsubr")]))
    case("cff2_subr_mutual", "blame", "CFF2", "local subr 0 calls global 0 which calls local 0",
         cf(gsubrs=[cs(-B, "callsubr")], lsubrs=[cs(-B, "callgsubr")], charstrings=[b"", cs(0, 0, "rmoveto", -B, "callsubr")]))
    nest = [cs(i + 1 - B, "callgsubr") for i in range(9)] + [cs(10, 0, "rlineto")]
    case("cff2_subr_depth10", "valid", "", "subroutines nested 10 deep (the spec's limit)",
         cf(gsubrs=nest, charstrings=[b"", cs(0, 0, "rmoveto", -B, "callgsubr")]))
    nest11 = [cs(i + 1 - B, "callgsubr") for i in range(11)] + [cs(10, 0, "rlineto")]
    case("cff2_subr_depth12", "blame", "CFF2", "subroutines nested 12 deep",
         cf(gsubrs=nest11, charstrings=[b"", cs(0, 0, "rmoveto", -B, "callgsubr")]))
    # fan-out bomb: every level calls the next 60 times, 9 levels, leaves draw a line
    fan = [cs(*([i + 1 - B, "callgsubr"] * 60)) for i in range(9)] + [cs(1, 0, "rlineto")]
    case("cff2_subr_fanout", "blame", "CFF2", "subroutine fan-out 60^9 lines (bounded work required)",
         cf(gsubrs=fan, charstrings=[b"", cs(0, 0, "rmoveto", -B, "callgsubr")]))
    case("cff2_subr_index_oob", "blame", "CFF2", "callsubr index past the Subrs INDEX",
         cf(charstrings=[b"", cs(0, 0, "rmoveto", 500, "callsubr")]))
    case("cff2_subr_index_neg", "blame", "CFF2", "callgsubr index -200 (below -bias)",
         cf(charstrings=[b"", cs(0, 0, "rmoveto", -200, "callgsubr")]))
    case("cff2_callsubr_empty_stack", "blame", "CFF2", "callsubr with an empty stack",
         cf(charstrings=[b"", cs("callsubr")]))
    case("cff2_no_local_subrs", "blame", "CFF2", "callsubr without a Subrs INDEX",
         cf(lsubrs=None, charstrings=[b"", cs(0, 0, "rmoveto", -B, "callsubr")]))
    # operand stack
    case("cff2_stack_513", "valid", "", "513 operands (the CFF2 maximum) then hlineto",
         cf(charstrings=[b"", cs(0, 0, "rmoveto", *([1] * 513), "hlineto")]))
    case("cff2_stack_514", "blame", "CFF2", "514 operands", cf(charstrings=[b"", cs(0, 0, "rmoveto", *([1] * 514), "rlineto")]))
    case("cff2_stack_100k", "blame", "CFF2", "100000 operands", cf(charstrings=[b"", cs(*([1] * 100000))]))
    case("cff2_stack_underflow", "blame", "CFF2", "rlineto with one operand", cf(charstrings=[b"", cs(0, 0, "rmoveto", 5, "rlineto")]))
    case("cff2_blend_huge_n", "blame", "CFF2", "blend n = 30000 with 3 operands", cf(charstrings=[b"", cs(1, 2, 30000, "blend")]))
    case("cff2_blend_neg_n", "blame", "CFF2", "blend n = -5", cf(charstrings=[b"", cs(1, 2, -5, "blend")]))
    case("cff2_blend_underflow", "blame", "CFF2", "blend n = 2 with 2 operands (needs 4)", cf(charstrings=[b"", cs(1, 2, 2, "blend")]))
    case("cff2_vsindex_oob", "blame", "CFF2", "vsindex 9 (one ItemVariationData)", cf(charstrings=[b"", cs(9, "vsindex", 100, 0, "rmoveto", 1, 2, 1, "blend", 0, "rlineto")]))
    case("cff2_vsindex_after_blend", "blame", "CFF2", "vsindex after a blend",
         cf(charstrings=[b"", cs(100, 50, 1, "blend", 0, "rmoveto", 0, "vsindex", 10, 10, "rlineto")]))
    case("cff2_blend_no_vstore", "blame", "CFF2", "blend without a VariationStore", cf(vstore=None, charstrings=[b"", box_cs()]))
    case("cff2_endchar", "blame", "CFF2", "endchar (not a CFF2 operator)", cf(charstrings=[b"", cs(0, 0, "rmoveto", 10, 10, "rlineto", "endchar")]))
    case("cff2_return", "blame", "CFF2", "return (not a CFF2 operator)", cf(charstrings=[b"", cs(0, 0, "rmoveto", "return")]))
    case("cff2_reserved_ops", "blame", "CFF2", "reserved operators 0, 2, 9, 13, 17", cf(charstrings=[b"", bytes([0, 2, 9, 13, 17])]))
    case("cff2_escape_end", "blame", "CFF2", "charstring ending in the escape byte 12", cf(charstrings=[b"", b"\x0c"]))
    case("cff2_number_cut", "blame", "CFF2", "charstring ending inside a number", cf(charstrings=[b"", b"\xff\x00"]))
    case("cff2_hintmask_past_end", "blame", "CFF2", "hintmask with 40 stems at the end of the data",
         cf(charstrings=[b"", cs(*([10, 20] * 40), "hstem") + bytes([19])]))
    case("cff2_fixed_huge", "blame", "CFF2", "16.16 numbers of +-32767 summed 2000 times",
         cf(charstrings=[b"", cs(0, 0, "rmoveto") + (b"\xff\x7f\xff\xff\xff" * 2 + bytes([5])) * 2000]))
    case("cff2_empty_charstrings", "valid", "", "every charstring empty", cf(charstrings=[b"", b"", b""]))
    # INDEX and DICT structure
    _, co, cl = table_of(d, "CFF2")
    cff = d[co:co + cl]
    top_len = struct.unpack_from(">H", cff, 3)[0]
    gs = 5 + top_len  # global subr INDEX
    case("cff2_major3", "blame", "CFF2", "CFF2 majorVersion 3", patch_table(d, "CFF2", 0, u8(3)))
    case("cff2_hdrsizeFF", "blame", "CFF2", "headerSize 0xFF", patch_table(d, "CFF2", 2, u8(0xFF)))
    case("cff2_toplenFFFF", "blame", "CFF2", "topDictLength 0xFFFF", patch_table(d, "CFF2", 3, u16(0xFFFF)))
    case("cff2_toplen0", "blame", "CFF2", "topDictLength 0", patch_table(d, "CFF2", 3, u16(0)))
    case("cff2_gsubr_countFFFFFFFF", "blame", "CFF2", "global subr INDEX count 0xFFFFFFFF", patch_table(d, "CFF2", gs, u32(0xFFFFFFFF)))
    case("cff2_gsubr_offsize0", "blame", "CFF2", "global subr INDEX offSize 0", patch_table(d, "CFF2", gs + 4, u8(0)))
    case("cff2_gsubr_offsize5", "blame", "CFF2", "global subr INDEX offSize 5", patch_table(d, "CFF2", gs + 4, u8(5)))
    case("cff2_gsubr_first_off0", "blame", "CFF2", "INDEX first offset 0 (must be 1)", patch_table(d, "CFF2", gs + 5, u8(0)))
    case("cff2_gsubr_last_off_big", "blame", "CFF2", "INDEX last offset past the data", patch_table(d, "CFF2", gs + 6, u8(0xFF)))
    # top DICT: CharStrings offset (first operand: 5-byte int at 5)
    case("cff2_cs_off0", "blame", "CFF2", "CharStrings offset 0 (the header)", patch_table(d, "CFF2", 6, i32(0)))
    case("cff2_cs_off_eof", "blame", "CFF2", "CharStrings offset past the end", patch_table(d, "CFF2", 6, i32(0x7FFFFFF)))
    case("cff2_cs_off_neg", "blame", "CFF2", "CharStrings offset -5", patch_table(d, "CFF2", 6, i32(-5)))
    case("cff2_fda_off_eof", "blame", "CFF2", "FDArray offset past the end", patch_table(d, "CFF2", 12, i32(0x7FFFFFF)))
    case("cff2_fda_off_self", "blame", "CFF2", "FDArray offset 5 (the top DICT)", patch_table(d, "CFF2", 12, i32(5)))
    case("cff2_vs_off_eof", "blame", "CFF2", "VariationStore offset past the end", patch_table(d, "CFF2", 19, i32(0x7FFFFFF)))
    case("cff2_top_stack_overflow", "blame", "CFF2", "top DICT with 600 operands",
         cf(top_extra=b"\x8b" * 600 + b"\x11"))
    case("cff2_top_bad_real", "blame", "CFF2", "top DICT real number never terminated",
         cf(top_extra=b"\x1e" + b"\x11" * 8))
    case("cff2_cs_count_mismatch", "blame", "CFF2|maxp", "3 charstrings, maxp says 0xFFFF", patch_table(d, "maxp", 4, u16(0xFFFF)))
    # private DICT: size/offset huge (inside the FDArray's single dict: size at +0, offset at +5)
    fda_off = struct.unpack_from(">i", cff, 12)[0]
    fd_dict = fda_off + 4 + 1 + 2  # count, offSize 1, 2 offsets
    case("cff2_private_size_huge", "blame", "CFF2", "Private DICT size 0x7FFFFFFF", patch_table(d, "CFF2", fd_dict + 1, i32(0x7FFFFFFF)))
    case("cff2_private_off_eof", "blame", "CFF2", "Private DICT offset past the end", patch_table(d, "CFF2", fd_dict + 6, i32(0x7FFFFFF)))
    case("cff2_private_off_neg", "blame", "CFF2", "Private DICT offset -1", patch_table(d, "CFF2", fd_dict + 6, i32(-1)))
    priv = struct.unpack_from(">i", cff, fd_dict + 6)[0]
    case("cff2_subrs_off_neg", "blame", "CFF2", "Subrs offset -100000 from the Private DICT", patch_table(d, "CFF2", priv + 1, i32(-100000)))
    case("cff2_subrs_off_self", "blame", "CFF2", "Subrs offset 0 (the Private DICT itself)", patch_table(d, "CFF2", priv + 1, i32(0)))
    # vstore: regions for 3 axes while fvar has 1
    case("cff2_vstore_axes", "blame", "CFF2", "VariationStore regions for 3 axes",
         cf(vstore=ivs_table(3, [[(0, 1, 1)] * 3], [([0], [])])))
    case("cff2_vstore_regionidx_oob", "blame", "CFF2", "VariationStore regionIndex 40",
         cf(vstore=ivs_table(1, [[(0, 1, 1)]], [([40], [])])))
    case("cff2_vstore_len_huge", "blame", "CFF2", "VariationStore length 0xFFFF",
         patch_table(d, "CFF2", struct.unpack_from(">i", cff, 19)[0], u16(0xFFFF)))
    big = [cs(0, 0, "rmoveto", *([1, 1, "rlineto"] * 20)) for _ in range(2000)]
    case("cff2_2000_glyphs", "valid", "", "2000 charstrings, 20 lines each (INDEX offSize 2)", cf(charstrings=[b""] + big))


def real_font_cases():
    for fname, label in [("Roboto-Variable.ABC.ttf", "roboto"), ("AdobeVFPrototype_vsindex.otf", "adobevf"),
                         ("SourceSerifVariable-Roman-VVAR.abc.ttf", "serif"), ("NotoSans-VF.abc.ttf", "noto"),
                         ("Amstelvar-avar2.A.ttf", "amstel"), ("NotoSansJP-VF.subset.otf", "notojp"),
                         ("Roboto-Variable.composite.ttf", "robocomp"), ("STATInstancerTest.ttf", "stat")]:
        p = os.path.join(FONTS, fname)
        if not os.path.exists(p):
            continue
        data = read_font(fname)
        case(label + "_orig", "valid", "", "unchanged " + fname, data)
        sweep_font(label, data)
    syn = base_ttf()
    sweep_font("synttf", syn)
    case("synttf_orig", "valid", "", "synthetic TrueType font (sweep base)", syn)
    syn2 = base_cff2()
    sweep_font("syncff2", syn2)
    case("syncff2_orig", "valid", "", "synthetic CFF2 font (sweep base)", syn2)


# --------------------------------------------------------------------------------------------
# OpenType layout tables (GSUB, GPOS, GDEF, BASE), assembled with labels so that any field of
# any sub-table can be found and broken afterwards
# --------------------------------------------------------------------------------------------

class Tbl:
    """An assembled table: its bytes and where each labelled structure starts."""

    def __init__(self, data, at):
        self.data, self.at = bytearray(data), dict(at)

    def put(self, label, rel, b):
        """Overwrite bytes at offset rel inside the structure `label` (must stay in the table)."""
        p = self.at[label] + rel
        assert p + len(b) <= len(self.data), (label, rel)
        self.data[p:p + len(b)] = b
        return self

    def off(self, label, rel, target, width=2):
        """Point the offset field at label+rel (relative to label) at the structure `target`."""
        v = self.at[target] - self.at[label]
        assert 0 <= v < (1 << (8 * width)), (label, target, v)
        return self.put(label, rel, (u16 if width == 2 else u32)(v))

    def bytes(self):
        return bytes(self.data)


class Asm:
    """Bytes with labels; offset fields are resolved at the end. Sub-tables are queued (sub) and
    laid out breadth-first after their parents, as compilers do; `tail` ones (shared devices)
    after everything else, so that every parent precedes them (offsets are unsigned)."""

    def __init__(self):
        self.b, self.at, self.fix, self.q, self.tq, self.n = bytearray(), {}, [], [], [], 0

    def new(self, stem):
        self.n += 1
        return "%s#%d" % (stem, self.n)

    def here(self, label=None):
        label = label or self.new("at")
        assert label not in self.at, label
        self.at[label] = len(self.b)
        return label

    def w(self, *parts):
        for p in parts:
            self.b += p
        return self

    def h(self, *vs):
        for v in vs:
            self.b += u16(v)
        return self

    def o16(self, target, base):
        """target: a label, None (NULL) or an int (that raw value)."""
        self.fix.append((len(self.b), 2, target, base))
        self.b += b"\0\0"

    def o24(self, target, base):
        self.fix.append((len(self.b), 3, target, base))
        self.b += b"\0\0\0"

    def o32(self, target, base):
        self.fix.append((len(self.b), 4, target, base))
        self.b += b"\0\0\0\0"

    def sub(self, fn, *args, name=None):
        """Queue sub-table fn(asm, label, *args); its label, usable in offsets at once."""
        lab = name or self.new(fn.__name__)
        self.q.append((lab, fn, args))
        return lab

    def tail(self, fn, *args, name=None):
        lab = name or self.new(fn.__name__)
        self.tq.append((lab, fn, args))
        return lab

    def flush(self):
        while self.q or self.tq:
            lab, fn, args = (self.q or self.tq).pop(0)
            self.here(lab)
            fn(self, lab, *args)

    def done(self):
        self.flush()
        for pos, width, target, base in self.fix:
            if target is None:
                v = 0
            elif isinstance(target, int):
                v = target
            else:
                v = self.at[target] - self.at[base]
                assert 0 <= v < (1 << (8 * width)), ("offset does not fit", target, base, v)
            self.b[pos:pos + width] = (v & ((1 << (8 * width)) - 1)).to_bytes(width, "big")
        return Tbl(self.b, self.at)


# ---- shared formats: Coverage, ClassDef, Device, FeatureParams ----

def e_raw(a, me, data):
    a.w(data)


def e_cov(a, me, glyphs, fmt=1):
    if fmt == 1:
        a.h(1, len(glyphs), *glyphs)
        return
    ranges, i = [], 0
    for g in glyphs:  # consecutive runs
        if ranges and g == ranges[-1][1] + 1:
            ranges[-1][1] = g
        else:
            ranges.append([g, g, i])
        i += 1
    a.h(2, len(ranges))
    for s, e, ci in ranges:
        a.h(s, e, ci)


def covref(a, glyphs, base, name, fmt=1):
    """An offset to a Coverage: glyphs (queued) or the label of one placed elsewhere."""
    a.o16(glyphs if isinstance(glyphs, str) else a.sub(e_cov, glyphs, fmt, name=name), base)


def format_cov(a, me, fmt, glyphs, cov_fmt=1):
    """The fields most GSUB/GPOS sub-tables open with: the format, then the Coverage offset
    (glyphs as in covref, labelled me.cov)."""
    a.h(fmt)
    covref(a, glyphs, me, me + ".cov", cov_fmt)


def offset_array(a, me, fn, items, names, spread=False, count=True, width=2):
    """A count (count=False: the caller writes it elsewhere), then an offset from me per item
    (width 2 or 4 bytes): None is NULL, a str the label of a sub-table placed elsewhere, else
    fn(item) (spread: fn(*item)) is queued, labelled names % i."""
    if count:
        a.h(len(items))
    for i, item in enumerate(items):
        if item is None or isinstance(item, str):
            target = item
        else:
            target = a.sub(fn, *(item if spread else (item,)), name=names % i)
        (a.o16 if width == 2 else a.o32)(target, me)


def e_classdef(a, me, m, fmt=2):
    """m: {glyph: class}."""
    gs = sorted(m)
    if fmt == 1:
        a.h(1, gs[0], gs[-1] - gs[0] + 1, *[m.get(g, 0) for g in range(gs[0], gs[-1] + 1)])
        return
    ranges = []
    for g in gs:
        if ranges and g == ranges[-1][1] + 1 and m[g] == ranges[-1][2]:
            ranges[-1][1] = g
        else:
            ranges.append([g, g, m[g]])
    a.h(2, len(ranges))
    for r in ranges:
        a.h(*r)


DELTA_VARIATION_INDEX = 0x8000


def e_vdev(a, me, outer, inner, fmt=DELTA_VARIATION_INDEX):
    """spec: VariationIndex table (deltaSetOuterIndex, deltaSetInnerIndex, deltaFormat 0x8000)."""
    a.h(outer, inner, fmt)


def e_hdev(a, me, start, end, fmt, values):
    """spec: Device table (hinting), deltaFormat 1/2/3 = 2/4/8 bits per value."""
    bits = {1: 2, 2: 4, 3: 8}[fmt]
    words, acc, n = [], 0, 0
    for v in values:
        acc = (acc << bits) | (v & ((1 << bits) - 1))
        n += bits
        if n == 16:
            words.append(acc)
            acc, n = 0, 0
    if n:
        words.append(acc << (16 - n))
    a.h(start, end, fmt, *words)


def e_params_size(a, me):
    # spec 'size': designSize (decipoints), subfamilyIdentifier, subfamilyNameID, range
    a.h(100, 0, 0, 0, 0)


def e_params_ss(a, me):
    a.h(0, 256)  # version 0, UINameID


def e_params_cv(a, me, chars=(0x41, 0x42)):
    # format 0, featUiLabelNameId, featUiTooltipTextNameId, sampleTextNameId,
    # numNamedParameters, firstParamUiLabelNameId, charCount, character[] (uint24)
    a.h(0, 256, 0, 0, 1, 257, len(chars))
    for c in chars:
        a.w(c.to_bytes(3, "big"))


# ---- the common layout header: ScriptList, FeatureList, LookupList ----

def e_langsys(a, me, feats):
    a.h(0, 0xFFFF, len(feats), *feats)


def e_script(a, me, feats, langs):
    a.o16(a.sub(e_langsys, feats, name=me + ".dflt"), me)
    a.h(len(langs))
    for i, (t, lf) in enumerate(langs):
        a.w(tag(t))
        a.o16(a.sub(e_langsys, lf, name="%s.ls%d" % (me, i)), me)


def e_scriptlist(a, me, scripts):
    a.h(len(scripts))
    for i, (t, feats, langs) in enumerate(scripts):
        a.w(tag(t))
        a.o16(a.sub(e_script, feats, langs, name="S%d" % i), me)


def e_feature(a, me, lookups, params=None):
    a.o16(a.sub(*params, name=me + ".params") if params else None, me)
    a.h(len(lookups), *lookups)


def e_featurelist(a, me, features):
    a.h(len(features))
    for i, (t, lookups, params) in enumerate(features):
        a.w(tag(t))
        a.o16(a.sub(e_feature, lookups, params, name="F%d" % i), me)


def e_lookup(a, me, ltype, flag, subs, mark_set=None):
    """subs: (fn, args...) tuples to queue, or labels of sub-tables placed elsewhere."""
    a.h(ltype, flag, len(subs))
    for i, s in enumerate(subs):
        a.o16(s if isinstance(s, (str, int)) or s is None else a.sub(s[0], *s[1:], name="%s.%d" % (me, i)), me)
    if mark_set is not None:
        a.h(mark_set)


def e_lookuplist(a, me, lookups):
    offset_array(a, me, e_lookup, lookups, "L%d", spread=True)


def e_cond(a, me, c):
    fmt, axis, lo, hi = c
    a.h(fmt, axis)
    a.w(f2d14(lo), f2d14(hi))


def e_condset(a, me, conds):
    offset_array(a, me, e_cond, conds, me + ".c%d", width=4)


def e_fts(a, me, substs):
    a.h(1, 0, len(substs))
    for k, (fi, lookups) in enumerate(substs):
        a.h(fi)
        a.o32(a.sub(e_feature, lookups, None, name="%s.f%d" % (me, k)), me)


def e_featvars(a, me, records):
    """records: [(conditions [(format, axis, min, max)], substitutions [(featureIndex, lookups)])]."""
    a.h(1, 0)
    a.w(u32(len(records)))
    for i, (conds, substs) in enumerate(records):
        a.o32(a.sub(e_condset, conds, name="%s.cs%d" % (me, i)), me)
        a.o32(a.sub(e_fts, substs, name="%s.fts%d" % (me, i)), me)


def layout_asm(scripts, features, lookups, fv=None, hdr="HDR", a=None, fv_first=False):
    """A GSUB/GPOS: header (1.1 when fv is given), lists; returns the Asm (not yet done).
    fv_first: the FeatureVariations are laid out before the lists (and its sub-tables before
    the Feature tables), so that its offsets can reach into the FeatureList."""
    a = a or Asm()
    a.here(hdr)
    a.h(1, 1 if fv is not None else 0)
    fvl = a.sub(e_featvars, fv, name="FV") if fv is not None and fv_first else None
    sl = a.sub(e_scriptlist, scripts, name="SL")
    fl = a.sub(e_featurelist, features, name="FL")
    ll = a.sub(e_lookuplist, lookups, name="LL")
    if fv is not None and not fv_first:
        fvl = a.sub(e_featvars, fv, name="FV")
    for lab in (sl, fl, ll):
        a.o16(lab, hdr)
    if fv is not None:
        a.o32(fvl, hdr)
    return a


# ---- GPOS sub-tables ----

VF_XPLA, VF_YPLA, VF_XADV, VF_YADV = 0x01, 0x02, 0x04, 0x08
VF_XPLA_DEV, VF_YPLA_DEV, VF_XADV_DEV, VF_YADV_DEV = 0x10, 0x20, 0x40, 0x80
VR_FIELDS = ["xp", "yp", "xa", "ya", "dxp", "dyp", "dxa", "dya"]


def vrec(a, fmt, base, v):
    """spec: ValueRecord, fields in ValueFormat bit order; device fields are labels (offsets
    from `base`). Reserved bits (8-15) add a 0 field each, as a reader counting bits expects."""
    v = v or {}
    for bit in range(16):
        if not fmt & (1 << bit):
            continue
        if bit < 4:
            a.h(v.get(VR_FIELDS[bit], 0))
        elif bit < 8:
            a.o16(v.get(VR_FIELDS[bit]), base)
        else:
            a.h(0)


def e_anchor(a, me, spec):
    """spec: ('a1', x, y) | ('a2', x, y, point) | ('a3', x, y, xdev, ydev) (device labels)."""
    if spec[0] == "a1":
        a.h(1, spec[1], spec[2])
    elif spec[0] == "a2":
        a.h(2, spec[1], spec[2], spec[3])
    else:
        a.h(3, spec[1], spec[2])
        a.o16(spec[3], me)
        a.o16(spec[4], me)


def anchor_off(a, spec, base, name=None):
    if spec is None or isinstance(spec, str):
        a.o16(spec, base)  # NULL or a shared anchor's label
    else:
        a.o16(a.sub(e_anchor, spec, name=name), base)


def e_single1(a, me, glyphs, vf, v):
    format_cov(a, me, 1, glyphs)
    a.h(vf)
    vrec(a, vf, me, v)


def e_single2(a, me, glyphs, vf, recs):
    format_cov(a, me, 2, glyphs, 2)
    a.h(vf, len(recs))
    for v in recs:
        vrec(a, vf, me, v)


def e_pairset(a, me, vf1, vf2, recs):
    # device offsets in a PairSet's records count from the PairSet (fontTools, HarfBuzz)
    a.h(len(recs))
    for g2, v1, v2 in recs:
        a.h(g2)
        vrec(a, vf1, me, v1)
        vrec(a, vf2, me, v2)


def e_pair1(a, me, glyphs, vf1, vf2, sets):
    format_cov(a, me, 1, glyphs)
    a.h(vf1, vf2)
    offset_array(a, me, e_pairset, [(vf1, vf2, s) for s in sets], me + ".ps%d", spread=True)


def e_pair2(a, me, glyphs, vf1, vf2, cd1, cd2, c1n, c2n, recs):
    """recs(c1, c2) -> (v1, v2)."""
    format_cov(a, me, 2, glyphs)
    a.h(vf1, vf2)
    a.o16(cd1 if isinstance(cd1, str) else a.sub(e_classdef, cd1, 2, name=me + ".cd1"), me)
    a.o16(cd2 if isinstance(cd2, str) else a.sub(e_classdef, cd2, 1, name=me + ".cd2"), me)
    a.h(c1n, c2n)
    for c1 in range(c1n):
        for c2 in range(c2n):
            v1, v2 = recs(c1, c2)
            vrec(a, vf1, me, v1)
            vrec(a, vf2, me, v2)


def e_cursive(a, me, glyphs, pairs):
    format_cov(a, me, 1, glyphs)
    a.h(len(pairs))
    for i, (en, ex) in enumerate(pairs):
        anchor_off(a, en, me, "%s.en%d" % (me, i))
        anchor_off(a, ex, me, "%s.ex%d" % (me, i))


def e_markarray(a, me, marks):
    a.h(len(marks))
    for i, (cls, an) in enumerate(marks):
        a.h(cls)
        anchor_off(a, an, me, "%s.a%d" % (me, i))


def e_anchormatrix(a, me, rows):
    a.h(len(rows))
    for i, row in enumerate(rows):
        for k, an in enumerate(row):
            anchor_off(a, an, me, "%s.a%d_%d" % (me, i, k))


def mark_attach(a, me, k, array_fn, mglyphs, glyphs, classes, marks, array):
    """MarkBasePos, MarkMarkPos and MarkLigPos format 1: Coverages of the marks and of what they
    attach to (labelled me.mcov, me.<k>cov), the class count, the MarkArray and the array_fn
    array (me.<k>a)."""
    a.h(1)
    covref(a, mglyphs, me, me + ".mcov")
    covref(a, glyphs, me, me + "." + k + "cov")
    a.h(classes)
    a.o16(a.sub(e_markarray, marks, name=me + ".ma"), me)
    a.o16(a.sub(array_fn, array, name=me + "." + k + "a"), me)


def e_markbase(a, me, mglyphs, bglyphs, classes, marks, bases):
    """MarkBasePos and MarkMarkPos (same layout)."""
    mark_attach(a, me, "b", e_anchormatrix, mglyphs, bglyphs, classes, marks, bases)


def e_ligarray(a, me, ligs):
    offset_array(a, me, e_anchormatrix, ligs, me + ".att%d")


def e_marklig(a, me, mglyphs, lglyphs, classes, marks, ligs):
    mark_attach(a, me, "l", e_ligarray, mglyphs, lglyphs, classes, marks, ligs)


def e_ext(a, me, ltype, target):
    """spec: Extension format 1; target is (fn, args...) or a label or a raw offset."""
    a.h(1, ltype)
    a.o32(target if isinstance(target, (str, int)) else a.sub(target[0], *target[1:], name=me + ".x"), me)


# ---- contextual sub-tables (the same in GSUB and GPOS) ----

def seq_records(a, recs):
    for si, li in recs:
        a.h(si, li)


def e_rule(a, me, inp, recs):
    a.h(len(inp) + 1, len(recs), *inp)
    seq_records(a, recs)


def e_ruleset(a, me, rules):
    offset_array(a, me, e_rule, rules, me + ".r%d", spread=True)


def e_ctx1(a, me, glyphs, sets):
    format_cov(a, me, 1, glyphs)
    offset_array(a, me, e_ruleset, sets, me + ".rs%d")


def e_ctx2(a, me, glyphs, cd, sets):
    format_cov(a, me, 2, glyphs)
    a.o16(a.sub(e_classdef, cd, name=me + ".cd"), me)
    offset_array(a, me, e_ruleset, sets, me + ".rs%d")


def e_ctx3(a, me, covs, recs):
    a.h(3, len(covs), len(recs))
    offset_array(a, me, e_cov, covs, me + ".cov%d", count=False)
    seq_records(a, recs)


def e_chainrule(a, me, back, inp, look, recs):
    a.h(len(back), *back)
    a.h(len(inp) + 1, *inp)
    a.h(len(look), *look)
    a.h(len(recs))
    seq_records(a, recs)


def e_chainruleset(a, me, rules):
    offset_array(a, me, e_chainrule, rules, me + ".r%d", spread=True)


def e_chain1(a, me, glyphs, sets):
    format_cov(a, me, 1, glyphs)
    offset_array(a, me, e_chainruleset, sets, me + ".rs%d")


def e_chain2(a, me, glyphs, bcd, icd, lcd, sets):
    format_cov(a, me, 2, glyphs)
    for k, cd in (("bcd", bcd), ("icd", icd), ("lcd", lcd)):
        a.o16(a.sub(e_classdef, cd, name=me + "." + k), me)
    offset_array(a, me, e_chainruleset, sets, me + ".rs%d")


def e_chain3(a, me, back, inp, look, recs):
    a.h(3)
    for k, covs in (("b", back), ("i", inp), ("l", look)):
        offset_array(a, me, e_cov, covs, me + "." + k + "%d")
    a.h(len(recs))
    seq_records(a, recs)


# ---- GSUB sub-tables ----

def e_ss1(a, me, glyphs, delta):
    format_cov(a, me, 1, glyphs)
    a.h(delta)


def e_ss2(a, me, glyphs, subst):
    format_cov(a, me, 2, glyphs)
    a.h(len(subst), *subst)


def e_glyphseq(a, me, glyphs):
    a.h(len(glyphs), *glyphs)


def e_multiple(a, me, glyphs, seqs):
    """MultipleSubst and AlternateSubst (same layout)."""
    format_cov(a, me, 1, glyphs)
    offset_array(a, me, e_glyphseq, seqs, me + ".seq%d")


def e_lig(a, me, lig, comps):
    a.h(lig, len(comps) + 1, *comps)


def e_ligset(a, me, ligs):
    offset_array(a, me, e_lig, ligs, me + ".l%d", spread=True)


def e_ligature(a, me, glyphs, sets):
    format_cov(a, me, 1, glyphs)
    offset_array(a, me, e_ligset, sets, me + ".ls%d")


def e_reverse(a, me, glyphs, back, look, subst):
    format_cov(a, me, 1, glyphs)
    for k, covs in (("b", back), ("l", look)):
        offset_array(a, me, e_cov, covs, me + "." + k + "%d")
    a.h(len(subst), *subst)


# ---- GDEF ----

def e_caret(a, me, spec):
    if spec[0] == 3:
        a.h(3, spec[1])
        a.o16(spec[2], me)
    else:
        a.h(*spec)


def e_ligglyph(a, me, carets):
    offset_array(a, me, e_caret, carets, me + ".c%d")


def e_ligcaretlist(a, me, glyphs, ligs):
    covref(a, glyphs, me, me + ".cov")
    offset_array(a, me, e_ligglyph, ligs, me + ".lg%d")


def e_attachlist(a, me, glyphs, points):
    covref(a, glyphs, me, me + ".cov")
    offset_array(a, me, e_glyphseq, points, me + ".ap%d")


def e_markglyphsets(a, me, sets):
    a.h(1)
    offset_array(a, me, e_cov, sets, me + ".cov%d", width=4)


# the GDEF store: 2 axes (wght, wdth of the base font), 2 regions, 6 items of 16-bit deltas
LAY_REGIONS = [[(0, 1, 1), (0, 0, 0)], [(0, 0, 0), (-1, -1, 0)]]
LAY_ITEMS = [[10, -3], [20, 5], [-30, 7], [100, 0], [-7, -7], [3, 40]]


def lay_ivs(axis_count=2, regions=LAY_REGIONS, items=LAY_ITEMS):
    return ivs_table(axis_count, regions, [([0, 1], items)])


def gdef_asm(minor=3, ivs=None, caret_dev=("DEV1", None), hdr="GDEF", a=None):
    """GDEF with every sub-table: GlyphClassDef, AttachList, LigCaretList (the three caret
    formats, format 3 with a VariationIndex device), MarkAttachClassDef, MarkGlyphSetsDef and an
    ItemVariationStore. caret_dev: the device of the format 3 caret (label, and when it is to be
    created here, (outer, inner))."""
    a = a or Asm()
    a.here(hdr)
    a.h(1, minor)
    a.o16(a.sub(e_classdef, {1: 1, 2: 1, 3: 1, 4: 2, 5: 3, 6: 3, 7: 4}, name="GCD"), hdr)
    a.o16(a.sub(e_attachlist, [1, 2], [[0, 2], [1]], name="ATT"), hdr)
    dev = caret_dev[0]
    a.o16(a.sub(e_ligcaretlist, [4], [[(1, 300), (2, 5), (3, 400, dev)]], name="LCL"), hdr)
    a.o16(a.sub(e_classdef, {5: 1, 6: 2}, 1, name="MACD"), hdr)
    if minor >= 2:
        a.o16(a.sub(e_markglyphsets, [[5], [5, 6]], name="MGS"), hdr)
    if minor >= 3:
        a.o32(a.sub(e_raw, lay_ivs() if ivs is None else ivs, name="IVS"), hdr)
    if caret_dev[1] is not None:
        a.tail(e_vdev, *caret_dev[1], name=dev)
    return a


# ---- BASE ----

def e_basecoord(a, me, spec):
    """('b1', coord) | ('b2', coord, glyph, point) | ('b3', coord, device label)."""
    if spec[0] == "b3":
        a.h(3, spec[1])
        a.o16(spec[2], me)
    else:
        a.h(int(spec[0][1]), *spec[1:])


def coord_off(a, spec, base, name):
    if spec is None or isinstance(spec, str):
        a.o16(spec, base)
    else:
        a.o16(a.sub(e_basecoord, spec, name=name), base)


def e_basevalues(a, me, default, coords):
    a.h(default, len(coords))
    for i, c in enumerate(coords):
        coord_off(a, c, me, "%s.c%d" % (me, i))


def e_minmax(a, me, mn, mx, feats):
    coord_off(a, mn, me, me + ".min")
    coord_off(a, mx, me, me + ".max")
    a.h(len(feats))
    for i, (t, fmn, fmx) in enumerate(feats):
        a.w(tag(t))
        coord_off(a, fmn, me, "%s.f%dmin" % (me, i))
        coord_off(a, fmx, me, "%s.f%dmax" % (me, i))


def e_basescript(a, me, values, minmax, langs):
    a.o16(a.sub(e_basevalues, *values, name=me + ".bv") if values else None, me)
    a.o16(a.sub(e_minmax, *minmax, name=me + ".mm") if minmax else None, me)
    a.h(len(langs))
    for i, (t, mm) in enumerate(langs):
        a.w(tag(t))
        a.o16(a.sub(e_minmax, *mm, name="%s.ls%d" % (me, i)), me)


def e_basescriptlist(a, me, scripts):
    a.h(len(scripts))
    for i, (t, spec) in enumerate(scripts):
        a.w(tag(t))
        a.o16(a.sub(e_basescript, *spec, name="%s.s%d" % (me, i)), me)


def e_baseaxis(a, me, tags, scripts):
    a.o16(a.sub(e_raw, u16(len(tags)) + b"".join(tag(t) for t in tags), name=me + ".tags"), me)
    a.o16(a.sub(e_basescriptlist, scripts, name=me + ".sl"), me)


LAY_BASE_ITEMS = [[-20, 4], [15, 0], [0, -9]]


def base_asm(minor=1):
    """BASE 1.1: horizontal and vertical axes, BaseCoord formats 1-3 (format 3 with
    VariationIndex devices BDEV0-2 into its own ItemVariationStore), MinMax with a feature
    record and a language system."""
    a = Asm()
    a.here("BASE")
    a.h(1, minor)
    horiz = [("DFLT", ((1, [("b1", -120), ("b3", 0, "BDEV0")]),
                       (("b3", -200, "BDEV1"), ("b2", 800, 1, 2), [("kern", ("b3", -210, "BDEV2"), None)]),
                       [("TRK ", (("b1", -190), ("b3", 820, "BDEV0"), []))])),
             ("latn", ((1, [("b1", -100), ("b3", 0, "BDEV2")]), None, []))]
    vert = [("DFLT", ((0, [("b3", 0, "BDEV1"), ("b1", 120)]), None, []))]
    a.o16(a.sub(e_baseaxis, ["ideo", "romn"], horiz, name="HA"), "BASE")
    a.o16(a.sub(e_baseaxis, ["ideo", "romn"], vert, name="VA"), "BASE")
    if minor >= 1:
        a.o32(a.sub(e_raw, lay_ivs(items=LAY_BASE_ITEMS), name="BIVS"), "BASE")
    for i in range(3):
        a.tail(e_vdev, 0, i, name="BDEV%d" % i)
    return a


# ---- the valid tables every layout case starts from ----

LAY_SCRIPTS_GPOS = [("DFLT", [0, 1, 2, 3, 4], []), ("latn", [0, 1, 2, 3, 4], [("TRK ", [1, 2])])]
LAY_SCRIPTS_GSUB = [("DFLT", [0, 1, 2, 3, 4, 5], []), ("latn", [0, 1, 3, 4], [("TRK ", [4])])]


def gpos_lookups(hd=None):
    XA = VF_XADV | VF_XADV_DEV
    return [
        (1, 0, [(e_single1, [1, 2, 3], XA, {"xa": 10, "dxa": "DEV0"})]),                      # L0
        (1, 0, [(e_single2, [1, 2, 3], VF_XPLA | VF_XADV | VF_XPLA_DEV | VF_XADV_DEV,
                 [{"xp": 1, "xa": 2, "dxp": "DEV0", "dxa": "DEV1"}, {"xp": 3, "xa": 4, "dxp": hd},
                  {"xa": 5}])]),                                                               # L1
        (2, 0, [(e_pair1, [1, 2], XA, VF_XADV,
                 [[(2, {"xa": -20, "dxa": "DEV2"}, {"xa": 5}), (3, {"xa": -10}, {})],
                  [(1, {"xa": -5, "dxa": "DEV0"}, {"xa": 1})]])]),                              # L2
        (3, 0, [(e_cursive, [1, 2], [(("a3", 100, 200, "DEV1", None), ("a1", 500, 200)),
                                     (None, ("a2", 600, 0, 3))])]),                            # L3
        (4, 0, [(e_markbase, [5, 6], [1, 2, 3], 2,
                 [(0, ("a3", 250, 700, "DEV0", "DEV3")), (1, ("a1", 250, -100))],
                 [[("a1", 300, 700), ("a3", 300, -50, None, "DEV2")], [("a1", 310, 700), None],
                  [("a2", 320, 700, 1), ("a1", 320, -40)]])]),                                 # L4
        (2, 0, [(e_pair2, [1, 2, 3], XA, 0, {1: 1, 2: 1}, {1: 0, 2: 1, 3: 2}, 2, 3,
                 lambda c1, c2: ({"xa": 10 * c1 - c2, "dxa": ["DEV0", None, "DEV3"][c2] if c1 else None}, None))]),  # L5
        (5, 0, [(e_marklig, [5], [4], 1, [(0, ("a3", 200, 600, "DEV1", None))],
                 [[[("a3", 100, 600, "DEV2", None)], [None]]])]),                              # L6
        (9, 0, [(e_ext, 1, (e_single1, [2, 3], VF_YADV | VF_YADV_DEV, {"ya": 7, "dya": "DEV3"}))]),  # L7
        (6, 0, [(e_markbase, [5], [6], 1, [(0, ("a1", 0, 0))], [[("a3", 10, 20, "DEV0", "DEV0")]])]),  # L8
        (7, 0, [(e_ctx1, [1], [[([2], [(0, 0), (1, 1)])]])]),                                    # L9
        (7, 0, [(e_ctx2, [1, 2], {1: 1, 2: 2}, [None, [([2], [(0, 2)])], None])]),               # L10
        (7, 0, [(e_ctx3, [[1], [2, 3]], [(0, 0), (1, 5)])]),                                     # L11
        (8, 0, [(e_chain1, [1], [[([3], [2], [1], [(0, 0)])]])]),                                # L12
        (8, 0, [(e_chain2, [1, 2], {3: 1}, {1: 1, 2: 1}, {3: 1}, [None, [([1], [1], [1], [(0, 2)])]])]),  # L13
        (8, 0, [(e_chain3, [[3]], [[1, 2]], [[3]], [(0, 0)])]),                                  # L14
    ]


GPOS_FEATURES = [("curs", [3], None), ("kern", [0, 1, 2, 5, 7, 9, 10, 11, 12, 13, 14], None),
                 ("mark", [4, 6], None), ("mkmk", [8], None), ("size", [], (e_params_size,))]
GPOS_FV = [([(1, 0, 0.5, 1.0)], [(1, [0, 2])]), ([(1, 1, -1.0, -0.5), (1, 0, -1.0, 0.0)], [(1, [5])])]


def gpos_devices(a):
    for i in range(4):
        a.tail(e_vdev, 0, i, name="DEV%d" % i)
    a.tail(e_hdev, 12, 14, 1, [1, -1, 0], name="HD")  # used only where a case asks for it


def gpos_rich(fv=True, lookups=None, features=None):
    """GPOS 1.1 with every lookup type (both formats of single and pair adjustment, the three
    anchor formats, VariationIndex devices DEV0-3 shared across sub-tables, a hinting device
    HD, an Extension, the six contextual formats) and FeatureVariations on wght and wdth."""
    a = layout_asm(LAY_SCRIPTS_GPOS, features or GPOS_FEATURES, lookups or gpos_lookups(),
                   GPOS_FV if fv else None)
    gpos_devices(a)
    return a.done()


def gsub_lookups():
    return [
        (1, 0, [(e_ss1, [1, 2], 1)]),                                                            # L0
        (1, 0, [(e_ss2, [1, 2, 3], [2, 3, 1])]),                                                 # L1
        (2, 0, [(e_multiple, [1], [[2, 3]])]),                                                   # L2
        (3, 0, [(e_multiple, [1, 2], [[2, 3], [3]])]),                                           # L3
        (4, 0, [(e_ligature, [1, 2], [[(4, [2, 3]), (5, [2])], [(6, [3])]])]),                    # L4
        (5, 0, [(e_ctx1, [1], [[([2], [(0, 0)])]])]),                                            # L5
        (5, 0, [(e_ctx2, [1, 2], {1: 1, 2: 2}, [None, [([2], [(1, 1)])], None])]),               # L6
        (5, 0, [(e_ctx3, [[1], [2]], [(0, 0)])]),                                                # L7
        (6, 0, [(e_chain1, [1], [[([3], [2], [1], [(0, 0)])]])]),                                # L8
        (6, 0, [(e_chain2, [1, 2], {3: 1}, {1: 1, 2: 1}, {3: 1}, [None, [([1], [1], [1], [(0, 1)])]])]),  # L9
        (6, 0, [(e_chain3, [[3]], [[1, 2]], [[3]], [(0, 0)])]),                                  # L10
        (7, 0, [(e_ext, 1, (e_ss1, [3], -1))]),                                                  # L11
        (8, 0, [(e_reverse, [1, 2], [[3]], [[3]], [2, 1])]),                                     # L12
    ]


GSUB_FEATURES = [("calt", [5, 6, 7, 8, 9, 10], None), ("ccmp", [2, 3, 11, 12], None),
                 ("cv01", [1], (e_params_cv,)), ("liga", [4], None), ("rvrn", [0], None),
                 ("ss01", [1], (e_params_ss,))]
GSUB_FV = [([(1, 0, 0.5, 1.0)], [(4, [1])]), ([(1, 1, -1.0, -0.5)], [(3, []), (4, [0, 1])])]


def gsub_rich(fv=True, lookups=None, features=None):
    """GSUB 1.1 with every lookup type and format, FeatureParams of 'cv01' and 'ss01', and
    FeatureVariations ('rvrn' swapped at wght >= 0.5)."""
    return layout_asm(LAY_SCRIPTS_GSUB, features or GSUB_FEATURES, lookups or gsub_lookups(),
                      GSUB_FV if fv else None).done()


def gdef_rich(minor=3, ivs=None):
    return gdef_asm(minor, ivs, ("CDEV", (0, 1))).done()


def base_rich(minor=1):
    return base_asm(minor).done()


LAY_FONT = "Roboto-Variable.ABC.ttf"  # 8 glyphs, wght 100-900 and wdth 75-100, 18 instances


def lay_font(**tables):
    """The base font (GSUB/GPOS/GDEF/BASE replaced by the rich ones) with tables replaced:
    tag=Tbl|bytes, or None to drop it."""
    t = parse_tables(read_font(LAY_FONT))
    t.update({"GSUB": gsub_rich().bytes(), "GPOS": gpos_rich().bytes(), "GDEF": gdef_rich().bytes(),
              "BASE": base_rich().bytes()})
    for k, v in tables.items():
        if v is None:
            t.pop(k, None)
        else:
            t[k] = v.bytes() if isinstance(v, Tbl) else bytes(v)
    return sfnt(t)


# ---- hand-laid layout tables for what patching cannot express ----

def lay_single(a, me):
    """A tiny valid SinglePos format 1 (XAdvance -5 on glyph 1), self-contained bytes."""
    a.h(1, 8, VF_XADV, (-5) & 0xFFFF)
    a.h(1, 1, 1)


def lay_minimal(kind, lookups_raw, features=None, n_lookups=1, ll_first=False):
    """GSUB/GPOS 1.0: one script, one feature using lookups 0..n_lookups-1, and a LookupList
    written by lookups_raw(asm, label) (the caller lays out everything below it)."""
    a = Asm()
    a.here("HDR")
    a.h(1, 0)
    feat = features or [("kern" if kind == "GPOS" else "ccmp", list(range(n_lookups)), None)]
    # ll_first: the LookupList is laid out first, so that what it queues comes right after the
    # three lists (before the Feature table); else last (it may be larger than 64 KB)
    ll = a.sub(lookups_raw, name="LL") if ll_first else None
    a.o16(a.sub(e_scriptlist, [("DFLT", list(range(len(feat))), [])], name="SL"), "HDR")
    a.o16(a.sub(e_featurelist, feat, name="FL"), "HDR")
    a.o16(ll or a.tail(lookups_raw, name="LL"), "HDR")  # else after everything
    return a


def all_in_one(kind):
    """8 bytes that are at once the LookupList (1 lookup at offset 0), that Lookup (type 1,
    1 sub-table at offset 0), that sub-table (format 1, Coverage at offset 0) and that
    Coverage (format 1, 0 glyphs): a reader taking offset 0 as 'here' loops on itself."""
    def ll(a, me):
        a.h(1, 0, 1, 0)
    return lay_minimal(kind, ll).done()


def ext_wrap32(kind):
    """Extension A points at Extension B (8 bytes on); B's offset is 0xFFFFFFF8: added in 32
    bits (a 32-bit size_t, or uint32 arithmetic) it is A again."""
    t = 9 if kind == "GPOS" else 7
    return layout_asm([("DFLT", [0], [])], [("kern" if kind == "GPOS" else "ccmp", [0, 1], None)],
                      [(t, 0, [(e_ext, t, "L0.1"), (e_ext, t, 0xFFFFFFF8)]),
                       (t, 0, [(e_ext, 1, (lay_single if kind == "GPOS" else lay_ss_st,))])]).done()


def lay_ss_st(a, me):
    a.h(1, 6, 1)  # SingleSubst format 1, delta 1
    a.h(1, 1, 1)


def ext_to_ext(kind):
    t = 9 if kind == "GPOS" else 7
    leaf = (lay_single,) if kind == "GPOS" else (lay_ss_st,)
    return layout_asm([("DFLT", [0], [])], [("kern" if kind == "GPOS" else "ccmp", [0], None)],
                      [(t, 0, [(e_ext, t, (e_ext, 1, leaf))])]).done()


def ext_chain(kind, n, linked):
    """n Extension sub-tables in a row, each pointing at the next (Extension -> Extension), the
    last at a SinglePos/SingleSubst. linked: the lookup lists all n of them as its sub-tables
    (a walker that does not remember what it visited follows n^2/2 links); else only the first."""
    t = 9 if kind == "GPOS" else 7

    def ll(a, me):
        a.h(1, 4)  # one lookup, right after this list
        subs = n if linked else 1
        a.h(t, 0, subs)
        start = 6 + 2 * subs
        for i in range(subs):
            a.h(start + 8 * i - 0)
        for i in range(n):
            a.h(1, t if i + 1 < n else 1)  # the last one: a SinglePos/SingleSubst follows
            a.w(u32(8))
        (lay_single if kind == "GPOS" else lay_ss_st)(a, me)
    return lay_minimal(kind, ll).done()


def e_bigpair(a, me, c1n, c2n):
    """PairPos format 2 with c1n x c2n records of XAdvance + XAdvDevice, every device the same
    VariationIndex table (c1n = 100, c2n = 150: 60 KB)."""
    dev = a.sub(e_vdev, 0, 1, name=me + ".dev")
    e_pair2(a, me, [1, 2, 3, 4, 5, 6, 7], VF_XADV | VF_XADV_DEV, 0,
            {g: g % c1n for g in range(1, 8)}, {g: g % c2n for g in range(1, 8)}, c1n, c2n,
            lambda c1, c2: ({"xa": (c1 * 7 + c2) % 50 - 25, "dxa": dev}, None))


def e_lookups_shared(a, me, n, target):
    a.h(n)
    for _ in range(n):
        a.o16(target, me)


def fan_shared_lookup(n):
    """n lookups, all the same Lookup table (Extension, n sub-tables, all the same Extension
    sub-table) pointing at one 60 KB PairPos: n^2 visits of 15000 value records for a walker
    without memory of offsets."""
    def ll(a, me):
        lk = a.sub(e_lookup, 9, 0, ["EXT"] * n, name="LK")
        a.sub(e_ext, 2, "PP", name="EXT")
        e_lookups_shared(a, me, n, lk)
        a.tail(e_bigpair, 100, 150, name="PP")
    return lay_minimal("GPOS", ll, n_lookups=n, ll_first=True).done()


def fan_distinct_lookups(n):
    """n distinct Lookup tables, each with its own Extension sub-table, all pointing at one 60 KB
    PairPos."""
    def ll(a, me):
        a.h(n)
        for i in range(n):
            a.o16(a.sub(e_lookup, 9, 0, [(e_ext, 2, "PP")], name="L%d" % i), me)
        a.tail(e_bigpair, 100, 150, name="PP")
    return lay_minimal("GPOS", ll, n_lookups=n, ll_first=True).done()


def fan_cov_overlap(m, count=30000):
    """One GSUB lookup of m SingleSubst sub-tables whose Coverages start 4 bytes apart in one
    run of words 1, count, 1, count...: each is a format 1 Coverage of `count` glyphs, all
    overlapping (m x count glyph reads, m x 60 KB if each is decoded into its own copy)."""
    def ll(a, me):
        a.h(1, 4)  # the lookup right after the list
        a.h(1, 0, m)
        for i in range(m):
            a.h(6 + 2 * m + 6 * i)
        for i in range(m):
            a.h(1, 6 * m - 2 * i, 1)
        a.h(*([1, count] * (m + count // 2 + 1)))
    return lay_minimal("GSUB", ll).done()


def fan_classdef_overlap(m, count=30000):
    """One GPOS lookup of m PairPos format 2 sub-tables (ValueFormats 0) whose ClassDefs start
    6 bytes apart in a run of words 1, 1, count: each a format 1 ClassDef of `count` glyphs."""
    def ll(a, me):
        a.h(1, 4)
        a.h(2, 0, m)
        for i in range(m):
            a.h(6 + 2 * m + 16 * i)
        cov = 6 + 18 * m  # from the lookup
        reg = cov + 6
        for i in range(m):
            st = 6 + 2 * m + 16 * i
            a.h(2, cov - st, 0, 0, reg + 6 * i - st, reg + 6 * i + 6 - st, 1, 1)
        a.h(1, 1, 1)  # the Coverage: glyph 1
        a.h(*([1, 1, count] * (m + 2 + count // 3 + 1)))
    return lay_minimal("GPOS", ll).done()


def fan_device_overlap(k):
    """One SinglePos format 2 of k value records with the four device fields (ValueFormat
    0xF0), 4k Device tables starting 6 bytes apart in a run of words 0, 0xFFFF, 3: each a
    hinting Device for sizes 0..65535 with 8-bit deltas (64 KB), all overlapping."""
    def ll(a, me):
        a.h(1, 4)
        a.h(1, 0, 1, 8)  # the lookup: type 1, 1 sub-table right after it
        cov = 8 + 8 * k
        reg = cov + 10
        a.h(2, cov, 0xF0, k)
        for i in range(k):
            a.h(*[reg + 6 * (4 * i + j) for j in range(4)])
        a.h(2, 1, 1, k, 0)  # Coverage format 2: glyphs 1..k
        a.h(*([0, 0xFFFF, 3] * (4 * k + 65536 // 6 + 3)))
    return lay_minimal("GPOS", ll).done()


def fan_features(n):
    """n features (the LangSys lists them all), all the same Feature table, which lists lookups
    0..n-1, all the same Lookup: n^2 feature-lookup pairs for a walker without memory."""
    a = Asm()
    a.here("HDR")
    a.h(1, 0)
    a.o16(a.sub(e_scriptlist, [("DFLT", list(range(n)), [])], name="SL"), "HDR")

    def fl(a, me):
        f = a.sub(e_feature, list(range(n)), None, name="FEAT")
        a.h(n)
        for _ in range(n):
            a.w(tag("kern"))
            a.o16(f, me)

    def ll(a, me):
        e_lookups_shared(a, me, n, a.sub(e_lookup, 1, 0, [(lay_single,)], name="LK"))
    a.o16(a.sub(fl, name="FL"), "HDR")
    a.o16(a.sub(ll, name="LL"), "HDR")
    return a.done()


def fan_nested_lookups(depth=40, fan=8):
    """GSUB lookups 0..depth-1, each a ContextSubst format 3 that applies lookup i+1 fan times:
    fan^depth nested lookup applications for a closure that expands them."""
    lookups = [(5, 0, [(e_ctx3, [[1]], [(0, i + 1)] * fan)]) for i in range(depth)]
    lookups.append((1, 0, [(e_ss1, [1], 1)]))
    return layout_asm([("DFLT", [0], [])], [("ccmp", [0], None)], lookups).done()


def fan_fv_records(n):
    """GSUB FeatureVariations with n records sharing one ConditionSet (which matches nowhere a
    test goes) and one FeatureTableSubstitution; the last record has no conditions (matches)."""
    a = layout_asm(LAY_SCRIPTS_GSUB, GSUB_FEATURES, gsub_lookups(), fv=[])

    def fv(a, me):
        a.h(1, 0)
        a.w(u32(n))
        for i in range(n):
            a.o32("CS" if i + 1 < n else None, me)
            a.o32("FTS", me)
        a.tail(e_condset, [(1, 0, 0.001, 0.002)], name="CS")
        a.tail(e_fts, [(4, [1])], name="FTS")
    # the records (8n bytes) after everything else, then their two shared sub-tables
    a.q = [e for e in a.q if e[0] != "FV"]
    a.tq.insert(0, ("FV", fv, ()))
    return a.done()


def fan_base_coords(n):
    """BASE whose default BaseValues has n BaseCoord offsets, all the same format 3 coordinate."""
    a = Asm()
    a.here("BASE")
    a.h(1, 1)
    a.o16(a.sub(e_baseaxis, ["ideo", "romn"], [("DFLT", ((1, ["BC"] * n), None, []))], name="HA"), "BASE")
    a.o16(None, "BASE")
    a.o32(a.sub(e_raw, lay_ivs(items=LAY_BASE_ITEMS), name="BIVS"), "BASE")
    a.tail(e_basecoord, ("b3", -120, "BDEV"), name="BC")
    a.tail(e_vdev, 0, 1, name="BDEV")
    return a.done()


def fan_gdef_carets(n):
    """GDEF LigCaretList of n ligature glyphs, all the same LigGlyph of n carets, all the same
    format 3 CaretValue (n^2 carets for a walker without memory)."""
    a = Asm()
    a.here("GDEF")
    a.h(1, 3, 0, 0)

    def lcl(a, me):
        lg = a.sub(e_ligglyph, ["CV"] * n, name="LG")
        a.o16(a.sub(e_cov, list(range(1, 8)), name="LCOV"), me)
        a.h(n)
        for _ in range(n):
            a.o16(lg, me)
    a.o16(a.sub(lcl, name="LCL"), "GDEF")
    a.h(0, 0)
    a.o32(a.sub(e_raw, lay_ivs(), name="IVS"), "GDEF")
    a.tail(e_caret, (3, 400, "CD"), name="CV")
    a.tail(e_vdev, 0, 1, name="CD")
    return a.done()


def alias_everything():
    """One 10-byte run X (words 1, 1, 2, 1, 1) that is a Coverage (glyph 2), a ClassDef
    (glyphs 1-2 in class 1), an Anchor (format 1 at 1, 2) and a hinting Device (size 1), used
    as all four by SinglePos, PairPos format 2, CursivePos and MarkBasePos."""
    XA = VF_XADV | VF_XADV_DEV
    lookups = [
        (1, 0, [(e_single1, "X", XA, {"xa": 5, "dxa": "X"})]),
        (2, 0, [(e_pair2, "X", XA, 0, "X", "X", 2, 2, lambda c1, c2: ({"xa": c1 - c2, "dxa": "X"}, None))]),
        (3, 0, [(e_cursive, "X", [("X", "X")])]),
        (4, 0, [(e_markbase, "X", "X", 1, [(0, "X")], [["X"]])]),
    ]
    a = layout_asm([("DFLT", [0], [])], [("kern", [0, 1, 2, 3], None)], lookups)
    a.tail(e_raw, u16(1) + u16(1) + u16(2) + u16(1) + u16(1), name="X")
    return a.done()


def alias_pairset_lookup():
    """A PairSet whose bytes are also lookup 1 of the LookupList: pairValueCount 2 = LookupType
    2, secondGlyph 0 = LookupFlag, XAdvance 1 = SubTableCount, secondGlyph 10 = the offset of
    a PairPos placed right after it."""
    def ps(a, me):
        a.h(2, 0, 1, 10, 7)
        # the PairPos 10 bytes on: Coverage at +12, PairSet at +18
        a.h(1, 12, VF_XADV, 0, 1, 18)
        a.h(1, 1, 1)
        a.h(1, 2, (-3) & 0xFFFF)

    def pp(a, me):  # PairPos format 1, one PairSet: PS
        a.h(1)
        a.o16("PPCOV", me)
        a.h(VF_XADV, 0, 1)
        a.o16("PS", me)

    def ll(a, me):
        a.h(2)
        a.o16(a.sub(e_lookup, 2, 0, ["PP"], name="L0"), me)
        a.o16("PS", me)
        a.tail(pp, name="PP")
        a.tail(ps, name="PS")
        a.tail(e_cov, [1], name="PPCOV")
    return lay_minimal("GPOS", ll, n_lookups=2).done()


def overlap_gdef_gpos():
    """GDEF and GPOS in one run of bytes (GPOS starts inside GDEF's table), one VariationIndex
    device SDEV used by a GDEF caret, GPOS value records and GPOS anchors."""
    a = gdef_asm(3, None, ("SDEV", None))
    layout_asm([("DFLT", [0], [])], [("kern", [0, 1, 2], None)], [
        (1, 0, [(e_single1, [1, 2], VF_XADV | VF_XADV_DEV, {"xa": 3, "dxa": "SDEV"})]),
        (3, 0, [(e_cursive, [1], [(("a3", 10, 20, "SDEV", "SDEV"), None)])]),
        (4, 0, [(e_markbase, [5], [1], 1, [(0, ("a3", 0, 0, "SDEV", None))], [[("a3", 5, 5, None, "SDEV")]])]),
    ], a=a)
    a.tail(e_vdev, 0, 2, name="SDEV")
    t = a.done()
    data = t.bytes()
    f = lay_font(GDEF=data, GPOS=data)
    _, gdef_off, _ = table_of(f, "GDEF")
    return set_record(f, "GPOS", off=gdef_off + t.at["HDR"], length=len(data) - t.at["HDR"])


def lay_apply(t, patches):
    """patches: (label, rel, bytes) or (label, rel, '->', target[, width])."""
    for p in patches:
        if len(p) >= 4 and p[2] == "->":
            t.off(p[0], p[1], p[3], p[4] if len(p) > 4 else 2)
        else:
            t.put(*p)
    return t


def layout_cases():
    GP, GS, GD, BA = blame_for("GPOS"), blame_for("GSUB"), blame_for("GDEF"), "BASE"
    FF, FFFF = u16(0xFFFF), u32(0xFFFFFFFF)

    def patched(t, rich, blame):
        """a case maker for table t: its rich table (built with **kw), patched, in lay_font"""
        def make(name, desc, *patches, cls="blame", det=blame, **kw):
            case("lay_%s_%s" % (t.lower(), name), cls, "" if cls == "valid" else det, desc,
                 lay_font(**{t: lay_apply(rich(**kw), patches)}))
        return make
    gpos, gsub = patched("GPOS", gpos_rich, GP), patched("GSUB", gsub_rich, GS)
    gdef, base = patched("GDEF", gdef_rich, GD), patched("BASE", base_rich, BA)

    # ---- well-formed ----
    case("lay_ok", "valid", "", "GSUB/GPOS 1.1 with every lookup type and FeatureVariations, GDEF 1.3 "
         "with every sub-table and a store, BASE 1.1 with a store (on " + LAY_FONT + ")", lay_font())
    case("lay_ok_v10", "valid", "", "GSUB/GPOS 1.0 (no FeatureVariations)",
         lay_font(GSUB=gsub_rich(fv=False), GPOS=gpos_rich(fv=False)))
    case("lay_gpos_hinting_device", "valid", "", "a hinting Device (sizes 12-14) beside VariationIndex ones",
         lay_font(GPOS=gpos_rich(lookups=gpos_lookups(hd="HD"))))
    case("lay_gsub_fv_first", "valid", "", "FeatureVariations laid out before the lists",
         lay_font(GSUB=layout_asm(LAY_SCRIPTS_GSUB, GSUB_FEATURES, gsub_lookups(), GSUB_FV, fv_first=True).done()))
    t = layout_asm(LAY_SCRIPTS_GSUB, GSUB_FEATURES, gsub_lookups(), GSUB_FV, fv_first=True).done()
    case("lay_gsub_fts_shares_feature", "valid", "",
         "a FeatureTableSubstitution's alternate Feature is a Feature table of the FeatureList (shared)",
         lay_font(GSUB=t.off("FV.fts0", 8, "F1", 4)))
    case("lay_base_shared_axis", "valid", "", "BASE: the vertical axis is the horizontal axis table",
         lay_font(BASE=base_rich().off("BASE", 6, "HA")))
    t = base_rich()
    for lab, rel in (("HA.sl.s0.bv", 4), ("HA.sl.s0.mm", 0), ("HA.sl.s0.mm", 2), ("HA.sl.s0.mm", 10),
                     ("HA.sl.s0.ls0", 0), ("HA.sl.s0.ls0", 2), ("HA.sl.s1.bv", 4), ("HA.sl.s1.bv", 6),
                     ("VA.sl.s0.bv", 4), ("VA.sl.s0.bv", 6)):
        t.off(lab, rel, "HA.sl.s0.bv.c1")
    case("lay_base_shared_coord", "valid", "", "BASE: every BaseCoord offset points at one format 3 coordinate",
         lay_font(BASE=t))

    # ---- cycles in the offset graph (an offset of 0 is NULL; a reader taking it as 'here', or
    #      adding 32-bit offsets in 32 bits, meets a cycle) ----
    gpos("cyc_lookup_sub0", "PairPos lookup: sub-table offset 0 (the Lookup itself)", ("L2", 6, u16(0)))
    gsub("cyc_lookup_sub0", "ChainContext lookup: sub-table offset 0 (the Lookup itself)", ("L8", 6, u16(0)))
    gpos("cyc_lookuplist_off0", "LookupList: lookup 0 at offset 0 (the LookupList)", ("LL", 2, u16(0)))
    for k in ("GPOS", "GSUB"):
        lk = k.lower()
        case("lay_%s_cyc_all_in_one" % lk, "blame", blame_for(k),
             "LookupList = Lookup = sub-table = Coverage: 8 bytes, every offset 0", lay_font(**{k: all_in_one(k)}))
        case("lay_%s_cyc_ext_wrap32" % lk, "blame", blame_for(k),
             "Extension A -> Extension B -> 0xFFFFFFF8 (A again in 32-bit arithmetic)", lay_font(**{k: ext_wrap32(k)}))
    gpos("cyc_ext_self", "Extension (type 9) with extensionOffset 0", ("L7.0", 2, u16(9) + u32(0)))
    gsub("cyc_ext_self", "Extension (type 7) with extensionOffset 0", ("L11.0", 2, u16(7) + u32(0)))
    gsub("cyc_chain_ruleset0", "ChainContext format 1: rule set offset 0 (its own header)", ("L8.0", 6, u16(0)))
    gpos("cyc_chain_ruleset0", "ChainContext format 1: rule set offset 0 (its own header)", ("L12.0", 6, u16(0)))
    gsub("cyc_ctx_ruleset0", "Context format 1: rule set offset 0", ("L5.0", 6, u16(0)))
    gsub("cyc_chain_classset0", "ChainContext format 2: class set 1 offset 0", ("L9.0", 14, u16(0)))
    gsub("cyc_chain_rule0", "ChainContext rule offset 0 (the rule set)", ("L8.0.rs0", 2, u16(0)))
    t = gsub_rich()
    gsub("cyc_chain_ruleset_wrap16", "rule set offset 0x10000 - position: the table start in 16-bit arithmetic",
         ("L8.0", 6, u16(0x10000 - t.at["L8.0"])))
    gsub("cyc_chain_ruleset_at_header", "ChainContext format 1: rule set offset -> its own header + 2",
         ("L8.0", 6, u16(2)))
    case("lay_gsub_cyc_fts_at_featurelist", "blame", GS,
         "FeatureVariations before the lists; a FeatureTableSubstitution offset points at the FeatureList",
         lay_font(GSUB=layout_asm(LAY_SCRIPTS_GSUB, GSUB_FEATURES, gsub_lookups(), GSUB_FV, fv_first=True).done()
                  .off("FV", 12, "FL", 4)))
    case("lay_gsub_cyc_fts_at_lookuplist", "blame", GS,
         "FeatureVariations before the lists; a FeatureTableSubstitution offset points at the LookupList",
         lay_font(GSUB=layout_asm(LAY_SCRIPTS_GSUB, GSUB_FEATURES, gsub_lookups(), GSUB_FV, fv_first=True).done()
                  .off("FV", 12, "LL", 4)))
    gsub("cyc_fts0", "FeatureVariationRecord: FeatureTableSubstitution offset 0 (the FeatureVariations header)",
         ("FV", 12, u32(0)))
    gsub("cyc_fts_wrap32_header", "FeatureTableSubstitution offset wrapping (32 bits) to the GSUB header",
         ("FV", 12, u32(0x100000000 - t.at["FV"])))
    gsub("cyc_fts_wrap32_featurelist", "FeatureTableSubstitution offset wrapping (32 bits) to the FeatureList",
         ("FV", 12, u32(t.at["FL"] - t.at["FV"])))
    gsub("cyc_fts_feature_wrap32", "alternate Feature offset wrapping (32 bits) to Feature 1 of the FeatureList",
         ("FV.fts0", 8, u32(t.at["F1"] - t.at["FV.fts0"])))
    gsub("cyc_condset_cond0", "ConditionSet: condition offset 0 (the ConditionSet)", ("FV.cs0", 2, u32(0)))
    gsub("cyc_condset_wrap32", "ConditionSet: condition offset 0xFFFFFFFE (2 bytes before it)", ("FV.cs0", 2, u32(0xFFFFFFFE)))
    gsub("cyc_condset_is_fts", "ConditionSet offset -> the FeatureTableSubstitution's bytes", ("FV", 8, "->", "FV.fts0", 4))
    gsub("cyc_condset0_fts0", "FeatureVariationRecord with both offsets 0", ("FV", 8, u32(0) + u32(0)))
    gsub("cyc_cond_and_self", "condition format 3 (AND) with one Offset24 of 0 (itself)",
         ("FV.cs0.c0", 0, u16(3) + u8(1) + b"\0\0\0"))
    gsub("cyc_cond_or_self", "condition format 4 (OR) with two Offset24s of 0", ("FV.cs0.c0", 0, u16(4) + u8(2) + b"\0" * 5))
    gsub("cyc_cond_not_self", "condition format 5 (NOT) with Offset24 0", ("FV.cs0.c0", 0, u16(5) + b"\0\0\0"))
    gsub("cyc_lookupindex_self", "Context format 3 applies its own lookup (7 -> 7)", ("L7.0", 12, u16(7)))
    gsub("cyc_lookupindex_mutual", "lookup 5 applies 8, lookup 8 applies 5",
         ("L5.0.rs0.r0", 8, u16(8)), ("L8.0.rs0.r0", 16, u16(5)))
    gpos("cyc_lookupindex_self", "Context format 3 applies its own lookup (11 -> 11)", ("L11.0", 12, u16(11)))

    # ---- the same bytes reached as different types ----
    case("lay_gpos_alias_cov_classdef_anchor_device", "blame", GP,
         "10 bytes used as Coverage, ClassDef, Anchor and Device by four lookups", lay_font(GPOS=alias_everything()))
    case("lay_gpos_alias_pairset_is_lookup", "blame", GP, "a PairSet that is also lookup 1",
         lay_font(GPOS=alias_pairset_lookup()))
    case("lay_alias_gdef_gpos_overlap_device", "blame", "GDEF|GPOS",
         "GPOS starts inside GDEF; one VariationIndex device for a GDEF caret, GPOS values and anchors",
         overlap_gdef_gpos())
    gpos("alias_anchor_is_device", "CursivePos entry anchor -> a VariationIndex device", ("L3.0", 6, "->", "DEV0"))
    gpos("alias_device_is_anchor", "value record device -> an Anchor format 3", ("L0.0", 8, "->", "L4.0.ma.a0"))
    gpos("alias_lookup_is_subtable", "LookupList: lookup 1 -> the SinglePos sub-table of lookup 0", ("LL", 4, "->", "L0.0"))
    gpos("alias_feature_is_lookuplist", "FeatureList: feature 1 -> the LookupList", ("FL", 12, "->", "LL"))
    gpos("alias_markarray_is_basearray", "MarkBasePos: MarkArray offset -> the BaseArray", ("L4.0", 8, "->", "L4.0.ba"))
    gpos("alias_pairset_is_classdef", "PairPos format 1: PairSet 1 -> the ClassDef of lookup 5",
         ("L2.0", 12, u16(gpos_rich().at["L5.0.cd1"] - gpos_rich().at["L2.0"])))
    gdef("alias_ivs_is_ligcaretlist", "ItemVariationStore offset = LigCaretList offset", ("GDEF", 14, "->", "LCL", 4))
    gdef("alias_ivs_in_ligcaretlist", "ItemVariationStore starting 2 bytes into the LigCaretList",
         ("GDEF", 14, u32(gdef_rich().at["LCL"] + 2)))
    gdef("alias_ligcaretlist_in_ivs", "LigCaretList offset -> the ItemVariationStore", ("GDEF", 8, "->", "IVS"))
    gdef("alias_classdef_is_coverage", "GlyphClassDef -> a MarkGlyphSets Coverage", ("GDEF", 4, "->", "MGS.cov0"))
    gdef("alias_caret_is_device", "LigGlyph: caret 0 -> the VariationIndex device of caret 2", ("LCL.lg0", 2, "->", "CDEV"))
    base("alias_ivs_is_axis", "BASE ItemVariationStore offset -> the horizontal Axis table", ("BASE", 8, "->", "HA", 4))
    base("alias_device_is_coord", "BaseCoord format 3 device -> a BaseCoord format 3", ("HA.sl.s0.bv.c1", 4, "->", "HA.sl.s0.mm.min"))

    # ---- huge counts: arrays running past the end ----
    for k, fn in (("gpos", gpos), ("gsub", gsub)):
        fn("count_scriptsFFFF", "ScriptList scriptCount 0xFFFF", ("SL", 0, FF))
        fn("count_langsysFFFF", "Script langSysCount 0xFFFF", ("S1", 2, FF))
        fn("count_featindexFFFF", "LangSys featureIndexCount 0xFFFF", ("S0.dflt", 4, FF))
        fn("count_featuresFFFF", "FeatureList featureCount 0xFFFF", ("FL", 0, FF))
        fn("count_lookupindexFFFF", "Feature lookupIndexCount 0xFFFF", ("F1", 2, FF))
        fn("count_lookupsFFFF", "LookupList lookupCount 0xFFFF", ("LL", 0, FF))
        fn("count_subtablesFFFF", "Lookup subTableCount 0xFFFF", ("L0", 4, FF))
        fn("count_fv_recordsFFFFFFFF", "featureVariationRecordCount 0xFFFFFFFF", ("FV", 4, FFFF))
        fn("count_conditionsFFFF", "ConditionSet conditionCount 0xFFFF", ("FV.cs0", 0, FF))
        fn("count_substitutionsFFFF", "FeatureTableSubstitution substitutionCount 0xFFFF", ("FV.fts0", 4, FF))
    gpos("count_single2_valuesFFFF", "SinglePos format 2 valueCount 0xFFFF", ("L1.0", 6, FF))
    gpos("count_pairsetsFFFF", "PairPos format 1 pairSetCount 0xFFFF", ("L2.0", 8, FF))
    gpos("count_pairvaluesFFFF", "PairSet pairValueCount 0xFFFF", ("L2.0.ps0", 0, FF))
    gpos("count_class12FFFF", "PairPos format 2 class1Count x class2Count = 0xFFFF x 0xFFFF", ("L5.0", 12, FF + FF))
    gpos("count_class2FFFF", "PairPos format 2 class2Count 0xFFFF", ("L5.0", 14, FF))
    gpos("count_class12FFFF_vf0", "class1Count x class2Count 0xFFFF x 0xFFFF with ValueFormats 0 (records of 0 bytes)",
         ("L5.0", 4, u16(0) + u16(0)), ("L5.0", 12, FF + FF))
    gpos("count_cursiveFFFF", "CursivePos entryExitCount 0xFFFF", ("L3.0", 4, FF))
    gpos("count_marksFFFF", "MarkArray markCount 0xFFFF", ("L4.0.ma", 0, FF))
    gpos("count_basesFFFF", "BaseArray baseCount 0xFFFF", ("L4.0.ba", 0, FF))
    gpos("count_markclassesFFFF", "MarkBasePos markClassCount 0xFFFF (BaseArray rows of 0xFFFF anchors)", ("L4.0", 6, FF))
    gpos("count_ligaturesFFFF", "LigatureArray ligatureCount 0xFFFF", ("L6.0.la", 0, FF))
    gpos("count_componentsFFFF", "LigatureAttach componentCount 0xFFFF", ("L6.0.la.att0", 0, FF))
    gpos("count_ctx_rulesetsFFFF", "Context format 1 ruleSetCount 0xFFFF", ("L9.0", 4, FF))
    gpos("count_ctx3_glyphsFFFF", "Context format 3 glyphCount 0xFFFF", ("L11.0", 2, FF))
    gpos("count_ctx3_seqlookupsFFFF", "Context format 3 seqLookupCount 0xFFFF", ("L11.0", 4, FF))
    gpos("count_chain3_backtrackFFFF", "ChainContext format 3 backtrackGlyphCount 0xFFFF", ("L14.0", 2, FF))
    gpos("count_chainrule_backtrackFFFF", "ChainRule backtrackGlyphCount 0xFFFF", ("L12.0.rs0.r0", 0, FF))
    gpos("count_coverageFFFF", "Coverage format 1 glyphCount 0xFFFF", ("L0.0.cov", 2, FF))
    gpos("count_coverage_rangesFFFF", "Coverage format 2 rangeCount 0xFFFF", ("L1.0.cov", 2, FF))
    gpos("count_classdef_rangesFFFF", "ClassDef format 2 rangeCount 0xFFFF", ("L5.0.cd1", 2, FF))
    gpos("count_classdef_glyphsFFFF", "ClassDef format 1 glyphCount 0xFFFF", ("L5.0.cd2", 4, FF))
    gsub("count_single2_glyphsFFFF", "SingleSubst format 2 glyphCount 0xFFFF", ("L1.0", 4, FF))
    gsub("count_sequencesFFFF", "MultipleSubst sequenceCount 0xFFFF", ("L2.0", 4, FF))
    gsub("count_sequence_glyphsFFFF", "Sequence glyphCount 0xFFFF", ("L2.0.seq0", 0, FF))
    gsub("count_alternatesFFFF", "AlternateSet glyphCount 0xFFFF", ("L3.0.seq0", 0, FF))
    gsub("count_ligsetsFFFF", "LigatureSubst ligatureSetCount 0xFFFF", ("L4.0", 4, FF))
    gsub("count_ligaturesFFFF", "LigatureSet ligatureCount 0xFFFF", ("L4.0.ls0", 0, FF))
    gsub("count_lig_componentsFFFF", "Ligature componentCount 0xFFFF", ("L4.0.ls0.l0", 2, FF))
    gsub("count_reverse_backtrackFFFF", "ReverseChainSingleSubst backtrackGlyphCount 0xFFFF", ("L12.0", 4, FF))
    gsub("count_reverse_glyphsFFFF", "ReverseChainSingleSubst glyphCount 0xFFFF", ("L12.0", 12, FF))
    gsub("count_chain_rulesetsFFFF", "ChainContext format 1 chainRuleSetCount 0xFFFF", ("L8.0", 4, FF))
    gsub("count_chainrule_inputFFFF", "ChainRule inputGlyphCount 0xFFFF", ("L8.0.rs0.r0", 4, FF))
    gsub("count_chain2_classsetsFFFF", "ChainContext format 2 chainClassSetCount 0xFFFF", ("L9.0", 10, FF))
    gsub("count_cv_charsFFFF", "'cv01' FeatureParams charCount 0xFFFF", ("F2.params", 12, FF))
    gsub("count_cv_namedparamsFFFF", "'cv01' FeatureParams numNamedParameters 0xFFFF", ("F2.params", 8, FF))
    gdef("count_ligglyphsFFFF", "LigCaretList ligGlyphCount 0xFFFF", ("LCL", 2, FF))
    gdef("count_caretsFFFF", "LigGlyph caretCount 0xFFFF", ("LCL.lg0", 0, FF))
    gdef("count_attachFFFF", "AttachList glyphCount 0xFFFF", ("ATT", 2, FF))
    gdef("count_attachpointsFFFF", "AttachPoint pointCount 0xFFFF", ("ATT.ap0", 0, FF))
    gdef("count_markglyphsetsFFFF", "MarkGlyphSetsDef markGlyphSetCount 0xFFFF", ("MGS", 2, FF))
    gdef("count_classdef_rangesFFFF", "GlyphClassDef rangeCount 0xFFFF", ("GCD", 2, FF))
    gdef("count_ivs_dataFFFF", "ItemVariationStore itemVariationDataCount 0xFFFF", ("IVS", 6, FF))
    gdef("count_ivs_regionsFFFF", "VariationRegionList regionCount 0xFFFF", ("IVS", 14, FF))
    gdef("count_ivs_itemsFFFF", "ItemVariationData itemCount 0xFFFF", ("IVS", 40, FF))
    base("count_tagsFFFF", "BaseTagList baseTagCount 0xFFFF", ("HA.tags", 0, FF))
    base("count_scriptsFFFF", "BaseScriptList baseScriptCount 0xFFFF", ("HA.sl", 0, FF))
    base("count_langsysFFFF", "BaseScript baseLangSysCount 0xFFFF", ("HA.sl.s0", 4, FF))
    base("count_coordsFFFF", "BaseValues baseCoordCount 0xFFFF", ("HA.sl.s0.bv", 2, FF))
    base("count_featminmaxFFFF", "MinMax featMinMaxCount 0xFFFF", ("HA.sl.s0.mm", 4, FF))
    base("count_ivs_dataFFFF", "BASE ItemVariationStore itemVariationDataCount 0xFFFF", ("BIVS", 6, FF))

    # ---- fan-out: one large structure behind thousands of offsets (each family at n and 4n,
    #      so tests/cli/test_hostile_layout.sh can check that work grows linearly) ----
    # (sizes n, name (% n), table, blame, description ({n}, {n4} = 4n), the table made for n)
    fans = [
        ((5000, 20000), "lookups%d_shared_pairpos60k", "GPOS", GP,
         "{n} lookups -> one Lookup of {n} sub-tables -> one Extension -> one 60 KB PairPos (15000 devices)",
         fan_shared_lookup),
        ((1250, 5000), "lookups%d_distinct_pairpos60k", "GPOS", GP,
         "{n} Lookup tables, each with its own Extension, all -> one 60 KB PairPos", fan_distinct_lookups),
        ((1250, 5000), "cov_overlap%d", "GSUB", GS,
         "{n} SingleSubst sub-tables, Coverages 4 bytes apart each claiming 30000 glyphs", fan_cov_overlap),
        ((750, 3000), "classdef_overlap%d", "GPOS", GP,
         "{n} PairPos format 2 sub-tables, ClassDefs 6 bytes apart each claiming 30000 glyphs", fan_classdef_overlap),
        ((500, 2000), "device_overlap%d", "GPOS", GP,
         "SinglePos with {n} value records of 4 devices, {n4} Device tables 6 bytes apart each claiming 64 KB",
         fan_device_overlap),
        ((2000, 8000), "features%d", "GPOS", GP,
         "{n} features -> one Feature of {n} lookup indices -> one Lookup", fan_features),
        ((1250, 5000), "ext_chain%d_linked", "GPOS", GP,
         "{n} chained Extensions (Extension -> Extension), every link also a sub-table of the lookup",
         lambda n: ext_chain("GPOS", n, True)),
        ((7500, 30000), "fv_records%d", "GSUB", GS,
         "{n} FeatureVariationRecords sharing one ConditionSet and one FeatureTableSubstitution", fan_fv_records),
        ((2500, 10000), "gdef_carets%d", "GDEF", GD,
         "{n} ligature glyphs -> one LigGlyph of {n} carets -> one format 3 CaretValue", fan_gdef_carets),
    ]
    for sizes, name, t, det, desc, build in fans:
        for n in sizes:
            case("lay_fan_" + name % n, "blame", det, desc.format(n=n, n4=4 * n), lay_font(**{t: build(n)}))
    case("lay_fan_nested_lookups_8pow40", "blame", GS, "40 Context lookups, each applying the next 8 times",
         lay_font(GSUB=fan_nested_lookups()))
    case("lay_fan_base_coords30000", "blame", BA, "BaseValues with 30000 offsets to one format 3 BaseCoord",
         lay_font(BASE=fan_base_coords(30000)))

    # ---- deep and out-of-range structure ----
    for k in ("GPOS", "GSUB"):
        lk = k.lower()
        case("lay_%s_deep_ext_to_ext" % lk, "blame", blame_for(k), "Extension -> Extension -> sub-table",
             lay_font(**{k: ext_to_ext(k)}))
        case("lay_%s_deep_ext_chain1000" % lk, "blame", blame_for(k), "1000 Extensions chained",
             lay_font(**{k: ext_chain(k, 1000, False)}))
    gpos("deep_ext_type0", "Extension extensionLookupType 0", ("L7.0", 2, u16(0)))
    gpos("deep_ext_type99", "Extension extensionLookupType 99", ("L7.0", 2, u16(99)))
    gpos("deep_ext_format2", "Extension format 2", ("L7.0", 0, u16(2)))
    gpos("deep_ext_off_eof", "extensionOffset past the end", ("L7.0", 4, u32(0xFFFFFF00)))
    gsub("deep_ext_type_mixed", "one Extension lookup whose sub-tables have types 1 and 4",
         lookups=gsub_lookups()[:11] + [(7, 0, [(e_ext, 1, (e_ss1, [3], -1)), (e_ext, 4, (e_ligature, [1], [[(4, [2])]]))])] + gsub_lookups()[12:])
    gpos("deep_lookuptype0", "LookupType 0", ("L0", 0, u16(0)))
    gpos("deep_lookuptype10", "LookupType 10", ("L0", 0, u16(10)))
    gpos("deep_lookuptypeFFFF", "LookupType 0xFFFF", ("L2", 0, FF))
    gsub("deep_lookuptype9", "GSUB LookupType 9", ("L0", 0, u16(9)))
    gpos("deep_lookupflag_markset", "LookupFlag UseMarkFilteringSet without the markFilteringSet field (last lookup)",
         ("L14", 2, u16(0x0010)))
    gpos("deep_lookupindex_oob_feature", "Feature lookupListIndex 0xFFFF", ("F1", 4, FF))
    gsub("deep_lookupindex_oob_feature", "Feature lookupListIndex 0xFFFF", ("F0", 4, FF))
    gpos("deep_lookupindex_oob_seq", "SequenceLookupRecord lookupListIndex 0xFFFF", ("L14.0", 18, FF))
    gpos("deep_seqindex_oob", "SequenceLookupRecord sequenceIndex 0xFFFF", ("L14.0", 16, FF))
    gsub("deep_lookupindex_oob_seq", "SequenceLookupRecord lookupListIndex 0xFFFF", ("L10.0", 18, FF))
    gsub("deep_lookupindex_oob_fts", "alternate Feature lookupListIndex 0xFFFF", ("FV.fts0.f0", 4, FF))
    gpos("deep_featindex_oob_langsys", "LangSys featureIndex 0xFFFF", ("S0.dflt", 6, FF))
    gpos("deep_reqfeature_oob", "LangSys requiredFeatureIndex 0xFFFE", ("S0.dflt", 2, u16(0xFFFE)))
    gpos("deep_valueformat_reserved_single1", "SinglePos format 1 ValueFormat 0xFF44 (reserved bits)", ("L0.0", 4, u16(0xFF44)))
    gpos("deep_valueformat_reserved_single2", "SinglePos format 2 ValueFormat 0xFF55", ("L1.0", 4, u16(0xFF55)))
    gpos("deep_valueformat_reserved_pair1", "PairPos format 1 ValueFormat1 0xFFFF", ("L2.0", 4, FF))
    gpos("deep_valueformat_reserved_pair2", "PairPos format 2 ValueFormat2 0x8000", ("L5.0", 6, u16(0x8000)))
    for f in (0, 4, 0x7FFF, 0x8001, 0xFFFF):
        gpos("deep_deltaformat_%04x" % f, "Device deltaFormat 0x%04X (shared device of values and anchors)" % f,
             ("DEV0", 4, u16(f)))
    gpos("deep_hdev_format3_huge", "hinting Device sizes 0-65535 with 8-bit deltas (64 KB past the end)",
         ("HD", 0, u16(0) + FF + u16(3)), lookups=gpos_lookups(hd="HD"))
    gpos("deep_hdev_end_before_start", "hinting Device endSize 10 < startSize 20", ("HD", 0, u16(20) + u16(10)),
         lookups=gpos_lookups(hd="HD"))
    gpos("deep_varidx_outer_oob", "VariationIndex outer 0xFFFF (the store has 1 ItemVariationData)", ("DEV0", 0, FF))
    gpos("deep_varidx_inner_oob", "VariationIndex inner 0xFFFF (6 items)", ("DEV1", 2, FF))
    gpos("deep_varidx_outer1", "VariationIndex outer 1 (= itemVariationDataCount)", ("DEV2", 0, u16(1)))
    gpos("deep_varidx_inner6", "VariationIndex inner 6 (= itemCount)", ("DEV3", 2, u16(6)))
    gpos("deep_varidx_noop_0xFFFF", "VariationIndex 0xFFFF/0xFFFF (NO_VARIATION_INDEX)", ("DEV0", 0, FF + FF))
    case("lay_gpos_deep_varidx_no_store", "blame", GP, "VariationIndex devices, GDEF 1.2 without a store",
         lay_font(GDEF=gdef_rich(minor=2)))
    case("lay_gpos_deep_varidx_no_gdef", "blame", GP, "VariationIndex devices, no GDEF", lay_font(GDEF=None))
    case("lay_gdef_deep_ivs_axes3", "blame", GD, "GDEF store regions for 3 axes (fvar has 2)",
         lay_font(GDEF=gdef_rich(ivs=lay_ivs(3, [[(0, 1, 1)] * 3, [(0, 0, 0)] * 3]))))
    case("lay_gdef_deep_ivs_axes1", "blame", GD, "GDEF store regions for 1 axis (fvar has 2)",
         lay_font(GDEF=gdef_rich(ivs=lay_ivs(1, [[(0, 1, 1)], [(-1, -1, 0)]]))))
    gpos("deep_anchor3_dev_eof", "Anchor format 3 XDeviceOffset 0xFFFF", ("L3.0.en0", 6, FF))
    t = gpos_rich()
    gpos("deep_anchor3_dev_at_end", "Anchor format 3 device 2 bytes before the table end",
         ("L3.0.en0", 6, u16(len(t.data) - 2 - t.at["L3.0.en0"])))
    gpos("deep_anchor3_at_end", "Anchor format 3 at the last 4 bytes of the table",
         ("L3.0", 6, u16(len(t.data) - 4 - t.at["L3.0"])))
    gpos("deep_anchor_format9", "Anchor format 9", ("L3.0.ex0", 0, u16(9)))
    gpos("deep_mark_anchor_dev_eof", "mark Anchor format 3 YDeviceOffset 0xFFF0", ("L4.0.ma.a0", 8, u16(0xFFF0)))
    gdef("deep_caret_varidx_outer_oob", "caret device outer 0xFFFF", ("CDEV", 0, FF))
    gdef("deep_caret_varidx_inner_oob", "caret device inner 0xFFFF", ("CDEV", 2, FF))
    gdef("deep_caret_dev_eof", "CaretValue format 3 device offset 0xFFFF", ("LCL.lg0.c2", 4, FF))
    gdef("deep_caret_format9", "CaretValue format 9", ("LCL.lg0.c2", 0, u16(9)))
    gdef("deep_caret_deltaformat_8001", "caret device deltaFormat 0x8001", ("CDEV", 4, u16(0x8001)))
    gdef("deep_ivs_off_eof", "ItemVariationStore offset past the end", ("GDEF", 14, u32(0xFFFFFF)))
    gdef("deep_minor3_ivs_null", "GDEF 1.3 with a NULL store offset (devices without a store)", ("GDEF", 14, u32(0)))
    case("lay_gdef_deep_minor3_truncated", "blame", GD, "GDEF version 1.3 in 16 bytes (store offset cut)",
         lay_font(GDEF=bytes(gdef_rich().data[:16])))
    gdef("deep_minor4", "GDEF minor version 4 (unknown, compatible)", ("GDEF", 2, u16(4)))
    gdef("deep_major2", "GDEF major version 2", ("GDEF", 0, u16(2)))
    gpos("deep_major2", "GPOS major version 2", ("HDR", 0, u16(2)))
    gsub("deep_minor0_with_fv", "GSUB 1.0 with a FeatureVariations offset behind the header", ("HDR", 2, u16(0)))
    gpos("deep_minor2", "GPOS minor version 2 (unknown)", ("HDR", 2, u16(2)))
    # FeatureParams
    t = gpos_rich()
    gpos("deep_featparams_size_eof", "'size' FeatureParams offset 0xFFFF", ("F4", 0, FF))
    gpos("deep_featparams_size_at_end", "'size' FeatureParams in the last 4 bytes (10 needed)",
         ("F4", 0, u16(len(t.data) - 4 - t.at["F4"])))
    gpos("deep_featparams_on_kern", "FeatureParams on 'kern' (-> the 'size' parameters)", ("F1", 0, "->", "F4.params"))
    t = gsub_rich()
    gsub("deep_featparams_ss_eof", "'ss01' FeatureParams offset 0xFFFF", ("F5", 0, FF))
    gsub("deep_featparams_ss_at_end", "'ss01' FeatureParams in the last 2 bytes (4 needed)",
         ("F5", 0, u16(len(t.data) - 2 - t.at["F5"])))
    gsub("deep_featparams_cv_eof", "'cv01' FeatureParams offset 0xFFFF", ("F2", 0, FF))
    gsub("deep_featparams_cv_at_end", "'cv01' FeatureParams in the last 6 bytes (14 + 3 x 2 needed)",
         ("F2", 0, u16(len(t.data) - 6 - t.at["F2"])))
    gsub("deep_featparams_cv_chars_past", "'cv01' charCount 200 (2 characters present)", ("F2.params", 12, u16(200)))
    # FeatureVariations
    for k, fn in (("gpos", gpos), ("gsub", gsub)):
        fn("fv_cond_format_unknown", "condition format 0x7777", ("FV.cs0.c0", 0, u16(0x7777)))
        fn("fv_cond_axis_oob", "condition axisIndex 2 (axisCount 2)", ("FV.cs0.c0", 2, u16(2)))
        fn("fv_cond_axis_FFFF", "condition axisIndex 0xFFFF", ("FV.cs0.c0", 2, FF))
    gsub("fv_cond_format2", "condition format 2 (a value: newer spec) in a set", ("FV.cs0.c0", 0, u16(2)))
    gsub("fv_cond_range_inverted", "condition min 1.0 > max -1.0", ("FV.cs0.c0", 4, f2d14(1) + f2d14(-1)))
    gsub("fv_version2", "FeatureVariations majorVersion 2", ("FV", 0, u16(2)))
    gsub("fv_fts_version2", "FeatureTableSubstitution majorVersion 2", ("FV.fts0", 0, u16(2)))
    gsub("fv_fts_featindex_oob", "FeatureTableSubstitution featureIndex 0xFFFF", ("FV.fts0", 6, FF))
    gsub("fv_fts_featindex_count", "FeatureTableSubstitution featureIndex 6 (= featureCount)", ("FV.fts0", 6, u16(6)))
    gsub("fv_fts_dup_feature", "two substitutions of the same feature", ("FV.fts1", 6, u16(4)), ("FV.fts1", 12, u16(4)))
    gsub("fv_off_eof", "FeatureVariations offset past the end", ("HDR", 10, u32(0xFFFFFF)))
    gsub("fv_condset_off_eof", "ConditionSet offset past the end", ("FV", 8, u32(0xFFFFFF)))
    gsub("fv_fts_off_eof", "FeatureTableSubstitution offset past the end", ("FV", 12, u32(0xFFFFFF)))
    gsub("fv_cond_off_eof", "Condition offset past the end", ("FV.cs0", 2, u32(0xFFFFFF)))
    gsub("fv_feature_off_eof", "alternate Feature offset past the end", ("FV.fts0", 8, u32(0xFFFFFF)))
    gpos("fv_cond_at_end", "Condition format 1 in the last 4 bytes (8 needed)",
         ("FV.cs0", 2, u32(len(gpos_rich().data) - 4 - gpos_rich().at["FV.cs0"])))

    # ---- BASE: a store and BaseCoord format 3 devices, then broken ----
    case("lay_base_only", "valid", "", "BASE 1.1 with a store, no GSUB/GPOS/GDEF",
         lay_font(GSUB=None, GPOS=None, GDEF=None))
    case("lay_base_v10_vdev_no_store", "blame", BA, "BASE 1.0 (no store) with VariationIndex devices",
         lay_font(BASE=base_rich(minor=0)))
    base("minor0_store_ignored", "BASE 1.1 relabelled 1.0: the store offset is not a field", ("BASE", 2, u16(0)))
    base("ivs_null", "BASE 1.1 with a NULL store and VariationIndex devices", ("BASE", 8, u32(0)))
    base("ivs_off_eof", "BASE store offset past the end", ("BASE", 8, u32(0xFFFFFF)))
    base("ivs_axes3", "BASE store regions for 3 axes", ("BIVS", 12, u16(3)))
    base("ivs_regionsFFFF", "BASE store regionCount 0xFFFF", ("BIVS", 14, FF))
    base("ivs_itemsFFFF", "BASE store itemCount 0xFFFF", ("BIVS", 40, FF))
    base("dev_outer_oob", "BaseCoord device outer 0xFFFF", ("BDEV0", 0, FF))
    base("dev_inner_oob", "BaseCoord device inner 0xFFFF", ("BDEV1", 2, FF))
    base("dev_inner3", "BaseCoord device inner 3 (= itemCount)", ("BDEV2", 2, u16(3)))
    base("dev_deltaformat_8001", "BaseCoord device deltaFormat 0x8001", ("BDEV2", 4, u16(0x8001)))
    base("dev_hinting_huge", "BaseCoord device: hinting sizes 0-65535, 8-bit deltas", ("BDEV0", 0, u16(0) + FF + u16(3)))
    base("coord3_dev_eof", "BaseCoord format 3 device offset 0xFFFF", ("HA.sl.s0.bv.c1", 4, FF))
    t = base_rich()
    base("coord3_dev_at_end", "BaseCoord format 3 device 2 bytes before the end",
         ("HA.sl.s0.bv.c1", 4, u16(len(t.data) - 2 - t.at["HA.sl.s0.bv.c1"])))
    base("coord3_at_end", "BaseCoord format 3 in the last 4 bytes (6 needed)",
         ("HA.sl.s0.bv", 6, u16(len(t.data) - 4 - t.at["HA.sl.s0.bv"])))
    base("coord_format9", "BaseCoord format 9", ("HA.sl.s0.bv.c0", 0, u16(9)))
    base("coord2_glyph_oob", "BaseCoord format 2 referenceGlyph 0xFFFF", ("HA.sl.s0.mm.max", 4, FF))
    base("defaultindex_oob", "BaseValues defaultBaselineIndex 0xFFFF", ("HA.sl.s0.bv", 0, FF))
    base("script0", "BaseScriptRecord offset 0", ("HA.sl", 6, u16(0)))
    base("axis_off_eof", "horizAxis offset 0xFFFF", ("BASE", 4, FF))
    base("taglist_off_eof", "BaseTagList offset 0xFFFF", ("HA", 0, FF))
    base("major2", "BASE major version 2", ("BASE", 0, u16(2)))


def build():
    fvar_cases()
    sfnt_cases()
    glyf_cases()
    gvar_cases()
    table_field_cases()
    cff2_cases()
    real_font_cases()
    layout_cases()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build()
    if "--count" in sys.argv:
        from collections import Counter
        print(len(CASES), dict(Counter(c[1] for c in CASES)))
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    with open(os.path.join(out, "MANIFEST.tmp"), "w") as m:
        for name, cls, detail, desc, data in CASES:
            if not name.startswith(only):
                continue
            with open(os.path.join(out, name + ".bin"), "wb") as f:
                f.write(data)
            m.write("%s\t%s\t%s\t%s\n" % (name, cls, detail or "", desc))
    os.replace(os.path.join(out, "MANIFEST.tmp"), os.path.join(out, "MANIFEST"))


if __name__ == "__main__":
    main()
