"""The plain records the wrappers return: immutable copies of the C structs, with tags as strings
and name IDs resolved to names, so they stay valid after the font is closed."""

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from . import _clib

Coord = Tuple[float, float]


@dataclass(frozen=True)
class FontInfo:
    """Summary numbers of a face (otv_face_info). flavour: "glyf", "CFF", "CFF2" or None."""
    flavour: Optional[str]
    glyph_count: int
    units_per_em: int
    axis_count: int
    instance_count: int
    avar_version: int
    table_count: int


@dataclass(frozen=True)
class TableRecord:
    """One entry of the table directory; offset from the start of the file."""
    tag: str
    checksum: int
    offset: int
    length: int


@dataclass(frozen=True)
class Axis:
    """An fvar axis in user coordinates; name from its axisNameID (None if the name is missing)."""
    tag: str
    name: Optional[str]
    min: float
    default: float
    max: float
    flags: int
    name_id: int
    index: int

    @property
    def hidden(self):
        """The HIDDEN_AXIS flag: user interfaces should not show the axis."""
        return bool(self.flags & _clib.AXIS_FLAG_HIDDEN)


@dataclass(frozen=True)
class NamedInstance:
    """An fvar named instance: its subfamily name, PostScript name (None when absent) and user
    coordinates by axis tag."""
    index: int
    name: Optional[str]
    postscript_name: Optional[str]
    coordinates: Dict[str, float]
    subfamily_name_id: int
    postscript_name_id: int
    flags: int


@dataclass(frozen=True)
class StatAxis:
    """A STAT design axis."""
    tag: str
    name: Optional[str]
    name_id: int
    ordering: int


@dataclass(frozen=True)
class StatValue:
    """A STAT axis value table. Formats 1-3 use axis_index and value (range_min/range_max for
    format 2, linked_value for format 3); format 4 lists (axis_index, value) in records."""
    index: int
    format: int
    flags: int
    name: Optional[str]
    name_id: int
    axis_index: int
    value: float
    range_min: float
    range_max: float
    linked_value: float
    records: Tuple[Tuple[int, float], ...]

    @property
    def elidable(self):
        """ELIDABLE_AXIS_VALUE_NAME: the name may be left out of a composed style name."""
        return bool(self.flags & _clib.STAT_ELIDABLE_AXIS_VALUE_NAME)


@dataclass(frozen=True)
class Stat:
    """The STAT table: design axes and axis values. elided_fallback_name_id is 0xFFFF when the
    table (version 1.0) has none."""
    minor_version: int
    elided_fallback_name_id: int
    axes: Tuple[StatAxis, ...]
    values: Tuple[StatValue, ...]


@dataclass(frozen=True)
class Normalized:
    """One axis normalized by a model: f2dot14 the final coordinate (-16384..16384), fixed the
    16.16 value before the conversion to F2Dot14, real the unrounded value the model rounds last
    (otv_face_normalize)."""
    f2dot14: int
    fixed: int
    real: float


@dataclass(frozen=True)
class HMetrics:
    """Horizontal metrics of a glyph: advance width, left and right side bearings."""
    advance: float
    lsb: float
    rsb: float


@dataclass(frozen=True)
class VMetrics:
    """Vertical metrics of a glyph: advance height, top/bottom side bearings, vertical origin."""
    advance: float
    tsb: float
    bsb: float
    origin: float


@dataclass(frozen=True)
class GlyphPoints:
    """The varied points of a glyph (composites flattened): points with their flags (bit 0x01:
    on curve; 0x80: cubic control point), the index of each contour's last point, the 4 TrueType
    phantom points (left, right, top, bottom origin; empty for CFF) and OTV_GLYPH_* flags."""
    points: Tuple[Coord, ...]
    flags: Tuple[int, ...]
    contour_ends: Tuple[int, ...]
    phantom: Tuple[Coord, ...]
    glyph_flags: int
