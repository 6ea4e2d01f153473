// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the rules of the driver layer (src/rules/rules-table-driver.inc): every driver.*
 * rule fires on a snapshot built in C that shows its problem (positive) and stays quiet on the same
 * snapshot with the problem fixed (negative); unreadable inputs give "skipped" records, never
 * silence. The builders and assertions: rules-test-util.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "locale-fx.h"
#include "rules-test-util.h"

static void test_module_not_loaded(void **state)
{
	struct gpuenv_snapshot *s = base();

	NO(s, "driver.module-not-loaded"); /* no GPU: nothing to drive */
	gpu(s, NULL, NULL);
	YES(s, "driver.module-not-loaded", GPUENV_SEVERITY_ERROR, "not loaded");
	snap_set_bool(node(s, "driver.kernel_modules"), "modules_supported", false,
		      "/proc/modules");
	YES(s, "driver.module-not-loaded", GPUENV_SEVERITY_ERROR, "no loadable-module support");
	driver_loaded(s, "550.54.15");
	NO(s, "driver.module-not-loaded");
	/* Unreadable version: skipped, not passed. */
	snap_set_errno(node(s, "driver.nvidia"), "module_version", -EACCES,
		       "/sys/module/nvidia/version");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_non_null(skip_of(d, "driver.module-not-loaded"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_secure_boot(void **state)
{
	struct gpuenv_snapshot *s = base();
	const char *ko = "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko";

	gpu(s, NULL, NULL);
	snap_set_bool(node(s, "driver.secure_boot"), "enabled", true, "efivars");
	NO(s, "driver.secure-boot-unsigned-module"); /* signed */
	snap_set_state(node(s, "driver.nvidia.module_file"), "signature", FACT_ABSENT, ko,
		       "module is not signed");
	YES(s, "driver.secure-boot-unsigned-module", GPUENV_SEVERITY_ERROR, "not signed");
	/* a trailer that could not be read: not "unsigned", the rule says it skipped */
	snap_set_malformed(node(s, "driver.nvidia.module_file"), "signature", NULL, ko,
			   "signature trailer: sig_len 0 out of range");
	SKIPPED(s, "driver.secure-boot-unsigned-module");
	snap_set_bool(node(s, "driver.secure_boot"), "enabled", false, "efivars");
	NO(s, "driver.secure-boot-unsigned-module");
	snapshot_unref(s);
}

static void key(struct gpuenv_snapshot *s, const char *list, const char *cn, const char *serial)
{
	struct snap_node *o = snap_append_object(node(s, list));

	snap_set_str(o, "subject", cn, "efivars");
	snap_set_str(o, "issuer", cn, "efivars");
	snap_set_str(o, "serial", serial, "efivars");
}

static void os_release(struct gpuenv_snapshot *s, const char *id, const char *id_like)
{
	struct snap_node *os = snap_object(node(s, "host"), "os");

	snap_set_str(os, "id", id, "/etc/os-release");
	if (id_like)
		snap_set_str(os, "id_like", id_like, "/etc/os-release");
	else
		snap_set_errno(os, "id_like", -ENOENT, "/etc/os-release");
}

static void block(struct gpuenv_snapshot *s, const char *module, const char *kind, const char *line,
		  const char *file)
{
	struct snap_node *o = snap_append_object(snap_array(node(s, "driver"), "module_blacklist"));

	snap_set_str(o, "module", module, file);
	snap_set_str(o, "kind", kind, file);
	snap_set_str(o, "line", line, file);
	snap_set_str(o, "file", file, file);
}

/* A blacklist in modprobe.d or on the kernel command line is named as the cause, with the
 * file to edit and the initramfs to rebuild; one of nvidia_drm alone does not keep nvidia.ko
 * out and changes nothing. */
static void test_module_blacklisted(void **state)
{
	struct gpuenv_snapshot *s = base();
	static const char conf[] = "/lib/modprobe.d/blacklist-nvidia.conf";

	(void)state;
	gpu(s, NULL, NULL);
	os_release(s, "ubuntu", "debian");
	block(s, "nvidia-drm", "blacklist", "blacklist nvidia-drm", conf);
	YES(s, "driver.module-not-loaded", GPUENV_SEVERITY_ERROR, "not loaded");
	NO_FIX(s, "driver.module-not-loaded", "blacklist-nvidia.conf");
	block(s, "nvidia", "blacklist", "blacklist nvidia", conf);
	block(s, "nvidia", "alias-off", "alias nvidia off", conf);
	YES(s, "driver.module-not-loaded", GPUENV_SEVERITY_ERROR,
	    "'alias nvidia off' in /lib/modprobe.d/blacklist-nvidia.conf");
	FIX(s, "driver.module-not-loaded",
	    "remove 'blacklist nvidia', 'alias nvidia off' from /lib/modprobe.d/blacklist-nvidia.conf");
	FIX(s, "driver.module-not-loaded", "sudo prime-select on-demand");
	FIX(s, "driver.module-not-loaded", "update-initramfs -u");
	NO_FIX(s, "driver.module-not-loaded", "ubuntu-drivers install");
	snapshot_unref(s);

	s = base();
	gpu(s, NULL, NULL);
	os_release(s, "fedora", NULL);
	block(s, "nvidia", "install", "install nvidia /bin/false", "/etc/modprobe.d/off.conf");
	YES(s, "driver.module-not-loaded", GPUENV_SEVERITY_ERROR, "runs that command");
	FIX(s, "driver.module-not-loaded", "dracut");
	NO_FIX(s, "driver.module-not-loaded", "prime-select");
	driver_loaded(s, "550.54.15");
	NO(s, "driver.module-not-loaded"); /* loaded anyway (modprobe -i): no finding */
	snapshot_unref(s);

	s = base();
	gpu(s, NULL, NULL);
	block(s, "nvidia", "module_blacklist", "module_blacklist=nouveau,nvidia", "/proc/cmdline");
	YES(s, "driver.module-not-loaded", GPUENV_SEVERITY_ERROR, "the kernel refuses");
	FIX(s, "driver.module-not-loaded", "GRUB_CMDLINE_LINUX");
	snapshot_unref(s);
}

/* The key to enroll is the one the module's builder signs with, per distribution. */
static void secure_boot_key_fixes(struct gpuenv_snapshot *s, const char *dkms_ko)
{
	const char *id = "driver.secure-boot-key-not-enrolled";

	/* Ubuntu and its family: DKMS signs with shim-signed's MOK */
	os_release(s, "ubuntu", "debian");
	FIX(s, id, "sudo update-secureboot-policy --enroll-key");
	NO_FIX(s, id, "/var/lib/dkms/mok.pub");
	os_release(s, "neon", "ubuntu debian"); /* KDE neon: known by ID_LIKE only */
	FIX(s, id, "sudo update-secureboot-policy --enroll-key");
	os_release(s, "pop", "ubuntu debian");
	FIX(s, id, "update-secureboot-policy --enroll-key");
	/* Debian: DKMS' own key */
	os_release(s, "debian", NULL);
	FIX(s, id, "sudo mokutil --import /var/lib/dkms/mok.pub");
	NO_FIX(s, id, "update-secureboot-policy");
	/* Fedora's akmods: its key, whatever the family */
	os_release(s, "fedora", NULL);
	snap_set_str(node(s, "driver.nvidia.module_file"), "path",
		     "/lib/modules/6.8.5-301.fc40.x86_64/extra/nvidia/nvidia.ko.xz", dkms_ko);
	FIX(s, id, "sudo mokutil --import /etc/pki/akmods/certs/public_key.der");
	NO_FIX(s, id, "update-secureboot-policy");
	snap_set_str(node(s, "driver.nvidia.module_file"), "path", dkms_ko, dkms_ko);
	snap_set_errno(node(s, "host"), "os", -ENOENT, "/etc/os-release");
}

static void test_secure_boot_key(void **state)
{
	struct gpuenv_snapshot *s = base();
	const char *ko = "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko";
	struct snap_node *sb = node(s, "driver.secure_boot");

	gpu(s, NULL, NULL);
	snap_set_str(node(s, "driver.nvidia.module_file"), "sig_key", "1A:2B:3C", ko);
	snap_set_bool(sb, "enabled", true, "efivars");
	snap_array(sb, "mok_keys");
	snap_array(sb, "db_keys");
	key(s, "driver.secure_boot.mok_keys", "Canonical Ltd. Master Certificate Authority",
	    "00:B9:41:24:A0:18:2C:92:67");
	key(s, "driver.secure_boot.db_keys", "Microsoft Corporation UEFI CA 2011",
	    "61:08:D3:C4:00:00:00:00:00:04");
	/* A DKMS module signed by a key in neither list: refused. */
	YES(s, "driver.secure-boot-key-not-enrolled", GPUENV_SEVERITY_ERROR,
	    "signed by \"DKMS module signing key\" (serial 1A:2B:3C), a key in neither MokListRT "
	    "(1 key) nor db (1 key): the kernel refuses it");
	secure_boot_key_fixes(s, ko);
	/* A module the distribution installed may be signed by a key built into the kernel. */
	snap_set_str(node(s, "driver.nvidia.module_file"), "path",
		     "/lib/modules/6.8.0-45-generic/kernel/nvidia-550/nvidia.ko", ko);
	YES(s, "driver.secure-boot-key-not-enrolled", GPUENV_SEVERITY_WARNING,
	    "unless it is one of the kernel's built-in keys");
	snap_set_str(node(s, "driver.nvidia.module_file"), "path", ko, ko);
	/* Same name, another serial (a key made again): still not enrolled. */
	key(s, "driver.secure_boot.mok_keys", "DKMS module signing key", "77:66");
	YES(s, "driver.secure-boot-key-not-enrolled", GPUENV_SEVERITY_ERROR, "neither MokListRT");
	/* Enrolled: quiet. */
	key(s, "driver.secure_boot.mok_keys", "DKMS module signing key", "1a:2b:3c");
	NO(s, "driver.secure-boot-key-not-enrolled");
	NO(s, "driver.secure-boot-unsigned-module");
	/* MokListRT unreadable, the key not in db: says so and which key signed it. */
	snap_set_errno(sb, "mok_keys", -EACCES,
		       "/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23");
	YES(s, "driver.secure-boot-key-not-enrolled", GPUENV_SEVERITY_WARNING,
	    "whether that key is enrolled could not be read (unreadable");
	/* No MokListRT at all (systemd-boot, no shim; sebastiaanfranken/systemd-boot-conversion#2):
	 * no MOK can be enrolled, so no mokutil/MokManager fix, a key in db instead. */
	snap_set_state(sb, "mok_keys", FACT_ABSENT,
		       "/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23",
		       "No such file or directory");
	YES(s, "driver.secure-boot-key-not-enrolled", GPUENV_SEVERITY_ERROR,
	    "there is no MokListRT, so this boot did not go through shim");
	FIX(s, "driver.secure-boot-key-not-enrolled", "sign the module with a key in db");
	NO_FIX(s, "driver.secure-boot-key-not-enrolled", "update-secureboot-policy");
	NO_FIX(s, "driver.secure-boot-key-not-enrolled", "MokManager screen choose");
	/* In db: enrolled whatever MokListRT says. */
	key(s, "driver.secure_boot.db_keys", "DKMS module signing key", "1A:2B:3C");
	NO(s, "driver.secure-boot-key-not-enrolled");
	snap_array(sb, "db_keys");
	snap_array(sb, "mok_keys");
	/* Loaded: the kernel accepted it, whatever the lists say. */
	driver_loaded(s, "550.120");
	NO(s, "driver.secure-boot-key-not-enrolled");
	snapshot_unref(s);
	/* Unsigned: the other rule's; Secure Boot off: nothing; signature unreadable: skipped. */
	s = base();
	gpu(s, NULL, NULL);
	sb = node(s, "driver.secure_boot");
	snap_set_bool(sb, "enabled", true, "efivars");
	snap_array(sb, "mok_keys");
	snap_array(sb, "db_keys");
	snap_set_state(node(s, "driver.nvidia.module_file"), "signature", FACT_ABSENT, ko,
		       "module is not signed");
	NO(s, "driver.secure-boot-key-not-enrolled");
	snap_set_malformed(node(s, "driver.nvidia.module_file"), "signature", NULL, ko,
			   "signature trailer: sig_len 0 out of range");
	SKIPPED(s, "driver.secure-boot-key-not-enrolled");
	snap_set_bool(sb, "enabled", false, "efivars");
	NO(s, "driver.secure-boot-key-not-enrolled");
	snapshot_unref(s);
}

static struct snap_node *lib(struct gpuenv_snapshot *s, const char *key, const char *path,
			     const char *version, const char *via)
{
	struct snap_node *o = snap_object(node(s, "driver.userspace"), key);

	snap_set_str(o, "path", path, via);
	snap_set_str(o, "resolved_path", path, via);
	if (version)
		snap_set_str(o, "version", version, path);
	snap_set_str(o, "found_via", via, via);
	return o;
}

static void test_wsl(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *cu, *sh;

	snap_object(node(s, "driver"), "userspace");
	lib(s, "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.510.85.02", "510.85.02",
	    "ld.so.cache");
	/* Not WSL: a Linux driver's libcuda is what it should be. */
	NO(s, "driver.wsl-linux-driver-installed");
	snap_set_str(node(s, "host"), "kernel_release", "5.15.90.1-microsoft-standard-WSL2",
		     "/proc/sys/kernel/osrelease");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_ERROR,
	    "WSL2: ld.so loads libcuda.so.1 from /usr/lib/x86_64-linux-gnu/libcuda.so.510.85.02 "
	    "(version 510.85.02, via ld.so.cache), a Linux NVIDIA driver");
	/* No NVIDIA GPU on the PCI bus and no nvidia.ko under WSL2: never "not loaded". */
	gpu(s, NULL, NULL);
	NO(s, "driver.module-not-loaded");
	NO(s, "driver.module-missing-for-kernel");
	/* The Windows driver's copy first, the Linux one behind it: a warning. */
	cu = lib(s, "libcuda", "/usr/lib/wsl/lib/libcuda.so.1", NULL, "ld.so.cache");
	sh = snap_append_object(snap_array(cu, "shadowed"));
	snap_set_str(sh, "path", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "ld.so.cache");
	snap_set_str(sh, "resolved_path", "/usr/lib/x86_64-linux-gnu/libcuda.so.510.85.02",
		     "ld.so.cache");
	snap_set_str(sh, "verdict", "loadable", "ld.so.cache");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_WARNING,
	    "ld.so takes the Windows driver's copy first");
	/* dlopen("libcuda.so") (numba, Warp) reaches the Linux driver's development link, an
	 * error even though libcuda.so.1 is the Windows driver's. */
	lib(s, "libcuda_so", "/usr/lib/x86_64-linux-gnu/libcuda.so.510.85.02", "510.85.02",
	    "ld.so.cache");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_ERROR,
	    "dlopen (numba, Warp …) gets libcuda.so from /usr/lib/x86_64-linux-gnu/");
	lib(s, "libcuda_so", "/usr/lib/wsl/lib/libcuda.so", NULL, "ld.so.cache");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_WARNING,
	    "ld.so takes the Windows driver's copy first");
	/* Only the Windows driver's: quiet. */
	snap_set_str(sh, "verdict", "wrong ELF class", "ld.so.cache");
	NO(s, "driver.wsl-linux-driver-installed");
	/* libnvidia-ml from the Linux driver (nvidia-utils-510 brings libnvidia-compute-510). */
	lib(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.510.85.02", "510.85.02",
	    "ld.so.cache");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_ERROR, "libnvidia-ml.so.1");
	/* /dev/dxg alone marks WSL2 too (a custom kernel's release). */
	snap_set_str(node(s, "host"), "kernel_release", "6.6.36-custom",
		     "/proc/sys/kernel/osrelease");
	snap_set_bool(snap_object(node(s, "host"), "wsl"), "dxg_device", true, "/dev/dxg");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_ERROR, "libnvidia-ml.so.1");
	snap_set_bool(snap_object(node(s, "host"), "wsl"), "dxg_device", false, "/dev/dxg");
	NO(s, "driver.wsl-linux-driver-installed");
	snapshot_unref(s);
}

