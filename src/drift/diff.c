// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv diff A B`: the two snapshot trees walked side by side (objects by key, arrays by
 * index), each fact compared by state and value (its source is where it was read, not what
 * it is), and the rule table run on both to see which findings appeared or went away
 * (docs/fleet.md). A subtree on one side only is one entry ("an object of N facts"), not one
 * per leaf: a new Python environment is one change.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drift/drift.h"
#include "rules/rules.h"
#include "shared/macro.h"

const char *diff_class_name(enum diff_class c)
{
	static const char *const names[] = { "drift", "identity", "reading" };

	return c < _DIFF_CLASS_MAX ? names[c] : "?";
}

const char *diff_change_name(enum diff_change c)
{
	static const char *const names[] = { "added", "removed", "changed" };

	return c <= DIFF_CHANGED ? names[c] : "?";
}

static bool last_key_is(const char *path, const char *const *keys)
{
	const char *dot = strrchr(path, '.');
	const char *last = dot ? dot + 1 : path;

	for (; *keys; keys++)
		if (streq(last, *keys))
			return true;
	return false;
}

enum diff_class diff_classify(const char *path)
{
	/* Keys that name the machine or a device on it: its host name, UUIDs and serial numbers
	 * (snap_key_is_identifying(), what --redact hides) and where a device sits on the bus. */
	static const char *const bus[] = { "bus_id",	  "pci_bus_id", "bus_location", "proc_dir",
					   "iommu_group", "irq",	"minor_number", NULL };
	/* Values that move between two runs on the same machine. */
	static const char *const readings[] = { "temperature_c",
						"power_mw",
						"utilization_gpu_pct",
						"utilization_mem_pct",
						"memory_used_mib",
						"last_loaded_timestamp",
						NULL };
	const char *dot = strrchr(path, '.');

	if (strncmp(path, "collection.", 11) == 0 || streq(path, "collection"))
		return DIFF_IDENTITY;
	if (strstr(path, "uuid") || strstr(path, "serial") || strstr(path, "hostname"))
		return DIFF_IDENTITY;
	if (last_key_is(path, bus))
		return DIFF_IDENTITY;
	if (last_key_is(path, readings))
		return DIFF_READING;
	/* an element of a UUID array ("cdi_specs.0.device_uuids.3") */
	if (dot && dot > path) {
		const char *prev = dot - 1;

		while (prev > path && prev[-1] != '.')
			prev--;
		if (strncmp(prev, "device_uuids", 12) == 0)
			return DIFF_IDENTITY;
	}
	return DIFF_DRIFT;
}

static size_t count_facts(const struct snap_node *n)
{
	size_t c = 0;

	if (snap_kind(n) == SNAP_FACT)
		return 1;
	for (size_t i = 0; i < snap_count(n); i++)
		c += count_facts(snap_at(n, i));
	return c;
}

/* A fact as the diff shows it: its value, or its state (and why) when it has none. */
static char *render_node(const struct snap_node *n)
{
	char *s = NULL;
	int64_t v;
	bool b;

	if (snap_kind(n) != SNAP_FACT) {
		size_t c = count_facts(n);

		if (asprintf(&s, "(%s of %zu fact%s)",
			     snap_kind(n) == SNAP_OBJECT ? "object" : "array", c,
			     c == 1 ? "" : "s") < 0)
			return NULL;
		return s;
	}
	if (snap_str(n))
		return strdup(snap_str(n));
	if (snap_int(n, &v)) {
		if (asprintf(&s, "%" PRId64, v) < 0)
			return NULL;
		return s;
	}
	if (snap_bool(n, &b))
		return strdup(b ? "true" : "false");
	if (snap_error(n) && snap_state(n) != FACT_PRESENT) {
		if (asprintf(&s, "(%s: %s)", fact_state_to_string(snap_state(n)), snap_error(n)) <
		    0)
			return NULL;
		return s;
	}
	if (asprintf(&s, "(%s)", fact_state_to_string(snap_state(n))) < 0)
		return NULL;
	return s;
}

static void add_entry(struct gpuenv_diff *d, const char *path, enum diff_change change,
		      const struct snap_node *a, const struct snap_node *b)
{
	struct diff_entry *e;

	if (d->err)
		return;
	if (d->n_entries == d->alloc_entries) {
		size_t n = d->alloc_entries ? d->alloc_entries * 2 : 32;
		struct diff_entry *p = realloc(d->entries, n * sizeof(*p));

		if (!p) {
			d->err = -ENOMEM;
			return;
		}
		d->entries = p;
		d->alloc_entries = n;
	}
	e = &d->entries[d->n_entries];
	*e = (struct diff_entry){ .change = change, .class = diff_classify(path) };
	e->path = strdup(path);
	e->a = a ? render_node(a) : NULL;
	e->b = b ? render_node(b) : NULL;
	if (!e->path || (a && !e->a) || (b && !e->b)) {
		free(e->path);
		free(e->a);
		free(e->b);
		d->err = -ENOMEM;
		return;
	}
	d->n_class[e->class]++;
	d->n_entries++;
}

