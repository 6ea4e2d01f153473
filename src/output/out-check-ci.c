// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv check` in the formats CI systems read:
 *  - JUnit XML as Jenkins' JUnit plugin and GitLab's unit test reports read it
 *    (https://docs.gitlab.com/ee/ci/testing/unit_test_reports.html, the schema of
 *    tests/data/junit.xsd): one <testsuite> of policy clauses, one of the rule catalogue,
 *    a <testcase> each, <failure> or <skipped> inside;
 *  - SARIF 2.1.0 (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html;
 *    GitHub code scanning's subset: https://docs.github.com/en/code-security/code-scanning/
 *    integrating-with-code-scanning/sarif-support-for-code-scanning): one result per
 *    finding and per failed clause, the rule metadata from the catalogue (rules.c);
 *  - GitHub Actions workflow commands (https://docs.github.com/en/actions/using-workflows/
 *    workflow-commands-for-github-actions): `::error title=…::message`, escaped as the
 *    actions toolkit's command.ts does (% \r \n in data, also : and , in properties).
 * XML 1.0 cannot hold C0 controls at all (not even as references: §2.2 Char), so they are
 * written as the text \xHH, as in every other output.
 * A matrix (several --host/--target) is one document of each: a JUnit <testsuite> per target
 * (classnames prefixed with the target: Jenkins names a test by classname and name alone),
 * one SARIF run whose results carry their target (a "target" property, SARIF §3.8 property
 * bags; the message starts "[on TARGET]"): GitHub code scanning no longer accepts several
 * runs of one tool and category in an upload
 * (https://github.blog/changelog/2024-05-06-code-scanning-will-stop-combining-runs-from-a-single-upload),
 * and annotations whose titles name the target. Every value from the machine or the policy is
 * redacted under --redact before it is escaped (out_check_value(), check_redact_json()).
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "formats/policy.h"
#include "gpuenv/gpuenv.h"
#include "out-check.h"
#include "output.h"
#include "rules/rules.h"
#include "shared/layer-name.h"
#include "shared/macro.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define GPUENV_URI   "https://github.com/gpuenv/gpuenv"

static void xml_escaped(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		size_t ctl = strbuf_control_len(s);

		if (ctl) {
			for (size_t k = 0; k < ctl; k++)
				strbuf_printf(sb, "\\x%02x", (unsigned char)s[k]);
			s += ctl - 1;
			continue;
		}
		switch (*s) {
		case '&':
			strbuf_puts(sb, "&amp;");
			break;
		case '<':
			strbuf_puts(sb, "&lt;");
			break;
		case '>':
			strbuf_puts(sb, "&gt;");
			break;
		case '"':
			strbuf_puts(sb, "&quot;");
			break;
		case '\'':
			strbuf_puts(sb, "&apos;");
			break;
		default:
			strbuf_putc(sb, *s);
		}
	}
}

/* a value in XML: redacted, then escaped */
static void put_xml(struct strbuf *sb, const struct gpuenv_check *c, unsigned flags, const char *s)
{
	char *fr;

	xml_escaped(sb, out_check_value(sb, c, flags, s, &fr));
	free(fr);
}

struct junit {
	struct strbuf *sb;
	const struct gpuenv_check *c;
	unsigned flags;
	const char *target; /* matrix: the classnames' prefix */
};

static void junit_case(const struct junit *j, const char *classname, const char *name,
		       const char *kind, const char *message, const char *type)
{
	struct strbuf *sb = j->sb;

	strbuf_puts(sb, "    <testcase classname=\"");
	if (j->target) {
		put_xml(sb, j->c, j->flags, j->target);
		strbuf_puts(sb, ": ");
	}
	xml_escaped(sb, classname);
	strbuf_puts(sb, "\" name=\"");
	put_xml(sb, j->c, j->flags, name);
	strbuf_puts(sb, "\" time=\"0\"");
	if (!kind) {
		strbuf_puts(sb, "/>\n");
		return;
	}
	strbuf_printf(sb, ">\n      <%s message=\"", kind);
	put_xml(sb, j->c, j->flags, message ?: "");
	if (type) {
		strbuf_puts(sb, "\" type=\"");
		xml_escaped(sb, type);
	}
	strbuf_puts(sb, "\">");
	put_xml(sb, j->c, j->flags, message ?: "");
	strbuf_printf(sb, "</%s>\n    </testcase>\n", kind);
}

