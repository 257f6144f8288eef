#!/usr/bin/python3
"""test_build_woff2.py - WOFF2 sizes of `otvar build` against fontTools 4.38 (issue 27: "total size
and gvar size <= fontTools' ... and WOFF2 size too"), and the variation stores' canonical order.

For fontTools' varLib test cases with TrueType masters (compiled from their TTX files):
  - `otvar build DS -o X.woff2` (otvar's encoder: the smallest of a few Brotli settings for small
    inputs) must be no larger than fontTools' build saved as WOFF2 by fontTools' encoder (its
    head.modified pinned, so the size does not move with the clock); the sizes through one
    encoder each (fontTools' on both fonts, otvar's on both) are printed, not asserted (the
    masters' head.modified is pinned too, so every size is the same from run to run): on
    inputs of a few KiB Brotli's output moves by 1-2% either way with any change of content;
  - the ItemVariationStores list their regions in the model's order and each subtable's rows
    sorted by their deltas, as fontTools' optimized stores do: HVAR of BuildAvarIdentityMaps and
    BuildAvarEmptyAxis and MVAR of BuildAvarEmptyAxis (same regions, same rows) are byte for
    byte fontTools' (before, MVAR listed regions in first-use order and rows in glyph order).
Exit 77 (skip) without fontTools, Brotli or the test data.
"""
import io
import os
import subprocess
import sys
import tempfile

try:
    from fontTools.ttLib import TTFont
    from fontTools import varLib
    from fontTools.designspaceLib import DesignSpaceDocument
    import brotli  # noqa: F401 (fontTools' WOFF2 encoder needs it)
except ImportError:
    print("SKIP: no fontTools or Brotli")
    sys.exit(77)

from buildtest import DATA, OTVAR, compile_masters, fail, finish, no_data
I = "master_ttx_interpolatable_ttf"
CASES = [("Build", I), ("BuildAvarSingleAxis", I), ("BuildAvarIdentityMaps", I),
         ("BuildAvarEmptyAxis", I), ("BuildGvarCompositeExplicitDelta", I),
         ("BuildReuseNameId2", I), ("SparseMasters", I), ("SingleMaster", I),
         ("DropOnCurves", "master_ttx_drop_oncurves"), ("KerningMerging", "master_kerning_merging")]
SAME = {("BuildAvarIdentityMaps", "HVAR"), ("BuildAvarEmptyAxis", "HVAR"),
        ("BuildAvarEmptyAxis", "MVAR")}
PINNED = 0x7FFFFFFF  # head.modified of the fonts fontTools' encoder compresses

def ft_woff2(font):
    font.recalcTimestamp = False
    font["head"].modified = PINNED
    font.flavor = "woff2"
    out = io.BytesIO()
    font.save(out)
    return len(out.getvalue())


def main():
    if no_data():
        return 77
    tot = [0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        print("| case | otvar -o X.woff2 / fontTools' build + encoder | fontTools' encoder on "
              "both | otvar's encoder on both |")
        for name, mdir in CASES:
            md = os.path.join(tmp, mdir)
            ds = os.path.join(DATA, name + ".designspace")
            stems = [os.path.splitext(os.path.basename(s.filename))[0]
                     for s in DesignSpaceDocument.fromfile(ds).sources]
            # head.modified pinned: the sizes must not move with the clock
            compile_masters(stems, os.path.join(DATA, mdir), md, modified=PINNED)
            ours, ours_w = os.path.join(tmp, name + ".ttf"), os.path.join(tmp, name + ".woff2")
            for out in (ours, ours_w):
                r = subprocess.run([OTVAR, "build", ds, "-o", out, "--master-dir", md, "-q",
                                    "--force"], capture_output=True, text=True)
                if r.returncode:
                    fail(f"{name}: otvar build: {r.stderr.strip()}")
                    break
            else:
                finder = lambda p: os.path.join(md, os.path.splitext(os.path.basename(p))[0]
                                                + ".ttf")
                vf, _, _ = varLib.build(ds, master_finder=finder)
                theirs = os.path.join(tmp, name + "-ft.ttf")
                vf.save(theirs)
                a, b = os.path.getsize(ours_w), ft_woff2(TTFont(theirs))
                tot[0] += a
                tot[1] += b
                fa = ft_woff2(TTFont(ours))
                tw = os.path.join(tmp, name + "-ft.woff2")
                subprocess.run([OTVAR, "compress", theirs, "-o", tw, "--force", "-q"], check=True)
                ob = os.path.getsize(tw)
                print(f"| {name} | {a} / {b} ({a / b:.3f}) | {fa} / {b} ({fa / b:.3f}) | "
                      f"{a} / {ob} ({a / ob:.3f}) |")
                if a > b:
                    fail(f"{name}: otvar's WOFF2 {a} bytes, fontTools' {b}")
                fo, ft = TTFont(ours), TTFont(theirs)
                for case, tag in SAME:
                    if case == name and fo.reader[tag] != ft.reader[tag]:
                        fail(f"{name}: {tag} differs from fontTools' ({len(fo.reader[tag])} vs "
                             f"{len(ft.reader[tag])} bytes)")
        print(f"total: {tot[0]} / {tot[1]} ({tot[0] / tot[1]:.3f})")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
