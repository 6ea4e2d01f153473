// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPU libraries of an image (issue 15, "Predict": the GPU code "of every GPU library in
 * the image against the target GPUs"), as src/libgpuenv-check-image-libs.c found them with no
 * policy naming them, judged on the snapshot's NVIDIA GPUs with its driver as a named binary
 * is (check_judge_binary_on(): the code, the CUDA runtime it links or bundles, the driver's
 * GPU generations): a cell of the coverage matrix each, and one clause,
 * "image.gpu_libraries", that sums them up: "N GPU libraries judged on …: M fail (…)". A
 * library that could not be read, and shared objects past the cap, are "could not tell",
 * which fails; PTX JIT passes unless the policy names architecture targets without
 * `allow_ptx`. Libraries with only AMDGPU code are counted, not judged on NVIDIA GPUs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "formats/policy.h"
#include "rules/rules-internal.h"
#include "shared/macro.h"
#include "shared/strbuf.h"

#define MAX_GPUS	64u
#define LISTED_FAILURES 20u /* named in the clause; every one is a cell */
#define CLAUSE_ID	"image.gpu_libraries"

struct gpu {
	unsigned major, minor;
	char label[200];
};

struct tally {
	size_t judged, fail, jit, unreadable, amd_only;
	struct strbuf failing; /* "path: verdict on GPU", the first LISTED_FAILURES */
};

static size_t target_gpus(const struct snap_node *root, struct gpu *g, size_t max)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	size_t n = 0;

	for (size_t k = 0; k < snap_count(gpus) && n < max; k++) {
		const struct snap_node *node = snap_at(gpus, k), *ccf;
		char name[160];

		if (!gpu_is_nvidia(node) || !gpu_cc(root, node, &g[n].major, &g[n].minor, &ccf))
			continue;
		gpu_name(node, name, sizeof(name));
		snprintf(g[n].label, sizeof(g[n].label), "%s (%u.%u)", name, g[n].major,
			 g[n].minor);
		n++;
	}
	return n;
}

/* One library on the weakest of the GPUs: its cell, and its count. */
static int judge_one(struct gpuenv_check *c, const struct snap_node *root,
		     const struct check_binary *b, const struct gpu *g, size_t n_gpus,
		     const char *module, const char *driver, struct tally *t)
{
	struct coverage_result worst = { 0 };
	const struct gpu *on = NULL;
	char subject[600];
	bool ptx_fails = c->policy->n_arch_targets > 0 && !c->policy->arch_allow_ptx;
	int r;

	snprintf(subject, sizeof(subject), "library %s", b->path);
	if (b->error) {
		t->unreadable++;
		if (t->fail + t->unreadable <= LISTED_FAILURES)
			strbuf_printf(&t->failing, "%s%s: could not tell: %s",
				      t->failing.len ? "; " : "", b->path, b->error);
		return check_add_cell(c, subject, NULL, NULL, NULL, b->error);
	}
	if (b->n == 0) {
		t->amd_only++; /* AMDGPU code only: nothing for an NVIDIA GPU to load */
		return 0;
	}
	for (size_t k = 0; k < n_gpus; k++) {
		struct coverage_result res;

		check_judge_binary_on(b, g[k].major, g[k].minor, module, driver, &res);
		if (on && res.verdict <= worst.verdict)
			continue;
		worst = res;
		on = &g[k];
	}
	t->judged++;
	if (coverage_verdict_is_failure(worst.verdict) ||
	    (worst.verdict == COVERAGE_PTX_JIT && ptx_fails)) {
		if (++t->fail + t->unreadable <= LISTED_FAILURES)
			strbuf_printf(&t->failing, "%s%s: %s%s%s", t->failing.len ? "; " : "",
				      b->path, coverage_verdict_name(worst.verdict),
				      worst.lto_only ? " (LTO-IR only)" : "",
				      n_gpus > 1 ? " on " : "");
		if (n_gpus > 1 && t->fail + t->unreadable <= LISTED_FAILURES)
			strbuf_printf(&t->failing, "%s", on->label);
	} else if (worst.verdict == COVERAGE_PTX_JIT) {
		t->jit++;
	}
	check_lto_note(root, b, worst.reason, sizeof(worst.reason));
	r = check_add_cell(c, subject, on->label, &worst, NULL, NULL);
	/* lto[].library: the library's path inside the image, as a framework's entries name
	 * the library that holds them */
	return r < 0 ? r : check_cell_lto(&c->cells[c->n_cells - 1], root, b->t, b->n, b->path);
}

