// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Runs the rule table (rules.c) over a snapshot and collects the diagnosis (rules.h): the
 * generic `needs` check before each rule ("skipped: could not read X" when a needed fact is
 * not readable), the finding / evidence / skip builders the check functions use, the status
 * of each layer, and the verdict (rules-diagnose.c runs it, then the summary). Pure: reads
 * only the snapshot and the knowledge base.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include "rules/rules-internal.h"
#include "rules/rules.h"
#include "shared/layer-name.h"
#include "shared/step-hook.h"
#include "shared/strbuf.h"
#include "shared/strv.h"

struct rule_ctx {
	struct gpuenv_doctor *d;
	const struct rule *rule;
	bool skipped; /* a skip record for the whole rule (subject NULL) */
};

const char *rule_layer_name(enum gpuenv_layer l)
{
	return layer_name(l);
}

int rule_layer_from_name(const char *name)
{
	return layer_from_name(name);
}

const char *rule_severity_name(enum gpuenv_severity s)
{
	switch (s) {
	case GPUENV_SEVERITY_INFO:
		return "info";
	case GPUENV_SEVERITY_WARNING:
		return "warning";
	case GPUENV_SEVERITY_ERROR:
		return "error";
	}
	return "unknown";
}

const char *layer_status_name(enum layer_status s)
{
	static const char *const names[] = {
		[LAYER_OK] = "ok",
		[LAYER_INFO] = "info",
		[LAYER_WARNING] = "warning",
		[LAYER_ERROR] = "error",
		[LAYER_UNKNOWN] = "unknown",
		[LAYER_ABSENT] = "absent",
		[LAYER_INCOMPLETE] = "incomplete",
	};

	return (unsigned)s < ARRAY_SIZE(names) ? names[s] : "unknown";
}

const char *link_state_name(enum link_state s)
{
	static const char *const names[] = {
		[LINK_OK] = "ok",
		[LINK_DEGRADED] = "degraded",
		[LINK_BROKEN] = "broken",
		[LINK_UNKNOWN] = "unknown",
	};

	return (unsigned)s < ARRAY_SIZE(names) ? names[s] : "unknown";
}

bool fact_is_failure(enum fact_state s)
{
	return s == FACT_UNREADABLE || s == FACT_MALFORMED || s == FACT_ERROR;
}

const struct rule *rule_find(const char *id)
{
	/* the first byte first: a rule id starts with its layer's name, which differ there */
	for (size_t i = 0; i < rule_table_len; i++)
		if (rule_table[i].id[0] == id[0] && streq(rule_table[i].id, id))
			return &rule_table[i];
	return NULL;
}

/* ---- building ------------------------------------------------------------------------ */

static void oom(struct gpuenv_doctor *d)
{
	if (!d->err)
		d->err = -ENOMEM;
}

static char *vformat(struct gpuenv_doctor *d, const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0) {
		oom(d);
		return NULL;
	}
	return s;
}

static char *dup_or_null(struct gpuenv_doctor *d, const char *s)
{
	char *r;

	if (!s)
		return NULL;
	r = strdup(s);
	if (!r)
		oom(d);
	return r;
}

static bool grow(struct gpuenv_doctor *d, void **v, size_t *alloc, size_t n, size_t size)
{
	void *p;
	size_t want;

	if (n < *alloc)
		return true;
	want = *alloc ? *alloc * 2 : 8;
	p = realloc(*v, want * size);
	if (!p) {
		oom(d);
		return false;
	}
	*v = p;
	*alloc = want;
	return true;
}

struct finding *rule_finding(struct rule_ctx *c, enum gpuenv_severity sev, const char *subject,
			     const char *fmt, ...)
{
	struct gpuenv_doctor *d = c->d;
	struct finding *f;
	va_list ap;

	if (!grow(d, (void **)&d->findings, &d->alloc_findings, d->n_findings, sizeof(*f)))
		return NULL;
	f = &d->findings[d->n_findings];
	*f = (struct finding){ .rule = c->rule, .severity = MIN(sev, c->rule->severity) };
	va_start(ap, fmt);
	f->message = vformat(d, fmt, ap);
	va_end(ap);
	f->subject = dup_or_null(d, subject);
	f->diag = d;
	if (!f->message)
		return NULL;
	d->n_findings++;
	return f;
}

