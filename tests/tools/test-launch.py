#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv doctor --launch` / `report --launch` with the fake libcuda (tests/fakes/
fake-cuda-launch.c) on the nvml-h100-healthy fixture (8 GPUs), one scripted case at a time:
the success path, and each failure the active check must record and turn into a finding
(no binary for the GPU, unsupported PTX version, invalid PTX, driver mismatch, no device,
compat not supported, wrong result, a launch that hangs until the child's deadline), the
comparison with the static predictions, and the option's refusals. Also checks the embedded
SASS image with gpuenv's own fat-binary reader (gpuenv scan)."""
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import SRC, fixture_args  # noqa: E402

gpuenv = sys.argv[1]
FIXTURE = "nvml-h100-healthy"
failed = 0


def expect(what, cond, detail=""):
    global failed
    print(f"ok: {what}" if cond else f"FAIL: {what}\n  {detail}")
    failed |= not cond


def run(tmp, cmd, override="", extra=()):
    """gpuenv CMD --json --stable on the fixture, the scenario prefixed by override (the
    fake reads the first value of a key, so what comes first wins)."""
    base = os.path.join(SRC, "tests", "fixtures", FIXTURE, "scenario.ini")
    scen = os.path.join(tmp, "scenario.ini")
    with open(scen, "w") as f:
        f.write("[cuda]\ndevice_count = 8\n" + override + "\n" + open(base).read())
    args, env = fixture_args(FIXTURE, scen)
    p = subprocess.run([gpuenv, cmd, *args, "--json", *extra], capture_output=True, text=True,
                       env=env, timeout=120)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except json.JSONDecodeError:
        return p.returncode, None, p.stderr + p.stdout


def launch_facts(doc):
    """The doctor's "kernel launch" key facts of the runtime layer."""
    for layer in doc.get("layers", []):
        if layer.get("layer") == "runtime":
            return [f["value"] for f in layer.get("facts", []) if f.get("label") == "kernel launch"]
    return []


def findings(doc, rule):
    return [f for f in doc.get("findings", []) if f.get("rule") == rule]


def dev_launch(snap, i):
    return snap["driver"]["cuda"]["devices"][i].get("launch", {})


with tempfile.TemporaryDirectory() as tmp:
    # ---- success, and the snapshot's launch section
    rc, snap, err = run(tmp, "report", extra=("--launch", "--stable"))
    ok = snap is not None
    expect("report --launch: runs", ok, err)
    if ok:
        cuda = snap["driver"]["cuda"]
        expect("driver.cuda.launch names both images",
               cuda.get("launch", {}).get("value", "").startswith("SASS sm_75"), cuda.get("launch"))
        l0 = dev_launch(snap, 0)
        expect("GPU 0: SASS ok, PTX ok", l0.get("sass", {}).get("value") == "ok"
               and l0.get("ptx", {}).get("value") == "ok", l0)
        expect("the step is the source of each image's fact",
               l0.get("ptx", {}).get("source") == "cuda:cuMemcpyDtoH_v2", l0)
        expect("--stable: no timings", "sass_ms" not in l0 and "ptx_ms" not in l0, l0)
        expect("every GPU launched", all(dev_launch(snap, i).get("ptx", {}).get("value") == "ok"
                                         for i in range(8)))
    rc, snap, err = run(tmp, "report", extra=("--launch",))
    l0 = dev_launch(snap, 0) if snap else {}
    expect("without --stable: load + first launch timed in ms",
           isinstance(l0.get("sass_ms", {}).get("value"), int)
           and isinstance(l0.get("ptx_ms", {}).get("value"), int), l0)
    rc, snap, err = run(tmp, "report", extra=("--stable",))
    expect("without --launch: no launch section",
           snap and "launch" not in snap["driver"]["cuda"]
           and "launch" not in snap["driver"]["cuda"]["devices"][0], err)
    rc, doc, err = run(tmp, "doctor", extra=("--launch", "--stable"))
    facts = launch_facts(doc or {})
    expect("doctor --launch: a kernel launch fact per GPU, all ok",
           len(facts) == 8 and all(": ok · SASS ok · PTX ok" in f for f in facts), facts)
    expect("doctor --launch, healthy: no launch finding, nothing contradicted",
           doc and not findings(doc, "runtime.kernel-launch-failed")
           and not findings(doc, "runtime.launch-contradicts-prediction"), doc and doc["findings"])
    rc, doc, err = run(tmp, "doctor", extra=("--stable",))
    expect("doctor without --launch: no launch facts", doc and not launch_facts(doc))

    # ---- each failure, scripted
    def case(name, override, check, extra=("--stable",)):
        rc, doc, err = run(tmp, "doctor", override, ("--launch", *extra))
        if doc is None:
            expect(name, False, err)
            return
        check(doc, rc)

    def one_finding(rule, *words, subject=None):
        def check(doc, rc):
            fs = findings(doc, rule)
            msg = fs[0]["message"] if fs else ""
            expect(f"{rule}: {' / '.join(words)}",
                   len(fs) == 1 and all(w in msg for w in words) and rc == 2
                   and (subject is None or fs[0].get("subject", "").startswith(subject)),
                   f"rc={rc} {[f['message'] for f in doc['findings']]}")
        return check

    case("SASS for the GPU's architecture refused",
         "[cuda.device.0]\nerror.cuModuleLoadData.sass = CUDA_ERROR_NO_BINARY_FOR_GPU\n",
         one_finding("runtime.kernel-launch-failed", "the SASS image fails on GPU 0",
                     "cuModuleLoadData", "CUDA_ERROR_NO_BINARY_FOR_GPU (209)", subject="GPU 0"))

    def no_sass_expected(doc, rc):
        facts = launch_facts(doc)
        expect("no SASS in the image for sm_70: expected, PTX judges the GPU, no finding",
               not findings(doc, "runtime.kernel-launch-failed") and facts
               and facts[0].startswith("GPU 0 (0000:18:00.0, NVIDIA H100 80GB HBM3, "
                                       "compute capability 7.0): ok · SASS failed at "
                                       "cuModuleLoadData: CUDA_ERROR_NO_BINARY_FOR_GPU"), facts)
    case("no SASS for the GPU", "[cuda.device.0]\ncompute_capability = 7.0\n", no_sass_expected)

    def ptx_old_driver(doc, rc):
        fs = findings(doc, "runtime.kernel-launch-failed")
        expect("a CUDA 8 driver: PTX ISA 6.0 unsupported on every GPU, SASS ran",
               len(fs) == 8 and all("PTX JIT fails on GPU" in f["message"]
                                    and "CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)" in f["message"]
                                    and "at cuModuleLoadData" in f["message"] for f in fs),
               [f["message"] for f in doc["findings"]])
    case("unsupported PTX version", "driver_version = 8000\n", ptx_old_driver)
    case("invalid PTX on one GPU",
         "[cuda.device.1]\nerror.cuModuleLoadData.ptx = CUDA_ERROR_INVALID_PTX\n",
         one_finding("runtime.kernel-launch-failed", "PTX JIT fails on GPU 1",
                     "CUDA_ERROR_INVALID_PTX (218)", subject="GPU 1"))
    case("driver mismatch at cuInit",
         "error.cuInit = CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n",
         one_finding("runtime.kernel-launch-failed", "before any GPU", "cuInit",
                     "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)", subject="cuInit"))
    case("no device at cuInit", "error.cuInit = CUDA_ERROR_NO_DEVICE\n",
         one_finding("runtime.kernel-launch-failed", "before any GPU",
                     "CUDA_ERROR_NO_DEVICE (100)"))
    case("compat libcuda on an unsupported GPU",
         "[cuda.device.0]\nerror.cuDevicePrimaryCtxRetain = "
         "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE\n",
         one_finding("runtime.kernel-launch-failed", "no kernel runs on GPU 0",
                     "failed at cuDevicePrimaryCtxRetain",
                     "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)"))
    case("a GPU that computes wrongly", "[cuda.device.2]\nwrong_result = 1\n",
         one_finding("runtime.kernel-launch-failed", "no kernel runs on GPU 2",
                     "failed at result check: wrong result: out[0] = 0, expected 1 (256 of 256"))

    def hung(doc, rc):
        fs = findings(doc, "runtime.kernel-launch-failed")
        msg = fs[0]["message"] if fs else ""
        expect("a launch that never returns: the child's deadline (4 x --vendor-timeout) "
               "records it on the image",
               len(fs) == 1 and "GPU 0" in msg and "failed at cuLaunchKernel: timed out after "
               "2000 ms in cuLaunchKernel" in msg and "PTX image never ran" in msg,
               [f["message"] for f in doc["findings"]])
    case("hang in cuLaunchKernel", "[cuda.device.0]\nhang.cuLaunchKernel = 1\n", hung,
         extra=("--stable", "--vendor-timeout", "500"))

    # ---- the launch against the static predictions
    def unpredicted(doc, rc):
        fs = findings(doc, "runtime.launch-contradicts-prediction")
        expect("a failure no static rule predicted: said, and explained by the failure",
               len(fs) == 1 and "no static check predicted" in fs[0]["message"]
               and fs[0].get("caused_by") == "runtime.kernel-launch-failed",
               [(f["rule"], f.get("caused_by")) for f in doc["findings"]])
    case("unpredicted failure", "[cuda.device.2]\nwrong_result = 1\n", unpredicted)

    def unpredicted_init(doc, rc):
        fs = findings(doc, "runtime.launch-contradicts-prediction")
        expect("cuInit failed and nothing predicted it: said once, about cuInit",
               len(fs) == 1 and fs[0].get("subject") == "cuInit"
               and "yet cuInit failed" in fs[0]["message"],
               [(f["rule"], f["message"][:90]) for f in doc["findings"]])
    case("unpredicted cuInit failure", "error.cuInit = CUDA_ERROR_UNKNOWN\n",
         unpredicted_init)

    def predicted(doc, rc):
        fs = findings(doc, "runtime.launch-contradicts-prediction")
        expect("a predicted cuInit failure: no contradiction", not fs,
               [f["message"] for f in fs])
    case("predicted failure (driver mismatch)", "error.cuInit = CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n"
         "[nvml]\nerror.nvmlInit_v2 = NVML_ERROR_LIB_RM_VERSION_MISMATCH\n", predicted)

    def wrong_prediction(doc, rc):
        fs = findings(doc, "runtime.launch-contradicts-prediction")
        expect("driver.nvml-version-mismatch fired while the kernel ran: the prediction is "
               "called wrong", findings(doc, "driver.nvml-version-mismatch") and len(fs) == 8
               and "driver.nvml-version-mismatch predicted that no CUDA kernel can run here"
               in fs[0]["message"], [(f["rule"], f["message"][:80]) for f in doc["findings"]])
    case("prediction contradicted",
         "[nvml]\nerror.nvmlInit_v2 = NVML_ERROR_LIB_RM_VERSION_MISMATCH\n", wrong_prediction)

    # ---- refusals
    args, env = fixture_args(FIXTURE)
    for bad in (["--from", "/dev/null"], ["--no-vendor"]):
        p = subprocess.run([gpuenv, "doctor", "--launch", *bad], capture_output=True, text=True,
                           env=env, timeout=60)
        expect(f"doctor --launch {bad[0]}: usage error",
               p.returncode == 64 and "--launch needs libcuda" in p.stderr, p.stderr)

# ---- the embedded SASS image, read by gpuenv's own fat-binary reader
fatbin = os.path.join(SRC, "src", "vendor", "launch-module", "probe-kernel.fatbin")
p = subprocess.run([gpuenv, "scan", "--json", fatbin], capture_output=True, text=True, timeout=60)
try:
    files = json.loads(p.stdout).get("files", [])
except json.JSONDecodeError:
    files = []
sass = sorted(s for f in files for s in f.get("sass", []))
ptx = [x for f in files for x in f.get("ptx", [])]
want = sorted(f"sm_{a}" for a in (75, 80, 86, 89, 90, 100, 120))
expect("probe-kernel.fatbin: SASS for sm_75 … sm_120 and no PTX", sass == want and not ptx,
       f"{sass} {ptx} {p.stderr}")
sys.exit(1 if failed else 0)
