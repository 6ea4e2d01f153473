// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Framework-layer rules over framework.python_envs[] (probe-python.c: torch/version.py,
 * TensorFlow's build_info.py, jax plugins' dist-info, the fat-binary targets of each kernel
 * library, what its DT_NEEDED resolve to; docs/snapshot-schema.md), the GPUs' compute
 * capabilities (facts/gpu_compute_capability.tsv, else NVML), and the loaded driver. Which
 * GPU code runs where (no-kernel-image, ptx-jit-only, ptx-too-new, gpu-too-old) is
 * rules-framework-coverage.c; what a CUDA version needs from the driver is
 * cuda_requirement()/cuda_driver_judge() (facts/cuda_driver_min.tsv), as for
 * runtime.toolkit-needs-newer-driver. Warning texts: torch/cuda/__init__.py (2.x) and
 * TensorFlow's tensorflow/core/common_runtime/gpu/gpu_device.cc (tensorflow/tensorflow).
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

/*
 * The pip command that reinstalls torch from an index that exists for its release and that
 * the driver runs (facts pytorch_wheels: the variants download.pytorch.org published per
 * release), never a cuXY made from the driver's CUDA version. drv NULL: the driver is not
 * known, so the published variants are listed instead.
 */
static void torch_index_fix(struct finding *f, const struct fw_build *b, const char *drv)
{
	const char *v = snap_get_str(b->pkg, "version") ?: snap_get_str(b->pkg, "dist_version");
	const char *have = snap_get_str(b->pkg, "cuda");
	const struct facts_torch_wheel *w;
	bool compat, already = false;
	char line[16];
	struct version pv;

	if (!v || version_parse_prefix(v, &pv, NULL) < 0 || pv.n < 2)
		return;
	snprintf(line, sizeof(line), "%u.%u", pv.part[0], pv.part[1]);
	if (drv && facts_torch_wheel_for_driver(line, drv, &w) == 0) {
		finding_fix(f,
			    "%s install --force-reinstall 'torch==%s.*' --index-url "
			    "https://download.pytorch.org/whl/%s   # the newest CUDA variant torch "
			    "%s published that driver %s runs (needs >= %s)",
			    b->pip, line, w->variant, line, drv, w->min_driver);
		finding_evidence(f, "facts.pytorch_wheels", w->source, "torch %s %s: driver >= %s",
				 w->torch, w->variant, w->min_driver);
		return;
	}
	/* Minor-version compatibility runs a CUDA 11.x/12.x build on the major's floor driver
	 * (NVIDIA's CUDA Compatibility guide): a variant of the same line it covers is a fix,
	 * unless it is no older than the build installed, which already runs that way (torch
	 * 2.8 cu128 on R535: cu129 would be the same state, open-edge-platform/anomalib#2953). */
	compat = drv && facts_torch_wheel_for_driver_compat(line, drv, &w) == 0;
	if (compat && have && w->cuda_toolkit && version_cmp_str(w->cuda_toolkit, have) >= 0) {
		compat = false;
		already = true;
	}
	if (compat) {
		finding_fix(
			f,
			"%s install --force-reinstall 'torch==%s.*' --index-url "
			"https://download.pytorch.org/whl/%s   # CUDA %s runs on driver %s "
			"through minor-version compatibility (>= %s; its SASS must cover the GPU: "
			"no PTX JIT); full support needs >= %s",
			b->pip, line, w->variant, w->cuda_toolkit, drv, w->minor_compat_min_driver,
			w->min_driver);
		finding_evidence(f, "facts.pytorch_wheels", w->source,
				 "torch %s %s: driver >= %s (minor-version compatibility >= %s)",
				 w->torch, w->variant, w->min_driver, w->minor_compat_min_driver);
		return;
	}
	if (drv && facts_torch_wheel_for_driver(NULL, drv, &w) == 0) {
		if (already)
			finding_fix(
				f,
				"%s install --force-reinstall 'torch==%s.*' --index-url "
				"https://download.pytorch.org/whl/%s   # every CUDA variant of "
				"torch %s needs minor-version compatibility on driver %s; torch "
				"%s %s runs at full support (needs >= %s)",
				b->pip, w->torch, w->variant, line, drv, w->torch, w->variant,
				w->min_driver);
		else
			finding_fix(f,
				    "%s install --force-reinstall 'torch==%s.*' --index-url "
				    "https://download.pytorch.org/whl/%s   # torch %s has no CUDA "
				    "variant driver %s runs; torch %s %s does (needs >= %s)",
				    b->pip, w->torch, w->variant, line, drv, w->torch, w->variant,
				    w->min_driver);
		finding_evidence(f, "facts.pytorch_wheels", w->source, "torch %s %s: driver >= %s",
				 w->torch, w->variant, w->min_driver);
		return;
	}
	{
		char list[256];

		if (facts_torch_cuda_variants(line, list, sizeof(list)) > 0)
			finding_fix(f,
				    "%s install --force-reinstall 'torch==%s.*' --index-url "
				    "https://download.pytorch.org/whl/<variant>   # torch %s "
				    "published %s: the newest your driver supports%s",
				    b->pip, line, line, list,
				    drv ? " (none in the knowledge base; or upgrade the driver)"
					: "");
	}
}

