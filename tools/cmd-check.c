// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv check`: the CI gate (docs/policy.md). Collects or loads a snapshot as doctor does,
 * runs the rules, judges the diagnosis against a policy file (gpuenv_policy_parse,
 * gpuenv_check_run) and writes the verdict to stdout (text or --json) and, on request, as
 * JUnit XML, SARIF 2.1.0, a Markdown job summary and GitHub Actions annotations.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpuenv.h"

#define POLICY_FILE_MAX ((size_t)1 << 20)
#define MAX_HOSTS	64

static void check_help(void)
{
	printf("Usage: gpuenv check [OPTIONS]\n\n"
	       "Judges this machine (or --sysroot, --image, --from) against a policy and exits\n"
	       "with the verdict: the clauses of the policy file (GPUs, driver, CUDA versions,\n"
	       "frameworks, architecture coverage, waivers) and every rule of `gpuenv doctor`\n"
	       "(docs/policy.md).\n\n"
	       "Options:\n" COMMON_OPTIONS_HELP
	       "      --policy FILE     the policy (YAML); without one: fail on error findings\n"
	       "      --profile NAME    runtime (a GPU node) or build (a build host: no GPU or\n"
	       "                        driver judged); overrides the policy's profile\n"
	       "      --today DATE      judge waiver expiry as of DATE (YYYY-MM-DD; default:\n"
	       "                        today, UTC)\n"
	       "      --junit FILE      also write JUnit XML (a testcase per clause and per rule)\n"
	       "      --sarif FILE      also write SARIF 2.1.0 (a result per finding)\n"
	       "      --markdown FILE   also write a Markdown job summary\n"
	       "      --github          also print GitHub Actions annotations (::error ...)\n"
	       "      --host FILE       judge the machine or image as it would run on the target\n"
	       "                        machine FILE describes (its `gpuenv report --json`): its\n"
	       "                        GPUs and driver; repeat for a matrix (one verdict each)\n"
	       "      --target SPEC     the same for a machine described by a string:\n"
	       "                        \"gpu=H100,driver=550.54.15\" (gpu= a name, a PCI id\n"
	       "                        10de:2335 or a compute capability 9.0, repeatable;\n"
	       "                        driver= a version; brand= the GPUs' NVML brand, GeForce,\n"
	       "                        Tesla …, for NVIDIA_REQUIRE_CUDA; host-cuda-compat= the\n"
	       "                        CUDA of its cuda-compat package, 12.8); repeat, with --host\n"
	       "                        too, for a matrix: every output then holds every\n"
	       "                        target's verdict and the coverage of framework x target\n"
	       "                        (native, ptx-jit, …)\n"
	       "  -h, --help            this help\n\n"
	       "With --image or --wheel and a --target or --host, the GPU code of every shared\n"
	       "library of the image (*.so, *.so.N wherever its layers, or its unpacked\n"
	       "directory, put it) is judged on the target's GPUs with its driver: the clause\n"
	       "image.gpu_libraries (\"N GPU libraries judged on ...: M fail (...)\") and a\n"
	       "coverage row each.\n\n"
	       "With --redact every output (stdout, --junit, --sarif, --markdown, --github) hides\n"
	       "host names, serial numbers, UUIDs and home directories' user names, of every\n"
	       "target too.\n\n"
	       "Exit codes:\n"
	       "  0   pass (a matrix: the worst of its targets)\n"
	       "  1   failed by the policy (a clause, or a finding at its fail_on severity)\n"
	       "  2   error-severity findings the policy judges and does not waive\n"
	       "  64  usage error\n"
	       "  65  the policy file is not a valid policy (the message names the line)\n"
	       "  66  an input (policy, sysroot, snapshot, env file) cannot be read\n"
	       "  70  internal error\n"
	       "  74  an output could not be written\n");
}

