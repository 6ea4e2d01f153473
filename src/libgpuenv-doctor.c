// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public struct gpuenv_doctor (include/gpuenv/gpuenv.h): run the rule table over a
 * snapshot (src/rules/), read the verdict and the findings, render them and the rule catalogue
 * (src/output/). The struct is defined in src/rules/rules.h, under its public name.
 */
#include <errno.h>

#include "gpuenv/gpuenv.h"
#include "output/output.h"
#include "rules/rules.h"
#include "shared/strbuf.h"

GPUENV_API int gpuenv_doctor_run(struct gpuenv_snapshot *s, struct gpuenv_doctor **ret)
{
	struct gpuenv_doctor *d;
	int r;

	if (!s || !ret)
		return -EINVAL;
	r = rules_diagnose(s, &d);
	if (r < 0)
		return r;
	*ret = d;
	return 0;
}

GPUENV_API struct gpuenv_doctor *gpuenv_doctor_free(struct gpuenv_doctor *d)
{
	return diagnosis_free(d);
}

GPUENV_API enum gpuenv_verdict gpuenv_doctor_get_verdict(const struct gpuenv_doctor *d)
{
	return d ? d->verdict : GPUENV_VERDICT_UNEVALUATED;
}

GPUENV_API size_t gpuenv_doctor_get_finding_count(const struct gpuenv_doctor *d)
{
	return d ? d->n_findings : 0;
}

GPUENV_API int gpuenv_doctor_get_finding(const struct gpuenv_doctor *d, size_t i,
					 const char **ret_rule_id,
					 enum gpuenv_severity *ret_severity,
					 enum gpuenv_layer *ret_layer, const char **ret_message)
{
	const struct finding *f;

	if (!d)
		return -EINVAL;
	if (i >= d->n_findings)
		return -ERANGE;
	f = &d->findings[i];
	if (ret_rule_id)
		*ret_rule_id = f->rule->id;
	if (ret_severity)
		*ret_severity = f->severity;
	if (ret_layer)
		*ret_layer = f->rule->layer;
	if (ret_message)
		*ret_message = f->message;
	return 0;
}

GPUENV_API int gpuenv_doctor_get_root_cause(const struct gpuenv_doctor *d)
{
	if (!d)
		return -EINVAL;
	return d->root_cause ? (int)(d->root_cause - 1) : -ENOENT;
}

GPUENV_API int gpuenv_doctor_render(const struct gpuenv_doctor *d, enum gpuenv_format format,
				    unsigned flags, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (!d || !ret)
		return -EINVAL;
	switch (format) {
	case GPUENV_FORMAT_TEXT:
		r = out_doctor_text(d, flags, &sb);
		break;
	case GPUENV_FORMAT_JSON:
		r = out_doctor_json(d, flags, &sb);
		break;
	case GPUENV_FORMAT_MARKDOWN:
		r = out_doctor_markdown(d, flags, &sb);
		break;
	case GPUENV_FORMAT_MERMAID:
		r = out_doctor_mermaid(d, flags, &sb);
		break;
	case GPUENV_FORMAT_PROMETHEUS:
	case GPUENV_FORMAT_OPENMETRICS:
		r = out_metrics_doctor(d, format == GPUENV_FORMAT_OPENMETRICS, flags, &sb);
		break;
	default:
		r = -EOPNOTSUPP;
	}
	return strbuf_finish(&sb, r, ret);
}

GPUENV_API int gpuenv_doctor_list_rules(enum gpuenv_format format, unsigned flags, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (!ret)
		return -EINVAL;
	switch (format) {
	case GPUENV_FORMAT_TEXT:
		r = out_rules_text(&sb);
		break;
	case GPUENV_FORMAT_JSON:
		r = out_rules_json(&sb);
		break;
	case GPUENV_FORMAT_MARKDOWN:
		r = out_rules_markdown(&sb);
		break;
	default:
		r = -EOPNOTSUPP;
	}
	return strbuf_finish(&sb, r, ret);
}

GPUENV_API int gpuenv_doctor_labels(const struct gpuenv_doctor *d, enum gpuenv_format format,
				    unsigned flags, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (!d || !ret)
		return -EINVAL;
	if (format == GPUENV_FORMAT_TEXT)
		r = out_labels_text(d, flags, &sb);
	else if (format == GPUENV_FORMAT_JSON)
		r = out_labels_json(d, flags, &sb);
	else
		return -EOPNOTSUPP;
	return strbuf_finish(&sb, r, ret);
}
