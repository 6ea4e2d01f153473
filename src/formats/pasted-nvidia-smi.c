// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted nvidia-smi output (`gpuenv explain`), in the four forms people paste:
 * - the default table: "| NVIDIA-SMI 535.86.10   Driver Version: 535.86.10   CUDA Version: 12.2 |"
 *   then per GPU "|   0  NVIDIA A800-SXM4-80GB   Off | 00000000:18:00.0 Off |   On |", a line
 *   with "36537MiB / 81920MiB" and, since driver 450, one with the MIG mode ("Enabled");
 *   Windows prints the driver model (WDDM/TCC) where Linux prints the persistence mode;
 * - `nvidia-smi -q`: "Key : value" lines, "GPU 00000000:01:00.0" sections, sub-sections by
 *   indentation ("MIG Mode" / "Current", "FB Memory Usage" / "Total : 81920 MiB");
 * - `nvidia-smi -L`: "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-…)", "  MIG 1g.20gb Device 0:
 *   (UUID: MIG-…)";
 * - `--query-gpu=… --format=csv`: a header of query names ("name, memory.total [MiB]"), then
 *   rows with as many fields.
 * The formats are nvidia-smi(1) and what issue reports show (tests/unit/test-pasted-nvidia-smi.c
 * cites them). Facts go to driver.nvml.* (nvidia-smi is NVML's client), devices by the index
 * nvidia-smi prints (-q: by section order, which is index order).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-text.h"
#include "formats/pasted-readers.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define DEV	     "driver.nvml.devices.%u.%s"
#define CSV_MAX_COLS 64

static unsigned indent_of(const char *s)
{
	unsigned n = 0;

	for (; *s == ' ' || *s == '\t'; s++)
		n += *s == '\t' ? 8 : 1;
	return n;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* "00000000:18:00.0" or the older "0000:03:00.0": domain:bus:device.function. */
static bool is_bus_id(const char *s, size_t n)
{
	size_t i = 0, d = 0;

	while (i < n && is_hex(s[i]))
		i++, d++;
	if (d < 4 || d > 8 || i + 8 != n)
		return false;
	return s[i] == ':' && is_hex(s[i + 1]) && is_hex(s[i + 2]) && s[i + 3] == ':' &&
	       is_hex(s[i + 4]) && is_hex(s[i + 5]) && s[i + 6] == '.' && s[i + 7] >= '0' &&
	       s[i + 7] <= '7';
}

/* Cuts "| a | b | c |" into its cells (trimmed, in place); the count, or -1 when the line is
 * not a table line. */
static int cells(char *line, char **cell, int max)
{
	char *p = line, *bar;
	int n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '|')
		return -1;
	p++;
	while ((bar = strchr(p, '|'))) {
		*bar = '\0';
		if (n < max)
			cell[n] = pasted_strip(p);
		n++;
		p = bar + 1;
	}
	return n;
}

/* --- the default table -------------------------------------------------------------------- */

struct table {
	bool have_row; /* the last GPU row's index is valid for the lines under it */
	unsigned idx, under;
};

static void table_header(struct pasted_out *o, unsigned no, const char *line)
{
	const char *p;
	char v[64];

	if ((p = strstr(line, "Driver Version:")) && pasted_token(p + 15, v, sizeof(v)) &&
	    !pasted_no_value(v))
		pasted_put(o, no, v, "driver.nvml.driver_version");
	if ((p = strstr(line, "CUDA Version:")) && pasted_token(p + 13, v, sizeof(v)) &&
	    !pasted_no_value(v))
		pasted_put(o, no, v, "driver.nvml.cuda_driver_version");
}

/* "0  NVIDIA GeForce RTX 4070        Off": the index, and the name without the last word (the
 * persistence mode, or on Windows the driver model). */
static bool gpu_cell(char *c, unsigned *idx, char **name)
{
	const char *e;
	char *sp;

	if (!pasted_index(c, idx, &e) || (*e != ' ' && *e != '\t'))
		return false;
	c = pasted_strip(c + (e - c));
	sp = strrchr(c, ' ');
	if (!sp)
		return false;
	*sp = '\0';
	*name = pasted_strip(c);
	return **name != '\0';
}

static void table_line(struct pasted_out *o, struct table *t, unsigned no, char *line)
{
	char *c[4], *name, *slash;
	char num[24];
	unsigned idx;
	int n = cells(line, c, 4);

	if (n != 3) {
		t->have_row = false;
		return;
	}
	size_t bl = strcspn(c[1], " \t");
	if (is_bus_id(c[1], bl) && gpu_cell(c[0], &idx, &name)) {
		c[1][bl] = '\0';
		pasted_put(o, no, name, DEV, idx, "name");
		pasted_put(o, no, c[1], DEV, idx, "pci_bus_id");
		t->have_row = true;
		t->idx = idx;
		t->under = 0;
		return;
	}
	if (!t->have_row)
		return;
	t->under++;
	if (t->under == 1 && (slash = strstr(c[1], "MiB /")) &&
	    pasted_number_unit(slash + 5, "MiB", num, sizeof(num))) {
		pasted_put(o, no, num, DEV, t->idx, "memory_total_mib");
		*slash = '\0';
		if (pasted_number_unit(c[1], "MiB", num, sizeof(num)))
			pasted_put(o, no, num, DEV, t->idx, "memory_used_mib");
	} else if (t->under == 2 && !*c[0] && !*c[1] && pasted_bool_word(c[2])) {
		pasted_put(o, no, pasted_bool_word(c[2]), DEV, t->idx, "mig_mode");
	}
}

/* --- nvidia-smi -q ------------------------------------------------------------------------ */

struct query {
	bool in_gpu;
	unsigned idx; /* sections seen */
	char sub[48];
	unsigned sub_indent;
};

struct q_key {
	const char *sub, *key, *path;
	enum { Q_TEXT, Q_BOOL, Q_MIB, Q_C, Q_INT } kind;
};
static const struct q_key q_keys[] = {
	{ NULL, "Product Name", "name", Q_TEXT },
	{ NULL, "Product Architecture", "architecture", Q_TEXT },
	{ NULL, "GPU UUID", "uuid", Q_TEXT },
	{ NULL, "Serial Number", "serial", Q_TEXT },
	{ NULL, "VBIOS Version", "vbios_version", Q_TEXT },
	{ NULL, "Minor Number", "minor_number", Q_INT },
	{ NULL, "Persistence Mode", "persistence_mode", Q_BOOL },
	{ "MIG Mode", "Current", "mig_mode", Q_BOOL },
	{ "MIG Mode", "Pending", "mig_mode_pending", Q_BOOL },
	{ "ECC Mode", "Current", "ecc_mode", Q_BOOL },
	{ "ECC Mode", "Pending", "ecc_mode_pending", Q_BOOL },
	{ "PCI", "Bus Id", "pci_bus_id", Q_TEXT },
	{ "FB Memory Usage", "Total", "memory_total_mib", Q_MIB },
	{ "FB Memory Usage", "Reserved", "memory_reserved_mib", Q_MIB },
	{ "FB Memory Usage", "Used", "memory_used_mib", Q_MIB },
	{ "Temperature", "GPU Current Temp", "temperature_c", Q_C },
};

static void query_key(struct pasted_out *o, struct query *q, unsigned no, const char *key,
		      const char *value)
{
	char num[24];

	for (size_t i = 0; i < ARRAY_SIZE(q_keys); i++) {
		const struct q_key *k = &q_keys[i];

		if (strcmp(k->key, key) != 0 || (k->sub && strcmp(k->sub, q->sub) != 0))
			continue;
		if (pasted_no_value(value))
			return;
		switch (k->kind) {
		case Q_TEXT:
			pasted_put(o, no, value, DEV, q->idx - 1, k->path);
			break;
		case Q_BOOL:
			pasted_put(o, no, pasted_bool_word(value), DEV, q->idx - 1, k->path);
			break;
		case Q_MIB:
		case Q_C:
		case Q_INT:
			if (pasted_number_unit(value, k->kind == Q_MIB ? "MiB" : "C", num,
					       sizeof(num)))
				pasted_put(o, no, num, DEV, q->idx - 1, k->path);
			break;
		}
		return;
	}
}

/* A "Key   : value" line of -q (the key padded to the colon) or a section line. True when it
 * was one. */
static bool query_line(struct pasted_out *o, struct query *q, unsigned no, char *line)
{
	unsigned ind = indent_of(line);
	char *s = pasted_strip(line), *key, *value, *colon;
	size_t l = strlen(s);

	if (strncmp(s, "GPU ", 4) == 0 && is_bus_id(s + 4, l - 4)) {
		q->in_gpu = true;
		q->idx++;
		q->sub[0] = '\0';
		pasted_put(o, no, s + 4, DEV, q->idx - 1, "pci_bus_id");
		return true;
	}
	colon = strstr(s, " :");
	if (!colon) {
		/* A section title ("MIG Mode"): letters, blanks, digits only. */
		if (q->in_gpu && l && l < sizeof(q->sub) &&
		    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			      "abcdefghijklmnopqrstuvwxyz"
			      "0123456789 -") == l) {
			snprintf(q->sub, sizeof(q->sub), "%s", s);
			q->sub_indent = ind;
		}
		return false;
	}
	if (!pasted_kv(s, ':', &key, &value))
		return false;
	if (strcmp(key, "Driver Version") == 0 && !pasted_no_value(value)) {
		pasted_put(o, no, value, "driver.nvml.driver_version");
		return true;
	}
	if (strcmp(key, "CUDA Version") == 0 && !pasted_no_value(value)) {
		pasted_put(o, no, value, "driver.nvml.cuda_driver_version");
		return true;
	}
	if (strcmp(key, "Attached GPUs") == 0) {
		char num[24];

		if (pasted_number_unit(value, NULL, num, sizeof(num)))
			pasted_put(o, no, num, "driver.nvml.device_count");
		return true;
	}
	if (!q->in_gpu)
		return false;
	if (q->sub[0] && ind && ind <= q->sub_indent)
		q->sub[0] = '\0';
	query_key(o, q, no, key, value);
	return true;
}

