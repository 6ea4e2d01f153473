#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""--image: images written here as real `docker save` and OCI tarballs (make_image.py) from
fixture trees, split into layers with whiteouts and an opaque directory, must give the doctor
findings that --sysroot gives on the flattened tree; a whited-out libcuda is gone; the image's
Env is the environment; hostile images give a message and a recorded state, never a crash,
a hang or a host file; cuSPARSE's nvJitLink requirement is judged inside an image's layers
(streamed from a compressed layer, never spilled to TMPDIR).
Usage: test-image.py GPUENV FIXTURES_DIR"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_root  # noqa: E402
import make_image as mi  # noqa: E402
from image_checks import check, index_state, run, summary  # noqa: E402

# Rules that run only when an image is read (.only_with = "container.image"): an intact
# image passes them, and they are not counted for a --sysroot tree.
IMAGE_ONLY_RULES = ("container.image-incomplete",)


def comparable(out, image=False):
    """doctor --json without the snapshot, env sources read as the environment's; for an
    image, without the image-only rules it passed."""
    d = json.loads(out)
    d.pop("snapshot", None)
    if image:
        fired = {f.get("id") for f in d.get("findings", [])}
        n = len([r for r in IMAGE_ONLY_RULES if r not in fired])
        d["counts"]["rules"] -= n
        for layer in d.get("layers", []):
            if layer.get("layer") == "container":
                layer["rules"] -= n
                layer["evaluated"] -= n
    text = json.dumps(d, sort_keys=True)
    return text.replace('"image config Env"', '"environment"')


def plain_fixtures(fixtures):
    """Fixtures whose whole machine is the tree (no device nodes, generated files, injected
    errors or fakes)."""
    for name in sorted(os.listdir(fixtures)):
        d = os.path.join(fixtures, name)
        if not os.path.isfile(os.path.join(d, "scenario.ini")):
            continue
        ini = fixture_root.read_ini(d)
        args = ini.get("scenario", "args", fallback="")
        if (any(ini.has_section(x) for x in ("devices", "efivars")) or
                fixture_root.generated(ini) or "@FAKES@" in args or
                ini.has_option("scenario", "inject_errors")):
            continue
        yield name, d, ini, args.split()


def split_layers(root):
    """Two layers whose result is root: the lower one with half the files, a stale copy of
    one, a planted libcuda and a stale directory; the upper one with the rest, a whiteout of
    the libcuda and an opaque marker over the stale directory (and no parent entries: a tar
    may omit them)."""
    entries = mi.layer_from_tree(root)
    files = [e for e in entries if e[1] == "file"]
    upper = files[1::2]
    upper_paths = {e[0] for e in upper}
    lower = [e for e in entries if e[0] not in upper_paths]
    if upper:
        lower.append((upper[0][0], "file", b"stale copy from the lower layer\n"))
    planted = "usr/lib/x86_64-linux-gnu/libcuda.so.1"
    if not os.path.lexists(os.path.join(root, planted)):
        lower.append((planted, "file", b"\x7fELF planted in a lower layer"))
        upper.append(("usr/lib/x86_64-linux-gnu/.wh.libcuda.so.1", "file", b""))
    lower += [("opt/gpuenv-stale/libcudart.so.11.0", "file", b"stale"),
              ("opt/gpuenv-stale/sub/x", "file", b"stale")]
    upper.append(("opt/gpuenv-stale/.wh..wh..opq", "file", b""))
    os.makedirs(os.path.join(root, "opt", "gpuenv-stale"), exist_ok=True)
    return [lower, upper]


def env_list(ini):
    return ["%s=%s" % kv for kv in ini.items("env")] if ini.has_section("env") else []


