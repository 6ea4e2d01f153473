// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * OpenCL checks over runtime.opencl (docs/snapshot-schema.md): the ICD files of
 * /etc/OpenCL/vendors and the library each names (Khronos cl_khr_icd, "ICD loader vendor
 * enumeration on Linux": the loader dlopen()s the line as written and leaves out a vendor whose
 * library does not load), and, live, the platforms the ICD loader lists. A GPU "with an
 * OpenCL-capable driver" is one whose kernel driver has an OpenCL implementation: nvidia
 * (NVIDIA's libnvidia-opencl), amdgpu (ROCm's or Mesa's), i915/xe (intel-opencl-icd).
 */
#include <stdio.h>
#include <sys/types.h>
#include <string.h>

#include "rules/rules-intel.h"

static bool gpu_opencl_capable(const struct snap_node *gpu)
{
	const char *drv = snap_get_str(gpu, "driver");

	return drv && (streq(drv, "nvidia") || streq(drv, "amdgpu") || streq(drv, "i915") ||
		       streq(drv, "xe"));
}

/* The first GPU with an OpenCL-capable driver bound, or NULL. */
static const struct snap_node *opencl_gpu(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_opencl_capable(snap_at(gpus, i)))
			return snap_at(gpus, i);
	return NULL;
}

/* The ICD files, when there are any: no ICD file is no OpenCL installed, not a fault. */
static const struct snap_node *icd_files(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *icds = snap_get(root, "runtime.opencl.icd_files");

	if (!icds)
		return NULL;
	if (snap_kind(icds) != SNAP_ARRAY) {
		if (snap_state(icds) != FACT_ABSENT)
			rule_need(c, NULL, "/etc/OpenCL/vendors", icds);
		return NULL;
	}
	return snap_count(icds) ? icds : NULL;
}

bool opencl_gpu_icd_registered(const struct snap_node *root)
{
	const struct snap_node *icds = snap_get(root, "runtime.opencl.icd_files");

	for (size_t i = 0; i < snap_count(icds); i++) {
		const struct snap_node *f = snap_at(icds, i);
		bool cpu = true;

		if (snap_get_str(f, "library") && snap_bool(snap_child(f, "cpu_only"), &cpu) &&
		    !cpu)
			return true;
	}
	return false;
}

/*
 * Which kernel drivers' GPUs a vendor ICD drives, told by its library's name: NVIDIA's
 * libnvidia-opencl (nvidia), ROCm's libamdocl64 and the older libamdocl-orca64 (amdgpu),
 * Intel's compute runtime libigdrcl (i915, xe), Mesa's Clover libMesaOpenCL (amdgpu: radeonsi)
 * and Rusticl libRusticlOpenCL (amdgpu, i915, xe: radeonsi, iris). NULL for a name not known.
 */
static const char *const *icd_drivers(const char *library)
{
	static const char *const nvidia[] = { "nvidia", NULL }, *const amd[] = { "amdgpu", NULL },
				 *const intel[] = { "i915", "xe", NULL },
				 *const rusticl[] = { "amdgpu", "i915", "xe", NULL };
	static const struct {
		const char *prefix;
		const char *const *drivers;
	} known[] = {
		{ "libnvidia-opencl", nvidia },	 { "libamdocl", amd },
		{ "libigdrcl", intel },		 { "libMesaOpenCL", amd },
		{ "libRusticlOpenCL", rusticl },
	};
	const char *base = strrchr(library, '/');

	base = base ? base + 1 : library;
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (startswith(base, known[i].prefix))
			return known[i].drivers;
	return NULL;
}

static bool icd_drives(const char *library, const char *driver)
{
	const char *const *d = library && driver ? icd_drivers(library) : NULL;

	for (; d && *d; d++)
		if (streq(*d, driver))
			return true;
	return false;
}

/* The library's DT_NEEDED names the dynamic loader finds nowhere (probe-opencl.c), or NULL
 * when none is known missing. */
static const struct snap_node *needed_missing(const struct snap_node *icd)
{
	const struct snap_node *nm = snap_child(icd, "needed_missing");

	return snap_kind(nm) == SNAP_ARRAY && snap_count(nm) ? nm : NULL;
}

/*
 * Another registered ICD that drives GPUs of `driver` and whose library is installed, or may
 * be (its resolution not known): only a library known absent, or known not to load (a needed
 * library missing), leaves the GPU without it.
 */
