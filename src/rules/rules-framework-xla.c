// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * framework.xla-toolchain-missing: a CUDA jax or TensorFlow whose XLA finds no libdevice or no
 * ptxas (packages.{jax,tensorflow}.xla, src/probe/framework-xla.c says where XLA looks and
 * why). TensorFlow embeds the same XLA and prints the same errors (tensorflow/tensorflow#58681,
 * iot-salzburg/gpu-jupyter#129); from 2.11 on Keras compiles its optimizers' steps with XLA
 * (jit_compile=True, the 2.11 release notes), so model.fit fails: older releases use XLA only
 * where the program asks (tf.function(jit_compile=True)) and are not judged. XLA compiles
 * every program at run time: without libdevice.10.bc a kernel that calls a math routine fails
 * ("libdevice not found at ./libdevice.10.bc", jax-ml/jax#6323, #22590), without ptxas the
 * PTX is not assembled ("Couldn't get ptxas version string", "Failed to launch ptxas",
 * jax-ml/jax#7239; since 2023 "Couldn't find a suitable version of ptxas", XLA's fall-back to
 * the driver's compiler being off unless --xla_gpu_unsafe_fallback_to_driver_on_ptxas_not_found
 * is given). Both come from the nvidia-cuda-nvcc-cu12 wheel that `jax[cuda12]` installs, or
 * from a toolkit's nvcc component in a place XLA searches; XLA_FLAGS=--xla_gpu_cuda_data_dir
 * names any other toolkit. TensorFlow's nvcc wheel comes with `tensorflow[and-cuda]` (2.14 on).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/macro.h"
#include "shared/parse.h"

/* A jax plugin's CUDA major (jax-cuda12-plugin → 12), 0 when it has none. */
static int64_t cuda_plugin_major(const struct snap_node *jax)
{
	const struct snap_node *pl = snap_child(jax, "plugins");

	for (size_t i = 0; i < snap_count(pl); i++) {
		const struct snap_node *p = snap_at(pl, i);
		int64_t major;

		if (streq(snap_get_str(p, "platform") ?: "", "cuda") &&
		    snap_get_int(p, "major", &major))
			return major;
	}
	return 0;
}

/* The frameworks whose XLA is judged: their key under packages and the name said. */
static const struct xla_fw {
	const char *key, *name;
} xla_fws[] = { { "jax", "jax" }, { "tensorflow", "TensorFlow" } };

/* The XLA facts of fw in env to judge, or NULL: TensorFlow before 2.11 (XLA only where a
 * program asks for it) is skipped, as one whose release is unknown. */
static const struct snap_node *fw_xla(struct rule_ctx *c, const struct snap_node *env,
				      const struct xla_fw *fw)
{
	const struct snap_node *pkg = snap_child(snap_child(env, "packages"), fw->key);
	const struct snap_node *x = snap_child(pkg, "xla");
	const char *v;

	if (!x || streq(fw->key, "jax"))
		return x;
	v = snap_get_str(pkg, "dist_version") ?: snap_get_str(pkg, "version");
	if (!v)
		rule_skip(c, snap_get_str(env, "prefix") ?: "?",
			  "TensorFlow of an unknown release: whether Keras compiles with XLA by "
			  "default (2.11 on) is unknown");
	else if (version_cmp_str(v, "2.11") < 0)
		rule_skip(c, snap_get_str(env, "prefix") ?: "?",
			  "TensorFlow %s: before 2.11 XLA compiles only what a program asks it to "
			  "(jit_compile=True)",
			  v);
	else
		return x;
	return NULL;
}

/* The CUDA major of fw's GPU build: a jax plugin's (jax-cuda12-plugin → 12), TensorFlow's
 * build_info cuda_version; 0 when none says. */
static int64_t fw_cuda_major(const struct snap_node *pkg, const struct xla_fw *fw)
{
	unsigned ma, mi;

	if (streq(fw->key, "jax"))
		return cuda_plugin_major(pkg);
	return cuda_major_minor(snap_get_str(pkg, "build_info.cuda_version"), &ma, &mi) ? ma : 0;
}

static void fix_lines(struct finding *f, const struct snap_node *x, int64_t major,
		      const struct xla_fw *fw)
{
	const char *top = snap_get_str(x, "path_toolkit");

	if (top)
		finding_fix(f, "export XLA_FLAGS=--xla_gpu_cuda_data_dir=%s", top);
	else if (major < 12 && snap_state(snap_child(x, "libdevice")) == FACT_ABSENT)
		finding_fix(f, "export XLA_FLAGS=--xla_gpu_cuda_data_dir=<a CUDA toolkit that has "
			       "nvvm/libdevice>");
	if (major < 12 && snap_state(snap_child(x, "ptxas")) == FACT_ABSENT)
		finding_fix(f,
			    "export PATH=<a CUDA toolkit>/bin:$PATH   # XLA takes ptxas from PATH "
			    "first");
	if (major >= 12 && streq(fw->key, "jax"))
		finding_fix(f,
			    "pip install -U \"jax[cuda%lld]\"   # installs the nvidia-cuda-nvcc "
			    "wheel, which holds ptxas and libdevice",
			    (long long)major);
	else if (major >= 12)
		finding_fix(f,
			    "pip install nvidia-cuda-nvcc-cu%lld   # tensorflow[and-cuda]'s wheel "
			    "with ptxas and libdevice, in a place XLA searches",
			    (long long)major);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

static void judge(struct rule_ctx *c, const struct snap_node *env, size_t i,
		  const struct xla_fw *fw)
{
	const struct snap_node *pkg = snap_child(snap_child(env, "packages"), fw->key);
	const struct snap_node *x = fw_xla(c, env, fw);
	const struct snap_node *ld = snap_child(x, "libdevice"), *px = snap_child(x, "ptxas");
	const char *prefix = snap_get_str(env, "prefix") ?: "?";
	bool no_ld = snap_state(ld) == FACT_ABSENT, no_px = snap_state(px) == FACT_ABSENT;
	struct finding *f;
	char key[128];

	if (!x)
		return;
	if (!no_ld && !snap_present(ld))
		rule_need_known(c, prefix, "where XLA finds libdevice", ld);
	if (!no_px && !snap_present(px))
		rule_need_known(c, prefix, "where XLA finds ptxas", px);
	if (!no_ld && !no_px)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, prefix,
			 "%s in %s compiles its GPU code with XLA at run time, and none of the "
			 "places XLA searches holds %s%s%s: %s",
			 fw->name, prefix,
			 no_ld ? "libdevice (nvvm/libdevice/libdevice.10.bc)" : "",
			 no_ld && no_px ? " or " : "", no_px ? "ptxas" : "",
			 no_ld ? "a kernel that calls a math routine fails (\"libdevice not found "
				 "at ./libdevice.10.bc\")"
			       : "its PTX is not assembled (\"Couldn't find a suitable version of "
				 "ptxas\")");
	snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.%s.xla.libdevice", i,
		 fw->key);
	finding_fact(f, key, ld);
	snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.%s.xla.ptxas", i, fw->key);
	finding_fact(f, key, px);
	snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.%s.xla.roots", i, fw->key);
	finding_names_evidence(f, key, "XLA's CUDA roots; ptxas: PATH first, then their bin/",
			       snap_child(x, "roots"));
	if (snap_child(x, "cuda_data_dir") && snap_present(snap_child(x, "cuda_data_dir"))) {
		snprintf(key, sizeof(key),
			 "framework.python_envs.%zu.packages.%s.xla.cuda_data_dir", i, fw->key);
		finding_fact(f, key, snap_child(x, "cuda_data_dir"));
	}
	if (snap_get_str(x, "path_toolkit"))
		finding_evidence(f, "toolkit on PATH", snap_get_str(x, "path_toolkit"),
				 "%s/bin holds the ptxas on PATH and %s/nvvm/libdevice holds "
				 "libdevice, a place XLA does not search unless XLA_FLAGS names it",
				 snap_get_str(x, "path_toolkit"), snap_get_str(x, "path_toolkit"));
	fix_lines(f, x, fw_cuda_major(pkg, fw), fw);
}

/* The Python environments, where one holds a CUDA jax or TensorFlow and an NVIDIA driver is
 * there to run it; NULL otherwise (the driver's absence recorded as the rule's need). */
static const struct snap_node *cuda_xla_envs(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");
	const char *version;
	size_t n = 0;

	for (size_t i = 0; i < snap_count(envs); i++)
		n += snap_get(snap_at(envs, i), "packages.jax.xla") != NULL ||
		     snap_get(snap_at(envs, i), "packages.tensorflow.xla") != NULL;
	if (!n)
		return NULL; /* no CUDA jax or TensorFlow: nothing to judge */
	fw_need_complete(c, root);
	/* Without a GPU and its driver, XLA runs on the CPU and needs neither. */
	if (!rule_nvidia_driver(c, root, "the NVIDIA driver XLA's CUDA backend runs on", &version,
				NULL))
		return NULL;
	return envs;
}

RULE_CHECK(check_fw_xla_toolchain)
{
	const struct snap_node *envs = cuda_xla_envs(c, root);

	for (size_t i = 0; envs && i < snap_count(envs); i++)
		for (size_t k = 0; k < ARRAY_SIZE(xla_fws); k++)
			judge(c, snap_at(envs, i), i, &xla_fws[k]);
}

/*
 * framework.xla-ptxas-too-old: the ptxas XLA takes (PATH first, then its roots) is of a CUDA
 * release that cannot assemble for this GPU ("Falling back to the CUDA driver for PTX
 * compilation; ptxas does not support CC 8.6", stream_executor/gpu/asm_compiler.cc, quoted in
 * jax-ml/jax#6046 and #13570; which sm_NN each release's ptxas knows: the knowledge base's
 * cuda_arch_support.tsv), or a toolkit's ptxas on PATH shadows an older-than-it nvcc wheel
 * that jax[cudaN] installed for it (PATH is searched first: jax-ml/jax#17976, #25718, where a
 * CUDA 12.1 ptxas on PATH was taken over the wheel's 12.6: "Unsupported .version").
 */

/* The nvidia-cuda-nvcc wheel's version in this environment (*ret its fact, *ret_site the
 * site-packages holding it), or NULL. */
static const char *nvcc_wheel(const struct snap_node *env, const struct snap_node **ret, char *site,
			      size_t len)
{
	const struct snap_node *w = snap_child(env, "nvidia_wheels");

	for (size_t i = 0; i < snap_count(w); i++) {
		const struct snap_node *e = snap_at(w, i);

		if (startswith(snap_get_str(e, "name") ?: "", "nvidia-cuda-nvcc") &&
		    snap_get_str(e, "version")) {
			const char *d = snap_get_str(e, "dist_info") ?: "";
			const char *slash = strrchr(d, '/');

			snprintf(site, len, "%.*s", slash ? (int)(slash - d) : 0, d);
			*ret = snap_child(e, "version");
			return snap_get_str(e, "version");
		}
	}
	return NULL;
}

static bool release_older(unsigned ma, unsigned mi, unsigned wma, unsigned wmi)
{
	return ma < wma || (ma == wma && mi < wmi);
}

/* The first NVIDIA GPU whose sm_NN the release's ptxas cannot target: true with its cc. */
static bool gpu_beyond(struct rule_ctx *c, const struct snap_node *root, const char *release,
		       unsigned *ret_ma, unsigned *ret_mi, const struct snap_node **ret_gpu)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct facts_cuda_arch *arch;
	unsigned hi_ma, hi_mi;

	if (facts_cuda_arch(release, &arch) < 0 ||
	    !cuda_major_minor(arch->max_cc, &hi_ma, &hi_mi)) {
		rule_skip(c, release,
			  "CUDA %s: the compute capabilities its ptxas targets are not in "
			  "the knowledge base",
			  release);
		return false;
	}
	for (size_t g = 0; g < snap_count(gpus); g++) {
		const struct snap_node *gpu = snap_at(gpus, g), *ccf;
		unsigned ma, mi;

		if (!gpu_is_nvidia(gpu) || !gpu_cc(root, gpu, &ma, &mi, &ccf))
			continue;
		if (release_older(hi_ma, hi_mi, ma, mi)) {
			*ret_ma = ma, *ret_mi = mi, *ret_gpu = gpu;
			return true;
		}
	}
	return false;
}

