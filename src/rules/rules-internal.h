/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the check functions of rules-<layer>.c share: the finding / evidence / skip builders
 * (rules-engine.c), common readings of the snapshot (rules-util.c), the layer summary and
 * the chain (rules-summary.c), and the check functions the table in rules.c points at.
 * Internal to src/rules/.
 */
#pragma once

#include <string.h>

#include "facts/facts.h"
#include "rules/rules.h"

/* ---- for check functions (rules-*.c) ----------------------------------------------- */

/* A finding of rule c's rule; severity must not exceed the rule's. NULL on OOM (recorded). */
struct finding *rule_finding(struct rule_ctx *c, enum gpuenv_severity sev, const char *subject,
			     const char *fmt, ...) _printf_(4, 5);
/* Evidence from a snapshot fact: name = key path, value/state, source from the fact. */
void finding_fact(struct finding *f, const char *name, const struct snap_node *fact);
/* Evidence with an explicit value and source (facts rows, derived values). */
void finding_evidence(struct finding *f, const char *name, const char *source, const char *fmt, ...)
	_printf_(4, 5);
/* A list of strings (symbol names) as one piece of evidence, ", " between them ("none" for
 * an empty one). */
void finding_names_evidence(struct finding *f, const char *key, const char *source,
			    const struct snap_node *names);
void finding_fix(struct finding *f, const char *fmt, ...) _printf_(2, 3);
void finding_verify(struct finding *f, const char *fmt, ...) _printf_(2, 3);
/* The error text this machine's program prints (the concrete names), shown in place of the
 * rule's generic symptom. */
void finding_symptom(struct finding *f, const char *fmt, ...) _printf_(2, 3);
/* Adds the rule's own fix / verify lines after the specific ones. */
void finding_rule_fix(struct finding *f);
void finding_rule_verify(struct finding *f);

/* The diagnosis so far: for a late rule (rule.late), every other rule's findings. */
const struct gpuenv_doctor *rule_diagnosis(const struct rule_ctx *c);
/* An explicit "skipped" record for one subject (or the whole rule when subject is NULL). */
void rule_skip(struct rule_ctx *c, const char *subject, const char *fmt, ...) _printf_(3, 4);
/* rule_skip() because a fact could not be had (cause: its state): where that is a failure
 * (fact_is_failure()), the rule's layer is "could not tell", never ✓, as with rule_need(). */
void rule_skip_failed(struct rule_ctx *c, const char *subject, enum fact_state cause,
		      const char *fmt, ...) _printf_(4, 5);
/* The whole rule skipped because `what` is another system's (driver_lives_elsewhere()): the
 * rule could not judge, so its layer is "could not tell", never ✓. */
void rule_skip_elsewhere(struct rule_ctx *c, const char *what, const char *why);
/* True when the fact is present; otherwise records "could not read <source> (<state>…)"
 * for `what` and returns false. */
bool rule_need(struct rule_ctx *c, const char *subject, const char *what,
	       const struct snap_node *fact);
/* Like rule_need, but a fact known to be absent also passes. */
bool rule_need_known(struct rule_ctx *c, const char *subject, const char *what,
		     const struct snap_node *fact);
/* Records a skip for each GPU whose PCI vendor id, device id or bound driver could not be read
 * (what a rule needing hardware.pci_devices checks before it runs). */
void rule_need_gpu_ids(struct rule_ctx *c, const struct snap_node *root);
/* "<state>: <error> (<source>)" of a fact that is not present; "" for present facts. */
void fact_describe(const struct snap_node *fact, char *buf, size_t len);

/* ---- shared readings of the snapshot (rules-util.c) ------------------------------- */

/* NVIDIA GPUs in hardware.gpus[] (vendor_id 0x10de). */
bool gpu_is_nvidia(const struct snap_node *gpu);
bool gpu_is_amd(const struct snap_node *gpu);
/* Intel's vendor id, or without ids (lspci run without -nn) Intel's name: no device id
 * needed, unlike gpu_is_intel() (rules-intel.h). */
bool gpu_vendor_intel(const struct snap_node *gpu);
size_t gpus_count(const struct snap_node *root, bool (*filter)(const struct snap_node *));
/* The GPU's PCI ids; false when vendor_id / device_id are not present. */
bool gpu_pci_ids(const struct snap_node *gpu, unsigned *ret_vendor, unsigned *ret_device);
/* Compute capability of a GPU from the knowledge base by PCI id: 0 or -ENOENT/-ENODATA. */
int gpu_facts(const struct snap_node *gpu, const struct facts_gpu **ret);

