"""otvar.Location: a point of a font's design space (otv_location), and what is evaluated there:
outlines, points, metrics and instances."""

import ctypes
from ctypes import byref, c_float, c_int16, c_int32, c_size_t, c_uint8, c_uint16, c_uint32

from . import _clib, _woff
from ._closable import Closable
from ._pen import PenAdapter
from ._records import GlyphPoints, HMetrics, VMetrics

_PHANTOM_POINTS = 4  # TrueType glyphs: left, right, top and bottom origin follow the outline


def _flag(condition, bit):
    """bit when condition holds: flags words are built from keyword booleans."""
    return bit if condition else 0


def _encoder(flavor):
    """The WOFF encoder of an instance flavor (None: the sfnt as it is); checked before the
    instance is made so that a typo costs nothing."""
    if flavor is None:
        return None
    if flavor not in _woff.ENCODERS:
        raise _clib.error("ARG", 0, "flavor %r is not one of None, 'woff', 'woff2'" % (flavor,))
    return _woff.ENCODERS[flavor]


class Location(Closable):
    """A point of the design space of a Font, made by Font.at(); normalized coordinates plus the
    caches that make repeated outline calls cheap. Use one per thread. Close it (or use it as a
    context manager) to free it now; Font.close() closes the font's locations too."""

    def __init__(self, font, handle):
        """Wrap a new otv_location handle of font; Font.at() is the public way in."""
        self._font = font
        self._lib = font._lib
        self._handle = handle

    # ---- lifetime ----

    def close(self):
        """Free the C location (no-op when already closed, or when its font was closed)."""
        if self._handle is not None:
            self._font._release_location(self._handle)
            self._handle = None

    @property
    def closed(self):
        return not self._font._owns_location(self._handle)

    def _ptr(self):
        """The live handle; Error when this location or its font has been closed."""
        if self.closed:
            raise _clib.error("ARG", 0, "the location is closed")
        return self._handle

    def _check(self, status):
        """Raise the error the location recorded for a call that returned status, and clear it
        so that the next failure reports its own cause."""
        if status:
            err = _clib.OtvError.from_buffer_copy(
                self._lib.otv_location_last_error(self._handle).contents)
            self._lib.otv_location_clear_error(self._handle)
            if not err.code:
                err.code = status
            raise _clib.error_from(err)

    # ---- setters used by Font.at ----

    def _set_model(self, model):
        self._check(self._lib.otv_location_set_model(self._ptr(), model))

    def _set_user(self, values):
        """values: (uint32 tag, user value) pairs."""
        array = (_clib.AxisValue * len(values))(*values)
        self._check(self._lib.otv_location_set_user(self._ptr(), array, len(values)))

    def _set_named(self, index):
        self._check(self._lib.otv_location_set_named(self._ptr(), index))

    def _set_normalized(self, coords):
        array = (c_int16 * len(coords))(*coords)
        self._check(self._lib.otv_location_set_normalized(self._ptr(), array, len(coords)))

    # ---- coordinates ----

    @property
    def font(self):
        return self._font

    @property
    def model(self):
        """The normalization model's name ("spec", "fonttools", ...)."""
        model = self._lib.otv_location_model(self._ptr())
        return self._lib.otv_norm_model_name(model).decode("ascii")

    @property
    def coords(self):
        """Final normalized coordinates (F2Dot14 ints, 16384 = 1.0) by axis tag."""
        return self._by_tag(self._lib.otv_location_normalized, c_int16)

    @property
    def fixed_coords(self):
        """The 16.16 normalized coordinates by axis tag, before the conversion to F2Dot14 (what
        the freetype model draws with)."""
        return self._by_tag(self._lib.otv_location_normalized_fixed, c_int32)

    def _by_tag(self, getter, ctype):
        axes = self._font.axes
        out = (ctype * len(axes))()
        getter(self._ptr(), out, len(axes))
        return {axis.tag: out[axis.index] for axis in axes}

    @property
    def is_default(self):
        """True when every normalized coordinate is 0."""
        return bool(self._lib.otv_location_is_default(self._ptr()))

    # ---- outlines ----

    def draw(self, glyph, pen, rounded=False):
        """Draw glyph id `glyph` into a fontTools-style pen (moveTo, lineTo, qCurveTo(control,
        end), curveTo, closePath; points as (x, y) tuples in font units, y up). Composites are
        flattened; implied on-curve points are explicit. rounded: coordinates as a static
        instance stores them (floor(x + 0.5) of each varied value). An exception raised by the
        pen propagates once the C call returns."""
        adapter = PenAdapter(pen)
        flags = _flag(rounded, _clib.OUTLINE_ROUND)
        status = self._lib.otv_glyph_outline(self._ptr(), glyph, flags, byref(adapter.c_pen),
                                             None)
        if adapter.exception is not None:
            self._lib.otv_location_clear_error(self._handle)
            raise adapter.exception
        self._check(status)

    def points(self, glyph, rounded=False):
        """The varied points of a glyph (GlyphPoints): what a static instance's glyf would hold
        with rounded=True, composites flattened."""
        ptr = self._ptr()
        flags = _flag(rounded, _clib.OUTLINE_ROUND)
        io = _clib.GlyphPoints()  # capacities 0: the first call asks for the sizes
        status = self._lib.otv_glyph_points_get(ptr, glyph, flags, byref(io))
        if status == _clib.STATUS["SMALL_BUFFER"]:
            self._lib.otv_location_clear_error(ptr)
            io, buffers = self._points_buffers(io)
            status = self._lib.otv_glyph_points_get(ptr, glyph, flags, byref(io))
        self._check(status)
        return self._points_record(io)

    def _points_buffers(self, sized):
        """A GlyphPoints with buffers for the counts the C library asked for, and the buffers
        (which the caller keeps alive while C writes into them)."""
        extra = _PHANTOM_POINTS if self._font.info.flavour == "glyf" else 0
        points = (_clib.Point * (sized.point_count + extra))()
        flags = (c_uint8 * len(points))()
        ends = (c_uint16 * sized.contour_count)()
        io = _clib.GlyphPoints(ctypes.cast(points, ctypes.POINTER(_clib.Point)),
                               ctypes.cast(flags, ctypes.POINTER(c_uint8)),
                               ctypes.cast(ends, ctypes.POINTER(c_uint16)), len(points), len(ends))
        return io, (points, flags, ends)

    def _points_record(self, io):
        n = io.point_count
        extra = _PHANTOM_POINTS if self._font.info.flavour == "glyf" else 0
        coords = [(io.points[i].x, io.points[i].y) for i in range(n + extra)] if io.points else []
        return GlyphPoints(tuple(coords[:n]),
                           tuple(io.point_flags[i] for i in range(n)) if n else (),
                           tuple(io.contour_ends[i] for i in range(io.contour_count)),
                           tuple(coords[n:]), io.glyph_flags)

    # ---- metrics ----

    def _metrics(self, getter, glyph, flags):
        out = _clib.GlyphMetrics()
        self._check(getter(self._ptr(), glyph, flags, byref(out)))
        return out

    def h_metrics(self, glyph, rounded=False):
        """Horizontal metrics of a glyph at the location (HVAR, else phantom points)."""
        m = self._metrics(self._lib.otv_glyph_h_metrics, glyph,
                          _flag(rounded, _clib.METRICS_ROUND))
        return HMetrics(m.advance, m.side_a, m.side_b)

    def v_metrics(self, glyph, rounded=False, synthesize=False):
        """Vertical metrics of a glyph; synthesize: HarfBuzz's fallback for fonts without
        vhea/vmtx instead of an Error (NO_TABLE)."""
        flags = _flag(rounded, _clib.METRICS_ROUND) | _flag(synthesize, _clib.METRICS_SYNTHESIZE)
        m = self._metrics(self._lib.otv_glyph_v_metrics, glyph, flags)
        return VMetrics(m.advance, m.side_a, m.side_b, m.origin)

    def advances(self, glyphs, rounded=False, vertical=False, synthesize=False):
        """The advances of many glyphs in one call (a list of floats)."""
        gids = (c_uint32 * len(glyphs))(*glyphs)
        out = (c_float * len(glyphs))()
        flags = (_flag(rounded, _clib.METRICS_ROUND) | _flag(vertical, _clib.METRICS_VERTICAL)
                 | _flag(synthesize, _clib.METRICS_SYNTHESIZE))
        self._check(self._lib.otv_glyph_advances(self._ptr(), gids, len(glyphs), flags, out))
        return list(out)

    def metric(self, tag, rounded=False):
        """A font-wide value at the location by its MVAR tag ('xhgt', 'hasc', 'unds', ...) or
        otvar's upper-case tags for unvaried ones ('UPEM', 'ITAL', ...): base value + delta."""
        out = c_float()
        flags = _flag(rounded, _clib.METRICS_ROUND)
        self._check(self._lib.otv_font_metric(self._ptr(), _clib.tag_from_str(tag), flags,
                                              byref(out)))
        return out.value

    # ---- instances ----

    def instance(self, keep=(), update_names=False, overlap_flags=True, flavor=None):
        """The font at this location as bytes: a static instance, or with keep (axis tags) a
        partial one where those axes stay variable over their full ranges. update_names: name
        table and style bits from STAT; overlap_flags=False: no OVERLAP_SIMPLE/COMPOUND bits;
        flavor: None (TrueType/OpenType), "woff" or "woff2"."""
        encode = _encoder(flavor)
        keep = [keep] if isinstance(keep, str) else list(keep)
        tags = (c_uint32 * len(keep))(*[_clib.tag_from_str(t) for t in keep])
        flags = (_flag(update_names, _clib.INSTANCE_UPDATE_NAMES)
                 | _flag(not overlap_flags, _clib.INSTANCE_NO_OVERLAP_FLAGS))
        out = ctypes.POINTER(c_uint8)()
        out_len = c_size_t()
        ptr = self._ptr()
        if keep:
            status = self._lib.otv_instance_create_partial(ptr, tags, len(keep), flags,
                                                           byref(out), byref(out_len))
        else:
            status = self._lib.otv_instance_create(ptr, flags, byref(out), byref(out_len))
        self._check(status)
        try:
            data = ctypes.string_at(out, out_len.value)
        finally:
            self._lib.otv_instance_free(ptr, out, out_len.value)
        return encode(data) if encode else data

    def __repr__(self):
        if self.closed:
            return "<otvar.Location closed>"
        return "<otvar.Location %s %s>" % (self.model, self.coords)
