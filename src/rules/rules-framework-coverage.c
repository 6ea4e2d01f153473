// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which GPU code of a framework build runs on the GPUs: framework.no-kernel-image,
 * ptx-jit-only, ptx-too-new and gpu-too-old, over the fat-binary targets of each library the
 * framework loads (framework.python_envs[]: arch_targets[] of the kernel library and of
 * gpu_libraries[]; docs/snapshot-schema.md), else TensorFlow's build_info compute
 * capabilities, and the GPUs' compute capabilities (facts/gpu_compute_capability.tsv, else
 * NVML). The verdict is coverage_judge() (src/facts/coverage.h: docs/compatibility.md rules
 * (a) SASS and (b) PTX JIT), the same that `gpuenv scan` prints. Warning texts:
 * torch/cuda/__init__.py (2.x). The framework layer's other rules are rules-framework.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/coverage.h"
#include "rules/rules-internal.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/strbuf.h"

#define MAX_TARGETS 128

enum cov_want { WANT_NO_IMAGE, WANT_JIT, WANT_TOO_NEW, WANT_TOO_OLD };

struct cov_ctx {
	struct rule_ctx *c;
	const struct snap_node *root;
	enum cov_want want;
	const char *driver; /* NULL: none loaded or unreadable */
};

/* Reads the targets into t[]; returns the count, the lowest arch and the list as text. */
static size_t read_targets(const struct snap_node *tn, bool from_build_info,
			   struct coverage_target *t, unsigned *ret_lowest, struct strbuf *list)
{
	size_t n = 0;

	*ret_lowest = UINT32_MAX;
	for (size_t i = 0; i < snap_count(tn) && n < MAX_TARGETS; i++) {
		const struct snap_node *e = snap_at(tn, i);
		const char *s = from_build_info ? snap_str(e) : snap_get_str(e, "target");
		const char *isa = from_build_info ? NULL : snap_get_str(e, "ptx_isa");
		struct coverage_target_info ti;
		unsigned ma, mi;

		if (!s || coverage_target_parse(s, &ti) < 0)
			continue;
		t[n] = (struct coverage_target){ .target = s, .ptx_major = -1, .ptx_minor = -1 };
		if (ti.kind == COVERAGE_KIND_OTHER) {
			/* LTO-IR: judged (never runs: coverage_judge()), not listed as code */
			n++;
			continue;
		}
		if (isa && cuda_major_minor(isa, &ma, &mi)) {
			t[n].ptx_major = (int)ma;
			t[n].ptx_minor = (int)mi;
		}
		if (ti.arch < *ret_lowest)
			*ret_lowest = ti.arch;
		strbuf_printf(list, "%s%s", n ? " " : "", s);
		n++;
	}
	return n;
}

/* Where a target list was read: its first entry's source, which for arch_targets (objects of
 * kind and target) is the target's, else the list's own. */
static const char *targets_source(const struct snap_node *tn)
{
	const struct snap_node *first = snap_at(tn, 0);

	return snap_source(first) ?: snap_source(snap_child(first, "target"))
					  ?: snap_source(tn) ?: "(no source recorded)";
}

/* Whether any SASS target (sm_XY) is of this major version. */
static bool sass_of_major(const struct coverage_target *t, size_t n, unsigned major)
{
	for (size_t i = 0; i < n; i++) {
		struct coverage_target_info ti;

		if (coverage_target_parse(t[i].target, &ti) == 0 && ti.kind == COVERAGE_KIND_SASS &&
		    ti.arch / 10 == major)
			return true;
	}
	return false;
}

/*
 * The weakest of the other GPU libraries the build's process loads (gpu_libraries[]:
 * framework-coverage.c) on one GPU: a kernel launched from any of them fails as the
 * framework's own would, so the verdict of the worst counts. Worse: the verdict's badness
 * (coverage.h orders them), then for PTX JIT the older architecture (the furthest from the
 * GPU). Libraries without GPU code are not judged; one whose targets could not be read is
 * kept in .unreadable, so that no verdict of "runs" rests on it.
 */
struct cov_lib {
	const struct snap_node *entry; /* the gpu_libraries[] entry; NULL: none judged */
	size_t index;
	struct coverage_result res;
	unsigned arch; /* the deciding target's architecture (PTX JIT) */
	struct strbuf list;
	const struct snap_node *unreadable; /* the first arch_targets that could not be read */
	bool truncated;			    /* more libraries than the probe lists */
};

