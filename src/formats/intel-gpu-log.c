// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Intel GPU firmware and probe lines of the kernel log (intel-gpu-log.h names the formats
 * and the driver sources that print them). No I/O.
 */
#include <string.h>
#include <strings.h>

#include "intel-gpu-log.h"
#include "shared/macro.h"

static void copy_n(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "0000:03:00.0" (domain:bus:device.function, hex), as dev_printk() names a PCI device. */
static bool is_pci_address(const char *s, size_t n)
{
	static const char shape[] = "xxxx:xx:xx.x";

	if (n != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; i < n; i++)
		if (shape[i] == 'x' ? !strchr("0123456789abcdefABCDEF", s[i]) || !s[i]
				    : s[i] != shape[i])
			return false;
	return true;
}

/* The driver prefix "i915 0000:03:00.0: " or "xe 0000:03:00.0: " anywhere in the line: returns
 * the message after it, or NULL. */
static const char *driver_message(const char *line, char *driver, size_t dlen, char *bus,
				  size_t blen)
{
	static const char *const drivers[] = { "i915 ", "xe " };

	for (size_t d = 0; d < ARRAY_SIZE(drivers); d++) {
		size_t dl = strlen(drivers[d]);

		for (const char *p = strstr(line, drivers[d]); p; p = strstr(p + 1, drivers[d])) {
			const char *b = p + dl;
			size_t n = strcspn(b, ": \t");

			/* the driver name starts a word: line start, or after a space or ']' */
			if (p != line && p[-1] != ' ' && p[-1] != ']')
				continue;
			while (b[n] == ':' && n < 12)
				n += 1 + strcspn(b + n + 1, ": \t");
			if (!is_pci_address(b, n) || b[n] != ':')
				continue;
			copy_n(driver, dlen, drivers[d], dl - 1);
			copy_n(bus, blen, b, n);
			return b + n + 1 + strspn(b + n + 1, " ");
		}
	}
	return NULL;
}

/* "<word><digit>: " at m ("GT0: ", "Tile0: "): its length, else 0. */
static size_t numbered_prefix(const char *m, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(m, word, n) == 0 && m[n] >= '0' && m[n] <= '9' && m[n + 1] == ':' &&
	    m[n + 2] == ' ')
		return n + 3;
	return 0;
}

/* Drops "[drm] ", "*ERROR* ", "Tile0: " (xe names the tile first: "[drm] Tile0: GT0: GuC
 * firmware xe/bmg_guc_70.bin: fetch failed", drivers/gpu/drm/xe/xe_gt_printk.h) and "GT0: "
 * (any order, each once) from the message's start. */
static const char *strip_prefixes(const char *m)
{
	for (int i = 0; i < 4; i++) {
		if (strncmp(m, "[drm] ", 6) == 0)
			m += 6;
		if (strncmp(m, "*ERROR* ", 8) == 0)
			m += 8;
		m += numbered_prefix(m, "Tile");
		m += numbered_prefix(m, "GT");
	}
	return m;
}

static const char *const kinds[] = { "GuC", "HuC", "DMC", "GSC" };

/* The firmware kind the message is about: its first word, case-insensitively ("GUC: …"). */
static const char *message_kind(const char *m)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (strncasecmp(m, kinds[i], 3) == 0 && (m[3] == ' ' || m[3] == ':'))
			return kinds[i];
	return NULL;
}

/* A token up to a space, ':', ',' or ')' into buf. */
static void take_token(const char *s, char *buf, size_t len)
{
	copy_n(buf, len, s, strcspn(s, " \t:,)\n"));
}

/* Version after "version " or inside "(v2.8)" / "(70.12.1)". */
static void take_version_after(const char *s, char *buf, size_t len)
{
	const char *v = strstr(s, " version ");

	if (v) {
		take_token(v + 9, buf, len);
		return;
	}
	v = strchr(s, '(');
	if (v) {
		v += v[1] == 'v' ? 2 : 1;
		take_token(v, buf, len);
	}
}

