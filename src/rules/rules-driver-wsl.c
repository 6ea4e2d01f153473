// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.wsl-linux-driver-installed: on WSL2 the GPU driver is the Windows host's
 * (host.kernel_release, host.wsl.*), so a Linux driver's libcuda / libnvidia-ml that ld.so
 * would load before /usr/lib/wsl/lib (driver.userspace.*) breaks CUDA. Source: NVIDIA's CUDA
 * on WSL User Guide ("Do not install any Linux display driver in WSL").
 * driver.wsl-no-gpu-paravirtualization: a WSL2 kernel without /dev/dxg (with or without
 * /usr/lib/wsl/lib): Windows passes no GPU into the distribution (host.wsl.*); and WSL1, which
 * has no GPU paravirtualization at all (NVIDIA's CUDA on WSL User Guide and Microsoft's "Enable
 * NVIDIA CUDA on WSL" are WSL 2 only; microsoft/WSL#5554).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"

/* ---- driver.wsl-linux-driver-installed -------------------------------------------------- */

static bool under_wsl_lib(const char *p)
{
	return p && strncmp(p, "/usr/lib/wsl/", 13) == 0;
}

/* The Linux driver's copy of lib (libcuda / libnvidia_ml): the winner when it is not the
 * Windows driver's, else the first loadable shadowed copy outside /usr/lib/wsl (*ret_first
 * false), else NULL. */
static const struct snap_node *linux_copy(const struct snap_node *lib, bool *ret_first)
{
	const struct snap_node *sh = snap_child(lib, "shadowed");
	const char *win = snap_get_str(lib, "resolved_path") ?: snap_get_str(lib, "path");

	*ret_first = true;
	if (win && !under_wsl_lib(win) && !snap_get_bool_default(lib, "is_stub", false))
		return lib;
	*ret_first = false;
	for (size_t i = 0; i < snap_count(sh); i++) {
		const struct snap_node *o = snap_at(sh, i);
		const char *p = snap_get_str(o, "resolved_path") ?: snap_get_str(o, "path");

		if (p && !under_wsl_lib(p) && !snap_get_bool_default(o, "is_stub", false) &&
		    streq(snap_get_str(o, "verdict") ?: "", "loadable"))
			return o;
	}
	return NULL;
}

RULE_CHECK(check_wsl_linux_driver_installed)
{
	static const struct {
		const char *key, *soname, *how;
	} libs[] = {
		{ "driver.userspace.libcuda", "libcuda.so.1", "ld.so loads" },
		{ "driver.userspace.libcuda_so", "libcuda.so", "dlopen (numba, Warp …) gets" },
		{ "driver.userspace.libnvidia_ml", "libnvidia-ml.so.1", "ld.so loads" },
	};

	if (!on_wsl2(root, NULL))
		return;
	/* Pass 0: a Linux copy that is found first (an error); pass 1: one behind the Windows
	 * driver's (a warning). One finding: the libraries come from the same install. */
	for (size_t n = 0; n < 2 * ARRAY_SIZE(libs); n++) {
		size_t i = n % ARRAY_SIZE(libs);
		const struct snap_node *lib = snap_get(root, libs[i].key), *copy;
		const char *p;
		struct finding *f;
		bool first;
		char key[96];

		/* Which copy ld.so takes could not be told: skipped (said once, in pass 0). */
		if (snap_child(lib, "undetermined")) {
			if (n < ARRAY_SIZE(libs))
				lib_need_determined(c, libs[i].soname, lib);
			continue;
		}
		if (!(copy = linux_copy(lib, &first)) || first != (n < ARRAY_SIZE(libs)))
			continue;
		p = snap_get_str(copy, "resolved_path") ?: snap_get_str(copy, "path");
		if (first)
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, libs[i].soname,
				"WSL2: %s %s from %s (%s%s, via %s), a Linux NVIDIA driver "
				"installed in this distribution, not the Windows driver's "
				"/usr/lib/wsl/lib: CUDA cannot reach the GPU through it",
				libs[i].how, libs[i].soname, p,
				snap_get_str(copy, "version") ? "version " : "",
				snap_get_str(copy, "version") ?: "version unknown",
				snap_get_str(copy, "found_via") ?: "?");
		else
			f = rule_finding(
				c, GPUENV_SEVERITY_WARNING, libs[i].soname,
				"WSL2: a Linux NVIDIA driver's %s is installed at %s; ld.so "
				"takes the Windows driver's copy first today, but a program "
				"that loads it by path or a changed search order breaks CUDA",
				libs[i].soname, p);
		finding_fact(f, "host.kernel_release", snap_get(root, "host.kernel_release"));
		finding_fact(f, "host.wsl.dxg_device", snap_get(root, "host.wsl.dxg_device"));
		snprintf(key, sizeof(key), "%s.resolved_path", libs[i].key);
		finding_fact(f, key, snap_child(lib, "resolved_path"));
		snprintf(key, sizeof(key), "%s.found_via", libs[i].key);
		finding_fact(f, key, snap_child(lib, "found_via"));
		finding_fact(f, "environment.LD_LIBRARY_PATH",
			     snap_get(root, "environment.LD_LIBRARY_PATH"));
		finding_fix(f, "dpkg -S %s   # which package installed it (rpm -qf on Fedora)", p);
		finding_rule_fix(f);
		finding_rule_verify(f);
		break;
	}
}