static void test_module_missing(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, NULL);
	NO(s, "driver.module-missing-for-kernel");
	snap_set_state(node(s, "driver.nvidia.module_file"), "path", FACT_ABSENT,
		       "/lib/modules/6.8.0-45-generic", "no nvidia.ko*");
	YES(s, "driver.module-missing-for-kernel", GPUENV_SEVERITY_ERROR, "6.8.0-45-generic");
	driver_loaded(s, "550.54.15");
	NO(s, "driver.module-missing-for-kernel");
	snapshot_unref(s);
}

static void test_nouveau(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, "nouveau");

	YES(s, "driver.nouveau-bound", GPUENV_SEVERITY_ERROR, "driven by nouveau");
	NO(s, "driver.module-not-loaded"); /* the more precise finding wins */
	snap_set_bool(snap_object(node(s, "driver"), "nouveau_blacklisted"), "blacklist", true,
		      "/etc/modprobe.d/blacklist-nouveau.conf");
	YES(s, "driver.nouveau-bound", GPUENV_SEVERITY_ERROR, "initramfs");
	snap_set_str(g, "driver", "nvidia", "x");
	NO(s, "driver.nouveau-bound");
	snapshot_unref(s);
}

/* negativo17/nvidia-driver#73: nouveau bound with rd.driver.blacklist=nouveau on the command
 * line, which dracut applies inside the initramfs only; modprobe.blacklist=nouveau fixed it. */