static void add_evidence(struct finding *f, const char *name, char *value, const char *source,
			 bool identifying)
{
	struct gpuenv_doctor *d = f ? f->diag : NULL;
	struct rule_evidence *e;
	size_t alloc = f ? f->n_ev : 0;

	if (!f) {
		free(value);
		return;
	}
	for (size_t i = 0; i < f->n_ev; i++)
		if (streq(f->ev[i].name, name) && streq(f->ev[i].value, value)) {
			free(value);
			return;
		}
	/* n_ev doubles as the allocation size: evidence lists are short. */
	e = realloc(f->ev, (alloc + 1) * sizeof(*e));
	if (!e) {
		free(value);
		oom(d);
		return;
	}
	f->ev = e;
	e[f->n_ev] = (struct rule_evidence){
		.name = dup_or_null(d, name),
		.value = value,
		.source = dup_or_null(d, source),
		.identifying = identifying,
	};
	f->n_ev++;
}

void fact_describe(const struct snap_node *fact, char *buf, size_t len)
{
	const char *err = snap_error(fact), *src = snap_source(fact);

	if (snap_present(fact)) {
		snprintf(buf, len, "present");
		return;
	}
	snprintf(buf, len, "%s%s%s", fact_state_to_string(snap_state(fact)), err ? ": " : "",
		 err ? err : "");
	(void)src;
}

/* The last key component of a dotted path ("driver.nvidia.uuid" → "uuid") and its section
 * (the component before it), for snap_key_is_identifying(). */
static bool path_identifying(const char *name)
{
	char sec[64] = "";
	const char *last = strrchr(name, '.'), *prev;

	if (!last)
		return snap_key_is_identifying(NULL, name);
	for (prev = last - 1; prev > name && *prev != '.'; prev--)
		;
	if (*prev == '.')
		prev++;
	snprintf(sec, sizeof(sec), "%.*s", (int)(last - prev), prev);
	/* Array elements ("gpus.0.uuid"): the section is the array's name. */
	if (sec[0] >= '0' && sec[0] <= '9') {
		const char *p = prev - 1;

		if (p > name) {
			const char *q;

			for (q = p - 1; q > name && *q != '.'; q--)
				;
			if (*q == '.')
				q++;
			snprintf(sec, sizeof(sec), "%.*s", (int)(p - q), q);
		}
	}
	return snap_key_is_identifying(sec, last + 1) || startswith(name, "environment.");
}

void finding_fact(struct finding *f, const char *name, const struct snap_node *fact)
{
	char *value = NULL;
	int64_t i;
	bool b;
	int r = 0;

	if (!f)
		return;
	if (snap_present(fact)) {
		if (snap_str(fact))
			value = strdup(snap_str(fact));
		else if (snap_int(fact, &i))
			r = asprintf(&value, "%" PRId64, i);
		else if (snap_bool(fact, &b))
			value = strdup(b ? "yes" : "no");
		else
			value = strdup("present");
	} else {
		char buf[512];

		fact_describe(fact, buf, sizeof(buf));
		r = asprintf(&value, "(%s)", buf);
	}
	if (r < 0 || !value) {
		oom(f->diag);
		return;
	}
	add_evidence(f, name, value, snap_source(fact) ? snap_source(fact) : "not probed",
		     path_identifying(name));
}

void finding_evidence(struct finding *f, const char *name, const char *source, const char *fmt, ...)
{
	va_list ap;
	char *v;

	if (!f)
		return;
	va_start(ap, fmt);
	v = vformat(f->diag, fmt, ap);
	va_end(ap);
	if (v)
		add_evidence(f, name, v, source, startswith(name, "environment."));
}

static void push_line(struct finding *f, char ***l, const char *fmt, va_list ap)
{
	char *s;

	if (!f)
		return;
	s = vformat(f->diag, fmt, ap);
	if (s && strv_consume(l, s) < 0)
		oom(f->diag);
}

void finding_fix(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	push_line(f, &f->fix, fmt, ap);
	va_end(ap);
}

void finding_verify(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	push_line(f, &f->verify, fmt, ap);
	va_end(ap);
}

void finding_symptom(struct finding *f, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!f)
		return;
	va_start(ap, fmt);
	s = vformat(f->diag, fmt, ap);
	va_end(ap);
	if (s) {
		free(f->symptom);
		f->symptom = s;
	}
}

