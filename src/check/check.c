// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv check`: a policy (docs/policy.md) judged against a diagnosis. Pure: it reads the
 * snapshot and the findings the doctor made and the parsed policy, nothing else. Every clause
 * that cannot be decided from what the snapshot shows fails with "could not tell": a gate
 * never passes on a fact it did not see.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "facts/coverage.h"
#include "formats/policy.h"
#include "rules/rules-internal.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/strbuf.h"
#include "shared/strv.h"

#define MAX_TARGETS 128

const char *check_status_name(enum check_status s)
{
	static const char *const n[] = { "pass", "fail", "skipped" };

	return s < ARRAY_SIZE(n) ? n[s] : "?";
}

const char *check_rule_state_name(enum check_rule_state s)
{
	static const char *const n[] = { "pass",	   "fail",   "waived", "below-threshold",
					 "not-in-profile", "not-run" };

	return s < ARRAY_SIZE(n) ? n[s] : "?";
}

/* Rules of the runtime and framework layers that judge the machine's driver or GPUs, not
 * what a build needs: a build host has neither, so they are not judged in the build profile.
 * test-check keeps every name a rule of the table. */
const char *const check_build_host_excluded[] = {
	"runtime.no-driver-for-toolkit",
	"runtime.toolkit-needs-newer-driver",
	"runtime.stub-libcuda",
	"runtime.cuda-compat-unsupported",
	"runtime.mig-device-selection",
	"framework.cpu-only-build",
	"framework.gpu-too-old-for-build",
	"framework.no-kernel-image",
	"framework.ptx-too-new-for-driver",
	"framework.ptx-jit-only",
	"framework.cuda-newer-than-driver",
	"framework.rocm-gfx-unsupported",
	NULL,
};

bool check_rule_judged(const struct gpuenv_check *c, const struct rule *r)
{
	/* A build host needs the toolkit and what the framework was built with; it has no GPU
	 * and no driver, so their layers (and the container's) are not judged there. */
	if (c->policy->profile != POLICY_PROFILE_BUILD)
		return true;
	if (r->layer != GPUENV_LAYER_RUNTIME && r->layer != GPUENV_LAYER_FRAMEWORK)
		return false;
	for (const char *const *x = check_build_host_excluded; *x; x++)
		if (streq(*x, r->id))
			return false;
	return true;
}

static int clause(struct gpuenv_check *c, const char *id, unsigned line, enum check_status st,
		  const char *fmt, ...) _printf_(5, 6);
static int clause(struct gpuenv_check *c, const char *id, unsigned line, enum check_status st,
		  const char *fmt, ...)
{
	struct check_clause *cl;
	va_list ap;
	char *msg;
	int n;

	cl = reallocarray(c->clauses, c->n_clauses + 1, sizeof(*cl));
	if (!cl)
		return c->err = -ENOMEM;
	c->clauses = cl;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return c->err = -ENOMEM;
	cl = &c->clauses[c->n_clauses];
	*cl = (struct check_clause){ .id = strdup(id), .line = line, .status = st, .message = msg };
	if (!cl->id) {
		free(msg);
		return c->err = -ENOMEM;
	}
	c->n_clauses++;
	return 0;
}

int check_add_clause_text(struct gpuenv_check *c, const char *id, unsigned line,
			  enum check_status st, const char *msg)
{
	return clause(c, id, line, st, "%s", msg);
}

static bool build_profile(const struct gpuenv_check *c)
{
	return c->policy->profile == POLICY_PROFILE_BUILD;
}

static bool any_clause_judged(const struct gpuenv_check *c)
{
	for (size_t i = 0; i < c->n_clauses; i++)
		if (c->clauses[i].status == CHECK_PASS || c->clauses[i].status == CHECK_FAIL)
			return true;
	return false;
}