static unsigned deciding_arch(const struct coverage_target *t, const struct coverage_result *r)
{
	struct coverage_target_info ti;

	if (r->entry == SIZE_MAX || coverage_target_parse(t[r->entry].target, &ti) < 0)
		return 0;
	return ti.arch;
}

static bool cov_weaker(enum coverage_verdict v, unsigned arch, enum coverage_verdict than,
		       unsigned than_arch)
{
	return v > than || (v == than && v == COVERAGE_PTX_JIT && arch < than_arch);
}

static void weakest_library(const struct fw_build *b, unsigned ma, unsigned mi, const char *driver,
			    struct cov_lib *w)
{
	const struct snap_node *libs = snap_child(b->pkg, "gpu_libraries");

	strbuf_done(&w->list);
	*w = (struct cov_lib){ .list = STRBUF_INIT };
	if (libs && snap_kind(libs) != SNAP_ARRAY && snap_state(libs) != FACT_ABSENT) {
		w->unreadable = libs;
		return;
	}
	/* The probe lists at most 64: those past it were not read, as if unreadable. */
	w->truncated = snap_get_bool_default(b->pkg, "gpu_libraries_truncated", false);
	for (size_t i = 0; i < snap_count(libs); i++) {
		const struct snap_node *e = snap_at(libs, i), *tn = snap_child(e, "arch_targets");
		struct coverage_target t[MAX_TARGETS];
		struct strbuf list = STRBUF_INIT;
		struct coverage_result res;
		unsigned lowest, arch;
		size_t n;

		if (snap_kind(tn) != SNAP_ARRAY) {
			/* Absent: no GPU code in it, nothing to judge; else unknown. */
			if (!w->unreadable && snap_state(tn) != FACT_ABSENT)
				w->unreadable = tn;
			continue;
		}
		n = read_targets(tn, false, t, &lowest, &list);
		if (n == 0 || coverage_judge(t, n, ma, mi, driver, &res) < 0 ||
		    res.verdict == COVERAGE_NO_GPU_CODE) {
			strbuf_done(&list);
			continue;
		}
		arch = deciding_arch(t, &res);
		if (w->entry && !cov_weaker(res.verdict, arch, w->res.verdict, w->arch)) {
			strbuf_done(&list);
			continue;
		}
		strbuf_done(&w->list);
		w->entry = e;
		w->index = i;
		w->res = res;
		w->arch = arch;
		w->list = list;
	}
}

/* "libcudnn_ops.so.9 (nvidia-cudnn-cu12 wheel)", "libc10_cuda.so (torch's own)". */
static void lib_label(const struct fw_build *b, const struct snap_node *e, char *buf, size_t len)
{
	const char *name = snap_get_str(e, "name") ?: snap_get_str(e, "path") ?: "?";
	const char *wheel = snap_get_str(e, "wheel"), *origin = snap_get_str(e, "origin") ?: "";

	if (wheel)
		snprintf(buf, len, "%s (%s wheel)", name, wheel);
	else if (streq(origin, "extension"))
		snprintf(buf, len, "%s (%s, a %s extension)", name,
			 snap_get_str(e, "package") ?: "?", fw_module(b));
	else if (streq(origin, "bundled"))
		snprintf(buf, len, "%s (bundled with %s)", name, fw_module(b));
	else
		snprintf(buf, len, "%s (%s's own)", name, fw_module(b));
}

/* The finding when a loaded library, not the framework's own kernel library, decides. */
static struct finding *lib_finding(struct cov_ctx *x, const struct fw_build *b,
				   const struct cov_lib *w, const char *name, const char *bus,
				   unsigned ma, unsigned mi, bool own_code)
{
	char lib[256];

	lib_label(b, w->entry, lib, sizeof(lib));
	switch (w->res.verdict) {
	case COVERAGE_NO_KERNEL_IMAGE:
		if (x->want != WANT_NO_IMAGE)
			return NULL;
		return rule_finding(x->c, GPUENV_SEVERITY_ERROR, bus,
				    "%s in %s loads %s, which cannot run on %s at %s (compute "
				    "capability %u.%u), %s: %s",
				    b->label, b->prefix, lib, name, bus, ma, mi,
				    own_code
					    ? "though the framework's own kernels can"
					    : "and its kernel library holds no GPU code of its own",
				    w->res.reason);
	case COVERAGE_PTX_TOO_NEW:
		if (x->want != WANT_TOO_NEW)
			return NULL;
		return rule_finding(x->c, GPUENV_SEVERITY_ERROR, bus,
				    "%s in %s loads %s, whose only code for %s at %s is PTX the "
				    "driver cannot JIT: %s",
				    b->label, b->prefix, lib, name, bus, w->res.reason);
	case COVERAGE_PTX_JIT:
		if (x->want != WANT_JIT)
			return NULL;
		return rule_finding(x->c, GPUENV_SEVERITY_INFO, bus,
				    "%s in %s on %s at %s (compute capability %u.%u): its weakest "
				    "library, %s, %s; each kernel's first launch compiles it",
				    b->label, b->prefix, name, bus, ma, mi, lib, w->res.reason);
	default:
		return NULL;
	}
}