static bool other_icd_drives(const struct snap_node *icds, size_t skip, const char *driver)
{
	for (size_t i = 0; i < snap_count(icds); i++) {
		const struct snap_node *f = snap_at(icds, i);

		if (i != skip && snap_state(snap_get(f, "resolved.path")) != FACT_ABSENT &&
		    !needed_missing(f) && icd_drives(snap_get_str(f, "library"), driver))
			return true;
	}
	return false;
}

/*
 * The index in hardware.gpus of the bound GPU this missing ICD was installed for when no other
 * ICD drives it, or -1. No OpenCL platform reaches that GPU then: ocl-icd skips the ICD ("=>
 * skipping ICD", illinois-scicomp/machine-shop-maintenance#57, "AMD CL not working") and an
 * OpenCL program finds no GPU device (NVIDIA's ICD not found: machine-shop-maintenance#68).
 * Where another platform still drives it, the loader lists one platform fewer (clinfo prints
 * the dlerror line, then the other platforms: ROCm/clr#15): a warning.
 */
static ssize_t gpu_left_without_opencl(const struct snap_node *root, const struct snap_node *icds,
				       size_t i)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const char *lib = snap_get_str(snap_at(icds, i), "library");

	for (size_t g = 0; g < snap_count(gpus); g++) {
		const char *drv = snap_get_str(snap_at(gpus, g), "driver");

		if (icd_drives(lib, drv) && !other_icd_drives(icds, i, drv))
			return (ssize_t)g;
	}
	return -1;
}

/*
 * The package that installs a needed library, where it is known: Intel's gmmlib, which the
 * compute runtime's libigdrcl.so links since 2020 ("Neo is being linked with gmmlib",
 * intel/compute-runtime#230: without it `ldd libigdrcl.so` shows "libigdgmm.so.11 => not
 * found"); Debian and Ubuntu package libigdgmm.so.<N> as libigdgmm<N>, built from the source
 * package intel-gmmlib (packages.debian.org/bookworm/libigdgmm12, bullseye/libigdgmm11,
 * buster/libigdgmm5). Other distributions' names are not confirmed here: they get the generic
 * search line as well.
 */
static void fix_needed(struct finding *fd, const char *soname)
{
	static const char gmm[] = "libigdgmm.so.";
	const char *major = startswith(soname, gmm) ? soname + strlen(gmm) : NULL;

	if (major && *major && strspn(major, "0123456789") == strlen(major)) {
		finding_fix(fd,
			    "sudo apt install libigdgmm%s   # Intel's gmmlib (Debian and Ubuntu), "
			    "which installs %s; elsewhere: dnf provides '*/%s'",
			    major, soname, soname);
		return;
	}
	finding_fix(fd,
		    "apt-file search %s   # (dnf provides '*/%s') the package that installs it; "
		    "install it, or add its directory to /etc/ld.so.conf.d/ and run sudo ldconfig",
		    soname, soname);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* ", "-joined names of a needed_missing[] array, cut to fit; a name a library below the
 * vendor library needs (its source is that library, probe-opencl.c) says which one. */
static void join_names(const struct snap_node *nm, const char *library, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < snap_count(nm) && at < len; k++) {
		const char *by = snap_source(snap_at(nm, k));
		bool below = by && library && !streq(base_name(by), base_name(library));
		int n = snprintf(buf + at, len - at, "%s%s%s%s%s", k ? ", " : "",
				 snap_str(snap_at(nm, k)) ?: "?", below ? " (needed by " : "",
				 below ? by : "", below ? ")" : "");

		if (n < 0)
			break;
		at += (size_t)n;
	}
}

