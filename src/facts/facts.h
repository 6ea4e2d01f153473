/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Knowledge base lookups (docs/design.md §5). The tables are src/facts/data/<table>.tsv, each
 * row with the keys of its public sources, named in the table's header (NVIDIA CUDA release notes
 * Tables 2/3, NVIDIA data-center driver lifecycle pages, developer.nvidia.com/cuda-gpus, NVIDIA
 * open-gpu-kernel-modules README, pci.ids, NVIDIA/cccl ptx_isa.h, NVSentinel/dcgm-exporter
 * Xid maps, AMD ROCm compatibility matrices, pytorch/builder + pytorch/test-infra build
 * scripts, tensorflow/docs install/source.md), and generated into sorted const arrays by
 * gen-facts.py. Every row carries `source` and `confidence` ("unconfirmed" where the source notes
 * carried a '?'); NULL strings mean "not confirmed". Functions return 0 or -errno (-EINVAL bad
 * input, -ENOENT no row, -ENODATA row present but the value is unconfirmed/empty).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct facts_gpu {
	const char *product;
	const char *segment; /* datacenter, workstation, geforce, jetson, desktop-superchip */
	const char *architecture;
	const char *chip;
	const char *compute_capability; /* "8.9" */
	int cc_major, cc_minor;		/* -1 if unknown */
	uint16_t pci_vendor_id;		/* 0 if not a PCI device */
	const uint16_t *pci_device_ids;
	size_t n_pci_device_ids;
	const char *pci_id_confidence; /* confirmed-nvidia, community(pci.ids), uncertain, n/a */
	const char *confidence;
	const char *notes;
	const char *source;
};

/* One NVIDIA GPU PCI device id (vendor 10de): its pci.ids name, the chip it names, and what the
 * chip is (nvidia_devices.tsv joined with nvidia_chips.tsv; see src/facts/gen-nvidia-devices.py). */
struct facts_nvidia_device {
	uint16_t device_id;
	const char *name;		/* pci.ids: "GA107M [GeForce RTX 3050 Ti Mobile]" */
	const char *chip;		/* "GA107" */
	const char *architecture;	/* "Ampere" */
	const char *compute_capability; /* "8.6" */
	int cc_major, cc_minor;
	bool tegra;
	const char *legacy_branch; /* "470.xx": the last driver branch for it; NULL: current */
	const char *kernel_open;   /* "yes"/"no" (open kernel modules); NULL: not listed */
	const char *confidence;
	const char *source;
};

struct facts_cuda_release {
	const char *toolkit_version;  /* "12.4.1" */
	const char *toolkit_label;    /* "CUDA 12.4 Update 1" */
	const char *linux_min_driver; /* NVIDIA Table 3; NULL if unconfirmed */
	const char *windows_min_driver;
	const char *driver_branch; /* "550" */
	const char *confidence;
	const char *notes;
	const char *source;
};

struct facts_minor_compat {
	unsigned cuda_major;
	const char *linux_min_driver; /* ">= 580" is stored as "580" */
	const char *windows_min_driver;
	unsigned upper_bound_exclusive; /* first driver major outside the range; 0 = none */
	const char *confidence;
	const char *notes;
	const char *source;
};

struct facts_driver_branch {
	unsigned branch;		   /* 550 */
	const char *cuda_version_reported; /* "12.4"; NULL if unconfirmed */
	const char *first_toolkit_with_branch;
	const char *datacenter_designation; /* LTSB, PB, NFB, ... */
	const char *datacenter_eol;
	const char *oldest_arch; /* "Maxwell" */
	const char *oldest_cc;	 /* "5.0" */
	const char *last_branch_for_arch;
	const char *confidence;
	const char *notes;
	const char *source;
};

struct facts_cuda_arch {
	const char *cuda_version; /* "12.4" */
	const char *min_cc, *max_cc;
	const char *sm_targets; /* "50,52,...,90" */
	const char *arch_specific_a;
	const char *family_specific_f;
	const char *ptx_isa_version; /* "8.4" */
	const char *confidence;	     /* high/medium/low[,unconfirmed] */
	const char *notes;
	const char *source;
};

struct facts_xid {
	unsigned xid;
	const char *mnemonic;
	const char *description;
	const char *cause_category;
	const char *resolution_bucket;
	const char *severity;	/* FATAL / NONFATAL */
	bool application_error; /* k8s device plugin keeps the GPU healthy */
	const char *recommended_action;
	const char *typical_log_text;
	const char *confidence;
	const char *source;
};

