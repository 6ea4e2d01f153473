// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of the log lines in which TensorFlow (and XLA under it, as JAX runs it) names a GPU's
 * compute capability, as pasted (`gpuenv explain`). TensorFlow's gpu_device.cc prints
 *
 *     Created TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with 10175 MB
 *     memory) -> physical GPU (device: 0, name: Tesla T4, pci bus id: 0000:00:07.0, compute
 *     capability: 7.5)
 *     Ignoring visible gpu device (device: 0, name: GeForce 820M, pci bus id: 0000:08:00.0,
 *     compute capability: 2.1) with Cuda compute capability 2.1. The minimum required …
 *     TensorFlow was not built with CUDA kernel binaries compatible with compute capability
 *     9.0. CUDA kernels will be jit-compiled from PTX, which could take 30 minutes or longer.
 *
 * (one line each; tensorflow/tensorflow#62170, #24227, #60739), and under "Found device N with
 * properties:" the device's properties: since TensorFlow 2.1 on one line, "pciBusID:
 * 0000:01:00.0 name: NVIDIA GeForce GTX 1660 Ti computeCapability: 7.5" (#50562), before that
 * "name: GeForce 820M major: 2 minor: 1 memoryClockRate(GHz): 1.25" (#24227, or "major: 5
 * minor: 0 memoryClockRate…" on a line of its own, #10656). XLA's asm_compiler.cc prints
 * "Falling back to the CUDA driver for PTX compilation; ptxas does not support CC 9.0"
 * (openxla/xla#5932) when the ptxas it found is older than the GPU.
 *
 * Facts: driver.cuda.devices[N].compute_capability ("7.5") and .name, N the device's CUDA
 * ordinal as TensorFlow prints it ("device: 0", "Found device 0"). The two messages that name
 * a capability but no device (not built for it, ptxas too old) give device 0's only when no line
 * of the text names a device: TensorFlow prints them for one of the devices it lists.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define CC_MAX	     8
#define DEV_NAME_MAX 128

#define DEVICE_OPEN "(device: "
#define DEVICE_NAME ", name: "
#define DEVICE_BUS  ", pci bus id: "
#define DEVICE_CC   ", compute capability: "
#define OLD_WITH    ") with Cuda compute capability "
#define FOUND	    "Found device "
#define PROPS_NAME  " name: "
#define PROPS_CC    " computeCapability: "
#define OLD_MAJOR   "major: "
#define OLD_MINOR   " minor: "
#define NOT_BUILT                                                                                  \
	"TensorFlow was not built with CUDA kernel binaries compatible with compute capability "
#define PTXAS_TOO_OLD "ptxas does not support CC "

/* "M.m" at s (1-2 digits each), copied into buf; *ret_end past it. false otherwise. */
static bool cc_at(const char *s, char *buf, size_t len, const char **ret_end)
{
	size_t major = strspn(s, "0123456789"), minor;

	if (major == 0 || major > 2 || s[major] != '.')
		return false;
	minor = strspn(s + major + 1, "0123456789");
	if (minor == 0 || minor > 2 || major + 1 + minor >= len)
		return false;
	memcpy(buf, s, major + 1 + minor);
	buf[major + 1 + minor] = '\0';
	if (ret_end)
		*ret_end = s + major + 1 + minor;
	return true;
}

/* The text from s to the first `stop` (or the line's end when stop is NULL) into buf, trimmed
 * by pasted_put; false when stop is missing or the name does not fit. */
static bool name_until(const char *s, const char *stop, char *buf, size_t len)
{
	const char *e = stop ? strstr(s, stop) : s + strlen(s);
	size_t n;

	if (!e)
		return false;
	n = (size_t)(e - s);
	if (n == 0 || n >= len)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* "(device: N, name: NAME, pci bus id: BUS, compute capability: M.m)" anywhere in s, or
 * before TensorFlow 1.5 "(device: N, name: NAME, pci bus id: BUS) with Cuda compute capability
 * M.m" (tensorflow/tensorflow#6083): true when read (its facts put). */
static bool read_device_paren(struct pasted_out *o, unsigned no, const char *s)
{
	const char *p = strstr(s, DEVICE_OPEN), *rest, *bus, *cc, *close, *end;
	char name[DEV_NAME_MAX], v[CC_MAX];
	unsigned dev;

	if (!p || !pasted_index(p + strlen(DEVICE_OPEN), &dev, &rest) ||
	    strncmp(rest, DEVICE_NAME, strlen(DEVICE_NAME)) != 0)
		return false;
	rest += strlen(DEVICE_NAME);
	if (!(bus = strstr(rest, DEVICE_BUS)) || !(close = strchr(bus, ')')))
		return false;
	if ((cc = strstr(bus, DEVICE_CC)) && cc < close) {
		if (!cc_at(cc + strlen(DEVICE_CC), v, sizeof(v), &end) || end != close)
			return false;
	} else if (strncmp(close, OLD_WITH, strlen(OLD_WITH)) != 0 ||
		   !cc_at(close + strlen(OLD_WITH), v, sizeof(v), NULL)) {
		return false;
	}
	pasted_put(o, no, v, "driver.cuda.devices.%u.compute_capability", dev);
	if (name_until(rest, DEVICE_BUS, name, sizeof(name)))
		pasted_put(o, no, name, "driver.cuda.devices.%u.name", dev);
	return true;
}

/* "pciBusID: … name: NAME computeCapability: M.m" (TensorFlow 2.1+), for device dev. */
static bool read_properties(struct pasted_out *o, unsigned no, const char *s, unsigned dev)
{
	const char *cc = strstr(s, PROPS_CC), *nm = strstr(s, PROPS_NAME), *end;
	char name[DEV_NAME_MAX], v[CC_MAX];

	if (!cc || !cc_at(cc + strlen(PROPS_CC), v, sizeof(v), &end) ||
	    (*end != '\0' && *end != ' '))
		return false;
	pasted_put(o, no, v, "driver.cuda.devices.%u.compute_capability", dev);
	if (nm && nm < cc && name_until(nm + strlen(PROPS_NAME), PROPS_CC, name, sizeof(name)))
		pasted_put(o, no, name, "driver.cuda.devices.%u.name", dev);
	return true;
}

/* "[name: NAME ]major: M minor: m memoryClockRate(GHz): …" (TensorFlow 1.x), for device dev. */
static bool read_major_minor(struct pasted_out *o, unsigned no, const char *s, unsigned dev)
{
	const char *p = strstr(s, OLD_MAJOR), *q, *r;
	char name[DEV_NAME_MAX], v[CC_MAX];
	unsigned major, minor;

	if (!p || (p != s && p[-1] != ' ') || !strstr(p, "memoryClockRate") ||
	    !pasted_index(p + strlen(OLD_MAJOR), &major, &q) ||
	    strncmp(q, OLD_MINOR, strlen(OLD_MINOR)) != 0 ||
	    !pasted_index(q + strlen(OLD_MINOR), &minor, &r) || *r != ' ' || major > 99 ||
	    minor > 99)
		return false;
	snprintf(v, sizeof(v), "%u.%u", major, minor);
	pasted_put(o, no, v, "driver.cuda.devices.%u.compute_capability", dev);
	if (strncmp(s, "name: ", 6) == 0 && name_until(s + 6, " " OLD_MAJOR, name, sizeof(name)))
		pasted_put(o, no, name, "driver.cuda.devices.%u.name", dev);
	return true;
}

int pasted_read_tf_device(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "tf-device" };
	struct pasted_lines it;
	bool named_device = false; /* a line of the text named a device's capability */
	bool have_found = false;   /* a "Found device N with properties" line was read */
	unsigned found = 0;	   /* the device it named */
	unsigned bare_no = 0;	   /* the first line naming a capability without a device */
	char bare[CC_MAX] = "", *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		const char *s = pasted_strip(line), *p, *rest;
		unsigned dev;

		if (read_device_paren(&o, it.no, s)) {
			named_device = true;
			continue;
		}
		if ((p = strstr(s, FOUND)) && pasted_index(p + strlen(FOUND), &dev, &rest) &&
		    strncmp(rest, " with properties:", 17) == 0) {
			found = dev;
			have_found = true;
			s = rest + 17;
			while (*s == ' ')
				s++;
		}
		if (have_found && (read_properties(&o, it.no, s, found) ||
				   read_major_minor(&o, it.no, s, found))) {
			named_device = true;
			continue;
		}
		if (bare_no == 0 && (((p = strstr(s, NOT_BUILT)) &&
				      cc_at(p + strlen(NOT_BUILT), bare, sizeof(bare), NULL)) ||
				     ((p = strstr(s, PTXAS_TOO_OLD)) &&
				      cc_at(p + strlen(PTXAS_TOO_OLD), bare, sizeof(bare), NULL))))
			bare_no = it.no;
	}
	pasted_lines_done(&it);
	if (bare_no && !named_device)
		pasted_put(&o, bare_no, bare, "driver.cuda.devices.0.compute_capability");
	return pasted_out_result(&o);
}
