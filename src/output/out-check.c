// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv check` as text, JSON (docs/policy.md, "Output") and a Markdown job summary (GitHub
 * Actions' $GITHUB_STEP_SUMMARY is GitHub-flavoured Markdown: https://github.github.com/gfm/).
 * Every value that came from the machine or the policy file is written through
 * strbuf_put_escaped (control bytes as \xHH); in Markdown tables also `|`, `<`, `>` and the
 * backtick are neutralised, so a value cannot end the cell, open HTML or a code span.
 */
#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "check/check.h"
#include "formats/policy.h"
#include "output.h"
#include "rules/rules.h"
#include "shared/layer-name.h"
#include "shared/macro.h"

const char *out_check_result_name(enum gpuenv_check_result r)
{
	return r == GPUENV_CHECK_PASS ? "pass" : r == GPUENV_CHECK_FAIL ? "fail" : "errors";
}

const char *out_check_severity_name(int s)
{
	return s >= 2 ? "error" : s == 1 ? "warning" : "info";
}

static const char *mark(enum check_status s)
{
	return s == CHECK_PASS ? "✓" : s == CHECK_FAIL ? "✗" : "–";
}

static void put_md(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		char one[2] = { *s, 0 };

		if (strchr("|<>`*_[]\\", *s))
			strbuf_printf(sb, "&#%d;", (unsigned char)*s);
		else if (strbuf_control_len(s))
			strbuf_put_escaped(sb, one);
		else
			strbuf_putc(sb, *s);
	}
}

/* The rules a reader must see: failing, waived and below-threshold ones. */
static bool rule_shown(const struct check_rule *r)
{
	return r->state == CHECK_RULE_FAILS || r->state == CHECK_RULE_WAIVED ||
	       r->state == CHECK_RULE_BELOW;
}

static void counts(const struct gpuenv_check *c, size_t n[3])
{
	n[0] = n[1] = n[2] = 0;
	for (size_t i = 0; i < c->n_clauses; i++)
		n[c->clauses[i].status]++;
}

int out_check_text(const struct gpuenv_check *c, unsigned flags, struct strbuf *sb)
{
	size_t n[3], waived = 0, failing = 0;
	bool header = false;

	strbuf_printf(sb, "gpuenv check: %s (profile %s, fails on %s",
		      out_check_result_name(c->result), policy_profile_name(c->policy->profile),
		      out_check_severity_name(c->policy->fail_on));
	if (c->policy_path) {
		strbuf_puts(sb, ", policy ");
		strbuf_put_escaped(sb, c->policy_path);
	}
	strbuf_puts(sb, ")\n");
	if (c->n_clauses)
		strbuf_puts(sb, "\nPolicy:\n");
	for (size_t i = 0; i < c->n_clauses; i++) {
		const struct check_clause *cl = &c->clauses[i];

		strbuf_printf(sb, "  %s %s", mark(cl->status), cl->id);
		if (cl->line)
			strbuf_printf(sb, " (line %u)", cl->line);
		strbuf_puts(sb, ": ");
		strbuf_put_escaped(sb, cl->message);
		strbuf_putc(sb, '\n');
	}
	for (size_t i = 0; i < c->n_rules; i++) {
		const struct check_rule *r = &c->rules[i];
		const struct finding *f = check_rule_finding(c, r);

		if (!rule_shown(r) || !f)
			continue;
		if (!header)
			strbuf_puts(sb, "\nFindings:\n");
		header = true;
		waived += r->state == CHECK_RULE_WAIVED;
		failing += r->state == CHECK_RULE_FAILS;
		strbuf_printf(sb, "  %s %s (%s): ",
			      r->state == CHECK_RULE_FAILS    ? "✗"
			      : r->state == CHECK_RULE_WAIVED ? "~"
							      : "·",
			      r->rule->id, out_check_severity_name((int)f->severity));
		strbuf_put_escaped(sb, f->message);
		if (r->state == CHECK_RULE_WAIVED) {
			strbuf_printf(sb, "\n      waived until %s: ",
				      c->policy->waivers[r->waiver - 1].expires);
			strbuf_put_escaped(sb, c->policy->waivers[r->waiver - 1].reason);
		} else if (r->state == CHECK_RULE_BELOW) {
			strbuf_puts(sb, "\n      below the failing severity");
		}
		strbuf_putc(sb, '\n');
	}
	counts(c, n);
	strbuf_printf(sb,
		      "\n%zu clause%s passed, %zu failed, %zu skipped; %zu finding%s failing, %zu "
		      "waived\n",
		      n[0], n[0] == 1 ? "" : "s", n[1], n[2], failing, failing == 1 ? "" : "s",
		      waived);
	(void)flags;
	return sb->err;
}

int out_check_markdown(const struct gpuenv_check *c, unsigned flags, struct strbuf *sb)
{
	size_t n[3];

	counts(c, n);
	strbuf_printf(sb, "## gpuenv check: %s %s\n\n", c->result == GPUENV_CHECK_PASS ? "✅" : "❌",
		      out_check_result_name(c->result));
	strbuf_printf(sb, "Profile `%s`, fails on `%s`", policy_profile_name(c->policy->profile),
		      out_check_severity_name(c->policy->fail_on));
	if (c->policy_path) {
		strbuf_puts(sb, ", policy ");
		put_md(sb, c->policy_path);
	}
	strbuf_printf(sb, ": %zu clauses passed, %zu failed, %zu skipped.\n\n", n[0], n[1], n[2]);
	if (c->n_clauses) {
		strbuf_puts(sb, "| | Clause | Line | Result |\n|---|---|---|---|\n");
		for (size_t i = 0; i < c->n_clauses; i++) {
			const struct check_clause *cl = &c->clauses[i];

			strbuf_printf(sb, "| %s | ", mark(cl->status));
			put_md(sb, cl->id);
			if (cl->line)
				strbuf_printf(sb, " | %u | ", cl->line);
			else
				strbuf_puts(sb, " | | ");
			put_md(sb, cl->message);
			strbuf_puts(sb, " |\n");
		}
		strbuf_putc(sb, '\n');
	}
	strbuf_puts(sb, "| | Rule | Severity | Finding |\n|---|---|---|---|\n");
	for (size_t i = 0; i < c->n_rules; i++) {
		const struct check_rule *r = &c->rules[i];
		const struct finding *f = check_rule_finding(c, r);

		if (!rule_shown(r) || !f)
			continue;
		strbuf_printf(sb, "| %s | `%s` | %s | ",
			      r->state == CHECK_RULE_FAILS    ? "❌"
			      : r->state == CHECK_RULE_WAIVED ? "waived"
							      : "note",
			      r->rule->id, out_check_severity_name((int)f->severity));
		put_md(sb, f->message);
		if (r->waiver) {
			strbuf_printf(sb, " (waived until %s: ",
				      c->policy->waivers[r->waiver - 1].expires);
			put_md(sb, c->policy->waivers[r->waiver - 1].reason);
			strbuf_putc(sb, ')');
		}
		strbuf_puts(sb, " |\n");
	}
	(void)flags;
	return sb->err;
}

int out_check_json(const struct gpuenv_check *c, unsigned flags, struct strbuf *sb)
{
	json_t *root = json_object(), *clauses = json_array(), *rules = json_array();

	if (!root || !clauses || !rules) {
		json_decref(root);
		json_decref(clauses);
		json_decref(rules);
		return -ENOMEM;
	}
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
	(void)flags;
	return out_json_put(root, sb);
}
