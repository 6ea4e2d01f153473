#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The comparisons of scripts/device-check.sh, apart so that they can be tested on recorded
input (tests/tools/test-device-compare.py) where there is no GPU.

device-compare.py launch DOCTOR_JSON
    `gpuenv doctor --launch --json`: per GPU, the launch result (the runtime layer's "kernel
    launch" facts) beside doctor's static prediction (the error findings that mean no kernel
    can run, from the same list as runtime.launch-contradicts-prediction), and AGREE or
    DISAGREE. DISAGREE also when that rule fired.
device-compare.py exporter SAMPLES
    SAMPLES holds blocks "### sample N", "### nvidia-smi" (CSV lines of `nvidia-smi
    --query-gpu=index,uuid,temperature.gpu,utilization.gpu,memory.used,memory.total,
    power.draw,clocks.sm,clocks.mem --format=csv,noheader,nounits`, read at the moment of
    the scrape) and "### metrics" (the exporter's /metrics). Prints, per sample, GPU and
    field, both values and their absolute and relative difference, then per field the
    largest differences and one summary line. A value outside its tolerance is marked
    OUTSIDE; the tolerances allow for the two tools sampling at slightly different moments.
device-compare.py libraries CHECK_JSON ROOT
    `gpuenv check --json --image ROOT --host SNAPSHOT` (the toolkit's library directory judged
    on this machine's saved snapshot): per coverage row, the predicted verdict beside what
    `cuobjdump --list-elf --list-ptx ROOT/<library>` lists for that row's GPU (native: a
    cubin this compute capability runs, ptx-jit: only PTX it can JIT, no-kernel-image:
    neither), AGREE or DISAGREE. Verdicts about the driver (driver-too-old, ...) are printed
    with `?`: the listing cannot confirm them. $CUOBJDUMP names the tool (default cuobjdump).
Exit status 0 when everything agrees, 1 when something disagrees, 2 on unreadable input.
"""
import json
import os
import re
import subprocess
import sys

NO_KERNEL_RULES = {
    "hardware.gpu-lost", "driver.module-not-loaded", "driver.nouveau-bound",
    "driver.device-nodes-missing", "driver.nvml-version-mismatch", "driver.no-permission",
    "driver.branch-drops-gpu", "runtime.stub-libcuda", "runtime.cuda-compat-unsupported",
}


def launch(path):
    doc = json.load(open(path))
    facts = [f for layer in doc.get("layers", []) if layer.get("layer") == "runtime"
             for f in layer.get("facts", []) if f.get("label") == "kernel launch"]
    findings = doc.get("findings", [])
    predicted = sorted({f["rule"] for f in findings
                        if f.get("rule") in NO_KERNEL_RULES and f.get("severity") == "error"})
    contradicted = [f for f in findings if f.get("rule") == "runtime.launch-contradicts-prediction"]
    prediction = ("no kernel can run (" + ", ".join(predicted) + ")") if predicted \
        else "kernels run (no static rule says otherwise)"
    if not facts:
        print("launch: no kernel launch facts (was --launch given? did libcuda load?)")
        return 2
    agree, unknown = True, False
    for f in facts:
        value = f.get("value", "")
        print(f"launch: {value}")
        if value.startswith("not run: error"):
            ran = False  # cuInit failed: no CUDA program runs here
        elif value.startswith("not run"):
            print("  the launch did not run: nothing to hold the prediction against")
            unknown = True
            continue
        else:
            ran = ": ok · " in value
        same = ran == (not predicted)
        agree &= same
        print(f"  static prediction: {prediction} -> {'AGREE' if same else 'DISAGREE'}")
    for f in contradicted:
        print(f"  {f['rule']}: {f.get('message', '')}")
    agree &= not contradicted
    if unknown and agree:
        print("launch vs static prediction: UNKNOWN (the launch did not run)")
        return 2
    print("launch vs static prediction:", "AGREE" if agree else "DISAGREE")
    return 0 if agree else 1


# nvidia-smi field → (how to read it from the exporter's series of one GPU, absolute
# tolerance, relative tolerance). Clocks and utilisation move between two reads taken a
# few ms apart; memory.total is fixed.
FIELDS = [
    ("temperature.gpu", lambda m: m.get("DCGM_FI_DEV_GPU_TEMP"), 2, 0.0),
    ("utilization.gpu", lambda m: m.get("DCGM_FI_DEV_GPU_UTIL"), 10, 0.0),
    ("memory.used", lambda m: m.get("DCGM_FI_DEV_FB_USED"), 64, 0.02),
    ("memory.total", lambda m: None if m.get("DCGM_FI_DEV_FB_USED") is None
     or m.get("DCGM_FI_DEV_FB_FREE") is None else
     m["DCGM_FI_DEV_FB_USED"] + m["DCGM_FI_DEV_FB_FREE"] + m.get("DCGM_FI_DEV_FB_RESERVED", 0),
     1, 0.0),
    ("power.draw", lambda m: m.get("DCGM_FI_DEV_POWER_USAGE"), 15, 0.10),
    ("clocks.sm", lambda m: m.get("DCGM_FI_DEV_SM_CLOCK"), 30, 0.15),
    ("clocks.mem", lambda m: m.get("DCGM_FI_DEV_MEM_CLOCK"), 30, 0.05),
]
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \S+)?$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_metrics(text):
    """{uuid: {metric: value}} for the whole GPU's series (a UUID label, no GPU_I_ID: on a
    GPU in MIG mode the FB series of each GPU instance carry the GPU's UUID too, and
    nvidia-smi --query-gpu reads the whole GPU)."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            continue
        labels = dict(LABEL.findall(m.group(2) or ""))
        if "UUID" in labels and "GPU_I_ID" not in labels:
            try:
                out.setdefault(labels["UUID"], {})[m.group(1)] = float(m.group(3))
            except ValueError:
                pass
    return out