static void copy_lines(struct finding *f, char ***dst, const char *const *src)
{
	for (size_t i = 0; src && src[i]; i++)
		if (strv_push(dst, src[i]) < 0)
			oom(f->diag);
}

void finding_rule_fix(struct finding *f)
{
	if (f)
		copy_lines(f, &f->fix, f->rule->fix);
}

void finding_rule_verify(struct finding *f)
{
	if (f)
		copy_lines(f, &f->verify, f->rule->verify);
}

/* Records reason (taken; NULL: out of memory, nothing recorded) as a skip of c's rule. */
static void skip_add(struct rule_ctx *c, const char *subject, char *reason)
{
	struct gpuenv_doctor *d = c->d;
	struct rule_skip *k;

	if (!grow(d, (void **)&d->skips, &d->alloc_skips, d->n_skips, sizeof(*k))) {
		free(reason);
		return;
	}
	k = &d->skips[d->n_skips];
	*k = (struct rule_skip){ .rule = c->rule, .cause = FACT_PRESENT };
	k->reason = reason;
	k->subject = dup_or_null(d, subject);
	if (!subject)
		c->skipped = true;
	if (k->reason)
		d->n_skips++;
	else
		free(k->subject);
}

/* A skip whose reason is fmt; cause: the state of the fact it could not have, where that is a
 * failure (what makes the rule's layer incomplete). */
static void skip_vadd(struct rule_ctx *c, const char *subject, enum fact_state cause,
		      const char *fmt, va_list ap)
{
	size_t n = c->d->n_skips;

	skip_add(c, subject, vformat(c->d, fmt, ap));
	if (c->d->n_skips > n && fact_is_failure(cause))
		c->d->skips[n].cause = cause;
}

void rule_skip(struct rule_ctx *c, const char *subject, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	skip_vadd(c, subject, FACT_PRESENT, fmt, ap);
	va_end(ap);
}

void rule_skip_failed(struct rule_ctx *c, const char *subject, enum fact_state cause,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	skip_vadd(c, subject, cause, fmt, ap);
	va_end(ap);
}

void rule_skip_elsewhere(struct rule_ctx *c, const char *what, const char *why)
{
	size_t n = c->d->n_skips;

	rule_skip(c, NULL, "could not read %s: %s", what, why);
	if (c->d->n_skips > n)
		c->d->skips[n].elsewhere = true;
}

static bool need(struct rule_ctx *c, const char *subject, const char *what,
		 const struct snap_node *fact, bool absent_ok)
{
	enum fact_state st = snap_state(fact);
	const char *src = snap_source(fact), *err = snap_error(fact);
	struct strbuf reason = STRBUF_INIT;
	char *text;
	size_t n;

	if (st == FACT_PRESENT || (absent_ok && st == FACT_ABSENT))
		return true;
	n = c->d->n_skips;
	/* "could not read WHAT (not probed)" or "could not read SRC (STATE[: ERROR][; WHAT])",
	 * put together without printf: every rule whose facts a snapshot lacks (most of them,
	 * over a paste) is skipped so, on every run */
	strbuf_puts(&reason, "could not read ");
	if (st == FACT_UNPROBED && !fact) {
		strbuf_puts(&reason, what);
		strbuf_puts(&reason, " (not probed)");
	} else {
		strbuf_puts(&reason, src ? src : what);
		strbuf_puts(&reason, " (");
		strbuf_puts(&reason, fact_state_to_string(st));
		if (err) {
			strbuf_puts(&reason, ": ");
			strbuf_puts(&reason, err);
		}
		if (src && !streq(src, what)) {
			strbuf_puts(&reason, "; ");
			strbuf_puts(&reason, what);
		}
		strbuf_putc(&reason, ')');
	}
	if (strbuf_steal(&reason, &text) < 0) {
		oom(c->d);
		text = NULL;
	}
	strbuf_done(&reason);
	skip_add(c, subject, text);
	if (c->d->n_skips > n)
		c->d->skips[n].cause = st;
	return false;
}

bool rule_need(struct rule_ctx *c, const char *subject, const char *what,
	       const struct snap_node *fact)
{
	return need(c, subject, what, fact, false);
}

