#!/usr/bin/python3
"""test_outline_hbjs.py - outlines at user locations against the current HarfBuzz (npm harfbuzzjs),
with the normalization models harfbuzz and spec (docs/normalization.md).

Current HarfBuzz (>= 11.4) normalizes user coordinates in 16.16 and converts to F2Dot14 once, as
the spec does, but evaluates the default normalization and the avar map in binary32 before
rounding to 16.16. For every variable test font (tests/fonts) and the cached real fonts, at
every named instance (of the real fonts 4, all with OTV_HBJS_FULL=1) and seeded random user
locations (values drawn as binary32, which is what harfbuzzjs passes to HarfBuzz, so both engines
start from the same number; a third of them near F2Dot14 half steps, where the models round
differently; OTV_ORACLE_LOCATIONS=N adds N per font), HarfBuzz draws every glyph
(hbjs_instance.mjs dump: unrounded coordinates in font units) and `otvar outline` prints them
(at most 3 decimals):
  - with --normalize harfbuzz every point must agree within 0.001 unit (plus the 0.0005 of the
    printing), at every location;
  - with --normalize spec (the default) likewise, except at locations where the spec's exact
    16.16 arithmetic and HarfBuzz's binary32 give different F2Dot14 coordinates (`otvar
    normalize` says so): those are counted and printed, and any other difference fails;
  - with --normalize harfbuzz6 the differing glyphs are counted (what the 16.16 pipeline
    changes; printed, not a failure).
"""
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from fontTools.ttLib import TTFont

# the environment (the CLI, the fonts, harfbuzzjs and its driver) as test_instance_hbjs reads it
from test_instance_hbjs import CACHE, FONTS, HBJS, OTVAR, SCRIPT  # noqa: E402
STRESS = int(os.environ.get("OTV_ORACLE_LOCATIONS", "0") or 0)
TOL = 0.001 + 0.0005

failures = 0
checks = 0


def fail(msg):
    global failures
    failures += 1
    if failures <= 30:
        print("FAIL " + msg)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def locations(font, nrand, seed, max_named):
    """[(label, {tag: value})]: the named instances (at most max_named, spread over the list),
    then nrand random binary32 locations."""
    fvar = font["fvar"]
    insts = list(enumerate(fvar.instances))
    if max_named is not None and len(insts) > max_named:
        step = len(insts) / max_named
        insts = [insts[int(k * step)] for k in range(max_named)]
    out = [("named %d" % i, dict(inst.coordinates)) for i, inst in insts]
    rng = random.Random(seed)
    for _ in range(nrand):
        loc = {}
        for a in fvar.axes:
            lo, df, hi = a.minValue, a.defaultValue, a.maxValue
            k = rng.random()
            if k < 0.33 and hi > lo:
                # near a half step of the F2Dot14 grid on one side of the default
                side = hi if rng.random() < 0.5 and hi > df else lo
                if side == df:
                    side = hi if hi > df else lo
                n = (rng.randint(0, 16383) + 0.5 + rng.uniform(-0.3, 0.3)) / 16384
                v = df + n * (side - df)
            else:
                v = lo + rng.random() * (hi - lo)
            loc[a.axisTag] = f32(v)
        out.append(("random", loc))
    return out


def hb_paths(font_path, locs, tmp):
    """HarfBuzz's outlines (list per location of {glyphs: [{path}]}), one node run."""
    args = ["node", SCRIPT, HBJS, "dump"]
    outs = []
    for i, (_, loc) in enumerate(locs):
        out = os.path.join(tmp, "hb%d.json" % i)
        outs.append(out)
        args += [font_path, ",".join("%s=%r" % kv for kv in loc.items()), out]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("hbjs dump failed: " + r.stderr.strip())
    res = []
    for o in outs:
        with open(o) as f:
            res.append([g["path"] for g in json.load(f)["glyphs"]])
    return res


def font_matrix(font):
    """The CFF/CFF2 FontMatrix times unitsPerEm when it is not the identity (otvar applies it,
    HarfBuzz ignores it: tests/fonts/cff2_flat_fm.otf), else None."""
    for tag in ("CFF2", "CFF "):
        if tag in font:
            m = getattr(font[tag].cff.topDictIndex[0], "FontMatrix", None)
            upem = font["head"].unitsPerEm
            if m and any(abs(v * upem - w) > 1e-9 for v, w in zip(m, (1, 0, 0, 1, 0, 0))):
                return [v * upem for v in m]
    return None


def with_matrix(cmd, m):
    """A path command [op, x, y, ...] with its points mapped by the FontMatrix m (font units)."""
    if not m:
        return cmd
    out = [cmd[0]]
    for i in range(1, len(cmd) - 1, 2):
        x, y = cmd[i], cmd[i + 1]
        out += [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]
    return out


TOKEN = re.compile(r"([MLQCZ])|(-?[0-9.]+(?:e-?[0-9]+)?)")