/* The loaded NVIDIA kernel driver: /sys/module/nvidia/version, else /proc/driver/nvidia/version. */
enum driver_state {
	DRIVER_LOADED,
	DRIVER_NONE,	/* both known absent */
	DRIVER_UNKNOWN, /* a source unreadable / malformed / unprobed */
	/* none visible here because the kernel driver is another system's: WSL2 (the Windows
	 * driver, reached through /dev/dxg) or a container (the host's). Never "no driver". */
	DRIVER_ELSEWHERE,
};
enum driver_state nvidia_driver(const struct snap_node *root, const char **ret_version,
				const struct snap_node **ret_fact);
/* For a rule that judges the loaded NVIDIA driver: true with its version (and fact, if
 * ret_fact); false when none is loaded, or when its version is unknown, which is recorded as
 * rule_need(c, NULL, what, <the fact>). */
bool rule_nvidia_driver(struct rule_ctx *c, const struct snap_node *root, const char *what,
			const char **ret_version, const struct snap_node **ret_fact);
/* For a rule about a missing NVIDIA driver: true when none is loaded; false when one is, or when
 * that is unknown, which is recorded as rule_need(c, NULL, what, <the fact>). */
bool rule_no_nvidia_driver(struct rule_ctx *c, const struct snap_node *root, const char *what);
/* Whether a fact that could not be read failed with an error naming what (a vendor
 * library's answer: "LIB_RM_VERSION_MISMATCH", "(803)", "NO_PERMISSION"). */
bool error_names(const struct snap_node *fact, const char *what);
/* Evidence of the loaded NVIDIA module: its version and its /proc/modules entry. */
void driver_evidence(struct finding *f, const struct snap_node *root);
/* Same PCI function whatever the domain width ("00000000:18:00.0" = "0000:18:00.0"); a bus id
 * without function ("0000:46:00", as Xid lines print it) matches every function. */
bool bus_id_equal(const char *a, const char *b);
/* The driver.nvml.devices[] entry on the GPU's PCI bus, or NULL. */
const struct snap_node *nvml_device_for(const struct snap_node *root, const struct snap_node *gpu);
/* A GPU's compute capability: the knowledge base by PCI id (*ret_fact NULL), else what NVML or
 * the CUDA driver reported for the same bus (*ret_fact that fact). false when none knows it. */
bool gpu_cc(const struct snap_node *root, const struct snap_node *gpu, unsigned *ret_major,
	    unsigned *ret_minor, const struct snap_node **ret_fact);
/* The product name (knowledge base, else pci.ids via hardware.gpus[].name, else the ids). */
int gpu_name(const struct snap_node *gpu, char *buf, size_t len);
/* The name the CUDA driver gives the GPU (cuDeviceGetName, else nvmlDeviceGetName: what torch's
 * warnings print), or NULL when neither was read: never the knowledge base's product name. */
const char *gpu_cuda_name(const struct snap_node *root, const struct snap_node *gpu);
/* rules-pkglog.c: the newest driver.package_log event that installed `version` (upstream part,
 * "550.107.02"; in that transaction the driver's own package first), *ret_index its index;
 * NULL when none. */
const struct snap_node *pkg_event_for(const struct snap_node *root, const char *version,
				      size_t *ret_index);
/* "nvidia-driver-550:amd64 upgraded from A to B at <time> in <log>" */
int pkg_event_describe(const struct snap_node *e, char *buf, size_t len);
/* The event as evidence of f (driver.package_log.events.<index>). */
void pkg_event_evidence(struct finding *f, const struct snap_node *e, size_t index);
/* The key of the driver version fact nvidia_driver() returned: driver.nvidia.module_version,
 * its version file's proc_version, or NVML's driver.nvml.driver_version standing in for them
 * in pasted text (nvidia-smi's or collect_env's line is the user-space library's answer, not
 * the kernel module's: the two differing is "Driver/library version mismatch"), so that the
 * evidence names what its line shows; module_version where fact is none of them. */
const char *driver_fact_key(const struct snap_node *root, const struct snap_node *fact);
/* The Windows driver's version a paste from Windows or WSL2 shows (nvidia-smi's "Driver
 * Version", collect_env's "Nvidia driver version": driver.nvml.driver_version), which
 * nvidia_driver() never gives the rules (its numbering and floors are not Linux's): judged only
 * against Windows floors (cuda_driver_judge_windows). False on a live machine, and where the
 * text shows no such version or is not known to be from Windows. */
bool windows_driver(const struct snap_node *root, const char **ret_version,
		    const struct snap_node **ret_fact);
/* A paste's Windows driver version in the WDDM form Device Manager, wmic and dxdiag print
 * ("31.0.15.5161"), and NVIDIA's version read from it ("551.61"): pasted-windows.c. */
#define WINDOWS_WDDM_FORM    "driver.windows.wddm_version"
#define WINDOWS_WDDM_DERIVED "driver.windows.driver_version"
/* " (read from Windows's WDDM form of it, 31.0.15.5161: …)" where fact (windows_driver()'s)
 * is the version read from the WDDM form, "" otherwise: a message says how it was had.
 * Returns buf. */
