#!/usr/bin/python3
"""bench_build.py - `otvar build` against fontTools 4.38's `fonttools varLib` on the same
designspaces and masters (fontTools' varLib test cases, masters compiled from TTX first).

usage: bench/bench_build.py OTVAR [REPEATS [REAL_REPEATS]]
Both run as commands, as users run them (process start included), REPEATS times each (default
30, alternating otvar and fontTools); the best wall time and the median CPU time (user + system
of that child, from wait4's rusage: what the shared machine's load inflates least) of each are
printed with the ratios fontTools / otvar, and the load average before the runs. Then the build
alone, in process: otv_build on the parsed designspace and masters (`OTV_BUILD_BENCH=N otvar build
...` prints its best wall and CPU times) against fontTools' varLib.build called in this process
(after a first call: imports and caches warm). Never a test: nothing is asserted. Data: $OTV_VARLIB_DATA (default /work/shared/testdata/fonttools-varlib).

The floor: build-*/floor_build (bench/floor_build.c), beside OTVAR when built (OTV_BENCH), runs in
the same alternation: a command linked as otvar's that reads the same inputs and writes otvar's
output the same safe way (temp file, fsync, rename) without building anything. fontTools' time
over its time is the ceiling: the highest ratio any build command started and writing this way
can reach on this machine, and otvar's ratio is printed as a share of it.

$OTV_BENCH_BASE=OTHER_OTVAR also times another otvar (main's, say) in the same alternation (its
command, then otv_build in process, the two binaries' in-process runs alternating 5 times, the
best of each), with the CPU ratio base / OTVAR; $OTV_BENCH_ONLY=TEXT keeps the cases (test cases
and real fonts) whose name contains TEXT.

Then real fonts (REAL_REPEATS runs each, default 3; 0 skips them): the masters of the round trip
(tests/oracle/test_roundtrip.py, test_roundtrip_cff2.py: `otvar instance` at the peak of every
region of a cached variable font, $OTV_FONT_CACHE, default build-test/fonts-cache, and the
designspace those tests write), generated into a temporary folder, then timed the same way:
what a build from real masters costs each tool.
"""
import contextlib
import io
import logging
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from fontTools.ttLib import TTFont
from fontTools.designspaceLib import DesignSpaceDocument
from fontTools import varLib

DATA = os.environ.get("OTV_VARLIB_DATA", "/work/shared/testdata/fonttools-varlib")
BASE = os.environ.get("OTV_BENCH_BASE")
ONLY = os.environ.get("OTV_BENCH_ONLY", "")
HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.environ.get("OTV_FONT_CACHE", os.path.join(HERE, "..", "build-test", "fonts-cache"))
# real fonts: (file, masters as the round trip derives them)
REAL = [("Inter-roman.var.ttf", 3), ("NotoSansArabic-VF.ttf", 8),
        ("SourceSerif4Variable-Roman.otf", 9)]
CASES = [("Build", "master_ttx_interpolatable_ttf"), ("BuildAvarIdentityMaps",
         "master_ttx_interpolatable_ttf"), ("SparseMasters", "master_ttx_interpolatable_ttf"),
         ("KerningMerging", "master_kerning_merging"),
         # CFF masters (build/cff2.c): compiled to NAME.ttf like the others (the name does
         # not matter to either builder)
         ("TestCFF2", "master_cff2"), ("TestSparseCFF2VF", "master_sparse_cff2")]


def once(cmd):
    """wall time and CPU time (user + system, from wait4) of one run, output discarded"""
    dn = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    pid = os.posix_spawn(cmd[0], cmd, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, dn, 1), (os.POSIX_SPAWN_DUP2, dn, 2)])
    _, status, ru = os.wait4(pid, 0)
    t = time.perf_counter() - t0
    os.close(dn)
    if status != 0:
        raise SystemExit(f"failed ({status}): {' '.join(cmd)}")
    return t, ru.ru_utime + ru.ru_stime


