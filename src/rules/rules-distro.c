// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fix commands for the distribution the machine runs: the one helper every fix text that
 * installs or rebuilds something goes through, so that a Fedora user is never told `apt`.
 * The family comes from os-release(5) ID, then ID_LIKE (host.os.id, host.os.id_like); how
 * the nvidia module is delivered comes from where the module on disk is (updates/dkms: DKMS;
 * extra/nvidia: akmods; kernel/nvidia-NNN: Ubuntu's prebuilt linux-modules-nvidia-NNN;
 * weak-updates: RHEL's precompiled kmod-nvidia; extramodules: Arch's nvidia package), else the
 * distribution's usual one; on an image-based system (rpm-ostree/bootc: /run/ostree-booted,
 * which ostree-prepare-root writes at boot) the module is the image's, whatever its path, and
 * nothing is built or installed on the machine: the deployment is rolled back or updated
 * (rpm-ostree(1) rollback/upgrade; Fedora Atomic desktops' and Universal Blue's docs). Sources of the commands: Debian wiki "NvidiaGraphicsDrivers",
 * Ubuntu Server docs "NVIDIA drivers installation" (ubuntu-drivers, linux-modules-nvidia-*),
 * RPM Fusion "Howto/NVIDIA" (akmod-nvidia, akmods --force), NVIDIA's CUDA Installation Guide
 * for Linux (RHEL/Rocky dnf module nvidia-driver, SUSE zypper, kernel-devel/headers), the Arch
 * wiki "NVIDIA" (nvidia, nvidia-dkms, mkinitcpio -P), openSUSE's "SDB:NVIDIA drivers"
 * (nvidia-open-driver-G06-signed-kmp), NVIDIA Container Toolkit install guide (apt, dnf,
 * zypper). Pure: reads the snapshot only.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "rules/rules.h"
#include "shared/macro.h"
#include "shared/strv.h"

struct distro_info {
	const char *ids;	     /* os-release IDs of the family, space-separated */
	const char *name;	     /* for the comments */
	const char *install;	     /* the package manager's install command */
	const char *driver;	     /* the driver package(s) and how the module comes */
	const char *headers;	     /* the kernel headers of the running kernel */
	const char *initramfs;	     /* rebuilds the initramfs */
	enum module_flavour flavour; /* the usual module delivery */
};

static const struct distro_info distros[] = {
	[DISTRO_DEBIAN] = { "debian raspbian", "Debian", "sudo apt install",
			    "nvidia-driver   # non-free; nvidia-kernel-dkms builds nvidia.ko with DKMS",
			    "linux-headers-$(uname -r)", "sudo update-initramfs -u", MODULE_DKMS },
	[DISTRO_UBUNTU] = { "ubuntu pop linuxmint elementary zorin", "Ubuntu", "sudo apt install",
			    "# sudo ubuntu-drivers install   # Ubuntu's prebuilt, signed "
			    "linux-modules-nvidia-<branch>-$(uname -r) where it ships one, DKMS "
			    "otherwise",
			    "linux-headers-$(uname -r)", "sudo update-initramfs -u",
			    MODULE_UBUNTU_PREBUILT },
	[DISTRO_FEDORA] = { "fedora nobara ultramarine", "Fedora", "sudo dnf install",
			    "akmod-nvidia   # RPM Fusion; akmods builds nvidia.ko for each kernel",
			    "kernel-devel-$(uname -r)", "sudo dracut --force", MODULE_AKMODS },
	[DISTRO_RHEL] = { "rhel centos rocky almalinux ol", "RHEL", "sudo dnf install",
			  "# sudo dnf module install nvidia-driver:latest   # NVIDIA's CUDA "
			  "repository: precompiled kmod-nvidia for RHEL kernels (weak-updates); "
			  ":latest-dkms builds it with DKMS",
			  "kernel-devel-$(uname -r)", "sudo dracut --force", MODULE_RHEL_KMOD },
	[DISTRO_SUSE] = { "opensuse opensuse-leap opensuse-tumbleweed sles suse", "openSUSE/SLES",
			  "sudo zypper install",
			  "nvidia-open-driver-G06-signed-kmp-default   # the signed prebuilt open "
			  "module package",
			  "kernel-default-devel", "sudo dracut --force", MODULE_SUSE_KMP },
	[DISTRO_ARCH] = { "arch manjaro endeavouros garuda cachyos", "Arch", "sudo pacman -S",
			  "nvidia   # for the stock linux kernel; nvidia-dkms for any other kernel",
			  "linux-headers   # linux-zen-headers, linux-lts-headers … for those kernels",
			  "sudo mkinitcpio -P", MODULE_ARCH_PACKAGE },
};

