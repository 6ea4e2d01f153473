// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of the CUDA check of torch.utils.cpp_extension as pasted (`gpuenv explain`): building
 * an extension (vllm, mmcv, flash-attn …) compares the release of the nvcc under CUDA_HOME
 * (`nvcc --version`'s "release X.Y") with torch.version.cuda and raises
 *
 *     The detected CUDA version (12.2) mismatches the version that was used to compile
 *     PyTorch (11.7). Please make sure to use the same CUDA versions.
 *
 * (torch/utils/cpp_extension.py, CUDA_MISMATCH_MESSAGE; its line break after "compile" is the
 * message's own, pip indents both lines). The first number is the toolkit's release
 * (runtime.cuda_toolkits.0.release), the second the CUDA torch was built with
 * (framework.python_envs.0.packages.torch.cuda), each read at the line that shows it; the
 * symptom itself is the errors reader's.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define DETECTED    "The detected CUDA version ("
#define COMPILED    "PyTorch ("
#define VERSION_MAX 16

/* The "X.Y" after `mark` in s, closed by ')': digits and dots only; false otherwise. */
static bool version_after(const char *s, const char *mark, char *buf, size_t len)
{
	const char *p = strstr(s, mark);
	size_t n;

	if (!p)
		return false;
	p += strlen(mark);
	n = strspn(p, "0123456789.");
	if (n == 0 || n >= len || p[n] != ')' || p[0] == '.')
		return false;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return true;
}

int pasted_read_torch_ext(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "torch-ext" };
	struct pasted_lines it;
	bool want_torch = false; /* the line before held the first half of the message */
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		const char *s = pasted_strip(line), *rest;
		char v[VERSION_MAX];

		if (want_torch && strncmp(s, COMPILED, strlen(COMPILED)) == 0 &&
		    version_after(s, COMPILED, v, sizeof(v)))
			pasted_put(&o, it.no, v, "framework.python_envs.0.packages.torch.cuda");
		want_torch = false;
		if (!version_after(s, DETECTED, v, sizeof(v)) ||
		    !(rest = strstr(s, "mismatches the version that was used to compile")))
			continue;
		pasted_put(&o, it.no, v, "runtime.cuda_toolkits.0.release");
		/* the whole message on one line (a log that joined it), else its second line */
		if (version_after(rest, COMPILED, v, sizeof(v)))
			pasted_put(&o, it.no, v, "framework.python_envs.0.packages.torch.cuda");
		else
			want_torch = true;
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
