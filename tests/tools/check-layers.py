#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Dependencies point one way: checks the edges of tests/tools/layers.tsv on a built tree.

  check-layers.py symbols  SOURCE BUILD TABLE PUBLIC_SYM
  check-layers.py includes SOURCE BUILD TABLE

symbols: every symbol a layer's objects leave undefined (nm -u) must be defined by the layer
itself, by a layer it may use, or outside gpuenv (libc, libelf …). A call from rules/ into
probe_run_all() links, since every layer is linked whole into libgpuenv; this check fails it.
includes: every header of SOURCE (or generated in BUILD) that the compiler read for an object,
from ninja's dependency log (ninja -t deps, what the compiler's -MD files said), must belong
to the object's layer, a layer it may use, or the public header: <…> and ../ spellings resolve
to the same file, so no spelling escapes it.

Both fail, never pass, on missing input: a table without rows, a row whose directory or
objects are missing, a layer with no defined symbol or no dependency data, a source
directory under src/ that no row names, a "uses" naming no row.
"""
import glob
import os
import shutil
import subprocess
import sys


class Fail(Exception):
    pass


def read_table(path):
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise Fail(f"cannot read the layer table {path}: {e.strerror}")
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != 4 or not all(f):
            raise Fail(f"{path}:{n}: want 4 tab-separated fields (layer dir objects uses), got {line!r}")
        layer, d, objects, uses = f
        rows.append({"layer": layer, "dir": d.rstrip("/"), "objects": objects,
                     "uses": set() if uses == "-" else set(uses.split())})
    if not rows:
        raise Fail(f"{path}: no layer rows: nothing would be checked")
    names = {r["layer"] for r in rows}
    if len(names) != len(rows):
        raise Fail(f"{path}: a layer is named twice")
    for r in rows:
        unknown = r["uses"] - names - {"*", "public"}
        if unknown:
            raise Fail(f"{path}: layer {r['layer']} uses {' '.join(sorted(unknown))}, which no row names")
    return rows


def check_dirs(source, rows):
    """Every row's directory holds C files, and every src/ directory with C files has a row."""
    if not os.path.isdir(source):
        raise Fail(f"source directory {source} does not exist")
    dirs = {r["dir"] for r in rows}
    for r in rows:
        d = os.path.join(source, r["dir"])
        if not os.path.isdir(d) or not glob.glob(os.path.join(d, "*.c")):
            raise Fail(f"layer {r['layer']}: {d} does not exist or holds no .c file")
    for d in sorted(glob.glob(os.path.join(source, "src", "*", ""))):
        rel = os.path.relpath(d, source)
        if glob.glob(os.path.join(d, "**", "*.c"), recursive=True) and rel not in dirs:
            raise Fail(f"{rel}/ holds C sources but no row of the layer table names it: "
                       "add one line (layer, dir, objects, uses) to tests/tools/layers.tsv")


def layer_of(rel, rows):
    """The row whose directory holds the file rel (relative to the source or build root)."""
    d = os.path.dirname(rel)
    for r in rows:
        if d == r["dir"] or (r["dir"] != "src" and d.startswith(r["dir"] + "/")):
            return r
    return None


def object_files(build, r):
    o = r["objects"]
    if o.endswith(".a"):
        p = os.path.join(build, o)
        if not os.path.isfile(p):
            raise Fail(f"layer {r['layer']}: {p} does not exist (built?)")
        return [p]
    found = sorted(glob.glob(os.path.join(build, o)))
    if not found:
        raise Fail(f"layer {r['layer']}: no object matches {os.path.join(build, o)} (built?)")
    return found


def nm(files):
    """(defined, undefined) global symbols of the objects."""
    tool = os.environ.get("NM", "nm")
    if not shutil.which(tool):
        raise Fail(f"{tool} not found (binutils)")
    p = subprocess.run([tool, "-P", "-g"] + files, capture_output=True, text=True)
    if p.returncode != 0:
        raise Fail(f"{tool} -P -g {' '.join(files)}: {p.stderr.strip()}")
    defined, undefined = set(), set()
    for line in p.stdout.splitlines():
        f = line.split()
        # "archive[member.o]:" headers end with a colon; symbol lines are "name type [value size]";
        # U, and w or v (weak, no default), are undefined.
        if len(f) >= 2 and not line.endswith(":"):
            (undefined if f[1] in ("U", "w", "v") else defined).add(f[0])
    return defined, undefined - defined


