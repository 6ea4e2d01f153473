#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv check` (docs/policy.md) on the fixtures' saved snapshots: the exit codes (0 pass,
1 failed by the policy, 2 errors, 65 an invalid policy naming its line, 66 unreadable), the
clauses (GPUs, driver, CUDA consistency, frameworks, architectures, waivers and their expiry,
the build profile), and every CI output validated: JUnit against tests/data/junit.xsd with
xmllint, SARIF against tests/data/sarif-2.1.0-subset.json with python3-jsonschema (each
skipped visibly where the tool is missing), GitHub annotations and the Markdown summary with
hostile text (newlines, '%', '::', terminal escapes) that must stay inside its line.

Usage: test-check-cli.py GPUENV SOURCE_ROOT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

GPUENV, SRC = sys.argv[1], sys.argv[2]
FIX = os.path.join(SRC, "tests", "fixtures")
failed = []
tmp = tempfile.mkdtemp(prefix="gpuenv-check-")


def check(what, cond, detail=""):
    print(f"ok: {what}" if cond else f"FAIL: {what} {detail}")
    if not cond:
        failed.append(what)


def snapshot(fixture):
    return os.path.join(FIX, fixture, "expected", "report.json")


def policy(text, name="policy.yml"):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def run(fixture, pol, *extra, today="2026-12-04"):
    args = [GPUENV, "check", "--from", snapshot(fixture), "--stable", "--today", today]
    if pol:
        args += ["--policy", pol]
    p = subprocess.run(args + list(extra), capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_json(fixture, pol, *extra, today="2026-12-04"):
    rc, out, err = run(fixture, pol, "--json", *extra, today=today)
    try:
        doc = json.loads(out)
        validate(doc, f"check --json of {fixture}")
        return rc, doc
    except ValueError:
        check(f"JSON of {fixture}", False, f"rc={rc} {err[:300]} {out[:300]}")
        return rc, {"clauses": [], "rules": []}


SCHEMA = None
try:
    import jsonschema
    SCHEMA = jsonschema.Draft202012Validator(
        json.load(open(os.path.join(SRC, "docs", "schema", "check.json"))))
except ImportError:
    print("SKIP check --json schema: python3-jsonschema is not installed (scripts/install-deps.sh --test)")


def validate(doc, what):
    if SCHEMA:
        errs = [e.message for e in SCHEMA.iter_errors(doc)]
        check(f"{what}: valid against docs/schema/check.json", not errs, "; ".join(errs[:3]))


def clause(doc, cid):
    return next((c for c in doc["clauses"] if c["id"] == cid), None)


def rule(doc, rid):
    return next((r for r in doc["rules"] if r["id"] == rid), None)


H100 = """version: 1
gpus:
  count: 8
  min_compute_capability: "9.0"
  model: "*H100*"
driver:
  version: ">=550, <560"
  branches: [550]
"""

# 1. h100-sxm-550 (8 H100, driver 550.54.15): every clause holds; its only finding is the
# R550 end-of-life warning, below the default fail_on (error)
rc, doc = run_json("h100-sxm-550", policy(H100))
check("h100: pass, exit 0", rc == 0 and doc.get("result") == "pass", f"rc={rc}")
for cid in ("gpus.count", "gpus.min_compute_capability", "gpus.model", "driver.version",
            "driver.branches"):
    check(f"h100: {cid} passes", (clause(doc, cid) or {}).get("status") == "pass",
          str(clause(doc, cid)))
check("h100: the clause keeps its line", (clause(doc, "gpus.model") or {}).get("line") == 5)
check("h100: driver.branch-eol below threshold",
      (rule(doc, "driver.branch-eol") or {}).get("state") == "below-threshold")

# 2. the same with fail_on: warning fails (1); a valid waiver passes (0) and is a SARIF
# suppression; the waiver past its date fails (1) and so does the finding again
rc, doc = run_json("h100-sxm-550", policy(H100 + "fail_on: warning\n"))
check("fail_on warning: exit 1", rc == 1 and rule(doc, "driver.branch-eol")["state"] == "fail",
      f"rc={rc}")
WAIVED = H100 + """fail_on: warning
waivers:
  - rule: driver.branch-eol
    reason: "R550 until the Q1 upgrade"
    expires: 2027-03-31
"""
rc, doc = run_json("h100-sxm-550", policy(WAIVED))
check("waiver: exit 0", rc == 0 and rule(doc, "driver.branch-eol")["state"] == "waived", f"rc={rc}")
rc, doc = run_json("h100-sxm-550", policy(WAIVED), today="2027-04-01")
check("expired waiver: exit 1", rc == 1, f"rc={rc}")
check("expired waiver: waivers[0] fails naming its date",
      "expired on 2027-03-31" in (clause(doc, "waivers[0]") or {}).get("message", ""))
check("expired waiver: the finding fails again", rule(doc, "driver.branch-eol")["state"] == "fail")
rc, doc = run_json("h100-sxm-550", policy("version: 1\nwaivers:\n  - rule: driver.no-such-rule\n"
                                          "    reason: typo\n    expires: 2099-01-01\n"))
check("waiver of no rule fails", rc == 1 and clause(doc, "waivers[0]")["status"] == "fail")

# 3. torch-cu130-on-r550: the seed script's consistency check (toolkit 12.4 vs torch cu130)
# fails; torch's CUDA 13.0 on driver 550 is an error finding: exit 2
CONSISTENT = """version: 1
cuda:
  toolkit: ">=12.1"
  consistent: true
frameworks:
  torch: ">=2.5"
architectures:
  targets: [sm_80, "9.0"]
"""
rc, doc = run_json("torch-cu130-on-r550", policy(CONSISTENT))
check("cu130 on r550: exit 2", rc == 2 and doc.get("result") == "errors", f"rc={rc}")
cc = clause(doc, "cuda.consistent") or {}
check("consistency fails naming both", cc.get("status") == "fail" and "12.4" in cc.get("message", "")
      and "13.0" in cc.get("message", ""), str(cc))
check("frameworks.torch passes", clause(doc, "frameworks.torch")["status"] == "pass")
check("architectures.sm_80 judged", clause(doc, "architectures.sm_80")["status"] in ("pass", "fail"))
check("framework.cuda-newer-than-driver fails",
      rule(doc, "framework.cuda-newer-than-driver")["state"] == "fail")

# 4. the build profile: a machine without a driver (python-venv-torch24-cu124) is judged on
# the toolkit and the framework only: no driver is not an error there
BUILD = "version: 1\nprofile: build\ndriver:\n  branches: [550]\ncuda:\n  toolkit: \">=11.8\"\n"
rc, doc = run_json("python-venv-torch24-cu124", policy(BUILD))
check("build profile: exit 0", rc == 0, f"rc={rc} {json.dumps(doc)[:400]}")
check("build profile: driver.branches skipped", clause(doc, "driver.branches")["status"] == "skipped")
check("build profile: runtime.no-driver-for-toolkit not judged",
      rule(doc, "runtime.no-driver-for-toolkit")["state"] == "not-in-profile")
rc, doc = run_json("python-venv-torch24-cu124", policy(BUILD), "--profile", "runtime")
check("--profile runtime overrides: exit 2", rc == 2, f"rc={rc}")

# 5. could not tell is never a pass: no GPU code read, no driver
rc, doc = run_json("no-gpu", policy("version: 1\narchitectures:\n  targets: [sm_90]\n"
                                    "driver:\n  version: \">=550\"\n"))
check("no-gpu: exit 2 (hardware.no-gpu), architectures could not tell", rc == 2 and "could not tell"
      in clause(doc, "architectures.sm_90")["message"])
check("no-gpu: driver.version fails", clause(doc, "driver.version")["status"] == "fail")

# 6. invalid policies: exit 65 and the line
for text, line, what in (
    ("version: 1\ngpus:\n  count: 8\n  modle: H100\n", 4, "unknown key"),
    ("version: 1\ndriver:\n  branches: [550, abc]\n", 3, "bad branch"),
    ("waivers:\n  - rule: driver.branch-eol\n    reason: x\n", 2, "waiver without expiry"),
    ("waivers:\n  - rule: a\n    reason: x\n    expires: 2026-02-30\n", 4, "impossible date"),
    ("a: &x [1]\nb: *x\n", 2, "alias"),
    ("version: 1\ncuda: {toolkit: \">=12 <13\"}\n", 2, "constraint without comma"),
    ("version: 1\n  bad indent: [\n", 2, "not YAML"),
):
    rc, out, err = run("no-gpu", policy(text, "bad.yml"))
    check(f"invalid policy ({what}): exit 65 naming line {line}",
          rc == 65 and f"line {line}:" in err, f"rc={rc} err={err.strip()}")
rc, out, err = run("no-gpu", os.path.join(tmp, "missing.yml"))
check("unreadable policy: exit 66", rc == 66, f"rc={rc}")
rc, out, err = run("no-gpu", None, "--profile", "gpu-node")
check("bad --profile: exit 64", rc == 64, f"rc={rc}")

# 6b. nothing to judge (an empty --sysroot: no PCI bus, no driver, no toolkit) is no pass,
# with no policy at all: the clause `evaluated` fails (docs/policy.md, Exit codes)
empty = os.path.join(tmp, "empty-root")
os.makedirs(empty)
p = subprocess.run([GPUENV, "check", "--json", "--no-vendor", "--sysroot", empty],
                   capture_output=True, text=True, timeout=120)
try:
    edoc = json.loads(p.stdout)
except ValueError:
    edoc = {"clauses": []}
check("empty --sysroot, no policy: exit 1, `evaluated` fails",
      p.returncode == 1 and (clause(edoc, "evaluated") or {}).get("status") == "fail",
      f"rc={p.returncode} {p.stdout[:300]} {p.stderr[-300:]}")
# ... nor in the build profile, where no driver is expected but a toolkit to build with is
with open(os.path.join(tmp, "build-only.yml"), "w") as f:
    f.write("version: 1\nprofile: build\n")
p = subprocess.run([GPUENV, "check", "--json", "--no-vendor", "--sysroot", empty, "--policy",
                    os.path.join(tmp, "build-only.yml")],
                   capture_output=True, text=True, timeout=120)
try:
    edoc = json.loads(p.stdout)
except ValueError:
    edoc = {"clauses": []}
check("empty --sysroot, build profile: exit 1, `evaluated` fails (no toolkit)",
      p.returncode == 1 and (clause(edoc, "evaluated") or {}).get("status") == "fail",
      f"rc={p.returncode} {p.stdout[:300]} {p.stderr[-300:]}")

# 7. the CI outputs over one run, with hostile text in the policy (a reason with a newline, a
# '%0A', '::' and an escape sequence)
HOSTILE = WAIVED.replace("R550 until the Q1 upgrade",
                         "line1\\n::error::injected %0A \\e[31mred\\e[0m | <b>x</b>") + \
    "  - rule: hardware.no-gpu\n    reason: \"old\\n::warning::x\"\n    expires: 2020-01-01\n"
hp = policy(HOSTILE, "hostile.yml")
junit, sarif, md = (os.path.join(tmp, n) for n in ("junit.xml", "out.sarif", "summary.md"))
rc, out, err = run("h100-sxm-550", hp, "--junit", junit, "--sarif", sarif, "--markdown", md,
                   "--github")
check("outputs: exit 1 (an expired waiver)", rc == 1, f"rc={rc} {err}")
annotations = [l for l in out.splitlines() if l.startswith("::")]
check("github: one annotation per failing clause", any(
    l.startswith("::error file=") and "title=gpuenv check%3A policy waivers[1]::" in l
    for l in annotations), "\n".join(annotations))
check("github: no injected command", not any(l.startswith("::warning::x") or
                                             l.startswith("::error::injected") for l in out.splitlines()))
check("github: newline and % escaped", all("\x1b" not in l for l in annotations)
      and any("%0A::warning::x" in l for l in annotations), "\n".join(annotations))
summary = open(md, encoding="utf-8").read()
check("markdown: no control byte, no raw HTML", "\x1b" not in summary and "<b>" not in summary)
check("markdown: the waiver's reason stays in its table row",
      all(l.startswith("|") or l.startswith("#") or not l.strip() or l.startswith("Profile")
          for l in summary.splitlines()), summary)
xml = open(junit, encoding="utf-8").read()
check("junit: no control byte", "\x1b" not in xml)
if shutil.which("xmllint"):
    p = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(SRC, "tests", "data", "junit.xsd"),
                        junit], capture_output=True, text=True)
    check("junit: valid against tests/data/junit.xsd", p.returncode == 0, p.stderr)
    p = subprocess.run(["xmllint", "--xpath", "count(//testcase)", junit], capture_output=True, text=True)
    n_rules = len(json.loads(subprocess.run([GPUENV, "doctor", "--list-rules", "--json"],
                                            capture_output=True, text=True).stdout))
    check("junit: a testcase per clause and per rule", p.stdout.strip() == str(n_rules + 7),
          f"{p.stdout} vs {n_rules} rules + 7 clauses")