/* cuDNN release range × CUDA-variant package (cudnn_cuda.tsv, NVIDIA cuDNN support matrices). */
struct facts_cudnn {
	const char *first, *last; /* releases of the range; last "8.8" = any 8.8.x */
	const char *variant; /* the package as NVIDIA names it: "cuda12", "cuda11.x / cuda10.2" */
	const char *cuda_majors;   /* "12" or "11,10": the CUDA majors it was built for */
	const char *cuda_versions; /* "12.2,12.1,12.0"; NULL when the matrix row was not captured */
	const char *cuda_as_listed; /* the matrix's own wording */
	const char *min_linux_driver;
	const char *compute_capabilities;
	const char *confidence; /* confirmed / unconfirmed */
	const char *notes;
	const char *source;
};

/* A number or a date the rules compare against (thresholds.tsv). */
struct facts_threshold {
	const char *name;  /* "bar1_legacy_aperture_bytes" */
	const char *value; /* as written: "268435456", "2026-08" */
	/* the value; a month YYYY-MM as YYYYMM, a CC X.Y as X*10+Y, a kernel release
	 * MAJOR.MINOR (unit kernel) and a program's release MAJOR.MINOR (unit release) as
	 * MAJOR*1000+MINOR */
	uint64_t number;
	const char *unit; /* bytes, month, … */
	const char *confidence;
	const char *notes;
	const char *source;
};

struct facts_ptx_isa {
	const char *ptx_isa_version; /* "8.4" */
	unsigned isa_major, isa_minor;
	const char *cuda_version;   /* the CUDA release that introduced it: "12.4" */
	unsigned min_driver_branch; /* lowest branch whose JIT accepts it; 0 = unconfirmed */
	const char *confidence;
	const char *notes;
	const char *source;
};

/* data/ltoir.tsv: the LTO-IR (NVVM IR container) version a CUDA release's compilers write. */
struct facts_ltoir {
	const char *cuda_version; /* "13.0" */
	unsigned cuda_major, cuda_minor;
	const char *ltoir_version; /* "1.65" */
	unsigned ltoir_major, ltoir_minor;
	const char *confidence;
	const char *notes;
	const char *source;
};

struct facts_sm_arch {
	unsigned sm;	 /* 86, 100, 121 */
	unsigned family; /* base of its `f` family (100 for 103); 0 = none */
	bool tegra;	 /* Tegra/Jetson: SASS runs only on the exact CC */
	const char *confidence;
	const char *notes;
	const char *source;
};

/* A ROCm release range (rocm.tsv, AMD ROCm compatibility matrix, Linux compute). */
struct facts_rocm {
	const char *first, *last; /* "6.2.0", "6.2.4"; last "5.5" covers 5.5.x */
	const char *as_listed;	  /* the matrix column label: "6.2.0 - 6.2.4", "7.2.2 / 7.2.1" */
	const char *gfx_targets;  /* "gfx1100,gfx1030,gfx942,gfx90a,gfx908"; NULL = not captured */
	const char *products;	  /* "gfx942: Instinct MI300X, MI300A, MI325X | gfx90a: ..." */
	const char *amdgpu_driver_compat; /* KMD / AMD GPU Driver row, as the matrix words it */
	const char *confidence;		  /* confirmed / unconfirmed */
	const char *notes;
	const char *source;
};

/* The HSA_OVERRIDE_GFX_VERSION users set for a consumer GPU ROCm does not ship code for
 * (hsa_override.tsv): AMD does not support it. */
struct facts_hsa_override {
	const char *gfx;      /* the GPU's target: "gfx1031" */
	const char *override; /* "10.3.0"; NULL = no working value known */
	const char *runs_as;  /* the target whose kernels ROCm then loads: "gfx1030" */
	const char *family;   /* "RDNA2 (Navi 22)" */
	const char *products;
	const char *confidence;
	const char *notes;
	const char *source;
};

