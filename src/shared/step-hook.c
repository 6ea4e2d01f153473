// SPDX-License-Identifier: LGPL-2.1-or-later
/* step-hook.h: the hook between the steps of the library's long work. */
#include <stddef.h>

#include "shared/step-hook.h"

static void (*step_hook)(void);

void step_hook_set(void (*hook)(void))
{
	step_hook = hook;
}

void step_hook_run(void)
{
	if (step_hook)
		step_hook();
}
