// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Readings of the snapshot that several rules share (keys as in docs/snapshot-schema.md):
 * which hardware.gpus[] entries are NVIDIA / AMD (PCI vendor ids 0x10de / 0x1002), a GPU's
 * knowledge-base row by PCI id (facts/gpu_compute_capability.tsv), the loaded NVIDIA driver
 * version (/sys/module/nvidia/version, else the NVRM line of /proc/driver/nvidia/version),
 * and whether the judged process runs in a container. Pure functions.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"
#include "shared/strbuf.h"

bool gpu_pci_ids(const struct snap_node *gpu, unsigned *ret_vendor, unsigned *ret_device)
{
	const char *v = snap_get_str(gpu, "vendor_id"), *d = snap_get_str(gpu, "device_id");
	unsigned vv, dd;

	if (!v || !d || parse_uint(v, 0, &vv) < 0 || parse_uint(d, 0, &dd) < 0 || vv > 0xffff ||
	    dd > 0xffff)
		return false;
	*ret_vendor = vv;
	*ret_device = dd;
	return true;
}

/* The vendor alone decides: a `--target gpu=6.1` GPU has NVIDIA's vendor id and no device id
 * (check-target.c), and is an NVIDIA GPU all the same. Without an id (pasted `lspci` run
 * without -nn names the vendor only: "NVIDIA Corporation"), the vendor's name as the PCI
 * probe and the lspci reader write it. */
static bool gpu_vendor_is(const struct snap_node *gpu, unsigned want)
{
	const char *v = snap_get_str(gpu, "vendor_id"), *name = snap_get_str(gpu, "vendor");
	unsigned vv;

	if (!v && name)
		return streq(name, want == 0x10de   ? "NVIDIA"
				   : want == 0x1002 ? "AMD"
				   : want == 0x8086 ? "Intel"
						    : "");
	return v && parse_uint(v, 0, &vv) == 0 && vv == want;
}

bool gpu_is_nvidia(const struct snap_node *gpu)
{
	return gpu_vendor_is(gpu, 0x10de);
}

bool gpu_is_amd(const struct snap_node *gpu)
{
	return gpu_vendor_is(gpu, 0x1002);
}

bool gpu_vendor_intel(const struct snap_node *gpu)
{
	return gpu_vendor_is(gpu, 0x8086);
}

size_t gpus_count(const struct snap_node *root, bool (*filter)(const struct snap_node *))
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	size_t n = 0;

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (!filter || filter(snap_at(gpus, i)))
			n++;
	return n;
}

int gpu_facts(const struct snap_node *gpu, const struct facts_gpu **ret)
{
	unsigned v, d;

	if (!gpu_pci_ids(gpu, &v, &d))
		return -ENODATA;
	return facts_gpu_by_pci_id((uint16_t)v, (uint16_t)d, ret);
}

enum driver_state nvidia_driver(const struct snap_node *root, const char **ret_version,
				const struct snap_node **ret_fact)
{
	const struct snap_node *mod = snap_get(root, "driver.nvidia.module_version");
	const struct snap_node *proc = snap_get(root, "driver.nvidia.proc_version");
	struct version v;

	if (snap_present(mod) && version_parse(snap_str(mod), &v) == 0) {
		*ret_version = snap_str(mod);
		*ret_fact = mod;
		return DRIVER_LOADED;
	}
	if (snap_present(proc)) {
		*ret_version = snap_str(proc);
		*ret_fact = proc;
		return DRIVER_LOADED;
	}
	/* Pasted text (gpuenv explain) that shows neither the module's version nor its version
	 * file may show nvidia-smi's "Driver Version": NVML's nvmlSystemGetDriverVersion(), the
	 * loaded kernel module's version (with another module loaded nvmlInit fails with
	 * NVML_ERROR_LIB_RM_VERSION_MISMATCH and nothing is printed). Never on a live machine,
	 * whose probe always reads /sys/module/nvidia/version, nor for a paste from Windows or
	 * WSL2, where it is the Windows driver's. */
	if (snap_state(mod) == FACT_UNPROBED && snap_state(proc) == FACT_UNPROBED) {
		const struct snap_node *nvml = snap_get(root, "driver.nvml.driver_version");

		if (snap_present(nvml) && version_parse(snap_str(nvml), &v) == 0 &&
		    !snap_present(snap_get(root, "messages.platform.windows")) &&
		    !on_wsl2(root, NULL)) {
			*ret_version = snap_str(nvml);
			*ret_fact = nvml;
			return DRIVER_LOADED;
		}
	}
	*ret_version = NULL;
	*ret_fact = snap_state(mod) != FACT_ABSENT ? mod : proc;
	if (snap_state(mod) == FACT_ABSENT && snap_state(proc) == FACT_ABSENT)
		return driver_lives_elsewhere(root) ? DRIVER_ELSEWHERE : DRIVER_NONE;
	return DRIVER_UNKNOWN;
}