static void test_nouveau_cmdline(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *nb = snap_object(node(s, "driver"), "nouveau_blacklisted");

	gpu(s, NULL, "nouveau");
	snap_set_bool(nb, "cmdline_initramfs", true, "/proc/cmdline");
	YES(s, "driver.nouveau-bound", GPUENV_SEVERITY_ERROR, "initramfs only");
	FIX(s, "driver.nouveau-bound", "modprobe.blacklist=nouveau");
	/* with modprobe.d too, "not in the initramfs" would be false */
	snap_set_bool(nb, "blacklist", true, "/usr/lib/modprobe.d/nvidia.conf");
	YES(s, "driver.nouveau-bound", GPUENV_SEVERITY_ERROR, "yet it was loaded");
	NO_TEXT(s, "driver.nouveau-bound", "but not in the initramfs");
	snap_set_bool(nb, "cmdline", true, "/proc/cmdline");
	YES(s, "driver.nouveau-bound", GPUENV_SEVERITY_ERROR, "modprobe.blacklist");
	NO_FIX(s, "driver.nouveau-bound", "--args=modprobe.blacklist=nouveau");
	snapshot_unref(s);
}

/* NVIDIA/nvidia-docker#1542: WSL2 on a Windows release without WSL GPU support: no /dev/dxg,
 * no /usr/lib/wsl/lib. */
static void test_wsl_no_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *wsl = snap_object(node(s, "host"), "wsl");

	snap_set_bool(wsl, "dxg_device", false, "/dev/dxg");
	snap_set_bool(wsl, "lib_dir", false, "/usr/lib/wsl/lib");
	NO(s, "driver.wsl-no-gpu-paravirtualization"); /* not WSL */
	snap_set_str(node(s, "host"), "kernel_release", "5.10.16.3-microsoft-standard-WSL2",
		     "/proc/sys/kernel/osrelease");
	YES(s, "driver.wsl-no-gpu-paravirtualization", GPUENV_SEVERITY_ERROR,
	    "no /dev/dxg and no /usr/lib/wsl/lib");
	/* microsoft/WSL#6772: an Insider build that mounts the driver's files but gives no
	 * /dev/dxg (microsoft/WSL#6773) */
	snap_set_bool(wsl, "lib_dir", true, "/usr/lib/wsl/lib");
	YES(s, "driver.wsl-no-gpu-paravirtualization", GPUENV_SEVERITY_ERROR,
	    "mounted at /usr/lib/wsl/lib, but there is no /dev/dxg");
	snap_set_bool(wsl, "dxg_device", true, "/dev/dxg");
	NO(s, "driver.wsl-no-gpu-paravirtualization");
	snap_set_bool(wsl, "dxg_device", false, "/dev/dxg");
	snap_set_bool(wsl, "lib_dir", false, "/usr/lib/wsl/lib");
	snap_set_bool(wsl, "dxg_device", true, "/dev/dxg");
	NO(s, "driver.wsl-no-gpu-paravirtualization");
	/* unreadable: no answer, said as a skip */
	snap_set_errno(wsl, "dxg_device", -EACCES, "/dev/dxg");
	SKIPPED(s, "driver.wsl-no-gpu-paravirtualization");
	snapshot_unref(s);
}

/* Pasted `lspci -vv` of the GPU alone (negativo17/nvidia-driver#73): its vendor by name, no
 * ids, not the whole bus. One NVIDIA GPU under nouveau is enough; none shown is no answer. */
static void test_nouveau_partial_listing(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, "nouveau");

	(void)state;
	snap_set_state(node(s, "hardware"), "pci_devices", FACT_UNPROBED, NULL, NULL);
	snap_set_state(g, "vendor_id", FACT_UNPROBED, NULL, NULL);
	snap_set_state(g, "device_id", FACT_UNPROBED, NULL, NULL);
	YES(s, "driver.nouveau-bound", GPUENV_SEVERITY_ERROR, "driven by nouveau");
	snap_set_str(g, "driver", "nvidia", "x");
	SKIPPED(s, "driver.nouveau-bound");
	snapshot_unref(s);
}

static void test_device_nodes(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	NO(s, "driver.device-nodes-missing");
	snap_set_errno(node(s, "driver.device_nodes"), "nvidia_uvm", -ENOENT, "/dev/nvidia-uvm");
	YES(s, "driver.device-nodes-missing", GPUENV_SEVERITY_WARNING,
	    "/dev/nvidia-uvm is missing");
	/* In a container the same picture is container.no-gpu-devices' business. */
	in_docker(s);
	NO(s, "driver.device-nodes-missing");
	snapshot_unref(s);
}

static void test_branch_drops_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, "0x102d", "nvidia"); /* Tesla K80, Kepler 3.7 */
	driver_loaded(s, "535.183.01");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR,
	    "not supported by driver branch R535");
	/* The fix names the branch NVIDIA lists for this very GPU. */
	FIX(s, "driver.branch-drops-gpu", "NVIDIA 470.xx legacy");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	NO(s, "driver.branch-drops-gpu");
	snapshot_unref(s);
	/* A laptop Maxwell GPU outside the product table is judged by its chip (10de:1391,
	 * GM107M [GeForce GTX 850M], compute capability 5.0) under a branch that dropped it. */
	s = base();
	gpu(s, "0x1391", "nvidia");
	driver_loaded(s, "590.44.01");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR, "GeForce GTX 850M (Maxwell");
	snapshot_unref(s);
	/* Open kernel module on a pre-Turing GPU (Tesla V100, 10de:1db1). */
	s = base();
	gpu(s, "0x1db1", "nvidia");
	driver_loaded(s, "560.35.03");
	NO(s, "driver.branch-drops-gpu");
	snap_set_str(node(s, "driver.nvidia"), "flavor", "open", "/proc/driver/nvidia/version");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR, "open nvidia.ko");
	snapshot_unref(s);
}

/* No module loaded: the release that ran is the kernel log's legacy notice
 * (charmed-kubernetes/kubernetes-docs#646: "The 510.47.03 NVIDIA driver will ignore this GPU",
 * then "No NVIDIA GPU found."). No notice, no finding; a notice of another release than the
 * nvidia.ko now on disk is an old one: skipped, saying so. */
