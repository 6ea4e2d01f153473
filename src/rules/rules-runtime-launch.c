// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The active check's findings (`gpuenv doctor --launch`, src/vendor/cuda-launch.c): whether
 * gpuenv's probe kernel ran on each GPU (driver.cuda.launch, driver.cuda.devices[].launch:
 * docs/snapshot-schema.md), and whether that agrees with what the static rules predicted.
 * The launch is the ground truth: a prediction it contradicts is said to be wrong here.
 *
 * runtime.kernel-launch-failed: an image failed on a GPU, naming the CUDA error and the call
 * that returned it. The SASS image carries sm_75 … sm_120 only, so CUDA_ERROR_NO_BINARY_FOR_GPU
 * on a GPU of another architecture is expected (the GPU is then judged by the PTX image).
 * runtime.launch-contradicts-prediction runs after every other rule (rule.late) and compares.
 * Error names and texts: cuda.h (CUDA 13.0), "CUresult".
 */
#include <inttypes.h>
#include <stdio.h>

#include "rules/rules-internal.h"
#include "shared/strbuf.h"

/* Whether the SASS image carries code a GPU of compute capability major.minor runs: its
 * architectures are listed in driver.cuda.launch ("SASS sm_75, sm_80, …; PTX …", written by
 * the child from the image it loads), and SASS for sm_XY runs on sm_XZ with Z >= Y (CUDA C++
 * Programming Guide, "Binary Compatibility"). */
static bool sass_covers(const char *images, unsigned major, unsigned minor)
{
	const char *end = images ? strchr(images, ';') : NULL;

	for (const char *p = images; p && (p = strstr(p, "sm_")) && (!end || p < end); p += 3) {
		unsigned sm;

		if (sscanf(p, "sm_%u", &sm) == 1 && sm / 10 == major && sm % 10 <= minor)
			return true;
	}
	return false;
}

/* "CUDA_ERROR_NO_BINARY_FOR_GPU (209): …" → whether the failure names that error. */
static bool names(const struct snap_node *fact, const char *error)
{
	const char *e = snap_error(fact);

	return e && strstr(e, error);
}

/* The call of a failed image (its fact's source without the "cuda:" prefix). */
static const char *step(const struct snap_node *fact)
{
	const char *s = snap_source(fact);

	if (!s)
		return "?";
	return strncmp(s, "cuda:", 5) == 0 ? s + 5 : s;
}

struct launch_gpu {
	const struct snap_node *dev, *sass, *ptx;
	char label[160];
	bool sass_ok, ptx_ok;
	bool sass_expected; /* the SASS image failed only because it has no code for this GPU */
};

static bool image_ok(const struct snap_node *f)
{
	const char *v = snap_str(f);

	return v && streq(v, "ok");
}

static void launch_gpu_read(const struct snap_node *root, const struct snap_node *dev, size_t i,
			    struct launch_gpu *g)
{
	const char *images = snap_get_str(root, "driver.cuda.launch");
	const char *cc = snap_get_str(dev, "compute_capability");
	unsigned major = 0, minor = 0;

	g->dev = dev;
	g->sass = snap_get(dev, "launch.sass");
	g->ptx = snap_get(dev, "launch.ptx");
	g->sass_ok = image_ok(g->sass);
	g->ptx_ok = image_ok(g->ptx);
	g->sass_expected = !g->sass_ok && names(g->sass, "CUDA_ERROR_NO_BINARY_FOR_GPU") && cc &&
			   sscanf(cc, "%u.%u", &major, &minor) == 2 &&
			   !sass_covers(images, major, minor);
	snprintf(g->label, sizeof(g->label), "GPU %zu (%s, %s, compute capability %s)", i,
		 snap_get_str(dev, "pci_bus_id") ?: "bus unknown",
		 snap_get_str(dev, "name") ?: "name unknown", cc ?: "unknown");
}

static bool launch_failed(const struct launch_gpu *g)
{
	return !g->ptx_ok || !(g->sass_ok || g->sass_expected);
}