RULE_CHECK(check_opencl_icd_library_missing)
{
	const struct snap_node *icds = icd_files(c, root);

	for (size_t i = 0; icds && i < snap_count(icds); i++) {
		const struct snap_node *f = snap_at(icds, i);
		const struct snap_node *p = snap_get(f, "resolved.path");
		const struct snap_node *nm = snap_child(f, "needed_missing");
		const char *lib = snap_get_str(f, "library");
		const struct snap_node *g = NULL;
		char absent[640], names[512];
		ssize_t gi;
		char name[96];
		struct finding *fd;

		if (!lib)
			continue; /* an unreadable or empty ICD file: its own fact says so */
		if (!rule_need_known(c, lib, "where the ICD's library is", p) ||
		    !lib_need_determined(c, lib, snap_child(f, "resolved")))
			continue;
		if (snap_state(p) == FACT_PRESENT) {
			/* Installed: it loads unless a library it needs is missing. */
			if (nm && snap_kind(nm) != SNAP_ARRAY &&
			    !rule_need(c, lib, "the ICD library's needed libraries", nm))
				continue;
			if (!(nm = needed_missing(f)))
				continue;
			join_names(nm, snap_str(p), names, sizeof(names));
			snprintf(absent, sizeof(absent),
				 "which is installed but does not load: it needs %s, which the "
				 "dynamic loader's search does not find",
				 names);
		} else {
			nm = NULL;
			/* A bare name goes through dlopen(3)'s search: it may be installed
			 * elsewhere. */
			snprintf(absent, sizeof(absent), "%s",
				 strchr(lib, '/')
					 ? "which is not installed"
					 : "which the dynamic loader's search does not find");
		}
		gi = gpu_left_without_opencl(root, icds, i);
		if (gi >= 0)
			g = snap_at(snap_get(root, "hardware.gpus"), (size_t)gi);
		if (g)
			fd = rule_finding(c, GPUENV_SEVERITY_ERROR, lib,
					  "%s names %s, %s: the ICD loader leaves this OpenCL "
					  "platform out, and no other installed ICD drives the GPU "
					  "at %s (%s): OpenCL programs find no GPU device",
					  snap_get_str(f, "path") ?: "an ICD file", lib, absent,
					  snap_get_str(g, "bus_id") ?: "?",
					  snap_get_str(g, "driver"));
		else
			fd = rule_finding(c, GPUENV_SEVERITY_WARNING, lib,
					  "%s names %s, %s: the ICD loader leaves this OpenCL "
					  "platform out",
					  snap_get_str(f, "path") ?: "an ICD file", lib, absent);
		if (!fd)
			return;
		if (g) {
			snprintf(name, sizeof(name), "hardware.gpus.%zd.driver", gi);
			finding_fact(fd, name, snap_child(g, "driver"));
		}
		snprintf(name, sizeof(name), "runtime.opencl.icd_files.%zu.library", i);
		finding_fact(fd, name, snap_child(f, "library"));
		snprintf(name, sizeof(name), "runtime.opencl.icd_files.%zu.resolved.path", i);
		finding_fact(fd, name, p);
		for (size_t k = 0; nm && k < snap_count(nm); k++) {
			snprintf(name, sizeof(name),
				 "runtime.opencl.icd_files.%zu.needed_missing.%zu", i, k);
			finding_fact(fd, name, snap_at(nm, k));
			if (snap_str(snap_at(nm, k)))
				fix_needed(fd, snap_str(snap_at(nm, k)));
		}
		/* The rule's lines are for a library gone or off the path: not this. */
		if (!nm)
			finding_rule_fix(fd);
		else
			finding_verify(fd, "ldd %s | grep 'not found'", snap_str(p) ?: lib);
		finding_rule_verify(fd);
	}
}

RULE_CHECK(check_opencl_no_platforms)
{
	const struct snap_node *icds = icd_files(c, root), *g = opencl_gpu(root);
	const struct snap_node *pc = snap_get(root, "runtime.opencl.platform_count");
	int64_t n = -1;
	struct finding *f;

	if (!icds || !g)
		return;
	if (!rule_need(c, NULL, "the OpenCL platforms (live: clGetPlatformIDs)", pc))
		return;
	if (!snap_int(pc, &n) || n != 0)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
			 "the OpenCL ICD loader lists no platform, though the GPU at %s has an "
			 "OpenCL-capable driver (%s) and %zu ICD file(s) are registered",
			 snap_get_str(g, "bus_id") ?: "?", snap_get_str(g, "driver"),
			 snap_count(icds));
	if (!f)
		return;
	finding_fact(f, "runtime.opencl.platform_count", pc);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* The first Intel GPU with i915/xe bound: OpenCL is part of Intel's compute stack (CUDA and
 * ROCm/HIP users do not go through OpenCL, and a CPU ICD beside them is no fault). */
static const struct snap_node *intel_gpu(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_intel_bound(snap_at(gpus, i)))
			return snap_at(gpus, i);
	return NULL;
}

/* An Intel GPU a paste shows whose OpenCL would be Intel's: i915 or xe bound, or its driver not
 * read (lspci without -k); a GPU shown bound to another driver, or to none, is not. */
static const struct snap_node *pasted_intel_gpu(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i), *drv = snap_child(g, "driver");

		if (gpu_vendor_intel(g) && (gpu_intel_bound(g) || snap_state(drv) == FACT_UNPROBED))
			return g;
	}
	return NULL;
}

/* A CPU implementation by its platform name alone: the Intel CPU Runtime for OpenCL (its name
 * since 2018) and Oclgrind, an emulator. PoCL ("Portable Computing Language") and the older
 * Intel SDK's "Intel(R) OpenCL" may drive GPUs too (PoCL's CUDA device, Intel's SDK on
 * Windows): they are told CPU-only by their GPU device count. */