static void test_branch_drops_gpu_logged(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *e;

	(void)state;
	gpu(s, "0x102d", NULL);		       /* Tesla K80, no driver bound */
	SKIPPED(s, "driver.branch-drops-gpu"); /* no release known: could not tell */
	e = snap_append_object(
		snap_array(snap_object(node(s, "driver"), "kernel_log"), "legacy_gpus"));
	snap_set_str(e, "name", "Tesla K80", "/var/log/kern.log");
	snap_set_str(e, "legacy_branch", "470.xx", "/var/log/kern.log");
	snap_set_str(e, "driver_version", "510.47.03", "/var/log/kern.log");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR,
	    "not supported by driver branch R510");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR, "no nvidia module is loaded");
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "510.47.03", "x");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR, "R510");
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "470.103.01", "x");
	SKIPPED(s, "driver.branch-drops-gpu");
	snapshot_unref(s);
}

/* The skip of rule id has a reason containing text. */
static void skip_reason_has(struct gpuenv_snapshot *s, const char *id, const char *text)
{
	struct gpuenv_doctor *d = diag(s);
	const struct rule_skip *k = skip_of(d, id);

	assert_non_null(k);
	if (!strstr(k->reason, text))
		fail_msg("%s: skip \"%s\" lacks \"%s\"", id, k->reason, text);
	diagnosis_free(d);
}

/* No module loaded, no legacy notice: the open module's refusal of the GPU in the kernel log
 * (negativo17/nvidia-driver#158, a GT 1030 on the open 560.31 module) is judged, for that
 * bus only, and not once a module is loaded (the refusal is then history); without a
 * refusal, the release of the nvidia.ko on disk (NVIDIA/open-gpu-kernel-modules#1003: a GTX
 * 1070 with 590.48.01, which dropped Pascal). */
static void test_branch_drops_gpu_not_loaded(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *e;

	(void)state;
	gpu(s, "0x1d01", NULL); /* GP108 [GeForce GT 1030], Pascal 6.1, no driver bound */
	SKIPPED(s, "driver.branch-drops-gpu"); /* no release known: could not tell */
	e = snap_append_object(
		snap_array(snap_object(node(s, "driver"), "kernel_log"), "gsp_refused_gpus"));
	snap_set_str(e, "bus_id", "0000:99:00.0", "/var/log/messages");
	SKIPPED(s, "driver.branch-drops-gpu");
	snap_set_str(e, "bus_id", "0000:18:00.0", "/var/log/messages");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR,
	    "has no GSP: the open nvidia.ko refuses it (the kernel log shows the refusal");
	FIX(s, "driver.branch-drops-gpu", "proprietary kernel module flavour");
	driver_loaded(s, "560.35.03");
	NO(s, "driver.branch-drops-gpu");
	snapshot_unref(s);
	s = base();
	gpu(s, "0x1b81", NULL); /* GP104 [GeForce GTX 1070] */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "580.95.05", "x");
	NO(s, "driver.branch-drops-gpu");
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "590.48.01", "x");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR,
	    "not supported by driver branch R590");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR, "the nvidia.ko on disk");
	snapshot_unref(s);
	/* No release anywhere (no legacy notice, no refusal, no nvidia.ko on disk, or one of a
	 * branch the knowledge base does not place): the GPU is not judged, and says so. */
	s = base();
	gpu(s, "0x1b81", NULL);
	snap_set_state(node(s, "driver.nvidia.module_file"), "path", FACT_ABSENT,
		       "/lib/modules/6.8.0-45-generic", "no nvidia.ko");
	SKIPPED(s, "driver.branch-drops-gpu");
	skip_reason_has(s, "driver.branch-drops-gpu", "no nvidia.ko on disk");
	snap_set_str(node(s, "driver.nvidia.module_file"), "path", "/lib/modules/x/nvidia.ko", "x");
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "12.0.1", "x");
	SKIPPED(s, "driver.branch-drops-gpu");
	skip_reason_has(s, "driver.branch-drops-gpu", "whose branch is not in the knowledge");
	snapshot_unref(s);
}

/* The proprietary module refusing a Blackwell GPU (QuangMDoan/autonomy's RTX 5090 Laptop GPU,
 * 10de:2c58, on Ubuntu's nvidia-driver-580): judged from the kernel log's refusal, for its
 * bus, with the open flavour of the branch as the fix; not once the open module is loaded (the
 * refusal is history); without a refusal, from the loaded proprietary flavour and the GPU's
 * architecture, and never for a GPU the proprietary module drives (an Ada RTX 4090). */
static void test_proprietary_module_refuses_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *e;

	(void)state;
	gpu(s, "0x2c58", "nvidia");
	driver_loaded(s, "580.105.08");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "ubuntu", "/etc/os-release");
	NO(s, "driver.proprietary-module-refuses-gpu"); /* no flavour, no refusal */
	e = snap_append_object(
		snap_array(snap_object(node(s, "driver"), "kernel_log"), "open_required_gpus"));
	snap_set_str(e, "bus_id", "0000:18:00.0", "/var/log/kern.log");
	snap_set_str(e, "pci_id", "10de:2c58", "/var/log/kern.log");
	snap_set_int(e, "count", 3, "/var/log/kern.log");
	YES(s, "driver.proprietary-module-refuses-gpu", GPUENV_SEVERITY_ERROR,
	    "the proprietary nvidia.ko of 580.105.08 refuses the GPU 0000:18:00.0");
	FIX(s, "driver.proprietary-module-refuses-gpu", "sudo apt install nvidia-driver-580-open");
	FIX(s, "driver.proprietary-module-refuses-gpu", "--kernel-module-type=open");
	snap_set_str(node(s, "driver.nvidia"), "flavor", "open", "/proc/driver/nvidia/version");
	NO(s, "driver.proprietary-module-refuses-gpu");
	snap_set_str(node(s, "driver.nvidia"), "flavor", "proprietary",
		     "/proc/driver/nvidia/version");
	snap_set_str(node(s, "host.os"), "id", "arch", "/etc/os-release");
	FIX(s, "driver.proprietary-module-refuses-gpu", "sudo pacman -S nvidia-open");
	snapshot_unref(s);
	/* no refusal in the log: the loaded flavour and the architecture */
	s = base();
	gpu(s, "0x2c58", "nvidia");
	driver_loaded(s, "580.105.08");
	snap_set_str(node(s, "driver.nvidia"), "flavor", "proprietary",
		     "/proc/driver/nvidia/version");
	YES(s, "driver.proprietary-module-refuses-gpu", GPUENV_SEVERITY_ERROR,
	    "is the proprietary flavour, which does not initialise the Blackwell GPU");
	snapshot_unref(s);
	/* a branch older than the GPU (R565 on CC 12.0, whose first branch is R570) drives it in
	 * neither flavour: driver.branch-predates-gpu's finding, and R565's -open no fix */
	s = base();
	gpu(s, "0x2c58", "nvidia");
	driver_loaded(s, "565.77");
	snap_set_str(node(s, "driver.nvidia"), "flavor", "proprietary",
		     "/proc/driver/nvidia/version");
	NO(s, "driver.proprietary-module-refuses-gpu");
	snapshot_unref(s);
	s = base();
	gpu(s, "0x2684", "nvidia"); /* AD102 [GeForce RTX 4090]: either flavour drives it */
	driver_loaded(s, "580.105.08");
	snap_set_str(node(s, "driver.nvidia"), "flavor", "proprietary",
		     "/proc/driver/nvidia/version");
	NO(s, "driver.proprietary-module-refuses-gpu");
	snapshot_unref(s);
}

static void pkg_event(struct gpuenv_snapshot *s, const char *package, const char *from,
		      const char *to, const char *upstream, const char *time);

/* A branch older than the GPU: RTX PRO 6000 Blackwell (10de:2bb5, CC 12.0) needs R570
 * (CUDA 12.8); an H100 PCIe (10de:2331, CC 9.0) R520 (CUDA 11.8). */
/* The kernel log's "NVRM: The NVIDIA GPU <bus> (PCI ID: …) … is not supported by the NVIDIA
 * <version> driver release" as probe-kernel-log.c writes it. */
static void refusal(struct gpuenv_snapshot *s, const char *bus, const char *version)
{
	struct snap_node *kl = snap_object(node(s, "driver"), "kernel_log");
	struct snap_node *u = snap_append_object(snap_array(kl, "unsupported_gpus"));

	snap_set_str(u, "bus_id", bus, "/var/log/kern.log");
	snap_set_str(u, "pci_id", "10de:26b9", "/var/log/kern.log");
	snap_set_str(u, "driver_version", version, "/var/log/kern.log");
	snap_set_int(u, "count", 1, "/var/log/kern.log");
}

