// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Driver-layer rules over the keys probe-nvidia-driver.c writes (driver.kernel_modules.*
 * from /proc/modules, driver.nvidia.* from /sys/module/nvidia/version and
 * /proc/driver/nvidia/version, the module file and its signer under /lib/modules/<release>,
 * driver.device_nodes.* from /dev, driver.secure_boot.enabled from the SecureBoot EFI
 * variable) and the knowledge base's driver-branch lifecycle (facts/driver_branches.tsv).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules-intel.h"
#include "rules/rules-internal.h"
#include "shared/parse.h"
#include "shared/strbuf.h"

static const char *gpu_bus(const struct snap_node *gpu)
{
	const char *b = snap_get_str(gpu, "bus_id");

	return b ? b : "unknown";
}

static bool bound_to(const struct snap_node *gpu, const char *driver)
{
	const char *d = snap_get_str(gpu, "driver");

	return d && streq(d, driver);
}

static bool any_nvidia_bound_to(const struct snap_node *root, const char *driver)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_is_nvidia(snap_at(gpus, i)) && bound_to(snap_at(gpus, i), driver))
			return true;
	return false;
}

/* Evidence: the NVIDIA GPUs' ids and bound drivers. */
static void nvidia_gpus_evidence(struct finding *f, const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		char name[64];

		if (!gpu_is_nvidia(g))
			continue;
		snprintf(name, sizeof(name), "hardware.gpus.%zu.device_id", i);
		finding_fact(f, name, snap_child(g, "device_id"));
		snprintf(name, sizeof(name), "hardware.gpus.%zu.driver", i);
		finding_fact(f, name, snap_child(g, "driver"));
	}
}

/* The driver's branch row; false (the rule skipped) when the knowledge base lacks it. */
static bool driver_branch(struct rule_ctx *c, const char *ver,
			  const struct facts_driver_branch **ret)
{
	if (facts_driver_branch(ver, ret) < 0) {
		rule_skip(c, NULL, "driver %s: its branch is not in the knowledge base", ver);
		return false;
	}
	return true;
}

/* The driver's core module (nvidia, Debian's nvidia-current …), not nvidia_drm / _modeset /
 * _uvm / _peermem, whose blacklisting leaves nvidia.ko loadable. */
static bool core_module(const char *m)
{
	static const char *const companions[] = { "drm", "modeset", "uvm", "peermem", "fs" };
	const char *dash = strrchr(m, '-'), *under = strrchr(m, '_');
	const char *tail = !dash ? under : !under || dash > under ? dash : under;

	if (streq(m, "nvidia"))
		return true;
	for (size_t i = 0; tail && i < ARRAY_SIZE(companions); i++)
		if (streq(tail + 1, companions[i]))
			return false;
	return true;
}

/* How strongly an entry keeps the module out (modprobe.d(5), kernel-parameters.txt):
 * "blacklist" only stops udev's alias autoload, the others make loading fail outright. */
static int block_strength(const char *kind)
{
	return streq(kind, "blacklist") || streq(kind, "modprobe.blacklist") ? 1 : 2;
}

static const char *block_effect(const char *kind)
{
	if (streq(kind, "alias-off"))
		return "modprobe nvidia looks for a module named 'off' and fails "
		       "(\"could not insert 'off'\")";
	if (streq(kind, "install"))
		return "modprobe nvidia runs that command instead of loading the module";
	if (streq(kind, "module_blacklist"))
		return "the kernel refuses to load it";
	return "udev does not load it for the GPU at boot";
}

/* The strongest entry of driver.module_blacklist[] that keeps nvidia.ko itself out; NULL
 * when none. */
static const struct snap_node *module_block(const struct snap_node *root)
{
	const struct snap_node *arr = snap_get(root, "driver.module_blacklist"), *best = NULL;

	for (size_t i = 0; i < snap_count(arr); i++) {
		const struct snap_node *b = snap_at(arr, i);
		const char *m = snap_get_str(b, "module"), *k = snap_get_str(b, "kind");

		if (!m || !k || !core_module(m))
			continue;
		if (!best || block_strength(k) > block_strength(snap_get_str(best, "kind")))
			best = b;
	}
	return best;
}

/* The core-module entry i of arr, with its fields; false for a companion's or a partial one. */
static bool core_entry(const struct snap_node *arr, size_t i, const char **file, const char **line)
{
	const struct snap_node *e = snap_at(arr, i);
	const char *m = snap_get_str(e, "module");

	*file = snap_get_str(e, "file");
	*line = snap_get_str(e, "line");
	return m && *file && *line && core_module(m);
}

/* Each entry that keeps nvidia.ko out as evidence; per file, one fix naming all its lines
 * (removing only the strongest would leave "blacklist nvidia" stopping the autoload). */
static void block_fixes(struct finding *f, const struct snap_node *root)
{
	const struct snap_node *arr = snap_get(root, "driver.module_blacklist");
	bool initramfs = false;

	for (size_t i = 0; i < snap_count(arr); i++) {
		_cleanup_(strbuf_done) struct strbuf lines = STRBUF_INIT;
		const char *file, *line, *base, *other, *ol;
		bool seen = false;
		char name[64];

		if (!core_entry(arr, i, &file, &line))
			continue;
		snprintf(name, sizeof(name), "driver.module_blacklist.%zu.line", i);
		finding_fact(f, name, snap_child(snap_at(arr, i), "line"));
		if (streq(file, "/proc/cmdline")) {
			finding_fix(
				f,
				"# remove '%s' from GRUB_CMDLINE_LINUX in /etc/default/grub, then "
				"sudo update-grub (Debian/Ubuntu) or sudo grub2-mkconfig -o "
				"/boot/grub2/grub.cfg (Fedora/RHEL), and reboot",
				line);
			continue;
		}
		for (size_t j = 0; j < i && !seen; j++)
			seen = core_entry(arr, j, &other, &ol) && streq(other, file);
		if (seen)
			continue;
		for (size_t j = i; j < snap_count(arr); j++)
			if (core_entry(arr, j, &other, &ol) && streq(other, file)) {
				(void)strbuf_puts(&lines, lines.len ? ", '" : "'");
				(void)strbuf_puts(&lines, ol);
				(void)strbuf_putc(&lines, '\'');
			}
		base = strrchr(file, '/');
		if (base && streq(base, "/blacklist-nvidia.conf") && !startswith(file, "/etc/"))
			finding_fix(
				f,
				"sudo prime-select on-demand   # if nvidia-prime's intel profile "
				"wrote %s (its name and place); on-demand loads nvidia and keeps "
				"the iGPU for the display",
				file);
		finding_fix(f, "# remove %s from %s (or the file, if it only disables nvidia)",
			    lines.buf ?: "the nvidia lines", file);
		initramfs = true;
	}
	if (initramfs)
		distro_fix(f, root, FIX_INITRAMFS, NULL);
}