else:
    print("SKIP junit schema: xmllint is not installed (libxml2-utils, scripts/install-deps.sh --test)")
log = json.load(open(sarif, encoding="utf-8"))
try:
    import jsonschema
    schema = json.load(open(os.path.join(SRC, "tests", "data", "sarif-2.1.0-subset.json")))
    errs = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(log)]
    check("sarif: valid against the 2.1.0 subset", not errs, "; ".join(errs[:5]))
except ImportError:
    print("SKIP sarif schema: python3-jsonschema is not installed (scripts/install-deps.sh --test)")
run0 = log["runs"][0]
rules = run0["tool"]["driver"]["rules"]
check("sarif: every result's ruleIndex names its ruleId",
      all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run0["results"]))
eol = [r for r in run0["results"] if r["ruleId"] == "driver.branch-eol"]
check("sarif: one result for the finding, suppressed by the waiver",
      len(eol) == 1 and eol[0].get("suppressions", [{}])[0].get("kind") == "external")
check("sarif: the catalogue's metadata", any(r["id"] == "driver.branch-eol" and
                                              r["shortDescription"]["text"] for r in rules))
check("sarif: the failed clause points at its line", any(
    r["ruleId"] == "policy/waivers[1]" and
    r["locations"][0]["physicalLocation"]["region"]["startLine"] == 14 for r in run0["results"]))

