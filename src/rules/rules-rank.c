// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The root cause (docs/HACKING.md "How the ranking works"): over the findings of one
 * diagnosis and the edge table of rules-causes.c, each finding gets the finding that explains
 * it (the nearest cause up the edges that fired), and the diagnosis gets its root cause: the
 * unexplained finding whose consequences reach the highest severity, the layer order and then
 * the rule table's order breaking ties. Pure: reads the findings and the table only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "rules/rules.h"
#include "shared/macro.h"

static ssize_t rule_index(const char *id)
{
	for (size_t i = 0; i < rule_table_len; i++)
		if (streq(rule_table[i].id, id))
			return (ssize_t)i;
	return -1;
}

/* Depth-first search for a cycle from rule v; colour 0 unvisited, 1 on the path, 2 done. */
static bool has_cycle(const struct rule_edge *e, size_t n, size_t v, unsigned char *colour,
		      size_t *ret_at)
{
	colour[v] = 1;
	for (size_t i = 0; i < n; i++) {
		size_t w;

		if (!streq(e[i].cause, rule_table[v].id))
			continue;
		w = (size_t)rule_index(e[i].consequence);
		if (colour[w] == 1 || (colour[w] == 0 && has_cycle(e, n, w, colour, ret_at))) {
			if (colour[w] == 1)
				*ret_at = i;
			return true;
		}
	}
	colour[v] = 2;
	return false;
}

int rule_causes_check(const struct rule_edge *e, size_t n, char *err, size_t errlen)
{
	_cleanup_free_ unsigned char *colour = calloc(rule_table_len, 1);
	size_t at = 0;

	if (!colour)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *bad = rule_index(e[i].cause) < 0	     ? e[i].cause
				  : rule_index(e[i].consequence) < 0 ? e[i].consequence
								     : NULL;

		if (bad) {
			snprintf(err, errlen, "edge %zu: no rule has the id \"%s\"", i, bad);
			return -EINVAL;
		}
		if (streq(e[i].cause, e[i].consequence)) {
			snprintf(err, errlen, "edge %zu: %s explains itself", i, e[i].cause);
			return -EINVAL;
		}
		if (!e[i].why || strlen(e[i].why) < 20) {
			snprintf(err, errlen, "edge %zu (%s → %s): no reason why it holds", i,
				 e[i].cause, e[i].consequence);
			return -EINVAL;
		}
		for (size_t j = 0; j < i; j++)
			if (streq(e[i].cause, e[j].cause) &&
			    streq(e[i].consequence, e[j].consequence)) {
				snprintf(err, errlen, "edges %zu and %zu: %s → %s twice", j, i,
					 e[i].cause, e[i].consequence);
				return -EINVAL;
			}
	}
	for (size_t v = 0; v < rule_table_len; v++)
		if (colour[v] == 0 && has_cycle(e, n, v, colour, &at)) {
			snprintf(err, errlen, "cycle through the edge %s → %s", e[at].cause,
				 e[at].consequence);
			return -EINVAL;
		}
	return 0;
}

/* Is finding a nearer the root than b, among findings no edge orders? */
static bool ranks_before(const struct gpuenv_doctor *d, size_t a, size_t b)
{
	const struct finding *fa = &d->findings[a], *fb = &d->findings[b];
	unsigned la = rule_layer_rank[fa->rule->layer], lb = rule_layer_rank[fb->rule->layer];

	if (fa->rule->advisory != fb->rule->advisory)
		return !fa->rule->advisory;
	if (la != lb)
		return la < lb;
	if (fa->rule != fb->rule)
		return fa->rule < fb->rule; /* the table's order: bottom layer first */
	return a < b;
}

/* The nearest firing cause of finding i: a breadth-first walk up the edges from its rule,
 * level by level, so that a direct cause wins over one further up. Bounded by the table:
 * each rule is visited once, so a cycle (refused by the tests) cannot loop. */
