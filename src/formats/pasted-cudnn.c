// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of cuDNN's status codes as pasted (`gpuenv explain`): a cudnnStatus_t name
 * ("CUDNN_STATUS_NOT_INITIALIZED") wherever a framework prints one: PyTorch's "cuDNN error:
 * CUDNN_STATUS_…", TensorFlow's and cuDNN-frontend's "… failed with status CUDNN_STATUS_…",
 * ONNX Runtime's "CUDNN failure 1: CUDNN_STATUS_…", Caffe's "Check failed: status ==
 * CUDNN_STATUS_SUCCESS (6 vs. 0)  CUDNN_STATUS_ARCH_MISMATCH".
 *
 * The names and their meanings are cuDNN's API reference, "cudnnStatus_t" (cuDNN 8:
 * docs.nvidia.com/deeplearning/cudnn/archives/cudnn-897/api/index.html#cudnnStatus_t; cuDNN
 * 9, which renamed some: docs.nvidia.com/deeplearning/cudnn/latest/api/cudnn-graph-library.html
 * #cudnnstatus-t) and, for the codes cudnnCreate() returns, its entry there
 * ("CUDNN_STATUS_NOT_INITIALIZED: the CUDA Runtime API initialization failed";
 * "CUDNN_STATUS_ARCH_MISMATCH: NVIDIA GPU architecture is too old").
 *
 * Facts: "messages.cudnn.status" the name as printed (the last one pasted), and, for the few
 * codes whose documented meaning is a fault of the GPU stack one rule names, that rule's
 * symptom ("symptoms.<rule id>", the line). Numbers are not read: cuDNN 9 renumbered the
 * codes (1001 is cuDNN 9's NOT_INITIALIZED, 1 cuDNN 8's), so a bare number names nothing sure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-cudnn.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define READER		"cudnn"
#define PREFIX		"CUDNN_STATUS_"
#define STATUS_NAME_MAX 64
#define SYMPTOM_MAX	240 /* bytes of the line kept as a symptom's value, as the errors reader */

/* The codes whose documented meaning one rule covers; every other known name is read as the
 * status alone (ALLOC_FAILED is memory, BAD_PARAM a caller's bug, INTERNAL_ERROR and
 * EXECUTION_FAILED say nothing of the cause, NOT_INITIALIZED is any CUDA runtime failure). */
