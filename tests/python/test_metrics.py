"""Metrics at a named instance (fonttools model): advances against fontTools' evaluation of
HVAR/VVAR (hmtx/vmtx + the VarStoreInstancer delta at the same normalized coordinates), side
bearings and MVAR font-wide values against fontTools' instancer output (hmtx, vmtx, OS/2, hhea,
post)."""

import pytest
from conftest import font_path, fonttools_instance
from fontTools.ttLib import TTFont
from fontTools.varLib.varStore import VarStoreInstancer

import otvar

# MVAR tag -> (table, field) of the static font (OpenType MVAR value tags)
MVAR_FIELDS = {"hasc": ("OS/2", "sTypoAscender"), "hdsc": ("OS/2", "sTypoDescender"),
               "xhgt": ("OS/2", "sxHeight"), "cpht": ("OS/2", "sCapHeight"),
               "strs": ("OS/2", "yStrikeoutSize"), "stro": ("OS/2", "yStrikeoutPosition"),
               "unds": ("post", "underlineThickness"), "undo": ("post", "underlinePosition"),
               "hcrs": ("hhea", "caretSlopeRise")}
CASES = [("NotoSans-VF.abc.ttf", 5), ("PartialInstancerTest-VF.ttf", 30),
         ("SourceSerifVariable-Roman-VVAR.abc.ttf", 0), ("Karla-VF.ttf", 5),
         ("CFF2Instancer-VF-1.otf", 6), ("Roboto-Variable.composite.ttf", 9)]
GLYF_CASES = [c for c in CASES if not c[0].endswith(".otf")]  # fontTools 4.38 cannot instance CFF2
FLOAT_TOLERANCE = 0.01  # otvar sums deltas in float, fontTools in double


def at_named(name, index):
    """(otvar Font, a Location at named instance index, fontTools' TTFont of the font)."""
    font = otvar.Font(font_path(name))
    return font, font.at("fonttools", named=font.named_instances[index].index), TTFont(
        font_path(name))


def fonttools_advance(ft, var_tag, glyph, coords):
    """fontTools' advance at F2Dot14 coords: hmtx (vmtx) + the HVAR (VVAR) advance delta, with
    the implicit glyph-id mapping when the table has no advance map."""
    table = ft[var_tag].table
    horizontal = var_tag == "HVAR"
    advance_map = table.AdvWidthMap if horizontal else table.AdvHeightMap
    var_index = advance_map.mapping[glyph] if advance_map else ft.getGlyphID(glyph)
    deltas = VarStoreInstancer(table.VarStore, ft["fvar"].axes,
                               {tag: v / 16384 for tag, v in coords.items()})
    return ft["hmtx" if horizontal else "vmtx"][glyph][0] + deltas[var_index]


def assert_advances_match(loc, ft, var_tag, metrics):
    """every glyph's advance (metrics(gid)) at loc against fontTools' evaluation of var_tag"""
    for gid, glyph in enumerate(ft.getGlyphOrder()):
        expected = fonttools_advance(ft, var_tag, glyph, loc.coords)
        assert abs(metrics(gid).advance - expected) <= FLOAT_TOLERANCE, glyph


@pytest.mark.parametrize("name,index", CASES)
def test_advances_match_fonttools_hvar(name, index):
    font, loc, ft = at_named(name, index)
    with font, loc:
        order = ft.getGlyphOrder()
        assert_advances_match(loc, ft, "HVAR", loc.h_metrics)
        assert loc.advances(list(range(len(order)))) == [loc.h_metrics(g).advance
                                                          for g in range(len(order))]


@pytest.mark.parametrize("name,index", GLYF_CASES)
def test_lsb_matches_fonttools_instance(name, index):
    """A TrueType LSB is xMin of the varied outline minus the left phantom point: what
    fontTools' instancer writes into hmtx."""
    font, loc, _ = at_named(name, index)
    inst = font.named_instances[index]
    ref = fonttools_instance(name, tuple(sorted(inst.coordinates.items())))
    with font, loc:
        for gid, glyph in enumerate(ref.getGlyphOrder()):
            assert loc.h_metrics(gid, rounded=True).lsb == ref["hmtx"][glyph][1], glyph


@pytest.mark.parametrize("name,index", [("SourceSerifVariable-Roman-VVAR.abc.ttf", 0),
                                        ("NotoSansJP-VF.subset.otf", 6)])
def test_vertical_advances_match_fonttools_vvar(name, index):
    font, loc, ft = at_named(name, index)
    with font, loc:
        assert_advances_match(loc, ft, "VVAR", loc.v_metrics)
        assert loc.advances([1, 2], vertical=True, rounded=True) == [
            loc.v_metrics(g, rounded=True).advance for g in (1, 2)]


@pytest.mark.parametrize("name,index", GLYF_CASES)
def test_mvar_values_match_fonttools_instance(name, index):
    font, loc, _ = at_named(name, index)
    inst = font.named_instances[index]
    ref = fonttools_instance(name, tuple(sorted(inst.coordinates.items())))
    compared = 0
    with font, loc:
        for tag, (table, field) in MVAR_FIELDS.items():
            try:
                ours = loc.metric(tag, rounded=True)
            except otvar.Error as e:  # no base value for it (an OS/2 version without the field)
                assert e.code == "NOT_FOUND" and not hasattr(ref[table], field), tag
                continue
            assert ours == getattr(ref[table], field), tag
            compared += 1
        assert loc.metric("UPEM") == ref["head"].unitsPerEm
    assert compared >= 7


def test_metrics_vary(karla):
    """The values above are taken at the location, not at the default."""
    gid = karla.glyph_for_char("m")
    with karla.at(wght=200) as light, karla.at(wght=800) as bold:
        assert light.h_metrics(gid).advance < bold.h_metrics(gid).advance
        assert light.points(gid).phantom[1][0] < bold.points(gid).phantom[1][0]


def test_vertical_metrics_without_vmtx(karla):
    """No vmtx: NO_TABLE, or HarfBuzz's synthesis: advance = ascender - descender."""
    with karla.at() as loc:
        with pytest.raises(otvar.Error) as e:
            loc.v_metrics(1)
        assert e.value.code == "NO_TABLE"
        synthesized = loc.v_metrics(1, synthesize=True)
    ft = TTFont(font_path("Karla-VF.ttf"))
    os2, hhea = ft["OS/2"], ft["hhea"]
    typo = os2.fsSelection & (1 << 7)  # USE_TYPO_METRICS
    ascender, descender = ((os2.sTypoAscender, os2.sTypoDescender) if typo
                           else (hhea.ascent, hhea.descent))
    assert synthesized.advance == ascender - descender
