#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""--image: what makes an image not the image its manifest names, on OCI layouts written here
(make_image.py): a multi-platform index without the platform asked for (the message lists
the ones it has), a manifest blob missing (an incomplete image), a layer blob whose size
differs from its descriptor (always caught), and one altered in place (caught by
--image-verify, which hashes every layer blob against its sha256 digest, streaming); the
incomplete ones are the rule container.image-incomplete, which fails `gpuenv check`.
Usage: test-image-verify.py GPUENV"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_image as mi  # noqa: E402
from image_checks import check, index_state, run, summary  # noqa: E402

BASE = [("etc/os-release", "file", b'ID=ubuntu\nVERSION_ID="22.04"\n'),
        ("usr/lib/x86_64-linux-gnu/libcudart.so.12", "file", b"\x7fELF not really" * 64)]


def report(gpuenv, image, *extra):
    r = run(gpuenv, "report", "--json", "--stable", "--no-vendor", "--image", image, *extra)
    return r, (json.loads(r.stdout) if r.returncode == 0 and r.stdout else None)


def incomplete_rule(gpuenv, image, *extra):
    """container.image-incomplete as doctor finds it and as check judges it: (finding, state)."""
    r = run(gpuenv, "doctor", "--json", "--stable", "--no-vendor", "--image", image, *extra)
    d = json.loads(r.stdout) if r.stdout.startswith("{") else {"findings": []}
    f = next((x for x in d["findings"] if x["rule"] == "container.image-incomplete"), None)
    r = run(gpuenv, "check", "--json", "--stable", "--today", "2026-12-04", "--image", image,
            *extra)
    d = json.loads(r.stdout) if r.stdout.startswith("{") else {"rules": []}
    st = next((x["state"] for x in d["rules"] if x["id"] == "container.image-incomplete"), None)
    return f, st, r.returncode


def blobs(img):
    return os.path.join(img, "blobs", "sha256")


def layer_blobs(img):
    """The layer blobs of a one-platform layout: those of its manifest."""
    with open(os.path.join(img, "index.json")) as f:
        top = json.load(f)["manifests"][0]["digest"].split(":")[1]
    with open(os.path.join(blobs(img), top)) as f:
        return [d["digest"].split(":")[1] for d in json.load(f)["layers"]]


def main():
    gpuenv = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        # a multi-platform index: no s390x image in it
        img = os.path.join(tmp, "multi")
        mi.oci(img, [BASE], ["A=1"], as_tar=False, multi=True)
        r, d = report(gpuenv, img, "--image-platform", "linux/s390x")
        check(r.returncode == 66 and "no image for linux/s390x" in r.stderr and
              "linux/arm64/v8, linux/amd64" in r.stderr and "--image-platform" in r.stderr,
              "missing platform named with the ones there: %d %s" % (r.returncode, r.stderr))
        # the platform's manifest blob missing
        with open(os.path.join(img, "index.json")) as f:
            nested = json.load(f)["manifests"][0]["digest"].split(":")[1]
        with open(os.path.join(blobs(img), nested)) as f:
            amd = [m for m in json.load(f)["manifests"]
                   if m["platform"]["architecture"] == "amd64"][0]["digest"].split(":")[1]
        os.unlink(os.path.join(blobs(img), amd))
        r, d = report(gpuenv, img)
        check(r.returncode == 66 and "not in the image" in r.stderr and amd in r.stderr,
              "a missing manifest blob: %d %s" % (r.returncode, r.stderr))
        # a layer blob longer than its descriptor says: always caught, the layer not read
        img = os.path.join(tmp, "longer")
        mi.oci(img, [BASE], ["A=1"], as_tar=False)
        with open(os.path.join(blobs(img), layer_blobs(img)[0]), "ab") as f:
            f.write(b"\0" * 1024)
        r, d = report(gpuenv, img)
        st = index_state(d)
        check(st and st["state"] == "error" and "descriptor says" in st.get("error", ""),
              "size mismatch recorded: %s %s" % (st, r.stderr[-200:]))
        f, state, rc = incomplete_rule(gpuenv, img)
        check(f and f["severity"] == "error" and "descriptor says" in f["message"] and
              state == "fail" and rc == 2,
              "size mismatch: container.image-incomplete fails the gate: %s %s %s" % (f, state, rc))
        # a layer blob missing: the other layers read, the rule names the missing one
        img = os.path.join(tmp, "missing")
        mi.oci(img, [BASE, [("etc/x", "file", b"x")]], ["A=1"], as_tar=False)
        gone = layer_blobs(img)[1]
        os.unlink(os.path.join(blobs(img), gone))
        f, state, rc = incomplete_rule(gpuenv, img)
        check(f and gone in f["message"] and "not in the image" in f["message"] and
              state == "fail" and rc == 2,
              "a missing layer: container.image-incomplete: %s %s %s" % (f, state, rc))
        # a layer altered in place, same size: only --image-verify can tell
        img = os.path.join(tmp, "altered")
        mi.oci(img, [BASE], ["A=1"], as_tar=False)
        path = os.path.join(blobs(img), layer_blobs(img)[0])
        with open(path, "r+b") as f:
            data = f.read()
            at = data.index(b"ubuntu")
            f.seek(at)
            f.write(b"debian")
        r, d = report(gpuenv, img)
        check(d and d["host"]["os"]["id"]["value"] == "debian" and
              index_state(d)["value"] == "complete",
              "without --image-verify the altered layer is read: %s" % r.stderr[-200:])
        r, d = report(gpuenv, img, "--image-verify")
        st = index_state(d)
        check(st and st["state"] == "error" and "altered or damaged" in st.get("error", ""),
              "--image-verify: the altered layer left out and said: %s" % st)
        f, state, rc = incomplete_rule(gpuenv, img, "--image-verify")
        check(f and "altered or damaged" in f["message"] and state == "fail",
              "--image-verify: the altered layer is container.image-incomplete: %s %s" % (f, state))
        check(d and d["host"]["os"].get("id", {}).get("value") != "debian",
              "--image-verify: nothing of the altered layer read")
        # an intact image passes --image-verify
        img = os.path.join(tmp, "intact")
        mi.oci(img, [BASE, [("etc/x", "file", b"x")]], ["A=1"], as_tar=False)
        r, d = report(gpuenv, img, "--image-verify")
        check(d and index_state(d)["value"] == "complete", "intact image verifies: %s %s" %
              (index_state(d), r.stderr[-200:]))
        f, state, rc = incomplete_rule(gpuenv, img, "--image-verify")
        check(f is None and state == "pass", "intact image: container.image-incomplete passes: %s %s" %
              (f, state))
        # an image that cannot be read at all is an unreadable input, not a finding
        f, state, rc = incomplete_rule(gpuenv, os.path.join(img, "no-such-dir"))
        check(rc == 66, "an unreadable image is still 66: %s" % rc)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
