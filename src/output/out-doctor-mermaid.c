// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv doctor --mermaid`: the diagnosis path as a Mermaid flowchart (mermaid.js.org,
 * "Flowcharts - Basic Syntax"): the layers bottom up as a chain of nodes, each marked with
 * its status; every finding hangs off its layer, with its fix; a thick "causes" arrow runs
 * from each finding to those it explains, and the root cause is drawn in the "rootcause"
 * class (docs/HACKING.md "How the ranking works"). Labels are quoted strings in
 * which '"' is written #quot; and '<' '>' as #lt; #gt; (Mermaid entity codes).
 */
#include <string.h>

#include "gpuenv/gpuenv.h"
#include "output/output.h"
#include "rules/rules.h"

static void label(struct strbuf *sb, const char *text, size_t max, bool redact)
{
	struct strbuf esc = STRBUF_INIT, homes = STRBUF_INIT;
	size_t n = 0;
	const char *p, *s;

	/* Labels quote values read from the machine: their control characters are escaped
	 * (a newline included, as \n) before the Mermaid quoting. */
	if (redact) /* home directories name their user */
		strbuf_put_home_redacted(&homes, text);
	strbuf_put_escaped(&esc, redact ? strbuf_str(&homes) : text);
	s = strbuf_str(&esc);
	/* n counts characters (UTF-8 lead bytes), so a cut never splits one. */
	for (p = s; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && n++ == max)
			break;
		switch (*p) {
		case '"':
			strbuf_puts(sb, "#quot;");
			break;
		case '<':
			strbuf_puts(sb, "#lt;");
			break;
		case '>':
			strbuf_puts(sb, "#gt;");
			break;
		default:
			strbuf_putc(sb, *p);
		}
	}
	if (*p)
		strbuf_puts(sb, "…");
	strbuf_done(&esc);
	strbuf_done(&homes);
}

static const char *klass(enum layer_status s)
{
	static const char *const k[] = {
		[LAYER_OK] = "ok",
		[LAYER_INFO] = "ok",
		[LAYER_WARNING] = "warning",
		[LAYER_ERROR] = "error",
		[LAYER_UNKNOWN] = "unknown",
		[LAYER_ABSENT] = "absent",
		[LAYER_INCOMPLETE] = "unknown",
	};

	return (unsigned)s < ARRAY_SIZE(k) ? k[s] : "unknown";
}

int out_doctor_mermaid(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb)
{
	bool redact = flags & GPUENV_RENDER_REDACT;

	strbuf_puts(sb, "flowchart BT\n");
	for (int l = 0; l < RULE_LAYERS; l++) {
		const char *name = rule_layer_name((enum gpuenv_layer)l);

		strbuf_printf(sb, "  %s[\"%s: %s", name, name, layer_status_name(d->status[l]));
		for (size_t i = 0; i < d->n_facts; i++) {
			const struct layer_fact *lf = &d->facts[i];

			if (lf->layer != (enum gpuenv_layer)l)
				continue;
			strbuf_puts(sb, "<br/>");
			label(sb, lf->label, 40, redact);
			strbuf_puts(sb, ": ");
			if (redact && lf->source && strcmp(lf->source, "environment") == 0)
				label(sb, "<redacted>", 20, redact);
			else
				label(sb, lf->value, 80, redact);
		}
		strbuf_printf(sb, "\"]:::%s\n", klass(d->status[l]));
	}
	strbuf_puts(sb, "  hardware --> driver --> runtime --> framework --> container\n");
	for (size_t i = 0; i < d->n_findings; i++) {
		const struct finding *f = &d->findings[i];
		enum layer_status st = f->severity == GPUENV_SEVERITY_ERROR	? LAYER_ERROR
				       : f->severity == GPUENV_SEVERITY_WARNING ? LAYER_WARNING
										: LAYER_INFO;

		strbuf_printf(sb, "  f%zu{{\"%s<br/>", i, f->rule->id);
		label(sb, redact ? f->rule->title : f->message, 120, redact);
		strbuf_printf(sb, "\"}}:::%s\n",
			      f == diagnosis_root_cause(d) ? "rootcause" : klass(st));
		strbuf_printf(sb, "  %s -.- f%zu\n", rule_layer_name(f->rule->layer), i);
		if (finding_cause(d, f))
			strbuf_printf(sb, "  f%zu ==>|causes| f%zu\n", f->cause - 1, i);
		if (f->fix && f->fix[0]) {
			strbuf_printf(sb, "  f%zu -->|fix| x%zu[\"", i, i);
			label(sb, redact ? "see gpuenv doctor" : f->fix[0], 100, redact);
			strbuf_puts(sb, "\"]\n");
		}
	}
	strbuf_puts(sb, "  classDef ok fill:#e6f4ea,stroke:#1e8e3e\n"
			"  classDef warning fill:#fef7e0,stroke:#f9ab00\n"
			"  classDef error fill:#fce8e6,stroke:#d93025\n"
			"  classDef unknown fill:#f1f3f4,stroke:#80868b,stroke-dasharray:3\n"
			"  classDef absent fill:#ffffff,stroke:#80868b\n"
			"  classDef rootcause fill:#fce8e6,stroke:#d93025,stroke-width:4px\n");
	return sb->err;
}
