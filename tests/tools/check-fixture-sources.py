#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every fixture names its sources, and a fixture of a failure the public report it was rebuilt
from (the project's rule: a fixture is a faithful copy of what a real machine shows; one of a
failure names the report, by URL, it was rebuilt from).

  check-fixture-sources.py SOURCE_ROOT

For each tests/fixtures/<name>/scenario.ini: [scenario] description and source are not
empty; a [real-world] section has a url of http(s); a scenario whose doctor fails
(expected/doctor.rc not 0) names a report: the [real-world] url, or an http(s) URL in its
source, unless tests/fixtures-without-report.txt lists it. That list may only shrink: the
check fails on a listed name that is no fixture, no failure, or names a report now. Fails,
never passes, when it reads no scenario.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_root  # noqa: E402  (tests/tools/fixture_root.py: the scenario.ini reader)

URL = re.compile(r"\bhttps?://\S+")


def known_list(path):
    names = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                names.add(line)
    return names


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 64
    top = os.path.join(argv[1], "tests", "fixtures")
    known_path = os.path.join(argv[1], "tests", "fixtures-without-report.txt")
    try:
        known = known_list(known_path)
    except OSError as e:
        print(f"FAIL: cannot read {known_path}: {e.strerror}")
        return 1
    fail = []
    seen = 0
    try:
        names = sorted(os.listdir(top))
    except OSError as e:
        print(f"FAIL: cannot list {top}: {e.strerror}")
        return 1
    for name in names:
        d = os.path.join(top, name)
        if not os.path.isfile(os.path.join(d, "scenario.ini")):
            continue
        seen += 1
        ini = fixture_root.read_ini(d)
        for key in ("description", "source"):
            if not ini.get("scenario", key, fallback="").strip():
                fail.append(f"{name}: scenario.ini has no [scenario] {key}")
        url = ini.get("real-world", "url", fallback="") if ini.has_section("real-world") else None
        if url is not None and not URL.fullmatch(url.strip()):
            fail.append(f"{name}: [real-world] url {url!r} is not an http(s) URL")
        reported = bool(url) or bool(URL.search(ini.get("scenario", "source", fallback="")))
        try:
            with open(os.path.join(d, "expected", "doctor.rc"), encoding="utf-8") as f:
                failure = f.read().strip() != "0"
        except OSError as e:
            fail.append(f"{name}: cannot read expected/doctor.rc: {e.strerror}")
            continue
        if name in known:
            known.discard(name)
            if not failure:
                fail.append(f"{name}: listed in tests/fixtures-without-report.txt, but doctor "
                            "does not fail on it: remove the line")
            elif reported:
                fail.append(f"{name}: names its report now: remove its line from "
                            "tests/fixtures-without-report.txt")
        elif failure and not reported:
            fail.append(f"{name}: doctor fails on it, but scenario.ini names no public report: "
                        "add the URL it was rebuilt from to [scenario] source (or a "
                        "[real-world] section)")
    for name in sorted(known):
        fail.append(f"{name}: listed in tests/fixtures-without-report.txt, but there is no "
                    f"tests/fixtures/{name}/scenario.ini: remove the line")
    if seen == 0:
        fail.append(f"no scenario.ini under {top}: nothing was checked")
    for f in fail:
        print("FAIL:", f)
    print(f"check-fixture-sources: {seen} scenarios, {len(fail)} failures")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
