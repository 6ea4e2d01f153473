// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPU code of a library as a capture keeps it (core/kept.c, docs/design.md "Capture and
 * replay"). Finding a library's fat binaries reads far more than its headers: a
 * hand-registered library (libcufft.so.12) is searched byte by byte for containers, 271 MB of
 * 287 MB, and the walks of the others read every small entry whole, so a bundle that kept
 * those bytes held hundreds of MB of a torch venv. Instead the capture scans without
 * recording its reads and keeps the scan's result, "scans/<path>", with the file's identity:
 * its size and an FNV-1a 64 hash (the IETF draft-eastlake-fnv offset basis and prime) of its
 * first 4 KiB (the ELF header, program headers and GNU build-id note), read and so kept in
 * the bundle. A replay takes the result only for a file of the same identity; any other file
 * at that path is scanned.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel-scan-kept.h"
#include "shared/macro.h"

#define HEAD_BYTES 4096u
/* A result lists at most MAX_TARGETS targets of ~100 bytes of JSON each. */
#define KEPT_MAX ((size_t)1 << 20)

int kernel_scan_identity(const struct root_file *f, struct kernel_scan_id *ret)
{
	uint8_t head[HEAD_BYTES];
	size_t n = (size_t)MIN(f->size, (uint64_t)HEAD_BYTES);
	ssize_t got = root_file_pread(f, head, n, 0);
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	if (got < 0)
		return (int)got;
	if ((size_t)got < n)
		return -EIO; /* shrank while read */
	for (size_t i = 0; i < n; i++) {
		h ^= head[i];
		h *= UINT64_C(0x100000001b3);
	}
	ret->size = f->size;
	snprintf(ret->head, sizeof(ret->head), "%016" PRIx64, h);
	return 0;
}

static const enum fatbin_target_kind kinds[] = {
	FATBIN_TARGET_SASS,  FATBIN_TARGET_PTX,	   FATBIN_TARGET_LTO,
	FATBIN_TARGET_OTHER, FATBIN_TARGET_AMDGCN,
};

/* One target of a kept result into t; false when it is not one. */
static bool load_target(json_t *j, struct fatbin_target *t)
{
	const char *name = json_string_value(json_object_get(j, "target"));
	const char *gfx = json_string_value(json_object_get(j, "gfx"));
	const char *kind = json_string_value(json_object_get(j, "kind"));
	const char *variant = json_string_value(json_object_get(j, "variant"));
	json_t *arch = json_object_get(j, "arch"), *count = json_object_get(j, "count");
	json_t *maj = json_object_get(j, "ptx_major"), *min = json_object_get(j, "ptx_minor");
	json_t *lto_maj = json_object_get(j, "lto_major"),
	       *lto_min = json_object_get(j, "lto_minor");
	bool known = false;

	if (!name || !gfx || !kind || !variant || strlen(name) >= sizeof(t->name) ||
	    strlen(gfx) >= sizeof(t->gfx) || strlen(variant) > 1 || !json_is_integer(arch) ||
	    !json_is_integer(count) || !json_is_integer(maj) || !json_is_integer(min) ||
	    json_integer_value(arch) < 0 || json_integer_value(arch) > 100000 ||
	    json_integer_value(count) < 0 || json_integer_value(maj) < -1 ||
	    json_integer_value(maj) > 1000 || json_integer_value(min) < -1 ||
	    json_integer_value(min) > 1000)
		return false;
	/* The LTO-IR version: a result kept before it was recorded has none, which is
	 * "unknown" (-1), never a version 0.0. */
	if (!lto_maj != !lto_min ||
	    (lto_maj && (!json_is_integer(lto_maj) || !json_is_integer(lto_min) ||
			 json_integer_value(lto_maj) < -1 || json_integer_value(lto_maj) > 1000 ||
			 json_integer_value(lto_min) < -1 || json_integer_value(lto_min) > 1000)))
		return false;
	*t = (struct fatbin_target){
		.arch = (unsigned)json_integer_value(arch),
		.variant = variant[0],
		.ptx_major = (int)json_integer_value(maj),
		.ptx_minor = (int)json_integer_value(min),
		.lto_major = lto_maj ? (int)json_integer_value(lto_maj) : -1,
		.lto_minor = lto_min ? (int)json_integer_value(lto_min) : -1,
		.count = (size_t)json_integer_value(count),
	};
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (streq(kind, fatbin_target_kind_name(kinds[i]))) {
			t->kind = kinds[i];
			known = true;
		}
	strcpy(t->name, name);
	strcpy(t->gfx, gfx);
	return known;
}

