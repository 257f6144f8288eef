#!/usr/bin/env python3
"""make_woff_bombs.py - hostile WOFF/WOFF2 files for test_woff_bombs.sh, built byte by byte.

usage: make_woff_bombs.py KIND OUT [ARGS]
  bomb2 OUT MB        WOFF2: one table of MB MiB of zeros in a Brotli stream of ~200 bytes;
                      the header's totalSfntSize and the directory announce it truthfully
  total2 OUT          WOFF2: a small valid font whose header claims totalSfntSize 500000000
  sum32 OUT           WOFF2: a directory whose origLength/transformLength values sum past 2^32
  collection OUT FONT NFONTS
                      WOFF2 collection: FONT's tables (null transform) stored once, NFONTS fonts
                      sharing them, each listing every table
  hmtx OUT NFONTS NGLYPHS
                      WOFF2 collection: one transformed glyf/loca of NGLYPHS empty glyphs, one
                      hhea, and NFONTS fonts each with its own transformed hmtx of 3 stored bytes
                      (origLength 4) that rebuilds to 2 x NGLYPHS bytes
  overlap OUT         an sfnt of 256 table records sharing one 17 MiB table: their lengths
                      sum past 2^32 (input for the encoder)
  bomb1 OUT MB        WOFF 1.0: one zlib table inflating to MB MiB of zeros
  orig1 OUT           WOFF 1.0: origLength values summing past 2^32 (compLength small)
Only the standard library and brotli are used (fontTools is not needed).
"""
import struct
import sys
import zlib

import brotli
from fontTools.ttLib.woff2 import pack255UShort, packBase128

WOFF2_KNOWN = ["cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post", "cvt ", "fpgm",
               "glyf", "loca", "prep", "CFF ", "VORG", "EBDT", "EBLC", "gasp", "hdmx", "kern",
               "LTSH", "PCLT", "VDMX", "vhea", "vmtx", "BASE", "GDEF", "GPOS", "GSUB", "EBSC",
               "JSTF", "MATH", "CBDT", "CBLC", "COLR", "CPAL", "SVG ", "sbix", "acnt", "avar",
               "bdat", "bloc", "bsln", "cvar", "fdsc", "feat", "fmtx", "fvar", "gvar", "hsty",
               "just", "lcar", "mort", "morx", "opbd", "prop", "trak", "Zapf", "Silf", "Glat",
               "Gloc", "Feat", "Sill"]


def entry(tag, orig, version=0, xlen=None):
    """A WOFF2 table directory entry (tag as a string)."""
    idx = WOFF2_KNOWN.index(tag) if tag in WOFF2_KNOWN else 63
    b = bytes([idx | version << 6])
    if idx == 63:
        b += tag.encode("latin-1")
    b += packBase128(orig)
    if xlen is not None:
        b += packBase128(xlen)
    return b


def woff2(flavor, num_tables, total_sfnt, directory, stream):
    comp = brotli.compress(stream, quality=5)
    rest = directory + comp
    length = 48 + len(rest)

    def header(n):
        return (b"wOF2" + flavor + struct.pack(">IHHII", n, num_tables, 0, total_sfnt, len(comp))
                + struct.pack(">HH5I", 1, 0, 0, 0, 0, 0, 0))
    return header(length) + rest


def sfnt_tables(path):
    data = open(path, "rb").read()
    flavor = data[:4]
    (n,) = struct.unpack(">H", data[4:6])
    tables = []
    for i in range(n):
        tag, _, off, ln = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        tables.append((tag.decode("latin-1"), data[off:off + ln]))
    return flavor, tables


def woff1(flavor, entries, total_sfnt):
    """entries: (tag, compressed bytes, origLength) -> a WOFF 1.0 file."""
    n = len(entries)
    off = 44 + 20 * n
    dir_b, data = b"", b""
    for tag, comp, orig in entries:
        dir_b += struct.pack(">4sIIII", tag.encode("latin-1"), off + len(data), len(comp), orig, 0)
        data += comp + b"\0" * (-len(comp) % 4)
    length = 44 + len(dir_b) + len(data)
    hdr = (b"wOFF" + flavor + struct.pack(">IHHI", length, n, 0, total_sfnt)
           + struct.pack(">HH5I", 1, 0, 0, 0, 0, 0, 0))
    return hdr + dir_b + data