bool rule_need_known(struct rule_ctx *c, const char *subject, const char *what,
		     const struct snap_node *fact)
{
	return need(c, subject, what, fact, true);
}

/* ---- running ------------------------------------------------------------------------- */

/* A rule that judges the PCI bus judges each GPU by its ids and bound driver: a GPU whose
 * vendor id, device id or driver link could not be read may be the one it is about (an
 * NVIDIA GPU without a driver, bound to nouveau, too old for a build). Recorded as skipped
 * for that GPU, so the rule's layer is incomplete, never ✓. */
void rule_need_gpu_ids(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const char *bus = snap_get_str(g, "bus_id") ?: "?";

		if (fact_is_failure(snap_get_state(g, "vendor_id")))
			need(c, bus, "the GPU's PCI vendor id", snap_child(g, "vendor_id"), false);
		else if (fact_is_failure(snap_get_state(g, "device_id")))
			need(c, bus, "the GPU's PCI device id", snap_child(g, "device_id"), false);
		else if (fact_is_failure(snap_get_state(g, "driver")))
			need(c, bus, "the GPU's bound driver", snap_child(g, "driver"), false);
	}
}

static bool needs_met(struct rule_ctx *c, const struct snap_node *root)
{
	bool ok = true;

	for (size_t i = 0; c->rule->needs && c->rule->needs[i]; i++) {
		char path[256];
		size_t n;
		bool absent_ok;

		n = strlen(c->rule->needs[i]);
		if (n >= sizeof(path))
			n = sizeof(path) - 1; /* cut as snprintf cut it */
		memcpy(path, c->rule->needs[i], n);
		path[n] = '\0';
		if (n > 0 && path[n - 1] == '~')
			continue; /* the check's own (rules.h) */
		absent_ok = n > 0 && path[n - 1] == '?';
		if (absent_ok)
			path[n - 1] = '\0';
		if (!need(c, NULL, path, snap_get(root, path), absent_ok))
			ok = false;
		else if (streq(path, "hardware.pci_devices"))
			rule_need_gpu_ids(c, root);
	}
	return ok;
}

static void finding_done(struct finding *f)
{
	free(f->subject);
	free(f->message);
	free(f->symptom);
	for (size_t i = 0; i < f->n_ev; i++) {
		free(f->ev[i].name);
		free(f->ev[i].value);
		free(f->ev[i].source);
	}
	free(f->ev);
	strv_free(f->fix);
	strv_free(f->verify);
}

struct gpuenv_doctor *diagnosis_free(struct gpuenv_doctor *d)
{
	if (!d)
		return NULL;
	for (size_t i = 0; i < d->n_findings; i++)
		finding_done(&d->findings[i]);
	free(d->findings);
	for (size_t i = 0; i < d->n_skips; i++) {
		free(d->skips[i].subject);
		free(d->skips[i].reason);
	}
	free(d->skips);
	for (size_t i = 0; i < d->n_facts; i++) {
		free(d->facts[i].label);
		free(d->facts[i].value);
		free(d->facts[i].source);
	}
	free(d->facts);
	for (size_t i = 0; i < d->n_problems; i++) {
		free(d->problems[i].name);
		free(d->problems[i].error);
		free(d->problems[i].source);
	}
	free(d->problems);
	free(d->chain.driver_cuda);
	free(d->chain.driver_source);
	free(d->chain.driver_label);
	free(d->chain.toolkit);
	free(d->chain.toolkit_source);
	free(d->chain.framework);
	free(d->chain.framework_source);
	free(d->chain.link_why[0]);
	free(d->chain.link_why[1]);
	for (size_t i = 0; i < d->n_summary_ev; i++) {
		free(d->summary_ev[i].name);
		free(d->summary_ev[i].value);
		free(d->summary_ev[i].source);
	}
	for (size_t i = 0; i < d->n_vendor_chains; i++) {
		struct vendor_chain *v = &d->vendor_chains[i];

		free(v->driver);
		free(v->driver_source);
		free(v->runtime);
		free(v->runtime_source);
		free(v->framework);
		free(v->framework_source);
		free(v->target);
		free(v->link_why[0]);
		free(v->link_why[1]);
		for (size_t k = 0; k < v->n_targets; k++)
			free(v->targets[k].name);
	}
	snapshot_unref(d->snap);
	free(d);
	return NULL;
}

