#!/usr/bin/env python3
"""make_cff2_chained_blend.py - AdobeVFPrototype_vsindex.otf with chained blends:
AdobeVFPrototype_chained_blend.otf. In every glyph the first blend
    d1..dn  x11..xnk  n blend
is split in two, the second taking the first one's results as its defaults:
    d1..dn  h11..hnk  n blend  r11..rnk  n blend      (h = int(x / 2), r = x - h)
which draws exactly the same outline at every location (a blend's result is its default plus
the scaled deltas: the two add up). A partial instance must rewrite the chain (issue 21).
usage: make_cff2_chained_blend.py SRC OUT"""
import sys

from fontTools.ttLib import TTFont


def main():
    src, out = sys.argv[1], sys.argv[2]
    f = TTFont(src)
    cff = f["CFF2"].cff
    top = cff.topDictIndex[0]
    store = top.VarStore.otVarStore
    changed = 0
    for name in f.getGlyphOrder():
        cs = top.CharStrings[name]
        cs.decompile()
        prog = cs.program
        vsindex = 0
        if "vsindex" in prog:
            vsindex = prog[prog.index("vsindex") - 1]
        k = store.VarData[vsindex].VarRegionCount
        if "blend" not in prog:
            continue
        b = prog.index("blend")
        n = prog[b - 1]
        start = b - 1 - n * (k + 1)
        ops = prog[start:b - 1]
        if start < 0 or any(not isinstance(v, (int, float)) for v in ops):
            continue
        defaults, deltas = ops[:n], ops[n:]
        half = [int(x / 2) for x in deltas]
        rest = [x - h for x, h in zip(deltas, half)]
        cs.program = prog[:start] + defaults + half + [n, "blend"] + rest + [n, "blend"] + prog[b + 1:]
        changed += 1
    if not changed:
        sys.exit("no blend found")
    f.save(out)
    print("%s: %d glyphs with a chained blend" % (out, changed))


if __name__ == "__main__":
    main()
