#!/usr/bin/python3
"""test_build_vorg.py - VVAR's vertical origin variations (vOrgMapping) in `otvar build`,
against fontTools 4.38's varLib.build.

fontTools' TestVVAR masters (CFF, two weights, VORG in both) with the bold master's VORG
changed: defaultVertOriginY 880 -> 900 (the glyphs without a record move), c30719 660 -> 700,
c30790's record dropped (660 -> the default, 900), so the origins differ between the masters.
otvar's font must have a VVAR vOrgMapping; the vertical origin of every glyph (the default
VORG plus the VVAR delta through the vOrgMapping, read by fontTools' VarStoreInstancer)
equals each master's VORG value at its location and fontTools' build at 0, 0.25, 0.5, 0.75, 1
and seeded random normalized locations; `otvar metrics --vertical` gives the same origins at
user locations (its own VVAR reader); HarfBuzz's top-to-bottom offsets (which subtract the
origin) equal fontTools' font's. The unchanged TestVVAR masters (origins equal) get no
vOrgMapping (fontTools writes one of zero deltas). ots-sanitize clean. Exit 77 (skip) without
fontTools or the test data.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

try:
    from fontTools.ttLib import TTFont
    from fontTools import varLib
    from fontTools.varLib.varStore import VarStoreInstancer
    from fontTools.designspaceLib import DesignSpaceDocument
except ImportError:
    print("SKIP: no fontTools")
    sys.exit(77)

from buildtest import DATA, OTVAR, fail, finish, no_data, ots_check

def origins(font, wght_norm):
    """every glyph's vertical origin at normalized weight wght_norm: VORG + VVAR delta"""
    vorg = font["VORG"]
    base = {g: vorg.VOriginRecords.get(g, vorg.defaultVertOriginY) for g in font.getGlyphOrder()}
    vvar = font["VVAR"].table
    if not vvar.VOrgMap:
        return base
    inst = VarStoreInstancer(vvar.VarStore, font["fvar"].axes, {"wght": wght_norm})
    return {g: v + inst[vvar.VOrgMap.mapping[g]] for g, v in base.items()}


def otvar_origins(path, wght):
    r = subprocess.run([OTVAR, "metrics", path, "--var", f"wght={wght}", "--vertical",
                        "--glyphs", "all"], capture_output=True, text=True)
    if r.returncode:
        return None
    return [float(line.split()[4]) for line in r.stdout.splitlines() if line.strip()]


def hb_ttb(path, wght, text):
    r = subprocess.run(["hb-shape", "--direction=ttb", "--output-format=json", "--no-glyph-names",
                        f"--variations=wght={wght}", path, text], capture_output=True, text=True)
    if r.returncode:
        return None
    return [(g["g"], g["dx"], g["dy"], g["ay"]) for g in json.loads(r.stdout)]


def main():
    if no_data():
        return 77
    rng = random.Random(2714)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(DATA, "master_vvar_cff2")
        for variant in ("same", "differ"):
            mdir = os.path.join(tmp, variant, "master_vvar_cff2")
            os.makedirs(mdir)
            masters = []
            for i in (0, 1):
                f = TTFont()
                f.importXML(os.path.join(src, f"TestVVAR.{i}.ttx"))
                if variant == "differ" and i == 1:
                    v = f["VORG"]
                    v.defaultVertOriginY = 900
                    v.VOriginRecords["c30719"] = 700
                    del v.VOriginRecords["c30790"]
                    v.numVertOriginYMetrics = len(v.VOriginRecords)
                masters.append(f)
                f.save(os.path.join(mdir, f"TestVVAR.{i}.otf"))
            ds = os.path.join(tmp, variant, "TestVVAR.designspace")
            shutil.copy(os.path.join(DATA, "TestVVAR.designspace"), ds)
            ours = os.path.join(tmp, variant, "otvar.otf")
            r = subprocess.run([OTVAR, "build", ds, "-o", ours, "--master-dir", mdir, "-q"],
                               capture_output=True, text=True)
            if r.returncode:
                fail(f"{variant}: otvar build: {r.stderr.strip()}")
                continue
            finder = lambda p: os.path.join(mdir, os.path.splitext(os.path.basename(p))[0] + ".otf")
            vf, _, _ = varLib.build(DesignSpaceDocument.fromfile(ds), master_finder=finder)
            theirs = os.path.join(tmp, variant, "fonttools.otf")
            vf.save(theirs)
            fo, fb = TTFont(ours), TTFont(theirs)
            has_map = fo["VVAR"].table.VOrgMap is not None
            if has_map != (variant == "differ"):
                fail(f"{variant}: vOrgMapping {'present' if has_map else 'absent'}")
            ots_check(variant, ours, 200)
            # at the masters: their own VORG values
            for i, m in enumerate(masters):
                want = {g: m["VORG"].VOriginRecords.get(g, m["VORG"].defaultVertOriginY)
                        for g in m.getGlyphOrder()}
                got = origins(fo, float(i))
                if got != want:
                    bad = sorted(g for g in want if got[g] != want[g])
                    fail(f"{variant}: master {i}: origins of {bad} {[got[g] for g in bad]}, "
                         f"want {[want[g] for g in bad]}")
            locs = [0, 0.25, 0.5, 0.75, 1] + [round(rng.random(), 4) for _ in range(4)]
            for n in locs:
                a, b = origins(fo, n), origins(fb, n)
                if any(abs(a[g] - b[g]) > 0.5 for g in a):
                    fail(f"{variant} at {n}: origins {a}, fontTools' {b}")
                    break
                # otvar's own reader at the user location (weight axis 0..1000: linear)
                oo = otvar_origins(ours, n * 1000)
                want = [b[g] for g in fo.getGlyphOrder()]
                if oo is None or len(oo) != len(want) or any(
                        abs(x - y) > 0.5 for x, y in zip(oo, want)):
                    fail(f"{variant} at {n}: otvar metrics origins {oo}, want {want}")
                if shutil.which("hb-shape"):
                    text = "\uff20\uff21\uff41\u3042\u6280\u56fd"
                    ho, hb = hb_ttb(ours, n * 1000, text), hb_ttb(theirs, n * 1000, text)
                    if ho is None or ho != hb:
                        fail(f"{variant} at {n}: HarfBuzz ttb {ho}, fontTools' font {hb}")
            print(f"{variant}: VVAR {len(fo.reader['VVAR'])} / {len(fb.reader['VVAR'])} bytes, "
                  f"file {os.path.getsize(ours)} / {os.path.getsize(theirs)}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
