// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv fleet`: each machine's document is streamed once through formats/json-scan, which
 * descends only into the subtrees a key of fleet_keys[] (fleet-keys.c) or the findings lead
 * to and skips the rest by its brackets and quotes. Of each key the machine's value (the
 * distinct values of its GPUs, with counts where they differ) goes into that key's tally,
 * value → machines and a few names; no tree is kept (docs/fleet.md, "Scale").
 *
 * A `gpuenv doctor --json` document carries its findings and verdict; a `gpuenv report --json`
 * snapshot does not, and the rule table is run on it (a full parse: the slow path).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drift/fleet.h"
#include "formats/json-scan.h"
#include "rules/rules.h"
#include "shared/macro.h"

#define MAX_SEGS	  8
#define VALUE_MAX	  256  /* bytes of one value kept */
#define VALUES_PER_FILE	  4096 /* facts of one file kept; more are counted as truncated */
#define FINDINGS_PER_FILE 256

struct pattern {
	const char *seg[MAX_SEGS];
	size_t seg_len[MAX_SEGS];
	unsigned n;
	bool wildcard;
};

/* collection.hostname names the machine; it is matched like a key but is no key. */
#define HOSTNAME_PATTERN fleet_keys_len

struct file_value {
	unsigned key;
	char value[VALUE_MAX];
};

struct file_scan {
	struct pattern *patterns;
	size_t n_patterns;
	uint64_t live[JSON_SCAN_MAX_DEPTH + 1];
	/* the fact object being read */
	int fact_key, fact_depth;
	char fact_state[24], fact_value[VALUE_MAX];
	bool fact_has_value;
	struct file_value *values;
	size_t n_values;
	bool values_truncated;
	/* doctor --json */
	bool is_doctor, is_report;
	char verdict[16];
	char rule[128], severity[16];
	char (*rules)[128];
	enum gpuenv_severity *rule_severity;
	size_t n_rules;
	char hostname[VALUE_MAX];
};

static struct pattern *patterns_make(size_t *ret_n)
{
	size_t n = fleet_keys_len + 1;
	struct pattern *p = calloc(n, sizeof(*p));

	if (!p)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *s = i < fleet_keys_len ? fleet_keys[i].path : "collection.hostname";

		while (*s && p[i].n < MAX_SEGS) {
			const char *dot = strchr(s, '.');
			size_t len = dot ? (size_t)(dot - s) : strlen(s);

			p[i].seg[p[i].n] = s;
			p[i].seg_len[p[i].n] = len;
			p[i].wildcard |= len == 1 && *s == '*';
			p[i].n++;
			s += len + (dot ? 1 : 0);
		}
	}
	*ret_n = n;
	return p;
}

static bool seg_matches(const struct pattern *p, unsigned i, const struct json_scan_seg *s)
{
	if (p->seg_len[i] == 1 && p->seg[i][0] == '*')
		return !s->key;
	return json_scan_seg_is(s, p->seg[i], p->seg_len[i]);
}

/* A raw JSON string into buf (decoded; cut at VALUE_MAX with "…"). */
static void copy_value(char *buf, size_t cap, const struct json_scan_item *it)
{
	if (it->event != JSON_SCAN_STRING) {
		size_t n = it->value_len < cap - 1 ? it->value_len : cap - 1;

		memcpy(buf, it->value, n);
		buf[n] = '\0';
		return;
	}
	if (json_scan_unescape(it->value, it->value_len, buf, cap, NULL) == -ENOSPC) {
		size_t n = it->value_len < cap - 4 ? it->value_len : cap - 4;

		/* cut raw, at a UTF-8 boundary, and marked */
		while (n > 0 && ((unsigned char)it->value[n] & 0xc0) == 0x80)
			n--;
		memcpy(buf, it->value, n);
		memcpy(buf + n, "\xe2\x80\xa6", 4);
	} else if (buf[0] == '\0' && it->value_len) {
		snprintf(buf, cap, "(malformed string)");
	}
}

