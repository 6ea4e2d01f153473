// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public knowledge-base lookup (include/gpuenv/gpuenv.h): gpuenv_facts_query() over the
 * tables of src/facts/ (the lookups and their rendering are src/facts/facts-query.c).
 */
#include <errno.h>

#include "facts/facts.h"
#include "gpuenv/gpuenv.h"

GPUENV_API int gpuenv_facts_query(const char *kind, const char *key, enum gpuenv_format format,
				  unsigned flags, char **ret)
{
	if (!kind || !key || !ret)
		return -EINVAL;
	if (format != GPUENV_FORMAT_TEXT && format != GPUENV_FORMAT_JSON)
		return -EOPNOTSUPP;
	return facts_query(kind, key, format == GPUENV_FORMAT_JSON, ret);
}
