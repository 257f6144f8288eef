#!/usr/bin/python3
"""test_build_discrete.py - `otvar build` of a designspace with a discrete axis (format 5
<axis values="...">) against fontTools 4.38's varLib.build_many (splitInterpolable).

The designspace: fontTools' Build case (TestFamily masters, weight 0..1000 and contrast 0..100)
with contrast made discrete (values 0 and 100) and FeatureVars' rules (one on weight, one on
contrast alone, one on both). That describes two variable fonts (contrast 0: masters 0, 1, 2;
contrast 100: masters 0, 3, 4 at weights 0, 1000, 368):
  - `otvar build DS -o DIR` writes DIR/Discrete-VF-cntr0.0.ttf and DIR/Discrete-VF-cntr100.0.ttf,
    the names fontTools' build_many gives them;
  - each is byte for byte the font `otvar build` makes of a format 4 designspace written by hand
    for that sub-space (the weight axis, its sources, the rules with the contrast conditions
    resolved: to-lowercase everywhere at contrast 100, to-uppercase only at contrast 0);
  - each has one axis (wght) and draws as fontTools' build of the same sub-space: points and
    advances within 1 unit at 7 weights (fontTools' instancer on both), HarfBuzz glyphs of
    "$Aa" (the rules) equal at 11 weights;
  - refusals: a discrete combination without sources, every axis discrete, bad values, -o -.
Exit 77 (skip) without fontTools or the test data.
"""
import os
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

from buildtest import (DATA, OTVAR, compile_masters, fail, finish, no_data, ots_check, run,
                       same_glyphs)

# (name, master stem, weight design, contrast)
SOURCES = [("master_0", "TestFamily-Master0", 0, 0), ("master_1", "TestFamily-Master1", 368, 0),
           ("master_2", "TestFamily-Master2", 1000, 0), ("master_3", "TestFamily-Master3", 1000, 100),
           ("master_0b", "TestFamily-Master0", 0, 100), ("master_4", "TestFamily-Master4", 368, 100)]

RULES = """    <rules processing="last">
        <rule name="dollar-stroke">
            <conditionset><condition name="weight" minimum="500"/></conditionset>
            <sub name="uni0024" with="uni0024.nostroke"/>
        </rule>
        <rule name="to-lowercase">
            <conditionset><condition name="contrast" minimum="75" maximum="100"/></conditionset>
            <sub name="uni0041" with="uni0061"/>
        </rule>
        <rule name="to-uppercase">
            <conditionset>
                <condition name="weight" minimum="0" maximum="200"/>
                <condition name="contrast" minimum="0" maximum="25"/>
            </conditionset>
            <sub name="uni0061" with="uni0041"/>
        </rule>
    </rules>
"""


def source_lines(sources):
    """the <source> elements of SOURCES-like (name, master stem, weight, contrast) tuples"""
    out = []
    for name, stem, w, c in sources:
        out.append(f'    <source filename="master_ufo/{stem}.ufo" name="{name}">')
        out.append(f'      <location><dimension name="weight" xvalue="{w}"/>'
                   f'<dimension name="contrast" xvalue="{c}"/></location>')
        out.append("    </source>")
    return out


def ds5(contrast_axis, sources, rules=RULES):
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<designspace format="5.0">', "  <axes>",
           '    <axis tag="wght" name="weight" minimum="0" maximum="1000" default="368"/>',
           contrast_axis, "  </axes>", "  <sources>"]
    out += source_lines(sources)
    out.append("  </sources>")
    out.append(rules)
    out.append("</designspace>")
    return "\n".join(out) + "\n"


def ds4(sources, rules):
    """the sub-space by hand: the weight axis alone"""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<designspace format="4.1">', "  <axes>",
           '    <axis tag="wght" name="weight" minimum="0" maximum="1000" default="368"/>',
           "  </axes>", "  <sources>"]
    for name, stem, w, _ in sources:
        out.append(f'    <source filename="master_ufo/{stem}.ufo" name="{name}">')
        out.append(f'      <location><dimension name="weight" xvalue="{w}"/></location>')
        out.append("    </source>")
    out += ["  </sources>", '  <rules processing="last">']
    for name, cond, sub in rules:
        out.append(f'    <rule name="{name}"><conditionset>{cond}</conditionset>{sub}</rule>')
    out += ["  </rules>", "</designspace>", ""]
    return "\n".join(out)