/* ---- framework.cpu-only-build ---------------------------------------------------------- */

struct cpu_ctx {
	struct rule_ctx *c;
	const struct snap_node *root;
	size_t gpus;
	/* where the PCI bus was not read: the driver's own list that showed the GPUs
	 * (driver.nvml.devices or driver.cuda.devices), NULL otherwise */
	const char *listed_by;
};

static void cpu_only_one(const struct fw_build *b, void *u)
{
	struct cpu_ctx *x = u;
	const struct snap_node *co = fw_cpu_only(b);
	const bool distro = snap_present(snap_get(b->pkg, "distro_package.name"));
	struct finding *f;
	bool cpu = false;
	char key[192];

	if (!co)
		return;
	if (b->kind == FW_JAX && snap_state(co) == FACT_ABSENT)
		return;
	/* torch without XPU code of its own next to intel-extension-for-pytorch: ipex brings
	 * the Intel GPU backend (its guides pair it with such torch builds, before torch 2.5) */
	if (b->kind == FW_TORCH && snap_child(snap_child(b->env, "packages"), "ipex"))
		return;
	if (!rule_need(x->c, b->prefix, "cpu_only", co) || !snap_bool(co, &cpu) || !cpu)
		return;
	if (x->gpus > 0)
		f = rule_finding(x->c, GPUENV_SEVERITY_ERROR, b->prefix,
				 "%s in %s is a CPU-only build on a machine with %zu GPU(s): it "
				 "never uses them (%s)",
				 b->label, b->prefix, x->gpus,
				 b->kind == FW_TORCH ? "torch.cuda.is_available() is False"
				 : b->kind == FW_TENSORFLOW
					 ? "tf.config.list_physical_devices('GPU') is empty"
					 : "jax.devices() lists only the CPU");
	else
		f = rule_finding(
			x->c, GPUENV_SEVERITY_INFO, b->prefix,
			"%s in %s is a CPU-only build; %s, so that is all it could use here",
			b->label, b->prefix,
			snap_present(snap_get(x->root, "hardware.pci_devices"))
				? "there is no GPU on the PCI bus"
				: "no GPU was seen (the PCI bus could not be read)");
	snprintf(key, sizeof(key), "%s.cpu_only", b->key);
	finding_fact(f, key, co);
	if (x->gpus > 0 && x->listed_by) {
		snprintf(key, sizeof(key), "%s.0.name", x->listed_by);
		finding_fact(f, key, snap_get(x->root, key));
	}
	if (b->kind == FW_TORCH) {
		snprintf(key, sizeof(key), "%s.cuda", b->key);
		finding_fact(f, key, snap_child(b->pkg, "cuda"));
		snprintf(key, sizeof(key), "%s.hip", b->key);
		finding_fact(f, key, snap_child(b->pkg, "hip"));
	}
	if (distro) {
		snprintf(key, sizeof(key), "%s.distro_package.version", b->key);
		finding_fact(f, key, snap_get(b->pkg, "distro_package.version"));
	}
	if (x->gpus == 0) {
		finding_verify(f, "python3 -c 'import %s'", fw_module(b));
		return;
	}
	if (distro)
		finding_fix(f, "# the distribution's package is built without CUDA: install a GPU "
			       "build in a virtual environment instead (python3 -m venv …)");
	switch (b->kind) {
	case FW_TORCH: {
		const char *drv = NULL;
		const struct snap_node *df;

		if (nvidia_driver(x->root, &drv, &df) != DRIVER_LOADED)
			drv = NULL;
		torch_index_fix(f, b, drv);
	} break;
	case FW_TENSORFLOW:
		finding_fix(f, "%s install 'tensorflow[and-cuda]'", b->pip);
		break;
	case FW_JAX:
	case FW_JAX_PLUGIN:
		finding_fix(f, "%s install -U 'jax[cuda12]'   # or jax[cuda13]", b->pip);
		break;
	}
	finding_rule_verify(f);
}