/* --- nvidia-smi -L ------------------------------------------------------------------------ */

struct list {
	bool have_gpu;
	unsigned idx, mig;
};

/* "  MIG 3g.40gb Device 0: (UUID: MIG-…)" under its GPU (s the line, u its "(UUID: ", end
 * the ')'). nvidia-smi -L lists MIG devices only under a GPU in MIG mode (NVIDIA MIG User
 * Guide, "nvidia-smi -L"), so its first one says mig_mode is on; the profile is the name
 * ("3g.40gb"). Drivers before R470 wrote the UUID "MIG-GPU-<uuid>/GI/CI", whose two numbers
 * are the GPU and compute instance ids; later ones a bare "MIG-<uuid>" that holds neither. */
static void list_mig(struct pasted_out *o, struct list *L, unsigned no, char *s, char *u, char *end)
{
	const char *uuid = u + 7;
	char profile[32], *sl;
	unsigned gi, ci;
	int n = 0;

	*end = '\0';
	if (L->mig == 0)
		pasted_put(o, no, "true", DEV, L->idx, "mig_mode");
	if (sscanf(s + 4, "%31s Device", profile) == 1 && strcmp(profile, "Device") != 0)
		pasted_put(o, no, profile, "driver.nvml.devices.%u.mig_devices.%u.name", L->idx,
			   L->mig);
	if (strncmp(uuid, "MIG-GPU-", 8) == 0 && (sl = strchr(uuid, '/')) &&
	    sscanf(sl, "/%u/%u%n", &gi, &ci, &n) == 2 && sl[n] == '\0' && gi < 1000 && ci < 1000) {
		char id[8];

		snprintf(id, sizeof(id), "%u", gi);
		pasted_put(o, no, id, "driver.nvml.devices.%u.mig_devices.%u.gpu_instance_id",
			   L->idx, L->mig);
		snprintf(id, sizeof(id), "%u", ci);
		pasted_put(o, no, id, "driver.nvml.devices.%u.mig_devices.%u.compute_instance_id",
			   L->idx, L->mig);
	}
	pasted_put(o, no, uuid, "driver.nvml.devices.%u.mig_devices.%u.uuid", L->idx, L->mig++);
}

