// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv doctor` as text and as Markdown: the root cause first (the finding that explains the
 * others, with the rules it explains), then the stack bottom up (hardware, driver, runtime,
 * framework, container), each layer with its ✓/⚠/✗ mark and key facts, its findings with the
 * finding that caused them, symptom, cause, evidence, fix and verify, and its skipped checks;
 * then the chain "driver supports CUDA ≤ X · toolkit Y · framework built for Z" with each
 * link's verdict. Renders a diagnosis (src/rules/rules.h) and computes nothing; --redact hides
 * the evidence values that identify a machine or user (snap_key_is_identifying()) wherever
 * they appear.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gpuenv/gpuenv.h"
#include "output/output.h"
#include "rules/rules.h"
#include "shared/strbuf.h"
#include "snapshot/snapshot.h"

struct style {
	bool color, redact, markdown;
	size_t width;
};

static const char *mark(enum layer_status s)
{
	static const char *const m[] = {
		[LAYER_OK] = "✓",	  [LAYER_INFO] = "✓",	 [LAYER_WARNING] = "⚠",
		[LAYER_ERROR] = "✗",	  [LAYER_UNKNOWN] = "?", [LAYER_ABSENT] = "–",
		[LAYER_INCOMPLETE] = "?",
	};

	return (unsigned)s < ARRAY_SIZE(m) ? m[s] : "?";
}

static const char *sev_mark(enum gpuenv_severity s)
{
	return s == GPUENV_SEVERITY_ERROR ? "✗" : s == GPUENV_SEVERITY_WARNING ? "⚠" : "ℹ";
}

static const char *link_mark(enum link_state s)
{
	static const char *const m[] = {
		[LINK_OK] = "✓",
		[LINK_DEGRADED] = "⚠",
		[LINK_BROKEN] = "✗",
		[LINK_UNKNOWN] = "?",
	};

	return (unsigned)s < ARRAY_SIZE(m) ? m[s] : "?";
}

static const char *color_of_status(enum layer_status s)
{
	switch (s) {
	case LAYER_OK:
	case LAYER_INFO:
		return "\033[32m";
	case LAYER_WARNING:
		return "\033[33m";
	case LAYER_ERROR:
		return "\033[1;31m";
	default:
		return "\033[2m";
	}
}

static enum layer_status sev_status(enum gpuenv_severity s)
{
	return s == GPUENV_SEVERITY_ERROR     ? LAYER_ERROR
	       : s == GPUENV_SEVERITY_WARNING ? LAYER_WARNING
					      : LAYER_INFO;
}

static enum layer_status link_status(enum link_state s)
{
	return s == LINK_OK	    ? LAYER_OK
	       : s == LINK_DEGRADED ? LAYER_WARNING
	       : s == LINK_BROKEN   ? LAYER_ERROR
				    : LAYER_UNKNOWN;
}

static void put_mark(struct strbuf *sb, const struct style *st, enum layer_status s, const char *m)
{
	if (st->color)
		strbuf_printf(sb, "%s%s\033[0m", color_of_status(s), m);
	else
		strbuf_puts(sb, m);
}

/* Appends text with every identifying evidence value of the diagnosis replaced and its control
 * characters escaped (strbuf_put_escaped()): messages and values quote what the machine holds
 * (os-release, the kernel log, an environment value), which must not reach a terminal raw. */