struct junit_counts {
	size_t clauses_failed, clauses_skipped, rules_failed, rules_skipped;
};

static struct junit_counts junit_count(const struct gpuenv_check *c)
{
	struct junit_counts n = { 0 };

	for (size_t i = 0; i < c->n_clauses; i++) {
		n.clauses_failed += c->clauses[i].status == CHECK_FAIL;
		n.clauses_skipped += c->clauses[i].status == CHECK_SKIP;
	}
	for (size_t i = 0; i < c->n_rules; i++) {
		n.rules_failed += c->rules[i].state == CHECK_RULE_FAILS;
		n.rules_skipped += c->rules[i].state == CHECK_RULE_PROFILE ||
				   c->rules[i].state == CHECK_RULE_NOT_RUN;
	}
	return n;
}

/* Is the cell's subject ("library /usr/lib/libx.so.1") the file that holds the entry? Then
 * the property's name says it once. */
static bool subject_is(const char *subject, const char *library)
{
	size_t s = strlen(subject), l = strlen(library);

	return s > l && subject[s - l - 1] == ' ' && strcmp(subject + s - l, library) == 0;
}

/* A cell's LTO-IR entries, one property each: "lto: SUBJECT: [LIBRARY: ]lto_90" =
 * "VERDICT[ (unconfirmed)]: REASON" (the verdict names of check --json's coverage[].lto[]). */
static void junit_lto_properties(const struct junit *j, const struct check_cell *cell)
{
	for (size_t i = 0; i < cell->n_lto; i++) {
		const struct check_lto *l = &cell->lto[i];

		strbuf_puts(j->sb, "      <property name=\"lto: ");
		put_xml(j->sb, j->c, j->flags, cell->subject);
		strbuf_puts(j->sb, ": ");
		if (l->library && !subject_is(cell->subject, l->library)) {
			put_xml(j->sb, j->c, j->flags, l->library);
			strbuf_puts(j->sb, ": ");
		}
		put_xml(j->sb, j->c, j->flags, l->target);
		strbuf_printf(j->sb, "\" value=\"%s%s: ", ltoir_verdict_name(l->verdict),
			      l->unconfirmed ? " (unconfirmed)" : "");
		put_xml(j->sb, j->c, j->flags, l->reason);
		strbuf_puts(j->sb, "\"/>\n");
	}
}

/* The coverage cells (and the target) as the suite's <properties>: data, not testcases (the
 * rules framework.no-kernel-image … are the testcases that fail for them). */
static void junit_properties(const struct junit *j, const char *target)
{
	const struct gpuenv_check *c = j->c;

	if (!target && !c->n_cells)
		return;
	strbuf_puts(j->sb, "    <properties>\n");
	if (target) {
		strbuf_puts(j->sb, "      <property name=\"target\" value=\"");
		put_xml(j->sb, c, j->flags, target);
		strbuf_puts(j->sb, "\"/>\n");
	}
	for (size_t i = 0; i < c->n_cells; i++) {
		const struct check_cell *cell = &c->cells[i];

		strbuf_puts(j->sb, "      <property name=\"coverage: ");
		put_xml(j->sb, c, j->flags, cell->subject);
		strbuf_printf(j->sb, "\" value=\"%s", check_cell_label(cell));
		if (cell->gpu) {
			strbuf_puts(j->sb, " on ");
			put_xml(j->sb, c, j->flags, cell->gpu);
		}
		strbuf_puts(j->sb, ": ");
		put_xml(j->sb, c, j->flags, cell->reason);
		strbuf_puts(j->sb, "\"/>\n");
		junit_lto_properties(j, cell);
	}
	strbuf_puts(j->sb, "    </properties>\n");
}

