// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv diff` rendered: text, Markdown and JSON (docs/fleet.md, "gpuenv diff"). The drift
 * layer by layer (host, hardware, driver, runtime, framework, container, environment), the
 * findings that appeared or went away, then apart the identity keys and the readings.
 */
#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "drift/drift.h"
#include "output/output.h"
#include "rules/rules.h"
#include "shared/macro.h"

/* The sections of a snapshot in the order the report prints them; NULL: everything else. */
static const char *const sections[] = {
	"host", "hardware", "driver", "runtime", "framework", "container", "environment", NULL,
};

static bool in_section(const char *path, const char *section)
{
	size_t n;

	if (!section) {
		for (size_t i = 0; sections[i]; i++)
			if (in_section(path, sections[i]))
				return false;
		return true;
	}
	n = strlen(section);
	return strncmp(path, section, n) == 0 && (path[n] == '.' || path[n] == '\0');
}

static const char change_mark[] = { '+', '-', '~' };

static void text_entry(struct strbuf *sb, const struct diff_entry *e)
{
	strbuf_printf(sb, "  %c %s: ", change_mark[e->change], e->path);
	if (e->change == DIFF_CHANGED) {
		strbuf_put_escaped(sb, e->a);
		strbuf_puts(sb, " → ");
		strbuf_put_escaped(sb, e->b);
	} else {
		strbuf_put_escaped(sb, e->a ? e->a : e->b);
	}
	strbuf_putc(sb, '\n');
}

static const char *verdict_name(enum gpuenv_verdict v)
{
	static const char *const names[] = { "healthy", "warnings", "errors", "unevaluated" };

	return (unsigned)v < ARRAY_SIZE(names) ? names[v] : "?";
}

int out_diff_text(const struct gpuenv_diff *d, unsigned flags, struct strbuf *sb)
{
	size_t total = drift_diff_count(d);

	strbuf_puts(sb, "gpuenv diff ");
	strbuf_put_escaped(sb, d->side[0].name);
	strbuf_puts(sb, " → ");
	strbuf_put_escaped(sb, d->side[1].name);
	if (total == 0)
		strbuf_puts(sb, ": no differences");
	else
		strbuf_printf(sb, ": %zu difference%s (%zu fact%s, %zu finding%s)", total,
			      total == 1 ? "" : "s", d->n_class[DIFF_DRIFT],
			      d->n_class[DIFF_DRIFT] == 1 ? "" : "s", d->n_findings,
			      d->n_findings == 1 ? "" : "s");
	strbuf_printf(sb, "; apart: %zu identity key%s, %zu reading%s\n", d->n_class[DIFF_IDENTITY],
		      d->n_class[DIFF_IDENTITY] == 1 ? "" : "s", d->n_class[DIFF_READING],
		      d->n_class[DIFF_READING] == 1 ? "" : "s");
	for (size_t s = 0; s < ARRAY_SIZE(sections); s++) {
		bool head = false;

		for (size_t i = 0; i < d->n_entries; i++) {
			const struct diff_entry *e = &d->entries[i];

			if (e->class != DIFF_DRIFT || !in_section(e->path, sections[s]))
				continue;
			if (!head)
				strbuf_printf(sb, "\n%s\n", sections[s] ? sections[s] : "other");
			head = true;
			text_entry(sb, e);
		}
	}
	if (d->n_findings) {
		strbuf_puts(sb, "\nfindings\n");
		for (size_t i = 0; i < d->n_findings; i++) {
			const struct diff_finding *f = &d->findings[i];

			strbuf_printf(sb, "  %c %s %s (%s)", f->appeared ? '+' : '-',
				      rule_severity_name(f->severity), f->rule_id,
				      f->appeared ? "appeared" : "went away");
			if (f->subject) {
				strbuf_puts(sb, " [");
				strbuf_put_escaped(sb, f->subject);
				strbuf_putc(sb, ']');
			}
			strbuf_puts(sb, ": ");
			strbuf_put_escaped(sb, f->message);
			strbuf_putc(sb, '\n');
		}
	}
	strbuf_printf(sb, "\nverdict: %s → %s; root cause: %s → %s\n",
		      verdict_name(d->side[0].verdict), verdict_name(d->side[1].verdict),
		      d->side[0].root_cause ? d->side[0].root_cause : "none",
		      d->side[1].root_cause ? d->side[1].root_cause : "none");
	for (enum diff_class c = DIFF_IDENTITY; c < _DIFF_CLASS_MAX; c++) {
		if (!d->n_class[c])
			continue;
		strbuf_puts(sb,
			    c == DIFF_IDENTITY
				    ? "\nnot drift: keys that name the machine (hostname, UUIDs, "
				      "serials, bus ids)\n"
				    : "\nnot drift: readings that move on their own\n");
		for (size_t i = 0; i < d->n_entries; i++)
			if (d->entries[i].class == c)
				text_entry(sb, &d->entries[i]);
	}
	return sb->err;
}

