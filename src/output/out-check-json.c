// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv check --json` (docs/policy.md, "Output"; schema docs/schema/check.json): one check
 * as {result, exit_code, profile, …, clauses, rules, coverage}, a matrix of targets as
 * {result, exit_code, targets: [one such object per target, with its target]}, the worst
 * result outside. Under --redact every string value is passed through check_redact_text().
 */
#include <errno.h>
#include <jansson.h>

#include "check/check.h"
#include "formats/policy.h"
#include "out-check.h"
#include "output.h"
#include "rules/rules.h"
#include "shared/layer-name.h"

json_t *out_check_lto_json(const struct check_cell *cell)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < cell->n_lto; i++) {
		const struct check_lto *l = &cell->lto[i];
		json_t *nv = cell->nvjitlink ? json_pack("{s:s, s:s}", "version", cell->nvjitlink,
							 "from", cell->nvjitlink_from)
					     : json_null();
		json_t *o = json_pack("{s:s, s:s*, s:o, s:s, s:b, s:o, s:s}", "target", l->target,
				      "library", l->library, "ltoir_version",
				      l->major >= 0 ? json_sprintf("%d.%d", l->major, l->minor)
						    : json_null(),
				      "verdict", ltoir_verdict_name(l->verdict), "unconfirmed",
				      l->unconfirmed, "nvjitlink", nv, "reason", l->reason);

		if (!o || json_array_append_new(a, o) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *coverage_json(const struct gpuenv_check *c)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < c->n_cells; i++) {
		const struct check_cell *cell = &c->cells[i];
		json_t *o = json_pack(
			"{s:s, s:s*, s:s, s:s, s:b, s:b, s:s, s:o}", "subject", cell->subject,
			"gpu", cell->gpu, "verdict", coverage_verdict_name(cell->verdict), "label",
			check_cell_label(cell), "lto_only", cell->lto_only, "unconfirmed",
			cell->unconfirmed, "reason", cell->reason, "lto", out_check_lto_json(cell));

		if (o && cell->lto_truncated)
			json_object_set_new(o, "lto_truncated", json_true());
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *check_json(const struct gpuenv_check *c, const char *target, unsigned flags)
{
	json_t *root = json_object(), *clauses = json_array(), *rules = json_array();

	if (!root || !clauses || !rules) {
		json_decref(root);
		json_decref(clauses);
		json_decref(rules);
		return NULL;
	}
	if (target)
		json_object_set_new(root, "target", json_string(target));
	json_object_set_new(root, "result", json_string(out_check_result_name(c->result)));
	json_object_set_new(root, "exit_code", json_integer(c->result));
	json_object_set_new(root, "profile", json_string(policy_profile_name(c->policy->profile)));
	json_object_set_new(root, "fail_on",
			    json_string(out_check_severity_name(c->policy->fail_on)));
	json_object_set_new(root, "today", json_string(c->today));
	json_object_set_new(root, "policy",
			    c->policy_path ? json_string(c->policy_path) : json_null());
	for (size_t i = 0; i < c->n_clauses; i++) {
		const struct check_clause *cl = &c->clauses[i];

		json_array_append_new(clauses, json_pack("{s:s?, s:I, s:s, s:s?}", "id", cl->id,
							 "line", (json_int_t)cl->line, "status",
							 check_status_name(cl->status), "message",
							 cl->message));
	}
	for (size_t i = 0; i < c->n_rules; i++) {
		const struct check_rule *r = &c->rules[i];
		const struct finding *f = check_rule_finding(c, r);
		json_t *o = json_pack("{s:s, s:s, s:s, s:s?, s:s?}", "id", r->rule->id, "layer",
				      layer_name(r->rule->layer), "state",
				      check_rule_state_name(r->state), "severity",
				      f ? out_check_severity_name((int)f->severity) : NULL,
				      "message", r->message);

		if (o && r->waiver) {
			const struct policy_waiver *w = &c->policy->waivers[r->waiver - 1];

			json_object_set_new(o, "waiver",
					    json_pack("{s:s?, s:s, s:I}", "reason", w->reason,
						      "expires", w->expires, "line",
						      (json_int_t)w->line));
		}
		json_array_append_new(rules, o);
	}
	json_object_set_new(root, "clauses", clauses);
	json_object_set_new(root, "rules", rules);
	json_object_set_new(root, "coverage", coverage_json(c));
	if ((flags & GPUENV_RENDER_REDACT) && check_redact_json(c, root) < 0) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int out_check_json(const struct check_set *s, unsigned flags, struct strbuf *sb)
{
	enum gpuenv_check_result worst = check_set_result(s);
	json_t *root, *targets;

	if (s->n == 1) {
		root = check_json(s->c[0], check_set_target(s, 0), flags);
		return root ? out_json_put(root, sb) : -ENOMEM;
	}
	targets = json_array();
	root = json_pack("{s:s, s:I, s:o}", "result", out_check_result_name(worst), "exit_code",
			 (json_int_t)worst, "targets", targets);
	if (!root)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		json_t *one = check_json(s->c[i], check_set_target(s, i) ?: "this machine", flags);

		if (!one || json_array_append_new(targets, one) < 0) {
			json_decref(root);
			return -ENOMEM;
		}
	}
	return out_json_put(root, sb);
}