static void junit_clauses(const struct junit *j)
{
	for (size_t i = 0; i < j->c->n_clauses; i++) {
		const struct check_clause *cl = &j->c->clauses[i];

		junit_case(j, "policy", cl->id,
			   cl->status == CHECK_FAIL   ? "failure"
			   : cl->status == CHECK_SKIP ? "skipped"
						      : NULL,
			   cl->message, cl->status == CHECK_FAIL ? "policy" : NULL);
	}
}

static void junit_rules(const struct junit *j)
{
	for (size_t i = 0; i < j->c->n_rules; i++) {
		const struct check_rule *r = &j->c->rules[i];
		const struct finding *f = check_rule_finding(j->c, r);
		char cls[64];

		snprintf(cls, sizeof(cls), "rules.%s", layer_name(r->rule->layer));
		switch (r->state) {
		case CHECK_RULE_FAILS:
			junit_case(j, cls, r->rule->id, "failure", r->message,
				   out_check_severity_name(f ? (int)f->severity : 2));
			break;
		case CHECK_RULE_PROFILE:
			junit_case(j, cls, r->rule->id, "skipped", "not judged in this profile",
				   NULL);
			break;
		case CHECK_RULE_NOT_RUN:
			junit_case(j, cls, r->rule->id, "skipped", r->message, NULL);
			break;
		default:
			/* pass, waived and below-threshold findings pass the gate */
			junit_case(j, cls, r->rule->id, NULL, NULL, NULL);
		}
	}
}

int out_check_junit(const struct check_set *s, unsigned flags, struct strbuf *sb)
{
	size_t tests = 0, failures = 0, skipped = 0;

	for (size_t i = 0; i < s->n; i++) {
		struct junit_counts n = junit_count(s->c[i]);

		tests += s->c[i]->n_clauses + s->c[i]->n_rules;
		failures += n.clauses_failed + n.rules_failed;
		skipped += n.clauses_skipped + n.rules_skipped;
	}
	strbuf_puts(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_printf(sb,
		      "<testsuites name=\"gpuenv check\" tests=\"%zu\" failures=\"%zu\" "
		      "errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
		      tests, failures, skipped);
	for (size_t i = 0; i < s->n; i++) {
		const struct gpuenv_check *c = s->c[i];
		struct junit_counts n = junit_count(c);
		const char *target = check_set_target(s, i);
		struct junit j = { sb, c, flags, NULL };

		if (s->n > 1) {
			/* the matrix: one suite per target */
			j.target = target ?: "this machine";
			strbuf_puts(sb, "  <testsuite name=\"on ");
			put_xml(sb, c, flags, j.target);
			strbuf_printf(sb,
				      "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
				      "skipped=\"%zu\" time=\"0\">\n",
				      c->n_clauses + c->n_rules, n.clauses_failed + n.rules_failed,
				      n.clauses_skipped + n.rules_skipped);
			junit_properties(&j, j.target);
			junit_clauses(&j);
			junit_rules(&j);
			strbuf_puts(sb, "  </testsuite>\n");
			continue;
		}
		strbuf_printf(sb,
			      "  <testsuite name=\"policy\" tests=\"%zu\" failures=\"%zu\" "
			      "errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
			      c->n_clauses, n.clauses_failed, n.clauses_skipped);
		junit_properties(&j, target);
		junit_clauses(&j);
		strbuf_puts(sb, "  </testsuite>\n");
		strbuf_printf(sb,
			      "  <testsuite name=\"rules\" tests=\"%zu\" failures=\"%zu\" "
			      "errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
			      c->n_rules, n.rules_failed, n.rules_skipped);
		junit_rules(&j);
		strbuf_puts(sb, "  </testsuite>\n");
	}
	strbuf_puts(sb, "</testsuites>\n");
	return sb->err;
}

static const char *sarif_level(int severity)
{
	return severity >= 2 ? "error" : severity == 1 ? "warning" : "note";
}

static json_t *text_obj(const char *s)
{
	return json_pack("{s:s}", "text", s && *s ? s : "-");
}

static json_t *sarif_rule(const struct rule *r)
{
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:{s:s}, s:{s:s}}", "id", r->id, "name", r->id,
			      "shortDescription", text_obj(r->title), "fullDescription",
			      text_obj(r->cause ?: r->title), "defaultConfiguration", "level",
			      sarif_level((int)r->severity), "properties", "layer",
			      layer_name(r->layer));
	struct strbuf help = STRBUF_INIT;

	for (const char *const *f = r->fix; o && f && *f; f++)
		strbuf_printf(&help, "%s%s", help.len ? "\n" : "Fix:\n", *f);
	if (o && help.len && !help.err)
		json_object_set_new(o, "help", text_obj(strbuf_str(&help)));
	strbuf_done(&help);
	return o;
}

