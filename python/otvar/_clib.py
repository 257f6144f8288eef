"""The C API of include/otvar.h and include/otvar_woff.h as ctypes declarations, the two loaded
libraries, and the conversions every wrapper needs (tags, errors).

Handles (otv_face *, otv_location *) are plain c_void_p values; structs mirror the header's
field for field (the tests check the values of each against fontTools, so a layout that
drifts from the header fails them).
"""

import ctypes
import functools
from ctypes import (POINTER, Structure, c_bool, c_char, c_char_p, c_double, c_float, c_int,
                    c_int16, c_int32, c_size_t, c_uint, c_uint8, c_uint16, c_uint32, c_uint64,
                    c_void_p)

from . import _loader
from ._errors import STATUS_NAMES, Error, status_name

# The oldest library with everything declared below (otv_face_normalize, models: Since 0.3).
MIN_VERSION = (0, 3)


class OtvError(Structure):
    _fields_ = [("code", c_int), ("table", c_uint32), ("offset", c_uint64), ("msg", c_char * 112)]


class FaceInfo(Structure):
    _fields_ = [("flavour", c_int), ("glyph_count", c_uint32), ("units_per_em", c_uint16),
                ("axis_count", c_uint16), ("instance_count", c_uint16),
                ("avar_version", c_uint16), ("table_count", c_uint16), ("reserved", c_uint16)]


class TableRecord(Structure):
    _fields_ = [("tag", c_uint32), ("checksum", c_uint32), ("offset", c_uint32),
                ("length", c_uint32)]


class Axis(Structure):
    _fields_ = [("tag", c_uint32), ("min_value", c_double), ("default_value", c_double),
                ("max_value", c_double), ("flags", c_uint16), ("name_id", c_uint16),
                ("index", c_uint16), ("reserved", c_uint16)]


class NamedInstance(Structure):
    _fields_ = [("subfamily_name_id", c_uint16), ("postscript_name_id", c_uint16),
                ("flags", c_uint16), ("index", c_uint16)]


class StatInfo(Structure):
    _fields_ = [("present", c_bool), ("minor_version", c_uint16),
                ("design_axis_count", c_uint16), ("axis_value_count", c_uint16),
                ("elided_fallback_name_id", c_uint16)]


class StatAxis(Structure):
    _fields_ = [("tag", c_uint32), ("name_id", c_uint16), ("ordering", c_uint16)]


class StatValue(Structure):
    _fields_ = [("format", c_uint16), ("flags", c_uint16), ("name_id", c_uint16),
                ("axis_index", c_uint16), ("value", c_double), ("range_min", c_double),
                ("range_max", c_double), ("linked_value", c_double), ("record_count", c_uint16),
                ("index", c_uint16)]


class StatAxisValueRecord(Structure):
    _fields_ = [("axis_index", c_uint16), ("value", c_double)]


class AxisValue(Structure):
    _fields_ = [("tag", c_uint32), ("value", c_double)]


class Point(Structure):
    _fields_ = [("x", c_float), ("y", c_float)]


class GlyphPoints(Structure):
    _fields_ = [("points", POINTER(Point)), ("point_flags", POINTER(c_uint8)),
                ("contour_ends", POINTER(c_uint16)), ("point_cap", c_uint),
                ("contour_cap", c_uint), ("point_count", c_uint), ("contour_count", c_uint),
                ("glyph_flags", c_uint32)]


class GlyphMetrics(Structure):
    _fields_ = [("advance", c_float), ("side_a", c_float), ("side_b", c_float),
                ("origin", c_float)]


MOVE_TO = ctypes.CFUNCTYPE(None, c_void_p, c_float, c_float)
LINE_TO = MOVE_TO
QUAD_TO = ctypes.CFUNCTYPE(None, c_void_p, c_float, c_float, c_float, c_float)
CUBIC_TO = ctypes.CFUNCTYPE(None, c_void_p, c_float, c_float, c_float, c_float, c_float, c_float)
CLOSE_PATH = ctypes.CFUNCTYPE(None, c_void_p)


class Pen(Structure):
    _fields_ = [("move_to", MOVE_TO), ("line_to", LINE_TO), ("quad_to", QUAD_TO),
                ("cubic_to", CUBIC_TO), ("close_path", CLOSE_PATH)]


