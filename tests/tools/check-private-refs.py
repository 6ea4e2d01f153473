#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every source the tree cites is in the tree or public (docs/design.md §6): fails when a file
of the source tree names a place a reader of the project does not have — the planning notes
outside the repository (`../shared/…`, `shared/facts/…`, `style-anchors`, a bare `design.md §`
instead of `docs/design.md §`), or an absolute path of a build machine (`/work/…`, a
`/home/<name>/` other than the placeholder users of fixtures and examples, the absolute path
of this source tree or of the build tree).

Usage: check-private-refs.py SOURCE_ROOT [BUILD_ROOT]

It first checks itself: every pattern must flag an injected example and pass the allowed
forms next to it, so it cannot pass because a pattern stopped matching. Then it checks the
files git tracks (every regular file when the tree is not a git checkout, e.g. a release
tarball); an empty file list is a failure, not a pass. Text files are searched for all
patterns, binary files for the two absolute roots only.
"""
import os
import re
import subprocess
import sys
import tempfile

SELF = "tests/tools/check-private-refs.py"
PATH_CHAR = r"[\w.~+-]"
# Placeholder users of the fixtures (/home/user/venv) and of examples in the docs.
HOME_PLACEHOLDERS = ("user", "alice", "bob", "example")

PATTERNS = [
    (re.compile(r"\.\./shared/"), "the planning notes outside the repository (../shared)"),
    (re.compile(r"(?<!src/)\bshared/facts/"), "the planning notes outside the repository (shared/facts)"),
    (re.compile(r"style-anchors"), "the planning notes outside the repository (style-anchors)"),
    (re.compile(r"(?<!docs/)\bdesign\.md\s*§"), "a bare design.md § (cite docs/design.md §N)"),
    (re.compile(r"(?<!" + PATH_CHAR + r")/work/"), "an absolute path of a build machine (/work/)"),
    (re.compile(r"(?<!" + PATH_CHAR + r")/home/(?!(?:" + "|".join(HOME_PLACEHOLDERS) + r")/)"
                r"[A-Za-z0-9_.-]+/"), "an absolute path of a build machine (/home/NAME/)"),
]

# (text, must be flagged?) — the self-check.
SAMPLES = [
    ("see ../shared/facts/fatbin-format.md §4", True),
    ("Transcribed from shared/facts/xid.tsv", True),
    ("kmod style (style-anchors §4.3)", True),
    ("rule table (design.md §5)", True),
    ("Format: /work/shared/facts/fatbin-format.md", True),
    ("built in /work/main/build-test", True),
    ("checkout at /home/jdoe/src/gpuenv", True),
    ("docs/design.md §5 and docs/formats/fatbin.md §4", False),
    ("src/shared/macro.h, src/shared/strv.c", False),
    ("/home/user/venv/lib/python3.12/site-packages", False),
    ("/home/alice/work/main (a long checkout path)", False),
    ("`--redact` hides /home/<user>", False),
    ("/opt/rocm-6.2.0/lib, /usr/local/cuda/lib64, /root/.pyenv/shims", False),
    ("~/work/gpuenv and $HOME/work", False),
]


def root_pattern(root):
    """The absolute path `root` as a path prefix, or None when it is too short to be
    specific (/, /src: those would match paths of the machines gpuenv inspects)."""
    if not root:
        return None
    root = os.path.realpath(root)
    if root.count("/") < 2:
        return None
    return re.compile(r"(?<!" + PATH_CHAR + r")" + re.escape(root) + r"(?![\w.~+-])")


def check_text(text, extra):
    """[(line number, reason, line)] for the lines of text that cite a private place."""
    hits = []
    for n, line in enumerate(text.splitlines(), 1):
        for pat, why in PATTERNS + extra:
            if pat.search(line):
                hits.append((n, why, line.strip()))
                break
    return hits


def is_binary(data):
    return b"\0" in data[:8192]


def tracked_files(top):
    try:
        out = subprocess.run(["git", "-C", top, "ls-files", "-s", "-z"], check=True,
                             capture_output=True).stdout
        files = []
        for rec in out.split(b"\0"):
            if not rec:
                continue
            meta, path = rec.split(b"\t", 1)
            if meta.split()[0] == b"120000":  # a symlink: its target is not our text
                continue
            files.append(path.decode("utf-8", "surrogateescape"))
        return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(top):
        dirs[:] = [x for x in dirs if x != ".git" and not os.path.exists(
            os.path.join(d, x, "meson-private"))]
        for name in names:
            p = os.path.join(d, name)
            if not os.path.islink(p):
                files.append(os.path.relpath(p, top))
    return files


def check_files(top, files, roots):
    extra = [(p, "an absolute path of a build machine (this tree: " + r + ")")
             for r, p in ((r, root_pattern(r)) for r in roots) if p]
    bad = []
    for rel in files:
        if rel == SELF:
            continue
        try:
            with open(os.path.join(top, rel), "rb") as f:
                data = f.read()
        except OSError as e:
            bad.append(f"{rel}: cannot read: {e.strerror}")
            continue
        if is_binary(data):
            text = data.decode("latin-1")
            hits = check_text(text, extra) if extra else []
            bad += [f"{rel}: {why} (binary file)" for _, why, _ in hits[:1]]
            continue
        text = data.decode("utf-8", "replace")
        bad += [f"{rel}:{n}: {why}: {line[:160]}" for n, why, line in check_text(text, extra)]
    return bad


def self_check(roots):
    failed = []
    for text, want in SAMPLES:
        got = bool(check_text(text, []))
        if got != want:
            failed.append(f"self-check: {'missed' if want else 'wrongly flagged'}: {text!r}")
    # The same through the file walk, with the tree's own root injected into a file.
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "ok.c"), "w") as f:
            f.write("/* Format: docs/formats/nvml.md §4 */\n")
        with open(os.path.join(tmp, "bad.c"), "w") as f:
            f.write("/* Format: ../shared/facts/nvml-subset.md §4 */\n")
        injected = [r for r in roots if root_pattern(r)]
        if injected:
            with open(os.path.join(tmp, "root.md"), "w") as f:
                f.write("Built in " + os.path.realpath(injected[0]) + "/build-test.\n")
        bad = check_files(tmp, ["ok.c", "bad.c"] + (["root.md"] if injected else []), roots)
        want = {"bad.c"} | ({"root.md"} if injected else set())
        got = {b.split(":", 1)[0] for b in bad}
        if got != want:
            failed.append(f"self-check: injected files flagged {sorted(got)}, expected {sorted(want)}")
    return failed


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: check-private-refs.py SOURCE_ROOT [BUILD_ROOT]", file=sys.stderr)
        return 2
    top = sys.argv[1]
    roots = [top] + sys.argv[2:3]
    failed = self_check(roots)
    if failed:
        print("\n".join(failed))
        return 1
    files = tracked_files(top)
    if not files:
        print(f"check-private-refs: no files found under {top}")
        return 1
    bad = check_files(top, files, roots)
    if bad:
        print("\n".join(bad))
        print(f"check-private-refs: {len(bad)} reference(s) a reader of the project cannot follow; "
              "cite the in-repo note (docs/design.md, docs/formats/…) or the public source")
        return 1
    print(f"check-private-refs: ok ({len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
