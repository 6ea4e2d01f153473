#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The scenario tests Meson registered are the scenarios on disk.

  check-scenario-list.py FIXTURES_DIR [SCENARIO …]

Meson lists tests/fixtures/*/scenario.ini when it configures; a scenario added (or removed)
since then has no test (or a test of nothing) until the build directory is reconfigured, and
the suite would pass without it. Fails naming the difference and the command that fixes it.
"""
import os
import sys


def main(argv):
    if len(argv) < 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 64
    d = argv[1]
    try:
        names = os.listdir(d)
    except OSError as e:
        print(f"FAIL: cannot list {d}: {e.strerror}")
        return 1
    on_disk = {n for n in names if os.path.isfile(os.path.join(d, n, "scenario.ini"))}
    registered = set(argv[2:])
    if not on_disk:
        print(f"FAIL: no scenario under {d}: nothing would be checked")
        return 1
    new, gone = sorted(on_disk - registered), sorted(registered - on_disk)
    for n in new:
        print(f"{n}: on disk, but this build directory has no scenario-{n} test")
    for n in gone:
        print(f"{n}: registered, but {os.path.join(d, n, 'scenario.ini')} is gone")
    if new or gone:
        print("FAIL: the scenarios changed since Meson configured: meson setup --reconfigure BUILDDIR")
        return 1
    print(f"scenario-list: ok ({len(on_disk)} scenarios)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