static bool cpu_platform_name(const char *name)
{
	return name && (startswith(name, "Intel(R) CPU Runtime for OpenCL") ||
			startswith(name, "Oclgrind"));
}

static bool cpu_capable_platform_name(const char *name)
{
	return name && (startswith(name, "Intel(R) OpenCL") ||
			startswith(name, "Portable Computing Language"));
}

/*
 * Over a paste, which lists no ICD file: the OpenCL platforms it shows (clinfo's names, the
 * miners' platform lines, pasted-clinfo.c) stand for them. Every platform a CPU implementation,
 * by its name or by having no GPU device (bfgminer's "Error -1: Getting Device IDs (num)",
 * luke-jr/bfgminer#249), beside an Intel GPU: the finding. A platform whose GPU devices the
 * text does not give leaves the rule unsure (a skip: explain asks `clinfo -l`); one of another
 * vendor with no GPU device (AMD's APP SDK over a GPU its driver does not drive) is not this
 * rule's.
 */
static void cpu_only_from_platforms(struct rule_ctx *c, const struct snap_node *root,
				    const struct snap_node *platforms)
{
	const struct snap_node *g = pasted_intel_gpu(root), *first = NULL;
	size_t first_i = 0;
	char path[96];
	struct finding *f;

	if (!g)
		return;
	for (size_t i = 0; i < snap_count(platforms); i++) {
		const struct snap_node *p = snap_at(platforms, i);
		const struct snap_node *gd = snap_child(p, "gpu_devices");
		const char *name = snap_get_str(p, "name");
		int64_t n = -1;

		if (snap_int(gd, &n) && n > 0)
			return; /* a platform with a GPU device */
		if (!cpu_platform_name(name) && !(n == 0 && cpu_capable_platform_name(name))) {
			if (cpu_capable_platform_name(name))
				rule_need(c, name, "the platform's GPU devices (clinfo -l)", gd);
			return;
		}
		if (!first) {
			first = p;
			first_i = i;
		}
	}
	if (!first)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
			 "only CPU OpenCL platforms are listed (%s%s): OpenCL programs run on the "
			 "CPU, not on the Intel GPU at %s",
			 snap_get_str(first, "name"),
			 snap_child(first, "gpu_devices") ? ", no GPU device" : "",
			 snap_get_str(g, "bus_id") ?: "?");
	if (!f)
		return;
	snprintf(path, sizeof(path), "runtime.opencl.platforms.%zu.name", first_i);
	finding_fact(f, path, snap_child(first, "name"));
	if (snap_child(first, "gpu_devices")) {
		snprintf(path, sizeof(path), "runtime.opencl.platforms.%zu.gpu_devices", first_i);
		finding_fact(f, path, snap_child(first, "gpu_devices"));
	}
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_opencl_cpu_only)
{
	const struct snap_node *platforms = snap_get(root, "runtime.opencl.platforms");
	const struct snap_node *pci = snap_get(root, "hardware.pci_devices");
	const struct snap_node *icds, *g;
	const char *cpu = NULL;
	struct finding *f;

	/* a paste's platforms with no ICD file read */
	if (snap_count(platforms) && !snap_get(root, "runtime.opencl.icd_files")) {
		cpu_only_from_platforms(c, root, platforms);
		return;
	}
	if (!rule_need(c, NULL, "hardware.pci_devices", pci))
		return;
	rule_need_gpu_ids(c, root);
	icds = icd_files(c, root);
	g = intel_gpu(root);
	if (!icds || !g)
		return;
	for (size_t i = 0; i < snap_count(icds); i++) {
		const struct snap_node *fi = snap_at(icds, i), *co = snap_child(fi, "cpu_only");
		bool on = false;

		if (!snap_child(fi, "library") ||
		    snap_state(snap_child(fi, "library")) != FACT_PRESENT)
			continue;
		if (!rule_need(c, NULL, "whether an ICD is CPU-only", co))
			return;
		snap_bool(co, &on);
		if (!on)
			return; /* a GPU ICD is registered (whether it loads: icd-library-missing) */
		cpu = cpu ?: snap_get_str(fi, "library");
	}
	if (!cpu)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
			 "only CPU OpenCL implementations are registered (%s): OpenCL programs "
			 "run on the CPU, not on the GPU at %s (%s)",
			 cpu, snap_get_str(g, "bus_id") ?: "?", snap_get_str(g, "driver"));
	if (!f)
		return;
	finding_fact(f, "runtime.opencl.icd_files.0.library",
		     snap_get(root, "runtime.opencl.icd_files.0.library"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}