/* Does requirement req ("nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\"") name
 * the distribution dist? Names compare as PEP 503 normalises them ('-', '_', '.' alike). */
static size_t req_names(const char *req, const char *dist)
{
	size_t i = 0;

	for (; dist[i] && req[i]; i++) {
		char a = req[i], d = dist[i];

		if (a == '_' || a == '.')
			a = '-';
		if (d == '_' || d == '.')
			d = '-';
		if ((a | 0x20) != (d | 0x20))
			return 0;
	}
	return !dist[i] && req[i] && strchr("=<>!~ ;[", req[i]) ? strcspn(req, ";") : 0;
}

/* The wheel's fix for a library without code for the GPU: the version the framework's own
 * metadata pins (requires_nvidia[]), in place of a copy from elsewhere, when it pins one; else
 * (and for a library that only JITs) a release with SASS for the GPU. Then scan it again. */
static void lib_fix(struct finding *f, const struct fw_build *b, const struct cov_lib *w,
		    unsigned ma, unsigned mi)
{
	const struct snap_node *req = snap_child(b->pkg, "requires_nvidia");
	const char *wheel = snap_get_str(w->entry, "wheel");
	const char *path = snap_get_str(w->entry, "path");
	const char *ext = streq(snap_get_str(w->entry, "origin") ?: "", "extension")
				  ? snap_get_str(w->entry, "package") ?: "?"
				  : NULL;
	const bool pin = wheel && w->res.verdict == COVERAGE_NO_KERNEL_IMAGE;
	bool done = false;

	/* PTX from a newer toolchain than the driver's JIT: a newer driver runs it as it is */
	if (w->res.verdict == COVERAGE_PTX_TOO_NEW)
		finding_fix(f, "# upgrade the driver to a branch whose JIT knows that PTX ISA "
			       "(gpuenv facts driver <version>), or:");

	for (size_t i = 0; pin && !done && i < snap_count(req); i++) {
		const char *r = snap_str(snap_at(req, i));
		size_t n = r ? req_names(r, wheel) : 0;

		while (n > 0 && r[n - 1] == ' ')
			n--;
		if (n == 0)
			continue;
		finding_fix(f,
			    "%s install --force-reinstall '%.*s'   # the version %s requires "
			    "(its Requires-Dist), in place of the copy without sm_%u%u code",
			    b->pip, (int)n, r, b->label, ma, mi);
		done = true;
	}
	if (wheel && !done)
		finding_fix(f,
			    "%s install -U %s   # a release with sm_%u%u SASS (or PTX for "
			    "%u.%u or lower)",
			    b->pip, wheel, ma, mi, ma, mi);
	else if (ext)
		/* the extension's build has its own arch list (vLLM's CMake reads
		 * TORCH_CUDA_ARCH_LIST: vllm-project/vllm#19328) */
		finding_fix(f,
			    "# install a %s build whose kernels carry sm_%u%u SASS (or PTX for "
			    "%u.%u or lower), e.g. built from source with "
			    "TORCH_CUDA_ARCH_LIST=%u.%u",
			    ext, ma, mi, ma, mi, ma, mi);
	else if (!wheel)
		finding_fix(f,
			    "# install a %s build whose libraries carry sm_%u%u SASS (or PTX for "
			    "%u.%u or lower)",
			    fw_module(b), ma, mi, ma, mi);
	if (path)
		finding_verify(f, "gpuenv scan %s", path);
}

