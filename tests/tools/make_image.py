#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes container images from layer trees exactly as the tools that make them do, for the
--image tests and bench/bench-image.sh:
  docker_save()  `docker save` before docker 25 (moby image/tarexport): <id>/layer.tar,
                 <id>/json, <id>/VERSION, <config sha256>.json, manifest.json, repositories;
  oci()          an OCI image layout (image-spec image-layout.md): oci-layout, index.json,
                 blobs/sha256/<hex> for the manifest, the config and each layer, as a
                 directory or a tar (docker 25+ `docker save`, skopeo's oci-archive);
                 layers plain, gzip or zstd (media types per image-spec media-types.md);
                 `multi` wraps the manifest in an image index with a second, arm64 image.
A layer is a list of (path, kind, data) entries, written in order into its tar:
  ("usr/lib/x.so", "file", b"…"), ("usr/lib", "dir", None), ("lib/a", "symlink", "target"),
  ("b", "hardlink", "a"), ("dev/x", "fifo", None), ("dev/nvidia0", "chr", (195, 0)).
A whiteout is a file entry named .wh.NAME; an opaque directory holds .wh..wh..opq (layer.md).
layer_from_tree() makes entries from a directory (symlinks kept)."""
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile

LAYER_TYPES = {
    None: "application/vnd.oci.image.layer.v1.tar",
    "gzip": "application/vnd.oci.image.layer.v1.tar+gzip",
    "zstd": "application/vnd.oci.image.layer.v1.tar+zstd",
}
MTIME = 1700000000


def layer_from_tree(root, skip=()):
    """Entries for every file, directory and symlink under root, parents first."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, root)
        for name in dirnames + sorted(filenames):
            full = os.path.join(dirpath, name)
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if rel in skip:
                continue
            if os.path.islink(full):
                out.append((rel, "symlink", os.readlink(full)))
            elif os.path.isdir(full):
                out.append((rel, "dir", None))
            elif os.path.isfile(full):
                with open(full, "rb") as f:
                    out.append((rel, "file", f.read(), os.stat(full).st_mode & 0o7777))
    return out


def layer_tar(entries):
    """The bytes of one layer's tar (PAX, as moby's archive package writes it)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for e in entries:
            path, kind, data = e[0], e[1], e[2]
            info = tarfile.TarInfo(path)
            info.mtime = MTIME
            info.mode = e[3] if len(e) > 3 else (0o755 if kind == "dir" else 0o644)
            if kind == "file":
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
                continue
            if kind == "dir":
                info.type = tarfile.DIRTYPE
            elif kind == "symlink":
                info.type, info.linkname = tarfile.SYMTYPE, data
            elif kind == "hardlink":
                info.type, info.linkname = tarfile.LNKTYPE, data
            elif kind == "fifo":
                info.type = tarfile.FIFOTYPE
            elif kind == "chr":
                info.type = tarfile.CHRTYPE
                info.devmajor, info.devminor = data
            t.addfile(info)
    return buf.getvalue()


def compress(data, how):
    if how is None:
        return data
    if how == "gzip":
        return gzip.compress(data, mtime=0)
    if how == "zstd":
        if not shutil.which("zstd"):
            raise FileNotFoundError("zstd")
        return subprocess.run(["zstd", "-q", "-c"], input=data, stdout=subprocess.PIPE,
                              check=True).stdout
    raise ValueError(how)


def sha(data):
    return hashlib.sha256(data).hexdigest()


def config_json(env, diff_ids, arch="amd64"):
    return json.dumps({
        "architecture": arch, "os": "linux", "created": "2023-11-14T22:13:20Z",
        "config": {"Env": env, "Cmd": ["/bin/bash"]},
        "rootfs": {"type": "layers", "diff_ids": ["sha256:" + d for d in diff_ids]},
        "history": [{"created_by": "gpuenv test layer %d" % i} for i in range(len(diff_ids))],
    }, separators=(",", ":")).encode()


def _add(t, name, data):
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), MTIME, 0o644
    t.addfile(info, io.BytesIO(data))


def _add_dir(t, name):
    info = tarfile.TarInfo(name)
    info.type, info.mtime, info.mode = tarfile.DIRTYPE, MTIME, 0o755
    t.addfile(info)


def docker_save(path, layers, env, tag="gpuenv/test:latest", raw_layers=None):
    """A pre-25 `docker save` tarball. raw_layers: already-made layer tars (bench)."""
    tars = raw_layers if raw_layers is not None else [layer_tar(entries) for entries in layers]
    diff_ids = [sha(x) for x in tars]
    config = config_json(env, diff_ids)
    config_name = sha(config) + ".json"
    ids, parent = [], ""
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as t:
        for i, data in enumerate(tars):
            layer_id = sha((parent + "\n" + diff_ids[i]).encode())
            _add_dir(t, layer_id)
            _add(t, layer_id + "/VERSION", b"1.0")
            meta = {"id": layer_id, "created": "2023-11-14T22:13:20Z"}
            if parent:
                meta["parent"] = parent
            _add(t, layer_id + "/json", json.dumps(meta).encode())
            _add(t, layer_id + "/layer.tar", data)
            ids.append(layer_id)
            parent = layer_id
        _add(t, config_name, config)
        repo, _, version = tag.partition(":")
        _add(t, "manifest.json", json.dumps([{
            "Config": config_name, "RepoTags": [tag],
            "Layers": [x + "/layer.tar" for x in ids]}]).encode())
        _add(t, "repositories", json.dumps({repo: {version: ids[-1]}}).encode())


def oci(path, layers, env, compression=None, as_tar=True, multi=False, docker_manifest=False):
    """An OCI image layout; as a tar (docker 25+ save writes manifest.json into it too:
    docker_manifest) or a directory."""
    blobs = {}

    def blob(data):
        digest = sha(data)
        blobs[digest] = data
        return digest

    tars = [layer_tar(entries) for entries in layers]
    stored = [compress(x, compression) for x in tars]
    layer_digests = [blob(x) for x in stored]
    config = config_json(env, [sha(x) for x in tars])
    config_digest = blob(config)
    manifest = json.dumps({
        "schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                   "digest": "sha256:" + config_digest, "size": len(config)},
        "layers": [{"mediaType": LAYER_TYPES[compression], "digest": "sha256:" + d,
                    "size": len(s)} for d, s in zip(layer_digests, stored)],
    }).encode()
    manifest_digest = blob(manifest)
    top = {"mediaType": "application/vnd.oci.image.manifest.v1+json",
           "digest": "sha256:" + manifest_digest, "size": len(manifest),
           "annotations": {"io.containerd.image.name": "docker.io/gpuenv/test:latest"}}
    if multi:
        # an arm64 image listed first: the reader must choose by platform
        arm_layer = blob(compress(layer_tar([("etc/arm64-only", "file", b"arm64\n")]),
                                  compression))
        arm_config = blob(config_json(["ARCH=arm64"], [arm_layer], arch="arm64"))
        arm = json.dumps({
            "schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                       "digest": "sha256:" + arm_config, "size": len(blobs[arm_config])},
            "layers": [{"mediaType": LAYER_TYPES[compression], "digest": "sha256:" + arm_layer,
                        "size": len(blobs[arm_layer])}]}).encode()
        arm_digest = blob(arm)
        index = json.dumps({
            "schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
            "manifests": [
                {"mediaType": "application/vnd.oci.image.manifest.v1+json",
                 "digest": "sha256:" + arm_digest, "size": len(arm),
                 "platform": {"architecture": "arm64", "os": "linux", "variant": "v8"}},
                dict(top, platform={"architecture": "amd64", "os": "linux"})]}).encode()
        index_digest = blob(index)
        top = {"mediaType": "application/vnd.oci.image.index.v1+json",
               "digest": "sha256:" + index_digest, "size": len(index)}
    files = [("oci-layout", json.dumps({"imageLayoutVersion": "1.0.0"}).encode()),
             ("index.json", json.dumps({"schemaVersion": 2,
                                        "mediaType": "application/vnd.oci.image.index.v1+json",
                                        "manifests": [top]}).encode())]
    if docker_manifest:
        files.append(("manifest.json", json.dumps([{
            "Config": "blobs/sha256/" + config_digest, "RepoTags": ["gpuenv/test:latest"],
            "Layers": ["blobs/sha256/" + d for d in layer_digests]}]).encode()))
    if not as_tar:
        os.makedirs(os.path.join(path, "blobs", "sha256"), exist_ok=True)
        for name, data in files + [("blobs/sha256/" + d, b) for d, b in blobs.items()]:
            with open(os.path.join(path, name), "wb") as f:
                f.write(data)
        return
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as t:
        _add_dir(t, "blobs")
        _add_dir(t, "blobs/sha256")
        for d, data in blobs.items():
            _add(t, "blobs/sha256/" + d, data)
        for name, data in files:
            _add(t, name, data)