const char *windows_driver_origin(const struct snap_node *root, const struct snap_node *fact,
				  char *buf, size_t len);
/* A driver version fact (nvidia_driver()'s or windows_driver()'s) as f's evidence, with the
 * WDDM form it was read from, if it was. */
void windows_driver_facts(struct finding *f, const struct snap_node *root,
			  const struct snap_node *fact);
/* WSL2: a "-microsoft-standard" kernel release, or /dev/dxg a character device, or
 * /usr/lib/wsl/lib a directory. *ret_why (if given) names what said so. */
bool on_wsl2(const struct snap_node *root, const char **ret_why);
/* on_wsl1(): rules.h */
/* Where the kernel driver lives when it is not this system's ("WSL2: the Windows driver …",
 * "the container host's"), or NULL when it would be this system's. */
const char *driver_lives_elsewhere(const struct snap_node *root);
/* Whether the driver answered in this very environment: NVML initialised and cuInit
 * succeeded here (a container given the GPU can then be judged like a host). */
bool driver_answered_here(const struct snap_node *root);
/* Inside a container: the Docker/Podman marker files, a container engine in /proc/1/cgroup
 * (cgroup v1), / an overlay in a container engine's storage, or /sys/fs/cgroup a nested
 * cgroup (a cgroup namespace: on cgroup v2 /proc/1/cgroup reads "0::/" there). */
bool in_container(const struct snap_node *root);
/* The engine to name for a container: from /proc/1/cgroup, the overlay's storage, the marker
 * file; "unknown engine (cgroup namespace)" where only the namespace shows; NULL outside. */
const char *container_engine(const struct snap_node *root);
/* No container sign, but / is an overlay mount, as a container's root is (an engine whose
 * storage is not known, a cgroup v2 pod sharing the host's cgroup namespace), or the mount
 * table or /sys/fs/cgroup/cgroup.type could not be read: whether this is a container cannot
 * be told. */
bool container_unsure(const struct snap_node *root);
/* Known not to be a container: neither marker file, no engine in /proc/1/cgroup, no nested
 * cgroup, / not an overlay. Pasted text shows none of these either way, so it is never
 * "known" there. */
bool container_known_absent(const struct snap_node *root);
/* A user-space driver library as ld.so resolves it (driver.userspace.<lib>): its version, when
 * it is the real driver's (not the toolkit stub, not a forward-compatibility copy). */
const char *userspace_lib_version(const struct snap_node *lib);
/* The installed user-space driver's version (libnvidia-ml's, else libcuda's, as above), with
 * the fact it came from; NULL when neither gives one or the two disagree. */
const char *userspace_driver_version(const struct snap_node *root, const char **ret_fact);
/* CUDA major.minor of a version string ("12.4.1" → 12, 4); false if unparsable. */
bool cuda_major_minor(const char *v, unsigned *ret_major, unsigned *ret_minor);

/* The system whose driver numbering applies (snapshot_os(), but Windows's on WSL2). */
enum driver_os driver_os(const struct snap_node *root);
/* A driver floor as it applies to os: "450.80.02" (Linux), "452.39" (Windows),
 * "450.80.02 (Linux) / 452.39 (Windows)" where the system is not known; a missing Windows
 * value is said so ("? (Windows: not in the knowledge base)"). Returns buf. */
const char *driver_floor_text(enum driver_os os, const char *linux_min, const char *windows_min,
			      char *buf, size_t len);

/* What a CUDA toolkit version needs from the driver (facts: cuda_driver_min.tsv). */
struct cuda_req {
	enum driver_os os; /* whose floors are quoted (judging is by Linux's: see driver_os) */
	unsigned major, minor;
	bool exact;				/* the version named one release row */
	const struct facts_cuda_release *first; /* the release judged against (GA if !exact) */
	const struct facts_cuda_release
		*newest;		     /* newest update of the minor (== first if exact) */
	const struct facts_minor_compat *mc; /* minor-version compatibility floor, or NULL */
};
/* -EINVAL unparsable, -ENOENT no confirmed release of that major.minor. */
int cuda_requirement(const struct snap_node *root, const char *toolkit_version,
		     struct cuda_req *ret);
/* OK: driver >= the minimum; DEGRADED: only through minor-version compatibility; BROKEN. */
enum link_state cuda_driver_judge(const struct cuda_req *req, const char *driver);
/* The same for a Windows driver's version, against the Windows column of NVIDIA's Table 3 and
 * of the minor-version floors (never the Linux one); UNKNOWN where the knowledge base has no
 * Windows floor for that release. */