static void test_branch_predates_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, "0x2bb5", "nvidia");
	driver_loaded(s, "570.86.10");
	NO(s, "driver.branch-predates-gpu");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.82.01", "x");
	YES(s, "driver.branch-predates-gpu", GPUENV_SEVERITY_ERROR, "needs the R570 branch");
	snapshot_unref(s);
	s = base();
	gpu(s, "0x2331", "nvidia");
	driver_loaded(s, "515.43.04");
	YES(s, "driver.branch-predates-gpu", GPUENV_SEVERITY_ERROR, "targets 9.0 is 11.8");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "520.61.05", "x");
	NO(s, "driver.branch-predates-gpu");
	snapshot_unref(s);
	/* No module loaded: the release the kernel log shows refusing the GPU (ZaidQureshi/bam#38,
	 * an L40S on 470.256.02) is judged; a refusal of another bus is not this GPU's. */
	s = base();
	gpu(s, "0x26b9", NULL);
	SKIPPED(s, "driver.branch-predates-gpu"); /* no kernel log read: cannot tell */
	snap_set_str(snap_object(node(s, "driver"), "kernel_log"), "source", "/var/log/kern.log",
		     "/var/log/kern.log");
	NO(s, "driver.branch-predates-gpu");
	refusal(s, "0000:99:00.0", "470.256.02");
	NO(s, "driver.branch-predates-gpu");
	refusal(s, "0000:18:00.0", "470.256.02");
	YES(s, "driver.branch-predates-gpu", GPUENV_SEVERITY_ERROR,
	    "newer than driver 470.256.02, which refused it and did not load");
	FIX(s, "driver.branch-predates-gpu", "R520 or newer");
	/* The nvidia.ko on disk is the release that refused it: still judged; another
	 * release installed since (not yet loaded): the refusal is history, skipped. */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "470.256.02", "x");
	YES(s, "driver.branch-predates-gpu", GPUENV_SEVERITY_ERROR, "which refused it");
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "550.54.15", "x");
	SKIPPED(s, "driver.branch-predates-gpu");
	/* A newer driver loaded since: the old refusal in the log is history. */
	driver_loaded(s, "560.35.03");
	NO(s, "driver.branch-predates-gpu");
	snapshot_unref(s);
}

static void test_branch_eol(void **state)
{
	struct gpuenv_snapshot *s = base();

	driver_loaded(s, "580.95.05");
	/* No date (a sysroot, no package log): not judged, whatever the table says. */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "450.248.02", "x");
	SKIPPED(s, "driver.branch-eol");
	/* The capture's day: judged against it. */
	snap_set_str(node(s, "host"), "date", "2026-09-01", "clock");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "580.95.05", "x");
	NO(s, "driver.branch-eol");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	NO(s, "driver.branch-eol"); /* R470: no lifecycle end in the table */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "450.248.02", "x");
	YES(s, "driver.branch-eol", GPUENV_SEVERITY_WARNING,
	    "July 2023 (the machine's date: 2026-09-01)");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "550.54.15", "x");
	YES(s, "driver.branch-eol", GPUENV_SEVERITY_WARNING, "end of life");
	/* A 2021 machine is not told its branch ended in 2023. */
	snap_set_str(node(s, "host"), "date", "2021-06-02", "clock");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "450.248.02", "x");
	NO(s, "driver.branch-eol");
	snapshot_unref(s);
	/* Undated snapshot, dated package log: its newest entry dates the machine; a branch
	 * listed as past without a date is past only from the knowledge base's month on. */
	s = base();
	driver_loaded(s, "450.248.02");
	pkg_event(s, "nvidia-utils-450", "450.236.01-0ubuntu1", "450.248.02-0ubuntu1", "450.248.02",
		  "2023-08-01  06:50:54");
	YES(s, "driver.branch-eol", GPUENV_SEVERITY_WARNING, "the machine's date: 2023-08-01");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "550.54.15", "x");
	NO(s, "driver.branch-eol");
	snapshot_unref(s);
}

/* The package manager's log names the upgrade that put the user space in place. */
static void pkg_event(struct gpuenv_snapshot *s, const char *package, const char *from,
		      const char *to, const char *upstream, const char *time)
{
	struct snap_node *e = snap_append_object(
		snap_array(snap_object(node(s, "driver"), "package_log"), "events"));
	const char *log = "/var/log/apt/history.log";

	snap_set_str(e, "action", "upgrade", log);
	snap_set_str(e, "package", package, log);
	snap_set_str(e, "from", from, log);
	snap_set_str(e, "to", to, log);
	snap_set_str(e, "to_upstream", upstream, log);
	snap_set_str(e, "time", time, log);
	snap_set_str(e, "log", log, log);
	snap_set_int(e, "line", 4, log);
}

