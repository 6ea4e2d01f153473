#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the real-world fixtures: machines rebuilt from public bug reports, each
scenario.ini carrying a [real-world] section (url, pasted: what the user pasted, cause: what
the thread established, root_cause / layer: the answer doctor should give, fails: whether the
user's program fails). One file per topic under tests/tools/realworld/ writes that topic's
fixtures (its FIXTURES) with the helpers of tests/tools/realworld/common.py; this driver runs
them all, or the topics named:

  mk-real-world-fixtures.py [TOPIC…]      (e.g. `mk-real-world-fixtures.py wsl mismatch`)
  mk-real-world-fixtures.py --list        the topics and their fixtures

Run it from anywhere (it works in the source root), review `git status` / `git diff
tests/fixtures` (a rerun of an unchanged topic changes nothing), commit; the goldens under
expected/ are kept and come from `GPUENV_UPDATE_EXPECTED=1 meson test -C build-test --suite
scenarios`. No binary file is written: shared objects, kernel modules and EFI variables are
[elf], [modules] and [efivars] lines that tests/tools/fixture_root.py and run-scenario.py make
at test time. Needs gcc (and glibc's ldconfig) where a topic writes an ld.so.cache.
"""
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def topics():
    names = sorted(f[:-3] for f in os.listdir(os.path.join(HERE, "realworld"))
                   if f.endswith(".py") and f not in ("common.py", "__init__.py"))
    return {n: importlib.import_module(f"realworld.{n}") for n in names}


def main(args):
    sys.path.insert(0, HERE)
    os.chdir(os.path.join(HERE, "..", ".."))
    known = topics()
    if args == ["--list"]:
        for name, mod in known.items():
            print(f"{name}: {' '.join(mod.FIXTURES)}")
        return 0
    unknown = [a for a in args if a not in known]
    if unknown:
        sys.stderr.write(f"mk-real-world-fixtures.py: unknown topic {', '.join(unknown)} "
                         f"(topics: {', '.join(known)})\n")
        return 2
    for name in args or known:
        known[name].write()
        print(f"{name}: wrote {' '.join(known[name].FIXTURES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
