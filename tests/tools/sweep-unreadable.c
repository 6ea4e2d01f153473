// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The unreadable-path sweep of one fixture (issue 13.4; driven by test-sweep-unreadable.py,
 * which reads each scenario.ini and runs this program once per fixture).
 *
 * It collects the fixture's snapshot once with the path trace on (the reads `gpuenv report
 * --trace-paths` lists) and diagnoses it: the baseline B. Then, for every path a probe read
 * successfully, it collects and diagnoses again with that one path failing with EACCES (the
 * ctx's inject_errors, as a fixture's `inject_errors = PATH=EACCES`): the run I. Paths the
 * probes never read, or read as absent, are not swept. In process rather than through the
 * CLI: one run costs a few milliseconds instead of the ~100 ms a sanitized CLI start takes,
 * which keeps the whole sweep (~1 400 runs) inside a CI minute.
 *
 * A verdict IMPROVES, and the sweep fails, when making a path unreadable
 *   1. turns a layer ✓ (ok or info) that was not ✓ in B; or
 *   2. leaves a rule with fewer findings of severity >= warning (or of severity error) than
 *      in B, unless I explains it: a skip record of that rule that B lacks ("skipped: could
 *      not read …"), or a fact in the rule's layer that could not be read (unreadable,
 *      malformed, error; layers[].unreadable[]) and that B lacks; or
 *   3. records a fact whose source is the path as `absent`: a fact that could not be read is
 *      `unreadable`, never `absent`; or
 *   4. changes the snapshot where the path is a directory, with no fact recording that it
 *      could not be listed (a failure state whose source is the directory or a path in it):
 *      a listing that failed is "could not tell", never "none found".
 * An unreadable path may legitimately make things worse (new findings, 2 → 3 "could not
 * evaluate", skip records), never better without saying why.
 *
 * Usage: sweep-unreadable --sysroot DIR [--env-file F] [--inject SPEC] [--nvml-lib L]
 *        [--cuda-lib L] [--opencl-lib L] [--amdsmi-lib L] [--ze-lib L] [--vendor-timeout MS]
 *        [--no-vendor] [--launch] [--verbose]
 * Exit 0 when nothing improved, 1 with one line per improvement, 2 on a usage or setup error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/ctx.h"
#include "core/root.h"
#include "gpuenv/gpuenv.h"
#include "rules/rules.h"
#include "shared/strbuf.h"
#include "shared/strv.h"
#include "snapshot/snapshot.h"
#include "testhooks/testhooks.h"

struct opts {
	struct gpuenv_ctx_opts ctx;
	const char *inject;
	bool verbose;
};

struct run {
	struct gpuenv_ctx *ctx;
	struct gpuenv_snapshot *snap;
	struct gpuenv_doctor *doc;
	const struct gpuenv_doctor *d;
};

static void run_done(struct run *r)
{
	gpuenv_doctor_free(r->doc);
	gpuenv_snapshot_unref(r->snap);
	gpuenv_ctx_free(r->ctx);
	*r = (struct run){ 0 };
}

static int run_once(const struct opts *o, const char *inject, unsigned flags, struct run *r)
{
	struct gpuenv_ctx_opts co = o->ctx;
	int err;

	*r = (struct run){ 0 };
	co.flags |= flags;
	err = gpuenv_ctx_new(&co, &r->ctx);
	if (err >= 0 && inject)
		err = testhooks_inject_errors(r->ctx, inject);
	if (err >= 0)
		err = gpuenv_snapshot_collect(r->ctx, &r->snap);
	if (err >= 0)
		err = gpuenv_doctor_run(r->snap, &r->doc);
	if (err < 0) {
		fprintf(stderr, "sweep: %s: %s\n", inject ? inject : "(baseline)", strerror(-err));
		run_done(r);
		return err;
	}
	r->d = r->doc;
	return 0;
}

static bool shows_ok(enum layer_status s)
{
	return s == LAYER_OK || s == LAYER_INFO;
}

static size_t findings_at_least(const struct gpuenv_doctor *d, const struct rule *rule,
				enum gpuenv_severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n_findings; i++)
		n += d->findings[i].rule == rule && d->findings[i].severity >= sev;
	return n;
}

/* Does i have a skip record of rule that b lacks? */
static bool new_skip(const struct gpuenv_doctor *b, const struct gpuenv_doctor *i,
		     const struct rule *rule)
{
	for (size_t k = 0; k < i->n_skips; k++) {
		const struct rule_skip *ks = &i->skips[k];
		bool seen = false;

		if (ks->rule != rule)
			continue;
		for (size_t j = 0; j < b->n_skips && !seen; j++)
			seen = b->skips[j].rule == rule &&
			       streq(b->skips[j].subject ?: "", ks->subject ?: "") &&
			       streq(b->skips[j].reason ?: "", ks->reason ?: "");
		if (!seen)
			return true;
	}
	return false;
}

/* Does i have a fact of layer l that could not be read and that b lacks? */
static bool new_problem(const struct gpuenv_doctor *b, const struct gpuenv_doctor *i,
			enum gpuenv_layer l)
{
	for (size_t k = 0; k < i->n_problems; k++) {
		const struct layer_problem *p = &i->problems[k];
		bool seen = false;

		if (p->layer != l)
			continue;
		for (size_t j = 0; j < b->n_problems && !seen; j++)
			seen = streq(b->problems[j].name ?: "", p->name ?: "") &&
			       streq(b->problems[j].source ?: "", p->source ?: "") &&
			       b->problems[j].state == p->state;
		if (!seen)
			return true;
	}
	return false;
}

/* Facts recorded as absent with the failing path as their source (rule 3). */
static void absent_at(const struct snap_node *n, const char *path, struct strbuf *key,
		      size_t *count, const char **first)
{
	size_t len = key->len;

	if (snap_kind(n) == SNAP_FACT) {
		if (snap_state(n) == FACT_ABSENT && streq(snap_source(n) ?: "", path) &&
		    (*count)++ == 0)
			*first = strdup(strbuf_str(key));
		return;
	}
	for (size_t i = 0; i < snap_count(n); i++) {
		const struct snap_node *ch = snap_at(n, i);

		if (snap_kind(n) == SNAP_ARRAY)
			strbuf_printf(key, "%s%zu", len ? "." : "", i);
		else
			strbuf_printf(key, "%s%s", len ? "." : "", snap_key(ch));
		absent_at(ch, path, key, count, first);
		if (!key->err) {
			key->len = len;
			key->buf[len] = '\0';
		}
	}
}

/* Does a fact of n that could not be read name path, or a path in it, as its source? */
static bool failure_at(const struct snap_node *n, const char *path)
{
	size_t len = strlen(path);

	if (snap_kind(n) == SNAP_FACT) {
		const char *src = snap_source(n) ?: "";

		return fact_is_failure(snap_state(n)) && strncmp(src, path, len) == 0 &&
		       (src[len] == '\0' || src[len] == '/');
	}
	for (size_t k = 0; k < snap_count(n); k++)
		if (failure_at(snap_at(n, k), path))
			return true;
	return false;
}

/* Rule 4: path is a directory of the root (looked at through base's root: a link resolves
 * inside it, and a link itself is no directory), and the listing's failure changed the
 * snapshot without a fact saying so. */
static bool unlisted_silently(const struct opts *o, struct gpuenv_ctx *base,
			      const struct gpuenv_doctor *b, const struct gpuenv_doctor *i,
			      const char *path)
{
	_cleanup_free_ char *jb = NULL, *ji = NULL;
	struct stat st;

	if (root_lstat(base->root, path, &st) < 0 || !S_ISDIR(st.st_mode))
		return false;
	if (snapshot_to_json(b->snap, SNAP_JSON_STABLE | SNAP_JSON_COMPACT, &jb) < 0 ||
	    snapshot_to_json(i->snap, SNAP_JSON_STABLE | SNAP_JSON_COMPACT, &ji) < 0)
		return false;
	if (streq(jb, ji) || failure_at(snapshot_root_const(i->snap), path))
		return false;
	if (o->verbose) {
		size_t at = 0;

		while (jb[at] && jb[at] == ji[at])
			at++;
		at = at > 160 ? at - 160 : 0;
		printf("%s: baseline …%.400s\n%s: unlisted …%.400s\n", path, jb + at, path,
		       ji + at);
	}
	return true;
}

/* Prints each improvement of i over b; returns how many. */
static unsigned compare(const struct opts *o, struct gpuenv_ctx *base,
			const struct gpuenv_doctor *b, const struct gpuenv_doctor *i,
			const char *path)
{
	static const enum gpuenv_severity sevs[] = { GPUENV_SEVERITY_WARNING,
						     GPUENV_SEVERITY_ERROR };
	struct strbuf key = STRBUF_INIT;
	const char *first = NULL;
	unsigned bad = 0;
	size_t n_absent = 0;

	for (int l = 0; l < RULE_LAYERS; l++)
		if (shows_ok(i->status[l]) && !shows_ok(b->status[l])) {
			printf("%s: layer %s turned %s (was %s)\n", path,
			       rule_layer_name((enum gpuenv_layer)l),
			       layer_status_name(i->status[l]), layer_status_name(b->status[l]));
			bad++;
		}
	for (size_t r = 0; r < rule_table_len; r++) {
		const struct rule *rule = &rule_table[r];

		for (size_t s = 0; s < ARRAY_SIZE(sevs); s++) {
			size_t nb = findings_at_least(b, rule, sevs[s]);
			size_t ni = findings_at_least(i, rule, sevs[s]);

			if (ni >= nb || new_skip(b, i, rule) || new_problem(b, i, rule->layer))
				continue;
			printf("%s: %s has %zu finding(s) of severity >= %s, %zu before, and no "
			       "new "
			       "skip or unreadable record says why\n",
			       path, rule->id, ni, rule_severity_name(sevs[s]), nb);
			bad++;
			break;
		}
	}
	absent_at(snapshot_root_const(i->snap), path, &key, &n_absent, &first);
	if (n_absent) {
		printf("%s: unreadable, but recorded as absent (%s%s)\n", path, first ?: "?",
		       n_absent > 1 ? ", …" : "");
		bad++;
	}
	if (unlisted_silently(o, base, b, i, path)) {
		printf("%s: a directory that could not be listed changed the facts, and no fact "
		       "records it\n",
		       path);
		bad++;
	}
	free((char *)first);
	strbuf_done(&key);
	return bad;
}

/* Under /sys, /proc and /dev, the same file of another GPU, PCI function, node or process
 * takes the same code path: its key has each run of hex digits that holds a decimal digit
 * as "N" ("/sys/bus/pci/devices/N:N:N.N/vendor"), and one path per key is swept (8 GPUs
 * cost one GPU's time). Elsewhere every path is its own key: cuda-12.4 and cuda-11.8 are
 * different toolkits. */
static char *path_key(const char *p)
{
	char *k = strdup(p), *w = k;

	if (!k || !(startswith(p, "/sys/") || startswith(p, "/proc/") || startswith(p, "/dev/")))
		return k;
	for (const char *r = p; *r;) {
		size_t n = strspn(r, "0123456789abcdef");

		if (n && strcspn(r, "0123456789") < n) {
			*w++ = 'N';
			r += n;
		} else if (n) {
			memcpy(w, r, n);
			w += n;
			r += n;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return k;
}

/* The paths of the baseline's trace that were read successfully, one per path_key(). */
static int read_paths(struct gpuenv_ctx *ctx, char ***ret)
{
	_cleanup_free_ char *trace = NULL;
	_cleanup_strv_free_ char **lines = NULL, **paths = NULL, **keys = NULL;
	int r = gpuenv_ctx_get_trace(ctx, &trace);

	if (r < 0)
		return r;
	r = strv_split(trace, "\n", &lines);
	if (r < 0)
		return r;
	STRV_FOREACH(l, lines) {
		const char *p;
		_cleanup_free_ char *key = NULL;

		if (!startswith(*l, "ok\t"))
			continue;
		p = *l + 3;
		key = path_key(p);
		if (!key)
			return -ENOMEM;
		/* The inject spec is "PATH=ERR,…": a comma would split it. */
		if (strchr(p, ',') || strv_contains(keys, key))
			continue;
		r = strv_push(&keys, key);
		if (r >= 0)
			r = strv_push(&paths, p);
		if (r < 0)
			return r;
	}
	*ret = TAKE_PTR(paths);
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "sysroot", required_argument, NULL, 's' },
		{ "env-file", required_argument, NULL, 'e' },
		{ "inject", required_argument, NULL, 'i' },
		{ "nvml-lib", required_argument, NULL, 'n' },
		{ "cuda-lib", required_argument, NULL, 'c' },
		{ "opencl-lib", required_argument, NULL, 'o' },
		{ "amdsmi-lib", required_argument, NULL, 'a' },
		{ "ze-lib", required_argument, NULL, 'z' },
		{ "vendor-timeout", required_argument, NULL, 't' },
		{ "no-vendor", no_argument, NULL, 'N' },
		{ "launch", no_argument, NULL, 'L' },
		{ "verbose", no_argument, NULL, 'v' },
		{},
	};
	int c;

	o->ctx.sz = sizeof(o->ctx);
	o->ctx.flags = GPUENV_CTX_STABLE;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) >= 0)
		switch (c) {
		case 's':
			o->ctx.sysroot = optarg;
			break;
		case 'e':
			o->ctx.env_file = optarg;
			break;
		case 'i':
			o->inject = optarg;
			break;
		case 'n':
			o->ctx.nvml_lib = optarg;
			break;
		case 'c':
			o->ctx.cuda_lib = optarg;
			break;
		case 'o':
			o->ctx.opencl_lib = optarg;
			break;
		case 'a':
			o->ctx.amdsmi_lib = optarg;
			break;
		case 'z':
			o->ctx.ze_lib = optarg;
			break;
		case 't':
			o->ctx.vendor_timeout_ms = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'N':
			o->ctx.flags |= GPUENV_CTX_NO_VENDOR;
			break;
		case 'L': /* doctor --launch (nvml-h100-launch-ok) */
			o->ctx.flags |= GPUENV_CTX_LAUNCH;
			break;
		case 'v':
			o->verbose = true;
			break;
		default:
			return -EINVAL;
		}
	return optind == argc && o->ctx.sysroot ? 0 : -EINVAL;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	_cleanup_strv_free_ char **paths = NULL;
	struct run base;
	unsigned bad = 0;
	size_t n = 0;
	struct timespec t0, t1;

	if (parse_args(argc, argv, &o) < 0) {
		fprintf(stderr, "usage: sweep-unreadable --sysroot DIR [--env-file F] [--inject "
				"SPEC] [--nvml-lib L] [--cuda-lib L] [--opencl-lib L] "
				"[--amdsmi-lib L] [--ze-lib L] [--vendor-timeout MS] [--no-vendor] "
				"[--launch] [--verbose]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (run_once(&o, o.inject, GPUENV_CTX_TRACE_PATHS, &base) < 0)
		return 2;
	if (read_paths(base.ctx, &paths) < 0) {
		fprintf(stderr, "sweep: cannot read the path trace\n");
		run_done(&base);
		return 2;
	}
	STRV_FOREACH(p, paths) {
		_cleanup_free_ char *spec = NULL;
		struct run r;

		if (asprintf(&spec, "%s%s%s=EACCES", o.inject ? o.inject : "", o.inject ? "," : "",
			     *p) < 0) {
			bad++;
			break;
		}
		if (run_once(&o, spec, 0, &r) < 0) {
			bad++;
			continue;
		}
		if (o.verbose)
			printf("%s: verdict %d, was %d\n", *p, r.d->verdict, base.d->verdict);
		bad += compare(&o, base.ctx, base.d, r.d, *p);
		run_done(&r);
		n++;
	}
	run_done(&base);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%zu paths made unreadable in turn, %u improvement(s), %.1f s\n", n, bad,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return bad ? 1 : 0;
}