/* The rule's verify lines are torch's where they name a framework; a TensorFlow or JAX user
 * checks the build they have: TensorFlow's build_info (tf.sysconfig.get_build_info(),
 * TensorFlow 2.3 and later) and the kernel library's targets as `gpuenv scan` reads them. The
 * rule's other lines (nvidia-smi, the JIT cache) stay. */
static void cov_verify(struct finding *f, const struct fw_build *b)
{
	const char *lib = snap_get_str(b->pkg, "kernel_library.path");

	if (!f)
		return;
	if (b->kind == FW_TORCH) {
		finding_rule_verify(f);
		return;
	}
	for (const char *const *v = f->rule->verify; v && *v; v++)
		if (!strstr(*v, "torch") && !strstr(*v, "gpuenv scan <"))
			finding_verify(f, "%s", *v);
	if (b->kind == FW_TENSORFLOW)
		finding_verify(
			f, "python -c 'import tensorflow as tf; "
			   "print(tf.sysconfig.get_build_info()[\"cuda_compute_capabilities\"])'");
	if (lib)
		finding_verify(f, "gpuenv scan %s", lib);
}

/* What a build's coverage rests on, read once for all GPUs. */
struct cov_build {
	const struct fw_build *b; /* the build, or jb: a jaxlib CUDA wheel's, relabelled */
	struct fw_build jb;
	const struct snap_node *tn; /* the targets (fw_targets()) */
	bool from_bi, own_code;
	struct coverage_target t[MAX_TARGETS];
	size_t n;
	unsigned lowest;
	struct strbuf list;
};

enum cov_build_state {
	COV_BUILD_NONE,	      /* no CUDA GPU code to judge (CPU-only, ROCm, XLA alone) */
	COV_BUILD_UNREADABLE, /* the kernel library's GPU code could not be read */
	COV_BUILD_EMPTY,      /* its target list holds no target gpuenv knows */
	COV_BUILD_JUDGE,
};

static enum cov_build_state cov_build_read(const struct fw_build *b, struct cov_build *cb)
{
	/* A jaxlib CUDA wheel (0.1.x-0.4.x, "+cuda11.cudnn86"): its own kernel modules are
	 * judged, labelled with its release; jax without it or a plugin has no GPU code. */
	const char *jl = b->kind == FW_JAX ? snap_get_str(b->pkg, "jaxlib_local_version") : NULL;
	const bool jaxlib_cuda = jl && startswith(jl, "cuda");
	const struct snap_node *cpu = fw_cpu_only(b);
	bool yes = false;
	char cuda[32];

	*cb = (struct cov_build){ .b = b, .list = STRBUF_INIT };
	if ((snap_bool(cpu, &yes) && yes) || fw_hip_version(b) ||
	    (b->kind == FW_JAX && !jaxlib_cuda))
		return COV_BUILD_NONE;
	if (!fw_cuda_version(b, cuda, sizeof(cuda), NULL) && b->kind != FW_JAX_PLUGIN &&
	    !jaxlib_cuda)
		return COV_BUILD_NONE;
	if (jaxlib_cuda) {
		cb->jb = *b;
		snprintf(cb->jb.label, sizeof(cb->jb.label), "%.100s (jaxlib %.60s)", b->label,
			 snap_get_str(b->pkg, "jaxlib_dist_version") ?: jl);
		cb->b = b = &cb->jb;
	}
	cb->tn = fw_targets(b, &cb->from_bi);
	/* A kernel library without GPU code of its own (jaxlib's xla_extension.so: XLA
	 * compiles its kernels at run time) still loads libraries that have some. */
	cb->own_code = snap_kind(cb->tn) == SNAP_ARRAY;
	if (!cb->own_code && snap_state(cb->tn) == FACT_ABSENT && jaxlib_cuda &&
	    snap_count(snap_child(b->pkg, "gpu_libraries")) == 0)
		return COV_BUILD_NONE; /* XLA alone: no GPU code of its own anywhere */
	/* Only XLA's kernel libraries have no GPU code by design: a torch or TensorFlow kernel
	 * library without a fat binary is one gpuenv could not judge, never a pass. */
	if (!cb->own_code && (snap_state(cb->tn) != FACT_ABSENT ||
			      snap_count(snap_child(b->pkg, "gpu_libraries")) == 0 ||
			      !(jaxlib_cuda || b->kind == FW_JAX_PLUGIN)))
		return COV_BUILD_UNREADABLE;
	cb->n = cb->own_code ? read_targets(cb->tn, cb->from_bi, cb->t, &cb->lowest, &cb->list) : 0;
	if (cb->n == 0 && cb->own_code)
		return COV_BUILD_EMPTY;
	if (!cb->own_code)
		cb->lowest = 0;
	return COV_BUILD_JUDGE;
}

