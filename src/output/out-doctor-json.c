// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv doctor --json`: a diagnosis (src/rules/rules.h) and the snapshot it was computed
 * from, as one JSON document whose members are documented in docs/doctor-schema.md
 * (schema_version 1). Rendering only; --redact replaces identifying evidence values and the
 * snapshot's identifying facts with "<redacted>".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gpuenv/gpuenv.h"
#include "output/output.h"
#include "rules/rules.h"
#include "shared/utf8.h"

#define DOCTOR_SCHEMA_VERSION 1

/* A JSON string of text that may come from the machine (a path, a version file): jansson
 * refuses bytes that are not UTF-8, so those become U+FFFD here (the embedded snapshot keeps
 * them as hex, docs/snapshot-schema.md). NULL text is JSON null; NULL return only on OOM. */
static json_t *jstr(const char *text)
{
	char *fixed;
	json_t *j;

	if (!text)
		return json_null();
	if (utf8_valid(text, strlen(text)))
		return json_string(text);
	fixed = utf8_make_valid(text, strlen(text));
	j = fixed ? json_string(fixed) : NULL;
	free(fixed);
	return j;
}

static json_t *strv_json(char *const *l)
{
	json_t *a = json_array();

	for (size_t i = 0; a && l && l[i]; i++)
		json_array_append_new(a, jstr(l[i]));
	return a;
}

static json_t *finding_json(const struct gpuenv_doctor *d, const struct finding *f, bool redact)
{
	const struct finding *cause = finding_cause(d, f);
	json_t *ev = json_array(), *o;

	for (size_t i = 0; ev && i < f->n_ev; i++)
		json_array_append_new(
			ev, json_pack("{s:o,s:o,s:o}", "name", jstr(f->ev[i].name), "value",
				      jstr(redact && f->ev[i].identifying ? "<redacted>"
									  : f->ev[i].value),
				      "source", jstr(f->ev[i].source)));
	/* caused_by after severity, left out when nothing explains the finding (s*) */
	o = json_pack("{s:s,s:s,s:s,s:s*,s:o,s:o,s:s,s:s,s:s,s:o,s:o,s:o}", "rule", f->rule->id,
		      "layer", rule_layer_name(f->rule->layer), "severity",
		      rule_severity_name(f->severity), "caused_by", cause ? cause->rule->id : NULL,
		      "subject", jstr(f->subject), "message", jstr(f->message), "title",
		      f->rule->title, "symptom", finding_symptom_text(f), "cause", f->rule->cause,
		      "evidence", ev ? ev : json_null(), "fix", strv_json(f->fix), "verify",
		      strv_json(f->verify));
	return o;
}

/* {"id", "layer", "why", "subject", "explains": [rule ids]}, or null when nothing is a
 * warning or an error (docs/doctor-schema.md). */
static json_t *root_cause_json(const struct gpuenv_doctor *d)
{
	const struct finding *rc = diagnosis_root_cause(d);
	json_t *explains, *o;

	if (!rc)
		return json_null();
	explains = json_array();
	for (size_t i = 0; explains && i < d->n_findings; i++) {
		const struct finding *f = &d->findings[i];
		bool dup = false;

		if (f == rc || !finding_under_root(d, f))
			continue;
		for (size_t j = 0; j < i && !dup; j++)
			dup = d->findings[j].rule == f->rule &&
			      finding_under_root(d, &d->findings[j]);
		if (!dup)
			json_array_append_new(explains, json_string(f->rule->id));
	}
	o = json_pack("{s:s,s:s,s:s,s:s?,s:o}", "id", rc->rule->id, "layer",
		      rule_layer_name(rc->rule->layer), "why", rc->message, "subject", rc->subject,
		      "explains", explains ? explains : json_null());
	return o ? o : json_null();
}

/* Replaces identifying values inside a string (messages may quote them). The search goes on
 * after each replacement, so a value that is part of "<redacted>" ("red") ends. */
static char *redact_text(const struct gpuenv_doctor *d, const char *s)
{
	char *out = strdup(s);

	for (size_t i = 0; out && i < d->n_findings; i++)
		for (size_t e = 0; e < d->findings[i].n_ev; e++) {
			const struct rule_evidence *ev = &d->findings[i].ev[e];
			size_t n = ev->value ? strlen(ev->value) : 0, from = 0;
			char *hit;

			if (!ev->identifying || n < 3)
				continue;
			while (out && (hit = strstr(out + from, ev->value))) {
				char *next;

				from = (size_t)(hit - out) + strlen("<redacted>");
				if (asprintf(&next, "%.*s<redacted>%s", (int)(hit - out), out,
					     hit + n) < 0)
					next = NULL;
				free(out);
				out = next;
			}
		}
	return out;
}

static int redact_in_place(const struct gpuenv_doctor *d, json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	char *r;

	if (!s)
		return 0;
	r = redact_text(d, s);
	if (!r)
		return -ENOMEM;
	json_object_set_new(o, key, jstr(r));
	free(r);
	return 0;
}