/* A Markdown table cell: inline code with its pipes escaped (GFM tables). */
static void md_cell(struct strbuf *sb, const char *s)
{
	if (!s) {
		strbuf_puts(sb, " |");
		return;
	}
	strbuf_puts(sb, " `");
	for (; *s; s++) {
		if (*s == '|')
			strbuf_puts(sb, "\\|");
		else if (*s == '`')
			strbuf_putc(sb, '\'');
		else if (strbuf_control_len(s))
			strbuf_putc(sb, ' ');
		else
			strbuf_putc(sb, *s);
	}
	strbuf_puts(sb, "` |");
}

int out_diff_markdown(const struct gpuenv_diff *d, unsigned flags, struct strbuf *sb)
{
	strbuf_puts(sb, "### gpuenv diff\n\n|  | A | B |\n|---|---|---|\n| file |");
	md_cell(sb, d->side[0].name);
	md_cell(sb, d->side[1].name);
	strbuf_printf(sb, "\n| verdict | %s | %s |\n| root cause |",
		      verdict_name(d->side[0].verdict), verdict_name(d->side[1].verdict));
	md_cell(sb, d->side[0].root_cause ? d->side[0].root_cause : "none");
	md_cell(sb, d->side[1].root_cause ? d->side[1].root_cause : "none");
	strbuf_putc(sb, '\n');
	for (enum diff_class c = DIFF_DRIFT; c < _DIFF_CLASS_MAX; c++) {
		if (!d->n_class[c] && c != DIFF_DRIFT)
			continue;
		strbuf_printf(sb, "\n#### %s\n\n",
			      c == DIFF_DRIFT	   ? "Drift"
			      : c == DIFF_IDENTITY ? "Not drift: keys that name the machine"
						   : "Not drift: readings");
		if (!d->n_class[c]) {
			strbuf_puts(sb, "No fact differs.\n");
			continue;
		}
		strbuf_puts(sb, "| change | key | A | B |\n|---|---|---|---|\n");
		for (size_t i = 0; i < d->n_entries; i++) {
			const struct diff_entry *e = &d->entries[i];

			if (e->class != c)
				continue;
			strbuf_printf(sb, "| %s |", diff_change_name(e->change));
			md_cell(sb, e->path);
			md_cell(sb, e->a);
			md_cell(sb, e->b);
			strbuf_putc(sb, '\n');
		}
	}
	if (d->n_findings) {
		strbuf_puts(sb, "\n#### Findings\n\n| | severity | rule | subject | message |\n"
				"|---|---|---|---|---|\n");
		for (size_t i = 0; i < d->n_findings; i++) {
			const struct diff_finding *f = &d->findings[i];

			strbuf_printf(sb, "| %s | %s |", f->appeared ? "appeared" : "went away",
				      rule_severity_name(f->severity));
			md_cell(sb, f->rule_id);
			md_cell(sb, f->subject);
			md_cell(sb, f->message);
			strbuf_putc(sb, '\n');
		}
	}
	return sb->err;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

int out_diff_json(const struct gpuenv_diff *d, unsigned flags, struct strbuf *sb)
{
	static const char *const lists[] = { "changes", "identity", "readings" };
	json_t *root = json_object(), *findings = json_array();
	json_t *list[_DIFF_CLASS_MAX];

	json_object_set_new(root, "schema_version", json_integer(1));
	json_object_set_new(root, "differences", json_integer((json_int_t)drift_diff_count(d)));
	for (int i = 0; i < 2; i++)
		json_object_set_new(root, i ? "b" : "a",
				    json_pack("{s:o, s:s, s:o}", "file",
					      str_or_null(d->side[i].name), "verdict",
					      verdict_name(d->side[i].verdict), "root_cause",
					      str_or_null(d->side[i].root_cause)));
	for (int c = 0; c < _DIFF_CLASS_MAX; c++) {
		list[c] = json_array();
		json_object_set_new(root, lists[c], list[c]);
	}
	for (size_t i = 0; i < d->n_entries; i++) {
		const struct diff_entry *e = &d->entries[i];
		const char *dot = strchr(e->path, '.');
		json_t *o = json_object();

		json_object_set_new(o, "key", json_string(e->path));
		json_object_set_new(
			o, "section",
			json_stringn(e->path, dot ? (size_t)(dot - e->path) : strlen(e->path)));
		json_object_set_new(o, "change", json_string(diff_change_name(e->change)));
		json_object_set_new(o, "a", str_or_null(e->a));
		json_object_set_new(o, "b", str_or_null(e->b));
		json_array_append_new(list[e->class], o);
	}
	for (size_t i = 0; i < d->n_findings; i++) {
		const struct diff_finding *f = &d->findings[i];

		json_array_append_new(
			findings, json_pack("{s:s, s:s, s:s, s:s, s:o, s:s}", "change",
					    f->appeared ? "appeared" : "went away", "rule",
					    f->rule_id, "severity", rule_severity_name(f->severity),
					    "layer", rule_layer_name(f->layer), "subject",
					    str_or_null(f->subject), "message", f->message));
	}
	json_object_set_new(root, "findings", findings);
	return out_json_put(root, sb);
}
