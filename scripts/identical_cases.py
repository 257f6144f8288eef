#!/usr/bin/python3
"""The command list of scripts/check-identical.sh (Debian's python3, standard library only).

    identical_cases.py --otvar BIN --root REPO [--fonts DIR]

Prints one line per command: `CASE<TAB>ARGS`, ARGS shell-quoted (without the otvar binary);
a case of several commands has several lines, run in order in one directory (compress, then
decompress what it wrote). Notes (fonts skipped, fonts without axes) go to stderr.

The fonts: tests/fonts/*.ttf|*.otf, tests/fonts/instances/*, fonts/Karla-VF.ttf and the real
fonts of DIR (default build-test/fonts-cache: the names tests/fetch-fonts.sh fetches, a missing
one skipped with a line saying so, plus any other font there). Each font's axes, named instances
and tables come from `BIN info --json` (the base binary's, so both binaries run the same list);
its random locations from a generator seeded with SEED and the font's file name, so the list
is the same on every run and machine. Commands name fonts by absolute path and write outputs by
relative path (the runner runs them in a directory per case and binary), so what they print is
the same for both binaries.
"""
import argparse
import json
import os
import random
import re
import shlex
import struct
import subprocess
import sys
import tempfile
import unicodedata

SEED = 19  # change it to draw other random locations (both binaries always share them)
RANDOM_LOCATIONS = 3  # instances, outlines and metrics at this many random locations per font
NAMED_CAP = 5  # outlines and metrics at up to this many named instances (spread over the list)
TEXT = "Hamburgefonstiv"
# tests/fetch-fonts.sh's fonts, should that script not be readable
REAL_FONTS = ["Inter-roman.var.ttf", "Karla-Italic-VF.ttf", "Karla-Regular.otf", "Cantarell-VF.otf",
              "SourceSerif4Variable-Roman.ttf", "SourceSerif4Variable-Roman.otf",
              "SourceSans3VF-Upright.ttf", "SourceSans3VF-Upright.otf", "RobotoFlex-latin.ttf",
              "Recursive-latin.ttf"]
FONT_EXT = (".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2")


def note(msg):
    print("check-identical: " + msg, file=sys.stderr)


def num(v):
    """A user value as the CLI reads it back exactly: 400, 389.34425354003906, -7.5."""
    v = float(v)
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return repr(v)


def rnd(rng, lo, hi):
    """A random user value in [lo, hi], two decimals."""
    if hi <= lo:
        return num(lo)
    s = ("%.2f" % rng.uniform(lo, hi)).rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def fetched_names(root):
    """The output names tests/fetch-fonts.sh gives the fonts it fetches (last word of each
    deb_font/npm_font line), else REAL_FONTS."""
    try:
        with open(os.path.join(root, "tests", "fetch-fonts.sh"), encoding="utf-8") as f:
            names = [ln.split()[-1] for ln in f if re.match(r"(deb|npm)_font\s+\S", ln)]
    except OSError:
        names = []
    return names or REAL_FONTS


def font_list(root, fonts_dir):
    """[(key, absolute path)] in a fixed order; key names the font in case names."""
    out = []

    def add(group, d, names):
        for n in sorted(names):
            p = os.path.join(d, n)
            if os.path.isfile(p) and n.lower().endswith(FONT_EXT):
                out.append((group + "." + re.sub(r"[^A-Za-z0-9._+-]", "_", n), os.path.abspath(p)))

    tests = os.path.join(root, "tests", "fonts")
    add("tests", tests, os.listdir(tests) if os.path.isdir(tests) else [])
    inst = os.path.join(tests, "instances")
    add("tests-instances", inst, os.listdir(inst) if os.path.isdir(inst) else [])
    if os.path.isfile(os.path.join(root, "fonts", "Karla-VF.ttf")):
        add("bundled", os.path.join(root, "fonts"), ["Karla-VF.ttf"])
    else:
        note("skipping the bundled font: fonts/Karla-VF.ttf is missing")
    if not fonts_dir or not os.path.isdir(fonts_dir):
        note("skipping the real fonts: no font cache %s (tests/fetch-fonts.sh DIR fetches them)"
             % (fonts_dir or "given"))
        return out
    have = set(os.listdir(fonts_dir))
    expected = fetched_names(root)
    for n in expected:
        if n not in have:
            note("skipping missing real font %s (not in %s; tests/fetch-fonts.sh fetches it)"
                 % (n, fonts_dir))
    add("real", fonts_dir, have)
    return out


