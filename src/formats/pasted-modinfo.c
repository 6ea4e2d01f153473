// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `modinfo nvidia` (`gpuenv explain`; kmod's modinfo prints "filename:" then
 * the module's .modinfo fields as "key:<padding>value", one a line, and for a signed module
 * sig_id, signer, sig_key, sig_hashalgo, signature). The block of the nvidia module itself is
 * read; the block ends at the next "filename:" or a line that is not "key: value". Which
 * module a block is: its "name:" where modinfo prints one (the .modinfo name= that modpost
 * writes, what lsmod shows: "nvidia" whatever the file is called, Debian's nvidia-current.ko
 * too), else the file's name (nvidia-module-name.h: NVIDIA's and Debian's names, Ubuntu's
 * DKMS nvidia_NNN.ko), plain or compressed. Facts are the probe's driver.nvidia.module_file.*
 * (its name where the file's is none of NVIDIA's or Debian's, as the probe says it), and
 * driver.nvidia.flavor from the license: NVIDIA's README ("Using the Open GPU Kernel
 * Modules", kernel_open.html) says the proprietary flavor reports "license: NVIDIA" and the
 * open one "license: Dual MIT/GPL".
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/kmodule.h"
#include "formats/nvidia-module-name.h"
#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define MF "driver.nvidia.module_file"

/* The module file's compression, from its name as the probe tells it; NULL: no module's
 * name. */
static const char *compression(const char *base)
{
	enum kmodule_compression c;

	return kmodule_compression_from_name(base, &c) < 0 ? NULL : kmodule_compression_name(c);
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

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (strcmp(key, map[i].key) == 0)
			pasted_put(o, no, v, MF ".%s", map[i].fact);
	if (strcmp(key, "license") == 0 && strcmp(v, "NVIDIA") == 0)
		pasted_put(o, no, "proprietary", "driver.nvidia.flavor");
	else if (strcmp(key, "license") == 0 && strcmp(v, "Dual MIT/GPL") == 0)
		pasted_put(o, no, "open", "driver.nvidia.flavor");
}

/* A field's key and value, when line is one. */
static bool field_line(char *line, char **key, char **v)
{
	return pasted_kv(line, ':', key, v) && field_name(*key);
}

/* The "name:" of the block the lines after it hold, up to its end, copied into buf; false
 * when the block has none (kernels whose modpost wrote no name=, kmod before it printed it)
 * or it does not fit. */
static bool block_name(const struct pasted_lines *it, char *buf, size_t len)
{
	struct pasted_lines ahead = { .next = it->next, .end = it->end };
	bool found = false;
	char *line, *key, *v;

	while (!found && (line = pasted_lines_next(&ahead)) && field_line(line, &key, &v) &&
	       strcmp(key, "filename") != 0)
		if (strcmp(key, "name") == 0 && strlen(v) < len) {
			memcpy(buf, v, strlen(v) + 1);
			found = true;
		}
	pasted_lines_done(&ahead);
	return found;
}

/* At a "filename:" line: whether its block is nvidia's; its facts of the file if so. */
static bool nvidia_block(struct pasted_out *o, const struct pasted_lines *it, const char *path)
{
	const char *base = strrchr(path, '/'), *comp;
	char name[64];
	bool named;

	base = base ? base + 1 : path;
	named = nvidia_module_file_named(base);
	if (block_name(it, name, sizeof(name))) {
		if (strcmp(name, "nvidia") != 0)
			return false;
		if (!named)
			pasted_put(o, it->no, name, MF ".name");
	} else if (!named && !nvidia_module_file_ubuntu(base))
		return false;
	pasted_put(o, it->no, path, MF ".path");
	if ((comp = compression(base)))
		pasted_put(o, it->no, comp, MF ".compression");
	return true;
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

		if (!field_line(line, &key, &v)) {
			in = false;
			continue;
		}
		if (strcmp(key, "filename") == 0) {
			in = nvidia_block(&o, &it, v);
			continue;
		}
		/* a sig_key or signature continues on indented lines of hex: not key: value */
		if (in)
			field(&o, it.no, key, v);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