static int load_policy(const char *path, struct gpuenv_policy **ret)
{
	char *data = NULL, *why = NULL;
	size_t len = 0;
	unsigned line = 0;
	int r;

	if (path) {
		r = common_read_file("check", "policy", path, POLICY_FILE_MAX, &data, &len);
		if (r)
			return r;
	}
	r = gpuenv_policy_parse(data ? data : "", len, ret, &line, &why);
	free(data);
	if (r == -ENOMEM || r == -EINVAL) {
		print_error("reading the policy", r);
		return EXIT_SOFTWARE;
	}
	if (r < 0) {
		/* the reason names the line; the file name makes it a compiler-style message */
		fprintf(stderr, "gpuenv check: %s: %s\n", path, why ? why : "not a policy");
		free(why);
		return EXIT_DATAERR;
	}
	return 0;
}

static int write_file(const char *path, const char *text, const char *what)
{
	FILE *f = fopen(path, "we");
	bool ok;

	if (!f) {
		fprintf(stderr, "gpuenv check: cannot write the %s to %s: %s\n", what, path,
			strerror(errno));
		return EXIT_IOERR;
	}
	ok = fputs(text, f) >= 0;
	ok &= fflush(f) == 0;
	ok &= fclose(f) == 0;
	if (!ok) {
		fprintf(stderr, "gpuenv check: cannot write the %s to %s: write error\n", what,
			path);
		return EXIT_IOERR;
	}
	return 0;
}

struct check_outputs {
	const char *junit, *sarif, *markdown;
	bool github;
};

/* The checks of one image (or tree) on its targets: one without --host/--target. */
struct judged {
	const struct gpuenv_check *const *chk;
	const char **target;
	size_t n;
};

static int render_to(const struct judged *j, enum gpuenv_format format, unsigned flags,
		     const char *path, const char *what)
{
	char *out = NULL;
	int r = gpuenv_check_render_matrix(j->chk, j->target, j->n, format, flags, &out);

	if (r < 0) {
		print_error(what, r);
		return EXIT_SOFTWARE;
	}
	if (path)
		r = write_file(path, out, what);
	else
		fputs(out, stdout);
	free(out);
	return r;
}

static int emit(const struct judged *j, const struct check_outputs *w, bool json, unsigned flags)
{
	int r = 0;

	if (w->junit)
		r = r ?: render_to(j, GPUENV_FORMAT_JUNIT, flags, w->junit, "JUnit report");
	if (w->sarif)
		r = r ?: render_to(j, GPUENV_FORMAT_SARIF, flags, w->sarif, "SARIF log");
	if (w->markdown)
		r = r ?: render_to(j, GPUENV_FORMAT_MARKDOWN, flags, w->markdown, "job summary");
	if (w->github)
		r = r ?: render_to(j, GPUENV_FORMAT_GITHUB, flags, NULL, "annotations");
	r = r ?: render_to(j, json ? GPUENV_FORMAT_JSON : GPUENV_FORMAT_TEXT, flags, NULL, "check");
	return r;
}

static bool today_utc(char buf[11])
{
	time_t now = time(NULL);
	struct tm tm;

	return gmtime_r(&now, &tm) && strftime(buf, 11, "%Y-%m-%d", &tm) == 10;
}

/* What one target keeps alive until the matrix is rendered: a check borrows its diagnosis,
 * which borrows its snapshot. */
struct judgement {
	struct gpuenv_ctx *hctx;
	struct gpuenv_snapshot *host, *on_host;
	struct gpuenv_doctor *doc;
	struct gpuenv_check *chk;
};

static void judgement_done(struct judgement *g)
{
	gpuenv_check_free(g->chk);
	gpuenv_doctor_free(g->doc);
	gpuenv_snapshot_unref(g->on_host);
	gpuenv_snapshot_unref(g->host);
	gpuenv_ctx_free(g->hctx);
	*g = (struct judgement){ 0 };
}

/* Diagnoses snap and judges it against the policy into g; 0 or the exit code. */
static int judge(struct gpuenv_snapshot *snap, const struct gpuenv_policy *policy,
		 const char *policy_path, const char *today, struct judgement *g)
{
	int r = gpuenv_doctor_run(snap, &g->doc);

	if (r >= 0)
		r = gpuenv_check_run(g->doc, policy, policy_path, today, &g->chk);
	if (r == -EINVAL) {
		fprintf(stderr, "gpuenv check: --today takes a date (YYYY-MM-DD), not '%s'\n",
			today);
		return EXIT_USAGE;
	}
	if (r < 0) {
		print_error("checking", r);
		return EXIT_SOFTWARE;
	}
	return 0;
}