/* The other vendors' chains (docs/doctor-schema.md "vendor_chains"), or NULL when none. */
static json_t *vendor_chains_json(const struct gpuenv_doctor *d)
{
	static const char *const ends[2][2] = { { "driver", "runtime" },
						{ "runtime", "framework" } };
	json_t *arr;

	if (d->n_vendor_chains == 0)
		return NULL;
	arr = json_array();
	for (size_t i = 0; arr && i < d->n_vendor_chains; i++) {
		const struct vendor_chain *v = &d->vendor_chains[i];
		json_t *links = json_array(), *vc;

		for (int k = 0; links && k < 2; k++)
			json_array_append_new(links,
					      json_pack("{s:s,s:s,s:s,s:o}", "from", ends[k][0],
							"to", ends[k][1], "state",
							link_state_name(v->link_state[k]), "why",
							jstr(v->link_why[k])));
		vc = json_pack("{s:s,s:{s:o,s:o},s:{s:o,s:o},s:{s:o,s:o},s:{s:o,s:s},s:o}",
			       "vendor", v->vendor, "driver", "label", jstr(v->driver), "source",
			       jstr(v->driver_source), "runtime", "label", jstr(v->runtime),
			       "source", jstr(v->runtime_source), "framework", "label",
			       jstr(v->framework), "source", jstr(v->framework_source), "target",
			       "name", jstr(v->target), "state", link_state_name(v->target_state),
			       "links", links ? links : json_null());
		/* several kinds of GPU: each one's target and state */
		for (size_t k = 0; vc && k < v->n_targets; k++) {
			json_t *t = json_object_get(vc, "targets");

			if (!t && json_object_set_new(vc, "targets", json_array()) == 0)
				t = json_object_get(vc, "targets");
			json_array_append_new(t, json_pack("{s:o,s:s}", "name",
							   jstr(v->targets[k].name), "state",
							   link_state_name(v->targets[k].state)));
		}
		json_array_append_new(arr, vc);
	}
	return arr;
}

/* Inserts "vendor_chains" after "chain": the members after it are moved behind it, so the
 * document keeps the order docs/doctor-schema.md gives. */
static void put_vendor_chains(json_t *root, json_t *vc)
{
	static const char *const after[] = { "findings", "skipped", "snapshot" };
	json_t *moved[ARRAY_SIZE(after)];

	for (size_t i = 0; i < ARRAY_SIZE(after); i++) {
		moved[i] = json_incref(json_object_get(root, after[i]));
		json_object_del(root, after[i]);
	}
	json_object_set_new(root, "vendor_chains", vc);
	for (size_t i = 0; i < ARRAY_SIZE(after); i++)
		json_object_set_new(root, after[i], moved[i] ? moved[i] : json_null());
}