static json_t *policy_location(const struct gpuenv_check *c, unsigned line)
{
	json_t *loc;

	if (!c->policy_path)
		return json_array();
	loc = json_pack("{s:{s:s}}", "artifactLocation", "uri", c->policy_path);
	if (loc && line)
		json_object_set_new(loc, "region",
				    json_pack("{s:I}", "startLine", (json_int_t)line));
	return json_pack("[{s:o}]", "physicalLocation", loc);
}

/* The failed clause's rule ("policy/gpus.count"), added once for the whole matrix: its
 * index in rules. */
static size_t clause_rule(json_t *rules, json_t *seen, const char *id)
{
	json_t *at = json_object_get(seen, id);

	if (at)
		return (size_t)json_integer_value(at);
	json_array_append_new(rules,
			      json_pack("{s:s, s:s, s:o, s:{s:s}}", "id", id, "name", id,
					"shortDescription", text_obj("a policy clause failed"),
					"defaultConfiguration", "level", "error"));
	json_object_set_new(seen, id, json_integer((json_int_t)json_array_size(rules) - 1));
	return json_array_size(rules) - 1;
}

/* A result of check c: under --redact its strings are, its target named when there is one
 * (in the message too within a matrix, where code scanning shows nothing else of it). */
static int add_result(json_t *results, const struct gpuenv_check *c, const char *target,
		      bool matrix, unsigned flags, json_t *res)
{
	json_t *msg = json_object_get(res, "message");

	if (!res)
		return -ENOMEM;
	if (target) {
		json_t *props = json_object_get(res, "properties");

		if (!props) {
			props = json_object();
			json_object_set_new(res, "properties", props);
		}
		json_object_set_new(props, "target", json_string(target));
	}
	if (matrix && msg) {
		char *text = NULL;

		if (asprintf(&text, "[on %s] %s", target,
			     json_string_value(json_object_get(msg, "text"))) < 0) {
			json_decref(res);
			return -ENOMEM;
		}
		json_object_set_new(msg, "text", json_string(text));
		free(text);
	}
	if ((flags & GPUENV_RENDER_REDACT) && check_redact_json(c, res) < 0) {
		json_decref(res);
		return -ENOMEM;
	}
	return json_array_append_new(results, res) < 0 ? -ENOMEM : 0;
}

static int sarif_check(const struct gpuenv_check *c, const char *target, bool matrix,
		       unsigned flags, json_t *rules, json_t *seen, json_t *results)
{
	int r = 0;

	/* findings: one result each, a waived one with its suppression (SARIF §3.35) */
	for (size_t i = 0; r == 0 && i < c->doctor->n_findings; i++) {
		const struct finding *f = &c->doctor->findings[i];
		const struct check_rule *cr = NULL;
		json_t *res;

		for (size_t k = 0; k < c->n_rules; k++)
			if (c->rules[k].rule == f->rule)
				cr = &c->rules[k];
		if (!cr || cr->state == CHECK_RULE_PROFILE)
			continue;
		res = json_pack(
			"{s:s, s:I, s:s, s:o, s:o, s:{s:s, s:s}}", "ruleId", f->rule->id,
			"ruleIndex", (json_int_t)(cr - c->rules), "level",
			sarif_level((int)f->severity), "message", text_obj(f->message), "locations",
			policy_location(c,
					cr->waiver ? c->policy->waivers[cr->waiver - 1].line : 0),
			"properties", "layer", layer_name(f->rule->layer), "gate",
			check_rule_state_name(cr->state));
		if (res && cr->waiver)
			json_object_set_new(res, "suppressions",
					    json_pack("[{s:s, s:s}]", "kind", "external",
						      "justification",
						      c->policy->waivers[cr->waiver - 1].reason));
		r = add_result(results, c, target, matrix, flags, res);
	}
	/* failed policy clauses: rules of their own ("policy/gpus.count") at the clause's line */
	for (size_t i = 0; r == 0 && i < c->n_clauses; i++) {
		const struct check_clause *cl = &c->clauses[i];
		char id[200];
		size_t at;

		if (cl->status != CHECK_FAIL)
			continue;
		snprintf(id, sizeof(id), "policy/%s", cl->id);
		at = clause_rule(rules, seen, id);
		r = add_result(results, c, target, matrix, flags,
			       json_pack("{s:s, s:I, s:s, s:o, s:o}", "ruleId", id, "ruleIndex",
					 (json_int_t)at, "level", "error", "message",
					 text_obj(cl->message), "locations",
					 policy_location(c, cl->line)));
	}
	return r;
}