def main():
    kind, out = sys.argv[1], sys.argv[2]
    ttf = b"\0\1\0\0"
    if kind == "bomb2":
        size = int(sys.argv[3]) << 20
        d = entry("zzzz", size)
        blob = woff2(ttf, 1, 12 + 16 + size, d, bytes(size))
    elif kind == "total2":
        head = bytes(54)
        blob = woff2(ttf, 1, 500000000, entry("head", len(head)), head)
    elif kind == "sum32":
        # glyf transformed: origLength near 2^32 (not stored in the stream), a few more tables
        # whose stored lengths are small but whose origLengths wrap a uint32 sum
        d = entry("glyf", 0xFFFFFFF0, 0, 64) + entry("loca", 0xFFFFFFF0, 0, 0)
        d += entry("zzz1", 0x80000000) + entry("zzz2", 0x80000000)
        blob = woff2(ttf, 4, 0x100, d, bytes(64))
    elif kind == "collection":
        flavor, tables = sfnt_tables(sys.argv[3])
        nfonts = int(sys.argv[4])
        d, stream = b"", b""
        for tag, data in tables:
            version = 3 if tag in ("glyf", "loca") else 0  # the null transform
            d += entry(tag, len(data), version)
            stream += data
        col = struct.pack(">I", 0x00010000) + pack255UShort(nfonts)
        font = pack255UShort(len(tables)) + flavor
        font += b"".join(pack255UShort(i) for i in range(len(tables)))
        col += font * nfonts
        total = 12 + 4 * nfonts + nfonts * (12 + 16 * len(tables))
        total += sum((len(t) + 3) & ~3 for _, t in tables)
        blob = woff2(b"ttcf", len(tables), total, d + col, stream)
    elif kind == "hmtx":
        nfonts, n = int(sys.argv[3]), int(sys.argv[4])
        bbox = 4 * ((n + 31) // 32)
        sizes = [2 * n, 0, 0, 0, 0, bbox, 0]  # the seven streams: nContour 0 for every glyph
        glyf = struct.pack(">HHHH7I", 0, 0, n, 1, *sizes) + bytes(2 * n + bbox)
        hhea = bytes(34) + struct.pack(">H", 1)  # numberOfHMetrics 1
        d = entry("glyf", 0, 0, len(glyf)) + entry("loca", 4 * (n + 1), 0, 0)
        d += entry("hhea", len(hhea))
        stream = glyf + hhea
        for _ in range(nfonts):
            d += entry("hmtx", 4, 1, 3)
            stream += b"\x03\x01\xf4"  # flags: both lsb arrays left out; one advance
        col = struct.pack(">I", 0x00010000) + pack255UShort(nfonts)
        for f in range(nfonts):
            # 4 tables: the shared glyf, loca and hhea, and this font's own hmtx
            col += pack255UShort(4) + ttf + b"".join(pack255UShort(i) for i in (0, 1, 2, 3 + f))
        blob = woff2(b"ttcf", 3 + nfonts, 0, d + col, stream)
    elif kind == "overlap":
        n, size = 256, 17 << 20
        off = 12 + 16 * n
        blob = ttf + struct.pack(">HHHH", n, 4096, 8, 16 * n - 4096)
        for i in range(n):
            blob += struct.pack(">4sIII", b"T%03d" % i, 0, off, size)
        blob += bytes(size)
    elif kind == "bomb1":
        size = int(sys.argv[3]) << 20
        comp = zlib.compress(bytes(size), 9)
        blob = woff1(ttf, [("zzzz", comp, size)], 12 + 16 + size)
    elif kind == "orig1":
        comp = zlib.compress(bytes(16), 9)
        blob = woff1(ttf, [("zzz1", comp, 0x80000000), ("zzz2", comp, 0x80000000),
                           ("zzz3", comp, 0x80000000)], 0x1000)
    else:
        sys.exit("unknown kind " + kind)
    with open(out, "wb") as f:
        f.write(blob)


if __name__ == "__main__":
    main()