static void put_redacted(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
			 const char *text)
{
	struct strbuf tmp = STRBUF_INIT, homes;
	const char *p = text;

	if (!st->redact) {
		strbuf_put_escaped(sb, text);
		return;
	}
	while (*p) {
		size_t best = 0;

		for (size_t i = 0; i < d->n_findings && !best; i++)
			for (size_t e = 0; e < d->findings[i].n_ev; e++) {
				const struct rule_evidence *ev = &d->findings[i].ev[e];
				size_t n = ev->value ? strlen(ev->value) : 0;

				/* Short values ("", "1") would blank out ordinary words. */
				if (ev->identifying && n >= 3 && strncmp(p, ev->value, n) == 0) {
					best = n;
					break;
				}
			}
		if (best) {
			strbuf_puts(&tmp, "<redacted>");
			p += best;
		} else {
			strbuf_putc(&tmp, *p++);
		}
	}
	/* and the user names of home directories (/home/<user>/…) */
	strbuf_init(&homes, 0);
	strbuf_put_home_redacted(&homes, strbuf_str(&tmp));
	strbuf_put_escaped(sb, strbuf_str(&homes));
	if (tmp.err || homes.err)
		sb->err = sb->err ? sb->err : tmp.err ? tmp.err : homes.err;
	strbuf_done(&tmp);
	strbuf_done(&homes);
}

/* Wraps text at word boundaries into lines of at most st->width columns, the first starting at
 * column `first` (already printed), continuation lines indented by `indent`. */
/* text as put_redacted() puts it: text itself where that leaves it as it is (no --redact, no
 * control character to escape: nearly every field of a long diagnosis), else its copy in tmp. */
static const char *redacted(struct strbuf *tmp, const struct style *st,
			    const struct gpuenv_doctor *d, const char *text)
{
	size_t n = strlen(text);

	if (!st->redact && strbuf_plain_len(text, n) == n)
		return text;
	put_redacted(tmp, st, d, text);
	return strbuf_str(tmp);
}

static void put_wrapped(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
			const char *text, size_t first, size_t indent)
{
	struct strbuf tmp = STRBUF_INIT;

	out_wrap(sb, redacted(&tmp, st, d, text), first, indent, st->width, NULL, 1);
	if (tmp.err && !sb->err)
		sb->err = tmp.err;
	strbuf_done(&tmp);
}

/* A finding's field label, "      %-9s " as printf would pad it (labels are ASCII), without
 * formatting it for each of the many fields a long diagnosis prints. */
static void put_label(struct strbuf *sb, const char *label)
{
	size_t n = strlen(label);

	strbuf_add(sb, "      ", 6);
	strbuf_add(sb, label, n);
	strbuf_add(sb, "          ", n < 9 ? 10 - n : 1);
}

static void put_field(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
		      const char *label, const char *text)
{
	put_label(sb, label);
	put_wrapped(sb, st, d, text, 16, 16);
}

/* Fix and verify lines: shell the user copies. A command is never broken, however long; a
 * comment is wrapped as more comment lines ("# …"), and a command's trailing comment
 * ("cmd   # why") that does not fit moves under it, so every line still pastes into a shell. */
static void put_lines(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
		      const char *label, char *const *lines)
{
	for (size_t i = 0; lines && lines[i]; i++) {
		struct strbuf tmp = STRBUF_INIT;
		const char *text, *comment;

		put_label(sb, i == 0 ? label : "");
		text = redacted(&tmp, st, d, lines[i]);
		comment = strstr(text, "   # ");
		if (16 + out_text_cols(text, strlen(text)) <= st->width) {
			strbuf_puts(sb, text);
			strbuf_putc(sb, '\n');
		} else if (text[0] == '#') {
			strbuf_puts(sb, "# ");
			out_wrap(sb, text + strspn(text, "# "), 18, 16, st->width, "# ", 1);
		} else if (comment) {
			strbuf_add(sb, text, (size_t)(comment - text));
			strbuf_printf(sb, "\n%18s# ", "");
			out_wrap(sb, comment + 5, 20, 18, st->width, "# ", 1);
		} else {
			strbuf_puts(sb, text);
			strbuf_putc(sb, '\n');
		}
		if (tmp.err && !sb->err)
			sb->err = tmp.err;
		strbuf_done(&tmp);
	}
}