RULE_CHECK(check_cpu_only_build)
{
	static const char *const lists[] = { "driver.nvml.devices", "driver.cuda.devices" };
	const struct snap_node *pci = snap_get(root, "hardware.pci_devices");
	struct cpu_ctx x = { c, root,
			     gpus_count(root, gpu_is_nvidia) + gpus_count(root, gpu_is_amd), NULL };

	/* The PCI bus not read (pasted text seldom holds all of lspci): a GPU that nvidia-smi,
	 * NVML or collect_env's "GPU models" lists is one all the same, and the finding names
	 * that list; with none listed the bus must say whether there is a GPU. */
	if (!snap_present(pci)) {
		for (size_t i = 0; i < ARRAY_SIZE(lists) && !x.listed_by; i++)
			if (snap_count(snap_get(root, lists[i])) > 0) {
				x.gpus = snap_count(snap_get(root, lists[i]));
				x.listed_by = lists[i];
			}
		if (!x.listed_by && !rule_need_known(c, NULL, "hardware.pci_devices", pci))
			return;
	}
	fw_need_complete(c, root);
	fw_foreach(root, cpu_only_one, &x);
}

/* ---- framework.cuda-newer-than-driver --------------------------------------------------- */

/*
 * The CUDA a build runs with: the build's own ("12.4"; a JAX plugin names only its major), or
 * the environment's nvidia-cuda-runtime wheel when that is newer within the same major (pip
 * can upgrade it under the framework; it is the libcudart that loads). ret_wheel: the wheel
 * when it decided.
 */
static bool fw_runtime_cuda(const struct fw_build *b, char *buf, size_t len,
			    const struct snap_node **ret_fact, const struct snap_node **ret_wheel)
{
	const struct snap_node *w = fw_runtime_wheel(b);
	const char *wv = snap_get_str(w, "version");
	unsigned fma = 0, fmi = 0, wma, wmi;
	bool have = fw_cuda_version(b, buf, len, ret_fact);
	bool full = have && cuda_major_minor(buf, &fma, &fmi);

	*ret_wheel = NULL;
	if (!have)
		return false;
	if (!full && parse_uint(buf, 10, &fma) < 0)
		return false;
	if (wv && cuda_major_minor(wv, &wma, &wmi) && wma == fma && (!full || wmi > fmi)) {
		snprintf(buf, len, "%u.%u", wma, wmi);
		*ret_wheel = w;
		return true;
	}
	return full;
}

/* The facts fw_runtime_cuda() read: the build's own CUDA field (cf) and the wheel (or NULLs). */
static void fw_cuda_evidence(struct finding *f, const struct fw_build *b,
			     const struct snap_node *cf, const struct snap_node *wheel)
{
	char key[192];

	if (cf) {
		snprintf(key, sizeof(key), "%s.%s", b->key,
			 b->kind == FW_TORCH	    ? "cuda"
			 : b->kind == FW_TENSORFLOW ? "build_info.cuda_version"
						    : "major");
		finding_fact(f, key, cf);
	}
	if (wheel)
		finding_evidence(f, "nvidia-cuda-runtime wheel",
				 snap_source(snap_child(wheel, "version")) ?: "?", "%s %s",
				 snap_get_str(wheel, "name") ?: "?",
				 snap_get_str(wheel, "version") ?: "?");
}

struct newer_ctx {
	struct rule_ctx *c;
	const struct snap_node *root, *drv_fact;
	const char *drv;
	bool windows; /* drv is a Windows driver's (windows_driver()): Windows floors only */
};

/* A Windows driver too old for a build's CUDA: judged on the Windows column of NVIDIA's
 * Table 3 (docs/compatibility.md) only. What it supports is said where nvidia-smi's header
 * says it ("CUDA Version: 10.2", cuDriverGetVersion's answer); its branch is not judged: the
 * driver_branches table numbers Linux releases, and no public table maps a Windows release
 * such as 441.66 to its branch. */