def measure(cmds, n):
    """per command: best wall time and median CPU time over n runs, the commands alternating
    (a change of the machine's load touches both alike)"""
    runs = [[] for _ in cmds]
    for _ in range(n):
        for i, cmd in enumerate(cmds):
            runs[i].append(once(cmd))
    return [(min(t for t, _ in r), statistics.median(c for _, c in r)) for r in runs]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    otvar, reps = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30
    real_reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    otvar = os.path.abspath(otvar)
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # varLib's warnings, in process
    print("load average: %.2f %.2f %.2f" % os.getloadavg())
    with tempfile.TemporaryDirectory() as tmp:
        for name, mdir in CASES:
            if ONLY not in name:
                continue
            ds = os.path.join(DATA, name + ".designspace")
            md = os.path.join(tmp, mdir)
            os.makedirs(md, exist_ok=True)
            # fontTools' command finds masters by a template: a copy of the designspace whose
            # filenames point at the compiled masters
            doc = DesignSpaceDocument.fromfile(ds)
            for s in doc.sources:
                stem = os.path.splitext(os.path.basename(s.filename))[0]
                ttf = os.path.join(md, stem + ".ttf")
                if not os.path.exists(ttf):
                    f = TTFont()
                    f.importXML(os.path.join(DATA, mdir, stem + ".ttx"))
                    f.save(ttf)
                s.path = ttf
                s.filename = os.path.relpath(ttf, tmp)
            ds2 = os.path.join(tmp, name + ".designspace")
            doc.write(ds2)
            finder = lambda p, md=md: os.path.join(
                md, os.path.splitext(os.path.basename(p))[0] + ".ttf")
            bench_case(otvar, name, ds, ds2, md, finder, tmp, reps)
        if real_reps > 0:
            bench_real(otvar, tmp, real_reps)