/* A target of the matrix: a saved report (--host FILE) or a string (--target SPEC). */
struct target {
	bool is_spec;
	const char *arg;
};

/* The target's snapshot: loaded as --from loads one, or built from the string. */
static int open_target(const struct target *t, const struct common_opts *o,
		       struct gpuenv_ctx **ret_ctx, struct gpuenv_snapshot **ret)
{
	struct common_opts ho = { .color = -1, .from = t->arg, .stable = o->stable };
	char *why = NULL;
	int r;

	*ret_ctx = NULL;
	if (!t->is_spec)
		return common_open(&ho, ret_ctx, ret);
	r = gpuenv_check_target(t->arg, ret, &why);
	if (r < 0) {
		fprintf(stderr, "gpuenv check: --target '%s': %s\n", t->arg,
			why ? why : strerror(-r));
		free(why);
		return r == -ENOMEM ? EXIT_SOFTWARE : EXIT_USAGE;
	}
	return 0;
}

/* The snapshot as it would run on the target machine, judged into g. */
static int judge_on_host(struct gpuenv_snapshot *snap, const struct target *t,
			 const struct gpuenv_policy *policy, const char *policy_path,
			 const char *today, const struct common_opts *o, struct judgement *g)
{
	int r = open_target(t, o, &g->hctx, &g->host);

	if (r)
		return r;
	r = gpuenv_snapshot_with_host(snap, g->host, &g->on_host);
	if (r < 0) {
		fprintf(stderr, "gpuenv check: %s %s: %s\n", t->is_spec ? "--target" : "--host",
			t->arg, strerror(-r));
		return r == -ENOMEM ? EXIT_SOFTWARE : EXIT_INPUT;
	}
	return judge(g->on_host, policy, policy_path, today, g);
}

/* --redact: each check hides what any machine of the matrix would give away (a policy or a
 * target's name can quote another target's host name): the image's, every target's own
 * report and every merged snapshot. */
static int redact_matrix(struct judgement *g, size_t n, struct gpuenv_snapshot *snap)
{
	for (size_t i = 0; i < n; i++) {
		int r = g[i].chk ? gpuenv_check_redact_snapshot(g[i].chk, snap) : 0;

		for (size_t k = 0; g[i].chk && r == 0 && k < n; k++) {
			if (g[k].host)
				r = gpuenv_check_redact_snapshot(g[i].chk, g[k].host);
			if (r == 0 && g[k].on_host)
				r = gpuenv_check_redact_snapshot(g[i].chk, g[k].on_host);
		}
		if (r < 0) {
			print_error("checking", r);
			return r;
		}
	}
	return 0;
}

/* Judges snap on every target (or as it is, without one), renders them as one document each
 * and returns the exit code: the worst verdict, or the worst error (66 an unreadable target:
 * the other targets are still judged and shown). */
static int judge_all(struct gpuenv_snapshot *snap, const struct target *hosts, size_t n_hosts,
		     const struct gpuenv_policy *policy, const char *policy_path, const char *today,
		     const struct check_outputs *w, const struct common_opts *o)
{
	size_t n = n_hosts ? n_hosts : 1;
	struct judgement *g = calloc(n, sizeof(*g));
	const struct gpuenv_check **chk = calloc(n, sizeof(*chk));
	const char **names = calloc(n, sizeof(*names));
	struct judged j = { chk, n_hosts ? names : NULL, 0 };
	int worst = 0;

	if (!g || !chk || !names) {
		free(g);
		free(chk);
		free(names);
		print_error("checking", -ENOMEM);
		return EXIT_SOFTWARE;
	}
	for (size_t i = 0; i < n; i++) {
		int r = n_hosts ? judge_on_host(snap, &hosts[i], policy, policy_path, today, o,
						&g[i])
				: judge(snap, policy, policy_path, today, &g[i]);

		if (r) {
			worst = r > worst ? r : worst;
			continue;
		}
		chk[j.n] = g[i].chk;
		names[j.n++] = n_hosts ? hosts[i].arg : NULL;
	}
	if (o->redact && redact_matrix(g, n, snap) < 0) {
		worst = EXIT_SOFTWARE;
		j.n = 0;
	}
	if (j.n) {
		int r = emit(&j, w, o->json,
			     common_render_flags(o, stdout) & ~(unsigned)GPUENV_RENDER_COLOR);

		for (size_t i = 0; r == 0 && i < j.n; i++)
			if ((int)gpuenv_check_get_result(chk[i]) > worst)
				worst = (int)gpuenv_check_get_result(chk[i]);
		if (r)
			worst = r;
	}
	for (size_t i = 0; i < n; i++)
		judgement_done(&g[i]);
	free(g);
	free(chk);
	free(names);
	return worst;
}

