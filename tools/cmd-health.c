// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv health [--slurm [--dry-run] [--node NAME]]` (docs/fleet.md, "Slurm"): one line for a
 * node health checker. Without --slurm it prints `ok` or `gpuenv: <rule id>: <short>` (the root
 * cause of an error) for LBNL NHC (nhc/gpuenv.nhc). With --slurm it is Slurm's
 * HealthCheckProgram (slurm.conf(5)): on an error finding it drains the node with that reason,
 *   scontrol update NodeName=<node> State=DRAIN Reason="gpuenv: <rule id>: <short>"
 * and once healthy again it resumes the node only if the drain reason is one gpuenv set
 * (another admin's drain is left alone). scontrol is the caller's own, found on the PATH
 * gpuenv itself runs with (execvp): never one named by --sysroot or --env-file, whose machine
 * gpuenv judges without running anything from it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpuenv.h"

#define HEALTH_OPT_SLURM   0x300
#define HEALTH_OPT_DRY_RUN 0x301
#define HEALTH_OPT_NODE	   0x302
#define REASON_PREFIX	   "gpuenv: "
#define REASON_MAX	   120 /* bytes of the finding's message kept in the reason */
#define SCONTROL_TIMEOUT_S 20  /* Slurm kills a HealthCheckProgram after 60 s */
#define EXIT_UNAVAILABLE   69  /* scontrol missing or failing (EX_UNAVAILABLE) */

extern char **environ;

static void health_help(void)
{
	printf("Usage: gpuenv health [--slurm [--dry-run] [--node NAME]] [OPTIONS]\n\n"
	       "A node health check. Prints `ok`, or `gpuenv: <rule id>: <short>` naming the root\n"
	       "cause when an error-severity finding exists (LBNL NHC: nhc/gpuenv.nhc). With\n"
	       "--slurm (Slurm's HealthCheckProgram) it drains the node on an error finding with\n"
	       "that reason (scontrol update NodeName=NODE State=DRAIN Reason=\"…\") and resumes\n"
	       "it once healthy, only if gpuenv set the drain reason. scontrol is taken from\n"
	       "gpuenv's own PATH.\n\n"
	       "Options:\n" COMMON_OPTIONS_HELP
	       "      --slurm           drain or resume this node through scontrol\n"
	       "      --dry-run         print the scontrol command instead of running it\n"
	       "      --node NAME       the Slurm node name (default: $SLURMD_NODENAME, else the\n"
	       "                        short host name)\n"
	       "  -h, --help            this help\n\n"
	       "Exit codes:\n"
	       "  0   healthy (no error finding); with --slurm: resumed, or nothing to do\n"
	       "  2   an error finding; with --slurm: the node was drained (or would be)\n"
	       "  64  usage error\n"
	       "  66  an input (sysroot, snapshot, env file) cannot be read\n"
	       "  69  scontrol was not found or failed\n"
	       "  70  internal error\n");
}

/* The reason: the prefix, the rule id and the finding's message, cut short on a UTF-8
 * boundary, with control characters and double quotes (the --dry-run quoting) replaced. */
static void make_reason(char *buf, size_t cap, const char *rule, const char *message)
{
	size_t n = (size_t)snprintf(buf, cap, REASON_PREFIX "%s: ", rule);

	for (const char *p = message; *p && n + 4 < cap && p - message < REASON_MAX; p++) {
		unsigned char c = (unsigned char)*p;

		buf[n++] = c < 0x20 || c == 0x7f || c == '"' || c == '\\' || c == '$' || c == '`'
				   ? '\''
				   : (char)c;
	}
	while (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0x80)
		n--; /* a cut inside a UTF-8 sequence: drop its continuation bytes… */
	if (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0xc0)
		n--; /* …and its lead byte */
	buf[n] = '\0';
}

/* Runs scontrol ARGS… (execvp: gpuenv's PATH) with its stdout into out (cap bytes, NUL-ended)
 * under SCONTROL_TIMEOUT_S. 0, or -errno (-ENOENT: not found), or the exit status > 0. */
static int run_scontrol(const char *const argv[], char *out, size_t cap)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status = 0, r;
	size_t len = 0;
	pid_t pid;
	time_t deadline = time(NULL) + SCONTROL_TIMEOUT_S;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	/* posix_spawnp() takes char *const []: it does not write the strings */
	r = posix_spawnp(&pid, "scontrol", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		return -r;
	}
	for (;;) {
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
		char tmp[4096];
		ssize_t n;

		if (poll(&p, 1, 1000) < 0 && errno != EINTR)
			break;
		if (time(NULL) > deadline) {
			kill(pid, SIGKILL);
			break;
		}
		if (!(p.revents & (POLLIN | POLLHUP)))
			continue;
		n = read(pipefd[0], tmp, sizeof(tmp));
		if (n <= 0)
			break;
		if (out && len + 1 < cap) {
			size_t k = (size_t)n < cap - 1 - len ? (size_t)n : cap - 1 - len;

			memcpy(out + len, tmp, k);
			len += k;
		}
	}
	close(pipefd[0]);
	if (out)
		out[len] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* From `scontrol -o show node NAME`'s one line: is the node draining or drained with a reason
 * gpuenv set? (State=IDLE+DRAIN … Reason=gpuenv: … [root@2026-…]) */
static bool drained_by_gpuenv(const char *line)
{
	const char *state = strstr(line, " State="), *reason = strstr(line, " Reason=");

	if (!state || !reason)
		return false;
	state += 7;
	if (!memmem(state, strcspn(state, " \n"), "DRAIN", 5))
		return false;
	return strncmp(reason + 8, REASON_PREFIX, strlen(REASON_PREFIX)) == 0;
}

static int slurm(const char *node, const char *reason, bool dry_run)
{
	char arg_node[256], arg_reason[256], show[65536];
	int r;

	snprintf(arg_node, sizeof(arg_node), "NodeName=%s", node);
	if (reason) {
		const char *argv[] = { "scontrol",    "update",	  arg_node,
				       "State=DRAIN", arg_reason, NULL };

		snprintf(arg_reason, sizeof(arg_reason), "Reason=%s", reason);
		if (dry_run) {
			printf("scontrol update NodeName=%s State=DRAIN Reason=\"%s\"\n", node,
			       reason);
			return EXIT_ERRORS;
		}
		r = run_scontrol(argv, NULL, 0);
		if (r != 0) {
			fprintf(stderr, "gpuenv health: scontrol update %s State=DRAIN: %s\n",
				arg_node, r < 0 ? strerror(-r) : "failed");
			return EXIT_UNAVAILABLE;
		}
		printf("drained %s: %s\n", node, reason);
		return EXIT_ERRORS;
	}
	{
		const char *argv[] = { "scontrol", "-o", "show", "node", node, NULL };

		r = run_scontrol(argv, show, sizeof(show));
	}
	if (r != 0) {
		fprintf(stderr, "gpuenv health: scontrol -o show node %s: %s\n", node,
			r < 0 ? strerror(-r) : "failed");
		return EXIT_UNAVAILABLE;
	}
	if (!drained_by_gpuenv(show)) {
		printf("ok\n");
		return EXIT_HEALTHY;
	}
	if (dry_run) {
		printf("scontrol update NodeName=%s State=RESUME\n", node);
		return EXIT_HEALTHY;
	}
	{
		const char *argv[] = { "scontrol", "update", arg_node, "State=RESUME", NULL };

		r = run_scontrol(argv, NULL, 0);
	}
	if (r != 0) {
		fprintf(stderr, "gpuenv health: scontrol update %s State=RESUME: %s\n", arg_node,
			r < 0 ? strerror(-r) : "failed");
		return EXIT_UNAVAILABLE;
	}
	printf("resumed %s\n", node);
	return EXIT_HEALTHY;
}

struct health_opts {
	bool slurm, dry_run;
	const char *node;
};

/* --slurm, --dry-run, --node NAME */
static int health_opt(void *data, int c, const char *arg)
{
	struct health_opts *h = data;

	switch (c) {
	case HEALTH_OPT_SLURM:
		h->slurm = true;
		return 1;
	case HEALTH_OPT_DRY_RUN:
		h->dry_run = true;
		return 1;
	case HEALTH_OPT_NODE:
		h->node = arg;
		return 1;
	}
	return 0;
}

int cmd_health(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		COMMON_LONGOPTS,
		{ "slurm", no_argument, NULL, HEALTH_OPT_SLURM },
		{ "dry-run", no_argument, NULL, HEALTH_OPT_DRY_RUN },
		{ "node", required_argument, NULL, HEALTH_OPT_NODE },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct common_opts o = { .color = -1 };
	struct health_opts h = { 0 };
	char host[256], reason[256];
	struct gpuenv_ctx *ctx;
	struct gpuenv_snapshot *snap;
	struct gpuenv_doctor *doc = NULL;
	int r, cause = -1;

	r = common_getopt(argc, argv, "", longopts, &o, health_help, health_opt, &h);
	if (r >= 0)
		return r;
	if (!common_no_operands("health", argc, argv))
		return EXIT_USAGE;
	if ((h.dry_run || h.node) && !h.slurm) {
		fprintf(stderr, "gpuenv health: --dry-run and --node go with --slurm\n");
		return EXIT_USAGE;
	}
	if (!h.node)
		h.node = getenv("SLURMD_NODENAME");
	if (h.slurm && !h.node) {
		if (gethostname(host, sizeof(host)) < 0) {
			fprintf(stderr, "gpuenv health: no --node and no host name: %s\n",
				strerror(errno));
			return EXIT_USAGE;
		}
		host[sizeof(host) - 1] = '\0';
		host[strcspn(host, ".")] = '\0';
		h.node = host;
	}
	/* a node name is one scontrol argument: no blank, quote or '=' in it */
	if (h.slurm && (!*h.node || strpbrk(h.node, " \t\n\"'=\\$`"))) {
		fprintf(stderr, "gpuenv health: --node: not a Slurm node name\n");
		return EXIT_USAGE;
	}
	r = common_open(&o, &ctx, &snap);
	if (r)
		return r;
	r = gpuenv_doctor_run(snap, &doc);
	if (r < 0) {
		print_error("diagnosing", r);
		r = EXIT_SOFTWARE;
		goto out;
	}
	if (gpuenv_doctor_get_verdict(doc) == GPUENV_VERDICT_ERRORS) {
		enum gpuenv_severity sev = GPUENV_SEVERITY_INFO;
		int rc = gpuenv_doctor_get_root_cause(doc);

		/* the root cause when it is an error, else the first error */
		if (rc >= 0)
			gpuenv_doctor_get_finding(doc, (size_t)rc, NULL, &sev, NULL, NULL);
		cause = rc >= 0 && sev == GPUENV_SEVERITY_ERROR ? rc : -1;
		for (size_t i = 0; cause < 0 && i < gpuenv_doctor_get_finding_count(doc); i++) {
			gpuenv_doctor_get_finding(doc, i, NULL, &sev, NULL, NULL);
			if (sev == GPUENV_SEVERITY_ERROR)
				cause = (int)i;
		}
	}
	if (cause >= 0) {
		const char *rule, *message;

		gpuenv_doctor_get_finding(doc, (size_t)cause, &rule, NULL, NULL, &message);
		make_reason(reason, sizeof(reason), rule, message);
	}
	if (h.slurm) {
		r = slurm(h.node, cause >= 0 ? reason : NULL, h.dry_run);
	} else {
		puts(cause >= 0 ? reason : "ok");
		r = cause >= 0 ? EXIT_ERRORS : EXIT_HEALTHY;
	}
out:
	gpuenv_doctor_free(doc);
	gpuenv_snapshot_unref(snap);
	gpuenv_ctx_free(ctx);
	return r;
}
