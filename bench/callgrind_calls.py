#!/usr/bin/python3
"""callgrind_calls.py - otvar's instruction counts out of callgrind profiles of the benchmarks.

Helper of bench/callgrind-compare.sh (read its header first). Debian's /usr/bin/python3,
standard library only.

  callgrind_calls.py calls --lib-syms FILE --exe PATH (--row NAME | --rows-from STDOUT) PROFILE...
      Sum the inclusive cost (Ir) of every call that the benchmark's own code makes into the
      otvar library, per called function, and print one line per row:
          ROW <tab> callee=Ir,callee=Ir,...      (sorted by name; "-" when there are none)
      A call from the benchmark is a call arc whose caller is a function of the benchmark
      executable (ob = --exe) that is not an otvar symbol, and whose callee is an otvar symbol
      (--lib-syms: the function names libotvar.a defines, from nm). Its cost is everything the
      call executed until it returned: otvar's code, the libc it calls (memcpy, malloc) and the
      benchmark's own callbacks (the pen, the counting allocator), which are the same in both
      builds. Calls otvar makes into itself are inside those costs and never added again, so a
      public function that calls another public one (a refactor may make it so) is counted
      once; --toggle-collect would not do that (a nested toggle switches collection off).
      One profile (--row): the whole run is one row. Several profiles (a run split with
      callgrind's --dump-before=bench_font*, --rows-from): part 1 is the start of the process
      (no otvar call expected), part k+1 the k-th call of bench_font; the row names are read
      from the benchmark's stdout (bench_metrics: the "h" line of each font).

  callgrind_calls.py table --jobs SPEC --base DIR [--cur DIR] [--tolerance PCT] [--label-base S]
                           [--label-cur S] [--tsv FILE]
      The comparison table (or, without --cur, the base counts alone) from the per-job results
      DIR/JOB.calls that callgrind-compare.sh wrote. Exit status 1 when a timed row of cur is
      more than PCT percent above base, or a row is missing.
"""

import argparse
import os
import re
import sys

# What is counted, per benchmark: the otvar functions the benchmark times ("timed" rows, the
# ones that are flagged), and every other otvar call it makes ("setup": opening the face,
# creating locations, closing; shown, never flagged).
TIMED = {
    # warm-up pass + timed passes: set the location, draw every glyph (bench_outline.c)
    "bench_outline": [("draw", ["otv_location_set_normalized", "otv_glyph_outline"])],
    # every named instance once (OTV_BENCH_QUICK); partial: instance 0 with the first axis
    # kept, 3 rounds (bench_instance.c bench_partial); set_named and free are in the timed loop
    "bench_instance": [("full", ["otv_location_set_named", "otv_instance_create",
                                 "otv_instance_free"]),
                       ("partial", ["otv_instance_create_partial"])],
    # per location and direction: set the location, advances of every glyph
    "bench_metrics": [("advances", ["otv_location_set_normalized", "otv_glyph_advances"])],
}

NAME_RE = re.compile(r"^\((\d+)\)(?: (.*))?$")


def strip_rec(name):
    """callgrind names deeper recursion levels fn'2, fn'3 (--separate-recs)."""
    m = re.match(r"^(.*)'\d+$", name)
    return m.group(1) if m else name


class Names:
    """callgrind's name compression: '(id) name' defines an id, '(id)' refers to it."""

    def __init__(self, fix=None):
        self.by_id = {}
        self.fix = fix or (lambda s: s)

    def get(self, value):
        m = NAME_RE.match(value)
        if not m:
            return self.fix(value)
        if m.group(2) is not None:
            self.by_id[m.group(1)] = self.fix(m.group(2))
        return self.by_id.get(m.group(1), "(%s)" % m.group(1))


