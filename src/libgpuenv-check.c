// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public gpuenv_policy and gpuenv_check objects (include/gpuenv/gpuenv.h): the policy
 * reader is src/formats/policy.c, the judgement src/check/check.c, the renderers
 * src/output/out-check*.c. These functions check arguments and pick the renderer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "formats/policy.h"
#include "gpuenv/gpuenv.h"
#include "output/out-check.h"
#include "output/output.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/strv.h"
#include "snapshot/snapshot.h"

GPUENV_API int gpuenv_policy_parse(const char *yaml, size_t len, struct gpuenv_policy **ret,
				   unsigned *ret_line, char **ret_why)
{
	struct policy_error err = { 0 };
	int r;

	if (!yaml || !ret)
		return -EINVAL;
	r = policy_parse(yaml, len, ret, &err);
	if (r < 0 && r != -ENOMEM) {
		if (ret_line)
			*ret_line = err.line;
		if (ret_why && !(*ret_why = strdup(err.why)))
			return -ENOMEM;
	}
	return r;
}

GPUENV_API struct gpuenv_policy *gpuenv_policy_free(struct gpuenv_policy *p)
{
	return policy_free(p);
}

GPUENV_API int gpuenv_policy_set_profile(struct gpuenv_policy *p, const char *profile)
{
	if (!p || !profile)
		return -EINVAL;
	if (streq(profile, "runtime"))
		p->profile = POLICY_PROFILE_RUNTIME;
	else if (streq(profile, "build"))
		p->profile = POLICY_PROFILE_BUILD;
	else
		return -EINVAL;
	return 0;
}

GPUENV_API int gpuenv_check_run(const struct gpuenv_doctor *d, const struct gpuenv_policy *p,
				const char *policy_path, const char *today,
				struct gpuenv_check **ret)
{
	return check_run(d, p, policy_path, today, ret);
}

GPUENV_API int gpuenv_check_target(const char *spec, struct gpuenv_snapshot **ret, char **ret_why)
{
	char *why = NULL;
	int r;

	if (!spec || !ret)
		return -EINVAL;
	r = check_target_snapshot(spec, ret, &why);
	if (ret_why)
		*ret_why = why;
	else
		free(why);
	return r;
}

GPUENV_API int gpuenv_check_redact_snapshot(struct gpuenv_check *c, const struct gpuenv_snapshot *s)
{
	if (!c || !s)
		return -EINVAL;
	return check_add_secrets(c, snapshot_root_const(s));
}

GPUENV_API struct gpuenv_check *gpuenv_check_free(struct gpuenv_check *c)
{
	return check_free(c);
}

GPUENV_API enum gpuenv_check_result gpuenv_check_get_result(const struct gpuenv_check *c)
{
	return c ? c->result : GPUENV_CHECK_ERRORS;
}

static int render_set_as(const struct check_set *set, enum gpuenv_format format, unsigned flags,
			 char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	switch (format) {
	case GPUENV_FORMAT_TEXT:
		r = out_check_text(set, flags, &sb);
		break;
	case GPUENV_FORMAT_JSON:
		r = out_check_json(set, flags, &sb);
		break;
	case GPUENV_FORMAT_MARKDOWN:
		r = out_check_markdown(set, flags, &sb);
		break;
	case GPUENV_FORMAT_JUNIT:
		r = out_check_junit(set, flags, &sb);
		break;
	case GPUENV_FORMAT_SARIF:
		r = out_check_sarif(set, flags, &sb);
		break;
	case GPUENV_FORMAT_GITHUB:
		r = out_check_github(set, flags, &sb);
		break;
	default:
		r = -EOPNOTSUPP;
	}
	return strbuf_finish(&sb, r, ret);
}

/* Renders set; under GPUENV_RENDER_REDACT through copies of its checks that carry every secret
 * to hide (check_collect_secrets()): gathered here, only when an output redacts, and never
 * stored in the caller's checks, which stay const (and may be rendered by several threads). */
static int render_set(const struct check_set *set, enum gpuenv_format format, unsigned flags,
		      char **ret)
{
	struct gpuenv_check *copy;
	const struct gpuenv_check **c;
	int r = 0;

	if (!(flags & GPUENV_RENDER_REDACT))
		return render_set_as(set, format, flags, ret);
	copy = calloc(set->n, sizeof(*copy));
	c = calloc(set->n, sizeof(*c));
	if (!copy || !c)
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < set->n; i++) {
		copy[i] = *set->c[i];
		copy[i].secrets = NULL;
		r = check_collect_secrets(set->c[i], &copy[i].secrets);
		c[i] = &copy[i];
	}
	if (r == 0)
		r = render_set_as(&(struct check_set){ c, set->target, set->n }, format, flags,
				  ret);
	for (size_t i = 0; copy && i < set->n; i++)
		strv_free(copy[i].secrets);
	free(copy);
	free(c);
	return r;
}

GPUENV_API int gpuenv_check_render(const struct gpuenv_check *c, enum gpuenv_format format,
				   unsigned flags, char **ret)
{
	if (!c || !ret)
		return -EINVAL;
	return render_set(&(struct check_set){ &c, NULL, 1 }, format, flags, ret);
}

GPUENV_API int gpuenv_check_render_matrix(const struct gpuenv_check *const *checks,
					  const char *const *targets, size_t n,
					  enum gpuenv_format format, unsigned flags, char **ret)
{
	if (!checks || n == 0 || !ret)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!checks[i])
			return -EINVAL;
	return render_set(&(struct check_set){ checks, targets, n }, format, flags, ret);
}