static void text_finding(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
			 const struct finding *f)
{
	strbuf_puts(sb, "  ");
	put_mark(sb, st, sev_status(f->severity), sev_mark(f->severity));
	strbuf_puts(sb, st->color ? " \033[1m" : " ");
	strbuf_puts(sb, f->rule->id);
	strbuf_puts(sb, st->color ? "\033[0m (" : " (");
	strbuf_puts(sb, rule_severity_name(f->severity));
	strbuf_puts(sb, "): ");
	put_wrapped(sb, st, d, f->message,
		    6 + strlen(f->rule->id) + strlen(rule_severity_name(f->severity)) + 3, 6);
	if (finding_cause(d, f))
		put_field(sb, st, d, "caused by", finding_cause(d, f)->rule->id);
	put_field(sb, st, d, "symptom", finding_symptom_text(f));
	put_field(sb, st, d, "cause", f->rule->cause);
	for (size_t e = 0; e < f->n_ev; e++) {
		const struct rule_evidence *ev = &f->ev[e];

		struct strbuf line = STRBUF_INIT;

		/* wrapped like the other fields; put_wrapped() redacts and escapes */
		/* "%s = %s [%s]" as printf prints it, a missing string as "(null)" */
		strbuf_puts(&line, ev->name ? ev->name : "(null)");
		strbuf_puts(&line, " = ");
		strbuf_puts(&line, st->redact && ev->identifying ? "<redacted>"
				   : ev->value			 ? ev->value
								 : "(null)");
		strbuf_puts(&line, " [");
		strbuf_puts(&line, ev->source ? ev->source : "");
		strbuf_putc(&line, ']');
		put_label(sb, e == 0 ? "evidence" : "");
		put_wrapped(sb, st, d, strbuf_str(&line), 16, 18);
		strbuf_done(&line);
	}
	put_lines(sb, st, d, "fix", f->fix);
	put_lines(sb, st, d, "verify", f->verify);
}

static void counts(const struct gpuenv_doctor *d, unsigned n[3], unsigned *skipped, unsigned *rules)
{
	n[0] = n[1] = n[2] = 0;
	for (size_t i = 0; i < d->n_findings; i++)
		n[d->findings[i].severity]++;
	*skipped = *rules = 0;
	for (int l = 0; l < RULE_LAYERS; l++) {
		*skipped += d->rules_skipped[l];
		*rules += d->rules_total[l];
	}
}

static void headline(struct strbuf *sb, const struct gpuenv_doctor *d)
{
	unsigned n[3], skipped, rules, incomplete = 0;

	counts(d, n, &skipped, &rules);
	for (int l = 0; l < RULE_LAYERS; l++)
		incomplete += d->status[l] == LAYER_INCOMPLETE;
	strbuf_printf(sb,
		      "gpuenv doctor: %u error%s, %u warning%s, %u note%s (%u rules, %u skipped)",
		      n[2], n[2] == 1 ? "" : "s", n[1], n[1] == 1 ? "" : "s", n[0],
		      n[0] == 1 ? "" : "s", rules, skipped);
	if (incomplete)
		strbuf_printf(sb, ", %u layer%s incomplete", incomplete,
			      incomplete == 1 ? "" : "s");
}

/* The facts of the layer that could not be read: the first few, then how many more. */
static void text_problems(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
			  enum gpuenv_layer l)
{
	enum { SHOWN = 5 };
	size_t n = 0;

	for (size_t i = 0; i < d->n_problems; i++) {
		const struct layer_problem *p = &d->problems[i];

		if (p->layer != l)
			continue;
		if (n++ >= SHOWN)
			continue;
		struct strbuf line = STRBUF_INIT;

		/* wrapped like the skips; put_wrapped() redacts and escapes */
		strbuf_printf(&line, "%s (%s%s%s) [%s]", p->name, fact_state_to_string(p->state),
			      p->error ? ": " : "", p->error ? p->error : "",
			      p->source ? p->source : "");
		strbuf_printf(sb, "  %scould not read%s ", st->color ? "\033[2m" : "",
			      st->color ? "\033[0m" : "");
		put_wrapped(sb, st, d, strbuf_str(&line), 17, 6);
		if (line.err && !sb->err)
			sb->err = line.err;
		strbuf_done(&line);
	}
	if (n > SHOWN)
		strbuf_printf(sb,
			      "  … and %zu more facts that could not be read (doctor --json "
			      "lists them)\n",
			      n - SHOWN);
}

