// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the /proc/PID/stat reader of src/core/child-stuck.c (proc_stat_parse():
 * the command name and the state of a task). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/child-stuck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char comm[16], state = 0;

	if (proc_stat_parse((const char *)data, size, comm, &state) == 0 &&
	    (strlen(comm) > 15 || state < 'A' || state > 'z'))
		abort();
	return 0;
}