void diagnosis_add_fact(struct gpuenv_doctor *d, enum gpuenv_layer layer, const char *label,
			const char *source, const char *fmt, ...)
{
	struct layer_fact *lf;
	va_list ap;

	if (!grow(d, (void **)&d->facts, &d->alloc_facts, d->n_facts, sizeof(*lf)))
		return;
	lf = &d->facts[d->n_facts];
	*lf = (struct layer_fact){ .layer = layer };
	va_start(ap, fmt);
	lf->value = vformat(d, fmt, ap);
	va_end(ap);
	lf->label = dup_or_null(d, label);
	lf->source = dup_or_null(d, source);
	d->n_facts++;
}

char *diagnosis_strdupf(struct gpuenv_doctor *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vformat(d, fmt, ap);
	va_end(ap);
	return s;
}

static enum layer_status severity_status(enum gpuenv_severity s)
{
	switch (s) {
	case GPUENV_SEVERITY_ERROR:
		return LAYER_ERROR;
	case GPUENV_SEVERITY_WARNING:
		return LAYER_WARNING;
	default:
		return LAYER_INFO;
	}
}

/* i in decimal, as "%zu" writes it. */
static void put_index(struct strbuf *sb, size_t i)
{
	char buf[24];
	size_t k = sizeof(buf);

	do
		buf[--k] = (char)('0' + i % 10);
	while ((i /= 10));
	strbuf_add(sb, buf + k, sizeof(buf) - k);
}

/* Every fact of the layer's own subtree (hardware.*, driver.*, …) that could not be read, as
 * "driver.nvml.devices.1.index". host.* and environment.* belong to no layer: the rules that
 * need them say so in their skip records. */
static void collect_problems(struct gpuenv_doctor *d, enum gpuenv_layer l,
			     const struct snap_node *n, struct strbuf *path)
{
	size_t len = path->len;

	if (!n)
		return;
	if (snap_kind(n) == SNAP_FACT) {
		struct layer_problem *p;

		if (!fact_is_failure(snap_state(n)) ||
		    !grow(d, (void **)&d->problems, &d->alloc_problems, d->n_problems, sizeof(*p)))
			return;
		p = &d->problems[d->n_problems++];
		*p = (struct layer_problem){ .layer = l, .state = snap_state(n) };
		p->name = dup_or_null(d, strbuf_str(path));
		p->error = dup_or_null(d, snap_error(n));
		p->source = dup_or_null(d, snap_source(n));
		return;
	}
	for (size_t i = 0; i < snap_count(n); i++) {
		const struct snap_node *ch = snap_at(n, i);

		/* putc and puts, not printf: this runs for every node of the snapshot */
		strbuf_putc(path, '.');
		if (snap_kind(n) == SNAP_ARRAY)
			put_index(path, i);
		else
			strbuf_puts(path, snap_key(ch));
		collect_problems(d, l, ch, path);
		if (!path->err) {
			path->len = len;
			path->buf[len] = '\0';
		}
	}
}

/* Is layer l incomplete: a fact of its subtree, or a fact one of its rules needed, could not
 * be read (here, or at all: another system's driver)? */
static bool layer_incomplete(const struct gpuenv_doctor *d, int l)
{
	for (size_t i = 0; i < d->n_problems; i++)
		if (d->problems[i].layer == (enum gpuenv_layer)l)
			return true;
	for (size_t i = 0; i < d->n_skips; i++)
		if (d->skips[i].rule->layer == (enum gpuenv_layer)l &&
		    (fact_is_failure(d->skips[i].cause) || d->skips[i].elsewhere))
			return true;
	return false;
}

