#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The exporter's DCGM series against dcgm-exporter's field list, row by row (issue 16: "the
same names, types, units and labels"). tests/data/dcgm-metrics.tsv is a copy of the
project's sourced facts table (its `source` rows name dcgm-exporter's
etc/default-counters.csv, render_metrics.go and go-dcgm's dcgm_fields.h). For every row:
- a field dcgm-exporter ships enabled is one the exporter knows (exported, or said
  unsupported by gpuenv_exporter_field_supported), and every field the exporter knows is a
  row of the table (no invented DCGM name);
- an exported field has the row's TYPE (OpenMetrics: `unknown` for a counter, whose name
  has no `_total`) and its HELP verbatim;
- its value is the NVML fact of the same GPU (`gpuenv report --json`) in the row's unit,
  printed as dcgm-exporter prints it (integers %d, the power as a double %f);
- every sample carries the table's labels in its order with the GPU's own values; the
  Hostname is $NODE_NAME where set, as dcgm-exporter's internal/pkg/hostname does;
- a field one GPU does not answer is left out for that GPU only, with
  gpuenv_exporter_field_supported 0 there and 1 on the others.
Usage: test-exporter-dcgm-fields.py GPUENV"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import SRC, fixture_args, parse  # noqa: E402

GPUENV = sys.argv[1]
FIXTURE = "nvml-h100-healthy"
SLOW = ["--vendor-timeout", "60000"]  # the sanitizer build under load: never the deadline
TABLE = os.path.join(SRC, "tests", "data", "dcgm-metrics.tsv")
failures = []

# DCGM field → the fact of driver.nvml.devices[] (docs/snapshot-schema.md) that is the
# NVML call of the table's nvml_equivalent column. FB_FREE has its own rule (below).
FACT = {
    "DCGM_FI_DEV_SM_CLOCK": "clock_sm_mhz",
    "DCGM_FI_DEV_MEM_CLOCK": "clock_memory_mhz",
    "DCGM_FI_DEV_MEMORY_TEMP": "temperature_memory_c",
    "DCGM_FI_DEV_GPU_TEMP": "temperature_c",
    "DCGM_FI_DEV_POWER_USAGE": "power_mw",
    "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": "energy_mj",
    "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": "pcie_replay_counter",
    "DCGM_FI_DEV_GPU_UTIL": "utilization_gpu_pct",
    "DCGM_FI_DEV_MEM_COPY_UTIL": "utilization_mem_pct",
    "DCGM_FI_DEV_ENC_UTIL": "utilization_encoder_pct",
    "DCGM_FI_DEV_DEC_UTIL": "utilization_decoder_pct",
    "DCGM_FI_DEV_FB_USED": "memory_used_mib",
    "DCGM_FI_DEV_FB_RESERVED": "memory_reserved_mib",
    "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL": "ecc_errors_corrected_volatile",
    "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL": "ecc_errors_uncorrected_volatile",
    "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL": "ecc_errors_corrected_aggregate",
    "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL": "ecc_errors_uncorrected_aggregate",
    "DCGM_FI_DEV_RETIRED_SBE": "retired_pages_sbe",
    "DCGM_FI_DEV_RETIRED_DBE": "retired_pages_dbe",
    "DCGM_FI_DEV_RETIRED_PENDING": "retired_pages_pending",
    "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS": "remapped_rows_uncorrectable",
    "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS": "remapped_rows_correctable",
    "DCGM_FI_DEV_ROW_REMAP_FAILURE": "remapped_rows_failure",
}
# (the table's unit, the fact's unit suffix) → factor from the fact to the field. A pair not
# listed is a unit mismatch the test reports rather than guesses.
SCALE = {("MHz", "_mhz"): 1, ("degC", "_c"): 1, ("W", "_mw"): 1e-3, ("mJ", "_mj"): 1,
         ("percent", "_pct"): 1, ("MiB", "_mib"): 1, ("count", ""): 1, ("pages", ""): 1,
         ("rows", ""): 1, ("bool", ""): 1}