static void newer_one_windows(const struct fw_build *b, struct newer_ctx *x,
			      const struct cuda_req *req, enum link_state st,
			      const struct snap_node *cf, const struct snap_node *wheel)
{
	const struct snap_node *hdr = snap_get(x->root, "driver.nvml.cuda_driver_version");
	const char *sup = snap_present(hdr) ? snap_str(hdr) : NULL;
	unsigned sma = 0, smi = 0;
	char need[320], floor[128], says[256] = "", found[48] = "";
	struct finding *f;

	cuda_req_describe(req, need, sizeof(need));
	windows_driver_origin(x->root, x->drv_fact, says, sizeof(says));
	if (sup && cuda_major_minor(sup, &sma, &smi)) {
		snprintf(says, sizeof(says), ", which nvidia-smi says supports CUDA %u.%u", sma,
			 smi);
		/* torch prints cudaDriverGetVersion()'s number: 1000 * major + 10 * minor */
		snprintf(found, sizeof(found), " (found version %u)\")", sma * 1000 + smi * 10);
	}
	if (st == LINK_DEGRADED)
		f = rule_finding(x->c, GPUENV_SEVERITY_WARNING, b->prefix,
				 "%s in %s runs CUDA %u.%u, which needs Windows driver %s; the "
				 "Windows driver %s%s runs it only through minor-version "
				 "compatibility (CUDA %u.x on >= %s%s): a limited feature set, and "
				 "any PTX this build must JIT fails with "
				 "CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)",
				 b->label, b->prefix, req->major, req->minor, need, x->drv, says,
				 req->major, cuda_req_mc_floor(req, floor, sizeof(floor)),
				 cuda_req_mc_note(req));
	else
		f = rule_finding(x->c, GPUENV_SEVERITY_ERROR, b->prefix,
				 "%s in %s runs CUDA %u.%u, which needs Windows driver %s; the "
				 "Windows driver %s%s is older: \"CUDA driver version is "
				 "insufficient for CUDA runtime version\"%s%s",
				 b->label, b->prefix, req->major, req->minor, need, x->drv, says,
				 b->kind == FW_TORCH && found[0]
					 ? "; torch.cuda.is_available() is False (\"The NVIDIA "
					   "driver on your system is too old"
					 : "",
				 b->kind == FW_TORCH ? found : "");
	fw_cuda_evidence(f, b, cf, wheel);
	windows_driver_facts(f, x->root, x->drv_fact);
	if (sup)
		finding_fact(f, "driver.nvml.cuda_driver_version", hdr);
	finding_evidence(f, "facts.cuda_driver_min", req->first->source, "%s: >= %s",
			 req->first->toolkit_label,
			 cuda_req_floor(req, req->first, floor, sizeof(floor)));
	/* pytorch_wheels' driver minimums are Linux's: the published variants, not a pick */
	if (b->kind == FW_TORCH)
		torch_index_fix(f, b, NULL);
	finding_fix(f, "# or install the Windows driver %s or newer (gpuenv facts cuda %u.%u)",
		    cuda_req_floor(req, req->newest, floor, sizeof(floor)), req->major, req->minor);
	finding_rule_verify(f);
}

