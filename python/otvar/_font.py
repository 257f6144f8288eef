"""otvar.Font: an opened font (otv_face) and what it says about its design space: axes, named
instances, STAT, names, normalization; Font.at() makes Locations, Font.instance() static fonts."""

import ctypes
import os
from ctypes import byref, c_double, c_int, c_int16, c_int32, c_size_t, c_uint, c_void_p

from . import _clib, _woff
from ._closable import Closable
from ._location import Location
from ._records import (Axis, FontInfo, NamedInstance, Normalized, Stat, StatAxis, StatValue,
                       TableRecord)

_FVAR = int.from_bytes(b"fvar", "big")
_NO_NAME = 0xFFFF
_F2DOT14_ONE = 16384


def _paged(getter, handle, struct, *lead):
    """Every item of a paged list getter (it returns the total; *count is capacity in, written
    out)."""
    total = getter(handle, *lead, 0, byref(c_uint(0)), None)
    items = (struct * total)()
    count = c_uint(total)
    getter(handle, *lead, 0, byref(count), items)
    return items[:count.value]


def _signature(path):
    """The first 4 bytes of a file, b"" when it cannot be read (otv_face_open_file then reports
    why, as an Error)."""
    try:
        with open(path, "rb") as f:
            return f.read(4)
    except OSError:
        return b""


def model_number(name):
    """otv_norm_model of a model name; Error (ARG) naming the known ones otherwise."""
    out = c_int()
    if not _clib.core().otv_norm_model_from_name(str(name).encode("ascii", "replace"),
                                                 byref(out)):
        raise _clib.error("ARG", 0, "unknown normalization model %r (one of %s)"
                          % (name, ", ".join(models())))
    return out.value


def models():
    """The names of the normalization models, by otv_norm_model value ("spec", "fonttools", ...)."""
    name_of = _clib.core().otv_norm_model_name
    names = []
    while True:
        name = name_of(len(names))
        if name is None:  # past the last model
            return tuple(names)
        names.append(name.decode("ascii"))