static size_t nearest_cause(const struct gpuenv_doctor *d, const struct rule_edge *e, size_t n,
			    size_t i, bool *seen, const struct rule **level,
			    const struct rule **next)
{
	size_t n_level = 1, best = 0;

	memset(seen, 0, rule_table_len * sizeof(*seen));
	level[0] = d->findings[i].rule;
	seen[level[0] - rule_table] = true;
	while (n_level > 0 && best == 0) {
		size_t n_next = 0;

		for (size_t k = 0; k < n; k++) {
			const struct rule *cause;
			bool hit = false;

			for (size_t l = 0; l < n_level && !hit; l++) /* ids differ mostly at once */
				hit = e[k].consequence[0] == level[l]->id[0] &&
				      streq(e[k].consequence, level[l]->id);
			if (!hit)
				continue;
			cause = rule_find(e[k].cause);
			if (!cause || seen[cause - rule_table])
				continue;
			seen[cause - rule_table] = true;
			next[n_next++] = cause;
		}
		for (size_t l = 0; l < n_next; l++)
			for (size_t j = 0; j < d->n_findings; j++)
				if (d->findings[j].rule == next[l] &&
				    (best == 0 || ranks_before(d, j, best - 1)))
					best = j + 1;
		memcpy(level, next, n_next * sizeof(*level));
		n_level = n_next;
	}
	return best;
}

/* The highest severity among f and everything it explains (directly or further down). */
static enum gpuenv_severity reach(const struct gpuenv_doctor *d, size_t i)
{
	enum gpuenv_severity s = d->findings[i].severity;

	for (size_t j = 0; j < d->n_findings; j++)
		if (j != i && d->findings[j].severity > s && finding_under(d, &d->findings[j], i))
			s = d->findings[j].severity;
	return s;
}

void rules_rank(struct gpuenv_doctor *d, const struct rule_edge *e, size_t n)
{
	_cleanup_free_ bool *seen = calloc(rule_table_len, sizeof(*seen));
	_cleanup_free_ const struct rule **level = calloc(rule_table_len, sizeof(*level));
	_cleanup_free_ const struct rule **next = calloc(rule_table_len, sizeof(*next));
	enum gpuenv_severity best_sev = GPUENV_SEVERITY_INFO, worst = GPUENV_SEVERITY_INFO;

	d->root_cause = 0;
	if (!seen || !level || !next) {
		if (!d->err)
			d->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < d->n_findings; i++)
		d->findings[i].cause = nearest_cause(d, e, n, i, seen, level, next);
	for (size_t i = 0; i < d->n_findings; i++) {
		enum gpuenv_severity s;

		if (d->findings[i].cause)
			continue;
		s = reach(d, i);
		if (s == GPUENV_SEVERITY_INFO)
			continue;
		if (d->root_cause == 0 || s > best_sev ||
		    (s == best_sev && ranks_before(d, i, d->root_cause - 1))) {
			d->root_cause = i + 1;
			best_sev = s;
		}
	}
	for (size_t i = 0; i < d->n_findings; i++)
		worst = MAX(worst, d->findings[i].severity);
	if (d->root_cause && best_sev == worst)
		return;
	/* Only a cycle in the table (refused by test-rank) leaves the worst findings explained
	 * by nothing that ranks: then the worst finding by layer order, never a root cause
	 * milder than what fails. */
	d->root_cause = 0;
	for (size_t j = 0; j < d->n_findings && worst > GPUENV_SEVERITY_INFO; j++)
		if (d->findings[j].severity == worst &&
		    (d->root_cause == 0 || ranks_before(d, j, d->root_cause - 1)))
			d->root_cause = j + 1;
}

const struct finding *finding_cause(const struct gpuenv_doctor *d, const struct finding *f)
{
	return f->cause && f->cause <= d->n_findings ? &d->findings[f->cause - 1] : NULL;
}

const struct finding *diagnosis_root_cause(const struct gpuenv_doctor *d)
{
	return d->root_cause && d->root_cause <= d->n_findings ? &d->findings[d->root_cause - 1]
							       : NULL;
}

bool finding_under(const struct gpuenv_doctor *d, const struct finding *f, size_t top)
{
	/* At most n_findings steps: the causes cannot loop for long even if a table did. */
	for (size_t steps = 0; f && steps <= d->n_findings; steps++) {
		if (f == &d->findings[top])
			return true;
		f = finding_cause(d, f);
	}
	return false;
}

bool finding_under_root(const struct gpuenv_doctor *d, const struct finding *f)
{
	return d->root_cause && finding_under(d, f, d->root_cause - 1);
}
