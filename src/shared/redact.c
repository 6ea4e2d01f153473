// SPDX-License-Identifier: LGPL-2.1-or-later
/* --redact's forms (redact.h). */
#include <ctype.h>
#include <strings.h>

#include "shared/redact.h"

bool redact_uuid_at(const char *p, size_t left)
{
	static const char form[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

	if (left < sizeof(form) - 1)
		return false;
	for (size_t i = 0; i < sizeof(form) - 1; i++)
		if (form[i] == 'x' ? !isxdigit((unsigned char)p[i]) : p[i] != '-')
			return false;
	return true;
}

bool redact_word_edge(const char *buf, size_t len, size_t at)
{
	unsigned char c = at < len ? (unsigned char)buf[at] : ' ';

	return !(isalnum(c) || c == '-' || c == '_' || c == '.');
}

/* GUIDs that name no machine: the UEFI specification's (EFI_GLOBAL_VARIABLE, section 3.3
 * "Globally Defined Variables") and shim's (MokListRT): efivars file names gpuenv reads. */
static const char *const public_guids[] = {
	"8be4df61-93ca-11d2-aa0d-00e098032b8c",
	"605dab50-e046-4300-abb6-3dd810dd8b23",
	NULL,
};

bool redact_public_guid(const char *p)
{
	for (const char *const *g = public_guids; *g; g++)
		if (!strncasecmp(p, *g, 36))
			return true;
	return false;
}
