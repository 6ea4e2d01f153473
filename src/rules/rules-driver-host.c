// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Driver-layer rules about where the driver has to come from on this host: the keys Secure
 * Boot trusts (driver.secure_boot.{enabled,mok_keys,db_keys} from efivarfs, and the signer of
 * nvidia.ko in driver.nvidia.module_file.*), and WSL2, whose GPU driver is the Windows host's
 * (host.kernel_release, host.wsl.*, and which libcuda / libnvidia-ml ld.so would load,
 * driver.userspace.*). Sources: the kernel's module-signing.rst (a module signed by a key the
 * kernel does not trust is refused with EKEYREJECTED, "Key was rejected by service", when
 * signatures are enforced, as they are under Secure Boot's lockdown); shim's MokManager
 * (keys enrolled with `mokutil --import` take effect after the reboot's enrolment screen);
 * NVIDIA's CUDA on WSL User Guide ("Do not install any Linux display driver in WSL").
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"

/* ---- driver.secure-boot-key-not-enrolled ------------------------------------------------ */

enum key_match { KEY_ENROLLED, KEY_NOT_ENROLLED, KEY_LIST_UNREAD };

/* The file a key list was read from (an array has no source of its own: its entries do). */
static const char *list_source(const struct snap_node *list)
{
	return snap_source(list) ?: snap_source(snap_child(snap_at(list, 0), "serial"))
					    ?: "/sys/firmware/efi/efivars";
}

/* Whether an enrolled certificate is the signer: the kernel finds a PKCS#7 signer by issuer
 * and serial number (crypto/asymmetric_keys/pkcs7_trust.c); the snapshot keeps the issuer's
 * commonName and the serial, as `modinfo` (signer, sig_key) and `mokutil` show them. */
static enum key_match key_in(const struct snap_node *list, const char *signer, const char *serial)
{
	if (snap_kind(list) != SNAP_ARRAY)
		return KEY_LIST_UNREAD;
	for (size_t i = 0; i < snap_count(list); i++) {
		const struct snap_node *k = snap_at(list, i);
		const char *is = snap_get_str(k, "issuer"), *se = snap_get_str(k, "serial");

		if (se && serial && strcasecmp(se, serial) == 0 &&
		    (!signer || (is && streq(is, signer))))
			return KEY_ENROLLED;
	}
	return KEY_NOT_ENROLLED;
}

/* A module built on this machine (DKMS: updates/dkms; akmods and kmod packages: extra/) is
 * signed with a key made on this machine, never with one built into the kernel. */
static bool built_here(const char *path)
{
	return path && (strstr(path, "/updates/") || strstr(path, "/extra/"));
}

RULE_CHECK(check_secure_boot_key_not_enrolled)
{
	const struct snap_node *sb = snap_get(root, "driver.secure_boot");
	const struct snap_node *mf = snap_get(root, "driver.nvidia.module_file");
	const struct snap_node *sig = snap_child(mf, "signature"), *fact;
	const struct snap_node *mok = snap_child(sb, "mok_keys"), *db = snap_child(sb, "db_keys");
	const char *ver, *path = snap_get_str(mf, "path"), *signer, *serial;
	enum key_match m_mok, m_db;
	struct finding *f;
	bool on = false, local;
	char why[256] = "";

	if (!snap_bool(snap_child(sb, "enabled"), &on) || !on || !path)
		return;
	if (nvidia_driver(root, &ver, &fact) != DRIVER_NONE)
		return; /* loaded: the kernel accepted its key; unknown: module-not-loaded says so */
	if (!rule_need_known(c, NULL, "driver.nvidia.module_file.signature", sig) ||
	    !snap_present(sig))
		return; /* unsigned: driver.secure-boot-unsigned */
	signer = snap_get_str(mf, "signer");
	serial = snap_get_str(mf, "sig_key");
	if (!serial) {
		rule_skip(c, NULL, "the signature of %s names no key serial", path);
		return;
	}
	m_mok = key_in(mok, signer, serial);
	m_db = key_in(db, signer, serial);
	if (m_mok == KEY_ENROLLED || m_db == KEY_ENROLLED)
		return;
	local = built_here(path);
	if (m_mok == KEY_LIST_UNREAD)
		fact_describe(mok, why, sizeof(why));
	else if (m_db == KEY_LIST_UNREAD)
		fact_describe(db, why, sizeof(why));
	if (why[0])
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
				 "Secure Boot is on and %s is not loaded; it is signed by \"%s\" "
				 "(serial %s), and whether that key is enrolled could not be read "
				 "(%s)",
				 path, signer ?: "?", serial, why);
	else
		f = rule_finding(
			c, local ? GPUENV_SEVERITY_ERROR : GPUENV_SEVERITY_WARNING, NULL,
			"Secure Boot is on and %s is signed by \"%s\" (serial %s), a key in "
			"neither MokListRT (%zu key%s) nor db (%zu key%s)%s: the kernel refuses it, "
			"modprobe: ERROR: could not insert 'nvidia': Key was rejected by service",
			path, signer ?: "?", serial, snap_count(mok),
			snap_count(mok) == 1 ? "" : "s", snap_count(db),
			snap_count(db) == 1 ? "" : "s",
			local ? "" : ", unless it is one of the kernel's built-in keys");
	finding_fact(f, "driver.secure_boot.enabled", snap_child(sb, "enabled"));
	finding_fact(f, "driver.nvidia.module_file.path", snap_child(mf, "path"));
	finding_fact(f, "driver.nvidia.module_file.signer", snap_child(mf, "signer"));
	finding_fact(f, "driver.nvidia.module_file.sig_key", snap_child(mf, "sig_key"));
	finding_evidence(f, "driver.secure_boot.mok_keys", list_source(mok), "%s",
			 m_mok == KEY_LIST_UNREAD ? "could not be read" : "signer not among them");
	finding_evidence(f, "driver.secure_boot.db_keys", list_source(db), "%s",
			 m_db == KEY_LIST_UNREAD ? "could not be read" : "signer not among them");
	finding_fact(f, "driver.nvidia.module_version", fact);
	distro_fix(f, root, FIX_SIGNING_KEY, NULL); /* the akmods or the DKMS key */
	finding_fix(f, "# reboot: in the blue MokManager screen choose \"Enroll MOK\", "
		       "\"Continue\", enter that password; then sudo modprobe nvidia");
	finding_verify(f, "mokutil --list-enrolled | grep -i -A1 '%s'", signer ?: serial);
	finding_verify(f, "modinfo -F signer nvidia; modinfo -F sig_key nvidia");
	finding_verify(f, "sudo modprobe nvidia && cat /sys/module/nvidia/version");
}

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