static int on_finding(struct file_scan *fs, const struct json_scan_item *it)
{
	if (it->depth == 1)
		return it->event == JSON_SCAN_ARRAY ? JSON_SCAN_DESCEND : JSON_SCAN_SKIP;
	if (it->depth == 2) {
		if (it->event == JSON_SCAN_OBJECT) {
			fs->rule[0] = fs->severity[0] = '\0';
			return JSON_SCAN_DESCEND;
		}
		if (it->event == JSON_SCAN_END && fs->rule[0] && fs->n_rules < FINDINGS_PER_FILE) {
			for (size_t i = 0; i < fs->n_rules; i++)
				if (streq(fs->rules[i], fs->rule)) {
					if (streq(fs->severity, "error"))
						fs->rule_severity[i] = GPUENV_SEVERITY_ERROR;
					return 0;
				}
			strcpy(fs->rules[fs->n_rules], fs->rule);
			fs->rule_severity[fs->n_rules++] =
				streq(fs->severity, "error")	 ? GPUENV_SEVERITY_ERROR
				: streq(fs->severity, "warning") ? GPUENV_SEVERITY_WARNING
								 : GPUENV_SEVERITY_INFO;
		}
		return JSON_SCAN_SKIP;
	}
	if (it->depth == 3 && it->event == JSON_SCAN_STRING) {
		if (json_scan_seg_is(&it->path[2], "rule", 4))
			copy_value(fs->rule, sizeof(fs->rule), it);
		else if (json_scan_seg_is(&it->path[2], "severity", 8))
			copy_value(fs->severity, sizeof(fs->severity), it);
	}
	return JSON_SCAN_SKIP;
}

static void fact_done(struct file_scan *fs)
{
	struct file_value *v;

	if (fs->fact_key == (int)HOSTNAME_PATTERN) {
		if (fs->fact_has_value && streq(fs->fact_state, "present"))
			snprintf(fs->hostname, sizeof(fs->hostname), "%s", fs->fact_value);
		return;
	}
	if (fs->n_values == VALUES_PER_FILE) {
		fs->values_truncated = true;
		return;
	}
	v = &fs->values[fs->n_values++];
	v->key = (unsigned)fs->fact_key;
	if (streq(fs->fact_state, "present") && fs->fact_has_value)
		snprintf(v->value, sizeof(v->value), "%s", fs->fact_value);
	else
		snprintf(v->value, sizeof(v->value), "(%s)",
			 fs->fact_state[0] ? fs->fact_state : "no state");
}

static int on_item(void *userdata, const struct json_scan_item *it)
{
	struct file_scan *fs = userdata;
	const struct json_scan_seg *path = it->path;
	unsigned d = it->depth, base, rd;
	bool container = it->event == JSON_SCAN_OBJECT || it->event == JSON_SCAN_ARRAY;
	uint64_t mask = 0, parent;

	if (d == 0) {
		if (it->event == JSON_SCAN_END)
			return 0;
		if (it->event != JSON_SCAN_OBJECT)
			return -EBADMSG;
		fs->live[0] = (fs->n_patterns >= 64 ? ~0ull : (1ull << fs->n_patterns) - 1);
		return JSON_SCAN_DESCEND;
	}
	if (json_scan_seg_is(&path[0], "findings", 8)) {
		fs->is_doctor = true;
		return on_finding(fs, it);
	}
	if (d == 1 && json_scan_seg_is(&path[0], "verdict", 7) && it->event == JSON_SCAN_STRING) {
		copy_value(fs->verdict, sizeof(fs->verdict), it);
		return 0;
	}
	if (d == 1 && json_scan_seg_is(&path[0], "schema_version", 14))
		fs->is_report = true;
	base = json_scan_seg_is(&path[0], "snapshot", 8) ? 1 : 0;
	if (base && d == 1) {
		if (it->event == JSON_SCAN_END)
			return 0;
		fs->is_doctor = true;
		fs->live[1] = fs->live[0];
		return it->event == JSON_SCAN_OBJECT ? JSON_SCAN_DESCEND : JSON_SCAN_SKIP;
	}
	rd = d - base;
	if (it->event == JSON_SCAN_END) {
		if (fs->fact_key >= 0 && (int)d == fs->fact_depth) {
			fact_done(fs);
			fs->fact_key = -1;
		}
		return 0;
	}
	/* a member of the fact object being read */
	if (fs->fact_key >= 0 && (int)d == fs->fact_depth + 1) {
		if (json_scan_seg_is(&path[d - 1], "state", 5) && it->event == JSON_SCAN_STRING)
			copy_value(fs->fact_state, sizeof(fs->fact_state), it);
		else if (json_scan_seg_is(&path[d - 1], "value", 5) && !container) {
			copy_value(fs->fact_value, sizeof(fs->fact_value), it);
			fs->fact_has_value = true;
		}
		return container ? JSON_SCAN_SKIP : 0;
	}
	parent = fs->live[d - 1];
	while (parent) {
		unsigned i = (unsigned)__builtin_ctzll(parent);

		parent &= parent - 1;
		if (fs->patterns[i].n >= rd && seg_matches(&fs->patterns[i], rd - 1, &path[d - 1]))
			mask |= 1ull << i;
	}
	if (!container || !mask)
		return JSON_SCAN_SKIP;
	fs->live[d] = mask;
	if (it->event == JSON_SCAN_OBJECT) {
		for (uint64_t m = mask; m; m &= m - 1) {
			unsigned i = (unsigned)__builtin_ctzll(m);

			if (fs->patterns[i].n == rd) {
				fs->fact_key = (int)i;
				fs->fact_depth = (int)d;
				fs->fact_state[0] = fs->fact_value[0] = '\0';
				fs->fact_has_value = false;
				break;
			}
		}
	}
	return JSON_SCAN_DESCEND;
}

