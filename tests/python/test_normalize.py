"""Normalization: Font.normalize with the fonttools model against fontTools' instancer, every
model's F2Dot14, 16.16 and real values against `otvar normalize --normalize all`, and a
Location's coordinates against both."""

import math
import random

import pytest
from conftest import AVAR2_FONTS, CFF2_FONTS, GLYF_FONTS, font_path, fonttools_normalized
from fontTools.ttLib import TTFont

import otvar


def user_locations(font, count, seed):
    """Named instances, the corners of every axis, a point past each end, and random points."""
    axes = font.axes
    out = [dict(i.coordinates) for i in font.named_instances]
    out += [{a.tag: getattr(a, end)} for a in axes for end in ("min", "max")]
    out += [{a.tag: a.max + 10} for a in axes] + [{a.tag: a.min - 10} for a in axes]
    rnd = random.Random(seed)
    out += [{a.tag: round(rnd.uniform(a.min, a.max), 2) for a in axes} for _ in range(count)]
    return out


@pytest.mark.parametrize("name", ["Karla-VF.ttf"] + GLYF_FONTS + CFF2_FONTS)
def test_fonttools_model_matches_fonttools_instancer(name):
    ft = TTFont(font_path(name))
    with otvar.Font(font_path(name)) as font:
        for loc in user_locations(font, 20, seed=len(name)):
            full = {a.tag: loc.get(a.tag, a.default) for a in font.axes}
            assert font.normalize(model="fonttools", **loc) == fonttools_normalized(ft, full), loc


def cli_normalize(cli, path, loc):
    """{model: {tag: (f2dot14, fixed, real)}} from `otvar normalize --normalize all`."""
    r = cli("normalize", path, "--normalize", "all", *["%s=%r" % kv for kv in loc.items()])
    assert r.returncode == 0, r.stderr
    out = {}
    for line in r.stdout.decode().splitlines():
        tag, _user, f2dot14, fixed, real, model = line.split()
        out.setdefault(model, {})[tag] = (int(f2dot14), int(fixed), float(real))
    return out


@pytest.mark.parametrize("name", ["Karla-VF.ttf", "NotoSans-VF.abc.ttf", "Muli-ABC.ttf",
                                  "AdobeVFPrototype_vsindex.otf"] + AVAR2_FONTS)
def test_every_model_matches_the_cli(cli, name):
    path = font_path(name)
    with otvar.Font(path) as font:
        for loc in user_locations(font, 4, seed=7):
            expected = cli_normalize(cli, path, loc)
            assert set(expected) == set(otvar.models())
            for model in otvar.models():
                ours = font.normalize_detail(model, loc)
                for tag, (f2dot14, fixed, real) in expected[model].items():
                    n = ours[tag.ljust(4)]
                    assert (n.f2dot14, n.fixed) == (f2dot14, fixed), (model, loc, tag)
                    assert math.isclose(n.real, real, rel_tol=1e-12, abs_tol=1e-15)
                assert font.normalize(model, loc) == {t: n.f2dot14 for t, n in ours.items()}


@pytest.mark.parametrize("model", ["spec", "fonttools", "harfbuzz6", "freetype", "harfbuzz"])
def test_location_coords_follow_the_model(model):
    with otvar.Font(font_path("NotoSans-VF.abc.ttf")) as font:
        detail = font.normalize_detail(model, wght=333.3, wdth=77.7)
        with font.at(model, wght=333.3, wdth=77.7) as loc:
            assert loc.model == model
            assert loc.coords == {t: n.f2dot14 for t, n in detail.items()}
            assert loc.fixed_coords == {t: n.fixed for t, n in detail.items()}
            assert not loc.is_default


def test_location_at_named_instance_and_normalized_coords():
    ft = TTFont(font_path("Roboto-Variable.ABC.ttf"))
    with otvar.Font(font_path("Roboto-Variable.ABC.ttf")) as font:
        last = font.named_instances[-1]
        expected = fonttools_normalized(ft, last.coordinates)
        with font.at("fonttools", named=last.index) as by_index, \
                font.at("fonttools", named=last.name) as by_name:
            assert by_index.coords == by_name.coords == expected
        with font.at(normalized=expected) as loc:
            assert loc.coords == expected
        with font.at(normalized=[99999, -99999]) as loc:  # clamped, as the C API clamps
            assert list(loc.coords.values()) == [16384, -16384]
        with font.at() as loc:
            assert loc.is_default and set(loc.coords.values()) == {0}


def test_mapping_for_tags_that_are_not_keywords():
    with otvar.Font(font_path("NotoSans-VF.abc.ttf")) as font:
        assert font.normalize(location={"wght": 700}) == font.normalize(wght=700)
        assert font.normalize("fonttools", {"CTGR": 100}) == font.normalize("fonttools", CTGR=100)
