// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the shell startup file / /etc/environment assignment parser
 * (src/formats/shell-profile.c), both modes over the same bytes, checking the cap, that every
 * kept name is one asked for, once, and that every value is NUL-terminated within its buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/shell-profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "HSA_OVERRIDE_GFX_VERSION", "HIP_VISIBLE_DEVICES",
				     "ROCR_VISIBLE_DEVICES", "A", NULL };

static void check(const struct shell_assigns *sa)
{
	if (sa->n > SHELL_ASSIGN_MAX)
		abort();
	for (size_t i = 0; i < sa->n; i++) {
		bool known = false;

		if (!memchr(sa->a[i].value, '\0', sizeof(sa->a[i].value)) || sa->a[i].line == 0)
			abort();
		for (size_t k = 0; names[k]; k++)
			known |= strcmp(names[k], sa->a[i].name) == 0;
		for (size_t j = 0; j < i; j++)
			if (strcmp(sa->a[j].name, sa->a[i].name) == 0)
				abort();
		if (!known)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shell_assigns *sa = malloc(sizeof(*sa));

	if (!sa)
		return 0;
	shell_profile_parse((const char *)data, size, names, false, sa);
	check(sa);
	shell_profile_parse((const char *)data, size, names, true, sa);
	check(sa);
	free(sa);
	return 0;
}