enum link_state cuda_driver_judge_windows(const struct cuda_req *req, const char *driver);
/* What the knowledge base tells of the newest CUDA driver `driver` runs, for a message
 * (facts_cuda_newest_for_driver): "supports CUDA <= 12.4"; for a branch it lacks, or lacks the
 * CUDA version of, "supports CUDA 13.4 or newer (… R615's is a lower bound)"; else that it
 * cannot tell. *ret_branch: the driver's branch. NULL when driver is not a version. */
const char *driver_cuda_text(const char *driver, unsigned *ret_branch, char *buf, size_t len);
/* ">= 580.65.06 (CUDA 13.0 GA; CUDA 13.0 Update 2 needs >= 580.95.05)", with the floors of
 * req->os (driver_floor_text()) */
void cuda_req_describe(const struct cuda_req *req, char *buf, size_t len);
/* The floor of a release row (or of the minor-version compatibility row) for req->os. */
const char *cuda_req_floor(const struct cuda_req *req, const struct facts_cuda_release *rel,
			   char *buf, size_t len);
const char *cuda_req_mc_floor(const struct cuda_req *req, char *buf, size_t len);
/* ", unconfirmed" when the minor-version compatibility floor (LINK_DEGRADED) is a row marked
 * unconfirmed (CUDA 13.x: NVIDIA prints only ">= 580"), else "". */
static inline const char *cuda_req_mc_note(const struct cuda_req *req)
{
	return req->mc && facts_unconfirmed(req->mc->confidence) ? ", unconfirmed" : "";
}

/* ---- the distribution's commands (rules-distro.c) --------------------------------------- */
enum distro {
	DISTRO_UNKNOWN,
	DISTRO_DEBIAN,
	DISTRO_UBUNTU,
	DISTRO_FEDORA,
	DISTRO_RHEL,
	DISTRO_SUSE,
	DISTRO_ARCH,
};
enum module_flavour {
	MODULE_UNKNOWN,
	MODULE_DKMS,
	MODULE_AKMODS,
	MODULE_UBUNTU_PREBUILT,
	MODULE_RHEL_KMOD,
	MODULE_SUSE_KMP,
	MODULE_ARCH_PACKAGE,
	MODULE_IMAGE, /* an image-based system (rpm-ostree, bootc): the module comes with the image */
	MODULE_RUNFILE, /* NVIDIA's .run installer: built for one kernel unless run with --dkms */
};
enum distro_fix {
	FIX_INSTALL_DRIVER,    /* the NVIDIA driver package */
	FIX_BUILD_MODULE,      /* nvidia.ko of `version` for the running kernel */
	FIX_INITRAMFS,	       /* rebuild the initramfs, reboot */
	FIX_CONTAINER_TOOLKIT, /* nvidia-container-toolkit */
	FIX_SIGNING_KEY,       /* enroll the key that signs the module */
	FIX_CUDA_LIBRARIES,    /* the CUDA runtime libraries of CUDA `version` ("11.2") */
};
/* From host.os.id, then host.os.id_like (os-release(5)). */
enum distro host_distro(const struct snap_node *root);
/* "Fedora", or NULL for an unknown one. */
const char *distro_name(enum distro d);
/* How the nvidia module is delivered: where the module on disk is, else the usual one. */
enum module_flavour module_flavour(const struct snap_node *root);
/* Adds the fix lines of `what` for this distribution (all families named when unknown). */
void distro_fix(struct finding *f, const struct snap_node *root, enum distro_fix what,
		const char *version);

/* A loader answer (driver.userspace.<lib>, runtime.libraries.<family>[], loads.<soname>) that
 * an unreadable file or directory earlier in the search leaves undetermined (its
 * `undetermined` fact: the judged process may read what gpuenv could not, and load that): a
 * skip naming it, and false. true when the answer is certain (or lib is NULL). */
bool lib_need_determined(struct rule_ctx *c, const char *subject, const struct snap_node *lib);

/* ---- frameworks in framework.python_envs[] (rules-util.c) ---------------------------- */
enum fw_kind {
	FW_TORCH,
	FW_TENSORFLOW,
	FW_JAX,	       /* jax without a GPU plugin (only for the CPU-only check) */
	FW_JAX_PLUGIN, /* one packages.jax.plugins[] entry */
};
struct fw_build {
	const struct snap_node *env; /* framework.python_envs[i] */
	const struct snap_node
		*pkg; /* packages.torch, packages.tensorflow, packages.jax(.plugins[j]) */
	size_t env_index;
	enum fw_kind kind;
	const char *prefix; /* the environment's prefix */
	char key[128];	    /* snapshot path of pkg, for evidence names */
	char label[192];    /* "torch 2.4.0+cu124", "jax 0.5.0 (jax-cuda12-plugin 0.5.0)" */
	char python[96];    /* the interpreter that reads the environment, for commands */
	char pip[112];	    /* the pip of that interpreter, for commands */
};
/* The build of packages.<name> of framework.python_envs[i] (env) that fw_foreach() does not
 * walk (CuPy's): b's env, prefix, pkg, key, label ("<label> <version>") and commands; its kind
 * means nothing (FW_TORCH): only for rules that read the loads a package's libraries get. */