static bool list_line(struct pasted_out *o, struct list *L, unsigned no, char *line)
{
	char *s = pasted_strip(line), *u, *end;
	const char *e;
	unsigned idx;

	if (strncmp(s, "GPU ", 4) == 0 && pasted_index(s + 4, &idx, &e) && e[0] == ':' &&
	    e[1] == ' ') {
		char *name = s + (e - s) + 1;

		if ((u = strstr(name, " (UUID: ")) && (end = strchr(u, ')'))) {
			*end = '\0';
			pasted_put(o, no, u + 8, DEV, idx, "uuid");
			*u = '\0';
		}
		pasted_put(o, no, name, DEV, idx, "name");
		L->have_gpu = true;
		L->idx = idx;
		L->mig = 0;
		return true;
	}
	if (L->have_gpu && strncmp(s, "MIG ", 4) == 0 && (u = strstr(s, "(UUID: ")) &&
	    (end = strchr(u, ')'))) {
		list_mig(o, L, no, s, u, end);
		return true;
	}
	L->have_gpu = false;
	return false;
}

/* --- --query-gpu … --format=csv ----------------------------------------------------------- */

struct csv_col {
	const char *field, *path;
	enum { C_TEXT, C_BOOL, C_MIB, C_INT, C_INDEX, C_TOP } kind;
};
static const struct csv_col csv_cols[] = {
	{ "index", "index", C_INDEX },
	{ "name", "name", C_TEXT },
	{ "gpu_name", "name", C_TEXT },
	{ "uuid", "uuid", C_TEXT },
	{ "gpu_uuid", "uuid", C_TEXT },
	{ "serial", "serial", C_TEXT },
	{ "gpu_serial", "serial", C_TEXT },
	{ "vbios_version", "vbios_version", C_TEXT },
	{ "pci.bus_id", "pci_bus_id", C_TEXT },
	{ "gpu_bus_id", "pci_bus_id", C_TEXT },
	{ "compute_cap", "compute_capability", C_TEXT },
	{ "memory.total", "memory_total_mib", C_MIB },
	{ "memory.used", "memory_used_mib", C_MIB },
	{ "memory.reserved", "memory_reserved_mib", C_MIB },
	{ "mig.mode.current", "mig_mode", C_BOOL },
	{ "mig.mode.pending", "mig_mode_pending", C_BOOL },
	{ "persistence_mode", "persistence_mode", C_BOOL },
	{ "ecc.mode.current", "ecc_mode", C_BOOL },
	{ "temperature.gpu", "temperature_c", C_INT },
	{ "pcie.link.gen.current", "pcie_link_gen", C_INT },
	{ "pcie.link.gen.max", "pcie_link_gen_max", C_INT },
	{ "pcie.link.width.current", "pcie_link_width", C_INT },
	{ "pcie.link.width.max", "pcie_link_width_max", C_INT },
	{ "driver_version", "driver.nvml.driver_version", C_TOP },
	{ "count", "driver.nvml.device_count", C_TOP },
};