/* One GPU judged against a build: its own kernels (res) and its weakest library (w). */
struct cov_gpu {
	unsigned ma, mi;
	const struct snap_node *ccf; /* the NVML fact of the compute capability, or NULL */
	struct coverage_result res;
	bool too_old; /* older than every target */
	bool by_lib;  /* a loaded library's verdict is worse than the kernels' own */
	/* Nothing fails among what was read, but a library could not be: it may have no code
	 * for the GPU, so "no kernel image" can be neither said nor ruled out. */
	bool undecided;
};

enum cov_gpu_state { COV_GPU_NO_CC, COV_GPU_NOT_JUDGED, COV_GPU_JUDGED };

/* w is the caller's (its list is reused between GPUs; strbuf_done() it after the last). */
static enum cov_gpu_state cov_gpu_judge(const struct cov_build *cb, const struct snap_node *root,
					const struct snap_node *gpu, const char *driver,
					struct cov_lib *w, struct cov_gpu *g)
{
	*g = (struct cov_gpu){ .res.entry = SIZE_MAX };
	if (!gpu_cc(root, gpu, &g->ma, &g->mi, &g->ccf))
		return COV_GPU_NO_CC;
	if (cb->n == 0)
		g->res = (struct coverage_result){ .verdict = COVERAGE_NO_GPU_CODE,
						   .entry = SIZE_MAX };
	else if (coverage_judge(cb->t, cb->n, g->ma, g->mi, driver, &g->res) < 0)
		return COV_GPU_NOT_JUDGED;
	/* (LTO-IR only: no lowest architecture, the GPU is not "too old") */
	g->too_old = coverage_verdict_is_failure(g->res.verdict) && cb->lowest != UINT32_MAX &&
		     g->ma * 10 + g->mi < cb->lowest;
	weakest_library(cb->b, g->ma, g->mi, driver, w);
	g->by_lib =
		w->entry && !coverage_verdict_is_failure(g->res.verdict) &&
		cov_weaker(w->res.verdict, w->arch, g->res.verdict, deciding_arch(cb->t, &g->res));
	g->undecided = (w->unreadable || w->truncated) &&
		       !coverage_verdict_is_failure(g->res.verdict) &&
		       !(g->by_lib && coverage_verdict_is_failure(w->res.verdict));
	return COV_GPU_JUDGED;
}

