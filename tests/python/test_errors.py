"""Errors and lifetimes: the status names against include/otvar.h, errors on bad fonts equal to
the otvar command's error lines, argument errors, closed fonts and locations, and C objects
freed when their Python objects go."""

import gc
import math
import os
import re
import struct
import weakref

import pytest
from conftest import ROOT, font_path
from fontTools.pens.recordingPen import RecordingPen

import otvar
from otvar import _clib
from otvar._errors import STATUS_NAMES


def test_status_names_mirror_the_header():
    header = open(os.path.join(ROOT, "include", "otvar.h")).read()
    listed = re.findall(r'X\((\w+), (\d+), "([^"]*)"\)', header)
    assert [(name, int(value)) for name, value, _ in listed] == [
        (name, value) for value, name in enumerate(STATUS_NAMES)]
    status_str = _clib.core().otv_status_str
    assert [status_str(int(value)).decode() for _, value, _ in listed] == [
        text for _, _, text in listed]


def cli_error(cli, *args):
    """The error text of a failing `otvar` run: its one stderr line without `otvar: FILE: `."""
    r = cli(*args)
    assert r.returncode == 1
    line = r.stderr.decode().strip()
    assert "\n" not in line
    return line.split(": ", 2)[2]


def damaged_fonts(tmp_path):
    """(path, expected code): not a font, a cut table directory, a missing file."""
    karla = open(font_path("Karla-VF.ttf"), "rb").read()
    (tmp_path / "text.ttf").write_bytes(b"hello, this is not a font\n")
    (tmp_path / "cut.ttf").write_bytes(karla[:300])
    return [(tmp_path / "text.ttf", "BAD_VALUE"), (tmp_path / "cut.ttf", "TRUNCATED"),
            (tmp_path / "missing.ttf", "IO")]


def test_bad_files_fail_as_the_cli_says(cli, tmp_path):
    for path, code in damaged_fonts(tmp_path):
        with pytest.raises(otvar.Error) as e:
            otvar.Font(path)
        assert e.value.code == code
        if path.exists():
            assert str(e.value) == cli_error(cli, "info", path)
        else:
            # the CLI checks its input itself (regular files only) before the library opens it
            assert cli_error(cli, "info", path) == "No such file or directory"
            assert str(path) in str(e.value)
        assert e.value.message in str(e.value)
        if path.exists():
            with pytest.raises(otvar.Error) as from_bytes:
                otvar.Font(path.read_bytes())
            assert str(from_bytes.value) == str(e.value)


def test_bad_woff_fails_with_the_codec_message(tmp_path):
    web = bytearray(otvar.to_woff2(open(font_path("Muli-ABC.ttf"), "rb").read()))
    with pytest.raises(otvar.Error) as e:
        otvar.Font(bytes(web[:len(web) // 2]))
    assert e.value.code == "WOFF" and str(e.value)


def damaged_gvar(tmp_path, gid):
    """Karla with glyph gid's gvar data claiming 4095 tuples (its headers run past its data)."""
    data = bytearray(open(font_path("Karla-VF.ttf"), "rb").read())
    with otvar.Font(bytes(data)) as font:
        gvar = next(t for t in font.tables if t.tag == "gvar").offset
    long_offsets = struct.unpack_from(">H", data, gvar + 14)[0] & 1
    array = struct.unpack_from(">I", data, gvar + 16)[0]
    if long_offsets:
        glyph = struct.unpack_from(">I", data, gvar + 20 + 4 * gid)[0]
    else:
        glyph = struct.unpack_from(">H", data, gvar + 20 + 2 * gid)[0] * 2
    struct.pack_into(">H", data, gvar + array + glyph, 0x0FFF)
    path = tmp_path / "bad-gvar.ttf"
    path.write_bytes(data)
    return path


def test_broken_glyph_names_table_and_offset_as_the_cli(cli, tmp_path):
    with otvar.Font(font_path("Karla-VF.ttf")) as karla:
        gid = karla.glyph_for_char("H")
    path = damaged_gvar(tmp_path, gid)
    with otvar.Font(path) as font, font.at(wght=700) as loc:
        with pytest.raises(otvar.Error) as e:
            loc.draw(gid, RecordingPen())
        assert e.value.table == "gvar" and e.value.offset > 0
        assert str(e.value).startswith("gvar+0x%x: " % e.value.offset)
        assert "glyph %d: %s" % (gid, e.value) == cli_error(cli, "outline", path, "--glyphs",
                                                            gid, "--var", "wght=700")
        other = RecordingPen()
        loc.draw(gid - 1, other)  # the location goes on after a broken glyph
        assert other.value
        assert loc.h_metrics(gid - 1).advance > 0


def test_argument_errors(karla):
    cases = [(lambda: karla.normalize(wdth=100), "NOT_FOUND", "fvar"),
             (lambda: karla.at(opsz=12), "NOT_FOUND", "fvar"),
             (lambda: karla.normalize(location={"toolong": 1}), "ARG", None),
             (lambda: karla.normalize("nonsense", wght=500), "ARG", None),
             (lambda: karla.normalize(wght=math.nan), "ARG", None),
             (lambda: karla.at(wght=math.nan), "ARG", None),
             (lambda: karla.at(named="Nonexistent"), "NOT_FOUND", "fvar"),
             (lambda: karla.at(named=99), "NOT_FOUND", "fvar"),
             (lambda: karla.at().metric("zzzz"), "NOT_FOUND", "MVAR")]
    for call, code, table in cases:
        with pytest.raises(otvar.Error) as e:
            call()
        assert (e.value.code, e.value.table) == (code, table), e.value
    with pytest.raises(TypeError):
        karla.at(named=0, wght=500)


def test_closed_font_and_its_locations():
    font = otvar.Font(font_path("Karla-VF.ttf"))
    loc = font.at(wght=700)
    font.close()
    font.close()  # twice is fine
    assert font.closed and loc.closed
    for call in (lambda: font.axes, lambda: font.normalize(wght=500), lambda: font.at(),
                 lambda: font.instance(wght=500), lambda: loc.coords,
                 lambda: loc.draw(1, RecordingPen())):
        with pytest.raises(otvar.Error) as e:
            call()
        assert e.value.code == "ARG" and "closed" in str(e.value)
    loc.close()
    assert repr(font) == "<otvar.Font closed>"


def test_context_managers_close():
    with otvar.Font(font_path("Karla-VF.ttf")) as font:
        with font.at(wght=300) as loc:
            pass
        assert loc.closed and not font.closed
    assert font.closed


def test_objects_are_freed_without_close():
    """No reference cycles: dropping the last reference frees the C objects (via __del__);
    a location keeps its font alive, so using it without a reference to the font is safe."""
    loc = otvar.Font(open(font_path("Karla-VF.ttf"), "rb").read()).at(wght=700)
    font_ref = weakref.ref(loc.font)
    gc.collect()
    pen = RecordingPen()
    loc.draw(loc.font.glyph_for_char("a"), pen)
    assert pen.value and font_ref() is not None
    del loc
    assert font_ref() is None  # collected by reference counting alone
    for _ in range(200):  # under ASan a double free or a use after free would abort here
        font = otvar.Font(font_path("Roboto-Variable.ABC.ttf"))
        font.at(wght=500).h_metrics(1)
        del font