DOLLAR = ("dollar-stroke", '<condition name="weight" minimum="500"/>',
          '<sub name="uni0024" with="uni0024.nostroke"/>')
LOWER = ("to-lowercase", "", '<sub name="uni0041" with="uni0061"/>')
UPPER = ("to-uppercase", '<condition name="weight" minimum="0" maximum="200"/>',
         '<sub name="uni0061" with="uni0041"/>')


def glyph_data(font):
    glyf, hmtx = font["glyf"], font["hmtx"]
    out = {}
    for name in font.getGlyphOrder():
        coords, _ = glyf._getCoordinatesAndControls(name, hmtx.metrics)[:2]
        out[name] = ([tuple(round(v) for v in p) for p in coords[:-4]], hmtx[name][0])
    return out


def hb_glyphs(path, wght, text):
    r = run(["hb-shape", "--no-positions", "--no-clusters", f"--variations=wght={wght}", path,
             text])
    return r.stdout.strip() if not r.returncode else None


def stat_summary(path):
    """STAT as buildVFStatTable makes it: version, axes (tag, ordering; the name of an axis
    fvar does not have), axis values (format, flags, name, axis and value(s))."""
    f = TTFont(path)
    st, nm = f["STAT"].table, f["name"]
    fvar_tags = {a.axisTag for a in f["fvar"].axes}
    axes = [(a.AxisTag, a.AxisOrdering,
             None if a.AxisTag in fvar_tags else nm.getDebugName(a.AxisNameID))
            for a in st.DesignAxisRecord.Axis]
    vals = []
    for av in (st.AxisValueArray.AxisValue if st.AxisValueArray else []):
        v = (av.Format, av.Flags, nm.getDebugName(av.ValueNameID))
        if av.Format == 4:
            v += tuple((r.AxisIndex, r.Value) for r in av.AxisValueRecord)
        elif av.Format == 2:
            v += (av.AxisIndex, av.NominalValue, av.RangeMinValue, av.RangeMaxValue)
        elif av.Format == 3:
            v += (av.AxisIndex, av.Value, av.LinkedValue)
        else:
            v += (av.AxisIndex, av.Value)
        vals.append(v)
    return st.Version, axes, vals, nm.getDebugName(st.ElidedFallbackNameID)