static bool word_in(const char *words, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = words; (p = strstr(p, w)); p += n)
		if ((p == words || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

enum distro host_distro(const struct snap_node *root)
{
	const char *id = snap_get_str(root, "host.os.id");
	const char *like = snap_get_str(root, "host.os.id_like");
	_cleanup_strv_free_ char **l = NULL;

	/* ID first: Ubuntu's ID_LIKE is "debian", Rocky's "rhel centos fedora" */
	for (size_t d = DISTRO_UNKNOWN + 1; id && d < ARRAY_SIZE(distros); d++)
		if (word_in(distros[d].ids, id))
			return (enum distro)d;
	if (like && strv_split(like, " ", &l) == 0)
		STRV_FOREACH(w, l)
			for (size_t d = DISTRO_UNKNOWN + 1; d < ARRAY_SIZE(distros); d++)
				if (word_in(distros[d].ids, *w))
					return (enum distro)d;
	return DISTRO_UNKNOWN;
}

enum module_flavour module_flavour(const struct snap_node *root)
{
	const char *p = snap_get_str(root, "driver.nvidia.module_file.path");
	enum distro d = host_distro(root);

	if (snap_get_bool_default(root, "host.ostree_booted", false))
		return MODULE_IMAGE;
	if (p) {
		if (strstr(p, "/updates/dkms/") || strstr(p, "/dkms/"))
			return MODULE_DKMS;
		if (strstr(p, "/extra/nvidia"))
			return MODULE_AKMODS;
		if (strstr(p, "/kernel/nvidia-"))
			return MODULE_UBUNTU_PREBUILT;
		/* Fedora's weak-updates hold weak-modules' links to another kernel's module
		 * (negativo17/nvidia-driver#97); akmods builds the running kernel's */
		if (strstr(p, "/weak-updates/"))
			return d == DISTRO_FEDORA ? MODULE_AKMODS : MODULE_RHEL_KMOD;
		if (strstr(p, "/extramodules"))
			return MODULE_ARCH_PACKAGE;
	}
	/* no packaged module for this kernel, and the driver came from NVIDIA's .run file
	 * (its uninstaller is there): no distribution package has a module of it
	 * (GoogleCloudPlatform/compute-gpu-installation#10: a runfile driver without DKMS, then
	 * a kernel update) */
	if (snap_get_bool_default(root, "driver.nvidia.runfile_uninstaller", false))
		return MODULE_RUNFILE;
	return d == DISTRO_UNKNOWN ? MODULE_UNKNOWN : distros[d].flavour;
}

const char *distro_name(enum distro d)
{
	return d == DISTRO_UNKNOWN || d >= ARRAY_SIZE(distros) ? NULL : distros[d].name;
}

/* A kernel release of the form Ubuntu's and Debian's archives give theirs: VERSION-ABI-FLAVOUR
 * ("5.15.0-157-generic", "6.8.0-1029-gke", "6.1.0-13-amd64": an ABI of 1 to 4 digits, then a
 * flavour). Others (a third-party build such as "5.13.18-21.09.16.amdgpu.ubuntu", a mainline
 * "6.2.0-060200-generic") have no linux-headers- or linux-modules-nvidia- package in the
 * archive (M-Bab/linux-kernel-amdgpu-binaries#101). */
static bool archive_kernel(const char *rel)
{
	const char *p = rel;
	size_t n;

	for (int dots = 0; dots < 3; dots++) {
		n = strspn(p, "0123456789");
		if (n == 0 || p[n] != (dots < 2 ? '.' : '-'))
			return false;
		p += n + 1;
	}
	n = strspn(p, "0123456789");
	if (n == 0 || n > 4 || p[n] != '-' || !(p[n + 1] >= 'a' && p[n + 1] <= 'z'))
		return false;
	p += n + 1;
	return strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(p);
}

/* On Ubuntu or Debian itself, or Linux Mint (which runs Ubuntu's kernels; not a derivative
 * with kernels of its own, as Pop!_OS), a running kernel not from the archive: the module's
 * packages cannot help, DKMS must build it against the headers that kernel's provider ships,
 * and only if the driver supports that kernel (linux-surface/linux-surface#1796: Mint 22.1's
 * linux-surface 6.15, newer than any driver Ubuntu shipped: "Stick to an older kernel"). */
static bool third_party_kernel_fix(struct finding *f, const struct snap_node *root, enum distro d,
				   const char *v)
{
	const char *id = snap_get_str(root, "host.os.id");
	const char *rel = snap_get_str(root, "host.kernel_release");

	if (!(d == DISTRO_UBUNTU || d == DISTRO_DEBIAN) || !id ||
	    !(streq(id, "ubuntu") || streq(id, "debian") || streq(id, "linuxmint")) || !rel ||
	    archive_kernel(rel))
		return false;
	finding_fix(f,
		    "# %s is not a kernel of %s's archive: no linux-headers- or "
		    "linux-modules-nvidia- package is made for it; DKMS can build %s only "
		    "against the headers its provider ships, and only if the driver supports it",
		    rel, distros[d].name, v);
	finding_fix(f, "sudo dkms autoinstall -k $(uname -r)   # on failure: "
		       "/var/lib/dkms/nvidia/*/build/make.log");
	finding_fix(f,
		    "# otherwise boot an older kernel the driver builds for (GRUB: Advanced "
		    "options), such as one of %s's archive, until a driver supports this one",
		    distros[d].name);
	return true;
}

/* The command that puts an nvidia.ko of driver `version` (or the installed one, NULL) into
 * /lib/modules/$(uname -r), for the module's delivery. */
static void fix_module(struct finding *f, const struct snap_node *root, const char *version)
{
	enum distro d = host_distro(root);
	const char *v = version ?: "the installed driver";

	switch (module_flavour(root)) {
	case MODULE_DKMS:
		if (third_party_kernel_fix(f, root, d, v))
			break;
		/* DKMS builds the sources its packages installed: that one of `version` is there
		 * is not seen. An upgrade that stopped half-way (broken dependencies) leaves the
		 * new user space without its DKMS package, and a reboot loads the old module again
		 * (illinois-scicomp/machine-shop-maintenance#70: 525.85.12 user space, 520.56.06
		 * module after the reboot; `apt install --fix-broken` fixed it). */
		if (version && (d == DISTRO_DEBIAN || d == DISTRO_UBUNTU))
			finding_fix(f,
				    "sudo apt install --fix-broken   # when the upgrade stopped "
				    "half-way: installs %s's DKMS package (ls /usr/src | grep "
				    "nvidia shows the sources DKMS has)",
				    version);
		if (d != DISTRO_UNKNOWN)
			finding_fix(f, "%s %s", distros[d].install, distros[d].headers);
		finding_fix(f,
			    "sudo dkms autoinstall -k $(uname -r)   # DKMS builds %s for the "
			    "running kernel when its source is in /usr/src; on failure: "
			    "/var/lib/dkms/nvidia/*/build/make.log",
			    v);
		break;
	case MODULE_AKMODS:
		finding_fix(f, "sudo dnf install kernel-devel-$(uname -r)");
		finding_fix(f,
			    "sudo akmods --force --kernels $(uname -r)   # akmods builds %s for "
			    "the running kernel; log: /var/cache/akmods/nvidia/",
			    v);
		finding_fix(f,
			    "sudo dnf upgrade --refresh akmod-nvidia   # a build that still fails "
			    "in make: the driver predates this kernel");
		break;
	case MODULE_UBUNTU_PREBUILT:
		if (third_party_kernel_fix(f, root, d, v))
			break;
		if (!snap_get_str(root, "driver.nvidia.module_file.path")) {
			/* No module for the running kernel to say which route the machine takes:
			 * apt's nvidia-driver-<branch> builds it with DKMS (nvidia-dkms-<branch>),
			 * which needs the new kernel's headers (elementary/os-patches#155),
			 * ubuntu-drivers installs the prebuilt package. Both, never a guess. */
			finding_fix(
				f,
				"dpkg -l 'nvidia-dkms-*' 'linux-modules-nvidia-*' | grep ^ii   # "
				"which route the installed driver takes");
			finding_fix(
				f,
				"sudo apt install linux-headers-$(uname -r) && sudo dkms "
				"autoinstall -k $(uname -r)   # nvidia-dkms-<branch>: DKMS builds "
				"%s once the running kernel's headers are there",
				v);
			finding_fix(
				f, "sudo apt install linux-modules-nvidia-<branch>-$(uname -r)   # "
				   "or Ubuntu's prebuilt module for the running kernel (<branch>: "
				   "the driver's, e.g. 550)");
			break;
		}
		finding_fix(f,
			    "sudo apt install linux-modules-nvidia-<branch>-$(uname -r)   # "
			    "Ubuntu's prebuilt module of %s for the running kernel (<branch>: "
			    "the driver's, e.g. 550)",
			    v);
		break;
	case MODULE_RHEL_KMOD:
		finding_fix(f,
			    "sudo dnf reinstall kmod-nvidia-latest-dkms || sudo dnf module "
			    "reinstall nvidia-driver   # the kmod of %s for the running kernel",
			    v);
		break;
	case MODULE_SUSE_KMP:
		finding_fix(f,
			    "sudo zypper install -f nvidia-open-driver-G06-signed-kmp-default   "
			    "# the prebuilt module of %s for the running kernel",
			    v);
		break;
	case MODULE_ARCH_PACKAGE:
		finding_fix(f,
			    "sudo pacman -Syu nvidia   # the nvidia package is built for the "
			    "linux package: update both together (nvidia-dkms for other kernels)");
		break;
	case MODULE_IMAGE:
		finding_fix(f, "rpm-ostree status   # an image-based system: the kernel module "
			       "comes with the deployed image, nothing is built here");
		finding_fix(f, "sudo rpm-ostree rollback && sudo systemctl reboot   # back to the "
			       "previous deployment, whose module and user space match");
		finding_fix(f, "# or, once the image is fixed: sudo rpm-ostree upgrade && sudo "
			       "systemctl reboot (bootc: sudo bootc upgrade)");
		break;
	case MODULE_RUNFILE:
		if (d != DISTRO_UNKNOWN)
			finding_fix(f, "%s %s dkms", distros[d].install, distros[d].headers);
		if (version)
			finding_fix(f,
				    "sudo sh NVIDIA-Linux-x86_64-%s.run --dkms   # the .run "
				    "installer built nvidia.ko for the kernel it ran on only; with "
				    "--dkms, DKMS builds it for each new kernel",
				    version);
		else
			finding_fix(f, "sudo sh NVIDIA-Linux-x86_64-<version>.run --dkms   # the "
				       "installed driver's .run file (nvidia-smi or the libraries "
				       "name its version): the .run installer built nvidia.ko for "
				       "the kernel it ran on only; with --dkms, DKMS builds it for "
				       "each new kernel");
		break;
	case MODULE_UNKNOWN:
		finding_fix(f,
			    "# rebuild or reinstall %s's kernel module for $(uname -r): "
			    "DKMS: sudo dkms autoinstall -k $(uname -r) · akmods (Fedora): sudo "
			    "akmods --force · Ubuntu: linux-modules-nvidia-<branch>-$(uname -r) · "
			    "RHEL: kmod-nvidia · Arch: pacman -S nvidia",
			    v);
		break;
	}
}

void distro_fix(struct finding *f, const struct snap_node *root, enum distro_fix what,
		const char *version)
{
	enum distro d = host_distro(root);
	const struct distro_info *di = d == DISTRO_UNKNOWN ? NULL : &distros[d];

	if (!f)
		return;
	switch (what) {
	case FIX_INSTALL_DRIVER:
		/* NVIDIA's .run installer put the driver there (its nvidia-uninstall is):
		 * the distribution's packages would install a second driver over its files
		 * (NVIDIA's Linux driver README, "Installing the NVIDIA Driver": remove one
		 * kind of installation before the other) */
		if (module_flavour(root) == MODULE_RUNFILE) {
			finding_fix(f,
				    "sudo sh NVIDIA-Linux-x86_64-%s.run --dkms   # the installed "
				    "driver came from NVIDIA's .run installer: run it again%s, or "
				    "remove it (sudo nvidia-uninstall) before installing the "
				    "distribution's driver packages",
				    version ?: "<version>",
				    version ? ""
					    : " (nvidia-smi or the libraries name its version)");
			break;
		}
		if (!di)
			finding_fix(f,
				    "# install the NVIDIA driver with the distribution's packages: "
				    "Debian: apt install nvidia-driver · Ubuntu: ubuntu-drivers "
				    "install · Fedora: dnf install akmod-nvidia (RPM Fusion) · "
				    "RHEL: dnf module install nvidia-driver · openSUSE: zypper · "
				    "Arch: pacman -S nvidia");
		else if (di->driver[0] == '#')
			finding_fix(f, "%s", di->driver + 2);
		else
			finding_fix(f, "%s %s", di->install, di->driver);
		break;
	case FIX_BUILD_MODULE:
		fix_module(f, root, version);
		break;
	case FIX_INITRAMFS:
		finding_fix(
			f, "%s && sudo reboot%s", di ? di->initramfs : "sudo update-initramfs -u",
			di ? "" : "   # dracut --force on Fedora/RHEL/SUSE, mkinitcpio -P on Arch");
		break;
	case FIX_CONTAINER_TOOLKIT:
		if (d == DISTRO_DEBIAN || d == DISTRO_UBUNTU)
			finding_fix(f, "sudo apt-get install -y nvidia-container-toolkit   # from "
				       "NVIDIA's repository (its install guide adds it)");
		else if (d == DISTRO_FEDORA || d == DISTRO_RHEL)
			finding_fix(
				f, "sudo dnf install -y nvidia-container-toolkit   # from NVIDIA's "
				   "repository (its install guide adds it)");
		else if (d == DISTRO_SUSE)
			finding_fix(f, "sudo zypper install -y nvidia-container-toolkit   # from "
				       "NVIDIA's repository (its install guide adds it)");
		else if (d == DISTRO_ARCH)
			finding_fix(f, "sudo pacman -S nvidia-container-toolkit");
		else
			finding_fix(f,
				    "# install nvidia-container-toolkit from NVIDIA's repository "
				    "with apt-get, dnf or zypper (NVIDIA Container Toolkit install "
				    "guide)");
		break;
	case FIX_CUDA_LIBRARIES: {
		/* NVIDIA's CUDA repositories name the runtime libraries cuda-libraries-X-Y
		 * (CUDA Installation Guide for Linux, "Meta Packages"); Arch packages one cuda. */
		char pkg[64];

		snprintf(pkg, sizeof(pkg), "cuda-libraries-%s", version ?: "X.Y");
		for (char *p = pkg; *p; p++)
			if (*p == '.')
				*p = '-';
		if (d == DISTRO_DEBIAN || d == DISTRO_UBUNTU)
			finding_fix(f, "sudo apt-get install %s   # from NVIDIA's CUDA repository",
				    pkg);
		else if (d == DISTRO_FEDORA || d == DISTRO_RHEL)
			finding_fix(f, "sudo dnf install %s   # from NVIDIA's CUDA repository",
				    pkg);
		else if (d == DISTRO_SUSE)
			finding_fix(f, "sudo zypper install %s   # from NVIDIA's CUDA repository",
				    pkg);
		else if (d == DISTRO_ARCH)
			finding_fix(f,
				    "sudo pacman -S cuda   # Arch packages the current CUDA only: "
				    "CUDA %s may need NVIDIA's runfile",
				    version ?: "X.Y");
		else
			finding_fix(f,
				    "# install %s from NVIDIA's CUDA repository (apt-get, dnf or "
				    "zypper) or the CUDA %s runfile",
				    pkg, version ?: "X.Y");
		break;
	}
	case FIX_SIGNING_KEY:
		/* The key the module is signed with is the builder's: akmods' own key; on
		 * Ubuntu and its family shim-signed's MOK, which DKMS signs with there and
		 * update-secureboot-policy(8) enrolls (Ubuntu wiki "UEFI/SecureBoot/DKMS");
		 * elsewhere DKMS' (dkms(8), mok_certificate). */
		if (module_flavour(root) == MODULE_AKMODS)
			finding_fix(
				f, "sudo mokutil --import /etc/pki/akmods/certs/public_key.der   # "
				   "akmods' key; then reboot and enroll it in the MOK manager");
		else if (d == DISTRO_UBUNTU)
			finding_fix(f,
				    "sudo update-secureboot-policy --enroll-key   # shim-signed's "
				    "key that DKMS signs with, /var/lib/shim-signed/mok/MOK.der; "
				    "then reboot and enroll it in the MOK manager");
		else
			finding_fix(f, "sudo mokutil --import /var/lib/dkms/mok.pub   # DKMS' key; "
				       "then reboot and enroll it in the MOK manager");
		break;
	}
}
