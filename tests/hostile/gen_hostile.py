#!/usr/bin/python3
"""gen_hostile.py - writes the hostile-font corpus that tests/unit/test_hostile.c replays.

Usage: /usr/bin/python3 tests/hostile/gen_hostile.py OUTDIR [--count]

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
    empty = [b""] * 4

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


def build():
    fvar_cases()
    sfnt_cases()
    glyf_cases()
    gvar_cases()
    table_field_cases()
    cff2_cases()
    real_font_cases()


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
    with open(os.path.join(out, "MANIFEST.tmp"), "w") as m:
        for name, cls, detail, desc, data in CASES:
            with open(os.path.join(out, name + ".bin"), "wb") as f:
                f.write(data)
            m.write("%s\t%s\t%s\t%s\n" % (name, cls, detail or "", desc))
    os.replace(os.path.join(out, "MANIFEST.tmp"), os.path.join(out, "MANIFEST"))


if __name__ == "__main__":
    main()