/* "failed at cuModuleLoadData: CUDA_ERROR_INVALID_PTX (218): …", or "did not run (…)". */
static void describe(const struct snap_node *f, char *buf, size_t len)
{
	if (!f)
		snprintf(buf, len, "never ran (the session ended before it)");
	else if (snap_state(f) == FACT_PRESENT)
		snprintf(buf, len, "%s", snap_str(f) ?: "?");
	else
		snprintf(buf, len, "failed at %s: %s", step(f), snap_error(f) ?: "no error text");
}

/* Fix lines for the CUDA error an image failed with. */
static void launch_fix(struct finding *f, const struct snap_node *fact)
{
	if (names(fact, "CUDA_ERROR_NO_BINARY_FOR_GPU"))
		finding_fix(f,
			    "# the driver cannot run SASS built for this GPU's own architecture: "
			    "install a driver branch that supports this GPU (gpuenv facts gpu)");
	else if (names(fact, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"))
		finding_fix(f, "# the driver's PTX JIT is older than PTX ISA 6.0 (CUDA 9.0): "
			       "install a current driver");
	else if (names(fact, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND") ||
		 names(fact, "CUDA_ERROR_INVALID_PTX"))
		finding_fix(f,
			    "# the PTX JIT (libnvidia-ptxjitcompiler.so.1) is missing or from "
			    "another driver version: reinstall the driver's user-space libraries; "
			    "in a container, NVIDIA_DRIVER_CAPABILITIES must include compute");
	else if (names(fact, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"))
		finding_fix(f,
			    "# libcuda.so.1 and the loaded kernel module are different driver "
			    "versions: reboot into the installed driver, or reinstall one version");
	else if (names(fact, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"))
		finding_fix(
			f,
			"# the CUDA forward-compatibility libcuda (cuda-compat) runs on data "
			"center GPUs only: take it off LD_LIBRARY_PATH / ld.so.conf for this GPU");
	else if (names(fact, "CUDA_ERROR_NO_DEVICE"))
		finding_fix(f, "# the driver sees no GPU this process may use: check "
			       "CUDA_VISIBLE_DEVICES and the /dev/nvidia* nodes");
	else if (names(fact, "timed out"))
		finding_fix(f, "# the GPU did not finish a trivial kernel: sudo dmesg -T | grep -i "
			       "xid; reset the GPU (sudo nvidia-smi -r -i <bus>) or reboot");
	else if (names(fact, "wrong result"))
		finding_fix(f, "# the GPU computed a wrong result: take it out of service and run "
			       "dcgmi diag -r 3 (https://docs.nvidia.com/datacenter/dcgm/latest/)");
}

static void launch_evidence(struct finding *f, size_t i, const struct launch_gpu *g)
{
	char name[96];

	snprintf(name, sizeof(name), "driver.cuda.devices.%zu.launch.sass", i);
	finding_fact(f, name, g->sass);
	snprintf(name, sizeof(name), "driver.cuda.devices.%zu.launch.ptx", i);
	finding_fact(f, name, g->ptx);
	snprintf(name, sizeof(name), "driver.cuda.devices.%zu.compute_capability", i);
	finding_fact(f, name, snap_child(g->dev, "compute_capability"));
}

/* The launch failed where every CUDA program would, at cuInit (its error, not a session that
 * ended before it: "not reached"). */
static bool init_failed(const struct snap_node *launch)
{
	const char *e = snap_error(launch);

	return launch && snap_state(launch) == FACT_ERROR && e && !strstr(e, "not reached");
}

/* The launch was asked for and reached the GPUs: their array, else NULL after the finding or
 * skip that says why not (cuInit failed: the launch failed where a CUDA program would). */
static const struct snap_node *launched_devices(struct rule_ctx *c, const struct snap_node *root,
						bool report)
{
	const struct snap_node *launch = snap_get(root, "driver.cuda.launch");
	const struct snap_node *devs = snap_get(root, "driver.cuda.devices");
	enum fact_state s = snap_state(launch);
	char why[300];

	if (!launch)
		return NULL; /* not asked for (doctor without --launch): nothing to judge */
	if (s == FACT_PRESENT)
		return devs;
	if (!report)
		return NULL;
	if (init_failed(launch)) {
		struct finding *f = rule_finding(c, GPUENV_SEVERITY_ERROR, "cuInit",
						 "the kernel launch failed before any GPU: %s "
						 "answered %s",
						 step(launch), snap_error(launch));

		finding_fact(f, "driver.cuda.launch", launch);
		launch_fix(f, launch);
		finding_rule_fix(f);
		finding_rule_verify(f);
		return NULL;
	}
	fact_describe(launch, why, sizeof(why));
	rule_skip(c, NULL, "the kernel launch did not run (driver.cuda.launch: %s)", why);
	return NULL;
}

/* ---- runtime.kernel-launch-failed -------------------------------------------------------- */

RULE_CHECK(check_kernel_launch_failed)
{
	const struct snap_node *devs = launched_devices(c, root, true);

	for (size_t i = 0; i < snap_count(devs); i++) {
		struct launch_gpu g;
		char sass[320], ptx[320];
		struct finding *f;

		launch_gpu_read(root, snap_at(devs, i), i, &g);
		if (!snap_get(g.dev, "launch")) {
			rule_skip(c, g.label, "no launch on this GPU (cuDeviceGet failed)");
			continue;
		}
		if (!launch_failed(&g))
			continue;
		describe(g.sass, sass, sizeof(sass));
		describe(g.ptx, ptx, sizeof(ptx));
		if (!g.ptx_ok && !g.sass_ok)
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, g.label,
				"no kernel runs on %s: the SASS image %s; the PTX image %s",
				g.label, sass, ptx);
		else if (!g.ptx_ok)
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, g.label,
				"PTX JIT fails on %s (the SASS image ran): the PTX image %s; "
				"programs that reach this GPU only through PTX fail",
				g.label, ptx);
		else
			f = rule_finding(c, GPUENV_SEVERITY_ERROR, g.label,
					 "the SASS image fails on %s (the PTX image ran): %s",
					 g.label, sass);
		launch_evidence(f, i, &g);
		launch_fix(f, g.sass_ok || g.sass_expected ? g.ptx : g.sass);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* ---- runtime.launch-contradicts-prediction ------------------------------------------------- */

/* Static rules whose error finding says no CUDA kernel can run here at all. */
static const char *const no_kernel_rules[] = {
	"hardware.gpu-lost",
	"driver.module-not-loaded",
	"driver.nouveau-bound",
	"driver.device-nodes-missing",
	"driver.nvml-version-mismatch",
	"driver.no-permission",
	"driver.branch-drops-gpu",
	"runtime.stub-libcuda",
	"runtime.cuda-compat-unsupported",
};

static bool predicts_no_kernel(const struct finding *f)
{
	if (f->severity != GPUENV_SEVERITY_ERROR)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(no_kernel_rules); i++)
		if (streq(f->rule->id, no_kernel_rules[i]))
			return true;
	return false;
}

/* The earlier findings' rule ids that satisfy pred, ", "-separated (each once), and how many. */
static size_t predictions(const struct gpuenv_doctor *d, bool (*pred)(const struct finding *),
			  char *buf, size_t len)
{
	size_t n = 0, off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->n_findings; i++) {
		const struct finding *f = &d->findings[i];

		if (!pred(f) || strstr(buf, f->rule->id))
			continue;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s", n ? ", " : "",
					f->rule->id);
		n++;
	}
	return n;
}

static bool is_jit_only(const struct finding *f)
{
	return streq(f->rule->id, "framework.ptx-jit-only");
}

RULE_CHECK(check_launch_contradicts_prediction)
{
	const struct gpuenv_doctor *d = rule_diagnosis(c);
	const struct snap_node *devs = launched_devices(c, root, false);
	char none[512], jit[256];
	size_t n_none = predictions(d, predicts_no_kernel, none, sizeof(none));
	size_t n_jit = predictions(d, is_jit_only, jit, sizeof(jit));
	const struct snap_node *launch = snap_get(root, "driver.cuda.launch");

	/* Failed at cuInit, before any GPU: predicted or not. */
	if (init_failed(launch) && !n_none) {
		struct finding *f =
			rule_finding(c, GPUENV_SEVERITY_WARNING, "cuInit",
				     "no static check predicted that CUDA cannot start "
				     "here, yet cuInit failed (see "
				     "runtime.kernel-launch-failed): the launch is the ground "
				     "truth; gpuenv's static knowledge misses this case");

		finding_fact(f, "driver.cuda.launch", launch);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
	for (size_t i = 0; i < snap_count(devs); i++) {
		struct launch_gpu g;
		struct finding *f;

		launch_gpu_read(root, snap_at(devs, i), i, &g);
		if (!snap_get(g.dev, "launch"))
			continue;
		if (!launch_failed(&g) && n_none) {
			f = rule_finding(
				c, GPUENV_SEVERITY_WARNING, g.label,
				"%s predicted that no CUDA kernel can run here, yet gpuenv's "
				"probe kernel ran on %s (SASS %s, PTX %s): the launch is the "
				"ground truth, that prediction is wrong on this machine",
				none, g.label, g.sass_ok ? "ok" : "not for this GPU", "ok");
		} else if (launch_failed(&g) && !n_none) {
			f = rule_finding(
				c, GPUENV_SEVERITY_WARNING, g.label,
				"no static check predicted that kernels fail on %s, yet the "
				"launch failed (see runtime.kernel-launch-failed): the launch is "
				"the ground truth; gpuenv's static knowledge misses this case",
				g.label);
		} else if (!g.ptx_ok && n_jit) {
			f = rule_finding(
				c, GPUENV_SEVERITY_WARNING, g.label,
				"%s judged that a framework reaches its GPU through PTX JIT, "
				"but the PTX JIT failed on %s: that framework fails too",
				jit, g.label);
		} else {
			continue;
		}
		launch_evidence(f, i, &g);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* ---- the runtime layer's key facts: one "kernel launch" line per GPU ---------------------- */

static void image_text(struct strbuf *sb, const char *what, const struct snap_node *f,
		       const struct snap_node *ms)
{
	int64_t v;

	if (!f)
		strbuf_printf(sb, "%s never ran", what);
	else if (snap_state(f) == FACT_PRESENT)
		strbuf_printf(sb, "%s %s", what, snap_str(f) ?: "?");
	else
		strbuf_printf(sb, "%s failed at %s: %s", what, step(f), snap_error(f) ?: "?");
	if (snap_int(ms, &v))
		strbuf_printf(sb, " (%" PRId64 " ms)", v);
}

void launch_summarize(struct gpuenv_doctor *d, const struct snap_node *root)
{
	const struct snap_node *launch = snap_get(root, "driver.cuda.launch");
	const struct snap_node *devs = snap_get(root, "driver.cuda.devices");

	if (!launch)
		return;
	if (snap_state(launch) != FACT_PRESENT) {
		char why[300];

		fact_describe(launch, why, sizeof(why));
		diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "kernel launch", "driver.cuda.launch",
				   "not run: %s", why);
		return;
	}
	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *dev = snap_at(devs, i);
		const struct snap_node *l = snap_child(dev, "launch");
		struct strbuf sb = STRBUF_INIT;
		_cleanup_free_ char *text = NULL;
		struct launch_gpu g;
		char source[64];

		if (!l)
			continue;
		launch_gpu_read(root, dev, i, &g);
		strbuf_printf(&sb, "%s: %s · ", g.label, launch_failed(&g) ? "FAILED" : "ok");
		image_text(&sb, "SASS", g.sass, snap_child(l, "sass_ms"));
		strbuf_puts(&sb, " · ");
		image_text(&sb, "PTX", g.ptx, snap_child(l, "ptx_ms"));
		if (strbuf_steal(&sb, &text) < 0) {
			strbuf_done(&sb);
			continue;
		}
		snprintf(source, sizeof(source), "driver.cuda.devices.%zu.launch", i);
		diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "kernel launch", source, "%s", text);
	}
}