def parse_profile(path, exe, lib):
    """Returns (part number, pid, {callee: inclusive Ir of the calls from the benchmark})."""
    objs = Names(os.path.realpath)
    fns = Names(strip_rec)
    npos, ir_col = 1, 0  # 'positions: line' (one column), 'events: Ir'
    part, pid = 1, None
    cur_ob = cur_fn = call_ob = call_fn = None
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            c = line[:1]
            if c.isdigit() or c in "+-*#\n":
                continue  # cost lines of the current function (self cost), comments, blanks
            key, eq, value = line.rstrip("\n").partition("=")
            if eq and key == "ob":
                cur_ob = objs.get(value)
            elif eq and key == "fn":
                cur_fn = fns.get(value)
                call_ob = None
            elif eq and key == "cob":
                call_ob = objs.get(value)
            elif eq and key == "cfn":
                call_fn = fns.get(value)
            elif eq and key == "calls":
                cost_line = next(f, "")  # 'position(s) inclusive-cost' of this call arc
                callee_ob = call_ob if call_ob is not None else cur_ob
                call_ob = None
                if cur_ob == exe and callee_ob == exe and call_fn in lib and cur_fn not in lib:
                    toks = cost_line.split()
                    cost = int(toks[npos + ir_col]) if len(toks) > npos + ir_col else 0
                    out[call_fn] = out.get(call_fn, 0) + cost
            elif eq and key in ("fl", "fi", "fe", "cfi", "cfl"):
                pass
            else:
                k, _, v = line.partition(":")
                v = v.strip()
                if k == "positions":
                    npos = len(v.split())
                elif k == "events":
                    ev = v.split()
                    ir_col = ev.index("Ir") if "Ir" in ev else 0
                elif k == "part":
                    part = int(v)
                elif k == "pid":
                    pid = v
    return part, pid, out


def fmt_calls(d):
    return ",".join("%s=%d" % (k, d[k]) for k in sorted(d)) or "-"


def cmd_calls(args):
    with open(args.lib_syms, encoding="utf-8") as f:
        lib = set(l.strip() for l in f if l.strip())
    if not lib:
        sys.exit("callgrind_calls: no otvar symbols in %s" % args.lib_syms)
    exe = os.path.realpath(args.exe)
    parsed = [parse_profile(p, exe, lib) for p in args.profiles]
    pids = set(p[1] for p in parsed)
    if len(pids) != 1:
        sys.exit("callgrind_calls: profiles of %d processes (%s): a child process was "
                 "profiled" % (len(pids), ", ".join(sorted(str(p) for p in pids))))
    parsed.sort(key=lambda p: p[0])
    if args.row is not None:
        if len(parsed) != 1:
            sys.exit("callgrind_calls: --row wants one profile, got %d" % len(parsed))
        print("%s\t%s" % (args.row, fmt_calls(parsed[0][2])))
        return 0
    rows = []
    with open(args.rows_from, encoding="utf-8", errors="replace") as f:
        for line in f:
            # bench_metrics: 'NAME  h[ phantom]  N glyphs ...' once per bench_font call;
            # 'SKIP path: why' for a font it could not open
            m = re.match(r"^(\S+)\s+h( phantom)?\s", line)
            if m:
                rows.append(m.group(1) + (" (phantom)" if m.group(2) else ""))
            elif line.startswith("SKIP "):
                rows.append(os.path.basename(line[5:].split(":")[0]) + " (skipped)")
    if len(parsed) != len(rows) + 1:
        sys.exit("callgrind_calls: %d profile parts for %d rows (+1 for the process start): "
                 "--dump-before did not split the run once per font" % (len(parsed), len(rows)))
    if parsed[0][2]:
        sys.exit("callgrind_calls: otvar called before the first font: %s" %
                 fmt_calls(parsed[0][2]))
    seen = {}
    for row, p in zip(rows, parsed[1:]):
        seen[row] = seen.get(row, 0) + 1
        name = row if seen[row] == 1 else "%s #%d" % (row, seen[row])
        print("%s\t%s" % (name, fmt_calls(p[2])))
    return 0


# ---- the table ----

