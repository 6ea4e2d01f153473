// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv explain` output (docs/explain.md): what was read from the text, each fact with its
 * line and reader; then the diagnosis as doctor renders it (out-doctor*.c); then "to be sure,
 * run:" with the commands that would give the rules what the text did not. JSON: doctor's
 * document plus "facts_read" and "ask" (the embedded snapshot without its "symptoms" and
 * "messages", which facts_read lists, so that it stays a docs/schema/snapshot.json document).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuenv/gpuenv.h"
#include "output/output.h"
#include "rules/rules.h"
#include "shared/strbuf.h"
#include "snapshot/snapshot.h"

/* --redact: a value at an identifying key (UUIDs, serials …) is not shown. */
static const char *shown_value(const struct explain_read *r, unsigned flags)
{
	const char *dot = strchr(r->path, '.'), *last = strrchr(r->path, '.');
	char section[64];

	if (!(flags & GPUENV_RENDER_REDACT) || !dot)
		return r->value;
	snprintf(section, sizeof(section), "%.*s", (int)(dot - r->path), r->path);
	return snap_key_is_identifying(section, last + 1) ? "<redacted>" : r->value;
}

/* The machine's value beside a pasted one, redacted as the pasted one is. */
static const char *shown_machine(const struct explain_read *r, unsigned flags)
{
	const char *v = r->machine_value ? r->machine_value : "";
	struct explain_read m = *r;

	m.value = v;
	return shown_value(&m, flags);
}

static const char *const origin_names[] = {
	[EXPLAIN_FROM_PASTE] = "text",
	[EXPLAIN_BOTH_AGREE] = "both",
	[EXPLAIN_CONFLICT] = "conflict",
};

/* --this-machine: where each fact came from, after its reader. */
static void origin_text(const struct explain_view *v, const struct explain_read *r, unsigned flags,
			bool md, struct strbuf *sb)
{
	if (!v->this_machine)
		return;
	if (r->origin == EXPLAIN_CONFLICT)
		strbuf_printf(sb,
			      md ? " | **conflict**: machine has `%s` (%s)"
				 : "  CONFLICT: machine has %s (%s)",
			      shown_machine(r, flags), r->machine_source ? r->machine_source : "?");
	else
		strbuf_puts(sb, r->origin == EXPLAIN_BOTH_AGREE
					? (md ? " | machine agrees" : "  (machine agrees)")
					: (md ? " | text only" : "  (text only)"));
}

/* --this-machine: the conflicts again, together, after the facts. */
static void conflicts_text(const struct explain_view *v, unsigned flags, bool md, struct strbuf *sb)
{
	if (!v->this_machine)
		return;
	if (!v->n_conflicts) {
		strbuf_puts(sb, md ? "No fact of the text contradicts this machine.\n\n"
				   : "No fact of the text contradicts this machine.\n\n");
		return;
	}
	strbuf_printf(
		sb,
		md ? "### Text and machine disagree (%zu); the machine's facts were judged\n\n"
		   : "The text and this machine disagree (%zu); the machine's facts were "
		     "judged:\n",
		v->n_conflicts);
	for (size_t i = 0; i < v->n_read; i++) {
		const struct explain_read *r = &v->read[i];

		if (r->origin == EXPLAIN_CONFLICT)
			strbuf_printf(
				sb,
				md ? "- `%s`: text line %u says `%s`, machine says `%s` (%s)\n"
				   : "  %s: text line %u says %s, machine says %s (%s)\n",
				r->path, r->line, shown_value(r, flags), shown_machine(r, flags),
				r->machine_source ? r->machine_source : "?");
	}
	strbuf_putc(sb, '\n');
}

/* "  line %-5u %s %s %s  [%s]" for a fact read, put without printf: a long paste reads
 * hundreds of facts. */
static void put_read_line(struct strbuf *sb, const struct explain_read *r, const char *value)
{
	char num[16];
	size_t k = sizeof(num);

	for (unsigned v = r->line; k == sizeof(num) || v; v /= 10)
		num[--k] = (char)('0' + v % 10);
	strbuf_add(sb, "  line ", 7);
	strbuf_add(sb, num + k, sizeof(num) - k);
	strbuf_add(sb, "      ", sizeof(num) - k < 5 ? 5 - (sizeof(num) - k) + 1 : 1);
	strbuf_puts(sb, r->path);
	strbuf_puts(sb, r->failed ? " failed: " : r->absent ? " none: " : " = ");
	strbuf_puts(sb, value);
	strbuf_add(sb, "  [", 3);
	strbuf_puts(sb, r->reader);
	strbuf_putc(sb, ']');
}

