// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv fleet` rendered (docs/fleet.md): the keys on which machines differ, each with the
 * majority value and the deviating groups ("3 of 64 machines: driver 550.54.15, the rest
 * 550.90.07"), the keys every machine agrees on, the findings by how many machines have them,
 * and the files that could not be read. Text, Markdown and JSON.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "drift/fleet.h"
#include "output/output.h"
#include "rules/rules.h"
#include "shared/macro.h"

/* Values of a tally other than the majority, most machines first (ties: by value). */
static size_t deviations(const struct fleet_tally *t, const struct fleet_value *major,
			 const struct fleet_value **out)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_values; i++) {
		const struct fleet_value *v = &t->values[i];
		size_t j = n;

		if (v == major)
			continue;
		while (j > 0 && (out[j - 1]->machines < v->machines ||
				 (out[j - 1]->machines == v->machines &&
				  strcmp(out[j - 1]->value, v->value) > 0))) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = v;
		n++;
	}
	return n;
}

static void put_examples(struct strbuf *sb, const struct fleet_value *v)
{
	size_t shown = v->machines < FLEET_EXAMPLES ? v->machines : FLEET_EXAMPLES;

	strbuf_puts(sb, " (");
	for (size_t i = 0; i < shown; i++) {
		if (i)
			strbuf_puts(sb, ", ");
		strbuf_put_escaped(sb, v->examples[i]);
	}
	if (v->machines > shown)
		strbuf_puts(sb, ", …");
	strbuf_putc(sb, ')');
}

static const char *const verdict_names[] = { "healthy", "warnings", "errors", "unevaluated" };

static void put_verdicts(struct strbuf *sb, const struct gpuenv_fleet *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(verdict_names); i++)
		strbuf_printf(sb, "%s%zu %s", i ? ", " : "", f->verdicts[i], verdict_names[i]);
}

/* Findings, most machines first. */
static const struct fleet_value **findings_sorted(const struct gpuenv_fleet *f)
{
	const struct fleet_value **l = calloc(f->findings.n_values + 1, sizeof(*l));

	if (!l)
		return NULL;
	for (size_t i = 0; i < f->findings.n_values; i++) {
		const struct fleet_value *v = &f->findings.values[i];
		size_t j = i;

		while (j > 0 && l[j - 1]->machines < v->machines) {
			l[j] = l[j - 1];
			j--;
		}
		l[j] = v;
	}
	return l;
}

static const char *finding_severity(const struct gpuenv_fleet *f, const struct fleet_value *v)
{
	return rule_severity_name(f->finding_severity[v - f->findings.values]);
}