bool windows_driver(const struct snap_node *root, const char **ret_version,
		    const struct snap_node **ret_fact)
{
	const struct snap_node *nvml = snap_get(root, "driver.nvml.driver_version");
	struct version v;

	/* Where no nvidia-smi or collect_env line names it, the version read from Windows's own
	 * WDDM form of it (pasted-windows.c: Device Manager, wmic, dxdiag) */
	if (!snap_present(nvml))
		nvml = snap_get(root, WINDOWS_WDDM_DERIVED);
	/* Pasted text only (a live machine reads the module's state, never unprobed), from
	 * Windows or WSL2, whose nvidia-smi and collect_env name the Windows driver. */
	if (driver_os(root) != DRIVER_OS_WINDOWS ||
	    snap_state(snap_get(root, "driver.nvidia.module_version")) != FACT_UNPROBED ||
	    snap_state(snap_get(root, "driver.nvidia.proc_version")) != FACT_UNPROBED ||
	    !snap_present(nvml) || version_parse(snap_str(nvml), &v) < 0)
		return false;
	/* never the WDDM form Device Manager prints ("31.0.15.4633"): not NVIDIA's numbering */
	if (v.part[0] < 100)
		return false;
	*ret_version = snap_str(nvml);
	*ret_fact = nvml;
	return true;
}

const char *windows_driver_origin(const struct snap_node *root, const struct snap_node *fact,
				  char *buf, size_t len)
{
	const char *wddm = snap_get_str(root, WINDOWS_WDDM_FORM);

	if (!fact || fact != snap_get(root, WINDOWS_WDDM_DERIVED) || !wddm)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len,
			 " (read from Windows's WDDM form of it, %s: NVIDIA's version is its last "
			 "five digits)",
			 wddm);
	return buf;
}

void windows_driver_facts(struct finding *f, const struct snap_node *root,
			  const struct snap_node *fact)
{
	finding_fact(f, driver_fact_key(root, fact), fact);
	if (fact && fact == snap_get(root, WINDOWS_WDDM_DERIVED))
		finding_fact(f, WINDOWS_WDDM_FORM, snap_get(root, WINDOWS_WDDM_FORM));
}

const char *driver_fact_key(const struct snap_node *root, const struct snap_node *fact)
{
	static const char *const keys[] = { "driver.nvidia.module_version",
					    "driver.nvidia.proc_version",
					    "driver.nvml.driver_version", WINDOWS_WDDM_DERIVED };

	for (size_t i = 0; fact && i < ARRAY_SIZE(keys); i++)
		if (snap_get(root, keys[i]) == fact)
			return keys[i];
	return keys[0];
}

bool on_wsl2(const struct snap_node *root, const char **ret_why)
{
	const char *rel = snap_get_str(root, "host.kernel_release"), *why = NULL;

	/* WSL2's kernels (github.com/microsoft/WSL2-Linux-Kernel) are released as
	 * "<version>-microsoft-standard-WSL2"; WSL1 ("…-Microsoft") has no GPU at all. */
	if (rel && strstr(rel, "-microsoft-standard"))
		why = "kernel release *-microsoft-standard*";
	else if (snap_get_bool_default(root, "host.wsl.dxg_device", false))
		why = "/dev/dxg";
	else if (snap_get_bool_default(root, "host.wsl.lib_dir", false))
		why = "/usr/lib/wsl/lib";
	if (ret_why)
		*ret_why = why;
	return why != NULL;
}

bool on_wsl1(const struct snap_node *root, const char **ret_release)
{
	const char *rel = snap_get_str(root, "host.kernel_release");

	/* WSL1 reports a kernel release "4.4.0-<Windows build>-Microsoft" (capital M; WSL2's
	 * are "…-microsoft-standard…"): microsoft/WSL#5554, "That kernel version indicates that
	 * you are using WSL1"; ollama's install.sh refuses "*icrosoft" kernels as WSL1. Pasted
	 * text may show it only in another line (pasted-windows.c: messages.platform.wsl1). */
	if (!(rel && strstr(rel, "-Microsoft") && !strstr(rel, "microsoft-standard")))
		rel = snap_get_str(root, "messages.platform.wsl1");
	if (ret_release)
		*ret_release = rel;
	return rel != NULL;
}

const char *driver_lives_elsewhere(const struct snap_node *root)
{
	if (on_wsl1(root, NULL))
		return "WSL1: a WSL1 distribution gets no GPU at all (CUDA on WSL needs WSL2); no "
		       "Linux kernel module is loaded, nor can be";
	if (on_wsl2(root, NULL))
		return "WSL2: the GPU driver is the Windows host's, reached through /dev/dxg and "
		       "/usr/lib/wsl/lib; no Linux kernel module is loaded, nor should be";
	/* Only a container the runtime gave the GPU (device nodes, or NVIDIA_VISIBLE_DEVICES
	 * asking for GPUs): one without either truly has no driver to use. */
	if (in_container(root) &&
	    (snap_get_bool_default(root, "driver.device_nodes.nvidiactl", false) ||
	     snap_present(snap_get(root, "container.requested.NVIDIA_VISIBLE_DEVICES"))))
		return "in a container: the kernel driver is the host's, given to the container "
		       "by its runtime";
	return NULL;
}

bool driver_answered_here(const struct snap_node *root)
{
	const char *nvml = snap_get_str(root, "driver.nvml.init");
	const char *cuda = snap_get_str(root, "driver.cuda.init");

	return nvml && cuda && strcmp(nvml, "NVML_SUCCESS") == 0 &&
	       strcmp(cuda, "CUDA_SUCCESS") == 0;
}

bool rule_nvidia_driver(struct rule_ctx *c, const struct snap_node *root, const char *what,
			const char **ret_version, const struct snap_node **ret_fact)
{
	const struct snap_node *fact;
	const char *ver;

	switch (nvidia_driver(root, &ver, &fact)) {
	case DRIVER_NONE:
		return false;
	case DRIVER_UNKNOWN:
		rule_need(c, NULL, what, fact);
		return false;
	case DRIVER_ELSEWHERE:
		rule_skip_elsewhere(c, what, driver_lives_elsewhere(root));
		return false;
	case DRIVER_LOADED:
		break;
	}
	*ret_version = ver;
	if (ret_fact)
		*ret_fact = fact;
	return true;
}

