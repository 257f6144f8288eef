#!/usr/bin/python3
"""test_build_stat4.py - STAT location labels (designspace format 5 document-level <labels>: STAT
axis values of format 4) in `otvar build`, against fontTools 4.38's buildVFStatTable.

fontTools' Build masters (weight 0..1000, contrast 0..100) with axis labels on both axes and two
location labels (one on both axes, elidable; one on weight alone, olderSibling: contrast then at
its default, as designspaceLib's full user location). fontTools' varLib.build of 4.38 writes a
minimal STAT; its buildVFStatTable (what build_many calls) makes the oracle: otvar's STAT must
have the same version (1.2: format 4 needs it), axis records (tags, ordering), the same axis
values in the same order (format 4 first, then the axes' labels) with the same formats, flags,
names, axis indices and values, and pass ots-sanitize. With a discrete axis, each font's STAT is
fontTools' build_many's: every axis (the discrete one too), the labels and location labels at its
discrete values (their full location). Exit 77 (skip) without fontTools or the test data.
"""
import os
import subprocess
import sys
import tempfile

try:
    from fontTools import varLib
    from fontTools.varLib.stat import buildVFStatTable
    from fontTools.designspaceLib import DesignSpaceDocument
except ImportError:
    print("SKIP: no fontTools")
    sys.exit(77)

from buildtest import DATA, OTVAR, compile_masters, fail, finish, no_data, ots_check
from test_build_discrete import stat_summary
SOURCES = [("m0", "TestFamily-Master0", 0, 0), ("m1", "TestFamily-Master1", 368, 0),
           ("m2", "TestFamily-Master2", 1000, 0), ("m3", "TestFamily-Master3", 1000, 100),
           ("m0b", "TestFamily-Master0", 0, 100), ("m4", "TestFamily-Master4", 368, 100)]


def doc(contrast_axis, labels):
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<designspace format="5.0">',
           '  <axes elidedfallbackname="Regular">',
           '    <axis tag="wght" name="weight" minimum="0" maximum="1000" default="368">',
           '      <labels><label uservalue="368" name="Regular" elidable="true"/>'
           '<label uservalue="1000" name="Bold"/></labels>', "    </axis>", contrast_axis,
           "  </axes>", "  <labels>", labels, "  </labels>", "  <sources>"]
    for name, stem, w, c in SOURCES:
        out.append(f'    <source filename="master_ufo/{stem}.ufo" name="{name}"><location>'
                   f'<dimension name="weight" xvalue="{w}"/><dimension name="contrast" '
                   f'xvalue="{c}"/></location></source>')
    out += ["  </sources>", "</designspace>", ""]
    return "\n".join(out)


CONTRAST = ('    <axis tag="cntr" name="contrast" minimum="0" maximum="100" default="0">\n'
            '      <labels><label uservalue="0" name="Flat" elidable="true"/>'
            '<label uservalue="100" name="High"/></labels>\n    </axis>')
LABELS = ('    <label name="Shiny" elidable="true"><location><dimension name="weight" '
          'uservalue="600"/><dimension name="contrast" uservalue="50"/></location></label>\n'
          '    <label name="Light Only" oldersibling="true"><location><dimension name="weight" '
          'uservalue="100"/></location></label>')


def stat_of(path):
    """test_build_discrete's STAT summary, the axes as (tag, ordering)"""
    version, axes, vals, elided = stat_summary(path)
    return version, [a[:2] for a in axes], vals, elided


def main():
    if no_data():
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        md = os.path.join(tmp, "master_ufo")
        compile_masters({s[1] for s in SOURCES},
                        os.path.join(DATA, "master_ttx_interpolatable_ttf"), md)
        ds = os.path.join(tmp, "Loc.designspace")
        with open(ds, "w") as fp:
            fp.write(doc(CONTRAST, LABELS))
        ours = os.path.join(tmp, "Loc.ttf")
        r = subprocess.run([OTVAR, "build", ds, "-o", ours, "--master-dir", md, "-q"],
                           capture_output=True, text=True)
        if r.returncode:
            fail(f"otvar build: {r.stderr.strip()}")
            return 1
        finder = lambda p: os.path.join(md, os.path.splitext(os.path.basename(p))[0] + ".ttf")
        d = DesignSpaceDocument.fromfile(ds)
        vf, _, _ = varLib.build(d, master_finder=finder)
        buildVFStatTable(vf, d, d.getVariableFonts()[0].name)
        theirs = os.path.join(tmp, "Loc-ft.ttf")
        vf.save(theirs)
        a, b = stat_of(ours), stat_of(theirs)
        print(f"otvar:     {a}\nfontTools: {b}")
        if a != b:
            fail("STAT differs from fontTools' buildVFStatTable")
        ots_check("", ours, 200)
        # a discrete contrast: each font keeps the labels at its contrast
        ds2 = os.path.join(tmp, "LocD.designspace")
        with open(ds2, "w") as fp:
            fp.write(doc('    <axis tag="cntr" name="contrast" values="0 100" default="0"/>',
                         LABELS.replace('uservalue="50"', 'uservalue="100"')))
        out = os.path.join(tmp, "out")
        r = subprocess.run([OTVAR, "build", ds2, "-o", out, "--master-dir", md, "-q"],
                           capture_output=True, text=True)
        if r.returncode:
            fail(f"otvar build (discrete): {r.stderr.strip()}")
        else:
            # every axis in STAT, the discrete one included (its labels, the location labels
            # with their full location), as fontTools' build_many (buildVFStatTable)
            theirs_many = varLib.build_many(DesignSpaceDocument.fromfile(ds2),
                                            master_finder=finder)
            want = {"LocD-VF-cntr0.0": [(4, 1, "Light Only", (0, 100.0), (1, 0.0))],
                    "LocD-VF-cntr100.0": [(4, 2, "Shiny", (0, 600.0), (1, 100.0))]}
            for name, w in want.items():
                got = stat_of(os.path.join(out, name + ".ttf"))
                if [v for v in got[2] if v[0] == 4] != w:
                    fail(f"{name}: format 4 values {got[2]}, want {w}")
                ft = os.path.join(tmp, name + "-ft.ttf")
                theirs_many[name].save(ft)
                if got != stat_of(ft):
                    fail(f"{name}: STAT {got}, fontTools' build_many {stat_of(ft)}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