RULE_CHECK(check_module_not_loaded)
{
	const struct snap_node *ms = snap_get(root, "driver.kernel_modules.modules_supported");
	const struct snap_node *b = NULL;
	struct finding *f;
	bool modules = true;
	size_t n = gpus_count(root, gpu_is_nvidia);

	if (n == 0 || on_wsl2(root, NULL) || on_wsl1(root, NULL))
		return; /* WSL2: the driver is the Windows host's, there is no nvidia.ko; WSL1: no GPU */
	if (!rule_no_nvidia_driver(c, root, "the NVIDIA driver version"))
		return;
	/* nouveau holding the GPU is the more precise finding (driver.nouveau-bound). */
	if (any_nvidia_bound_to(root, "nouveau"))
		return;
	snap_bool(ms, &modules);
	if (!modules)
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"%zu NVIDIA GPU(s) but no nvidia driver: this kernel has no "
			"loadable-module support (no /proc/modules), so nvidia.ko cannot be "
			"loaded into it",
			n);
	else if ((b = module_block(root)))
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "%zu NVIDIA GPU(s) but the nvidia kernel module is not loaded: "
				 "'%s' in %s disables it, so %s",
				 n, snap_get_str(b, "line"), snap_source(snap_child(b, "line")),
				 block_effect(snap_get_str(b, "kind")));
	else
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "%zu NVIDIA GPU(s) but the nvidia kernel module is not loaded", n);
	nvidia_gpus_evidence(f, root);
	driver_evidence(f, root);
	finding_fact(f, "driver.kernel_modules.modules_supported", ms);
	finding_fact(f, "driver.nvidia.module_file.path",
		     snap_get(root, "driver.nvidia.module_file.path"));
	if (b) {
		block_fixes(f, root);
		finding_rule_verify(f);
		return;
	}
	if (!modules)
		finding_fix(f, "# boot a kernel built with CONFIG_MODULES=y (the distribution's "
			       "kernel), or one with the NVIDIA driver built in");
	finding_fix(f, "sudo modprobe nvidia && sudo dmesg | grep -iE 'nvrm|nvidia' | tail");
	distro_fix(f, root, FIX_INSTALL_DRIVER, userspace_driver_version(root, NULL));
	finding_rule_verify(f);
}

/* DKMS's build for the running kernel stopped at the driver's compiler check (the probe's
 * driver.nvidia.dkms_cc_check): rebuilding as before fails the same way; the kernel and the
 * compiler must agree (clearlinux/distribution#1970: fixed by the kernel rebuilt with the
 * distribution's new gcc). */
static void dkms_cc_check_fix(struct finding *f, const struct snap_node *root)
{
	const char *log = snap_get_str(root, "driver.nvidia.dkms_cc_check.make_log");
	const char *kcc = snap_get_str(root, "driver.nvidia.dkms_cc_check.kernel_compiler");
	const char *cc = snap_get_str(root, "driver.nvidia.dkms_cc_check.compiler");

	if (!log)
		return;
	finding_fact(f, "driver.nvidia.dkms_cc_check.make_log",
		     snap_get(root, "driver.nvidia.dkms_cc_check.make_log"));
	if (kcc)
		finding_fact(f, "driver.nvidia.dkms_cc_check.kernel_compiler",
			     snap_get(root, "driver.nvidia.dkms_cc_check.kernel_compiler"));
	if (cc)
		finding_fact(f, "driver.nvidia.dkms_cc_check.compiler",
			     snap_get(root, "driver.nvidia.dkms_cc_check.compiler"));
	finding_fix(f,
		    "# DKMS's build for this kernel stopped at the driver's compiler check (%s): "
		    "the kernel was built by %s, the compiler here is %s; rebuilding as is fails "
		    "again",
		    log, kcc ?: "another compiler", cc ?: "another one");
	finding_fix(f, "# boot a kernel built by the current compiler (the distribution's "
		       "kernel update), then: sudo dkms autoinstall -k $(uname -r)");
	finding_fix(f, "# or, as the driver's message advises, set CC to the kernel's compiler "
		       "where it is installed: sudo CC=<that gcc> dkms autoinstall -k $(uname -r)");
}

/*
 * The nvidia.ko modprobe finds for the running kernel was built for another one: its vermagic
 * ("5.4.18-100.fc30.x86_64 SMP mod_unload ") names another release, the kernel refuses it
 * ("nvidia: version magic '…' should be '…'") and modprobe fails with "Exec format error".
 * weak-updates/ holds links to other kernels' modules (kmod's weak-modules); on Fedora the
 * dkms package beside akmods left them there (negativo17/nvidia-driver#97: remove dkms).
 */
static void other_kernels_module(struct rule_ctx *c, const struct snap_node *root,
				 const struct snap_node *path)
{
	const struct snap_node *vm = snap_get(root, "driver.nvidia.module_file.vermagic");
	const char *release = snap_get_str(root, "host.kernel_release");
	const char *magic = snap_str(vm), *p = snap_str(path);
	struct finding *f;
	size_t n;

	if (!magic || !release || !p)
		return;
	n = strcspn(magic, " ");
	if (n == strlen(release) && strncmp(magic, release, n) == 0)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "no nvidia.ko built for the running kernel %s: the one modprobe finds, "
			 "%s, is built for %.*s (its vermagic); the kernel refuses it (\"version "
			 "magic ... should be ...\"), modprobe nvidia fails with \"Exec format "
			 "error\"",
			 release, p, (int)n, magic);
	finding_fact(f, "host.kernel_release", snap_get(root, "host.kernel_release"));
	finding_fact(f, "driver.nvidia.module_file.path", path);
	finding_fact(f, "driver.nvidia.module_file.vermagic", vm);
	driver_evidence(f, root);
	if (strstr(p, "/weak-updates/") && host_distro(root) == DISTRO_FEDORA) {
		finding_fix(f, "rpm -q dkms akmods   # both installed: the dkms package's "
			       "weak-updates links are the old kernel's modules");
		finding_fix(f, "sudo dnf remove dkms   # then akmods' module for the running "
			       "kernel (extra/nvidia) is the one loaded");
	} else if (strstr(p, "/weak-updates/"))
		finding_fix(f,
			    "sudo rm %s && sudo depmod -a   # a link to another kernel's "
			    "module (weak-modules)",
			    p);
	distro_fix(f, root, FIX_BUILD_MODULE, userspace_driver_version(root, NULL));
	finding_rule_verify(f);
}

RULE_CHECK(check_module_missing_for_kernel)
{
	const struct snap_node *ms = snap_get(root, "driver.kernel_modules.modules_supported");
	const struct snap_node *path = snap_get(root, "driver.nvidia.module_file.path");
	const struct snap_node *fact;
	const char *ver, *release = snap_get_str(root, "host.kernel_release");
	const char *user, *user_fact = NULL;
	struct finding *f;
	bool modules = false;

	if (gpus_count(root, gpu_is_nvidia) == 0 || on_wsl2(root, NULL) || on_wsl1(root, NULL))
		return;
	if (nvidia_driver(root, &ver, &fact) != DRIVER_NONE)
		return;
	if (!snap_bool(ms, &modules) || !modules)
		return; /* no module support: driver.module-not-loaded says so */
	if (snap_present(path)) {
		other_kernels_module(c, root, path);
		return;
	}
	if (snap_state(path) != FACT_ABSENT)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "no nvidia.ko for the running kernel %s: modprobe nvidia fails with "
			 "\"Module nvidia not found in directory /lib/modules/%s\"",
			 release, release);
	finding_fact(f, "host.kernel_release", snap_get(root, "host.kernel_release"));
	finding_fact(f, "driver.nvidia.module_file.path", path);
	driver_evidence(f, root);
	user = userspace_driver_version(root, &user_fact);
	if (user)
		finding_fact(f, user_fact, snap_get(root, user_fact));
	dkms_cc_check_fix(f, root);
	distro_fix(f, root, FIX_BUILD_MODULE, user);
	finding_rule_verify(f);
}

