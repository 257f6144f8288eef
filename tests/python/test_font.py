"""Font: what otvar reads from a font against what fontTools reads from the same file (fvar axes
and named instances, STAT, names, table directory, cmap, summary numbers), and the ways in
(path, bytes, WOFF2, collections)."""

import pytest
from conftest import AVAR2_FONTS, CFF2_FONTS, GLYF_FONTS, font_path
from fontTools.ttLib import TTFont

import otvar

ALL_FONTS = ["Karla-VF.ttf"] + GLYF_FONTS + CFF2_FONTS + AVAR2_FONTS


def debug_name(ttfont, name_id):
    """fontTools' name lookup (Windows English first), None when absent; "" for an empty record
    (which getDebugName reports as absent)."""
    if name_id == 0xFFFF:
        return None
    text = ttfont["name"].getDebugName(name_id)
    present = any(r.nameID == name_id for r in ttfont["name"].names)
    return "" if text is None and present else text


@pytest.mark.parametrize("name", ALL_FONTS)
def test_axes_match_fonttools_fvar(name):
    ft = TTFont(font_path(name))
    with otvar.Font(font_path(name)) as font:
        ours = [(a.tag, a.name, a.min, a.default, a.max, a.flags, a.hidden) for a in font.axes]
    theirs = [(a.axisTag, debug_name(ft, a.axisNameID), a.minValue, a.defaultValue, a.maxValue,
               a.flags, bool(a.flags & 1)) for a in ft["fvar"].axes]
    assert ours == theirs


@pytest.mark.parametrize("name", ALL_FONTS)
def test_named_instances_match_fonttools_fvar(name):
    ft = TTFont(font_path(name))
    with otvar.Font(font_path(name)) as font:
        ours = [(i.name, i.postscript_name, i.coordinates) for i in font.named_instances]
    theirs = [(debug_name(ft, i.subfamilyNameID), debug_name(ft, i.postscriptNameID),
               i.coordinates) for i in ft["fvar"].instances]
    assert ours == theirs


@pytest.mark.parametrize("name", ALL_FONTS)
def test_info_and_tables_match_fonttools(name):
    ft = TTFont(font_path(name))
    with otvar.Font(font_path(name)) as font:
        info = font.info
        tables = font.tables
        raw = {t.tag: font.table(t.tag) for t in tables}
        assert font.table("zzzz") is None
    flavour = "glyf" if "glyf" in ft else "CFF2" if "CFF2" in ft else "CFF"
    avar = int.from_bytes(ft.reader["avar"][:2], "big") if "avar" in ft.reader else 0
    assert (info.flavour, info.glyph_count, info.units_per_em, info.axis_count,
            info.instance_count, info.table_count, info.avar_version) == (
        flavour, ft["maxp"].numGlyphs, ft["head"].unitsPerEm, len(ft["fvar"].axes),
        len(ft["fvar"].instances), len(ft.reader.keys()), avar)
    assert [t.tag for t in tables] == sorted(ft.reader.keys())
    assert {t.tag: t.length for t in tables} == {tag: len(ft.reader[tag])
                                                 for tag in ft.reader.keys()}
    assert raw == {tag: ft.reader[tag] for tag in ft.reader.keys()}


@pytest.mark.parametrize("name", ["Karla-VF.ttf", "NotoSans-VF.abc.ttf", "Muli-ABC.ttf"])
def test_cmap_and_names_match_fonttools(name):
    ft = TTFont(font_path(name))
    order = ft.getGlyphOrder()
    with otvar.Font(font_path(name)) as font:
        for cp, glyph in sorted(ft.getBestCmap().items()):
            assert font.glyph_for_char(cp) == order.index(glyph), hex(cp)
            assert font.glyph_for_char(chr(cp)) == order.index(glyph)
        for rec in ft["name"].names:
            assert font.name(rec.nameID) == debug_name(ft, rec.nameID)
        assert font.name(0xFFFE) is None


@pytest.mark.parametrize("name", ["Karla-VF.ttf", "STATInstancerTest.ttf",
                                  "Roboto-Variable.ABC.ttf", "AdobeVFPrototype_vsindex.otf"])
