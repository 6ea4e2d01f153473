// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The coverage matrix of `gpuenv check` (docs/policy.md, "The matrix"): for each framework
 * build of the snapshot, will its GPU code run on the snapshot's NVIDIA GPUs with its driver?
 * One cell per build: coverage_judge() (src/facts/coverage.h, docs/compatibility.md (a), (b),
 * LTO-IR) over the kernel library's targets and over each GPU library the framework's process
 * loads (gpu_libraries[], as framework.no-kernel-image judges them), then
 * coverage_judge_driver() for the CUDA the build was made for; the weakest library and the
 * weakest GPU decide. With --host/--target the snapshot is the image on the target, so a row
 * of cells across targets is the matrix a platform team reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rules/rules-internal.h"
#include "shared/macro.h"
#include "shared/parse.h"

#define MAX_TARGETS 128

struct cov_walk {
	struct gpuenv_check *c;
	const struct snap_node *root;
	const char *module; /* the loaded module; NULL: none or its version unknown */
	const char *driver; /* the libcuda programs meet: the module's, or a cuda-compat one's */
	int err;
};

size_t check_read_targets(const struct snap_node *tn, bool from_build_info,
			  struct coverage_target *t, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < snap_count(tn) && n < max; i++) {
		const struct snap_node *e = snap_at(tn, i);
		const char *s = from_build_info ? snap_str(e) : snap_get_str(e, "target");
		const char *isa = from_build_info ? NULL : snap_get_str(e, "ptx_isa");
		unsigned ma, mi;

		if (!s)
			continue;
		t[n] = (struct coverage_target){ .target = s, .ptx_major = -1, .ptx_minor = -1 };
		/* an LTO-IR target keeps its LTO-IR version there (coverage_target) */
		if (!from_build_info && strncmp(s, "lto_", 4) == 0)
			isa = snap_get_str(e, "ltoir_version");
		if (isa && cuda_major_minor(isa, &ma, &mi)) {
			t[n].ptx_major = (int)ma;
			t[n].ptx_minor = (int)mi;
		}
		n++;
	}
	return n;
}

struct verdict {
	struct coverage_result res;
	char who[256]; /* the library that decided, "" for the kernel library */
};

/* The build's weakest code on one GPU: kernel library, then each GPU library. */
static void judge_build_on(const struct fw_build *b, const struct coverage_target *t, size_t n,
			   unsigned ma, unsigned mi, const struct cov_walk *w, struct verdict *ret)
{
	const struct snap_node *libs = snap_child(b->pkg, "gpu_libraries");
	char cuda[32];

	const char *driver = w->driver;
	bool have_cuda;

	*ret = (struct verdict){ 0 };
	if (coverage_judge(t, n, ma, mi, driver, &ret->res) < 0)
		ret->res.verdict = COVERAGE_NO_GPU_CODE;
	for (size_t i = 0; i < snap_count(libs); i++) {
		const struct snap_node *e = snap_at(libs, i);
		struct coverage_target lt[MAX_TARGETS];
		struct coverage_result r;
		size_t ln =
			check_read_targets(snap_child(e, "arch_targets"), false, lt, MAX_TARGETS);

		if (ln == 0 || coverage_judge(lt, ln, ma, mi, driver, &r) < 0 ||
		    r.verdict == COVERAGE_NO_GPU_CODE || r.verdict <= ret->res.verdict)
			continue;
		ret->res = r;
		snprintf(ret->who, sizeof(ret->who), "%s",
			 snap_get_str(e, "name") ?: snap_get_str(e, "path") ?: "?");
	}
	/* the driver decides first: the CUDA the build needs (met by the libcuda programs load),
	 * a GPU the kernel module does not drive (which no cuda-compat libcuda changes) */
	have_cuda = fw_cuda_version(b, cuda, sizeof(cuda), NULL);
	if (coverage_judge_driver(have_cuda ? cuda : NULL, ma, mi, driver, &ret->res) == 0 &&
	    (ret->res.verdict == COVERAGE_DRIVER_TOO_OLD ||
	     ret->res.verdict == COVERAGE_DRIVER_GPU_UNSUPPORTED))
		ret->who[0] = '\0';
	if (w->module != driver && coverage_judge_driver(NULL, ma, mi, w->module, &ret->res) == 0 &&
	    ret->res.verdict == COVERAGE_DRIVER_GPU_UNSUPPORTED)
		ret->who[0] = '\0';
}

static int add_cell(struct gpuenv_check *c, const char *subject, const char *gpu,
		    const struct verdict *v, const char *why)
{
	return check_add_cell(c, subject, gpu, v ? &v->res : NULL, v ? v->who : NULL, why);
}