/* One NVIDIA GPU shown under nouveau is enough, from any part of the bus (pasted `lspci -k` of
 * the GPU alone); that none is needs the whole bus and every GPU's ids and driver. */
RULE_CHECK(check_nouveau_bound)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	bool found = false;

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		bool bl =
			snap_get_bool_default(root, "driver.nouveau_blacklisted.blacklist", false);
		/* the kernel command line: dracut's blacklist (initramfs only), kmod's (both) */
		bool rd = snap_get_bool_default(
			root, "driver.nouveau_blacklisted.cmdline_initramfs", false);
		bool cmd = snap_get_bool_default(root, "driver.nouveau_blacklisted.cmdline", false);
		const char *why = "";
		struct finding *f;
		char name[64];

		if (!gpu_is_nvidia(g) || !bound_to(g, "nouveau"))
			continue;
		found = true;
		if (cmd)
			why = " (modprobe.blacklist/module_blacklist on the kernel command line names "
			      "nouveau, yet it was loaded)";
		else if (rd && bl)
			why = " (nouveau is blacklisted in modprobe.d and, by rd.driver.blacklist on "
			      "the kernel command line, in the initramfs, yet it was loaded)";
		else if (rd)
			why = " (rd.driver.blacklist=nouveau on the kernel command line keeps it out "
			      "of the initramfs only; nothing blacklists it on the root file system, "
			      "where it was loaded)";
		else if (bl)
			why = " (nouveau is blacklisted in modprobe.d, but not in the initramfs the "
			      "kernel booted with)";
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, gpu_bus(g),
				 "NVIDIA GPU %s is driven by nouveau, so the NVIDIA driver cannot "
				 "bind it%s",
				 gpu_bus(g), why);
		snprintf(name, sizeof(name), "hardware.gpus.%zu.driver", i);
		finding_fact(f, name, snap_child(g, "driver"));
		finding_fact(f, "driver.kernel_modules.nouveau",
			     snap_get(root, "driver.kernel_modules.nouveau"));
		finding_fact(f, "driver.nouveau_blacklisted.blacklist",
			     snap_get(root, "driver.nouveau_blacklisted.blacklist"));
		finding_fact(f, "driver.nouveau_blacklisted.modeset0",
			     snap_get(root, "driver.nouveau_blacklisted.modeset0"));
		/* recorded only when true (probe_nouveau_cmdline) */
		if (rd)
			finding_fact(
				f, "driver.nouveau_blacklisted.cmdline_initramfs",
				snap_get(root, "driver.nouveau_blacklisted.cmdline_initramfs"));
		if (cmd)
			finding_fact(f, "driver.nouveau_blacklisted.cmdline",
				     snap_get(root, "driver.nouveau_blacklisted.cmdline"));
		/* modprobe.blacklist= holds in the initramfs and on the root file system alike */
		if (rd && !cmd)
			finding_fix(f,
				    "# add modprobe.blacklist=nouveau to the kernel command line "
				    "(Fedora: sudo grubby --update-kernel=ALL "
				    "--args=modprobe.blacklist=nouveau), then reboot");
		if (!bl)
			finding_fix(f,
				    "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | "
				    "sudo tee /etc/modprobe.d/blacklist-nouveau.conf");
		distro_fix(f, root, FIX_INITRAMFS, NULL);
		finding_rule_verify(f);
	}
	if (!found &&
	    rule_need(c, NULL, "hardware.pci_devices", snap_get(root, "hardware.pci_devices")))
		rule_need_gpu_ids(c, root);
}

