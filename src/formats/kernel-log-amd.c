// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * amdgpu's and amdkfd's kernel-log lines (kernel-log.h names the formats): a firmware file the
 * driver could not load, the GPU init that failed for it, and a GPU that KFD (the compute
 * interface ROCm opens as /dev/kfd) does not support. Lines as dmesg prints them, e.g.
 *   [    9.605986] amdgpu 0000:23:00.0: Direct firmware load for amdgpu/arcturus_gpu_info.bin failed with error -2
 *   [    9.605988] amdgpu 0000:23:00.0: Failed to load gpu_info firmware "amdgpu/arcturus_gpu_info.bin"
 *   [    9.605988] amdgpu 0000:23:00.0: Fatal error during GPU init
 *   [drm:psp_hw_init [amdgpu]] *ERROR* PSP firmware loading failed
 *   [    3.548555] kfd kfd: amdgpu: PITCAIRN  not supported in kfd
 *   [    1.130512] kfd kfd: DID 6fdf is missing in supported_devices
 *   [    2.721238] amdgpu 0000:02:00.0: kfd not supported on this ASIC
 *   [    7.026427] kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics
 *   kfd kfd: amdgpu: skipped device 1002:7341, PCI rejects atomics 123<145
 *   amdgpu 0000:e3:00.0: amdgpu: uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) detected!
 *   amdgpu 0000:c1:00.0: amdgpu: 2 uncorrectable hardware errors detected in umc block
 * No I/O.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel-log.h"
#include "shared/macro.h"

