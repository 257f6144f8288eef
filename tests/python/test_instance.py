"""Instances: Font.instance() bytes against what `otvar instance` writes for the same location
(identical), static instances against fontTools' instancer (table set, glyph coordinates,
advances), partial instances (the kept axes in fvar, glyphs at the new default), and WOFF/WOFF2
round trips through fontTools' decoder."""

import importlib.util
import io
import os
import subprocess
import sys

import pytest
from conftest import VARIATION_TABLES, font_path, fonttools_instance
from fontTools.ttLib import TTFont

import otvar

# (font, Font.instance keywords, the same as `otvar instance` options)
CLI_CASES = [
    ("Karla-VF.ttf", {"wght": 700}, ["--var", "wght=700"]),
    ("NotoSans-VF.abc.ttf", {"model": "fonttools", "wght": 650, "wdth": 80.5},
     ["--var", "wght=650,wdth=80.5", "--normalize", "fonttools"]),
    ("Roboto-Variable.composite.ttf", {"named": 3}, ["--named", "3"]),
    ("AdobeVFPrototype_vsindex.otf", {"wght": 500, "CNTR": 50}, ["--var", "wght=500,CNTR=50"]),
    ("STATInstancerTest.ttf", {"named": 10, "update_names": True},
     ["--named", "10", "--update-names"]),
    ("Karla-VF.ttf", {"wght": 300, "overlap_flags": False}, ["--var", "wght=300",
                                                             "--no-overlap-flags"]),
    ("PartialInstancerTest2-VF.ttf", {"keep": ["wdth"], "wght": 700},
     ["--keep", "wdth", "--var", "wght=700"]),
    ("CFF2Instancer-VF-1.otf", {"keep": "wght"}, ["--keep", "wght"]),
    ("Muli-ABC.ttf", {"model": "freetype", "wght": 333}, ["--var", "wght=333", "--normalize",
                                                          "freetype"]),
]


@pytest.mark.parametrize("name,kwargs,args", CLI_CASES)
def test_instance_bytes_equal_cli_output(cli, tmp_path, name, kwargs, args):
    out = tmp_path / "cli.ttf"
    r = cli("instance", font_path(name), *args, "-o", out, "-q")
    assert r.returncode == 0, r.stderr
    with otvar.Font(font_path(name)) as font:
        assert font.instance(**kwargs) == out.read_bytes()


def test_woff2_instance_equals_cli_woff2(cli, tmp_path):
    out = tmp_path / "cli.woff2"
    assert cli("instance", font_path("Karla-VF.ttf"), "--var", "wght=612", "-o", out,
               "-q").returncode == 0
    with otvar.Font(font_path("Karla-VF.ttf")) as font:
        ours = font.instance(wght=612, flavor="woff2")
        static = TTFont(io.BytesIO(font.instance(wght=612)))
    assert ours == out.read_bytes()
    sfnt_tables_equal(TTFont(io.BytesIO(otvar.decode_woff(ours))), static, dropped={"DSIG"})


def glyph_coordinates(ttfont):
    glyf = ttfont["glyf"]
    return {g: (list(glyf[g].getCoordinates(glyf)[0]), list(glyf[g].getCoordinates(glyf)[1]))
            for g in ttfont.getGlyphOrder()}


@pytest.mark.parametrize("name,named", [("Karla-VF.ttf", 4), ("NotoSans-VF.abc.ttf", 30),
                                        ("Roboto-Variable.composite.ttf", 11),
                                        ("Muli-ABC.ttf", 2)])
def test_static_instance_matches_fonttools_instancer(name, named):
    with otvar.Font(font_path(name)) as font:
        inst = font.named_instances[named]
        ours = TTFont(io.BytesIO(font.instance("fonttools", named=named)))
    ref = fonttools_instance(name, tuple(sorted(inst.coordinates.items())))
    source = TTFont(font_path(name))
    assert set(ours.keys()) - {"GlyphOrder"} == set(source.keys()) - VARIATION_TABLES - {
        "GlyphOrder"}
    assert glyph_coordinates(ours) == glyph_coordinates(ref)
    assert {g: m[0] for g, m in ours["hmtx"].metrics.items()} == {
        g: m[0] for g, m in ref["hmtx"].metrics.items()}


def test_partial_instance_keeps_the_listed_axes():
    name = "PartialInstancerTest2-VF.ttf"
    with otvar.Font(font_path(name)) as font:
        wdth = font.axes[[a.tag for a in font.axes].index("wdth")]
        data = font.instance("fonttools", keep=["wdth"], wght=700)
        on_pin = sum(1 for i in font.named_instances if i.coordinates["wght"] == 700)
    with otvar.Font(data) as partial:
        assert [(a.tag, a.min, a.default, a.max) for a in partial.axes] == [
            (wdth.tag, wdth.min, wdth.default, wdth.max)]
        assert partial.info.instance_count == on_pin > 0
    ours = TTFont(io.BytesIO(data))
    ref = fonttools_instance(name, (("wght", 700),))
    assert [a.axisTag for a in ref["fvar"].axes] == ["wdth"]
    assert "gvar" in ours and "HVAR" in ours
    assert glyph_coordinates(ours) == glyph_coordinates(ref)