static void facts_text(const struct explain_view *v, unsigned flags, bool md, struct strbuf *sb)
{
	if (!v->n_read) {
		strbuf_puts(sb, md ? "**Nothing recognised in the text.**\n\n"
				   : "Nothing recognised in the text.\n\n");
		return;
	}
	if (md)
		strbuf_printf(
			sb,
			v->this_machine
				? "### Read from the text (%zu facts), beside this machine's\n\n| "
				  "line | fact | value | reader | machine |\n|---|---|---|---|---|\n"
				: "### Read from the text (%zu facts)\n\n| line | fact | value | "
				  "reader |\n|---|---|---|---|\n",
			v->n_read);
	else
		strbuf_printf(sb,
			      v->this_machine
				      ? "Read from the text (%zu facts), beside this machine's:\n"
				      : "Read from the text (%zu facts):\n",
			      v->n_read);
	for (size_t i = 0; i < v->n_read; i++) {
		const struct explain_read *r = &v->read[i];

		if (md)
			strbuf_printf(sb, "| %u | `%s` | %s%s | %s", r->line, r->path,
				      r->failed	  ? "error: "
				      : r->absent ? "none: "
						  : "",
				      shown_value(r, flags), r->reader);
		else
			put_read_line(sb, r, shown_value(r, flags));
		origin_text(v, r, flags, md, sb);
		strbuf_puts(sb, md ? " |\n" : "\n");
	}
	if (v->dropped)
		strbuf_printf(sb, "  (%zu more facts not kept)\n", v->dropped);
	strbuf_putc(sb, '\n');
	conflicts_text(v, flags, md, sb);
}

/* Evidence a rule took from the knowledge base (the tables of src/facts/data: keys "facts.<table>…",
 * or a "facts:<table>" source), not from the text: marked "[facts]" wherever explain shows it
 * (issue 12: "facts derived through the knowledge base say so"). */
static bool derived(const struct rule_evidence *ev)
{
	return (ev->name && strncmp(ev->name, "facts.", 6) == 0) ||
	       (ev->source && strncmp(ev->source, "facts:", 6) == 0);
}

static bool same_text(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

/* Has an earlier finding shown the same derived evidence (name and value)? */
static bool derived_seen(const struct gpuenv_doctor *d, size_t fi, size_t ei)
{
	const struct rule_evidence *ev = &d->findings[fi].ev[ei];

	for (size_t i = 0; i <= fi; i++)
		for (size_t e = 0; e < (i == fi ? ei : d->findings[i].n_ev); e++) {
			const struct rule_evidence *o = &d->findings[i].ev[e];

			if (derived(o) && same_text(o->name, ev->name) &&
			    same_text(o->value, ev->value))
				return true;
		}
	return false;
}

static const char *derived_value(const struct rule_evidence *ev, unsigned flags)
{
	if ((flags & GPUENV_RENDER_REDACT) && ev->identifying)
		return "<redacted>";
	return ev->value ? ev->value : "";
}

/* A Markdown table cell: "|" escaped, line ends and backticks (which would open a code
 * span) as blanks. */
static void md_cell(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			strbuf_puts(sb, "\\|");
		else
			strbuf_putc(sb, *s == '\n' || *s == '\r' || *s == '`' ? ' ' : *s);
	}
}

/* Has a finding shown the summary's or the chain's derived value i (d->summary_ev)? */
static bool summary_seen(const struct gpuenv_doctor *d, size_t i)
{
	const struct rule_evidence *ev = &d->summary_ev[i];

	for (size_t f = 0; f < d->n_findings; f++)
		for (size_t e = 0; e < d->findings[f].n_ev; e++) {
			const struct rule_evidence *o = &d->findings[f].ev[e];

			if (derived(o) && same_text(o->name, ev->name) &&
			    same_text(o->value, ev->value))
				return true;
		}
	return false;
}

static size_t derived_count(const struct gpuenv_doctor *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n_findings; i++)
		for (size_t e = 0; e < d->findings[i].n_ev; e++)
			n += derived(&d->findings[i].ev[e]) && !derived_seen(d, i, e);
	for (size_t i = 0; i < d->n_summary_ev; i++)
		n += !summary_seen(d, i);
	return n;
}