static int tally_add(struct fleet_tally *t, const char *value, const char *machine,
		     struct fleet_value **ret)
{
	struct fleet_value *v;
	size_t i;

	if (strmap_get(&t->index, value, &i)) {
		v = &t->values[i];
	} else {
		if (t->n_values == t->alloc_values) {
			size_t n = t->alloc_values ? t->alloc_values * 2 : 4;
			struct fleet_value *p = realloc(t->values, n * sizeof(*p));

			if (!p)
				return -ENOMEM;
			t->values = p;
			t->alloc_values = n;
		}
		v = &t->values[t->n_values];
		*v = (struct fleet_value){ .value = strdup(value) };
		if (!v->value || strmap_put(&t->index, value, t->n_values) < 0) {
			free(v->value);
			return -ENOMEM;
		}
		t->n_values++;
	}
	if (v->machines < FLEET_EXAMPLES) {
		v->examples[v->machines] = strdup(machine);
		if (!v->examples[v->machines])
			return -ENOMEM;
	}
	v->machines++;
	if (ret)
		*ret = v;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The machine's value of key k: its one value, or its distinct values with how many of its
 * GPUs (toolkits, environments) have each ("16×7, 8×1"), or "(none)" / "(not recorded)". */
static int machine_value(const struct file_scan *fs, size_t k, bool wildcard, struct strbuf *sb)
{
	const char *vals[VALUES_PER_FILE];
	size_t n = 0;

	strbuf_reset(sb);
	for (size_t i = 0; i < fs->n_values; i++)
		if (fs->values[i].key == k)
			vals[n++] = fs->values[i].value;
	if (n == 0)
		return strbuf_puts(sb, wildcard ? "(none)" : "(not recorded)");
	qsort(vals, n, sizeof(vals[0]), cmp_str);
	if (streq(vals[0], vals[n - 1]))
		return strbuf_puts(sb, vals[0]);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && streq(vals[j], vals[i]))
			j++;
		strbuf_printf(sb, "%s%s×%zu", i ? ", " : "", vals[i], j - i);
		i = j;
	}
	return sb->err;
}

