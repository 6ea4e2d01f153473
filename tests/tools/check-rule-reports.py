#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every rule that a fixture triggers is triggered by at least one fixture rebuilt from a public
report (the project's rule: a rule's positive fixture is rebuilt from a real report, so that
what the rule fires on is what real machines show, not what its author imagined).

  check-rule-reports.py SOURCE_ROOT

A rule is triggered by a fixture when a finding of it is in the fixture's
expected/doctor.json (any severity). A fixture names a public report as
check-fixture-sources.py counts it: a [real-world] url, or an http(s) URL in its [scenario]
source (a fixture citing only documentation by URL counts too: that check's criterion, kept
the same so that the two lists agree; the reviewer reads the source). Rules that no fixture
triggers are check-rule-coverage.py's (tests/rules-without-fixture.txt). A triggered rule that
only constructed fixtures trigger fails unless tests/rules-without-report.txt lists it; that
list may only shrink: a listed id that is not triggered at all, or that a rebuilt fixture
triggers now, fails too. Fails, never passes, when it reads no golden doctor.json.
"""
import glob
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_root  # noqa: E402  (tests/tools/fixture_root.py: the scenario.ini reader)

URL = re.compile(r"\bhttps?://\S+")


def listed(path):
    ids = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                ids.append(line)
    return ids


def from_report(scenario_dir):
    ini = fixture_root.read_ini(scenario_dir)
    if ini.has_section("real-world") and \
            URL.fullmatch(ini.get("real-world", "url", fallback="").strip()):
        return True
    return bool(URL.search(ini.get("scenario", "source", fallback="")))


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 64
    top = argv[1]
    triggered, rebuilt = {}, {}
    goldens = sorted(glob.glob(os.path.join(top, "tests", "fixtures", "*", "expected",
                                            "doctor.json")))
    for path in goldens:
        scenario_dir = os.path.dirname(os.path.dirname(path))
        name = os.path.basename(scenario_dir)
        reported = from_report(scenario_dir)
        with open(path, encoding="utf-8") as f:
            for finding in json.load(f)["findings"]:
                triggered.setdefault(finding["rule"], set()).add(name)
                if reported:
                    rebuilt.setdefault(finding["rule"], set()).add(name)
    exceptions_path = os.path.join(top, "tests", "rules-without-report.txt")
    try:
        allowed = listed(exceptions_path)
    except OSError as e:
        print(f"FAIL: cannot read {exceptions_path}: {e.strerror}")
        return 1
    ok = True
    if not goldens or not triggered:
        print(f"FAIL: {len(goldens)} golden doctor.json files, {len(triggered)} rules in them")
        return 1
    for rule in sorted(triggered):
        if rule in rebuilt:
            print(f"ok: {rule}: {', '.join(sorted(rebuilt[rule]))}")
        elif rule in allowed:
            print(f"allowed (constructed fixtures only): {rule}: "
                  f"{', '.join(sorted(triggered[rule]))}")
        else:
            print(f"FAIL: {rule}: only constructed fixtures trigger it "
                  f"({', '.join(sorted(triggered[rule]))}) and tests/rules-without-report.txt "
                  "does not list it")
            ok = False
    for rule in allowed:
        if rule not in triggered:
            print(f"FAIL: tests/rules-without-report.txt lists {rule}, which no fixture "
                  "triggers (tests/rules-without-fixture.txt is the list for that)")
            ok = False
        elif rule in rebuilt:
            print(f"FAIL: {rule} is triggered by {', '.join(sorted(rebuilt[rule]))}, rebuilt "
                  "from a public report: remove it from tests/rules-without-report.txt")
            ok = False
    if len(set(allowed)) != len(allowed):
        print("FAIL: tests/rules-without-report.txt lists a rule twice")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