void fw_build_other(struct fw_build *b, const struct snap_node *env, size_t i, const char *name,
		    const char *label, const struct snap_node *pkg);
/* A Python environment or site-packages could not be read (framework.python_envs_complete not
 * present): a skip for it, with what could not be read as its subject, so that what was not
 * found there is never taken as absent; the rule still judges the builds that were read. */
void fw_need_complete(struct rule_ctx *c, const struct snap_node *root);
/* JAX's own check of a CUDA library, where explain read its message (rules-jax-check.c): in
 * each python_envs[] whose packages.jax has <built_key>, a finding when <loaded_key> is an
 * older major or minor, or, where <min_key> (the minimum JAX printed) was read, older than
 * it, with `fix` (may be NULL) before the rule's own; a skip when one is not a version.
 * `library` names it in the text ("cuDNN"). */
void jax_check_pasted(struct rule_ctx *c, const struct snap_node *root, const char *loaded_key,
		      const char *built_key, const char *min_key, const char *library,
		      const char *fix);
/* Calls fn for every framework build, environments in discovery order; returns the count. */
size_t fw_foreach(const struct snap_node *root, void (*fn)(const struct fw_build *b, void *u),
		  void *u);
/* The CUDA version the build was made for ("12.4"; a JAX plugin's major "12"; a Windows
 * TensorFlow build's "64_116", its cudart DLL's suffix, as "11.6"), or false for a
 * CPU-only / ROCm build or when it cannot be read (*ret_fact then says why, if known). */
bool fw_cuda_version(const struct fw_build *b, char *buf, size_t len,
		     const struct snap_node **ret_fact);
/* The HIP/ROCm version of a ROCm build, or NULL. */
const struct snap_node *fw_hip_version(const struct fw_build *b);
/* Does a torch ROCm build carry its own HIP runtime (libamdhip64 in torch/lib, as AMD's and
 * pytorch.org's +rocm wheels do)? It then runs on that ROCm, whatever /opt/rocm holds, and its
 * HIP version (torch.version.hip) is that ROCm's. */
bool fw_bundles_hip(const struct fw_build *b);
/* A torch build's HIP version, or (HIP known) its torch/lib listing, that could not be read:
 * whether it is a ROCm build, or bundles its ROCm, cannot be told; else NULL. */
const struct snap_node *fw_hip_unread(const struct fw_build *b);
/* The Python module the build is imported as: "torch", "tensorflow", "jax". */
const char *fw_module(const struct fw_build *b);
/* The cpu_only fact of the build. */
const struct snap_node *fw_cpu_only(const struct fw_build *b);
/* The GPU code targets: the kernel library's arch_targets[] (objects {target,kind,ptx_isa}), or
 * TensorFlow's build_info.cuda_compute_capabilities[] (strings) when no library was read. */
const struct snap_node *fw_targets(const struct fw_build *b, bool *ret_from_build_info);
/* The env's nvidia-cuda-runtime wheel (nvidia_wheels[] entry), or NULL. */
const struct snap_node *fw_runtime_wheel(const struct fw_build *b);
/* The env's nvidia_wheels[] entry whose lib_dir holds path (a directory prefix), or NULL. */
const struct snap_node *wheel_holding(const struct snap_node *env, const char *path);
/* runtime.library-shadowed's cuDNN part (rules-cudnn.c): two copies of one major on a
 * framework's search path, the older loaded. */
void shadowed_cudnn_same_major(struct rule_ctx *c, const struct snap_node *root);
/* The framework build a plain `python` would import: the first environment found through
 * VIRTUAL_ENV, CONDA_PREFIX or PATH that has one, else the first with one. */
bool fw_first(const struct snap_node *root, struct fw_build *ret);

/* What runs GPU code besides torch, TensorFlow and jax, which no chain judges: CuPy, Numba,
 * numba-cuda, Warp and cuda-python in a Python environment (packages.<key>) and ollama's own
 * builds (framework.ollama, one per install directory). Fills up to max; returns the count. */
struct fw_other {
	char name[64];	    /* "CuPy 13.3.0", "ollama" */
	char what[224];	    /* "cupy-cuda12x in /venv", "CUDA build(s) cuda_v11, cuda_v12 in …" */
	const char *source; /* the environment's prefix, ollama's install directory */
};
size_t fw_others(const struct snap_node *root, struct fw_other *out, size_t max);
/* Their names joined ("CuPy 13.3.0, ollama"), "" when none; returns the count. */
size_t fw_others_names(const struct snap_node *root, char *buf, size_t len);
/* A chain's framework end where no torch, TensorFlow or jax is found: *framework and *why name
 * the others (CuPy, Numba, Warp, cuda-python, ollama) as not judged; false, with both
 * untouched, when there are none. */