# 8. --host: the image (here the torch-cu130-on-r550 machine's saved snapshot: torch
# 2.9.0+cu130 in /usr/local/lib/python3.10/dist-packages) judged on other machines' hardware
# and driver, same rule ids
rc, doc = run_json("torch-cu130-on-r550", None, "--host", snapshot("h100-sxm-550"))
check("cu130 on an H100 with R550: exit 2, cuda-newer-than-driver",
      rc == 2 and rule(doc, "framework.cuda-newer-than-driver")["state"] == "fail", f"rc={rc}")
rc, doc = run_json("python-venv-torch24-cu124", policy("version: 1\ngpus:\n  model: \"*H100*\"\n"),
                   "--host", snapshot("h100-sxm-550"))
check("cu124 on an H100 with R550: the target's GPUs and driver are judged",
      clause(doc, "gpus.model")["status"] == "pass"
      and rule(doc, "runtime.no-driver-for-toolkit")["state"] == "pass"
      and rule(doc, "framework.cuda-newer-than-driver")["state"] == "pass", json.dumps(doc)[:600])
rc, out, err = run("torch-cu130-on-r550", None, "--host", snapshot("h100-sxm-550"),
                   "--host", snapshot("torch-cu130-gtx1080"))
check("matrix: one verdict per target", out.count("== on target ") == 2, out[:300])
check("matrix: exit 2 (the worst)", rc == 2, f"rc={rc}")
rc, out, err = run("no-gpu", None, "--host", os.path.join(tmp, "nothing.json"))
check("unreadable --host: exit 66", rc == 66, f"rc={rc} {err}")