def describe(otvar, path):
    r = subprocess.run([otvar, "info", "--json", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if r.returncode:
        note("%s: the base binary's info --json failed (exit %d: %s); static cases only"
             % (path, r.returncode, r.stderr.decode("utf-8", "replace").strip()))
        return None
    try:
        return json.loads(r.stdout.decode("utf-8"))
    except ValueError as e:
        note("%s: unreadable info --json (%s); static cases only" % (path, e))
        return None


def cmap_chars(path, info):
    """The characters the font's Unicode cmap (format 4 or 12) maps to a glyph other than 0."""
    off = {t.get("tag"): t.get("offset") for t in info.get("tables", [])}.get("cmap")
    if off is None:
        return []
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return []
    u16 = lambda o: struct.unpack_from(">H", data, o)[0]
    u32 = lambda o: struct.unpack_from(">I", data, o)[0]
    try:
        subs = {}
        for k in range(u16(off + 2)):
            rec = off + 4 + 8 * k
            subs[(u16(rec), u16(rec + 2))] = off + u32(rec + 4)
        chars = set()
        for pe in ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0)):
            if pe not in subs:
                continue
            st = subs[pe]
            if u16(st) == 12:
                for g in range(u32(st + 12)):
                    start, end, gid = struct.unpack_from(">III", data, st + 16 + 12 * g)
                    for cp in range(start, min(end, start + 512) + 1):
                        if gid + cp - start:
                            chars.add(cp)
            elif u16(st) == 4:
                n = u16(st + 6) // 2
                ends, starts = st + 14, st + 16 + 2 * n
                deltas, ranges = starts + 2 * n, starts + 4 * n
                for g in range(n):
                    start, end = u16(starts + 2 * g), u16(ends + 2 * g)
                    delta, ro = u16(deltas + 2 * g), u16(ranges + 2 * g)
                    for cp in range(start, min(end, start + 512) + 1):
                        if cp == 0xFFFF:
                            continue
                        gid = (cp + delta) & 0xFFFF if not ro else \
                            u16(ranges + 2 * g + ro + 2 * (cp - start))
                        if gid and (not ro or (gid + delta) & 0xFFFF):
                            chars.add(cp)
            else:
                continue
            break
    except struct.error:
        return []
    return sorted(chars)


def own_text(path, info):
    """Up to 12 drawable characters the font maps (for fonts without Hamburgefonstiv's)."""
    out = []
    for cp in cmap_chars(path, info):
        ch = chr(cp)
        if unicodedata.category(ch)[0] in "CZ" or 0xFE00 <= cp <= 0xFE0F or cp >= 0xE0000:
            continue
        out.append(ch)
        if len(out) == 12:
            break
    return "".join(out)


