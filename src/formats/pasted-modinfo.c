// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `modinfo nvidia` (`gpuenv explain`; kmod's modinfo prints "filename:" then
 * the module's .modinfo fields as "key:<padding>value", one a line, and for a signed module
 * sig_id, signer, sig_key, sig_hashalgo, signature). The block of the nvidia module itself is
 * read (its filename ends in nvidia.ko or Debian's nvidia-current.ko, maybe compressed); the
 * block ends at the next "filename:" or a line that is not "key: value". Facts are the probe's
 * driver.nvidia.module_file.*, and driver.nvidia.flavor from the license: NVIDIA's README
 * ("Using the Open GPU Kernel Modules", kernel_open.html) says the proprietary flavor reports
 * "license: NVIDIA" and the open one "license: Dual MIT/GPL".
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define MF "driver.nvidia.module_file"

/* The module file's compression, from the name as the probe tells it; NULL: not nvidia's. */
static const char *nvidia_module(const char *path)
{
	static const struct {
		const char *suffix, *compression;
	} exts[] = {
		{ ".ko", "none" }, { ".ko.xz", "xz" }, { ".ko.zst", "zstd" }, { ".ko.gz", "gzip" }
	};
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if ((strncmp(base, "nvidia", 6) == 0 && strcmp(base + 6, exts[i].suffix) == 0) ||
		    (strncmp(base, "nvidia-current", 14) == 0 &&
		     strcmp(base + 14, exts[i].suffix) == 0))
			return exts[i].compression;
	return NULL;
}

/* A modinfo field name: lower-case letters, digits and '_' (kmod prints them as stored). */
static bool field_name(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_'))
			return false;
	return true;
}

static void field(struct pasted_out *o, unsigned no, const char *key, const char *v)
{
	static const struct {
		const char *key, *fact;
	} map[] = {
		{ "version", "version" },
		{ "vermagic", "vermagic" },
		{ "signer", "signer" },
		{ "sig_key", "sig_key" },
		{ "sig_hashalgo", "sig_hashalgo" },
		{ "sig_id", "signature" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(key, map[i].key) == 0)
			pasted_put(o, no, v, MF ".%s", map[i].fact);
	if (strcmp(key, "license") == 0 && strcmp(v, "NVIDIA") == 0)
		pasted_put(o, no, "proprietary", "driver.nvidia.flavor");
	else if (strcmp(key, "license") == 0 && strcmp(v, "Dual MIT/GPL") == 0)
		pasted_put(o, no, "open", "driver.nvidia.flavor");
}

int pasted_read_modinfo(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "modinfo" };
	struct pasted_lines it;
	bool in = false;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		char *key, *v;
		const char *comp;

		if (!pasted_kv(line, ':', &key, &v) || !field_name(key)) {
			in = false;
			continue;
		}
		if (strcmp(key, "filename") == 0) {
			in = (comp = nvidia_module(v)) != NULL;
			if (in) {
				pasted_put(&o, it.no, v, MF ".path");
				pasted_put(&o, it.no, comp, MF ".compression");
			}
			continue;
		}
		/* a sig_key or signature continues on indented lines of hex: not key: value */
		if (in)
			field(&o, it.no, key, v);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