/* The rule a derived value is shown with: the finding's, or "summary" for what the layer
 * summary and the chain took from the knowledge base (a driver floor, a branch's CUDA). */
#define SUMMARY_RULE "summary"

/* "Derived through the knowledge base": each such evidence once, with the rule that used it
 * and the public source its row names. */
static void derived_text(const struct explain_view *v, unsigned flags, bool md, struct strbuf *sb)
{
	const struct gpuenv_doctor *d = v->d;
	size_t n = derived_count(d);

	if (!n)
		return;
	strbuf_printf(
		sb,
		md ? "### Derived through the knowledge base (%zu), not read from the text\n\n"
		     "| fact | value | rule | source |\n|---|---|---|---|\n"
		   : "Derived through the knowledge base (%zu), not read from the text:\n",
		n);
	for (size_t i = 0; i < d->n_findings; i++)
		for (size_t e = 0; e < d->findings[i].n_ev; e++) {
			const struct rule_evidence *ev = &d->findings[i].ev[e];

			if (!derived(ev) || derived_seen(d, i, e))
				continue;
			if (!md) {
				strbuf_printf(sb, "  %s = %s [facts]  (%s; %s)\n",
					      ev->name ? ev->name : "", derived_value(ev, flags),
					      d->findings[i].rule->id,
					      ev->source ? ev->source : "");
				continue;
			}
			strbuf_puts(sb, "| `");
			md_cell(sb, ev->name ? ev->name : "");
			strbuf_puts(sb, "` | ");
			md_cell(sb, derived_value(ev, flags));
			strbuf_printf(sb, " **[facts]** | `%s` | ", d->findings[i].rule->id);
			md_cell(sb, ev->source ? ev->source : "");
			strbuf_puts(sb, " |\n");
		}
	for (size_t i = 0; i < d->n_summary_ev; i++) {
		const struct rule_evidence *ev = &d->summary_ev[i];

		if (summary_seen(d, i))
			continue;
		if (!md) {
			strbuf_printf(sb, "  %s = %s [facts]  (%s; %s)\n", ev->name, ev->value,
				      SUMMARY_RULE, ev->source ? ev->source : "");
			continue;
		}
		strbuf_puts(sb, "| `");
		md_cell(sb, ev->name);
		strbuf_puts(sb, "` | ");
		md_cell(sb, ev->value);
		strbuf_printf(sb, " **[facts]** | `%s` | ", SUMMARY_RULE);
		md_cell(sb, ev->source ? ev->source : "");
		strbuf_puts(sb, " |\n");
	}
	strbuf_putc(sb, '\n');
}

static void ask_text(const struct explain_view *v, bool md, struct strbuf *sb)
{
	if (!v->ask || !v->ask[0])
		return;
	strbuf_puts(sb, md ? "\n### To be sure, run\n\n```sh\n" : "\nTo be sure, run:\n");
	for (size_t i = 0; v->ask[i]; i++)
		strbuf_printf(sb, md ? "%s\n" : "  %s\n", v->ask[i]);
	if (md)
		strbuf_puts(sb, "```\n");
}

/* What the text states by itself (struct explain_stated), each with its line. */
static void stated_text(const struct explain_view *v, bool md, struct strbuf *sb)
{
	if (!v->n_stated)
		return;
	strbuf_puts(sb, md ? "### Found in the text\n\n" : "Found in the text:\n");
	for (size_t i = 0; i < v->n_stated; i++)
		strbuf_printf(sb, md ? "- line %u: %s\n" : "  line %-5u %s\n", v->stated[i].line,
			      v->stated[i].message);
	strbuf_putc(sb, '\n');
}

/* The facts read, what the text states, the diagnosis as doctor prints it, what to run. */
static int render(const struct explain_view *v, unsigned flags, bool md, struct strbuf *sb)
{
	int r;

	facts_text(v, flags, md, sb);
	stated_text(v, md, sb);
	derived_text(v, flags, md, sb);
	r = md ? out_doctor_markdown(v->d, flags, sb) : out_doctor_text(v->d, flags, sb);
	if (r < 0)
		return r;
	ask_text(v, md, sb);
	return sb->err;
}

int out_explain_text(const struct explain_view *v, unsigned flags, struct strbuf *sb)
{
	return render(v, flags, false, sb);
}

int out_explain_markdown(const struct explain_view *v, unsigned flags, struct strbuf *sb)
{
	return render(v, flags, true, sb);
}