/* run.properties.coverage: the matrix of framework × target (SARIF §3.8 property bag). */
static int sarif_coverage(const struct gpuenv_check *c, const char *target, unsigned flags,
			  json_t *coverage)
{
	for (size_t i = 0; i < c->n_cells; i++) {
		const struct check_cell *cell = &c->cells[i];
		json_t *o = json_pack("{s:s*, s:s, s:s*, s:s, s:s, s:s, s:o}", "target", target,
				      "subject", cell->subject, "gpu", cell->gpu, "verdict",
				      coverage_verdict_name(cell->verdict), "label",
				      check_cell_label(cell), "reason", cell->reason, "lto",
				      out_check_lto_json(cell));

		if (!o || ((flags & GPUENV_RENDER_REDACT) && check_redact_json(c, o) < 0) ||
		    json_array_append_new(coverage, o) < 0)
			return -ENOMEM;
	}
	return 0;
}

int out_check_sarif(const struct check_set *s, unsigned flags, struct strbuf *sb)
{
	json_t *rules = json_array(), *results = json_array(), *seen = json_object();
	json_t *coverage = json_array(), *root;
	char version[32];
	int r = rules && results && seen && coverage ? 0 : -ENOMEM;

	/* the catalogue, the same for every check: ruleIndex is the rule's place in it */
	for (size_t i = 0; r == 0 && i < s->c[0]->n_rules; i++)
		json_array_append_new(rules, sarif_rule(s->c[0]->rules[i].rule));
	for (size_t i = 0; r == 0 && i < s->n; i++) {
		const char *target = check_set_target(s, i) ?: (s->n > 1 ? "this machine" : NULL);

		r = sarif_check(s->c[i], target, s->n > 1, flags, rules, seen, results);
		if (r == 0)
			r = sarif_coverage(s->c[i], target, flags, coverage);
	}
	json_decref(seen);
	if (r < 0) {
		json_decref(rules);
		json_decref(results);
		json_decref(coverage);
		return r;
	}
	/* the headers' version: the output layer does not call the public API */
	snprintf(version, sizeof(version), "%d.%d.%d", GPUENV_VERSION_MAJOR, GPUENV_VERSION_MINOR,
		 GPUENV_VERSION_MICRO);
	root = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:o, s:{s:o}}]}", "$schema",
			 SARIF_SCHEMA, "version", "2.1.0", "runs", "tool", "driver", "name",
			 "gpuenv", "version", version, "informationUri", GPUENV_URI, "rules", rules,
			 "results", results, "properties", "coverage", coverage);
	if (!root)
		return -ENOMEM;
	return out_json_put(root, sb);
}

/* Workflow command escaping (actions/toolkit packages/core/src/command.ts): data escapes
 * % \r \n; a property value also : and ,. Other control bytes become the text \xHH. */