static bool facts_equal(const struct snap_node *a, const struct snap_node *b)
{
	_cleanup_free_ char *ra = render_node(a);
	_cleanup_free_ char *rb = render_node(b);

	if (snap_state(a) != snap_state(b) || snap_type(a) != snap_type(b))
		return false;
	/* an int and a string of the same digits differ by type, checked above */
	if (!ra || !rb)
		return false;
	return streq(ra, rb);
}

/* What an array element is called by, where it has a name of its own: a GPU by its bus id, a
 * toolkit or an environment by its path. NULL for anything else. */
static const char *element_name(const struct snap_node *n)
{
	static const char *const keys[] = { "bus_id", "pci_bus_id", "bus_location", "resolved_path",
					    "path",   "prefix",	    "name" };

	if (snap_kind(n) != SNAP_OBJECT)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = snap_str(snap_child(n, keys[i]));

		if (v)
			return v;
	}
	return NULL;
}

static void walk(struct gpuenv_diff *d, const struct snap_node *a, const struct snap_node *b,
		 char *path, size_t len, size_t cap);

/* Arrays: elements with the same name (element_name()) are paired wherever they sit, so one
 * GPU fewer at the front does not make every later GPU "changed"; the others by position. The
 * path names the element's index in A (in B for an added one). */
static void walk_array(struct gpuenv_diff *d, const struct snap_node *a, const struct snap_node *b,
		       char *path, size_t len, size_t cap)
{
	size_t na = snap_count(a), nb = snap_count(b), next_b = 0;
	_cleanup_free_ size_t *pair = calloc(na + 1, sizeof(size_t)); /* index in b + 1, 0: none */
	_cleanup_free_ bool *used = calloc(nb + 1, sizeof(bool));

	if (!pair || !used) {
		d->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < na; i++) {
		const char *name = element_name(snap_at(a, i));

		for (size_t j = 0; name && j < nb && !pair[i]; j++) {
			const char *other = element_name(snap_at(b, j));

			if (!used[j] && other && streq(name, other)) {
				pair[i] = j + 1;
				used[j] = true;
			}
		}
	}
	for (size_t i = 0; i < na; i++) {
		if (pair[i] || element_name(snap_at(a, i)))
			continue;
		while (next_b < nb && (used[next_b] || element_name(snap_at(b, next_b))))
			next_b++;
		if (next_b < nb) {
			pair[i] = next_b + 1;
			used[next_b] = true;
		}
	}
	for (size_t i = 0; i < na + nb && !d->err; i++) {
		bool from_a = i < na;
		size_t k = from_a ? i : i - na;
		int n;

		if (!from_a && used[k])
			continue;
		n = snprintf(path + len, cap - len, "%s%zu", len ? "." : "", k);
		if (n < 0 || (size_t)n >= cap - len) {
			d->err = -ENAMETOOLONG;
			return;
		}
		if (from_a && pair[k])
			walk(d, snap_at(a, k), snap_at(b, pair[k] - 1), path, len + (size_t)n, cap);
		else if (from_a)
			add_entry(d, path, DIFF_REMOVED, snap_at(a, k), NULL);
		else
			add_entry(d, path, DIFF_ADDED, NULL, snap_at(b, k));
		path[len] = '\0';
	}
}

static void walk(struct gpuenv_diff *d, const struct snap_node *a, const struct snap_node *b,
		 char *path, size_t len, size_t cap)
{
	enum snap_kind ka = snap_kind(a), kb = snap_kind(b);

	if (d->err)
		return;
	if (ka != kb) {
		add_entry(d, path, DIFF_CHANGED, a, b);
		return;
	}
	if (ka == SNAP_FACT) {
		if (!facts_equal(a, b))
			add_entry(d, path, DIFF_CHANGED, a, b);
		return;
	}
	if (ka == SNAP_ARRAY) {
		walk_array(d, a, b, path, len, cap);
		return;
	}
	/* objects: children in sorted key order on both sides, merged */
	for (size_t i = 0, j = 0; (i < snap_count(a) || j < snap_count(b)) && !d->err;) {
		const struct snap_node *ca = i < snap_count(a) ? snap_at(a, i) : NULL;
		const struct snap_node *cb = j < snap_count(b) ? snap_at(b, j) : NULL;
		int cmp = !ca ? 1 : !cb ? -1 : strcmp(snap_key(ca), snap_key(cb));
		const char *key = cmp <= 0 ? snap_key(ca) : snap_key(cb);
		int n = snprintf(path + len, cap - len, "%s%s", len ? "." : "", key);

		if (n < 0 || (size_t)n >= cap - len) {
			d->err = -ENAMETOOLONG;
			return;
		}
		if (cmp == 0) {
			walk(d, ca, cb, path, len + (size_t)n, cap);
			i++;
			j++;
		} else if (cmp < 0) {
			add_entry(d, path, DIFF_REMOVED, ca, NULL);
			i++;
		} else {
			add_entry(d, path, DIFF_ADDED, NULL, cb);
			j++;
		}
		path[len] = '\0';
	}
}