def main():
    if no_data():
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        mdir = os.path.join(tmp, "master_ufo")
        compile_masters({s[1] for s in SOURCES},
                        os.path.join(DATA, "master_ttx_interpolatable_ttf"), mdir)
        axis = '    <axis tag="cntr" name="contrast" values="0 100" default="0"/>'
        ds = os.path.join(tmp, "Discrete.designspace")
        with open(ds, "w") as fp:
            fp.write(ds5(axis, SOURCES))
        out = os.path.join(tmp, "out")
        r = run([OTVAR, "build", ds, "-o", out, "--master-dir", mdir])
        if r.returncode:
            fail(f"otvar build: {r.stderr.strip()}")
            return 1
        print(r.stdout.strip())
        got = sorted(os.listdir(out))
        finder = lambda p: os.path.join(mdir, os.path.splitext(os.path.basename(p))[0] + ".ttf")
        theirs = varLib.build_many(DesignSpaceDocument.fromfile(ds), master_finder=finder)
        want = sorted(n + ".ttf" for n in theirs)
        if got != want:
            fail(f"files {got}, fontTools' build_many names {want}")
        subs = {"Discrete-VF-cntr0.0": ([s for s in SOURCES if s[3] == 0], [DOLLAR, UPPER]),
                "Discrete-VF-cntr100.0": ([s for s in SOURCES if s[3] == 100], [DOLLAR, LOWER])}
        for name, (srcs, rules) in subs.items():
            ours = os.path.join(out, name + ".ttf")
            if not os.path.exists(ours):
                fail(f"{name}.ttf not written")
                continue
            hand = os.path.join(tmp, name + ".designspace")
            with open(hand, "w") as fp:
                fp.write(ds4(srcs, rules))
            ref = os.path.join(tmp, name + "-hand.ttf")
            r = run([OTVAR, "build", hand, "-o", ref, "--master-dir", mdir, "-q"])
            if r.returncode:
                fail(f"{name}: otvar build of the hand-written sub-space: {r.stderr.strip()}")
            else:
                # every table but STAT (which lists the discrete axis too) and name (its name
                # added) is byte for byte the hand-written sub-space's build
                fo, fr = TTFont(ours), TTFont(ref)
                for tag in sorted(set(fo.keys()) | set(fr.keys())):
                    if tag in ("GlyphOrder", "STAT", "name", "head"):
                        continue
                    if tag not in fo or tag not in fr or \
                            fo.reader[tag] != fr.reader[tag]:
                        fail(f"{name}: {tag} differs from the build of the hand-written sub-space")
                if fo.reader["head"][12:] != fr.reader["head"][12:]:  # checkSumAdjustment aside
                    fail(f"{name}: head differs from the build of the hand-written sub-space")
                names_o = {(n.nameID, n.toUnicode()) for n in fo["name"].names}
                names_r = {(n.nameID, n.toUnicode()) for n in fr["name"].names}
                if not names_r <= names_o:
                    fail(f"{name}: names {sorted(names_r - names_o)} of the sub-space's build lost")
            f = TTFont(ours)
            if [a.axisTag for a in f["fvar"].axes] != ["wght"]:
                fail(f"{name}: axes {[a.axisTag for a in f['fvar'].axes]}, want wght alone")
            if r.returncode == 0:
                ots_check(name, ours, 200)
            if name not in theirs:
                continue
            ft = os.path.join(tmp, name + "-ft.ttf")
            theirs[name].save(ft)
            so, st = stat_summary(ours), stat_summary(ft)
            if so != st:
                fail(f"{name}: STAT {so}, fontTools' build_many {st}")
            for w in (0, 100, 250, 368, 600, 824, 1000):
                a = glyph_data(instancer.instantiateVariableFont(TTFont(ours), {"wght": w}))
                b = glyph_data(instancer.instantiateVariableFont(TTFont(ft), {"wght": w}))
                same_glyphs(a, b, f"{name} at wght={w}")
            if shutil.which("hb-shape"):
                for w in range(0, 1001, 100):
                    go, gt = hb_glyphs(ours, w, "$Aa"), hb_glyphs(ft, w, "$Aa")
                    if go is None or go != gt:
                        fail(f"{name} at wght={w}: HarfBuzz glyphs {go} vs fontTools' {gt}")
            print(f"{name}: {os.path.getsize(ours)} bytes (fontTools {os.path.getsize(ft)})")
        # refusals
        cases = [
            ("a combination without sources", axis.replace('"0 100"', '"0 50 100"'), SOURCES,
             "variable font *-cntr50.0: no source at its discrete axis values"),
            ("every axis discrete", None, SOURCES, "no continuous axis"),
            ("bad values", axis.replace('"0 100"', '"0 x"'), SOURCES, "bad axis values"),
        ]
        for what, ax, srcs, msg in cases:
            text = ds5(ax, srcs) if ax else ds5(axis, srcs).replace(
                '<axis tag="wght" name="weight" minimum="0" maximum="1000" default="368"/>',
                '<axis tag="wght" name="weight" values="0 368 1000" default="368"/>')
            bad = os.path.join(tmp, "bad.designspace")
            with open(bad, "w") as fp:
                fp.write(text)
            r = run([OTVAR, "build", bad, "-o", os.path.join(tmp, "bad"), "--master-dir", mdir])
            if r.returncode != 1 or msg not in r.stderr or os.path.exists(
                    os.path.join(tmp, "bad", "bad-VF-cntr0.0.ttf")):
                fail(f"{what}: exit {r.returncode}, {r.stderr.strip()!r} (want 1, {msg!r})")
        r = run([OTVAR, "build", ds, "-o", "-", "--master-dir", mdir])
        if r.returncode != 2 or "folder" not in r.stderr:
            fail(f"-o - with discrete axes: exit {r.returncode}, {r.stderr.strip()!r}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
