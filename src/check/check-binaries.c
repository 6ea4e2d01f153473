// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The named binaries of a policy's `architectures.binaries` (docs/policy.md): "the
 * framework's and any named binary's GPU code must run natively (or via PTX, if allowed) on
 * the listed targets". What src/libgpuenv-check-binaries.c read of them (their CUDA targets,
 * the CUDA runtime they link or bundle) is judged here with coverage_judge() as the
 * frameworks' code is: per binary and per architecture target (the clause), and per binary on
 * the judged snapshot's GPUs with its driver (the coverage matrix). A pattern no file
 * matched, a file that could not be read or parsed, and one with no CUDA code found are
 * "could not tell", which fails: a gate never passes on a file it did not see.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "formats/policy.h"
#include "rules/rules-internal.h"
#include "shared/macro.h"

void check_binaries_free(struct check_binaries *bs)
{
	if (!bs)
		return;
	for (size_t i = 0; i < bs->n; i++) {
		struct check_binary *b = &bs->b[i];

		for (size_t k = 0; k < b->n; k++)
			free((char *)b->t[k].target);
		free(b->t);
		free(b->path);
		free(b->error);
	}
	free(bs->b);
	for (size_t i = 0; bs->unmatched && i < bs->n_patterns; i++)
		free(bs->unmatched[i]);
	free(bs->unmatched);
	free(bs->tree);
	free(bs->unread);
	free(bs);
}

/* Why b has nothing to judge (into buf), or NULL when it has CUDA targets. */
static const char *nothing_to_judge(const struct check_binary *b, char *buf, size_t len)
{
	if (b->error)
		snprintf(buf, len, "could not tell: %s", b->error);
	else if (b->n == 0 && b->n_amdgcn)
		snprintf(buf, len,
			 "could not tell: only AMDGPU code, which these targets do not "
			 "judge");
	else if (b->n == 0)
		snprintf(buf, len,
			 "could not tell: no CUDA code found in its fat binaries (`gpuenv scan "
			 "--deep` searches every section)");
	else
		return NULL;
	return buf;
}

/* Room kept at the end of the clause text for the note on what did not fit. */
#define OMITTED_NOTE 128u

/* One binary's verdict on the target: the text after "PATH: " into buf; true when it runs. */
static bool binary_verdict(const struct gpuenv_policy *p, const struct snap_node *root,
			   const struct check_binary *b, unsigned major, unsigned minor, char *buf,
			   size_t len)
{
	struct coverage_result res;
	char why[256];
	const char *none = nothing_to_judge(b, why, sizeof(why));
	bool ok;

	if (!none && coverage_judge(b->t, b->n, major, minor, NULL, &res) < 0)
		none = "could not tell: its targets could not be judged";
	if (none) {
		snprintf(buf, len, "%s", none);
		return false;
	}
	/* the code alone, no driver, as for the frameworks */
	ok = res.verdict == COVERAGE_NATIVE ||
	     (res.verdict == COVERAGE_PTX_JIT && p->arch_allow_ptx);
	snprintf(buf, len, "%s%s%s%s", coverage_verdict_name(res.verdict),
		 res.verdict == COVERAGE_PTX_JIT && !ok ? " (PTX not allowed)" : "",
		 res.lto_only ? " (LTO-IR only: link-time IR, not loadable)" : "",
		 res.unconfirmed ? " (unconfirmed)" : "");
	check_lto_note(root, b, buf, len);
	return ok;
}

/* The binaries that do not run first, then those that do, as far as the text holds them; the
 * clause's verdict counts every one, and a note says how many were left out of the text
 * (each binary's verdict on the judged GPUs is also a coverage row). */
