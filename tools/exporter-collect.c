// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv exporter`'s collection: a GPU sample (GPUENV_CTX_GPU_SAMPLE: the hostname and NVML
 * in its sandboxed child under the --vendor-timeout deadline; a child kept alive between
 * samples, GPUENV_CTX_VENDOR_KEEP, unless --nvml-child per-sample) and a full diagnosis, each
 * rendered once into the Prometheus and OpenMetrics forms, and the exporter's own series
 * (sample times, durations, errors, staleness). A sample whose NVML child hung, crashed or
 * failed keeps the previous sample's GPU series on show, flagged stale, and counts an error;
 * a lost GPU counts one too.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/child.h"
#include "exporter.h"
#include "shared/step-hook.h"
#include "shared/strbuf.h"

/* A full diagnosis takes seconds; the vendor sessions in it have deadlines of their own. */
#define DIAGNOSIS_TIMEOUT_MS 600000u
#define DIAGNOSIS_MAX_OUTPUT (32u << 20) /* both renderings */
double exporter_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Renders both forms of an object; false when either fails. With --redact the series that
 * name users (process names, environment paths) are redacted as in every other output. */
static bool render_both(struct gpuenv_snapshot *s, struct gpuenv_doctor *d, bool redact,
			char *out[2])
{
	unsigned flags = redact ? GPUENV_RENDER_REDACT : 0;
	char *t[2] = { NULL, NULL };

	for (int om = 0; om < 2; om++) {
		enum gpuenv_format f = om ? GPUENV_FORMAT_OPENMETRICS : GPUENV_FORMAT_PROMETHEUS;

		if ((s ? gpuenv_snapshot_render(s, f, flags, &t[om])
		       : gpuenv_doctor_render(d, f, flags, &t[om])) < 0) {
			free(t[0]);
			return false;
		}
	}
	for (int om = 0; om < 2; om++) {
		free(out[om]);
		out[om] = t[om];
	}
	return true;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t k = write(fd, p, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

/* The sweep of the sample just taken, for the diagnosis that follows, in a memfd (it reaches
 * the diagnosis' keeper, exec'd, on a descriptor, and costs this process no heap while the
 * diagnosis runs). None where the sample called no NVML session (the diagnosis' own gate
 * then decides) or on failure: the diagnosis opens a session of its own. */
static void keep_sweep(struct exporter *ex, const struct gpuenv_snapshot *snap)
{
	char *text = NULL;
	int fd;

	if (ex->sweep_fd >= 0)
		close(ex->sweep_fd);
	ex->sweep_fd = -1;
	if (ex->diag_opts.from || ex->diag_opts.no_vendor ||
	    gpuenv_ctx_nvml_sweep(ex->sample_ctx, snap, &text) < 0)
		return;
	fd = memfd_create("gpuenv-nvml-sweep", MFD_CLOEXEC);
	if (fd >= 0 && write_all(fd, text, strlen(text)) == 0)
		ex->sweep_fd = fd;
	else if (fd >= 0)
		close(fd);
	free(text);
}

void exporter_sample(struct exporter *ex, bool for_diagnosis)
{
	struct gpuenv_snapshot *snap = NULL;
	double t0 = mono();
	struct gpuenv_nvml_health h = { 0 };
	bool session_ok = false;
	unsigned lost = 0;
	const char *stuck = h.stuck;

	if ((ex->sample_ctx || common_open_ctx(&ex->sample_opts, &ex->sample_ctx) == 0) &&
	    common_collect(&ex->sample_opts, ex->sample_ctx, &snap) == 0) {
		/* read from the snapshot's tree in place (gpuenv_snapshot_nvml_health) */
		gpuenv_snapshot_nvml_health(snap, &h);
		if (h.has_restarts)
			ex->st.nvml_restarts = h.restarts;
		session_ok = h.session_ok;
		lost = h.lost;
		/* said once when it starts: a restart is held back, not silently retried */
		if (stuck[0] && !ex->st.nvml_stuck[0])
			fprintf(stderr,
				"gpuenv exporter: the NVML child is stuck in uninterruptible sleep in "
				"the kernel (at %s): a driver call that does not return; no new "
				"child is started until it ends\n",
				stuck);
		snprintf(ex->st.nvml_stuck, sizeof(ex->st.nvml_stuck), "%s", stuck);
		if (for_diagnosis)
			keep_sweep(ex, snap);
		if (session_ok && !render_both(snap, NULL, ex->sample_opts.redact, ex->gpu_text))
			session_ok = false, ex->st.err_sample++;
		else if (!session_ok)
			ex->st.err_nvml_session++;
	} else {
		ex->st.err_sample++;
	}
	ex->st.err_gpu_lost += lost;
	ex->st.samples++;
	ex->st.sample_seconds = mono() - t0;
	ex->st.stale = !session_ok;
	if (session_ok)
		ex->st.sample_time = exporter_now();
	gpuenv_snapshot_unref(snap);
}

static void drop_program_pages(void)
{
	(void)exporter_drop_program_pages();
}

/* Collects, diagnoses and renders both forms into text (malloc'd); false on failure. */
static bool diagnose_render(const struct exporter *ex, char *sweep, size_t sweep_len, char *text[2])
{
	struct gpuenv_ctx *ctx = NULL;
	struct gpuenv_snapshot *snap = NULL;
	struct gpuenv_doctor *d = NULL;
	bool ok = common_open_ctx(&ex->diag_opts, &ctx) == 0;

	/* The samples' sweep rather than an NVML session of its own (its tree's start-up was the
	 * diagnosis' height; docs/exporter.md, Load): the same facts with the same states. */
	ok = ok && (!sweep || gpuenv_ctx_set_nvml_sweep(ctx, sweep, sweep_len) == 0);
	free(sweep);
	/* Between one data source and the next, and between one layer's rules and the next's
	 * (probe.c, rules-engine.c), the code pages the one before ran go too: the collection's
	 * height (3.3 MiB at its end) and the rules' (3.8-4.2 MiB, every layer's checks and facts
	 * resident at once, each fault mapping the 64 KiB around it) were this process's, and so
	 * the diagnosis' (docs/exporter.md, Load). Only here: gpuenv doctor runs without it.
	 * gpuenv's own pages only: each step runs libc's common code (malloc, the string
	 * functions) again, and dropping it there made each step fault it back, the most of
	 * what the drops cost the diagnosis' length (docs/exporter.md, Load, the fifth round);
	 * before each vendor session everything goes (child_settled()). */
	step_hook_set(drop_program_pages);
	ok = ok && common_collect(&ex->diag_opts, ctx, &snap) == 0;
	step_hook_set(NULL);

	/* Between the collection, the rules and the rendering, the code pages the step before
	 * ran go (exporter-pages.c): each step's are resident in turn, not all three at once
	 * (the diagnosis child's height was the collection's code beside the rules'). */
	(void)exporter_drop_startup_pages();
	/* and the heap the step before freed (the folds' trees, the files' buffers): the rules'
	 * height was this process's, beside the samples' NVML tree and the serving process */
	malloc_trim(0);
	step_hook_set(drop_program_pages);
	ok = ok && gpuenv_doctor_run(snap, &d) == 0;
	step_hook_set(NULL);
	(void)exporter_drop_startup_pages();
	malloc_trim(0);
	ok = ok && render_both(NULL, d, ex->diag_opts.redact, text);

	gpuenv_doctor_free(d);
	gpuenv_snapshot_unref(snap);
	gpuenv_ctx_free(ctx);
	return ok;
}

/* The sweep the collecting process handed over (its descriptor, from offset 0), NUL-ended;
 * NULL: none, or it could not be read (the diagnosis then opens a session of its own). */
static char *read_sweep(int fd, size_t *ret_len)
{
	struct stat st;
	char *buf;
	size_t len = 0;

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= 0 || st.st_size > (32 << 20))
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	while (buf && len < (size_t)st.st_size) {
		ssize_t k = pread(fd, buf + len, (size_t)st.st_size - len, (off_t)len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			free(buf);
			return NULL;
		}
		len += (size_t)k;
	}
	if (buf) {
		buf[len] = '\0';
		*ret_len = len;
	}
	return buf;
}

/* In the diagnosis child: writes the text form, a NUL, then the OpenMetrics form. */
static int diagnose_child(int fd, void *userdata)
{
	struct exporter *ex = userdata;
	char *text[2] = { NULL, NULL }, *sweep;
	size_t sweep_len = 0;
	bool ok;

	/* This fork's copies of the renderings on show (about 133 kB each of the GPU sample's)
	 * are not needed here, and each vendor session forked from here would count them
	 * resident again (a fork copies the page tables of anonymous memory). */
	for (int om = 0; om < 2; om++) {
		free(ex->gpu_text[om]);
		free(ex->diag_text[om]);
		ex->gpu_text[om] = ex->diag_text[om] = NULL;
	}
	sweep = read_sweep(ex->sweep_fd, &sweep_len);
	if (ex->sweep_fd >= 0)
		close(ex->sweep_fd);
	ex->sweep_fd = -1;
	malloc_trim(0);
	/* What start-up faulted in (exec'd: the loader's relocation, the command line's parsing;
	 * forked: the collecting process's sample) goes before the first vendor session starts,
	 * and the mappings are marked MADV_RANDOM (exporter-pages.c), so that a fault during the
	 * collection maps its page, not the large page-cache folio around it. */
	(void)exporter_drop_startup_pages();
	ok = diagnose_render(ex, sweep, sweep_len, text) &&
	     write_all(fd, text[0], strlen(text[0]) + 1) == 0 &&
	     write_all(fd, text[1], strlen(text[1])) == 0;

	free(text[0]);
	free(text[1]);
	return ok ? 0 : 1;
}

static const struct child_opts diagnosis_opts = {
	.timeout_ms = DIAGNOSIS_TIMEOUT_MS,
	.max_output = DIAGNOSIS_MAX_OUTPUT,
	.max_stderr = 64u << 10,
	/* nested vendor sessions read /proc by this PID space */
	.no_pid_namespace = true
};

/* The diagnosis' keeper and child, forked, or exec'd as gpuenv itself where
 * exporter_diagnosis_program() found it (its launcher is given the deadline). */
static int diagnosis_run(struct exporter *ex, struct child_result *r)
{
	child_exec_fn launcher = exporter_diagnosis_launcher();
	/* the keeper and the child keep the sweep's descriptor (the others are closed) */
	struct child_opts opts = diagnosis_opts;
	struct exporter_diagnosis_exec what = {
		.deadline_ms = child_now_ms() + diagnosis_opts.timeout_ms,
		.sweep_fd = ex->sweep_fd,
	};
	struct child_job *j;
	int err;

	opts.pass_fd = ex->sweep_fd > 0 ? ex->sweep_fd : 0;
	/* the sample's heap (its sweep's text too) goes back before this process waits */
	malloc_trim(0);
	if (!launcher)
		err = child_start_fn(diagnose_child, ex, &opts, &j);
	else /* the launcher's data is copied into the forked process with the stack */
		err = child_start_exec(launcher, &what, &opts, &j);
	if (err < 0)
		return err;
	/* This process only waits while the diagnosis runs: the pages the loop faulted back
	 * since its last publication go, for the diagnosis' whole length. */
	(void)exporter_drop_startup_pages();
	return child_collect(j, r);
}

_Noreturn void exporter_diagnosis_keeper(struct exporter *ex, pid_t parent, uint64_t deadline_ms)
{
	/* static: the child under the keeper reads it after the fork */
	static struct child_opts opts;

	opts = diagnosis_opts;
	opts.pass_fd = ex->sweep_fd > 0 ? ex->sweep_fd : 0;
	child_job_keeper_main((const int[CHILD_PROC_FDS]){ -1, 4, 5, 6 }, parent, diagnose_child,
			      ex, &opts, deadline_ms);
}

/* Runs the diagnosis in a child; its two renderings into text. */
static bool diagnose_in_child(struct exporter *ex, char *text[2])
{
	struct child_result r = { 0 };
	bool ok = false;

	fflush(stderr);
	if (diagnosis_run(ex, &r) == 0) {
		const char *sep = r.output ? memchr(r.output, '\0', r.output_len) : NULL;

		if (r.errout_len)
			fputs(r.errout, stderr);
		if (r.timed_out)
			fprintf(stderr,
				"gpuenv exporter: the diagnosis did not end within %u s: killed\n",
				diagnosis_opts.timeout_ms / 1000);
		ok = !r.timed_out && !r.truncated && r.exit_status == 0 && sep;
		if (ok) {
			text[0] = strdup(r.output);
			text[1] = strndup(sep + 1, r.output_len - (size_t)(sep + 1 - r.output));
			ok = text[0] && text[1];
		}
	}
	child_result_done(&r);
	/* the sweep was this diagnosis' only */
	if (ex->sweep_fd >= 0)
		close(ex->sweep_fd);
	ex->sweep_fd = -1;
	return ok;
}

/*
 * The diagnosis runs in a child process (core/child.h: under a deadline, its process tree
 * held and killed with it), and only its two renderings come back: the rules, the full
 * snapshot and the diagnosis never touch the serving process's memory, whose resident size
 * then stays that of the samples (the code pages and heap a diagnosis touches stayed
 * resident for the process's life; docs/exporter.md, Load). What it prints on stderr is
 * passed on. The collecting process has no thread of its own (the HTTP server runs in the
 * serving process, exporter-server.c), so this fork is a single-threaded process's.
 */
void exporter_diagnose(struct exporter *ex)
{
	char *text[2] = { NULL, NULL };
	double t0 = mono();
	bool ok = diagnose_in_child(ex, text);

	if (ok) {
		for (int om = 0; om < 2; om++) {
			free(ex->diag_text[om]);
			ex->diag_text[om] = text[om];
		}
	} else {
		free(text[0]);
		free(text[1]);
		ex->st.err_diagnosis++;
	}
	ex->st.diagnoses++;
	ex->st.diagnosis_seconds = mono() - t0;
	if (ok)
		ex->st.diagnosis_time = exporter_now();
}

static void family(struct strbuf *sb, bool om, const char *name, const char *type, const char *help)
{
	size_t len = strlen(name);

	/* OpenMetrics names a counter's family without its _total (out-metrics.h). */
	if (om && strcmp(type, "counter") == 0 && len > 6 && !strcmp(name + len - 6, "_total"))
		len -= 6;
	if (om && strcmp(type, "info") == 0)
		len -= 5;
	else if (!om && strcmp(type, "info") == 0)
		type = "gauge";
	strbuf_printf(sb, "# HELP %.*s %s\n# TYPE %.*s %s\n", (int)len, name, help, (int)len, name,
		      type);
}

/* The exporter's own series. Times as seconds with millisecond digits, written without
 * printf's locale-dependent %f. */
static void put_seconds(struct strbuf *sb, const char *series, double v)
{
	long long ms = (long long)((v < 0 ? -v : v) * 1000.0 + 0.5);

	strbuf_printf(sb, "%s %s%lld.%03lld\n", series, v < 0 ? "-" : "", ms / 1000, ms % 1000);
}

static void put_self(struct strbuf *sb, const struct exporter_stats *st, bool om)
{
	double now = exporter_now();

	family(sb, om, "gpuenv_exporter_build_info", "info", "The gpuenv exporter's version.");
	strbuf_printf(sb, "gpuenv_exporter_build_info{version=\"%s\"} 1\n", gpuenv_version());
	family(sb, om, "gpuenv_sample_timestamp_seconds", "gauge",
	       "Unix time of the last good GPU sample (0: none yet).");
	put_seconds(sb, "gpuenv_sample_timestamp_seconds", st->sample_time);
	family(sb, om, "gpuenv_snapshot_age_seconds", "gauge",
	       "Age of the GPU sample and of the diagnosis on show (-1: none yet).");
	put_seconds(sb, "gpuenv_snapshot_age_seconds{kind=\"sample\"}",
		    st->sample_time ? now - st->sample_time : -1);
	put_seconds(sb, "gpuenv_snapshot_age_seconds{kind=\"diagnosis\"}",
		    st->diagnosis_time ? now - st->diagnosis_time : -1);
	family(sb, om, "gpuenv_sample_stale", "gauge",
	       "1 when the last GPU sample failed (NVML hung, crashed or failed): the GPU series "
	       "are the previous sample's.");
	strbuf_printf(sb, "gpuenv_sample_stale %d\n", st->stale);
	family(sb, om, "gpuenv_collection_duration_seconds", "gauge",
	       "How long the last GPU sample and the last diagnosis took.");
	put_seconds(sb, "gpuenv_collection_duration_seconds{kind=\"sample\"}", st->sample_seconds);
	put_seconds(sb, "gpuenv_collection_duration_seconds{kind=\"diagnosis\"}",
		    st->diagnosis_seconds);
	family(sb, om, "gpuenv_collections_total", "counter", "GPU samples and diagnoses run.");
	strbuf_printf(sb, "gpuenv_collections_total{kind=\"sample\"} %llu\n",
		      (unsigned long long)st->samples);
	strbuf_printf(sb, "gpuenv_collections_total{kind=\"diagnosis\"} %llu\n",
		      (unsigned long long)st->diagnoses);
	family(sb, om, "gpuenv_collection_errors_total", "counter",
	       "Failed collections by kind: nvml_session (the NVML child hung, crashed or ended "
	       "early), gpu_lost (a GPU answered NVML_ERROR_GPU_IS_LOST), sample, diagnosis.");
	strbuf_printf(sb,
		      "gpuenv_collection_errors_total{kind=\"nvml_session\"} %llu\n"
		      "gpuenv_collection_errors_total{kind=\"gpu_lost\"} %llu\n"
		      "gpuenv_collection_errors_total{kind=\"sample\"} %llu\n"
		      "gpuenv_collection_errors_total{kind=\"diagnosis\"} %llu\n",
		      (unsigned long long)st->err_nvml_session,
		      (unsigned long long)st->err_gpu_lost, (unsigned long long)st->err_sample,
		      (unsigned long long)st->err_diagnosis);
	if (!st->nvml_long_lived)
		return;
	family(sb, om, "gpuenv_nvml_child_restarts_total", "counter",
	       "Restarts of the long-lived NVML child after it hung, died or wrote what the "
	       "protocol does not allow (each also counts an nvml_session error).");
	strbuf_printf(sb, "gpuenv_nvml_child_restarts_total %llu\n",
		      (unsigned long long)st->nvml_restarts);
	family(sb, om, "gpuenv_nvml_child_stuck", "gauge",
	       "1 while a task of the NVML child is in uninterruptible sleep (D state) in the "
	       "kernel function wchan: a hung driver call no signal ends; no new child is "
	       "started meanwhile.");
	/* wchan holds a kernel symbol's characters only (core/child-stuck.c) */
	strbuf_printf(sb, "gpuenv_nvml_child_stuck{wchan=\"%s\"} %d\n", st->nvml_stuck,
		      st->nvml_stuck[0] != '\0');
}

char *exporter_exposition(const struct exporter *ex, bool om)
{
	struct strbuf sb = STRBUF_INIT;
	char *ret = NULL;

	if (ex->gpu_text[om])
		strbuf_puts(&sb, ex->gpu_text[om]);
	if (ex->diag_text[om])
		strbuf_puts(&sb, ex->diag_text[om]);
	put_self(&sb, &ex->st, om);
	if (om)
		strbuf_puts(&sb, "# EOF\n");
	if (strbuf_steal(&sb, &ret) < 0)
		return NULL;
	return ret;
}

void exporter_done(struct exporter *ex)
{
	if (ex->sweep_fd >= 0)
		close(ex->sweep_fd);
	ex->sweep_fd = -1;
	gpuenv_ctx_free(ex->sample_ctx);
	ex->sample_ctx = NULL;
	for (int i = 0; i < 2; i++) {
		free(ex->gpu_text[i]);
		free(ex->diag_text[i]);
	}
}
