// SPDX-License-Identifier: LGPL-2.1-or-later
/* The kernel's messages for the errors reader: see pasted-errors-kernel.h. */
#include "formats/pasted-errors-kernel.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/kernel-log.h"
#include "shared/count-lines.h"

struct line {
	const char *p;
	size_t n;
};

/* The first "NVRM: " in p[0..n), or NULL: memchr on its 'N' and a comparison there, not
 * memmem, whose set-up cost more than the search on the short lines of a log (callgrind:
 * 160 calls, 38,871 instructions, in explain of the bench's 20 KB paste). */
static const char *find_nvrm(const char *p, size_t n)
{
	const char *end = p + n;

	while ((size_t)(end - p) >= 6 && (p = memchr(p, 'N', (size_t)(end - p) - 5))) {
		if (memcmp(p, "NVRM: ", 6) == 0)
			return p;
		p++;
	}
	return NULL;
}

/* Does p[0..end) start with s? */
static bool at(const char *p, const char *end, const char *s)
{
	size_t k = strlen(s);

	return (size_t)(end - p) >= k && memcmp(p, s, k) == 0;
}

/* Does the NVRM line at p (n bytes) continue the message whose first line is `first`, its
 * "NVRM: " at first_nvrm? Its part before "NVRM: " is blank (dmesg and journalctl indent
 * a record's later lines) or the first line's own "[sec.usec]" prefix (syslog repeats it);
 * a new Xid or API mismatch starts a message of its own. */
static bool continues(const struct line *first, const char *first_nvrm, const char *p, size_t n)
{
	const char *m = find_nvrm(p, n);
	size_t pre, first_pre = (size_t)(first_nvrm - first->p);
	bool blank = true;

	if (!m || at(m, p + n, "NVRM: Xid (") || at(m, p + n, "NVRM: API mismatch"))
		return false;
	pre = (size_t)(m - p);
	for (size_t i = 0; i < pre && blank; i++)
		blank = isspace((unsigned char)p[i]);
	return blank || (pre == first_pre && memchr(p, '[', pre) && memchr(p, ']', pre) &&
			 memcmp(p, first->p, pre) == 0);
}

/* The text so far does not end a sentence: the message goes on on the next line. */
static bool ends_open(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n > 0 && s[n - 1] != '.' && s[n - 1] != '!';
}

size_t pasted_nvrm_join(const char *lp, size_t ln, const char *end, char *buf, size_t cap,
			size_t max_lines, size_t *ret_lines)
{
	const struct line l = { .p = lp, .n = ln };
	const char *nvrm = find_nvrm(l.p, l.n), *p = l.p + l.n;
	size_t o = l.n, k = 0;

	if (!nvrm || l.n >= cap)
		return 0;
	memcpy(buf, l.p, l.n);
	while (k < max_lines && p < end && ends_open(buf, o)) {
		const char *s = p + 1, *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;
		const char *m;

		if (!continues(&l, nvrm, s, (size_t)(e - s)))
			break;
		m = find_nvrm(s, (size_t)(e - s)) + 6;
		if (o + 1 + (size_t)(e - m) >= cap)
			break;
		buf[o++] = ' ';
		memcpy(buf + o, m, (size_t)(e - m));
		o += (size_t)(e - m);
		p = e;
		k++;
	}
	if (k == 0)
		return 0;
	*ret_lines = k;
	return o;
}

/* The line (from 1) at which text[0..len) holds needle first; 0 when it does not. */
static unsigned line_of(const char *text, size_t len, const char *needle)
{
	const char *m = memmem(text, len, needle, strlen(needle));

	return m ? 1 + (unsigned)count_newlines(text, (size_t)(m - text)) : 0;
}

/* The last line (from 1) of text[0..len) holding needle; 0 when none does. */
static unsigned last_line_of(const char *text, size_t len, const char *needle)
{
	const char *p = text, *end = text + len, *m;
	unsigned line = 1, last = 0;

	while ((m = memmem(p, (size_t)(end - p), needle, strlen(needle)))) {
		line += (unsigned)count_newlines(p, (size_t)(m - p));
		last = line;
		p = m + strlen(needle);
	}
	return last;
}

/*
 * A GPU the driver release refused (nv.c: "NVRM: The NVIDIA GPU 0000:8a:00.0 (PCI ID:
 * 10de:26b9) installed in this system is not supported by the NVIDIA 470.256.02 driver
 * release."; ZaidQureshi/bam#38), as the kernel-log probe writes it
 * (driver.kernel_log.unsupported_gpus.N: bus_id, pci_id, driver_version, count), and the GPU
 * the message names at its bus (hardware.gpus.N: bus_id, vendor_id, device_id: the kernel says
 * it is installed). When every GPU was refused ("NVRM: None of the NVIDIA devices were
 * initialized.") and no module loaded after it ("NVRM: loading NVIDIA UNIX …" prints once
 * the probe succeeded), nvidia.ko's init failed and it is not loaded: the module's version is
 * absent (driver.nvidia.module_version, proc_version), which lets the rules judge the release
 * that refused the GPU (driver.branch-predates-gpu).
 */
