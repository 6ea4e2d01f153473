// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one name table of enum fact_state (fact-state.h).
 */
#include <errno.h>
#include <string.h>

#include "fact-state.h"

static const char *const fact_state_names[_FACT_STATE_MAX] = {
	[FACT_UNPROBED] = "unprobed",	[FACT_ABSENT] = "absent",
	[FACT_PRESENT] = "present",	[FACT_UNREADABLE] = "unreadable",
	[FACT_MALFORMED] = "malformed", [FACT_UNSUPPORTED] = "unsupported",
	[FACT_ERROR] = "error",
};

const char *fact_state_to_string(enum fact_state s)
{
	return (unsigned)s < _FACT_STATE_MAX ? fact_state_names[s] : "error";
}

int fact_state_from_string(const char *s)
{
	for (int i = 0; i < _FACT_STATE_MAX; i++)
		if (strcmp(fact_state_names[i], s) == 0)
			return i;
	return -EINVAL;
}