def sfnt_tables_equal(decoded, source, dropped=()):
    """Every table of source but the dropped ones in decoded: glyphs equal (glyf/loca may be
    re-encoded), the others byte-identical; head: the fields no WOFF2 decoder may change (it
    recomputes checkSumAdjustment, sets flags bit 11 and picks indexToLocFormat)."""
    assert set(decoded.reader.keys()) == set(source.reader.keys()) - set(dropped)
    assert glyph_coordinates(decoded) == glyph_coordinates(source)
    for tag in decoded.reader.keys():
        if tag in ("glyf", "loca", "head"):
            continue
        assert decoded.reader[tag] == source.reader[tag], tag
    for field in ("unitsPerEm", "xMin", "yMin", "xMax", "yMax", "macStyle", "fontRevision"):
        assert getattr(decoded["head"], field) == getattr(source["head"], field)


def fonttools_reads_woff2():
    """fontTools decodes WOFF2 with the brotli module (Debian: python3-brotli)."""
    return importlib.util.find_spec("brotli") is not None


@pytest.mark.parametrize("name", ["Karla-VF.ttf", "Roboto-Variable.composite.ttf",
                                  "Muli-ABC.ttf"])
def test_woff2_round_trip(name):
    """Encoded by otvar, decoded by fontTools (when brotli is importable) and by otvar; the
    encoder drops DSIG, as docs/woff.md says (its signature would no longer hold)."""
    sfnt = open(font_path(name), "rb").read()
    web = otvar.to_woff2(sfnt)
    assert otvar.is_woff(web) and not otvar.is_woff(sfnt)
    source = TTFont(font_path(name))
    decoded = otvar.decode_woff(web)
    sfnt_tables_equal(TTFont(io.BytesIO(decoded)), source, dropped={"DSIG"})
    if fonttools_reads_woff2():
        via_fonttools = TTFont(io.BytesIO(web))
        assert via_fonttools.flavor == "woff2"
        sfnt_tables_equal(via_fonttools, source, dropped={"DSIG"})


def test_woff1_round_trip_is_lossless():
    sfnt = open(font_path("NotoSans-VF.abc.ttf"), "rb").read()
    web = otvar.to_woff(sfnt)
    assert web[:4] == b"wOFF"
    via_fonttools = TTFont(io.BytesIO(web))
    source = TTFont(io.BytesIO(sfnt))
    assert {t: via_fonttools.reader[t] for t in source.reader.keys()} == {
        t: source.reader[t] for t in source.reader.keys()}
    assert otvar.decode_woff(web) == otvar.decode_woff(otvar.to_woff(otvar.decode_woff(web)))


def test_instance_argument_errors(karla):
    with pytest.raises(otvar.Error) as e:
        karla.instance(keep=["wdth"])
    assert (e.value.code, e.value.table) == ("NOT_FOUND", "fvar")
    with pytest.raises(otvar.Error) as e:
        karla.instance(keep=["wght"], wght=700)
    assert e.value.code == "ARG"
    with pytest.raises(otvar.Error) as e:
        karla.instance(wght=700, flavor="woff3")
    assert e.value.code == "ARG"
    # partial + update_names: named after the default from STAT (fontTools' updateFontNames)
    named = TTFont(io.BytesIO(karla.instance(keep=["wght"], update_names=True)))
    assert [a.axisTag for a in named["fvar"].axes] == ["wght"]
    assert named["name"].getDebugName(2) in ("Regular", "Italic")


def test_without_the_woff_library_only_woff_fails(tmp_path):
    """A missing libotvar_woff makes WOFF calls raise an Error that says what to set; fonts and
    instances still work (run in a child: the loaded library is cached per process)."""
    script = """
import otvar, sys
font = otvar.Font(sys.argv[1])
assert len(font.instance(wght=700)) > 1000
try:
    otvar.to_woff2(font.instance(wght=700))
except otvar.Error as e:
    print(e.code, e)
"""
    env = dict(os.environ, OTVAR_WOFF_LIBRARY=str(tmp_path / "missing" / "libotvar_woff.so"))
    r = subprocess.run([sys.executable, "-c", script, font_path("Karla-VF.ttf")], env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("UNSUPPORTED cannot load libotvar_woff")
    assert "OTVAR_WOFF_LIBRARY" in r.stdout