static void newer_one(const struct fw_build *b, void *u)
{
	struct newer_ctx *x = u;
	const struct snap_node *cf = NULL, *wheel = NULL;
	struct facts_driver_cuda dc;
	enum link_state st;
	struct cuda_req req;
	struct finding *f;
	char cuda[32], need[320], found[16] = "?", supports[160], floor[128];
	const char *sup;
	unsigned rma, rmi, branch = 0;
	bool have_dc;

	if (!fw_runtime_cuda(b, cuda, sizeof(cuda), &cf, &wheel)) {
		/* The build's CUDA version could not be read (its package directory or version
		 * file unreadable): it may be the one the driver cannot run. */
		if (cf && fact_is_failure(snap_state(cf)))
			rule_need(x->c, b->prefix, "the build's CUDA version", cf);
		else if (b->kind == FW_JAX_PLUGIN && fw_cuda_version(b, cuda, sizeof(cuda), NULL))
			rule_skip(x->c, b->prefix,
				  "%s: only its CUDA major (%s) is known and no "
				  "nvidia-cuda-runtime wheel says the minor",
				  b->label, cuda);
		return;
	}
	if (cuda_requirement(x->root, cuda, &req) < 0) {
		rule_skip(x->c, b->prefix,
			  "%s: CUDA %s has no confirmed minimum driver in the "
			  "knowledge base",
			  b->label, cuda);
		return;
	}
	if (x->windows) {
		st = cuda_driver_judge_windows(&req, x->drv);
		if (st == LINK_UNKNOWN)
			rule_skip(x->c, b->prefix,
				  "%s: CUDA %s has no Windows minimum driver in the knowledge "
				  "base (the Linux one does not apply to Windows driver %s)",
				  b->label, cuda, x->drv);
		else if (st != LINK_OK)
			newer_one_windows(b, x, &req, st, cf, wheel);
		return;
	}
	st = cuda_driver_judge(&req, x->drv);
	if (st == LINK_OK)
		return;
	cuda_req_describe(&req, need, sizeof(need));
	sup = driver_cuda_text(x->drv, &branch, supports, sizeof(supports));
	have_dc = facts_cuda_newest_for_driver(x->drv, &dc) == 0;
	if (have_dc && !dc.lower_bound && cuda_major_minor(dc.cuda, &rma, &rmi))
		snprintf(found, sizeof(found), "%u%03u", rma, rmi * 10);
	if (st == LINK_DEGRADED)
		f = rule_finding(x->c, GPUENV_SEVERITY_WARNING, b->prefix,
				 "%s in %s runs CUDA %u.%u, which needs driver %s; %s runs it only "
				 "through minor-version compatibility (CUDA %u.x on >= %s%s): a "
				 "limited feature set, and any PTX this build must JIT fails with "
				 "CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)",
				 b->label, b->prefix, req.major, req.minor, need, x->drv, req.major,
				 cuda_req_mc_floor(&req, floor, sizeof(floor)),
				 cuda_req_mc_note(&req));
	else
		f = rule_finding(
			x->c, GPUENV_SEVERITY_ERROR, b->prefix,
			"%s in %s runs CUDA %u.%u, which needs driver %s; the loaded driver "
			"%s (R%u) %s: \"CUDA driver version is insufficient for CUDA runtime "
			"version\"%s%s%s",
			b->label, b->prefix, req.major, req.minor, need, x->drv, branch,
			sup ?: "supports a CUDA that could not be told",
			b->kind == FW_TORCH ? "; torch.cuda.is_available() is False (\"The "
					      "NVIDIA driver on your system is too old (found "
					      "version "
					    : "",
			b->kind == FW_TORCH ? found : "", b->kind == FW_TORCH ? ")\")" : "");
	fw_cuda_evidence(f, b, cf, wheel);
	finding_fact(f, driver_fact_key(x->root, x->drv_fact), x->drv_fact);
	finding_evidence(f, "facts.cuda_driver_min", req.first->source, "%s: >= %s",
			 req.first->toolkit_label,
			 cuda_req_floor(&req, req.first, floor, sizeof(floor)));
	if (have_dc)
		finding_evidence(f, "facts.driver_branches.cuda_version_reported", dc.row->source,
				 "R%u: %s%s", dc.row->branch, dc.cuda,
				 dc.lower_bound ? " (a lower bound for this driver)" : "");
	if (b->kind == FW_TORCH)
		torch_index_fix(f, b, x->drv);
	finding_fix(f, "# or install driver %s or newer (gpuenv facts cuda %u.%u)",
		    cuda_req_floor(&req, req.newest, floor, sizeof(floor)), req.major, req.minor);
	finding_rule_verify(f);
}

RULE_CHECK(check_fw_cuda_newer_than_driver)
{
	struct newer_ctx x = { c, root, NULL, NULL, false };

	fw_need_complete(c, root);
	switch (nvidia_driver(root, &x.drv, &x.drv_fact)) {
	case DRIVER_NONE:
		return; /* nothing runs CUDA here: the driver rules say why */
	case DRIVER_UNKNOWN:
		/* a paste from Windows or WSL2 names the Windows driver: its own floors */
		if (windows_driver(root, &x.drv, &x.drv_fact)) {
			x.windows = true;
			fw_foreach(root, newer_one, &x);
			return;
		}
		if (fw_foreach(root, NULL, NULL) > 0)
			rule_need(c, NULL, "the NVIDIA driver version", x.drv_fact);
		return;
	case DRIVER_ELSEWHERE:
		if (fw_foreach(root, NULL, NULL) > 0)
			rule_skip_elsewhere(c, "the NVIDIA driver version",
					    driver_lives_elsewhere(root));
		return;
	case DRIVER_LOADED:
		break;
	}
	/* a working forward-compatibility libcuda runs the newer CUDA (its version judged) */
	x.drv = cuda_driver_effective(root, x.drv);
	fw_foreach(root, newer_one, &x);
}

