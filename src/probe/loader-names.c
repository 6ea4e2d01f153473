// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The names the emulated loader deals in, no file read: the names of its enums, the version a
 * file name carries after its soname's ".so", path components, and the dynamic string tokens
 * ($ORIGIN, $LIB, $PLATFORM) of a search-list entry, expanded as glibc's elf/dl-load.c
 * (_dl_dst_substitute, is_dst) expands them. The search itself is loader.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/loader.h"
#include "shared/strbuf.h"

const char *loader_via_name(enum loader_via v)
{
	switch (v) {
	case LOADER_VIA_RPATH:
		return "rpath";
	case LOADER_VIA_LD_LIBRARY_PATH:
		return "LD_LIBRARY_PATH";
	case LOADER_VIA_RUNPATH:
		return "runpath";
	case LOADER_VIA_CACHE:
		return "ld.so.cache";
	case LOADER_VIA_DEFAULT:
		return "default";
	}
	return "unknown";
}

const char *loader_verdict_name(enum loader_verdict v)
{
	switch (v) {
	case LOADER_LOADS:
		return "loads";
	case LOADER_SKIP_CLASS:
		return "wrong ELF class";
	case LOADER_SKIP_MACHINE:
		return "wrong machine";
	case LOADER_SKIP_ERRNO:
		return "passed over";
	case LOADER_FAIL_ERRNO:
		return "load error";
	case LOADER_FAIL_NOT_ELF:
		return "invalid ELF header";
	}
	return "unknown";
}

/* "libnvrtc-builtins.so.13.0" → length of "libnvrtc-builtins.so"; 0 when there is no ".so". */
static size_t so_stem_len(const char *name)
{
	const char *p = name;

	while ((p = strstr(p, ".so"))) {
		if (p[3] == '\0' || p[3] == '.')
			return (size_t)(p - name) + 3;
		p += 3;
	}
	return 0;
}

char *loader_version_from_name(const char *soname, const char *file_name)
{
	size_t n = so_stem_len(soname);
	const char *v;

	if (n == 0 || strncmp(file_name, soname, n) != 0 || file_name[n] != '.')
		return NULL;
	v = file_name + n + 1;
	if (*v < '0' || *v > '9')
		return NULL;
	return strdup(v);
}

/* Does the path have a component named comp? */
bool loader_path_has_component(const char *path, const char *comp)
{
	size_t n = strlen(comp);
	const char *p = path;

	while (p && *p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (len == n && strncmp(p, comp, n) == 0)
			return true;
		p = slash ? slash + 1 : NULL;
	}
	return false;
}

/* glibc is_dst(): "$NAME" not followed by an identifier character, or "${NAME}". Returns the
 * length consumed after the '$', 0 when it is not this token. */
static size_t dst_len(const char *s, const char *name)
{
	size_t n = strlen(name);

	if (s[0] == '{')
		return strncmp(s + 1, name, n) == 0 && s[1 + n] == '}' ? n + 2 : 0;
	if (strncmp(s, name, n) != 0)
		return 0;
	if ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') ||
	    (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
		return 0;
	return n;
}

int loader_expand(const struct loader *l, const char *entry, const char *origin, char **ret,
		  const char **ret_note)
{
	struct strbuf sb = STRBUF_INIT;
	char *out;
	int err;

	*ret = NULL;
	*ret_note = NULL;
	if (!*entry) {
		/* glibc: an empty element of a search list is the current directory. */
		*ret_note = "empty entry: the process's current directory";
		return 0;
	}
	strbuf_init(&sb, 4096);
	for (const char *p = entry; *p;) {
		size_t n;

		if (*p != '$') {
			strbuf_putc(&sb, *p++);
			continue;
		}
		if ((n = dst_len(p + 1, "ORIGIN"))) {
			if (!origin) {
				strbuf_done(&sb);
				*ret_note = "$ORIGIN: the directory of the requesting object, "
					    "unknown here";
				return 0;
			}
			strbuf_puts(&sb, origin);
		} else if ((n = dst_len(p + 1, "LIB"))) {
			strbuf_puts(&sb, l->lib);
		} else if ((n = dst_len(p + 1, "PLATFORM"))) {
			strbuf_puts(&sb, l->platform);
		} else {
			strbuf_putc(&sb, *p++);
			continue;
		}
		p += 1 + n;
	}
	err = strbuf_steal(&sb, &out);
	if (err < 0)
		strbuf_done(&sb);
	if (err == -EFBIG) {
		*ret_note = "longer than gpuenv reads (4096 bytes expanded)";
		return 0;
	}
	if (err < 0)
		return err;
	if (out[0] != '/') {
		free(out);
		*ret_note = "relative directory: depends on the process's current directory";
		return 0;
	}
	/* "/usr/lib/" → "/usr/lib" (but "/" stays). */
	for (size_t n = strlen(out); n > 1 && out[n - 1] == '/'; n--)
		out[n - 1] = '\0';
	*ret = out;
	return 0;
}