bool rule_no_nvidia_driver(struct rule_ctx *c, const struct snap_node *root, const char *what)
{
	const struct snap_node *fact;
	const char *ver;

	switch (nvidia_driver(root, &ver, &fact)) {
	case DRIVER_LOADED:
	case DRIVER_ELSEWHERE: /* not "no driver": it is another system's */
		return false;
	case DRIVER_UNKNOWN:
		rule_need(c, NULL, what, fact);
		return false;
	case DRIVER_NONE:
		break;
	}
	return true;
}

bool error_names(const struct snap_node *fact, const char *what)
{
	const char *e = snap_error(fact);

	return !snap_present(fact) && e && strstr(e, what);
}

void driver_evidence(struct finding *f, const struct snap_node *root)
{
	finding_fact(f, "driver.nvidia.module_version",
		     snap_get(root, "driver.nvidia.module_version"));
	finding_fact(f, "driver.kernel_modules.nvidia",
		     snap_get(root, "driver.kernel_modules.nvidia"));
}

bool in_container(const struct snap_node *root)
{
	return snap_present(snap_get(root, "container.dockerenv")) ||
	       snap_present(snap_get(root, "container.containerenv")) ||
	       snap_present(snap_get(root, "container.cgroup_engine")) ||
	       snap_present(snap_get(root, "container.overlay_engine")) ||
	       snap_get_bool_default(root, "container.cgroup_nested", false);
}

const char *container_engine(const struct snap_node *root)
{
	const char *e = snap_get_str(root, "container.cgroup_engine")
				?: snap_get_str(root, "container.overlay_engine");

	if (e)
		return e;
	if (snap_present(snap_get(root, "container.dockerenv")))
		return "docker";
	if (snap_present(snap_get(root, "container.containerenv")))
		return "podman";
	if (snap_get_bool_default(root, "container.cgroup_nested", false))
		return "unknown engine (cgroup namespace)";
	return NULL;
}

static bool unread(const struct snap_node *fact)
{
	enum fact_state st = snap_state(fact);

	return st == FACT_UNREADABLE || st == FACT_MALFORMED || st == FACT_ERROR;
}

bool container_unsure(const struct snap_node *root)
{
	const char *fs = snap_get_str(root, "container.root_fs_type");

	if (in_container(root))
		return false;
	/* an overlay / of no known engine; or the signs a cgroup v2 container gives could not
	 * be read: then the missing marker files alone do not make this a host */
	return (fs && streq(fs, "overlay")) || unread(snap_get(root, "container.root_fs_type")) ||
	       unread(snap_get(root, "container.cgroup_nested"));
}

bool container_known_absent(const struct snap_node *root)
{
	return snap_state(snap_get(root, "container.dockerenv")) == FACT_ABSENT &&
	       snap_state(snap_get(root, "container.containerenv")) == FACT_ABSENT &&
	       snap_state(snap_get(root, "container.cgroup_engine")) == FACT_ABSENT &&
	       !in_container(root) && !container_unsure(root);
}

const char *userspace_lib_version(const struct snap_node *lib)
{
	if (!snap_present(snap_child(lib, "path")) ||
	    snap_get_bool_default(lib, "is_stub", false) ||
	    snap_get_bool_default(lib, "in_compat_dir", false))
		return NULL;
	return snap_get_str(lib, "version");
}

const char *userspace_driver_version(const struct snap_node *root, const char **ret_fact)
{
	static const struct {
		const char *lib, *fact;
	} libs[] = {
		{ "driver.userspace.libnvidia_ml", "driver.userspace.libnvidia_ml.version" },
		{ "driver.userspace.libcuda", "driver.userspace.libcuda.version" },
	};
	const char *found = NULL, *fact = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(libs); i++) {
		const char *v = userspace_lib_version(snap_get(root, libs[i].lib));

		if (!v)
			continue;
		if (found && version_cmp_str(found, v) != 0)
			return NULL; /* two versions: driver.version-mismatch's to judge */
		if (!found) {
			found = v;
			fact = libs[i].fact;
		}
	}
	if (ret_fact)
		*ret_fact = fact;
	return found;
}

bool cuda_major_minor(const char *s, unsigned *ret_major, unsigned *ret_minor)
{
	struct version v;
	const char *end;

	if (!s || version_parse_prefix(s, &v, &end) < 0 || v.n < 2)
		return false;
	*ret_major = v.part[0];
	*ret_minor = v.part[1];
	return true;
}

/*
 * The driver a CUDA toolkit version needs (facts/cuda_driver_min.tsv): the exact release row
 * when the version names one ("12.4.1"), otherwise the GA row of its major.minor, with the
 * newest update's minimum as the upper end (a version from a component such as
 * nvidia_cuda_runtime-13.0.96 does not say which update it is).
 */
enum driver_os snapshot_os(const struct snap_node *root)
{
	/* what shows Linux: a kernel release (a live probe always reads it), os-release, the
	 * NVIDIA kernel module, lsmod, a kernel log (pasted-windows.c reads Windows's marks) */
	static const char *const linux_marks[] = { "host.kernel_release", "host.os.id",
						   "driver.nvidia", "driver.kernel_modules",
						   "driver.kernel_log" };

