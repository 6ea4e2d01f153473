// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv report`: collect (or load with --from) the snapshot and print it as the layered
 * tree, or with --json as the document docs/snapshot-schema.md defines.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpuenv.h"

static void report_help(void)
{
	printf("Usage: gpuenv report [OPTIONS]\n\n"
	       "Prints what gpuenv sees, layer by layer from the bottom (host, hardware, driver,\n"
	       "runtime, framework, container), each fact with its state and source.\n\n"
	       "Options:\n" COMMON_OPTIONS_HELP LAUNCH_OPTION_HELP
	       "  -h, --help            this help\n");
}

/* --launch */
static int report_opt(void *data, int c, const char *arg)
{
	struct common_opts *o = data;

	(void)arg;
	if (c != COMMON_OPT_LAUNCH)
		return 0;
	o->ctx_flags |= GPUENV_CTX_LAUNCH;
	return 1;
}

int cmd_report(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		COMMON_LONGOPTS,
		{ "launch", no_argument, NULL, COMMON_OPT_LAUNCH },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct common_opts o = { .color = -1 };
	struct gpuenv_ctx *ctx;
	struct gpuenv_snapshot *snap;
	char *out = NULL;
	int r;

	r = common_getopt(argc, argv, "", longopts, &o, report_help, report_opt, &o);
	if (r >= 0)
		return r;
	if (!common_no_operands("report", argc, argv) || !common_launch_usable("report", &o))
		return EXIT_USAGE;
	r = common_open(&o, &ctx, &snap);
	if (r)
		return r;
	if (o.json)
		r = gpuenv_snapshot_render(snap, GPUENV_FORMAT_JSON,
					   common_render_flags(&o, stdout), &out);
	else
		r = gpuenv_snapshot_render(snap, GPUENV_FORMAT_TEXT,
					   common_render_flags(&o, stdout), &out);
	if (r < 0) {
		print_error("rendering", r);
		r = EXIT_SOFTWARE;
	} else {
		fputs(out, stdout);
		if (o.json)
			fputc('\n', stdout);
		r = EXIT_HEALTHY;
	}
	free(out);
	gpuenv_snapshot_unref(snap);
	gpuenv_ctx_free(ctx);
	return r;
}