static int read_unsupported(const struct klog *k, const char *text, size_t len, const char *reader,
			    struct pasted_facts *out)
{
	static const char none[] = "NVRM: None of the NVIDIA devices were initialized";
	unsigned none_line, loaded_line;
	char path[96], needle[64], id[8];
	int n = 0, r = 0;

	for (size_t i = 0; i < k->n_unsupported && r >= 0; i++) {
		const struct klog_unsupported_gpu *u = &k->unsupported[i];
		unsigned line;

		snprintf(needle, sizeof(needle), "NVRM: The NVIDIA GPU %s", u->bus);
		line = line_of(text, len, needle);
		if (!line)
			continue; /* the parse read it: not reached (a NUL cuts both alike) */
		snprintf(path, sizeof(path), "driver.kernel_log.unsupported_gpus.%zu.bus_id", i);
		r = pasted_facts_add(out, reader, path, u->bus, line);
		snprintf(path, sizeof(path), "driver.kernel_log.unsupported_gpus.%zu.pci_id", i);
		if (r >= 0)
			r = pasted_facts_add(out, reader, path, u->pci_id, line);
		snprintf(path, sizeof(path),
			 "driver.kernel_log.unsupported_gpus.%zu.driver_version", i);
		if (r >= 0)
			r = pasted_facts_add(out, reader, path, u->driver_version, line);
		snprintf(path, sizeof(path), "driver.kernel_log.unsupported_gpus.%zu.count", i);
		if (r >= 0)
			r = pasted_facts_addf(out, reader, path, line, "%llu",
					      (unsigned long long)u->count);
		snprintf(path, sizeof(path), "hardware.gpus.%zu.bus_id", i);
		if (r >= 0)
			r = pasted_facts_add(out, reader, path, u->bus, line);
		/* "10de:26b9": the ids as the PCI probe writes them ("0x10de") */
		snprintf(id, sizeof(id), "0x%.4s", u->pci_id);
		snprintf(path, sizeof(path), "hardware.gpus.%zu.vendor_id", i);
		if (r >= 0)
			r = pasted_facts_add(out, reader, path, id, line);
		snprintf(id, sizeof(id), "0x%.4s", u->pci_id + 5);
		snprintf(path, sizeof(path), "hardware.gpus.%zu.device_id", i);
		if (r >= 0)
			r = pasted_facts_add(out, reader, path, id, line);
		n += 7;
	}
	if (r < 0 || !k->n_unsupported)
		return r < 0 ? r : n;
	none_line = last_line_of(text, len, none);
	loaded_line = last_line_of(text, len, "NVRM: loading NVIDIA UNIX ");
	if (none_line && loaded_line < none_line) {
		r = pasted_facts_add_absent(out, reader, "driver.nvidia.module_version", none,
					    none_line);
		if (r >= 0)
			r = pasted_facts_add_absent(out, reader, "driver.nvidia.proc_version", none,
						    none_line);
		n += 2;
	}
	return r < 0 ? r : n;
}

/* Xid events and the API mismatch, as the kernel log parser reads them (from the text whole,
 * or its NVRM lines: nvrm_text). */
static int read_kernel_log(const char *text, size_t len, const char *reader,
			   struct pasted_facts *out)
{
	struct klog *k = NULL;
	char path[96];
	size_t base = 0;
	int n = 0, r;