RULE_CHECK(check_device_nodes_missing)
{
	const struct snap_node *ctl = snap_get(root, "driver.device_nodes.nvidiactl");
	const struct snap_node *uvm = snap_get(root, "driver.device_nodes.nvidia_uvm");
	const struct snap_node *gpus = snap_get(root, "driver.device_nodes.nvidia_gpus");
	const struct snap_node *fact;
	const char *ver;
	char missing[128] = "";
	struct finding *f;

	if (nvidia_driver(root, &ver, &fact) != DRIVER_LOADED)
		return;
	/* In a container missing nodes mean none were passed in: container.no-gpu-devices. */
	if (in_container(root))
		return;
	if (!snap_present(ctl))
		strcat(missing, " /dev/nvidiactl");
	if (snap_count(gpus) == 0)
		strcat(missing, " /dev/nvidia[0-9]*");
	if (!snap_present(uvm))
		strcat(missing, " /dev/nvidia-uvm");
	if (!missing[0])
		return;
	/* nvidia-modprobe (setuid root) creates them on first use where it is installed;
	 * whether it is needs the user-space probe (phase 2), so this stays a warning. */
	f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
			 "nvidia %s is loaded but%s %s missing: CUDA fails unless the setuid "
			 "nvidia-modprobe creates them on first use",
			 ver, missing, strchr(missing + 1, ' ') ? "are" : "is");
	finding_fact(f, driver_fact_key(root, fact), fact);
	finding_fact(f, "driver.device_nodes.nvidiactl", ctl);
	finding_evidence(f, "driver.device_nodes.nvidia_gpus", "/dev", "%zu node(s)",
			 snap_count(gpus));
	finding_fact(f, "driver.device_nodes.nvidia_uvm", uvm);
	finding_fact(f, "driver.kernel_modules.nvidia_uvm",
		     snap_get(root, "driver.kernel_modules.nvidia_uvm"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* "7.5" → 75; false when NULL or malformed. */
static bool cc_num(const char *s, unsigned *ret)
{
	unsigned ma, mi;

	if (!cuda_major_minor(s, &ma, &mi))
		return false;
	*ret = ma * 10 + mi;
	return true;
}

/* The last driver branch NVIDIA lists for this GPU ("470.xx"), where it has one. */
static bool legacy_branch_of(const struct snap_node *gpu, const struct facts_nvidia_device **ret)
{
	unsigned v, d;

	return gpu_pci_ids(gpu, &v, &d) && v == 0x10de &&
	       facts_nvidia_device_by_id((uint16_t)d, ret) == 0 && (*ret)->legacy_branch;
}

/* The release of the last legacy notice in the kernel log ("The 510.47.03 NVIDIA driver will
 * ignore this GPU"): false when the log shows none. */
static bool last_legacy_notice(const struct snap_node *root, const char **ret_version,
			       const struct snap_node **ret_fact)
{
	const struct snap_node *arr = snap_get(root, "driver.kernel_log.legacy_gpus");
	const struct snap_node *v;
	size_t n = snap_count(arr);

	if (n == 0)
		return false;
	v = snap_child(snap_at(arr, n - 1), "driver_version");
	if (!snap_present(v) || !snap_str(v))
		return false;
	*ret_version = snap_str(v);
	*ret_fact = v;
	return true;
}

/* The kernel log's refusal of this GPU by the open nvidia.ko ("not supported by open nvidia.ko
 * because it does not include the required GPU System Processor (GSP)"), NULL when it shows
 * none. */
static const struct snap_node *gsp_refusal_of(const struct snap_node *root,
					      const struct snap_node *gpu)
{
	const struct snap_node *arr = snap_get(root, "driver.kernel_log.gsp_refused_gpus");
	const char *bus = gpu_bus(gpu);

	for (size_t i = 0; bus && i < snap_count(arr); i++) {
		const struct snap_node *b = snap_child(snap_at(arr, i), "bus_id");

		if (snap_str(b) && strcasecmp(snap_str(b), bus) == 0)
			return b;
	}
	return NULL;
}

/* Where the release judged comes from: the loaded module, the kernel log's legacy notice
 * (no module loaded), the nvidia.ko on disk (no module loaded, no notice), or none known (no
 * module loaded: only the open module's refusals in the log are judged). */
enum judged_release { RELEASE_LOADED, RELEASE_LOGGED, RELEASE_ON_DISK, RELEASE_NONE };

/* Why the nvidia.ko on disk gives no release to judge (RELEASE_NONE), into buf: not there,
 * not read, or of a branch (b, NULL where none) the knowledge base does not place. */
static void unjudged_release(const struct snap_node *root, const struct facts_driver_branch *b,
			     char *buf, size_t len)
{
	const struct snap_node *disk_fact = snap_get(root, "driver.nvidia.module_file.version");
	char state[128];

	if (b)
		snprintf(buf, len,
			 "the nvidia.ko on disk is %s, of branch R%u, whose oldest supported "
			 "architecture is not confirmed",
			 snap_str(disk_fact), b->branch);
	else if (snap_present(disk_fact))
		snprintf(buf, len,
			 "the nvidia.ko on disk is %s, a release whose branch is not in the "
			 "knowledge base",
			 snap_str(disk_fact));
	else if (snap_state(snap_get(root, "driver.nvidia.module_file.path")) == FACT_ABSENT)
		snprintf(buf, len, "no nvidia.ko on disk for the running kernel");
	else {
		fact_describe(disk_fact, state, sizeof(state));
		snprintf(buf, len, "the nvidia.ko on disk: %s", state);
	}
}

/* The fix for a GPU the open module refuses: the proprietary flavour, named the way this
 * machine's packages name it where that is known. */
static void proprietary_flavour_fix(struct finding *f, const struct snap_node *root,
				    const struct facts_driver_branch *b)
{
	const char *path = snap_get_str(root, "driver.nvidia.module_file.path");
	enum distro d = host_distro(root);

	/* Ubuntu's packages (DKMS, or the prebuilt linux-modules-nvidia-*): the .run
	 * installer's module (kernel/drivers/video) is changed by rerunning that instead */
	if (d == DISTRO_UBUNTU && b && path &&
	    (strstr(path, "/updates/dkms/") || strstr(path, "/kernel/nvidia-")))
		finding_fix(f,
			    "sudo apt install nvidia-driver-%u   # the proprietary kernel module "
			    "flavour; nvidia-driver-%u-open is the open one",
			    b->branch, b->branch);
	else if (d == DISTRO_FEDORA)
		finding_fix(f,
			    "# the proprietary kernel module flavour: with negativo17's packages "
			    "sudo sed -i -e 's/kernel-open$/kernel/g' /etc/nvidia/kernel.conf && "
			    "sudo akmods --rebuild; with RPM Fusion's, akmod-nvidia rather than "
			    "akmod-nvidia-open");
	else
		finding_fix(f, "# install the proprietary kernel module flavour of the driver (not "
			       "the -open one), or use a Turing-or-newer GPU");
}

/* NixOS declares its driver in configuration.nix: nixpkgs names the legacy branches
 * nvidiaPackages.legacy_<branch> (pkgs/os-specific/linux/nvidia-x11/default.nix: legacy_340,
 * legacy_390, legacy_470; legacy_580 is what NixOS/nixos-hardware#1828's reporter set for a
 * Pascal GPU after the stable driver moved past R580). The branch: the kernel log's legacy
 * notice ("supported through the NVIDIA 580.xx Legacy drivers"), else the GPU's row. */
static void nixos_legacy_fix(struct finding *f, const struct snap_node *root,
			     const struct facts_nvidia_device *dev)
{
	const struct snap_node *arr = snap_get(root, "driver.kernel_log.legacy_gpus");
	const char *id = snap_get_str(root, "host.os.id"), *branch = NULL;
	unsigned n;

	if (!id || !streq(id, "nixos"))
		return;
	if (snap_count(arr) > 0)
		branch = snap_get_str(snap_at(arr, snap_count(arr) - 1), "legacy_branch");
	if (!branch && dev)
		branch = dev->legacy_branch;
	if (!branch || sscanf(branch, "%u", &n) != 1 ||
	    !(n == 340 || n == 390 || n == 470 || n == 580))
		return;
	finding_fix(f,
		    "# configuration.nix: hardware.nvidia.package = "
		    "config.boot.kernelPackages.nvidiaPackages.legacy_%u;",
		    n);
	finding_fix(f,
		    "sudo nixos-rebuild boot && sudo reboot   # the %u legacy branch's module "
		    "and user space, as one generation",
		    n);
}

RULE_CHECK(check_branch_drops_gpu)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *disk_fact = snap_get(root, "driver.nvidia.module_file.version");
	const struct facts_driver_branch *b = NULL;
	const struct facts_threshold *open_min = NULL;
	const struct snap_node *fact = NULL;
	const char *ver = NULL, *flavor = snap_get_str(root, "driver.nvidia.flavor");
	const char *disk = snap_str(disk_fact);
	enum judged_release from = RELEASE_LOADED;
	bool none_loaded;
	unsigned oldest = 0;
	char unjudged[160] = "";

	if (gpus_count(root, gpu_is_nvidia) == 0)
		return;
	/* No module loaded: with no GPU it can drive, nvidia.ko fails to load ("NVRM: No NVIDIA
	 * GPU found."), and only the kernel log's legacy notice names the release that ran;
	 * without one, the nvidia.ko on disk is the release modprobe loads. */
	none_loaded = nvidia_driver(root, &ver, &fact) == DRIVER_NONE;
	if (none_loaded) {
		if (last_legacy_notice(root, &ver, &fact))
			from = RELEASE_LOGGED;
		else if (disk && facts_driver_branch(disk, &b) == 0)
			from = RELEASE_ON_DISK, ver = disk, fact = disk_fact;
		else
			from = RELEASE_NONE;
	}
	/* a notice of another release than the nvidia.ko now on disk is an old one: the driver
	 * was changed since, and what the new one does is not in the log */
	if (from == RELEASE_LOGGED && disk && !streq(disk, ver)) {
		rule_skip(c, NULL,
			  "the kernel log shows %s ignoring the GPU, but the nvidia.ko on disk is "
			  "%s: which release the GPU meets next is not in the log",
			  ver, disk);
		return;
	}
	if (from == RELEASE_LOADED &&
	    !rule_nvidia_driver(c, root, "the NVIDIA driver version", &ver, &fact))
		return;
	if (from == RELEASE_LOADED || from == RELEASE_LOGGED) {
		if (!driver_branch(c, ver, &b))
			return;
		if (!cc_num(b->oldest_cc, &oldest)) {
			rule_skip(c, NULL,
				  "driver branch R%u: oldest supported architecture not confirmed",
				  b->branch);
			return;
		}
	} else if (from == RELEASE_ON_DISK && !cc_num(b->oldest_cc, &oldest)) {
		from = RELEASE_NONE; /* only the log's refusals are judged */
	}
	if (from == RELEASE_NONE) {
		unjudged_release(root, b, unjudged, sizeof(unjudged));
		b = NULL;
	}
	(void)facts_threshold("open_kernel_module_min_cc", &open_min);
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct snap_node *refusal = none_loaded ? gsp_refusal_of(root, g) : NULL;
		const struct facts_nvidia_device *dev;
		const struct facts_gpu *fg;
		bool open_refuses, dropped;
		struct finding *f;
		unsigned cc;
		char name[64];

		if (!gpu_is_nvidia(g))
			continue;
		if (from == RELEASE_NONE && !refusal) {
			/* no release to judge the GPU against is not a release that supports it */
			rule_skip_failed(
				c, gpu_bus(g), snap_state(disk_fact),
				"no nvidia module is loaded and no release is known to judge "
				"the GPU against (no legacy notice in the kernel log; %s)",
				unjudged);
			continue;
		}
		if (gpu_facts(g, &fg) < 0 || fg->cc_major < 0) {
			rule_skip(c, gpu_bus(g),
				  "GPU %s (%s): its compute capability is not in the "
				  "knowledge base",
				  gpu_bus(g), snap_get_str(g, "device_id"));
			continue;
		}
		cc = (unsigned)(fg->cc_major * 10 + fg->cc_minor);
		/* the loaded module is the open one, or (none loaded) the log shows it refusing
		 * the GPU: a GSP is what it needs */
		open_refuses = open_min && cc < open_min->number &&
			       ((!none_loaded && flavor && streq(flavor, "open")) || refusal);
		dropped = b && cc < oldest;
		if (!dropped && !open_refuses)
			continue;
		if (dropped)
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, gpu_bus(g),
				"%s (%s, compute capability %s) is not supported by driver "
				"branch R%u (oldest: %s, %s); the driver ignores it%s%s",
				fg->product, fg->architecture, fg->compute_capability, b->branch,
				b->oldest_arch, b->oldest_cc,
				from == RELEASE_LOGGED
					? " (the kernel log shows the release that ran ignoring "
					  "it; no nvidia module is loaded)"
				: from == RELEASE_ON_DISK
					? " (the release of the nvidia.ko on disk; no nvidia "
					  "module is loaded)"
					: "",
				facts_unconfirmed(b->confidence)
					? " (the branch row is unconfirmed)"
					: "");
		else if (refusal)
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, gpu_bus(g),
				"%s (%s, compute capability %s) has no GSP: the open nvidia.ko "
				"refuses it (the kernel log shows the refusal; no nvidia module is "
				"loaded); it needs the proprietary kernel module",
				fg->product, fg->architecture, fg->compute_capability);
		else
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, gpu_bus(g),
				"%s (%s, compute capability %s) has no GSP: the open nvidia.ko "
				"of %s refuses it; it needs the proprietary kernel module",
				fg->product, fg->architecture, fg->compute_capability, ver);
		if (from == RELEASE_LOGGED) {
			finding_fact(f, "driver.kernel_log.legacy_gpus[].driver_version", fact);
			finding_fact(f, "driver.nvidia.module_version",
				     snap_get(root, "driver.nvidia.module_version"));
		} else if (none_loaded) {
			finding_fact(f, "driver.nvidia.module_version",
				     snap_get(root, "driver.nvidia.module_version"));
			finding_fact(f, "driver.nvidia.module_file.version", disk_fact);
		} else {
			finding_fact(f, driver_fact_key(root, fact), fact);
			finding_fact(f, "driver.nvidia.flavor",
				     snap_get(root, "driver.nvidia.flavor"));
		}
		if (refusal && !dropped)
			finding_fact(f, "driver.kernel_log.gsp_refused_gpus[].bus_id", refusal);
		snprintf(name, sizeof(name), "hardware.gpus.%zu.device_id", i);
		finding_fact(f, name, snap_child(g, "device_id"));
		finding_evidence(f, "facts.gpu.compute_capability", fg->source, "%s: %s (%s)",
				 fg->product, fg->compute_capability, fg->architecture);
		if (dropped)
			finding_evidence(f, "facts.driver_branches.oldest_cc", b->source,
					 "R%u: %s (%s)", b->branch, b->oldest_cc, b->oldest_arch);
		else
			finding_evidence(f, "facts.thresholds.open_kernel_module_min_cc",
					 open_min->source, "%s", open_min->value);
		if (dropped)
			nixos_legacy_fix(f, root, legacy_branch_of(g, &dev) ? dev : NULL);
		if (dropped && legacy_branch_of(g, &dev)) {
			finding_evidence(f, "facts.nvidia_devices.legacy_branch", "SGJ",
					 "10de:%04x: %s", dev->device_id, dev->legacy_branch);
			finding_fix(f,
				    "# install the NVIDIA %s legacy driver branch: the last one "
				    "that supports %s (NVIDIA's supported-gpus.json)",
				    dev->legacy_branch, fg->product);
		} else if (dropped)
			finding_fix(f,
				    "# install the last driver branch for %s GPUs (gpuenv facts "
				    "driver <branch> shows each branch's oldest architecture)",
				    fg->architecture);
		else
			proprietary_flavour_fix(f, root, b);
		finding_rule_verify(f);
	}
}