/* A PyTorch wheel: release line × variant (pytorch_wheels.tsv, Linux x86_64). */
struct facts_torch_wheel {
	const char *torch;		  /* "2.4" */
	const char *variant;		  /* "cu124", "rocm6.1" */
	const char *cuda_toolkit;	  /* "12.4"; NULL on ROCm rows */
	const char *torch_cuda_arch_list; /* "5.0;6.0;7.0;7.5;8.0;8.6;9.0"; NULL on ROCm rows */
	const char *arch_list; /* torch.cuda.get_arch_list() in build order, space-separated:
				* "sm_50 ... sm_90 compute_120" or gfx names; NULL = not captured */
	const char *ptx;       /* "yes" / "no" / "unclear" / "n/a" (ROCm) */
	const char *ptx_as_listed;
	bool pypi_default; /* `pip install torch==X.Y.*` from PyPI is this variant */
	const char *pypi_default_as_listed;
	const char *min_driver; /* toolkit's Table-3 minimum (full features, PTX JIT); NULL =
				 * not verified */
	const char *min_driver_as_listed; /* "550.54.14 (12.4.1: 550.54.15)" */
	const char
		*minor_compat_min_driver; /* CUDA major's minor-compat floor; NULL for 10.x/ROCm */
	const char *minor_compat_as_listed;
	const char *python;	/* "3.8-3.12" */
	const char *cudnn;	/* "9.1.0.70" */
	const char *confidence; /* confirmed / unconfirmed */
	const char *notes;
	const char *source;
};

/* A TensorFlow release line's tested build configuration (tensorflow_tested_configs.tsv). */
struct facts_tensorflow {
	const char *version;	 /* "2.15.0", "2.16.1" */
	const char *package;	 /* "tensorflow" / "tensorflow_gpu" */
	const char *python;	 /* "3.9-3.11" */
	const char *compiler;	 /* "Clang 16.0.0" */
	const char *build_tools; /* "Bazel 6.1.0" */
	const char *cudnn;	 /* "8.9" */
	const char *cuda;	 /* "12.2" */
	const char *confidence;
	const char *notes;
	const char *source;
};

/* A library a framework release opens by name (framework_dlopen.tsv): release range
 * first <= v < below (below NULL: no end yet). */
struct facts_dlopen {
	const char *
		framework; /* the distribution: "tensorflow", "numba", "warp-lang", "cupy-cuda12x" */
	const char *first, *below;
	const char *library; /* "cudart", "cudnn", "cuda" (the driver), "nvrtc" */
	const char *names;   /* tried in order, '|' between them: "libcuda.so|libcuda.so.1" */
	bool wheel_rpath;    /* its libraries' DT_RUNPATH reaches site-packages/nvidia/<pkg>/lib */
	const char *confidence;
	const char *source;
};

/* The cuDNN a TensorFlow release line's Linux GPU binaries were compiled with, as TensorFlow's
 * own check prints it (tensorflow_builds.tsv). */
struct facts_tensorflow_build {
	const char *release;	      /* "1.15" */
	const char *evidence_release; /* "1.15.0": the release the source shows */
	const char *package;	      /* "tensorflow" / "tensorflow_gpu" */
	const char *cuda;	      /* "10.0" */
	const char *cudnn;	      /* "7.6.0" */
	const char *evidence;	      /* the quoted "… source was compiled with: 7.6.0." */
	const char *confidence;
	const char *notes;
	const char *source;
};

/* A row's confidence marks it unconfirmed ("unconfirmed", "high,unconfirmed": a '?' in the
 * sourced notes); a rule relying on such a row says so. */
static inline bool facts_unconfirmed(const char *confidence)
{
	return confidence && strstr(confidence, "unconfirmed");
}

/* Whether PCI device id `device` (0x56a0) is in `ids`, a knowledge-base comma list of
 * four-digit lower-case hex ids ("56a0,56a1"). */
bool facts_pci_id_listed(const char *ids, unsigned device);

/* First candidate product for a PCI id (an id can be shared by several products). An NVIDIA id
 * that gpu_compute_capability.tsv does not list gets the row of its chip instead (product = the
 * pci.ids name, segment NULL: not known from a name; see facts_nvidia_device_by_id()). */
int facts_gpu_by_pci_id(uint16_t vendor, uint16_t device, const struct facts_gpu **ret);
/* Candidates n (0-based) for a PCI id; -ENOENT past the last one. */
int facts_gpu_by_pci_id_nth(uint16_t vendor, uint16_t device, size_t n,
			    const struct facts_gpu **ret);
/* The NVIDIA GPU with this PCI device id (vendor 10de), from every GPU pci.ids names with a
 * chip codename; -ENOENT when it is not one. */
int facts_nvidia_device_by_id(uint16_t device, const struct facts_nvidia_device **ret);
/* Case-insensitive; ignores "NVIDIA", "GeForce", "Tesla" words and parenthesised notes; an
 * exact match wins, otherwise the longest table name that is a word prefix of name. */
int facts_gpu_by_name(const char *name, const struct facts_gpu **ret);

