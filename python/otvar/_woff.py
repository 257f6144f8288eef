"""WOFF 1.0 and WOFF 2.0 through libotvar_woff (include/otvar_woff.h), which is optional: the
core library stays libc-only, so only these functions need the codec library."""

import ctypes

from . import _clib
from ._errors import Error

# The signatures, checked here rather than by otv_woff_is_woff so that a WOFF file is recognised
# (and the missing codec reported) even when libotvar_woff cannot be loaded.
SIGNATURES = (b"wOFF", b"wOF2")


def is_woff(data):
    """True when data starts with a WOFF or WOFF2 signature."""
    return bytes(data[:4]) in SIGNATURES


def _convert(name, data):
    """Run one otv_woff_* converter on data and return its output as bytes (C buffer freed)."""
    lib = _clib.woff()
    data = bytes(data)
    out = ctypes.POINTER(ctypes.c_uint8)()
    out_len = ctypes.c_size_t()
    msg = ctypes.create_string_buffer(256)
    if getattr(lib, name)(data, len(data), ctypes.byref(out), ctypes.byref(out_len), msg,
                          len(msg)):
        text = msg.value.decode("utf-8", "replace")
        raise Error("WOFF", text)
    try:
        return ctypes.string_at(out, out_len.value)
    finally:
        lib.otv_woff_free(out)


def decode_woff(data):
    """A WOFF or WOFF2 file's bytes decoded into an sfnt (or a collection)."""
    return _convert("otv_woff_decode", data)


def to_woff2(sfnt):
    """An sfnt (not a collection) encoded as WOFF2 (glyf/loca transformed, Brotli)."""
    return _convert("otv_woff2_encode", sfnt)


def to_woff(sfnt):
    """An sfnt (not a collection) encoded as WOFF 1.0 (zlib)."""
    return _convert("otv_woff1_encode", sfnt)


ENCODERS = {"woff2": to_woff2, "woff": to_woff}