	for (size_t i = 0; i < ARRAY_SIZE(linux_marks); i++)
		if (snap_get(root, linux_marks[i]))
			return DRIVER_OS_LINUX;
	if (snap_present(snap_get(root, "messages.platform.windows")))
		return DRIVER_OS_WINDOWS;
	return DRIVER_OS_UNKNOWN;
}

enum driver_os driver_os(const struct snap_node *root)
{
	enum driver_os os = snapshot_os(root);

	return os == DRIVER_OS_LINUX && on_wsl2(root, NULL) ? DRIVER_OS_WINDOWS : os;
}

const char *driver_floor_text(enum driver_os os, const char *linux_min, const char *windows_min,
			      char *buf, size_t len)
{
	const char *win = windows_min && *windows_min ? windows_min : NULL;

	if (os == DRIVER_OS_LINUX)
		snprintf(buf, len, "%s", linux_min ?: "?");
	else if (os == DRIVER_OS_WINDOWS && win)
		snprintf(buf, len, "%s", win);
	else if (os == DRIVER_OS_WINDOWS)
		snprintf(buf, len, "? (Windows: not in the knowledge base; Linux: %s)",
			 linux_min ?: "?");
	else
		snprintf(buf, len, "%s (Linux) / %s (Windows)", linux_min ?: "?",
			 win ?: "? (not in the knowledge base)");
	return buf;
}

const char *cuda_req_floor(const struct cuda_req *req, const struct facts_cuda_release *rel,
			   char *buf, size_t len)
{
	return driver_floor_text(req->os, rel->linux_min_driver, rel->windows_min_driver, buf, len);
}

const char *cuda_req_mc_floor(const struct cuda_req *req, char *buf, size_t len)
{
	return driver_floor_text(req->os, req->mc ? req->mc->linux_min_driver : NULL,
				 req->mc ? req->mc->windows_min_driver : NULL, buf, len);
}

int cuda_requirement(const struct snap_node *root, const char *toolkit_version,
		     struct cuda_req *ret)
{
	struct cuda_req r = { .os = root ? driver_os(root) : DRIVER_OS_LINUX };
	const struct facts_cuda_release *exact = NULL;
	int err;

	if (!cuda_major_minor(toolkit_version, &r.major, &r.minor))
		return -EINVAL;
	err = facts_cuda_minor_releases(r.major, r.minor, &r.first, &r.newest);
	if (err < 0)
		return err;
	if (facts_cuda_release(toolkit_version, &exact) == 0 && exact->linux_min_driver) {
		r.first = r.newest = exact;
		r.exact = true;
	}
	(void)facts_minor_compat_floor(r.major, &r.mc);
	*ret = r;
	return 0;
}

enum link_state cuda_driver_judge(const struct cuda_req *req, const char *driver)
{
	struct version d;

	if (version_cmp_str(driver, req->first->linux_min_driver) >= 0)
		return LINK_OK;
	if (req->mc && req->mc->linux_min_driver &&
	    version_cmp_str(driver, req->mc->linux_min_driver) >= 0 &&
	    version_parse(driver, &d) == 0 &&
	    (!req->mc->upper_bound_exclusive || d.part[0] < req->mc->upper_bound_exclusive))
		return LINK_DEGRADED;
	return LINK_BROKEN;
}

enum link_state cuda_driver_judge_windows(const struct cuda_req *req, const char *driver)
{
	const char *first = req->first->windows_min_driver;
	const char *mc = req->mc ? req->mc->windows_min_driver : NULL;

	if (!first || !*first)
		return LINK_UNKNOWN;
	if (version_cmp_str(driver, first) >= 0)
		return LINK_OK;
	/* The minor-version floor's upper end is a Linux branch ("< R580"); a Windows driver
	 * that high is past every floor of the majors it bounds, so it is not applied here. */
	if (mc && *mc && version_cmp_str(driver, mc) >= 0)
		return LINK_DEGRADED;
	return LINK_BROKEN;
}

void cuda_req_describe(const struct cuda_req *req, char *buf, size_t len)
{
	char first[96], newest[96];

	cuda_req_floor(req, req->first, first, sizeof(first));
	cuda_req_floor(req, req->newest, newest, sizeof(newest));
	if (req->exact || req->first == req->newest || streq(first, newest))
		snprintf(buf, len, ">= %s (%s)", first, req->first->toolkit_label);
	else
		snprintf(buf, len, ">= %s (%s; %s needs >= %s)", first, req->first->toolkit_label,
			 req->newest->toolkit_label, newest);
}

const char *driver_cuda_text(const char *driver, unsigned *ret_branch, char *buf, size_t len)
{
	struct facts_driver_cuda dc;
	struct version v;

	if (version_parse(driver, &v) < 0)
		return NULL;
	*ret_branch = v.part[0];
	if (facts_cuda_newest_for_driver(driver, &dc) < 0)
		snprintf(buf, len,
			 "supports a CUDA the knowledge base cannot tell (R%u is older than every "
			 "branch it knows)",
			 v.part[0]);
	else if (dc.lower_bound)
		snprintf(buf, len,
			 "supports CUDA %s or newer (the knowledge base has no CUDA version for "
			 "R%u; R%u's is a lower bound)",
			 dc.cuda, v.part[0], dc.row->branch);
	else
		snprintf(buf, len, "supports CUDA <= %s", dc.cuda);
	return buf;
}

/* "00000000:18:00.0", "0000:18:00.0", "0000:46:00" (an Xid line's PCI: field, no function) →
 * domain, bus, device, function (-1 when not given). */