class Font(Closable):
    """An opened font: Font(path) maps the file, Font(bytes) reads bytes in memory (kept alive
    while the font is open); WOFF and WOFF2 are decoded first (needs libotvar_woff). index picks
    a face of a collection. Immutable, so it may be shared by threads (each using its own
    Location). Close it (or use `with`) to free it now; garbage collection does it otherwise."""

    _handle = None  # class defaults: what close() sees when __init__ failed early
    _live = ()

    def __init__(self, source, index=0):
        self._lib = _clib.core()
        # kept for close() from __del__ at interpreter exit, when module globals may be gone
        self._face_close = self._lib.otv_face_close
        self._location_destroy = self._lib.otv_location_destroy
        self._data = None  # the bytes a memory face borrows
        self._live = set()  # handles of the open locations, destroyed before the face
        self.path = None
        if isinstance(source, (bytes, bytearray, memoryview)):
            self._open_memory(source, index)
        else:
            self.path = os.fspath(source)
            self._open_path(self.path, index)
        try:
            self._info = self._read_info()
            self._axes = self._read_axes()
        except BaseException:
            self.close()
            raise
        self._axis_of_tag = {_clib.tag_from_str(a.tag): a for a in self._axes}

    def _open_memory(self, data, index):
        data = bytes(data)  # a copy of mutable buffers: the face needs the bytes unchanged
        if _woff.is_woff(data):
            data = _woff.decode_woff(data)
        face, err = c_void_p(), _clib.OtvError()
        _clib.check(self._lib.otv_face_open_memory(data, len(data), index, None, byref(face),
                                                   byref(err)), err)
        self._data, self._handle = data, face.value

    def _open_path(self, path, index):
        if _woff.is_woff(_signature(path)):
            with open(path, "rb") as f:
                self._open_memory(f.read(), index)
            return
        face, err = c_void_p(), _clib.OtvError()
        _clib.check(self._lib.otv_face_open_file(os.fsencode(path), index, None, byref(face),
                                                 byref(err)), err)
        self._handle = face.value

    # ---- lifetime ----

    def close(self):
        """Free the face and every location still open on it (they become closed)."""
        if self._live:
            for handle in self._live:
                self._location_destroy(handle)
            self._live.clear()
        if self._handle is not None:
            self._face_close(self._handle)
            self._handle = None
            self._data = None

    @property
    def closed(self):
        return self._handle is None

    def _face(self):
        """The live handle; Error when the font has been closed."""
        if self._handle is None:
            raise _clib.error("ARG", 0, "the font is closed")
        return self._handle

    def _owns_location(self, handle):
        return handle in self._live

    def _release_location(self, handle):
        """Destroy a location of this font unless close() already did."""
        if handle in self._live:
            self._live.discard(handle)
            self._location_destroy(handle)

    # ---- what the face says ----

    def _read_info(self):
        info = _clib.FaceInfo()
        self._lib.otv_face_get_info(self._face(), byref(info))
        return FontInfo(_clib.FLAVOURS.get(info.flavour), info.glyph_count, info.units_per_em,
                        info.axis_count, info.instance_count, info.avar_version,
                        info.table_count)

    def _read_axes(self):
        return tuple(Axis(_clib.tag_to_str(a.tag), self.name(a.name_id), a.min_value,
                          a.default_value, a.max_value, a.flags, a.name_id, a.index)
                     for a in _paged(self._lib.otv_face_axes, self._face(), _clib.Axis))

    @property
    def info(self):
        """FontInfo: outline flavour, glyph count, unitsPerEm, axis/instance counts, avar."""
        self._face()
        return self._info

    @property
    def axes(self):
        """The fvar axes in font order (a tuple of Axis; empty for a static font)."""
        self._face()
        return self._axes

    @property
    def tables(self):
        """The table directory sorted by tag (a tuple of TableRecord)."""
        return tuple(TableRecord(_clib.tag_to_str(t.tag), t.checksum, t.offset, t.length)
                     for t in _paged(self._lib.otv_face_tables, self._face(), _clib.TableRecord))

    def table(self, tag):
        """The bytes of a table, or None when the font has no such table."""
        size = c_size_t()
        data = self._lib.otv_face_table(self._face(), _clib.tag_from_str(tag), byref(size))
        return ctypes.string_at(data, size.value) if data else None

    def glyph_for_char(self, char, selector=0):
        """The nominal glyph id of a character (a 1-character str or a code point) from cmap,
        with a variation selector (code point, 0: none); 0 when unmapped."""
        code = ord(char) if isinstance(char, str) else char
        return self._lib.otv_face_glyph_for_char(self._face(), code, selector)

    def name(self, name_id):
        """A name record as a str (Windows English preferred), None when the font has none."""
        if name_id == _NO_NAME:
            return None
        cap = 256
        while True:
            buf, need, err = ctypes.create_string_buffer(cap), c_size_t(), _clib.OtvError()
            status = self._lib.otv_face_name(self._face(), name_id, buf, cap, byref(need),
                                             byref(err))
            if status == _clib.STATUS["NOT_FOUND"]:
                return None
            _clib.check(status, err)
            if need.value < cap:
                return buf.value.decode("utf-8")
            cap = need.value + 1

    @property
    def named_instances(self):
        """The fvar named instances (a tuple of NamedInstance)."""
        return tuple(self._named_instance(i) for i in
                     _paged(self._lib.otv_face_named_instances, self._face(),
                            _clib.NamedInstance))

    def _named_instance(self, inst):
        coords = (c_double * len(self._axes))()
        err = _clib.OtvError()
        _clib.check(self._lib.otv_face_named_instance_coords(
            self._face(), inst.index, coords, len(coords), byref(err)), err)
        return NamedInstance(inst.index, self.name(inst.subfamily_name_id),
                             self.name(inst.postscript_name_id),
                             {a.tag: coords[a.index] for a in self._axes},
                             inst.subfamily_name_id, inst.postscript_name_id, inst.flags)

    @property
    def stat(self):
        """The STAT table (Stat), or None when the font has none."""
        info = _clib.StatInfo()
        self._lib.otv_face_stat(self._face(), byref(info))
        if not info.present:
            return None
        axes = tuple(StatAxis(_clib.tag_to_str(a.tag), self.name(a.name_id), a.name_id,
                              a.ordering)
                     for a in _paged(self._lib.otv_face_stat_axes, self._face(), _clib.StatAxis))
        values = tuple(self._stat_value(v) for v in
                       _paged(self._lib.otv_face_stat_values, self._face(), _clib.StatValue))
        return Stat(info.minor_version, info.elided_fallback_name_id, axes, values)

    def _stat_value(self, v):
        records = _paged(self._lib.otv_face_stat_value_records, self._face(),
                         _clib.StatAxisValueRecord, v.index)
        return StatValue(v.index, v.format, v.flags, self.name(v.name_id), v.name_id,
                         v.axis_index, v.value, v.range_min, v.range_max, v.linked_value,
                         tuple((r.axis_index, r.value) for r in records))

    # ---- normalization ----

    def _axis(self, tag):
        """The Axis of a tag ("wght"; shorter tags padded with spaces); Error NOT_FOUND if none."""
        axis = self._axis_of_tag.get(_clib.tag_from_str(tag))
        if axis is None:
            raise _clib.error("NOT_FOUND", _FVAR, "the font has no axis %r" % (tag,))
        return axis

    def _user_values(self, location, user):
        """(axis, value) pairs of a location mapping and keyword values, tags checked."""
        self._face()
        items = list(dict(location or {}).items()) + list(user.items())
        return [(self._axis(tag), float(value)) for tag, value in items]

    def normalize_detail(self, model="spec", location=None, **user):
        """Normalize user coordinates (keywords, or a {tag: value} mapping for tags that are not
        identifiers; unlisted axes take their default) with a model, without a location:
        {tag: Normalized(f2dot14, fixed, real)} for every axis (otv_face_normalize)."""
        user_coords = (c_double * len(self._axes))(*(a.default for a in self._axes))
        for axis, value in self._user_values(location, user):
            user_coords[axis.index] = value
        n = len(self._axes)
        fixed, f2dot14, real = (c_int32 * n)(), (c_int16 * n)(), (c_double * n)()
        err = _clib.OtvError()
        _clib.check(self._lib.otv_face_normalize(self._face(), model_number(model), user_coords, n,
                                                 fixed, f2dot14, real, byref(err)), err)
        return {a.tag: Normalized(f2dot14[a.index], fixed[a.index], real[a.index])
                for a in self._axes}

    def normalize(self, model="spec", location=None, **user):
        """As normalize_detail, returning the final F2Dot14 coordinates: {tag: int}, 16384 = 1.
        Keyword names of 5+ letters (model, location) can never be axis tags."""
        return {tag: n.f2dot14 for tag, n in self.normalize_detail(model, location, **user).items()}

    # ---- locations and instances ----

    def at(self, model="spec", named=None, location=None, normalized=None, **user):
        """A Location at user coordinates (keywords and/or a {tag: value} mapping), at a named
        instance (named: index or subfamily name), or at normalized F2Dot14 coordinates
        (normalized: {tag: int} or a sequence in axis order), with a normalization model
        ("spec", "fonttools", "harfbuzz", "harfbuzz6", "freetype")."""
        if (named is not None) + (normalized is not None) + bool(location or user) > 1:
            raise TypeError("give user coordinates, named= or normalized=, not several")
        loc = self._new_location()
        try:
            loc._set_model(model_number(model))
            if named is not None:
                loc._set_named(self._named_index(named))
            elif normalized is not None:
                loc._set_normalized(self._normalized_vector(normalized))
            else:
                loc._set_user([(_clib.tag_from_str(a.tag), v)
                               for a, v in self._user_values(location, user)])
        except BaseException:
            loc.close()
            raise
        return loc

    def _new_location(self):
        handle, err = c_void_p(), _clib.OtvError()
        _clib.check(self._lib.otv_location_create(self._face(), byref(handle), byref(err)), err)
        self._live.add(handle.value)
        return Location(self, handle.value)

    def _named_index(self, named):
        """The index of a named instance given by index or by subfamily name."""
        if not isinstance(named, str):
            return named
        for inst in self.named_instances:
            if inst.name == named:
                return inst.index
        raise _clib.error("NOT_FOUND", _FVAR, "no named instance %r" % (named,))

    def _normalized_vector(self, normalized):
        """F2Dot14 coordinates in axis order (missing axes 0), clamped to [-1, 1] as
        otv_location_set_normalized would, before ctypes could wrap them to 16 bits."""
        if hasattr(normalized, "items"):
            vector = [0] * len(self._axes)
            for tag, value in normalized.items():
                vector[self._axis(tag).index] = value
        else:
            vector = list(normalized)
        return [max(-_F2DOT14_ONE, min(_F2DOT14_ONE, int(v))) for v in vector]

    def instance(self, model="spec", named=None, keep=(), update_names=False,
                 overlap_flags=True, flavor=None, location=None, **user):
        """A static instance as bytes at user coordinates or a named instance (as at()); with keep
        (axis tags) a partial instance where those axes stay variable and the others are pinned.
        flavor "woff2"/"woff" encodes it; see Location.instance for the flags."""
        keep = [keep] if isinstance(keep, str) else list(keep)
        pinned_and_kept = {a.tag for a, _ in self._user_values(location, user)} & {
            self._axis(t).tag for t in keep}
        if pinned_and_kept:
            raise _clib.error("ARG", _FVAR, "axis %r is kept variable and also given a value"
                              % sorted(pinned_and_kept)[0])
        with self.at(model, named, location, **user) as loc:
            return loc.instance(keep, update_names, overlap_flags, flavor)

    def __repr__(self):
        if self.closed:
            return "<otvar.Font closed>"
        source = self.path if self.path is not None else "%d bytes" % len(self._data)
        return "<otvar.Font %s: %s>" % (source, " ".join(a.tag for a in self._axes) or "static")


def face_count(source):
    """The number of faces in a font file or bytes (1 for a plain font, numFonts for a
    collection, 0 when it is not a font)."""
    if not isinstance(source, (bytes, bytearray, memoryview)):
        with open(source, "rb") as f:
            source = f.read()
    data = bytes(source)
    return _clib.core().otv_font_face_count(data, len(data))