def test_equivalence(gpuenv, fixtures, tmp):
    n = 0
    for name, d, ini, args in plain_fixtures(fixtures):
        root = os.path.join(tmp, name)
        if fixture_root.prepare(d, root, os.path.join(tmp, "keys")):
            print("SKIP %s: fixture files not made" % name)
            continue
        layers = split_layers(root)
        env = env_list(ini)
        envfile = os.path.join(tmp, name + ".env")
        with open(envfile, "w") as f:
            f.write("".join(x + "\n" for x in env))
        ref = run(gpuenv, "doctor", "--json", "--stable", "--no-vendor", *args,
                  "--sysroot", root, "--env-file", envfile)
        images = {"docker-save": os.path.join(tmp, name + ".docker.tar"),
                  "oci-archive": os.path.join(tmp, name + ".oci.tar")}
        mi.docker_save(images["docker-save"], layers, env)
        mi.oci(images["oci-archive"], layers, env, compression="gzip")
        for kind, path in images.items():
            got = run(gpuenv, "doctor", "--json", "--stable", "--no-vendor", *args,
                      "--image", path)
            check(got.returncode == ref.returncode,
                  "%s %s: exit %d, --sysroot %d: %s" % (name, kind, got.returncode,
                                                       ref.returncode, got.stderr[-300:]))
            try:
                same = comparable(got.stdout, image=True) == comparable(ref.stdout)
            except json.JSONDecodeError:
                same = False
            check(same, "%s %s: doctor --json differs from --sysroot's" % (name, kind))
            if not same:
                with open(os.path.join(tmp, "diff-a.json"), "w") as f:
                    f.write(ref.stdout)
                with open(os.path.join(tmp, "diff-b.json"), "w") as f:
                    f.write(got.stdout)
                subprocess.run(["diff", "-u", os.path.join(tmp, "diff-a.json"),
                                os.path.join(tmp, "diff-b.json")])
        shutil.rmtree(root)
        n += 1
        if n == 8:  # enough kinds of tree; each costs three doctor runs under ASan
            break
    check(n >= 3, "at least three fixtures compared (%d)" % n)


def report(gpuenv, image, *extra, timeout=120):
    r = run(gpuenv, "report", "--json", "--stable", "--no-vendor", "--image", image, *extra,
            timeout=timeout)
    return r, (json.loads(r.stdout) if r.returncode in (0, 1, 2) and r.stdout else None)


LIBCUDA = ("usr/lib/x86_64-linux-gnu/libcuda.so.1", "file", b"\x7fELF a driver library")
BASE = [("etc/os-release", "file", b'ID=ubuntu\nVERSION_ID="22.04"\n'),
        ("etc/ld.so.conf", "file", b"/usr/lib/x86_64-linux-gnu\n")]


def test_whiteout(gpuenv, tmp):
    img = os.path.join(tmp, "wh.tar")
    mi.docker_save(img, [BASE + [LIBCUDA], [("usr/lib/x86_64-linux-gnu/.wh.libcuda.so.1",
                                             "file", b"")]], [])
    r, _ = report(gpuenv, img, "--trace-paths", os.path.join(tmp, "trace"))
    with open(os.path.join(tmp, "trace")) as f:
        trace = f.read()
    check("ok\t/usr/lib/x86_64-linux-gnu/libcuda.so.1" not in trace,
          "a whited-out libcuda is not read")
    control = os.path.join(tmp, "nowh.tar")
    mi.docker_save(control, [BASE + [LIBCUDA], []], [])
    r, _ = report(gpuenv, control, "--trace-paths", os.path.join(tmp, "trace2"))
    with open(os.path.join(tmp, "trace2")) as f:
        check("ok\t/usr/lib/x86_64-linux-gnu/libcuda.so.1" in f.read(),
              "without the whiteout the same libcuda is read (the check can fail)")
    # opaque: everything of the lower directory gone, the same layer's entry kept
    img = os.path.join(tmp, "opq.tar")
    mi.oci(img, [BASE + [("opt/x/old", "file", b"old"), ("opt/x/sub/deep", "file", b"d")],
                 [("opt/x/.wh..wh..opq", "file", b""), ("opt/x/new", "file", b"new")]], [],
           compression="zstd" if shutil.which("zstd") else None)
    r, _ = report(gpuenv, img)
    check(r.returncode in (0, 1, 2), "opaque image reads: %s" % r.stderr[-200:])


