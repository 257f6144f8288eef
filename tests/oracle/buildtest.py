"""Pieces the builder's oracle tests (tests/oracle/test_build*.py) share.

Not a test itself (ctest runs tests/oracle/test_*.py only). Import it after the test's own
fontTools imports, which decide whether the test is skipped (exit 77).

- OTVAR, DATA: the command under test and fontTools' varLib test data (environment first).
- fail(msg), failures, finish(): failures are collected, the first SHOWN printed as they come;
  finish() prints the count or "ok" and returns the exit code.
- run(cmd): a command's CompletedProcess, output captured as text.
- compile_ttx(src, dst): a TTX master compiled to a binary font once (kept if dst exists).
- compile_masters(stems, src_dir, dst_dir, ext): every stem of a list, into dst_dir.
- ots_check(what, path): ots-sanitize (when installed) accepts the font, else a failure.
- decompile_all(path): the font, every table decompiled by fontTools (raises if one cannot be).
- same_glyphs(a, b, what): two fonts' glyph data ({glyph: (points, advance)}) within 1 unit.
- master_locations(doc): each source of a designspace with its user location.
- no_data(): says SKIP and is true when fontTools' varLib test data (DATA) is missing.
"""
import os
import shutil
import subprocess

from fontTools.ttLib import TTFont

OTVAR = os.environ.get("OTVAR") or shutil.which("otvar") or "otvar"
DATA = os.environ.get("OTV_VARLIB_DATA", "/work/shared/testdata/fonttools-varlib")
SHOWN = 40

failures = []


def fail(msg):
    failures.append(msg)
    if len(failures) <= SHOWN:
        print("FAIL: " + msg)


def finish(ok="ok"):
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print(ok)
    return 0


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def ots_check(what, path, shown=300, quiet=False):
    """ots-sanitize, when installed, accepts the font at path (quiet: and warns of nothing); else
    a failure: what (when given), then the first `shown` characters of what it said"""
    if not shutil.which("ots-sanitize"):
        return
    r = run(["ots-sanitize", path, os.devnull])
    said = r.stdout + r.stderr
    if r.returncode or (quiet and "WARNING" in said):
        fail((what + ": " if what else "") + f"ots-sanitize: {said.strip()[:shown]}")


def decompile_all(path):
    f = TTFont(path)
    for tag in f.keys():
        f[tag]  # decompiles every table
    return f


def same_glyphs(a, b, what):
    """a and b map glyph names to (points, advance): every glyph of a within 1 unit of b's (the
    first that is not fails, named with what)"""
    for g, (pa, aa) in a.items():
        pb, ab = b[g]
        if abs(aa - ab) > 1 or len(pa) != len(pb) or any(
                abs(p[0] - q[0]) > 1 or abs(p[1] - q[1]) > 1 for p, q in zip(pa, pb)):
            fail(f"{what}: glyph {g} differs from fontTools'")
            break


def master_locations(doc):
    """[(source, {axis tag: user value})] of a DesignSpaceDocument's sources"""
    out = []
    for s in doc.sources:
        user = {}
        for a in doc.axes:
            d = s.location.get(a.name, a.map_forward(a.default))
            user[a.tag] = a.map_backward(d)
        out.append((s, user))
    return out


def no_data():
    if os.path.isdir(DATA):
        return False
    print("SKIP: no fontTools varLib test data")
    return True


def compile_ttx(src, dst, modified=None):
    """src (a .ttx) saved as the binary font dst unless dst exists; modified pins head.modified
    (fontTools' save otherwise stamps the clock, which moves compressed sizes)"""
    if not os.path.exists(dst):
        f = TTFont(recalcTimestamp=modified is None)
        f.importXML(src)
        if modified is not None:
            f["head"].modified = modified
        f.save(dst)
    return dst


def compile_masters(stems, src_dir, dst_dir, ext=".ttf", modified=None):
    """each stem's src_dir/stem.ttx compiled to dst_dir/stem + ext; returns {stem: path}"""
    os.makedirs(dst_dir, exist_ok=True)
    return {s: compile_ttx(os.path.join(src_dir, s + ".ttx"), os.path.join(dst_dir, s + ext),
                           modified) for s in stems}
