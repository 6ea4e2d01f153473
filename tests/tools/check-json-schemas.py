#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The JSON Schemas of docs/schema/ (draft 2020-12) hold for what gpuenv writes: every golden
tests/fixtures/*/expected/report.json against snapshot.json, every doctor.json against
doctor.json (whose `snapshot` is a snapshot.json), `gpuenv scan --json` over the binary
corpus of tests/fuzz/corpus/fatbin, a wheel built here, a garbage file and a missing path,
without devices and with devices and a driver, against scan.json, and `gpuenv explain --json`
over pasted error texts against explain.json (its own members) and doctor.json (the rest).

The schemas must also be strict enough to matter: each mutation below (a misspelt state or
severity, a missing or unknown member, a value on an absent fact, a verdict whose exit code
disagrees …) applied to a real document must fail validation; a schema that lets one pass
fails this test.

Usage: check-json-schemas.py GPUENV SOURCE_ROOT
Needs python3-jsonschema (4.x, Draft202012Validator); without it the test is skipped (77).
"""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile
import zipfile

try:
    import jsonschema
except ImportError:
    print("SKIP json-schemas: python3-jsonschema is not installed "
          "(apt-get install python3-jsonschema)")
    sys.exit(77)

SCHEMAS = ("snapshot", "doctor", "scan", "explain")


def validators(top):
    schemas = {}
    for name in SCHEMAS:
        with open(os.path.join(top, "docs/schema", name + ".json")) as f:
            schemas[name] = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schemas[name])
    try:  # jsonschema >= 4.18
        from referencing import Registry, Resource
        reg = Registry().with_resources(
            [(s["$id"], Resource.from_contents(s)) for s in schemas.values()])
        return {n: jsonschema.Draft202012Validator(s, registry=reg) for n, s in schemas.items()}
    except ImportError:  # Debian 12: jsonschema 4.10, RefResolver (a fresh one per document)
        store = {s["$id"]: s for s in schemas.values()}

        class Fresh:
            def __init__(self, schema):
                self.schema = schema

            def iter_errors(self, doc):
                resolver = jsonschema.RefResolver.from_schema(self.schema, store=store)
                return jsonschema.Draft202012Validator(self.schema, resolver=resolver).iter_errors(doc)

        return {n: Fresh(s) for n, s in schemas.items()}


def errors(v, doc):
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message[:300]}"
            for e in v.iter_errors(doc)]


def first_fact(node, want_state=None):
    """The first fact of a snapshot tree (with want_state, the first in that state)."""
    if isinstance(node, dict):
        if isinstance(node.get("state"), str):
            return node if want_state in (None, node["state"]) else None
        children = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return None
    for c in children:
        f = first_fact(c, want_state)
        if f is not None:
            return f
    return None


def mutations_snapshot():
    def set_state(d):
        first_fact(d["driver"])["state"] = "ok"

    def value_on_absent(d):
        first_fact(d, "absent")["value"] = "x"

    def extra_member(d):
        first_fact(d["host"])["note"] = "x"

    def bare_leaf(d):
        d["host"]["kernel_release"] = "6.1.0"

    def list_value(d):
        first_fact(d, "present")["value"] = ["a"]

    def raw_on_present(d):
        first_fact(d, "present")["raw"] = "x"

    return [
        ("missing section host", lambda d: d.pop("host")),
        ("unknown section", lambda d: d.__setitem__("gpu", {})),
        ("schema_version 1 (written only by older gpuenv)", lambda d: d.__setitem__("schema_version", 1)),
        ("schema_version 3", lambda d: d.__setitem__("schema_version", 3)),
        ("unknown fact state", set_state),
        ("value on an absent fact", value_on_absent),
        ("unknown member in a fact", extra_member),
        ("bare scalar leaf", bare_leaf),
        ("list as a fact value", list_value),
        ("raw on a present fact", raw_on_present),
    ]


def mutations_doctor():
    def finding(d):
        if not d["findings"]:
            raise LookupError
        return d["findings"][0]

    return [
        ("missing verdict", lambda d: d.pop("verdict")),
        ("unknown verdict", lambda d: d.__setitem__("verdict", "fine")),
        ("verdict and exit code disagree",
         lambda d: d.__setitem__("exit_code", (d["exit_code"] + 1) % 4)),
        ("unknown top-level member", lambda d: d.__setitem__("root_causes", [])),
        ("unknown layer status", lambda d: d["layers"][0].__setitem__("status", "green")),
        ("layers out of order", lambda d: d["layers"].reverse()),
        ("a layer missing", lambda d: d["layers"].pop()),
        ("unknown link state", lambda d: d["chain"]["links"][0].__setitem__("state", "fine")),
        ("unknown severity", lambda d: finding(d).__setitem__("severity", "fatal")),
        ("rule id outside its layer", lambda d: finding(d).__setitem__("rule", "x.y")),
        ("finding without fix", lambda d: finding(d).pop("fix")),
        ("negative count", lambda d: d["counts"].__setitem__("error", -1)),
        ("bad embedded snapshot", lambda d: d["snapshot"].pop("hardware")),
    ]


def mutations_scan():
    def file0(d):
        if not d["files"]:
            raise LookupError
        return d["files"][0]

    def verdict0(d):
        for f in d["files"]:
            if f["verdicts"]:
                return f["verdicts"][0]
        raise LookupError

    return [
        ("wrong schema", lambda d: d.__setitem__("schema", "gpuenv-scan/2")),
        ("missing summary", lambda d: d.pop("summary")),
        ("unknown file state", lambda d: file0(d).__setitem__("state", "weird")),
        ("sass misspelt", lambda d: file0(d).__setitem__("sass", ["sm86"])),
        ("unknown file member", lambda d: file0(d).__setitem__("arch", [])),
        ("unknown verdict", lambda d: verdict0(d).__setitem__("verdict", "works")),
        ("no-kernel-image with an entry",
         lambda d: verdict0(d).update(verdict="no-kernel-image", entry="sm_86")),
        ("summary count as text", lambda d: d["summary"].__setitem__("files", "3")),
    ]


def mutations_explain():
    def read0(d):
        if not d["facts_read"]:
            raise LookupError
        return d["facts_read"][0]

    return [
        ("missing facts_read", lambda d: d.pop("facts_read")),
        ("line as text", lambda d: read0(d).__setitem__("line", "3")),
        ("line 0", lambda d: read0(d).__setitem__("line", 0)),
        ("unknown member in a fact read", lambda d: read0(d).__setitem__("state", "present")),
        ("ask as a string", lambda d: d.__setitem__("ask", "nvidia-smi")),
        ("negative facts_dropped", lambda d: d.__setitem__("facts_dropped", -1)),
        ("an origin not in the list", bad_origin),
    ]


# Pasted texts (tests/tools/test-explain-cli.py names their public reports).
EXPLAIN_TEXTS = [
    b"NVIDIA GeForce RTX 3080 Laptop GPU with CUDA capability sm_86 is not compatible with the "
    b"current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities "
    b"sm_37 sm_50 sm_60 sm_70.\nRuntimeError: CUDA error: no kernel image is available for "
    b"execution on the device\n",
    b"Failed to initialize NVML: Driver/library version mismatch\n"
    b"NVRM: API mismatch: the client has the version 570.153.02, but\n"
    b"NVRM: this kernel module has the version 570.144.  Please\n"
    b"NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus\n",
    b"The NVIDIA driver on your system is too old (found version 11040).\n"
    b"Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.\n"
    b"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE\n",
    b"nothing to see here\n",
    # a whole lspci listing without an NVIDIA GPU: text_findings (ChrisTitusTech/ArchTitus#95)
    b"00:00.0 Host bridge: Intel Corporation Xeon E3-1200 v6/7th Gen Core Processor Host "
    b"Bridge/DRAM Registers (rev 02)\n"
    b"00:02.0 VGA compatible controller: Intel Corporation HD Graphics 620 (rev 02)\n",
]


def bad_origin(doc):
    """A --this-machine fact read with an origin the schema does not list."""
    f = next(f for f in doc["facts_read"] if "origin" in f)  # StopIteration: none to mutate
    f["origin"] = "guess"


def explain_outputs(gpuenv):
    out = []
    for i, text in enumerate(EXPLAIN_TEXTS):
        cmd = [gpuenv, "explain", "--json", "--stable"]
        p = subprocess.run(cmd, input=text, capture_output=True)
        if p.returncode not in (0, 2):
            raise SystemExit(f"FAIL: explain of text {i} exited {p.returncode}: {p.stderr[-500:]}")
        out.append((f"explain text {i}", json.loads(p.stdout)))
    # --this-machine, beside the h100-sxm-550 fixture's image: origins, machine values
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                        "h100-sxm-550", "root")
    for i, text in enumerate(EXPLAIN_TEXTS):
        cmd = [gpuenv, "explain", "--json", "--stable", "--this-machine", "--no-vendor",
               "--sysroot", root]
        p = subprocess.run(cmd, input=text, capture_output=True)
        if p.returncode not in (0, 2):
            raise SystemExit(f"FAIL: explain --this-machine of text {i} exited "
                             f"{p.returncode}: {p.stderr[-500:]}")
        out.append((f"explain --this-machine text {i}", json.loads(p.stdout)))
    return out


def check_mutations(v, name, docs, muts, fails):
    """Every mutation must make some document of `docs` invalid."""
    for what, mutate in muts:
        tried = caught = 0
        for path, doc in docs:
            d = copy.deepcopy(doc)
            try:
                mutate(d)
            except (LookupError, AttributeError, TypeError, StopIteration):
                continue  # this document has nothing to mutate that way
            tried += 1
            if errors(v, d):
                caught = 1
                break
        if not tried:
            fails.append(f"{name}.json: mutation '{what}' found nothing to mutate")
        elif not caught:
            fails.append(f"{name}.json accepts a document with '{what}'")
        else:
            print(f"ok: {name}.json rejects {what}")


def scan_outputs(gpuenv, top, tmp):
    corpus = os.path.join(top, "tests/fuzz/corpus/fatbin")
    files = sorted(glob.glob(os.path.join(corpus, "*")))
    wheel = os.path.join(tmp, "demo-1.0-py3-none-linux_x86_64.whl")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files[:4]:
            z.write(f, "demo/" + os.path.basename(f))
        z.writestr("demo-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n")
    junk = os.path.join(tmp, "junk.fatbin")
    with open(junk, "wb") as f:
        f.write(b"\x50\xed\x55\xba\x01\x00\x10\x00" + b"\xff" * 40)
    inputs = [corpus, wheel, junk, os.path.join(tmp, "missing.so")]
    runs = [
        [],
        ["--gpu", "8.6", "--gpu", "9.0", "--driver", "535.54.03"],
        ["--gpu", "12.0", "--gpu", "RTX 4090", "--deep"],
    ]
    out = []
    for args in runs:
        cmd = [gpuenv, "scan", "--json"] + args + inputs
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode not in (0, 2, 66):
            raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}: {p.stderr[-500:]}")
        out.append((" ".join(["scan"] + args), json.loads(p.stdout)))
    return out


def main():
    if len(sys.argv) != 3:
        print("usage: check-json-schemas.py GPUENV SOURCE_ROOT", file=sys.stderr)
        return 2
    gpuenv, top = sys.argv[1], sys.argv[2]
    v = validators(top)
    fails = []
    docs = {"snapshot": [], "doctor": [], "scan": [], "explain": []}
    for path in sorted(glob.glob(os.path.join(top, "tests/fixtures/*/expected/*.json"))):
        kind = "doctor" if path.endswith("doctor.json") else "snapshot"
        with open(path) as f:
            docs[kind].append((os.path.relpath(path, top), json.load(f)))
    with tempfile.TemporaryDirectory() as tmp:
        docs["scan"] = scan_outputs(gpuenv, top, tmp)
    docs["explain"] = explain_outputs(gpuenv)
    for path, doc in docs["explain"]:  # the rest of it is doctor's document
        rest = {k: v_ for k, v_ in doc.items()
                if k not in ("facts_read", "facts_dropped", "facts_derived", "ask", "this_machine",
                             "conflicts", "text_findings")}
        for e in errors(v["doctor"], rest):
            fails.append(f"{path}: doctor.json: {e}")
    for kind in SCHEMAS:
        if not docs[kind]:
            fails.append(f"no {kind} documents found to validate")
        for path, doc in docs[kind]:
            for e in errors(v[kind], doc):
                fails.append(f"{path}: {kind}.json: {e}")
        print(f"ok: {len(docs[kind])} {kind} document(s) checked against docs/schema/{kind}.json")
    check_mutations(v["snapshot"], "snapshot", docs["snapshot"], mutations_snapshot(), fails)
    check_mutations(v["doctor"], "doctor", docs["doctor"], mutations_doctor(), fails)
    check_mutations(v["scan"], "scan", docs["scan"], mutations_scan(), fails)
    check_mutations(v["explain"], "explain", docs["explain"], mutations_explain(), fails)
    if fails:
        print("\n".join("FAIL: " + f for f in fails))
        return 1
    print("json-schemas: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
