// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * framework.ollama-no-usable-cuda-library: none of the CUDA libraries ollama bundles
 * (framework.ollama.cuda_variants[], src/probe/probe-ollama.c) runs on an NVIDIA GPU of this
 * machine with this driver, so ollama leaves the GPU out and runs the model on the CPU
 * ("no compatible GPUs were discovered"), or, where it does pick the variant, ggml-cuda stops
 * at the first kernel ("CUDA error: no kernel image is available for execution on the
 * device ... ggml-cuda.cu"). ollama picks one variant per GPU at run time, so the GPU is lost
 * only when every variant fails. Each is judged as the fatbin scanner's targets are
 * elsewhere (src/facts/coverage.h): SASS for the GPU's architecture or PTX the driver JITs
 * (ollama/ollama#9124: a Tesla K80, compute capability 3.7, below the 5.0 of ollama's
 * CMakePresets.json; ollama/ollama#12408: a CUDA 13 build without Pascal), and the bundled
 * CUDA runtime against the driver's minor-version-compatibility floor (cuda_driver_min.tsv).
 */
#include <stdio.h>
#include <string.h>

#include "facts/coverage.h"
#include "rules/rules-internal.h"
#include "shared/macro.h"
#include "shared/strbuf.h"

#define MAX_OLLAMA_TARGETS 256

/* What one variant gives one GPU. */
struct variant_verdict {
	bool judged;
	struct coverage_result res;
	unsigned lowest; /* lowest SASS/PTX architecture it carries (50 for sm_50) */
};

/* The targets of a variant into t[]; the count (the list as text into list). */
static size_t variant_targets(const struct snap_node *tn, struct coverage_target *t,
			      unsigned *ret_lowest, struct strbuf *list)
{
	size_t n = 0;

	*ret_lowest = 0;
	for (size_t i = 0; i < snap_count(tn) && n < MAX_OLLAMA_TARGETS; i++) {
		const struct snap_node *e = snap_at(tn, i);
		const char *s = snap_get_str(e, "target"), *isa = snap_get_str(e, "ptx_isa");
		struct coverage_target_info ti;
		unsigned ma, mi;

		if (!s || coverage_target_parse(s, &ti) < 0)
			continue;
		t[n] = (struct coverage_target){ .target = s, .ptx_major = -1, .ptx_minor = -1 };
		if (isa && cuda_major_minor(isa, &ma, &mi)) {
			t[n].ptx_major = (int)ma;
			t[n].ptx_minor = (int)mi;
		}
		if (ti.kind != COVERAGE_KIND_OTHER && (!*ret_lowest || ti.arch < *ret_lowest))
			*ret_lowest = ti.arch;
		strbuf_printf(list, "%s%s", n ? " " : "", s);
		n++;
	}
	return n;
}

/* The bundled runtime's "major.minor" for coverage_judge_driver(), or NULL (not bundled). */
static const char *cudart_of(const struct snap_node *v, char *buf, size_t len)
{
	const char *ver = snap_get_str(v, "cudart.version");
	unsigned ma, mi;

	if (!ver)
		return NULL;
	if (cuda_major_minor(ver, &ma, &mi))
		snprintf(buf, len, "%u.%u", ma, mi);
	else
		snprintf(buf, len, "%s", ver); /* "12": libcudart.so.12 alone */
	return buf;
}

/* Judges variant v for a GPU of compute capability ma.mi; false when its code is unknown. */
static bool judge_variant(const struct snap_node *v, unsigned ma, unsigned mi, const char *drv,
			  struct variant_verdict *out, struct strbuf *list)
{
	struct coverage_target t[MAX_OLLAMA_TARGETS];
	const struct snap_node *tn = snap_child(v, "arch_targets");
	char rt[32];
	const char *cudart = cudart_of(v, rt, sizeof(rt));
	size_t n;

	*out = (struct variant_verdict){ 0 };
	if (!tn || snap_state(tn) != FACT_PRESENT)
		return false;
	n = variant_targets(tn, t, &out->lowest, list);
	if (coverage_judge(t, n, ma, mi, drv, &out->res) < 0)
		return false;
	if (cudart && drv && coverage_judge_driver(cudart, ma, mi, drv, &out->res) < 0)
		return false;
	out->judged = true;
	return true;
}

/* The fix: a GPU older than every variant's code needs another build whatever the driver
 * (a newer branch may not drive it at all: R470 is Kepler's last); else the worst verdict's. */
static void fix_for(struct finding *f, const struct variant_verdict *worst, unsigned lowest,
		    unsigned ma, unsigned mi)
{
	if (lowest && ma * 10 + mi < lowest) {
		finding_fix(f,
			    "# compute capability %u.%u is below every architecture ollama's "
			    "CUDA libraries carry: build ollama from source with "
			    "CMAKE_CUDA_ARCHITECTURES=%u%u and a CUDA toolkit that still targets "
			    "it (CUDA 13: 7.5 and up, CUDA 12: 5.0 and up, CUDA 11: 3.5 and up), "
			    "or run the model on the CPU",
			    ma, mi, ma, mi);
		return;
	}
	switch (worst->res.verdict) {
	case COVERAGE_DRIVER_TOO_OLD:
		finding_fix(f, "# upgrade the NVIDIA driver to a branch that runs the CUDA "
			       "runtime ollama bundles (gpuenv facts cuda <its version>), or "
			       "install an ollama release whose CUDA variant this driver runs");
		break;
	case COVERAGE_PTX_TOO_NEW:
		finding_fix(f, "# upgrade the NVIDIA driver to a branch whose JIT knows that PTX "
			       "ISA (gpuenv facts driver <version>)");
		break;
	default:
		finding_fix(f,
			    "# install an ollama build with sm_%u%u kernels (or PTX for "
			    "%u.%u or lower): ollama's own release, or one built with "
			    "CMAKE_CUDA_ARCHITECTURES=%u%u",
			    ma, mi, ma, mi, ma, mi);
	}
}

static void one_gpu(struct rule_ctx *c, const struct snap_node *root, const struct snap_node *gpu,
		    const struct snap_node *variants, const char *drv)
{
	struct variant_verdict vv, worst = { 0 };
	const struct snap_node *ccf = NULL, *unknown = NULL;
	struct strbuf text = STRBUF_INIT;
	char name[128], key[96];
	unsigned ma, mi;
	size_t n_judged = 0;
	unsigned lowest = 0;
	struct finding *f;

	if (!gpu_cc(root, gpu, &ma, &mi, &ccf)) {
		rule_skip(c, snap_get_str(gpu, "bus_id"),
			  "the GPU's compute capability is unknown");
		return;
	}
	for (size_t i = 0; i < snap_count(variants); i++) {
		const struct snap_node *v = snap_at(variants, i);
		struct strbuf list = STRBUF_INIT;

		if (!judge_variant(v, ma, mi, drv, &vv, &list)) {
			/* a variant whose code is unknown may run: could not tell, unless
			 * another one is seen to run (below) */
			strbuf_done(&list);
			if (!unknown)
				unknown = v;
			continue;
		}
		if (!coverage_verdict_is_failure(vv.res.verdict) ||
		    vv.res.verdict == COVERAGE_DRIVER_GPU_UNSUPPORTED) {
			/* runs; or nothing runs on this driver at all: the driver rules say */
			strbuf_done(&list);
			strbuf_done(&text);
			return;
		}
		strbuf_printf(&text, "%s%s (%s: %s%s%s): %s", n_judged ? "; " : "",
			      snap_get_str(v, "name") ?: "?", snap_get_str(v, "library") ?: "?",
			      strbuf_str(&list),
			      snap_get_str(v, "cudart.version") ? "; CUDA runtime " : "",
			      snap_get_str(v, "cudart.version") ?: "", vv.res.reason);
		strbuf_done(&list);
		if (vv.res.verdict > worst.res.verdict)
			worst = vv;
		if (vv.lowest && (!lowest || vv.lowest < lowest))
			lowest = vv.lowest;
		n_judged++;
	}
	if (unknown) {
		rule_need(c, snap_get_str(unknown, "dir"), "the GPU code of ollama's CUDA library",
			  snap_child(unknown, "arch_targets"));
		strbuf_done(&text);
		return;
	}
	if (!n_judged) {
		strbuf_done(&text);
		return;
	}
	if (gpu_name(gpu, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "?");
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, snap_get_str(gpu, "bus_id"),
		"none of ollama's CUDA libraries runs on %s (compute capability %u.%u)%s%s: "
		"%s. ollama leaves this GPU out and runs models on the CPU (\"no "
		"compatible GPUs were discovered\"), or stops with \"CUDA error: no kernel "
		"image is available for execution on the device\"",
		name, ma, mi, drv ? " with driver " : "", drv ?: "", strbuf_str(&text));
	strbuf_done(&text);
	for (size_t i = 0; i < snap_count(variants); i++) {
		const struct snap_node *v = snap_at(variants, i);

		snprintf(key, sizeof(key), "framework.ollama.cuda_variants[%zu].arch_targets", i);
		finding_fact(f, key, snap_child(v, "arch_targets"));
		if (snap_get(v, "cudart.version")) {
			snprintf(key, sizeof(key), "framework.ollama.cuda_variants[%zu].cudart", i);
			finding_fact(f, key, snap_get(v, "cudart.version"));
		}
	}
	if (ccf)
		finding_fact(f, "driver.nvml.devices[].compute_capability", ccf);
	else {
		const struct facts_gpu *fg;

		if (gpu_facts(gpu, &fg) == 0)
			finding_evidence(f, "facts.gpu.compute_capability", fg->source, "%s: %s",
					 fg->product, fg->compute_capability);
	}
	if (drv)
		driver_evidence(f, root);
	fix_for(f, &worst, lowest, ma, mi);
	finding_verify(f, "journalctl -u ollama | grep -E 'inference compute|no compatible "
			  "GPUs|no kernel image'");
	finding_verify(f, "gpuenv scan %s",
		       snap_get_str(snap_at(variants, 0), "library")
			       ?: "<ollama's libggml-cuda.so>");
}

RULE_CHECK(check_fw_ollama_no_usable_cuda_library)
{
	const struct snap_node *variants = snap_get(root, "framework.ollama.cuda_variants");
	const struct snap_node *gpus = snap_get(root, "hardware.gpus"), *fact;
	const char *drv = NULL;

	if (!variants || snap_count(variants) == 0 || gpus_count(root, gpu_is_nvidia) == 0)
		return;
	switch (nvidia_driver(root, &drv, &fact)) {
	case DRIVER_NONE:
		return; /* nothing runs CUDA here: the driver rules say why */
	case DRIVER_LOADED:
		drv = cuda_driver_effective(root, drv);
		break;
	default:
		drv = NULL; /* judged on the code alone */
	}
	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_is_nvidia(snap_at(gpus, i)))
			one_gpu(c, root, snap_at(gpus, i), variants, drv);
}
