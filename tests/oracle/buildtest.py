"""Pieces the builder's oracle tests (tests/oracle/test_build*.py) share.

Not a test itself (ctest runs tests/oracle/test_*.py only). Import it after the test's own
fontTools imports, which decide whether the test is skipped (exit 77).

- OTVAR, DATA: the command under test and fontTools' varLib test data (environment first).
- fail(msg), failures, finish(): failures are collected, the first SHOWN printed as they come;
  finish() prints the count or "ok" and returns the exit code.
- run(cmd): a command's CompletedProcess, output captured as text.
- compile_ttx(src, dst): a TTX master compiled to a binary font once (kept if dst exists).
- compile_masters(stems, src_dir, dst_dir, ext): every stem of a list, into dst_dir.
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