/* The open nvidia.ko refusing a GPU that is not a data-center one (kernel-log.h: "Open
 * nvidia.ko is only ready for use on Data Center GPUs."), in this boot or one the log cannot
 * place, while the open module is the one loaded: NVIDIA/open-gpu-kernel-modules#230, an
 * Arch desktop's GeForce under the open module of R515. */
RULE_CHECK(check_open_module_datacenter_only)
{
	const struct snap_node *o = snap_get(root, "driver.kernel_log.open_module_datacenter_only");
	const char *boot = snap_get_str(o, "boot");
	const struct snap_node *fl = snap_get(root, "driver.nvidia.flavor");
	const char *id = snap_get_str(root, "host.os.id"), *ver = NULL;
	const struct snap_node *fact = NULL;
	struct finding *f;
	char of[48] = "";

	/* Only the open module prints the message. A machine read now whose loaded module is
	 * another flavour, or none (the line is of an earlier load), is past it; a pasted log
	 * (explain) shows no flavour and stands on the line alone. */
	if (!o || (boot && streq(boot, "earlier")) ||
	    (snap_present(fl) && !streq(snap_str(fl), "open")) || snap_state(fl) == FACT_ABSENT)
		return;
	if (nvidia_driver(root, &ver, &fact) == DRIVER_LOADED && ver)
		snprintf(of, sizeof(of), " of %s", ver);
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "the open nvidia.ko%s refuses to initialise the GPU: it is not a "
			 "data-center GPU, and this release drives GeForce and workstation GPUs "
			 "only with NVreg_OpenRmEnableUnsupportedGpus=1 (the kernel log: \"Open "
			 "nvidia.ko is only ready for use on Data Center GPUs\")",
			 of);
	finding_fact(f, "driver.kernel_log.open_module_datacenter_only.count",
		     snap_child(o, "count"));
	if (fact)
		finding_fact(f, driver_fact_key(root, fact), fact);
	if (snap_present(fl))
		finding_fact(f, "driver.nvidia.flavor", fl);
	nvidia_gpus_evidence(f, root);
	/* Talos has no writable modprobe.d: its machine config gives a module its parameters
	 * (machine.kernel.modules[].parameters; siderolabs/extensions#114, the RTX 2080 SUPER
	 * of a Talos node; Talos's NVIDIA guide applies such patches with talosctl patch mc) */
	if (id && streq(id, "talos"))
		finding_fix(f,
			    "# the node's machine config: machine: {kernel: {modules: [{name: "
			    "nvidia, parameters: [NVreg_OpenRmEnableUnsupportedGpus=1]}]}}, "
			    "applied with talosctl patch mc --patch @<file>; then reboot the node");
	else {
		finding_fix(f, "echo 'options nvidia NVreg_OpenRmEnableUnsupportedGpus=1' | "
			       "sudo tee /etc/modprobe.d/nvidia-open.conf");
		distro_fix(f, root, FIX_INITRAMFS, NULL);
	}
	finding_fix(f, "# or the proprietary kernel module flavour of the same release (not "
		       "the -open one)");
	finding_rule_verify(f);
}

