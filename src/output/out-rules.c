// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The rule catalogue: the rule table of src/rules/rules.c (id, layer, severity, title,
 * symptom, cause, needs, fix, verify) as text, JSON or Markdown. docs/rules.md is the
 * Markdown form, regenerated with `gpuenv doctor --list-rules --markdown` and checked by a
 * test to be current.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gpuenv/gpuenv.h"
#include "output/output.h"
#include "rules/rules.h"
#include "shared/strbuf.h"

static json_t *strv_json(const char *const *l)
{
	json_t *a = json_array();

	for (size_t i = 0; a && l && l[i]; i++)
		json_array_append_new(a, json_string(l[i]));
	return a;
}

int out_rules_json(struct strbuf *sb)
{
	json_t *a = json_array();
	char *s;

	for (size_t i = 0; a && i < rule_table_len; i++) {
		const struct rule *r = &rule_table[i];

		json_array_append_new(
			a, json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:o,s:o,s:o}", "id", r->id, "layer",
				     rule_layer_name(r->layer), "severity",
				     rule_severity_name(r->severity), "title", r->title, "symptom",
				     r->symptom, "cause", r->cause, "needs", strv_json(r->needs),
				     "fix", strv_json(r->fix), "verify", strv_json(r->verify)));
	}
	s = a ? json_dumps(a, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	json_decref(a);
	if (!s)
		return -ENOMEM;
	strbuf_puts(sb, s);
	strbuf_putc(sb, '\n');
	free(s);
	return sb->err;
}

static void md_lines(struct strbuf *sb, const char *label, const char *const *l)
{
	if (!l || !l[0])
		return;
	strbuf_printf(sb, "\n**%s**\n\n```sh\n", label);
	for (size_t i = 0; l[i]; i++)
		strbuf_printf(sb, "%s\n", l[i]);
	strbuf_puts(sb, "```\n");
}

/* The ranking's edges (src/rules/rules-causes.c) at both ends of the rule, with their reasons:
 * what a reader of one rule needs to know about where its findings stand in a diagnosis. */
static void md_edges(struct strbuf *sb, const struct rule *r)
{
	static const char *const label[2] = { "Explained by", "Explains" };

	for (int dir = 0; dir < 2; dir++) {
		bool first = true;

		for (size_t i = 0; i < rule_causes_len; i++) {
			const struct rule_edge *e = &rule_causes[i];
			const char *self = dir == 0 ? e->consequence : e->cause;
			const char *other = dir == 0 ? e->cause : e->consequence;

			if (!streq(self, r->id))
				continue;
			if (first)
				strbuf_printf(sb, "\n**%s** (when both fire):\n\n", label[dir]);
			strbuf_printf(sb, "- [`%s`](#%s): %s\n", other, other, e->why);
			first = false;
		}
	}
}

int out_rules_markdown(struct strbuf *sb)
{
	strbuf_puts(sb, "# gpuenv rule catalogue\n\n"
			"<!-- Generated from src/rules/rules.c by `gpuenv doctor --list-rules "
			"--markdown`; do not edit. The test rules-doc fails when this file is "
			"stale. -->\n\n"
			"Every rule of `gpuenv doctor`, bottom layer first. A rule whose needs "
			"cannot be read reports \"skipped: could not read …\" instead of passing. "
			"Severity is the highest a finding of the rule can have: error when the "
			"program the user runs will fail, warning when it runs with limits. "
			"\"Explained by\" and \"Explains\" are the edges of the root-cause "
			"ranking (docs/HACKING.md, \"How the ranking works\").\n\n"
			"| id | layer | severity | what |\n|---|---|---|---|\n");
	for (size_t i = 0; i < rule_table_len; i++)
		strbuf_printf(sb, "| [`%s`](#%s) | %s | %s | %s |\n", rule_table[i].id,
			      rule_table[i].id, rule_layer_name(rule_table[i].layer),
			      rule_severity_name(rule_table[i].severity), rule_table[i].title);
	for (size_t i = 0; i < rule_table_len; i++) {
		const struct rule *r = &rule_table[i];

		strbuf_printf(
			sb,
			"\n<a id=\"%s\"></a>\n\n## %s\n\n%s. Layer **%s**, severity **%s**.\n\n"
			"**Symptom:** %s\n\n**Cause:** %s\n",
			r->id, r->id, r->title, rule_layer_name(r->layer),
			rule_severity_name(r->severity), r->symptom, r->cause);
		if (r->needs && r->needs[0]) {
			strbuf_puts(sb, "\n**Needs:** ");
			bool own = false;

			for (size_t n = 0; r->needs[n]; n++) {
				strbuf_printf(sb, "%s`%s`", n ? ", " : "", r->needs[n]);
				own |= r->needs[n][strlen(r->needs[n]) - 1] == '~';
			}
			strbuf_puts(sb,
				    own ? " (`?`: may be absent, not unreadable; `~`: needed by "
					  "one part of the check, which says itself when it "
					  "could not read it)\n"
					: " (`?`: may be absent, not unreadable)\n");
		}
		md_edges(sb, r);
		md_lines(sb, "Fix", r->fix);
		md_lines(sb, "Verify", r->verify);
	}
	return sb->err;
}

int out_rules_text(struct strbuf *sb)
{
	for (size_t i = 0; i < rule_table_len; i++)
		strbuf_printf(sb, "%-38s %-9s %-7s %s\n", rule_table[i].id,
			      rule_layer_name(rule_table[i].layer),
			      rule_severity_name(rule_table[i].severity), rule_table[i].title);
	return sb->err;
}