static int add_findings_by_rules(struct gpuenv_fleet *f, struct file_scan *fs, const char *text,
				 size_t len, const char *name)
{
	struct gpuenv_snapshot *s = NULL;
	struct gpuenv_doctor *d = NULL;
	char *why = NULL;
	int r;

	r = snapshot_from_json(text, len, &s, &why);
	if (r < 0) {
		char msg[512];

		snprintf(msg, sizeof(msg), "not a gpuenv snapshot (%s)", why ? why : strerror(-r));
		free(why);
		return r == -ENOMEM ? r : fleet_add_unread(f, name, msg) < 0 ? -ENOMEM : -EBADMSG;
	}
	r = rules_diagnose(s, &d);
	snapshot_unref(s);
	if (r < 0)
		return r;
	for (size_t i = 0; i < d->n_findings && fs->n_rules < FINDINGS_PER_FILE; i++) {
		const struct finding *fd = &d->findings[i];
		bool seen = false;

		for (size_t j = 0; j < fs->n_rules && !seen; j++)
			if (streq(fs->rules[j], fd->rule->id)) {
				seen = true;
				if (fd->severity > fs->rule_severity[j])
					fs->rule_severity[j] = fd->severity;
			}
		if (!seen) {
			snprintf(fs->rules[fs->n_rules], sizeof(fs->rules[0]), "%s", fd->rule->id);
			fs->rule_severity[fs->n_rules++] = fd->severity;
		}
	}
	fs->is_doctor = false;
	snprintf(fs->verdict, sizeof(fs->verdict), "%s",
		 d->verdict == GPUENV_VERDICT_HEALTHY	 ? "healthy"
		 : d->verdict == GPUENV_VERDICT_WARNINGS ? "warnings"
		 : d->verdict == GPUENV_VERDICT_ERRORS	 ? "errors"
							 : "unevaluated");
	diagnosis_free(d);
	return 0;
}

static int tally_findings(struct gpuenv_fleet *f, const struct file_scan *fs, const char *machine)
{
	for (size_t i = 0; i < fs->n_rules; i++) {
		struct fleet_value *v;
		size_t idx;
		int r = tally_add(&f->findings, fs->rules[i], machine, &v);

		if (r < 0)
			return r;
		if (f->findings.alloc_values > f->alloc_severity) {
			enum gpuenv_severity *p =
				realloc(f->finding_severity, f->findings.alloc_values * sizeof(*p));

			if (!p)
				return -ENOMEM;
			f->finding_severity = p;
			f->alloc_severity = f->findings.alloc_values;
		}
		idx = (size_t)(v - f->findings.values);
		if (v->machines == 1 || fs->rule_severity[i] > f->finding_severity[idx])
			f->finding_severity[idx] = fs->rule_severity[i];
	}
	return 0;
}

int fleet_add(struct gpuenv_fleet *f, const char *name, const char *text, size_t len)
{
	static const char *const verdicts[] = { "healthy", "warnings", "errors", "unevaluated" };
	struct file_scan *fs = f->scan;
	struct json_scan_error e = { 0 };
	struct strbuf sb = STRBUF_INIT;
	const char *machine;
	int r;

	fs->fact_key = -1;
	fs->n_values = fs->n_rules = 0;
	fs->values_truncated = fs->is_doctor = fs->is_report = false;
	fs->verdict[0] = fs->hostname[0] = '\0';
	r = json_scan(text, len, on_item, fs, &e);
	if (r == -EBADMSG || r == -E2BIG) {
		char msg[256];

		if (r == -E2BIG)
			snprintf(msg, sizeof(msg), "not a gpuenv snapshot: nested deeper than %d",
				 JSON_SCAN_MAX_DEPTH);
		else if (e.reason)
			snprintf(msg, sizeof(msg), "not JSON: %s at byte %zu", e.reason, e.offset);
		else
			snprintf(msg, sizeof(msg), "not a gpuenv snapshot: not a JSON object");
		r = fleet_add_unread(f, name, msg) < 0 ? -ENOMEM : -EBADMSG;
	} else if (r == 0 && !fs->is_doctor && !fs->is_report) {
		r = fleet_add_unread(f, name,
				     "not a gpuenv snapshot: no schema_version or snapshot") < 0
			    ? -ENOMEM
			    : -EBADMSG;
	} else if (r == 0 && !fs->is_doctor) {
		r = add_findings_by_rules(f, fs, text, len, name);
	}
	machine = fs->hostname[0] ? fs->hostname : name;
	for (size_t k = 0; r == 0 && k < fleet_keys_len; k++) {
		r = machine_value(fs, k, fs->patterns[k].wildcard, &sb);
		if (r == 0)
			r = tally_add(&f->keys[k], strbuf_str(&sb), machine, NULL);
	}
	if (r == 0)
		r = tally_findings(f, fs, machine);
	if (r == 0) {
		size_t v = GPUENV_VERDICT_UNEVALUATED;

		for (size_t i = 0; i < ARRAY_SIZE(verdicts); i++)
			if (streq(fs->verdict, verdicts[i]))
				v = i;
		f->verdicts[v]++;
		f->machines++;
	}
	strbuf_done(&sb);
	if (r == -ENOMEM)
		f->err = r;
	return r;
}