struct csv {
	int ncols;	       /* 0: no header seen (or the rows ended) */
	int col[CSV_MAX_COLS]; /* index into csv_cols, -1: a field not read */
	unsigned row;
};

/* Splits at ", " / "," into at most max trimmed fields; the count (more than max: max + 1). */
static int csv_split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line, *comma;

	for (;;) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (n < max)
			f[n] = pasted_strip(p);
		n++;
		if (!comma || n > max)
			return n;
		p = comma + 1;
	}
}

static bool bare_field(const char *s, size_t l)
{
	static const char *const words[] = { "index", "name",	   "uuid",   "serial",
					     "count", "timestamp", "pstate", NULL };

	for (size_t i = 0; words[i]; i++)
		if (strlen(words[i]) == l && strncmp(words[i], s, l) == 0)
			return true;
	return false;
}

/* A header: every field a query name ("memory.total [MiB]"), at least one of them read. */
static bool csv_header(struct csv *c, char **f, int n)
{
	int known = 0;

	if (n < 1 || n > CSV_MAX_COLS)
		return false;
	for (int i = 0; i < n; i++) {
		size_t l = strspn(f[i], "abcdefghijklmnopqrstuvwxyz0123456789_.");

		if (!l || (f[i][l] && strncmp(f[i] + l, " [", 2) != 0))
			return false;
		/* nvidia-smi --help-query-gpu: dotted or underscored names, and a few words */
		if (!memchr(f[i], '.', l) && !memchr(f[i], '_', l) && !bare_field(f[i], l))
			return false;
		c->col[i] = -1;
		for (size_t k = 0; k < ARRAY_SIZE(csv_cols); k++)
			if (strlen(csv_cols[k].field) == l &&
			    strncmp(csv_cols[k].field, f[i], l) == 0) {
				c->col[i] = (int)k;
				known++;
			}
	}
	/* one bare word ("name") is too common in prose to start a table */
	if (!known || (n == 1 && !strchr(f[0], '.') && !strchr(f[0], '_')))
		return false;
	c->ncols = n;
	c->row = 0;
	return true;
}