void check_binaries_on_target(const struct gpuenv_check *c, unsigned major, unsigned minor,
			      char *text, size_t len, bool *fail)
{
	const struct gpuenv_policy *p = c->policy;
	const struct check_binaries *bs = p->binaries_read;
	size_t omitted = 0, omitted_failing = 0;
	/* the tree's nvJitLink, for LTO-IR; none known without a diagnosis */
	const struct snap_node *root =
		c->doctor && c->doctor->snap ? snapshot_root_const(c->doctor->snap) : NULL;

	if (p->n_arch_binaries == 0)
		return;
	if (!bs) {
		*fail = true;
		check_text_append(
			text, len,
			"%snamed binaries: could not tell: not read (a --from snapshot holds no "
			"files)",
			text[0] ? "; " : "");
		return;
	}
	for (size_t i = 0; i < bs->n_patterns; i++)
		if (bs->unmatched[i]) {
			*fail = true;
			check_text_append(text, len, "%s%s: could not tell: %s",
					  text[0] ? "; " : "", p->arch_binaries[i].pattern,
					  bs->unmatched[i]);
		}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < bs->n; i++) {
			const struct check_binary *b = &bs->b[i];
			char verdict[1536];
			bool ok =
				binary_verdict(p, root, b, major, minor, verdict, sizeof(verdict));
			size_t used = strlen(text);

			*fail |= !ok;
			if (ok != (pass == 1))
				continue;
			if (len < OMITTED_NOTE ||
			    used + strlen(b->path) + strlen(verdict) + 4 > len - OMITTED_NOTE) {
				omitted++;
				omitted_failing += !ok;
				continue;
			}
			check_text_append(text, len, "%s%s: %s", used ? "; " : "", b->path,
					  verdict);
		}
	if (omitted)
		check_text_append(
			text, len,
			"%s%zu more binaries not listed here (%zu of them do not run; each one's "
			"verdict is in the coverage)",
			text[0] ? "; " : "", omitted, omitted_failing);
}

/* b on one GPU: its code, then the driver (the CUDA runtime it links or bundles, a GPU the
 * module does not drive), as judge_build_on() judges a framework build. */
void check_judge_binary_on(const struct check_binary *b, unsigned ma, unsigned mi,
			   const char *module, const char *driver, struct coverage_result *res)
{
	if (coverage_judge(b->t, b->n, ma, mi, driver, res) < 0)
		*res = (struct coverage_result){ .verdict = COVERAGE_NO_GPU_CODE,
						 .entry = SIZE_MAX };
	coverage_judge_driver(b->cudart[0] ? b->cudart : NULL, ma, mi, driver, res);
	if (module != driver)
		coverage_judge_driver(NULL, ma, mi, module, res);
}

int check_binaries_cells(struct gpuenv_check *c, const struct snap_node *root, const char *module,
			 const char *driver)
{
	const struct gpuenv_policy *p = c->policy;
	const struct check_binaries *bs = p->binaries_read;
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	char subject[600];
	int r;

	if (p->n_arch_binaries == 0)
		return 0;
	if (!bs)
		return check_add_cell(c, "named binaries", NULL, NULL, NULL,
				      "not read: a --from snapshot holds no files");
	for (size_t i = 0; i < bs->n_patterns; i++) {
		if (!bs->unmatched[i])
			continue;
		snprintf(subject, sizeof(subject), "binary %s", p->arch_binaries[i].pattern);
		r = check_add_cell(c, subject, NULL, NULL, NULL, bs->unmatched[i]);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < bs->n; i++) {
		const struct check_binary *b = &bs->b[i];
		struct coverage_result worst = { 0 };
		char why[256], gpu[200] = "", name[160];
		const char *none = nothing_to_judge(b, why, sizeof(why));
		bool any = false;

		snprintf(subject, sizeof(subject), "binary %s", b->path);
		for (size_t k = 0; !none && k < snap_count(gpus); k++) {
			const struct snap_node *g = snap_at(gpus, k), *ccf;
			struct coverage_result res;
			unsigned ma, mi;

			if (!gpu_is_nvidia(g) || !gpu_cc(root, g, &ma, &mi, &ccf))
				continue;
			check_judge_binary_on(b, ma, mi, module, driver, &res);
			if (any && res.verdict <= worst.verdict)
				continue;
			any = true;
			worst = res;
			gpu_name(g, name, sizeof(name));
			snprintf(gpu, sizeof(gpu), "%s (%u.%u)", name, ma, mi);
		}
		if (any) {
			check_lto_note(root, b, worst.reason, sizeof(worst.reason));
			r = check_add_cell(c, subject, gpu, &worst, NULL, NULL);
		} else
			r = check_add_cell(
				c, subject, NULL, NULL, NULL,
				none ?: "no NVIDIA GPU whose compute capability is known");
		/* its LTO-IR judged whatever the GPUs: that needs only the nvJitLink */
		if (r == 0 && !none)
			r = check_cell_lto(&c->cells[c->n_cells - 1], root, b->t, b->n, NULL);
		if (r == 0 && !none && !any)
			r = check_cell_lto_reason(&c->cells[c->n_cells - 1]);
		if (r < 0)
			return r;
	}
	return 0;
}
