#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Scores `gpuenv explain` over the corpus of real pastes (tests/explain-corpus/cases.tsv):
for each case the root cause (rule id and layer) against the cause its thread established, the
facts that must be read, and the false statements: a fact whose value is not on the line it
names (the documented derivations excepted), a finding's evidence that names a line of the
text under a key no fact read at that line has (a label the line does not show: nvidia-smi's
driver version given as the kernel module's), or a root cause named where the thread found no
GPU-stack fault. It also audits explain's text output: every version-like token (N.N, N.N.N,
sm_NN, compute_NN, gfxNNNN), path and library name in it must be in the input, in a fact read,
in the rule catalogue's own text (doctor --list-rules), in a command asked, or derived through
the knowledge base (on a line marked [facts], or a value of facts_derived). Prints

    root cause right N/M, layer right L/M, facts read F/G, false statements K, ungrounded U
    no rule judges the cause: J

A case whose expected rule is "unjudged" is one whose thread established a GPU-stack fault that
no rule judges (its layer in the layer column): it is never right, whatever explain names, and
is counted in J besides the misses, so that "none" (no fault) never stands for "gpuenv cannot
tell". The per-case line says MISS for it. It fails when N is below FLOOR_RIGHT, K above
CEIL_FALSE or U above CEIL_UNGROUNDED (committed here: raise the floor as explain gets better,
never lower it to pass).

Usage: score-explain-corpus.py GPUENV [CORPUS_DIR]
       score-explain-corpus.py GPUENV --samples SAMPLES_DIR

With --samples, the readers' samples (tests/fuzz/corpus/pasted-*/*, text ones) get the same
false-statement and audit checks, with no root cause to score: it prints

    samples N, false statements K, ungrounded U

and fails when K or U is above its ceiling.
"""
import json
import os
import re
import subprocess
import sys

# The floor: cases right after the stop-50 merges (2026-12-08; the audit of the "none" cases
# made 7 of them count as what their threads found). Raise it when a case turns right; the
# commit that raises it names the case (git log -L of this line).
FLOOR_RIGHT = 215  # of 241
CEIL_FALSE = 0
CEIL_UNGROUNDED = 0  # 14 before 2026-12-06's audit (knowledge-base floors and a branch's CUDA in the chain and the summary unmarked, an L40S's compute capability from its PCI id)

GPUENV = sys.argv[1]
SAMPLES = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--samples" else None
CORPUS = sys.argv[2] if len(sys.argv) > 2 and not SAMPLES else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "explain-corpus")

# Keys whose value is written in the schema's form rather than as printed (docs/explain.md,
# docs/explain-readers.md): booleans, a cudaDriverGetVersion number as major.minor, sm_86 as
# 8.6, lspci's [10de:2204] as 0x10de, words chosen from the text (vendor, flavor, kind …),
# which source gave a version (version_source: "version.txt", "nvcc version string"),
# nvidia-smi -q's Active clocks event reasons as NVML's bit mask (clocks_event_reasons).
DERIVED = ("compute_capability", "driver_version", "vendor", "flavor", "compression", "kind",
           "form", "found_via", "release", "python_versions", "mig_mode", "persistence_mode",
           "ecc_mode", "local_version", "init", "gfx", "count", "version_source",
           "clocks_event_reasons")
# NCCL's return code is written by its ncclResult_t name also where a framework printed
# ncclGetErrorString()'s words for it ("unhandled cuda error": ncclUnhandledCudaError).
DERIVED_PATHS = ("messages.nccl.result",)
# JAX's check prints the libraries' own numbers (CUDA 12010, cuDNN 8906 or 90100), written as
# the versions they encode (12.1, 8.9.6, 9.1.0; pasted-errors.c read_jax_version_check,
# pasted-jax-check.c): such a value is on its line when one of its encodings is.
JAX = "framework.python_envs.0.packages.jax."
JAX_CUDA = tuple(JAX + k for k in ("cudart.version", "build_info.cuda_version",
                                   "build_info.cuda_minimum"))
JAX_CUDNN = tuple(JAX + k for k in ("cudnn.version", "build_info.cudnn_version",
                                    "build_info.cudnn_minimum"))


def jax_number_on_line(value, line, key):
    parts = value.split(".")
    if not all(p.isdigit() for p in parts):
        return False
    v = [int(p) for p in parts] + [0, 0]
    if key in JAX_CUDA:
        numbers = {v[0] * 1000 + v[1] * 10}
    else:  # CUDNN_VERSION: 1000 x major + 100 x minor + patch before cuDNN 9, 10000 x after
        numbers = {v[0] * 1000 + v[1] * 100 + v[2], v[0] * 10000 + v[1] * 100 + v[2]}
    return any(re.search(rf"(?<!\d){n}(?!\d)", line) for n in numbers)


# rocm-smi lists AMD's GPUs only: each is PCI vendor 0x1002, which it does not print
# (pasted-rocm-smi.c, docs/explain-readers.md).
DERIVED_BY_READER = {("rocm-smi", "vendor_id"): "0x1002"}
# A message the kernel wraps over lines (NVRM: API mismatch …) is read at its first line.
SPAN = 5


def value_on_line(value, line, key):
    if value in ("true", "false", "None") or key.split(".")[-1] in DERIVED or key in DERIVED_PATHS:
        return True
    if key in JAX_CUDA or key in JAX_CUDNN:
        return jax_number_on_line(value, line, key)
    if key.endswith(".bus_id") and value.startswith("0000:") and value[5:] in line.lower():
        return True  # lspci without -D leaves out the domain, 0000 (pciutils)
    if key.split(".")[-1].endswith("_id") and value.startswith("0x"):
        return value[2:].lower() in line.lower()
    if key.startswith("symptoms."):
        return value[:40] in line or line.strip()[:40] in value
    return value in line


def evidence_mislabelled(doc):
    """A finding's evidence from the text ("pasted:N") whose key no fact read at line N has
    (nor a subtree of it: "driver.nvml.devices[]" matches any index)."""
    read = [(fr["path"], fr["line"]) for fr in doc.get("facts_read", [])]
    bad = []
    for f in doc.get("findings", []):
        for ev in f.get("evidence", []):
            src = ev.get("source") or ""
            if not src.startswith("pasted:") or not src[7:].isdigit():
                continue
            line = int(src[7:])
            name = re.escape(ev["name"]).replace(r"\[\]", r"\.\d+")
            key = re.compile(name + r"(\..*)?$")
            if not any(ln == line and (key.match(p) or re.sub(r"\.\d+", "[]", ev["name"]) == p)
                       for p, ln in read):
                bad.append(f"{f.get('rule')}: {ev['name']} = {ev.get('value')!r} ({src})")
    return bad


# What the audit looks for in explain's text: versions (a dotted number not inside a word),
# sm_NN / compute_NN, gfx targets, paths of two parts or more, Windows paths, library names.
TOKENS = (re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w.]*\d)"),
          re.compile(r"\b(?:sm|compute)_\d+[a-z]?\b"),
          re.compile(r"\bgfx[0-9a-f]{3,5}\b"),
          re.compile(r"(?<![\w./~:-])(?:/[\w.+:-]+){2,}"),
          re.compile(r"\b[A-Za-z]:[\\/][^\s'\"]*"),
          re.compile(r"\blib[\w+-]+\.so(?:\.\d+)*"),
          re.compile(r"\b[\w-]+\.dll\b"))


def grounded(tok, path, grounds):
    """tok is in one of grounds; a path also where each of its parts that holds a digit is
    (a command built of a fixed path and a value read: "/sys/bus/pci/devices/", the bus id
    "0000:01:00.0" from the text, "/driver/unbind"): a version or an id is what a path can
    state falsely, the words around it are the command's own."""
    if any(tok in g for g in grounds):
        return True
    parts = [p for p in re.split(r"[\\/]", tok) if re.search(r"\d", p)]
    return path and all(any(p in g for g in grounds) for p in parts)


