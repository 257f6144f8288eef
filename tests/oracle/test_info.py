#!/usr/bin/python3
"""test_info.py - `otvar info --json` ($OTVAR) agrees with fontTools on every test font.

Fonts: tests/fonts ($OTV_FONTS), fonts/ ($OTV_ROOT/fonts) and the cached real fonts
($OTV_FONT_CACHE; "SKIP" when absent). Compared: flavour, glyph count, units per em, the table
directory (tags, offsets, lengths, checksums), fvar axes (tag, min/default/max exactly, flags,
hidden, axisNameID and its name), named instances (name IDs, names, flags, coordinates exactly),
avar version, and STAT (version, elided fallback name, design axes, axis value tables of every
format with their names and values). Names are resolved from fontTools' raw name records with
the lookup order otvar documents (otvar.h, otv_face_name) and decoded by fontTools.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

from fontTools.ttLib import TTFont
from fontTools.ttLib.ttCollection import TTCollection

OTVAR = os.environ.get("OTVAR", "build/otvar")
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def eq(got, want, what):
    check(got == want, "%s: otvar %r, fontTools %r" % (what, got, want))


def rank(rec):
    p, e, l = rec.platformID, rec.platEncID, rec.langID
    if p == 3 and e in (1, 10):
        if l == 0x0409:
            return 0
        if (l & 0x3FF) == 0x09:
            return 1
        return 2
    if p == 0:
        return 3
    if p == 1 and e == 0 and l == 0:
        return 4
    return None


def name_of(font, name_id):
    if name_id is None or name_id == 0xFFFF or "name" not in font:
        return None
    best = None
    for rec in font["name"].names:
        if rec.nameID != name_id:
            continue
        r = rank(rec)
        if r is not None and (best is None or r < best[0]):
            best = (r, rec)
    if best is None:
        return None
    return best[1].toUnicode(errors="replace")


def flavour(font):
    if "glyf" in font:
        return "glyf"
    if "CFF2" in font:
        return "CFF2"
    if "CFF " in font:
        return "CFF"
    return "none"


def compare(path, index=0, faces=1):
    out = subprocess.run([OTVAR, "info", "--json", "--index", str(index), path],
                         capture_output=True, text=True)
    check(out.returncode == 0, "%s: otvar info exit %d: %s" % (path, out.returncode, out.stderr))
    if out.returncode:
        return
    j = json.loads(out.stdout)
    eq((j["face_index"], j["face_count"]), (index, faces), path + " face index/count")
    font = TTFont(path, fontNumber=index, lazy=True)
    w = os.path.basename(path)
    eq(j["flavour"], flavour(font), w + " flavour")
    eq(j["glyph_count"], font["maxp"].numGlyphs, w + " glyph_count")
    if "head" in font:
        eq(j["units_per_em"], font["head"].unitsPerEm, w + " units_per_em")
    tables = {t["tag"]: t for t in j["tables"]}
    eq(sorted(tables), sorted(font.reader.keys()), w + " table tags")
    for tag, entry in font.reader.tables.items():
        if tag in tables:
            eq((tables[tag]["offset"], tables[tag]["length"], tables[tag]["checksum"]),
               (entry.offset, entry.length, entry.checkSum), w + " table " + tag)
    for key, value in j["names"].items():
        eq(value, name_of(font, int(key)), w + " name %s" % key)
    for nid in (1, 2, 4, 6, 16, 17, 25):
        eq(j["names"].get(str(nid)), name_of(font, nid), w + " name %d" % nid)

    if "fvar" not in font:
        eq(j["axes"], [], w + " axes of a static font")
        eq(j["variable"], False, w + " variable")
        return
    fvar = font["fvar"]
    eq(j["variable"], len(fvar.axes) > 0, w + " variable")
    eq(len(j["axes"]), len(fvar.axes), w + " axis count")
    for a, (ja, fa) in enumerate(zip(j["axes"], fvar.axes)):
        what = "%s axis %d" % (w, a)
        eq(ja["tag"], fa.axisTag, what + " tag")
        eq((ja["min"], ja["default"], ja["max"]), (fa.minValue, fa.defaultValue, fa.maxValue),
           what + " range")
        eq(ja["flags"], fa.flags, what + " flags")
        eq(ja["hidden"], bool(fa.flags & 1), what + " hidden")
        eq(ja["name_id"], fa.axisNameID, what + " name_id")
        eq(ja["name"], name_of(font, fa.axisNameID), what + " name")
    eq(len(j["named_instances"]), len(fvar.instances), w + " instance count")
    for i, (ji, fi) in enumerate(zip(j["named_instances"], fvar.instances)):
        what = "%s instance %d" % (w, i)
        eq(ji["subfamily_name_id"], fi.subfamilyNameID, what + " subfamily_name_id")
        eq(ji["name"], name_of(font, fi.subfamilyNameID), what + " name")
        ps = fi.postscriptNameID
        eq(ji["postscript_name_id"], None if ps == 0xFFFF else ps, what + " postscript_name_id")
        eq(ji["postscript_name"], name_of(font, ps), what + " postscript_name")
        eq(ji["flags"], fi.flags, what + " flags")
        eq(ji["coordinates"], [fi.coordinates[fa.axisTag] for fa in fvar.axes],
           what + " coordinates")

    # avar: fontTools 4.38 reads version 1 only; the version is in the first two bytes.
    if "avar" in font:
        major = struct.unpack(">H", font.reader["avar"][:2])[0]
        eq(j["avar_version"], major, w + " avar version")
        if major == 1:
            font["avar"]  # must decompile
    else:
        eq(j["avar_version"], 0, w + " avar version")

    if "STAT" not in font:
        eq(j["stat"], None, w + " stat")
        return
    st = font["STAT"].table
    js = j["stat"]
    check(js is not None, w + " stat missing")
    if js is None:
        return
    eq(js["minor_version"], st.Version & 0xFFFF, w + " STAT minor version")
    efn = getattr(st, "ElidedFallbackNameID", None) if st.Version >= 0x00010001 else None
    eq(js["elided_fallback_name_id"], efn, w + " STAT elided fallback id")
    eq(js["elided_fallback_name"], name_of(font, efn), w + " STAT elided fallback name")
    faxes = st.DesignAxisRecord.Axis if st.DesignAxisRecord else []
    eq(len(js["design_axes"]), len(faxes), w + " STAT design axis count")
    for k, (ja, fa) in enumerate(zip(js["design_axes"], faxes)):
        what = "%s STAT axis %d" % (w, k)
        eq((ja["tag"], ja["name_id"], ja["ordering"]),
           (fa.AxisTag, fa.AxisNameID, fa.AxisOrdering), what)
        eq(ja["name"], name_of(font, fa.AxisNameID), what + " name")
    fvals = st.AxisValueArray.AxisValue if st.AxisValueArray else []
    eq(len(js["axis_values"]), len(fvals), w + " STAT axis value count")
    for k, (jv, fv) in enumerate(zip(js["axis_values"], fvals)):
        what = "%s STAT value %d" % (w, k)
        eq(jv["format"], fv.Format, what + " format")
        eq((jv["flags"], jv["name_id"]), (fv.Flags, fv.ValueNameID), what + " flags/name_id")
        eq(jv["name"], name_of(font, fv.ValueNameID), what + " name")
        if fv.Format in (1, 2, 3):
            eq(jv["axis_index"], fv.AxisIndex, what + " axis_index")
            eq(jv["axis_tag"], faxes[fv.AxisIndex].AxisTag, what + " axis_tag")
        if fv.Format in (1, 3):
            eq(jv["value"], fv.Value, what + " value")
        if fv.Format == 2:
            eq((jv["value"], jv["range_min"], jv["range_max"]),
               (fv.NominalValue, fv.RangeMinValue, fv.RangeMaxValue), what + " range")
        if fv.Format == 3:
            eq(jv["linked_value"], fv.LinkedValue, what + " linked_value")
        if fv.Format == 4:
            eq([(r["axis_index"], r["axis_tag"], r["value"]) for r in jv["records"]],
               [(r.AxisIndex, faxes[r.AxisIndex].AxisTag, r.Value) for r in fv.AxisValueRecord],
               what + " records")


def fonts_in(d):
    if not d or not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, n) for n in os.listdir(d)
                  if n.lower().endswith((".ttf", ".otf", ".ttc")))


def check_control_characters(src):
    """A name record with an escape sequence, C1 controls and a newline: `otvar info` prints it
    escaped (nothing reaches the terminal as a control character) and --json round-trips it."""
    evil = "Evil\x1b[31mRed\nLine\u009b2J\x7f\\\"end"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "evil.ttf")
        f = TTFont(src)
        f["name"].setName(evil, 1, 3, 1, 0x409)
        f.save(path)
        text = subprocess.run([OTVAR, "info", path], capture_output=True).stdout
        check(b"\x1b" not in text and b"\xc2\x9b" not in text and b"\x7f" not in text,
              "info prints control characters raw: %r" % text[:200])
        check(b"family: Evil\\x1b[31mRed\\x0aLine\\u009b2J\\x7f" in text,
              "info does not show the escaped family name: %r" % text[:300])
        js = subprocess.run([OTVAR, "info", "--json", path], capture_output=True).stdout
        check(b"\x1b" not in js and b"\xc2\x9b" not in js, "info --json prints control characters raw")
        names = json.loads(js).get("names", {})
        check(names.get("1") == evil, "info --json name 1 %r, want %r" % (names.get("1"), evil))


def main():
    root = os.environ.get("OTV_ROOT", ".")
    test_fonts = fonts_in(os.environ.get("OTV_FONTS", os.path.join(root, "tests/fonts")))
    check(len(test_fonts) > 0, "no test fonts found")
    cache = fonts_in(os.environ.get("OTV_FONT_CACHE"))
    if not cache:
        print("SKIP cached real fonts: none in %s" % os.environ.get("OTV_FONT_CACHE"))
    n = 0
    for path in test_fonts + fonts_in(os.path.join(root, "fonts")) + cache:
        compare(path)
        n += 1
    # a TrueType Collection of two test fonts, built by fontTools: --index selects the face
    picks = [p for p in test_fonts if os.path.basename(p) in
             ("Roboto-Variable.ABC.ttf", "STATInstancerTest.ttf")]
    if len(picks) == 2:
        with tempfile.TemporaryDirectory() as d:
            ttc = os.path.join(d, "two.ttc")
            coll = TTCollection()
            coll.fonts = [TTFont(p) for p in picks]
            coll.save(ttc)
            for i in range(2):
                compare(ttc, i, 2)
                n += 1
    else:
        check(False, "TTC test fonts missing")
    check_control_characters(os.path.join(root, "fonts", "Karla-VF.ttf"))
    print("test_info: %d fonts, %d checks, %d failed" % (n, checks, len(failures)))
    return 1 if failures or checks == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