# 8b. --target: a machine named by a string (GPUs through the knowledge base, a driver)
rc, doc = run_json("torch-cu130-on-r550", None, "--target", "gpu=H100,driver=550.54.15")
check("--target H100/R550: cu130 needs a newer driver",
      rc == 2 and rule(doc, "framework.cuda-newer-than-driver")["state"] == "fail", f"rc={rc}")
rc, doc = run_json("torch-cu130-on-r550", None, "--target", "gpu=10de:2335,driver=580.65.06")
check("--target by PCI id with R580: cu130 runs",
      rule(doc, "framework.cuda-newer-than-driver")["state"] == "pass", f"rc={rc}")
rc, out, err = run("torch-cu130-on-r550", None, "--target", "gpu=9.0,driver=550.54.15",
                   "--host", snapshot("torch-cu130-gtx1080"))
check("--target and --host: one verdict each", out.count("== on target ") == 2, out[:300])
rc, out, err = run("no-gpu", None, "--target", "gpu=H100,drver=550")
check("malformed --target: exit 64, field and column",
      rc == 64 and "field 2, column 10: unknown key 'drver'" in err, f"rc={rc} {err}")
rc, out, err = run("no-gpu", None, "--target", "gpu=No Such GPU 9000,driver=550")
check("unknown GPU in --target: exit 64, says how to name it",
      rc == 64 and "gpu=9.0" in err, f"rc={rc} {err}")

# 8b'. host-cuda-compat: the target's programs load the cuda-compat package's libcuda
# (NVIDIA's CUDA Compatibility guide, Forward Compatibility): on a data-center GPU over an older
# module of a branch NVIDIA's table lists for the package it runs the newer CUDA; over a branch
# the table does not list (end of life, New Feature Branch) it is not a supported target (a
# warning); on a GeForce it fails with 804; older than the module, 803
rc, doc = run_json("torch-cu130-on-r550", None, "--target",
                   "gpu=H100,driver=535.183.01,host-cuda-compat=13.0")
check("--target H100/R535 with cuda-compat 13.0: cu130 runs on the compat libcuda",
      rule(doc, "framework.cuda-newer-than-driver")["state"] == "pass" and
      rule(doc, "runtime.cuda-compat-unsupported")["state"] == "pass" and
      [c["verdict"] for c in doc["coverage"]] == ["native"],
      f"rc={rc} " + str([(r["id"], r["state"], r.get("message")) for r in doc["rules"]
                         if r["state"] == "fail"]) + str(doc.get("coverage")))
rc, doc = run_json("torch-cu130-on-r550", None, "--target",
                   "gpu=H100,driver=550.54.15,host-cuda-compat=13.0")
