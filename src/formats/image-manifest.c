// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Container image JSON documents (image-manifest.h). Sources: OCI image-spec v1.1
 * (image-layout.md, image-index.md, manifest.md, descriptor.md, config.md, media-types.md) and
 * moby's image/tarexport (docker save: manifest.json).
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "image-manifest.h"
#include "shared/macro.h"
#include "shared/strv.h"

void image_blob_done(struct image_blob *b)
{
	free(b->path);
	free(b->media_type);
	*b = (struct image_blob){ 0 };
}

void image_manifest_done(struct image_manifest *m)
{
	image_blob_done(&m->config);
	for (size_t i = 0; i < m->n_layers; i++)
		image_blob_done(&m->layers[i]);
	free(m->layers);
	*m = (struct image_manifest){ 0 };
}

void image_config_done(struct image_config *c)
{
	strv_free(c->env);
	free(c->os);
	free(c->architecture);
	free(c->variant);
	*c = (struct image_config){ 0 };
}

static json_t *load(const char *text, size_t len, const char **ret_error)
{
	json_error_t jerr;
	json_t *j;

	if (len > IMAGE_MAX_JSON) {
		*ret_error = "larger than 8 MiB";
		return NULL;
	}
	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!j)
		*ret_error = "not valid JSON";
	return j;
}

/* descriptor.md: algorithm-component ([a-z0-9]+) joined by [+._-], ":", encoded
 * ([a-zA-Z0-9=_-]+). */