/* "12.4" (= 12.4.0 GA) or "12.4.1". */
int facts_cuda_release(const char *toolkit_version, const struct facts_cuda_release **ret);
/* Linux x86_64 minimum driver string; -ENODATA if the row has none confirmed. */
int facts_cuda_min_driver(const char *toolkit_version, const char **ret);
/* The releases of CUDA major.minor with a confirmed Linux minimum driver: the first (GA, or
 * the earliest confirmed update) and the newest. -ENOENT when none. */
int facts_cuda_minor_releases(unsigned major, unsigned minor,
			      const struct facts_cuda_release **ret_first,
			      const struct facts_cuda_release **ret_newest);
int facts_minor_compat_floor(unsigned cuda_major, const struct facts_minor_compat **ret);
/* Driver version "550.54.15" (or "550") → its branch row. */
int facts_driver_branch(const char *driver_version, const struct facts_driver_branch **ret);
/* The newest CUDA a driver runs: the CUDA version its branch reports (cuDriverGetVersion). */
struct facts_driver_cuda {
	const char *cuda;		       /* "12.4" */
	const struct facts_driver_branch *row; /* the row it comes from */
	bool lower_bound; /* the driver's branch is not in the table or its CUDA is unconfirmed:
			   * cuda is that of the nearest lower branch, the least it runs */
};
/* Driver version "550.54.15" (or "550") → the newest CUDA it runs. A branch the table does
 * not know (newer than it, or one between its rows) or whose CUDA is unconfirmed answers
 * from the nearest lower branch with a confirmed one, marked lower_bound: a driver runs
 * every CUDA an older branch does (CUDA release notes, "backward compatible"). -ENOENT when
 * no lower branch is known (could not tell), -EINVAL when not a version. */
int facts_cuda_newest_for_driver(const char *driver_version, struct facts_driver_cuda *ret);
/* "12.4" or "12.4.1" (patch ignored). */
int facts_cuda_arch(const char *cuda_version, const struct facts_cuda_arch **ret);
int facts_cuda_ptx_isa(const char *cuda_version, const char **ret);
int facts_xid(unsigned code, const struct facts_xid **ret);
/* The n-th row (0-based) whose range holds cudnn_version; -ENOENT past the last. */
int facts_cudnn_nth(const char *cudnn_version, size_t n, const struct facts_cudnn **ret);
/* Does the row list CUDA major.minor? (false also when its list was not captured) */
bool facts_cudnn_lists_cuda(const struct facts_cudnn *r, unsigned major, unsigned minor);
bool facts_cudnn_has_major(const struct facts_cudnn *r, unsigned major);
int facts_threshold(const char *name, const struct facts_threshold **ret);
/*
 * The end of life of a driver branch from its datacenter_eol text ("June 2026", "EOL (date
 * not given)"): 1 with *ret_yyyymm set (e.g. 202606) when a month is given, 0 when the
 * source says EOL without a date, -ENODATA when the row has no lifecycle end.
 */
int facts_driver_branch_eol(const struct facts_driver_branch *b, unsigned *ret_yyyymm);
/* PTX ISA X.Y → its row. */
int facts_ptx_isa(unsigned major, unsigned minor, const struct facts_ptx_isa **ret);
/* The highest PTX ISA the JIT of this driver ("550.54.15" or "550") accepts: the last row whose
 * min_driver_branch <= the driver's branch. -ENOENT when the driver is older than every row. */
int facts_ptx_isa_for_driver(const char *driver_version, const struct facts_ptx_isa **ret);
/* The highest driver branch named by the PTX ISA table (newer drivers are beyond the table). */
unsigned facts_ptx_isa_max_branch(void);
/* SM row (86, 100 …); -ENOENT when the table has none. */
int facts_sm_arch(unsigned sm, const struct facts_sm_arch **ret);

/*
 * ROCm release "6.2" (= 6.2.0), "6.2.4", "6.2.0-66" (a "-build" suffix as in
 * /opt/rocm/.info/version is ignored) → the row whose first..last range holds it. A HIP runtime
 * version (6.2.41133) is not a ROCm release. -ENOENT when no row holds it (e.g. 7.2.0: not
 * captured), -EINVAL when unparsable.
 */
int facts_rocm_release(const char *rocm_version, const struct facts_rocm **ret);
/*
 * Is gfx ("gfx90a", or a bundle id's target "gfx942:sramecc+:xnack-", whose features are
 * ignored) in the official target list of that ROCm release? 1 listed, 0 not listed, -ENODATA
 * the row has no captured list, -ENOENT / -EINVAL as facts_rocm_release(). On 0 or 1,
 * *ret_confidence (may be NULL) is the row's confidence: "unconfirmed" means the list itself is
 * not confirmed for that release and a rule relying on it must say so.
 */
