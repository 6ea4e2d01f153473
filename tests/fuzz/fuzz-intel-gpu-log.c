// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the i915/xe firmware and force_probe lines of a kernel log
 * (src/formats/intel-gpu-log.c). */
#include <stdint.h>
#include <string.h>

#include "formats/intel-gpu-log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct intel_log log;

	memset(&log, 0, sizeof(log));
	if (intel_gpu_log_parse((const char *)data, size, &log) >= 0)
		for (size_t i = 0; i < log.n_ev && i < INTEL_LOG_EVENTS_MAX; i++)
			(void)intel_fw_state_name(log.ev[i].state);
	return 0;
}