static bool digest_valid(const char *d, const char **ret_colon)
{
	const char *p = d;
	bool comp_start = true;

	for (; *p && *p != ':'; p++) {
		bool alnum = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9');

		if (alnum)
			comp_start = false;
		else if (strchr("+._-", *p) && !comp_start)
			comp_start = true;
		else
			return false;
	}
	if (*p != ':' || comp_start || !p[1])
		return false;
	*ret_colon = p;
	for (const char *e = p + 1; *e; e++)
		if (!((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
		      (*e >= '0' && *e <= '9') || *e == '=' || *e == '_' || *e == '-'))
			return false;
	return strlen(d) < 1024;
}

int image_digest_path(const char *digest, char **ret)
{
	const char *colon;

	if (!digest || !digest_valid(digest, &colon))
		return -EBADMSG;
	if (asprintf(ret, "blobs/%.*s/%s", (int)(colon - digest), digest, colon + 1) < 0)
		return -ENOMEM;
	return 0;
}

/* A relative path without ".." components (docker's layer and config names). */
static bool rel_path_safe(const char *p)
{
	if (!*p || *p == '/' || strlen(p) >= 4096)
		return false;
	for (const char *c = p; c;) {
		const char *slash = strchr(c, '/');
		size_t n = slash ? (size_t)(slash - c) : strlen(c);

		if (n == 2 && c[0] == '.' && c[1] == '.')
			return false;
		c = slash ? slash + 1 : NULL;
	}
	return true;
}

static int dup_opt(json_t *o, const char *key, char **ret)
{
	const char *s = json_string_value(json_object_get(o, key));

	*ret = NULL;
	if (s && !(*ret = strdup(s)))
		return -ENOMEM;
	return 0;
}

/* A descriptor object (mediaType, digest, size) into b. */
static int descriptor_read(json_t *d, struct image_blob *b, const char **ret_error)
{
	json_t *size = json_object_get(d, "size");
	int err;

	if (!json_is_object(d)) {
		*ret_error = "a descriptor is not an object";
		return -EBADMSG;
	}
	err = image_digest_path(json_string_value(json_object_get(d, "digest")), &b->path);
	if (err == -EBADMSG)
		*ret_error = "a descriptor has no valid digest";
	if (err < 0)
		return err;
	if (json_is_integer(size) && json_integer_value(size) > 0)
		b->size = (uint64_t)json_integer_value(size);
	return dup_opt(d, "mediaType", &b->media_type);
}

int image_docker_manifest_parse(const char *text, size_t len, struct image_manifest *ret,
				const char **ret_error)
{
	json_t *j = load(text, len, ret_error), *img, *layers, *v;
	struct image_manifest m = { 0 };
	const char *config;
	size_t i;
	int err = -EBADMSG;

	if (!j)
		return -EBADMSG;
	img = json_array_get(j, 0);
	layers = json_object_get(img, "Layers");
	config = json_string_value(json_object_get(img, "Config"));
	if (!json_is_array(j) || !json_is_object(img) || !json_is_array(layers)) {
		*ret_error = "not a list of images with Layers";
		goto out;
	}
	if (!config || !rel_path_safe(config)) {
		*ret_error = "the image's Config is not a safe relative path";
		goto out;
	}
	if (json_array_size(layers) > IMAGE_MAX_LAYERS) {
		*ret_error = "more than 128 layers";
		err = -E2BIG;
		goto out;
	}
	m.n_images = json_array_size(j);
	m.layers = calloc(json_array_size(layers) + 1, sizeof(*m.layers));
	if (!m.layers || !(m.config.path = strdup(config))) {
		err = -ENOMEM;
		goto out;
	}
	json_array_foreach(layers, i, v) {
		const char *p = json_string_value(v);

		if (!p || !rel_path_safe(p)) {
			*ret_error = "a layer is not a safe relative path";
			goto out;
		}
		m.layers[m.n_layers].path = strdup(p);
		if (!m.layers[m.n_layers++].path) {
			err = -ENOMEM;
			goto out;
		}
	}
	*ret = m;
	m = (struct image_manifest){ 0 };
	err = 0;
out:
	image_manifest_done(&m);
	json_decref(j);
	return err;
}

static bool is_index_type(const char *t)
{
	return t && (strcmp(t, "application/vnd.oci.image.index.v1+json") == 0 ||
		     strcmp(t, "application/vnd.docker.distribution.manifest.list.v2+json") == 0);
}

/* platform "os/arch[/variant]" against a descriptor's platform object */
static bool platform_matches(json_t *p, const char *want)
{
	const char *os = json_string_value(json_object_get(p, "os"));
	const char *arch = json_string_value(json_object_get(p, "architecture"));
	const char *variant = json_string_value(json_object_get(p, "variant"));
	const char *s1 = strchr(want, '/'), *s2;

	if (!os || !arch || !s1)
		return false;
	s2 = strchr(s1 + 1, '/');
	if (strlen(os) != (size_t)(s1 - want) || strncmp(os, want, (size_t)(s1 - want)) != 0)
		return false;
	if (s2 ? strlen(arch) != (size_t)(s2 - s1 - 1) ||
			    strncmp(arch, s1 + 1, (size_t)(s2 - s1 - 1))
	       : strcmp(arch, s1 + 1))
		return false;
	return !s2 || (variant && strcmp(variant, s2 + 1) == 0);
}

int image_oci_index_pick(const char *text, size_t len, const char *platform, struct image_blob *ret,
			 bool *ret_is_index, const char **ret_error)
{
	json_t *j = load(text, len, ret_error), *list, *d, *pick = NULL, *bare = NULL;
	size_t i, n_bare = 0;
	int err;

	if (!j)
		return -EBADMSG;
	list = json_object_get(j, "manifests");
	if (!json_is_array(list)) {
		*ret_error = "an index without a manifests list";
		json_decref(j);
		return -EBADMSG;
	}
	json_array_foreach(list, i, d) {
		json_t *p = json_object_get(d, "platform");

		if (!json_is_object(p)) {
			bare = d;
			n_bare++;
		} else if (!pick &&
			   platform_matches(p, platform ? platform : IMAGE_DEFAULT_PLATFORM))
			pick = d;
	}
	if (!pick && n_bare == 1)
		pick = bare;
	if (!pick) {
		*ret_error = n_bare > 1 ? "an index lists several images and no platform"
					: "no image for the platform asked for";
		json_decref(j);
		return -ENOENT;
	}
	err = descriptor_read(pick, ret, ret_error);
	if (err >= 0)
		*ret_is_index = is_index_type(ret->media_type);
	else
		image_blob_done(ret);
	json_decref(j);
	return err;
}

int image_oci_manifest_parse(const char *text, size_t len, struct image_manifest *ret,
			     const char **ret_error)
{
	json_t *j = load(text, len, ret_error), *layers, *d;
	struct image_manifest m = { 0 };
	size_t i;
	int err = -EBADMSG;

	if (!j)
		return -EBADMSG;
	layers = json_object_get(j, "layers");
	if (!json_is_array(layers) || !json_is_object(json_object_get(j, "config"))) {
		*ret_error = "a manifest without config and layers";
		goto out;
	}
	if (json_array_size(layers) > IMAGE_MAX_LAYERS) {
		*ret_error = "more than 128 layers";
		err = -E2BIG;
		goto out;
	}
	m.n_images = 1;
	m.layers = calloc(json_array_size(layers) + 1, sizeof(*m.layers));
	if (!m.layers) {
		err = -ENOMEM;
		goto out;
	}
	err = descriptor_read(json_object_get(j, "config"), &m.config, ret_error);
	json_array_foreach(layers, i, d) {
		if (err < 0)
			break;
		err = descriptor_read(d, &m.layers[m.n_layers++], ret_error);
	}
	if (err >= 0) {
		*ret = m;
		m = (struct image_manifest){ 0 };
	}
out:
	image_manifest_done(&m);
	json_decref(j);
	return err;
}

int image_config_parse(const char *text, size_t len, struct image_config *ret,
		       const char **ret_error)
{
	json_t *j = load(text, len, ret_error), *env, *v;
	struct image_config c = { 0 };
	size_t i;
	int err = -ENOMEM;

	if (!j)
		return -EBADMSG;
	if (!json_is_object(j)) {
		*ret_error = "the image configuration is not an object";
		json_decref(j);
		return -EBADMSG;
	}
	env = json_object_get(json_object_get(j, "config"), "Env");
	if (json_array_size(env) > IMAGE_MAX_ENV) {
		*ret_error = "more than 10000 Env entries";
		json_decref(j);
		return -E2BIG;
	}
	if (dup_opt(j, "os", &c.os) < 0 || dup_opt(j, "architecture", &c.architecture) < 0 ||
	    dup_opt(j, "variant", &c.variant) < 0)
		goto out;
	json_array_foreach(env, i, v) {
		const char *s = json_string_value(v);

		/* config.md: "entries are in the format of VARNAME=VARVALUE" */
		if (!s || !strchr(s, '=') || s[0] == '=') {
			*ret_error = "an Env entry is not VARNAME=VARVALUE";
			err = -EBADMSG;
			goto out;
		}
		if (strv_push(&c.env, s) < 0)
			goto out;
	}
	*ret = c;
	c = (struct image_config){ 0 };
	err = 0;
out:
	image_config_done(&c);
	json_decref(j);
	return err;
}

void image_oci_index_platforms(const char *text, size_t len, char *buf, size_t buf_len)
{
	const char *why = NULL;
	json_t *j, *list, *d;
	size_t i, used = 0;

	if (buf_len == 0)
		return;
	buf[0] = '\0';
	j = load(text, len, &why);
	list = json_object_get(j, "manifests");
	json_array_foreach(list, i, d) {
		json_t *p = json_object_get(d, "platform");
		const char *os = json_string_value(json_object_get(p, "os"));
		const char *arch = json_string_value(json_object_get(p, "architecture"));
		const char *variant = json_string_value(json_object_get(p, "variant"));
		int n;

		if (!os || !arch)
			continue;
		n = snprintf(buf + used, buf_len - used, "%s%s/%s%s%s", used ? ", " : "", os, arch,
			     variant ? "/" : "", variant ? variant : "");
		if (n < 0 || (size_t)n >= buf_len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)n;
	}
	json_decref(j);
}