def otvar_f2(font_path, loc, model):
    spec = ["%s=%r" % kv for kv in loc.items()]
    r = subprocess.run([OTVAR, "normalize", font_path, "--normalize", model] + spec,
                       capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("otvar normalize failed: " + r.stderr.strip())
    return [int(line.split()[2]) for line in r.stdout.splitlines()]


def otvar_paths(font_path, loc, model):
    spec = ",".join("%s=%r" % kv for kv in loc.items())
    r = subprocess.run([OTVAR, "outline", font_path, "--var", spec, "--normalize", model],
                       capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("otvar outline failed: " + r.stderr.strip())
    glyphs = {}
    for line in r.stdout.splitlines():
        parts = line.split(" ", 2)
        cmds = []
        if len(parts) == 3:
            for op, num in TOKEN.findall(parts[2]):
                if op:
                    cmds.append([op])
                else:
                    cmds[-1].append(float(num))
        glyphs[int(parts[0])] = cmds
    return glyphs


def contours(path):
    """Draw commands -> [(start, [segments])], the closing line back to the start dropped (one
    engine draws it where the other closes implicitly)."""
    out, cur = [], None
    for c in path:
        op = c[0]
        if op == "M":
            if cur is not None:
                out.append(cur)
            cur = [tuple(c[1:3]), []]
        elif op == "Z":
            if cur is not None:
                out.append(cur)
            cur = None
        else:
            if cur is None:
                cur = [(0.0, 0.0), []]
            cur[1].append((op,) + tuple(c[1:]))
    if cur is not None:
        out.append(cur)
    norm = []
    for start, segs in out:
        while segs and segs[-1][0] == "L" and \
                abs(segs[-1][1] - start[0]) <= TOL and abs(segs[-1][2] - start[1]) <= TOL:
            segs = segs[:-1]
        norm.append((start, segs))
    return norm


def max_diff(ca, cb):
    """Largest coordinate difference, or None when the contours do not have the same shape."""
    if len(ca) != len(cb):
        return None
    d = 0.0
    for (sa, ga), (sb, gb) in zip(ca, cb):
        if len(ga) != len(gb) or any(x[0] != y[0] for x, y in zip(ga, gb)):
            return None
        d = max(d, abs(sa[0] - sb[0]), abs(sa[1] - sb[1]))
        for x, y in zip(ga, gb):
            d = max([d] + [abs(u - v) for u, v in zip(x[1:], y[1:])])
    return d


def hb_version_ok():
    r = subprocess.run(["node", "--input-type=module", "-e",
                        "const hb = await import(%r); console.log(hb.versionString());"
                        % ("file://" + os.path.join(HBJS, "dist", "index.mjs"))],
                       capture_output=True, text=True)
    v = r.stdout.strip()
    try:
        major, minor = (int(x) for x in v.split(".")[:2])
    except ValueError:
        print("FAIL harfbuzzjs version unreadable: %r %s" % (v, r.stderr.strip()))
        return False
    print("harfbuzzjs bundles HarfBuzz %s" % v)
    if (major, minor) < (11, 4):
        print("FAIL HarfBuzz %s normalizes in binary32: the spec model needs >= 11.4" % v)
        return False
    return True


def main():
    global checks
    if not OTVAR:
        print("OTVAR not set")
        return 1
    if not (HBJS and os.path.exists(os.path.join(HBJS, "dist", "index.mjs")) and shutil.which("node")):
        print("SKIP: harfbuzzjs or node missing (tests/fetch-fonts.sh fetches harfbuzzjs)")
        return 77
    if not hb_version_ok():
        return 1
    # test fonts: every named instance; real fonts (thousands of glyphs): 4 of them unless
    # OTV_HBJS_FULL=1, and no harfbuzz6 count
    full = bool(os.environ.get("OTV_HBJS_FULL"))
    fonts = []
    for d, nrand, max_named, hb6 in ((FONTS, 6, None, True), (CACHE, 4, None if full else 4, False)):
        for n in sorted(os.listdir(d)) if d and os.path.isdir(d) else []:
            if n.endswith((".ttf", ".otf")):
                fonts.append((os.path.join(d, n), nrand + STRESS, max_named, hb6))
    differ_hb6 = differ_spec_locs = 0
    compared_locs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed, (path, nrand, max_named, hb6) in enumerate(fonts):
            font = TTFont(path, lazy=True)
            if "fvar" not in font:
                continue
            name = os.path.basename(path)
            locs = locations(font, nrand, seed + 7919, max_named)
            matrix = font_matrix(font)
            hb = hb_paths(path, locs, tmp)
            worst = 0.0
            spec_ties = 0
            for (label, loc), hbg in zip(locs, hb):
                compared_locs += 1
                spec = ",".join("%s=%r" % kv for kv in loc.items())
                coords_differ = otvar_f2(path, loc, "spec") != otvar_f2(path, loc, "harfbuzz")
                if coords_differ:
                    spec_ties += 1
                for model in ("harfbuzz", "spec", "harfbuzz6") if hb6 else ("harfbuzz", "spec"):
                    ours = otvar_paths(path, loc, model)
                    differing = 0
                    for gid, hp in enumerate(hbg):
                        ch = contours([with_matrix([c[0]] + c[1:], matrix) for c in hp])
                        d = max_diff(ch, contours(ours.get(gid, [])))
                        if model == "harfbuzz6":
                            differing += d is None or d > TOL
                            continue
                        if model == "spec" and coords_differ:
                            continue
                        checks += 1
                        if d is None:
                            fail("%s %s (%s) glyph %d --normalize %s: contours differ"
                                 % (name, label, spec, gid, model))
                            continue
                        worst = max(worst, d)
                        if d > TOL:
                            fail("%s %s (%s) glyph %d --normalize %s: points differ by %.4f"
                                 % (name, label, spec, gid, model, d))
                    differ_hb6 += differing
            differ_spec_locs += spec_ties
            print("%s: %d locations, %d glyphs each, largest difference %.4f; spec and harfbuzz "
                  "coordinates differ at %d" % (name, len(locs), len(hb[0]) if hb else 0, worst,
                                                spec_ties))
    print("%d locations; the spec model's F2Dot14 coordinates differ from current HarfBuzz's at %d "
          "(binary32 ties); glyphs where the harfbuzz6 model differs by more than %.4f: %d"
          % (compared_locs, differ_spec_locs, TOL, differ_hb6))
    print("test_outline_hbjs: %d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
