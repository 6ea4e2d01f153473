// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv doctor` (also `gpuenv` with no command): collect or load a snapshot, run the rule
 * table over it (gpuenv_doctor_run), print the diagnosis as text, JSON (docs/doctor-schema.md),
 * Markdown or a Mermaid flowchart, and exit with the verdict. `--list-rules` prints the rule
 * catalogue (docs/rules.md is its Markdown form).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpuenv.h"

static void doctor_help(void)
{
	printf("Usage: gpuenv [doctor] [OPTIONS]\n\n"
	       "Says what will fail on this machine's GPU stack, in which layer, why, how to fix\n"
	       "it and how to check the fix: hardware, driver, runtime, framework and container,\n"
	       "each with a mark (✓ ok, ⚠ warning, ✗ error, ? could not check, – nothing\n"
	       "installed), then the chain \"driver supports CUDA ≤ X · toolkit Y · framework "
	       "Z\".\n"
	       "A check whose inputs cannot be read says \"skipped: could not read …\".\n\n"
	       "Options:\n" COMMON_OPTIONS_HELP LAUNCH_OPTION_HELP
	       "      --markdown        Markdown to paste into an issue (combine with --redact)\n"
	       "      --mermaid         the diagnosis path as a Mermaid flowchart\n"
	       "      --strict          exit 1 when there are warnings (and no errors)\n"
	       "      --list-rules      print the rule catalogue (text, --json or --markdown)\n"
	       "  -h, --help            this help\n\n"
	       "Exit codes:\n"
	       "  0   no error-severity finding (warnings too, unless --strict)\n"
	       "  1   warnings only, with --strict\n"
	       "  2   errors found\n"
	       "  3   could not evaluate: PCI bus unreadable and no driver or toolkit found\n"
	       "  64  usage error\n"
	       "  66  an input (sysroot, snapshot, env file) cannot be read\n"
	       "  70  internal error\n"
	       "  74  the output could not be written\n");
}

int cmd_doctor(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		COMMON_LONGOPTS,
		{ "markdown", no_argument, NULL, 0x200 },
		{ "mermaid", no_argument, NULL, 0x201 },
		{ "strict", no_argument, NULL, 0x202 },
		{ "list-rules", no_argument, NULL, 0x203 },
		{ "launch", no_argument, NULL, COMMON_OPT_LAUNCH },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct common_opts o = { .color = -1 };
	enum gpuenv_format format = GPUENV_FORMAT_TEXT;
	bool strict = false, list = false, markdown = false, mermaid = false;
	struct gpuenv_ctx *ctx;
	struct gpuenv_snapshot *snap;
	struct gpuenv_doctor *doc = NULL;
	enum gpuenv_verdict verdict;
	char *out = NULL;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_OPTSTRING "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			doctor_help();
			return EXIT_HEALTHY;
		case 0x200:
			markdown = true;
			continue;
		case 0x201:
			mermaid = true;
			continue;
		case 0x202:
			strict = true;
			continue;
		case 0x203:
			list = true;
			continue;
		case COMMON_OPT_LAUNCH:
			o.ctx_flags |= GPUENV_CTX_LAUNCH;
			continue;
		}
		r = common_opts_handle(&o, c, optarg);
		if (r < 0)
			return -r;
		if (r == 0)
			return EXIT_USAGE;
	}
	if (!common_no_operands("doctor", argc, argv) || !common_launch_usable("doctor", &o))
		return EXIT_USAGE;
	if (o.json + markdown + mermaid > 1) {
		fprintf(stderr,
			"gpuenv doctor: --json, --markdown and --mermaid exclude each other\n");
		return EXIT_USAGE;
	}
	if (o.json)
		format = GPUENV_FORMAT_JSON;
	else if (markdown)
		format = GPUENV_FORMAT_MARKDOWN;
	else if (mermaid)
		format = GPUENV_FORMAT_MERMAID;
	if (list) {
		if (mermaid) {
			fprintf(stderr,
				"gpuenv doctor: --list-rules prints text, --json or --markdown\n");
			return EXIT_USAGE;
		}
		r = gpuenv_doctor_list_rules(format, 0, &out);
		if (r < 0) {
			print_error("listing the rules", r);
			return EXIT_SOFTWARE;
		}
		fputs(out, stdout);
		free(out);
		return EXIT_HEALTHY;
	}
	r = common_open(&o, &ctx, &snap);
	if (r)
		return r;
	r = gpuenv_doctor_run(snap, &doc);
	if (r >= 0)
		r = gpuenv_doctor_render(doc, format,
					 common_render_flags(&o, stdout) &
						 (format == GPUENV_FORMAT_TEXT
							  ? ~0u
							  : ~(unsigned)GPUENV_RENDER_COLOR),
					 &out);
	if (r < 0) {
		print_error("diagnosing", r);
		r = EXIT_SOFTWARE;
	} else {
		fputs(out, stdout);
		verdict = gpuenv_doctor_get_verdict(doc);
		r = verdict == GPUENV_VERDICT_WARNINGS && !strict ? EXIT_HEALTHY : (int)verdict;
	}
	free(out);
	gpuenv_doctor_free(doc);
	gpuenv_snapshot_unref(snap);
	gpuenv_ctx_free(ctx);
	return r;
}
