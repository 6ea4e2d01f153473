// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `nvidia-smi nvlink -s` (`nvidia-smi nvlink --status`; `gpuenv explain`):
 * per GPU a line "GPU 3: Tesla V100-SXM2-32GB (UUID: GPU-…)" (as nvidia-smi -L prints it),
 * then one indented line per link, "Link 0: 25.781 GB/s" for a link up (its speed) or
 * "Link 3: <inactive>" for one down (nvidia-smi(1), and the pastes
 * tests/unit/test-pasted-nvidia-smi-health.c cites). A GPU without NVLink prints no link
 * line. Facts: driver.nvml.devices.<index>.index and, per link, nvlink.<n>.link and
 * nvlink.<n>.active, the keys the NVML probe writes from nvmlDeviceGetNvLinkState
 * (src/vendor/nvml.c); the device's name and UUID are the nvidia-smi reader's (the -L form).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define DEV	  "driver.nvml.devices.%u.%s"
#define LINK	  "driver.nvml.devices.%u.nvlink.%u.%s"
#define LINKS_MAX 64 /* NVML_NVLINK_MAX_LINKS is 18; a larger number is no link line */

int pasted_read_nvlink(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "nvlink" };
	struct pasted_lines it;
	bool have_gpu = false;
	unsigned gpu = 0;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		char *s = pasted_strip(line), num[16];
		const char *e, *v;
		unsigned n;

		if (strncmp(s, "GPU ", 4) == 0 && pasted_index(s + 4, &n, &e) && e[0] == ':' &&
		    e[1] == ' ' && strstr(e, " (UUID: ")) {
			have_gpu = true;
			gpu = n;
			snprintf(num, sizeof(num), "%u", n);
			pasted_put(&o, it.no, num, DEV, gpu, "index");
			continue;
		}
		/* a link line is the last GPU line's: explain hands this reader only the lines
		 * holding its signs (pasted-readers.c), so nothing else may end a GPU's lines */
		if (!have_gpu || strncmp(s, "Link ", 5) != 0 || !pasted_index(s + 5, &n, &e) ||
		    e[0] != ':' || n >= LINKS_MAX)
			continue;
		v = e + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		if (strcmp(v, "<inactive>") != 0 && !strstr(v, " GB/s")) /* its sign, as printed */
			continue;
		snprintf(num, sizeof(num), "%u", n);
		pasted_put(&o, it.no, num, LINK, gpu, n, "link");
		pasted_put(&o, it.no, strcmp(v, "<inactive>") == 0 ? "false" : "true", LINK, gpu, n,
			   "active");
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