int out_fleet_text(const struct gpuenv_fleet *f, unsigned flags, struct strbuf *sb)
{
	const struct fleet_value **dev = NULL, **fl = findings_sorted(f);
	bool head = false;

	strbuf_printf(sb, "gpuenv fleet: %zu machine%s read", f->machines,
		      f->machines == 1 ? "" : "s");
	if (f->n_unread)
		strbuf_printf(sb, ", %zu file%s not read", f->n_unread,
			      f->n_unread == 1 ? "" : "s");
	strbuf_puts(sb, "\nverdicts: ");
	put_verdicts(sb, f);
	strbuf_putc(sb, '\n');
	for (size_t k = 0; k < fleet_keys_len && !sb->err; k++) {
		const struct fleet_tally *t = &f->keys[k];
		const struct fleet_value *major = fleet_majority(t);
		size_t n;

		if (t->n_values < 2)
			continue;
		free(dev);
		dev = calloc(t->n_values, sizeof(*dev));
		if (!dev)
			break;
		n = deviations(t, major, dev);
		if (!head)
			strbuf_puts(sb, "\nmachines that differ from the majority\n");
		head = true;
		strbuf_printf(sb, "  %s (%s): ", fleet_keys[k].label, fleet_keys[k].path);
		strbuf_put_escaped(sb, major->value);
		strbuf_printf(sb, " on %zu of %zu\n", major->machines, f->machines);
		for (size_t i = 0; i < n; i++) {
			strbuf_printf(sb, "    %zu of %zu machines: %s ", dev[i]->machines,
				      f->machines, fleet_keys[k].label);
			strbuf_put_escaped(sb, dev[i]->value);
			if (n == 1) {
				strbuf_puts(sb, ", the rest ");
				strbuf_put_escaped(sb, major->value);
			}
			put_examples(sb, dev[i]);
			strbuf_putc(sb, '\n');
		}
	}
	free(dev);
	if (!head && f->machines)
		strbuf_puts(sb, "\nno machine differs from the others on the keys compared\n");
	if (f->machines) {
		strbuf_printf(sb, "\nthe same on all %zu machines\n", f->machines);
		for (size_t k = 0; k < fleet_keys_len; k++) {
			if (f->keys[k].n_values != 1)
				continue;
			strbuf_printf(sb, "  %s: ", fleet_keys[k].label);
			strbuf_put_escaped(sb, f->keys[k].values[0].value);
			strbuf_putc(sb, '\n');
		}
	}
	if (fl && f->findings.n_values) {
		strbuf_puts(sb, "\nfindings, by the machines that have them\n");
		for (size_t i = 0; i < f->findings.n_values; i++) {
			strbuf_printf(sb, "  %-7s %s: %zu of %zu", finding_severity(f, fl[i]),
				      fl[i]->value, fl[i]->machines, f->machines);
			put_examples(sb, fl[i]);
			strbuf_putc(sb, '\n');
		}
	}
	free(fl);
	if (f->n_unread) {
		strbuf_puts(sb, "\nnot read\n");
		for (size_t i = 0; i < f->n_unread; i++) {
			strbuf_puts(sb, "  ");
			strbuf_put_escaped(sb, f->unread[i].name);
			strbuf_puts(sb, ": ");
			strbuf_put_escaped(sb, f->unread[i].why);
			strbuf_putc(sb, '\n');
		}
	}
	return sb->err ? sb->err : (fl || !f->findings.n_values) ? 0 : -ENOMEM;
}

static void md_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '`' || *s == '*' || *s == '_' || *s == '<')
			strbuf_putc(sb, '\\');
		if (strbuf_control_len(s))
			strbuf_putc(sb, ' ');
		else
			strbuf_putc(sb, *s);
	}
}

static void md_examples(struct strbuf *sb, const struct fleet_value *v)
{
	size_t shown = v->machines < FLEET_EXAMPLES ? v->machines : FLEET_EXAMPLES;

	for (size_t i = 0; i < shown; i++) {
		strbuf_puts(sb, i ? ", " : "");
		md_text(sb, v->examples[i]);
	}
	if (v->machines > shown)
		strbuf_puts(sb, ", …");
}

int out_fleet_markdown(const struct gpuenv_fleet *f, unsigned flags, struct strbuf *sb)
{
	const struct fleet_value **fl = findings_sorted(f);

	strbuf_printf(sb, "### gpuenv fleet: %zu machines\n\nVerdicts: ", f->machines);
	put_verdicts(sb, f);
	strbuf_puts(sb, ".\n\n| key | value | machines | examples |\n|---|---|---|---|\n");
	for (size_t k = 0; k < fleet_keys_len; k++) {
		const struct fleet_tally *t = &f->keys[k];
		const struct fleet_value *major = fleet_majority(t);

		if (!major)
			continue;
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < t->n_values; i++) {
				const struct fleet_value *v = &t->values[i];

				if ((pass == 0) != (v == major))
					continue;
				strbuf_puts(sb, "| ");
				md_text(sb, fleet_keys[k].label);
				strbuf_puts(sb, " | ");
				md_text(sb, v->value);
				strbuf_printf(sb, " | %zu of %zu%s | ", v->machines, f->machines,
					      v == major && t->n_values > 1 ? " (majority)" : "");
				if (v != major)
					md_examples(sb, v);
				strbuf_puts(sb, " |\n");
			}
	}
	if (fl && f->findings.n_values) {
		strbuf_puts(sb,
			    "\n| finding | severity | machines | examples |\n|---|---|---|---|\n");
		for (size_t i = 0; i < f->findings.n_values; i++) {
			strbuf_puts(sb, "| ");
			md_text(sb, fl[i]->value);
			strbuf_printf(sb, " | %s | %zu of %zu | ", finding_severity(f, fl[i]),
				      fl[i]->machines, f->machines);
			md_examples(sb, fl[i]);
			strbuf_puts(sb, " |\n");
		}
	}
	free(fl);
	if (f->n_unread) {
		strbuf_printf(sb, "\n%zu file%s not read:\n\n", f->n_unread,
			      f->n_unread == 1 ? "" : "s");
		for (size_t i = 0; i < f->n_unread; i++) {
			strbuf_puts(sb, "- ");
			md_text(sb, f->unread[i].name);
			strbuf_puts(sb, ": ");
			md_text(sb, f->unread[i].why);
			strbuf_putc(sb, '\n');
		}
	}
	return sb->err;
}

