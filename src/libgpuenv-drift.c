// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public drift objects (include/gpuenv/gpuenv.h): struct gpuenv_diff (`gpuenv diff`) and
 * struct gpuenv_fleet (`gpuenv fleet`), defined in src/drift/drift.h under their public names.
 * The work is in src/drift/.
 */
#include <errno.h>

#include "drift/drift.h"
#include "drift/fleet.h"
#include "gpuenv/gpuenv.h"
#include "shared/strbuf.h"

GPUENV_API int gpuenv_diff_new(const char *name_a, struct gpuenv_snapshot *a, const char *name_b,
			       struct gpuenv_snapshot *b, struct gpuenv_diff **ret)
{
	if (!name_a || !a || !name_b || !b || !ret)
		return -EINVAL;
	return drift_diff(name_a, a, name_b, b, ret);
}

GPUENV_API struct gpuenv_diff *gpuenv_diff_free(struct gpuenv_diff *d)
{
	return drift_diff_free(d);
}

GPUENV_API size_t gpuenv_diff_get_count(const struct gpuenv_diff *d)
{
	return d ? drift_diff_count(d) : 0;
}

GPUENV_API int gpuenv_diff_render(const struct gpuenv_diff *d, enum gpuenv_format format,
				  unsigned flags, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (!d || !ret)
		return -EINVAL;
	switch (format) {
	case GPUENV_FORMAT_TEXT:
		r = out_diff_text(d, flags, &sb);
		break;
	case GPUENV_FORMAT_MARKDOWN:
		r = out_diff_markdown(d, flags, &sb);
		break;
	case GPUENV_FORMAT_JSON:
		r = out_diff_json(d, flags, &sb);
		break;
	default:
		return -EOPNOTSUPP;
	}
	return strbuf_finish(&sb, r, ret);
}

GPUENV_API int gpuenv_fleet_new(struct gpuenv_fleet **ret)
{
	if (!ret)
		return -EINVAL;
	return fleet_new(ret);
}

GPUENV_API struct gpuenv_fleet *gpuenv_fleet_free(struct gpuenv_fleet *f)
{
	return fleet_free(f);
}

GPUENV_API int gpuenv_fleet_add(struct gpuenv_fleet *f, const char *name, const char *text,
				size_t len)
{
	if (!f || !name || (!text && len))
		return -EINVAL;
	return fleet_add(f, name, text ? text : "", len);
}

GPUENV_API int gpuenv_fleet_add_unread(struct gpuenv_fleet *f, const char *name, const char *why)
{
	if (!f || !name || !why)
		return -EINVAL;
	return fleet_add_unread(f, name, why);
}

GPUENV_API size_t gpuenv_fleet_get_machine_count(const struct gpuenv_fleet *f)
{
	return f ? f->machines : 0;
}

GPUENV_API size_t gpuenv_fleet_get_problem_count(const struct gpuenv_fleet *f)
{
	return f ? fleet_problem_count(f) : 0;
}

GPUENV_API int gpuenv_fleet_render(const struct gpuenv_fleet *f, enum gpuenv_format format,
				   unsigned flags, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (!f || !ret)
		return -EINVAL;
	switch (format) {
	case GPUENV_FORMAT_TEXT:
		r = out_fleet_text(f, flags, &sb);
		break;
	case GPUENV_FORMAT_MARKDOWN:
		r = out_fleet_markdown(f, flags, &sb);
		break;
	case GPUENV_FORMAT_JSON:
		r = out_fleet_json(f, flags, &sb);
		break;
	default:
		return -EOPNOTSUPP;
	}
	return strbuf_finish(&sb, r, ret);
}