static bool same_finding(const struct finding *x, const struct finding *y)
{
	if (x->rule != y->rule)
		return false;
	if (!x->subject || !y->subject)
		return x->subject == y->subject;
	return streq(x->subject, y->subject);
}

/* Findings of `from` that `to` lacks, recorded as appeared (to is B) or went away. */
static void compare_findings(struct gpuenv_diff *d, const struct gpuenv_doctor *from,
			     const struct gpuenv_doctor *to, bool appeared)
{
	for (size_t i = 0; i < from->n_findings && !d->err; i++) {
		const struct finding *f = &from->findings[i];
		struct diff_finding *df;
		bool found = false;

		for (size_t j = 0; j < to->n_findings && !found; j++)
			found = same_finding(f, &to->findings[j]);
		if (found)
			continue;
		if (d->n_findings == d->alloc_findings) {
			size_t n = d->alloc_findings ? d->alloc_findings * 2 : 8;
			struct diff_finding *p = realloc(d->findings, n * sizeof(*p));

			if (!p) {
				d->err = -ENOMEM;
				return;
			}
			d->findings = p;
			d->alloc_findings = n;
		}
		df = &d->findings[d->n_findings];
		*df = (struct diff_finding){ .rule_id = f->rule->id,
					     .severity = f->severity,
					     .layer = f->rule->layer,
					     .appeared = appeared };
		df->subject = f->subject ? strdup(f->subject) : NULL;
		df->message = strdup(f->message ? f->message : "");
		if ((f->subject && !df->subject) || !df->message) {
			free(df->subject);
			free(df->message);
			d->err = -ENOMEM;
			return;
		}
		d->n_findings++;
	}
}

int drift_diff(const char *name_a, struct gpuenv_snapshot *a, const char *name_b,
	       struct gpuenv_snapshot *b, struct gpuenv_diff **ret)
{
	struct gpuenv_diff *d = calloc(1, sizeof(*d));
	struct gpuenv_doctor *da = NULL, *db = NULL;
	char path[4096] = "";
	int r;

	if (!d)
		return -ENOMEM;
	d->side[0].name = strdup(name_a);
	d->side[1].name = strdup(name_b);
	if (!d->side[0].name || !d->side[1].name) {
		drift_diff_free(d);
		return -ENOMEM;
	}
	walk(d, snapshot_root_const(a), snapshot_root_const(b), path, 0, sizeof(path));
	r = d->err;
	if (r >= 0)
		r = rules_diagnose(a, &da);
	if (r >= 0)
		r = rules_diagnose(b, &db);
	if (r >= 0) {
		const struct gpuenv_doctor *doc[2] = { da, db };

		for (int i = 0; i < 2; i++) {
			const struct finding *root = diagnosis_root_cause(doc[i]);

			d->side[i].verdict = doc[i]->verdict;
			d->side[i].root_cause = root ? root->rule->id : NULL;
		}
		compare_findings(d, da, db, false);
		compare_findings(d, db, da, true);
		r = d->err;
	}
	diagnosis_free(da);
	diagnosis_free(db);
	if (r < 0) {
		drift_diff_free(d);
		return r;
	}
	*ret = d;
	return 0;
}

struct gpuenv_diff *drift_diff_free(struct gpuenv_diff *d)
{
	if (!d)
		return NULL;
	for (size_t i = 0; i < d->n_entries; i++) {
		free(d->entries[i].path);
		free(d->entries[i].a);
		free(d->entries[i].b);
	}
	for (size_t i = 0; i < d->n_findings; i++) {
		free(d->findings[i].subject);
		free(d->findings[i].message);
	}
	free(d->entries);
	free(d->findings);
	free(d->side[0].name);
	free(d->side[1].name);
	free(d);
	return NULL;
}

size_t drift_diff_count(const struct gpuenv_diff *d)
{
	return d->n_class[DIFF_DRIFT] + d->n_findings;
}
