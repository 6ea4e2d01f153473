#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv check` with `architectures.binaries` (docs/policy.md): named binaries (a path and a
fnmatch(3) pattern) are read in the tree judged (--sysroot, a `docker save` --image made from
the same tree, a --wheel's installed place) with the scanner of `gpuenv scan` and judged per
architecture target (the clause) and on each target's GPUs (the coverage matrix), in every
output: --json (against docs/schema/check.json), JUnit (tests/data/junit.xsd, xmllint),
SARIF (tests/data/sarif-2.1.0-subset.json), GitHub annotations, Markdown. A pattern with no
file, and a --from snapshot (no files), are "could not tell", which fails.

The binaries are real nvcc-built fat binaries where nvcc exists; elsewhere the same targets
are written by fatbin_writer.py (through fixture_root.build_fatbin), and the nvcc part is
skipped visibly.

Usage: test-check-binaries.py GPUENV SOURCE_ROOT [GPUENV_TEST]
(GPUENV_TEST: the CLI with the test build's fault injection, for a directory that cannot be
listed.)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_root  # noqa: E402
import make_image  # noqa: E402
from image_checks import check, run, summary  # noqa: E402

GPUENV, SRC = sys.argv[1], sys.argv[2]
GPUENV_TEST = sys.argv[3] if len(sys.argv) > 3 else None
SKIPS = 0
TODAY = "2026-12-04"


def skip(what, why):
    global SKIPS
    SKIPS += 1
    print(f"SKIP {what}: {why}")


def build(path, sass, ptx=""):
    """A shared object with SASS for sass (and PTX for ptx): nvcc's, else fatbin_writer's."""
    o = {"soname": os.path.basename(path), "sass": sass, "ptx": ptx, "ptxisa": "8.0"}
    if shutil.which("nvcc"):
        fixture_root.build_cuda(path, o)
    else:
        fixture_root.build_fatbin(path, o)


def policy(tmp, binaries, allow_ptx=False, name="p.yml"):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write("version: 1\nprofile: build\narchitectures:\n  targets: [sm_90, sm_80]\n"
                f"  allow_ptx: {'true' if allow_ptx else 'false'}\n  binaries:\n" +
                "".join(f"    - \"{b}\"\n" for b in binaries))
    return path


def check_json(*args):
    r = run(GPUENV, "check", "--json", "--stable", "--no-vendor", "--today", TODAY, *args,
            timeout=300)
    try:
        return r.returncode, json.loads(r.stdout), r
    except ValueError:
        check(False, f"check {' '.join(args)}: JSON ({r.returncode}) {r.stderr[-400:]}")
        return r.returncode, {"clauses": [], "rules": [], "coverage": []}, r


def clause(doc, cid):
    return next((c for c in doc.get("clauses", []) if c["id"] == cid), {})


SCHEMA = None
try:
    import jsonschema
    SCHEMA = jsonschema.Draft202012Validator(
        json.load(open(os.path.join(SRC, "docs", "schema", "check.json"))))
except ImportError:
    skip("check --json schema", "python3-jsonschema is not installed")


def valid(doc, what):
    if SCHEMA:
        errs = [e.message for e in SCHEMA.iter_errors(doc)]
        check(not errs, f"{what}: valid against docs/schema/check.json: {errs[:3]}")


TRAIN, LIBK = "/opt/app/bin/train", "/opt/app/lib/libk80.so"


def judged_tree(doc, what):
    """sm_90 SASS in train; sm_80 SASS and compute_80 PTX in libk80.so; PTX not allowed."""
    valid(doc, what)
    c90, c80 = clause(doc, "architectures.sm_90"), clause(doc, "architectures.sm_80")
    m90, m80 = c90.get("message", ""), c80.get("message", "")
    check(c90.get("status") == "fail" and f"{TRAIN}: native" in m90 and
          f"{LIBK}: ptx-jit (PTX not allowed)" in m90, f"{what}: sm_90 clause: {c90}")
    check(c80.get("status") == "fail" and f"{TRAIN}: no-kernel-image" in m80 and
          f"{LIBK}: native" in m80, f"{what}: sm_80 clause: {c80}")
    check(c90.get("line") == 4, f"{what}: the clause's line in the policy: {c90}")


def test_sysroot(tmp, root):
    pol = policy(tmp, [TRAIN, "/opt/app/lib/lib?*.so"])
    rc, doc, _ = check_json("--sysroot", root, "--policy", pol)
    judged_tree(doc, "--sysroot")
    check(rc == 1, f"--sysroot: failed by the policy, exit 1: {rc}")
    # PTX allowed: sm_90 passes (native and JIT), sm_80 still fails on train
    rc, doc, _ = check_json("--sysroot", root, "--policy", policy(tmp, [TRAIN, LIBK], True))
    check(clause(doc, "architectures.sm_90").get("status") == "pass",
          f"allow_ptx: sm_90 passes: {clause(doc, 'architectures.sm_90')}")
    check(clause(doc, "architectures.sm_80").get("status") == "fail",
          f"allow_ptx: sm_80 still fails: {clause(doc, 'architectures.sm_80')}")
    # only the library, PTX allowed: every clause passes, exit 0 (the test can pass)
    rc, doc, r = check_json("--sysroot", root, "--policy", policy(tmp, [LIBK], True))
    check(all(clause(doc, f"architectures.sm_{a}").get("status") == "pass" for a in (90, 80)),
          f"libk80 alone with PTX: both pass: {doc.get('clauses')}")
    check(rc == 0, f"libk80 alone with PTX: exit 0: {rc} {r.stdout[-300:]}")
    # a pattern with no file, a file that is no binary, a directory: could not tell, fail
    with open(os.path.join(root, "opt/app/bin/readme.txt"), "w") as f:
        f.write("not a binary\n")
    rc, doc, _ = check_json("--sysroot", root, "--policy",
                            policy(tmp, [LIBK, "/opt/none/*.so", "/opt/app/bin/readme.txt",
                                         "/opt/app/lib"], True))
    m = clause(doc, "architectures.sm_80").get("message", "")
    check(clause(doc, "architectures.sm_80").get("status") == "fail" and
          "/opt/none/*.so: could not tell: no file of the tree judged matches it" in m and
          "/opt/app/bin/readme.txt: could not tell" in m and "is a directory" in m,
          f"missing, non-binary, directory: could not tell: {m}")
    os.unlink(os.path.join(root, "opt/app/bin/readme.txt"))
    # --from: a snapshot holds no files
    rep = run(GPUENV, "report", "--json", "--stable", "--no-vendor", "--sysroot", root)
    snap = os.path.join(tmp, "report.json")
    with open(snap, "w") as f:
        f.write(rep.stdout)
    rc, doc, _ = check_json("--from", snap, "--policy", policy(tmp, [LIBK], True))
    check(clause(doc, "architectures.sm_80").get("status") == "fail" and
          "not read" in clause(doc, "architectures.sm_80").get("message", ""),
          f"--from: could not tell: {clause(doc, 'architectures.sm_80')}")


def test_matrix(tmp, root):
    """Two targets: every output names each binary's verdict on each."""
    pol = policy(tmp, [TRAIN, "/opt/app/lib/lib?*.so"])
    tg = ["gpu=H100,driver=580.65.06", "gpu=A100,driver=580.65.06"]
    xml, sarif, md = (os.path.join(tmp, n) for n in ("b.xml", "b.sarif", "b.md"))
    r = run(GPUENV, "check", "--json", "--stable", "--no-vendor", "--today", TODAY, "--sysroot",
            root, "--policy", pol, "--target", tg[0], "--target", tg[1], "--junit", xml,
            "--sarif", sarif, "--markdown", md, "--github", timeout=300)
    out = r.stdout
    ann = [l for l in out.splitlines() if l.startswith("::")]
    try:
        doc = json.loads(out[out.index("{"):] if ann else out)
    except ValueError:
        check(False, f"matrix: JSON {r.returncode} {r.stderr[-300:]}")
        return
    valid(doc, "matrix")
    cov = {t["target"]: {c["subject"]: c for c in t["coverage"]} for t in doc.get("targets", [])}
    want = {(tg[0], TRAIN): "native", (tg[1], TRAIN): "no-kernel-image",
            (tg[0], LIBK): "ptx-jit", (tg[1], LIBK): "native"}
    for (t, b), v in want.items():
        got = cov.get(t, {}).get("binary " + b, {}).get("verdict")
        check(got == v, f"matrix: {b} on {t}: {v}, got {got}")
    if shutil.which("xmllint"):
        p = subprocess.run(["xmllint", "--noout", "--schema",
                            os.path.join(SRC, "tests", "data", "junit.xsd"), xml],
                           capture_output=True, text=True)
        check(p.returncode == 0, f"matrix junit valid: {p.stderr[-300:]}")
    else:
        skip("binaries junit schema", "xmllint is not installed (libxml2-utils)")
    junit = open(xml, encoding="utf-8").read()
    check(f"coverage: binary {TRAIN}" in junit and "architectures.sm_80" in junit,
          "junit: the binaries' cells and clauses")
    log = json.load(open(sarif, encoding="utf-8"))
    try:
        import jsonschema as js
        errs = [e.message for e in js.Draft202012Validator(json.load(open(os.path.join(
            SRC, "tests", "data", "sarif-2.1.0-subset.json")))).iter_errors(log)]
        check(not errs, f"matrix sarif valid: {errs[:3]}")
    except ImportError:
        skip("binaries sarif schema", "python3-jsonschema is not installed")
    res = log["runs"][0]["results"]
    check(any(x["ruleId"] == "policy/architectures.sm_80" and TRAIN in x["message"]["text"]
              for x in res), "sarif: the failed clause names the binary")
    check(any(c.get("subject") == "binary " + TRAIN
              for c in log["runs"][0]["properties"]["coverage"]), "sarif: the binaries' cells")
    check(any("policy architectures.sm_80" in l and TRAIN in l for l in ann),
          "github: the clause's annotation names the binary: " + "\n".join(ann)[:400])
    text = open(md, encoding="utf-8").read()
    check(f"binary {TRAIN}" in text and "no-kernel-image" in text,
          "markdown: a matrix row per binary")
    check("### Coverage: framework / binary × target" in text and
          "\n| Framework / binary | gpu=H100" in text and "\n| Framework |" not in text,
          "markdown: the matrix's first column is headed for binaries too: " + text[-600:])


def test_image(tmp, root):
    img = os.path.join(tmp, "img.tar")
    make_image.docker_save(img, [make_image.layer_from_tree(root)], ["PATH=/usr/bin:/bin"])
    rc, doc, _ = check_json("--image", img, "--policy",
                            policy(tmp, [TRAIN, "/opt/app/lib/lib?*.so"]))
    judged_tree(doc, "--image (docker save)")


def test_wheel(tmp):
    so = os.path.join(tmp, "libk80.so")
    build(so, "80", "80")
    whl = os.path.join(tmp, "kpkg-1.0-cp312-cp312-linux_x86_64.whl")
    with zipfile.ZipFile(whl, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(so, "kpkg/libk80.so")
        z.writestr("kpkg-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: kpkg\n"
                   "Version: 1.0\n")
        z.writestr("kpkg-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\n"
                   "Tag: cp312-cp312-linux_x86_64\n")
        z.writestr("kpkg-1.0.dist-info/RECORD", "")
    pat = "/usr/local/lib/python3.1?/site-packages/kpkg/*.so"
    rc, doc, _ = check_json("--wheel", whl, "--policy", policy(tmp, [pat]))
    m = clause(doc, "architectures.sm_80").get("message", "")
    check(clause(doc, "architectures.sm_80").get("status") == "pass" and
          "/usr/local/lib/python3.12/site-packages/kpkg/libk80.so: native" in m,
          f"--wheel: the member judged where pip puts it: {m}")
    check(clause(doc, "architectures.sm_90").get("status") == "fail",
          f"--wheel: sm_90 only by PTX, not allowed: {clause(doc, 'architectures.sm_90')}")


def test_many(tmp, root):
    """More binaries than a clause's text holds: the ones that do not run are listed first,
    the rest counted in a note, and every one is judged (the verdict, the coverage rows)."""
    many = os.path.join(root, "opt/many")
    os.makedirs(many)
    for i in range(60):
        shutil.copy(os.path.join(root, "opt/app/lib/libk80.so"),
                    os.path.join(many, "libkernels-of-a-long-descriptive-name-%02d.so" % i))
    shutil.copy(os.path.join(root, "opt/app/bin/train"), os.path.join(many, "zz-train.so"))
    rc, doc, _ = check_json("--sysroot", root, "--target", "gpu=A100,driver=580.65.06",
                            "--policy", policy(tmp, ["/opt/many/*.so"]))
    valid(doc, "61 binaries")
    c80 = clause(doc, "architectures.sm_80")
    m = c80.get("message", "")
    check(c80.get("status") == "fail" and m.startswith("/opt/many/zz-train.so: no-kernel-image; ")
          and "more binaries not listed here (0 of them do not run" in m,
          f"61 binaries, sm_80: the failing one first, the rest counted: {m[:200]} … {m[-200:]}")
    listed = m.count("libkernels-of-a-long-descriptive-name-")
    note = re.search(r"(\d+) more binaries not listed here", m)
    check(note and int(note.group(1)) == 60 - listed and 0 < listed < 60,
          f"61 binaries: {listed} listed, the note counts the rest: {m[-160:]}")
    rows = [c for c in doc.get("coverage", []) if c["subject"].startswith("binary /opt/many/")]
    check(len(rows) == 61, f"61 binaries: a coverage row each: {len(rows)}")
    check(rc == 1, f"61 binaries: failed by the policy: {rc}")
    shutil.rmtree(many)


def test_image_libraries(tmp):
    """No policy naming them: every shared object of a layered `docker save` image is read and
    its GPU code judged on the target (the clause image.gpu_libraries, a coverage row each),
    wherever the layers put it; a library an upper layer whites out is not judged."""
    tree = os.path.join(tmp, "libs")
    lib = os.path.join(tree, "usr/lib/x86_64-linux-gnu")
    wheel = os.path.join(tree, "usr/local/lib/python3.12/site-packages/nvidia/kx/lib")
    old = os.path.join(tree, "opt/old")
    for d in (lib, wheel, old):
        os.makedirs(d)
    build(os.path.join(lib, "libk80.so.1"), "80", "80")
    os.symlink("libk80.so.1", os.path.join(lib, "libk80.so"))
    build(os.path.join(wheel, "libk90.so.12"), "90")
    build(os.path.join(old, "libgone.so"), "90")
    os.makedirs(os.path.join(tree, "etc"))
    with open(os.path.join(tree, "etc/ld.so.conf"), "w") as f:  # not a shared object
        f.write("include /etc/ld.so.conf.d/*.conf\n")
    # a linker script named like a library, and an ELF library with no GPU code
    with open(os.path.join(lib, "libc.so"), "w") as f:
        f.write("/* GNU ld script */\nGROUP ( /lib/x86_64-linux-gnu/libc.so.6 )\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", os.path.join(lib, "libplain.so.0"), "-x",
                    "c", "-"], input=b"int plain(void) { return 0; }\n", check=True)
    img = os.path.join(tmp, "libs.tar")
    make_image.docker_save(img, [make_image.layer_from_tree(tree),
                                 [("opt/old/.wh.libgone.so", "file", b"")]],
                           ["PATH=/usr/bin:/bin"])
    lk80, lk90 = "/usr/lib/x86_64-linux-gnu/libk80.so.1", wheel[len(tree):] + "/libk90.so.12"
    rc, doc, _ = check_json("--image", img, "--target", "gpu=A100,driver=580.65.06")
    valid(doc, "image libraries")
    c = clause(doc, "image.gpu_libraries")
    m = c.get("message", "")
    check(c.get("status") == "fail" and m.startswith("2 GPU libraries judged on ") and
          ": 1 fail (" + lk90 + ": no-kernel-image)" in m and "4 shared objects: 1 without GPU code in their fat binaries (" in m and
          "`gpuenv scan --deep` reads every section), 1 not ELF" in m,
          f"A100: the wheel's sm_90-only library fails, the rest counted: {c}")
    rows = {r["subject"]: r["verdict"] for r in doc.get("coverage", [])}
    check(rows.get("library " + lk80) == "native" and
          rows.get("library " + lk90) == "no-kernel-image",
          f"A100: a coverage row per GPU library: {rows}")
    check(not any("libgone" in k for k in rows) and "libgone" not in m,
          f"the whited-out library is not judged: {rows} {m}")
    check(rc != 0, f"A100: a library that does not run fails the check: {rc}")
    # the same layers gzip'ed in an OCI archive: read in order out of the compressed layers
    oci = os.path.join(tmp, "libs-oci.tar")
    make_image.oci(oci, [make_image.layer_from_tree(tree),
                         [("opt/old/.wh.libgone.so", "file", b"")]], ["PATH=/usr/bin:/bin"],
                   compression="gzip")
    rc, doc, _ = check_json("--image", oci, "--target", "gpu=A100,driver=580.65.06")
    check(clause(doc, "image.gpu_libraries").get("message") == m,
          f"gzip'ed OCI layers: the same clause: {clause(doc, 'image.gpu_libraries')}")
    test_image_directory(tmp, tree, m, rows)
    rc, doc, _ = check_json("--image", img, "--target", "gpu=H100,driver=580.65.06")
    c = clause(doc, "image.gpu_libraries")
    check(c.get("status") == "pass" and c.get("message", "").startswith(
        "2 GPU libraries judged on ") and "; 1 run by PTX JIT only" in c.get("message", ""),
          f"H100: both run (libk80 by PTX JIT): {c}")
    rc, doc, _ = check_json("--image", img)
    c = clause(doc, "image.gpu_libraries")
    check(c.get("status") == "skipped" and "no NVIDIA GPU" in c.get("message", ""),
          f"no target: not judged, and said so: {c}")


def test_image_directory(tmp, tree, archive_clause, archive_rows):
    """The same tree unpacked (the archive's view: the whited-out library gone) as a directory
    --image: the same clause and verdicts. What the walk must not take is added: a hard link
    (once), a symbolic link to a directory (merged /usr: not a second copy) and to files and
    a directory outside the root (never followed), a FIFO named like a library (never
    opened), and GPU libraries under /proc, /sys and /dev (virtual file systems on a live
    root)."""
    d = os.path.join(tmp, "unpacked")
    shutil.copytree(tree, d, symlinks=True)
    os.remove(os.path.join(d, "opt/old/libgone.so"))
    gone = os.path.join(tree, "opt/old/libgone.so")
    lib = os.path.join(d, "usr/lib/x86_64-linux-gnu")
    os.link(os.path.join(lib, "libk80.so.1"), os.path.join(lib, "zz-hardlink-of-k80.so.1"))
    os.symlink("usr/lib", os.path.join(d, "lib"))
    outside = os.path.join(tmp, "outside")
    os.makedirs(outside)
    shutil.copy(gone, os.path.join(outside, "libescape.so"))
    os.symlink(outside, os.path.join(d, "opt/escape"))
    os.symlink(os.path.join(outside, "libescape.so"), os.path.join(lib, "libescape.so"))
    os.symlink("../../../../outside/libescape.so", os.path.join(lib, "libescape2.so"))
    os.mkfifo(os.path.join(lib, "libfifo.so"))
    for v in ("proc/1/root/usr/lib", "sys/kernel", "dev/shm"):
        os.makedirs(os.path.join(d, v))
        shutil.copy(gone, os.path.join(d, v, "libvirtual.so"))
    rc, doc, _ = check_json("--image", d, "--target", "gpu=A100,driver=580.65.06")
    valid(doc, "unpacked directory")
    c = clause(doc, "image.gpu_libraries")
    check(c.get("message") == archive_clause and c.get("status") == "fail",
          f"directory --image: the clause the docker save archive gives: {c}")
    rows = {r["subject"]: r["verdict"] for r in doc.get("coverage", [])}
    check(rows == archive_rows, f"directory --image: the archive's verdicts: {rows}")
    check(rc != 0, f"directory --image: a library that does not run fails the check: {rc}")
    unlisted(d, archive_clause)
    rc, doc, _ = check_json("--sysroot", d, "--target", "gpu=A100,driver=580.65.06")
    c = clause(doc, "image.gpu_libraries")
    check(c == {}, f"--sysroot: a machine's libraries are the doctor's: {c}")


def unlisted(d, archive_clause):
    """A directory of the tree that cannot be listed (EACCES injected: root reads past the
    mode bits): more libraries may be there, so the clause fails as could not tell and says
    which directory."""
    if not GPUENV_TEST:
        skip("an unlistable directory", "no gpuenv-test (the test build's fault injection)")
        return
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1",
           "GPUENV_TEST_INJECT_ERRORS": "/usr/local/lib=EACCES"}
    env.update({k: v for k, v in os.environ.items() if k.endswith("SAN_OPTIONS")})
    r = subprocess.run([GPUENV_TEST, "check", "--json", "--stable", "--no-vendor", "--today",
                        TODAY, "--image", d, "--target", "gpu=A100,driver=580.65.06"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                       timeout=300)
    try:
        c = clause(json.loads(r.stdout), "image.gpu_libraries")
    except ValueError:
        c = {}
    m = c.get("message", "")
    check(c.get("status") == "fail" and m.startswith("1 GPU libraries judged") and
          m.endswith("; not read in full, more may exist (could not tell): /usr/local/lib: "
                     "Permission denied") and m != archive_clause,
          f"an unlistable directory: could not tell, named: {c} {r.stderr[-300:]}")


def lto_tree(tmp, name, nvjitlink, minor=65):
    """A tree with nvcc 13.0's LTO-IR fat binary (tests/data/ltoir, its LTO-IR version set to
    1.minor in the entry header and in the payload's own container) and, unless nvjitlink is
    None, a CUDA 12.4 toolkit whose version.json names that libnvjitlink."""
    root = os.path.join(tmp, name)
    os.makedirs(os.path.join(root, "opt/app/lib"))
    with open(os.path.join(SRC, "tests/data/ltoir/lto90-nvcc13.0-uncompressed.fatbin"),
              "rb") as f:
        fb = bytearray(f.read())
    hsz = int.from_bytes(fb[20:24], "little")
    check(fb[16 + hsz:16 + hsz + 6] == bytes.fromhex("ed434e7f0141") and fb[16 + 0x18] == 65,
          "the committed LTO-IR fat binary: version 1.65 in header and payload")
    fb[16 + 0x18] = minor
    fb[16 + hsz + 5] = minor
    with open(os.path.join(root, "opt/app/lib/kernels.fatbin"), "wb") as f:
        f.write(fb)
    if nvjitlink:
        tk = os.path.join(root, "usr/local/cuda-12.4")
        os.makedirs(os.path.join(tk, "lib64"))
        with open(os.path.join(tk, "version.json"), "w") as f:
            json.dump({"cuda": {"name": "CUDA SDK", "version": "12.4.1"},
                       "libnvjitlink": {"name": "CUDA nvJitLink", "version": nvjitlink}}, f)
    return root


def test_lto(tmp):
    """LTO-IR is judged against the tree's nvJitLink (docs/compatibility.md): named by the
    verdict as a condition, the code itself still no-kernel-image; the judgement is also a
    structured coverage[].lto[] entry (docs/schema/check.json) in --json and SARIF, and a
    JUnit property."""
    pol = os.path.join(tmp, "lto.yml")
    with open(pol, "w", encoding="utf-8") as f:
        f.write("version: 1\nprofile: build\narchitectures:\n  targets: [sm_90]\n"
                "  binaries:\n    - \"/opt/app/lib/kernels.fatbin\"\n")
    # name, nvJitLink in the tree, LTO-IR 1.minor, the text, coverage[].lto[0].{verdict,
    # unconfirmed}
    cases = [("lto-new", "13.0.88", 65, "lto_90 (LTO-IR 1.65): nvJitLink 13.0 is new enough "
              "to link it (it links LTO-IR up to 1.65, what CUDA 13.0 writes)", "new-enough",
              False),
             ("lto-old", "13.0.88", 66, "lto_90 (LTO-IR 1.66): nvJitLink 13.0 too old to link "
              "it", "too-old", False),
             ("lto-unknown", "12.4.127", 65, "could not tell whether nvJitLink 12.4 links it",
              "unknown", False),
             ("lto-newer", "12.4.127", 66, "nvJitLink 12.4 too old to link it (even CUDA 13.0 "
              "writes only LTO-IR 1.65", "too-old", True),
             ("lto-none", None, 65, "lto_90 (LTO-IR 1.65): no libnvJitLink found", "none-found",
              False)]
    for name, nvj, minor, want, verdict, unconfirmed in cases:
        root = lto_tree(tmp, name, nvj, minor)
        rc, doc, _ = check_json("--sysroot", root, "--policy", pol, "--target",
                                "gpu=H100,driver=580.65.06")
        valid(doc, name)
        m = clause(doc, "architectures.sm_90").get("message", "")
        check(clause(doc, "architectures.sm_90").get("status") == "fail" and
              "no-kernel-image (LTO-IR only" in m and
              "if it links its LTO-IR at run time: " in m and want in m,
              f"{name}: the clause names the nvJitLink verdict: {m}")
        rows = [r for r in doc.get("coverage", []) if "kernels.fatbin" in r.get("subject", "")]
        check(rows and rows[0].get("verdict") == "no-kernel-image" and
              want[:60] in rows[0].get("reason", ""),
              f"{name}: the coverage row on the target's H100 says it too: {rows}")
        lto = rows[0].get("lto", []) if rows else []
        nv = ({"version": nvj, "from": "the CUDA toolkit at /usr/local/cuda-12.4"} if nvj
              else None)
        check(len(lto) == 1 and lto[0].get("target") == "lto_90" and
              lto[0].get("ltoir_version") == f"1.{minor}" and
              lto[0].get("verdict") == verdict and lto[0].get("unconfirmed") is unconfirmed and
              lto[0].get("nvjitlink") == nv and "library" not in lto[0] and
              want[:60] in lto[0].get("reason", ""),
              f"{name}: coverage[].lto[] is {verdict}{' (unconfirmed)' * unconfirmed} with "
              f"nvJitLink {nv}: {lto}")
        if name == "lto-newer":
            test_lto_ci(tmp, root, pol, want)
    # no GPU to judge the code on: the LTO-IR is judged all the same (it needs only the
    # nvJitLink), in the cell's reason and its lto[]
    rc, doc, _ = check_json("--sysroot", os.path.join(tmp, "lto-old"), "--policy", pol)
    valid(doc, "lto without a GPU")
    rows = [r for r in doc.get("coverage", []) if "kernels.fatbin" in r.get("subject", "")]
    check(rows and "gpu" not in rows[0] and
          [e.get("verdict") for e in rows[0].get("lto", [])] == ["too-old"] and
          "nvJitLink 13.0 too old to link it" in rows[0].get("reason", ""),
          f"lto without a GPU: judged in the cell: {rows}")


def test_lto_ci(tmp, root, pol, want):
    """The LTO-IR judgement in SARIF (run.properties.coverage[].lto[]) and JUnit (a
    property per entry)."""
    xml, sarif = os.path.join(tmp, "lto.xml"), os.path.join(tmp, "lto.sarif")
    run(GPUENV, "check", "--stable", "--no-vendor", "--today", TODAY, "--sysroot", root,
        "--policy", pol, "--target", "gpu=H100,driver=580.65.06", "--junit", xml, "--sarif",
        sarif, timeout=300)
    try:
        cov = json.load(open(sarif, encoding="utf-8"))["runs"][0]["properties"]["coverage"]
    except (OSError, ValueError, KeyError, IndexError) as e:
        check(False, f"lto sarif: {e}")
        cov = []
    rows = [c for c in cov if "kernels.fatbin" in c.get("subject", "")]
    check(rows and [(e.get("target"), e.get("verdict"), e.get("unconfirmed"))
                    for e in rows[0].get("lto", [])] == [("lto_90", "too-old", True)],
          f"lto sarif: coverage[].lto[]: {rows}")
    junit = open(xml, encoding="utf-8").read() if os.path.exists(xml) else ""
    check('<property name="lto: binary /opt/app/lib/kernels.fatbin: lto_90" value="too-old '
          '(unconfirmed): lto_90 (LTO-IR 1.66): ' + want in junit, "lto junit: a property per entry: " +
          "\n".join(l for l in junit.splitlines() if "lto" in l)[:600])


def test_image_lto(tmp):
    """An image's GPU library with LTO-IR, judged end to end: a layered `docker save` tarball
    (and the same layers as an OCI archive) holding a library built by nvcc with SASS and
    LTO-IR for sm_90, and a CUDA toolkit whose version.json names its nvJitLink, as
    nvidia/cuda images carry it. coverage[].lto[] of the library's row names the LTO-IR
    version and the verdict against the image's nvJitLink: new enough (nvJitLink 13.0.88,
    nvcc 13.0's LTO-IR 1.65), none found (an upper layer whites the toolkit out), too old
    (the library's LTO-IR set to 1.66); SARIF and JUnit carry the same."""
    if not shutil.which("nvcc"):
        skip("an image library's LTO-IR", "nvcc is not installed (real LTO-IR needs it)")
        return
    lib_dir = "usr/lib/x86_64-linux-gnu"
    subject = f"library /{lib_dir}/libltok.so.1"
    cases = []
    for name, ltoir, toolkit in (("present", None, "keep"), ("absent", None, "whiteout"),
                                 ("too-old", "1.66", "keep")):
        tree = os.path.join(tmp, f"lto-img-{name}")
        os.makedirs(os.path.join(tree, lib_dir))
        o = {"soname": "libltok.so.1", "sass": "90", "lto": "90"}
        if ltoir:
            o["ltoir"] = ltoir
        fixture_root.build_cuda(os.path.join(tree, lib_dir, "libltok.so.1"), o)
        tk = os.path.join(tree, "usr/local/cuda-13.0")
        os.makedirs(os.path.join(tk, "lib64"))
        with open(os.path.join(tk, "version.json"), "w") as f:
            json.dump({"cuda": {"name": "CUDA SDK", "version": "13.0.2"},
                       "libnvjitlink": {"name": "CUDA nvJitLink", "version": "13.0.88"}}, f)
        layers = [make_image.layer_from_tree(tree)]
        if toolkit == "whiteout":
            layers.append([("usr/local/.wh.cuda-13.0", "file", b"")])
        img = os.path.join(tmp, f"lto-img-{name}.tar")
        make_image.docker_save(img, layers, ["PATH=/usr/local/cuda-13.0/bin:/usr/bin:/bin"])
        cases.append((name, img, layers))
    want = {"present": ("1.65", "new-enough", {"version": "13.0.88",
                                               "from": "the CUDA toolkit at /usr/local/cuda-13.0"},
                        "lto_90 (LTO-IR 1.65): nvJitLink 13.0 is new enough to link it"),
            "absent": ("1.65", "none-found", None,
                       "lto_90 (LTO-IR 1.65): no libnvJitLink found to link it"),
            "too-old": ("1.66", "too-old", {"version": "13.0.88",
                                            "from": "the CUDA toolkit at /usr/local/cuda-13.0"},
                        "lto_90 (LTO-IR 1.66): nvJitLink 13.0 too old to link it")}
    for name, img, layers in cases:
        ver, verdict, nv, text = want[name]
        rc, doc, _ = check_json("--image", img, "--target", "gpu=H100,driver=580.65.06")
        valid(doc, f"image lto {name}")
        rows = [r for r in doc.get("coverage", []) if r.get("subject") == subject]
        lto = rows[0].get("lto", []) if rows else []
        check(rows and rows[0].get("verdict") == "native" and len(lto) == 1 and
              lto[0].get("target") == "lto_90" and lto[0].get("ltoir_version") == ver and
              lto[0].get("verdict") == verdict and lto[0].get("unconfirmed") is False and
              lto[0].get("nvjitlink") == nv and text in lto[0].get("reason", "") and
              lto[0].get("library") == f"/{lib_dir}/libltok.so.1" and
              text in rows[0].get("reason", ""),
              f"image lto {name}: {subject} runs as SASS, its lto[] (naming the library's path "
              f"in the image) is {verdict} with LTO-IR {ver}: {rows}")
        if name == "too-old":
            # the same layers as an OCI archive: the same row; SARIF and JUnit carry it
            oci = os.path.join(tmp, "lto-img-too-old-oci.tar")
            make_image.oci(oci, layers, ["PATH=/usr/local/cuda-13.0/bin:/usr/bin:/bin"])
            rc, doc2, _ = check_json("--image", oci, "--target", "gpu=H100,driver=580.65.06")
            rows2 = [r for r in doc2.get("coverage", []) if r.get("subject") == subject]
            check(rows2 == rows, f"image lto: the OCI archive gives the same row: {rows2}")
            xml, sarif = os.path.join(tmp, "lto-img.xml"), os.path.join(tmp, "lto-img.sarif")
            run(GPUENV, "check", "--stable", "--no-vendor", "--today", TODAY, "--image", img,
                "--target", "gpu=H100,driver=580.65.06", "--junit", xml, "--sarif", sarif,
                timeout=300)
            try:
                cov = json.load(open(sarif, encoding="utf-8"))["runs"][0]["properties"][
                    "coverage"]
            except (OSError, ValueError, KeyError, IndexError) as e:
                check(False, f"image lto sarif: {e}")
                cov = []
            srows = [c for c in cov if c.get("subject") == subject]
            check(srows and [(e.get("target"), e.get("ltoir_version"), e.get("verdict"))
                             for e in srows[0].get("lto", [])] == [("lto_90", "1.66", "too-old")],
                  f"image lto sarif: coverage[].lto[]: {srows}")
            junit = open(xml, encoding="utf-8").read() if os.path.exists(xml) else ""
            check(f'<property name="lto: {subject}: lto_90" value="too-old: {text}' in junit,
                  "image lto junit: a property for the entry: " +
                  "\n".join(l for l in junit.splitlines() if "lto" in l)[:600])


def main():
    if not shutil.which("nvcc"):
        skip("nvcc-built binaries", "nvcc is not installed: fatbin_writer.py's containers")
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        os.makedirs(os.path.join(root, "opt/app/bin"))
        os.makedirs(os.path.join(root, "opt/app/lib"))
        build(os.path.join(root, "opt/app/bin/train"), "90")
        build(os.path.join(root, "opt/app/lib/libk80.so"), "80", "80")
        test_sysroot(tmp, root)
        test_matrix(tmp, root)
        test_many(tmp, root)
        test_image(tmp, root)
        test_wheel(tmp)
        test_image_libraries(tmp)
        test_lto(tmp)
        test_image_lto(tmp)
    return summary(SKIPS)


if __name__ == "__main__":
    sys.exit(main())