bool fw_others_not_judged(struct gpuenv_doctor *d, const struct snap_node *root, char **framework,
			  char **why);

/* The toolkit a build would use: nvcc on PATH, else CUDA_HOME/CUDA_PATH, else /usr/local/cuda,
 * else the only one (rules-summary.c); *ret_why says which. NULL when none is selected. */
const struct snap_node *chosen_toolkit(const struct snap_node *root, const char **ret_why);

/* ---- AMD (rules-amd.c, rules-amd-chain.c) ------------------------------------------- */
/* HSA_OVERRIDE_GFX_VERSION "11.0.0" → "gfx1100"; false when v is not major.minor.stepping. */
bool amd_gfx_of_override(const char *v, char *buf, size_t len);
/* Do the code objects (arch_targets[] objects with "gfx") include gfx? */
bool amd_targets_have_gfx(const struct snap_node *targets, const char *gfx);
/* The HSA_OVERRIDE_GFX_VERSION value the knowledge base gives for gfx (hsa_override.tsv) as a
 * fix, only where targets hold the code it makes ROCm load; marked unsupported by AMD. */
void amd_gfx_override_fix(struct finding *f, const struct snap_node *targets, const char *gfx);
/* The gfx of the first GPU node of the KFD topology (and its index), or NULL. */
const char *amd_kfd_gfx(const struct snap_node *root, size_t *ret_index);
/* The gfx of the first GPU node the process sees (amd_kfd_node_visible()), or NULL. */
const char *amd_kfd_gfx_seen(const struct snap_node *root, size_t *ret_index);
/* The gfx of KFD node k, or NULL when it is a CPU node, a GPU the process does not see
 * (amd_kfd_node_visible()), or an earlier node the process sees has the same gfx (one finding
 * per kind of GPU). */
const char *amd_kfd_gfx_once(const struct snap_node *root, const struct snap_node *kfd, size_t k);
/* Whether the process's ROCm counts KFD node k (driver.amdgpu.kfd_nodes[k]) after
 * ROCR_VISIBLE_DEVICES, then HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES (rules-runtime-visible.c).
 * true for a node that is not a GPU, with no variable set, and where the selection cannot be
 * worked out: such a GPU is judged as one the process uses. */
bool amd_kfd_node_visible(const struct snap_node *root, size_t k);
/* The ROCm installation the system uses: the one the dynamic loader gives (loader_gives),
 * else /opt/rocm's, else the only one; NULL. */
const struct snap_node *amd_chosen_rocm(const struct snap_node *root);
/* Where no ROCm release's version is known, the fact that could not be read (a release's
 * version, a place a release was looked for): "could not tell", never "no ROCm"; else NULL. */
const struct snap_node *amd_rocm_unread(const struct snap_node *root);
/* The runtime layer's ROCm lines; clears *absent when a ROCm release is installed. */
void amd_runtime_facts(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent);
/* The AMD chain (d->vendor_chains[]), where the AMD stack is on the machine. */
void amd_chain(struct gpuenv_doctor *d, const struct snap_node *root);
/* The framework end of a vendor chain (rules-amd-chain.c): false, with the link unknown, when
 * no framework is found. */
struct fw_build;
bool vendor_chain_framework(struct gpuenv_doctor *d, const struct snap_node *root,
			    struct vendor_chain *v, struct fw_build *b);
/* The worse of two links of a chain: broken > degraded > unknown > ok. */
enum link_state link_worst(enum link_state a, enum link_state b);
/* How a build's code objects for gfx meet the GPU's target features (rules-amd-features.c). */
enum amd_tid_match {
	AMD_TID_NONE,	  /* no code object for gfx at all */
	AMD_TID_MATCH,	  /* one whose features all agree (or are "any") */
	AMD_TID_MAYBE,	  /* none agrees for sure: a feature they demand is not known */
	AMD_TID_MISMATCH, /* every one demands a feature setting the GPU does not have */
};
/* The GPU's setting of one target feature: 1 on, 0 off, -1 not known. */
struct amd_features {
	int sramecc, xnack;
	const char *xnack_why; /* where xnack's setting comes from, for messages */
	bool xnack_at_boot;    /* XNACK turns on only where the GPU booted with retry on */
};
/* sramecc from the KFD node's capability, xnack from HSA_XNACK / amdgpu.noretry. */
void amd_node_features(const struct snap_node *root, const struct snap_node *node, const char *gfx,
		       struct amd_features *ret);
