#!/usr/bin/python3
"""test_layout_instance.py - the layout tables of `otvar instance` (GSUB, GPOS, GDEF, BASE):
their size against a reference instancer's, and what shaping does with them.

References: fontTools 4.38's varLib.instancer (Debian) for TrueType variable fonts; for CFF2
variable fonts, which that fontTools cannot instance, the hb-subset of a current HarfBuzz
(harfbuzzjs in $OTV_FONT_CACHE/harfbuzzjs, fetched by tests/fetch-fonts.sh; every glyph, table
and feature kept, every axis pinned, as tests/oracle/test_instance_hbjs.py does). otvar runs
with `--normalize fonttools` (docs/normalization.md), as in tests/oracle/test_instance.py.

Fonts: every TrueType test font (tests/fonts) with GSUB, GPOS, GDEF or BASE, the bundled
fonts/Karla-VF.ttf, test_instance.py's GPOS variant (SinglePos format 2 and CursivePos with
VariationIndex devices), every TrueType VF in $OTV_FONT_CACHE (fontTools' reference); every
CFF2 VF with layout tables in tests/fonts and in the cache (hb-subset's reference); and the two
fonts tests/fonts/make_layout_stress.py generates at test time: featvars_far.ttf (GSUB
FeatureVariations whose substitute Feature tables lie more than 64 KiB after the FeatureList;
Hebrew, marks, variable kerning and anchors) and gpos_overflow.ttf (PairPos lookups whose
subtables pass 64 KiB per lookup: written only with Extension lookups). Locations: every named
instance (the biggest fonts: a few; OTV_LAYOUT_FULL=1 or OTV_INSTANCE_FULL=1: all), the
FeatureVariations locations of test_instance.py, and for the generated fonts locations on both
sides of each FeatureVariations condition plus a partial instance (wdth pinned, wght kept).

Each location, both instancers write a static instance, then:
  a. sizes, table by table (GSUB, GPOS, GDEF, BASE, from the table directory): otvar's at most
     the reference's * 1.01, or + 16 bytes for tiny tables. Printed for every font and location
     with hb-subset's size as a third column (a markdown table at the end, for bench/README.md).
     Against hb-subset, GSUB may also hold the ssXX/cvXX FeatureParams (UI name IDs) that the
     current hb-subset drops and otvar keeps: their bytes are allowed on top. The partial
     instance's sizes are reported, not required (issue 20 bounds static instances).
  b. shaping: Debian's hb-shape 6.0 (--no-glyph-names: glyph ids, clusters, offsets, advances)
     on both instances, many strings per call (--text-file), must print the same for
       single    every cmap character alone
       kern      pairs covering every PairPos: format 1 its glyph pairs, format 2 one pair per
                 class pair with a nonzero value, mapped back to characters (glyphs without a
                 character skipped), capped at KERN_CAP per font, taken round-robin over subtables
       mark      base + mark from every MarkBasePos/MarkLigPos class, base + mark + mark from
                 MarkMarkPos, cursive pairs
       liga      every LigatureSubst component sequence (capped) and sample words
       rtl       Arabic/Hebrew words (seeded) when the cmap has those letters
       all-feat  single, liga and sample lines with every feature of the font turned on
     TrueType: otvar's instance against fontTools' whole instance; when they differ the test says
     whether otvar's layout tables alone explain it (fontTools' instance with otvar's GSUB/GPOS/
     GDEF/BASE grafted in shapes like otvar's). CFF2: otvar's instance against itself with
     hb-subset's layout tables grafted in (hb-subset's CFF2 hmtx is not always varied: that is
     test_instance_hbjs.py's business, not this test's).
  c. ots-sanitize (Debian opentype-sanitizer; skipped with a message when absent): otvar's
     instance must pass wherever the reference's passes, and always for the generated fonts.
Generated fonts: instancing must succeed at every location.

Exit 0: pass; 1: a failure; 77: fontTools, hb-shape or otvar missing. Environment: OTVAR,
OTV_FONTS, OTV_FONT_CACHE, OTV_ROOT as for the other oracles; OTV_JOBS worker processes (default:
the CPUs available); OTV_LAYOUT_FULL=1 every named instance of every font.
"""
import multiprocessing
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

try:
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables.DefaultTable import DefaultTable
    from fontTools.varLib import instancer