/* ---- framework.system-toolkit-irrelevant ------------------------------------------------ */

/* Does the build bring its own CUDA runtime (pip wheels, or copies bundled in its lib dir)? */
static bool fw_own_runtime(const struct fw_build *b)
{
	const struct snap_node *loads = snap_child(b->pkg, "loads");

	if (b->kind == FW_JAX_PLUGIN)
		return true;
	for (size_t i = 0; i < snap_count(loads); i++)
		if (startswith(snap_key(snap_at(loads, i)) ?: "", "libcudart") &&
		    snap_get_bool_default(snap_at(loads, i), "from_wheel", false))
			return true;
	return snap_count(snap_child(b->pkg, "cuda_libraries_bundled")) > 0 ||
	       snap_count(snap_child(b->pkg, "requires_nvidia")) > 0;
}

struct irrelevant_ctx {
	struct rule_ctx *c;
	const struct snap_node *tk;
	const char *why, *tv;
};

static void irrelevant_one(const struct fw_build *b, void *u)
{
	struct irrelevant_ctx *x = u;
	const struct snap_node *cf = NULL, *wheel = NULL;
	unsigned fma, fmi, tma, tmi;
	struct finding *f;
	char cuda[32];

	if (!fw_runtime_cuda(b, cuda, sizeof(cuda), &cf, &wheel) || !fw_own_runtime(b) ||
	    !cuda_major_minor(cuda, &fma, &fmi) || !cuda_major_minor(x->tv, &tma, &tmi) ||
	    (fma == tma && fmi == tmi))
		return;
	f = rule_finding(
		x->c, GPUENV_SEVERITY_INFO, b->prefix,
		"the system CUDA toolkit (%s: CUDA %s at %s) is not what %s in %s runs: "
		"it brings its own CUDA %u.%u runtime from pip wheels; nvcc --version says "
		"nothing about the framework. The toolkit matters only for compiling "
		"extensions against it%s",
		x->why, x->tv, snap_get_str(x->tk, "resolved_path") ?: "?", b->label, b->prefix,
		fma, fmi,
		fma != tma ? " (torch.utils.cpp_extension refuses a different CUDA major)" : "");
	finding_fact(f, "runtime.cuda_toolkits[].version", snap_child(x->tk, "version"));
	fw_cuda_evidence(f, b, cf, wheel);
	finding_fix(f,
		    "# nothing to fix for running %s; to build CUDA extensions, use a CUDA "
		    "%u.%u toolkit (CUDA_HOME=<it>) or the nvidia-cuda-nvcc-cu%u wheel",
		    fw_module(b), fma, fmi, fma);
	finding_verify(f, "%s -c 'import %s; print(%s)'", b->python, fw_module(b),
		       b->kind == FW_TORCH	  ? "torch.version.cuda"
		       : b->kind == FW_TENSORFLOW ? "tensorflow.sysconfig.get_build_info()"
						  : "jax.print_environment_info()");
}

RULE_CHECK(check_fw_system_toolkit_irrelevant)
{
	struct irrelevant_ctx x = { c, NULL, NULL, NULL };

	fw_need_complete(c, root);
	x.tk = chosen_toolkit(root, &x.why);
	x.tv = snap_get_str(x.tk, "version");
	if (!x.tk || !x.tv)
		return;
	fw_foreach(root, irrelevant_one, &x);
}

/* ---- framework.rocm-gfx-unsupported ------------------------------------------------------ */

/* The ROCm release a build was made for: torch's "+rocm6.2" label, else the HIP version's
 * major.minor (HIP 6.2.41133 ships with ROCm 6.2). */
static bool fw_rocm_release(const struct fw_build *b, char *buf, size_t len)
{
	const char *lv = snap_get_str(b->pkg, "local_version");
	unsigned ma, mi;

	if (lv && startswith(lv, "rocm") && cuda_major_minor(lv + 4, &ma, &mi)) {
		snprintf(buf, len, "%s", lv + 4);
		return true;
	}
	if (cuda_major_minor(snap_str(fw_hip_version(b)), &ma, &mi)) {
		snprintf(buf, len, "%u.%u", ma, mi);
		return true;
	}
	return false;
}

