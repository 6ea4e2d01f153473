// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * gpuenv_policy_read_binaries() (include/gpuenv/gpuenv.h): the binaries a policy's
 * `architectures.binaries` names (docs/policy.md), read in the ctx's root (the machine,
 * --sysroot, the virtual tree of --image and --wheel) through src/core/root.h with the
 * scanner of `gpuenv scan` (src/scan: fat binaries, cubins, PTX, the CUDA runtime a file
 * links or bundles). Pattern components are matched with fnmatch(3) against
 * root_list_dir(), a level at a time, matches capped. What was found is kept with the policy
 * as plain data (struct check_binaries, src/check/check.h), which check_run() judges.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "core/ctx.h"
#include "core/root.h"
#include "formats/policy.h"
#include "gpuenv/gpuenv.h"
#include "scan/scan.h"
#include "shared/macro.h"
#include "shared/strv.h"

#define MAX_MATCHES	   256u	   /* files one pattern may name */
#define MAX_DIR_ENTRIES	   100000u /* entries of one directory a pattern lists */
#define MAX_PATTERN_LEVELS 64u

struct expand {
	struct gpuenv_scan *s;
	struct check_binaries *bs;
	size_t pattern;
	size_t matches;
	char why[256]; /* the first reason a candidate was not read */
	int err;
};

static bool has_glob(const char *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c[i] == '*' || c[i] == '?' || c[i] == '[')
			return true;
	return false;
}

