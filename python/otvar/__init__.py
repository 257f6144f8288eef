"""otvar: OpenType Font Variations through libotvar (ctypes; no compiled extension).

    import otvar
    with otvar.Font("Karla-VF.ttf") as font:
        print([(a.tag, a.min, a.default, a.max) for a in font.axes])
        print(font.normalize(model="fonttools", wght=700))     # {'wght': 16384, ...}
        with font.at(wght=700) as loc:
            loc.draw(font.glyph_for_char("a"), pen)             # any fontTools-style pen
        data = font.instance(wght=700)                          # a static font, as bytes
        web = font.instance(wght=700, flavor="woff2")

Every failed call raises otvar.Error (code name, table, offset, message). The shared libraries
are found as docs/python.md says ($OTVAR_LIBRARY, $OTVAR_WOFF_LIBRARY, ...).
"""

from . import _clib
from ._errors import Error
from ._font import Font, face_count, models
from ._location import Location
from ._records import (Axis, FontInfo, GlyphPoints, HMetrics, NamedInstance, Normalized, Stat,
                       StatAxis, StatValue, TableRecord, VMetrics)
from ._woff import decode_woff, is_woff, to_woff, to_woff2

__version__ = "0.3.0"
__all__ = ["Error", "Font", "Location", "face_count", "models", "version", "library_path",
           "decode_woff", "is_woff", "to_woff", "to_woff2", "Axis", "FontInfo", "GlyphPoints",
           "HMetrics", "NamedInstance", "Normalized", "Stat", "StatAxis", "StatValue",
           "TableRecord", "VMetrics"]


def version():
    """The version of the libotvar actually loaded ("0.3.0")."""
    return _clib.core().otv_version().decode("ascii")


def library_path():
    """Where libotvar was loaded from (a path, or the name the dynamic linker resolved)."""
    return _clib.library_path()