int out_explain_json(const struct explain_view *v, unsigned flags, struct strbuf *sb)
{
	json_t *root, *read, *ask, *kb, *stated;
	int r = -ENOMEM;

	/* doctor's document as a tree, added to in place (not written out and read back) */
	root = out_doctor_json_tree(v->d, flags, &r);
	if (!root)
		return r;
	read = json_array();
	ask = json_array();
	kb = json_array();
	stated = json_array();
	if (!root || !read || !ask || !kb || !stated)
		goto oom;
	/* facts_read lists them; neither is a snapshot section of docs/schema/snapshot.json */
	json_object_del(json_object_get(root, "snapshot"), "symptoms");
	json_object_del(json_object_get(root, "snapshot"), "messages");
	for (size_t i = 0; i < v->n_read; i++) {
		const struct explain_read *x = &v->read[i];
		json_t *o = json_pack("{s:s, s:s, s:i, s:s, s:b}", "path", x->path, "value",
				      shown_value(x, flags), "line", (json_int_t)x->line, "reader",
				      x->reader, "failed", x->failed);

		if (o && x->absent && json_object_set_new(o, "absent", json_true()) < 0) {
			json_decref(o);
			o = NULL;
		}
		if (o && v->this_machine &&
		    (json_object_set_new(o, "origin", json_string(origin_names[x->origin])) < 0 ||
		     (x->machine_value &&
		      json_object_set_new(o, "machine_value",
					  json_string(shown_machine(x, flags))) < 0) ||
		     (x->machine_source &&
		      json_object_set_new(o, "machine_source", json_string(x->machine_source)) <
			      0))) {
			json_decref(o);
			goto oom;
		}
		if (!o || json_array_append_new(read, o) < 0)
			goto oom;
	}
	if (json_object_set_new(root, "this_machine", json_boolean(v->this_machine)) < 0 ||
	    (v->this_machine &&
	     json_object_set_new(root, "conflicts", json_integer((json_int_t)v->n_conflicts)) < 0))
		goto oom;
	for (size_t i = 0; v->ask && v->ask[i]; i++)
		if (json_array_append_new(ask, json_string(v->ask[i])) < 0)
			goto oom;
	for (size_t i = 0; i < v->n_stated; i++) {
		json_t *o = json_pack("{s:s, s:s, s:i}", "id", v->stated[i].id, "message",
				      v->stated[i].message, "line", (json_int_t)v->stated[i].line);

		if (!o || json_array_append_new(stated, o) < 0)
			goto oom;
	}
	if (json_object_set_new(root, "text_findings", stated) < 0) {
		stated = NULL;
		goto oom;
	}
	stated = NULL;
	for (size_t i = 0; i < v->d->n_findings; i++)
		for (size_t e = 0; e < v->d->findings[i].n_ev; e++) {
			const struct rule_evidence *ev = &v->d->findings[i].ev[e];
			json_t *o;

			if (!derived(ev) || derived_seen(v->d, i, e))
				continue;
			o = json_pack("{s:s, s:s, s:s, s:s?, s:s}", "name",
				      ev->name ? ev->name : "", "value", derived_value(ev, flags),
				      "rule", v->d->findings[i].rule->id, "source", ev->source,
				      "mark", "[facts]");
			if (!o || json_array_append_new(kb, o) < 0)
				goto oom;
		}
	for (size_t i = 0; i < v->d->n_summary_ev; i++) {
		const struct rule_evidence *ev = &v->d->summary_ev[i];
		json_t *o;

		if (summary_seen(v->d, i))
			continue;
		o = json_pack("{s:s, s:s, s:s, s:s?, s:s}", "name", ev->name, "value", ev->value,
			      "rule", SUMMARY_RULE, "source", ev->source, "mark", "[facts]");
		if (!o || json_array_append_new(kb, o) < 0)
			goto oom;
	}
	if (json_object_set_new(root, "facts_derived", kb) < 0) {
		kb = NULL;
		goto oom;
	}
	kb = NULL;
	if (json_object_set_new(root, "facts_read", read) < 0 ||
	    json_object_set_new(root, "facts_dropped", json_integer((json_int_t)v->dropped)) < 0 ||
	    json_object_set_new(root, "ask", ask) < 0) {
		read = ask = NULL;
		goto oom;
	}
	return out_json_put(root, sb);
oom:
	json_decref(root);
	json_decref(read);
	json_decref(ask);
	json_decref(kb);
	json_decref(stated);
	return -ENOMEM;
}