DOUBLES = {"DCGM_FI_DEV_POWER_USAGE"}  # DCGM doubles, printed with %f (render_metrics.go)


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def table():
    with open(TABLE, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return ({r["name"]: r for r in rows if r["kind"] == "metric"},
            [r for r in rows if r["kind"] == "label"],
            {r["name"]: r for r in rows if r["kind"] == "label-field"})


def run(args, env, *extra):
    p = subprocess.run([GPUENV, *extra, *SLOW, *args], env=env, capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"{' '.join(extra)}: exit {p.returncode}\n{p.stderr}")
    return p.stdout


def fact(dev, name):
    n = dev.get(name)
    return n.get("value") if isinstance(n, dict) else None


def unit_suffix(fact_name):
    for suf in ("_mhz", "_mib", "_mw", "_mj", "_pct", "_c"):
        if fact_name.endswith(suf):
            return suf
    return ""


def expected_value(field, dev, unit):
    if field == "DCGM_FI_DEV_FB_FREE":
        # nvmlMemory_v2_t.free where NVML gives it, else total − reserved − used (MiB)
        free = fact(dev, "memory_free_mib")
        if free is None:
            parts = [fact(dev, k) for k in ("memory_total_mib", "memory_reserved_mib",
                                             "memory_used_mib")]
            free = None if None in parts else parts[0] - parts[1] - parts[2]
        return free
    name = FACT.get(field)
    v = fact(dev, name) if name else None
    if v is None:
        return None
    scale = SCALE.get((unit, unit_suffix(name)))
    if scale is None:
        check(False, f"{field}: the table's unit {unit} against the fact {name}")
        return None
    return (1 if v else 0) if isinstance(v, bool) else v * scale


def check_rows(metrics, label_rows, label_fields, text, om, snap, node):
    fams, omfams = parse(text), parse(om, openmetrics=True)
    supported = {}
    for _, labels, v in fams["gpuenv_exporter_field_supported"]["samples"]:
        supported.setdefault(labels["field"], {})[labels["gpu"]] = v
    enabled = {n for n, r in metrics.items() if r["default_counters_csv"] == "enabled"}
    check(enabled <= set(supported),
          f"every field dcgm-exporter ships enabled is known ({len(enabled)}; missing: "
          f"{sorted(enabled - set(supported))})")
    check(set(supported) <= set(metrics),
          f"every field the exporter knows is a row of the table (not: "
          f"{sorted(set(supported) - set(metrics))})")
    dcgm_fams = {n for n in fams if n.startswith("DCGM_")}
    check(dcgm_fams <= set(supported), f"every DCGM family exported is a known field "
          f"(not: {sorted(dcgm_fams - set(supported))})")

    devs = snap["driver"]["nvml"]["devices"]
    driver = fact(snap["driver"]["nvml"], "driver_version")
    hostname = node or fact(snap.get("collection", {}), "hostname") or ""
    # the table's label rows are in render_metrics.go's order ("fixed labels in the order
    # above"); those after the driver version are the Xid field's and --kubernetes' own
    names = [r["name"] for r in label_rows]
    order = names[:names.index("DCGM_FI_DRIVER_VERSION") + 1]
    check("DCGM_FI_DRIVER_VERSION" in label_fields
          and label_fields["DCGM_FI_DRIVER_VERSION"]["default_counters_csv"] == "enabled",
          "the driver version is dcgm-exporter's one enabled label field")
    compared = 0
    for field in sorted(dcgm_fams):
        row = metrics[field]
        fam = fams[field]
        check(fam.get("type") == row["prom_type"],
              f"{field}: TYPE {fam.get('type')} is the table's {row['prom_type']}")
        check(fam.get("help") == row["help"], f"{field}: HELP verbatim ({fam.get('help')!r})")
        omtype = "unknown" if row["prom_type"] == "counter" else row["prom_type"]
        check(omfams.get(field, {}).get("type") == omtype
              and omfams[field].get("help") == row["help"],
              f"{field}: OpenMetrics TYPE {omtype} and the same HELP")
        for _, labels, v in fam["samples"]:
            gpu = labels.get("gpu", "")
            dev = devs[int(gpu)] if gpu.isdigit() and int(gpu) < len(devs) else {}
            mig = "GPU_I_ID" in labels
            want_keys = [k for k in order if mig or k not in ("GPU_I_PROFILE", "GPU_I_ID")]
            if list(labels) != want_keys:
                check(False, f"{field} gpu {gpu}: labels {list(labels)} are {want_keys}")
                continue
            want = {"UUID": fact(dev, "uuid"), "pci_bus_id": fact(dev, "pci_bus_id"),
                    "device": f"nvidia{gpu}", "modelName": fact(dev, "name"),
                    "Hostname": hostname, "DCGM_FI_DRIVER_VERSION": driver}
            bad = {k: labels[k] for k, w in want.items() if labels[k] != (w or "")}
            if bad:
                check(False, f"{field} gpu {gpu}: label values {bad} are not {want}")
            if mig:
                continue  # the MIG device's own memory: test-exporter.py's MIG case
            exp = expected_value(field, dev, row["unit"])
            form = r"-?\d+\.\d{6}" if field in DOUBLES else r"-?\d+"
            if exp is None or not re.fullmatch(form, v) or abs(float(v) - exp) > 1e-6:
                check(False, f"{field} gpu {gpu}: {v} is NVML's {exp} in {row['unit']} "
                      f"printed as {'%f' if field in DOUBLES else '%d'}")
            compared += 1
    check(compared >= 15 * len(devs),
          f"{compared} values of {len(devs)} GPUs compared with NVML's, in the table's units")
    return fams, supported


def per_gpu_skip(args, env, scenario_path):
    """A field one GPU does not answer (NOT_SUPPORTED) is left out for it only."""
    with open(scenario_path, encoding="utf-8") as f:
        text = f.read()
    head, sep, rest = text.partition("[nvml.device.3]\n")
    body, nxt, tail = rest.partition("\n[")
    body = "\n".join(ln for ln in body.split("\n") if not ln.startswith("temperature_memory ="))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "scenario.ini")
        with open(path, "w", encoding="utf-8") as f:
            f.write(head + sep + body + nxt + tail)
        p = subprocess.run([GPUENV, "exporter", "--once", *SLOW, *args],
                           env=dict(env, GPUENV_FAKE_SCENARIO=path), capture_output=True,
                           text=True, timeout=300)
    check(p.returncode == 0, f"a field one GPU does not answer is not fatal (exit {p.returncode})")
    fams = parse(p.stdout)
    gpus = {l["gpu"] for _, l, _ in fams["DCGM_FI_DEV_MEMORY_TEMP"]["samples"]}
    check(gpus == {"0", "1", "2", "4", "5", "6", "7"},
          f"DCGM_FI_DEV_MEMORY_TEMP left out for GPU 3 only (exported for {sorted(gpus)})")
    sup = {l["gpu"]: v for _, l, v in fams["gpuenv_exporter_field_supported"]["samples"]
           if l["field"] == "DCGM_FI_DEV_MEMORY_TEMP"}
    check(sup.get("3") == "0" and all(sup.get(g) == "1" for g in gpus),
          "gpuenv_exporter_field_supported: 0 on GPU 3, 1 on the others")
    check(len(fams["DCGM_FI_DEV_GPU_TEMP"]["samples"]) == 8, "GPU 3's other fields stay")


def main():
    metrics, label_rows, label_fields = table()
    check(len(metrics) >= 40 and any(r["name"] == "Hostname" for r in label_rows),
          f"the table read: {len(metrics)} metric rows")
    # the healthy DGX H100 with and without $NODE_NAME; the faulty one: ECC errors,
    # remapped rows, replays, processes (values other than 0)
    for fixture, node in ((FIXTURE, ""), (FIXTURE, "gpu-node-7"),
                          ("nvml-h100-health-faults", "")):
        args, env = fixture_args(fixture)
        env.pop("NODE_NAME", None)
        snap = json.loads(run(args, env, "report", "--json"))
        e = dict(env, NODE_NAME=node) if node else env
        print(f"# {fixture}, NODE_NAME {node or 'unset'}")
        text = run(args, e, "exporter", "--once")
        om = run(args, e, "exporter", "--once", "--openmetrics")
        check_rows(metrics, label_rows, label_fields, text, om, snap, node)
    args, env = fixture_args(FIXTURE)
    per_gpu_skip(args, env, env["GPUENV_FAKE_SCENARIO"])
    if failures:
        sys.exit(f"{len(failures)} failure(s)")


main()