def test_env(gpuenv, tmp):
    env = ["PATH=/usr/local/cuda/bin:/usr/bin:/bin", "CUDA_VERSION=12.4.1",
           "NVIDIA_REQUIRE_CUDA=cuda>=12.4", "NVIDIA_VISIBLE_DEVICES=all",
           "NVIDIA_DRIVER_CAPABILITIES=compute,utility", "LD_LIBRARY_PATH=/usr/local/nvidia/lib64"]
    img = os.path.join(tmp, "env.tar")
    mi.docker_save(img, [BASE], env)
    r, d = report(gpuenv, img)
    check(d is not None, "report --image of the Env image: %s" % r.stderr[-200:])
    if d is None:
        return
    req = d["container"]["requested"]
    check(req["CUDA_VERSION"] == {"source": "image config Env", "state": "present",
                                  "value": "12.4.1"}, "CUDA_VERSION from the image: %s"
          % req["CUDA_VERSION"])
    check(req["NVIDIA_REQUIRE_CUDA"]["value"] == "cuda>=12.4", "NVIDIA_REQUIRE_CUDA from Env")
    check(d["environment"]["LD_LIBRARY_PATH"]["source"] == "image config Env",
          "LD_LIBRARY_PATH recorded with its source")
    check(d["container"]["image"]["env_entries"]["value"] == len(env), "Env entries counted")
    envfile = os.path.join(tmp, "over.env")
    with open(envfile, "w") as f:
        f.write("CUDA_VERSION=11.8.0\n")
    r, d = report(gpuenv, img, "--env-file", envfile)
    check(d and d["container"]["requested"]["CUDA_VERSION"] == {
        "source": "environment", "state": "present", "value": "11.8.0"},
        "--env-file overlays the image's Env, as docker run --env-file does")