r = rule(doc, "runtime.cuda-compat-unsupported")
check("--target H100/R550 with cuda-compat 13.0: R550 is not a target NVIDIA lists for it",
      r.get("severity") == "warning" and r["state"] != "pass" and
      "cuda-compat-13-0 on R535, R570 only" in (r.get("message") or "") and
      "R550 branch is not a supported target" in (r.get("message") or ""), f"rc={rc} {r}")
rc, doc = run_json("torch-cu130-on-r550", None, "--target",
                   "gpu=H100,driver=560.35.03,host-cuda-compat=12.9")
r = rule(doc, "runtime.cuda-compat-unsupported")
check("--target H100/R560 (end of life) with cuda-compat 12.9: not a supported target",
      r.get("severity") == "warning" and "cuda-compat-12-9 on R535, R570 only" in
      (r.get("message") or ""), f"rc={rc} {r}")
rc, doc = run_json("torch-cu130-on-r550", None, "--target",
                   "gpu=RTX 4090,driver=550.54.15,host-cuda-compat=13.0")
check("--target GeForce with cuda-compat: 804, and cu130 still needs a newer driver",
      rc == 2 and rule(doc, "runtime.cuda-compat-unsupported")["state"] == "fail" and
      "(804)" in rule(doc, "runtime.cuda-compat-unsupported")["message"] and
      rule(doc, "framework.cuda-newer-than-driver")["state"] == "fail", f"rc={rc}")
rc, doc = run_json("torch-cu130-on-r550", None, "--target",
                   "gpu=H100,driver=580.65.06,host-cuda-compat=12.4")
check("--target with a compat package older than the module: 803",
      rc == 2 and "(803)" in (rule(doc, "runtime.cuda-compat-unsupported").get("message") or ""),
      f"rc={rc} {rule(doc, 'runtime.cuda-compat-unsupported')}")
rc, out, err = run("no-gpu", None, "--target", "gpu=H100,driver=550,host-cuda-compat=1.0")
check("host-cuda-compat of a CUDA the knowledge base has no driver for: exit 64",
      rc == 64 and "host-cuda-compat=1.0" in err, f"rc={rc} {err}")

# 8c. the matrix in every structured output: h100-old-frameworks' image (torch 2.0.1+cu117,
# SASS up to sm_86; tensorflow 2.15 with sm_60 and compute_80 PTX) on an H100 with R550, a
# compute capability 6.1 GPU with R580 and the h100-sxm-550 machine's own report
XSD = os.path.join(SRC, "tests", "data", "junit.xsd")
SARIF_SUBSET = os.path.join(SRC, "tests", "data", "sarif-2.1.0-subset.json")


def valid_junit(path, what):
    if not shutil.which("xmllint"):
        print(f"SKIP {what} junit schema: xmllint is not installed (libxml2-utils)")
        return
    p = subprocess.run(["xmllint", "--noout", "--schema", XSD, path], capture_output=True, text=True)
    check(f"{what}: junit valid against tests/data/junit.xsd", p.returncode == 0, p.stderr)


def valid_sarif(log, what):
    try:
        import jsonschema
    except ImportError:
        print(f"SKIP {what} sarif schema: python3-jsonschema is not installed")
        return
    errs = [e.message for e in jsonschema.Draft202012Validator(
        json.load(open(SARIF_SUBSET))).iter_errors(log)]
    check(f"{what}: sarif valid against the 2.1.0 subset", not errs, "; ".join(errs[:5]))


MTARGETS = ["gpu=H100,driver=550.54.15", "gpu=6.1,driver=580.65.06", snapshot("h100-sxm-550")]
mj, ms, mm = (os.path.join(tmp, n) for n in ("matrix.xml", "matrix.sarif", "matrix.md"))
rc, out, err = run("h100-old-frameworks", policy(H100, "m.yml"), "--target", MTARGETS[0],
                   "--target", MTARGETS[1], "--host", MTARGETS[2], "--junit", mj, "--sarif", ms,
                   "--markdown", mm, "--github", "--json")
jdoc = json.loads(out[out.index("\n{") + 1:] if not out.startswith("{") else out)
validate(jdoc, "matrix --json")
check("matrix json: one entry per target, in order",
      [t.get("target") for t in jdoc.get("targets", [])] == MTARGETS, json.dumps(jdoc)[:300])
check("matrix json: the worst result outside", jdoc.get("exit_code") ==
      max(t["exit_code"] for t in jdoc["targets"]) and rc == max(jdoc["exit_code"], 0), f"rc={rc}")
cov = {t["target"]: {c["subject"].split(" in ")[0]: c for c in t["coverage"]} for t in jdoc["targets"]}
check("matrix json: torch cu117 has no kernel for the H100 (9.0)",
      cov[MTARGETS[0]]["torch 2.0.1+cu117"]["verdict"] == "no-kernel-image", str(cov[MTARGETS[0]]))
