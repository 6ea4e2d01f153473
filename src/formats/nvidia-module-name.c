// SPDX-License-Identifier: LGPL-2.1-or-later
/* The names of nvidia.ko's file: see nvidia-module-name.h. */
#include "formats/nvidia-module-name.h"

#include <string.h>

#include "shared/macro.h"

/* The length of name without its module suffix; 0: not a module's name. */
static size_t stem_length(const char *name)
{
	static const char *const sfx[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	size_t len = strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(sfx); i++) {
		size_t l = strlen(sfx[i]);

		if (len > l && streq(name + len - l, sfx[i]))
			return len - l;
	}
	return 0;
}

/* stem[0..n) is prefix, one or more digits, then tail. */
static bool numbered(const char *stem, size_t n, const char *prefix, const char *tail)
{
	size_t p = strlen(prefix), t = strlen(tail), d;

	if (n <= p || strncmp(stem, prefix, p) != 0)
		return false;
	d = strspn(stem + p, "0123456789");
	return d > 0 && n == p + d + t && strncmp(stem + p + d, tail, t) == 0;
}

bool nvidia_module_file_named(const char *name)
{
	static const char *const fixed[] = { "nvidia", "nvidia-current", "nvidia-tesla" };
	size_t n = stem_length(name);

	if (!n)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		if (n == strlen(fixed[i]) && strncmp(name, fixed[i], n) == 0)
			return true;
	return numbered(name, n, "nvidia-legacy-", "xx") || numbered(name, n, "nvidia-tesla-", "");
}

bool nvidia_module_file_ubuntu(const char *name)
{
	size_t n = stem_length(name);

	return n && numbered(name, n, "nvidia_", "");
}