def test_hostile(gpuenv, tmp):
    # "../" and absolute names, a link out of the tree, a link loop, a FIFO, a device
    secret = os.path.join(tmp, "host-os-release")
    with open(secret, "w") as f:
        f.write("ID=hostleak\n")
    layer = [("etc/os-release", "symlink", "../../../../../../.." + secret),
             ("usr/lib/os-release", "symlink", secret),
             ("etc/ld.so.conf", "file", b"/usr/lib/x86_64-linux-gnu\n"),
             ("../../escape", "file", b"x"), ("/abs/file", "file", b"abs"),
             ("usr/share/../../../etc/shadow", "file", b"x"),
             ("loop/a", "symlink", "b"), ("loop/b", "symlink", "a"),
             ("etc/ld.so.conf.d", "dir", None),
             ("etc/ld.so.conf.d/fifo.conf", "fifo", None),
             ("dev/nvidia0", "chr", (195, 0))]
    img = os.path.join(tmp, "hostile.tar")
    mi.docker_save(img, [layer], [])
    r, d = report(gpuenv, img, "--trace-paths", os.path.join(tmp, "trace-h"), timeout=60)
    check(d is not None, "hostile image: report runs (%d): %s" % (r.returncode, r.stderr[-300:]))
    st = index_state(d)
    check(st and st["state"] == "error" and "unsafe" in st.get("error", ""),
          "'..' entries recorded: %s" % st)
    check("hostleak" not in r.stdout, "no host file read through a link")
    check(d and d["host"]["os"].get("id", {}).get("state") != "present",
          "the links out resolve to nothing: %s" % (d and d["host"]["os"]))
    check(not os.path.exists(os.path.join(tmp, "..", "escape")), "nothing extracted")
    # truncated layer: entries before the damage stay, the index says what happened
    good = os.path.join(tmp, "trunc-src")
    os.makedirs(good, exist_ok=True)
    big = BASE + [("usr/lib/f%d" % i, "file", b"y" * 4000) for i in range(50)]
    raw = mi.layer_tar(big)
    img = os.path.join(tmp, "trunc.tar")
    mi.docker_save(img, None, [], raw_layers=[raw[:len(raw) // 2]])
    r, d = report(gpuenv, img)
    st = index_state(d)
    check(st and st["state"] == "error" and "runcated" in st.get("error", ""),
          "truncated layer recorded: %s" % st)
    check(d and d["host"]["os"]["id"]["value"] == "ubuntu", "entries before the damage read")
    # a manifest naming a layer that is not there
    img = os.path.join(tmp, "missing.tar")
    mi.oci(img, [BASE], [])
    import tarfile
    with tarfile.open(img) as t:
        members = [(m, t.extractfile(m).read() if m.isfile() else None) for m in t]
    idx = json.loads(dict((m.name, data) for m, data in members)["index.json"])
    man_path = "blobs/sha256/" + idx["manifests"][0]["digest"].split(":")[1]
    man = json.loads(dict((m.name, data) for m, data in members)[man_path])
    gone = "blobs/sha256/" + man["layers"][0]["digest"].split(":")[1]
    with tarfile.open(img, "w") as t:
        for m, data in members:
            if m.name != gone:
                t.addfile(m, None if data is None else __import__("io").BytesIO(data))
    r, d = report(gpuenv, img)
    st = index_state(d)
    check(st and st["state"] == "error" and "not in the image" in st.get("error", ""),
          "missing layer recorded: %s" % st)
    # a decompression bomb: 300 MB of zeros in a gzip layer of a few hundred KB
    import gzip
    import io
    bomb = os.path.join(tmp, "bomb.tar")
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as g:
        head = io.BytesIO()
        import tarfile as tf
        info = tf.TarInfo("zeros")
        info.size = 300 << 20
        g.write(info.tobuf(format=tf.PAX_FORMAT))
        chunk = bytes(1 << 20)
        for _ in range(300):
            g.write(chunk)
        g.write(bytes(1024))
    mi.docker_save(bomb, None, [], raw_layers=[buf.getvalue()])
    r, d = report(gpuenv, bomb, timeout=60)
    st = index_state(d)
    check(st and st["state"] == "error" and "bomb" in st.get("error", ""),
          "decompression bomb stopped and recorded: %s" % st)
    # bad manifests: a clear message and the input exit code
    for name, content in (("notjson", b"{"), ("escape", b'[{"Config":"../x","Layers":[]}]')):
        img = os.path.join(tmp, name + ".tar")
        with tarfile.open(img, "w") as t:
            mi._add(t, "manifest.json", content)
        r = run(gpuenv, "doctor", "--image", img)
        check(r.returncode == 66 and "manifest.json" in r.stderr,
              "%s manifest: exit %d: %s" % (name, r.returncode, r.stderr.strip()))
    # a FIFO given as the image
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    r = run(gpuenv, "report", "--image", fifo, timeout=30)
    check(r.returncode == 66 and "not a regular file" in r.stderr,
          "FIFO as image: %d %s" % (r.returncode, r.stderr.strip()))


def test_platform_and_bundle(gpuenv, tmp):
    img = os.path.join(tmp, "multi.tar")
    mi.oci(img, [BASE], ["ARCH=amd64"], multi=True)
    r, d = report(gpuenv, img)
    check(d and d["container"]["image"]["platform"]["value"] == "linux/amd64",
          "multi-platform index: linux/amd64 chosen")
    r, d = report(gpuenv, img, "--image-platform", "linux/arm64/v8")
    check(d and d["container"]["image"]["platform"]["value"] == "linux/arm64",
          "--image-platform chooses: %s" % r.stderr[-200:])
    # docker 25+ `docker save`: an OCI layout with manifest.json beside it; an OCI directory
    img = os.path.join(tmp, "docker25.tar")
    mi.oci(img, [BASE, [("etc/os-release", "file", b"ID=debian\n")]], ["A=1"],
           docker_manifest=True)
    r, d = report(gpuenv, img)
    check(d and d["container"]["image"]["kind"]["value"] == "docker-save" and
          d["host"]["os"]["id"]["value"] == "debian", "docker 25 save: %s" % r.stderr[-200:])
    img = os.path.join(tmp, "oci-dir")
    mi.oci(img, [BASE], ["A=1"], as_tar=False)
    r, d = report(gpuenv, img)
    check(d and d["container"]["image"]["kind"]["value"] == "oci-layout" and
          d["host"]["os"]["id"]["value"] == "ubuntu", "OCI layout directory: %s" % r.stderr[-200:])
    # a capture bundle (issue 17): root/ beside snapshot.json, tar.zst, replayed by --sysroot
    if not shutil.which("zstd"):
        print("SKIP capture bundle: zstd not installed")
        return
    raw = mi.layer_tar([("snapshot.json", "file", b"{}")] +
                       [("root/" + e[0],) + e[1:] for e in BASE])
    bundle = os.path.join(tmp, "bundle.tar.zst")
    with open(bundle, "wb") as f:
        f.write(mi.compress(raw, "zstd"))
    r = run(gpuenv, "report", "--json", "--stable", "--no-vendor", "--sysroot", bundle)
    d = json.loads(r.stdout) if r.stdout else None
    # a whole bundle replays as the machine it was taken on: no container.image
    check(d and d["host"]["os"]["id"]["value"] == "ubuntu" and
          "image" not in d.get("container", {}),
          "--sysroot bundle.tar.zst reads root/: %s" % r.stderr[-200:])
    # cut inside a last member that does not compress: the tree before it is whole
    raw = mi.layer_tar([("snapshot.json", "file", b"{}")] +
                       [("root/" + e[0],) + e[1:] for e in BASE] +
                       [("root/zz-noise", "file", os.urandom(1 << 20))])
    cut = os.path.join(tmp, "bundle-cut.tar.zst")
    with open(cut, "wb") as f:
        data = mi.compress(raw, "zstd")
        f.write(data[: len(data) // 2])
    r = run(gpuenv, "report", "--json", "--stable", "--no-vendor", "--sysroot", cut)
    d = json.loads(r.stdout) if r.stdout else None
    img = d and d.get("container", {}).get("image", {})
    check(img and img["kind"]["value"] == "capture-bundle" and
          img["index"]["state"] == "error",
          "a truncated bundle says so (container.image.index): %s" % (r.stdout[-300:] or
                                                                     r.stderr[-200:]))


# nvidia/cuda 12.8.0's NVIDIA_REQUIRE_CUDA as its Dockerfile sets it (ENV of the base image
# that images such as mauricenino/dashdot:nvidia are built on): CUDA 12.8, or a listed brand on
# the R470/R535/R550/R560/R565 branches. GeForce is not among the brands.
REQUIRE_12_8 = "cuda>=12.8 " + " ".join(
    "brand=%s,driver>=%d,driver<%d" % (b, lo, lo + 1)
    for lo in (470, 535, 550, 560, 565)
    for b in ("unknown", "grid", "tesla", "nvidia", "quadro", "quadrortx", "nvidiartx", "vapps",
              "vpc", "vcs", "vws", "cloudgaming"))


def check_rule(gpuenv, img, target):
    r = run(gpuenv, "check", "--json", "--no-vendor", "--image", img, "--target", target)
    try:
        c = json.loads(r.stdout)
    except ValueError:
        return r, None
    return r, {x["id"]: x for x in c.get("rules", [])}.get("container.image-cuda-newer-than-driver")


def test_require_cuda(gpuenv, tmp):
    """MauriceNino/dashdot issue 1226 (github.com/MauriceNino/dashdot/issues/1226): a laptop
    RTX 4050 (Ada, compute capability 8.9, NVML brand GeForce) on Debian 12's driver
    535.247.01 (CUDA 12.2) cannot start the CUDA 12.8 image: "nvidia-container-cli:
    requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a newer
    version, or use an earlier cuda container". The knowledge base has no laptop RTX 4050, so
    the target is the RTX 4090: the same generation and brand, which is all the requirement
    tests."""
    img = os.path.join(tmp, "cuda128.tar")
    mi.docker_save(img, [BASE], ["PATH=/usr/local/cuda/bin:/usr/bin:/bin", "CUDA_VERSION=12.8.0",
                                 "NVIDIA_REQUIRE_CUDA=" + REQUIRE_12_8,
                                 "NVIDIA_VISIBLE_DEVICES=all",
                                 "NVIDIA_DRIVER_CAPABILITIES=compute,utility"])
    r, rule = check_rule(gpuenv, img, "gpu=RTX 4090,driver=535.247.01,brand=GeForce")
    msg = (rule or {}).get("message") or ""
    check(rule and rule["state"] == "fail" and rule["severity"] == "error" and
          "unsatisfied condition: cuda>=12.8, please update your driver" in msg,
          "dashdot 1226: refused on a GeForce with R535: %s %s" % (rule, r.stderr[-200:]))
    check(r.returncode in (1, 2), "check fails: %d" % r.returncode)
    # a Tesla-branded GPU on the same driver is let through by brand=tesla,driver>=535: the
    # code then runs through minor-version compatibility (a warning)
    r, rule = check_rule(gpuenv, img, "gpu=V100,driver=535.247.01,brand=Tesla")
    check(rule and rule["severity"] == "warning" and "refuses" not in (rule["message"] or ""),
          "Tesla on R535: admitted, minor-version compatibility: %s" % rule)
    # brand not given: the verdict depends on it, and the rule says which brands fail
    r, rule = check_rule(gpuenv, img, "gpu=RTX 4090,driver=535.247.01")
    check(rule and "GeForce" in (rule["message"] or "") and "brand not known" in
          (rule["message"] or ""), "brand unknown: the refused brands named: %s" % rule)
    # R570 reports CUDA 12.8: satisfied, nothing to say
    r, rule = check_rule(gpuenv, img, "gpu=RTX 4090,driver=570.86.10,brand=GeForce")
    check(rule and rule["state"] == "pass", "R570 runs it: %s" % rule)
    # NVIDIA_DISABLE_REQUIRE=true: no requirement check, the CUDA gap stays a warning
    img2 = os.path.join(tmp, "cuda128-norequire.tar")
    mi.docker_save(img2, [BASE], ["CUDA_VERSION=12.8.0", "NVIDIA_REQUIRE_CUDA=" + REQUIRE_12_8,
                                  "NVIDIA_DISABLE_REQUIRE=true"])
    r, rule = check_rule(gpuenv, img2, "gpu=RTX 4090,driver=535.247.01,brand=GeForce")
    check(rule and "refuses" not in (rule["message"] or "") and rule["severity"] == "warning",
          "NVIDIA_DISABLE_REQUIRE=true: not refused: %s" % rule)

NVJ_FIXTURE = "rw-torch251-cusparse-old-nvjitlink-on-path"
NVJ_RULE = "runtime.nvjitlink-older-than-library"
NVJ_SITE = ("root/.cache/pypoetry/virtualenvs/soccer-eventpred-YF5lB--H-py3.10/lib/python3.10/"
            "site-packages/")
NVJ_WHEEL = NVJ_SITE + "nvidia/nvjitlink/lib/libnvJitLink.so.12"
NVJ_OLD = "usr/local/cuda-12.2/targets/x86_64-linux/lib/libnvJitLink.so.12.2.140"
NVJ_DISTRO = "usr/lib/x86_64-linux-gnu/libnvJitLink.so.12"


def nvjitlink_of(snapshot):
    """The nvjitlink object of torch's libcusparse load, or None."""
    for env in (snapshot or {}).get("framework", {}).get("python_envs", []):
        loads = env.get("packages", {}).get("torch", {}).get("loads", {})
        if "nvjitlink" in loads.get("libcusparse.so.12", {}):
            return loads["libcusparse.so.12"]["nvjitlink"]
    return None


def nvj_doctor(gpuenv, img, tmpdir):
    """doctor --json of img with TMPDIR a directory that does not exist: a member spilled
    there would fail to read. The nvjitlink object and whether the rule fired."""
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "TMPDIR": tmpdir}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    r = subprocess.run([gpuenv, "doctor", "--json", "--stable", "--no-vendor", "--image", img],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=300,
                       text=True)
    try:
        d = json.loads(r.stdout)
    except ValueError:
        return r, None, None
    fired = any(f.get("rule") == NVJ_RULE for f in d.get("findings", []))
    return r, nvjitlink_of(d.get("snapshot")), fired


def test_nvjitlink(gpuenv, fixtures, tmp):
    """pytorch/pytorch#144244 (the fixture NVJ_FIXTURE) as an image: libcusparse.so.12 of the
    nvidia-cusparse-cu12 wheel needs __nvJitLinkComplete_12_4; CUDA 12.2's libnvJitLink on
    the image's LD_LIBRARY_PATH lacks it. The stand-ins ([elf], fixture_root.py) are padded
    past the size a layer's member is streamed from (16 MiB, LAYERS_SPILL_MIN) so that a
    gzip layer streams them; the docker-save one maps them from the layer."""
    root = os.path.join(tmp, "nvj-root")
    if fixture_root.prepare(os.path.join(fixtures, NVJ_FIXTURE), root, os.path.join(tmp, "keys")):
        print("SKIP nvjitlink image: fixture files not made")
        return
    for rel in (NVJ_SITE + "nvidia/cusparse/lib/libcusparse.so.12", NVJ_WHEEL, NVJ_OLD):
        with open(os.path.join(root, rel), "ab") as f:
            f.truncate(os.path.getsize(os.path.join(root, rel)) + (20 << 20))
    # an old copy in a system directory, found only once the wheel's is gone
    os.makedirs(os.path.dirname(os.path.join(root, NVJ_DISTRO)), exist_ok=True)
    shutil.copyfile(os.path.join(root, NVJ_OLD), os.path.join(root, NVJ_DISTRO))
    # an image holds no kernel interfaces
    shutil.rmtree(os.path.join(root, "sys"), ignore_errors=True)
    shutil.rmtree(os.path.join(root, "proc"), ignore_errors=True)
    ini = fixture_root.read_ini(os.path.join(fixtures, NVJ_FIXTURE))
    env = env_list(ini)
    env_unset = [e for e in env if not e.startswith("LD_LIBRARY_PATH=")]
    layers = [mi.layer_from_tree(root)]
    nodir = os.path.join(tmp, "no-such-tmpdir")
    cases = [
        # (name, layers, env, fires, missing)
        ("old nvJitLink on LD_LIBRARY_PATH", layers, env, True, "__nvJitLinkComplete_12_4"),
        ("LD_LIBRARY_PATH unset: the wheel's 12.4 copy", layers, env_unset, False, None),
        ("the wheel's copy whited out in a later layer: the system's old one", layers + [
            [(os.path.dirname(NVJ_WHEEL) + "/.wh.libnvJitLink.so.12", "file", b"")]],
         env_unset, True, "__nvJitLinkComplete_12_4"),
    ]
    for name, lay, e, fires, missing in cases:
        for kind in ("oci-gzip", "docker-save"):
            img = os.path.join(tmp, "nvj.tar")
            if kind == "oci-gzip":
                mi.oci(img, lay, e, compression="gzip")
            else:
                mi.docker_save(img, lay, e)
            r, nvj, fired = nvj_doctor(gpuenv, img, nodir)
            what = "nvjitlink image, %s (%s)" % (name, kind)
            check(nvj is not None, "%s: read: %s" % (what, r.stderr[-300:]))
            if nvj is None:
                continue
            sm = nvj.get("symbols_missing")
            check(isinstance(sm, list), "%s: symbols_missing read, not %s" % (what, sm))
            names = [x.get("value") for x in sm] if isinstance(sm, list) else []
            check((missing in names) if missing else names == [],
                  "%s: symbols_missing %s" % (what, names))
            check(fired == fires, "%s: %s %s" % (what, NVJ_RULE,
                                                 "fires" if fires else "stays quiet"))
            os.unlink(img)
    shutil.rmtree(root)


def main():
    gpuenv, fixtures = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="gpuenv-image-") as tmp:
        test_whiteout(gpuenv, tmp)
        test_nvjitlink(gpuenv, fixtures, tmp)
        test_env(gpuenv, tmp)
        test_require_cuda(gpuenv, tmp)
        test_hostile(gpuenv, tmp)
        test_platform_and_bundle(gpuenv, tmp)
        test_equivalence(gpuenv, fixtures, tmp)
    sys.exit(summary())


if __name__ == "__main__":
    main()