static void put_text(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
		     const char *s);

/* "a, b": the rules the root cause explains, each once, in the findings' order. */
static void explained(struct strbuf *sb, const struct gpuenv_doctor *d, const char *sep)
{
	const struct finding *rc = diagnosis_root_cause(d);
	bool first = true;

	for (size_t i = 0; i < d->n_findings; i++) {
		const struct finding *f = &d->findings[i];
		bool dup = false;

		if (f == rc || !finding_under_root(d, f))
			continue;
		for (size_t j = 0; j < i && !dup; j++)
			dup = d->findings[j].rule == f->rule &&
			      finding_under_root(d, &d->findings[j]);
		if (dup)
			continue;
		strbuf_printf(sb, "%s%s", first ? "" : sep, f->rule->id);
		first = false;
	}
}

/* The root cause before the layers: the one finding to act on first. */
static void text_root_cause(struct strbuf *sb, const struct style *st,
			    const struct gpuenv_doctor *d)
{
	const struct finding *rc = diagnosis_root_cause(d);
	struct strbuf line = STRBUF_INIT;

	if (!rc)
		return;
	strbuf_puts(sb, "\nroot cause: ");
	put_mark(sb, st, sev_status(rc->severity), sev_mark(rc->severity));
	strbuf_printf(sb, " %s%s%s (%s): ", st->color ? "\033[1m" : "", rc->rule->id,
		      st->color ? "\033[0m" : "", rule_layer_name(rc->rule->layer));
	put_wrapped(sb, st, d, rc->message,
		    strlen("root cause: ✗ ") - 2 + strlen(rc->rule->id) +
			    strlen(rule_layer_name(rc->rule->layer)) + 5,
		    2);
	explained(&line, d, ", ");
	if (line.len) {
		strbuf_puts(sb, "  explains: ");
		put_wrapped(sb, st, d, strbuf_str(&line), 12, 12);
	}
	strbuf_done(&line);
}

/* The CUDA chain is left out of the text and Markdown where nothing of NVIDIA's is on the
 * machine and another vendor's chain is shown instead (an AMD or Intel host); with no
 * vendor's stack at all it stays, its "?" links saying what is missing. JSON keeps it. */
static bool cuda_chain_shown(const struct gpuenv_doctor *d)
{
	return !(d->chain.nothing_nvidia && d->n_vendor_chains > 0);
}

/* The chain's values are versions and labels read from the machine: escaped like any text. */
static void chain_line(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d)
{
	const struct chain *ch = &d->chain;

	strbuf_puts(sb, "driver supports CUDA ≤ ");
	put_text(sb, st, d, ch->driver_cuda ? ch->driver_cuda : "?");
	strbuf_puts(sb, " (");
	put_text(sb, st, d, ch->driver_label ? ch->driver_label : "unknown");
	strbuf_puts(sb, ") · toolkit ");
	put_text(sb, st, d, ch->toolkit ? ch->toolkit : "none");
	strbuf_puts(sb, " · framework ");
	put_text(sb, st, d, ch->framework ? ch->framework : "not probed");
}

/* A vendor's chain, "amdgpu 6.7.0 · ROCm 6.2.0 · torch 2.5.1+rocm6.2 (gfx1100 ✓)", each
 * kind of GPU marked where there are several. */