static bool bus_parse(const char *s, unsigned long *dom, unsigned long *bus, unsigned long *dev,
		      long *fn)
{
	char *end;

	if (!s)
		return false;
	*dom = strtoul(s, &end, 16);
	if (end == s || *end != ':')
		return false;
	s = end + 1;
	*bus = strtoul(s, &end, 16);
	if (end == s || *end != ':')
		return false;
	s = end + 1;
	*dev = strtoul(s, &end, 16);
	if (end == s)
		return false;
	*fn = -1;
	if (*end == '.') {
		s = end + 1;
		*fn = (long)strtoul(s, &end, 16);
		if (end == s)
			return false;
	}
	return true;
}

bool bus_id_equal(const char *a, const char *b)
{
	unsigned long da, ba, va, db, bb, vb;
	long fa, fb;

	if (!bus_parse(a, &da, &ba, &va, &fa) || !bus_parse(b, &db, &bb, &vb, &fb))
		return false;
	return da == db && ba == bb && va == vb && (fa < 0 || fb < 0 || fa == fb);
}

static const struct snap_node *vendor_device_for(const struct snap_node *root, const char *list,
						 const struct snap_node *gpu)
{
	const struct snap_node *devs = snap_get(root, list);
	const char *bus = snap_get_str(gpu, "bus_id");

	for (size_t i = 0; bus && i < snap_count(devs); i++)
		if (bus_id_equal(snap_get_str(snap_at(devs, i), "pci_bus_id"), bus))
			return snap_at(devs, i);
	return NULL;
}

const struct snap_node *nvml_device_for(const struct snap_node *root, const struct snap_node *gpu)
{
	return vendor_device_for(root, "driver.nvml.devices", gpu);
}

bool gpu_cc(const struct snap_node *root, const struct snap_node *gpu, unsigned *ret_major,
	    unsigned *ret_minor, const struct snap_node **ret_fact)
{
	static const char *const lists[] = { "driver.nvml.devices", "driver.cuda.devices" };
	const struct facts_gpu *fg;

	if (gpu_facts(gpu, &fg) == 0 && fg->cc_major >= 0) {
		*ret_major = (unsigned)fg->cc_major;
		*ret_minor = (unsigned)fg->cc_minor;
		*ret_fact = NULL;
		return true;
	}
	for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
		const struct snap_node *d = vendor_device_for(root, lists[l], gpu);
		const struct snap_node *cc = snap_child(d, "compute_capability");

		if (cuda_major_minor(snap_str(cc), ret_major, ret_minor)) {
			*ret_fact = cc;
			return true;
		}
	}
	return false;
}

const char *gpu_cuda_name(const struct snap_node *root, const struct snap_node *gpu)
{
	static const char *const lists[] = { "driver.cuda.devices", "driver.nvml.devices" };

	for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
		const char *n = snap_get_str(vendor_device_for(root, lists[l], gpu), "name");

		if (n)
			return n;
	}
	return NULL;
}

int gpu_name(const struct snap_node *gpu, char *buf, size_t len)
{
	const struct facts_gpu *fg;
	const char *n = snap_get_str(gpu, "name");

	if (gpu_facts(gpu, &fg) == 0)
		return snprintf(buf, len, "%s", fg->product);
	if (n)
		return snprintf(buf, len, "%s", n);
	return snprintf(buf, len, "%s %s:%s", snap_get_str(gpu, "vendor") ?: "GPU",
			snap_get_str(gpu, "vendor_id") ?: "?",
			snap_get_str(gpu, "device_id") ?: "?");
}

bool lib_need_determined(struct rule_ctx *c, const char *subject, const struct snap_node *lib)
{
	const struct snap_node *u = snap_child(lib, "undetermined");

	return !u || rule_need(c, subject, "which file ld.so loads", u);
}

/* ---- frameworks -------------------------------------------------------------------------- */

static void fw_label(struct fw_build *b, const char *name, const struct snap_node *pkg)
{
	const char *v = snap_get_str(pkg, "version") ?: snap_get_str(pkg, "dist_version");

	/* a framework named by pasted text alone: its environment was not looked at */
	bool probed = snap_state(snap_child(b->env, "prefix")) != FACT_UNPROBED;

	snprintf(b->label, sizeof(b->label), "%s %s", name,
		 v
			 ?: probed ? "(version unreadable)"
				   : "(version not probed)");
}

void fw_need_complete(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *f = snap_get(root, "framework.python_envs_complete");

	const struct snap_node *un = snap_get(root, "framework.python_envs_unreadable");

	/* Missing: a snapshot from before the fact existed, judged as it was. */
	if (f && !snap_present(f))
		rule_need(c, snap_source(f) ?: "framework.python_envs",
			  "framework.python_envs_complete", f);
	/* Every other directory that could not be read: one skip each, naming it (a second
	 * unreadable site-packages is as unknown as the first; an unreadable conda env among
	 * readable ones leaves the discovery itself complete, which the sweep found silent). */
	for (size_t i = 0; i < snap_count(un); i++) {
		const struct snap_node *p = snap_child(snap_at(un, i), "path");
		const char *src = snap_source(p);

		if (src && !snap_present(p) && !streq(src, snap_source(f) ?: ""))
			rule_need(c, src, "framework.python_envs_unreadable", p);
	}
}