def ungrounded(out, grounds):
    """Tokens of explain's text output found in none of grounds (lines marked [facts] are
    derived through the knowledge base and say so)."""
    bad = []
    for line in out.split("\n"):
        if "[facts]" in line:
            continue
        for i, rx in enumerate(TOKENS):
            for m in rx.finditer(line):
                tok = m.group(0).rstrip(".,;:)")
                if tok and not grounded(tok, i in (3, 4), grounds):
                    bad.append(f"{tok!r} in: {line.strip()[:120]}")
    return bad


def decode(data):
    """The text as explain reads it (pasted-input.c): UTF-16 by its BOM (a PowerShell `>`
    redirect), else UTF-8; CRLF as LF, so that line numbers match."""
    if data.startswith(b"\xff\xfe"):
        text = data[2:].decode("utf-16-le", "replace")
    elif data.startswith(b"\xfe\xff"):
        text = data[2:].decode("utf-16-be", "replace")
    else:
        text = data.decode("utf-8", "replace").lstrip("\ufeff")
    return text.replace("\r\n", "\n")


def catalogue_text():
    out = subprocess.run([GPUENV, "doctor", "--list-rules", "--json"], capture_output=True,
                         text=True).stdout
    return json.dumps(json.loads(out), ensure_ascii=False)


