#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The comparisons of scripts/device-check.sh (scripts/device-compare.py) on recorded input,
no GPU needed: the exporter's real exposition on the nvml-h100-healthy fixture (fake NVML)
against nvidia-smi CSV rows written from the same fixture's values, once equal, once with a
temperature 5 °C off and a power reading nvidia-smi could not give; and `doctor --launch
--json` (fake libcuda) once healthy, once with a GPU that computes wrongly; and step 7's
`gpuenv check --json --image LIBDIR --host SNAPSHOT` (a library directory of fat binaries
judged on a real H200's saved snapshot) against listings in cuobjdump's format, once as the
libraries hold them, once with a listing that contradicts the prediction."""
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import SRC, fixture_args  # noqa: E402
import fixture_root  # noqa: E402

gpuenv = sys.argv[1]
helper = os.path.join(SRC, "scripts", "device-compare.py")
FIXTURE = "nvml-h100-healthy"
MIB = 1 << 20
failed = 0


def expect(what, cond, detail=""):
    global failed
    print(f"ok: {what}" if cond else f"FAIL: {what}\n  {detail}")
    failed |= not cond


def compare(kind, path):
    p = subprocess.run([sys.executable, helper, kind, path], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout + p.stderr


def devices(scenario):
    """The fixture's [nvml.device.N] sections as dicts."""
    devs, cur = [], None
    for line in open(scenario):
        line = line.strip()
        if re.fullmatch(r"\[nvml\.device\.\d+\]", line):
            cur = {}
            devs.append(cur)
        elif line.startswith("["):
            cur = None
        elif cur is not None and "=" in line:
            k, v = line.split("=", 1)
            cur[k.strip()] = v.strip()
    return devs


def smi_rows(devs, temp_off=None, power_na=None):
    rows = []
    for i, d in enumerate(devs):
        temp = int(d["temperature"]) + (5 if i == temp_off else 0)
        power = "[N/A]" if i == power_na else f"{int(d['power_usage']) / 1000:.2f}"
        # a value the fixture leaves out (NOT_SUPPORTED): what nvidia-smi prints for it
        rows.append(f"{i}, {d['uuid']}, {temp}, {d['utilization_gpu']}, "
                    f"{int(d['memory_used']) // MIB}, {int(d['memory_total']) // MIB}, {power}, "
                    f"{d.get('clock_sm', '[N/A]')}, {d.get('clock_mem', '[N/A]')}")
    return "\n".join(rows) + "\n"


args, env = fixture_args(FIXTURE)
scenario = env["GPUENV_FAKE_SCENARIO"]
devs = devices(scenario)
p = subprocess.run([gpuenv, "exporter", "--once", *args], capture_output=True, text=True, env=env,
                   timeout=120)
expect("exporter --once on the fixture", p.returncode == 0 and "DCGM_FI_DEV_GPU_TEMP" in p.stdout,
       p.stderr)
metrics = p.stdout

with tempfile.TemporaryDirectory() as tmp:
    same = os.path.join(tmp, "same.txt")
    with open(same, "w") as f:
        for i in (1, 2):
            f.write(f"### sample {i}\n### nvidia-smi\n{smi_rows(devs)}### metrics\n{metrics}")
    rc, out = compare("exporter", same)
    expect("equal values: every field compared on every GPU, AGREE",
           rc == 0 and "exporter vs nvidia-smi: 112 values compared over 2 samples, 0 outside "
           "tolerance, 0 missing: AGREE" in out, out[-600:])
    expect("each line names both values and the difference",
           "sample 1 GPU 0 temperature.gpu: exporter 33 | nvidia-smi 33 | diff 0 (0.0%)" in out
           and "sample 1 GPU 0 memory.total: exporter 81559 | nvidia-smi 81559 | diff 0" in out
           and "sample 1 GPU 0 power.draw: exporter 71.254 | nvidia-smi 71.25 | diff 0.004" in out,
           out[:1500])
    off = os.path.join(tmp, "off.txt")
    with open(off, "w") as f:
        f.write(f"### sample 1\n### nvidia-smi\n{smi_rows(devs, temp_off=3, power_na=5)}"
                f"### metrics\n{metrics}")
    rc, out = compare("exporter", off)
    expect("a temperature 5 °C off: OUTSIDE, DISAGREE; [N/A] not compared",
           rc == 1 and "sample 1 GPU 3 temperature.gpu: exporter 33 | nvidia-smi 38 | diff 5 "
           "(13.2%) OUTSIDE" in out and "GPU 5 power.draw: exporter 70.112 | nvidia-smi None "
           "(not compared)" in out and "field temperature.gpu: largest diff 5 (13.2%)" in out
           and ": DISAGREE" in out, out[-1500:])
    missing = os.path.join(tmp, "missing.txt")
    with open(missing, "w") as f:
        f.write(f"### sample 1\n### nvidia-smi\n{smi_rows(devs)}### metrics\n")
    rc, out = compare("exporter", missing)
    expect("no exposition (the scrape failed): every GPU missing, DISAGREE",
           rc == 1 and out.count("not in the exporter's output") == 8, out[-800:])
    # A GPU in MIG mode: the FB series of each GPU instance carry the GPU's UUID too
    # (docs/exporter.md); nvidia-smi --query-gpu reads the whole GPU, so only the whole
    # GPU's series may be compared. GPU instances 1 and 2 use 1 and 2 GiB.
    margs, menv = fixture_args("rw-mig-two-mig-uuids")
    with open(menv["GPUENV_FAKE_SCENARIO"]) as f:
        text = f.read()
    text = text.replace("[nvml.device.0.mig.0]\n", "[nvml.device.0.mig.0]\n"
                        "memory_total = 42144366592\nmemory_used = 1073741824\n", 1).replace(
        "[nvml.device.0.mig.1]\n", "[nvml.device.0.mig.1]\nmemory_total = 42144366592\n"
        "memory_used = 2147483648\n", 1)
    mscenario = os.path.join(tmp, "mig.ini")
    with open(mscenario, "w") as f:
        f.write(text)
    mp = subprocess.run([gpuenv, "exporter", "--once", *margs], capture_output=True, text=True,
                        env=dict(menv, GPUENV_FAKE_SCENARIO=mscenario), timeout=120)
    inst = [ln for ln in mp.stdout.splitlines()
            if ln.startswith("DCGM_FI_DEV_FB_USED{") and "GPU_I_ID=" in ln]
    expect("the MIG fixture's exposition has the GPU instances' FB_USED",
           mp.returncode == 0 and len(inst) == 2, mp.stderr[-400:] + "\n".join(inst))
    mig = os.path.join(tmp, "mig.txt")
    with open(mig, "w") as f:
        f.write(f"### sample 1\n### nvidia-smi\n{smi_rows(devices(mscenario))}"
                f"### metrics\n{mp.stdout}")
    rc, out = compare("exporter", mig)
    expect("a GPU in MIG mode: the whole GPU's memory.used compared, not a GPU instance's",
           rc == 0 and "sample 1 GPU 0 memory.used: exporter 0 | nvidia-smi 0 | diff 0" in out
           and "0 outside tolerance, 0 missing: AGREE" in out, out[-1500:])

    def doctor(override=""):
        scen = os.path.join(tmp, "scenario.ini")
        with open(scen, "w") as f:
            f.write("[cuda]\ndevice_count = 8\n" + override + "\n" + open(scenario).read())
        a, e = fixture_args(FIXTURE, scen)
        path = os.path.join(tmp, "doctor.json")
        with open(path, "w") as f:
            subprocess.run([gpuenv, "doctor", "--launch", "--json", "--stable", *a], stdout=f,
                           env=e, timeout=120)
        return compare("launch", path)

    rc, out = doctor()
    expect("healthy launch, nothing predicted against it: AGREE per GPU and overall",
           rc == 0 and out.count("-> AGREE") == 8 and "launch vs static prediction: AGREE" in out,
           out)
    rc, out = doctor("[cuda.device.2]\nwrong_result = 1\n")
    expect("a GPU that computes wrongly, no rule predicted it: DISAGREE",
           rc == 1 and "GPU 2 (" in out and "FAILED" in out
           and "launch vs static prediction: DISAGREE" in out, out)
    rc, out = doctor("error.cuInit = CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n"
                     "[nvml]\nerror.nvmlInit_v2 = NVML_ERROR_LIB_RM_VERSION_MISMATCH\n")
    expect("cuInit fails as the NVML mismatch predicts: AGREE",
           rc == 0 and "not run: error" in out and "driver.nvml-version-mismatch" in out
           and "launch vs static prediction: AGREE" in out, out)
    rc, out = doctor("error.cuInit = CUDA_ERROR_UNKNOWN\n")
    expect("cuInit fails and nothing predicted it: DISAGREE",
           rc == 1 and "launch vs static prediction: DISAGREE" in out, out)
    empty = os.path.join(tmp, "empty.json")
    open(empty, "w").write('{"layers": [], "findings": []}')
    rc, out = compare("launch", empty)
    expect("no launch facts: said, exit 2", rc == 2 and "no kernel launch facts" in out, out)

    # step 7: three fat-binary libraries judged on an H200 (9.0): sm_90 SASS runs natively,
    # sm_80 SASS alone does not (another major), sm_75 SASS with compute_75 PTX is JIT-compiled
    libdir = os.path.join(tmp, "lib")
    os.makedirs(libdir)
    libs = {"libk90.so.12": ("90", ""), "libk80.so.1": ("80", ""), "libk75p.so.2": ("75", "75")}
    for name, (sass, ptx) in libs.items():
        fixture_root.build_fatbin(os.path.join(libdir, name),
                                  {"soname": name, "sass": sass, "ptx": ptx, "ptxisa": "8.0"})
    snap = os.path.join(SRC, "tests", "snapshots", "h200-vm-driver580-cuda13.json")
    chk = os.path.join(tmp, "check-host.json")
    with open(chk, "w") as f:
        p = subprocess.run([gpuenv, "check", "--json", "--image", libdir, "--host", snap],
                           stdout=f, stderr=subprocess.PIPE, text=True, timeout=120)
    verdicts = {r["subject"]: r["verdict"] for r in json.load(open(chk)).get("coverage", [])}
    expect("check --image LIBDIR --host: a coverage row per library",
           verdicts == {"library /libk90.so.12": "native", "library /libk80.so.1":
                        "no-kernel-image", "library /libk75p.so.2": "ptx-jit"},
           f"{verdicts} {p.stderr[-300:]}")
    # a stand-in for cuobjdump printing its --list-elf/--list-ptx lines from $LISTINGS
    fake = os.path.join(tmp, "cuobjdump")
    with open(fake, "w") as f:
        f.write("#!/usr/bin/env python3\nimport json, os, sys\n"
                "listing = json.load(open(os.environ['LISTINGS']))\n"
                "print(listing.get(os.path.basename(sys.argv[-1]), ''))\n")
    os.chmod(fake, 0o755)

    def listings(recorded):
        path = os.path.join(tmp, "listings.json")
        json.dump({k: "\n".join(f"{'ELF' if e.endswith('cubin') else 'PTX'} file    {i}: "
                                f"{k.split('.')[0]}.{i}.{e}" for i, e in enumerate(v, 1))
                   for k, v in recorded.items()}, open(path, "w"))
        e = dict(os.environ, CUOBJDUMP=fake, LISTINGS=path)
        p = subprocess.run([sys.executable, helper, "libraries", chk, libdir], capture_output=True,
                           text=True, timeout=60, env=e)
        return p.returncode, p.stdout + p.stderr

    truth = {"libk90.so.12": ["sm_90.cubin"], "libk80.so.1": ["sm_80.cubin"],
             "libk75p.so.2": ["sm_75.cubin", "sm_75.ptx"]}
    rc, out = listings(truth)
    expect("the listings as the libraries hold them: AGREE per library",
           rc == 0 and out.count("AGREE   ") == 3 and "3 agree, 0 disagree" in out
           and f"{libdir}/libk75p.so.2 on 9.0: predicted ptx-jit, cuobjdump: ptx-jit" in out, out)
    rc, out = listings(dict(truth, **{"libk80.so.1": ["sm_80.cubin", "sm_90a.cubin"]}))
    expect("a listing with an sm_90a cubin gpuenv did not predict: DISAGREE",
           rc == 1 and f"DISAGREE {libdir}/libk80.so.1 on 9.0: predicted no-kernel-image, "
           "cuobjdump: native" in out and "2 agree, 1 disagree" in out, out)
    e = dict(os.environ, CUOBJDUMP=os.path.join(tmp, "no-such-cuobjdump"))
    p = subprocess.run([sys.executable, helper, "libraries", chk, libdir], capture_output=True,
                       text=True, timeout=60, env=e)
    expect("no cuobjdump: nothing compared is not agreement",
           p.returncode == 1 and "NOTHING COMPARED" in p.stdout, p.stdout)
    # the binary-compatibility rules the comparison rests on
    spec = importlib.util.spec_from_file_location("device_compare", helper)
    dc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dc)
    cases = [("86", (8, 9), True), ("86", (8, 0), False), ("90a", (9, 0), True),
             ("90a", (10, 0), False), ("100f", (10, 3), True), ("100a", (10, 3), False),
             ("120", (10, 0), False)]
    bad = [c for c in cases if dc.runs_on(c[0], c[1]) != c[2]]
    expect("SASS compatibility: same major, minor not above; a exact; f the family", not bad,
           str(bad))
    expect("PTX: plain compute_80 JITs on 9.0, compute_90a not on 10.0",
           dc.listed("PTX file    1: x.1.sm_80.ptx", (9, 0)) == "ptx-jit"
           and dc.listed("PTX file    1: x.1.sm_90a.ptx", (10, 0)) == "no-kernel-image")
sys.exit(1 if failed else 0)
