/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the renderers of `gpuenv check` (out-check.c, out-check-json.c, out-check-ci.c) share:
 * the checks of one image on its targets (one check without a target, or the matrix of
 * --host/--target: docs/policy.md, "The matrix"), and --redact of every value they print.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "check/check.h"
#include "shared/strbuf.h"

/* c[i] judged on target[i] (the --host file or --target string as given); target NULL (or
 * target[i] NULL) for a check of the machine itself. matrix: n > 1, one document for all. */
struct check_set {
	const struct gpuenv_check *const *c;
	const char *const *target;
	size_t n;
};

static inline const char *check_set_target(const struct check_set *s, size_t i)
{
	return s->target ? s->target[i] : NULL;
}

/* The worst result of the set (the matrix's exit code). */
enum gpuenv_check_result check_set_result(const struct check_set *s);

/* s as the output shows it: check_redact_text() under GPUENV_RENDER_REDACT, else s itself.
 * *tofree gets what the caller frees; on OOM sb->err is set and "" returned. */
const char *out_check_value(struct strbuf *sb, const struct gpuenv_check *c, unsigned flags,
			    const char *s, char **tofree);

int out_check_text(const struct check_set *s, unsigned flags, struct strbuf *sb);
int out_check_markdown(const struct check_set *s, unsigned flags, struct strbuf *sb);
int out_check_json(const struct check_set *s, unsigned flags, struct strbuf *sb);
/* out-check-json.c: a cell's LTO-IR judgement (check_cell.lto[]) as the `lto` array of its
 * coverage object (docs/schema/check.json), for --json and SARIF alike; NULL on OOM. */
struct check_cell;
struct json_t;
struct json_t *out_check_lto_json(const struct check_cell *cell);
int out_check_junit(const struct check_set *s, unsigned flags, struct strbuf *sb);
int out_check_sarif(const struct check_set *s, unsigned flags, struct strbuf *sb);
int out_check_github(const struct check_set *s, unsigned flags, struct strbuf *sb);