/* *ret_target: the first code object for gfx (its target ID, "gfx90a:xnack+"), or NULL. */
enum amd_tid_match amd_targets_match(const struct snap_node *targets, const char *gfx,
				     const struct amd_features *f, const char **ret_target);
/* framework.rocm-gfx-unsupported's target-feature half: findings for the ROCm builds that have
 * code for the GPU's gfx only with other sramecc/xnack settings. */
void amd_check_target_features(struct rule_ctx *c, const struct snap_node *root);

/* ---- the diagnosis beyond findings (rules-engine.c, rules-summary.c) ---------------- */
void diagnosis_add_fact(struct gpuenv_doctor *d, enum gpuenv_layer layer, const char *label,
			const char *source, const char *fmt, ...) _printf_(5, 6);
char *diagnosis_strdupf(struct gpuenv_doctor *d, const char *fmt, ...) _printf_(2, 3);
/* Key facts per layer, the chain, and which layers have nothing installed. */
void rules_summarize(struct gpuenv_doctor *d, const struct snap_node *root,
		     bool absent[RULE_LAYERS]);
/* rules-runtime-launch.c: one "kernel launch" key fact per GPU when doctor --launch ran. */
void launch_summarize(struct gpuenv_doctor *d, const struct snap_node *root);
/* Runs every rule of the table (rules-engine.c): findings, skips, the counts per layer. */
void rules_run_table(struct gpuenv_doctor *d, const struct snap_node *root);
/* Every fact of a layer's subtree that could not be read (layers[].unreadable). */
void rules_collect_problems(struct gpuenv_doctor *d, const struct snap_node *root);
/* Each layer's status and the verdict from the findings (rules-engine.c). */
void rules_judge(struct gpuenv_doctor *d, const bool absent[RULE_LAYERS]);

/* ---- check functions (rules-<layer>.c) ------------------------------------------------ */
#define RULE_CHECK(name) void name(struct rule_ctx *c, const struct snap_node *root)
RULE_CHECK(check_no_gpu);
RULE_CHECK(check_pcie_link_degraded);
RULE_CHECK(check_pcie_link_down);
RULE_CHECK(check_bar1_small);
RULE_CHECK(check_gpu_without_driver);
RULE_CHECK(check_module_not_loaded);
RULE_CHECK(check_secure_boot_unsigned);
RULE_CHECK(check_secure_boot_key_not_enrolled);
RULE_CHECK(check_wsl_linux_driver_installed);
RULE_CHECK(check_wsl_no_gpu_paravirtualization);
RULE_CHECK(check_nvml_stuck_in_kernel);
RULE_CHECK(check_system_not_ready);
RULE_CHECK(check_module_missing_for_kernel);
RULE_CHECK(check_nouveau_bound);
RULE_CHECK(check_device_nodes_missing);
RULE_CHECK(check_branch_drops_gpu);
RULE_CHECK(check_open_module_datacenter_only);
RULE_CHECK(check_proprietary_module_refuses_gpu);
RULE_CHECK(check_branch_eol);
RULE_CHECK(check_branch_predates_gpu);
RULE_CHECK(check_toolkit_needs_newer_driver);
RULE_CHECK(check_no_driver_for_toolkit);
RULE_CHECK(check_stub_libcuda);
RULE_CHECK(check_toolkits_disagree);
RULE_CHECK(check_toolkit_cannot_target_gpu);
RULE_CHECK(check_cudnn_cuda_mismatch);
RULE_CHECK(check_container_no_gpu_devices);
RULE_CHECK(check_visible_devices_void);
RULE_CHECK(check_image_cuda_newer_than_driver);
RULE_CHECK(check_gpu_unknown);
/* rules-hardware-health.c: the GPU's health as NVML reports it. */
RULE_CHECK(check_ecc_uncorrectable);
/* rules-hardware-health.c: a GPU's health fact (key of device d) when the vendor library
 * gave it. A board without the feature (unsupported) or a key never asked for (absent) is
 * silently no answer; a failed call is a skip for `subject`. */
const struct snap_node *health_value(struct rule_ctx *c, const struct snap_node *d,
				     const char *subject, const char *key);
/* rules-hardware-ras.c: hardware.ecc-uncorrectable's AMD SMI and Level Zero GPUs and
 * amdgpu's RAS reports in the kernel log judged (nvml_judges: NVML lists GPUs, so a failure
 * here is a skip of these GPUs only, never of the whole rule); false when neither session
 * ran (no AMD or Intel GPU, --no-vendor) and the kernel log has no such report. */
bool ras_uncorrectable_amd_intel(struct rule_ctx *c, const struct snap_node *root,
				 bool nvml_judges);
