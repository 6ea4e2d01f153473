// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Driver-layer rules about Secure Boot: a module the kernel refuses because it is unsigned
 * (driver.secure-boot-unsigned) or signed by a key it does not trust
 * (driver.secure-boot-key-not-enrolled). Keys: driver.secure_boot.{enabled,mok_keys,db_keys}
 * from efivarfs, the signer of nvidia.ko in driver.nvidia.module_file.*. Sources: the
 * kernel's module-signing.rst (a module signed by a key the kernel does not trust is refused
 * with EKEYREJECTED, "Key was rejected by service", when signatures are enforced, as they are
 * under Secure Boot's lockdown); shim's MokManager (keys enrolled with `mokutil --import`, or
 * Ubuntu's `update-secureboot-policy --enroll-key`, take effect after the reboot's enrolment
 * screen).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"

/* ---- driver.secure-boot-unsigned -------------------------------------------------------- */

RULE_CHECK(check_secure_boot_unsigned)
{
	const struct snap_node *sb = snap_get(root, "driver.secure_boot.enabled");
	const struct snap_node *path = snap_get(root, "driver.nvidia.module_file.path");
	const struct snap_node *sig = snap_get(root, "driver.nvidia.module_file.signature");
	const struct snap_node *fact;
	const char *ver;
	struct finding *f;
	bool on = false;

	if (!snap_bool(sb, &on) || !on || !snap_present(path))
		return;
	if (nvidia_driver(root, &ver, &fact) != DRIVER_NONE)
		return; /* loaded: the kernel accepted it; unknown: module-not-loaded says so */
	if (!rule_need_known(c, NULL, "driver.nvidia.module_file.signature", sig))
		return;
	if (snap_present(sig))
		return; /* signed: whether its key is enrolled is another rule's question */
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, NULL,
		"Secure Boot is on and %s is not signed: the kernel will refuse to load it",
		snap_str(path));
	finding_fact(f, "driver.secure_boot.enabled", sb);
	finding_fact(f, "driver.nvidia.module_file.path", path);
	finding_fact(f, "driver.nvidia.module_file.signature", sig);
	driver_evidence(f, root);
	distro_fix(f, root, FIX_SIGNING_KEY, NULL);
	distro_fix(f, root, FIX_BUILD_MODULE, NULL); /* rebuilt, it is signed with that key */
	finding_fix(f, "# or turn Secure Boot off in the firmware");
	finding_rule_verify(f);
}

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

/* The facts both findings rest on: Secure Boot on, the module file, its signer and key. */
static void signed_module_facts(struct finding *f, const struct snap_node *sb,
				const struct snap_node *mf)
{
	finding_fact(f, "driver.secure_boot.enabled", snap_child(sb, "enabled"));
	finding_fact(f, "driver.nvidia.module_file.path", snap_child(mf, "path"));
	finding_fact(f, "driver.nvidia.module_file.signer", snap_child(mf, "signer"));
	finding_fact(f, "driver.nvidia.module_file.sig_key", snap_child(mf, "sig_key"));
}

/* Secure Boot on without shim: the module's signer is not in db, the only list the kernel
 * then trusts besides its own keys; MokManager does not run, so the fix is a key in db. */
static void no_shim_finding(struct rule_ctx *c, const struct snap_node *root, const char *path,
			    const char *signer, const char *serial, const struct snap_node *db,
			    bool local)
{
	const struct snap_node *sb = snap_get(root, "driver.secure_boot");
	const struct snap_node *mf = snap_get(root, "driver.nvidia.module_file");
	struct finding *f;

	f = rule_finding(c, local ? GPUENV_SEVERITY_ERROR : GPUENV_SEVERITY_WARNING, NULL,
			 "Secure Boot is on and %s is signed by \"%s\" (serial %s), a key not in "
			 "db (%zu key%s); there is no MokListRT, so this boot did not go through "
			 "shim and no Machine Owner Key (mokutil --import) can be enrolled: the "
			 "kernel refuses the module%s",
			 path, signer ?: "?", serial, snap_count(db),
			 snap_count(db) == 1 ? "" : "s",
			 local ? "" : ", unless it is one of the kernel's built-in keys");
	signed_module_facts(f, sb, mf);
	finding_fact(f, "driver.secure_boot.mok_keys", snap_child(sb, "mok_keys"));
	finding_evidence(f, "driver.secure_boot.db_keys", list_source(db), "signer not among them");
	finding_fix(f, "# sign the module with a key in db (the one that signs your boot loader or "
		       "UKI, e.g. sbctl's db key), for akmods: point /etc/pki/akmods at that key "
		       "and run sudo akmods --force");
	finding_fix(f, "# or boot through shim again (shimx64.efi first in the boot order), then "
		       "enroll the module's key with mokutil --import and the MokManager screen");
	finding_verify(f, "ls /sys/firmware/efi/efivars/MokListRT-* 2>/dev/null   # exists only "
			  "when booted through shim");
	finding_verify(f, "modinfo -F signer nvidia; modinfo -F sig_key nvidia");
	finding_verify(f, "sudo modprobe nvidia && cat /sys/module/nvidia/version");
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
	bool on = false, local, no_shim;
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
	/* No MokListRT at all (shim mirrors its MokList there, with its vendor certificate, at
	 * every boot it performs): this boot did not go through shim (systemd-boot or a UKI
	 * under the user's own db keys), so no mokutil enrolment can ever take effect. */
	no_shim = m_mok == KEY_LIST_UNREAD && snap_state(mok) == FACT_ABSENT &&
		  m_db == KEY_NOT_ENROLLED;
	if (no_shim) {
		no_shim_finding(c, root, path, signer, serial, db, local);
		return;
	}
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
	signed_module_facts(f, sb, mf);
	finding_evidence(f, "driver.secure_boot.mok_keys", list_source(mok), "%s",
			 m_mok == KEY_LIST_UNREAD ? "could not be read" : "signer not among them");
	finding_evidence(f, "driver.secure_boot.db_keys", list_source(db), "%s",
			 m_db == KEY_LIST_UNREAD ? "could not be read" : "signer not among them");
	finding_fact(f, driver_fact_key(root, fact), fact);
	distro_fix(f, root, FIX_SIGNING_KEY, NULL); /* akmods', shim-signed's or DKMS' key */
	finding_fix(f, "# reboot: in the blue MokManager screen choose \"Enroll MOK\", "
		       "\"Continue\", enter that password; then sudo modprobe nvidia");
	finding_verify(f, "mokutil --list-enrolled | grep -i -A1 '%s'", signer ?: serial);
	finding_verify(f, "modinfo -F signer nvidia; modinfo -F sig_key nvidia");
	finding_verify(f, "sudo modprobe nvidia && cat /sys/module/nvidia/version");
}
