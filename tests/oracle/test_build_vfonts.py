#!/usr/bin/python3
"""test_build_vfonts.py - `otvar build` of a designspace 5 with <variable-fonts> against
fontTools 4.38's varLib.build_many (splitInterpolable, splitVariableFonts, buildVFStatTable).

The masters: fontTools' Build case (TestFamily, weight and contrast). The weight axis is in user
units 100..900 (default 400) with a map (100 -> 0, 250 -> 100, 400 -> 368, 650 -> 600, 900 ->
1000: the masters' design values, avar in every font; each range below ends on map points, where
fontTools' clipped map is the document's), labels on both axes (a range label among them), a location label, FeatureVars' rules
and four named instances. Its <variable-fonts>:
  - Fam-All: both axes whole;
  - Fam-Flat (filename FamFlat.ttf): weight alone, contrast not named (pinned at its default);
  - Fam-HeavyHigh: weight 400..900, contrast pinned at 100 by uservalue;
  - Fam-Light: weight 100..400, contrast whole, its own lib tag (featureVarsFeatureTag rclt).
Each font is compared with fontTools' build of the same name: the file names, fvar axes and
named instances (coordinates, names), avar, STAT (every axis of the document, the labels in
the region, formats, flags, names, values, ordering), the outlines and advances at the masters
and seeded random locations (fontTools' instancer on both, within 1 unit) and HarfBuzz's glyphs
of "$Aa" (the rules) on a grid; ots-sanitize clean. A second document makes contrast discrete
(values 0 100, STAT ordering 0: weight's is then 1, as fontTools numbers the others) with
<variable-fonts> pinning it (each against build_many), and the refusals
(a range of a discrete axis, a partial range, an unknown axis, a value not on its axis, a range
outside the axis, no source in a region, two fonts to one file, a name that is a path) each fail
with one message naming the cause and write nothing. Exit 77 (skip) without fontTools or the
test data.
"""
import os
import random
import shutil
import sys
import tempfile

try:
    from fontTools.ttLib import TTFont
    from fontTools import varLib
    from fontTools.varLib import instancer
    from fontTools.designspaceLib import DesignSpaceDocument
except ImportError:
    print("SKIP: no fontTools")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_build_discrete import RULES, SOURCES, glyph_data, source_lines, stat_summary  # noqa: E402

from buildtest import (DATA, OTVAR, compile_masters, fail, finish, no_data, ots_check, run,
                       same_glyphs)
FULL = os.environ.get("OTV_BUILD_FULL") == "1"

WEIGHT = ('    <axis tag="wght" name="weight" minimum="100" maximum="900" default="400">\n'
          '      <map input="100" output="0"/><map input="250" output="100"/>'
          '<map input="400" output="368"/><map input="650" output="600"/>'
          '<map input="900" output="1000"/>\n'
          '      <labels><label uservalue="100" name="Thin"/>'
          '<label uservalue="400" name="Regular" elidable="true"/>'
          '<label uservalue="600" userminimum="500" usermaximum="700" name="Semi"/>'
          '<label uservalue="900" name="Black"/></labels>\n    </axis>')
CONTRAST = ('    <axis tag="cntr" name="contrast" minimum="0" maximum="100" default="0">\n'
            '      <labels><label uservalue="0" name="Flat" elidable="true"/>'
            '<label uservalue="100" name="High"/></labels>\n    </axis>')
CONTRAST_DISCRETE = ('    <axis tag="cntr" name="contrast" values="0 100" default="0">\n'
                     '      <labels ordering="0"><label uservalue="0" name="Flat" elidable="true"/>'
                     '<label uservalue="100" name="High"/></labels>\n    </axis>')

# (at 650, not at the location label's 600: there fontTools' build_many names the instance
# after the label, Shiny, over its stylename; otvar keeps the stylename)
INSTANCES = [("Thin", 100, 0), ("Regular", 400, 0), ("Black", 900, 0), ("Semi High", 650, 100)]

VFONTS = """  <variable-fonts>
    <variable-font name="Fam-All">
      <axis-subsets><axis-subset name="weight"/><axis-subset name="contrast"/></axis-subsets>
    </variable-font>
    <variable-font name="Fam-Flat" filename="FamFlat.ttf">
      <axis-subsets><axis-subset name="weight"/></axis-subsets>
    </variable-font>
    <variable-font name="Fam-HeavyHigh">
      <axis-subsets>
        <axis-subset name="weight" userminimum="400" userdefault="400" usermaximum="900"/>
        <axis-subset name="contrast" uservalue="100"/>
      </axis-subsets>
    </variable-font>
    <variable-font name="Fam-Light">
      <axis-subsets>
        <axis-subset name="weight" userminimum="100" userdefault="400" usermaximum="400"/>
        <axis-subset name="contrast"/>
      </axis-subsets>
      <lib><dict><key>com.github.fonttools.varLib.featureVarsFeatureTag</key>
        <string>rclt</string></dict></lib>
    </variable-font>
  </variable-fonts>
"""