/* ---- driver.wsl-no-gpu-paravirtualization ----------------------------------------------- */

/* WSL2 gives a distribution the GPU as /dev/dxg (the dxgkrnl driver of its kernel) and the
 * Windows driver's user space at /usr/lib/wsl/lib. Without /dev/dxg no GPU reached it; with
 * neither, nothing of the GPU did: a Windows release without WSL GPU support (before Windows
 * 11 and Windows 10 21H2), a Windows NVIDIA driver without WSL support, or the GPU turned off
 * for WSL. Which one the distribution cannot see (NVIDIA/nvidia-docker#1542: "dxcore
 * initialization failed", no libdxcore.so, a Windows 10 release without it). Only /dev/dxg
 * known absent, and not in a container, whose runtime passes (or not) the GPU itself. */
RULE_CHECK(check_wsl_no_gpu_paravirtualization)
{
	const struct snap_node *dxg = snap_get(root, "host.wsl.dxg_device");
	const struct snap_node *lib = snap_get(root, "host.wsl.lib_dir");
	const char *why;
	struct finding *f;

	/* WSL1 ("4.4.0-19041-Microsoft"): no /dev/dxg can exist; the distribution must be
	 * converted to WSL2 (microsoft/WSL#5554) */
	if (on_wsl1(root, &why) && !in_container(root)) {
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"WSL1 (kernel release %s): WSL1 passes no GPU to its "
			"distributions; CUDA, NVML and nvidia-smi reach the GPU only under "
			"WSL2 (/dev/dxg, /usr/lib/wsl/lib)",
			why);
		/* the fact that showed it: the kernel release, else the pasted line */
		if (why == snap_get_str(root, "host.kernel_release"))
			finding_fact(f, "host.kernel_release",
				     snap_get(root, "host.kernel_release"));
		else
			finding_fact(f, "messages.platform.wsl1",
				     snap_get(root, "messages.platform.wsl1"));
		finding_fix(f, "wsl -l -v   # on Windows: VERSION 1 is WSL1");
		finding_fix(f, "wsl --update   # on Windows: the current WSL, whose WSL2 "
			       "kernel has the GPU driver (dxgkrnl)");
		finding_fix(f, "wsl --set-version <distro> 2   # on Windows: convert the "
			       "distribution to WSL2");
		finding_rule_fix(f);
		finding_verify(f, "wsl.exe -l -v   # VERSION 2 for the distribution");
		finding_verify(f, "nvidia-smi.exe   # the Windows driver, which WSL2 shares");
		finding_rule_verify(f);
		return;
	}
	if (!on_wsl2(root, &why) || in_container(root))
		return;
	if (!rule_need(c, NULL, "/dev/dxg", dxg))
		return;
	if (snap_get_bool_default(root, "host.wsl.dxg_device", true))
		return;
	if (!rule_need(c, NULL, "/usr/lib/wsl/lib", lib))
		return;
	/* The driver's files without /dev/dxg: Windows mounts its driver but passes no GPU, as
	 * Insider builds 21327 and 21343-21354 did (microsoft/WSL#6617 and #6773, "The /dev/dxg
	 * device is not available"; #6772, #6809): libcuda finds no device, nvidia-smi cannot
	 * communicate with the driver. */
	if (snap_get_bool_default(root, "host.wsl.lib_dir", true))
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "WSL2 (%s) without GPU paravirtualization: the Windows driver's "
				 "files are mounted at /usr/lib/wsl/lib, but there is no /dev/dxg, "
				 "so Windows passes no GPU into this distribution",
				 why);
	else
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "WSL2 (%s) without GPU paravirtualization: no /dev/dxg and no "
				 "/usr/lib/wsl/lib, so Windows passes no GPU and no driver into "
				 "this distribution",
				 why);
	finding_fact(f, "host.kernel_release", snap_get(root, "host.kernel_release"));
	finding_fact(f, "host.wsl.dxg_device", dxg);
	finding_fact(f, "host.wsl.lib_dir", lib);
	finding_rule_fix(f);
	finding_rule_verify(f);
}