static void check_gpus(struct gpuenv_check *c, const struct snap_node *root)
{
	const struct gpuenv_policy *p = c->policy;
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	size_t n = gpus_count(root, gpu_is_nvidia);
	char name[160], bad[512] = "";

	if (build_profile(c)) {
		if (p->has_gpu_count)
			clause(c, "gpus.count", p->line_gpu_count, CHECK_SKIP,
			       "not judged in the build profile");
		if (p->has_gpu_cc)
			clause(c, "gpus.min_compute_capability", p->line_gpu_cc, CHECK_SKIP,
			       "not judged in the build profile");
		if (p->gpu_model)
			clause(c, "gpus.model", p->line_gpu_model, CHECK_SKIP,
			       "not judged in the build profile");
		return;
	}
	if (p->has_gpu_count) {
		if (snap_state(gpus) != FACT_PRESENT && snap_kind(gpus) != SNAP_ARRAY)
			clause(c, "gpus.count", p->line_gpu_count, CHECK_FAIL,
			       "could not tell: the PCI bus was not read");
		else
			clause(c, "gpus.count", p->line_gpu_count,
			       n >= p->gpu_count ? CHECK_PASS : CHECK_FAIL,
			       "%zu NVIDIA GPU%s, at least %u required", n, n == 1 ? "" : "s",
			       p->gpu_count);
	}
	if (p->has_gpu_cc) {
		bool unknown = false, low = false;

		for (size_t i = 0; i < snap_count(gpus); i++) {
			const struct snap_node *g = snap_at(gpus, i), *cc_fact;
			unsigned ma, mi;
			size_t len = strlen(bad);

			if (!gpu_is_nvidia(g))
				continue;
			gpu_name(g, name, sizeof(name));
			if (!gpu_cc(root, g, &ma, &mi, &cc_fact)) {
				unknown = true;
				snprintf(bad + len, sizeof(bad) - len, "%s%s: unknown",
					 len ? "; " : "", name);
			} else if (ma < p->gpu_cc_major ||
				   (ma == p->gpu_cc_major && mi < p->gpu_cc_minor)) {
				low = true;
				snprintf(bad + len, sizeof(bad) - len, "%s%s: %u.%u",
					 len ? "; " : "", name, ma, mi);
			}
		}
		if (n == 0)
			clause(c, "gpus.min_compute_capability", p->line_gpu_cc, CHECK_FAIL,
			       "no NVIDIA GPU, %u.%u required", p->gpu_cc_major, p->gpu_cc_minor);
		else if (low || unknown)
			clause(c, "gpus.min_compute_capability", p->line_gpu_cc, CHECK_FAIL,
			       "%s%s, at least %u.%u required",
			       unknown && !low ? "could not tell: " : "", bad, p->gpu_cc_major,
			       p->gpu_cc_minor);
		else
			clause(c, "gpus.min_compute_capability", p->line_gpu_cc, CHECK_PASS,
			       "every NVIDIA GPU is at least %u.%u", p->gpu_cc_major,
			       p->gpu_cc_minor);
	}
	if (p->gpu_model) {
		bool miss = false;

		bad[0] = '\0';
		for (size_t i = 0; i < snap_count(gpus); i++) {
			const struct snap_node *g = snap_at(gpus, i);
			size_t len = strlen(bad);

			if (!gpu_is_nvidia(g))
				continue;
			gpu_name(g, name, sizeof(name));
			if (fnmatch(p->gpu_model, name, FNM_CASEFOLD) != 0) {
				miss = true;
				snprintf(bad + len, sizeof(bad) - len, "%s%s", len ? "; " : "",
					 name);
			}
		}
		if (n == 0)
			clause(c, "gpus.model", p->line_gpu_model, CHECK_FAIL,
			       "no NVIDIA GPU to match '%s'", p->gpu_model);
		else
			clause(c, "gpus.model", p->line_gpu_model, miss ? CHECK_FAIL : CHECK_PASS,
			       miss ? "%s does not match '%s'" : "%severy NVIDIA GPU matches '%s'",
			       bad, p->gpu_model);
	}
}