static void csv_row(struct pasted_out *o, struct csv *c, unsigned no, char **f)
{
	unsigned idx = c->row;
	char num[24];

	for (int i = 0; i < c->ncols; i++)
		if (c->col[i] >= 0 && csv_cols[c->col[i]].kind == C_INDEX)
			pasted_index(f[i], &idx, NULL);
	for (int i = 0; i < c->ncols; i++) {
		const struct csv_col *k;

		if (c->col[i] < 0 || pasted_no_value(f[i]))
			continue;
		k = &csv_cols[c->col[i]];
		switch (k->kind) {
		case C_TEXT:
			pasted_put(o, no, f[i], DEV, idx, k->path);
			break;
		case C_BOOL:
			pasted_put(o, no, pasted_bool_word(f[i]), DEV, idx, k->path);
			break;
		case C_MIB:
		case C_INT:
		case C_INDEX:
			if (pasted_number_unit(f[i], k->kind == C_MIB ? "MiB" : NULL, num,
					       sizeof(num)))
				pasted_put(o, no, num, DEV, idx, k->path);
			break;
		case C_TOP:
			pasted_put(o, no, f[i], "%s", k->path);
			break;
		}
	}
	c->row++;
}

/* True when the line belonged to a csv header or row. */
static bool csv_line(struct pasted_out *o, struct csv *c, unsigned no, const char *line)
{
	char copy[1024], *f[CSV_MAX_COLS + 1];
	int n;

	if (!line[strspn(line, " \t")]) { /* a blank line ends a table */
		c->ncols = 0;
		return false;
	}
	if (!strchr(line, ',') && !c->ncols && !strchr(line, '.'))
		return false;
	size_t l = strlen(line);

	if (l >= sizeof(copy)) {
		c->ncols = 0;
		return false;
	}
	/* a row of the table a header opened, else maybe a header (each split cuts copy) */
	if (c->ncols) {
		memcpy(copy, line, l + 1);
		n = csv_split(copy, f, CSV_MAX_COLS);
		if (n == c->ncols) {
			csv_row(o, c, no, f);
			return true;
		}
		c->ncols = 0;
	}
	memcpy(copy, line, l + 1);
	n = csv_split(copy, f, CSV_MAX_COLS);
	return csv_header(c, f, n);
}