static void vendor_chain_line(struct strbuf *sb, const struct style *st,
			      const struct gpuenv_doctor *d, const struct vendor_chain *v)
{
	put_text(sb, st, d, v->driver ? v->driver : "?");
	strbuf_puts(sb, " · ");
	put_text(sb, st, d, v->runtime ? v->runtime : "?");
	strbuf_puts(sb, " · ");
	put_text(sb, st, d, v->framework ? v->framework : "not probed");
	if (v->n_targets) {
		/* several kinds of GPU, each marked: "(gfx1036 ✗, gfx1100 ✓)" */
		for (size_t i = 0; i < v->n_targets; i++) {
			strbuf_puts(sb, i ? ", " : " (");
			put_text(sb, st, d, v->targets[i].name ? v->targets[i].name : "?");
			strbuf_printf(sb, " %s", link_mark(v->targets[i].state));
		}
		strbuf_putc(sb, ')');
	} else if (v->target) {
		strbuf_puts(sb, " (");
		put_text(sb, st, d, v->target);
		strbuf_printf(sb, " %s)", link_mark(v->target_state));
	}
}

static const char *const vendor_link_names[2] = { "driver → runtime", "runtime → framework" };

static const char *vendor_name(const struct vendor_chain *v)
{
	return streq(v->vendor, "amd") ? "AMD" : streq(v->vendor, "intel") ? "Intel" : v->vendor;
}

static void text_vendor_chains(struct strbuf *sb, const struct style *st,
			       const struct gpuenv_doctor *d)
{
	for (size_t i = 0; i < d->n_vendor_chains; i++) {
		const struct vendor_chain *v = &d->vendor_chains[i];
		struct strbuf line = STRBUF_INIT;
		size_t indent = strlen(vendor_name(v)) + strlen(" chain: ");

		strbuf_printf(sb, "%s chain: ", vendor_name(v));
		vendor_chain_line(&line, st, d, v);
		put_wrapped(sb, st, d, strbuf_str(&line), indent, indent);
		strbuf_done(&line);
		for (int k = 0; k < 2; k++) {
			strbuf_puts(sb, "  ");
			put_mark(sb, st, link_status(v->link_state[k]),
				 link_mark(v->link_state[k]));
			strbuf_printf(sb, " %s: ", vendor_link_names[k]);
			put_wrapped(sb, st, d, v->link_why[k] ? v->link_why[k] : "",
				    6 + out_text_cols(vendor_link_names[k],
						      strlen(vendor_link_names[k])),
				    4);
		}
	}
}

