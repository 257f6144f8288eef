"""Shared fixtures of the otvar Python package tests: font paths, the otvar CLI, fontTools
instances (the oracle), and a pen that makes otvar's and fontTools' drawings comparable.

Environment (set by ctest, see tests/python/run.sh): OTVAR_LIBRARY, OTVAR_WOFF_LIBRARY, OTVAR
(the CLI), OTV_FONTS (tests/fonts), OTV_ROOT (the repository).
"""

import functools
import io
import os
import subprocess

import pytest
from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

import otvar

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("OTV_ROOT", os.path.join(HERE, "..", ".."))
FONTS = os.environ.get("OTV_FONTS", os.path.join(ROOT, "tests", "fonts"))
KARLA = os.path.join(ROOT, "fonts", "Karla-VF.ttf")
VARIATION_TABLES = {"fvar", "gvar", "avar", "HVAR", "VVAR", "MVAR", "cvar"}  # STAT stays, pruned

# TrueType variable fonts of tests/fonts that fontTools 4.38 instantiates (no avar v2)
GLYF_FONTS = ["Roboto-Variable.ABC.ttf", "Roboto-Variable.composite.ttf", "NotoSans-VF.abc.ttf",
              "SourceSerifVariable-Roman-VVAR.abc.ttf", "Muli-ABC.ttf",
              "material_symbols_subset.ttf", "vazirmatn_var_trimmed.ttf", "Handjet.ttf",
              "PartialInstancerTest-VF.ttf", "PartialInstancerTest2-VF.ttf",
              "STATInstancerTest.ttf", "SparseMasters-VF.ttf"]
CFF2_FONTS = ["AdobeVFPrototype_vsindex.otf", "NotoSansJP-VF.subset.otf",
              "cantarell_vf_trimmed.ttf", "CFF2Instancer-VF-1.otf"]
AVAR2_FONTS = ["avar2checker.ttf", "Amstelvar-avar2.A.ttf"]


def font_path(name):
    """A test font by file name: tests/fonts, or the bundled Karla."""
    return KARLA if name == "Karla-VF.ttf" else os.path.join(FONTS, name)


@pytest.fixture
def karla():
    with otvar.Font(KARLA) as font:
        yield font


@pytest.fixture(scope="session")
def cli():
    """Run the otvar command; returns the CompletedProcess (bytes output)."""
    exe = os.environ.get("OTVAR")
    if not exe:
        pytest.skip("OTVAR (the otvar command) is not set")
    return lambda *args: subprocess.run([exe] + [str(a) for a in args], capture_output=True)


def reloaded(font):
    """A TTFont after a compile round trip: the values a file would hold (rounded, packed)."""
    buf = io.BytesIO()
    font.save(buf)
    buf.seek(0)
    return TTFont(buf)


@functools.lru_cache(maxsize=None)
def fonttools_instance(name, location):
    """fontTools' instancer output for font `name` at `location` ((tag, value) pairs; a partial
    instance when some axes are left out), compiled and loaded again. Cached: it is slow."""
    return reloaded(instancer.instantiateVariableFont(TTFont(font_path(name)), dict(location)))


def fonttools_normalized(font, location):
    """fontTools' instancer normalization of a full user location, as F2Dot14 ints."""
    limits = instancer.AxisLimits(location).populateDefaults(font).normalize(font)
    return {tag: round(limit[0] * 16384) for tag, limit in limits.items()}


class SegmentPen(BasePen):
    """Records each contour as closed cyclic list of segments, quadratic runs split into
    single-control pieces (by BasePen), a final line back to the start made explicit: otvar
    draws implied on-curve points itself and starts a contour at point 0, fontTools' glyf draw
    passes runs of controls and starts at the first on-curve point; both become this form."""

    def __init__(self, glyph_set=None):
        super().__init__(glyph_set)
        self.contours = []

    def _moveTo(self, pt):
        self.contours.append([("M", pt)])

    def _lineTo(self, pt):
        self.contours[-1].append(("L", pt))

    def _qCurveToOne(self, pt1, pt2):
        self.contours[-1].append(("Q", pt1, pt2))

    def _curveToOne(self, pt1, pt2, pt3):
        self.contours[-1].append(("C", pt1, pt2, pt3))

    def _closePath(self):
        contour = self.contours[-1]
        start = contour.pop(0)[1]
        if not contour or contour[-1][-1] != start:
            contour.append(("L", start))

    _endPath = _closePath


def _close(a, b, tolerance):
    return a[0] == b[0] and all(abs(p[0] - q[0]) <= tolerance and abs(p[1] - q[1]) <= tolerance
                                for p, q in zip(a[1:], b[1:]))


def same_contour(a, b, tolerance):
    """True when two segment cycles are equal within tolerance under some rotation."""
    if len(a) != len(b):
        return False
    return any(all(_close(a[(i + k) % len(a)], b[k], tolerance) for k in range(len(b)))
               for i in range(len(a))) or not a


def outline_difference(ours, theirs, tolerance=0.0):
    """None when two SegmentPen recordings draw the same contours, else a description."""
    if len(ours) != len(theirs):
        return "%d contours, fontTools %d" % (len(ours), len(theirs))
    for k, (a, b) in enumerate(zip(ours, theirs)):
        if not same_contour(a, b, tolerance):
            return "contour %d: otvar %r, fontTools %r" % (k, a, b)
    return None
