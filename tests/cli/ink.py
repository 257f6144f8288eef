#!/usr/bin/env python3
"""ink.py - black-and-white ink masks of PNG pictures (no PIL needed), for the render, shaping and
HTML specimen tests (sourced by no one; ctest runs only test_*.sh).

  ink.py iou A.png B.png [THRESHOLD]
      the intersection over union of the two pictures' ink (darkness >= THRESHOLD, default 128,
      over a white background), each cropped to its ink's bounding box; the best of the
      alignments within +-2 pixels (renderers place glyphs at slightly different sub-pixel
      origins). Prints the IoU and the two ink boxes' sizes.
  ink.py box A.png [X0 Y0 X1 Y1]
      the ink's bounding box (of the region X0..X1, Y0..Y1 when given) and its pixel count.
  ink.py crop A.png X0 Y0 X1 Y1 OUT.pgm
      a region as a binary PGM of its ink mask (for looking at a failure).
  ink.py info A.png
      "W H COLORTYPE INK" of a gray or RGBA picture, INK its mean darkness 0..1 (gray: 1 - v/255;
      RGBA: the mean alpha).
"""
import struct
import sys
import zlib


def decode_png(path):
    """(width, height, colour type, bytes per pixel, palette, unfiltered rows of bytes) of an
    8-bit non-interlaced PNG."""
    d = open(path, 'rb').read()
    if d[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit('%s: not a PNG' % path)
    pos, idat, ihdr, plte = 8, b'', None, None
    while pos < len(d):
        n, t = struct.unpack('>I4s', d[pos:pos + 8])
        body = d[pos + 8:pos + 8 + n]
        if t == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif t == b'IDAT':
            idat += body
        elif t == b'PLTE':
            plte = body
        pos += 12 + n
    w, h, depth, ct, _, _, interlace = ihdr
    if depth != 8 or interlace:
        raise SystemExit('%s: only 8-bit non-interlaced PNGs are read' % path)
    bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ct]
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    i = 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif f == 3:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + (a + prev[x]) // 2) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append(line)
    return w, h, ct, bpp, plte, rows


def read_png(path):
    """(width, height, rows of darkness 0..255) of an 8-bit PNG, composited over white."""
    w, h, ct, bpp, plte, lines = decode_png(path)
    out = []
    for line in lines:
        row = []
        for x in range(w):
            px = line[x * bpp:(x + 1) * bpp]
            if ct == 0:
                v, a = px[0], 255
            elif ct == 4:
                v, a = px[0], px[1]
            elif ct == 3:
                r, g, b = plte[3 * px[0]:3 * px[0] + 3]
                v, a = (r * 299 + g * 587 + b * 114) // 1000, 255
            else:
                r, g, b = px[0], px[1], px[2]
                a = px[3] if ct == 6 else 255
                v = (r * 299 + g * 587 + b * 114) // 1000
            # over white: darkness = alpha * (255 - v) / 255
            row.append((255 - v) * a // 255)
        out.append(row)
    return w, h, out


def info(path):
    """(width, height, colour type, mean ink) of a gray or RGBA picture (see the usage)."""
    w, h, ct, bpp, _, rows = decode_png(path)
    if ct == 0:
        ink = sum(255 - v for r in rows for v in r) / (255.0 * w * h)
    elif ct == 6:
        ink = sum(r[x + 3] for r in rows for x in range(0, w * bpp, 4)) / (255.0 * w * h)
    else:
        raise SystemExit('%s: colour type %d is neither gray nor RGBA' % (path, ct))
    return w, h, ct, ink


def mask(path, thr, region=None):
    w, h, rows = read_png(path)
    x0, y0, x1, y1 = region if region else (0, 0, w, h)
    pts = set()
    for y in range(max(0, y0), min(h, y1)):
        r = rows[y]
        for x in range(max(0, x0), min(w, x1)):
            if r[x] >= thr:
                pts.add((x, y))
    return pts


def box(pts):
    if not pts:
        return (0, 0, 0, 0)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs) + 1, max(ys) + 1)


def iou(a, b):
    ba, bb = box(a), box(b)
    na = {(x - ba[0], y - ba[1]) for x, y in a}
    best = 0.0
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            nb = {(x - bb[0] + dx, y - bb[1] + dy) for x, y in b}
            u = len(na | nb)
            if u:
                best = max(best, len(na & nb) / u)
    return best, ba, bb


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == 'iou':
        thr = int(sys.argv[4]) if len(sys.argv) > 4 else 128
        a, b = mask(sys.argv[2], thr), mask(sys.argv[3], thr)
        v, ba, bb = iou(a, b)
        print('%.4f %dx%d %dx%d' % (v, ba[2] - ba[0], ba[3] - ba[1], bb[2] - bb[0], bb[3] - bb[1]))
    elif len(sys.argv) >= 3 and sys.argv[1] == 'box':
        region = tuple(int(v) for v in sys.argv[3:7]) if len(sys.argv) >= 7 else None
        m = mask(sys.argv[2], 128, region)
        print('%d %d %d %d %d' % (box(m) + (len(m),)))
    elif len(sys.argv) == 8 and sys.argv[1] == 'crop':
        x0, y0, x1, y1 = (int(v) for v in sys.argv[3:7])
        m = mask(sys.argv[2], 128, (x0, y0, x1, y1))
        with open(sys.argv[7], 'w') as f:
            f.write('P1\n%d %d\n' % (x1 - x0, y1 - y0))
            for y in range(y0, y1):
                f.write(' '.join('1' if (x, y) in m else '0' for x in range(x0, x1)) + '\n')
    elif len(sys.argv) == 3 and sys.argv[1] == 'info':
        w, h, ct, ink = info(sys.argv[2])
        print(w, h, ct, '%.5f' % ink)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
