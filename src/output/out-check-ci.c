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
 */
#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "check/check.h"
#include "formats/policy.h"
#include "gpuenv/gpuenv.h"
#include "output.h"
#include "rules/rules.h"
#include "shared/layer-name.h"
#include "shared/macro.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define GPUENV_URI   "https://github.com/gpuenv/gpuenv"

static void put_xml(struct strbuf *sb, const char *s)
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

static void junit_case(struct strbuf *sb, const char *classname, const char *name, const char *kind,
		       const char *message, const char *type)
{
	strbuf_puts(sb, "    <testcase classname=\"");
	put_xml(sb, classname);
	strbuf_puts(sb, "\" name=\"");
	put_xml(sb, name);
	strbuf_puts(sb, "\" time=\"0\"");
	if (!kind) {
		strbuf_puts(sb, "/>\n");
		return;
	}
	strbuf_printf(sb, ">\n      <%s message=\"", kind);
	put_xml(sb, message ?: "");
	if (type) {
		strbuf_puts(sb, "\" type=\"");
		put_xml(sb, type);
	}
	strbuf_puts(sb, "\">");
	put_xml(sb, message ?: "");
	strbuf_printf(sb, "</%s>\n    </testcase>\n", kind);
}

int out_check_junit(const struct gpuenv_check *c, unsigned flags, struct strbuf *sb)
{
	size_t cf = 0, cs = 0, rf = 0, rs = 0;

	for (size_t i = 0; i < c->n_clauses; i++) {
		cf += c->clauses[i].status == CHECK_FAIL;
		cs += c->clauses[i].status == CHECK_SKIP;
	}
	for (size_t i = 0; i < c->n_rules; i++) {
		rf += c->rules[i].state == CHECK_RULE_FAILS;
		rs += c->rules[i].state == CHECK_RULE_PROFILE ||
		      c->rules[i].state == CHECK_RULE_NOT_RUN;
	}
	strbuf_puts(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_printf(sb,
		      "<testsuites name=\"gpuenv check\" tests=\"%zu\" failures=\"%zu\" "
		      "errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
		      c->n_clauses + c->n_rules, cf + rf, cs + rs);
	strbuf_printf(sb,
		      "  <testsuite name=\"policy\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		      "skipped=\"%zu\" time=\"0\">\n",
		      c->n_clauses, cf, cs);
	for (size_t i = 0; i < c->n_clauses; i++) {
		const struct check_clause *cl = &c->clauses[i];

		junit_case(sb, "policy", cl->id,
			   cl->status == CHECK_FAIL   ? "failure"
			   : cl->status == CHECK_SKIP ? "skipped"
						      : NULL,
			   cl->message, cl->status == CHECK_FAIL ? "policy" : NULL);
	}
	strbuf_puts(sb, "  </testsuite>\n");
	strbuf_printf(sb,
		      "  <testsuite name=\"rules\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		      "skipped=\"%zu\" time=\"0\">\n",
		      c->n_rules, rf, rs);
	for (size_t i = 0; i < c->n_rules; i++) {
		const struct check_rule *r = &c->rules[i];
		const struct finding *f = check_rule_finding(c, r);
		char cls[64];

		snprintf(cls, sizeof(cls), "rules.%s", layer_name(r->rule->layer));
		switch (r->state) {
		case CHECK_RULE_FAILS:
			junit_case(sb, cls, r->rule->id, "failure", r->message,
				   out_check_severity_name(f ? (int)f->severity : 2));
			break;
		case CHECK_RULE_PROFILE:
			junit_case(sb, cls, r->rule->id, "skipped", "not judged in this profile",
				   NULL);
			break;
		case CHECK_RULE_NOT_RUN:
			junit_case(sb, cls, r->rule->id, "skipped", r->message, NULL);
			break;
		default:
			/* pass, waived and below-threshold findings pass the gate */
			junit_case(sb, cls, r->rule->id, NULL, NULL, NULL);
		}
	}
	strbuf_puts(sb, "  </testsuite>\n</testsuites>\n");
	(void)flags;
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

int out_check_sarif(const struct gpuenv_check *c, unsigned flags, struct strbuf *sb)
{
	json_t *rules = json_array(), *results = json_array(), *root;
	size_t n_catalogue = c->n_rules;
	char version[32];

	for (size_t i = 0; i < c->n_rules; i++)
		json_array_append_new(rules, sarif_rule(c->rules[i].rule));
	/* findings: one result each, a waived one with its suppression (SARIF §3.35) */
	for (size_t i = 0; i < c->doctor->n_findings; i++) {
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
		json_array_append_new(results, res);
	}
	/* failed policy clauses: rules of their own ("policy/gpus.count") at the clause's line */
	for (size_t i = 0; i < c->n_clauses; i++) {
		const struct check_clause *cl = &c->clauses[i];
		char id[200];

		if (cl->status != CHECK_FAIL)
			continue;
		snprintf(id, sizeof(id), "policy/%s", cl->id);
		json_array_append_new(rules, json_pack("{s:s, s:s, s:o, s:{s:s}}", "id", id, "name",
						       id, "shortDescription",
						       text_obj("a policy clause failed"),
						       "defaultConfiguration", "level", "error"));
		json_array_append_new(results,
				      json_pack("{s:s, s:I, s:s, s:o, s:o}", "ruleId", id,
						"ruleIndex", (json_int_t)n_catalogue++, "level",
						"error", "message", text_obj(cl->message),
						"locations", policy_location(c, cl->line)));
	}
	/* the headers' version: the output layer does not call the public API */
	snprintf(version, sizeof(version), "%d.%d.%d", GPUENV_VERSION_MAJOR, GPUENV_VERSION_MINOR,
		 GPUENV_VERSION_MICRO);
	root = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:o}]}", "$schema",
			 SARIF_SCHEMA, "version", "2.1.0", "runs", "tool", "driver", "name",
			 "gpuenv", "version", version, "informationUri", GPUENV_URI, "rules", rules,
			 "results", results);
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

