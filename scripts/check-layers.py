#!/usr/bin/env python3
"""check-layers.py - the library's source files call and include only downward (issue 19).

usage: scripts/check-layers.py BUILD_DIR   (a configured and built CMake build of otvar)

A module is a .c file with the .h of the same name (src/glyf.c + src/glyf.h), or a header alone.
Module A depends on module B when a file of A includes a header of B, or when A's object file
uses a symbol B's object file defines (read with nm from the static library's objects in
BUILD_DIR). Fails (exit 1), printing them, when
  - the dependencies have a cycle (every strongly connected component of more than one module
    is printed with the edges that close it), or
  - a module depends on a higher layer: src/core/ knows no other layer; the table modules of
    src/ do not know face.h or the files of the public API on a face or location (face.c,
    location.c, outline.c, metrics.c); src/raster/ knows only src/core/; src/instance/ is the top.
Prints the layers and the module count when everything holds.
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
API = {"face", "location", "outline", "metrics"}  # the public API on a face or a location


def module_of(path):
    """src-relative path without extension: src/instance/glyf.c -> instance/glyf."""
    rel = os.path.relpath(path, SRC)
    return os.path.splitext(rel)[0]


def layer_of(mod):
    if mod.startswith("core/"):
        return 0, "core"
    if mod.startswith("raster/"):
        return 1, "raster"
    if mod.startswith("instance/"):
        return 3, "instance"
    if mod in API:
        return 2, "api"
    return 1, "tables"


def includes(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if m:
                out.append(m.group(1))
    return out


def resolve(inc, from_path):
    for base in (os.path.dirname(from_path), SRC):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.exists(p) and p.startswith(SRC + os.sep):
            return p
    return None  # otvar.h, system headers


def nm_symbols(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDRBCV":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    objdir = os.path.join(sys.argv[1], "CMakeFiles", "otvar.dir", "src")
    if not os.path.isdir(objdir):
        sys.exit(f"check-layers: no objects in {objdir}: build the otvar target first")
    edges = defaultdict(dict)  # a -> b -> reason
    modules = set()
    for dirpath, _, files in os.walk(SRC):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            a = module_of(path)
            modules.add(a)
            for inc in includes(path):
                p = resolve(inc, path)
                if p:
                    b = module_of(p)
                    if b != a:
                        edges[a].setdefault(b, f"{os.path.relpath(path, ROOT)} includes {inc}")
    owner, uses = {}, {}
    for dirpath, _, files in os.walk(objdir):
        for name in files:
            if not name.endswith(".c.o"):
                continue
            obj = os.path.join(dirpath, name)
            mod = os.path.relpath(obj, objdir)[: -len(".c.o")]
            if not os.path.exists(os.path.join(SRC, mod + ".c")):
                continue  # left in the build directory by a source since moved or removed
            defined, used = nm_symbols(obj)
            for s in defined:
                owner[s] = mod
            uses[mod] = used
    for a, used in uses.items():
        for s in sorted(used):
            b = owner.get(s)
            if b and b != a:
                edges[a].setdefault(b, f"{a}.c calls {s} ({b}.c)")
    problems = []
    # layering: no dependency on a higher layer
    for a in sorted(edges):
        for b, why in sorted(edges[a].items()):
            la, lb = layer_of(a)[0], layer_of(b)[0]
            if layer_of(a)[1] == "raster" and layer_of(b)[1] not in ("core", "raster"):
                problems.append(f"raster knows only core: {why}")
            elif la < lb:
                problems.append(f"{layer_of(a)[1]} depends on {layer_of(b)[1]}: {why}")
    # cycles: Tarjan's strongly connected components
    index, low, stack, on, sccs = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(modules | set(edges)):
        if v not in index:
            strong(v)
    for comp in sccs:
        inside = [why for a in comp for b, why in edges.get(a, {}).items() if b in comp]
        problems.append("cycle among " + ", ".join(comp) + ":\n    " + "\n    ".join(inside))
    if problems:
        print("check-layers: %d problem(s)" % len(problems))
        for p in problems:
            print("  " + p)
        return 1
    by_layer = defaultdict(list)
    for m in modules:
        by_layer[layer_of(m)].append(m)
    for key in sorted(by_layer):
        print(f"layer {key[0]} {key[1]}: {' '.join(sorted(by_layer[key]))}")
    n_edges = sum(len(v) for v in edges.values())
    print(f"check-layers: {len(modules)} modules, {n_edges} dependencies, no cycle, every one downward")
    return 0


if __name__ == "__main__":
    sys.exit(main())