static void put_gh(struct strbuf *sb, const char *s, bool property)
{
	for (; s && *s; s++) {
		size_t ctl = strbuf_control_len(s);

		if (*s == '%')
			strbuf_puts(sb, "%25");
		else if (*s == '\r')
			strbuf_puts(sb, "%0D");
		else if (*s == '\n')
			strbuf_puts(sb, "%0A");
		else if (property && *s == ':')
			strbuf_puts(sb, "%3A");
		else if (property && *s == ',')
			strbuf_puts(sb, "%2C");
		else if (ctl) {
			for (size_t k = 0; k < ctl; k++)
				strbuf_printf(sb, "\\x%02x", (unsigned char)s[k]);
			s += ctl - 1;
		} else
			strbuf_putc(sb, *s);
	}
}

static void gh_line(struct strbuf *sb, const char *cmd, const struct gpuenv_check *c,
		    unsigned flags, unsigned line, const char *title, const char *msg)
{
	char *fr;

	strbuf_printf(sb, "::%s ", cmd);
	if (c->policy_path) {
		strbuf_puts(sb, "file=");
		put_gh(sb, out_check_value(sb, c, flags, c->policy_path, &fr), true);
		free(fr);
		if (line)
			strbuf_printf(sb, ",line=%u", line);
		strbuf_putc(sb, ',');
	}
	strbuf_puts(sb, "title=");
	put_gh(sb, out_check_value(sb, c, flags, title, &fr), true);
	free(fr);
	strbuf_puts(sb, "::");
	put_gh(sb, out_check_value(sb, c, flags, msg, &fr), false);
	free(fr);
	strbuf_putc(sb, '\n');
}

/* "gpuenv check" or "gpuenv check on TARGET" (truncated to fit: a title is one line) */
static void gh_title(char *buf, size_t len, const char *target, const char *what)
{
	if (target)
		snprintf(buf, len, "gpuenv%s on %.160s: %s", what ? "" : " check", target,
			 what ?: "verdict");
	else
		snprintf(buf, len, "gpuenv%s: %s", what ? "" : " check", what ?: "verdict");
}

static void github_one(const struct gpuenv_check *c, const char *target, unsigned flags,
		       struct strbuf *sb)
{
	char title[512], what[200];

	for (size_t i = 0; i < c->n_clauses; i++) {
		const struct check_clause *cl = &c->clauses[i];

		if (cl->status != CHECK_FAIL)
			continue;
		snprintf(what, sizeof(what), "policy %s", cl->id);
		if (target)
			gh_title(title, sizeof(title), target, what);
		else
			snprintf(title, sizeof(title), "gpuenv check: %s", what);
		gh_line(sb, "error", c, flags, cl->line, title, cl->message);
	}
	for (size_t i = 0; i < c->n_rules; i++) {
		const struct check_rule *r = &c->rules[i];
		const struct finding *f = check_rule_finding(c, r);

		if (!f || (r->state != CHECK_RULE_FAILS && r->state != CHECK_RULE_BELOW))
			continue;
		gh_title(title, sizeof(title), target, r->rule->id);
		gh_line(sb,
			r->state == CHECK_RULE_BELOW ? (f->severity ? "warning" : "notice")
						     : "error",
			c, flags, 0, title, f->message);
	}
	if (target) {
		/* the target's verdict and coverage, one line: the matrix's row */
		struct strbuf msg = STRBUF_INIT;

		strbuf_printf(&msg, "%s", out_check_result_name(c->result));
		for (size_t i = 0; i < c->n_cells; i++)
			strbuf_printf(&msg, "%s%s: %s%s%s",
				      i ? "; " : "; coverage: ", c->cells[i].subject,
				      check_cell_label(&c->cells[i]), c->cells[i].gpu ? " on " : "",
				      c->cells[i].gpu ?: "");
		gh_title(title, sizeof(title), target, NULL);
		gh_line(sb, c->result == GPUENV_CHECK_PASS ? "notice" : "error", c, flags, 0, title,
			strbuf_str(&msg));
		if (msg.err)
			sb->err = sb->err ?: msg.err;
		strbuf_done(&msg);
	}
}

int out_check_github(const struct check_set *s, unsigned flags, struct strbuf *sb)
{
	for (size_t i = 0; i < s->n; i++)
		github_one(s->c[i], check_set_target(s, i) ?: (s->n > 1 ? "this machine" : NULL),
			   flags, sb);
	return sb->err;
}