def read_calls(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            row, _, body = line.partition("\t")
            d = {}
            if body and body != "-":
                for kv in body.split(","):
                    k, _, v = kv.partition("=")
                    d[k] = d.get(k, 0) + int(v)
            rows[row] = d
    return rows


def counted(bench, calls):
    """[(label, Ir, timed)] for one row's calls."""
    out, used = [], set()
    for label, names in TIMED.get(bench, []):
        used.update(names)
        if bench == "bench_instance" and label == "partial" and not any(
                n in calls for n in names):
            continue  # the bench makes no partial instance of this font (CFF2, one axis)
        out.append((label, sum(calls.get(n, 0) for n in names), True))
    out.append(("setup", sum(v for k, v in calls.items() if k not in used), False))
    return out


def load_side(d, jobs, missing):
    res = {}
    for job in jobs:
        p = os.path.join(d, job["job"] + ".calls")
        if os.path.exists(p):
            res[job["job"]] = read_calls(p)
        else:
            missing.append(p)
    return res


def build_rows(jobs, results):
    """{(bench, config, row, label): Ir}, with the outline marginal rows derived."""
    vals = {}
    callees = {}
    for job in jobs:
        r = results.get(job["job"])
        if r is None:
            continue
        for row, calls in r.items():
            ROW_ORDER.setdefault((job["bench"], job["config"], row), len(ROW_ORDER))
            for label, ir, timed in counted(job["bench"], calls):
                if job["bench"] == "bench_outline":
                    if label == "setup" and job["n"] != job["nlo"]:
                        continue  # the same setup in both -n runs: shown once
                    if label != "setup":
                        label = "%s -n %s" % (label, job["n"])
                vals[(job["bench"], job["config"], row, label)] = (ir, timed)
            callees[(job["job"], row)] = set(calls)
    # bench_outline's marginal cost of one location (bench/README.md: runs with -n 4 and -n 12;
    # otvar draws each location twice, warm-up and timed pass, so the difference is 16 passes)
    for job in jobs:
        if job["bench"] != "bench_outline" or job["n"] != job["nhi"]:
            continue
        lo, hi = int(job["nlo"]), int(job["nhi"])
        for (b, c, row, label), (ir, timed) in list(vals.items()):
            if b != "bench_outline" or c != job["config"] or label != "draw -n %d" % hi:
                continue
            low = vals.get((b, c, row, "draw -n %d" % lo))
            if low is not None:
                vals[(b, c, row, "draw per location")] = ((ir - low[0]) // (2 * (hi - lo)),
                                                          True)
    return vals, callees


def read_jobs(path):
    jobs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            job, bench, config, font, n, nlo, nhi = line.split("\t")[:7]
            jobs.append(dict(job=job, bench=bench, config=config, font=font, n=n, nlo=nlo,
                             nhi=nhi))
    return jobs


ROW_ORDER = {}  # (bench, config, row) in the order of the jobs and of the rows in a job
LABEL_ORDER = ["draw -n", "draw per location", "full", "partial", "advances", "setup"]


def label_key(label):
    n = re.search(r"(\d+)$", label)
    for i, p in enumerate(LABEL_ORDER):
        if label.startswith(p):
            return (i, int(n.group(1)) if n else 0, label)
    return (len(LABEL_ORDER), 0, label)


def cmd_table(args):
    jobs = read_jobs(args.jobs)
    missing = []
    base_vals, base_callees = build_rows(jobs, load_side(args.base, jobs, missing))
    cur_vals, cur_callees = ({}, {})
    if args.cur:
        cur_vals, cur_callees = build_rows(jobs, load_side(args.cur, jobs, missing))
    tol = args.tolerance / 100.0
    order_b = {}
    order_c = {}
    for job in jobs:
        order_b.setdefault(job["bench"], len(order_b))
        order_c.setdefault((job["bench"], job["config"]), len(order_c))

    def key(k):
        b, c, row, label = k
        return (order_b.get(b, 99), order_c.get((b, c), 99), ROW_ORDER.get((b, c, row), 1e9),
                row, label_key(label))

    keys = sorted(set(base_vals) | set(cur_vals), key=key)
    wr = max([len(k[2]) for k in keys] + [4])
    wl = max([len(k[3]) for k in keys] + [7])
    wc = max([len(k[1]) for k in keys] + [6])
    lines, tsv = [], []
    if args.cur:
        hdr = "%-14s %-*s %-*s %-*s %15s %15s %9s" % (
            "bench", wc, "config", wr, "font", wl, "counted", args.label_base + " Ir",
            args.label_cur + " Ir", "cur/base")
    else:
        hdr = "%-14s %-*s %-*s %-*s %15s" % ("bench", wc, "config", wr, "font", wl, "counted",
                                             args.label_base + " Ir")
    lines += [hdr, "-" * len(hdr)]
    flagged, worst = 0, None
    last = None
    for k in keys:
        b, c, row, label = k
        bv = base_vals.get(k)
        cv = cur_vals.get(k)
        if last is not None and (b, c) != last:
            lines.append("")
        last = (b, c)
        timed = (bv or cv)[1]
        if not args.cur:
            lines.append("%-14s %-*s %-*s %-*s %15s" % (b, wc, c, wr, row, wl, label,
                                                        "{:,}".format(bv[0])))
            tsv.append("\t".join([b, c, row, label, str(bv[0])]))
            continue
        note = ""
        if bv is None or cv is None:
            ratio, note = "-", "  <-- MISSING in %s" % ("base" if bv is None else "cur")
            flagged += 1
        else:
            b0, c0 = bv[0], cv[0]
            if b0 == 0:
                ratio = "1.0000" if c0 == 0 else "inf"
            else:
                q = c0 / b0
                ratio = "%.4f" % q
                if timed and (worst is None or q > worst[0]):
                    worst = (q, k)
            if c0 > b0 * (1 + tol):
                if timed:
                    note = "  <-- WORSE by more than %g%%" % args.tolerance
                    flagged += 1
                else:
                    note = "  (setup, not timed: not flagged)"
        lines.append("%-14s %-*s %-*s %-*s %15s %15s %9s%s" % (
            b, wc, c, wr, row, wl, label, "-" if bv is None else "{:,}".format(bv[0]),
            "-" if cv is None else "{:,}".format(cv[0]), ratio, note))
        tsv.append("\t".join([b, c, row, label, "" if bv is None else str(bv[0]),
                              "" if cv is None else str(cv[0])]))
    # the otvar functions each row called: a benchmark now calling different entry points
    # would make the rows compare different things
    diffs = []
    for k in sorted(set(base_callees) & set(cur_callees)):
        if base_callees[k] != cur_callees[k]:
            diffs.append("%s, %s: only base: %s; only cur: %s" % (
                k[0], k[1], ",".join(sorted(base_callees[k] - cur_callees[k])) or "-",
                ",".join(sorted(cur_callees[k] - base_callees[k])) or "-"))
    out = "\n".join(lines) + "\n"
    if args.cur:
        nrows = sum(1 for k in keys if (base_vals.get(k) or cur_vals.get(k))[1])
        out += "\n%d timed rows, %d flagged (cur more than %g%% above base)" % (
            nrows, flagged, args.tolerance)
        if worst:
            out += "; highest cur/base %.4f (%s)" % (worst[0], " ".join(worst[1]))
        out += "\n"
    if diffs:
        out += "\nWARNING: the benchmark calls different otvar functions in the two builds:\n  "
        out += "\n  ".join(diffs) + "\n"
        flagged += len(diffs)
    if missing:
        out += "\nmissing results (job failed?):\n  " + "\n  ".join(missing) + "\n"
        flagged += 1
    sys.stdout.write(out)
    if args.tsv:
        with open(args.tsv, "w", encoding="utf-8") as f:
            f.write("\n".join(tsv) + "\n")
    return 1 if flagged else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("calls")
    a.add_argument("--lib-syms", required=True)
    a.add_argument("--exe", required=True)
    g = a.add_mutually_exclusive_group(required=True)
    g.add_argument("--row")
    g.add_argument("--rows-from")
    a.add_argument("profiles", nargs="+")
    t = sub.add_parser("table")
    t.add_argument("--jobs", required=True)
    t.add_argument("--base", required=True)
    t.add_argument("--cur")
    t.add_argument("--tolerance", type=float, default=1.0)
    t.add_argument("--label-base", default="base")
    t.add_argument("--label-cur", default="cur")
    t.add_argument("--tsv")
    args = ap.parse_args()
    return cmd_calls(args) if args.cmd == "calls" else cmd_table(args)


if __name__ == "__main__":
    sys.exit(main())