struct gfx_ctx {
	struct rule_ctx *c;
	const struct snap_node *root, *kfd, *override;
};

/* The override users set for this GPU, from the knowledge base only (hsa_override.tsv), and
 * only when the build holds the code it makes ROCm load; AMD does not support it. */
void amd_gfx_override_fix(struct finding *f, const struct snap_node *targets, const char *gfx)
{
	const struct facts_hsa_override *o;

	if (facts_hsa_override(gfx, &o) < 0 || !o->override ||
	    !amd_targets_have_gfx(targets, o->runs_as))
		return;
	finding_fix(
		f,
		"export HSA_OVERRIDE_GFX_VERSION=%s   # NOT supported by AMD: ROCm then runs the "
		"%s code on this %s GPU, which may crash, hang or compute wrong results%s",
		o->override, o->runs_as, gfx,
		facts_unconfirmed(o->confidence) ? " (value unconfirmed)" : "");
	finding_evidence(f, "facts.hsa_override", o->source, "%s (%s): %s runs as %s", gfx,
			 o->family, o->override, o->runs_as);
}

/* The build has code for another GPU of the machine (an iGPU beside a supported discrete GPU):
 * hiding the GPU without code is the fix AMD gives (ROCm/legacy-rocm-build#3401,
 * HIP_VISIBLE_DEVICES). Offered only where no selection variable is set yet, so that HIP's
 * count is KFD's GPU nodes in order, from 0. */
static void hide_fix(struct finding *f, const struct gfx_ctx *x, const struct snap_node *targets)
{
	static const char *const vars[] = { "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
					    "CUDA_VISIBLE_DEVICES" };
	const struct snap_node *env = snap_get(x->root, "environment");
	struct strbuf keep = STRBUF_INIT, names = STRBUF_INIT;
	size_t idx = 0;

	for (size_t i = 0; i < ARRAY_SIZE(vars); i++)
		if (snap_present(snap_child(env, vars[i])))
			return;
	for (size_t k = 0; k < snap_count(x->kfd); k++) {
		const char *gfx = snap_get_str(snap_at(x->kfd, k), "gfx");

		if (!gfx)
			continue;
		if (amd_targets_have_gfx(targets, gfx)) {
			strbuf_printf(&keep, "%s%zu", keep.len ? "," : "", idx);
			strbuf_printf(&names, "%s%s", names.len ? ", " : "", gfx);
		}
		idx++;
	}
	if (keep.len)
		finding_fix(f,
			    "export HIP_VISIBLE_DEVICES=%s   # only the GPU(s) the build has code "
			    "for (%s): HIP counts the GPUs KFD lists from 0, as rocminfo's GPU "
			    "agents",
			    strbuf_str(&keep), strbuf_str(&names));
	strbuf_done(&keep);
	strbuf_done(&names);
}