int check_add_cell(struct gpuenv_check *c, const char *subject, const char *gpu,
		   const struct coverage_result *res, const char *who, const char *why)
{
	struct check_cell *cells = reallocarray(c->cells, c->n_cells + 1, sizeof(*cells));
	struct check_cell *cell;
	int n;

	if (!cells)
		return -ENOMEM;
	c->cells = cells;
	cell = &cells[c->n_cells];
	*cell = (struct check_cell){ .subject = strdup(subject), .gpu = gpu ? strdup(gpu) : NULL };
	if (res) {
		cell->verdict = res->verdict;
		cell->lto_only = res->lto_only;
		cell->unconfirmed = res->unconfirmed;
		n = who && who[0] ? asprintf(&cell->reason, "%s: %s", who, res->reason)
				  : asprintf(&cell->reason, "%s", res->reason);
	} else {
		cell->verdict = COVERAGE_NO_GPU_CODE;
		n = asprintf(&cell->reason, "%s", why);
	}
	c->n_cells++; /* freed by check_free() even when incomplete */
	if (n < 0) {
		cell->reason = NULL;
		return -ENOMEM;
	}
	return cell->subject && (!gpu || cell->gpu) ? 0 : -ENOMEM;
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* The LTO-IR of the build's kernel library (t[0..n)) and of each GPU library its process
 * loads (cuFFT and cuSPARSE wheels carry some), judged against the nvJitLink found, into
 * the cell and its reason; the libraries gpu_libraries_truncated left unread are said so. */
static int build_lto(const struct fw_build *b, const struct coverage_target *t, size_t n,
		     const struct snap_node *root, struct check_cell *cell)
{
	const struct snap_node *libs = snap_child(b->pkg, "gpu_libraries");
	int r = check_cell_lto(cell, root, t, n,
			       base_name(snap_get_str(b->pkg, "kernel_library.path")) ?: "?");
	char *why;

	for (size_t i = 0; r == 0 && i < snap_count(libs); i++) {
		const struct snap_node *e = snap_at(libs, i);
		struct coverage_target lt[MAX_TARGETS];
		size_t ln =
			check_read_targets(snap_child(e, "arch_targets"), false, lt, MAX_TARGETS);

		r = check_cell_lto(cell, root, lt, ln,
				   snap_get_str(e, "name") ?: base_name(snap_get_str(e, "path"))
								   ?: "?");
	}
	if (r == 0)
		r = check_cell_lto_reason(cell);
	if (r < 0 || !snap_get_bool_default(b->pkg, "gpu_libraries_truncated", false))
		return r;
	if (asprintf(&why,
		     "%s; the LTO-IR of its GPU libraries past the 64th was not judged (not read: "
		     "gpu_libraries_truncated)",
		     cell->reason ?: "") < 0)
		return -ENOMEM;
	free(cell->reason);
	cell->reason = why;
	return 0;
}

static void cell_of_build(const struct fw_build *b, void *u)
{
	struct cov_walk *w = u;
	const struct snap_node *gpus = snap_get(w->root, "hardware.gpus"), *tn;
	struct coverage_target t[MAX_TARGETS];
	struct verdict worst = { 0 };
	char subject[512], gpu[200] = "", name[160];
	const struct snap_node *ccf;
	bool from_bi, any = false, cpu_only = false;
	size_t n;

	/* CPU-only builds have no GPU code to judge; ROCm builds' gfx targets are not
	 * coverage_judge()'s (framework.rocm-gfx-unsupported judges them) */
	if (w->err < 0 || (snap_bool(fw_cpu_only(b), &cpu_only) && cpu_only) || fw_hip_version(b))
		return;
	snprintf(subject, sizeof(subject), "%s in %s", b->label, b->prefix ?: "?");
	tn = fw_targets(b, &from_bi);
	n = check_read_targets(tn, from_bi, t, MAX_TARGETS);
	if (n == 0) {
		w->err = add_cell(w->c, subject, NULL, NULL,
				  "its GPU code was not read (no arch_targets)");
		return;
	}
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		struct verdict v;
		unsigned ma, mi;

		if (!gpu_is_nvidia(g) || !gpu_cc(w->root, g, &ma, &mi, &ccf))
			continue;
		judge_build_on(b, t, n, ma, mi, w, &v);
		if (any && v.res.verdict <= worst.res.verdict)
			continue;
		any = true;
		worst = v;
		gpu_name(g, name, sizeof(name));
		snprintf(gpu, sizeof(gpu), "%s (%u.%u)", name, ma, mi);
	}
	w->err = any ? add_cell(w->c, subject, gpu, &worst, NULL)
		     : add_cell(w->c, subject, NULL, NULL,
				"no NVIDIA GPU whose compute capability is known");
	if (w->err == 0)
		w->err = build_lto(b, t, n, w->root, &w->c->cells[w->c->n_cells - 1]);
}

int check_coverage(struct gpuenv_check *c, const struct snap_node *root)
{
	struct cov_walk w = { .c = c, .root = root };
	const struct snap_node *fact;
	const char *ver = NULL;

	if (nvidia_driver(root, &ver, &fact) == DRIVER_LOADED && ver) {
		struct version v;

		if (version_parse(ver, &v) == 0) {
			w.module = ver;
			w.driver = cuda_driver_effective(root, ver);
		}
	}
	fw_foreach(root, cell_of_build, &w);
	if (w.err >= 0)
		w.err = check_binaries_cells(c, root, w.module, w.driver);
	return w.err < 0 ? w.err : check_image_libraries(c, root, w.module, w.driver);
}

const char *check_cell_label(const struct check_cell *cell)
{
	if (cell->verdict == COVERAGE_NO_GPU_CODE)
		return cell->gpu ? "no GPU code" : "could not tell";
	if (cell->lto_only)
		return "no-kernel-image (LTO-IR only)";
	return coverage_verdict_name(cell->verdict);
}
