#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Scores gpuenv doctor against the real-world corpus: every tests/fixtures/<name>/ whose
scenario.ini has a [real-world] section, rebuilt from a public bug report:

  [real-world]
  url = <the public bug report>
  pasted = <the error text the user pasted>
  cause = <the cause the thread established>
  root_cause = <the rule id that names that cause, or none: nothing gpuenv judges is wrong>
  layer = <the layer of that cause, or none with root_cause = none>
  fails = yes|no     (does the user's program fail: doctor must then exit 2)
  also = RULE URL; …  (optional) further errors the machine truly has, that no edge ties to
                      the cause, each with the public report that established it

For each fixture it runs `gpuenv doctor --json` over the root run-scenario.py prepares (the
same device nodes, kernel modules, environment and fakes) and checks four things:
  layer   the reported root cause's layer is the thread's
  named   a finding of the rule naming the cause fires (any severity), and each `also` rule
          fires as an error
  exit    exit 2 where fails = yes, anything else where fails = no
  extra   no error finding other than the root cause, the `also` rules and what they explain
          (caused_by, followed up to a finding of one of those rules)
A gpuenv without root_cause in its JSON (an older build, --gpuenv) is judged on what its user
read first: the first error finding (the findings come bottom layer first), else the first
warning; it has no caused_by, so every other error counts as extra.

Prints one line per fixture and the totals; exits 1 when a fixture is wrong, unless
--no-fail (for measuring an older build), and 77 when none could be run here.
"""
import argparse
import configparser
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ("url", "pasted", "cause", "root_cause", "layer", "fails")
LAYERS = ("hardware", "driver", "runtime", "framework", "container")


def load_runner():
    spec = importlib.util.spec_from_file_location("run_scenario",
                                                  os.path.join(HERE, "run-scenario.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def real_world(scenario_dir):
    """The [real-world] section as a dict, None without one; exits on a malformed one."""
    ini = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    ini.optionxform = str
    ini.read(os.path.join(scenario_dir, "scenario.ini"))
    if not ini.has_section("real-world"):
        return None
    rw = dict(ini.items("real-world"))
    name = os.path.basename(scenario_dir)
    missing = [k for k in FIELDS if not rw.get(k, "").strip()]
    if missing:
        sys.exit(f"{name}: [real-world] lacks {', '.join(missing)}")
    if not rw["url"].startswith("https://"):
        sys.exit(f"{name}: [real-world] url is not a public https address: {rw['url']}")
    if (rw["root_cause"] == "none") != (rw["layer"] == "none"):
        sys.exit(f"{name}: [real-world] root_cause and layer are none together or not at all")
    if rw["layer"] not in LAYERS + ("none",):
        sys.exit(f"{name}: [real-world] layer {rw['layer']!r} is not one of {', '.join(LAYERS)}")
    if rw["fails"] not in ("yes", "no"):
        sys.exit(f"{name}: [real-world] fails = {rw['fails']!r}, want yes or no")
    rw["also"] = also(name, rw.get("also", ""))
    return rw


def also(name, text):
    """The rule ids of `also = RULE URL; …`; exits where one names no public report."""
    ids = []
    for item in filter(None, (i.strip() for i in text.split(";"))):
        words = item.split()
        if len(words) != 2 or not words[1].startswith("https://"):
            sys.exit(f"{name}: [real-world] also item {item!r}: want 'RULE https://…'")
        ids.append(words[0])
    return ids


def doctor(runner, gpuenv, scenario_dir, fakes_dir):
    """(doctor JSON, exit code), or (None, reason) where the fixture cannot be made here."""
    with tempfile.TemporaryDirectory() as tmp, \
            tempfile.TemporaryDirectory(prefix="gpuenv-fakes-", dir="/tmp") as link_dir:
        try:
            env, root, envfile, args, _ = runner.prepare(scenario_dir, fakes_dir, tmp, link_dir)
        except SystemExit as e:
            return None, f"cannot be prepared here (exit {e.code})"
        cmd = [gpuenv, "doctor", "--sysroot", root, "--stable", "--env-file", envfile,
               "--json"] + args
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        except subprocess.TimeoutExpired:
            return {}, -1
    if p.returncode not in (0, 1, 2, 3):
        sys.stderr.write(p.stderr)
        return {}, p.returncode
    try:
        return json.loads(p.stdout), p.returncode
    except json.JSONDecodeError as e:
        sys.stderr.write(f"{scenario_dir}: doctor --json is not JSON: {e}\n")
        return {}, p.returncode


def reported_root(d):
    """(rule id, layer, how) of the root cause the run reported, or derived for an old build."""
    if "root_cause" in d:
        rc = d["root_cause"]
        return (rc["id"], rc["layer"], "root_cause") if rc else (None, None, "root_cause")
    for sev in ("error", "warning"):
        for f in d.get("findings", []):
            if f.get("severity") == sev:
                return f["rule"], f["layer"], f"first {sev} (no root_cause)"
    return None, None, "no finding"


def extra_errors(d, wanted):
    """Error findings that are neither an expected error (the root cause, `also`) nor
    explained by one."""
    by_rule = {}
    for f in d.get("findings", []):
        by_rule.setdefault(f["rule"], f)
    out = []
    for f in d.get("findings", []):
        if f.get("severity") != "error":
            continue
        g, steps = f, 0
        while g is not None and g["rule"] not in wanted and steps <= len(by_rule):
            g, steps = by_rule.get(g.get("caused_by")), steps + 1
        if g is None or g["rule"] not in wanted:
            out.append(f["rule"])
    return out


def score(name, rw, d, rc):
    got_id, got_layer, how = reported_root(d)
    rules = {f["rule"] for f in d.get("findings", [])}
    errors = [f for f in d.get("findings", []) if f.get("severity") == "error"]
    missing_also = [a for a in rw["also"] if a not in {f["rule"] for f in errors}]
    checks = {
        # none: the thread found nothing wrong in the stack; right when nothing is an error
        "layer": not errors if rw["layer"] == "none" else got_layer == rw["layer"],
        "named": (not errors if rw["root_cause"] == "none" else rw["root_cause"] in rules)
                 and not missing_also,
        "exit": (rc == 2) == (rw["fails"] == "yes"),
    }
    extra = extra_errors(d, {rw["root_cause"], *rw["also"]})
    checks["extra"] = not extra
    mark = lambda ok: "✓" if ok else "✗"
    print(f"{name}: {'right' if all(checks.values()) else 'WRONG'}")
    print(f"  layer {mark(checks['layer'])} root cause {got_id} ({got_layer}; {how}), "
          f"want {rw['root_cause']} ({rw['layer']})")
    if rw["root_cause"] == "none":
        print(f"  named {mark(checks['named'])} nothing is wrong: "
              f"{'no error' if checks['named'] else 'an error fires'}")
    else:
        print(f"  named {mark(checks['named'])} {rw['root_cause']} "
              f"{'fires' if rw['root_cause'] in rules else 'does not fire'}"
              + "".join(f"; also {a} {'does not fire as an error' if a in missing_also else 'fires'}"
                        for a in rw["also"]))
    print(f"  exit  {mark(checks['exit'])} {rc}, the program {'fails' if rw['fails'] == 'yes' else 'runs'}"
          f" ({rw['url']})")
    print(f"  extra {mark(checks['extra'])} "
          + (f"errors outside the cause: {', '.join(extra)}" if extra else "no other error"))
    return checks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpuenv", required=True, help="the gpuenv binary to score")
    ap.add_argument("--fakes", required=True, help="the fake vendor libraries (build/tests/fakes)")
    ap.add_argument("--fixtures", default=os.path.join(HERE, "..", "fixtures"))
    ap.add_argument("--no-fail", action="store_true", help="report only; exit 0 when wrong")
    ap.add_argument("names", nargs="*", help="only these fixtures")
    o = ap.parse_args()
    runner = load_runner()
    totals = {"layer": 0, "named": 0, "exit": 0, "extra": 0, "all": 0}
    n = skipped = 0
    for name in sorted(os.listdir(o.fixtures)):
        sdir = os.path.join(o.fixtures, name)
        if o.names and name not in o.names:
            continue
        if not os.path.isfile(os.path.join(sdir, "scenario.ini")):
            continue
        rw = real_world(sdir)
        if rw is None:
            continue
        d, rc = doctor(runner, o.gpuenv, sdir, o.fakes)
        if d is None:
            print(f"SKIP {name}: {rc}")
            skipped += 1
            continue
        n += 1
        checks = score(name, rw, d, rc)
        for k, v in checks.items():
            totals[k] += v
        totals["all"] += all(checks.values())
    print(f"\n{n} real-world fixtures scored ({skipped} could not run here): "
          f"root-cause layer right {totals['layer']}/{n}, cause named {totals['named']}/{n}, "
          f"exit right {totals['exit']}/{n}, no other error {totals['extra']}/{n}; "
          f"all right {totals['all']}/{n}")
    if n == 0:
        print("SKIP score-real-world: no real-world fixture could be run here")
        sys.exit(77)
    sys.exit(0 if o.no_fail or totals["all"] == n else 1)


if __name__ == "__main__":
    main()