static void gfx_one(const struct fw_build *b, void *u)
{
	struct gfx_ctx *x = u;
	const struct snap_node *hip = fw_hip_version(b), *tn;
	struct strbuf list = STRBUF_INIT;
	char rocm[32] = "", ovr[32] = "";
	bool from_bi, have_rocm, have_list = false, have_ovr;

	if (!snap_str(hip))
		return;
	have_rocm = fw_rocm_release(b, rocm, sizeof(rocm));
	have_ovr = amd_gfx_of_override(snap_str(x->override), ovr, sizeof(ovr));
	tn = fw_targets(b, &from_bi);
	for (size_t i = 0; snap_kind(tn) == SNAP_ARRAY && i < snap_count(tn); i++) {
		const char *g = snap_get_str(snap_at(tn, i), "gfx");

		if (g) {
			strbuf_printf(&list, "%s%s", have_list ? " " : "", g);
			have_list = true;
		}
	}
	for (size_t k = 0; k < snap_count(x->kfd); k++) {
		const char *gfx = amd_kfd_gfx_once(x->root, x->kfd, k), *conf = NULL;
		const char *eff = have_ovr ? ovr : gfx;
		bool in_build, in_rocm;
		struct finding *f;
		char key[192];
		int sup = -ENODATA;

		if (!gfx)
			continue;
		in_build = !have_list || amd_targets_have_gfx(tn, eff);
		if (have_rocm)
			sup = facts_rocm_supports_gfx(rocm, gfx, &conf);
		in_rocm = sup != 0;
		if (in_build && in_rocm && !have_ovr)
			continue;
		if (!in_build)
			f = rule_finding(
				x->c, GPUENV_SEVERITY_ERROR, b->prefix,
				"%s in %s has GPU code for %s; the GPU is %s%s%s%s: \"HIP error: "
				"invalid device function\"",
				b->label, b->prefix, strbuf_str(&list), gfx,
				have_ovr ? " (HSA_OVERRIDE_GFX_VERSION makes it " : "",
				have_ovr ? ovr : "", have_ovr ? ", not in the list either)" : "");
		else if (have_ovr)
			f = rule_finding(
				x->c, GPUENV_SEVERITY_WARNING, b->prefix,
				"HSA_OVERRIDE_GFX_VERSION=%s makes ROCm treat the %s GPU as %s "
				"for %s in %s: an override, not support — kernels built for %s "
				"may crash the GPU or compute wrong results on %s",
				snap_str(x->override), gfx, ovr, b->label, b->prefix, ovr, gfx);
		else
			f = rule_finding(
				x->c, GPUENV_SEVERITY_WARNING, b->prefix,
				"%s in %s (ROCm %s) runs on a %s GPU, which ROCm %s does not list "
				"as supported%s: it may work, but is untested",
				b->label, b->prefix, rocm, gfx, rocm,
				facts_unconfirmed(conf) ? " (the release row is unconfirmed)" : "");
		snprintf(key, sizeof(key), "driver.amdgpu.kfd_nodes.%zu.gfx", k);
		finding_fact(f, key, snap_child(snap_at(x->kfd, k), "gfx"));
		snprintf(key, sizeof(key), "%s.hip", b->key);
		finding_fact(f, key, hip);
		if (have_list) {
			snprintf(key, sizeof(key), "%s.arch_targets", b->key);
			finding_evidence(f, key,
					 snap_source(snap_child(snap_at(tn, 0), "gfx")) ?: "?",
					 "%s", strbuf_str(&list));
		}
		if (have_rocm && sup >= 0) {
			const struct facts_rocm *r;

			if (facts_rocm_release(rocm, &r) == 0)
				finding_evidence(f, "facts.rocm.gfx_targets", r->source,
						 "ROCm %s: %s", r->as_listed,
						 r->gfx_targets ?: "?");
		}
		if (have_ovr) {
			const struct facts_hsa_override *o;

			finding_fact(f, "environment.HSA_OVERRIDE_GFX_VERSION", x->override);
			if (facts_hsa_override(gfx, &o) == 0 && o->override &&
			    !streq(o->override, snap_str(x->override) ?: ""))
				finding_evidence(f, "facts.hsa_override", o->source,
						 "the value reported for %s is %s (runs as %s)",
						 gfx, o->override, o->runs_as);
		}
		if (!in_build && !have_ovr)
			hide_fix(f, x, tn);
		finding_fix(f,
			    "# use a GPU that ROCm %s supports, or a %s build whose "
			    "PYTORCH_ROCM_ARCH includes %s (a source build)",
			    have_rocm ? rocm : "", fw_module(b), gfx);
		if (have_ovr)
			finding_fix(f,
				    "unset HSA_OVERRIDE_GFX_VERSION   # once a build supports %s",
				    gfx);
		else if (!in_build)
			amd_gfx_override_fix(f, tn, gfx);
		finding_rule_verify(f);
	}
	strbuf_done(&list);
}

RULE_CHECK(check_fw_rocm_gfx_unsupported)
{
	struct gfx_ctx x = { c, root, snap_get(root, "driver.amdgpu.kfd_nodes"),
			     snap_get(root, "environment.HSA_OVERRIDE_GFX_VERSION") };

	fw_need_complete(c, root);
	if (gpus_count(root, gpu_is_amd) == 0 && snap_count(x.kfd) == 0)
		return;
	if (snap_kind(x.kfd) != SNAP_ARRAY) {
		rule_need(c, NULL, "driver.amdgpu.kfd_nodes", x.kfd);
		return;
	}
	fw_foreach(root, gfx_one, &x);
	amd_check_target_features(c, root);
}