static void test_nvml_mismatch_package_log(void **state)
{
	struct gpuenv_snapshot *s = base();

	driver_loaded(s, "550.90.07");
	userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.107.02",
		  "550.107.02");
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "550.107.02", "nvidia.ko");
	/* An older upgrade and another version: not this user space's. */
	pkg_event(s, "nvidia-driver-550:amd64", "550.54.15-0ubuntu1", "550.90.07-0ubuntu1",
		  "550.90.07", "2024-06-01  10:00:00");
	NO_TEXT(s, "driver.nvml-version-mismatch", "upgraded");
	/* The transaction that installed 550.107.02: the driver's own package is named, not the
	 * library listed after it. */
	pkg_event(s, "nvidia-driver-550:amd64", "550.90.07-0ubuntu1", "550.107.02-0ubuntu1",
		  "550.107.02", "2024-09-05  06:41:17");
	pkg_event(s, "libnvidia-compute-550:amd64", "550.90.07-0ubuntu1", "550.107.02-0ubuntu1",
		  "550.107.02", "2024-09-05  06:41:17");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "; nvidia-driver-550:amd64 upgraded from 550.90.07-0ubuntu1 to 550.107.02-0ubuntu1 at "
	    "2024-09-05  06:41:17 in /var/log/apt/history.log) and so is the nvidia.ko on disk");
	{
		struct gpuenv_doctor *d = diag(s);
		const struct finding *f = find(d, "driver.nvml-version-mismatch", 0);
		bool ev = false;

		for (size_t e = 0; e < f->n_ev; e++)
			ev |= streq(f->ev[e].name, "driver.package_log.events.1");
		assert_true(ev);
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_nvml_mismatch(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *l;

	driver_loaded(s, "535.104.05");
	userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05",
		  "535.104.05");
	NO(s, "driver.nvml-version-mismatch");
	userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.129.03",
		  "535.129.03");
	/* The module on disk unknown: a reboot is not promised. */
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "a reboot helps only if the nvidia.ko on disk is 535.129.03");
	assert_true(verify_has(s, "driver.nvml-version-mismatch",
			       "ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.*"));
	/* RHEL's /usr/lib64: the verify line lists that directory, not Debian's
	 * (stackhpc/ansible-slurm-appliance#287). */
	userspace(s, "libnvidia_ml", "/usr/lib64/libnvidia-ml.so.535.129.03", "535.129.03");
	assert_true(
		verify_has(s, "driver.nvml-version-mismatch", "ls /usr/lib64/libnvidia-ml.so.*"));
	assert_false(verify_has(s, "driver.nvml-version-mismatch", "x86_64-linux-gnu"));
	userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.129.03",
		  "535.129.03");
	NO_TEXT(s, "driver.nvml-version-mismatch", "a reboot loads");
	/* disk = user space != loaded: the one case a reboot fixes */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "535.129.03", "nvidia.ko");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "a reboot loads the 535.129.03 module");
	/* the module on disk is still the loaded one: DKMS did not build the new one */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "535.104.05", "nvidia.ko");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "on disk for the running kernel is still 535.104.05");
	NO_TEXT(s, "driver.nvml-version-mismatch", "a reboot loads the");
	FIX(s, "driver.nvml-version-mismatch", "dkms autoinstall");
	/* Debian or Ubuntu: the upgrade may have stopped half-way, the new DKMS package not
	 * installed (illinois-scicomp/machine-shop-maintenance#70); elsewhere no apt line. */
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "debian", "/etc/os-release");
	FIX(s, "driver.nvml-version-mismatch", "sudo apt install --fix-broken");
	snap_set_str(node(s, "host.os"), "id", "arch", "/etc/os-release");
	NO_FIX(s, "driver.nvml-version-mismatch", "--fix-broken");
	/* three versions */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "550.54.15", "nvidia.ko");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR, "three driver versions");
	/* user space older than the loaded module: a leftover copy, no reboot */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "535.104.05", "nvidia.ko");
	userspace(s, "libnvidia_ml", "/opt/old/libnvidia-ml.so.470.223.02", "470.223.02");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "older than the loaded kernel module 535.104.05");
	NO_TEXT(s, "driver.nvml-version-mismatch", "reboot loads");
	FIX(s, "driver.nvml-version-mismatch", "remove the older copy");
	/* The older libraries are the system's and NVIDIA's .run installed them: no copy to
	 * remove, the .run's user space to replace (tinygrad/open-gpu-kernel-modules#47). */
	userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.86.05",
		  "535.86.05");
	snap_set_bool(node(s, "driver.nvidia"), "runfile_uninstaller", true,
		      "/usr/bin/nvidia-uninstall");
	FIX(s, "driver.nvml-version-mismatch", "sudo nvidia-uninstall");
	FIX(s, "driver.nvml-version-mismatch",
	    "NVIDIA-Linux-x86_64-535.104.05.run --no-kernel-modules");
	NO_FIX(s, "driver.nvml-version-mismatch", "remove the older copy");
	/* Found through LD_LIBRARY_PATH: a copy the loader finds first, not the .run's. */
	snap_set_str(node(s, "driver.userspace.libnvidia_ml"), "found_via", "LD_LIBRARY_PATH",
		     "LD_LIBRARY_PATH");
	FIX(s, "driver.nvml-version-mismatch", "remove the older copy");
	snap_set_bool(node(s, "driver.nvidia"), "runfile_uninstaller", false,
		      "/usr/bin/nvidia-uninstall");
	userspace(s, "libnvidia_ml", "/opt/old/libnvidia-ml.so.470.223.02", "470.223.02");
	snap_set_state(node(s, "driver.nvidia.module_file"), "version", FACT_ABSENT, "x", "gone");
	/* A forward-compatibility libcuda is meant to differ: not a mismatch by itself. */
	l = userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05",
		      "535.104.05");
	l = userspace(s, "libcuda", "/usr/local/cuda/compat/libcuda.so.550.54.15", "550.54.15");
	snap_set_bool(l, "in_compat_dir", true, "x");
	NO(s, "driver.nvml-version-mismatch");
	/* NVML itself says so. */
	snap_set_state(snap_object(node(s, "driver"), "nvml"), "init", FACT_ERROR,
		       "nvml:nvmlInit_v2",
		       "NVML_ERROR_LIB_RM_VERSION_MISMATCH (18): Driver/library version mismatch");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
	/* The module's version unreadable: NVML's answer still stands (issue 13.4: this was
	 * "✓ driver ok"). */
	snap_set_state(node(s, "driver.nvidia"), "module_version", FACT_UNREADABLE,
		       "/sys/module/nvidia/version", "Permission denied");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "its version could not be read: unreadable: Permission denied");
	snap_set_state(snap_object(node(s, "driver"), "nvml"), "init", FACT_PRESENT, "x", NULL);
	snap_set_bool(l, "in_compat_dir", false, "x");
	snap_set_state(snap_object(node(s, "driver"), "cuda"), "init", FACT_ERROR, "cuda:cuInit",
		       "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803): system has unsupported display "
		       "driver / cuda driver combination");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH");
	snapshot_unref(s);
	/* In a container: stale libraries of the image. */
	s = base();
	driver_loaded(s, "550.54.15");
	in_docker(s);
	l = userspace(s, "libcuda", "/usr/local/nvidia/lib64/libcuda.so.1", "535.104.05");
	snap_set_str(l, "path", "/usr/local/nvidia/lib64/libcuda.so.1", "/usr/local/nvidia/lib64");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "driver libraries the image carries, older than the host's");
	FIX(s, "driver.nvml-version-mismatch",
	    "# drop /usr/local/nvidia/lib64 from LD_LIBRARY_PATH");
	snapshot_unref(s);
	/* The image's own newer copy, which the toolkit's ldconfig linked the SONAME to
	 * (NVIDIA/libnvidia-container#266): no LD_LIBRARY_PATH to drop, the file to delete. */
	s = base();
	driver_loaded(s, "470.129.06");
	in_docker(s);
	l = userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.525.105.17",
		      "525.105.17");
	snap_set_str(l, "path", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "/etc/ld.so.cache");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR, "newer than the host's");
	FIX(s, "driver.nvml-version-mismatch",
	    "rm /usr/lib/x86_64-linux-gnu/lib*.so.525.105.17 && ldconfig");
	NO_FIX(s, "driver.nvml-version-mismatch", "LD_LIBRARY_PATH");
	snapshot_unref(s);
}

static struct snap_node *dev_node(struct gpuenv_snapshot *s, const char *path, const char *mode,
				  int gid, const char *group)
{
	struct snap_node *n =
		snap_append_object(snap_array(node(s, "driver.device_nodes"), "nodes"));

	snap_set_str(n, "path", path, path);
	snap_set_str(n, "mode", mode, path);
	snap_set_int(n, "uid", 0, path);
	snap_set_int(n, "gid", gid, path);
	snap_set_str(n, "group", group, "/etc/group");
	return n;
}

static void process(struct gpuenv_snapshot *s, int uid, int group)
{
	struct snap_node *p = snap_object(snap_object(snapshot_root(s), "host"), "process");
	struct snap_node *g;

	snap_set_int(p, "uid", uid, "/proc/self/status");
	snap_set_int(p, "euid", uid, "/proc/self/status");
	snap_set_int(p, "egid", uid, "/proc/self/status");
	g = snap_append_object(snap_array(p, "groups"));
	snap_set_int(g, "gid", group, "/proc/self/status");
	snap_set_str(g, "name", group == 44 ? "video" : "other", "/etc/group");
}

