#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The exporter's AMD and Intel series (docs/exporter.md "AMD and Intel GPUs"): `gpuenv
exporter --once` on the healthy RX 7900 XTX fixture with the fake AMD SMI, and on the Rocket
Lake Level Zero fixture with the fake Level Zero loader (its UHD Graphics 750 plus a discrete
Arc A770 added to the scenario here, with Sysman's temperatures, energy, memory used and RAS
totals), both formats parsed strictly (exporter_util.parse) and
the text one by `promtool check metrics` (Debian's prometheus; skipped, saying so, without
it): the values in base units, a reading the library marks unsupported left out, amdsmi_init
failing, a library hanging in the middle of a GPU, Sysman calls refused, failing or zesInit
failing (recorded per GPU, never fatal), and a machine with neither driver
exporting none of these series.
Usage: test-exporter-vendor.py GPUENV"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import FAKES, SRC, fixture_args, parse, value  # noqa: E402

GPUENV = sys.argv[1]
PROMTOOL = shutil.which("promtool")
FAILED = []

# the fixture's RX 7900 XTX at its PCI address; the readings are this test's own
AMD_DEVICE = """
[amdsmi]
lib_version = 24.6

[amdsmi.device.0]
bus_id = 0000:05:00.0
market_name = Radeon RX 7900 XTX
vendor_id = 4098
driver_version = 6.7.0
vram_total_mib = 24560
vram_used_mib = 1130
temperature_edge_c = 45
temperature_hotspot_c = 61
ecc_correctable = 0
ecc_uncorrectable = 0
ecc_deferred = 0
energy_count = 655360000
energy_resolution_uj = 15.25
gfx_activity_pct = 87
umc_activity_pct = 12
power_average_w = 291
"""

ARC_DEVICE = """
[levelzero.device.1]
name = Intel(R) Arc(TM) A770 Graphics
type = 1
vendor_id = 0x8086
device_id = 0x56a0
integrated = 0
memory_total_mib = 16288
memory_free_mib = 15264
temperature_global_c = 48.6
temperature_gpu_c = 47.2
temperature_memory_c = 40
energy_uj = 123456789012
ras_correctable = 7
ras_uncorrectable = 0
engine_all_activity_pct = 37
engine_compute_activity_pct = 81
engine_single = 1
"""
ZES_UNSCRIPTED = "error.zesInit = ZE_RESULT_ERROR_UNSUPPORTED_FEATURE\n"


def check(what, got, want):
    if got != want:
        FAILED.append(f"{what}: {got!r}, want {want!r}")


def run(fixture, extra_args, scenario_tail, openmetrics=False, timeout_ms=60000):
    """The exposition of `exporter --once` on tests/fixtures/<fixture> with the fixture's
    scenario plus scenario_tail, and extra_args in place of the fixture's own."""
    d = os.path.join(SRC, "tests", "fixtures", fixture)
    with open(os.path.join(d, "scenario.ini"), encoding="utf-8") as f:
        # the Rocket Lake fixture leaves Sysman unscripted (zesInit unsupported); this
        # test scripts it
        text = f.read().replace(ZES_UNSCRIPTED, "") + scenario_tail
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as s:
        s.write(text)
    try:
        _, env = fixture_args(fixture, s.name)
        p = subprocess.run([GPUENV, "exporter", "--once", "--vendor-timeout", str(timeout_ms),
                            "--sysroot", os.path.join(d, "root"), *extra_args]
                           + (["--openmetrics"] if openmetrics else []),
                           env=env, capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(s.name)
    if p.returncode:
        sys.exit(f"FAIL {fixture}: exit {p.returncode}: {p.stderr}")
    return p.stdout


def both(fixture, extra_args, scenario_tail):
    """Both formats, parsed strictly; the text one through promtool too."""
    text = run(fixture, extra_args, scenario_tail)
    om = run(fixture, extra_args, scenario_tail, openmetrics=True)
    fams, om_fams = parse(text), parse(om, openmetrics=True)
    if PROMTOOL:
        p = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True,
                           text=True, timeout=120)
        # promtool's lint flags only the gpuenv_* series of this file's concern
        lint = [l for l in (p.stdout + p.stderr).splitlines()
                if l.startswith(("gpuenv_amd", "gpuenv_intel", "gpuenv_amdsmi",
                                 "gpuenv_level_zero"))]
        if lint:
            FAILED.append(f"{fixture}: promtool check metrics: {lint}")
    return fams, om_fams


def amd():
    amdsmi = ["--amdsmi-lib", os.path.join(FAKES, "libamd_smi.so")]
    fams, om = both("amd-rx7900xtx-rocm62-healthy", amdsmi, AMD_DEVICE)
    gpu = {"gpu": "0", "pci_bus_id": "0000:05:00.0"}
    check("amdsmi up", value(fams, "gpuenv_amdsmi_up"), "1")
    check("amd gpu count", value(fams, "gpuenv_amd_gpus"), "1")
    check("amd info", value(fams, "gpuenv_amd_gpu_device_info", model="Radeon RX 7900 XTX",
                            driver_version="6.7.0", **gpu), "1")
    check("edge", value(fams, "gpuenv_amd_gpu_temperature_celsius", sensor="edge", **gpu),
          "45")
    check("hotspot",
          value(fams, "gpuenv_amd_gpu_temperature_celsius", sensor="hotspot", **gpu), "61")
    check("vram total", value(fams, "gpuenv_amd_gpu_memory_total_bytes", **gpu),
          str(24560 * 1024 * 1024))
    check("vram used", value(fams, "gpuenv_amd_gpu_memory_used_bytes", **gpu),
          str(1130 * 1024 * 1024))
    # 655360000 counts of 15.25 µJ
    check("energy", value(fams, "gpuenv_amd_gpu_energy_joules_total", **gpu), "9994.240000")
    check("energy type", fams["gpuenv_amd_gpu_energy_joules_total"]["type"], "counter")
    check("energy OpenMetrics family", om["gpuenv_amd_gpu_energy_joules"]["type"], "counter")
    check("gfx", value(fams, "gpuenv_amd_gpu_activity_ratio", engine="gfx", **gpu), "0.870000")
    check("umc", value(fams, "gpuenv_amd_gpu_activity_ratio", engine="umc", **gpu), "0.120000")
    # mm left out of the scenario: the fake answers 65535, the library's "no reading"
    check("mm", value(fams, "gpuenv_amd_gpu_activity_ratio", engine="mm", **gpu), None)
    check("ecc", value(fams, "gpuenv_amd_gpu_ecc_errors_total", severity="uncorrectable",
                       **gpu), "0")
    # library 24.6: amdsmi_power_info_t {current, average}; a Navi board has the average only
    check("power", value(fams, "gpuenv_amd_gpu_power_watts", **gpu), "291")
    check("amd failed calls", value(fams, "gpuenv_amd_gpu_amdsmi_failed_calls", **gpu), "0")
    check("amd info OpenMetrics", om["gpuenv_amd_gpu_device"]["type"], "info")
    # no DCGM names for an AMD board
    check("DCGM series on AMD", [f for f in fams if f.startswith("DCGM_")], [])

    # library 25.3 (ROCm 6.4): {uint64_t socket_power (the host's), current, average}; the
    # fake leaves socket_power and current at UINT32_MAX, a 24.x reading of it would say 0 W
    lib = AMD_DEVICE.replace("lib_version = 24.6", "lib_version = 25.3")
    fams, _ = both("amd-rx7900xtx-rocm62-healthy", amdsmi, lib)
    check("power, library 25.3", value(fams, "gpuenv_amd_gpu_power_watts", **gpu), "291")
    # library 26.1 (ROCm 7.1): the current reading of an MI300 first ...
    lib = AMD_DEVICE.replace("lib_version = 24.6", "lib_version = 26.1")
    fams, _ = both("amd-rx7900xtx-rocm62-healthy", amdsmi,
                   lib.replace("power_average_w = 291", "power_current_w = 553"))
    check("power, library 26.1, current", value(fams, "gpuenv_amd_gpu_power_watts", **gpu),
          "553")
    # ... and socket_power (watts from 26) where neither current nor average is given
    fams, _ = both("amd-rx7900xtx-rocm62-healthy", amdsmi,
                   lib.replace("power_average_w = 291", "power_socket_w = 288"))
    check("power, library 26.1, socket", value(fams, "gpuenv_amd_gpu_power_watts", **gpu),
          "288")
    # libraries 25.0-25.2 and 27 (no published layout): not read (the energy counter stays),
    # and not counted as a failed call (the fake lays them out as 25.3 does, so reading them
    # as 25.3 would show 291)
    for version in ("25.1", "27.0"):
        fams, _ = both("amd-rx7900xtx-rocm62-healthy", amdsmi,
                       AMD_DEVICE.replace("lib_version = 24.6", "lib_version = " + version))
        check("no power from an unknown layout " + version,
              value(fams, "gpuenv_amd_gpu_power_watts", **gpu), None)
        check("energy with an unknown power layout " + version,
              value(fams, "gpuenv_amd_gpu_energy_joules_total", **gpu), "9994.240000")
        check("amd failed calls, unknown layout " + version,
              value(fams, "gpuenv_amd_gpu_amdsmi_failed_calls", **gpu), "0")

    fams, _ = both("amd-rx7900xtx-rocm62-healthy", amdsmi,
                   "\n[amdsmi]\nerror.amdsmi_init = AMDSMI_STATUS_DRIVER_NOT_LOADED\n")
    check("amdsmi down", value(fams, "gpuenv_amdsmi_up"), "0")
    check("amdsmi init error",
          value(fams, "gpuenv_amdsmi_init_error", error="AMDSMI_STATUS_DRIVER_NOT_LOADED"), "1")
    check("no AMD GPU series after a failed init",
          [f for f in fams if f.startswith("gpuenv_amd_gpu_")], [])

    # a library that hangs in the middle of a GPU: the child is killed at the deadline, the
    # call counts as failed, what it answered before stays, the exposition is whole
    fams = parse(run("amd-rx7900xtx-rocm62-healthy", amdsmi,
                     AMD_DEVICE + "hang.amdsmi_get_gpu_activity = 1\n", timeout_ms=3000))
    check("failed calls after a hang",
          value(fams, "gpuenv_amd_gpu_amdsmi_failed_calls", **gpu), "1")
    check("edge before the hang",
          value(fams, "gpuenv_amd_gpu_temperature_celsius", sensor="edge", **gpu), "45")
    check("activity after the hang", fams.get("gpuenv_amd_gpu_activity_ratio"), None)


def intel():
    ze = ["--ze-lib", os.path.join(FAKES, "libze_loader.so.1")]
    fams, om = both("rw-intel-rkl-level-zero-session-fixed", ze, ARC_DEVICE)
    check("level zero up", value(fams, "gpuenv_level_zero_up"), "1")
    check("intel gpu count", value(fams, "gpuenv_intel_gpus"), "2")
    check("igpu info", value(fams, "gpuenv_intel_gpu_device_info", gpu="0",
                             model="Intel(R) UHD Graphics 750", device_id="0x4c8a",
                             integrated="true", driver_version="1"), "1")
    check("arc info", value(fams, "gpuenv_intel_gpu_device_info", gpu="1",
                            model="Intel(R) Arc(TM) A770 Graphics", device_id="0x56a0",
                            integrated="false"), "1")
    check("arc memory", value(fams, "gpuenv_intel_gpu_memory_total_bytes", gpu="1"),
          str(16288 * 1024 * 1024))
    # the iGPU has no device-local memory: no sample, not 0
    check("igpu memory", value(fams, "gpuenv_intel_gpu_memory_total_bytes", gpu="0"), None)
    check("intel info OpenMetrics", om["gpuenv_intel_gpu_device"]["type"], "info")
    # Sysman (zesInit, then the readings of the Sysman device with the A770's uuid)
    check("arc memory used", value(fams, "gpuenv_intel_gpu_memory_used_bytes", gpu="1"),
          str(1024 * 1024 * 1024))
    check("igpu memory used", value(fams, "gpuenv_intel_gpu_memory_used_bytes", gpu="0"), None)
    for sensor, want in (("global", "49"), ("gpu", "47"), ("memory", "40")):
        check(f"arc {sensor} temperature",
              value(fams, "gpuenv_intel_gpu_temperature_celsius", gpu="1", sensor=sensor), want)
    check("igpu temperature",
          value(fams, "gpuenv_intel_gpu_temperature_celsius", gpu="0", sensor="gpu"), None)
    check("arc energy", value(fams, "gpuenv_intel_gpu_energy_joules_total", gpu="1"),
          "123456.789012")
    check("energy type", fams["gpuenv_intel_gpu_energy_joules_total"]["type"], "counter")
    check("energy OpenMetrics family", om["gpuenv_intel_gpu_energy_joules"]["type"], "counter")
    check("arc ras correctable", value(fams, "gpuenv_intel_gpu_ras_errors_total", gpu="1",
                                       severity="correctable"), "7")
    check("arc ras uncorrectable", value(fams, "gpuenv_intel_gpu_ras_errors_total", gpu="1",
                                         severity="uncorrectable"), "0")
    check("intel failed calls", value(fams, "gpuenv_intel_gpu_level_zero_failed_calls", gpu="1"),
          "0")
    # engine groups: two activity readings apart; a single engine and an unlisted group
    # (render) leave no sample
    for engine, want in (("all", "0.370000"), ("compute", "0.810000"), ("render", None)):
        check(f"arc {engine} activity",
              value(fams, "gpuenv_intel_gpu_activity_ratio", gpu="1", engine=engine), want)
    check("igpu activity (no engine group)",
          value(fams, "gpuenv_intel_gpu_activity_ratio", gpu="0", engine="all"), None)
    # an active time that runs backwards is malformed: no sample, the rest exported
    fams, _ = both("rw-intel-rkl-level-zero-session-fixed", ze, ARC_DEVICE + "engine_lies = 1\n")
    check("activity from a counter running backwards",
          value(fams, "gpuenv_intel_gpu_activity_ratio", gpu="1", engine="all"), None)
    check("memory used beside a lying engine counter",
          value(fams, "gpuenv_intel_gpu_memory_used_bytes", gpu="1"), str(1024 * 1024 * 1024))

    # RAS refused (non-root), energy unsupported: those left out and counted where an error,
    # the rest exported; never fatal
    fams, _ = both("rw-intel-rkl-level-zero-session-fixed", ze, ARC_DEVICE
                   + "error.zesRasGetState = ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS\n"
                   + "error.zesPowerGetEnergyCounter = ZE_RESULT_ERROR_UNKNOWN\n"
                   + "error.zesEngineGetActivity = ZE_RESULT_ERROR_UNKNOWN\n")
    check("ras refused", value(fams, "gpuenv_intel_gpu_ras_errors_total", gpu="1",
                               severity="uncorrectable"), None)
    check("energy failed", value(fams, "gpuenv_intel_gpu_energy_joules_total", gpu="1"), None)
    check("engine activity failed",
          value(fams, "gpuenv_intel_gpu_activity_ratio", gpu="1", engine="all"), None)
    check("failed calls (energy, both groups' activity; RAS refused is not an error)",
          value(fams, "gpuenv_intel_gpu_level_zero_failed_calls", gpu="1"), "3")
    check("temperature despite the failures",
          value(fams, "gpuenv_intel_gpu_temperature_celsius", gpu="1", sensor="gpu"), "47")

    # zesInit failing: the core series stay, no Sysman series
    fams, _ = both("rw-intel-rkl-level-zero-session-fixed", ze, ARC_DEVICE.replace(
        "[levelzero.device.1]", "[levelzero]\nerror.zesInit = ZE_RESULT_ERROR_UNKNOWN\n"
        "[levelzero.device.1]"))
    check("up without Sysman", value(fams, "gpuenv_level_zero_up"), "1")
    check("memory total without Sysman",
          value(fams, "gpuenv_intel_gpu_memory_total_bytes", gpu="1"), str(16288 * 1024 * 1024))
    check("no Sysman series after zesInit failed",
          [f for f in fams if f.startswith(("gpuenv_intel_gpu_temperature",
                                            "gpuenv_intel_gpu_energy", "gpuenv_intel_gpu_ras",
                                            "gpuenv_intel_gpu_memory_used"))], [])


def neither():
    args, env = fixture_args("nvml-h100-healthy")
    p = subprocess.run([GPUENV, "exporter", "--once", "--vendor-timeout", "60000", *args],
                       env=env, capture_output=True, text=True, timeout=300)
    if p.returncode:
        sys.exit(f"FAIL nvml-h100-healthy: exit {p.returncode}: {p.stderr}")
    fams = parse(p.stdout)
    check("AMD/Intel series on an NVIDIA-only machine",
          [f for f in fams if f.startswith(("gpuenv_amd", "gpuenv_intel", "gpuenv_level_zero"))],
          [])


def main():
    amd()
    intel()
    neither()
    if not PROMTOOL:
        print("SKIP promtool check metrics: not installed (Debian: prometheus)")
    for f in FAILED:
        print("FAIL", f)
    print(f"{len(FAILED)} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