def parse_smi(text):
    """[(index, uuid, {field: value or None})] from the CSV lines."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != 2 + len(FIELDS):
            continue
        vals = {}
        for (name, *_), cell in zip(FIELDS, cells[2:]):
            try:
                vals[name] = float(cell)
            except ValueError:
                vals[name] = None  # "[N/A]", "[Not Supported]"
        rows.append((cells[0], cells[1], vals))
    return rows


def blocks(text):
    """[(sample name, nvidia-smi text, metrics text)]."""
    out, cur, part = [], None, None
    for line in text.splitlines(keepends=True):
        if line.startswith("### sample"):
            cur = [line[4:].strip(), "", ""]
            out.append(cur)
            part = None
        elif line.startswith("### nvidia-smi"):
            part = 1
        elif line.startswith("### metrics"):
            part = 2
        elif cur is not None and part:
            cur[part] += line
    return out


def exporter(path):
    samples = blocks(open(path).read())
    if not samples:
        print("exporter: no samples")
        return 2
    worst = {name: (0.0, 0.0) for name, *_ in FIELDS}
    n = outside = missing = 0
    for name, smi, metrics in samples:
        series = parse_metrics(metrics)
        rows = parse_smi(smi)
        if not rows:
            print(f"{name}: no nvidia-smi rows")
            missing += 1
        for index, uuid, vals in rows:
            mine = series.get(uuid)
            if mine is None:
                print(f"{name} GPU {index} {uuid}: not in the exporter's output")
                missing += 1
                continue
            for field, get, tol_abs, tol_rel in FIELDS:
                a, b = get(mine), vals[field]
                if a is None or b is None:
                    print(f"{name} GPU {index} {field}: exporter {a} | nvidia-smi {b} (not compared)")
                    continue
                d = abs(a - b)
                rel = d / abs(b) if b else (0.0 if d == 0 else float("inf"))
                ok = d <= tol_abs or rel <= tol_rel
                n += 1
                outside += not ok
                worst[field] = (max(worst[field][0], d), max(worst[field][1], rel))
                print(f"{name} GPU {index} {field}: exporter {a:g} | nvidia-smi {b:g} | "
                      f"diff {d:g} ({rel:.1%}){'' if ok else ' OUTSIDE'}")
    for field, (d, rel) in worst.items():
        print(f"field {field}: largest diff {d:g} ({rel:.1%})")
    agree = outside == 0 and missing == 0 and n > 0
    print(f"exporter vs nvidia-smi: {n} values compared over {len(samples)} samples, "
          f"{outside} outside tolerance, {missing} missing: {'AGREE' if agree else 'DISAGREE'}")
    return 0 if agree else 1


def runs_on(arch, cc):
    """Whether code for arch ("90", "90a", "100f") runs on compute capability cc (major,
    minor): SASS of the same major and a minor not above the GPU's, an `a` build on that
    exact GPU only, an `f` build on its family (CUDA Programming Guide, "Binary
    Compatibility"; PTX is JIT-compiled for any later GPU, so the caller treats it apart)."""
    m = re.fullmatch(r"(\d+)([af]?)", arch)
    if not m:
        return False
    num, suffix = int(m.group(1)), m.group(2)
    major, minor = num // 10, num % 10
    if suffix == "a":
        return (major, minor) == cc
    return major == cc[0] and minor <= cc[1]


def listed(listing, cc):
    """native / ptx-jit / no-kernel-image from a `cuobjdump --list-elf --list-ptx` listing."""
    sass = re.findall(r"\.sm_(\d+[af]?)\.cubin", listing)
    ptx = re.findall(r"\.sm_(\d+[af]?)\.ptx", listing)
    if any(runs_on(a, cc) for a in sass):
        return "native"
    # plain PTX JITs on every later GPU; arch-specific (a/f) PTX only where its SASS would run
    if any(runs_on(a, cc) if a[-1] in "af" else (int(a) // 10, int(a) % 10) <= cc for a in ptx):
        return "ptx-jit"
    return "no-kernel-image"


def libraries(path, root):
    doc = json.load(open(path))
    tool = os.environ.get("CUOBJDUMP", "cuobjdump")
    agree = disagree = unsure = 0
    print(f"check --host: {doc.get('result')} (exit {doc.get('exit_code')})")
    for c in doc.get("clauses", []):
        if c.get("id") == "image.gpu_libraries":
            print(f"  {c.get('message')}")
    for row in doc.get("coverage", []):
        subject, verdict = row.get("subject", ""), row.get("verdict")
        m = re.search(r"\((\d+)\.(\d+)\)\s*$", row.get("gpu", ""))
        if not subject.startswith("library /") or not m:
            continue
        lib = os.path.join(root, subject[len("library /"):])
        cc = (int(m.group(1)), int(m.group(2)))
        if verdict not in ("native", "ptx-jit", "no-kernel-image"):
            unsure += 1
            print(f"?        {lib} on {cc[0]}.{cc[1]}: predicted {verdict}; cuobjdump cannot "
                  "confirm a verdict about the driver")
            continue
        try:
            p = subprocess.run([tool, "--list-elf", "--list-ptx", lib], capture_output=True,
                               text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            unsure += 1
            print(f"?        {lib}: predicted {verdict}; {tool} unavailable ({e})")
            continue
        actual = listed(p.stdout, cc)
        same = actual == verdict
        agree += same
        disagree += not same
        print(f"{'AGREE   ' if same else 'DISAGREE'} {lib} on {cc[0]}.{cc[1]}: predicted "
              f"{verdict}, cuobjdump: {actual}")
    ok = disagree == 0 and agree > 0
    print(f"check --host vs cuobjdump: {agree} agree, {disagree} disagree, {unsure} unconfirmed: "
          f"{'AGREE' if ok else 'DISAGREE' if disagree else 'NOTHING COMPARED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    kinds = {"launch": (launch, 3), "exporter": (exporter, 3), "libraries": (libraries, 4)}
    if len(sys.argv) < 2 or kinds.get(sys.argv[1], (None, -1))[1] != len(sys.argv):
        sys.exit(__doc__)
    try:
        sys.exit(kinds[sys.argv[1]][0](*sys.argv[2:]))
    except (OSError, ValueError) as e:
        print(f"{sys.argv[1]}: {e}")
        sys.exit(2)