# Flags (otvar.h).
AXIS_FLAG_HIDDEN = 0x0001
STAT_OLDER_SIBLING_FONT_ATTRIBUTE = 0x0001
STAT_ELIDABLE_AXIS_VALUE_NAME = 0x0002
OUTLINE_ROUND = 0x0001
METRICS_ROUND = 0x0001
METRICS_VERTICAL = 0x0002
METRICS_SYNTHESIZE = 0x0004
POINT_ON_CURVE = 0x01
INSTANCE_UPDATE_NAMES = 0x0001
INSTANCE_NO_OVERLAP_FLAGS = 0x0002
STATUS = {name: value for value, name in enumerate(STATUS_NAMES)}
FLAVOURS = {0: None, 1: "glyf", 2: "CFF", 3: "CFF2"}

_P = POINTER
_ERR = _P(OtvError)
# name: (result, argument types), in the header's order.
CORE_API = {
    "otv_version": (c_char_p, []),
    "otv_status_str": (c_char_p, [c_int]),
    "otv_error_format": (c_size_t, [_ERR, c_char_p, c_size_t]),
    "otv_tag_from_string": (c_bool, [c_char_p, _P(c_uint32)]),
    "otv_face_open_memory": (c_int, [c_char_p, c_size_t, c_uint, c_void_p, _P(c_void_p), _ERR]),
    "otv_face_open_file": (c_int, [c_char_p, c_uint, c_void_p, _P(c_void_p), _ERR]),
    "otv_face_close": (None, [c_void_p]),
    "otv_font_face_count": (c_uint, [c_char_p, c_size_t]),
    "otv_face_get_info": (None, [c_void_p, _P(FaceInfo)]),
    "otv_face_tables": (c_uint, [c_void_p, c_uint, _P(c_uint), _P(TableRecord)]),
    "otv_face_table": (_P(c_uint8), [c_void_p, c_uint32, _P(c_size_t)]),
    "otv_face_glyph_for_char": (c_uint32, [c_void_p, c_uint32, c_uint32]),
    "otv_face_axes": (c_uint, [c_void_p, c_uint, _P(c_uint), _P(Axis)]),
    "otv_face_named_instances": (c_uint, [c_void_p, c_uint, _P(c_uint), _P(NamedInstance)]),
    "otv_face_named_instance_coords": (c_int, [c_void_p, c_uint, _P(c_double), c_uint, _ERR]),
    "otv_norm_model_name": (c_char_p, [c_int]),
    "otv_norm_model_from_name": (c_bool, [c_char_p, _P(c_int)]),
    "otv_face_normalize": (c_int, [c_void_p, c_int, _P(c_double), c_uint, _P(c_int32),
                                   _P(c_int16), _P(c_double), _ERR]),
    "otv_face_name": (c_int, [c_void_p, c_uint16, c_char_p, c_size_t, _P(c_size_t), _ERR]),
    "otv_face_stat": (None, [c_void_p, _P(StatInfo)]),
    "otv_face_stat_axes": (c_uint, [c_void_p, c_uint, _P(c_uint), _P(StatAxis)]),
    "otv_face_stat_values": (c_uint, [c_void_p, c_uint, _P(c_uint), _P(StatValue)]),
    "otv_face_stat_value_records": (c_uint, [c_void_p, c_uint, c_uint, _P(c_uint),
                                             _P(StatAxisValueRecord)]),
    "otv_location_create": (c_int, [c_void_p, _P(c_void_p), _ERR]),
    "otv_location_destroy": (None, [c_void_p]),
    "otv_location_last_error": (_ERR, [c_void_p]),
    "otv_location_clear_error": (None, [c_void_p]),
    "otv_location_set_user": (c_int, [c_void_p, _P(AxisValue), c_size_t]),
    "otv_location_set_named": (c_int, [c_void_p, c_uint]),
    "otv_location_set_normalized": (c_int, [c_void_p, _P(c_int16), c_uint]),
    "otv_location_normalized": (c_uint, [c_void_p, _P(c_int16), c_uint]),
    "otv_location_normalized_fixed": (c_uint, [c_void_p, _P(c_int32), c_uint]),
    "otv_location_set_model": (c_int, [c_void_p, c_int]),
    "otv_location_model": (c_int, [c_void_p]),
    "otv_location_is_default": (c_bool, [c_void_p]),
    "otv_glyph_outline": (c_int, [c_void_p, c_uint32, c_uint, _P(Pen), c_void_p]),
    "otv_glyph_points_get": (c_int, [c_void_p, c_uint32, c_uint, _P(GlyphPoints)]),
    "otv_glyph_h_metrics": (c_int, [c_void_p, c_uint32, c_uint, _P(GlyphMetrics)]),
    "otv_glyph_v_metrics": (c_int, [c_void_p, c_uint32, c_uint, _P(GlyphMetrics)]),
    "otv_glyph_advances": (c_int, [c_void_p, _P(c_uint32), c_size_t, c_uint, _P(c_float)]),
    "otv_font_metric": (c_int, [c_void_p, c_uint32, c_uint, _P(c_float)]),
    "otv_instance_create": (c_int, [c_void_p, c_uint, _P(_P(c_uint8)), _P(c_size_t)]),
    "otv_instance_create_partial": (c_int, [c_void_p, _P(c_uint32), c_uint, c_uint,
                                            _P(_P(c_uint8)), _P(c_size_t)]),
    "otv_instance_free": (None, [c_void_p, _P(c_uint8), c_size_t]),
}