def bench_case(otvar, name, ds, ds2, md, finder, tmp, reps, bench_reps=None):
    """one designspace: otvar's command (masters in md) against fontTools' (ds2: a copy whose
    filenames point at the masters), then the builds in process"""
    def cmd(exe):
        return [exe, "build", ds, "--master-dir", md, "-o", os.path.join(tmp, "o.ttf"),
                "--force", "-q"]
    floor = os.path.join(os.path.dirname(otvar), "floor_build")
    floor_cmd = []
    if os.path.exists(floor):
        # the inputs a build reads (the designspace and its masters) and the bytes it writes
        built = os.path.join(tmp, "floor-bytes.ttf")
        subprocess.run([otvar, "build", ds, "--master-dir", md, "-o", built, "--force", "-q"],
                       check=True)
        masters = sorted({finder(s.filename) for s in DesignSpaceDocument.fromfile(ds).sources})
        floor_cmd = [[floor, os.path.join(tmp, "n.ttf"), built, ds] + masters]
    runs = measure([cmd(otvar), ["/usr/bin/python3", "-m", "fontTools.varLib", ds2, "-o",
                                 os.path.join(tmp, "f.ttf")]] + ([cmd(BASE)] if BASE else [])
                   + floor_cmd, reps)
    (t_ot, c_ot), (t_ft, c_ft) = runs[0], runs[1]
    print(f"{name:24s} wall: otvar {t_ot * 1000:7.2f} ms  fonttools {t_ft * 1000:7.1f} ms"
          f"  {t_ft / t_ot:6.1f}x   cpu (median): otvar {c_ot * 1000:6.2f} ms  fonttools"
          f" {c_ft * 1000:7.1f} ms  {c_ft / max(c_ot, 1e-6):6.1f}x")
    if floor_cmd:
        c_fl = runs[-1][1]
        print(f"{'':24s} floor: cpu (median) {c_fl * 1000:6.2f} ms, ceiling fonttools / floor"
              f" {c_ft / max(c_fl, 1e-6):6.1f}x; otvar's ratio is"
              f" {100 * c_fl / max(c_ot, 1e-6):3.0f}% of it")
    if BASE:
        t_b, c_b = runs[2]
        print(f"{'':24s} base: wall {t_b * 1000:7.2f} ms  cpu (median) {c_b * 1000:6.2f} ms"
              f"  base / otvar {c_b / max(c_ot, 1e-6):5.2f}")
    # in process, the build alone: otv_build on the parsed designspace and masters
    # (OTV_BUILD_BENCH) against varLib.build on the compiled masters (imports and a
    # first call done before timing)
    env = dict(os.environ, OTV_BUILD_BENCH=str(bench_reps or reps * 100))

    def in_process(exe):
        r = subprocess.run(cmd(exe), env=env, capture_output=True, text=True, check=True)
        m = re.search(r"best ([0-9.]+) ms of [0-9]+, cpu best ([0-9.]+) ms", r.stderr)
        return (float(m.group(1)) / 1000, float(m.group(2)) / 1000) if m else (
            float("nan"), float("nan"))
    if BASE:
        best = {otvar: (float("inf"), float("inf")), BASE: (float("inf"), float("inf"))}
        for _ in range(5):
            for exe in (otvar, BASE):
                w, c = in_process(exe)
                best[exe] = (min(best[exe][0], w), min(best[exe][1], c))
        i_ot, ic_ot = best[otvar]
        print(f"{'':24s} base in process: otv_build {best[BASE][0] * 1000:7.3f} ms, cpu (best)"
              f" {best[BASE][1] * 1000:7.3f} ms; otvar cpu (best) {ic_ot * 1000:7.3f} ms"
              f"  base / otvar {best[BASE][1] / ic_ot:5.2f}")
    else:
        i_ot, ic_ot = in_process(otvar)
    i_ft = ic_ft = float("inf")
    with contextlib.redirect_stdout(io.StringIO()):  # varLib.cff prints its warnings
        varLib.build(ds, master_finder=finder)
        for _ in range(max(3, reps // 2)):
            t0, c0 = time.perf_counter(), time.process_time()
            varLib.build(ds, master_finder=finder)
            c1, t1 = time.process_time(), time.perf_counter()
            i_ft, ic_ft = min(i_ft, t1 - t0), min(ic_ft, c1 - c0)
    print(f"{'':24s} in process: otv_build {i_ot * 1000:7.3f} ms  varLib.build"
          f" {i_ft * 1000:7.1f} ms  {i_ft / i_ot:6.1f}x   cpu (best): otv_build"
          f" {ic_ot * 1000:7.3f} ms  varLib.build {ic_ft * 1000:7.1f} ms  {ic_ft / ic_ot:6.1f}x")


def bench_real(otvar, tmp, reps):
    """the real fonts' masters (the round trip's: tests/oracle), built as the cases above"""
    os.environ["OTVAR"] = otvar  # the round trip's helpers run this otvar
    sys.path.insert(0, os.path.join(HERE, "..", "tests", "oracle"))
    import test_roundtrip as rt
    import test_roundtrip_cff2 as rc
    for fname, _ in REAL:
        if ONLY not in fname:
            continue
        path = os.path.join(CACHE, fname)
        if not os.path.exists(path):
            print(f"{fname}: not in {CACHE}, left out")
            continue
        font = TTFont(path)
        fvar = font["fvar"]
        axes = [a.axisTag for a in fvar.axes]
        maps = rt.avar_maps(font, axes)
        cff = "CFF2" in font
        regs = rc.all_regions(font, axes) if cff else rt.regions(font, axes)
        peaks = sorted({tuple(p for _, p, _ in reg) for reg in regs} | {tuple(0 for _ in axes)},
                       key=lambda p: (sum(1 for v in p if v), p))
        ext = ".otf" if cff else ".ttf"
        work = os.path.join(tmp, os.path.splitext(fname)[0])
        os.makedirs(work, exist_ok=True)
        masters = []
        for i, peak in enumerate(peaks):
            loc = rt.user_location(path, fvar, maps, peak)
            if loc is None:
                raise SystemExit(f"{fname}: no user location normalizes to the peak {peak}")
            var = ",".join(f"{t}={v!r}" for t, v in loc.items())
            subprocess.run([otvar, "instance", path, "--var", var, "-o",
                            os.path.join(work, f"m{i}{ext}"), "--force", "-q"], check=True)
            masters.append((f"m{i}", peak))
        ds = os.path.join(work, "rt.designspace")
        rt.write_designspace(ds, font, fvar, maps, masters, [])
        doc = DesignSpaceDocument.fromfile(ds)
        for s in doc.sources:
            s.path = os.path.join(work, s.name + ext)
            s.filename = os.path.relpath(s.path, tmp)
        ds2 = os.path.join(tmp, os.path.splitext(fname)[0] + ".designspace")
        doc.write(ds2)
        finder = lambda p, work=work, ext=ext: os.path.join(
            work, os.path.splitext(os.path.basename(p))[0] + ext)
        name = f"{os.path.splitext(fname)[0]} ({len(masters)})"
        bench_case(otvar, name, ds, ds2, work, finder, tmp, reps, bench_reps=reps * 3)


if __name__ == "__main__":
    main()