RULE_CHECK(check_row_remap_pending);
RULE_CHECK(check_row_remap_failed);
RULE_CHECK(check_retired_pages_pending);
RULE_CHECK(check_clocks_throttled);
RULE_CHECK(check_temperature_slowdown);
RULE_CHECK(check_nvlink_down);
RULE_CHECK(check_pcie_replays);
RULE_CHECK(check_gpu_lost);
RULE_CHECK(check_mig_layout);
RULE_CHECK(check_nvml_version_mismatch);
RULE_CHECK(check_no_permission);
RULE_CHECK(check_xid_errors);
RULE_CHECK(check_persistence_off);
RULE_CHECK(check_library_shadowed);
RULE_CHECK(check_nvjitlink_older_than_library);
RULE_CHECK(check_cuda_library_symbol_missing);
RULE_CHECK(check_fw_extension_abi_mismatch);
RULE_CHECK(check_fw_ollama_no_usable_cuda_library);
RULE_CHECK(check_fw_ollama_rocm_gfx_unsupported);
RULE_CHECK(check_cudnn_older_than_framework);
RULE_CHECK(check_cudart_older_than_framework);
RULE_CHECK(check_cuda_compat_unsupported);
RULE_CHECK(check_kernel_launch_failed);
RULE_CHECK(check_launch_contradicts_prediction);
RULE_CHECK(check_library_not_found);
/* Whether the libcuda ld.so picks (driver.userspace.libcuda) is a forward-compatibility copy
 * over the loaded driver drv: a cuda-compat file, in a compat/ directory, or newer than the
 * driver's own libnvidia-ml, which matches drv (rules-runtime-compat.c). */
bool libcuda_is_compat(const struct snap_node *root, const struct snap_node *cu, const char *drv,
		       const char **ret_how);
/* The driver version the CUDA runtime and the PTX JIT meet under the loaded module drv: the
 * forward-compatibility libcuda's where ld.so gives programs one that works (newer than drv, on
 * NVIDIA GPUs that are all data-center ones: NVIDIA's CUDA Compatibility guide, § Forward
 * Compatibility), else drv. Whether the GPU is driven at all stays the module's question. */
const char *cuda_driver_effective(const struct snap_node *root, const char *drv);
RULE_CHECK(check_mig_device_selection);
RULE_CHECK(check_cpu_only_build);
RULE_CHECK(check_fw_gpu_too_old);
RULE_CHECK(check_fw_no_kernel_image);
RULE_CHECK(check_fw_ptx_too_new);
RULE_CHECK(check_fw_ptx_jit_only);
RULE_CHECK(check_fw_ltoir_nvjitlink);
RULE_CHECK(check_fw_numba_nvvm);
RULE_CHECK(check_fw_xla_toolchain);
RULE_CHECK(check_fw_xla_ptxas_old);
RULE_CHECK(check_fw_cuda_newer_than_driver);
RULE_CHECK(check_fw_system_toolkit_irrelevant);
RULE_CHECK(check_fw_rocm_gfx_unsupported);
RULE_CHECK(check_amdgpu_firmware_failed);
RULE_CHECK(check_amdgpu_no_kfd);
RULE_CHECK(check_dev_noexec);
RULE_CHECK(check_pcie_atomics_unsupported);
RULE_CHECK(check_amdgpu_kmd_userspace);
RULE_CHECK(check_amdgpu_kernel_too_old);
struct facts_amdgpu_kernel;
/* rules-amd-kernel.c: the confirmed amdgpu_kernel.tsv row of an AMD GPU when the running kernel's
 * own amdgpu does not drive it (older than its first release, or one known not to), else NULL;
 * NULL too where the kernel log shows amdgpu failing on a firmware file or a GPU's init (an
 * amdgpu that knows the GPU). */
const struct facts_amdgpu_kernel *amdgpu_kernel_predates(const struct snap_node *root,
							 const struct snap_node *gpu);
RULE_CHECK(check_override_not_inherited);
RULE_CHECK(check_rocm_wsl_dxg_detection_unset);
RULE_CHECK(check_rocm_wsl_librocdxg_not_found);
RULE_CHECK(check_visible_devices_none);
RULE_CHECK(check_slurm_nvml_autodetect_unbuilt);
RULE_CHECK(check_slurm_gres_file_missing);
RULE_CHECK(check_slurm_gres_duplicate_records);
RULE_CHECK(check_slurm_autodetect_unknown);
RULE_CHECK(check_hsa_override_wrong_target);
RULE_CHECK(check_no_nvidia_runtime);
RULE_CHECK(check_cdi_spec_stale);
RULE_CHECK(check_cdi_spec_newer_than_engine);
RULE_CHECK(check_toolkit_ldconfig_missing);
RULE_CHECK(check_dev_char_links_missing);
RULE_CHECK(check_rootless_no_cgroups);
RULE_CHECK(check_docker_desktop_context);
RULE_CHECK(check_image_incomplete);