static bool blank_char(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* A byte of a query name as csv_header() takes it: [a-z0-9_.] (a test per byte, not a
 * strchr() of the set: this runs on most lines of a long log). */
static bool query_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* Could the line be a csv header (csv_header: fields each a query name, [a-z0-9_.], maybe
 * with " [unit]", blanks around them)? Yes to every header; to a few more lines. */
static bool csv_header_like(const char *p, size_t n)
{
	size_t i = 0;

	for (;;) {
		size_t s;

		while (i < n && blank_char(p[i]))
			i++;
		for (s = i; i < n && query_name_char(p[i]); i++)
			;
		if (i == s)
			return false;
		if (i + 1 < n && p[i] == ' ' && p[i + 1] == '[') { /* " [MiB]": on to the comma */
			const char *comma = memchr(p + i, ',', n - i);

			if (!comma)
				return true;
			i = (size_t)(comma - p) + 1;
			continue;
		}
		while (i < n && blank_char(p[i]))
			i++;
		if (i == n)
			return true;
		if (p[i] != ',')
			return false;
		i++;
	}
}

/* Could a line with a ":" be read while no -q GPU section, no -L GPU and no csv table is
 * open? Only the table's header ("NVIDIA-SMI " and "Driver Version:"), a "GPU <bus id>" or
 * -L "GPU N: " line, and the three -q keys read outside a GPU's section (query_line: its key
 * is the stripped line up to the colon) can be. A log's lines ("[ 12.3] NVRM: …", timestamps)
 * hold a ":" far more often than any of these. */
static bool colon_line_read(const char *p, size_t n)
{
	static const char *const keys[] = { "GPU ", "Driver Version", "CUDA Version",
					    "Attached GPUs" };
	const char *s = p, *e = p + n;

	while (s < e && blank_char(*s))
		s++;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		size_t k = strlen(keys[i]);

		if ((size_t)(e - s) >= k && memcmp(s, keys[i], k) == 0)
			return true;
	}
	/* memchr on the first byte, then memcmp: memmem's set-up per call costs more than the
	 * search on a log's short lines */
	for (const char *q = p; (q = memchr(q, 'N', (size_t)(e - q))); q++)
		if ((size_t)(e - q) >= 11 && memcmp(q, "NVIDIA-SMI ", 11) == 0)
			return true;
	return false;
}

/* A line (p[0..n), as the text holds it) that nothing below reads, and that changes no more
 * than every such line does (a table row's lines and -L's GPU end there): no "|" (the table),
 * no ":" or none of the lines with one that colon_line_read() keeps (the table's header, -q's
 * top keys and "GPU <bus id>" lines, -L's lines), no csv header, while no csv table, no -q
 * GPU section and no -L GPU (its MIG lines) is open. Most lines of a long log are such lines,
 * passed without the copy and the searches of each form. */
static bool inert(const char *p, size_t n, const struct csv *c, const struct query *q,
		  const struct list *L)
{
	return !c->ncols && !q->in_gpu && !L->have_gpu && !memchr(p, '|', n) &&
	       (!memchr(p, ':', n) || !colon_line_read(p, n)) && !csv_header_like(p, n);
}

int pasted_read_nvidia_smi(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "nvidia-smi" };
	struct pasted_lines it;
	struct table t = { 0 };
	struct query q = { 0 };
	struct list L = { 0 };
	struct csv c = { 0 };
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	for (;;) {
		const char *p;
		size_t n;

		if (pasted_lines_peek(&it, &p, &n) && inert(p, n, &c, &q, &L)) {
			t.have_row = false;
			L.have_gpu = false;
			pasted_lines_skip(&it, n);
			continue;
		}
		if (!(line = pasted_lines_next(&it)))
			break;
		unsigned no = it.no;

		if (strstr(line, "NVIDIA-SMI ") && strstr(line, "Driver Version:")) {
			table_header(&o, no, line);
			continue;
		}
		if (strchr(line, '|')) {
			q.in_gpu = false;
			table_line(&o, &t, no, line);
			continue;
		}
		t.have_row = false;
		if (csv_line(&o, &c, no, line))
			continue;
		if (list_line(&o, &L, no, line))
			continue;
		query_line(&o, &q, no, line);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