/* The newest month the snapshot shows the machine lived in, as YYYYMM: the capture's day
 * (host.date, live only), else the newest package-log entry (driver.package_log.events[]:
 * apt, dnf and pacman all log ISO 8601 dates first). 0: unknown. *ret_what says which. */
static unsigned snapshot_month(const struct snap_node *root, const char **ret_what,
			       const char **ret_source)
{
	const struct snap_node *evs = snap_get(root, "driver.package_log.events");
	const char *d = snap_get_str(root, "host.date");
	unsigned best = 0;

	*ret_what = NULL;
	*ret_source = NULL;
	if (d) {
		*ret_what = d;
		*ret_source = snap_source(snap_get(root, "host.date"));
	}
	for (size_t i = 0; !d && i < snap_count(evs); i++) {
		const struct snap_node *t = snap_child(snap_at(evs, i), "time");
		const char *s = snap_str(t) ? snap_str(t) : "";
		unsigned y, m;

		s += strspn(s, "[");
		if (sscanf(s, "%4u-%2u", &y, &m) == 2 && m >= 1 && m <= 12 && y * 100 + m > best) {
			best = y * 100 + m;
			*ret_what = snap_str(t);
			*ret_source = snap_source(t);
		}
	}
	if (d) {
		unsigned y, m;

		return sscanf(d, "%4u-%2u", &y, &m) == 2 ? y * 100 + m : 0;
	}
	return best;
}

RULE_CHECK(check_branch_eol)
{
	const struct facts_driver_branch *b = NULL;
	const struct facts_threshold *asof = NULL;
	const struct snap_node *fact;
	const char *ver, *when, *when_src;
	struct finding *f;
	unsigned eol = 0, now;
	int r;

	if (!rule_nvidia_driver(c, root, "the NVIDIA driver version", &ver, &fact))
		return;
	if (!driver_branch(c, ver, &b))
		return;
	r = facts_driver_branch_eol(b, &eol);
	if (r < 0)
		return; /* no end of life known for this branch */
	now = snapshot_month(root, &when, &when_src);
	if (now == 0) {
		rule_skip(c, NULL,
			  "the snapshot carries no date (no capture day: not the live system; no "
			  "dated package log): whether R%u had reached its end of life (%s) then "
			  "cannot be told",
			  b->branch, r == 1 ? b->datacenter_eol : "listed as past");
		return;
	}
	if (r == 1 && eol > now)
		return;
	/* Listed as past without a date: known as of the knowledge base's month, not before. */
	if (r == 0 && (facts_threshold("knowledge_base_as_of", &asof) < 0 || asof->number > now))
		return;
	if (r == 1)
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
				 "driver %s is branch R%u, end of life %s (the machine's date: %s)",
				 ver, b->branch, b->datacenter_eol, when);
	else
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
				 "driver %s is branch R%u, which NVIDIA lists as end of life (the "
				 "machine's date: %s)",
				 ver, b->branch, when);
	finding_fact(f, driver_fact_key(root, fact), fact);
	finding_evidence(f, "facts.driver_branches.datacenter_eol", b->source, "R%u: %s", b->branch,
			 b->datacenter_eol);
	finding_evidence(f, "host.date", when_src ?: "?", "%s", when);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* ---- driver.no-permission -------------------------------------------------------------- */

/* The nodes a CUDA / ROCm process opens read-write (render nodes only for ROCm: CUDA does
 * not use the nvidia-drm ones). */
static bool compute_node(const char *path, bool rocm)
{
	const char *p;

	if (!path)
		return false;
	if (streq(path, "/dev/nvidiactl") || streq(path, "/dev/nvidia-uvm") ||
	    streq(path, "/dev/kfd"))
		return true;
	if (startswith(path, "/dev/dri/renderD"))
		return rocm;
	if (!startswith(path, "/dev/nvidia"))
		return false;
	p = path + strlen("/dev/nvidia");
	return *p && strspn(p, "0123456789") == strlen(p);
}

static bool in_group(const struct snap_node *proc, int64_t gid)
{
	const struct snap_node *groups = snap_child(proc, "groups");
	int64_t g;

	if (snap_get_int(proc, "egid", &g) && g == gid)
		return true;
	for (size_t i = 0; i < snap_count(groups); i++)
		if (snap_get_int(snap_at(groups, i), "gid", &g) && g == gid)
			return true;
	return false;
}

/* rw access to a node of mode/uid/gid for the process (euid, egid, groups). */
static bool node_rw(const struct snap_node *proc, int64_t euid, unsigned mode, int64_t uid,
		    int64_t gid)
{
	unsigned bits;

	if (euid == 0)
		return true;
	if (euid == uid)
		bits = (mode >> 6) & 7;
	else if (in_group(proc, gid))
		bits = (mode >> 3) & 7;
	else
		bits = mode & 7;
	return (bits & 6) == 6;
}

/* The fix where no denied node lets its group read and write it (/dev/kfd "crw------- root
 * root" with no udev rule: ROCm/ROCT-Thunk-Interface#36): joining a group changes nothing, the
 * node needs a group and mode first. */
