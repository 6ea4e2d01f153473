// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The targets of a binary (fatbin-targets.h): what scan and the framework probe list.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin-targets.h"
#include "shared/macro.h"
#include "shared/parse.h"

const char *fatbin_target_kind_name(enum fatbin_target_kind k)
{
	static const char *const names[] = {
		[FATBIN_TARGET_SASS] = "sass",	   [FATBIN_TARGET_PTX] = "ptx",
		[FATBIN_TARGET_LTO] = "lto",	   [FATBIN_TARGET_OTHER] = "unknown",
		[FATBIN_TARGET_AMDGCN] = "amdgcn",
	};

	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "unknown";
}

/* "gfx90a" → 9.0.a, "gfx1100" → 11.0.0 as one number: LLVM's AMDGPU processor names are the
 * major version in decimal, then minor and stepping as one hex digit each (AMDGPUUsage). */
static unsigned gfx_order(const char *gfx)
{
	size_t n = strlen(gfx);
	unsigned major = 0;
	int minor, step;

	if (n < 6 || !startswith(gfx, "gfx"))
		return UINT_MAX;
	for (size_t i = 3; i < n - 2; i++) {
		if (gfx[i] < '0' || gfx[i] > '9' || major > 1000)
			return UINT_MAX;
		major = major * 10 + (unsigned)(gfx[i] - '0');
	}
	minor = parse_hex_digit(gfx[n - 2]);
	step = parse_hex_digit(gfx[n - 1]);
	if (minor < 0 || step < 0)
		return UINT_MAX;
	return major << 8 | (unsigned)minor << 4 | (unsigned)step;
}

/* The same target already there (counted), else t appended. */
static int add(struct fatbin_targets *ts, const struct fatbin_target *t, size_t *ret_index)
{
	for (size_t i = 0; i < ts->n; i++) {
		struct fatbin_target *x = &ts->t[i];

		if (x->kind == t->kind && x->ptx_major == t->ptx_major &&
		    x->ptx_minor == t->ptx_minor && x->lto_major == t->lto_major &&
		    x->lto_minor == t->lto_minor && streq(x->name, t->name)) {
			x->count++;
			x->lto_from_payload |= t->lto_from_payload;
			if (ret_index)
				*ret_index = i;
			return 0;
		}
	}
	if (ts->max && ts->n >= ts->max) {
		ts->truncated = true;
		return -E2BIG;
	}
	if (ts->n == ts->cap) {
		size_t cap = ts->cap ? ts->cap * 2 : 16;
		struct fatbin_target *n = reallocarray(ts->t, cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		ts->t = n;
		ts->cap = cap;
	}
	ts->t[ts->n] = *t;
	ts->t[ts->n].count = 1;
	ts->n_amdgcn += t->kind == FATBIN_TARGET_AMDGCN;
	if (ret_index)
		*ret_index = ts->n;
	ts->n++;
	return 0;
}

int fatbin_targets_add_entry(struct fatbin_targets *ts, const struct fatbin_entry *e,
			     size_t *ret_index)
{
	struct fatbin_target t = { .arch = e->arch,
				   .variant = e->variant,
				   .ptx_major = -1,
				   .ptx_minor = -1,
				   .lto_major = -1,
				   .lto_minor = -1 };

	switch (e->kind) {
	case FATBIN_KIND_ELF:
	case FATBIN_KIND_OLDCUBIN:
		t.kind = FATBIN_TARGET_SASS;
		break;
	case FATBIN_KIND_PTX:
		t.kind = FATBIN_TARGET_PTX;
		t.ptx_major = e->ptx_major;
		t.ptx_minor = e->ptx_major >= 0 ? e->ptx_minor : -1;
		break;
	case FATBIN_KIND_LTO:
		t.kind = FATBIN_TARGET_LTO;
		t.lto_major = e->lto_major;
		t.lto_minor = e->lto_major >= 0 ? e->lto_minor : -1;
		t.lto_from_payload = e->lto_from_payload;
		break;
	default:
		t.kind = FATBIN_TARGET_OTHER;
	}
	_Static_assert(sizeof(t.name) >= sizeof(e->target), "a target name fits");
	memcpy(t.name, e->target, sizeof(e->target));
	return add(ts, &t, ret_index);
}

int fatbin_targets_add_bundle(struct fatbin_targets *ts, const struct fatbin_bundle_entry *b)
{
	struct fatbin_target t = { .kind = FATBIN_TARGET_AMDGCN,
				   .ptx_major = -1,
				   .ptx_minor = -1,
				   .lto_major = -1,
				   .lto_minor = -1 };

	if (!b->gfx[0] || !startswith(b->triple, "amdgcn"))
		return 1;
	snprintf(t.name, sizeof(t.name), "%s", b->target);
	snprintf(t.gfx, sizeof(t.gfx), "%s", b->gfx);
	t.arch = gfx_order(b->gfx);
	return add(ts, &t, NULL);
}

int fatbin_targets_add_result(struct fatbin_targets *ts, const struct fatbin_result *r)
{
	for (size_t i = 0; i < r->n_entries; i++) {
		int rv = fatbin_targets_add_entry(ts, &r->entries[i], NULL);

		if (rv < 0)
			return rv;
	}
	for (size_t i = 0; i < r->n_bundle_entries; i++) {
		int rv = fatbin_targets_add_bundle(ts, &r->bundle_entries[i]);

		if (rv < 0)
			return rv;
	}
	return 0;
}

int fatbin_target_cmp(const struct fatbin_target *x, const struct fatbin_target *y)
{
	bool ax = x->kind == FATBIN_TARGET_AMDGCN, ay = y->kind == FATBIN_TARGET_AMDGCN;

	if (ax != ay)
		return ax ? 1 : -1;
	if (x->arch != y->arch)
		return x->arch < y->arch ? -1 : 1;
	if (!ax) {
		if (x->variant != y->variant)
			return x->variant < y->variant ? -1 : 1;
		if (x->kind != y->kind)
			return x->kind < y->kind ? -1 : 1;
		if (x->ptx_major != y->ptx_major)
			return x->ptx_major < y->ptx_major ? -1 : 1;
		if (x->ptx_minor != y->ptx_minor)
			return x->ptx_minor < y->ptx_minor ? -1 : 1;
		if (x->lto_major != y->lto_major)
			return x->lto_major < y->lto_major ? -1 : 1;
		if (x->lto_minor != y->lto_minor)
			return x->lto_minor < y->lto_minor ? -1 : 1;
	}
	return strcmp(x->name, y->name);
}

static int cmp_qsort(const void *a, const void *b)
{
	return fatbin_target_cmp(a, b);
}

void fatbin_targets_sort(struct fatbin_targets *ts)
{
	if (ts->n > 1)
		qsort(ts->t, ts->n, sizeof(ts->t[0]), cmp_qsort);
}

void fatbin_targets_done(struct fatbin_targets *ts)
{
	free(ts->t);
	*ts = (struct fatbin_targets){ .max = ts->max };
}
