// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --image: a container image as the root the probes read (gpuenv_ctx_opts.image). The input is
 * one of:
 *  - a directory holding an OCI image layout (an `oci-layout` file: image-spec
 *    image-layout.md), or any other directory (an unpacked root file system: --sysroot);
 *  - a tar file: `docker save` output (manifest.json: moby image/tarexport; docker 25 and
 *    later also write the OCI layout beside it, and manifest.json is read first), an OCI
 *    layout in a tar (`docker buildx --output type=oci`, skopeo's oci-archive), or the tar of a
 *    root tree, plain or compressed; a capture bundle (snapshot.json beside root/) is read
 *    from its root/, with its environment member as the environment.
 * The image's layers become one virtual tree (core/layers.h) and its configuration's Env the
 * environment; nothing is extracted. What the image holds is found by reading the archive
 * itself through core/ (its outer tar indexed as one layer), so this file does no I/O.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/layers.h"
#include "formats/image-manifest.h"
#include "libgpuenv-image.h"
#include "shared/macro.h"
#include "shared/strv.h"
#include "vendor/lazy-archive.h"
#include "vendor/lazy-nettle.h"

#define IMAGE_MAX_NESTED_INDEX 4 /* index → index → manifest: a multi-platform image */

void image_info_done(struct image_info *info)
{
	free(info->issues);
	free(info->platform);
	free(info->environment);
	strv_free(info->env);
	*info = (struct image_info){ 0 };
}

static int read_json(struct root *r, const char *path, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *abs = NULL;

	if (asprintf(&abs, "/%s", path) < 0)
		return -ENOMEM;
	return root_read_file(r, abs, IMAGE_MAX_JSON, ret, ret_len);
}

/* The image manifest of an OCI layout: index.json, through nested indexes, to the manifest of
 * the platform asked for. */
static int oci_manifest(struct root *r, const char *platform, struct image_manifest *ret,
			const struct log_sink *log)
{
	_cleanup_free_ char *text = NULL, *doc = strdup("index.json");
	const char *why = NULL;
	struct image_blob pick = { 0 };
	size_t len = 0;
	int err = doc ? read_json(r, doc, &text, &len) : -ENOMEM;

	for (unsigned depth = 0; err >= 0; depth++) {
		bool is_index = false;

		image_blob_done(&pick);
		err = image_oci_index_pick(text, len, platform, &pick, &is_index, &why);
		if (err < 0)
			break;
		free(text);
		text = NULL;
		err = read_json(r, pick.path, &text, &len);
		if (err < 0 || !is_index)
			break;
		if (depth == IMAGE_MAX_NESTED_INDEX) {
			why = "indexes nested too deep";
			err = -ELOOP;
		}
		/* the document read next, named in messages (pick is reused) */
		free(doc);
		doc = strdup(pick.path);
		if (!doc)
			err = -ENOMEM;
	}
	if (err >= 0)
		err = image_oci_manifest_parse(text, len, ret, &why);
	if (err == -ENOENT && text && !pick.path) {
		/* no manifest for the platform: say which it has, so the fix is one option */
		char platforms[256];

		image_oci_index_platforms(text, len, platforms, sizeof(platforms));
		if (*platforms)
			log_err(log,
				"image: %s: no image for %s (it has: %s): name one with "
				"--image-platform",
				doc, platform ? platform : IMAGE_DEFAULT_PLATFORM, platforms);
		else
			log_err(log, "image: %s: %s", doc, why ? why : strerror(-err));
	} else if (err == -ENOENT && pick.path && !text) {
		log_err(log,
			"image: %s names %s, which is not in the image: an incomplete image (a "
			"blob missing)",
			doc, pick.path);
	} else if (err < 0) {
		log_err(log, "image: %s: %s", pick.path ? pick.path : doc,
			why ? why : strerror(-err));
	}
	image_blob_done(&pick);
	return err;
}

/* The hex of a blob named by its sha256 digest ("blobs/sha256/<hex>", image-layout.md), or
 * NULL (docker save before 25 names layers "<id>/layer.tar"). */
static const char *blob_sha256(const char *path)
{
	static const char prefix[] = "blobs/sha256/";

	if (strncmp(path, prefix, strlen(prefix)) != 0 || strlen(path + strlen(prefix)) != 64)
		return NULL;
	return path + strlen(prefix);
}

/* sha256 of the blob's bytes (libnettle's), read in 1 MiB pieces (never held whole). */
static int blob_hash(const struct root_file *f, char hex[65], const char **ret_why)
{
	_cleanup_free_ uint8_t *buf = malloc(1u << 20);
	struct vendor_sha256 s;
	uint64_t off = 0;
	int err;

	if (!buf)
		return -ENOMEM;
	err = vendor_sha256_init(&s, ret_why);
	if (err < 0)
		return err;
	while (off < f->size) {
		ssize_t n =
			root_file_pread(f, buf, (size_t)MIN((uint64_t)1 << 20, f->size - off), off);

		if (n < 0)
			return (int)n;
		if (n == 0)
			return -EIO;
		vendor_sha256_update(&s, buf, (size_t)n);
		off += (uint64_t)n;
	}
	vendor_sha256_final_hex(&s, hex);
	return 0;
}

/* A blob's bytes against its descriptor: the size always (free), the digest with verify.
 * false, with an issue recorded, when they differ: the blob is not what the manifest
 * names. */
static bool blob_matches(struct layers *t, const struct image_blob *b, const struct root_file *f,
			 bool verify, const struct log_sink *log)
{
	const char *want = blob_sha256(b->path), *why = NULL;
	char got[65];
	int err;

	if (b->size && b->size != f->size) {
		layers_issue(t, "layer %s: %llu bytes, its descriptor says %llu: not read", b->path,
			     (unsigned long long)f->size, (unsigned long long)b->size);
		return false;
	}
	if (!verify)
		return true;
	if (!want) {
		log_warn(log, "image: layer %s: named by no digest, not verified", b->path);
		return true;
	}
	err = blob_hash(f, got, &why);
	if (err < 0) {
		layers_issue(t, "layer %s: could not be verified: %s", b->path,
			     why ? why : strerror(-err));
		return false;
	}
	if (strcmp(got, want) != 0) {
		layers_issue(t,
			     "layer %s: its bytes hash to sha256:%.16s…, not the digest that "
			     "names it (an altered or damaged image): not read",
			     b->path, got);
		return false;
	}
	return true;
}

/* Indexes each layer the manifest names, in order, into a new tree. */
static int layers_from_manifest(struct root *outer, const struct image_manifest *m,
				const struct archive_api *api, bool verify,
				const struct log_sink *log, struct layers **ret)
{
	_cleanup_(layers_freep) struct layers *t = NULL;
	int err = layers_new(api, &t);

	for (size_t i = 0; err >= 0 && i < m->n_layers; i++) {
		_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
		_cleanup_free_ char *abs = NULL;

		if (asprintf(&abs, "/%s", m->layers[i].path) < 0)
			return -ENOMEM;
		err = root_file_open(outer, abs, UINT64_MAX, &f);
		if (err < 0) {
			/* the tree is incomplete, and says so; the other layers are still read */
			layers_issue(t, "layer %s: %s", m->layers[i].path,
				     err == -ENOENT ? "not in the image" : strerror(-err));
			err = err == -ENOMEM ? err : 0;
			continue;
		}
		if (!blob_matches(t, &m->layers[i], &f, verify, log))
			continue;
		err = layers_add(t, f.fd, f.base, f.size, m->layers[i].path);
	}
	if (err < 0)
		return err;
	*ret = TAKE_PTR(t);
	return 0;
}

/* An image in outer (a docker save tar, an OCI layout): its layers' tree and config. */
static int image_from_layout(struct root *outer, const char *path, const char *platform,
			     bool verify, const struct archive_api *api, unsigned root_flags,
			     const struct log_sink *log, struct root **ret_root,
			     struct image_info *info)
{
	_cleanup_(image_manifest_done) struct image_manifest m = { 0 };
	_cleanup_(image_config_done) struct image_config c = { 0 };
	_cleanup_free_ char *text = NULL;
	struct layers *t = NULL;
	struct stat st;
	const char *why = NULL;
	size_t len;
	int err;

	if (root_stat(outer, "/manifest.json", &st) == 0) {
		info->kind = "docker-save";
		err = read_json(outer, "manifest.json", &text, &len);
		if (err >= 0)
			err = image_docker_manifest_parse(text, len, &m, &why);
		if (err < 0) {
			log_err(log, "image %s: manifest.json: %s", path,
				why ? why : strerror(-err));
			return err;
		}
		free(TAKE_PTR(text));
	} else {
		info->kind = root_layers(outer) ? "oci-archive" : "oci-layout";
		err = oci_manifest(outer, platform, &m, log);
		if (err < 0)
			return err;
	}
	err = read_json(outer, m.config.path, &text, &len);
	if (err >= 0)
		err = image_config_parse(text, len, &c, &why);
	if (err < 0) {
		log_err(log, "image %s: configuration %s: %s", path, m.config.path,
			why ? why : strerror(-err));
		return err;
	}
	err = layers_from_manifest(outer, &m, api, verify, log, &t);
	if (err < 0)
		return err;
	info->images = m.n_images;
	info->env = TAKE_PTR(c.env);
	if (c.os && c.architecture &&
	    asprintf(&info->platform, "%s/%s%s%s", c.os, c.architecture, c.variant ? "/" : "",
		     c.variant ? c.variant : "") < 0)
		info->platform = NULL;
	image_info_take_layers(info, t);
	return root_new_layers(t, path, root_flags, ret_root);
}

void image_info_take_layers(struct image_info *info, const struct layers *t)
{
	info->layers = layers_count(t);
	info->compressed = 0;
	for (unsigned i = 0; i < info->layers; i++)
		info->compressed += layers_compressed(t, i);
	info->entries = layers_entries(t);
	info->complete = layers_complete(t);
	free(info->issues);
	info->issues = strdup(layers_issues(t));
}

int image_open(const char *path, const char *platform, bool verify, unsigned root_flags,
	       const struct log_sink *log, struct root **ret_root, struct image_info *info)
{
	_cleanup_(root_freep) struct root *outer = NULL;
	const struct archive_api *api;
	const char *why = NULL;
	struct layers *t;
	struct stat st;
	int err;

	*info = (struct image_info){ 0 };
	err = vendor_archive(&api, &why);
	if (err < 0) {
		log_err(log, "image %s: libarchive is needed to read images: %s", path, why);
		return err;
	}
	err = root_new(path, root_flags, &outer);
	if (err == 0 && root_stat(outer, "/oci-layout", &st) < 0) {
		/* a directory without an OCI layout: an unpacked root file system */
		info->kind = "directory";
		info->complete = true;
		*ret_root = TAKE_PTR(outer);
		return 0;
	}
	if (err == -ENOTDIR) {
		err = layers_new(api, &t);
		if (err < 0)
			return err;
		err = layers_add_file(t, path, path);
		/* nothing read from it at all: not a tar (a text file given as --sysroot) */
		if (err >= 0 && layers_entries(t) <= 1 && !layers_complete(t))
			err = -EBADMSG;
		if (err < 0) {
			layers_free(t);
			log_err(log, "image %s: %s", path,
				err == -EINVAL	  ? "not a regular file"
				: err == -EBADMSG ? "not a directory, an image or a tar archive"
						  : strerror(-err));
			return err;
		}
		err = root_new_layers(t, path, root_flags, &outer);
	}
	if (err < 0) {
		log_err(log, "image %s: %s", path, strerror(-err));
		return err;
	}
	t = root_layers(outer);
	if (root_stat(outer, "/manifest.json", &st) == 0 ||
	    root_stat(outer, "/oci-layout", &st) == 0) {
		if (t && layers_compressed(t, 0)) {
			/* each layer read would decompress the whole archive up to it */
			log_err(log,
				"image %s: a compressed image archive: decompress it first "
				"(gunzip, zstd -d)",
				path);
			return -ENOTSUP;
		}
		return image_from_layout(outer, path, platform, verify, api, root_flags, log,
					 ret_root, info);
	}
	/* the tar of a root tree; a capture bundle keeps it under root/ beside snapshot.json */
	info->kind = "rootfs-tar";
	if (root_stat(outer, "/snapshot.json", &st) == 0 && root_stat(outer, "/root", &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		size_t len;

		/* the environment the capture judged, replayed as --env-file would give it */
		err = root_read_file(outer, "/environment", ROOT_CAP_TEXT, &info->environment,
				     &len);
		if (err == -ENOMEM)
			return err;
		if (layers_set_top(t, "/root") == 0)
			info->kind = "capture-bundle";
	}
	image_info_take_layers(info, t);
	*ret_root = TAKE_PTR(outer);
	return 0;
}

/* The site-packages a wheel installs into, relative to the top: lib/python3.N of /usr/local
 * for a cp3N python tag of its file name ({name}-{version}(-{build})?-{python}-{abi}-
 * {platform}.whl: PEP 427, tags PEP 425, "cp311.cp312" a set); false, and python3, for a
 * py3/abi3 wheel, whose place is the interpreter's that installs it. */
static bool wheel_site(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/'), *fields[8], *tag = NULL;
	size_t n = 0;

	base = base ? base + 1 : path;
	for (const char *p = base; p && n < ARRAY_SIZE(fields); p = strchr(p, '-'))
		fields[n++] = *p == '-' ? ++p : p;
	if (n >= 5 && strlen(base) > 4 && streq(base + strlen(base) - 4, ".whl"))
		tag = fields[n - 3];
	for (const char *p = tag; p && *p && *p != '-';
	     p = strchr(p, '.') ? strchr(p, '.') + 1 : NULL) {
		unsigned minor = 0;
		int k = 0;

		if (sscanf(p, "cp3%u%n", &minor, &k) == 1 && k > 3 && minor < 100) {
			snprintf(buf, len, "usr/local/lib/python3.%u/site-packages", minor);
			return true;
		}
	}
	snprintf(buf, len, "usr/local/lib/python3/site-packages");
	return false;
}

int image_add_wheels(const char *const *wheels, unsigned root_flags, const struct log_sink *log,
		     struct root **root, struct image_info *info)
{
	const struct archive_api *api;
	const char *why = NULL;
	struct layers *t = *root ? root_layers(*root) : NULL;
	int err = vendor_archive(&api, &why);

	if (err < 0) {
		log_err(log, "--wheel: libarchive is needed to read wheels: %s", why);
		return err;
	}
	if (*root && !t) {
		log_err(log, "--wheel: the image is a directory; a wheel goes over an image "
			     "archive or over nothing");
		return -EINVAL;
	}
	if (!t) {
		err = layers_new(api, &t);
		if (err < 0)
			return err;
		err = root_new_layers(t, "wheels", root_flags, root); /* takes t */
		if (err < 0)
			return err;
		info->kind = "wheels";
	}
	/* pip installs every wheel of one command into one interpreter's site-packages: a
	 * py3/abi3 wheel (the nvidia-* wheels torch's RUNPATH names) beside a cp3N wheel goes
	 * where that wheel goes, the first cp3N wheel's */
	char common[96] = "";

	for (size_t i = 0; wheels[i] && !common[0]; i++)
		if (!wheel_site(wheels[i], common, sizeof(common)))
			common[0] = '\0';
	for (size_t i = 0; wheels[i]; i++) {
		char site[96];

		if (!wheel_site(wheels[i], site, sizeof(site)) && common[0])
			snprintf(site, sizeof(site), "%s", common);
		err = layers_add_zip_file(t, wheels[i], site, wheels[i]);
		if (err < 0) {
			log_err(log, "--wheel %s: %s", wheels[i],
				err == -EINVAL ? "not a regular file" : strerror(-err));
			return err;
		}
	}
	image_info_take_layers(info, t);
	return 0;
}
