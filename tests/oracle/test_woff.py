#!/usr/bin/python3
"""test_woff.py - WOFF 1.0 and WOFF 2.0: `otvar decompress`, the commands that read them, and the
encoder (`otvar compress`, `otvar instance -o X.woff2`).

Each test font (tests/fonts, the bundled Karla, the real VFs of $OTV_FONT_CACHE) is compressed by
two independent encoders, and otvar's decoding is compared with the font it was made from:
  - fontTools: WOFF 1.0 (zlib), WOFF 2.0 with the glyf/loca transform (the default), and WOFF 2.0
    with the hmtx transform too (side bearings dropped where they equal xMin);
  - Google's woff2_compress (Debian woff2): glyf/loca transform, and collections.
The decoded font must have:
  - every table the encoder kept, and no other;
  - tables that no transform touches byte-identical to the source font's (head: except
    checkSumAdjustment, which WOFF2 decoders recompute, and flags bit 11, which WOFF2 encoders set);
  - every glyph equal to the source's: contours, coordinates, on-curve and overlap flags,
    instructions, components, bounding box (glyf bytes may differ: flag repeats and padding are
    the decoder's choice);
  - hmtx advances and side bearings equal;
  - right table checksums, and for WOFF2 single fonts a right head.checkSumAdjustment.
Then commands read the WOFF2 file directly (outline, metrics: same output as on the source font),
otvar's own WOFF2 and WOFF files are decoded by Google's woff2_decompress, fontTools and otvar and
compared with the source the same way (and pass ots-sanitize where the source does; the WOFF2 is
at most 0.5% larger than woff2_compress's, in sum), instances written as .woff2/.woff equal the
.ttf ones,
and damaged files (truncated, bytes changed, bad fields) must give exit code 1 and one error line,
never a crash (the test runs under the ASan+UBSan build in scripts/test.sh).
"""
import glob
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

from fontTools.ttLib import TTFont, TTCollection
from fontTools.ttLib import woff2