static void test_no_permission(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, "0x74a1", "amdgpu");

	snap_set_str(g, "vendor_id", "0x1002", "x");
	process(s, 1000, 44);
	dev_node(s, "/dev/kfd", "0660", 109, "render");
	YES(s, "driver.no-permission", GPUENV_SEVERITY_ERROR, "not in group render");
	snapshot_unref(s);
	s = base();
	g = gpu(s, "0x74a1", "amdgpu");
	snap_set_str(g, "vendor_id", "0x1002", "x");
	process(s, 1000, 109);
	dev_node(s, "/dev/kfd", "0660", 109, "render");
	NO(s, "driver.no-permission");
	snapshot_unref(s);
	/* /dev/kfd 0600 root:root, no udev rule (ROCm/ROCT-Thunk-Interface#36): no group can
	 * open it, so joining render or video is no fix; a udev rule is */
	s = base();
	g = gpu(s, "0x74a1", "amdgpu");
	snap_set_str(g, "vendor_id", "0x1002", "x");
	process(s, 1000, 109);
	dev_node(s, "/dev/kfd", "0600", 0, "root");
	YES(s, "driver.no-permission", GPUENV_SEVERITY_ERROR, "/dev/kfd (0600, uid 0, group root)");
	FIX(s, "driver.no-permission", "KERNEL==\"kfd\", GROUP=\"render\", MODE=\"0660\"");
	NO_FIX(s, "driver.no-permission", "usermod -aG render,video");
	snapshot_unref(s);
	/* A container given the host's nodes (ROCm/ROCm-docker#116): their gid is the host's
	 * render, which the image's /etc/group does not name; the mode grants the group, so
	 * the fix is the engine's --group-add by number, not a udev rule or usermod. */
	s = base();
	g = gpu(s, "0x738c", "amdgpu");
	snap_set_str(g, "vendor_id", "0x1002", "x");
	process(s, 1000, 44);
	snap_set_state(dev_node(s, "/dev/kfd", "0660", 109, "x"), "group", FACT_ABSENT,
		       "/etc/group", "gid not in /etc/group");
	YES(s, "driver.no-permission", GPUENV_SEVERITY_ERROR,
	    "/dev/kfd (0660, uid 0, gid 109); it is not in gid 109, which /etc/group does not "
	    "name");
	FIX(s, "driver.no-permission", "groupadd -g 109 gpu-nodes");
	NO_FIX(s, "driver.no-permission", "grants its group nothing");
	in_docker(s);
	FIX(s, "driver.no-permission", "docker run --group-add 109");
	NO_FIX(s, "driver.no-permission", "udevadm");
	NO_FIX(s, "driver.no-permission", "usermod");
	snapshot_unref(s);
	/* NVIDIA render nodes are not used by CUDA; root may open anything. */
	s = base();
	gpu(s, NULL, "nvidia");
	process(s, 1000, 44);
	dev_node(s, "/dev/dri/renderD128", "0660", 109, "render");
	dev_node(s, "/dev/nvidiactl", "0666", 0, "root");
	NO(s, "driver.no-permission");
	dev_node(s, "/dev/nvidia0", "0660", 44, "video");
	NO(s, "driver.no-permission");
	dev_node(s, "/dev/nvidia-uvm", "0600", 0, "root");
	YES(s, "driver.no-permission", GPUENV_SEVERITY_ERROR, "/dev/nvidia-uvm");
	snapshot_unref(s);
	/* An Intel GPU whose only compute user is OpenCL (intel/compute-runtime#350): Intel's
	 * GPU ICD opens the render node, a CPU-only ICD does not. */
	for (int cpu_only = 1; cpu_only >= 0; cpu_only--) {
		struct snap_node *icds, *f;
		const char *ocl = cpu_only ? "/usr/lib/x86_64-linux-gnu/libpocl.so.2"
					   : "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so";

		s = base();
		g = gpu(s, "0x3e9b", "i915");
		snap_set_str(g, "vendor_id", "0x8086", "x");
		process(s, 1000, 44);
		dev_node(s, "/dev/dri/renderD128", "0660", 992, "render");
		icds = snap_array(snap_object(node(s, "runtime"), "opencl"), "icd_files");
		f = snap_append_object(icds);
		snap_set_str(f, "library", ocl, "/etc/OpenCL/vendors/intel.icd");
		snap_set_bool(f, "cpu_only", cpu_only, "/etc/OpenCL/vendors/intel.icd");
		if (cpu_only)
			NO(s, "driver.no-permission");
		else
			YES(s, "driver.no-permission", GPUENV_SEVERITY_ERROR,
			    "/dev/dri/renderD128 (0660, uid 0, group render)");
		snapshot_unref(s);
	}
}

static void xid(struct gpuenv_snapshot *s, int code)
{
	struct snap_node *e = snap_append_object(snap_array(node(s, "driver"), "xid_events"));

	snap_set_int(e, "code", code, "/var/log/kern.log");
	snap_set_str(e, "bus_id", "0000:46:00", "/var/log/kern.log");
	snap_set_int(e, "count", 2, "/var/log/kern.log");
	snap_set_str(e, "text", "GPU has fallen off the bus.", "/var/log/kern.log");
}

static void test_xid(void **state)
{
	struct gpuenv_snapshot *s = base();

	snap_set_state(node(s, "driver"), "xid_events", FACT_ABSENT, "/var/log", "no kernel log");
	NO(s, "driver.xid-errors");
	snapshot_unref(s);
	s = base();
	xid(s, 79);
	YES(s, "driver.xid-errors", GPUENV_SEVERITY_ERROR, "fallen off the bus");
	snapshot_unref(s);
	s = base();
	xid(s, 13); /* an application error */
	YES(s, "driver.xid-errors", GPUENV_SEVERITY_INFO, "application error");
	snapshot_unref(s);
	/* Unreadable log: skipped, not passed. */
	s = base();
	snap_set_errno(node(s, "driver"), "xid_events", -EACCES, "/dev/kmsg");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "driver.xid-errors"), 0);
		assert_non_null(skip_of(d, "driver.xid-errors"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_persistence(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *d =
		snap_append_object(snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));

	snap_set_str(d, "pci_bus_id", "00000000:31:00.0", "nvml:nvmlDeviceGetPciInfo_v3");
	snap_set_str(d, "pci_device_id", "0x20b5", "nvml:nvmlDeviceGetPciInfo_v3");
	snap_set_bool(d, "persistence_mode", true, "nvml:nvmlDeviceGetPersistenceMode");
	NO(s, "driver.persistence-off");
	snap_set_bool(d, "persistence_mode", false, "nvml:nvmlDeviceGetPersistenceMode");
	YES(s, "driver.persistence-off", GPUENV_SEVERITY_INFO, "data-center");
	snap_set_str(d, "pci_device_id", "0x2684", "x"); /* GeForce: not advised */
	NO(s, "driver.persistence-off");
	snapshot_unref(s);
}

/* An NVML call hung in the kernel: named with its wait channel, or said hidden; a hang
 * outside the kernel (no session_stuck: the child was killed) is not this rule's. */
static void test_nvml_stuck(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *nvml = snap_object(node(s, "driver"), "nvml");

	(void)state;
	snap_set_state(nvml, "session", FACT_ERROR, "nvml child process (deadline 500 ms)",
		       "timed out after 500 ms in nvmlInit_v2 (the call never returned; child "
		       "killed)");
	NO(s, "driver.nvml-stuck-in-kernel"); /* and not skipped */
	snap_set_str(nvml, "session_stuck", "os_acquire_rwlock_write", "nvml:child");
	YES(s, "driver.nvml-stuck-in-kernel", GPUENV_SEVERITY_ERROR, "at os_acquire_rwlock_write");
	snap_set_str(nvml, "session_stuck", "unknown", "nvml:child");
	YES(s, "driver.nvml-stuck-in-kernel", GPUENV_SEVERITY_ERROR, "kernel hides where");
	snapshot_unref(s);
}

/* cuInit 802: Fabric Manager named, with the package of the loaded driver's exact version for
 * the distribution (dstackai/dstack#2348); any other cuInit answer is not this rule's. */
static void test_system_not_ready(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *cuda = snap_object(node(s, "driver"), "cuda");
	struct snap_node *dev;

	driver_loaded(s, "535.230.02");
	snap_set_str(cuda, "init", "CUDA_SUCCESS", "cuda:cuInit");
	NO(s, "driver.system-not-ready");
	snap_set_state(cuda, "init", FACT_ERROR, "cuda:cuInit",
		       "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803): system has unsupported display "
		       "driver / cuda driver combination");
	NO(s, "driver.system-not-ready");
	snap_set_state(cuda, "init", FACT_ERROR, "cuda:cuInit",
		       "CUDA_ERROR_SYSTEM_NOT_READY (802): system not yet initialized");
	YES(s, "driver.system-not-ready", GPUENV_SEVERITY_ERROR, "nvidia-fabricmanager");
	YES(s, "driver.system-not-ready", GPUENV_SEVERITY_ERROR, "the driver 535.230.02 is loaded");
	NO_TEXT(s, "driver.system-not-ready", " x ");
	dev = snap_append_object(snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));
	snap_set_str(dev, "name", "NVIDIA H100 80GB HBM3", "nvml");
	dev = snap_append_object(snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));
	snap_set_str(dev, "name", "NVIDIA H100 80GB HBM3", "nvml");
	YES(s, "driver.system-not-ready", GPUENV_SEVERITY_ERROR, "on 2 x NVIDIA H100 80GB HBM3");
	os_release(s, "ubuntu", "debian");
	FIX(s, "driver.system-not-ready", "apt install nvidia-fabricmanager-535=535.230.02-1");
	os_release(s, "rocky", "rhel centos fedora");
	FIX(s, "driver.system-not-ready", "dnf install nvidia-fabric-manager-535.230.02");
	snapshot_unref(s);
}