int check_image_libraries(struct gpuenv_check *c, const struct snap_node *root, const char *module,
			  const char *driver)
{
	const struct check_binaries *bs = c->policy->image_libraries;
	struct gpu g[MAX_GPUS];
	struct tally t = { 0 };
	struct strbuf msg = { 0 };
	size_t n_gpus, with_code;
	bool fails;
	int r = 0;

	if (!bs)
		return 0;
	n_gpus = target_gpus(root, g, MAX_GPUS);
	with_code = bs->n;
	if (n_gpus == 0) {
		/* the image alone: nothing to judge its code on */
		if (with_code == 0)
			return 0;
		strbuf_printf(&msg,
			      "%zu of the image's %zu shared objects hold GPU code or could not "
			      "be read: not judged, no NVIDIA GPU whose compute capability is "
			      "known (--target gpu=H100,driver=550.54.15 names one)",
			      with_code, bs->n_candidates);
		r = msg.err ?: check_add_clause_text(c, CLAUSE_ID, 0, CHECK_SKIP, strbuf_str(&msg));
		strbuf_done(&msg);
		return r;
	}
	for (size_t i = 0; r >= 0 && i < bs->n; i++)
		r = judge_one(c, root, &bs->b[i], g, n_gpus, module, driver, &t);
	fails = t.fail || t.unreadable || bs->n_over_cap || bs->unread;
	strbuf_printf(&msg, "%zu GPU libraries judged on %s%s%s%s: %zu fail", t.judged, g[0].label,
		      n_gpus > 1 ? " and the other GPUs" : "", driver ? " with driver " : "",
		      driver ?: "", t.fail);
	if (t.failing.len)
		strbuf_printf(&msg, " (%s%s)", strbuf_str(&t.failing),
			      t.fail + t.unreadable > LISTED_FAILURES ? "; the rest in the coverage"
								      : "");
	if (t.jit)
		strbuf_printf(&msg, "; %zu run by PTX JIT only", t.jit);
	if (t.unreadable)
		strbuf_printf(&msg, "; %zu could not be read (could not tell)", t.unreadable);
	if (t.amd_only)
		strbuf_printf(&msg, "; %zu with AMDGPU code only, not judged", t.amd_only);
	strbuf_printf(&msg,
		      "; of the image's %zu shared objects: %zu without GPU code in their fat "
		      "binaries",
		      bs->n_candidates, bs->n_without_code);
	if (bs->n_without_code)
		strbuf_printf(&msg,
			      " (code kept in other sections is not read: `gpuenv scan --deep` "
			      "reads every section)");
	if (bs->n_not_elf)
		strbuf_printf(&msg, ", %zu not ELF", bs->n_not_elf);
	if (bs->n_over_cap)
		strbuf_printf(&msg, ", %zu past the cap of %u, not read (could not tell)",
			      bs->n_over_cap, CHECK_IMAGE_LIBS_MAX);
	if (bs->unread)
		strbuf_printf(&msg, "; not read in full, more may exist (could not tell): %s",
			      bs->unread);
	if (r >= 0)
		r = msg.err ?: t.failing.err
				  ?: check_add_clause_text(c, CLAUSE_ID, 0,
							   fails ? CHECK_FAIL : CHECK_PASS,
							   strbuf_str(&msg));
	strbuf_done(&t.failing);
	strbuf_done(&msg);
	return r;
}