def read_public(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise Fail(f"cannot read {path}: {e.strerror}")
    names = set()
    for line in text.splitlines():
        line = line.split("#")[0].strip().rstrip(";")
        if line.isidentifier() and line not in ("global", "local"):
            names.add(line)
    if not names:
        raise Fail(f"{path} exports no symbol")
    return names


def check_symbols(source, build, rows, public):
    defined, undefined = {}, {}
    for r in rows:
        files = object_files(build, r)
        defined[r["layer"]], undefined[r["layer"]] = nm(files)
        if not defined[r["layer"]]:
            raise Fail(f"layer {r['layer']}: {' '.join(files)} define no symbol")
    owners = {}
    for layer, syms in defined.items():
        for s in syms:
            owners.setdefault(s, set()).add(layer)
    bad, edges = [], 0
    for r in rows:
        for s in sorted(undefined[r["layer"]]):
            by = owners.get(s, set()) - {r["layer"]}
            if not by:
                continue  # outside gpuenv
            edges += 1
            if "*" in r["uses"] or by & r["uses"] or ("public" in r["uses"] and s in public):
                continue
            bad.append(f"{r['layer']} uses {s}, defined in {' '.join(sorted(by))}, "
                       f"which {r['layer']} may not use (may use: {' '.join(sorted(r['uses'])) or 'none'})")
    if edges == 0:
        raise Fail("no layer uses a symbol of another: the objects cannot be gpuenv's")
    return bad, f"{len(rows)} layers, {edges} cross-layer symbol references"


def ninja_deps(build):
    tool = os.environ.get("NINJA", "ninja")
    if not shutil.which(tool):
        raise Fail(f"{tool} not found")
    if not os.path.isdir(build):
        raise Fail(f"build directory {build} does not exist")
    p = subprocess.run([tool, "-C", build, "-t", "deps"], capture_output=True, text=True)
    if p.returncode != 0:
        raise Fail(f"{tool} -C {build} -t deps: {p.stderr.strip() or p.stdout.strip()}")
    deps, cur = {}, None
    for line in p.stdout.splitlines():
        if not line.strip():
            cur = None
        elif not line[0].isspace():
            cur = line.split(":")[0]
            deps[cur] = []
        elif cur is not None:
            deps[cur].append(line.strip())
    return deps


def check_includes(source, build, rows):
    source, build = os.path.realpath(source), os.path.realpath(build)

    def rel(p):
        a = os.path.realpath(os.path.join(build, p))
        for root in (build, source):  # build first: it may lie inside the source tree
            if a.startswith(root + "/"):
                return os.path.relpath(a, root)
        return None  # a system header

    seen = {r["layer"]: 0 for r in rows}
    bad = set()
    for obj, files in ninja_deps(build).items():
        srcs = [f for f in files if f.endswith(".c")]
        src = rel(srcs[0]) if srcs else None
        if not src:
            continue
        r = layer_of(src, rows)
        if not r:
            if src.startswith(("src/", "tools/")):
                raise Fail(f"{src}: no row of the layer table holds it")
            continue  # tests, fuzz targets, fakes: not layers
        seen[r["layer"]] += 1
        for h in files:
            hr = rel(h)
            if not hr or hr.endswith(".c") or hr.startswith("include/gpuenv/"):
                continue
            owner = layer_of(hr, rows)
            if owner is None:
                if hr.startswith(("src/", "tools/")):
                    bad.add(f"{src}: includes {hr}, which no layer holds")
                continue
            if owner is r or "*" in r["uses"] or owner["layer"] in r["uses"]:
                continue
            bad.add(f"{src}: layer {r['layer']} includes {hr} of layer {owner['layer']}")
    for layer, n in seen.items():
        if n == 0:
            raise Fail(f"layer {layer}: ninja's dependency log names no object of it (built?)")
    return sorted(bad), f"{len(rows)} layers, {sum(seen.values())} objects"


def main(argv):
    if len(argv) < 5 or argv[1] not in ("symbols", "includes") or (argv[1] == "symbols") != (len(argv) == 6):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 64
    mode, source, build, table = argv[1:5]
    try:
        rows = read_table(table)
        check_dirs(source, rows)
        if mode == "symbols":
            bad, what = check_symbols(source, build, rows, read_public(argv[5]))
        else:
            bad, what = check_includes(source, build, rows)
    except Fail as e:
        print(f"FAIL: check-layers {mode}: {e}")
        return 1
    for b in bad:
        print(b)
    if bad:
        print(f"FAIL: check-layers {mode}: {len(bad)} edge(s) against {table}")
        return 1
    print(f"check-layers {mode}: ok ({what})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
