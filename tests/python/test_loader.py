"""The library lookup order of docs/python.md: the environment variable alone when set, then
(WOFF codec) the core library's directory, copies in the package, build trees of the checkout
(newest first, sanitizer builds skipped), the system's names; libraries lacking the API are
skipped with a reason."""

import os
import shutil

import pytest

import otvar
from otvar import _clib, _loader

LIBRARY = _clib.library_path()  # the real one, loaded before the fixtures hide it


@pytest.fixture
def layout(tmp_path, monkeypatch):
    """An empty package directory and a source checkout with two build trees."""
    package = tmp_path / "python" / "otvar"
    package.mkdir(parents=True)
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "otvar.h").write_text("")
    monkeypatch.setattr(_loader, "_PACKAGE_DIR", package)
    monkeypatch.setattr(_loader, "_CHECKOUT", tmp_path)
    monkeypatch.delenv("OTVAR_LIBRARY", raising=False)
    monkeypatch.delenv("OTVAR_WOFF_LIBRARY", raising=False)
    monkeypatch.setattr(_loader.ctypes.util, "find_library", lambda name: None)
    return tmp_path


def build_tree(root, name, content, mtime):
    path = root / name / "libotvar.so"
    path.parent.mkdir()
    path.write_bytes(content)
    os.utime(path, (mtime, mtime))
    return str(path)


def test_environment_variable_is_the_only_candidate(layout, monkeypatch):
    monkeypatch.setenv("OTVAR_LIBRARY", "/opt/x/libotvar.so")
    build_tree(layout, "build", b"plain", 1000)
    assert _loader.candidates("libotvar", "OTVAR_LIBRARY") == ["/opt/x/libotvar.so"]


def test_order_package_then_build_trees_then_system(layout):
    (layout / "python" / "otvar" / "libotvar.so.0").write_bytes(b"copy")
    old = build_tree(layout, "build-old", b"plain", 1000)
    new = build_tree(layout, "build-new", b"plain", 2000)
    build_tree(layout, "build-asan", b"...__asan_init...", 3000)
    assert _loader.candidates("libotvar", "OTVAR_LIBRARY") == [
        str(layout / "python" / "otvar" / "libotvar.so.0"), new, old, "libotvar.so.0"]


def test_woff_codec_is_looked_for_next_to_the_core_library(layout):
    assert _loader.candidates("libotvar_woff", "OTVAR_WOFF_LIBRARY", near="/opt/x/libotvar.so")[
        :2] == ["/opt/x/libotvar_woff.so", "/opt/x/libotvar_woff.so.0"]


def test_build_trees_only_in_a_checkout(layout):
    build_tree(layout, "build", b"plain", 1000)
    os.unlink(layout / "include" / "otvar.h")
    assert _loader.candidates("libotvar", "OTVAR_LIBRARY") == ["libotvar.so.0"]


def test_a_library_without_the_api_is_skipped(layout, monkeypatch):
    """A real shared library that is not libotvar (Python's _ctypes module) is passed over,
    with the reason. (The soname is left out: it names the libotvar this process loaded.)"""
    monkeypatch.setattr(_loader, "_system_copies", lambda stem: [])
    import _ctypes
    other = build_tree(layout, "build", b"", 1000)
    shutil.copy(_ctypes.__file__, other)
    with pytest.raises(otvar.Error) as e:
        _loader.load("libotvar", "OTVAR_LIBRARY", _clib._missing(_clib.CORE_API))
    assert e.value.code == "UNSUPPORTED"
    assert "%s: no otv_version" % other in str(e.value)
    assert "set $OTVAR_LIBRARY" in str(e.value)


def test_package_copy_loads(layout):
    copy = layout / "python" / "otvar" / "libotvar.so"
    shutil.copy(LIBRARY, copy)
    lib, path = _loader.load("libotvar", "OTVAR_LIBRARY", _clib._missing(_clib.CORE_API))
    assert path == str(copy)
    assert lib.otv_version  # the API is there