static int render_text(const struct gpuenv_doctor *d, const struct style *st, struct strbuf *sb)
{
	static const char *const link_names[2] = { "driver → toolkit", "toolkit → framework" };
	struct strbuf head = STRBUF_INIT;

	headline(&head, d);
	out_wrap(sb, strbuf_str(&head), 0, strlen("gpuenv doctor: "), st->width, NULL, 1);
	if (head.err && !sb->err)
		sb->err = head.err;
	strbuf_done(&head);
	text_root_cause(sb, st, d);
	for (int l = 0; l < RULE_LAYERS; l++) {
		strbuf_putc(sb, '\n');
		put_mark(sb, st, d->status[l], mark(d->status[l]));
		strbuf_printf(sb, " %s%s%s  %s\n", st->color ? "\033[1m" : "",
			      rule_layer_name((enum gpuenv_layer)l), st->color ? "\033[0m" : "",
			      layer_status_name(d->status[l]));
		for (size_t i = 0; i < d->n_facts; i++) {
			const struct layer_fact *lf = &d->facts[i];

			if (lf->layer != (enum gpuenv_layer)l)
				continue;
			struct strbuf line = STRBUF_INIT;

			strbuf_printf(&line, "%s [%s]",
				      st->redact && lf->source && streq(lf->source, "environment")
					      ? "<redacted>"
					      : lf->value,
				      lf->source ? lf->source : "");
			strbuf_printf(sb, "    %s: ", lf->label);
			put_wrapped(sb, st, d, strbuf_str(&line), 6 + strlen(lf->label), 6);
			strbuf_done(&line);
		}
		text_problems(sb, st, d, (enum gpuenv_layer)l);
		for (size_t i = 0; i < d->n_findings; i++)
			if (d->findings[i].rule->layer == (enum gpuenv_layer)l)
				text_finding(sb, st, d, &d->findings[i]);
		for (size_t i = 0; i < d->n_skips; i++) {
			const struct rule_skip *k = &d->skips[i];
			struct strbuf line = STRBUF_INIT;
			bool seen = false;

			if (k->rule->layer != (enum gpuenv_layer)l)
				continue;
			/* One line per reason: the rules it stopped are listed together. */
			for (size_t j = 0; j < i && !seen; j++)
				seen = d->skips[j].rule->layer == k->rule->layer &&
				       !d->skips[j].subject == !k->subject &&
				       (!k->subject || streq(d->skips[j].subject, k->subject)) &&
				       streq(d->skips[j].reason, k->reason);
			if (seen)
				continue;
			strbuf_puts(sb, st->color ? "  \033[2mskipped\033[0m " : "  skipped ");
			strbuf_puts(&line, k->rule->id);
			for (size_t j = i + 1; j < d->n_skips; j++)
				if (d->skips[j].rule->layer == k->rule->layer &&
				    !d->skips[j].subject == !k->subject &&
				    (!k->subject || streq(d->skips[j].subject, k->subject)) &&
				    streq(d->skips[j].reason, k->reason) &&
				    d->skips[j].rule != k->rule) {
					strbuf_add(&line, ", ", 2);
					strbuf_puts(&line, d->skips[j].rule->id);
				}
			if (k->subject) {
				strbuf_putc(&line, ' ');
				strbuf_puts(&line, k->subject);
			}
			strbuf_add(&line, ": ", 2);
			strbuf_puts(&line, k->reason ? k->reason : "(null)");
			put_wrapped(sb, st, d, strbuf_str(&line), 10, 6);
			strbuf_done(&line);
		}
	}
	if (!cuda_chain_shown(d)) {
		text_vendor_chains(sb, st, d);
		return sb->err;
	}
	strbuf_puts(sb, "\nchain: ");
	{
		struct strbuf chain = STRBUF_INIT;

		/* already escaped; put_wrapped()'s second pass leaves escaped text as it is */
		chain_line(&chain, st, d);
		put_wrapped(sb, st, d, strbuf_str(&chain), 7, 7);
		strbuf_done(&chain);
	}
	for (int k = 0; k < 2; k++) {
		strbuf_puts(sb, "  ");
		put_mark(sb, st, link_status(d->chain.link_state[k]),
			 link_mark(d->chain.link_state[k]));
		strbuf_printf(sb, " %s: ", link_names[k]);
		put_wrapped(sb, st, d, d->chain.link_why[k] ? d->chain.link_why[k] : "",
			    6 + out_text_cols(link_names[k], strlen(link_names[k])), 4);
	}
	text_vendor_chains(sb, st, d);
	return sb->err;
}

/* Does s end with a full stop, a question or an exclamation mark? */
static bool ends_sentence(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && strchr(".?!", s[n - 1]);
}

/* The longest run of backticks in s. */
static size_t backtick_run(const char *s)
{
	size_t best = 0;

	for (const char *p = s; *p;) {
		size_t n = strspn(p, "`");

		best = n > best ? n : best;
		p += n ? n : 1;
	}
	return best;
}

static void put_backticks(struct strbuf *sb, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_putc(sb, '`');
}

/* Markdown code span: delimited by one backtick more than the longest run inside, so no text
 * can end it early (CommonMark 0.30, section 6.1 "Code spans"). */
static void md_code(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
		    const char *s)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t run;

	put_redacted(&tmp, st, d, s);
	run = backtick_run(strbuf_str(&tmp));
	put_backticks(sb, run + 1);
	strbuf_puts(sb, run ? " " : "");
	strbuf_puts(sb, strbuf_str(&tmp));
	strbuf_puts(sb, run ? " " : "");
	put_backticks(sb, run + 1);
	strbuf_done(&tmp);
}

/* Markdown text and table cells: the characters that would open a code span, a link or an
 * image, an HTML tag or split a table cell are backslash-escaped (CommonMark 0.30, section 2.4
 * "Backslash escapes"; GitHub Flavored Markdown, section 4.10 "Tables": a pipe in a cell is
 * written \|), so a value read from the machine stays text. */
