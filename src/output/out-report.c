// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The `gpuenv report` text tree: the snapshot's sections in stack order, bottom first
 * (host, hardware, driver, runtime, framework, container, environment), every fact with
 * its value, or its state and reason when it is not present. Rendering only: the tree is
 * printed as collected, nothing is computed here. Every string from the machine is written
 * with its control characters escaped (strbuf_put_escaped()): an os-release, a kernel log line
 * or a --from snapshot cannot send escape sequences to the terminal.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gpuenv/gpuenv.h"
#include "output.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "snapshot/snapshot.h"

static const char *const section_order[] = {
	"host", "hardware", "driver", "runtime", "framework", "container", "environment",
};

struct style {
	bool color, redact;
	size_t width;
};

static const char *c_on(const struct style *st, const char *code)
{
	return st->color ? code : "";
}

/* Text from the machine: with --redact, home directories lose their user names; always
 * escaped. */
static void put_text(struct strbuf *sb, const struct style *st, const char *s)
{
	struct strbuf tmp = STRBUF_INIT;

	if (!st->redact) {
		strbuf_put_escaped(sb, s);
		return;
	}
	strbuf_put_home_redacted(&tmp, s);
	strbuf_put_escaped(sb, strbuf_str(&tmp));
	if (tmp.err && !sb->err)
		sb->err = tmp.err;
	strbuf_done(&tmp);
}

static void render_value(struct strbuf *sb, const struct style *st, const struct snap_node *n,
			 const char *section)
{
	enum fact_state state = snap_state(n);
	const char *src = snap_source(n), *err = snap_error(n);
	int64_t i;
	bool b;

	if (state == FACT_PRESENT) {
		if (st->redact && snap_type(n) != SNAP_TYPE_NONE &&
		    snap_key_is_identifying(section, snap_key(n)))
			strbuf_puts(sb, "<redacted>");
		else if (snap_str(n))
			put_text(sb, st, snap_str(n));
		else if (snap_int(n, &i))
			strbuf_printf(sb, "%" PRId64, i);
		else if (snap_bool(n, &b))
			strbuf_puts(sb, b ? "yes" : "no");
		else
			strbuf_puts(sb, "present");
		return;
	}
	strbuf_printf(
		sb, "%s(%s",
		c_on(st, state == FACT_ABSENT || state == FACT_UNPROBED ? "\033[2m" : "\033[33m"),
		fact_state_to_string(state));
	if (err) {
		strbuf_puts(sb, ": ");
		put_text(sb, st, err);
	}
	if (src) {
		strbuf_puts(sb, "; ");
		put_text(sb, st,
			 st->redact && snap_section_is_environment(section) ? "<redacted>" : src);
	}
	if (snap_raw(n)) {
		strbuf_puts(sb, "; raw \"");
		put_text(sb, st, snap_raw(n));
		strbuf_putc(sb, '"');
	}
	strbuf_printf(sb, ")%s", c_on(st, "\033[0m"));
}

static void render_node(struct strbuf *sb, const struct style *st, const struct snap_node *n,
			unsigned depth, const char *section)
{
	size_t count = snap_count(n);

	for (size_t i = 0; i < count; i++) {
		const struct snap_node *c = snap_at(n, i);
		const char *key = snap_key(c);
		char label[64];

		if (key)
			snprintf(label, sizeof(label), "%s", key);
		else
			snprintf(label, sizeof(label), "[%zu]", i);
		size_t at = sb->len;

		strbuf_printf(sb, "%*s", (int)(depth * 2), "");
		/* keys can come from the machine too (an environment variable's name) */
		strbuf_put_escaped(sb, label);
		if (snap_kind(c) == SNAP_FACT) {
			struct strbuf value = STRBUF_INIT;
			size_t col = sb->err ? 0 : out_text_cols(sb->buf + at, sb->len - at) + 2;

			/* a long value continues under its key, two columns in */
			strbuf_puts(sb, ": ");
			render_value(&value, st, c, section);
			out_wrap(sb, strbuf_str(&value), col, depth * 2 + 4, st->width, NULL, 1);
			if (value.err && !sb->err)
				sb->err = value.err;
			strbuf_done(&value);
			continue;
		}
		strbuf_puts(sb, snap_count(c) ? "" : ": (none)");
		strbuf_putc(sb, '\n');
		render_node(sb, st, c, depth + 1, key ? key : section);
	}
}

int out_report_text(const struct gpuenv_snapshot *s, unsigned flags, struct strbuf *sb)
{
	const struct snap_node *root = snapshot_root_const(s);
	struct style st = {
		.color = flags & GPUENV_RENDER_COLOR,
		.redact = flags & GPUENV_RENDER_REDACT,
		.width = out_text_width(flags),
	};

	strbuf_puts(sb, "gpuenv report: the GPU stack, bottom layer first\n");
	out_report_gpus(sb, root, flags);
	for (size_t i = 0; i < ARRAY_SIZE(section_order); i++) {
		const struct snap_node *sec = snap_child(root, section_order[i]);

		strbuf_printf(sb, "\n%s%s%s\n", c_on(&st, "\033[1m"), section_order[i],
			      c_on(&st, "\033[0m"));
		if (!sec || snap_count(sec) == 0) {
			strbuf_puts(sb, "  (nothing probed)\n");
			continue;
		}
		render_node(sb, &st, sec, 1, section_order[i]);
	}
	return sb->err;
}