static json_t *value_json(const struct fleet_value *v, bool examples)
{
	json_t *o = json_pack("{s:s, s:I}", "value", v->value, "machines", (json_int_t)v->machines);

	if (o && examples) {
		json_t *a = json_array();

		for (size_t i = 0; i < FLEET_EXAMPLES && i < v->machines; i++)
			json_array_append_new(a, json_string(v->examples[i]));
		json_object_set_new(o, "examples", a);
	}
	return o;
}

int out_fleet_json(const struct gpuenv_fleet *f, unsigned flags, struct strbuf *sb)
{
	json_t *root = json_object(), *keys = json_array(), *findings = json_array();
	json_t *unread = json_array(), *verdicts = json_object();
	const struct fleet_value **fl = findings_sorted(f);

	if (!fl) {
		json_decref(root);
		return -ENOMEM;
	}
	json_object_set_new(root, "schema_version", json_integer(1));
	json_object_set_new(root, "machines", json_integer((json_int_t)f->machines));
	json_object_set_new(root, "problems", json_integer((json_int_t)fleet_problem_count(f)));
	for (size_t i = 0; i < ARRAY_SIZE(verdict_names); i++)
		json_object_set_new(verdicts, verdict_names[i],
				    json_integer((json_int_t)f->verdicts[i]));
	json_object_set_new(root, "verdicts", verdicts);
	for (size_t k = 0; k < fleet_keys_len; k++) {
		const struct fleet_tally *t = &f->keys[k];
		const struct fleet_value *major = fleet_majority(t);
		const struct fleet_value **dev = calloc(t->n_values + 1, sizeof(*dev));
		json_t *o, *d = json_array();
		size_t n;

		if (!dev) {
			json_decref(d);
			break;
		}
		n = major ? deviations(t, major, dev) : 0;
		for (size_t i = 0; i < n; i++)
			json_array_append_new(d, value_json(dev[i], true));
		free(dev);
		o = json_pack("{s:s, s:s, s:o, s:b, s:o}", "key", fleet_keys[k].path, "label",
			      fleet_keys[k].label, "majority",
			      major ? value_json(major, false) : json_null(), "uniform",
			      t->n_values <= 1, "deviations", d);
		json_array_append_new(keys, o);
	}
	json_object_set_new(root, "keys", keys);
	for (size_t i = 0; i < f->findings.n_values; i++) {
		json_t *o = value_json(fl[i], true);

		json_object_set_new(o, "rule", json_string(fl[i]->value));
		json_object_del(o, "value");
		json_object_set_new(o, "severity", json_string(finding_severity(f, fl[i])));
		json_array_append_new(findings, o);
	}
	free(fl);
	json_object_set_new(root, "findings", findings);
	for (size_t i = 0; i < f->n_unread; i++)
		json_array_append_new(unread, json_pack("{s:s, s:s}", "file", f->unread[i].name,
							"why", f->unread[i].why));
	json_object_set_new(root, "not_read", unread);
	return out_json_put(root, sb);
}