static void md_text(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
		    const char *s)
{
	struct strbuf tmp = STRBUF_INIT;

	put_redacted(&tmp, st, d, s);
	for (const char *p = strbuf_str(&tmp); *p; p++) {
		if (strchr("\\`[]<>|", *p))
			strbuf_putc(sb, '\\');
		strbuf_putc(sb, *p);
	}
	strbuf_done(&tmp);
}

/* Text from the diagnosis, escaped for the renderer in use: Markdown or a terminal. */
static void put_text(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
		     const char *s)
{
	if (st->markdown)
		md_text(sb, st, d, s);
	else
		put_redacted(sb, st, d, s);
}

/* A fenced block of shell lines; the fence is longer than any backtick run in them, so no line
 * can end it (CommonMark 0.30, section 4.5 "Fenced code blocks"). */
static void md_block(struct strbuf *sb, const struct style *st, const struct gpuenv_doctor *d,
		     const char *label, char *const *lines)
{
	size_t fence = 3;

	if (!lines || !lines[0])
		return;
	for (size_t i = 0; lines[i]; i++)
		if (backtick_run(lines[i]) >= fence)
			fence = backtick_run(lines[i]) + 1;
	strbuf_printf(sb, "- **%s:**\n  ", label);
	put_backticks(sb, fence);
	strbuf_puts(sb, "sh\n");
	for (size_t i = 0; lines[i]; i++) {
		strbuf_puts(sb, "  ");
		put_redacted(sb, st, d, lines[i]);
		strbuf_putc(sb, '\n');
	}
	strbuf_puts(sb, "  ");
	put_backticks(sb, fence);
	strbuf_putc(sb, '\n');
}