int cmd_check(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		COMMON_LONGOPTS,
		{ "policy", required_argument, NULL, 0x300 },
		{ "profile", required_argument, NULL, 0x301 },
		{ "today", required_argument, NULL, 0x302 },
		{ "junit", required_argument, NULL, 0x303 },
		{ "sarif", required_argument, NULL, 0x304 },
		{ "markdown", required_argument, NULL, 0x305 },
		{ "github", no_argument, NULL, 0x306 },
		{ "host", required_argument, NULL, 0x307 },
		{ "target", required_argument, NULL, 0x308 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct common_opts o = { .color = -1 };
	struct check_outputs w = { 0 };
	const char *policy_path = NULL, *profile = NULL, *today = NULL;
	struct target hosts[MAX_HOSTS];
	size_t n_hosts = 0;
	char today_buf[11];
	struct gpuenv_policy *policy = NULL;
	struct gpuenv_ctx *ctx;
	struct gpuenv_snapshot *snap;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_OPTSTRING "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			check_help();
			return EXIT_HEALTHY;
		case 0x300:
			policy_path = optarg;
			continue;
		case 0x301:
			profile = optarg;
			continue;
		case 0x302:
			today = optarg;
			continue;
		case 0x303:
			w.junit = optarg;
			continue;
		case 0x304:
			w.sarif = optarg;
			continue;
		case 0x305:
			w.markdown = optarg;
			continue;
		case 0x306:
			w.github = true;
			continue;
		case 0x307:
		case 0x308:
			if (n_hosts == MAX_HOSTS) {
				fprintf(stderr, "gpuenv check: at most %d --host and --target\n",
					MAX_HOSTS);
				return EXIT_USAGE;
			}
			hosts[n_hosts++] = (struct target){ c == 0x308, optarg };
			continue;
		}
		r = common_opts_handle(&o, c, optarg);
		if (r < 0)
			return -r;
		if (r == 0)
			return EXIT_USAGE;
	}
	if (!common_no_operands("check", argc, argv))
		return EXIT_USAGE;
	if (profile && strcmp(profile, "runtime") != 0 && strcmp(profile, "build") != 0) {
		fprintf(stderr, "gpuenv check: --profile takes runtime or build, not '%s'\n",
			profile);
		return EXIT_USAGE;
	}
	if (!today) {
		if (!today_utc(today_buf)) {
			fprintf(stderr, "gpuenv check: cannot tell today's date\n");
			return EXIT_SOFTWARE;
		}
		today = today_buf;
	}
	r = load_policy(policy_path, &policy);
	if (r)
		return r;
	if (profile)
		gpuenv_policy_set_profile(policy, profile);
	r = common_open(&o, &ctx, &snap);
	if (r) {
		gpuenv_policy_free(policy);
		return r;
	}
	/* the named binaries are read where the snapshot was collected; a --from snapshot holds
	 * no files, so they stay "could not tell" */
	if (!o.from && (r = gpuenv_policy_read_binaries(policy, ctx)) < 0) {
		print_error("reading the named binaries", r);
		gpuenv_snapshot_unref(snap);
		gpuenv_ctx_free(ctx);
		gpuenv_policy_free(policy);
		return EXIT_SOFTWARE;
	}
	r = judge_all(snap, hosts, n_hosts, policy, policy_path, today, &w, &o);
	gpuenv_snapshot_unref(snap);
	gpuenv_ctx_free(ctx);
	gpuenv_policy_free(policy);
	return r;
}