def test_stat_matches_fonttools(name):
    ft = TTFont(font_path(name))
    stat = ft["STAT"].table
    with otvar.Font(font_path(name)) as font:
        ours = font.stat
    assert ours.minor_version == ft["STAT"].table.Version - 0x00010000
    assert [(a.tag, a.name_id, a.ordering) for a in ours.axes] == [
        (a.AxisTag, a.AxisNameID, a.AxisOrdering) for a in stat.DesignAxisRecord.Axis]
    theirs = stat.AxisValueArray.AxisValue if stat.AxisValueArray else []
    assert len(ours.values) == len(theirs)
    for v, t in zip(ours.values, theirs):
        assert (v.format, v.flags, v.name_id, v.name) == (
            t.Format, t.Flags, t.ValueNameID, ft["name"].getDebugName(t.ValueNameID))
        assert v.elidable == bool(t.Flags & 2)
        if t.Format == 4:
            assert v.records == tuple((r.AxisIndex, r.Value) for r in t.AxisValueRecord)
        else:
            assert (v.axis_index, v.value if t.Format != 2 else v.range_min) == (
                t.AxisIndex, t.Value if t.Format != 2 else t.RangeMinValue)
        if t.Format == 2:
            assert (v.value, v.range_max) == (t.NominalValue, t.RangeMaxValue)
        if t.Format == 3:
            assert v.linked_value == t.LinkedValue


def test_static_font_has_no_axes_or_stat():
    path = font_path("cff_fm_2048.otf")
    with otvar.Font(path) as font:
        assert (font.axes, font.named_instances, font.stat) == ((), (), None)
        assert font.info.flavour == "CFF"


@pytest.mark.parametrize("make", [bytes, bytearray, memoryview])
def test_font_from_bytes_reads_like_from_path(make):
    with open(font_path("NotoSans-VF.abc.ttf"), "rb") as f:
        data = f.read()
    with otvar.Font(font_path("NotoSans-VF.abc.ttf")) as by_path:
        font = otvar.Font(make(bytearray(data)))
        assert font.path is None
        assert (font.axes, font.named_instances, font.tables) == (
            by_path.axes, by_path.named_instances, by_path.tables)
        assert font.normalize(wght=650, wdth=70) == by_path.normalize(wght=650, wdth=70)
        font.close()


def test_bytes_stay_alive_as_long_as_the_face():
    """The face borrows the bytes: a temporary bytes object must not be freed under it."""
    with open(font_path("Roboto-Variable.ABC.ttf"), "rb") as f:
        font = otvar.Font(bytearray(f.read()))  # copied to bytes inside: nothing else holds them
    with open(font_path("Roboto-Variable.ABC.ttf"), "rb") as f:
        assert font.table("glyf") == TTFont(f).reader["glyf"]
    font.close()


def test_woff2_file_and_bytes_open_decoded(tmp_path):
    sfnt = open(font_path("Karla-VF.ttf"), "rb").read()
    web = otvar.to_woff2(sfnt)
    path = tmp_path / "karla.woff2"
    path.write_bytes(web)
    with otvar.Font(font_path("Karla-VF.ttf")) as ttf, otvar.Font(path) as woff2, \
            otvar.Font(web) as from_bytes:
        for font in (woff2, from_bytes):
            assert font.axes == ttf.axes
            assert font.table("gvar") == ttf.table("gvar")
            assert font.normalize(wght=555) == ttf.normalize(wght=555)


def test_face_count(tmp_path):
    assert otvar.face_count(font_path("Karla-VF.ttf")) == 1
    assert otvar.face_count(b"not a font at all") == 0
    from fontTools.ttLib import TTCollection
    ttc = TTCollection()
    ttc.fonts = [TTFont(font_path("Karla-VF.ttf")), TTFont(font_path("Muli-ABC.ttf"))]
    ttc.save(str(tmp_path / "two.ttc"))
    assert otvar.face_count(tmp_path / "two.ttc") == 2
    with otvar.Font(tmp_path / "two.ttc", index=1) as second:
        assert second.axes[0].name == TTFont(font_path("Muli-ABC.ttf"))["name"].getDebugName(
            TTFont(font_path("Muli-ABC.ttf"))["fvar"].axes[0].axisNameID)


def test_library_version_matches_package():
    assert otvar.version() == otvar.__version__
    assert otvar.models() == ("spec", "fonttools", "harfbuzz6", "freetype", "harfbuzz")
