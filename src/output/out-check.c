// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv check` as text and as a Markdown job summary (GitHub Actions' $GITHUB_STEP_SUMMARY
 * is GitHub-flavoured Markdown: https://github.github.com/gfm/), for one check or the matrix
 * of several targets (a verdict table, the coverage matrix of framework × target, then each
 * target's own summary). Every value that came from the machine or the policy file is
 * redacted under --redact (out_check_value()) and written through strbuf_put_escaped (control
 * bytes as \xHH); in Markdown also `|`, `<`, `>`, the backtick and the other inline markers
 * are neutralised, so a value cannot end the cell, open HTML or a code span.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "formats/policy.h"
#include "out-check.h"
#include "output.h"
#include "rules/rules.h"
#include "shared/macro.h"

const char *out_check_result_name(enum gpuenv_check_result r)
{
	return r == GPUENV_CHECK_PASS ? "pass" : r == GPUENV_CHECK_FAIL ? "fail" : "errors";
}

const char *out_check_severity_name(int s)
{
	return s >= 2 ? "error" : s == 1 ? "warning" : "info";
}

enum gpuenv_check_result check_set_result(const struct check_set *s)
{
	enum gpuenv_check_result worst = GPUENV_CHECK_PASS;

	for (size_t i = 0; i < s->n; i++)
		if (s->c[i]->result > worst)
			worst = s->c[i]->result;
	return worst;
}

const char *out_check_value(struct strbuf *sb, const struct gpuenv_check *c, unsigned flags,
			    const char *s, char **tofree)
{
	*tofree = NULL;
	if (!s || !(flags & GPUENV_RENDER_REDACT))
		return s;
	*tofree = check_redact_text(c, s);
	if (!*tofree) {
		sb->err = sb->err ?: -ENOMEM;
		return "";
	}
	return *tofree;
}

static const char *mark(enum check_status s)
{
	return s == CHECK_PASS ? "✓" : s == CHECK_FAIL ? "✗" : "–";
}

/* a value as text: redacted, control bytes escaped */
static void put_txt(struct strbuf *sb, const struct gpuenv_check *c, unsigned flags, const char *s)
{
	char *fr;

	strbuf_put_escaped(sb, out_check_value(sb, c, flags, s, &fr));
	free(fr);
}

/* a value in Markdown: redacted, then every character that could end a cell or start markup
 * as a character reference */
static void put_md(struct strbuf *sb, const struct gpuenv_check *c, unsigned flags, const char *s)
{
	char *fr;

	for (s = out_check_value(sb, c, flags, s, &fr); s && *s; s++) {
		char one[2] = { *s, 0 };

		if (strchr("|<>`*_[]\\", *s))
			strbuf_printf(sb, "&#%d;", (unsigned char)*s);
		else if (strbuf_control_len(s))
			strbuf_put_escaped(sb, one);
		else
			strbuf_putc(sb, *s);
	}
	free(fr);
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

static size_t failing_rules(const struct gpuenv_check *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n_rules; i++)
		n += c->rules[i].state == CHECK_RULE_FAILS;
	return n;
}

static void text_one(const struct gpuenv_check *c, unsigned flags, struct strbuf *sb)
{
	size_t n[3], waived = 0, failing = 0;
	bool header = false;

	strbuf_printf(sb, "gpuenv check: %s (profile %s, fails on %s",
		      out_check_result_name(c->result), policy_profile_name(c->policy->profile),
		      out_check_severity_name(c->policy->fail_on));
	if (c->policy_path) {
		strbuf_puts(sb, ", policy ");
		put_txt(sb, c, flags, c->policy_path);
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
		put_txt(sb, c, flags, cl->message);
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
		put_txt(sb, c, flags, f->message);
		if (r->state == CHECK_RULE_WAIVED) {
			strbuf_printf(sb, "\n      waived until %s: ",
				      c->policy->waivers[r->waiver - 1].expires);
			put_txt(sb, c, flags, c->policy->waivers[r->waiver - 1].reason);
		} else if (r->state == CHECK_RULE_BELOW) {
			strbuf_puts(sb, "\n      below the failing severity");
		}
		strbuf_putc(sb, '\n');
	}
	if (c->n_cells)
		strbuf_puts(sb, "\nCoverage:\n");
	for (size_t i = 0; i < c->n_cells; i++) {
		const struct check_cell *cell = &c->cells[i];

		strbuf_puts(sb, "  ");
		put_txt(sb, c, flags, cell->subject);
		strbuf_printf(sb, ": %s%s", check_cell_label(cell),
			      cell->unconfirmed ? " (unconfirmed)" : "");
		if (cell->gpu) {
			strbuf_puts(sb, " on ");
			put_txt(sb, c, flags, cell->gpu);
		}
		strbuf_puts(sb, "\n      ");
		put_txt(sb, c, flags, cell->reason);
		strbuf_putc(sb, '\n');
	}
	counts(c, n);
	strbuf_printf(sb,
		      "\n%zu clause%s passed, %zu failed, %zu skipped; %zu finding%s failing, %zu "
		      "waived\n",
		      n[0], n[0] == 1 ? "" : "s", n[1], n[2], failing, failing == 1 ? "" : "s",
		      waived);
}

int out_check_text(const struct check_set *s, unsigned flags, struct strbuf *sb)
{
	for (size_t i = 0; i < s->n; i++) {
		const char *t = check_set_target(s, i);

		if (t) {
			strbuf_puts(sb, "== on target ");
			put_txt(sb, s->c[i], flags, t);
			strbuf_puts(sb, " ==\n");
		}
		text_one(s->c[i], flags, sb);
		if (t)
			strbuf_putc(sb, '\n');
	}
	return sb->err;
}

/* The matrix's first column: frameworks, and the files the policy's architectures.binaries
 * named, whose cells check-binaries.c names "binary <path>" */
static const char *subject_header(const struct gpuenv_check *const *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < c[i]->n_cells; k++)
			if (strncmp(c[i]->cells[k].subject, "binary ", 7) == 0)
				return "Framework / binary";
	return "Framework";
}

