// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The metric writer (out-metrics.h): family headers, escaped label values and samples in the
 * Prometheus text format 0.0.4 or OpenMetrics 1.0.
 */
#include <inttypes.h>
#include <float.h>
#include <string.h>

#include "out-metrics.h"

/* Escapes backslash and line feed, and the double quote where quote is set (label values);
 * the text format allows nothing else to be escaped. */
static void put_escaped(struct strbuf *sb, const char *s, bool quote)
{
	for (; s && *s; s++) {
		if (*s == '\\')
			strbuf_puts(sb, "\\\\");
		else if (*s == '\n')
			strbuf_puts(sb, "\\n");
		else if (*s == '"' && quote)
			strbuf_puts(sb, "\\\"");
		else
			strbuf_putc(sb, *s);
	}
}

void metrics_label_value(struct strbuf *sb, const char *value)
{
	put_escaped(sb, value, true);
}

void metrics_label(struct strbuf *sb, const char *key, const char *value)
{
	if (sb->len)
		strbuf_putc(sb, ',');
	strbuf_printf(sb, "%s=\"", key);
	put_escaped(sb, value ? value : "", true);
	strbuf_putc(sb, '"');
}

void metrics_family(struct metrics *m, const char *name, enum metric_type type, const char *help)
{
	static const char *const text_types[] = {
		[METRIC_GAUGE] = "gauge",
		[METRIC_COUNTER] = "counter",
		[METRIC_INFO] = "gauge",
		[METRIC_STATESET_GAUGE] = "gauge",
		[METRIC_UNTYPED_COUNTER] = "counter",
	};
	static const char *const om_types[] = {
		[METRIC_GAUGE] = "gauge",
		[METRIC_COUNTER] = "counter",
		[METRIC_INFO] = "info",
		[METRIC_STATESET_GAUGE] = "gauge",
		[METRIC_UNTYPED_COUNTER] = "unknown",
	};
	size_t len = strlen(name);

	/* OpenMetrics names the family without the suffix its samples carry (_total, _info). */
	if (m->openmetrics && type == METRIC_COUNTER && len > 6 &&
	    strcmp(name + len - 6, "_total") == 0)
		len -= 6;
	else if (m->openmetrics && type == METRIC_INFO && len > 5 &&
		 strcmp(name + len - 5, "_info") == 0)
		len -= 5;
	strbuf_puts(m->sb, "# HELP ");
	strbuf_add(m->sb, name, len);
	strbuf_putc(m->sb, ' ');
	put_escaped(m->sb, help, false);
	strbuf_puts(m->sb, "\n# TYPE ");
	strbuf_add(m->sb, name, len);
	strbuf_printf(m->sb, " %s\n", (m->openmetrics ? om_types : text_types)[type]);
}

static void sample_head(struct metrics *m, const char *name, const char *labels)
{
	strbuf_puts(m->sb, name);
	if (labels && *labels)
		strbuf_printf(m->sb, "{%s}", labels);
	strbuf_putc(m->sb, ' ');
}

void metrics_sample_int(struct metrics *m, const char *name, const char *labels, int64_t v)
{
	sample_head(m, name, labels);
	strbuf_printf(m->sb, "%" PRId64 "\n", v);
}

void metrics_sample_double(struct metrics *m, const char *name, const char *labels, double v)
{
	double a = v < 0 ? -v : v;

	sample_head(m, name, labels);
	if (v != v)
		strbuf_puts(m->sb, "NaN\n");
	else if (a > DBL_MAX)
		strbuf_puts(m->sb, v > 0 ? "+Inf\n" : "-Inf\n");
	else if (a >= 9e12)
		strbuf_printf(m->sb, "%.0f\n", v); /* no decimal point to localise */
	else {
		/* Six decimals as dcgm-exporter's %f, written by hand: printf's decimal point
		 * follows LC_NUMERIC, and a program linking libgpuenv may set a comma locale. */
		long long micro = (long long)(a * 1e6 + 0.5);

		strbuf_printf(m->sb, "%s%lld.%06lld\n", v < 0 ? "-" : "", micro / 1000000,
			      micro % 1000000);
	}
}