int fleet_add_unread(struct gpuenv_fleet *f, const char *name, const char *why)
{
	struct fleet_unread *u;

	if (f->n_unread == f->alloc_unread) {
		size_t n = f->alloc_unread ? f->alloc_unread * 2 : 8;
		struct fleet_unread *p = realloc(f->unread, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		f->unread = p;
		f->alloc_unread = n;
	}
	u = &f->unread[f->n_unread];
	u->name = strdup(name);
	u->why = strdup(why);
	if (!u->name || !u->why) {
		free(u->name);
		free(u->why);
		return -ENOMEM;
	}
	f->n_unread++;
	return 0;
}

static struct file_scan *file_scan_free(struct file_scan *fs)
{
	if (fs) {
		free(fs->values);
		free(fs->rules);
		free(fs->rule_severity);
		free(fs->patterns);
		free(fs);
	}
	return NULL;
}

int fleet_new(struct gpuenv_fleet **ret)
{
	struct gpuenv_fleet *f;
	struct file_scan *fs;

	/* one bit per key and one for the host name in file_scan.live */
	if (fleet_keys_len + 1 > 64)
		return -E2BIG;
	f = calloc(1, sizeof(*f));
	fs = calloc(1, sizeof(*fs));

	if (f)
		f->keys = calloc(fleet_keys_len, sizeof(*f->keys));
	if (fs) {
		fs->values = malloc(VALUES_PER_FILE * sizeof(*fs->values));
		fs->rules = malloc(FINDINGS_PER_FILE * sizeof(*fs->rules));
		fs->rule_severity = malloc(FINDINGS_PER_FILE * sizeof(*fs->rule_severity));
		fs->patterns = patterns_make(&fs->n_patterns);
	}
	if (!f || !f->keys || !fs || !fs->values || !fs->rules || !fs->rule_severity ||
	    !fs->patterns) {
		file_scan_free(fs);
		if (f)
			free(f->keys);
		free(f);
		return -ENOMEM;
	}
	f->scan = fs;
	*ret = f;
	return 0;
}

static void tally_done(struct fleet_tally *t)
{
	for (size_t i = 0; i < t->n_values; i++) {
		free(t->values[i].value);
		for (size_t j = 0; j < FLEET_EXAMPLES; j++)
			free(t->values[i].examples[j]);
	}
	free(t->values);
	strmap_done(&t->index);
}

struct gpuenv_fleet *fleet_free(struct gpuenv_fleet *f)
{
	if (!f)
		return NULL;
	for (size_t k = 0; k < fleet_keys_len; k++)
		tally_done(&f->keys[k]);
	tally_done(&f->findings);
	for (size_t i = 0; i < f->n_unread; i++) {
		free(f->unread[i].name);
		free(f->unread[i].why);
	}
	free(f->unread);
	free(f->finding_severity);
	free(f->keys);
	file_scan_free(f->scan);
	free(f);
	return NULL;
}

const struct fleet_value *fleet_majority(const struct fleet_tally *t)
{
	const struct fleet_value *best = NULL;

	for (size_t i = 0; i < t->n_values; i++) {
		const struct fleet_value *v = &t->values[i];

		if (!best || v->machines > best->machines ||
		    (v->machines == best->machines && strcmp(v->value, best->value) < 0))
			best = v;
	}
	return best;
}

size_t fleet_problem_count(const struct gpuenv_fleet *f)
{
	size_t n = f->n_unread;

	for (size_t k = 0; k < fleet_keys_len; k++)
		n += f->keys[k].n_values > 1;
	for (size_t i = 0; i < f->findings.n_values; i++)
		n += f->finding_severity[i] == GPUENV_SEVERITY_ERROR;
	return n;
}
