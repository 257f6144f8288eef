"""Outlines through the pen and the points API: otvar at a named instance (fonttools model,
rounded as an instance stores them) against the glyphs of fontTools' instancer output at that
instance; unrounded outlines against fontTools' glyph sets at the same normalized coordinates
(glyf and CFF2); pens that raise."""

import pytest
from conftest import (CFF2_FONTS, SegmentPen, font_path, fonttools_instance,
                      outline_difference)
from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTFont

import otvar

# composites with scaled components are transformed in float (otvar) and double (fontTools)
TRANSFORM_TOLERANCE = 0.01
NAMED_CASES = [("Karla-VF.ttf", 0), ("Karla-VF.ttf", 5), ("Roboto-Variable.composite.ttf", 0),
               ("Roboto-Variable.composite.ttf", -1), ("Roboto-Variable.ABC.ttf", 7),
               ("NotoSans-VF.abc.ttf", 40), ("Handjet.ttf", 3), ("vazirmatn_var_trimmed.ttf", -1),
               ("Muli-ABC.ttf", -1), ("material_symbols_subset.ttf", 3),
               ("PartialInstancerTest-VF.ttf", 20)]


def named_case(name, index):
    """(otvar Font, the NamedInstance, fontTools' instance at its coordinates)."""
    font = otvar.Font(font_path(name))
    inst = font.named_instances[index]
    return font, inst, fonttools_instance(name, tuple(sorted(inst.coordinates.items())))


def our_drawing(loc, gid, rounded):
    pen = SegmentPen()
    loc.draw(gid, pen, rounded=rounded)
    return pen.contours


def their_drawing(glyph_set, glyph_name):
    pen = SegmentPen(glyph_set)
    glyph_set[glyph_name].draw(pen)
    return pen.contours


@pytest.mark.parametrize("name,index", NAMED_CASES)
def test_pen_at_named_instance_matches_fonttools_instance(name, index):
    font, inst, ref = named_case(name, index)
    glyph_set = ref.getGlyphSet()
    with font, font.at("fonttools", named=inst.index) as loc:
        for gid, glyph_name in enumerate(ref.getGlyphOrder()):
            diff = outline_difference(our_drawing(loc, gid, True),
                                      their_drawing(glyph_set, glyph_name), TRANSFORM_TOLERANCE)
            assert diff is None, "glyph %s: %s" % (glyph_name, diff)


@pytest.mark.parametrize("name,index", NAMED_CASES)
def test_points_at_named_instance_match_fonttools_glyf(name, index):
    font, inst, ref = named_case(name, index)
    glyf = ref["glyf"]
    with font, font.at("fonttools", named=inst.index) as loc:
        for gid, glyph_name in enumerate(ref.getGlyphOrder()):
            coords, ends, flags = glyf[glyph_name].getCoordinates(glyf)
            points = loc.points(gid, rounded=True)
            assert points.contour_ends == tuple(ends), glyph_name
            assert [f & 1 for f in points.flags] == [f & 1 for f in flags], glyph_name
            assert len(points.points) == len(coords)
            for (x, y), (u, v) in zip(points.points, coords):
                assert abs(x - u) <= TRANSFORM_TOLERANCE and abs(y - v) <= TRANSFORM_TOLERANCE, \
                    (glyph_name, (x, y), (u, v))
            assert len(points.phantom) == 4
            assert bool(points.glyph_flags & 1) == glyf[glyph_name].isComposite()


@pytest.mark.parametrize("name", ["Karla-VF.ttf", "Roboto-Variable.composite.ttf",
                                  "material_symbols_subset.ttf"] + CFF2_FONTS)
def test_unrounded_outlines_match_fonttools_glyph_set(name):
    """At the same normalized coordinates (otvar's F2Dot14, given to fontTools as normalized),
    the two engines differ only by float versus double arithmetic."""
    ft = TTFont(font_path(name))
    order = ft.getGlyphOrder()
    with otvar.Font(font_path(name)) as font:
        pick = {a.tag: a.min + (a.max - a.min) * 0.7 for a in font.axes}
        for user in ({}, pick):
            with font.at("fonttools", **user) as loc:
                normalized = {t: v / 16384 for t, v in loc.coords.items()}
                glyph_set = ft.getGlyphSet(location=normalized, normalized=True)
                for gid in range(min(len(order), 120)):
                    diff = outline_difference(our_drawing(loc, gid, False),
                                              their_drawing(glyph_set, order[gid]), 0.02)
                    assert diff is None, "%s glyph %s: %s" % (user, order[gid], diff)


def test_cff2_points_carry_cubic_flags():
    """Every curveTo the pen gets is two points flagged cubic; CFF2 has no phantom points."""
    curves = 0
    with otvar.Font(font_path("NotoSansJP-VF.subset.otf")) as font, font.at(wght=700) as loc:
        for gid in range(font.info.glyph_count):
            points = loc.points(gid)
            recording = RecordingPen()
            loc.draw(gid, recording)
            drawn = sum(1 for op, _ in recording.value if op == "curveTo")
            assert sum(1 for f in points.flags if f & 0x80) == 2 * drawn
            assert points.phantom == ()
            curves += drawn
    assert curves > 0


def test_pen_exception_propagates_and_stops_drawing(karla):
    class Boom(Exception):
        pass

    class FailingPen(RecordingPen):
        def lineTo(self, pt):
            raise Boom(pt)

    pen = FailingPen()
    with karla.at(wght=700) as loc:
        with pytest.raises(Boom):
            loc.draw(karla.glyph_for_char("H"), pen)
        assert [op for op, _ in pen.value] == ["moveTo"]  # nothing after the failing call
        second = RecordingPen()
        loc.draw(karla.glyph_for_char("H"), second)  # the location still works
        assert second.value[0][0] == "moveTo" and second.value[-1][0] == "closePath"


def test_bad_glyph_id_raises(karla):
    with karla.at() as loc, pytest.raises(otvar.Error) as e:
        loc.draw(karla.info.glyph_count, RecordingPen())
    assert e.value.code in ("ARG", "NOT_FOUND")
