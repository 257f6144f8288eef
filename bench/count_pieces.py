#!/usr/bin/env python3
"""Count the line pieces otvar's flattening and FreeType's smooth rasterizer make of every curve
of a font at a pixel size (default location, unhinted): how much of a speed difference is the
flattening tolerance (bench/README-raster.md, eighth round).

otvar (src/raster.c pieces_for): n = ceil(sqrt(k * M / tol)) pieces, uniform in t, with
tol = 1/16 px, M the largest second difference of the control points (Euclidean), k = 1/4 for a
quadratic and 3/4 for a cubic; one piece when k * M <= tol.
FreeType (its documented rules, applied here in float instead of 24.8 fixed point): a quadratic
is halved until its second difference is under 1/4 px per coordinate (1/16 px from the curve);
a cubic is halved until each control point is within 1/6 px of its chord's trisection point per
coordinate (up to 1/8 px from the curve).

Usage: count_pieces.py FONT [PX]
"""
import math
import sys

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont

TOL = 1.0 / 16.0


def otvar_pieces(m2, k):
    """Pieces for squared second difference m2 and degree factor k (pieces_for)."""
    q = k * k * m2 / (TOL * TOL)
    return 1 if q <= 1.0 else math.ceil(q ** 0.25)


def mid(a, b):
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def freetype_cubic(p0, p1, p2, p3, depth=0):
    flat = all(abs(v) <= 0.5 for v in (2 * p0[0] - 3 * p1[0] + p3[0], 2 * p0[1] - 3 * p1[1] + p3[1],
                                        p0[0] - 3 * p2[0] + 2 * p3[0], p0[1] - 3 * p2[1] + 2 * p3[1]))
    if flat or depth >= 16:
        return 1
    a, b, c = mid(p0, p1), mid(p1, p2), mid(p2, p3)
    ab, bc = mid(a, b), mid(b, c)
    m = mid(ab, bc)
    return freetype_cubic(p0, a, ab, m, depth + 1) + freetype_cubic(m, bc, c, p3, depth + 1)


class CountPen(BasePen):
    def __init__(self, glyphset, scale):
        super().__init__(glyphset)
        self.scale = scale
        self.quads = self.cubics = 0
        self.otvar_q = self.freetype_q = self.otvar_c = self.freetype_c = 0

    def _px(self, p):
        return (p[0] * self.scale, p[1] * self.scale)

    def _moveTo(self, p):
        pass

    def _lineTo(self, p):
        pass

    def _qCurveToOne(self, p1, p2):
        p0, p1, p2 = self._px(self._getCurrentPoint()), self._px(p1), self._px(p2)
        dd = (p0[0] - 2 * p1[0] + p2[0], p0[1] - 2 * p1[1] + p2[1])
        self.quads += 1
        self.otvar_q += otvar_pieces(dd[0] ** 2 + dd[1] ** 2, 0.25)
        d, n = max(abs(dd[0]), abs(dd[1])), 1
        while d >= 0.25:
            d /= 4
            n *= 2
        self.freetype_q += n

    def _curveToOne(self, p1, p2, p3):
        p0, p1, p2, p3 = (self._px(p) for p in (self._getCurrentPoint(), p1, p2, p3))
        a = (p0[0] - 2 * p1[0] + p2[0], p0[1] - 2 * p1[1] + p2[1])
        b = (p1[0] - 2 * p2[0] + p3[0], p1[1] - 2 * p2[1] + p3[1])
        self.cubics += 1
        self.otvar_c += otvar_pieces(max(a[0] ** 2 + a[1] ** 2, b[0] ** 2 + b[1] ** 2), 0.75)
        self.freetype_c += freetype_cubic(p0, p1, p2, p3)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    font = TTFont(sys.argv[1])
    px = float(sys.argv[2]) if len(sys.argv) > 2 else 16.0
    glyphs = font.getGlyphSet()
    pen = CountPen(glyphs, px / font["head"].unitsPerEm)
    for name in font.getGlyphOrder():
        glyphs[name].draw(pen)
    print(f"{sys.argv[1].split('/')[-1]} at {px:g} px: "
          f"{pen.cubics} cubics -> otvar {pen.otvar_c}, FreeType {pen.freetype_c} pieces; "
          f"{pen.quads} quadratics -> otvar {pen.otvar_q}, FreeType {pen.freetype_q} pieces")


if __name__ == "__main__":
    main()