static void no_group_fix(struct finding *f, const char *path, const char *mode)
{
	finding_fix(f,
		    "# %s (mode %s) grants its group nothing: joining render or video does not "
		    "help until a rule gives it a group and mode 0660",
		    path ?: "?", mode ?: "?");
	if (path && startswith(path, "/dev/nvidia"))
		finding_fix(
			f,
			"echo 'options nvidia NVreg_DeviceFileGID=<gid of video> "
			"NVreg_DeviceFileMode=0660' | sudo tee /etc/modprobe.d/nvidia-nodes.conf   "
			"# the NVIDIA module creates its nodes with these; then reload it or "
			"reboot");
	else if (path && streq(path, "/dev/kfd"))
		finding_fix(f, "echo 'KERNEL==\"kfd\", GROUP=\"render\", MODE=\"0660\"' | sudo tee "
			       "/etc/udev/rules.d/70-kfd.rules && sudo udevadm control --reload && "
			       "sudo udevadm trigger   # then be in group render: sudo usermod -aG "
			       "render $USER");
	else
		finding_fix(f,
			    "echo 'SUBSYSTEM==\"drm\", KERNEL==\"renderD*\", GROUP=\"render\", "
			    "MODE=\"0660\"' | sudo tee /etc/udev/rules.d/70-render.rules && sudo "
			    "udevadm control --reload && sudo udevadm trigger   # then be in group "
			    "render: sudo usermod -aG render $USER");
}

static bool gid_listed(const int64_t *gids, size_t n, int64_t gid)
{
	for (size_t i = 0; i < n; i++)
		if (gids[i] == gid)
			return true;
	return false;
}

RULE_CHECK(check_no_permission)
{
	const struct snap_node *nodes = snap_get(root, "driver.device_nodes.nodes");
	const struct snap_node *proc = snap_get(root, "host.process");
	const struct snap_node *nvml_init = snap_get(root, "driver.nvml.init");
	struct strbuf denied = STRBUF_INIT, groups = STRBUF_INIT, gids = STRBUF_INIT;
	int64_t unnamed[8];
	size_t n_unnamed = 0;
	const struct snap_node *first = NULL;
	bool nvml_denied = error_names(nvml_init, "NO_PERMISSION");
	/* render nodes: ROCm's, and Level Zero's and OpenCL's on Intel GPUs (Intel's OpenCL
	 * ICD opens the render node too: intel/compute-runtime#350, 0 platforms until the user
	 * joined render) */
	char xpu[256];
	bool rocm = gpus_count(root, gpu_is_amd) > 0 ||
		    snap_present(snap_get(root, "driver.device_nodes.kfd")) ||
		    (gpus_count(root, gpu_intel_bound) > 0 &&
		     (snap_present(snap_get(root, "runtime.level_zero.loader.path")) ||
		      opencl_gpu_icd_registered(root) ||
		      intel_framework_present(root, xpu, sizeof(xpu))));
	size_t n = 0, first_i = 0;
	int64_t euid = -1;
	struct finding *f;

	{
		bool any = false;

		for (size_t i = 0; i < snap_count(nodes); i++)
			any |= compute_node(snap_get_str(snap_at(nodes, i), "path"), rocm);
		if (!any && !nvml_denied)
			return;
	}
	if (!rule_need(c, NULL, "host.process.euid", snap_child(proc, "euid")))
		return;
	snap_get_int(proc, "euid", &euid);
	for (size_t i = 0; i < snap_count(nodes); i++) {
		const struct snap_node *nd = snap_at(nodes, i);
		const char *path = snap_get_str(nd, "path"), *mode = snap_get_str(nd, "mode");
		const char *grp = snap_get_str(nd, "group");
		int64_t uid, gid;
		unsigned m;
		char gname[64];

		if (!compute_node(path, rocm) || !mode || !snap_get_int(nd, "uid", &uid) ||
		    !snap_get_int(nd, "gid", &gid) || parse_uint(mode, 8, &m) < 0)
			continue;
		if (node_rw(proc, euid, m, uid, gid))
			continue;
		if (!first) {
			first = nd;
			first_i = i;
		}
		if (n < 3 && grp)
			strbuf_printf(&denied, "%s%s (%s, uid %" PRId64 ", group %s)",
				      n ? ", " : "", path, mode, uid, grp);
		else if (n < 3)
			strbuf_printf(&denied, "%s%s (%s, uid %" PRId64 ", gid %" PRId64 ")",
				      n ? ", " : "", path, mode, uid, gid);
		n++;
		snprintf(gname, sizeof(gname), "%s", grp ?: "");
		if (grp && ((m >> 3) & 6) == 6 && !strstr(strbuf_str(&groups), gname))
			strbuf_printf(&groups, "%s%s", groups.len ? "," : "", grp);
		/* a group /etc/group does not name (a container given the host's nodes: their
		 * gid is the host's render or video, ROCm/ROCm-docker#116): still a group
		 * that the mode grants, joined by its number */
		if (!grp && ((m >> 3) & 6) == 6 && !gid_listed(unnamed, n_unnamed, gid) &&
		    n_unnamed < ARRAY_SIZE(unnamed)) {
			unnamed[n_unnamed++] = gid;
			strbuf_printf(&gids, "%s%" PRId64, gids.len ? "," : "", gid);
		}
	}
	if (n == 0 && !nvml_denied) {
		strbuf_done(&denied);
		strbuf_done(&groups);
		strbuf_done(&gids);
		return;
	}
	if (n > 0)
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "the judged process (uid %" PRId64 ") cannot open %zu GPU device "
				 "node(s) read-write: %s%s%s%s%s%s%s",
				 euid, n, strbuf_str(&denied), n > 3 ? ", …" : "",
				 groups.len ? "; it is not in group " : "",
				 groups.len ? strbuf_str(&groups) : "",
				 gids.len ? (groups.len ? ", nor in gid " : "; it is not in gid ")
					  : "",
				 gids.len ? strbuf_str(&gids) : "",
				 gids.len ? ", which /etc/group does not name" : "");
	else
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "nvmlInit answers NVML_ERROR_NO_PERMISSION for the judged process "
				 "(uid %" PRId64 ")",
				 euid);
	finding_fact(f, "host.process.euid", snap_child(proc, "euid"));
	{
		const struct snap_node *gl = snap_child(proc, "groups");
		struct strbuf names = STRBUF_INIT;

		for (size_t i = 0; i < snap_count(gl); i++)
			strbuf_printf(&names, "%s%s", i ? "," : "",
				      snap_get_str(snap_at(gl, i), "name") ?: "?");
		finding_evidence(f, "host.process.groups",
				 snap_source(snap_child(snap_at(gl, 0), "gid"))
					 ?: "/proc/self/status",
				 "%s", names.len ? strbuf_str(&names) : "none");
		strbuf_done(&names);
	}
	if (first) {
		char name[96];

		snprintf(name, sizeof(name), "driver.device_nodes.nodes.%zu.mode", first_i);
		finding_fact(f, name, snap_child(first, "mode"));
		snprintf(name, sizeof(name), "driver.device_nodes.nodes.%zu.group", first_i);
		finding_fact(f, name, snap_child(first, "group"));
	}
	if (nvml_denied)
		finding_fact(f, "driver.nvml.init", nvml_init);
	if (in_container(root) && (groups.len || gids.len)) {
		/* a container's groups are the engine's to give at start: usermod in the image
		 * lasts until the next container, a udev rule there does nothing */
		finding_fix(f,
			    "# start the container with the nodes' group%s: docker run --group-add "
			    "%s … (podman run --group-add the same; Kubernetes: "
			    "securityContext.supplementalGroups)",
			    gids.len ? " by number, as the image names no group of it" : "",
			    gids.len ? strbuf_str(&gids) : strbuf_str(&groups));
	} else if (groups.len) {
		finding_fix(f,
			    "sudo usermod -aG %s $USER   # then log out and in again (newgrp %s "
			    "for one shell)",
			    strbuf_str(&groups),
			    strchr(strbuf_str(&groups), ',') ? "<group>" : strbuf_str(&groups));
	} else if (gids.len && !strchr(strbuf_str(&gids), ',')) {
		finding_fix(f,
			    "sudo groupadd -g %s gpu-nodes && sudo usermod -aG gpu-nodes $USER   "
			    "# gid %s has no name here; then log out and in again",
			    strbuf_str(&gids), strbuf_str(&gids));
	}
	if (first && !groups.len && !gids.len)
		no_group_fix(f, snap_get_str(first, "path"), snap_get_str(first, "mode"));
	else if (!in_container(root) || (!groups.len && !gids.len))
		finding_rule_fix(f); /* the host's ways: usermod, a udev rule */
	finding_rule_verify(f);
	strbuf_done(&denied);
	strbuf_done(&groups);
	strbuf_done(&gids);
}

