// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpuenv: main and the command table (kmod tools/kmod.c). `gpuenv` with no command runs
 * `doctor`.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gpuenv.h"
#include "shared/macro.h"

static int cmd_help(int argc, char *argv[]);
static int cmd_version(int argc, char *argv[]);

static const struct gpuenv_cmd commands[] = {
	{ "doctor", cmd_doctor,
	  "what will fail, in which layer, why, how to fix and verify (default)" },
	{ "explain", cmd_explain,
	  "pasted errors and command output judged by the same rules: explain [FILE|-]" },
	{ "report", cmd_report, "the four-layer inventory of this machine (or --sysroot/--from)" },
	{ "facts", cmd_facts,
	  "look up the knowledge base: facts cuda|driver|gpu|xid|cudnn|torch|rocm|tensorflow KEY" },
	{ "check", cmd_check,
	  "judge against a policy, for CI: exit code, JUnit, SARIF, annotations" },
	{ "capture", cmd_capture,
	  "keep what the probes read, with the snapshot, as a .tar.zst to replay" },
	{ "diff", cmd_diff,
	  "what changed between two snapshots, layer by layer, and their findings" },
	{ "fleet", cmd_fleet,
	  "many machines' snapshots: majority values, deviating machines, findings" },
	{ "labels", cmd_labels, "Kubernetes node labels (Node Feature Discovery features.d)" },
	{ "health", cmd_health,
	  "a node health check: ok or the root cause; --slurm drains/resumes" },
	{ "scan", cmd_scan, "GPU targets in binaries/wheels, and whether a GPU can run them" },
	{ "exporter", cmd_exporter,
	  "serve DCGM-compatible GPU metrics and the diagnosis to Prometheus (or --once)" },
	{ "version", cmd_version, "print the version" },
	{ "help", cmd_help, "this list; `gpuenv COMMAND --help` for a command's options" },
};

#define DEFAULT_COMMAND "doctor"

static int cmd_help(int argc, char *argv[])
{
	printf("Usage: gpuenv [COMMAND] [OPTIONS]\n\n"
	       "Tells whether this machine's GPU stack (hardware, driver, runtime, framework,\n"
	       "container) will work, and if not which layer is broken and how to fix it.\n\n"
	       "Commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		printf("  %-10s %s\n", commands[i].name, commands[i].help);
	printf("\nWithout a command, gpuenv runs `%s`.\n\n"
	       "Exit codes:\n"
	       "  0   healthy (no error-severity finding)\n"
	       "  1   warnings only, with doctor --strict; check: failed by the policy\n"
	       "  2   errors found\n"
	       "  3   could not evaluate (PCI bus unreadable, no driver or toolkit found)\n"
	       "  64  usage error\n"
	       "  65  explain: the input is not text, or over 64 MiB; check: not a valid policy\n"
	       "  66  an input (sysroot, snapshot, env file) cannot be read\n"
	       "  70  internal error\n"
	       "  74  the output could not be written\n",
	       DEFAULT_COMMAND);
	return EXIT_HEALTHY;
}

/* `gpuenv version [--json]` (also `gpuenv --version`): the version is our own build's string,
 * so it needs no escaping. */
static int cmd_version(int argc, char *argv[])
{
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf("Usage: gpuenv version [--json]\n\n"
			       "Prints gpuenv's version.\n\n"
			       "Options:\n"
			       "      --json            JSON: name, version, major, minor, micro\n"
			       "  -h, --help            this help\n");
			return EXIT_HEALTHY;
		}
		json |= strcmp(argv[i], "--json") == 0;
	}
	if (json)
		printf("{\"name\": \"gpuenv\", \"version\": \"%s\", \"major\": %d, \"minor\": %d, "
		       "\"micro\": %d}\n",
		       gpuenv_version(), GPUENV_VERSION_MAJOR, GPUENV_VERSION_MINOR,
		       GPUENV_VERSION_MICRO);
	else
		printf("gpuenv %s\n", gpuenv_version());
	return EXIT_HEALTHY;
}

/*
 * Output that could not be written is an error, not a pass (`report --json > /dev/full`
 * exited 0 with nothing written): a write error seen by stdio while printing, or by the final
 * flush and close (as gnulib's close_stdout does), makes the exit status 74 (EX_IOERR).
 */
static int close_stdout(int rc)
{
	bool failed = ferror(stdout);
	int err = 0;

	if (fflush(stdout) != 0) {
		failed = true;
		err = errno;
	}
	if (fclose(stdout) != 0 && !failed) {
		failed = true;
		err = errno;
	}
	if (!failed)
		return rc;
	if (err)
		fprintf(stderr, "gpuenv: writing the output: %s\n", strerror(err));
	else
		fprintf(stderr, "gpuenv: writing the output: write error\n");
	return EXIT_IOERR;
}

int main(int argc, char *argv[])
{
	const char *name = DEFAULT_COMMAND;

	if (argc >= 2 && argv[1][0] != '-') {
		name = argv[1];
		argc--;
		argv++;
	} else if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		return close_stdout(cmd_help(argc, argv));
	} else if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		return close_stdout(cmd_version(argc, argv));
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return close_stdout(commands[i].run(argc, argv));
	fprintf(stderr, "gpuenv: unknown command '%s'; see `gpuenv help`\n", name);
	return EXIT_USAGE;
}