int check_binary_add(struct check_binaries *bs, size_t pattern, const struct scan_file *f)
{
	struct check_binary *b = reallocarray(bs->b, bs->n + 1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	bs->b = b;
	b = &bs->b[bs->n++];
	*b = (struct check_binary){ .pattern = pattern, .path = strdup(f->path) };
	if (!b->path)
		return -ENOMEM;
	if (f->state != SCAN_OK) {
		b->error = strdup(f->error ?: "not read");
		return b->error ? 0 : -ENOMEM;
	}
	b->truncated = f->targets.truncated;
	b->t = calloc(f->targets.n ? f->targets.n : 1, sizeof(*b->t));
	if (!b->t)
		return -ENOMEM;
	for (size_t k = 0; k < f->targets.n; k++) {
		const struct fatbin_target *t = &f->targets.t[k];

		if (t->kind == FATBIN_TARGET_AMDGCN) {
			b->n_amdgcn++;
			continue;
		}
		/* an LTO-IR target keeps its LTO-IR version there (coverage_target) */
		b->t[b->n] = (struct coverage_target){
			.target = strdup(t->name),
			.ptx_major = t->kind == FATBIN_TARGET_LTO ? t->lto_major : t->ptx_major,
			.ptx_minor = t->kind == FATBIN_TARGET_LTO ? t->lto_minor : t->ptx_minor
		};
		if (!b->t[b->n].target)
			return -ENOMEM;
		b->n++;
	}
	if (f->has_cudart && f->cudart[0])
		snprintf(b->cudart, sizeof(b->cudart), "%s", f->cudart);
	return 0;
}

/* A path the pattern names: scanned (a file the scanner read, or why not). */
static void matched(struct expand *e, const char *path)
{
	struct root *r = e->s->ctx->root;
	size_t before = e->s->n_files;
	struct stat st;
	int rv;

	if (root_stat(r, path, &st) < 0)
		return; /* a dangling name matches nothing */
	if (++e->matches > MAX_MATCHES) {
		snprintf(e->why, sizeof(e->why), "more than %u files match it", MAX_MATCHES);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(e->why, sizeof(e->why),
			 "%s is a directory: name its files (a pattern: %s/*.so)", path, path);
		return;
	}
	rv = scan_path(e->s, path);
	if (rv == -ENOMEM) {
		e->err = rv;
		return;
	}
	for (size_t i = before; i < e->s->n_files && e->err >= 0; i++)
		e->err = check_binary_add(e->bs, e->pattern, &e->s->files[i]);
}

static void expand(struct expand *e, const char *dir, const char *rest, unsigned level);

/* dir/name (name's first n bytes), then what follows it in the pattern (next; NULL: the
 * pattern ends with name). */
static void descend(struct expand *e, const char *dir, const char *name, size_t n, const char *next,
		    unsigned level)
{
	char *path;

	if (asprintf(&path, "%s/%.*s", dir, (int)n, name) < 0) {
		e->err = -ENOMEM;
		return;
	}
	if (next)
		expand(e, path, next, level + 1);
	else
		matched(e, path);
	free(path);
}

/* dir (a path in the root, "" for "/") joined with the components in rest. */
static void expand(struct expand *e, const char *dir, const char *rest, unsigned level)
{
	struct root *r = e->s->ctx->root;
	size_t n = strcspn(rest, "/");
	const char *next = rest[n] ? rest + n + 1 : NULL;
	_cleanup_strv_free_ char **names = NULL;
	char comp[NAME_MAX + 1];
	int rv;

	if (e->err < 0 || e->matches > MAX_MATCHES || level > MAX_PATTERN_LEVELS)
		return;
	if (!has_glob(rest, n)) {
		descend(e, dir, rest, n, next, level);
		return;
	}
	rv = root_list_dir(r, dir[0] ? dir : "/", MAX_DIR_ENTRIES, &names);
	if (rv < 0) {
		if (rv == -ENOMEM)
			e->err = rv;
		else if (rv != -ENOENT && rv != -ENOTDIR && !e->why[0])
			snprintf(e->why, sizeof(e->why), "%s could not be listed: %s",
				 dir[0] ? dir : "/", strerror(-rv));
		return;
	}
	snprintf(comp, sizeof(comp), "%.*s", (int)MIN(n, (size_t)NAME_MAX), rest);
	for (size_t i = 0; names && names[i] && e->err >= 0; i++)
		if (fnmatch(comp, names[i], FNM_PERIOD) == 0)
			descend(e, dir, names[i], strlen(names[i]), next, level);
}

GPUENV_API int gpuenv_policy_read_binaries(struct gpuenv_policy *p, struct gpuenv_ctx *ctx)
{
	struct check_binaries *bs;
	struct gpuenv_scan *s = NULL;
	int r;

	if (!p || !ctx)
		return -EINVAL;
	r = check_read_image_libraries(p, ctx);
	if (r < 0 || p->n_arch_binaries == 0)
		return r;
	bs = calloc(1, sizeof(*bs));
	if (!bs)
		return -ENOMEM;
	bs->n_patterns = p->n_arch_binaries;
	bs->unmatched = calloc(bs->n_patterns, sizeof(*bs->unmatched));
	r = bs->unmatched ? gpuenv_scan_new(ctx, NULL, &s) : -ENOMEM;
	for (size_t i = 0; r >= 0 && i < p->n_arch_binaries; i++) {
		struct expand e = { .s = s, .bs = bs, .pattern = i };
		size_t before = bs->n;

		expand(&e, "", p->arch_binaries[i].pattern + 1, 0);
		r = e.err;
		/* a file an earlier pattern named is judged once, under that one */
		if (r >= 0 &&
		    (e.matches == 0 || e.matches > MAX_MATCHES || (bs->n == before && e.why[0])) &&
		    asprintf(&bs->unmatched[i], "%s",
			     e.why[0] ? e.why
				      : (root_is_live(ctx->root) ? "no file matches it"
								 : "no file of the tree judged "
								   "matches it")) < 0) {
			bs->unmatched[i] = NULL;
			r = -ENOMEM;
		}
	}
	gpuenv_scan_free(s);
	if (r < 0) {
		check_binaries_free(bs);
		return r;
	}
	if (p->binaries_free)
		p->binaries_free(p->binaries_read);
	p->binaries_read = bs;
	p->binaries_free = check_binaries_free;
	return 0;
}