/* ---- driver.xid-errors ------------------------------------------------------------------ */

RULE_CHECK(check_xid_errors)
{
	const struct snap_node *ev = snap_get(root, "driver.xid_events");

	if (!rule_need_known(c, NULL, "driver.xid_events", ev) || snap_state(ev) == FACT_ABSENT)
		return;
	for (size_t i = 0; i < snap_count(ev); i++) {
		const struct snap_node *e = snap_at(ev, i);
		const struct facts_xid *x = NULL;
		const char *bus = snap_get_str(e, "bus_id") ?: "?";
		enum gpuenv_severity sev;
		int64_t code = -1, count = 0;
		struct finding *f;
		char key[96];
		bool fatal;
		/* of a boot before the running one (probe-kernel-log.c): history, the GPU since
		 * restarted; a fatal one is then a warning, not the state of the GPU now */
		bool earlier = streq(snap_get_str(e, "boot") ?: "", "earlier");
		const char *when =
			earlier ? "; logged in an earlier boot, not the running one" : "";

		if (!snap_get_int(e, "code", &code) || code < 0)
			continue;
		snap_get_int(e, "count", &count);
		if (facts_xid((unsigned)code, &x) < 0) {
			f = rule_finding(c, GPUENV_SEVERITY_WARNING, bus,
					 "Xid %" PRId64 " on GPU %s (%" PRId64
					 " time(s), last %s): "
					 "\"%s\" — this code is not in gpuenv's Xid table%s",
					 code, bus, count, snap_get_str(e, "last_timestamp") ?: "?",
					 snap_get_str(e, "text") ?: "", when);
		} else {
			fatal = x->severity && streq(x->severity, "FATAL");
			sev = fatal ? (x->application_error ? GPUENV_SEVERITY_WARNING
							    : GPUENV_SEVERITY_ERROR)
				    : (x->application_error ? GPUENV_SEVERITY_INFO
							    : GPUENV_SEVERITY_WARNING);
			if (earlier && sev == GPUENV_SEVERITY_ERROR)
				sev = GPUENV_SEVERITY_WARNING;
			f = rule_finding(
				c, sev, bus,
				"Xid %" PRId64 " on GPU %s (%" PRId64 " time(s), last %s): %s "
				"(%s, %s%s)%s",
				code, bus, count, snap_get_str(e, "last_timestamp") ?: "?",
				x->description ?: x->mnemonic, x->mnemonic,
				fatal ? "fatal" : "non-fatal",
				x->application_error ? ", usually an application error" : "", when);
			finding_evidence(f, "facts.xid", x->source, "%u %s: %s, %s", x->xid,
					 x->mnemonic, x->severity ?: "?",
					 x->resolution_bucket ?: "?");
			if (x->recommended_action)
				finding_fix(f, "# %s", x->recommended_action);
		}
		snprintf(key, sizeof(key), "driver.xid_events.%zu.text", i);
		finding_fact(f, key, snap_child(e, "text"));
		snprintf(key, sizeof(key), "driver.xid_events.%zu.count", i);
		finding_fact(f, key, snap_child(e, "count"));
		if (earlier) {
			snprintf(key, sizeof(key), "driver.xid_events.%zu.boot", i);
			finding_fact(f, key, snap_child(e, "boot"));
		}
		if (snap_present(snap_child(e, "process"))) {
			snprintf(key, sizeof(key), "driver.xid_events.%zu.process", i);
			finding_fact(f, key, snap_child(e, "process"));
		}
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* ---- driver.persistence-off --------------------------------------------------------------- */

RULE_CHECK(check_persistence_off)
{
	const struct snap_node *devs = snap_get(root, "driver.nvml.devices");
	struct strbuf list = STRBUF_INIT;
	const struct snap_node *first = NULL;
	size_t n = 0, first_i = 0;
	struct finding *f;

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		const struct facts_gpu *fg;
		unsigned id;
		bool on = true;

		if (!snap_bool(snap_child(d, "persistence_mode"), &on) || on)
			continue;
		/* pci_device_id: "0x2331" (or NVML's raw "0x233110DE": device << 16 | vendor) */
		if (parse_uint(snap_get_str(d, "pci_device_id") ?: "", 16, &id) < 0)
			continue;
		if (id > 0xffff)
			id >>= 16;
		if (facts_gpu_by_pci_id(0x10de, (uint16_t)id, &fg) < 0 || !fg->segment ||
		    !streq(fg->segment, "datacenter"))
			continue;
		if (!first) {
			first = d;
			first_i = i;
		}
		strbuf_printf(&list, "%s%s (%s)", n++ ? ", " : "",
			      snap_get_str(d, "pci_bus_id") ?: "?", fg->product);
	}
	if (n == 0) {
		strbuf_done(&list);
		return;
	}
	f = rule_finding(c, GPUENV_SEVERITY_INFO, NULL,
			 "persistence mode is off on %zu data-center GPU(s): %s — the driver tears "
			 "the GPU state down when the last client exits, so every CUDA start pays "
			 "the initialisation again",
			 n, strbuf_str(&list));
	{
		char name[96];

		snprintf(name, sizeof(name), "driver.nvml.devices.%zu.persistence_mode", first_i);
		finding_fact(f, name, snap_child(first, "persistence_mode"));
		snprintf(name, sizeof(name), "driver.nvml.devices.%zu.pci_device_id", first_i);
		finding_fact(f, name, snap_child(first, "pci_device_id"));
	}
	finding_rule_fix(f);
	finding_rule_verify(f);
	strbuf_done(&list);
}