void rules_judge(struct gpuenv_doctor *d, const bool absent[RULE_LAYERS])
{
	bool any_warning = false, any_error = false;

	for (int l = 0; l < RULE_LAYERS; l++) {
		enum layer_status st = LAYER_OK;

		if (d->rules_total[l] == 0 || d->rules_run[l] == 0)
			st = LAYER_UNKNOWN;
		else if (absent[l])
			st = LAYER_ABSENT;
		for (size_t i = 0; i < d->n_findings; i++) {
			enum layer_status fs;

			if (d->findings[i].rule->layer != (enum gpuenv_layer)l)
				continue;
			fs = severity_status(d->findings[i].severity);
			if (st == LAYER_UNKNOWN || st == LAYER_ABSENT || fs > st)
				st = fs;
		}
		/* The driver is another system's (WSL2, a container's host): what could not be
		 * seen here is "could not tell", never a pass, unless it answered here (NVML
		 * and cuInit both succeeded in this environment). */
		if (l == GPUENV_LAYER_DRIVER && (st == LAYER_OK || st == LAYER_INFO) &&
		    driver_lives_elsewhere(snapshot_root_const(d->snap)) &&
		    !driver_answered_here(snapshot_root_const(d->snap)))
			st = LAYER_UNKNOWN;
		/* Whether this is a container could not be told (an overlay root, no marker):
		 * the container rules that found nothing did not judge it. */
		if (l == GPUENV_LAYER_CONTAINER && (st == LAYER_OK || st == LAYER_INFO) &&
		    container_unsure(snapshot_root_const(d->snap)))
			st = LAYER_UNKNOWN;
		/* Nothing of the layer was looked at (a snapshot built from pasted text, an
		 * empty one): the rules that ran had nothing to find, which is not a pass. */
		if ((st == LAYER_OK || st == LAYER_INFO) &&
		    snap_count(snap_child(snapshot_root_const(d->snap),
					  rule_layer_name((enum gpuenv_layer)l))) == 0)
			st = LAYER_UNKNOWN;
		d->status[l] = st;
	}
	for (size_t i = 0; i < d->n_findings; i++) {
		any_error |= d->findings[i].severity == GPUENV_SEVERITY_ERROR;
		any_warning |= d->findings[i].severity == GPUENV_SEVERITY_WARNING;
	}
	if (any_error)
		d->verdict = GPUENV_VERDICT_ERRORS;
	else if (any_warning)
		d->verdict = GPUENV_VERDICT_WARNINGS;
	else if (d->status[GPUENV_LAYER_HARDWARE] == LAYER_UNKNOWN &&
		 d->status[GPUENV_LAYER_DRIVER] >= LAYER_UNKNOWN &&
		 d->status[GPUENV_LAYER_RUNTIME] >= LAYER_UNKNOWN)
		/* The bus unreadable, and no driver or toolkit found: nothing to judge. */
		d->verdict = GPUENV_VERDICT_UNEVALUATED;
	else
		d->verdict = GPUENV_VERDICT_HEALTHY;
	/* No ✓ (nor "nothing installed") for a layer while one of its facts could not be read:
	 * what was read is fine, the rest was not judged. */
	for (int l = 0; l < RULE_LAYERS; l++)
		if ((d->status[l] <= LAYER_INFO || d->status[l] == LAYER_ABSENT) &&
		    layer_incomplete(d, l))
			d->status[l] = LAYER_INCOMPLETE;
}

/* The rule's symptom as pasted text showed it ("symptoms.<rule id>"), or NULL. */
static const struct snap_node *symptom_fact(const struct rule *r, const struct snap_node *root,
					    char *path, size_t len)
{
	const struct snap_node *fact = snap_get(snap_child(root, "symptoms"), r->id);

	if (!snap_present(fact) || !snap_str(fact))
		return NULL; /* a probed snapshot has no symptoms: no path formatted per rule */
	snprintf(path, len, "symptoms.%s", r->id);
	return fact;
}

/* An info rule's symptom in pasted text is what the user met there: a build of an extension
 * that stops (torch's "The detected CUDA version … mismatches"), a first launch that stalls for
 * many minutes (TensorFlow's PTX JIT). Its finding is a warning then, so that explain names it
 * as the root cause instead of nothing; a probed snapshot has no symptoms and is not touched. */
static enum gpuenv_severity seen_severity(enum gpuenv_severity sev)
{
	return sev == GPUENV_SEVERITY_INFO ? GPUENV_SEVERITY_WARNING : sev;
}

static void symptom_raises(struct gpuenv_doctor *d, const struct rule *r,
			   const struct snap_node *root, size_t first)
{
	char path[160];

	if (r->severity != GPUENV_SEVERITY_INFO || !symptom_fact(r, root, path, sizeof(path)))
		return;
	for (size_t i = first; i < d->n_findings; i++)
		d->findings[i].severity = seen_severity(d->findings[i].severity);
}