static void copy_text(char *dst, size_t len, const char *s)
{
	size_t n = strcspn(s, "\n");

	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* The message without the syslog prefix ("Mmm dd hh:mm:ss host kernel: ") and the time
 * stamp ("[    9.605986] "). */
static const char *message(const char *line)
{
	const char *k = strstr(line, "kernel: ");

	if (k)
		line = k + strlen("kernel: ");
	line += strspn(line, " \t");
	if (*line == '[' && line[1] != 'd') { /* "[drm:…" is the message itself */
		const char *close = strchr(line, ']');

		if (close)
			line = close + 1 + strspn(close + 1, " ");
	}
	return line;
}

/* amdkfd's refusal of a GPU whose PCIe path does not complete atomic operations
 * (drivers/gpu/drm/amd/amdkfd/kfd_device.c: "skipped device %x:%x, PCI rejects atomics
 * %d<%d", the MEC firmware version and the one from which the GPU runs without atomics;
 * older kernels print the ids alone): the ids and the two versions when given. */
static void atomics_line(struct klog_amd *a, const char *m)
{
	const char *p = strstr(m, "skipped device "), *q;
	size_t n;
	char *end;
	unsigned long fw, need;

	if (p) {
		p += strlen("skipped device ");
		n = strcspn(p, ", \n");
		if (n < sizeof(a->atomics_pci_id)) {
			memcpy(a->atomics_pci_id, p, n);
			a->atomics_pci_id[n] = '\0';
		}
	}
	q = strstr(m, "PCI rejects atomics ");
	if (!q)
		return;
	q += strlen("PCI rejects atomics ");
	if (!isdigit((unsigned char)*q))
		return;
	fw = strtoul(q, &end, 10);
	if (*end != '<' || !isdigit((unsigned char)end[1]))
		return;
	need = strtoul(end + 1, NULL, 10);
	if (fw > UINT32_MAX || need > UINT32_MAX)
		return;
	a->atomics_have_fw = true;
	a->atomics_mec_fw = (uint32_t)fw;
	a->atomics_fw_needed = (uint32_t)need;
}

/* The firmware file a line names: after "load for " up to a space, or inside the quotes of
 * 'firmware "amdgpu/…"'. */
static void fw_file(const char *m, char *buf, size_t len)
{
	const char *p = strstr(m, "Direct firmware load for ");
	size_t n;

	if (p) {
		p += strlen("Direct firmware load for ");
		n = strcspn(p, " \n");
	} else if ((p = strstr(m, "\"amdgpu/"))) {
		p++;
		n = strcspn(p, "\"\n");
	} else {
		return;
	}
	if (n == 0 || n >= len)
		return;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

/* The device a dev_*() line of amdgpu names: "amdgpu 0000:e3:00.0: …" → "0000:e3:00.0"
 * (a PCI address, dddd:bb:dd.f); buf left "" when the line names none. */
static void amdgpu_bus(const char *m, char *buf, size_t len)
{
	size_t n;

	if (!startswith(m, "amdgpu "))
		return;
	m += strlen("amdgpu ");
	n = strspn(m, "0123456789abcdefABCDEF:.");
	while (n > 0 && m[n - 1] == ':')
		n--;
	if (n < 7 || n >= len || !memchr(m, '.', n))
		return;
	memcpy(buf, m, n);
	buf[n] = '\0';
}

/* amdgpu's RAS report of uncorrectable errors; a count of 0 ("0 uncorrectable hardware
 * errors detected in …") reports none. */
static bool ras_uncorrectable(const char *m)
{
	const char *p = strstr(m, "uncorrectable hardware error");
	const char *q;

	if (!p || (p > m && isalpha((unsigned char)p[-1])))
		return false;
	if (!strstr(p, "detected"))
		return false;
	/* the count before it, when there is one: "…: 2 uncorrectable hardware errors" */
	q = p;
	while (q > m && q[-1] == ' ')
		q--;
	if (q > m && isdigit((unsigned char)q[-1])) {
		while (q > m && isdigit((unsigned char)q[-1]))
			q--;
		return strtoull(q, NULL, 10) > 0;
	}
	return true;
}

/* KFD's refusal of a GPU amdgpu drives, in the wordings of its releases: "<ASIC> not supported
 * in kfd" (kfd_device.c, Linux 5.x and later), "DID <id> is missing in supported_devices" (the
 * device-id table of older amdkfd and rock-dkms/amdgpu-dkms 2.x-3.x: ROCm/legacy-rocm-build#719,
 * #1318), "kfd not supported on this ASIC" (amdgpu_amdkfd.c of Linux 4.x, printed by amdgpu or
 * as "kfd2kgd: …": ROCm/rocminfo#27, ROCm/legacy-rocm-build#538). */
static bool kfd_refusal(const char *m)
{
	if (startswith(m, "kfd ") &&
	    (strstr(m, "not supported in kfd") || strstr(m, "is missing in supported_devices")))
		return true;
	return (startswith(m, "amdgpu ") || startswith(m, "kfd2kgd: ")) &&
	       strstr(m, "kfd not supported on this ASIC");
}

/* The GPU a firmware or init failure line names, kept once; counted when it names none. */
static void failed_gpu(struct klog_amd *a, const char *m)
{
	char bus[16] = "";

	amdgpu_bus(m, bus, sizeof(bus));
	if (!bus[0]) {
		a->failed_unnamed++;
		return;
	}
	for (unsigned i = 0; i < a->n_failed_bus; i++)
		if (strcasecmp(a->failed_bus[i], bus) == 0)
			return;
	if (a->n_failed_bus == AMD_FAILED_BUSES_MAX) {
		a->failed_bus_dropped++;
		return;
	}
	memcpy(a->failed_bus[a->n_failed_bus++], bus, sizeof(bus));
}

void klog_amd_line(struct klog_amd *a, const char *line)
{
	const char *m;
	bool amd;

	if (!strstr(line, "amdgpu") && !strstr(line, "kfd"))
		return;
	m = message(line);
	amd = strstr(m, "amdgpu") != NULL;
	if (strstr(m, "Direct firmware load for amdgpu/") ||
	    (amd && (strstr(m, "Failed to load firmware") || strstr(m, "firmware loading failed") ||
		     strstr(m, "Failed to load gpu_info firmware")))) {
		if (a->fw_failures++ == 0)
			copy_text(a->fw_message, sizeof(a->fw_message), m);
		if (!a->fw_file[0])
			fw_file(m, a->fw_file, sizeof(a->fw_file));
		klog_line_timestamp(line, a->fw_timestamp, sizeof(a->fw_timestamp));
		failed_gpu(a, m);
	} else if (amd && strstr(m, "Fatal error during GPU init")) {
		if (a->init_fatal++ == 0)
			copy_text(a->init_message, sizeof(a->init_message), m);
		failed_gpu(a, m);
	} else if (kfd_refusal(m)) {
		if (a->kfd_unsupported++ == 0)
			copy_text(a->kfd_message, sizeof(a->kfd_message), m);
	} else if (startswith(m, "kfd ") && strstr(m, "PCI rejects atomics")) {
		if (a->kfd_no_atomics++ == 0) {
			copy_text(a->atomics_message, sizeof(a->atomics_message), m);
			atomics_line(a, m);
		}
	} else if (amd && ras_uncorrectable(m)) {
		if (a->ras_uncorrectable++ == 0) {
			copy_text(a->ras_message, sizeof(a->ras_message), m);
			amdgpu_bus(m, a->ras_bus, sizeof(a->ras_bus));
		}
		klog_line_timestamp(line, a->ras_timestamp, sizeof(a->ras_timestamp));
	}
}
