// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted text for why the kernel refused the NVIDIA module's signature (`gpuenv
 * explain`). kmod prints the same words for two causes: "modprobe: ERROR: could not insert
 * 'nvidia': Key was rejected by service" (EKEYREJECTED; "Required key not available",
 * ENOKEY, on kernels before 4.x's enforcement) comes for an unsigned module and for one signed
 * by a key the kernel does not trust (kernel/module/signing.c module_sig_check() returns
 * EKEYREJECTED for both when signatures are enforced), so the errors reader leaves the line
 * unsure. What else was pasted can tell:
 * - the kernel's own reason, printed with the refusal: "Loading of unsigned module is
 *   rejected" (no signature: driver.secure-boot-unsigned-module) or "Loading of module with
 *   unavailable key is rejected" (signed, the key not trusted); "PKCS#7 signature not signed
 *   with a trusted key" (crypto/asymmetric_keys/pkcs7_trust.c, the same, older kernels);
 * - DKMS's build log signing the NVIDIA module ("Signing module
 *   /var/lib/dkms/nvidia/535.113.01/build/nvidia.ko", dkms 3's sign_file step): it is signed,
 *   with DKMS's Machine Owner Key (/var/lib/dkms/mok.pub), so a refusal means that key is not
 *   enrolled (driver.secure-boot-key-not-enrolled).
 * nvidia-installer refuses its own module in two ways, read as refusals too: its reason, "The
 * kernel module failed to load, because it was not signed by a key that is trusted by the
 * kernel." (NVIDIA/gpu-operator#266), and its general "ERROR: Unable to load the kernel module
 * 'nvidia.ko'." (gpu-operator#1726 on GKE, with the kernel's "Loading of unsigned module is
 * rejected"): the second has many causes, so it names a rule only beside the kernel's reason.
 * nvidia-installer also prints the kernel's errno of its load ("Kernel module load error:
 * Operation not permitted", the EPERM of a lockdown refusing an unsigned module, or "…: Key was
 * rejected by service"), read as a refusal with those errnos only, and its own question,
 * answered in the log ("Would you like to sign the NVIDIA kernel module? (Answer: Install
 * without signing)", NVIDIA/gpu-operator#1142): the module it built is unsigned. Its
 * "This system also has UEFI Secure Boot enabled" (read from efivarfs before it asks) is
 * driver.secure_boot.enabled, whatever else the text shows.
 * With a refusal of the NVIDIA module and one kind of evidence, the refusal line becomes that
 * rule's symptom ("symptoms.<rule id>") and the evidence line "messages.module_signature";
 * with none, or both kinds, nothing is written: explain asks (mokutil --sb-state, modinfo's
 * signer) rather than guess.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

enum sig_evidence { EV_UNSIGNED, EV_UNTRUSTED_KEY, EV_KINDS };

/* kmod's refusal of the NVIDIA module itself (modprobe names it 'nvidia', insmod its file),
 * or nvidia-installer's, which only ever loads the NVIDIA modules. */
static bool nvidia_refused(const char *s)
{
	return ((strstr(s, "Key was rejected by service") ||
		 strstr(s, "Required key not available")) &&
		(strstr(s, "could not insert 'nvidia") ||
		 strstr(s, "could not insert module nvidia"))) ||
	       strstr(s, "because it was not signed by a key that is trusted by the kernel") ||
	       strstr(s, "Unable to load the kernel module 'nvidia") ||
	       (strstr(s, "Kernel module load error: ") &&
		(strstr(s, "Operation not permitted") || strstr(s, "Key was rejected by service") ||
		 strstr(s, "Required key not available")));
}

/* DKMS signing the NVIDIA driver's module ("Signing module /var/lib/dkms/nvidia/…"). */
static bool nvidia_signed_by_dkms(const char *s)
{
	const char *p = strstr(s, "Signing module ");

	return p && strstr(p, "nvidia");
}

int pasted_read_module_sig(const char *text, size_t len, struct pasted_facts *out)
{
	static const char *const rule[EV_KINDS] = { "driver.secure-boot-unsigned-module",
						    "driver.secure-boot-key-not-enrolled" };
	struct pasted_out o = { .f = out, .reader = "module-sig" };
	struct pasted_first_line refusal = { 0 }, ev[EV_KINDS] = { { 0 } };
	struct pasted_lines it;
	char *line;
	int kind = -1;
	unsigned sb_line = 0;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		const char *s = pasted_strip(line);

		/* nvidia-installer read it from efivarfs (SecureBoot-…) before asking */
		if (!sb_line && strstr(s, "This system also has UEFI Secure Boot enabled"))
			sb_line = it.no;
		if (nvidia_refused(s))
			pasted_keep_first_line(&refusal, it.no, s);
		else if (strstr(s, "Loading of unsigned module is rejected") ||
			 strstr(s, "(Answer: Install without signing)"))
			pasted_keep_first_line(&ev[EV_UNSIGNED], it.no, s);
		else if (strstr(s, "Loading of module with unavailable key is rejected") ||
			 strstr(s, "PKCS#7 signature not signed with a trusted key") ||
			 nvidia_signed_by_dkms(s))
			pasted_keep_first_line(&ev[EV_UNTRUSTED_KEY], it.no, s);
	}
	pasted_lines_done(&it);
	if (sb_line)
		pasted_put(&o, sb_line, "true", "driver.secure_boot.enabled");
	for (int k = 0; k < EV_KINDS; k++)
		if (ev[k].line)
			kind = kind < 0 ? k : EV_KINDS; /* both kinds: it cannot tell */
	if (!refusal.line || kind < 0 || kind == EV_KINDS)
		return pasted_out_result(&o);
	pasted_put(&o, refusal.line, refusal.text, "symptoms.%s", rule[kind]);
	pasted_put(&o, ev[kind].line, ev[kind].text, "messages.module_signature");
	return pasted_out_result(&o);
}
