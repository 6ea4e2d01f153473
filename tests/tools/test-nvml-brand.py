#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The GPUs' brand read live from NVML (nvmlDeviceGetBrand, in the NVML child session) and
named as libnvidia-container names it (src/driver.c driver_get_device_brand(): Quadro, Tesla,
NVS, GRID, GeForce, TITAN, every other NVML brand "Unknown"), then judged where an image's
NVIDIA_REQUIRE_CUDA has brand= terms (container.image-cuda-newer-than-driver). The fake NVML
scripts the brand per device (`brand = <nvmlBrandType_t number>`) over the h100-sxm-550
fixture (8 H100 on the PCI bus, driver 550.54.15, CUDA 12.4); a device without one answers
NVML_ERROR_NOT_SUPPORTED.
Usage: test-nvml-brand.py GPUENV SOURCE_ROOT"""
import json
import os
import re
import subprocess
import sys
import tempfile

GPUENV, SRC = sys.argv[1], sys.argv[2]
FIX = os.path.join(SRC, "tests", "fixtures", "h100-sxm-550")
FAKES = os.path.join(os.environ.get("GPUENV_BUILD_ROOT", ""), "tests", "fakes")
# nvidia/cuda's form: a CUDA newer than R550 reports, or R550 on a Tesla-branded GPU
REQUIRE = "cuda>=12.8 brand=tesla,driver>=550,driver<551"
failed = []


def check(what, cond, detail=""):
    print(f"ok: {what}" if cond else f"FAIL: {what} {detail}")
    if not cond:
        failed.append(what)


def scenario(tmp, brands):
    """The fixture's scenario with brand = N added to device i for each (i, N) of brands."""
    text = open(os.path.join(FIX, "scenario.ini"), encoding="utf-8").read()
    for i, b in brands.items():
        text = re.sub(r"(\[nvml\.device\.%d\]\n)" % i, r"\g<1>brand = %d\n" % b, text)
    path = os.path.join(tmp, "scenario-%s.ini" % "-".join(f"{i}_{b}" for i, b in brands.items()))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def run(cmd, ini, *extra):
    """The judged process's environment: the image's variables (--env-file)."""
    envfile = ini + ".env"
    with open(envfile, "w", encoding="utf-8") as f:
        f.write(f"NVIDIA_REQUIRE_CUDA={REQUIRE}\nNVIDIA_VISIBLE_DEVICES=all\n")
    env = dict(os.environ, GPUENV_FAKE_SCENARIO=ini)
    p = subprocess.run([GPUENV, cmd, "--json", "--stable", "--sysroot", os.path.join(FIX, "root"),
                        "--env-file", envfile,
                        "--nvml-lib", os.path.join(FAKES, "libnvidia-ml.so.1"),
                        "--cuda-lib", os.path.join(FAKES, "libcuda.so.1"), *extra],
                       capture_output=True, text=True, env=env, timeout=300)
    try:
        return json.loads(p.stdout)
    except ValueError:
        check(f"{cmd}: JSON", False, p.stderr[-400:])
        return {}


def main():
    if not os.path.isfile(os.path.join(FAKES, "libnvidia-ml.so.1")):
        print(f"SKIP nvml brand: no fake NVML in {FAKES}")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        # 2 Tesla, 5 GeForce, 14 NVIDIA (an NVML brand libnvidia-container calls Unknown)
        ini = scenario(tmp, {0: 2, 1: 5, 2: 14})
        devs = run("report", ini).get("driver", {}).get("nvml", {}).get("devices", [])
        got = [(d.get("brand", {}).get("value"), d.get("brand_type", {}).get("value"))
               for d in devs[:3]]
        check("brands as libnvidia-container names them, with NVML's number",
              got == [("Tesla", 2), ("GeForce", 5), ("Unknown", 14)], str(got))
        st = devs[3].get("brand", {}) if len(devs) > 3 else {}
        check("a device whose NVML answers NOT_SUPPORTED: that state, no brand",
              st.get("state") == "unsupported" and "value" not in st, str(st))

        def rule(brands):
            doc = run("doctor", scenario(tmp, brands))
            return [f for f in doc.get("findings", [])
                    if f["rule"] == "container.image-cuda-newer-than-driver"]

        doc = run("doctor", scenario(tmp, {}))
        skip = [x for x in doc.get("skipped", [])
                if x["rule"] == "container.image-cuda-newer-than-driver"]
        check("no brand read: could not tell, the brands it refuses named, not a pass",
              skip and "brand is not known" in skip[0]["reason"] and
              not [f for f in doc.get("findings", [])
                   if f["rule"] == "container.image-cuda-newer-than-driver"], str(skip)[:400])
        every = {i: 2 for i in range(8)}
        check("every GPU a Tesla: brand=tesla,driver>=550,driver<551 holds, no finding",
              rule(every) == [], str(rule(every))[:400])
        one_geforce = {**every, 5: 5}
        found = rule(one_geforce)
        check("one GeForce among them: nvidia-container-cli refuses the image",
              len(found) == 1 and found[0]["severity"] in ("error", "warning") and
              "unsatisfied condition: cuda>=12.8" in found[0]["message"], str(found)[:600])
    print(f"{len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
