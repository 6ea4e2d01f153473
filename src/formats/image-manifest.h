/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The JSON documents of a container image, as `docker save` and the OCI image layout write
 * them (pure parsers over (text, len)):
 *  - docker save's manifest.json (moby image/tarexport: [{"Config", "RepoTags", "Layers"}]);
 *  - an OCI image index (index.json, or an index blob): image-spec image-index.md;
 *  - an OCI image manifest: image-spec manifest.md (config and layer descriptors);
 *  - the image configuration: image-spec config.md ("config": {"Env": ["K=V", …]}).
 * Descriptors name blobs by digest (image-spec descriptor.md, "Digests"); a digest becomes the
 * layout path blobs/<algorithm>/<encoded> (image-layout.md) only when it has the grammar's
 * characters, so no digest can name a path outside blobs/. docker's own layer paths are
 * taken only when relative and free of "..".
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IMAGE_MAX_LAYERS       128u   /* as core/layers.h LAYERS_MAX_LAYERS */
#define IMAGE_MAX_ENV	       10000u /* Env entries */
#define IMAGE_MAX_JSON	       ((size_t)8 << 20)
#define IMAGE_DEFAULT_PLATFORM "linux/amd64"

struct image_blob {
	char *path;	  /* inside the image: "blobs/sha256/<hex>", or docker's "<id>/layer.tar" */
	char *media_type; /* NULL when the document gives none */
	uint64_t size;	  /* 0 when not given */
};

struct image_manifest {
	struct image_blob config;
	struct image_blob *layers;
	size_t n_layers;
	size_t n_images; /* manifest.json: how many images it lists (the first one is read) */
};

struct image_config {
	char **env; /* "KEY=VALUE" strings, in order; NULL when there is no Env */
	char *os, *architecture, *variant;
};

void image_blob_done(struct image_blob *b);
void image_manifest_done(struct image_manifest *m);
void image_config_done(struct image_config *c);

/* Each returns 0, -EBADMSG / -ENOENT / -E2BIG with *ret_error (static text) saying why, or
 * -ENOMEM. */
int image_docker_manifest_parse(const char *text, size_t len, struct image_manifest *ret,
				const char **ret_error);
/* The descriptor for platform ("os/architecture[/variant]") among an index's manifests; an
 * index that lists a single manifest without a platform (docker save's index.json) gives that
 * one. *ret_is_index: the descriptor is itself an index (a multi-platform image). */
int image_oci_index_pick(const char *text, size_t len, const char *platform, struct image_blob *ret,
			 bool *ret_is_index, const char **ret_error);
/* The platforms an index lists ("linux/amd64, linux/arm64/v8"), for the message when none is
 * the one asked for; truncated at a whole entry to buf_len, "" when none or not an index. */
void image_oci_index_platforms(const char *text, size_t len, char *buf, size_t buf_len);
int image_oci_manifest_parse(const char *text, size_t len, struct image_manifest *ret,
			     const char **ret_error);
int image_config_parse(const char *text, size_t len, struct image_config *ret,
		       const char **ret_error);
/* "sha256:<hex>" → "blobs/sha256/<hex>" (malloc()ed); -EBADMSG when it is not a digest. */
int image_digest_path(const char *digest, char **ret);