	r = kernel_log_parse_nvrm(text, len, &k); /* what it reads is the NVRM lines' alone */
	if (r < 0)
		return r;
	/* numbered on from the events of the windows of a large input read before this one */
	for (;; base++) {
		snprintf(path, sizeof(path), "driver.xid_events.%zu.code", base);
		if (!pasted_facts_get(out, path))
			break;
	}
	for (size_t i = 0; i < k->n_ev && r >= 0; i++) {
		const struct xid_event *e = &k->ev[i];
		unsigned line = (unsigned)e->line;

		snprintf(path, sizeof(path), "driver.xid_events.%zu.code", base + i);
		r = pasted_facts_addf(out, reader, path, line, "%u", e->code);
		snprintf(path, sizeof(path), "driver.xid_events.%zu.bus_id", base + i);
		if (r >= 0)
			r = pasted_facts_add(out, reader, path, e->bus, line);
		snprintf(path, sizeof(path), "driver.xid_events.%zu.count", base + i);
		if (r >= 0)
			r = pasted_facts_addf(out, reader, path, line, "%llu",
					      (unsigned long long)e->count);
		snprintf(path, sizeof(path), "driver.xid_events.%zu.text", base + i);
		if (r >= 0 && e->text[0])
			r = pasted_facts_add(out, reader, path, e->text, line);
		n += 3;
	}
	if (r >= 0 && k->mismatch_count && k->client_version[0] && k->kernel_version[0]) {
		/* the kernel's message kernel_log_parse read, not any earlier "API mismatch" */
		const char *m = memmem(text, len, "NVRM: API mismatch:", 19);
		unsigned line = m ? 1 + (unsigned)count_newlines(text, (size_t)(m - text)) : 1;

		r = pasted_facts_add(out, reader, "driver.kernel_log.api_mismatch.client_version",
				     k->client_version, line);
		if (r >= 0)
			r = pasted_facts_add(out, reader,
					     "driver.kernel_log.api_mismatch.kernel_version",
					     k->kernel_version, line);
		if (r >= 0)
			r = pasted_facts_addf(out, reader, "driver.kernel_log.api_mismatch.count",
					      line, "%llu", (unsigned long long)k->mismatch_count);
		n += 3;
	}
	if (r >= 0 && k->open_dc_only) {
		/* the open module's refusal of a GPU not of a data center (rule
		 * driver.open-module-datacenter-only); its line, the first such one */
		static const char dc[] = "NVRM: Open nvidia.ko is only ready for use on Data";
		const char *m = memmem(text, len, dc, strlen(dc));
		unsigned line = m ? 1 + (unsigned)count_newlines(text, (size_t)(m - text)) : 1;

		r = pasted_facts_addf(out, reader,
				      "driver.kernel_log.open_module_datacenter_only.count", line,
				      "%llu", (unsigned long long)k->open_dc_only);
		n += 1;
	}
	for (size_t i = 0; r >= 0 && i < k->n_open_required; i++) {
		/* the proprietary module's refusal of a GPU only the open one initialises (rule
		 * driver.proprietary-module-refuses-gpu), at its first line */
		const struct klog_unsupported_gpu *u = &k->open_required[i];
		char needle[64];
		unsigned line;

		snprintf(needle, sizeof(needle), "NVRM: The NVIDIA GPU %s", u->bus);
		line = line_of(text, len, needle);
		if (!line)
			continue;
		snprintf(path, sizeof(path), "driver.kernel_log.open_required_gpus.%zu.bus_id", i);
		r = pasted_facts_add(out, reader, path, u->bus, line);
		snprintf(path, sizeof(path), "driver.kernel_log.open_required_gpus.%zu.pci_id", i);
		if (r >= 0)
			r = pasted_facts_add(out, reader, path, u->pci_id, line);
		snprintf(path, sizeof(path), "driver.kernel_log.open_required_gpus.%zu.count", i);
		if (r >= 0)
			r = pasted_facts_addf(out, reader, path, line, "%llu",
					      (unsigned long long)u->count);
		n += 3;
	}
	if (r >= 0) {
		int u = read_unsupported(k, text, len, reader, out);

		r = u < 0 ? u : r;
		n += u < 0 ? 0 : u;
	}
	free(k);
	return r < 0 ? r : n;
}

void pasted_nvrm_text_init(struct pasted_nvrm_text *t, const char *text, size_t len)
{
	*t = (struct pasted_nvrm_text){ .text = text,
					.len = len,
					.whole = memchr(text, '\0', len) != NULL };
}

int pasted_nvrm_text_line(struct pasted_nvrm_text *t, const char *p, size_t n, unsigned no,
			  bool nvrm)
{
	if (t->whole)
		return 0;
	if (!t->buf) {
		if (!nvrm)
			return 0;
		/* every line and its "\n" at most: the text and one "\n" for its last line */
		t->buf = malloc(t->len + 1);
		if (!t->buf)
			return -ENOMEM;
		memset(t->buf, '\n', no - 1); /* the lines before */
		t->n = no - 1;
	}
	if (nvrm) {
		memcpy(t->buf + t->n, p, n);
		t->n += n;
	}
	t->buf[t->n++] = '\n';
	return 0;
}

int pasted_nvrm_text_read(const struct pasted_nvrm_text *t, const char *reader,
			  struct pasted_facts *out)
{
	if (t->whole)
		return read_kernel_log(t->text, t->len, reader, out);
	return t->buf ? read_kernel_log(t->buf, t->n, reader, out) : 0; /* no NVRM line */
}

void pasted_nvrm_text_done(struct pasted_nvrm_text *t)
{
	free(t->buf);
	t->buf = NULL;
}