OTVAR = os.environ.get("OTVAR")
FONTS = os.environ.get("OTV_FONTS", os.path.join(os.path.dirname(__file__), "..", "fonts"))
ROOT = os.environ.get("OTV_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
CACHE = os.environ.get("OTV_FONT_CACHE", "")

checks = 0
fails = 0


def check(cond, what):
    global checks, fails
    checks += 1
    if not cond:
        fails += 1
        print("FAIL:", what)
    return cond


def run(*args):
    return subprocess.run([OTVAR] + list(args), capture_output=True)


def raw_tables(path, index=0):
    """{tag: bytes} of face `index` of an sfnt or collection, straight from its directory."""
    d = open(path, "rb").read()
    off = 0
    if d[:4] == b"ttcf":
        off = struct.unpack(">I", d[12 + 4 * index:16 + 4 * index])[0]
    n = struct.unpack(">H", d[off + 4:off + 6])[0]
    out = {}
    for i in range(n):
        tag, _, o, ln = struct.unpack(">4sIII", d[off + 12 + 16 * i:off + 28 + 16 * i])
        out[tag.decode("latin-1")] = d[o:o + ln]
    return out


def checksums_ok(path):
    """Every directory checksum right; for a single font also the whole-file sum (head adjusted)."""
    d = open(path, "rb").read()
    faces = [0]
    if d[:4] == b"ttcf":
        k = struct.unpack(">I", d[8:12])[0]
        faces = [struct.unpack(">I", d[12 + 4 * i:16 + 4 * i])[0] for i in range(k)]

    def csum(b):
        b = b + b"\0" * (-len(b) % 4)
        return sum(struct.unpack(">%dI" % (len(b) // 4), b)) & 0xFFFFFFFF

    for off in faces:
        n = struct.unpack(">H", d[off + 4:off + 6])[0]
        for i in range(n):
            tag, cs, o, ln = struct.unpack(">4sIII", d[off + 12 + 16 * i:off + 28 + 16 * i])
            body = d[o:o + ln]
            if tag == b"head":
                body = body[:8] + b"\0\0\0\0" + body[12:]
            if csum(body) != cs:
                return "table %s checksum 0x%08x, computed 0x%08x" % (tag, cs, csum(body))
    if d[:4] != b"ttcf" and csum(d) != 0xB1B0AFBA:
        return "whole-file sum 0x%08x (head.checkSumAdjustment wrong)" % csum(d)
    return None


def glyph_record(font, name):
    g = font["glyf"][name]
    glyf = font["glyf"]
    rec = {"n": g.numberOfContours}
    if g.numberOfContours == 0:
        return rec
    rec["bbox"] = (g.xMin, g.yMin, g.xMax, g.yMax)
    rec["program"] = g.program.getBytecode() if hasattr(g, "program") else b""
    if g.isComposite():
        rec["components"] = [(c.glyphName, c.x, c.y, c.flags,
                              getattr(c, "transform", None)) for c in g.components]
    else:
        coords, ends, flags = g.getCoordinates(glyf)
        rec["coords"] = list(coords)
        rec["ends"] = list(ends)
        rec["on"] = [f & 1 for f in flags]
        rec["overlap"] = bool(flags[0] & 0x40) if len(flags) else False
    return rec


def compare_font(decoded, source, label, index=0, expect_tables=None, overlap=True):
    """decoded (otvar's output) against source (the font the WOFF was made from). overlap=False:
    the encoder drops OVERLAP_SIMPLE (Debian's fontTools 4.38 and woff2 1.0.2 predate the
    overlapSimpleBitmap of WOFF2's 2022 correction), so that flag is not compared."""
    dr, sr = raw_tables(decoded, index), raw_tables(source, index)
    want = set(expect_tables) if expect_tables is not None else set(sr)
    check(set(dr) == want, "%s: tables %s, expected %s" % (label, sorted(dr), sorted(want)))
    for tag in sorted(set(dr) & set(sr) - {"glyf", "loca", "hmtx", "head", "DSIG"}):
        check(dr[tag] == sr[tag], "%s: table %s differs from the source" % (label, tag))
    if "head" in dr:
        a, b = bytearray(dr["head"]), bytearray(sr["head"])
        a[8:12] = b[8:12] = b"\0\0\0\0"
        a[16] &= ~0x08  # flags bit 11 (high byte bit 3): set by WOFF2 encoders
        b[16] &= ~0x08
        fmt = struct.unpack(">h", a[50:52])[0]
        a[50:52] = b[50:52] = b"\0\0"  # indexToLocFormat: WOFF2 encoders may switch to long
        check(a == b, "%s: head differs beyond checkSumAdjustment/flags bit 11/loca format" % label)
        if "loca" in dr:
            n = struct.unpack(">H", dr["maxp"][4:6])[0]
            check(len(dr["loca"]) == (n + 1) * (4 if fmt else 2),
                  "%s: loca of %d bytes for %d glyphs and indexToLocFormat %d" % (
                      label, len(dr["loca"]), n, fmt))
    err = checksums_ok(decoded)
    check(err is None, "%s: %s" % (label, err))
    df, sf = TTFont(decoded, fontNumber=index), TTFont(source, fontNumber=index)
    if "glyf" in sr:
        order = sf.getGlyphOrder()
        def rec(f, n):
            r = glyph_record(f, n)
            if not overlap:
                r.pop("overlap", None)
            return r
        bad = [n for n in order if rec(df, n) != rec(sf, n)]
        check(not bad, "%s: %d glyphs differ, first %s: %s vs %s" % (
            label, len(bad), bad[:1], bad and rec(df, bad[0]), bad and rec(sf, bad[0])))
    if "hmtx" in sr:
        check(df["hmtx"].metrics == sf["hmtx"].metrics, "%s: hmtx differs" % label)
    if "hmtx" in sr and "glyf" not in sr:
        check(dr["hmtx"] == sr["hmtx"], "%s: hmtx bytes differ" % label)


def overlap_glyphs(path):
    """Glyph ids of the simple glyphs whose first flag has OVERLAP_SIMPLE (0x40)."""
    f = TTFont(path)
    glyf = f["glyf"]
    out = []
    for gid, name in enumerate(f.getGlyphOrder()):
        g = glyf[name]
        if g.numberOfContours > 0 and len(g.flags) and g.flags[0] & 0x40:
            out.append(gid)
    return out


def read_base128(d, pos):
    v = 0
    while True:
        b = d[pos]
        pos += 1
        v = v << 7 | (b & 0x7F)
        if not b & 0x80:
            return v, pos


def add_overlap_bitmap(data, gids):
    """A WOFF2 file (single font, no metadata) with optionFlags bit 0 and the overlapSimpleBitmap
    of gids added to its transformed glyf (WOFF2 5.1, 2022 correction)."""
    import brotli
    num_tables = struct.unpack(">H", data[12:14])[0]
    comp_len = struct.unpack(">I", data[20:24])[0]
    pos, entries = 48, []
    for _ in range(num_tables):
        start = pos
        flags = data[pos]
        pos += 1
        tag = None
        if flags & 63 == 63:
            tag = data[pos:pos + 4]
            pos += 4
        orig, pos = read_base128(data, pos)
        xf = None
        idx = flags & 63
        glyf_loca = idx in (10, 11) or tag in (b"glyf", b"loca")
        if (glyf_loca and flags >> 6 == 0) or (not glyf_loca and flags >> 6 != 0):
            xf, pos = read_base128(data, pos)
        entries.append([flags, tag, orig, xf, idx])
    stream = bytearray(brotli.decompress(data[pos:pos + comp_len]))
    off, parts = 0, []
    for e in entries:
        n = e[3] if e[3] is not None else e[2]
        parts.append(bytes(stream[off:off + n]))
        off += n
    for i, e in enumerate(entries):
        if e[4] == 10 and e[3] is not None:  # the transformed glyf
            t = bytearray(parts[i])
            num_glyphs = struct.unpack(">H", t[4:6])[0]
            t[2:4] = struct.pack(">H", struct.unpack(">H", t[2:4])[0] | 1)
            bits = bytearray((num_glyphs + 7) >> 3)
            for g in gids:
                bits[g >> 3] |= 0x80 >> (g & 7)
            parts[i] = bytes(t) + bytes(bits)
            e[3] = len(parts[i])
    directory = b""
    for flags, tag, orig, xf, _ in entries:
        directory += bytes([flags]) + (tag or b"") + woff2.packBase128(orig) + (woff2.packBase128(xf) if xf is not None else b"")
    comp = brotli.compress(b"".join(parts))
    header = bytearray(data[:48])
    total = 48 + len(directory) + len(comp)
    header[8:12] = struct.pack(">I", total)
    header[20:24] = struct.pack(">I", len(comp))
    header[28:40] = b"\0" * 12  # no metadata
    header[40:48] = b"\0" * 8   # no private data
    return bytes(header) + directory + comp


def decompress(src, out):
    r = run("decompress", src, "-o", out, "--force")
    check(r.returncode == 0, "decompress %s: exit %d: %s" % (src, r.returncode, r.stderr.decode()))
    return r.returncode == 0


def test_font(path, tmp):
    base = os.path.basename(path)
    src = os.path.join(tmp, base)
    shutil.copy(path, src)
    # fontTools WOFF 1.0 and WOFF 2.0 (tables are written as read, except glyf/loca/hmtx/head
    # for the transforms: no recalculation, no new timestamp)
    f = TTFont(src, recalcBBoxes=False, recalcTimestamp=False)
    tables = set(raw_tables(src))
    f.flavor = "woff"
    f.save(src + ".woff", reorderTables=False)
    if decompress(src + ".woff", src + ".1.ttf"):
        compare_font(src + ".1.ttf", src, base + " (WOFF)")
    is_glyf = "glyf" in tables
    variants = [("WOFF2", None)]
    if is_glyf and "hmtx" in tables:
        variants.append(("WOFF2+hmtx", {"glyf", "loca", "hmtx"}))
    for label, xf in variants:
        out = src + ".%s.woff2" % label
        woff2.compress(src, out, transform_tables=xf)
        if decompress(out, src + ".2.ttf"):
            # fontTools' WOFF2 drops DSIG (its signature no longer holds)
            compare_font(src + ".2.ttf", src, "%s (%s, fontTools)" % (base, label),
                         expect_tables=tables - {"DSIG"}, overlap=False)
        if xf is None and is_glyf and overlap_glyphs(src):
            # the overlap bitmap, which no encoder here writes: added to fontTools' file
            with_bits = out + ".overlap.woff2"
            open(with_bits, "wb").write(add_overlap_bitmap(open(out, "rb").read(),
                                                           overlap_glyphs(src)))
            if decompress(with_bits, src + ".4.ttf"):
                compare_font(src + ".4.ttf", src, "%s (WOFF2 + overlapSimpleBitmap)" % base,
                             expect_tables=tables - {"DSIG"})
    # Google's encoder writes next to its input
    g = subprocess.run(["woff2_compress", src], capture_output=True)
    gout = os.path.splitext(src)[0] + ".woff2"
    if check(g.returncode == 0 and os.path.exists(gout), "woff2_compress %s failed" % base):
        if decompress(gout, src + ".3.ttf"):
            compare_font(src + ".3.ttf", src, base + " (WOFF2, woff2_compress)",
                         expect_tables=tables - {"DSIG"}, overlap=False)
        return gout
    return None


def ots_ok(path):
    return subprocess.run(["ots-sanitize", path], capture_output=True).returncode == 0


sizes = []  # (font, otvar's WOFF2 bytes, woff2_compress's bytes)


def test_encode(path, tmp, google_woff2):
    """otvar compress: WOFF2 and WOFF decoded by the other decoders equal the source font."""
    base = os.path.basename(path)
    src = os.path.join(tmp, "enc-" + base)
    shutil.copy(path, src)
    tables = set(raw_tables(src)) - {"DSIG"}
    for flag, ext in (([], ".woff2"), (["--woff"], ".woff")):
        out = src + ".otv" + ext
        r = run("compress", src, "-o", out, "-q", *flag)
        if not check(r.returncode == 0, "compress %s%s: %s" % (base, ext, r.stderr.decode().strip())):
            continue
        if ext == ".woff2":
            # Google's decoder (writes next to its input, the extension replaced by .ttf)
            g = subprocess.run(["woff2_decompress", out], capture_output=True)
            gout = os.path.splitext(out)[0] + ".ttf"
            if check(g.returncode == 0 and os.path.exists(gout),
                     "woff2_decompress of otvar's %s: %s" % (base, g.stderr.decode()[-200:])):
                compare_font(gout, src, base + " (otvar WOFF2, woff2_decompress)",
                             expect_tables=tables, overlap=False)
            if google_woff2:
                sizes.append((base, os.path.getsize(out), os.path.getsize(google_woff2)))
        # fontTools' decoder (Debian's 4.38 predates the overlap bitmap and refuses files that
        # carry one: those are left to the other two decoders)
        if not (ext == ".woff2" and "glyf" in tables and overlap_glyphs(src)):
            ft_compare(out, src, base, ext, tables)
        # otvar's own decoder keeps OVERLAP_SIMPLE through the overlap bitmap
        if decompress(out, out + ".otv.ttf"):
            compare_font(out + ".otv.ttf", src, "%s (otvar %s, otvar)" % (base, ext[1:].upper()),
                         expect_tables=tables)
        if ots_ok(src):
            check(ots_ok(out), "ots-sanitize rejects otvar's %s of %s" % (ext, base))


def ft_compare(out, src, base, ext, tables):
    """otvar's web font decoded by fontTools, against the source."""
    ft = TTFont(out, recalcBBoxes=False, recalcTimestamp=False)
    ft.flavor = None
    ftout = out + ".ft.ttf"
    ft.save(ftout, reorderTables=False)
    compare_font(ftout, src, "%s (otvar %s, fontTools)" % (base, ext[1:].upper()),
                 expect_tables=tables, overlap=False)


def test_instance_web(path, tmp):
    """instance -o X.woff2 / X.woff: the same font as -o X.ttf, compressed."""
    base = os.path.basename(path)
    plain = os.path.join(tmp, "inst-" + base + ".ttf")
    r = run("instance", path, "--named", "1", "-o", plain, "-q")
    if not check(r.returncode == 0, "instance of %s: %s" % (base, r.stderr.decode().strip())):
        return
    tables = set(raw_tables(plain)) - {"DSIG"}
    for ext in (".woff2", ".woff"):
        web = os.path.join(tmp, "inst-" + base + ext)
        r = run("instance", path, "--named", "1", "-o", web, "-q")
        if check(r.returncode == 0, "instance -o %s of %s: %s" % (ext, base, r.stderr.decode().strip())):
            check(open(web, "rb").read(4) == (b"wOF2" if ext == ".woff2" else b"wOFF"),
                  "instance -o %s wrote a %r file" % (ext, open(web, "rb").read(4)))
            if decompress(web, web + ".ttf"):
                compare_font(web + ".ttf", plain, "instance of %s as %s" % (base, ext), expect_tables=tables)
            if ots_ok(plain):  # (a trimmed test font without OS/2 fails as .ttf too)
                check(ots_ok(web), "ots-sanitize rejects the %s instance of %s" % (ext, base))
    d = os.path.join(tmp, "all-" + base)
    r = run("instance", path, "--all-named", "--woff2", "-d", d, "-j", "2", "-q")
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    check(r.returncode == 0 and files and all(f.endswith(".woff2") for f in files),
          "instance --all-named --woff2 of %s: exit %d, files %s" % (base, r.returncode, files[:3]))


def test_reading(woff2_path, source):
    """Commands on the WOFF2 file print what they print on the source font."""
    f = TTFont(source)
    loc = []
    if "fvar" in f:
        loc = ["--var", ",".join("%s=%g" % (a.axisTag, a.minValue + 0.7 * (a.maxValue - a.minValue))
                                 for a in f["fvar"].axes)]
    for cmd in (["outline", "--glyphs", "all"], ["metrics", "--glyphs", "all"]):
        a = run(cmd[0], woff2_path, *cmd[1:], *loc)
        b = run(cmd[0], source, *cmd[1:], *loc)
        check(a.returncode == 0 and a.stdout == b.stdout,
              "%s on %s: exit %d, output %s the source's (%s)" % (
                  cmd[0], os.path.basename(woff2_path), a.returncode,
                  "equals" if a.stdout == b.stdout else "differs from", a.stderr.decode().strip()))


def test_collection(tmp):
    """A TrueType Collection of two fonts sharing tables, through woff2_compress."""
    a = os.path.join(FONTS, "Roboto-Variable.ABC.ttf")
    b = os.path.join(FONTS, "Muli-ABC.ttf")
    ttc = os.path.join(tmp, "pair.ttc")
    coll = TTCollection()
    coll.fonts = [TTFont(a, recalcBBoxes=False, recalcTimestamp=False),
                  TTFont(b, recalcBBoxes=False, recalcTimestamp=False),
                  TTFont(a, recalcBBoxes=False, recalcTimestamp=False)]
    coll.save(ttc, shareTables=True)
    g = subprocess.run(["woff2_compress", ttc], capture_output=True)
    w = os.path.join(tmp, "pair.woff2")
    if not check(g.returncode == 0 and os.path.exists(w), "woff2_compress of a collection failed"):
        return
    if not decompress(w, os.path.join(tmp, "pair.out.ttc")):
        return
    out = os.path.join(tmp, "pair.out.ttc")
    check(open(out, "rb").read(4) == b"ttcf", "a collection decodes to a ttcf file")
    for i in range(3):
        compare_font(out, ttc, "pair.ttc face %d (WOFF2)" % i, index=i,
                     expect_tables=set(raw_tables(ttc, i)) - {"DSIG"}, overlap=False)
    r = run("info", w, "--index", "1")
    check(r.returncode == 0 and b"Muli" in r.stdout, "info --index 1 on the WOFF2 collection: %s" %
          r.stderr.decode().strip())


def expect_error(data, label, tmp, needle=None):
    p = os.path.join(tmp, "bad.woff2")
    open(p, "wb").write(data)
    r = run("decompress", p, "-o", os.path.join(tmp, "bad.ttf"), "--force")
    err = r.stderr.decode()
    ok = r.returncode == 1 and err.count("\n") == 1 and err.startswith("otvar: ")
    if needle:
        ok = ok and needle in err
    check(ok, "%s: exit %d, stderr %r" % (label, r.returncode, err))
    check(not os.path.exists(os.path.join(tmp, "bad.ttf")), "%s: an output was written" % label)


def test_damage(woff2_path, woff_path, tmp):
    """Damaged files: one error line and exit 1, or (a change the decoder cannot see) exit 0."""
    d = open(woff2_path, "rb").read()
    expect_error(d[:40], "WOFF2 shorter than its header", tmp, "48-byte header")
    expect_error(d[:-1], "WOFF2 truncated by one byte", tmp, "length")
    bad = bytearray(d)
    bad[14] = 1
    expect_error(bytes(bad), "WOFF2 reserved field set", tmp, "reserved")
    # the Brotli stream (the file's last totalCompressedSize bytes: no metadata here) damaged
    n = struct.unpack(">I", d[20:24])[0]
    bad = bytearray(d)
    for k in range(8):
        bad[len(d) - n + 2 + k] ^= 0xA5
    expect_error(bytes(bad), "WOFF2 Brotli data damaged", tmp, "Brotli")
    r = run("decompress", woff2_path, "-o", os.path.join(tmp, "x.ttf"), "--force")
    check(r.returncode == 0, "the intact WOFF2 decodes")
    rng = random.Random(7)
    for k in range(60):
        bad = bytearray(d)
        for _ in range(rng.randint(1, 4)):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        p = os.path.join(tmp, "mut.woff2")
        open(p, "wb").write(bytes(bad))
        r = run("decompress", p, "-o", os.path.join(tmp, "mut.ttf"), "--force")
        err = r.stderr.decode()
        check(r.returncode in (0, 1) and (r.returncode == 0 or (err.count("\n") == 1 and
                                                                err.startswith("otvar: "))),
              "mutation %d: exit %d, stderr %r" % (k, r.returncode, err[:300]))
    for cut in range(0, len(d), max(1, len(d) // 23)):
        p = os.path.join(tmp, "cut.woff2")
        open(p, "wb").write(d[:cut])
        r = run("decompress", p, "-o", os.path.join(tmp, "cut.ttf"), "--force")
        check(r.returncode == 1, "WOFF2 cut at %d: exit %d" % (cut, r.returncode))
    w = open(woff_path, "rb").read()
    expect_error(w[:30], "WOFF shorter than its header", tmp, "44-byte header")
    bad = bytearray(w)
    bad[8:12] = struct.pack(">I", len(w) + 4)
    expect_error(bytes(bad), "WOFF length field wrong", tmp, "length")
    # the first table's data: zlib stream damaged
    off, comp, orig = struct.unpack(">III", w[48:60])
    if comp < orig:
        bad = bytearray(w)
        bad[off + 2] ^= 0x55
        bad[off + 3] ^= 0x55
        expect_error(bytes(bad), "WOFF table's zlib data damaged", tmp, "zlib")
    p = os.path.join(tmp, "plain.ttf")
    shutil.copy(os.path.join(ROOT, "fonts", "Karla-VF.ttf"), p)
    r = run("decompress", p, "-o", os.path.join(tmp, "plain.out.ttf"))
    check(r.returncode == 1 and b"not a WOFF" in r.stderr, "decompress of a TrueType font: %r" % r.stderr)


def main():
    if not OTVAR:
        print("OTVAR not set")
        return 1
    fonts = [os.path.join(ROOT, "fonts", "Karla-VF.ttf")]
    fonts += sorted(glob.glob(os.path.join(FONTS, "*.ttf")) + glob.glob(os.path.join(FONTS, "*.otf")))
    if CACHE and os.path.isdir(CACHE):
        fonts += sorted(glob.glob(os.path.join(CACHE, "*.ttf")) + glob.glob(os.path.join(CACHE, "*.otf")))
    with tempfile.TemporaryDirectory() as tmp:
        karla_w2 = None
        for p in fonts:
            sub = os.path.join(tmp, "f%d" % fonts.index(p))
            os.mkdir(sub)
            g = test_font(p, sub)
            if g and p.endswith("Karla-VF.ttf"):
                karla_w2 = (g, os.path.join(sub, "Karla-VF.ttf.woff"))
            if g and (p.endswith(".otf") or "Roboto-Variable.composite" in p or "Karla" in p or
                      "SourceSerif4" in p):
                test_reading(g, p)
            test_encode(p, sub, g)
            if p.endswith(("Karla-VF.ttf", "CFF2Instancer-VF-1.otf", "Roboto-Variable.ABC.ttf",
                           "vazirmatn_var_trimmed.ttf", "SourceSerif4Variable-Roman.ttf")):
                test_instance_web(p, sub)
        test_collection(tmp)
        if check(karla_w2 is not None, "Karla's WOFF2 was made"):
            test_damage(karla_w2[0], karla_w2[1], tmp)
    if sizes:
        ours = sum(a for _, a, _ in sizes)
        theirs = sum(b for _, _, b in sizes)
        worst = max(sizes, key=lambda t: t[1] / t[2])
        print("WOFF2 sizes: otvar %d bytes, woff2_compress %d (%.4f); worst %s %.4f" % (
            ours, theirs, ours / theirs, worst[0], worst[1] / worst[2]))
        # the same transform and Brotli settings: within noise of Brotli's own choices
        check(ours <= theirs * 1.005, "otvar's WOFF2 files are larger than woff2_compress's")
    print("test_woff: %d fonts, %d checks, %d failed" % (len(fonts), checks, fails))
    return 1 if fails or checks == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
