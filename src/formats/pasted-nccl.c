// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of NCCL's own messages as pasted (`gpuenv explain`). NCCL prints, with NCCL_DEBUG=INFO
 * or WARN, "<host>:<pid>:<tid> [<dev>] NCCL INFO|WARN <message>" lines (NCCL user guide,
 * "Environment Variables", NCCL_DEBUG; "Troubleshooting"); the frameworks wrap its return code:
 * PyTorch's ProcessGroupNCCL "NCCL error in: <file>:<line>, unhandled cuda error, NCCL version
 * 2.7.8" then "ncclUnhandledCudaError: Call to CUDA function failed.", nccl-tests' "NCCL failure
 * common.cu:908 'unhandled cuda error'" and "Cuda failure common.cu:891 '<CUDA error>'".
 *
 * Facts (values as printed):
 * - "messages.nccl.result": the ncclResult_t name (NCCL user guide, "API > Types > ncclResult_t":
 *   ncclUnhandledCudaError 1 "a call to a CUDA function failed", ncclSystemError 2 "a call to
 *   the system failed", ncclInternalError 3, ncclInvalidArgument 4, ncclInvalidUsage 5,
 *   ncclRemoteError 6), named or as ncclGetErrorString() words it after "NCCL error"/"NCCL
 *   failure" ("unhandled cuda error", "unhandled system error" …);
 * - "messages.nccl.version" (and "messages.nccl.cuda", the CUDA it was built for, from INFO's
 *   "NCCL version 2.18.3+cuda12.2");
 * - "messages.nccl.warning": the last "NCCL WARN" message; "messages.nccl.cuda_failure": the
 *   CUDA error text of "Cuda failure '<text>'" (cudaGetErrorString's words: the errors reader
 *   reads the same line for the rule whose symptom they are);
 * - "driver.cuda.driver_version" from INFO's "cudaDriverVersion 11070" (cudaDriverGetVersion's
 *   1000 * major + 10 * minor, written "11.7" as the schema has it).
 * NCCL's INFO lines are never errors: a missing optional plugin (libnccl-net.so) is normal.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-nccl.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define READER	    "nccl"
#define MESSAGE_MAX 240 /* bytes of a WARN message kept */

static const struct {
	const char *name, *text; /* ncclResult_t name, ncclGetErrorString()'s words */
} results[] = {
	{ "ncclUnhandledCudaError", "unhandled cuda error" },
	{ "ncclSystemError", "unhandled system error" },
	{ "ncclInternalError", "internal error" },
	{ "ncclInvalidArgument", "invalid argument" },
	{ "ncclInvalidUsage", "invalid usage" },
	{ "ncclRemoteError", "remote process exited or there was a network error" },
};

/* The return code, by name anywhere, by its words only in NCCL's own error lines. */
static void read_result(struct pasted_out *o, const char *s, unsigned no)
{
	bool nccl_error =
		strstr(s, "NCCL error") || strstr(s, "NCCL failure") || strstr(s, "NCCL Error");

	for (size_t i = 0; i < ARRAY_SIZE(results); i++) {
		const char *p = strstr(s, results[i].name);
		size_t k = strlen(results[i].name);

		if ((p && !isalnum((unsigned char)p[k])) ||
		    (nccl_error && strstr(s, results[i].text))) {
			pasted_put(o, no, results[i].name, "messages.nccl.result");
			return;
		}
	}
}

/* "NCCL version 2.18.3+cuda12.2", "NCCL version 2.7.8": the version, and the CUDA after "+cuda". */
static void read_version(struct pasted_out *o, const char *s, unsigned no)
{
	const char *p = strstr(s, "NCCL version ");
	char ver[32];

	if (!p || !pasted_version_token(p + 13, ver, sizeof(ver)) || !strchr(ver, '.'))
		return;
	pasted_put(o, no, ver, "messages.nccl.version");
	p += 13 + strlen(ver);
	if (strncmp(p, "+cuda", 5) == 0 && pasted_version_token(p + 5, ver, sizeof(ver)) &&
	    strchr(ver, '.'))
		pasted_put(o, no, ver, "messages.nccl.cuda");
}

/* "cudaDriverVersion 11070" → "11.7" */
static void read_driver_version(struct pasted_out *o, const char *s, unsigned no)
{
	const char *p = strstr(s, "cudaDriverVersion ");
	char *end, ver[32];
	long v;

	if (!p || !isdigit((unsigned char)p[18]))
		return;
	v = strtol(p + 18, &end, 10);
	if (*end && !isspace((unsigned char)*end))
		return;
	if (v < 1000 || v >= 1000000 || v % 10)
		return;
	snprintf(ver, sizeof(ver), "%ld.%ld", v / 1000, v % 1000 / 10);
	pasted_put(o, no, ver, "driver.cuda.driver_version");
}

/* "Cuda failure 'text'" (NCCL's CUDACHECK, nccl-tests' CUDACHECK: "Cuda failure file:line '…'") */
static void read_cuda_failure(struct pasted_out *o, const char *s, unsigned no)
{
	const char *p = strstr(s, "Cuda failure "), *q, *e;
	char buf[MESSAGE_MAX + 1];

	if (!p || !(q = strchr(p, '\'')) || !(e = strchr(q + 1, '\'')) || e == q + 1)
		return;
	pasted_cut_utf8(q + 1, (size_t)(e - q - 1), buf, sizeof(buf));
	pasted_put(o, no, buf, "messages.nccl.cuda_failure");
}

int pasted_read_nccl(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = READER };
	struct pasted_lines it;
	char *line, buf[MESSAGE_MAX + 1];

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		const char *s = pasted_strip(line), *w;

		if (!strstr(s, "NCCL") && !strstr(s, "nccl") && !strstr(s, "Cuda failure "))
			continue;
		read_result(&o, s, it.no);
		read_version(&o, s, it.no);
		if (strstr(s, "NCCL INFO "))
			read_driver_version(&o, s, it.no);
		if ((w = strstr(s, "NCCL WARN "))) {
			w += 10;
			while (*w == ' ')
				w++;
			pasted_cut_utf8(w, strlen(w), buf, sizeof(buf));
			pasted_put(&o, it.no, buf, "messages.nccl.warning");
		}
		read_cuda_failure(&o, s, it.no);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