static void check_driver(struct gpuenv_check *c, const struct snap_node *root)
{
	const struct gpuenv_policy *p = c->policy;
	const struct snap_node *fact;
	const char *ver, *why = NULL;
	enum driver_state st;
	struct version v;

	if (!p->driver_version.text && !p->n_driver_branches)
		return;
	if (build_profile(c)) {
		if (p->driver_version.text)
			clause(c, "driver.version", p->driver_version.line, CHECK_SKIP,
			       "not judged in the build profile");
		if (p->n_driver_branches)
			clause(c, "driver.branches", p->line_driver_branches, CHECK_SKIP,
			       "not judged in the build profile");
		return;
	}
	st = nvidia_driver(root, &ver, &fact);
	if (st == DRIVER_NONE)
		why = "no NVIDIA driver is loaded";
	else if (st == DRIVER_ELSEWHERE)
		why = "could not tell: the driver belongs to the host, whose version was not read";
	else if (st != DRIVER_LOADED || !ver ||
		 version_parse_prefix(ver, &v, &(const char *){ 0 }) < 0)
		why = "could not tell: the driver version was not read";
	if (p->driver_version.text) {
		if (why)
			clause(c, "driver.version", p->driver_version.line, CHECK_FAIL, "%s", why);
		else
			clause(c, "driver.version", p->driver_version.line,
			       policy_constraint_matches(&p->driver_version, ver) > 0 ? CHECK_PASS
										      : CHECK_FAIL,
			       "driver %s, required %s", ver, p->driver_version.text);
	}
	if (p->n_driver_branches) {
		bool ok = false;

		for (size_t i = 0; !why && i < p->n_driver_branches; i++)
			ok |= v.part[0] == p->driver_branches[i];
		if (why)
			clause(c, "driver.branches", p->line_driver_branches, CHECK_FAIL, "%s",
			       why);
		else
			clause(c, "driver.branches", p->line_driver_branches,
			       ok ? CHECK_PASS : CHECK_FAIL, "driver %s is branch %u%s", ver,
			       v.part[0], ok ? ", an allowed branch" : ", not an allowed branch");
	}
}

/* The default toolkit (is_default), else the first one found. */
static const struct snap_node *default_toolkit(const struct snap_node *root)
{
	const struct snap_node *tks = snap_get(root, "runtime.cuda_toolkits");

	for (size_t i = 0; i < snap_count(tks); i++)
		if (snap_get_bool_default(snap_at(tks, i), "is_default", false))
			return snap_at(tks, i);
	return snap_at(tks, 0);
}

static void fact_why(const struct snap_node *f, const char *what, char *buf, size_t len)
{
	if (!f || snap_state(f) == FACT_ABSENT || snap_state(f) == FACT_UNPROBED)
		snprintf(buf, len, "no %s found", what);
	else
		snprintf(buf, len, "could not tell: %s is %s%s%s", what,
			 fact_state_to_string(snap_state(f)), snap_error(f) ? ": " : "",
			 snap_error(f) ?: "");
}

static void version_clause(struct gpuenv_check *c, const char *id,
			   const struct policy_constraint *k, const struct snap_node *fact,
			   const char *what)
{
	char why[256];
	const char *v = snap_str(fact);

	if (!k->text)
		return;
	if (!v || policy_constraint_matches(k, v) < 0) {
		fact_why(v ? NULL : fact, what, why, sizeof(why));
		clause(c, id, k->line, CHECK_FAIL, "%s, required %s",
		       v ? "could not tell: not a version" : why, k->text);
		return;
	}
	clause(c, id, k->line, policy_constraint_matches(k, v) > 0 ? CHECK_PASS : CHECK_FAIL,
	       "%s %s, required %s", what, v, k->text);
}

struct fw_list {
	char text[512];
	size_t n;
	struct gpuenv_check *c;
	const struct gpuenv_policy *p;
	char release[16]; /* the toolkit's major.minor, to compare with */
	bool mismatch;
	const struct snap_node *wheel; /* the first build's nvidia-cuda-runtime wheel */
};

static void fw_runtime_first(const struct fw_build *b, void *u)
{
	struct fw_list *l = u;

	if (!l->wheel)
		l->wheel = fw_runtime_wheel(b);
}

static void fw_cuda_collect(const struct fw_build *b, void *u)
{
	struct fw_list *l = u;
	char cuda[32];
	size_t len = strlen(l->text);

	if (!fw_cuda_version(b, cuda, sizeof(cuda), NULL))
		return;
	snprintf(l->text + len, sizeof(l->text) - len, "%s%s built for CUDA %s", len ? ", " : "",
		 b->label, cuda);
	/* a JAX plugin names only the major ("12"): it agrees with any 12.x */
	if (l->release[0] &&
	    !(strchr(cuda, '.') ? streq(cuda, l->release)
				: startswith(l->release, cuda) && l->release[strlen(cuda)] == '.'))
		l->mismatch = true;
	l->n++;
}