/*
 * The interpreter and pip commands of a Python environment: <prefix>/bin/python and pip, except
 * for Debian's /usr/local/lib/python3.N/dist-packages with no interpreter seen in /usr/local:
 * that directory is on the module path of the distribution's /usr/bin/python3.N (Debian Python
 * Policy, "Module Path"; `sudo pip install` writes there), and /usr/local/bin/python is no
 * interpreter the machine was seen to have. pip then runs as that interpreter's module.
 * Built once per environment: every framework build in it shares them.
 */
static void fw_commands(struct fw_build *b)
{
	const struct snap_node *sites = snap_child(b->env, "site_packages");
	const struct snap_node *vers = snap_child(b->env, "python_versions");
	const char *ver = snap_str(snap_at(vers, 0));
	bool debian = streq(b->prefix, "/usr/local") &&
		      streq(snap_get_str(b->env, "kind") ?: "", "system") &&
		      snap_count(snap_child(b->env, "interpreters")) == 0 &&
		      snap_count(vers) == 1 && ver && snap_count(sites) > 0;

	for (size_t i = 0; debian && i < snap_count(sites); i++) {
		const char *site = snap_str(snap_at(sites, i));
		size_t n = site ? strlen(site) : 0;

		debian = n > strlen("/dist-packages") &&
			 streq(site + n - strlen("/dist-packages"), "/dist-packages");
	}
	if (debian) {
		snprintf(b->python, sizeof(b->python), "/usr/bin/python%.16s", ver);
		snprintf(b->pip, sizeof(b->pip), "%s -m pip", b->python);
		return;
	}
	snprintf(b->python, sizeof(b->python), "%.80s/bin/python", b->prefix);
	snprintf(b->pip, sizeof(b->pip), "%.80s/bin/pip", b->prefix);
}

void fw_build_other(struct fw_build *b, const struct snap_node *env, size_t i, const char *name,
		    const char *label, const struct snap_node *pkg)
{
	*b = (struct fw_build){
		.env = env, .env_index = i, .pkg = pkg, .prefix = snap_get_str(env, "prefix") ?: "?"
	};
	snprintf(b->key, sizeof(b->key), "framework.python_envs.%zu.packages.%s", i, name);
	fw_label(b, label, pkg);
	fw_commands(b);
}

size_t fw_foreach(const struct snap_node *root, void (*fn)(const struct fw_build *b, void *u),
		  void *u)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");
	size_t n = 0;

	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *env = snap_at(envs, i);
		const struct snap_node *pk = snap_child(env, "packages");
		static const char *const names[] = { "torch", "tensorflow", "jax" };
		/* what every build of this environment shares, made at its first build */
		struct fw_build shared = { .env = env,
					   .env_index = i,
					   .prefix = snap_get_str(env, "prefix") ?: "?" };
		bool shared_made = false;

		for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
			const struct snap_node *pkg = snap_child(pk, names[k]);
			struct fw_build b;

			if (!pkg || snap_kind(pkg) != SNAP_OBJECT)
				continue;
			if (!shared_made) {
				fw_commands(&shared);
				shared_made = true;
			}
			b = shared;
			b.pkg = pkg;
			snprintf(b.key, sizeof(b.key), "framework.python_envs.%zu.packages.%s", i,
				 names[k]);
			if (k == 0 || k == 1) {
				b.kind = k == 0 ? FW_TORCH : FW_TENSORFLOW;
				fw_label(&b, names[k], pkg);
				if (fn)
					fn(&b, u);
				n++;
				continue;
			}
			/* jax: one build per GPU plugin, or the CPU-only jax itself */
			{
				const struct snap_node *pl = snap_child(pkg, "plugins");
				char base[sizeof(b.label)];

				fw_label(&b, "jax", pkg);
				memcpy(base, b.label, sizeof(base));
				if (snap_count(pl) == 0 || snap_kind(pl) != SNAP_ARRAY) {
					b.kind = FW_JAX;
					if (fn)
						fn(&b, u);
					n++;
					continue;
				}
				for (size_t j = 0; j < snap_count(pl); j++) {
					struct fw_build p = b;
					const struct snap_node *e = snap_at(pl, j);

					p.kind = FW_JAX_PLUGIN;
					p.pkg = e;
					snprintf(p.key, sizeof(p.key),
						 "framework.python_envs.%zu.packages.jax.plugins.%"
						 "zu",
						 i, j);
					if (snprintf(p.label, sizeof(p.label),
						     "%.100s (%.40s %.40s)", base,
						     snap_get_str(e, "plugin") ?: "plugin",
						     snap_get_str(e, "plugin_version") ?: "?") < 0)
						continue;
					if (fn)
						fn(&p, u);
					n++;
				}
			}
		}
	}
	return n;
}

/* A Windows TensorFlow build's cuda_version is the suffix of the cudart DLL it loads: "64_116"
 * beside 'cudart_dll_name': 'cudart64_116.dll' (tf-gpu 2.9.1's build_info.py), "64_101" beside
 * cudart64_101.dll (TensorFlow 2.3), CUDA 10.x and 11.x as major (two digits) and minor (one).
 * Only that form is converted ("11.6"); any other is taken as written (Linux's "11.2"), never
 * guessed at. */
static bool tf_windows_cuda(const char *v, char *buf, size_t len)
{
	if (strlen(v) != 6 || !startswith(v, "64_") || !isdigit((unsigned char)v[3]) ||
	    !isdigit((unsigned char)v[4]) || !isdigit((unsigned char)v[5]) || v[3] == '0')
		return false;
	snprintf(buf, len, "%c%c.%c", v[3], v[4], v[5]);
	return true;
}