static void gh_line(struct strbuf *sb, const char *cmd, const struct gpuenv_check *c, unsigned line,
		    const char *title, const char *msg)
{
	strbuf_printf(sb, "::%s ", cmd);
	if (c->policy_path) {
		strbuf_puts(sb, "file=");
		put_gh(sb, c->policy_path, true);
		if (line)
			strbuf_printf(sb, ",line=%u", line);
		strbuf_putc(sb, ',');
	}
	strbuf_puts(sb, "title=");
	put_gh(sb, title, true);
	strbuf_puts(sb, "::");
	put_gh(sb, msg, false);
	strbuf_putc(sb, '\n');
}

int out_check_github(const struct gpuenv_check *c, unsigned flags, struct strbuf *sb)
{
	for (size_t i = 0; i < c->n_clauses; i++) {
		const struct check_clause *cl = &c->clauses[i];
		char title[200];

		if (cl->status != CHECK_FAIL)
			continue;
		snprintf(title, sizeof(title), "gpuenv check: policy %s", cl->id);
		gh_line(sb, "error", c, cl->line, title, cl->message);
	}
	for (size_t i = 0; i < c->n_rules; i++) {
		const struct check_rule *r = &c->rules[i];
		const struct finding *f = check_rule_finding(c, r);
		char title[200];

		if (!f || (r->state != CHECK_RULE_FAILS && r->state != CHECK_RULE_BELOW))
			continue;
		snprintf(title, sizeof(title), "gpuenv: %s", r->rule->id);
		gh_line(sb,
			r->state == CHECK_RULE_BELOW ? (f->severity ? "warning" : "notice")
						     : "error",
			c, 0, title, f->message);
	}
	(void)flags;
	return sb->err;
}
