// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of a printed tf.sysconfig.get_build_info() (`gpuenv explain`; TensorFlow
 * tensorflow/python/platform/sysconfig.py returns build_info.py's build_info dict, which prints
 * as "OrderedDict([('cuda_version', '11.2'), …])" (Python < 3.12), "OrderedDict({'cuda_version':
 * '12.3', …})" (3.12) or "{'cuda_version': …}", on one line or pretty-printed over several).
 * Its keys are those the probe reads from build_info.py into packages.tensorflow.build_info
 * (form "dict"): cuda_version, cudnn_version, rocm_version (strings as printed: Windows builds
 * write '64_112'), is_cuda_build, is_rocm_build, is_tensorrt_build (True/False),
 * cuda_compute_capabilities (a list of sm_XY / compute_XY). Read only in a text that names
 * 'is_cuda_build', which only this dict prints.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define BI	 "framework.python_envs.0.packages.tensorflow.build_info"
#define CAPS_MAX 64

static const char *const keys[] = { "cuda_version",
				    "cudnn_version",
				    "rocm_version",
				    "is_cuda_build",
				    "is_rocm_build",
				    "is_tensorrt_build",
				    "cuda_compute_capabilities",
				    NULL };

/* The value after "'key'" at p: past the closing quote, ": " (dict) or ", " (tuple). */
static const char *value_at(const char *p)
{
	while (*p == ' ')
		p++;
	if (*p != ':' && *p != ',')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\n')
		p++;
	return p;
}

/* key's value v, the key's line no, its closing quote's end at past_key (lines are counted on
 * from there) */
static void read_value(struct pasted_out *o, unsigned no, const char *key, const char *past_key,
		       const char *v)
{
	char items[CAPS_MAX][PASTED_ITEM_MAX];
	int n;

	if (strcmp(key, "cuda_compute_capabilities") == 0) {
		const char *at = past_key;

		n = pasted_py_list(v, items, CAPS_MAX, NULL);
		/* each item at its own line: pprint puts one per line (conda-forge's) */
		for (int i = 0; i < n; i++) {
			const char *it = strstr(at, items[i]);

			for (; it && at < it; at++)
				no += *at == '\n';
			if (it)
				at = it + strlen(items[i]);
			pasted_put(o, no, items[i], BI ".cuda_compute_capabilities.%d", i);
		}
	} else if (strncmp(key, "is_", 3) == 0) {
		if (strncmp(v, "True", 4) == 0)
			pasted_put(o, no, "true", BI ".%s", key);
		else if (strncmp(v, "False", 5) == 0)
			pasted_put(o, no, "false", BI ".%s", key);
	} else if (*v == '\'' || *v == '"') {
		const char *e = strchr(v + 1, *v);
		char buf[64];

		if (e && (size_t)(e - v - 1) < sizeof(buf) &&
		    !memchr(v + 1, '\n', (size_t)(e - v - 1))) {
			memcpy(buf, v + 1, (size_t)(e - v - 1));
			buf[e - v - 1] = '\0';
			pasted_put(o, no, buf, BI ".%s", key);
		}
	}
}

/* Where "'key'" stands in the text, for each key in turn (what a strstr per key finds, each
 * match searched for past the one before), found in one pass over its quotes: the text is a
 * whole window of a large report, and a search and a count of line ends per key were the
 * reader's cost. */
struct match {
	const char *p;
	unsigned key, no;
};

static int find_keys(const char *text, const char *end, struct match **ret, size_t *ret_n)
{
	struct match *m = NULL;
	size_t n = 0, cap = 0;
	unsigned no = 1;
	const char *counted = text;

	for (const char *q = text; q < end && (q = memchr(q, '\'', (size_t)(end - q))); q++) {
		for (unsigned k = 0; keys[k]; k++) {
			size_t kl = strlen(keys[k]);

			if ((size_t)(end - q) < kl + 2 || memcmp(q + 1, keys[k], kl) != 0 ||
			    q[kl + 1] != '\'')
				continue;
			for (const char *nl; (nl = memchr(counted, '\n', (size_t)(q - counted)));
			     counted = nl + 1)
				no++;
			counted = q;
			if (n == cap) {
				size_t c = cap ? cap * 2 : 16;
				struct match *nm = realloc(m, c * sizeof(*m));

				if (!nm) {
					free(m);
					return -ENOMEM;
				}
				m = nm;
				cap = c;
			}
			m[n++] = (struct match){ q, k, no };
		}
	}
	*ret = m;
	*ret_n = n;
	return 0;
}

int pasted_read_tf_build_info(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "tf-build-info" };
	const char *end = text ? text + strnlen(text, len) : NULL, *v;
	struct match *m = NULL;
	unsigned first = 0;
	size_t n = 0;
	int r;

	if (!text || !strstr(text, "'is_cuda_build'"))
		return 0;
	r = find_keys(text, end, &m, &n);
	if (r < 0)
		return r;
	for (unsigned k = 0; keys[k]; k++) {
		size_t ql = strlen(keys[k]) + 2;
		const char *past = text; /* the next match starts here or later */

		for (size_t i = 0; i < n; i++) {
			if (m[i].key != k || m[i].p < past)
				continue;
			past = m[i].p + ql;
			if (!(v = value_at(m[i].p + ql)))
				continue;
			if (!first || m[i].no < first)
				first = m[i].no;
			read_value(&o, m[i].no, keys[k], m[i].p + ql, v);
		}
	}
	free(m);
	if (first)
		pasted_put(&o, first, "dict", BI ".form");
	return pasted_out_result(&o);
}