static void check_cuda(struct gpuenv_check *c, const struct snap_node *root)
{
	const struct gpuenv_policy *p = c->policy;
	const struct snap_node *tk = default_toolkit(root);
	const struct snap_node *cudart = snap_get(root, "runtime.libraries.libcudart.0.version");
	struct fw_list l = { .c = c, .p = p };

	version_clause(c, "cuda.toolkit", &p->cuda_toolkit, snap_child(tk, "version"),
		       "CUDA toolkit");
	if (!snap_present(cudart)) {
		/* no libcudart on the loader's path: the framework's own, from its pip wheel */
		struct fw_list first = { 0 };

		fw_foreach(root, fw_runtime_first, &first);
		if (first.wheel)
			cudart = snap_child(first.wheel, "version");
	}
	version_clause(c, "cuda.runtime", &p->cuda_runtime, cudart,
		       snap_present(cudart) && !snap_get(root, "runtime.libraries.libcudart.0")
			       ? "the framework's cudart wheel"
			       : "libcudart");
	if (!p->cuda_consistent)
		return;
	/* The seed script's check: the toolkit's version.json (its release), nvcc's own
	 * version string and the framework's CUDA must name one release. */
	{
		const char *rel = snap_get_str(tk, "release");
		const char *nvcc = snap_get_str(tk, "nvcc_version");
		size_t len;

		if (rel)
			snprintf(l.release, sizeof(l.release), "%s", rel);
		snprintf(l.text, sizeof(l.text), "%s%s%s", rel ? "toolkit " : "", rel ?: "",
			 rel ? " (" : "");
		len = strlen(l.text);
		if (rel)
			snprintf(l.text + len, sizeof(l.text) - len, "%s)",
				 snap_get_str(tk, "version_source") ?: "?");
		if (rel && nvcc) {
			char nv[16];
			unsigned ma, mi;

			if (cuda_major_minor(nvcc, &ma, &mi)) {
				snprintf(nv, sizeof(nv), "%u.%u", ma, mi);
				l.mismatch |= !streq(nv, rel);
			}
			len = strlen(l.text);
			snprintf(l.text + len, sizeof(l.text) - len, ", nvcc %s", nvcc);
		}
		l.n = rel ? 1 : 0;
		fw_foreach(root, fw_cuda_collect, &l);
		if (l.n == 0)
			clause(c, "cuda.consistent", p->line_cuda_consistent, CHECK_FAIL,
			       "no CUDA version found (no toolkit, no framework built for CUDA)");
		else
			clause(c, "cuda.consistent", p->line_cuda_consistent,
			       l.mismatch ? CHECK_FAIL : CHECK_PASS, "%s%s", l.text,
			       l.mismatch ? ": they disagree"
			       : l.n == 1 ? ": only one, nothing to disagree with"
					  : ": one release");
	}
}

static void check_frameworks(struct gpuenv_check *c, const struct snap_node *root)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");

	for (size_t k = 0; k < c->policy->n_frameworks; k++) {
		const struct policy_framework *f = &c->policy->frameworks[k];
		char id[160], found[512] = "";
		bool ok = false;

		snprintf(id, sizeof(id), "frameworks.%s", f->name);
		for (size_t i = 0; i < snap_count(envs); i++) {
			const struct snap_node *pkg =
				snap_child(snap_child(snap_at(envs, i), "packages"), f->name);
			const char *v =
				snap_get_str(pkg, "version") ?: snap_get_str(pkg, "dist_version");
			size_t len = strlen(found);

			if (!v)
				continue;
			ok |= policy_constraint_matches(&f->version, v) > 0;
			snprintf(found + len, sizeof(found) - len, "%s%s %s in %s", len ? ", " : "",
				 f->name, v, snap_get_str(snap_at(envs, i), "prefix") ?: "?");
		}
		if (!found[0])
			clause(c, id, f->version.line, CHECK_FAIL, "%s not found%s, required %s",
			       f->name,
			       snap_get_bool_default(root, "framework.python_envs_complete", false)
				       ? ""
				       : " (some Python environments could not be read)",
			       f->version.text);
		else
			clause(c, id, f->version.line, ok ? CHECK_PASS : CHECK_FAIL,
			       "%s, required %s", found, f->version.text);
	}
}