_BYTES_OUT = [_P(_P(c_uint8)), _P(c_size_t), c_char_p, c_size_t]
WOFF_API = {
    "otv_woff_decode": (c_int, [c_char_p, c_size_t] + _BYTES_OUT),
    "otv_woff2_encode": (c_int, [c_char_p, c_size_t] + _BYTES_OUT),
    "otv_woff1_encode": (c_int, [c_char_p, c_size_t] + _BYTES_OUT),
    "otv_woff_free": (None, [c_void_p]),
}


def _missing(api):
    """A check for _loader.load: the first function of api the library lacks, as a reason."""
    def check(lib):
        absent = [name for name in api if not hasattr(lib, name)]
        return "no %s (otvar >= %d.%d is needed)" % (absent[0], *MIN_VERSION) if absent else None
    return check


def _declare(lib, api):
    """Set the prototypes of api on lib."""
    for name, (restype, argtypes) in api.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


@functools.lru_cache(maxsize=None)
def _load_core():
    lib, path = _loader.load("libotvar", "OTVAR_LIBRARY", _missing(CORE_API))
    return _declare(lib, CORE_API), path


def core():
    """libotvar, loaded on first use (an Error, not an ImportError, when it cannot be found)."""
    return _load_core()[0]


def library_path():
    """The path or name libotvar was loaded from."""
    return _load_core()[1]


@functools.lru_cache(maxsize=None)
def woff():
    """libotvar_woff, loaded on first WOFF use: without it everything but WOFF still works."""
    lib, _ = _loader.load("libotvar_woff", "OTVAR_WOFF_LIBRARY", _missing(WOFF_API),
                          near=library_path())
    return _declare(lib, WOFF_API)


def tag_to_str(tag):
    """A uint32 tag as its 4 characters ("wght", "ab  ")."""
    return tag.to_bytes(4, "big").decode("latin-1")


def tag_from_str(text):
    """"wght" -> uint32 with otv_tag_from_string's rules (shorter tags padded with spaces)."""
    out = c_uint32()
    try:
        ok = core().otv_tag_from_string(text.encode("ascii"), ctypes.byref(out))
    except (UnicodeEncodeError, AttributeError):
        ok = False
    if not ok:
        raise error("ARG", 0, "%r is not an axis tag" % (text,))
    return out.value


def error_from(err):
    """otvar.Error from a filled otv_error struct."""
    lib = core()
    need = lib.otv_error_format(ctypes.byref(err), None, 0)
    buf = ctypes.create_string_buffer(need + 1)
    lib.otv_error_format(ctypes.byref(err), buf, need + 1)
    table = tag_to_str(err.table) if err.table else None
    return Error(status_name(err.code), buf.value.decode("utf-8", "replace"), table, err.offset,
                 err.msg.decode("utf-8", "replace"))


def error(code, table, message):
    """otvar.Error for a failure found on the Python side, printed as the C library prints."""
    err = OtvError(STATUS[code], table, 0, message.encode("utf-8")[:111])
    return error_from(err)


def check(status, err):
    """Raise the error of a face call that returned status (otv_error filled by the call)."""
    if status:
        if not err.code:
            err.code = status
        raise error_from(err)