bool fw_cuda_version(const struct fw_build *b, char *buf, size_t len,
		     const struct snap_node **ret_fact)
{
	const struct snap_node *f = NULL;
	int64_t major;
	bool yes = false;

	switch (b->kind) {
	case FW_TORCH:
		f = snap_child(b->pkg, "cuda");
		break;
	case FW_TENSORFLOW:
		f = snap_get(b->pkg, "build_info.is_cuda_build");
		if (snap_bool(f, &yes) && yes)
			f = snap_get(b->pkg, "build_info.cuda_version");
		else if (!fact_is_failure(snap_state(f)))
			f = NULL; /* a CPU-only or ROCm build; unread, it stays the fact that says so */
		break;
	case FW_JAX_PLUGIN:
		if (streq(snap_get_str(b->pkg, "platform") ?: "", "cuda")) {
			f = snap_child(b->pkg, "major");
			if (snap_int(f, &major)) {
				if (ret_fact)
					*ret_fact = f;
				snprintf(buf, len, "%" PRId64, major);
				return true;
			}
		}
		break;
	case FW_JAX:
		break;
	}
	if (ret_fact)
		*ret_fact = f;
	if (!snap_str(f))
		return false;
	if (b->kind == FW_TENSORFLOW && tf_windows_cuda(snap_str(f), buf, len))
		return true;
	snprintf(buf, len, "%s", snap_str(f));
	return true;
}

const struct snap_node *fw_hip_version(const struct fw_build *b)
{
	bool yes = false;

	switch (b->kind) {
	case FW_TORCH:
		return snap_present(snap_child(b->pkg, "hip")) ? snap_child(b->pkg, "hip") : NULL;
	case FW_TENSORFLOW:
		if (snap_bool(snap_get(b->pkg, "build_info.is_rocm_build"), &yes) && yes)
			return snap_get(b->pkg, "build_info.rocm_version");
		return NULL;
	case FW_JAX_PLUGIN:
		return streq(snap_get_str(b->pkg, "platform") ?: "", "rocm")
			       ? snap_child(b->pkg, "plugin_version")
			       : NULL;
	case FW_JAX:
		return NULL;
	}
	return NULL;
}

const struct snap_node *fw_hip_unread(const struct fw_build *b)
{
	const struct snap_node *hip = snap_child(b->pkg, "hip");
	const struct snap_node *l = snap_child(b->pkg, "cuda_libraries_bundled");

	if (b->kind != FW_TORCH)
		return NULL;
	if (hip && fact_is_failure(snap_state(hip)))
		return hip;
	if (snap_present(hip) && l && fact_is_failure(snap_state(l)))
		return l;
	if (snap_present(hip) && !l && fact_is_failure(snap_state(snap_child(b->pkg, "lib_dir"))))
		return snap_child(b->pkg, "lib_dir"); /* torch/lib not listed */
	return NULL;
}

bool fw_bundles_hip(const struct fw_build *b)
{
	const struct snap_node *l = snap_child(b->pkg, "cuda_libraries_bundled");

	if (b->kind != FW_TORCH || !snap_str(fw_hip_version(b)))
		return false;
	for (size_t i = 0; i < snap_count(l); i++)
		if (startswith(snap_str(snap_at(l, i)) ?: "", "libamdhip64"))
			return true;
	return false;
}

const struct snap_node *fw_cpu_only(const struct fw_build *b)
{
	return b->kind == FW_JAX_PLUGIN ? NULL : snap_child(b->pkg, "cpu_only");
}

const struct snap_node *fw_targets(const struct fw_build *b, bool *ret_from_build_info)
{
	const struct snap_node *t = snap_child(b->pkg, "arch_targets");

	*ret_from_build_info = false;
	if (b->kind == FW_TENSORFLOW && snap_count(t) == 0 &&
	    snap_count(snap_get(b->pkg, "build_info.cuda_compute_capabilities")) > 0) {
		*ret_from_build_info = true;
		return snap_get(b->pkg, "build_info.cuda_compute_capabilities");
	}
	return t;
}

const struct snap_node *fw_runtime_wheel(const struct fw_build *b)
{
	const struct snap_node *w = snap_child(b->env, "nvidia_wheels");

	for (size_t i = 0; i < snap_count(w); i++)
		if (startswith(snap_get_str(snap_at(w, i), "name") ?: "", "nvidia-cuda-runtime"))
			return snap_at(w, i);
	return NULL;
}

struct fw_first_ctx {
	struct fw_build found, any;
	bool have_found, have_any;
};

static void fw_first_one(const struct fw_build *b, void *u)
{
	struct fw_first_ctx *f = u;
	const struct snap_node *via = snap_child(b->env, "found_via");

	if (!f->have_any) {
		f->any = *b;
		f->have_any = true;
	}
	if (f->have_found)
		return;
	for (size_t i = 0; i < snap_count(via); i++) {
		const char *v = snap_str(snap_at(via, i)) ?: "";

		if (streq(v, "VIRTUAL_ENV") || streq(v, "CONDA_PREFIX") ||
		    startswith(v, "PATH python")) {
			f->found = *b;
			f->have_found = true;
			return;
		}
	}
}

bool fw_first(const struct snap_node *root, struct fw_build *ret)
{
	struct fw_first_ctx f = { .have_found = false };

	fw_foreach(root, fw_first_one, &f);
	if (f.have_found)
		*ret = f.found;
	else if (f.have_any)
		*ret = f.any;
	else
		return false;
	return true;
}

