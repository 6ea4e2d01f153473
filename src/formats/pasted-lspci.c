// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `lspci` (`gpuenv explain`; pciutils lspci.c show_terse(): "[DDDD:]BB:DD.F
 * <class>: <vendor> <device> (rev xx)", with -nn the class "[0300]" and the ids "[10de:2204]"
 * after the names, with -n alone "01:00.0 0300: 10de:2204"; -k and -v add indented
 * "Subsystem: … [1043:87b3]" and "Kernel driver in use: nvidia" lines under the device). The
 * GPUs are what the PCI probe records in hardware.gpus[]: every display device (class 03xx,
 * by its code or lspci's name "VGA compatible controller", "3D controller", "Display
 * controller") and NVIDIA, AMD or Intel processing accelerators (12xx), in the order lspci
 * lists them (bus order, as the probe's). Facts: bus_id (with the domain lspci leaves out
 * without -D: 0000), vendor_id, device_id, subsystem_vendor_id, subsystem_device_id (only
 * with -nn or -n, or where pci.ids has no name and lspci prints the id: the names are
 * pci.ids', not the device's), vendor, driver. A device listed
 * twice (lspci | grep VGA, then lspci -nnk) is one GPU. No driver bound: lspci prints
 * "Kernel driver in use:" only for a bound device (show_kernel() in ls-kernel.c), so a GPU's
 * -k block without it records driver as absent, where the block is surely whole: it has the
 * "Kernel modules:" line lspci prints after the driver's, or its "Subsystem:" line is followed
 * by the next device's line (not cut by `grep -A1`, prose or the end of the text). With -vv,
 * the link's speed and width from LnkCap and LnkSta (put_link()).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"
#include "shared/strmap.h"

#define GPUS_MAX 64

static bool hex_run(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* "[DDDD:]BB:DD.F " at s: the bus id with a domain into buf, the rest in *ret_rest. */
static bool bus_id(const char *s, char *buf, size_t len, const char **ret_rest)
{
	const char *dom = "0000";

	if (hex_run(s, 4) && s[4] == ':') {
		dom = s;
		s += 5;
	}
	if (!(hex_run(s, 2) && s[2] == ':' && hex_run(s + 3, 2) && s[5] == '.' && s[6] >= '0' &&
	      s[6] <= '7' && s[7] == ' '))
		return false;
	snprintf(buf, len, "%.4s:%.7s", dom, s);
	for (char *p = buf; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	*ret_rest = s + 8;
	return true;
}

/* The last "[hhhh:hhhh]" of s (-nn ids) into vendor/device; false when none. */
static bool bracket_ids(const char *s, unsigned *ret_v, unsigned *ret_d)
{
	bool found = false;

	for (const char *p = strchr(s, '['); p; p = strchr(p + 1, '['))
		if (hex_run(p + 1, 4) && p[5] == ':' && hex_run(p + 6, 4) && p[10] == ']') {
			found = sscanf(p + 1, "%4x:%4x", ret_v, ret_d) == 2;
		}
	return found;
}

static const char *vendor_of_id(unsigned v)
{
	return v == 0x10de ? "NVIDIA" : v == 0x1002 ? "AMD" : v == 0x8086 ? "Intel" : NULL;
}

static const char *vendor_of_name(const char *s)
{
	if (strncmp(s, "NVIDIA Corporation", 18) == 0)
		return "NVIDIA";
	if (strncmp(s, "Advanced Micro Devices", 22) == 0)
		return "AMD";
	if (strncmp(s, "Intel Corporation", 17) == 0)
		return "Intel";
	return NULL;
}

struct device {
	bool gpu, ids, device_only;
	unsigned class, vendor, device;
	const char *vendor_name;
};

/* "hhhh" at s, then the end of the line or a space (" (rev c1)"). */
static bool hex4_word(const char *s)
{
	return hex_run(s, 4) && (s[4] == '\0' || s[4] == ' ');
}

/* Without -nn lspci names the device from pci.ids, and prints its id where pci.ids has no
 * name for it (pciutils lib/names.c format_name_pair()): "Device 1da3:1020" where the vendor
 * is unknown too, "<vendor> Device 687f" where only the device is (a GPU newer than the
 * machine's pci.ids: ROCm/legacy-rocm-build#624's "Advanced Micro Devices, Inc. [AMD/ATI]
 * Device 687f"). The ids printed are read; a vendor's id is not taken from its name. */
static void unnamed_ids(const char *s, struct device *d)
{
	static const char *const vendors[] = { "NVIDIA Corporation",
					       "Advanced Micro Devices, Inc. [AMD/ATI]",
					       "Intel Corporation" };

	if (strncmp(s, "Device ", 7) == 0 && hex_run(s + 7, 4) && s[11] == ':' &&
	    hex4_word(s + 12)) {
		d->ids = sscanf(s + 7, "%4x:%4x", &d->vendor, &d->device) == 2;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(vendors); i++) {
		size_t n = strlen(vendors[i]);

		if (strncmp(s, vendors[i], n) == 0 && strncmp(s + n, " Device ", 8) == 0 &&
		    hex4_word(s + n + 8)) {
			d->device_only = sscanf(s + n + 8, "%4x", &d->device) == 1;
			return;
		}
	}
}

/* The device line after the bus id: its class and ids, in any of lspci's three forms. */
static void classify(const char *rest, struct device *d)
{
	static const struct {
		const char *name;
		unsigned class;
	} names[] = { { "VGA compatible controller", 0x0300 },
		      { "3D controller", 0x0302 },
		      { "Display controller", 0x0380 },
		      { "Processing accelerators", 0x1200 } };
	const char *colon;

	*d = (struct device){ 0 };
	if (hex_run(rest, 4) && rest[4] == ':' && rest[5] == ' ' && hex_run(rest + 6, 4) &&
	    rest[10] == ':' && hex_run(rest + 11, 4)) { /* -n */
		sscanf(rest, "%4x: %4x:%4x", &d->class, &d->vendor, &d->device);
		d->ids = true;
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			if (strncmp(rest, names[i].name, strlen(names[i].name)) == 0)
				d->class = names[i].class;
		const char *b = strchr(rest, '[');
		if (b && hex_run(b + 1, 4) && b[5] == ']' && b[6] == ':')
			sscanf(b + 1, "%4x", &d->class); /* -nn */
		colon = strstr(rest, ": ");
		if (!d->class || !colon)
			return;
		d->vendor_name = vendor_of_name(colon + 2);
		d->ids = bracket_ids(colon + 2, &d->vendor, &d->device);
		if (!d->ids)
			unnamed_ids(colon + 2, d);
	}
	const char *vendor = d->ids ? vendor_of_id(d->vendor) : d->vendor_name;
	d->gpu = (d->class >> 8) == 0x03 || ((d->class >> 8) == 0x12 && vendor);
}

static void put_id(struct pasted_out *o, unsigned no, unsigned id, const char *key, size_t gpu)
{
	char v[8];

	snprintf(v, sizeof(v), "0x%04x", id & 0xffffu);
	pasted_put(o, no, v, "hardware.gpus.%zu.%s", gpu, key);
}

/* lspci -vv's link lines of the GPU's PCI Express capability (pciutils ls-caps.c
 * cap_express_link(): "LnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM …", "LnkSta:\tSpeed
 * 2.5GT/s (downgraded), Width x8 (downgraded)", the marks since pciutils 3.6): the speed as
 * lspci writes it ("2.5GT/s"; the rules read it as sysfs's "2.5 GT/s PCIe") and the width, as
 * max_link_* (LnkCap) or current_link_* (LnkSta). "Speed unknown" or a width it does not
 * print as a number is not read. */
static void put_link(struct pasted_out *o, unsigned no, const char *v, const char *which,
		     size_t gpu)
{
	const char *sp = strstr(v, "Speed "), *w = strstr(v, "Width x");
	char speed[16];
	size_t n = 0;
	unsigned width;

	if (sp) {
		sp += 6;
		while (n < 5 && (isdigit((unsigned char)sp[n]) || (n && sp[n] == '.')))
			n++;
		if (n && isdigit((unsigned char)sp[n - 1]) && strncmp(sp + n, "GT/s", 4) == 0) {
			snprintf(speed, sizeof(speed), "%.*sGT/s", (int)n, sp);
			pasted_put(o, no, speed, "hardware.gpus.%zu.%s_link_speed", gpu, which);
		}
	}
	if (w && isdigit((unsigned char)w[7]) && sscanf(w + 7, "%2u", &width) == 1 && width) {
		snprintf(speed, sizeof(speed), "%u", width);
		pasted_put(o, no, speed, "hardware.gpus.%zu.%s_link_width", gpu, which);
	}
}

/* "[ ... ]", "...": where the one who pasted the block cut lines out of it; the device's lines
 * go on after it (no count of the bus from a listing cut so). */
static bool elision(const char *s)
{
	return *s && strspn(s, "[]. ") == strlen(s) && strstr(s, "...");
}

/* What the current GPU's indented lines showed of its kernel driver. */
struct k_block {
	bool subsystem, modules, driver;
	unsigned line; /* the GPU's own line */
};

/* The GPU's block ended (by_device: at the next device's line): record "no driver bound"
 * where the block shows it (see the top of the file). */
static void k_block_end(struct pasted_out *o, const struct k_block *k, size_t gpu, bool by_device)
{
	char path[64];

	if (gpu == SIZE_MAX || k->driver || !(k->modules || (k->subsystem && by_device)))
		return;
	snprintf(path, sizeof(path), "hardware.gpus.%zu.driver", gpu);
	if (pasted_facts_get(o->f, path))
		return; /* the same GPU shown bound in another listing of the paste */
	pasted_put_absent(o, k->line, "no \"Kernel driver in use:\" line in lspci -k's block", "%s",
			  path);
}

/* With no device open and no listing under way, a line (p[0..n), as the text holds it) that
 * changes nothing: it cannot be a device's line (a hex digit first, a ':' in it: bus_id()),
 * and an elision ("...") would only end an unbroken listing already ended when whole is
 * false. Most lines of a long log: passed without the copy and the tests of each form. */
static bool idle(const char *p, size_t n, bool whole)
{
	const char *s = p, *e = p + n;

	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f'))
		s++;
	if (s < e && isxdigit((unsigned char)*s) && memchr(s, ':', (size_t)(e - s)))
		return false;
	if (whole)
		for (const char *q = s; (q = memchr(q, '.', (size_t)(e - q))); q++)
			if (e - q >= 3 && q[1] == '.' && q[2] == '.')
				return false;
	return true;
}

int pasted_read_lspci(const char *text, size_t len, struct pasted_facts *out)
{
	struct k_block k = { 0 };
	struct pasted_out o = { .f = out, .reader = "lspci" };
	struct strmap seen = STRMAP_INIT, all = STRMAP_INIT;
	struct pasted_lines it;
	size_t n = 0, cur = SIZE_MAX, n_devices = 0, n_gpus_listed = 0;
	bool listing = false, whole = false, fresh = false;
	unsigned first_line = 0;
	size_t dummy;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while (o.err >= 0) {
		char bus[16];
		const char *rest, *v, *s, *p;
		struct device d;
		unsigned sv, sd;
		size_t pn;

		if (cur == SIZE_MAX && !listing && pasted_lines_peek(&it, &p, &pn) &&
		    idle(p, pn, whole)) {
			pasted_lines_skip(&it, pn);
			continue;
		}
		if (!(line = pasted_lines_next(&it)))
			break;
		s = pasted_strip(line);
		if (bus_id(s, bus, sizeof(bus), &rest)) {
			classify(rest, &d);
			k_block_end(&o, &k, cur, true);
			k = (struct k_block){ .line = it.no };
			cur = SIZE_MAX;
			/* a listing from the bus's first device on: counted while unbroken */
			if (strcmp(bus + 5, "00:00.0") == 0 && !listing) {
				listing = true;
				whole = true;
				n_devices = 0;
				first_line = it.no;
				strmap_done(&all);
				all = (struct strmap)STRMAP_INIT;
				n_gpus_listed = 0;
			} else if (!listing) {
				whole = false; /* device lines after the listing broke off */
			}
			fresh = false;
			if (listing && strmap_get(&all, bus, &dummy))
				whole = false; /* a device listed twice: two listings run together */
			else if (listing &&
				 (fresh = true, ++n_devices, strmap_put(&all, bus, 0) < 0)) {
				o.err = -ENOMEM;
				break;
			}
			if (!d.gpu)
				continue;
			if (listing && fresh)
				n_gpus_listed++;
			if (!strmap_get(&seen, bus, &cur)) {
				if (n >= GPUS_MAX)
					continue;
				cur = n++;
				if (strmap_put(&seen, bus, cur) < 0) {
					o.err = -ENOMEM;
					break;
				}
			}
			pasted_put(&o, it.no, bus, "hardware.gpus.%zu.bus_id", cur);
			if (d.ids)
				put_id(&o, it.no, d.vendor, "vendor_id", cur);
			if (d.ids || d.device_only)
				put_id(&o, it.no, d.device, "device_id", cur);
			v = d.ids ? vendor_of_id(d.vendor) : d.vendor_name;
			if (v)
				pasted_put(&o, it.no, v, "hardware.gpus.%zu.vendor", cur);
		} else if (cur != SIZE_MAX && (v = pasted_after(s, "Kernel driver in use:"))) {
			char drv[64];

			k.driver = true;
			if (pasted_token(v, drv, sizeof(drv)))
				pasted_put(&o, it.no, drv, "hardware.gpus.%zu.driver", cur);
		} else if (cur != SIZE_MAX && (v = pasted_after(s, "Subsystem:"))) {
			k.subsystem = true;
			if (bracket_ids(v, &sv, &sd)) {
				put_id(&o, it.no, sv, "subsystem_vendor_id", cur);
				put_id(&o, it.no, sd, "subsystem_device_id", cur);
			}
		} else if (cur != SIZE_MAX &&
			   ((v = pasted_after(s, "LnkCap:")) || (v = pasted_after(s, "LnkSta:")))) {
			put_link(&o, it.no, v, s[3] == 'C' ? "max" : "current", cur);
		} else if (cur != SIZE_MAX && pasted_after(s, "Kernel modules:")) {
			k.modules = true;
		} else if (elision(s)) {
			listing = whole = false; /* lines cut: the count is not the bus's */
		} else if (line[0] != ' ' && line[0] != '\t' && !pasted_after(s, "Kernel ") &&
			   !strchr(s, ':')) {
			k_block_end(&o, &k, cur, false);
			k = (struct k_block){ 0 };
			cur = SIZE_MAX; /* prose or another tool: the device's lines ended */
			if (*s)
				listing = false;
		}
	}
	k_block_end(&o, &k, cur, false);
	/* every device of the bus (hardware.pci_devices, what the rules need to know that no GPU
	 * is missing) only from one listing that starts at 00:00.0, as lspci's unfiltered output
	 * does; a `| grep VGA` paste gives the GPUs it shows and no count */
	/* …and holds every GPU read (not one grep'd out before it) */
	if (whole && n_gpus_listed == n && n_devices && o.err >= 0) {
		char count[24];

		snprintf(count, sizeof(count), "%zu", n_devices);
		pasted_put(&o, first_line, count, "hardware.pci_devices");
	}
	strmap_done(&all);
	pasted_lines_done(&it);
	strmap_done(&seen);
	return pasted_out_result(&o);
}