/* A kept result into *ret_r and k: 0, -EBADMSG when it is not one, -ENOMEM. */
static int load_result(json_t *j, int *ret_r, struct fatbin_targets *k)
{
	const char *result = json_string_value(json_object_get(j, "result"));
	json_t *targets = json_object_get(j, "targets"), *t;
	size_t i;

	if (!result || !json_is_array(targets) || (k->max && json_array_size(targets) > k->max) ||
	    !json_is_boolean(json_object_get(j, "truncated")))
		return -EBADMSG;
	*ret_r = streq(result, "ok") ? 0 : -errno_from_name(result);
	if (*ret_r == 0 && !streq(result, "ok"))
		return -EBADMSG;
	k->t = calloc(json_array_size(targets) + 1, sizeof(*k->t));
	if (!k->t)
		return -ENOMEM;
	k->cap = json_array_size(targets) + 1;
	json_array_foreach(targets, i, t) {
		if (!load_target(t, &k->t[k->n]))
			return -EBADMSG;
		k->n_amdgcn += k->t[k->n].kind == FATBIN_TARGET_AMDGCN;
		k->n++;
	}
	k->truncated = json_is_true(json_object_get(j, "truncated"));
	return 0;
}

int kernel_scan_parse(const char *text, size_t len, const struct kernel_scan_id *id,
		      struct fatbin_targets *k, int *ret_r)
{
	json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	int err;

	if (!json_is_object(j)) {
		json_decref(j);
		return -EBADMSG;
	}
	/* another file at that path since: scanned as it is */
	if (!json_is_integer(json_object_get(j, "size")) ||
	    (uint64_t)json_integer_value(json_object_get(j, "size")) != id->size ||
	    !streq(json_string_value(json_object_get(j, "head_fnv1a64")) ?: "", id->head)) {
		json_decref(j);
		return 0;
	}
	err = load_result(j, ret_r, k);
	json_decref(j);
	if (err < 0) {
		fatbin_targets_done(k);
		return err;
	}
	return 1;
}

/* The kept result's text for path: 0, -ENOENT when none (or not replaying), -ENOMEM. */
static int kept_text(struct probe_env *pe, const char *path, char **ret_name, char **ret,
		     size_t *ret_len)
{
	if (asprintf(ret_name, "scans%s", path) < 0)
		return -ENOMEM;
	return ctx_kept(pe->ctx, *ret_name, KEPT_MAX, ret, ret_len);
}

bool kernel_scan_kept_for(struct probe_env *pe, const char *path)
{
	_cleanup_free_ char *name = NULL, *text = NULL;
	size_t len;

	return kept_text(pe, path, &name, &text, &len) >= 0;
}

int kernel_scan_replay(struct probe_env *pe, const char *path, const struct kernel_scan_id *id,
		       struct fatbin_targets *k, int *ret_r)
{
	_cleanup_free_ char *name = NULL, *text = NULL;
	size_t len;
	int err = kept_text(pe, path, &name, &text, &len);

	if (err == -ENOMEM)
		return err;
	if (err < 0)
		return 0;
	err = kernel_scan_parse(text, len, id, k, ret_r);
	if (err == -EBADMSG)
		log_warn(pe->log, CTX_KEPT_DIR "%s: not a kept scan result; scanning %s", name,
			 path);
	return err == -EBADMSG ? 0 : err;
}

char *kernel_scan_format(const struct kernel_scan_id *id, int r, const struct fatbin_targets *k)
{
	json_t *j = json_object(), *arr = json_array();
	char *text;

	if (!j || !arr) {
		json_decref(j);
		json_decref(arr);
		return NULL;
	}
	for (size_t i = 0; i < k->n; i++) {
		const struct fatbin_target *t = &k->t[i];
		char variant[2] = { t->variant, '\0' };

		json_array_append_new(
			arr,
			json_pack("{s:s, s:s, s:s, s:I, s:s, s:i, s:i, s:i, s:i, s:I}", "target",
				  t->name, "gfx", t->gfx, "kind", fatbin_target_kind_name(t->kind),
				  "arch", (json_int_t)t->arch, "variant", variant, "ptx_major",
				  t->ptx_major, "ptx_minor", t->ptx_minor, "lto_major",
				  t->lto_major, "lto_minor", t->lto_minor, "count",
				  (json_int_t)t->count));
	}
	json_object_set_new(j, "size", json_integer((json_int_t)id->size));
	json_object_set_new(j, "head_fnv1a64", json_string(id->head));
	json_object_set_new(j, "result", json_string(r == 0 ? "ok" : errno_name(r)));
	json_object_set_new(j, "truncated", json_boolean(k->truncated));
	json_object_set_new(j, "targets", arr);
	text = json_dumps(j, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(j);
	return text;
}

int kernel_scan_keep(struct probe_env *pe, const char *path, const struct kernel_scan_id *id, int r,
		     const struct fatbin_targets *k)
{
	_cleanup_free_ char *name = NULL, *text = NULL;

	if (asprintf(&name, "scans%s", path) < 0) {
		name = NULL;
		return -ENOMEM;
	}
	text = kernel_scan_format(id, r, k);
	if (!text)
		return -ENOMEM;
	return ctx_keep(pe->ctx, name, text, strlen(text));
}