json_t *out_doctor_json_tree(const struct gpuenv_doctor *d, unsigned flags, int *ret_err)
{
	static const char *const link_ends[2][2] = { { "driver", "toolkit" },
						     { "toolkit", "framework" } };
	bool redact = flags & GPUENV_RENDER_REDACT;
	json_t *root, *layers, *findings, *skipped, *links, *snap = NULL, *counts;
	const struct chain *ch = &d->chain;
	char *snap_text = NULL;
	unsigned n[3] = { 0 }, nskip = 0, nrules = 0;
	int r;

	r = snapshot_to_json(d->snap,
			     ((flags & GPUENV_RENDER_STABLE) ? SNAP_JSON_STABLE : 0) |
				     (redact ? SNAP_JSON_REDACT : 0) | SNAP_JSON_COMPACT,
			     &snap_text);
	if (r < 0) {
		*ret_err = r;
		return NULL;
	}
	snap = json_loads(snap_text, 0, NULL);
	free(snap_text);
	if (!snap) {
		*ret_err = -ENOMEM;
		return NULL;
	}

	layers = json_array();
	for (int l = 0; layers && l < RULE_LAYERS; l++) {
		json_t *facts = json_array(), *problems = json_array();

		for (size_t i = 0; facts && i < d->n_facts; i++) {
			const struct layer_fact *lf = &d->facts[i];

			if (lf->layer != (enum gpuenv_layer)l)
				continue;
			json_array_append_new(
				facts, json_pack("{s:o,s:o,s:o}", "label", jstr(lf->label), "value",
						 jstr(redact && lf->source &&
								      strcmp(lf->source,
									     "environment") == 0
							      ? "<redacted>"
							      : lf->value),
						 "source", jstr(lf->source)));
		}
		for (size_t i = 0; problems && i < d->n_problems; i++) {
			const struct layer_problem *p = &d->problems[i];

			if (p->layer == (enum gpuenv_layer)l)
				json_array_append_new(
					problems,
					json_pack("{s:o,s:s,s:o,s:o}", "name", jstr(p->name),
						  "state", fact_state_to_string(p->state), "error",
						  jstr(p->error), "source", jstr(p->source)));
		}
		json_array_append_new(layers,
				      json_pack("{s:s,s:s,s:i,s:i,s:i,s:o,s:o}", "layer",
						rule_layer_name((enum gpuenv_layer)l), "status",
						layer_status_name(d->status[l]), "rules",
						d->rules_total[l], "evaluated", d->rules_run[l],
						"skipped", d->rules_skipped[l], "facts",
						facts ? facts : json_null(), "unreadable",
						problems ? problems : json_null()));
		nskip += d->rules_skipped[l];
		nrules += d->rules_total[l];
	}
	findings = json_array();
	for (size_t i = 0; findings && i < d->n_findings; i++) {
		json_t *f = finding_json(d, &d->findings[i], redact);

		n[d->findings[i].severity]++;
		if (f && redact && redact_in_place(d, f, "message") < 0) {
			json_decref(f);
			f = NULL;
		}
		json_array_append_new(findings, f ? f : json_null());
	}
	skipped = json_array();
	for (size_t i = 0; skipped && i < d->n_skips; i++)
		json_array_append_new(skipped,
				      json_pack("{s:s,s:s,s:o,s:o}", "rule", d->skips[i].rule->id,
						"layer", rule_layer_name(d->skips[i].rule->layer),
						"subject", jstr(d->skips[i].subject), "reason",
						jstr(d->skips[i].reason)));
	links = json_array();
	for (int k = 0; links && k < 2; k++)
		json_array_append_new(links, json_pack("{s:s,s:s,s:s,s:o}", "from", link_ends[k][0],
						       "to", link_ends[k][1], "state",
						       link_state_name(ch->link_state[k]), "why",
						       jstr(ch->link_why[k])));
	counts = json_pack("{s:i,s:i,s:i,s:i,s:i}", "error", n[2], "warning", n[1], "info", n[0],
			   "rules", nrules, "skipped_rules", nskip);
	root = json_pack("{s:i,s:s,s:i,s:o,s:o,s:o,s:{s:{s:o,s:o,s:o},s:{s:o,s:o},s:{s:o,s:o},s:o},"
			 "s:o,s:o,s:o}",
			 "schema_version", DOCTOR_SCHEMA_VERSION, "verdict",
			 d->verdict == GPUENV_VERDICT_ERRORS	    ? "errors"
			 : d->verdict == GPUENV_VERDICT_WARNINGS    ? "warnings"
			 : d->verdict == GPUENV_VERDICT_UNEVALUATED ? "unevaluated"
								    : "healthy",
			 "exit_code", (int)d->verdict, "counts", counts ? counts : json_null(),
			 "root_cause", root_cause_json(d), "layers", layers ? layers : json_null(),
			 "chain", "driver", "cuda", jstr(ch->driver_cuda), "label",
			 jstr(ch->driver_label), "source", jstr(ch->driver_source), "toolkit",
			 "version", jstr(ch->toolkit), "source", jstr(ch->toolkit_source),
			 "framework", "build", jstr(ch->framework), "source",
			 jstr(ch->framework_source), "links", links ? links : json_null(),
			 "findings", findings ? findings : json_null(), "skipped",
			 skipped ? skipped : json_null(), "snapshot", snap);
	if (!root) {
		*ret_err = -ENOMEM;
		return NULL;
	}
	if (d->n_vendor_chains) {
		json_t *vc = vendor_chains_json(d);

		if (!vc) {
			json_decref(root);
			*ret_err = -ENOMEM;
			return NULL;
		}
		put_vendor_chains(root, vc);
	}
	if (redact) {
		json_t *links_j = json_object_get(json_object_get(root, "chain"), "links");
		json_t *vcs = json_object_get(root, "vendor_chains");
		size_t i, j;
		json_t *v, *vch;

		json_array_foreach(links_j, i, v)
			redact_in_place(d, v, "why");
		json_array_foreach(vcs, j, vch)
			json_array_foreach(json_object_get(vch, "links"), i, v)
				redact_in_place(d, v, "why");
		if (json_is_object(json_object_get(root, "root_cause")))
			redact_in_place(d, json_object_get(root, "root_cause"), "why");
	}
	if (redact && snap_json_redact_homes(root) < 0) {
		json_decref(root);
		*ret_err = -ENOMEM;
		return NULL;
	}
	return root;
}

int out_doctor_json(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb)
{
	int r = -ENOMEM;
	json_t *root = out_doctor_json_tree(d, flags, &r);

	return root ? out_json_put(root, sb) : r;
}

static int json_to_strbuf(const char *p, size_t n, void *sb)
{
	return strbuf_add(sb, p, n) < 0 ? -1 : 0;
}

/* Written into sb as jansson makes it (json_dump_callback, the same bytes as json_dumps()),
 * not made whole in a string of jansson's first and then copied. */
int out_json_put(struct json_t *root, struct strbuf *sb)
{
	int r = json_dump_callback(root, json_to_strbuf, sb, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	json_decref(root);
	if (r < 0 && !sb->err)
		return -ENOMEM;
	strbuf_putc(sb, '\n');
	return sb->err;
}