/* Fix commands follow /etc/os-release: never apt on Fedora. */
static void test_distro_fixes(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, "0x2684", NULL);
	snap_set_errno(node(s, "driver.nvidia.module_file"), "path", -ENOENT,
		       "/lib/modules/6.13.4-200.fc41.x86_64");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "fedora", "/etc/os-release");
	FIX(s, "driver.module-missing-for-kernel", "sudo akmods --force --kernels $(uname -r)");
	FIX(s, "driver.module-missing-for-kernel", "sudo dnf install kernel-devel-$(uname -r)");
	NO_FIX(s, "driver.module-missing-for-kernel", "apt");
	FIX(s, "driver.module-not-loaded", "sudo dnf install akmod-nvidia");
	NO_FIX(s, "driver.module-not-loaded", "apt");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "rocky", "/etc/os-release");
	FIX(s, "driver.module-missing-for-kernel", "kmod-nvidia");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "endeavouros", "/etc/os-release");
	FIX(s, "driver.module-not-loaded", "sudo pacman -S nvidia");
	/* ID unknown, ID_LIKE known */
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "someubuntuspin", "/etc/os-release");
	snap_set_str(snap_object(node(s, "host"), "os"), "id_like", "ubuntu debian",
		     "/etc/os-release");
	FIX(s, "driver.module-missing-for-kernel", "linux-modules-nvidia-<branch>-$(uname -r)");
	/* no module for the running kernel says whether DKMS or the prebuilt package delivers
	 * it (elementary/os-patches#155: DKMS, the new kernel's headers missing): both routes,
	 * the headers with DKMS's, and the command that tells them apart */
	FIX(s, "driver.module-missing-for-kernel", "sudo apt install linux-headers-$(uname -r)");
	FIX(s, "driver.module-missing-for-kernel", "dpkg -l 'nvidia-dkms-*'");
	NO_FIX(s, "driver.module-missing-for-kernel", "Ubuntu's prebuilt module of");
	/* Ubuntu itself running a kernel not from its archive (M-Bab/linux-kernel-amdgpu-
	 * binaries#101): no headers or prebuilt-module package exists for it. */
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "ubuntu", "/etc/os-release");
	snap_set_str(node(s, "host"), "kernel_release", "5.13.18-21.09.16.amdgpu.ubuntu",
		     "/proc/sys/kernel/osrelease");
	FIX(s, "driver.module-missing-for-kernel", "is not a kernel of Ubuntu's archive");
	NO_FIX(s, "driver.module-missing-for-kernel", "linux-modules-nvidia-<branch>-$(uname -r)");
	NO_FIX(s, "driver.module-missing-for-kernel", "apt install linux-headers");
	/* a mainline build (six-digit ABI) neither */
	snap_set_str(node(s, "host"), "kernel_release", "6.2.0-060200-generic",
		     "/proc/sys/kernel/osrelease");
	FIX(s, "driver.module-missing-for-kernel", "is not a kernel of Ubuntu's archive");
	/* an archive kernel: the packages' routes */
	snap_set_str(node(s, "host"), "kernel_release", "6.8.0-1029-gke",
		     "/proc/sys/kernel/osrelease");
	NO_FIX(s, "driver.module-missing-for-kernel", "is not a kernel of");
	FIX(s, "driver.module-missing-for-kernel", "linux-modules-nvidia-<branch>-$(uname -r)");
	/* the initramfs tool of the distribution */
	gpu(s, "0x2684", "nouveau");
	FIX(s, "driver.nouveau-bound", "sudo update-initramfs -u");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "fedora", "/etc/os-release");
	FIX(s, "driver.nouveau-bound", "sudo dracut --force");
	NO_FIX(s, "driver.nouveau-bound", "update-initramfs");
	snapshot_unref(s);
	/* An image-based system (ublue-os/bazzite#2668): the module is the image's, nothing
	 * is built on the machine: roll back or update the deployment, never dnf/akmods. */
	s = base();
	driver_loaded(s, "570.144");
	os_release(s, "bazzite", "fedora");
	snap_set_bool(node(s, "host"), "ostree_booted", true, "/run/ostree-booted");
	snap_set_str(node(s, "driver.nvidia.module_file"), "path",
		     "/lib/modules/6.14.6-103.bazzite.fc42.x86_64/extra/nvidia/nvidia.ko.xz", "x");
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "570.144", "x");
	userspace(s, "libnvidia_ml", "/usr/lib64/libnvidia-ml.so.570.153.02", "570.153.02");
	FIX(s, "driver.nvml-version-mismatch", "sudo rpm-ostree rollback");
	NO_FIX(s, "driver.nvml-version-mismatch", "akmods");
	NO_FIX(s, "driver.nvml-version-mismatch", "dnf");
	snapshot_unref(s);
	/* The driver from NVIDIA's .run file (its /usr/bin/nvidia-uninstall), no module for the
	 * running kernel (GoogleCloudPlatform/compute-gpu-installation#10: no DKMS, then a kernel
	 * update): no Ubuntu package has a module of it; the .run file with --dkms does. */
	s = base();
	gpu(s, "0x20b0", NULL);
	snap_set_errno(node(s, "driver.nvidia.module_file"), "path", -ENOENT,
		       "/lib/modules/5.13.0-1024-gcp");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "ubuntu", "/etc/os-release");
	snap_set_errno(node(s, "driver.nvidia"), "runfile_uninstaller", -ENOENT,
		       "/usr/bin/nvidia-uninstall");
	FIX(s, "driver.module-missing-for-kernel", "linux-modules-nvidia-<branch>-$(uname -r)");
	snap_set_bool(node(s, "driver.nvidia"), "runfile_uninstaller", true,
		      "/usr/bin/nvidia-uninstall");
	FIX(s, "driver.module-missing-for-kernel", "NVIDIA-Linux-x86_64-<version>.run --dkms");
	FIX(s, "driver.module-missing-for-kernel",
	    "sudo apt install linux-headers-$(uname -r) dkms");
	NO_FIX(s, "driver.module-missing-for-kernel", "linux-modules-nvidia");
	/* the user-space driver's version read (the report's libnvidia-ml.so.495.46): its .run
	 * file is named; where the module is not loaded, the distribution's packages would go
	 * over the .run driver's files, so ubuntu-drivers is not offered */
	userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.495.46", "495.46");
	FIX(s, "driver.module-missing-for-kernel", "sudo sh NVIDIA-Linux-x86_64-495.46.run --dkms");
	FIX(s, "driver.module-not-loaded", "sudo sh NVIDIA-Linux-x86_64-495.46.run --dkms");
	NO_FIX(s, "driver.module-not-loaded", "ubuntu-drivers");
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_not_loaded),
		cmocka_unit_test(test_module_blacklisted),
		cmocka_unit_test(test_secure_boot),
		cmocka_unit_test(test_secure_boot_key),
		cmocka_unit_test(test_wsl),
		cmocka_unit_test(test_module_missing),
		cmocka_unit_test(test_nouveau),
		cmocka_unit_test(test_nouveau_cmdline),
		cmocka_unit_test(test_wsl_no_gpu),
		cmocka_unit_test(test_nouveau_partial_listing),
		cmocka_unit_test(test_device_nodes),
		cmocka_unit_test(test_branch_drops_gpu),
		cmocka_unit_test(test_branch_drops_gpu_logged),
		cmocka_unit_test(test_branch_drops_gpu_not_loaded),
		cmocka_unit_test(test_proprietary_module_refuses_gpu),
		cmocka_unit_test(test_branch_predates_gpu),
		cmocka_unit_test(test_branch_eol),
		cmocka_unit_test(test_nvml_mismatch),
		cmocka_unit_test(test_nvml_mismatch_package_log),
		cmocka_unit_test(test_no_permission),
		cmocka_unit_test(test_xid),
		cmocka_unit_test(test_persistence),
		cmocka_unit_test(test_nvml_stuck),
		cmocka_unit_test(test_system_not_ready),
		cmocka_unit_test(test_distro_fixes),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
