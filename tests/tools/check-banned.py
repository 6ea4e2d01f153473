#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""curl's checksrc in spirit: the machine is touched only where the design says.

  check-banned.py SRC_DIR

gpuenv reads the machine only through src/core/ and loads vendor libraries only in
src/vendor/dl.c (docs/HACKING.md, "Reading files"). Fails on any use, outside the files
ALLOWED names for it, of a function that opens, stats or maps files, reads the environment,
starts a process, makes a raw system call or loads a library: a call (`open(`), a call
through parentheses (`(open)(`), or its address (`&open`, `= open;`, `f(open)`). Comments,
string and character literals and #include lines are not code and are skipped; a struct
member of the same name (`->open`, `.open`) is not the function.
"""
import os
import re
import sys

GROUPS = {
    "file": """open open64 openat openat64 openat2 creat creat64 fopen fopen64 freopen freopen64
        fdopen opendir fdopendir scandir scandirat glob nftw ftw stat stat64 lstat lstat64
        fstatat fstatat64 statx access faccessat euidaccess eaccess readlink readlinkat
        realpath canonicalize_file_name truncate""",
    "map": "mmap mmap64",
    "env": "getenv secure_getenv",
    "host": "uname gethostname",
    "process": """fork vfork clone clone3 execl execle execlp execv execve execvp execvpe fexecve
        posix_spawn posix_spawnp popen system""",
    "syscall": "syscall",
    "dl": "dlopen dlmopen",
}
# Which file may use which group, and why (design: core/ is the only code that touches the OS,
# vendor/dl.c the only one that loads a vendor library).
ALLOWED = {
    "core/root.c": {"file", "map", "syscall"},  # the sysroot file API; openat2 by syscall(2)
    "core/root-file.c": {"file", "map"},  # pread/mmap of a file root.c opened
    "core/root-reads.c": {"file"},  # /proc/self/pagemap: which pages of a mapping were read
    "core/env.c": {"file", "env"},  # the environment overlay and --env-file
    "core/layers.c": {"file"},  # --image: the image file, whose layers are the root's tree; the unlinked file a large member is decompressed into
    "core/host.c": {"file", "host"},  # kernel release and host identity
    "core/child.c": {"file", "process", "env"},  # the vendor sessions' child processes
    "core/child-keeper.c": {"file", "process"},  # their keeper: limits, reaping, killing the tree
    "core/child-tmpdir.c": {"file", "env", "syscall"},  # their private directory under TMPDIR; getdents64(2), async-signal-safe
    "core/child-stuck.c": {"file"},  # /proc of gpuenv's own child processes (their state), never the inspected root
    "vendor/dl.c": {"file", "dl", "syscall"},  # dlopen, and capset(2) in the child
    "formats/elf-stream.c": {"map"},  # an anonymous MAP_NORESERVE mapping holding the kept ranges of a streamed member at their offsets; no file
    "vendor/sandbox.c": {"file", "syscall"},  # O_PATH opens for landlock_*(2), no libc wrappers
}
NAME = {n: g for g, names in GROUPS.items() for n in names.split()}
TOKEN = re.compile(
    r"""//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'"""
    r"""|^[ \t]*\#[ \t]*include[^\n]*"""
    r"""|(?P<tag>\b(?:struct|union|enum)\s+[A-Za-z_]\w*)"""
    r"""|(?P<id>[A-Za-z_]\w*)|(?P<op>->|\.|\S)""",
    re.S | re.M)


def uses(text):
    """(line, name) for each banned name used as a function: called or taken as a value."""
    toks = []
    for m in TOKEN.finditer(text):
        if m.group("id"):
            toks.append(("id", m.group("id"), m.start()))
        elif m.group("op"):
            toks.append(("op", m.group("op"), m.start()))
        elif m.group("tag"):
            toks.append(("tag", m.group("tag"), m.start()))
        # comments, literals, #include: dropped
    for i, (kind, val, pos) in enumerate(toks):
        if kind != "id" or val not in NAME:
            continue
        prev = toks[i - 1][1] if i > 0 else ""
        nxt = [t[1] for t in toks[i + 1:i + 3]]
        if prev in (".", "->", "*"):
            continue  # a member, or a function pointer declared with the name: int (*open)(void)
        called = nxt[:1] == ["("] or nxt == [")", "("]
        value = prev in ("&", "=", "(", ",", "return", "?", ":") and nxt[:1] in ([";"], [","], [")"])
        if called or value:
            yield text.count("\n", 0, pos) + 1, val


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 64
    src = argv[1]
    if not os.path.isdir(src):
        print(f"FAIL: check-banned: {src} is not a directory: nothing would be checked")
        return 1
    bad, files = [], 0
    for root, dirs, names in os.walk(src):
        dirs.sort()
        for n in sorted(names):
            if not n.endswith((".c", ".h")):
                continue
            p = os.path.join(root, n)
            rel = os.path.relpath(p, src)
            files += 1
            with open(p, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for line, name in uses(text):
                if NAME[name] not in ALLOWED.get(rel, ()):
                    bad.append(f"{p}:{line}: {name} ({NAME[name]}) outside "
                               + ", ".join(k for k, v in ALLOWED.items() if NAME[name] in v))
    if files == 0:
        print(f"FAIL: check-banned: no .c or .h file under {src}: nothing would be checked")
        return 1
    if bad:
        print("raw OS access outside src/core/ and src/vendor/dl.c:")
        print("\n".join(bad))
        return 1
    print(f"check-banned: ok ({files} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