VFONTS_DISCRETE = """  <variable-fonts>
    <variable-font name="Disc-Flat">
      <axis-subsets><axis-subset name="weight"/><axis-subset name="contrast" uservalue="0"/>
      </axis-subsets>
    </variable-font>
    <variable-font name="Disc-High" filename="DiscHigh.ttf">
      <axis-subsets>
        <axis-subset name="weight" userminimum="400" userdefault="400" usermaximum="900"/>
        <axis-subset name="contrast" uservalue="100"/>
      </axis-subsets>
    </variable-font>
  </variable-fonts>
"""


FULL_SUBSETS = '<axis-subset name="weight"/><axis-subset name="contrast"/>'


def doc(contrast=CONTRAST, vfonts=VFONTS, sources=SOURCES, fmt="5.0"):
    out = ['<?xml version="1.0" encoding="UTF-8"?>', f'<designspace format="{fmt}">',
           '  <axes elidedfallbackname="Regular">', WEIGHT, contrast, "  </axes>",
           "  <labels>", '    <label name="Shiny"><location><dimension name="weight" '
           'uservalue="600"/><dimension name="contrast" uservalue="100"/></location></label>',
           "  </labels>", RULES, "  <sources>"]
    out += source_lines(sources)
    out.append("  </sources>")
    out.append(vfonts)
    out.append("  <instances>")
    for style, w, c in INSTANCES:
        ps = "Fam-" + style.replace(" ", "")
        out.append(f'    <instance familyname="Fam" stylename="{style}" postscriptfontname="{ps}">')
        out.append(f'      <location><dimension name="weight" uservalue="{w}"/>'
                   f'<dimension name="contrast" uservalue="{c}"/></location>')
        out.append("    </instance>")
    out += ["  </instances>", "</designspace>", ""]
    return "\n".join(out)


def fvar_summary(f):
    fv, nm = f["fvar"], f["name"]
    axes = [(a.axisTag, a.minValue, a.defaultValue, a.maxValue) for a in fv.axes]
    inst = sorted((tuple(sorted(i.coordinates.items())), nm.getDebugName(i.subfamilyNameID),
                   nm.getDebugName(i.postscriptNameID) if i.postscriptNameID != 0xFFFF else None)
                  for i in fv.instances)
    return axes, inst


def avar_summary(f):
    if "avar" not in f:
        return None
    return {k: sorted(v.items()) for k, v in f["avar"].segments.items()}


def hb_glyphs(path, loc, text):
    var = ",".join(f"{k}={v}" for k, v in loc.items())
    r = run(["hb-shape", "--no-positions", "--no-clusters", f"--variations={var}", path, text])
    return r.stdout.strip() if not r.returncode else None


def compare(name, ours, ft, rng, instance_names=True):
    fo, fb = TTFont(ours), TTFont(ft)
    a, b = fvar_summary(fo), fvar_summary(fb)
    if not instance_names:  # fontTools names them from STAT (see INSTANCES)
        a = (a[0], [(c, ps) for c, _, ps in a[1]])
        b = (b[0], [(c, ps) for c, _, ps in b[1]])
    if a != b:
        fail(f"{name}: fvar {a}, fontTools' {b}")
    if avar_summary(fo) != avar_summary(fb):
        fail(f"{name}: avar {avar_summary(fo)}, fontTools' {avar_summary(fb)}")
    so, st = stat_summary(ours), stat_summary(ft)
    if so != st:
        fail(f"{name}: STAT\n  {so}\n  fontTools' build_many\n  {st}")
    ots_check(name, ours, 200)
    axes = fo["fvar"].axes
    locs = [{x.axisTag: v for x, v in zip(axes, c)}
            for c in ([(x.minValue, x.defaultValue, x.maxValue)[i % 3] for x in axes]
                      for i in range(3))]
    for _ in range(12 if FULL else 3):
        locs.append({x.axisTag: round(rng.uniform(x.minValue, x.maxValue), 2) for x in axes})
    for loc in locs:
        ga = glyph_data(instancer.instantiateVariableFont(TTFont(ours), loc))
        gb = glyph_data(instancer.instantiateVariableFont(TTFont(ft), loc))
        same_glyphs(ga, gb, f"{name} at {loc}")
    if shutil.which("hb-shape"):
        grid = [{}]
        for x in axes:
            grid = [dict(l, **{x.axisTag: x.minValue + (x.maxValue - x.minValue) * i / 5})
                    for l in grid for i in range(6)]
        for loc in grid:
            go, gt = hb_glyphs(ours, loc, "$Aa"), hb_glyphs(ft, loc, "$Aa")
            if go is None or go != gt:
                fail(f"{name} at {loc}: HarfBuzz glyphs {go} vs fontTools' {gt}")
                break
    print(f"{name}: {os.path.getsize(ours)} bytes (fontTools {os.path.getsize(ft)})")