struct arch_ctx {
	struct gpuenv_check *c;
	const struct policy_target *t;
	char text[2048];
	size_t builds;
	bool fail;
};

static void arch_judge(const struct fw_build *b, void *u)
{
	struct arch_ctx *a = u;
	struct coverage_target t[MAX_TARGETS];
	struct coverage_result res;
	bool from_bi;
	const struct snap_node *tn = fw_targets(b, &from_bi);
	size_t n = check_read_targets(tn, from_bi, t, MAX_TARGETS), len = strlen(a->text);
	bool ok;

	if (n == 0)
		return;
	a->builds++;
	/* the code alone, no driver: a PTX entry counts as JIT-able (coverage.h) */
	if (coverage_judge(t, n, a->t->major, a->t->minor, NULL, &res) < 0)
		return;
	ok = res.verdict == COVERAGE_NATIVE ||
	     (res.verdict == COVERAGE_PTX_JIT && a->c->policy->arch_allow_ptx);
	a->fail |= !ok;
	snprintf(a->text + len, sizeof(a->text) - len, "%s%s: %s%s%s", len ? "; " : "", b->label,
		 coverage_verdict_name(res.verdict),
		 res.verdict == COVERAGE_PTX_JIT && !ok ? " (PTX not allowed)" : "",
		 res.lto_only ? " (LTO-IR only: link-time IR, not loadable)" : "");
}

static void check_architectures(struct gpuenv_check *c, const struct snap_node *root)
{
	for (size_t i = 0; i < c->policy->n_arch_targets; i++) {
		struct arch_ctx a = { .c = c, .t = &c->policy->arch_targets[i] };
		char id[160];

		snprintf(id, sizeof(id), "architectures.%s", a.t->name);
		fw_foreach(root, arch_judge, &a);
		/* the named binaries' code too; a policy that names binaries needs no framework */
		check_binaries_on_target(c, a.t->major, a.t->minor, a.text, sizeof(a.text),
					 &a.fail);
		if (a.builds == 0 && c->policy->n_arch_binaries == 0)
			clause(c, id, a.t->line, CHECK_FAIL,
			       "could not tell: no framework's GPU code was read");
		else
			clause(c, id, a.t->line, a.fail ? CHECK_FAIL : CHECK_PASS, "%s", a.text);
	}
}

static const struct rule *rule_by_id(const char *id)
{
	for (size_t i = 0; i < rule_table_len; i++)
		if (streq(rule_table[i].id, id))
			return &rule_table[i];
	return NULL;
}

static void check_waivers(struct gpuenv_check *c)
{
	for (size_t i = 0; i < c->policy->n_waivers; i++) {
		const struct policy_waiver *w = &c->policy->waivers[i];
		char id[32];

		snprintf(id, sizeof(id), "waivers[%zu]", i);
		if (!rule_by_id(w->rule))
			clause(c, id, w->line, CHECK_FAIL,
			       "waives '%s', which is not a rule (gpuenv doctor --list-rules)",
			       w->rule);
		else if (strcmp(w->expires, c->today) < 0)
			clause(c, id, w->line, CHECK_FAIL, "the waiver of %s expired on %s (%s)",
			       w->rule, w->expires, w->reason);
		else
			clause(c, id, w->line, CHECK_PASS, "%s waived until %s: %s", w->rule,
			       w->expires, w->reason);
	}
}

/* A waiver that names the rule and has not expired: its index + 1, else 0. */
static size_t waiver_for(const struct gpuenv_check *c, const struct rule *r)
{
	for (size_t i = 0; i < c->policy->n_waivers; i++) {
		const struct policy_waiver *w = &c->policy->waivers[i];

		if (streq(w->rule, r->id) && strcmp(w->expires, c->today) >= 0)
			return i + 1;
	}
	return 0;
}

const struct finding *check_rule_finding(const struct gpuenv_check *c, const struct check_rule *r)
{
	const struct finding *best = NULL;

	for (size_t i = 0; i < c->doctor->n_findings; i++) {
		const struct finding *f = &c->doctor->findings[i];

		if (f->rule == r->rule && (!best || f->severity > best->severity))
			best = f;
	}
	return best;
}

