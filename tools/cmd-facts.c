// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv facts KIND KEY`: look up the knowledge base (src/facts/data/<table>.tsv, sourced from
 * NVIDIA CUDA release notes, driver lifecycle pages, cuda-gpus, pci.ids, Xid maps, cuDNN support
 * matrices, PyTorch build scripts, ROCm compatibility matrices, TensorFlow tested configs) through
 * gpuenv_facts_query().
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuenv.h"
#include "shared/macro.h"

static void facts_help(void)
{
	printf("Usage: gpuenv facts [--json] KIND KEY\n\n"
	       "Looks up the knowledge base; every value is printed with its source.\n\n"
	       "Kinds:\n"
	       "  cuda VERSION      minimum driver, minor-compat floor, compute capabilities, PTX "
	       "ISA\n"
	       "  driver VERSION    branch, CUDA it reports, EOL, oldest arch, toolkits it runs\n"
	       "  gpu NAME|PCIID    product, architecture, compute capability (\"RTX 4090\", "
	       "10de:2684)\n"
	       "  xid CODE          what an Xid error means and what to do\n"
	       "  cudnn VERSION     the CUDA versions each cuDNN package supports, minimum driver\n"
	       "  torch VERSION     a PyTorch wheel (\"2.4.0+cu124\"; no suffix = the PyPI "
	       "default):\n"
	       "                    arch list, PTX, minimum driver, Python, cuDNN\n"
	       "  rocm VERSION      gfx targets and products a ROCm release supports, kernel "
	       "driver\n"
	       "  tensorflow VERSION  Python, cuDNN and CUDA a TensorFlow release was tested "
	       "with\n\n"
	       "Options:\n"
	       "  -j, --json            JSON output\n"
	       "  -h, --help            this help\n\n"
	       "Exit codes: 0 found, 2 not in the knowledge base, 64 usage error.\n");
}

/* The kinds gpuenv_facts_query() takes, and how "not found" names a key of each. */
static const struct {
	const char *kind, *noun;
} kinds[] = {
	{ "cuda", "CUDA release" },
	{ "driver", "driver branch at or below" },
	{ "gpu", "GPU" },
	{ "xid", "Xid" },
	{ "cudnn", "cuDNN release" },
	{ "torch", "PyTorch wheel" },
	{ "rocm", "ROCm release" },
	{ "tensorflow", "TensorFlow release" },
};

int cmd_facts(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum gpuenv_format format = GPUENV_FORMAT_TEXT;
	const char *kind, *key, *noun = NULL;
	char *out = NULL;
	int c, r;

	while ((c = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		if (c == 'h') {
			facts_help();
			return EXIT_HEALTHY;
		}
		if (c == 'j') {
			format = GPUENV_FORMAT_JSON;
			continue;
		}
		return EXIT_USAGE;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "gpuenv facts: expected KIND KEY; see `gpuenv facts --help`\n");
		return EXIT_USAGE;
	}
	kind = argv[optind];
	key = argv[optind + 1];
	for (size_t i = 0; i < ARRAY_SIZE(kinds) && !noun; i++)
		if (strcmp(kind, kinds[i].kind) == 0)
			noun = kinds[i].noun;
	if (!noun) {
		fprintf(stderr,
			"gpuenv facts: unknown kind '%s' (cuda, driver, gpu, xid, cudnn, torch, "
			"rocm, tensorflow)\n",
			kind);
		return EXIT_USAGE;
	}
	r = gpuenv_facts_query(kind, key, format, 0, &out);
	if (r == -ENOENT) {
		fprintf(stderr, "gpuenv facts: no %s %s in the knowledge base\n", noun, key);
		return EXIT_ERRORS;
	}
	if (r == -EINVAL) {
		fprintf(stderr, "gpuenv facts: bad %s key '%s'\n", kind, key);
		return EXIT_USAGE;
	}
	if (r < 0) {
		print_error("facts", r);
		return EXIT_SOFTWARE;
	}
	fputs(out, stdout);
	if (format == GPUENV_FORMAT_JSON)
		fputc('\n', stdout);
	free(out);
	return EXIT_HEALTHY;
}