def build_and_compare(tmp, mdir, text, stem, want_files, rng, instance_names=True):
    ds = os.path.join(tmp, stem + ".designspace")
    with open(ds, "w") as fp:
        fp.write(text)
    out = os.path.join(tmp, stem + "-out")
    r = run([OTVAR, "build", ds, "-o", out, "--master-dir", mdir])
    if r.returncode:
        fail(f"{stem}: otvar build: {r.stderr.strip()}")
        return None
    print(r.stdout.strip())
    finder = lambda p: os.path.join(mdir, os.path.splitext(os.path.basename(p))[0] + ".ttf")
    doc5 = DesignSpaceDocument.fromfile(ds)
    theirs = varLib.build_many(doc5, master_finder=finder)
    if sorted(theirs) != sorted(want_files):
        fail(f"{stem}: fontTools' build_many made {sorted(theirs)}, want {sorted(want_files)}")
    got = sorted(os.listdir(out))
    if got != sorted(want_files.values()):
        fail(f"{stem}: files {got}, want {sorted(want_files.values())}")
    for name, file in want_files.items():
        ours = os.path.join(out, file)
        if name not in theirs or not os.path.exists(ours):
            continue
        ft = os.path.join(tmp, name + "-ft.ttf")
        theirs[name].save(ft)
        compare(name, ours, ft, rng, instance_names)
    return out