static const struct {
	const char *name; /* after CUDNN_STATUS_ */
	const char *rule; /* NULL: no rule's symptom */
} statuses[] = {
	{ "SUCCESS", NULL },
	{ "NOT_INITIALIZED", NULL },
	{ "ALLOC_FAILED", NULL },
	{ "BAD_PARAM", NULL },
	{ "INTERNAL_ERROR", NULL },
	{ "INVALID_VALUE", NULL },
	/* cudnnCreate(): "NVIDIA GPU architecture is too old" */
	{ "ARCH_MISMATCH", "framework.gpu-too-old-for-build" },
	{ "MAPPING_ERROR", NULL },
	{ "EXECUTION_FAILED", NULL },
	{ "NOT_SUPPORTED", NULL },
	{ "LICENSE_ERROR", NULL },
	{ "RUNTIME_PREREQUISITE_MISSING", NULL },
	{ "RUNTIME_IN_PROGRESS", NULL },
	{ "RUNTIME_FP_OVERFLOW", NULL },
	/* cuDNN 8: "some cuDNN sub-libraries have different versions, indicating an
	 * installation issue"; cuDNN 9 names it SUBLIBRARY_VERSION_MISMATCH: two copies mixed */
	{ "VERSION_MISMATCH", "runtime.library-shadowed" },
	{ "SUBLIBRARY_VERSION_MISMATCH", "runtime.library-shadowed" },
	/* cuDNN 9: a sub-library (libcudnn_engines_precompiled.so.9 …) could not be loaded */
	{ "SUBLIBRARY_LOADING_FAILED", "runtime.library-not-found" },
	{ "SERIALIZATION_VERSION_MISMATCH", NULL },
	{ "DEPRECATED", NULL },
	{ "BAD_PARAM_NULL_POINTER", NULL },
	{ "BAD_PARAM_MISALIGNED_POINTER", NULL },
	{ "BAD_PARAM_NOT_FINALIZED", NULL },
	{ "BAD_PARAM_OUT_OF_BOUND", NULL },
	{ "BAD_PARAM_SIZE_INSUFFICIENT", NULL },
	{ "BAD_PARAM_STREAM_MISMATCH", NULL },
	{ "BAD_PARAM_SHAPE_MISMATCH", NULL },
	{ "BAD_PARAM_DUPLICATED_ENTRIES", NULL },
	{ "BAD_PARAM_ATTRIBUTE_TYPE", NULL },
	{ "BAD_PARAM_CUDA_GRAPH_MISMATCH", NULL },
	{ "NOT_SUPPORTED_GRAPH_PATTERN", NULL },
	{ "NOT_SUPPORTED_SHAPE", NULL },
	{ "NOT_SUPPORTED_DATA_TYPE", NULL },
	{ "NOT_SUPPORTED_LAYOUT", NULL },
	{ "NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER", "runtime.toolkit-needs-newer-driver" },
	{ "NOT_SUPPORTED_INCOMPATIBLE_CUDART", NULL },
	/* cuDNN 9's name for ARCH_MISMATCH */
	{ "NOT_SUPPORTED_ARCH_MISMATCH", "framework.gpu-too-old-for-build" },
	{ "NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING", NULL },
	{ "NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE", "runtime.library-not-found" },
	{ "NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT", NULL },
	{ "NOT_SUPPORTED_PADDING", NULL },
	{ "NOT_SUPPORTED_BAD_LAUNCH_PARAM", NULL },
	{ "NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API", NULL },
	{ "INTERNAL_ERROR_COMPILATION_FAILED", NULL },
	{ "INTERNAL_ERROR_UNEXPECTED_VALUE", NULL },
	{ "INTERNAL_ERROR_HOST_ALLOCATION_FAILED", NULL },
	{ "INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED", NULL },
	{ "INTERNAL_ERROR_BAD_LAUNCH_PARAM", NULL },
	{ "INTERNAL_ERROR_TEXTURE_CREATION_FAILED", NULL },
	{ "EXECUTION_FAILED_CUDA_DRIVER", NULL },
	{ "EXECUTION_FAILED_CUBLAS", NULL },
	{ "EXECUTION_FAILED_CUDART", NULL },
	{ "EXECUTION_FAILED_CURAND", NULL },
};

/* The index of the status named at p (past "CUDNN_STATUS_"), or -1: the name runs over
 * capitals, digits and '_' and must be one of the table's whole. */
static int status_at(const char *p, size_t *ret_n)
{
	size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

	*ret_n = n;
	if (n == 0 || n >= STATUS_NAME_MAX)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(statuses); i++)
		if (strlen(statuses[i].name) == n && strncmp(p, statuses[i].name, n) == 0)
			return (int)i;
	return -1;
}

/* Every status the line names that cuDNN reports as a failure: not SUCCESS, which a check
 * prints beside the real one ("CUDNN_STATUS_SUCCESS (6 vs. 0)"). */
static void read_line(struct pasted_out *o, const char *s, unsigned no)
{
	const char *p = s, *q;
	char name[sizeof(PREFIX) + STATUS_NAME_MAX], sym[SYMPTOM_MAX + 1];

	while ((q = strstr(p, PREFIX))) {
		size_t n;
		int i = status_at(q + strlen(PREFIX), &n);

		p = q + strlen(PREFIX) + n;
		if (i < 0 || strcmp(statuses[i].name, "SUCCESS") == 0)
			continue;
		snprintf(name, sizeof(name), "%s%s", PREFIX, statuses[i].name);
		pasted_put(o, no, name, "messages.cudnn.status");
		if (statuses[i].rule) {
			pasted_cut_utf8(s, strlen(s), sym, sizeof(sym));
			pasted_put(o, no, sym, "symptoms.%s", statuses[i].rule);
		}
	}
}

int pasted_read_cudnn(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = READER };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)))
		if (strstr(line, PREFIX))
			read_line(&o, pasted_strip(line), it.no);
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