static bool classify(const char *m, struct intel_log_event *e)
{
	const char *k = message_kind(m), *p;

	e->file[0] = e->version[0] = '\0';
	if (strncmp(m, "Your graphics device ", 21) == 0 &&
	    (strstr(m, "not properly supported") || strstr(m, "not officially supported"))) {
		copy_n(e->kind, sizeof(e->kind), "probe", 5);
		e->state = INTEL_FW_FORCE_PROBE;
		take_token(m + 21, e->file, sizeof(e->file));
		return true;
	}
	if (strncmp(m, "Using ", 6) == 0 && message_kind(m + 6) &&
	    strncmp(m + 9, " firmware from ", 15) == 0) {
		/* xe: "Using GuC firmware from i915/dg2_guc_70.bin version 70.36.0" */
		copy_n(e->kind, sizeof(e->kind), message_kind(m + 6), 3);
		e->state = INTEL_FW_LOADED;
		take_token(m + 24, e->file, sizeof(e->file));
		take_version_after(m + 24, e->version, sizeof(e->version));
		return true;
	}
	if (strncmp(m, "Finished loading ", 17) == 0 && message_kind(m + 17) &&
	    strncmp(m + 20, " firmware ", 10) == 0) {
		copy_n(e->kind, sizeof(e->kind), message_kind(m + 17), 3);
		e->state = INTEL_FW_LOADED;
		take_token(m + 30, e->file, sizeof(e->file));
		take_version_after(m + 30, e->version, sizeof(e->version));
		return true;
	}
	if (!k)
		return false;
	copy_n(e->kind, sizeof(e->kind), k, 3);
	if (strncmp(m + 3, " firmware ", 10) == 0) {
		p = m + 13;
		take_token(p, e->file, sizeof(e->file));
		if (strstr(p, "fetch failed")) {
			e->state = INTEL_FW_FETCH_FAILED;
			return true;
		}
		if (strstr(p, "is recommended, but only")) {
			e->state = INTEL_FW_OUTDATED;
			take_version_after(p, e->version, sizeof(e->version));
			return true;
		}
		if (strstr(p, "load failed") || strstr(p, "initialization failed")) {
			e->state = INTEL_FW_LOAD_FAILED;
			return true;
		}
		if (strstr(p, " version ")) {
			e->state = INTEL_FW_LOADED;
			take_version_after(p, e->version, sizeof(e->version));
			return true;
		}
		return false;
	}
	/* "GUC: load failed: status = …", "GuC initialization failed -ENOEXEC", "HuC: load
	 * failed", "HuC: authenticated for all workloads" */
	if (strstr(m, "load failed") || strstr(m, "initialization failed") ||
	    strstr(m, "authentication failed")) {
		e->state = INTEL_FW_LOAD_FAILED;
		return true;
	}
	if (strstr(m, ": authenticated")) {
		e->state = INTEL_FW_AUTHENTICATED;
		return true;
	}
	return false;
}

static void add_event(struct intel_log *l, const struct intel_log_event *e)
{
	for (size_t i = 0; i < l->n_ev; i++) {
		struct intel_log_event *o = &l->ev[i];

		if (streq(o->driver, e->driver) && streq(o->bus, e->bus) &&
		    streq(o->kind, e->kind) && o->state == e->state) {
			*o = *e;
			return;
		}
	}
	if (l->n_ev < INTEL_LOG_EVENTS_MAX)
		l->ev[l->n_ev++] = *e;
	else
		l->dropped++;
}

int intel_gpu_log_parse(const char *text, size_t len, struct intel_log *ret)
{
	const char *p = text, *end;
	uint64_t lineno = 0;
	char line[1024];

	memset(ret, 0, sizeof(*ret));
	end = text + strnlen(text, len);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct intel_log_event e = { .line = ++lineno };
		const char *m;

		copy_n(line, sizeof(line), p, n);
		p += n + (nl ? 1 : 0);
		m = driver_message(line, e.driver, sizeof(e.driver), e.bus, sizeof(e.bus));
		if (!m)
			continue;
		copy_n(e.text, sizeof(e.text), m, strlen(m));
		if (classify(strip_prefixes(m), &e))
			add_event(ret, &e);
	}
	return 0;
}

const char *intel_fw_state_name(enum intel_fw_state s)
{
	switch (s) {
	case INTEL_FW_LOADED:
		return "loaded";
	case INTEL_FW_FETCH_FAILED:
		return "fetch_failed";
	case INTEL_FW_LOAD_FAILED:
		return "load_failed";
	case INTEL_FW_OUTDATED:
		return "outdated";
	case INTEL_FW_AUTHENTICATED:
		return "authenticated";
	case INTEL_FW_FORCE_PROBE:
		return "force_probe_needed";
	}
	return "?";
}