static void judge_ptxas(struct rule_ctx *c, const struct snap_node *root,
			const struct snap_node *env, size_t i, const struct xla_fw *fw)
{
	const struct snap_node *x = fw_xla(c, env, fw), *vf = NULL, *wf = NULL, *gpu = NULL;
	const char *prefix = snap_get_str(env, "prefix") ?: "?", *ptxas = snap_get_str(x, "ptxas");
	const char *ver = snap_get_str(x, "ptxas_version"), *wheel;
	bool from_path = snap_get_bool_default(x, "ptxas_from_path", false), shadows, beyond;
	unsigned ma, mi, wma = 0, wmi = 0, gma = 0, gmi = 0;
	char release[16], key[128], name[96], site[512], why[96];
	struct finding *f;

	wheel = nvcc_wheel(env, &wf, site, sizeof(site));
	if (!ptxas)
		return; /* none found: framework.xla-toolchain-missing */
	vf = snap_child(x, "ptxas_version");
	if (!ver && wheel && strstr(ptxas, "/nvidia/cuda_nvcc/"))
		ver = wheel, vf = wf; /* the wheel's own ptxas */
	if (!ver || !cuda_major_minor(ver, &ma, &mi)) {
		rule_skip(c, prefix,
			  "%s: could not tell its release (no version.json, version.txt "
			  "or nvcc wheel record says it)",
			  ptxas);
		return;
	}
	snprintf(release, sizeof(release), "%u.%u", ma, mi);
	shadows = from_path && wheel && !strstr(ptxas, "/nvidia/cuda_nvcc/") &&
		  cuda_major_minor(wheel, &wma, &wmi) && release_older(ma, mi, wma, wmi);
	beyond = gpu_beyond(c, root, release, &gma, &gmi, &gpu);
	if (!shadows && !beyond)
		return;
	if (gpu_name(gpu, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "the GPU");
	if (beyond)
		snprintf(why, sizeof(why), "does not know the GPU's sm_%u%u", gma, gmi);
	else
		snprintf(why, sizeof(why),
			 "is older than the nvidia-cuda-nvcc wheel (%s) installed "
			 "for %s",
			 wheel, fw->name);
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, prefix,
		"%s in %s compiles its GPU code with the ptxas at %s (CUDA %s%s), which %s",
		fw->name, prefix, ptxas, release, from_path ? ", first on PATH" : "", why);
	snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.%s.xla.ptxas", i, fw->key);
	finding_fact(f, key, snap_child(x, "ptxas"));
	snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.%s.xla.ptxas_version", i,
		 fw->key);
	finding_fact(f, key, vf);
	if (beyond)
		finding_evidence(
			f, "GPU", snap_get_str(gpu, "bus_id"),
			"%s is compute capability %u.%u (sm_%u%u); CUDA %s's ptxas does not "
			"know it: XLA falls back to the driver's compiler (\"ptxas does not "
			"support CC %u.%u\") or fails [facts]",
			name, gma, gmi, gma, gmi, release, gma, gmi);
	if (shadows)
		finding_evidence(
			f, "nvidia-cuda-nvcc wheel", wheel,
			"the environment's nvidia-cuda-nvcc wheel is %s: its ptxas "
			"(site-packages/nvidia/cuda_nvcc/bin) is not used because XLA takes "
			"ptxas from PATH first; an older ptxas rejects the newer PTX XLA "
			"writes (\"Unsupported .version\")",
			wheel);
	if (shadows && *site)
		finding_fix(f,
			    "export PATH=%s/nvidia/cuda_nvcc/bin:$PATH   # the wheel's ptxas "
			    "first",
			    site);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_fw_xla_ptxas_old)
{
	const struct snap_node *envs = cuda_xla_envs(c, root);

	for (size_t i = 0; envs && i < snap_count(envs); i++)
		for (size_t k = 0; k < ARRAY_SIZE(xla_fws); k++)
			judge_ptxas(c, root, snap_at(envs, i), i, &xla_fws[k]);
}