check("matrix json: tensorflow runs natively on 6.1 (sm_60)",
      cov[MTARGETS[1]]["tensorflow 2.15.0"]["verdict"] == "native", str(cov[MTARGETS[1]]))
check("matrix json: tensorflow JITs compute_80 on the H100",
      cov[MTARGETS[0]]["tensorflow 2.15.0"]["verdict"] == "ptx-jit", str(cov[MTARGETS[0]]))
valid_junit(mj, "matrix")
if shutil.which("xmllint"):
    p = subprocess.run(["xmllint", "--xpath", "count(/testsuites/testsuite)", mj],
                       capture_output=True, text=True)
    check("matrix junit: a testsuite per target", p.stdout.strip() == "3", p.stdout)
    for i, t in enumerate(MTARGETS):
        p = subprocess.run(["xmllint", "--xpath", f"string(/testsuites/testsuite[{i + 1}]/@name)", mj],
                           capture_output=True, text=True)
        check(f"matrix junit: suite {i + 1} is on {t}", p.stdout.strip() == f"on {t}", p.stdout)
    p = subprocess.run(["xmllint", "--xpath", "count(//property[starts-with(@name, 'coverage: ')])", mj],
                       capture_output=True, text=True)
    check("matrix junit: the coverage cells as properties", p.stdout.strip() == "6", p.stdout)
mlog = json.load(open(ms, encoding="utf-8"))
valid_sarif(mlog, "matrix")
check("matrix sarif: one run (code scanning takes one per tool and category)",
      len(mlog["runs"]) == 1)
mrun = mlog["runs"][0]
mrules = mrun["tool"]["driver"]["rules"]
check("matrix sarif: every result names its target and its rule",
      all(r.get("properties", {}).get("target") in MTARGETS and
          mrules[r["ruleIndex"]]["id"] == r["ruleId"] and
          r["message"]["text"].startswith("[on " + r["properties"]["target"] + "] ")
          for r in mrun["results"]))
check("matrix sarif: each target's coverage in the run's properties",
      sorted({c["target"] for c in mrun["properties"]["coverage"]}) == sorted(MTARGETS))
check("matrix sarif: a clause rule once however many targets fail it",
      len([r for r in mrules if r["id"] == "policy/gpus.count"]) == 1)
check("matrix sarif: gpus.count fails on each of the two one-GPU targets",
      len([r for r in mrun["results"] if r["ruleId"] == "policy/gpus.count"]) == 2)
ann = [l for l in out.splitlines() if l.startswith("::")]
for t in MTARGETS:
    tt = t.replace(":", "%3A").replace(",", "%2C")
    check(f"matrix github: the verdict of {t}", any(l.startswith(("::error ", "::notice ")) and
          f"title=gpuenv check on {tt}%3A verdict::" in l for l in ann), "\n".join(ann)[:600])
md = open(mm, encoding="utf-8").read()
check("matrix markdown: a column per target",
      all(t in md.split("### Coverage: framework × target")[1].splitlines()[2] for t in
          (MTARGETS[0], MTARGETS[1])), md[:800])
check("matrix markdown: frameworks only: the first column is headed Framework",
      md.split("### Coverage: framework × target")[1].splitlines()[2].startswith("| Framework |"),
      md[:800])
check("matrix markdown: the cells", "❌ no-kernel-image on" in md and "✅ native on" in md, md[:800])
check("matrix markdown: every line a heading, a table row or prose",
      all(l.startswith(("|", "#", "Profile")) or not l.strip() for l in md.splitlines()), md[:800])

# 8c'. a target on which the coverage matrix shows no-kernel-image fails the gate: the
# framework rules run on the target's snapshot (never "not-run", which would pass), and one of
# them fails for the build the matrix names (a regression guard: a target snapshot once left
# the coverage rules unjudged while the matrix said no-kernel-image)
for tgt in ("gpu=H100,driver=550.54.15", "gpu=6.1,driver=580.65.06", "gpu=12.0,driver=580.65.06"):
    rc, doc = run_json("h100-old-frameworks", None, "--target", tgt)
    bad = [c["subject"] for c in doc.get("coverage", []) if c["verdict"] == "no-kernel-image"]
    fw = [r for r in doc["rules"] if r["id"].startswith("framework.")]
    failing = [r for r in fw if r["state"] == "fail" and
               any(s.split(" in ")[0] in (r.get("message") or "") for s in bad)]
    check(f"gate on {tgt}: the matrix shows no-kernel-image", bool(bad), str(doc.get("coverage")))
    check(f"gate on {tgt}: a framework rule fails for it, so the gate fails",
          failing and rc in (1, 2) and doc.get("exit_code") == rc,
          f"rc={rc} " + str([(r["id"], r["state"]) for r in fw]))
    check(f"gate on {tgt}: framework.no-kernel-image was judged",
          rule(doc, "framework.no-kernel-image")["state"] not in ("not-run", "profile"),
          str(rule(doc, "framework.no-kernel-image")))