static void cov_one(const struct fw_build *fb, void *u)
{
	struct cov_ctx *x = u;
	const struct snap_node *gpus = snap_get(x->root, "hardware.gpus");
	struct cov_build cb;
	struct cov_lib w = { .list = STRBUF_INIT };
	const struct coverage_target *t = cb.t;
	const struct fw_build *b;
	bool needed = false;
	size_t n, n_nvidia;
	unsigned lowest;
	char key[192];

	switch (cov_build_read(fb, &cb)) {
	case COV_BUILD_NONE:
		return;
	case COV_BUILD_UNREADABLE:
		rule_need(x->c, cb.b->prefix,
			  "arch_targets (the fat binary of the framework's kernel "
			  "library)",
			  cb.tn);
		return;
	case COV_BUILD_EMPTY:
		strbuf_done(&cb.list);
		return;
	case COV_BUILD_JUDGE:
		break;
	}
	b = cb.b;
	n = cb.n;
	lowest = cb.lowest;
	n_nvidia = gpus_count(x->root, gpu_is_nvidia);
	for (size_t g = 0; g < snap_count(gpus); g++) {
		const struct snap_node *gpu = snap_at(gpus, g), *ccf;
		const char *bus = snap_get_str(gpu, "bus_id") ?: "?";
		struct coverage_result res;
		unsigned ma, mi;
		struct finding *f = NULL;
		const char *cuda_name;
		char name[128];
		bool too_old, by_lib;
		struct cov_gpu j;

		if (!gpu_is_nvidia(gpu))
			continue;
		switch (cov_gpu_judge(&cb, x->root, gpu, x->driver, &w, &j)) {
		case COV_GPU_NO_CC:
			rule_skip(x->c, bus,
				  "GPU %s: compute capability unknown (not in the knowledge "
				  "base, not reported by NVML)",
				  bus);
			continue;
		case COV_GPU_NOT_JUDGED:
			continue;
		case COV_GPU_JUDGED:
			break;
		}
		ma = j.ma;
		mi = j.mi;
		ccf = j.ccf;
		res = j.res;
		too_old = j.too_old;
		by_lib = j.by_lib;
		gpu_name(gpu, name, sizeof(name));
		/* In a quoted torch warning: the name torch prints (the CUDA driver's), never
		 * the knowledge base's product name; unknown without NVML/CUDA. */
		cuda_name = gpu_cuda_name(x->root, gpu) ?: "<name>";
		if (j.undecided && (x->want == WANT_NO_IMAGE || x->want == WANT_TOO_NEW)) {
			if (!needed && w.unreadable)
				rule_need(x->c, b->prefix,
					  "the GPU code of a library the framework loads "
					  "(gpu_libraries[].arch_targets)",
					  w.unreadable);
			else if (!needed)
				rule_skip(x->c, b->prefix,
					  "the framework loads more GPU libraries than gpuenv "
					  "reads (gpu_libraries_truncated): those past the 64th "
					  "may have no code for the GPU");
			needed = true;
			continue;
		}
		if (by_lib) {
			f = lib_finding(x, b, &w, name, bus, ma, mi, cb.own_code);
			goto evidence;
		}
		if (n == 0)
			continue;
		switch (x->want) {
		case WANT_TOO_OLD:
			if (!too_old)
				continue;
			/* torch's wording of the warning changes with its release ("PyTorch
			 * no longer supports this GPU because it is too old" in older ones;
			 * "Minimum and Maximum cuda capability supported by this version of
			 * PyTorch is (7.0) - (12.0)" from cu128 builds in anomalib#2953 and
			 * Kaggle/docker-python#1546, from 2.9.1 in pytorch/pytorch#172629;
			 * pytorch/pytorch#166185 rewrites it again): say what it says, not
			 * one release's words. */
			if (b->kind == FW_TORCH)
				f = rule_finding(
					x->c, GPUENV_SEVERITY_ERROR, bus,
					"%s in %s has GPU code for compute capability %u.%u "
					"and up; %s at %s is %u.%u, older than every target: "
					"torch warns that GPU%s is of cuda capability %u.%u, "
					"below the %u.%u this build supports, and its first "
					"kernel fails with \"no kernel image is available for "
					"execution on the device\"",
					b->label, b->prefix, lowest / 10, lowest % 10, name, bus,
					ma, mi, n_nvidia == 1 ? "0" : "<N>", ma, mi, lowest / 10,
					lowest % 10);
			else
				f = rule_finding(
					x->c, GPUENV_SEVERITY_ERROR, bus,
					"%s in %s has GPU code for compute capability %u.%u "
					"and up; %s at %s is %u.%u, older than every target: "
					"\"no kernel image is available for execution on the "
					"device\"",
					b->label, b->prefix, lowest / 10, lowest % 10, name, bus,
					ma, mi);
			break;
		case WANT_NO_IMAGE:
			if (res.verdict != COVERAGE_NO_KERNEL_IMAGE || too_old)
				continue;
			/* torch's _check_cubins() warns only when no sm_ target shares the
			 * GPU's major version, with get_arch_list() as the list. */
			if (b->kind == FW_TORCH && !sass_of_major(t, n, ma))
				f = rule_finding(
					x->c, GPUENV_SEVERITY_ERROR, bus,
					"%s in %s cannot run on %s at %s (compute capability "
					"%u.%u): %s; torch warns \"%s with CUDA capability "
					"sm_%u%u is not compatible with the current PyTorch "
					"installation. The current PyTorch install supports CUDA "
					"capabilities %s.\"",
					b->label, b->prefix, name, bus, ma, mi, res.reason,
					cuda_name, ma, mi, strbuf_str(&cb.list));
			else
				f = rule_finding(x->c, GPUENV_SEVERITY_ERROR, bus,
						 "%s in %s cannot run on %s at %s (compute "
						 "capability %u.%u): %s",
						 b->label, b->prefix, name, bus, ma, mi,
						 res.reason);
			/* what TensorFlow prints, not torch's texts of the rule's symptom: at
			 * the runtime's implicit initialization (tensorflow/tensorflow#41892,
			 * #41990) or at a kernel's launch (#42052, #42467) */
			if (b->kind == FW_TENSORFLOW)
				finding_symptom(f,
						"InternalError: CUDA runtime implicit "
						"initialization on GPU:0 failed. Status: device "
						"kernel image is invalid · … status: Internal: no "
						"kernel image is available for execution on the "
						"device");
			break;
		case WANT_JIT:
			if (res.verdict != COVERAGE_PTX_JIT)
				continue;
			f = rule_finding(
				x->c, GPUENV_SEVERITY_INFO, bus,
				"%s in %s on %s at %s (compute capability %u.%u): %s; each "
				"kernel's first launch compiles it (minutes for a large "
				"framework), cached under ~/.nv/ComputeCache",
				b->label, b->prefix, name, bus, ma, mi, res.reason);
			break;
		case WANT_TOO_NEW:
			if (res.verdict != COVERAGE_PTX_TOO_NEW)
				continue;
			f = rule_finding(x->c, GPUENV_SEVERITY_ERROR, bus,
					 "%s in %s on %s at %s: %s", b->label, b->prefix, name, bus,
					 res.reason);
			break;
		}
	evidence:
		if (!f)
			continue;
		if (by_lib) {
			snprintf(key, sizeof(key), "%s.gpu_libraries[%zu].arch_targets", b->key,
				 w.index);
			finding_evidence(f, key, snap_get_str(w.entry, "path") ?: "?", "%s",
					 strbuf_str(&w.list));
		}
		snprintf(key, sizeof(key), "%s.%s", b->key,
			 cb.from_bi ? "build_info.cuda_compute_capabilities" : "arch_targets");
		if (cb.own_code)
			finding_evidence(f, key, targets_source(cb.tn), "%s", strbuf_str(&cb.list));
		else
			finding_fact(f, key, cb.tn);
		if (ccf)
			finding_fact(f, "driver.nvml.devices[].compute_capability", ccf);
		else {
			const struct facts_gpu *fg;

			if (gpu_facts(gpu, &fg) == 0)
				finding_evidence(f, "facts.gpu.compute_capability", fg->source,
						 "%s: %s", fg->product, fg->compute_capability);
		}
		if (x->driver)
			finding_fact(f, "driver.nvidia.module_version",
				     snap_get(x->root, "driver.nvidia.module_version"));
		if (res.unconfirmed)
			finding_evidence(f, "facts.coverage", "facts:sm_arch, ptx_isa",
					 "relies on a knowledge-base row marked unconfirmed or an "
					 "unknown PTX ISA");
		if (by_lib) {
			if (x->want == WANT_JIT)
				finding_fix(f, "export CUDA_CACHE_MAXSIZE=4294967296   # keep the "
					       "JIT results between runs (bytes)");
			lib_fix(f, b, &w, ma, mi);
			cov_verify(f, b);
			continue;
		}
		switch (x->want) {
		case WANT_TOO_OLD:
			finding_fix(
				f,
				"# install a build that still has sm_%u%u kernels (an older "
				"release or CUDA variant: gpuenv facts torch lists each wheel's "
				"architectures), or build %s from source with "
				"TORCH_CUDA_ARCH_LIST=%u.%u",
				ma, mi, fw_module(b), ma, mi);
			break;
		case WANT_NO_IMAGE:
			finding_fix(f,
				    "# install a build with sm_%u%u SASS (or PTX for %u.%u or "
				    "lower), e.g. a newer release / CUDA variant of %s",
				    ma, mi, ma, mi, fw_module(b));
			break;
		case WANT_JIT:
			finding_fix(f,
				    "export CUDA_CACHE_MAXSIZE=4294967296   # keep the JIT results "
				    "between runs (bytes)");
			finding_fix(f, "# or install a build with sm_%u%u SASS", ma, mi);
			break;
		case WANT_TOO_NEW:
			finding_fix(
				f,
				"# upgrade the driver to a branch whose JIT knows that PTX ISA "
				"(gpuenv facts driver <version>), or install a build with sm_%u%u "
				"SASS",
				ma, mi);
			break;
		}
		cov_verify(f, b);
	}
	strbuf_done(&w.list);
	strbuf_done(&cb.list);
}