static const char *cell_icon(const struct check_cell *cell)
{
	if (cell->verdict == COVERAGE_NATIVE)
		return "✅ ";
	if (cell->verdict == COVERAGE_PTX_JIT)
		return "⚠️ ";
	return coverage_verdict_is_failure(cell->verdict) ? "❌ " : "";
}

/* "✅ native (NVIDIA H100 (9.0))" */
static void md_cell(struct strbuf *sb, const struct gpuenv_check *c, unsigned flags,
		    const struct check_cell *cell)
{
	strbuf_printf(sb, "%s%s%s", cell_icon(cell), check_cell_label(cell),
		      cell->unconfirmed ? " (unconfirmed)" : "");
	if (cell->gpu) {
		strbuf_puts(sb, " on ");
		put_md(sb, c, flags, cell->gpu);
	}
}

/* One check's summary: a "##" heading alone, "###" inside a matrix. */
static void markdown_one(const struct gpuenv_check *c, const char *target, bool in_matrix,
			 unsigned flags, struct strbuf *sb)
{
	size_t n[3];

	counts(c, n);
	strbuf_printf(sb, "%s gpuenv check", in_matrix ? "###" : "##");
	if (target) {
		strbuf_puts(sb, " on ");
		put_md(sb, c, flags, target);
	}
	strbuf_printf(sb, ": %s %s\n\n", c->result == GPUENV_CHECK_PASS ? "✅" : "❌",
		      out_check_result_name(c->result));
	strbuf_printf(sb, "Profile `%s`, fails on `%s`", policy_profile_name(c->policy->profile),
		      out_check_severity_name(c->policy->fail_on));
	if (c->policy_path) {
		strbuf_puts(sb, ", policy ");
		put_md(sb, c, flags, c->policy_path);
	}
	strbuf_printf(sb, ": %zu clauses passed, %zu failed, %zu skipped.\n\n", n[0], n[1], n[2]);
	if (c->n_clauses) {
		strbuf_puts(sb, "| | Clause | Line | Result |\n|---|---|---|---|\n");
		for (size_t i = 0; i < c->n_clauses; i++) {
			const struct check_clause *cl = &c->clauses[i];

			strbuf_printf(sb, "| %s | ", mark(cl->status));
			put_md(sb, c, flags, cl->id);
			if (cl->line)
				strbuf_printf(sb, " | %u | ", cl->line);
			else
				strbuf_puts(sb, " | | ");
			put_md(sb, c, flags, cl->message);
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
		put_md(sb, c, flags, f->message);
		if (r->waiver) {
			strbuf_printf(sb, " (waived until %s: ",
				      c->policy->waivers[r->waiver - 1].expires);
			put_md(sb, c, flags, c->policy->waivers[r->waiver - 1].reason);
			strbuf_putc(sb, ')');
		}
		strbuf_puts(sb, " |\n");
	}
	if (!c->n_cells)
		return;
	strbuf_printf(sb, "\n| %s | Coverage | Why |\n|---|---|---|\n", subject_header(&c, 1));
	for (size_t i = 0; i < c->n_cells; i++) {
		strbuf_puts(sb, "| ");
		put_md(sb, c, flags, c->cells[i].subject);
		strbuf_puts(sb, " | ");
		md_cell(sb, c, flags, &c->cells[i]);
		strbuf_puts(sb, " | ");
		put_md(sb, c, flags, c->cells[i].reason);
		strbuf_puts(sb, " |\n");
	}
}

static const struct check_cell *cell_for(const struct gpuenv_check *c, const char *subject)
{
	for (size_t i = 0; i < c->n_cells; i++)
		if (streq(c->cells[i].subject, subject))
			return &c->cells[i];
	return NULL;
}

/* framework × target: each subject once, in the order the targets first show it */
static void markdown_coverage(const struct check_set *s, unsigned flags, struct strbuf *sb)
{
	const char *head;
	bool any = false;

	for (size_t i = 0; i < s->n; i++)
		any |= s->c[i]->n_cells > 0;
	if (!any)
		return;
	head = subject_header(s->c, s->n);
	strbuf_printf(sb, "### Coverage: %s × target\n\n| %s |",
		      streq(head, "Framework") ? "framework" : "framework / binary", head);
	for (size_t i = 0; i < s->n; i++) {
		strbuf_putc(sb, ' ');
		put_md(sb, s->c[i], flags, check_set_target(s, i) ?: "this machine");
		strbuf_puts(sb, " |");
	}
	strbuf_puts(sb, "\n|---|");
	for (size_t i = 0; i < s->n; i++)
		strbuf_puts(sb, "---|");
	strbuf_putc(sb, '\n');
	for (size_t i = 0; i < s->n; i++)
		for (size_t k = 0; k < s->c[i]->n_cells; k++) {
			const char *subject = s->c[i]->cells[k].subject;
			bool seen = false;

			for (size_t j = 0; j < i && !seen; j++)
				seen = cell_for(s->c[j], subject) != NULL;
			for (size_t k2 = 0; k2 < k && !seen; k2++)
				seen = streq(s->c[i]->cells[k2].subject, subject);
			if (seen)
				continue;
			strbuf_puts(sb, "| ");
			put_md(sb, s->c[i], flags, subject);
			strbuf_puts(sb, " |");
			for (size_t j = 0; j < s->n; j++) {
				const struct check_cell *cell = cell_for(s->c[j], subject);

				strbuf_putc(sb, ' ');
				if (cell)
					md_cell(sb, s->c[j], flags, cell);
				else
					strbuf_puts(sb, "–");
				strbuf_puts(sb, " |");
			}
			strbuf_putc(sb, '\n');
		}
	strbuf_putc(sb, '\n');
}

int out_check_markdown(const struct check_set *s, unsigned flags, struct strbuf *sb)
{
	enum gpuenv_check_result worst = check_set_result(s);

	if (s->n == 1) {
		markdown_one(s->c[0], check_set_target(s, 0), false, flags, sb);
		return sb->err;
	}
	strbuf_printf(sb, "## gpuenv check: %s %s (%zu targets)\n\n",
		      worst == GPUENV_CHECK_PASS ? "✅" : "❌", out_check_result_name(worst), s->n);
	strbuf_puts(sb, "| Target | Result | Clauses failed | Findings failing |\n"
			"|---|---|---|---|\n");
	for (size_t i = 0; i < s->n; i++) {
		size_t n[3];

		counts(s->c[i], n);
		strbuf_puts(sb, "| ");
		put_md(sb, s->c[i], flags, check_set_target(s, i) ?: "this machine");
		strbuf_printf(sb, " | %s %s | %zu | %zu |\n",
			      s->c[i]->result == GPUENV_CHECK_PASS ? "✅" : "❌",
			      out_check_result_name(s->c[i]->result), n[1], failing_rules(s->c[i]));
	}
	strbuf_putc(sb, '\n');
	markdown_coverage(s, flags, sb);
	for (size_t i = 0; i < s->n; i++) {
		markdown_one(s->c[i], check_set_target(s, i) ?: "this machine", true, flags, sb);
		strbuf_putc(sb, '\n');
	}
	return sb->err;
}