/*
 * A rule's symptom seen in pasted text (`gpuenv explain`: the snapshot's "symptoms.<rule id>"
 * fact holds the line that shows it) where the facts did not make the rule fire: a finding
 * that says so, with what kept the rule from judging. A symptom several causes share
 * ("symptoms.unsure.<rule id>") makes no finding: explain asks for the facts that tell. Where
 * another line of the text decided such a symptom ("symptoms_with.<rule id>": the host's
 * `systemctl daemon-reload` beside NVML's Unknown Error, pasted-container-cgroup.c), the
 * finding quotes and cites that line too. Never from a probed snapshot, which has no
 * "symptoms".
 */
static void symptom_finding(struct rule_ctx *c, const struct snap_node *root)
{
	char path[160], with_path[176];
	const struct snap_node *fact, *with;
	const char *why = NULL;
	struct finding *f;

	fact = symptom_fact(c->rule, root, path, sizeof(path));
	if (!fact)
		return;
	with = snap_get(snap_child(root, "symptoms_with"), c->rule->id);
	if (!snap_present(with) || !snap_str(with))
		with = NULL;
	for (size_t i = c->d->n_skips; i-- > 0;)
		if (c->d->skips[i].rule == c->rule) {
			why = c->d->skips[i].reason;
			break;
		}
	f = rule_finding(
		c, c->rule->severity, NULL,
		"the text shows this rule's symptom (%s): \"%s\"%s%s%s%s%s; not confirmed by facts: %s",
		snap_source(fact) ? snap_source(fact) : "pasted", snap_str(fact),
		with ? ", with (" : "", with ? (snap_source(with) ?: "pasted") : "",
		with ? "): \"" : "", with ? snap_str(with) : "", with ? "\"" : "",
		why ? why : "the facts read do not show it");
	if (f) /* above the rule's own severity, which rule_finding() caps at */
		f->severity = seen_severity(f->severity);
	finding_fact(f, path, fact);
	if (with) {
		snprintf(with_path, sizeof(with_path), "symptoms_with.%s", c->rule->id);
		finding_fact(f, with_path, with);
	}
	finding_rule_fix(f);
	finding_rule_verify(f);
}

const struct gpuenv_doctor *rule_diagnosis(const struct rule_ctx *c)
{
	return c->d;
}

static void run_rule(struct gpuenv_doctor *d, const struct snap_node *root, const struct rule *r)
{
	struct rule_ctx c = { .d = d, .rule = r };
	unsigned l = r->layer;
	size_t before = d->n_findings;

	if (r->only_with && !snap_get(root, r->only_with))
		return;
	d->rules_total[l]++;
	if (needs_met(&c, root))
		r->check(&c, root);
	if (d->n_findings == before)
		symptom_finding(&c, root);
	else
		symptom_raises(d, r, root, before);
	/* Skipped as a whole (not just for one GPU or toolkit): not evaluated. */
	if (c.skipped)
		d->rules_skipped[l]++;
	else
		d->rules_run[l]++;
}

void rules_run_table(struct gpuenv_doctor *d, const struct snap_node *root)
{
	/* Late rules after the others: they compare what those found. */
	for (int late = 0; late < 2; late++) {
		const struct rule *prev = NULL;

		for (size_t i = 0; i < rule_table_len; i++) {
			if (rule_table[i].late != (late == 1))
				continue;
			/* The program's hook between one layer's rules and the next's (the table is
			 * in layer order, each layer's checks in files of their own): the
			 * exporter's diagnosis drops the pages the layer before ran
			 * (shared/step-hook.h). */
			if (prev && prev->layer != rule_table[i].layer)
				step_hook_run();
			prev = &rule_table[i];
			run_rule(d, root, prev);
		}
		if (prev)
			step_hook_run();
	}
}

void rules_collect_problems(struct gpuenv_doctor *d, const struct snap_node *root)
{
	for (int l = 0; l < RULE_LAYERS; l++) {
		struct strbuf path = STRBUF_INIT;

		strbuf_puts(&path, rule_layer_name((enum gpuenv_layer)l));
		collect_problems(d, (enum gpuenv_layer)l,
				 snap_child(root, rule_layer_name((enum gpuenv_layer)l)), &path);
		if (path.err)
			oom(d);
		strbuf_done(&path);
	}
}