# 8d. --redact: host names, serials, UUIDs and home directories out of every output
node = json.load(open(snapshot("h100-sxm-550"), encoding="utf-8"))
node["collection"] = {"hostname": {"state": "present", "source": "/proc/sys/kernel/hostname",
                                   "value": "gpunode17.example.org"}}
node["driver"]["nvml"]["devices"][0]["serial"] = {"state": "present", "source": "nvmlDeviceGetSerial",
                                                  "value": "1652321019456"}
uuid0 = node["driver"]["cuda"]["devices"][0]["uuid"]["value"]
nodepath = os.path.join(tmp, "gpunode17.example.org.json")
with open(nodepath, "w", encoding="utf-8") as f:
    json.dump(node, f)
LEAKY = H100 + f"""waivers:
  - rule: driver.branch-eol
    reason: "{uuid0} on gpunode17.example.org (serial 1652321019456) until Q1"
    expires: 2027-03-31
"""
lp = policy(LEAKY, "leaky.yml")
UUID_RE = __import__("re").compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
for targets in ([nodepath], [nodepath, "gpu=H100,driver=550.54.15"]):
    for redact in (False, True):
        files = [os.path.join(tmp, f"r{redact:d}.{n}") for n in ("xml", "sarif", "md")]
        args = ["--junit", files[0], "--sarif", files[1], "--markdown", files[2], "--github"]
        for t in targets:
            args += ["--host" if t == nodepath else "--target", t]
        texts = []
        for fmt in ((), ("--json",)):
            # an image whose torch lies in a venv under /home/user (a home directory to redact)
            rc, out, err = run("torch-cu130-gtx1080", lp, *args, *fmt,
                               *(("--redact",) if redact else ()))
            texts.append(out)
        texts += [open(f, encoding="utf-8").read() for f in files]
        everything = "\n".join(texts)
        leaks = [w for w in ("gpunode17", "1652321019456", "/home/user/") if w in everything]
        leaks += UUID_RE.findall(everything)
        what = f"{len(targets)} target(s), {'--redact' if redact else 'plain'}"
        if redact:
            check(f"redact ({what}): no host name, serial, UUID or home user in any output",
                  not leaks, str(leaks[:5]))
            check(f"redact ({what}): marked where they were", "<redacted>" in everything and
                  "/home/<user>/" in everything)
        else:
            check(f"redact ({what}): without --redact they are there (the test can fail)",
                  {"gpunode17", "1652321019456", "/home/user/"} <= set(leaks) and uuid0[4:] in leaks,
                  str(leaks[:6]))

# 9. outputs that cannot be written: 74
rc, out, err = run("h100-sxm-550", policy(H100), "--junit", os.path.join(tmp, "no", "dir.xml"))
check("unwritable --junit: exit 74", rc == 74, f"rc={rc}")

# 10. a framework build's LTO-IR, judged against the nvJitLink found (docs/compatibility.md,
# LTO-IR): the torch 2.4.0+cu124 venv (its nvidia-nvjitlink-cu12 12.4.99 wheel; the system
# toolkit 11.8 has no nvJitLink) with its libcufft.so.11 given what the scanner writes of an
# LTO-IR entry (arch_targets[] {target lto_90, kind lto, ltoir_version}) and torch's kernel
# library an lto_90 kept before its version was recorded (no ltoir_version): the cell's
# lto[] and reason name each, by library; the cell's verdict stays what the SASS decides.
def fact(v, src):
    return {"source": src, "state": "present", "value": v}