/* The driver whose PTX JIT counts: the libcuda's, a working cuda-compat one's where it loads;
 * NULL without a loaded driver. */
static const char *coverage_driver(const struct snap_node *root)
{
	const struct snap_node *fact;
	const char *ver;

	if (nvidia_driver(root, &ver, &fact) == DRIVER_LOADED)
		return cuda_driver_effective(root, ver);
	return NULL;
}

static void coverage_rule(struct rule_ctx *c, const struct snap_node *root, enum cov_want want)
{
	struct cov_ctx x = { c, root, want, NULL };

	if (gpus_count(root, gpu_is_nvidia) == 0)
		return;
	x.driver = coverage_driver(root);
	fw_foreach(root, cov_one, &x);
}

/* ---- the same judgement per (build, GPU), for the exporter (rules.h) ---- */

struct cov_each {
	const struct snap_node *root;
	const char *driver;
	void (*fn)(const struct fw_gpu_coverage_item *it, void *u);
	void *u;
};

static enum fw_gpu_coverage cov_gpu_state(enum cov_gpu_state st, const struct cov_gpu *g,
					  const struct cov_lib *w)
{
	enum coverage_verdict v;

	if (st != COV_GPU_JUDGED || g->undecided)
		return FW_GPU_COVERAGE_UNKNOWN;
	v = g->by_lib ? w->res.verdict : g->res.verdict;
	if (g->too_old || coverage_verdict_is_failure(v))
		return FW_GPU_COVERAGE_NONE;
	return v == COVERAGE_NATIVE    ? FW_GPU_COVERAGE_NATIVE
	       : v == COVERAGE_PTX_JIT ? FW_GPU_COVERAGE_PTX_JIT
				       : FW_GPU_COVERAGE_UNKNOWN; /* no GPU code read at all */
}