static int render_markdown(const struct gpuenv_doctor *d, const struct style *st, struct strbuf *sb)
{
	const struct snap_node *root = snapshot_root_const(d->snap);
	static const char *const link_names[2] = { "driver → toolkit", "toolkit → framework" };

	strbuf_puts(sb, "### ");
	headline(sb, d);
	/* what a reader of a pasted report asks first: which gpuenv, which OS, which kernel */
	strbuf_puts(sb, "\n\ngpuenv " GPUENV_VERSION " · OS ");
	md_text(sb, st, d, snap_get_str(root, "host.os.pretty_name") ?: "unknown");
	strbuf_puts(sb, " · kernel ");
	md_text(sb, st, d, snap_get_str(root, "host.kernel_release") ?: "unknown");
	if (diagnosis_root_cause(d)) {
		const struct finding *rc = diagnosis_root_cause(d);
		struct strbuf line = STRBUF_INIT;

		strbuf_printf(sb, "\n\n**Root cause:** %s `%s` (%s): ", sev_mark(rc->severity),
			      rc->rule->id, rule_layer_name(rc->rule->layer));
		md_text(sb, st, d, rc->message);
		explained(&line, d, "`, `");
		/* Messages end without a full stop; the next sentence needs one. */
		if (line.len)
			strbuf_printf(sb, "%s It explains `%s`.",
				      ends_sentence(rc->message) ? "" : ".", strbuf_str(&line));
		strbuf_done(&line);
	}
	strbuf_puts(sb, "\n\n| layer | status | key facts |\n|---|---|---|\n");
	for (int l = 0; l < RULE_LAYERS; l++) {
		bool first = true;

		strbuf_printf(sb, "| %s | %s %s | ", rule_layer_name((enum gpuenv_layer)l),
			      mark(d->status[l]), layer_status_name(d->status[l]));
		for (size_t i = 0; i < d->n_facts; i++) {
			const struct layer_fact *lf = &d->facts[i];

			if (lf->layer != (enum gpuenv_layer)l)
				continue;
			strbuf_printf(sb, "%s%s: ", first ? "" : "<br>", lf->label);
			if (st->redact && lf->source && streq(lf->source, "environment"))
				strbuf_puts(sb, "&lt;redacted&gt;");
			else
				md_text(sb, st, d, lf->value);
			first = false;
		}
		strbuf_puts(sb, " |\n");
	}
	if (cuda_chain_shown(d)) {
		strbuf_puts(sb, "\n**Chain:** ");
		chain_line(sb, st, d);
		strbuf_puts(sb, "\n\n");
		for (int k = 0; k < 2; k++) {
			strbuf_printf(sb, "- %s %s: ", link_mark(d->chain.link_state[k]),
				      link_names[k]);
			md_text(sb, st, d, d->chain.link_why[k] ? d->chain.link_why[k] : "");
			strbuf_putc(sb, '\n');
		}
	}
	for (size_t i = 0; i < d->n_vendor_chains; i++) {
		const struct vendor_chain *v = &d->vendor_chains[i];

		strbuf_printf(sb, "\n**%s chain:** ", vendor_name(v));
		vendor_chain_line(sb, st, d, v);
		strbuf_puts(sb, "\n\n");
		for (int k = 0; k < 2; k++) {
			strbuf_printf(sb, "- %s %s: ", link_mark(v->link_state[k]),
				      vendor_link_names[k]);
			md_text(sb, st, d, v->link_why[k] ? v->link_why[k] : "");
			strbuf_putc(sb, '\n');
		}
	}
	for (size_t i = 0; i < d->n_findings; i++) {
		const struct finding *f = &d->findings[i];

		strbuf_printf(sb, "\n#### %s `%s` (%s, %s)\n\n", sev_mark(f->severity), f->rule->id,
			      rule_layer_name(f->rule->layer), rule_severity_name(f->severity));
		md_text(sb, st, d, f->message);
		strbuf_puts(sb, "\n\n");
		if (finding_cause(d, f))
			strbuf_printf(sb, "- **Caused by:** `%s`\n", finding_cause(d, f)->rule->id);
		strbuf_printf(sb, "- **Symptom:** %s\n- **Cause:** %s\n- **Evidence:**\n",
			      finding_symptom_text(f), f->rule->cause);
		for (size_t e = 0; e < f->n_ev; e++) {
			const struct rule_evidence *ev = &f->ev[e];

			strbuf_puts(sb, "  - ");
			md_code(sb, st, d, ev->name);
			strbuf_puts(sb, " = ");
			if (st->redact && ev->identifying)
				strbuf_puts(sb, "`<redacted>`");
			else
				md_code(sb, st, d, ev->value);
			strbuf_puts(sb, " (");
			md_code(sb, st, d, ev->source ? ev->source : "");
			strbuf_puts(sb, ")\n");
		}
		md_block(sb, st, d, "Fix", f->fix);
		md_block(sb, st, d, "Verify", f->verify);
	}
	if (d->n_skips) {
		strbuf_printf(sb, "\n<details><summary>Skipped checks (%zu)</summary>\n\n",
			      d->n_skips);
		for (size_t i = 0; i < d->n_skips; i++) {
			const struct rule_skip *k = &d->skips[i];

			strbuf_printf(sb, "- `%s`%s", k->rule->id, k->subject ? " " : "");
			md_text(sb, st, d, k->subject ? k->subject : "");
			strbuf_puts(sb, ": ");
			md_text(sb, st, d, k->reason);
			strbuf_putc(sb, '\n');
		}
		strbuf_puts(sb, "\n</details>\n");
	}
	return sb->err;
}

int out_doctor_text(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb)
{
	struct style st = {
		.color = flags & GPUENV_RENDER_COLOR,
		.redact = flags & GPUENV_RENDER_REDACT,
		.width = out_text_width(flags),
	};

	return render_text(d, &st, sb);
}

int out_doctor_markdown(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb)
{
	struct style st = { .redact = flags & GPUENV_RENDER_REDACT, .markdown = true };

	return render_markdown(d, &st, sb);
}