def lto_snapshot(minor, nvjitlink="wheel"):
    """nvjitlink: "wheel" (the fixture's), "file" (no wheel; a libnvJitLink.so.12 the loader
    finds, its file libnvJitLink.so.12.4.127) or None (neither)."""
    with open(snapshot("python-venv-torch24-cu124"), encoding="utf-8") as f:
        d = json.load(f)
    env = d["framework"]["python_envs"][0]
    if nvjitlink != "wheel":
        env["nvidia_wheels"] = [w for w in env["nvidia_wheels"]
                                if w["name"]["value"] != "nvidia-nvjitlink-cu12"]
    if nvjitlink == "file":
        lib = "/usr/local/cuda-12.4/targets/x86_64-linux/lib"
        d["runtime"]["libraries"]["libnvJitLink"] = [{
            "soname": fact("libnvJitLink.so.12", lib),
            "path": fact(lib + "/libnvJitLink.so.12", lib),
            "version": fact("12.4.127", lib + "/libnvJitLink.so.12.4.127")}]
    torch = env["packages"]["torch"]
    kl = torch["arch_targets"][0]["target"]["source"]
    torch["arch_targets"].append({"target": fact("lto_90", kl), "kind": fact("lto", kl)})
    fft = next(g for g in torch["gpu_libraries"] if g["name"]["value"] == "libcufft.so.11")
    src = fft["path"]["value"]
    fft["arch_targets"] = [{"target": fact("sm_90", src), "kind": fact("sass", src)},
                           {"target": fact("lto_90", src), "kind": fact("lto", src),
                            "ltoir_version": fact(f"1.{minor}", src)}]
    path = os.path.join(tmp, f"lto-{minor}-{nvjitlink}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    return path


nvj = next(w for w in json.load(open(snapshot("python-venv-torch24-cu124")))["framework"]
           ["python_envs"][0]["nvidia_wheels"] if w["name"]["value"] == "nvidia-nvjitlink-cu12")
check("lto: the fixture's nvidia-nvjitlink-cu12 wheel is 12.4.99",
      nvj["version"]["value"] == "12.4.99", str(nvj.get("version")))
for minor, verdict, unconfirmed, text in (
        (65, "unknown", False, "libcufft.so.11: lto_90 (LTO-IR 1.65): could not tell whether "
         "nvJitLink 12.4 links it"),
        (66, "too-old", True, "libcufft.so.11: lto_90 (LTO-IR 1.66): nvJitLink 12.4 too old to "
         "link it")):
    p = subprocess.run([GPUENV, "check", "--from", lto_snapshot(minor), "--stable", "--today",
                        "2026-12-04", "--policy", policy(H100), "--target",
                        "gpu=H100,driver=580.65.06", "--json"], capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        check(f"lto 1.{minor}: JSON", False, p.stderr[-300:])
        continue
    validate(doc, f"lto 1.{minor}")
    cell = next((c for c in doc.get("coverage", []) if c["subject"].startswith("torch ")), {})
    lto = {(e.get("library"), e.get("target")): e for e in cell.get("lto", [])}
    fft, kl = lto.get(("libcufft.so.11", "lto_90"), {}), lto.get(("libtorch_cuda.so", "lto_90"), {})
    check(f"lto 1.{minor}: the cell's verdict is the SASS's", cell.get("verdict") == "native",
          str(cell)[:300])
    check(f"lto 1.{minor}: libcufft.so.11's entry is {verdict}",
          len(lto) == 2 and fft.get("ltoir_version") == f"1.{minor}" and
          fft.get("verdict") == verdict and fft.get("unconfirmed") is unconfirmed and
          fft.get("nvjitlink", {}).get("version") == "12.4.99" and
          "nvidia-nvjitlink-cu12 wheel in /home/user/venv" in fft.get("nvjitlink", {}).get("from", ""),
          json.dumps(cell.get("lto"))[:600])
    check(f"lto 1.{minor}: the kernel library's unversioned entry is unknown",
          kl.get("ltoir_version", "") is None and kl.get("verdict") == "unknown" and
          "not in its header" in kl.get("reason", ""), json.dumps(kl)[:300])
    check(f"lto 1.{minor}: the reason says it as a condition",
          "if it links its LTO-IR at run time: " in cell.get("reason", "") and
          text in cell.get("reason", "") and "libtorch_cuda.so: lto_90" in cell.get("reason", ""),
          cell.get("reason", "")[:600])

# the nvJitLink the loader finds, by its file's version; none at all
for nvjitlink, verdict, want in (
        ("file", "too-old", {"version": "12.4.127", "from": "libnvJitLink.so.12 at "
                             "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libnvJitLink.so.12 "
                             "(its file name)"}),
        (None, "none-found", None)):
    p = subprocess.run([GPUENV, "check", "--from", lto_snapshot(66, nvjitlink), "--stable",
                        "--today", "2026-12-04", "--policy", policy(H100), "--target",
                        "gpu=H100,driver=580.65.06", "--json"], capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        check(f"lto nvJitLink {nvjitlink}: JSON", False, p.stderr[-300:])
        continue
    validate(doc, f"lto nvJitLink {nvjitlink}")
    cell = next((c for c in doc.get("coverage", []) if c["subject"].startswith("torch ")), {})
    fft = next((e for e in cell.get("lto", []) if e.get("library") == "libcufft.so.11"), {})
    check(f"lto nvJitLink {nvjitlink}: {verdict}, nvjitlink {want}",
          fft.get("verdict") == verdict and fft.get("nvjitlink") == want, json.dumps(fft)[:400])

shutil.rmtree(tmp)
if failed:
    print(f"{len(failed)} failed: {failed}")
    sys.exit(1)