def update_names_named(otvar, path, ext, order):
    """The first named instance (in order) that the base binary can give STAT names, else
    order[0]: both binaries then compare the refusal."""
    with tempfile.TemporaryDirectory(prefix="check-identical-") as d:
        for n in order:
            r = subprocess.run([otvar, "instance", path, "--named", str(n), "--update-names",
                                "-q", "-o", os.path.join(d, "x%d%s" % (n, ext))],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r.returncode == 0:
                return n
    return order[0]


def cases_for(otvar, key, path, info, emit):
    flavour = info.get("flavour", "glyf") if info else "glyf"
    ext = ".otf" if flavour in ("CFF", "CFF2") else ".ttf"
    axes = info.get("axes", []) if info else []
    named = info.get("named_instances", []) if info else []
    tables = {t.get("tag") for t in info.get("tables", [])} if info else set()
    vertical = bool(tables & {"vmtx", "VVAR"})
    rng = random.Random("%d:%s" % (SEED, os.path.basename(path)))

    def c(name, *args):  # a case's name is a directory name (the tag of an axis is in some)
        emit(key + "/" + re.sub(r"[^A-Za-z0-9._+-]", "_", name), list(args))

    # description
    c("info-json", "info", path, "--json")
    c("info", "info", path)
    c("tables", "tables", path)

    tags = [a["tag"].rstrip(" ") for a in axes]
    lo = [float(a["min"]) for a in axes]
    df = [float(a["default"]) for a in axes]
    hi = [float(a["max"]) for a in axes]

    def loc():
        return [rnd(rng, lo[i], hi[i]) for i in range(len(axes))]

    def var(vals, skip=()):
        return ",".join("%s=%s" % (tags[i], vals[i]) for i in range(len(axes))
                        if tags[i] not in skip)

    randoms = [loc() for _ in range(RANDOM_LOCATIONS)]
    if axes:
        c("info-metrics", "info", path, "--json", "--metrics", "--var", var(randoms[0]))
        for i, t in enumerate(tags):
            vals = [num(lo[i]), num(df[i]), num(hi[i]), rnd(rng, lo[i], hi[i]),
                    rnd(rng, lo[i], hi[i])]
            for k, v in enumerate(vals):
                c("normalize-" + t, "normalize", path, "%s=%s" % (t, v))
        for k, r in enumerate(randoms):
            c("normalize-rand", "normalize", path, var(r))
    else:
        c("normalize", "normalize", path)

    # full static instances (a static font: the refusal)
    c("instance-default", "instance", path, "-o", "default" + ext)
    if axes:
        for k, r in enumerate(randoms):
            c("instance-rand%d" % k, "instance", path, "--var", var(r), "-o", "rand%d%s" % (k, ext))
        if flavour == "glyf":
            c("instance-no-overlap-flags", "instance", path, "--var", var(randoms[2]),
              "--no-overlap-flags", "-o", "no-overlap" + ext)
        c("instance-all-named", "instance", path, "--all-named", "-d", "named", "-j", "2")
        c("instance-woff2", "instance", path, "--var", var(randoms[0]), "-o", "rand0.woff2")
        if "STAT" in tables:
            if named:
                order = list(range(len(named)))
                rng.shuffle(order)
                n = update_names_named(otvar, path, ext, order)
                c("instance-update-names", "instance", path, "--named", str(n), "--update-names",
                  "-o", "named%d%s" % (n, ext))
            else:
                c("instance-update-names", "instance", path, "--var", var(randoms[1]),
                  "--update-names", "-o", "rand1" + ext)

    # partial instances: each axis kept, the others pinned at a random location; all but one
    for i, t in enumerate(tags):
        pin = loc()
        args = ["instance", path, "--keep", t, "-o", "keep-%s%s" % (re.sub(r"[^A-Za-z0-9]", "_", t), ext)]
        if len(axes) > 1:
            args[2:2] = ["--var", var(pin, skip=(t,))]
        c("partial-keep-" + t, *args)
    if len(axes) >= 2:
        drop = rng.randrange(len(axes))
        c("partial-all-but-" + tags[drop], "instance", path,
          "--var", "%s=%s" % (tags[drop], rnd(rng, lo[drop], hi[drop])),
          "--keep", ",".join(t for i, t in enumerate(tags) if i != drop), "-o", "partial" + ext)

    # outlines and metrics at the default, named instances and the random locations
    where = [("default", [])]
    if len(named) <= NAMED_CAP:
        picks = range(len(named))
    else:
        picks = sorted({round(k * (len(named) - 1) / (NAMED_CAP - 1)) for k in range(NAMED_CAP)})
    where += [("named%d" % n, ["--named", str(n)]) for n in picks]
    if axes:
        where += [("rand%d" % k, ["--var", var(r)]) for k, r in enumerate(randoms)]
    for name, at in where:
        c("outline-" + name, "outline", path, "--glyphs", "all", *at)
        c("metrics-" + name, "metrics", path, "--glyphs", "all", *at)
        if vertical:
            c("metrics-" + name, "metrics", path, "--glyphs", "all", "--vertical", *at)
    if axes:
        c("outline-rand0-round", "outline", path, "--glyphs", "all", "--round", "--var",
          var(randoms[0]))

    # web fonts: written, then read back
    c("compress", "compress", path, "-o", "font.woff2")
    c("compress", "decompress", "font.woff2", "-o", "from-woff2" + ext)
    c("compress", "compress", path, "--woff", "-o", "font.woff")
    c("compress", "decompress", "font.woff", "-o", "from-woff" + ext)

    # pictures (small)
    c("render", "render", path, "--text", TEXT, "--size", "32", "-o", "render.png",
      *(["--var", var(randoms[0])] if axes else []))
    if info and not set(TEXT) <= set(map(chr, cmap_chars(path, info))):
        text = own_text(path, info)
        if text:
            c("render-own-text", "render", path, "--text", text, "--size", "32", "-o", "own.png",
              *(["--var", var(randoms[1])] if axes else []))
    c("specimen", "specimen", path, "-o", "specimen.png", "--size", "16", "--steps", "3")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--otvar", required=True, help="the base binary (reads the fonts' axes)")
    ap.add_argument("--root", required=True, help="the repository (tests/fonts, fonts/)")
    ap.add_argument("--fonts", help="the real fonts' directory")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    fonts = font_list(root, a.fonts and os.path.abspath(a.fonts))
    out = open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False)
    static = []
    for key, path in fonts:
        info = describe(a.otvar, path)
        if info is not None and not info.get("axes"):
            static.append(key)

        def emit(case, args):
            assert "\t" not in case and "\n" not in case
            out.write(case + "\t" + " ".join(shlex.quote(x) for x in args) + "\n")
        cases_for(a.otvar, key, path, info, emit)
    note("%d fonts (%d without axes: description, outlines, metrics, web fonts, pictures and "
         "the instance refusal only)" % (len(fonts), len(static)))


if __name__ == "__main__":
    main()
