// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv diff A B`: two snapshots (`gpuenv report --json` files) compared layer by layer,
 * with the findings that appeared or went away (gpuenv_diff_new(), docs/fleet.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuenv.h"

static void diff_help(void)
{
	printf("Usage: gpuenv diff [OPTIONS] A B\n\n"
	       "Compares two snapshots (`gpuenv report --json` files, \"-\" for stdin once):\n"
	       "the facts added, removed or changed, layer by layer, with both values, and the\n"
	       "findings that appeared or went away (the rules run on both). Keys that name the\n"
	       "machine (hostname, UUIDs, serials, bus ids) and readings (temperature, power,\n"
	       "load) are listed apart and are not differences.\n\n"
	       "Options:\n"
	       "  -j, --json            JSON output\n"
	       "      --markdown        Markdown tables to paste into an issue\n"
	       "  -h, --help            this help\n\n"
	       "Exit codes:\n"
	       "  0   the same stack (no fact drifted, no finding appeared or went away)\n"
	       "  1   differences\n"
	       "  64  usage error\n"
	       "  66  a snapshot cannot be read or is not one\n"
	       "  70  internal error\n"
	       "  74  the output could not be written\n");
}

int cmd_diff(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "markdown", no_argument, NULL, 0x200 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct gpuenv_ctx_opts opts = { .sz = sizeof(opts), .flags = GPUENV_CTX_NO_VENDOR };
	enum gpuenv_format format = GPUENV_FORMAT_TEXT;
	struct gpuenv_snapshot *snap[2] = { NULL, NULL };
	struct gpuenv_diff *d = NULL;
	struct gpuenv_ctx *ctx = NULL;
	bool json = false, markdown = false;
	char *out = NULL;
	int c, r;

	while ((c = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			diff_help();
			return EXIT_HEALTHY;
		case 'j':
			json = true;
			break;
		case 0x200:
			markdown = true;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "gpuenv diff: takes two snapshot files, A and B\n");
		return EXIT_USAGE;
	}
	if (json && markdown) {
		fprintf(stderr, "gpuenv diff: --json and --markdown exclude each other\n");
		return EXIT_USAGE;
	}
	if (strcmp(argv[optind], "-") == 0 && strcmp(argv[optind + 1], "-") == 0) {
		fprintf(stderr, "gpuenv diff: only one of A and B can be stdin\n");
		return EXIT_USAGE;
	}
	format = json ? GPUENV_FORMAT_JSON : markdown ? GPUENV_FORMAT_MARKDOWN : GPUENV_FORMAT_TEXT;
	r = common_ctx_new(&opts, &ctx);
	if (r < 0) {
		print_error("cannot set up", r);
		return EXIT_SOFTWARE;
	}
	for (int i = 0; i < 2 && r == 0; i++)
		r = common_load_snapshot(ctx, i ? "B" : "A", argv[optind + i], &snap[i]);
	if (r == 0) {
		r = gpuenv_diff_new(argv[optind], snap[0], argv[optind + 1], snap[1], &d);
		if (r >= 0)
			r = gpuenv_diff_render(d, format, 0, &out);
		if (r < 0) {
			print_error("comparing", r);
			r = EXIT_SOFTWARE;
		} else {
			fputs(out, stdout);
			r = gpuenv_diff_get_count(d) ? 1 : EXIT_HEALTHY;
		}
	}
	free(out);
	gpuenv_diff_free(d);
	gpuenv_snapshot_unref(snap[0]);
	gpuenv_snapshot_unref(snap[1]);
	gpuenv_ctx_free(ctx);
	return r;
}