int facts_rocm_supports_gfx(const char *rocm_version, const char *gfx, const char **ret_confidence);
/* The HSA_OVERRIDE_GFX_VERSION row of a GPU target ("gfx1031"; a bundle id's features are
 * ignored): 0, or -ENOENT when no public report names a value for it. */
int facts_hsa_override(const char *gfx, const struct facts_hsa_override **ret);
/*
 * A PyTorch wheel: torch_version is "2.4.0+cu124" (the local suffix names the variant),
 * "2.4.0", "2.4" or a nightly "2.10.0.dev20250929+rocm7.0" (only major.minor counts). variant
 * ("cu124", "rocm6.1") overrides the suffix; with neither, the PyPI default variant of that
 * release (PyPI wheels carry no suffix). -ENOENT no such row (also "+cpu"), -EINVAL unparsable.
 */
int facts_torch_wheel(const char *torch_version, const char *variant,
		      const struct facts_torch_wheel **ret);
/*
 * The newest CUDA variant of torch release line torch_version ("2.4.0+cpu", "2.4"; NULL: of any
 * release, the newest release first) whose full-functionality minimum driver (min_driver) is
 * at most `driver`: an index that exists (download.pytorch.org/whl/<variant>) and that the
 * driver runs. -ENOENT none, -EINVAL unparsable.
 */
int facts_torch_wheel_for_driver(const char *torch_version, const char *driver,
				 const struct facts_torch_wheel **ret);
/* The same through CUDA minor-version compatibility: the variant's minor_compat_min_driver
 * (the CUDA major's floor, e.g. 450.80.02 for 11.x) is at most `driver`; the newest such
 * variant of the line. Its code runs when its SASS covers the GPU (no PTX JIT then). */
int facts_torch_wheel_for_driver_compat(const char *torch_version, const char *driver,
					const struct facts_torch_wheel **ret);
/* The CUDA variants torch release line torch_version published ("cu118, cu121, cu124") into buf;
 * returns how many (0: none in the table). */
size_t facts_torch_cuda_variants(const char *torch_version, char *buf, size_t len);
/* Does a space-separated arch list ("sm_50 sm_86 compute_120", "gfx90a gfx942") name tok? */
bool facts_arch_list_has(const char *arch_list, const char *tok);
/* TensorFlow "2.15", "2.15.0" or "2.15.1" → the tested configuration of its release line. */
int facts_tensorflow_config(const char *tf_version, const struct facts_tensorflow **ret);
/* The rows of framework_dlopen.tsv for a framework distribution at version ("2.11.0",
 * "0.7.2"; a local label "+cu121" is ignored), in table order, at most max: their count.
 * 0 for an unknown framework or an unparsable version. */
size_t facts_dlopen_rows(const char *framework, const char *version,
			 const struct facts_dlopen **ret, size_t max);
/* TensorFlow "1.15", "1.15.0" … → the cuDNN its release line was compiled with; -ENOENT none. */
int facts_tensorflow_build(const char *tf_version, const struct facts_tensorflow_build **ret);

/* A framework release whose device count mis-reads MIG ids in CUDA_VISIBLE_DEVICES, or
 * miscounts a MIG machine's devices with it unset (framework_mig_bugs.tsv). */
struct facts_mig_bug {
	const char *framework; /* "torch" */
	const char *cvd;       /* "mig-ids": CUDA_VISIBLE_DEVICES names MIG devices; "unset" */
	const char *first;     /* first affected release */
	const char *fixed;     /* first fixed release (not affected); NULL not fixed */
	const char *symptom;
	const char *confidence;
	const char *source;
};

/* The row of cvd ("mig-ids", "unset") covering framework's release version (first <= version <
 * fixed, no upper bound for an empty fixed): 0, -ENOENT when none does, -EINVAL for a NULL
 * argument or a version that does not parse. */
int facts_mig_bug(const char *framework, const char *cvd, const char *version,
		  const struct facts_mig_bug **ret);
/*
 * One lookup of kind ("cuda", "driver", "gpu", "xid", "cudnn", "torch", "rocm", "tensorflow")
 * rendered as text or (json) JSON into *ret (malloc'd): gpuenv_facts_query() without its
 * argument checks. 0, -ENOENT no row, -EINVAL bad kind, -ENOMEM.
 */
int facts_query(const char *kind, const char *key, bool json, char **ret);