/* ollama's GPU builds in one install directory: "CUDA builds cuda_v11, cuda_v12; a ROCm build". */
static void ollama_builds(const struct snap_node *o, const char *top, char *buf, size_t len)
{
	static const struct {
		const char *key, *kind;
	} arrs[] = { { "cuda_variants", "CUDA" }, { "rocm_variants", "ROCm" } };
	size_t off = 0;

	buf[0] = '\0';
	for (size_t a = 0; a < ARRAY_SIZE(arrs); a++) {
		const struct snap_node *vs = snap_child(o, arrs[a].key);
		size_t n = 0;

		for (size_t i = 0; i < snap_count(vs); i++) {
			const char *dir = snap_get_str(snap_at(vs, i), "dir");
			const char *base = dir ? strrchr(dir, '/') : NULL;

			if (!dir || !startswith(dir, top))
				continue;
			off += (size_t)snprintf(buf + MIN(off, len), len - MIN(off, len), "%s%s%s",
						n     ? ", "
						: off ? "; "
						      : "",
						n ? "" : arrs[a].kind, n ? "" : " build(s) ");
			off += (size_t)snprintf(buf + MIN(off, len), len - MIN(off, len), "%s",
						base ? base + 1 : dir);
			n++;
		}
	}
}

size_t fw_others(const struct snap_node *root, struct fw_other *out, size_t max)
{
	/* The Python frameworks besides torch, TensorFlow and jax that run GPU code, as the
	 * probe names their packages (probe-python-frameworks.c) */
	static const struct {
		const char *key, *name, *dist;
	} others[] = {
		{ "cupy", "CuPy", "cupy" },
		{ "numba", "Numba", "numba" },
		{ "numba_cuda", "numba-cuda", "numba-cuda" },
		{ "warp", "Warp", "warp-lang" },
		{ "cuda_python", "cuda-python", "cuda-python" },
	};
	const struct snap_node *envs = snap_get(root, "framework.python_envs");
	const struct snap_node *o = snap_get(root, "framework.ollama");
	const struct snap_node *tops = snap_child(o, "install_dirs");
	size_t n = 0;

	for (size_t i = 0; i < snap_count(envs); i++)
		for (size_t k = 0; k < ARRAY_SIZE(others) && n < max; k++) {
			const struct snap_node *env = snap_at(envs, i);
			const struct snap_node *pkg =
				snap_child(snap_child(env, "packages"), others[k].key);
			const char *v;

			if (!pkg || snap_kind(pkg) != SNAP_OBJECT)
				continue;
			v = snap_get_str(pkg, "version") ?: snap_get_str(pkg, "dist_version");
			snprintf(out[n].name, sizeof(out[n].name), "%s%s%s", others[k].name,
				 v ? " " : "", v ?: "");
			snprintf(out[n].what, sizeof(out[n].what), "%s in %s",
				 snap_get_str(pkg, "dist_name") ?: others[k].dist,
				 snap_get_str(env, "prefix") ?: "?");
			out[n].source = snap_get_str(env, "prefix");
			n++;
		}
	for (size_t i = 0; i < snap_count(tops) && n < max; i++) {
		const char *top = snap_str(snap_at(tops, i));
		char builds[160];

		if (!top)
			continue;
		ollama_builds(o, top, builds, sizeof(builds));
		snprintf(out[n].name, sizeof(out[n].name), "ollama");
		snprintf(out[n].what, sizeof(out[n].what), "%s in %s",
			 builds[0] ? builds : "no GPU build", top);
		out[n].source = top;
		n++;
	}
	return n;
}

size_t fw_others_names(const struct snap_node *root, char *buf, size_t len)
{
	struct fw_other o[8];
	size_t n = fw_others(root, o, ARRAY_SIZE(o)), off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		off += (size_t)snprintf(buf + MIN(off, len), len - MIN(off, len), "%s%s",
					i ? ", " : "", o[i].name);
	return n;
}

bool fw_others_not_judged(struct gpuenv_doctor *d, const struct snap_node *root, char **framework,
			  char **why)
{
	char others[256];

	if (fw_others_names(root, others, sizeof(others)) == 0)
		return false;
	*framework = diagnosis_strdupf(d, "%s (not judged)", others);
	*why = diagnosis_strdupf(
		d, "no torch, TensorFlow or jax found; the chain does not judge %s", others);
	return true;
}

const struct snap_node *wheel_holding(const struct snap_node *env, const char *path)
{
	const struct snap_node *w = snap_child(env, "nvidia_wheels");

	for (size_t i = 0; path && i < snap_count(w); i++) {
		const char *dir = snap_get_str(snap_at(w, i), "lib_dir");
		size_t n = dir ? strlen(dir) : 0;

		if (n && strncmp(path, dir, n) == 0 && path[n] == '/')
			return snap_at(w, i);
	}
	return NULL;
}

const char *fw_module(const struct fw_build *b)
{
	switch (b->kind) {
	case FW_TORCH:
		return "torch";
	case FW_TENSORFLOW:
		return "tensorflow";
	case FW_JAX:
	case FW_JAX_PLUGIN:
		return "jax";
	}
	return "?";
}

void finding_names_evidence(struct finding *f, const char *key, const char *source,
			    const struct snap_node *names)
{
	struct strbuf list = STRBUF_INIT;

	for (size_t i = 0; i < snap_count(names); i++)
		strbuf_printf(&list, "%s%s", i ? ", " : "", snap_str(snap_at(names, i)) ?: "?");
	finding_evidence(f, key, source, "%s", list.len ? strbuf_str(&list) : "none");
	strbuf_done(&list);
}