def check_statements(name, path, lines, doc, catalogue):
    """The false statements (facts read off their line, mislabelled evidence) and the
    ungrounded tokens of explain's output for one input; prints each, returns the counts."""
    false = unground = 0
    for fr in doc.get("facts_read", []):
        ln = fr["line"]
        text = "\n".join(lines[ln - 1:ln - 1 + SPAN]) if 0 < ln <= len(lines) else ""
        if DERIVED_BY_READER.get((fr.get("reader"), fr["path"].split(".")[-1])) == fr["value"]:
            continue
        if not value_on_line(fr["value"], text, fr["path"]):
            false += 1
            print(f"false: {name}: {fr['path']} = {fr['value']!r} is not on line {ln}")
    for bad in evidence_mislabelled(doc):
        false += 1
        print(f"false: {name}: evidence {bad} names a key its line does not show")
    out = subprocess.run([GPUENV, "explain", "--stable", path], capture_output=True,
                         text=True, errors="replace").stdout
    grounds = ["\n".join(lines), catalogue, json.dumps(doc.get("facts_derived", []),
                                                      ensure_ascii=False)]
    grounds += [fr["value"] for fr in doc.get("facts_read", [])] + doc.get("ask", [])
    # a Windows TensorFlow's cuda_version '64_116' is CUDA 11.6 (docs/explain-readers.md)
    grounds += [re.sub(r"^64_(\d+)(\d)$", r"\1.\2", fr["value"])
                for fr in doc.get("facts_read", []) if fr["path"].endswith(".cuda_version")]
    for bad in ungrounded(out, grounds):
        unground += 1
        print(f"ungrounded: {name}: {bad}")
    return false, unground


def samples_main():
    catalogue = catalogue_text()
    n = false = unground = 0
    for d in sorted(os.listdir(SAMPLES)):
        if not d.startswith("pasted-"):
            continue
        for f in sorted(os.listdir(os.path.join(SAMPLES, d))):
            path = os.path.join(SAMPLES, d, f)
            with open(path, "rb") as fp:
                data = fp.read()
            if data[:2] == b"\x1f\x8b":
                continue  # gzip: its text is the corpus's and the gzip tests' business
            p = subprocess.run([GPUENV, "explain", "--json", "--stable", path],
                               capture_output=True)
            try:
                doc = json.loads(p.stdout)
            except ValueError:
                continue  # refused (binary, a crafted fuzz seed): nothing stated
            n += 1
            k, u = check_statements(f"{d}/{f}", path, decode(data).split("\n"), doc,
                                    catalogue)
            false += k
            unground += u
    print(f"samples {n}, false statements {false}, ungrounded {unground}")
    return 1 if false > CEIL_FALSE or unground > CEIL_UNGROUNDED else 0


def main():
    if SAMPLES:
        return samples_main()
    cases = []
    with open(os.path.join(CORPUS, "cases.tsv"), encoding="utf-8") as f:
        for row in f:
            if row.startswith("#") or not row.strip():
                continue
            cid, url, cause, rule, layer, facts = row.rstrip("\n").split("\t")
            cases.append((cid, url, rule, layer, facts))
    catalogue = catalogue_text()
    right = layer_right = facts_read = facts_all = false = unground = unjudged = 0
    for cid, url, rule, layer, facts in cases:
        path = os.path.join(CORPUS, cid + ".txt")
        with open(path, "rb") as f:
            data = f.read()
        lines = decode(data).split("\n")
        p = subprocess.run([GPUENV, "explain", "--json", "--stable", path], capture_output=True)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            print(f"FAIL {cid}: no JSON (rc={p.returncode}) {p.stderr[:200]!r}")
            continue
        rc = doc.get("root_cause") or {}
        got, got_layer = rc.get("id"), rc.get("layer")
        if rule == "unjudged":  # a fault no rule judges: a miss, counted on its own
            ok = False
            unjudged += 1
        else:
            ok = got == rule if rule != "none" else got is None
        right += ok
        layer_right += (got_layer == layer) if layer != "-" else got is None
        if rule == "none" and got is not None:
            false += 1
            print(f"false: {cid}: root cause {got} where the thread found no GPU-stack fault")
        read = {fr["path"]: fr for fr in doc.get("facts_read", [])}
        k, u = check_statements(cid, path, lines, doc, catalogue)
        false += k
        unground += u
        if facts != "-":
            for want in facts.split(" ; "):
                k, v = want.split("=", 1)
                facts_all += 1
                if k in read and read[k]["value"] == v:
                    facts_read += 1
                else:
                    print(f"missed: {cid}: {k}={v} (read: {read.get(k, {}).get('value')})")
        print(f"{'ok  ' if ok else 'MISS'} {cid}: expected {rule}, got {got}  ({url})")
    m = len(cases)
    print(f"root cause right {right}/{m}, layer right {layer_right}/{m}, "
          f"facts read {facts_read}/{facts_all}, false statements {false}, "
          f"ungrounded {unground}")
    print(f"no rule judges the cause: {unjudged}")
    if right < FLOOR_RIGHT or false > CEIL_FALSE or unground > CEIL_UNGROUNDED:
        print(f"FAIL: below the floor (root cause right >= {FLOOR_RIGHT}, "
              f"false statements <= {CEIL_FALSE}, ungrounded <= {CEIL_UNGROUNDED})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