static int judge_rules(struct gpuenv_check *c, bool *ret_errors)
{
	c->rules = calloc(rule_table_len, sizeof(*c->rules));
	if (!c->rules)
		return -ENOMEM;
	c->n_rules = rule_table_len;
	for (size_t i = 0; i < rule_table_len; i++) {
		struct check_rule *cr = &c->rules[i];
		const struct finding *f;
		const char *msg = NULL;

		cr->rule = &rule_table[i];
		f = check_rule_finding(c, cr);
		if (!check_rule_judged(c, cr->rule)) {
			cr->state = CHECK_RULE_PROFILE;
		} else if (f && (int)f->severity >= c->policy->fail_on) {
			cr->waiver = waiver_for(c, cr->rule);
			cr->state = cr->waiver ? CHECK_RULE_WAIVED : CHECK_RULE_FAILS;
			if (!cr->waiver && f->severity == GPUENV_SEVERITY_ERROR)
				*ret_errors = true;
		} else if (f) {
			cr->state = CHECK_RULE_BELOW;
		} else {
			for (size_t k = 0; k < c->doctor->n_skips; k++)
				if (c->doctor->skips[k].rule == cr->rule) {
					cr->state = CHECK_RULE_NOT_RUN;
					msg = c->doctor->skips[k].reason;
					break;
				}
		}
		if (f)
			msg = f->message;
		if (msg && !(cr->message = strdup(msg)))
			return -ENOMEM;
	}
	return 0;
}

struct gpuenv_check *check_free(struct gpuenv_check *c)
{
	if (!c)
		return NULL;
	for (size_t i = 0; i < c->n_clauses; i++) {
		free(c->clauses[i].id);
		free(c->clauses[i].message);
	}
	free(c->clauses);
	for (size_t i = 0; i < c->n_rules; i++)
		free(c->rules[i].message);
	free(c->rules);
	for (size_t i = 0; i < c->n_cells; i++) {
		free(c->cells[i].subject);
		free(c->cells[i].gpu);
		free(c->cells[i].reason);
		check_cell_lto_free(&c->cells[i]);
	}
	free(c->cells);
	strv_free(c->secrets);
	free(c->policy_path);
	free(c);
	return NULL;
}

int check_run(const struct gpuenv_doctor *d, const struct gpuenv_policy *p, const char *policy_path,
	      const char *today, struct gpuenv_check **ret)
{
	struct gpuenv_check *c;
	const struct snap_node *root;
	bool errors = false, failed = false;
	int r;

	if (!d || !p || !today || !policy_date_valid(today) || !ret)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->doctor = d;
	c->policy = p;
	memcpy(c->today, today, 11);
	if (policy_path && !(c->policy_path = strdup(policy_path))) {
		check_free(c);
		return -ENOMEM;
	}
	root = snapshot_root_const(d->snap);
	if (d->verdict == GPUENV_VERDICT_UNEVALUATED && !build_profile(c))
		clause(c, "evaluated", 0, CHECK_FAIL,
		       "could not evaluate: the PCI bus is unreadable and no driver or toolkit "
		       "was found");
	check_gpus(c, root);
	check_driver(c, root);
	check_cuda(c, root);
	check_frameworks(c, root);
	check_architectures(c, root);
	check_waivers(c);
	r = c->err < 0 ? c->err : judge_rules(c, &errors);
	if (r >= 0)
		r = check_coverage(c, root);
	/* A build host has no GPU or driver by design, but nothing found to judge there either
	 * (no toolkit, no clause judged) is "could not tell", never a pass. */
	if (r >= 0 && d->verdict == GPUENV_VERDICT_UNEVALUATED && build_profile(c) &&
	    !any_clause_judged(c))
		clause(c, "evaluated", 0, CHECK_FAIL,
		       "could not evaluate the build profile: no CUDA toolkit was found and no "
		       "clause judged anything");
	if (r < 0) {
		check_free(c);
		return r;
	}
	for (size_t i = 0; i < c->n_clauses; i++)
		failed |= c->clauses[i].status == CHECK_FAIL;
	for (size_t i = 0; i < c->n_rules; i++)
		failed |= c->rules[i].state == CHECK_RULE_FAILS;
	c->result = errors ? GPUENV_CHECK_ERRORS : failed ? GPUENV_CHECK_FAIL : GPUENV_CHECK_PASS;
	*ret = c;
	return 0;
}
