"""@brief No include loop between the project's files (issue 45): a file X.h and its X.cpp are one unit;
a unit that includes a header of another unit depends on it; the check fails on any cycle of units and
names it. Layers are checked too: core includes no gpu/render/ui/app header, gpu none of render/ui/app,
render none of ui/app, ui none of app.
usage: python3 tests/ci/check_includes.py [ROOT]"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
LAYERS = ["core", "gpu", "render", "ui", "app"]  # each may include only those before it
SOURCES = (".h", ".hpp", ".cuh", ".cpp", ".cu")


def project_files(root):
    for top in LAYERS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d not in ("build", "third_party")]
            for name in files:
                if name.endswith(SOURCES):
                    yield os.path.relpath(os.path.join(folder, name), root)


def unit(path):
    """The unit a file belongs to: its folder-free stem within its top folder (X.h + X.cpp + X.cu, and
    XImpl.h: a class's private implementation is part of it)."""
    top = path.split(os.sep)[0]
    stem = os.path.splitext(os.path.basename(path))[0]
    return top + ":" + (stem[:-4] if stem.endswith("Impl") and len(stem) > 4 else stem)


def resolve(include, path, by_suffix):
    """The project file an include names: relative to the including file, else by its path's tail."""
    local = os.path.normpath(os.path.join(os.path.dirname(path), include))
    if local in by_suffix.get(os.path.basename(include), []):
        return local
    matches = [p for p in by_suffix.get(os.path.basename(include), []) if p.endswith(os.sep + include) or p == include]
    return matches[0] if len(matches) == 1 else None


def graph(root):
    files = list(project_files(root))
    by_suffix = {}
    for f in files:
        by_suffix.setdefault(os.path.basename(f), []).append(f)
    edges, layer_errors = {}, []
    for f in files:
        text = open(os.path.join(root, f), errors="replace").read()
        for inc in INCLUDE.findall(text):
            target = resolve(inc, f, by_suffix)
            if not target:
                continue
            a, b = unit(f), unit(target)
            if LAYERS.index(target.split(os.sep)[0]) > LAYERS.index(f.split(os.sep)[0]):
                layer_errors.append("%s includes %s (a layer above it)" % (f, target))
            if a != b:
                edges.setdefault(a, set()).add(b)
    return edges, layer_errors


def cycles(edges):
    """Strongly connected components of more than one unit (Tarjan), each sorted."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
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
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    edges, layer_errors = graph(root)
    found = cycles(edges)
    for c in found:
        print("include loop: " + " -> ".join(c))
    for e in layer_errors:
        print("layer: " + e)
    units = len(set(edges) | {w for ws in edges.values() for w in ws})
    if units < 100:
        print("check_includes: only %d units found; the walk is broken" % units)
        return 1
    print("check_includes: %d units, %d loops, %d layer errors" % (units, len(found), len(layer_errors)))
    return 1 if found or layer_errors else 0


if __name__ == "__main__":
    sys.exit(main())