except ImportError:
    print("SKIP fontTools not importable (run with /usr/bin/python3, Debian python3-fonttools)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
OTVAR = os.environ.get("OTVAR")
FONTS = os.environ.get("OTV_FONTS", os.path.join(HERE, "..", "fonts"))
CACHE = os.environ.get("OTV_FONT_CACHE", "")
ROOT = os.environ.get("OTV_ROOT", os.path.join(HERE, "..", ".."))
HBJS = os.path.join(CACHE, "harfbuzzjs") if CACHE else ""
FULL = bool(os.environ.get("OTV_LAYOUT_FULL") or os.environ.get("OTV_INSTANCE_FULL"))
LAYOUT = ("GSUB", "GPOS", "GDEF", "BASE")
RATIO, FLOOR = 1.01, 16
KERN_CAP, MARK_CAP, LIGA_CAP = 3000, 2000, 1000

# named instances in the default run (None: all) of the fonts whose fontTools instances take
# seconds each; the others: all. OTV_LAYOUT_FULL=1: all of every font.
SUBSET = {
    "SourceSerif4Variable-Roman.ttf": [0, 29],     # ~7 s per fontTools instance
    "SourceSans3VF-Upright.ttf": [0, 6],           # ~5 s
    "Inter-roman.var.ttf": [0, 8],                 # ~1.5 s
    "Recursive-latin.ttf": list(range(0, 64, 8)),  # 64 instances
    "NotoSans-VF.abc.ttf": list(range(0, 72, 6)),  # 72 instances
    "PartialInstancerTest2-VF.ttf": list(range(0, 36, 5)),
    "gpos_overflow.ttf": [2],                      # ~4 s; and wght=555
}
# seconds per location, roughly (fontTools' instance dominates), to share the work out
COST = {"SourceSerif4Variable-Roman.ttf": 10, "SourceSans3VF-Upright.ttf": 7,
        "gpos_overflow.ttf": 6, "Inter-roman.var.ttf": 2.5, "featvars_far.ttf": 1,
        "Recursive-latin.ttf": 0.8, "RobotoFlex-latin.ttf": 0.8, "SourceSerif4Variable-Roman.otf": 0.8}
# fonts fontTools 4.38 cannot read (avar version 2)
SKIP = {"Amstelvar-avar2.A.ttf": "avar 2 (fontTools 4.38 cannot read it)",
        "avar2checker.ttf": "avar 2 (fontTools 4.38 cannot read it)"}
SAMPLE = [
    "office affluent fjord",
    "The quick brown fox jumps over the lazy dog.",
    "AVATAR WAVE Tokyo Ta Te Yo Vo LT P. F, r.",
    "fi fl ff ffi ffl ft fb fh fk fj ffj Th ct st",
    "1/2 3/4 0123456789 H2O x2 No. 1st 2nd",
    "\u00abHello\u00bb, \u201cworld\u201d \u2014 (a) [b] {c} 'q' \"Q\"",
    "na\u00efve caf\u00e9 r\u00e9sum\u00e9 \u00c5ngstr\u00f6m \u0141\u00f3d\u017a \u0130stanbul",
    "\u0391\u0392\u0393 \u03b1\u03b2\u03b3 \u0410\u0411\u0412 \u0430\u0431\u0432",
    "a\u0301 e\u0300 o\u0302 u\u0308 n\u0303 c\u0327 A\u0301\u0301 i\u0307\u0301",
]
HB_BATCH_JS = r"""
// hb-subset (harfbuzzjs) instances of one font at several locations, one process:
// node batch.mjs PKG version | node batch.mjs PKG IN OUT1 SPEC1 [OUT2 SPEC2 ...]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [pkg, inPath, ...jobs] = process.argv.slice(2);
if (inPath === "version") {
  const hb = await import(pathToFileURL(join(pkg, "dist", "index.mjs")).href);
  console.log(hb.versionString());
  process.exit(0);
}
const tag = (s) => ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) | s.charCodeAt(3)) >>> 0;
const { instance: wasm } = await WebAssembly.instantiate(readFileSync(join(pkg, "dist", "harfbuzz-subset.wasm")), {});
const x = wasm.exports;
if (x._initialize) x._initialize();
const font = readFileSync(inPath);
const ptr = x.malloc(font.length);
new Uint8Array(x.memory.buffer).set(font, ptr);
const blob = x.hb_blob_create(ptr, font.length, 1 /* READONLY */, 0, 0);
const face = x.hb_face_create(blob, 0);
for (let i = 0; i + 1 < jobs.length; i += 2) {
  const input = x.hb_subset_input_create_or_fail();
  x.hb_subset_input_keep_everything(input);
  let ok = true;
  for (const kv of jobs[i + 1] ? jobs[i + 1].split(",") : []) {
    const [t, v] = kv.split("=");
    ok = ok && x.hb_subset_input_pin_axis_location(input, face, tag(t.padEnd(4)), parseFloat(v));
  }
  const out = ok ? x.hb_subset_or_fail(face, input) : 0;
  if (out) {
    const ob = x.hb_face_reference_blob(out);
    const len = x.hb_blob_get_length(ob);
    const data = x.hb_blob_get_data(ob, 0);
    writeFileSync(jobs[i], new Uint8Array(x.memory.buffer, data, len));
    x.hb_blob_destroy(ob);
    x.hb_face_destroy(out);
  }
  console.log((out ? "ok " : "fail ") + jobs[i]);
  x.hb_subset_input_destroy(input);
}
"""


# ---- small helpers ----
def run(args, **kw):
    r = subprocess.run(args, capture_output=True, **kw)
    return r.returncode, r.stdout, r.stderr


def node():
    return shutil.which("node") or shutil.which("nodejs")


def table_lengths(path):
    """{tag: length} from the table directory."""
    with open(path, "rb") as f:
        head = f.read(12)
        n = struct.unpack(">H", head[4:6])[0]
        recs = f.read(16 * n)
    return {recs[16 * i:16 * i + 4].decode("latin-1"): struct.unpack(">L", recs[16 * i + 12:16 * i + 16])[0]
            for i in range(n)}


def num_glyphs(path):
    f = TTFont(path, lazy=True)
    return struct.unpack(">H", f.reader["maxp"][4:6])[0]


def text_ok(c):
    """A code point hb-shape's line reader passes through as text."""
    return (c >= 0x20 and not 0x7F <= c < 0xA0 and c not in (0x2028, 0x2029, 0xFEFF)
            and not 0xD800 <= c < 0xE000 and c <= 0x10FFFF)


def spec_of(loc):
    return ",".join("%s=%r" % (t, float(v)) for t, v in loc.items())


def loc_text(loc):
    return ",".join("%s=%g" % kv for kv in loc.items())


# ---- the strings to shape, from the variable font ----
def unwrap(lookup):
    for st in lookup.SubTable:
        while type(st).__name__ in ("ExtensionPos", "ExtensionSubst"):
            st = st.ExtSubTable
        yield st


def nonzero(v):
    return v is not None and any(bool(getattr(v, a)) for a in vars(v) if not a.startswith("_"))


def round_robin(groups, cap):
    """Items from each group in turn (the groups' order kept), at most cap."""
    out, seen = [], set()
    iters = [iter(g) for g in groups]
    while iters and len(out) < cap:
        nxt = []
        for it in iters:
            for s in it:
                if s not in seen:
                    seen.add(s)
                    out.append(s)
                    nxt.append(it)
                    break
            if len(out) >= cap:
                break
        iters = nxt
    return out


def shaping_strings(font):
    """{category: (lines, hb-shape extra args)}"""
    cmap = font.getBestCmap() or {}
    rev = {}
    for c in sorted(cmap):
        if text_ok(c):
            rev.setdefault(cmap[c], chr(c))
    out = {"single": ([chr(c) for c in sorted(cmap) if text_ok(c) and chr(c) != " "], [])}
    kern, marks, ligs = [], [], []
    feats = set()
    if "GPOS" in font and font["GPOS"].table.LookupList:
        gpos = font["GPOS"].table
        feats |= {fr.FeatureTag for fr in gpos.FeatureList.FeatureRecord}
        base_char = None
        for lk in gpos.LookupList.Lookup:
            for st in unwrap(lk):
                kind = type(st).__name__
                if kind == "PairPos":
                    kern.append(pair_strings(st, rev))
                elif kind == "MarkBasePos":
                    group = attach_strings(st.MarkCoverage.glyphs, st.MarkArray.MarkRecord,
                                           st.BaseCoverage.glyphs,
                                           [r.BaseAnchor for r in st.BaseArray.BaseRecord], rev)
                    if group and base_char is None:
                        base_char = group[0][0]
                    marks.append(group)
                elif kind == "MarkLigPos":
                    # a ligature takes class k when one of its components has an anchor for it
                    anchors = [[True if any(c.LigatureAnchor[k] is not None for c in la.ComponentRecord)
                                else None for k in range(st.ClassCount)]
                               for la in st.LigatureArray.LigatureAttach]
                    marks.append(attach_strings(st.MarkCoverage.glyphs, st.MarkArray.MarkRecord,
                                                st.LigatureCoverage.glyphs, anchors, rev))
                elif kind == "MarkMarkPos":
                    marks.append([(base_char or "") + s for s in attach_strings(
                        st.Mark1Coverage.glyphs, st.Mark1Array.MarkRecord, st.Mark2Coverage.glyphs,
                        [r.Mark2Anchor for r in st.Mark2Array.Mark2Record], rev)])
                elif kind == "CursivePos":
                    cs = [rev[g] for g in st.Coverage.glyphs if g in rev]
                    marks.append([a + b for a, b in zip(cs, cs[1:] + cs[:1])] + [a + a for a in cs])
    if "GSUB" in font and font["GSUB"].table.LookupList:
        gsub = font["GSUB"].table
        feats |= {fr.FeatureTag for fr in gsub.FeatureList.FeatureRecord}
        for lk in gsub.LookupList.Lookup:
            for st in unwrap(lk):
                if type(st).__name__ == "LigatureSubst":
                    group = []
                    for first, seq in sorted(st.ligatures.items()):
                        for lig in seq:
                            gs = [first] + list(lig.Component)
                            if all(g in rev for g in gs):
                                group.append("".join(rev[g] for g in gs))
                    ligs.append(group)
    out["kern"] = (round_robin(kern, KERN_CAP), [])
    out["mark"] = (round_robin(marks, MARK_CAP), [])
    out["liga"] = (round_robin(ligs, LIGA_CAP) + SAMPLE, [])
    rtl = [chr(c) for c in sorted(cmap) if 0x05D0 <= c <= 0x05EA or 0x0620 <= c <= 0x064A]
    rtl_marks = [chr(c) for c in sorted(cmap) if 0x05B0 <= c <= 0x05C2 or 0x064B <= c <= 0x0652]
    if rtl:
        rnd = random.Random(sum(map(ord, rtl)))
        words = ["".join(rtl)]
        for _ in range(300):
            w = ""
            for _ in range(rnd.randint(2, 6)):
                w += rnd.choice(rtl)
                if rtl_marks and rnd.random() < 0.3:
                    w += rnd.choice(rtl_marks)
            words.append(w)
        words += [" ".join(words[1:6]), "abc " + words[1] + " 123 " + words[2]]
        out["rtl"] = (words, [])
    if feats:
        lines = out["single"][0] + out["liga"][0] + out.get("rtl", ([], []))[0]
        out["all-feat"] = (lines, ["--features=" + ",".join(sorted(feats))])
    return {k: v for k, v in out.items() if v[0]}


def pair_strings(st, rev):
    out = []
    if st.Format == 1:
        for first, ps in zip(st.Coverage.glyphs, st.PairSet):
            if first not in rev:
                continue
            for rec in ps.PairValueRecord:
                if rec.SecondGlyph in rev:
                    out.append(rev[first] + rev[rec.SecondGlyph])
        return out
    cd1, cd2 = st.ClassDef1.classDefs, st.ClassDef2.classDefs
    firsts, seconds = {}, {}
    for g in st.Coverage.glyphs:
        if g in rev:
            firsts.setdefault(cd1.get(g, 0), g)
    for g, c in sorted(cd2.items(), key=lambda kv: rev.get(kv[0], "\U0010ffff")):
        if g in rev:
            seconds.setdefault(c, g)
    # class 0 of ClassDef2: any glyph with a character and no class (the lowest code point)
    for g, ch in sorted(rev.items(), key=lambda kv: kv[1]):
        if g not in cd2 and ch.strip():
            seconds.setdefault(0, g)
            break
    for c1, rec in enumerate(st.Class1Record):
        if c1 not in firsts:
            continue
        for c2, r2 in enumerate(rec.Class2Record):
            if c2 in seconds and (nonzero(r2.Value1) or nonzero(getattr(r2, "Value2", None))):
                out.append(rev[firsts[c1]] + rev[seconds[c2]])
    return out


def attach_strings(mark_glyphs, mark_records, base_glyphs, base_anchors, rev):
    """base + mark for every mark class: up to two marks of the class on every base with an
    anchor for it."""
    by_class = {}
    for g, r in zip(mark_glyphs, mark_records):
        if g in rev:
            by_class.setdefault(r.Class, []).append(rev[g])
    out = []
    for c, ms in sorted(by_class.items()):
        for g, anchors in zip(base_glyphs, base_anchors):
            if g in rev and c < len(anchors) and anchors[c] is not None:
                out += [rev[g] + m for m in ms[:2]]
    return out


# ---- instancers ----
def otvar_instance(path, oargs, out):
    if os.path.exists(out):
        os.unlink(out)
    rc, _, err = run([OTVAR, "instance", path] + oargs + ["--normalize", "fonttools", "-o", out, "-q"])
    return None if rc == 0 else (err.decode("utf-8", "replace").strip() or "exit %d" % rc)


def fonttools_instance(path, loc, out):
    try:
        inst = instancer.instantiateVariableFont(TTFont(path), loc)
        inst.save(out)
    except Exception as e:  # noqa: BLE001 (say why there is no reference)
        return "%s: %s" % (type(e).__name__, e)
    return None


def hb_instances(path, jobs, tmp):
    """hb-subset instances [(out, loc)] of path in one node process: {out: True if written}"""
    nd = node()
    if not nd or not HBJS or not os.path.isfile(os.path.join(HBJS, "dist", "harfbuzz-subset.wasm")):
        return {}
    script = os.path.join(tmp, "hb_batch.mjs")
    if not os.path.exists(script):
        with open(script, "w") as f:
            f.write(HB_BATCH_JS)
    args = [nd, script, HBJS, path]
    for out, loc in jobs:
        args += [out, spec_of(loc)]
    rc, so, _ = run(args)
    done = {}
    for line in so.decode().splitlines():
        st, _, p = line.partition(" ")
        done[p] = st == "ok"
    return done


def hb_version():
    nd = node()
    if not nd or not HBJS or not os.path.isdir(HBJS):
        return None
    tmp = tempfile.mkdtemp(prefix="otv-layout-v-")
    try:
        script = os.path.join(tmp, "hb_batch.mjs")
        with open(script, "w") as f:
            f.write(HB_BATCH_JS)
        rc, so, _ = run([nd, script, HBJS, "version"])
        import json
        with open(os.path.join(HBJS, "package.json")) as f:
            pkg = json.load(f).get("version", "?")
        return "harfbuzzjs %s (HarfBuzz %s)" % (pkg, so.decode().strip() if rc == 0 else "?")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def graft(base, layout_from, out):
    """base with its GSUB/GPOS/GDEF/BASE replaced by those of layout_from (bytes copied)."""
    f = TTFont(base)
    src = TTFont(layout_from, lazy=True)
    for tag in LAYOUT:
        if tag in f:
            del f[tag]
        if tag in src.reader:
            t = DefaultTable(tag)
            t.data = src.reader[tag]
            f[tag] = t
    f.save(out)


def hb_shape(path, lines, extra, tmp, variations=None):
    """hb-shape output, one line per input line; None when hb-shape fails."""
    txt = os.path.join(tmp, "lines.txt")
    with open(txt, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    args = ["hb-shape", "--no-glyph-names", path, "--text-file=" + txt] + extra
    if variations:
        args.append("--variations=" + variations)
    rc, so, se = run(args)
    if rc != 0:
        return None, se.decode("utf-8", "replace").strip()
    res = so.decode("utf-8", "replace").split("\n")
    if res and res[-1] == "":
        res.pop()
    return res, None


def ots(path):
    rc, so, se = run(["ots-sanitize", path])
    msg = (so + se).decode("utf-8", "replace").strip().splitlines()
    return rc == 0, (msg[0] if msg else "exit %d" % rc)


# ---- one font ----
class Result:
    def __init__(self, label):
        self.label = label
        self.fails = []
        self.notes = []
        self.rows = []
        self.checks = 0
        self.seconds = 0.0
        self.nlocs = 0

    def fail(self, msg, cat):
        self.fails.append((cat, msg))


def codepoints(s):
    return " ".join("U+%04X" % ord(c) for c in s)


def compare_shaping(res, lab, ours, ref, strings, tmp, graft_src=None, variations=None):
    """Every category's lines shaped with both fonts. graft_src: (ref, ours) layout donor to
    tell whether otvar's layout tables explain a difference."""
    for cat, (lines, extra) in strings.items():
        res.checks += 1
        a, ea = hb_shape(ours, lines, extra, tmp, variations)
        b, eb = hb_shape(ref, lines, extra, tmp, variations)
        if a is None:
            res.fail("%s: hb-shape cannot shape otvar's instance (%s)" % (lab, ea), "shaping: hb-shape fails")
            return
        if b is None:
            res.notes.append("%s: hb-shape fails on the reference (%s): not compared" % (lab, eb))
            return
        if len(a) != len(lines) or len(b) != len(lines):
            res.fail("%s %s: hb-shape printed %d and %d lines for %d strings" % (lab, cat, len(a), len(b), len(lines)),
                     "shaping: line count")
            continue
        bad = [i for i in range(len(lines)) if a[i] != b[i]]
        if not bad:
            continue
        i = bad[0]
        why = ""
        if graft_src:
            g = os.path.join(tmp, "graft.ttf")
            graft(graft_src[0], graft_src[1], g)
            c, _ = hb_shape(g, [lines[k] for k in bad[:50]], extra, tmp, variations)
            if c is not None:
                same = sum(1 for k, line in zip(bad[:50], c) if line == a[k])
                why = (" (the reference with otvar's layout tables shapes like otvar: the layout "
                       "tables differ)" if same == len(c) else
                       " (%d of %d also differ with otvar's layout tables grafted into the reference: "
                       "not (only) layout)" % (len(c) - same, len(c)))
        res.fail("%s %s: %d of %d strings shape differently%s; first %r (%s)%s\n      otvar     %s\n      reference %s"
                 % (lab, cat, len(bad), len(lines), " with " + " ".join(extra) if extra else "",
                    lines[i][:40], codepoints(lines[i][:12]), why, a[i][:300], b[i][:300]),
                 "shaping: " + cat)


def feature_params_bytes(path):
    """Bytes of the distinct FeatureParams (size, ssXX, cvXX) in GSUB/GPOS: the current hb-subset
    drops the ssXX/cvXX ones (their UI name IDs), which otvar keeps; they are added to its size
    before comparing."""
    f = TTFont(path, lazy=True)
    seen = set()
    total = 0
    for tag in ("GSUB", "GPOS"):
        if tag not in f or not f[tag].table.FeatureList:
            continue
        for rec in f[tag].table.FeatureList.FeatureRecord:
            p = rec.Feature.FeatureParams
            if p is None:
                continue
            key = (tag, type(p).__name__, tuple(sorted((k, str(v)) for k, v in vars(p).items())))
            if key in seen:
                continue
            seen.add(key)
            name = type(p).__name__
            if name == "FeatureParamsSize":
                total += 10
            elif name == "FeatureParamsStylisticSet":
                total += 4
            elif name == "FeatureParamsCharacterVariants":
                total += 14 + 3 * len(getattr(p, "Character", []) or [])
    return total


def check_sizes(res, lab, ours, ref, hb, ref_name, required=True):
    """Table sizes against the reference (required: a failure past the limit; otherwise noted:
    partial instances, which the issue does not bound)."""
    la = table_lengths(ours)
    lr = table_lengths(ref) if ref else {}
    lh = table_lengths(hb) if hb else {}
    row = {}
    for tag in LAYOUT:
        a, r, h = la.get(tag), lr.get(tag) if ref else None, lh.get(tag) if hb else None
        if a is None and not r and not h:
            continue
        row[tag] = (a, r, h)
        if ref is None:
            continue
        res.checks += 1
        allowance = 0
        if ref_name == "hb-subset" and tag == "GSUB" and r:
            # what hb-subset drops and otvar keeps (FeatureParams UI names)
            allowance = max(0, feature_params_bytes(ours) - feature_params_bytes(ref))
        limit = max((r or 0) * RATIO, (r or 0) + FLOOR) + allowance
        if (a or 0) > limit:
            msg = "%s: %s %d bytes, %s %d (ratio %.3f, limit %d)" % (
                lab, tag, a, ref_name, r or 0, a / r if r else float("inf"), int(limit))
            if required:
                res.fail(msg, "size " + tag)
            else:
                res.notes.append(msg + ": partial instance, reported only")
        if a is None and r:
            res.notes.append("%s: otvar drops %s (%s keeps %d bytes)" % (lab, tag, ref_name, r))
    res.rows.append((lab, row))


def check_ots(res, lab, ours, ref, always):
    if not shutil.which("ots-sanitize"):
        return
    res.checks += 1
    ok, msg = ots(ours)
    if ok:
        return
    rok = ots(ref)[0] if ref else None
    if always or rok:
        res.fail("%s: ots-sanitize rejects otvar's instance (%s)%s" % (
            lab, msg, "; the reference passes" if rok else ""), "ots-sanitize")
    else:
        res.notes.append("%s: ots-sanitize rejects both instances (%s)" % (lab, msg))


def check_against(res, lab, ours, ref, hb, who, always_ots):
    """ours and the reference instance (made by who) have as many glyphs, then their sizes and
    OTS checks; False when the glyph counts differ (nothing else to compare)"""
    if num_glyphs(ref) != num_glyphs(ours):
        res.fail("%s: glyph counts differ (otvar %d, %s %d)" % (lab, num_glyphs(ours), who, num_glyphs(ref)),
                 "glyph count")
        return False
    check_sizes(res, lab, ours, ref, hb, who)
    check_ots(res, lab, ours, ref, always_ots)
    return True


def run_chunk(chunk):
    return chunk[5], run_font(chunk[:5])


def run_font(job):
    """One font at the given locations; returns a Result (pickled back to the parent)."""
    path, name, kind, locs, extra = job
    t0 = time.time()
    res = Result(name)
    res.nlocs = len(locs) + (1 if extra.get("partial") else 0)
    tmp = tempfile.mkdtemp(prefix="otv-layout-")
    try:
        src = TTFont(path)
        strings = shaping_strings(src)
        hb_jobs = [(os.path.join(tmp, "hb%d.otf" % k), loc) for k, (_, _, loc) in enumerate(locs)]
        hb_done = hb_instances(path, hb_jobs, tmp)
        if kind == "cff2" and not hb_done:
            res.notes.append("%s: no hb-subset (harfbuzzjs or node missing): not compared" % name)
            return res
        for k, (label, oargs, loc) in enumerate(locs):
            lab = "%s %s" % (name, label)
            ours = os.path.join(tmp, "o%d.ttf" % k)
            hb = hb_jobs[k][0] if hb_done.get(hb_jobs[k][0]) else None
            res.checks += 1
            err = otvar_instance(path, oargs, ours)
            if err:
                res.fail("%s: otvar instance failed: %s" % (lab, err), "otvar fails")
                continue
            if kind == "cff2":
                if hb is None:
                    res.fail("%s: hb-subset failed" % lab, "hb-subset fails")
                    continue
                if not check_against(res, lab, ours, hb, hb, "hb-subset", extra.get("always_ots")):
                    continue
                ref = os.path.join(tmp, "r%d.otf" % k)
                graft(ours, hb, ref)
                compare_shaping(res, lab, ours, ref, strings, tmp)
            else:
                ref = os.path.join(tmp, "r%d.ttf" % k)
                err = fonttools_instance(path, loc, ref)
                if err:
                    res.notes.append("%s: fontTools fails (%s): not compared" % (lab, err))
                    continue
                if not check_against(res, lab, ours, ref, hb, "fontTools", extra.get("always_ots")):
                    continue
                compare_shaping(res, lab, ours, ref, strings, tmp, graft_src=(ref, ours))
            for f in (ours, ref):
                if os.path.exists(f):
                    os.unlink(f)
        if extra.get("partial"):
            partial(res, path, name, extra["partial"], strings, tmp)
    except Exception as e:  # noqa: BLE001 (a crash in the test is a failure, with the font named)
        import traceback
        res.fail("%s: test error %s: %s\n%s" % (name, type(e).__name__, e, traceback.format_exc()[-800:]),
                 "test error")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        res.seconds = time.time() - t0
    return res


def partial(res, path, name, spec, strings, tmp):
    """A partial instance (pin = the axes pinned, keep = the axes kept): otvar's and fontTools'
    shaped at several values of the kept axes (hb-shape --variations)."""
    pin, keep, values = spec
    lab = "%s partial %s, %s kept" % (name, loc_text(pin), ",".join(keep))
    ours = os.path.join(tmp, "partial-o.ttf")
    ref = os.path.join(tmp, "partial-r.ttf")
    res.checks += 1
    err = otvar_instance(path, ["--var", spec_of(pin), "--keep", ",".join(keep)], ours)
    if err:
        res.fail("%s: otvar instance failed: %s" % (lab, err), "otvar fails")
        return
    err = fonttools_instance(path, dict(pin), ref)
    if err:
        res.notes.append("%s: fontTools fails (%s): not compared" % (lab, err))
        return
    check_sizes(res, lab, ours, ref, None, "fontTools", required=False)
    check_ots(res, lab, ours, ref, True)
    for v in values:
        compare_shaping(res, "%s at %s" % (lab, v), ours, ref, strings, tmp, variations=v)


# ---- the font list ----
def named_locations(font, indices):
    fvar = font["fvar"]
    n = len(fvar.instances)
    idx = range(n) if indices is None else [i for i in indices if i < n]
    return [("named %d (%s)" % (i, loc_text(fvar.instances[i].coordinates)), ["--named", str(i)],
             dict(fvar.instances[i].coordinates)) for i in idx]


def full_location(font, given):
    loc = {a.axisTag: a.defaultValue for a in font["fvar"].axes}
    loc.update(given)
    return loc


def font_jobs(tmp, gen_dir):
    """[(path, name, kind, locations, extra)], skipped [(name, why)]"""
    sys.path.insert(0, HERE)
    import test_instance  # noqa: E402 (its GPOS variant and FeatureVariations locations)
    jobs, skipped = [], []
    featvar_locs = dict(test_instance.FEATURE_VARIATION_LOCATIONS)
    cands = []
    for n in sorted(os.listdir(FONTS)):
        if n.endswith((".ttf", ".otf")):
            cands.append((os.path.join(FONTS, n), n))
    karla = os.path.join(ROOT, "fonts", "Karla-VF.ttf")
    if os.path.exists(karla):
        cands.append((karla, "Karla-VF.ttf"))
    cands.append((test_instance.gpos_variant(tmp), "gpos-single2-cursive.ttf"))
    if CACHE and os.path.isdir(CACHE):
        for n in sorted(os.listdir(CACHE)):
            if n.endswith((".ttf", ".otf")):
                cands.append((os.path.join(CACHE, n), n))
    else:
        skipped.append(("$OTV_FONT_CACHE", "not set or missing: no real fonts (tests/fetch-fonts.sh)"))
    for path, n in cands:
        if n in SKIP:
            skipped.append((n, SKIP[n]))
            continue
        f = TTFont(path, lazy=True)
        if "fvar" not in f.reader:
            continue
        has_layout = any(t in f.reader for t in LAYOUT)
        if not has_layout:
            continue
        kind = "cff2" if "CFF2" in f.reader else "glyf" if "glyf" in f.reader else None
        if kind is None:
            continue
        if not f["fvar"].instances:
            skipped.append((n, "no named instances"))
            continue
        sub = None if FULL or kind == "cff2" else SUBSET.get(n)
        locs = named_locations(f, sub)
        for k, given in enumerate(featvar_locs.get(n, [])):
            loc = full_location(f, given)
            locs.append(("feature variations %d (%s)" % (k, loc_text(loc)), ["--var", spec_of(loc)], loc))
        jobs.append((path, n, kind, locs, {}))
    # the generated fonts
    for n in ("featvars_far.ttf", "gpos_overflow.ttf"):
        path = os.path.join(gen_dir, n)
        if not os.path.exists(path):
            continue
        f = TTFont(path)
        sub = None if FULL else SUBSET.get(n)
        locs = named_locations(f, sub)
        extra = {"always_ots": True}
        if n == "featvars_far.ttf":
            # both sides of each condition: wght >= 0.5 (user 650) and wght >= 0.8 (800) with
            # wdth <= -0.5 (87.5)
            for given in ({"wght": 649}, {"wght": 650}, {"wght": 799, "wdth": 87.5},
                          {"wght": 800, "wdth": 87.5}, {"wght": 800, "wdth": 88}, {"wght": 555, "wdth": 90}):
                loc = full_location(f, given)
                locs.append(("var %s" % loc_text(loc), ["--var", spec_of(loc)], loc))
            extra["partial"] = ({"wdth": 75.0}, ["wght"],
                                ["wght=100", "wght=400", "wght=649", "wght=650", "wght=800", "wght=900"])
        else:
            loc = full_location(f, {"wght": 555})
            locs.append(("var %s" % loc_text(loc), ["--var", spec_of(loc)], loc))
        jobs.append((path, n, "glyf", locs, extra))
    return jobs, skipped


def generate(gen_dir):
    script = os.path.join(FONTS, "make_layout_stress.py")
    t = time.time()
    rc, so, se = run([sys.executable, script, gen_dir])
    out = (so + se).decode("utf-8", "replace").strip()
    return rc, out, time.time() - t


def fmt(v):
    return "-" if v is None else str(v)


def main():
    if not OTVAR or not os.access(OTVAR, os.X_OK):
        print("SKIP OTVAR not set or not executable")
        return 77
    if not shutil.which("hb-shape"):
        print("SKIP hb-shape not installed (Debian libharfbuzz-bin)")
        return 77
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="otv-layout-main-")
    failures, checks = [], 0
    try:
        gen_dir = os.path.join(tmp, "gen")
        rc, out, secs = generate(gen_dir)
        print(out)
        print("generated in %.1f s" % secs)
        if rc != 0:
            failures.append(("generate", "make_layout_stress.py failed (exit %d)" % rc))
        jobs, skipped = font_jobs(tmp, gen_dir)
        for n, why in skipped:
            print("SKIP %s: %s" % (n, why))
        if not shutil.which("ots-sanitize"):
            print("SKIP ots-sanitize not installed (Debian opentype-sanitizer): no OTS checks")
        ver = hb_version()
        print("hb-subset reference: %s" % (ver or "missing (CFF2 fonts not compared)"))
        print("hb-shape: %s" % run(["hb-shape", "--version"])[1].decode().splitlines()[0])
        # the fonts cut into chunks of ~20 s (COST), the longest first, so that the workers
        # finish together; a font's chunks are merged back in order
        chunks = []
        for path, name, kind, locs, extra in jobs:
            n = max(1, int(20 / COST.get(name, 0.2)))
            for k in range(0, len(locs), n):
                chunks.append((path, name, kind, locs[k:k + n], extra if k == 0 else {
                    key: v for key, v in extra.items() if key != "partial"}, k))
        chunks.sort(key=lambda c: -COST.get(c[1], 0.2) * len(c[3]))
        ncpu = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        nproc = max(1, int(os.environ.get("OTV_JOBS") or ncpu or 1))
        print("%d fonts, %d locations, %d workers" % (len(jobs), sum(len(j[3]) for j in jobs), nproc))
        sys.stdout.flush()
        parts = {}
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(nproc) as pool:
            for first, r in pool.imap_unordered(run_chunk, chunks):
                parts.setdefault(r.label, []).append((first, r))
                print("%s %-32s %3d of %3d locations compared %6.1f s%s" % (
                    "ok  " if not r.fails else "FAIL", r.label, len(r.rows), r.nlocs, r.seconds,
                    "" if not r.fails else "  (%d failures)" % len(r.fails)))
                sys.stdout.flush()
        results = []
        for label in sorted(parts):
            merged = Result(label)
            for _, r in sorted(parts[label], key=lambda fr: fr[0]):
                merged.fails += r.fails
                merged.notes += r.notes
                merged.rows += r.rows
                merged.checks += r.checks
                merged.seconds += r.seconds
                merged.nlocs += r.nlocs
            results.append(merged)
        for r in results:
            checks += r.checks
            failures += r.fails
        # failures: the first of each font and kind in full (shaping and failures to write
        # first, sizes after), then how many more
        groups = {}
        for r in results:
            for cat, msg in r.fails:
                groups.setdefault((not cat.startswith("size"), r.label, cat), []).append(msg)
        print()
        for (_, font, cat), msgs in sorted(groups.items(), key=lambda kv: (not kv[0][0], kv[0][1], kv[0][2])):
            print("FAIL " + msgs[0])
            if len(msgs) > 1:
                print("     (and %d more %s failures of %s)" % (len(msgs) - 1, cat, font))
        notes = [n for r in results for n in r.notes]
        for n in notes[:40]:
            print("NOTE " + n)
        # sizes: one row per font, location and table
        print("\n| font | location | table | otvar | reference | hb-subset | otvar/reference |")
        print("|---|---|---|---:|---:|---:|---:|")
        worst = {}
        for r in results:
            for lab, row in r.rows:
                loc = lab[len(r.label) + 1:]
                for tag, (a, ref, h) in row.items():
                    ratio = "%.3f" % (a / ref) if a and ref else "-"
                    mark = "" if not (a and ref) or a <= max(ref * RATIO, ref + FLOOR) else " !"
                    print("| %s | %s | %s | %s | %s | %s | %s%s |" % (r.label, loc, tag, fmt(a), fmt(ref), fmt(h), ratio, mark))
                    if a and ref:
                        w = worst.setdefault((r.label, tag), [0, None])
                        if a / ref > w[0]:
                            w[0], w[1] = a / ref, (a, ref, h, loc)
        print("\nworst ratio per font and table (reference: fontTools for TrueType, hb-subset for CFF2):")
        for (font, tag), (ratio, (a, ref, h, loc)) in sorted(worst.items()):
            print("  %-40s %s %8d / %8d (hb-subset %s) %.3f%s  at %s" % (
                font, tag, a, ref, fmt(h), ratio, " !" if a > max(ref * RATIO, ref + FLOOR) else "", loc))
        cats = {}
        for cat, _ in failures:
            cats[cat] = cats.get(cat, 0) + 1
        print()
        for cat in sorted(cats):
            fonts = sorted({f for (_, f, c) in groups if c == cat})
            print("failures: %-24s %4d  (%s)" % (cat, cats[cat], ", ".join(fonts)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("test_layout_instance: %d checks, %d failed, %.0f s" % (checks, len(failures), time.time() - t0))
    return 1 if failures or not checks else 0


if __name__ == "__main__":
    sys.exit(main())