static void cov_each_build(const struct fw_build *fb, void *u)
{
	struct cov_each *e = u;
	const struct snap_node *gpus = snap_get(e->root, "hardware.gpus");
	struct cov_build cb;
	struct cov_lib w = { .list = STRBUF_INIT };
	enum cov_build_state bs = cov_build_read(fb, &cb);

	if (bs == COV_BUILD_NONE)
		return;
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *gpu = snap_at(gpus, i);
		struct fw_gpu_coverage_item it = { .framework = fw_module(cb.b),
						   .build = cb.b->label,
						   .env = cb.b->env,
						   .gpu = gpu,
						   .nvml = nvml_device_for(e->root, gpu),
						   .coverage = FW_GPU_COVERAGE_UNKNOWN };
		struct cov_gpu g;

		if (!gpu_is_nvidia(gpu))
			continue;
		if (bs == COV_BUILD_JUDGE)
			it.coverage = cov_gpu_state(
				cov_gpu_judge(&cb, e->root, gpu, e->driver, &w, &g), &g, &w);
		e->fn(&it, e->u);
	}
	strbuf_done(&w.list);
	strbuf_done(&cb.list);
}

void fw_gpu_coverage_foreach(const struct snap_node *root,
			     void (*fn)(const struct fw_gpu_coverage_item *it, void *u), void *u)
{
	struct cov_each e = { root, coverage_driver(root), fn, u };

	fw_foreach(root, cov_each_build, &e);
}

const char *fw_gpu_coverage_name(enum fw_gpu_coverage c)
{
	static const char *const names[] = {
		[FW_GPU_COVERAGE_NATIVE] = "native",
		[FW_GPU_COVERAGE_PTX_JIT] = "ptx-jit",
		[FW_GPU_COVERAGE_NONE] = "none",
		[FW_GPU_COVERAGE_UNKNOWN] = "unknown",
	};

	return (size_t)c < ARRAY_SIZE(names) ? names[c] : "unknown";
}

RULE_CHECK(check_fw_no_kernel_image)
{
	fw_need_complete(c, root);
	coverage_rule(c, root, WANT_NO_IMAGE);
}

RULE_CHECK(check_fw_ptx_jit_only)
{
	fw_need_complete(c, root);
	coverage_rule(c, root, WANT_JIT);
}

RULE_CHECK(check_fw_ptx_too_new)
{
	const struct snap_node *fact;
	const char *ver;

	fw_need_complete(c, root);
	/* Without a driver nothing JITs at all: the other rules say why. */
	if (nvidia_driver(root, &ver, &fact) != DRIVER_LOADED)
		return;
	coverage_rule(c, root, WANT_TOO_NEW);
}

RULE_CHECK(check_fw_gpu_too_old)
{
	fw_need_complete(c, root);
	coverage_rule(c, root, WANT_TOO_OLD);
}