def main():
    if no_data():
        return 77
    rng = random.Random(27)
    with tempfile.TemporaryDirectory() as tmp:
        mdir = os.path.join(tmp, "master_ufo")
        compile_masters({s[1] for s in SOURCES},
                        os.path.join(DATA, "master_ttx_interpolatable_ttf"), mdir)
        out = build_and_compare(tmp, mdir, doc(), "Fam",
                                {"Fam-All": "Fam-All.ttf", "Fam-Flat": "FamFlat.ttf",
                                 "Fam-HeavyHigh": "Fam-HeavyHigh.ttf",
                                 "Fam-Light": "Fam-Light.ttf"}, rng)
        if out:
            # the variable font's own lib: its rules under rclt (fontTools 4.38's build_many
            # merges the lib too; compared above: here the tag itself)
            f = TTFont(os.path.join(out, "Fam-Light.ttf"))
            tags = {fr.FeatureTag for fr in f["GSUB"].table.FeatureList.FeatureRecord}
            if "rclt" not in tags or "rvrn" in tags:
                fail(f"Fam-Light: GSUB features {sorted(tags)}, want rclt (its lib) not rvrn")
            # the fonts are those of the region: masters and instances counted
            want = {"Fam-All.ttf": (2, 4), "FamFlat.ttf": (1, 3), "Fam-HeavyHigh.ttf": (1, 1),
                    "Fam-Light.ttf": (2, 2)}
            for file, (na, ni) in want.items():
                f = TTFont(os.path.join(out, file))
                if (len(f["fvar"].axes), len(f["fvar"].instances)) != (na, ni):
                    fail(f"{file}: {len(f['fvar'].axes)} axes, {len(f['fvar'].instances)} "
                         f"instances, want {na}, {ni}")
        # a discrete contrast pinned by each variable font; contrast's STAT ordering 0, so
        # weight's is 1 (fontTools numbers the others after the largest given one); with it
        # fontTools names the instances from STAT in that order (High Semi), so their names
        # are not compared
        build_and_compare(tmp, mdir, doc(CONTRAST_DISCRETE, VFONTS_DISCRETE), "Disc",
                          {"Disc-Flat": "Disc-Flat.ttf", "Disc-High": "DiscHigh.ttf"}, rng,
                          instance_names=False)
        # format 4: <variable-fonts> is not read (designspaceLib reads it from format 5 on)
        ds4 = os.path.join(tmp, "Four.designspace")
        with open(ds4, "w") as fp:
            fp.write(doc(fmt="4.1"))
        r = run([OTVAR, "build", ds4, "-o", os.path.join(tmp, "Four.ttf"), "--master-dir", mdir,
                 "-q"])
        if r.returncode or not os.path.isfile(os.path.join(tmp, "Four.ttf")):
            fail(f"format 4 with <variable-fonts>: exit {r.returncode}, {r.stderr.strip()!r}")
        # refusals: one message naming the cause, nothing written
        one = lambda body: VFONTS.replace(VFONTS[VFONTS.index("    <variable-font name=\"Fam-Flat\""):
                                                 VFONTS.index("  </variable-fonts>")], "") \
            .replace('<axis-subset name="weight"/><axis-subset name="contrast"/>', body)
        cases = [
            ("a range of a discrete axis", CONTRAST_DISCRETE,
             one('<axis-subset name="weight"/><axis-subset name="contrast"/>'),
             "a range of discrete axis 'contrast'"),
            ("a partial range", CONTRAST, one('<axis-subset name="weight" userminimum="100"/>'),
             "needs userminimum, userdefault and usermaximum"),
            ("an unknown axis", CONTRAST, one('<axis-subset name="slant"/>'),
             "axis-subset 'slant' names no axis"),
            ("a value not on a discrete axis", CONTRAST_DISCRETE,
             one('<axis-subset name="weight"/><axis-subset name="contrast" uservalue="50"/>'),
             "50 is not a value of axis 'contrast'"),
            ("a value outside its axis", CONTRAST,
             one('<axis-subset name="weight"/><axis-subset name="contrast" uservalue="150"/>'),
             "150 is not a value of axis 'contrast'"),
            ("a range outside the axis", CONTRAST,
             one('<axis-subset name="weight" userminimum="950" userdefault="950" '
                 'usermaximum="990"/>'), "the range of axis 'weight' is outside the axis"),
            ("no source in the region", CONTRAST,
             one('<axis-subset name="weight"/><axis-subset name="contrast" uservalue="50"/>'),
             "variable font 'Fam-All': no source in its region"),
            ("two fonts to one file", CONTRAST,
             VFONTS.replace('filename="FamFlat.ttf"', 'filename="Fam-All.ttf"'),
             "two variable fonts would be written to Fam-All.ttf"),
            ("a name that is a path", CONTRAST, one(FULL_SUBSETS).replace('name="Fam-All"', 'name="a/b"'),
             "not a file name"),
            ("a variable font without a name", CONTRAST, one(FULL_SUBSETS).replace(' name="Fam-All"', ""),
             "variable-font without a name"),
            ("a subset twice", CONTRAST,
             one('<axis-subset name="weight"/><axis-subset name="weight"/>'),
             "axis 'weight' subset twice"),
        ]
        for what, contrast, vfonts, msg in cases:
            bad = os.path.join(tmp, "bad.designspace")
            with open(bad, "w") as fp:
                fp.write(doc(contrast, vfonts))
            bout = os.path.join(tmp, "bad-out")
            r = run([OTVAR, "build", bad, "-o", bout, "--master-dir", mdir])
            lines = r.stderr.strip().splitlines()
            if r.returncode != 1 or msg not in r.stderr or len(lines) != 1 or (
                    os.path.isdir(bout) and os.listdir(bout)):
                fail(f"{what}: exit {r.returncode}, {r.stderr.strip()!r} (want 1, {msg!r})")
            shutil.rmtree(bout, ignore_errors=True)
        # a filename with a path: its base name only (as designspaceLib)
        text = doc(vfonts=one(FULL_SUBSETS).replace('name="Fam-All"',
                                          'name="Fam-All" filename="../../evil/Up.ttf"'))
        bad = os.path.join(tmp, "path.designspace")
        with open(bad, "w") as fp:
            fp.write(text)
        bout = os.path.join(tmp, "path-out")
        r = run([OTVAR, "build", bad, "-o", bout, "--master-dir", mdir, "-q"])
        if r.returncode or os.listdir(bout) != ["Up.ttf"]:
            fail(f"filename with a path: exit {r.returncode}, {r.stderr.strip()!r}, "
                 f"{os.listdir(bout) if os.path.isdir(bout) else None}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
