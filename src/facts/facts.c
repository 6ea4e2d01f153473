/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Lookups over the generated knowledge-base arrays (facts-table.h, produced by gen-facts.py
 * from src/facts/data/<table>.tsv; see facts.h for where the rows come from). Pure functions:
 * no I/O, no allocation. Versions compare field by field as integers (shared/parse.h).
 */
#include <assert.h>
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts-table.h"
#include "shared/macro.h"
#include "shared/parse.h"

/* The argument checks and version parse that begin a lookup by version string. */
static int lookup_version(const char *s, const void *ret, struct version *ret_v)
{
	if (!s || !ret)
		return -EINVAL;
	return version_parse(s, ret_v);
}

/* A looked-up row's optional text field: -ENODATA when the row leaves it empty. */
static int row_text(const char *field, const char **ret)
{
	if (!field)
		return -ENODATA;
	*ret = field;
	return 0;
}

/* bsearch(3) comparator for the tables sorted by their first member, an unsigned key. */
static int cmp_leading_unsigned(const void *key, const void *row)
{
	unsigned k = *(const unsigned *)key, v = *(const unsigned *)row;

	return (k > v) - (k < v);
}

static_assert(offsetof(struct facts_xid, xid) == 0, "facts_xid_table_rows() is keyed by xid");
static_assert(offsetof(struct facts_sm_arch, sm) == 0, "facts_sm_arch_table_rows() is keyed by sm");

static int pci_first(uint16_t vendor, uint16_t device, size_t *ret)
{
	size_t lo = 0, hi = facts_gpu_pci_index_len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct facts_pci_index *e = &facts_gpu_pci_index[mid];
		uint32_t k = (uint32_t)e->vendor << 16 | e->device;
		uint32_t want = (uint32_t)vendor << 16 | device;

		if (k < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= facts_gpu_pci_index_len || facts_gpu_pci_index[lo].vendor != vendor ||
	    facts_gpu_pci_index[lo].device != device)
		return -ENOENT;
	*ret = lo;
	return 0;
}

int facts_gpu_by_pci_id_nth(uint16_t vendor, uint16_t device, size_t n,
			    const struct facts_gpu **ret)
{
	size_t i;
	int r;

	if (!ret)
		return -EINVAL;
	r = pci_first(vendor, device, &i);
	if (r < 0) {
		/* Not a product of the sourced GPU table: what its chip says, if it is NVIDIA's. */
		if (vendor != 0x10de || n > 0 || facts_nvidia_device_gpu_by_id(device, ret) < 0)
			return r;
		return 0;
	}
	i += n;
	if (i >= facts_gpu_pci_index_len || facts_gpu_pci_index[i].vendor != vendor ||
	    facts_gpu_pci_index[i].device != device)
		return -ENOENT;
	*ret = &facts_gpu_table_rows()[facts_gpu_pci_index[i].row];
	return 0;
}

bool facts_pci_id_listed(const char *ids, unsigned device)
{
	char want[8];

	if (device > 0xffff)
		return false;
	snprintf(want, sizeof(want), "%04x", device);
	/* a comma list of four-digit ids: every fifth character starts one */
	for (const char *p = ids; p && strlen(p) >= 4; p += 5) {
		if (strncmp(p, want, 4) == 0)
			return true;
		if (p[4] != ',')
			break;
	}
	return false;
}

int facts_gpu_by_pci_id(uint16_t vendor, uint16_t device, const struct facts_gpu **ret)
{
	return facts_gpu_by_pci_id_nth(vendor, device, 0, ret);
}

/* Lower-cases s into buf, drops "(...)" parts and the words nvidia/geforce/tesla, and
 * collapses runs of blanks into one space. */
static void name_norm(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	int depth = 0;

	while (*s && o + 1 < len) {
		char word[64];
		size_t w = 0;

		if (*s == '(') {
			depth++;
			s++;
			continue;
		}
		if (*s == ')') {
			if (depth > 0)
				depth--;
			s++;
			continue;
		}
		if (depth > 0 || isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		while (*s && !isspace((unsigned char)*s) && *s != '(' && *s != ')') {
			if (w + 1 < sizeof(word))
				word[w++] = (char)tolower((unsigned char)*s);
			s++;
		}
		word[w] = '\0';
		if (streq(word, "nvidia") || streq(word, "geforce") || streq(word, "tesla"))
			continue;
		if (o > 0 && o + 1 < len)
			buf[o++] = ' ';
		for (size_t k = 0; k < w && o + 1 < len; k++)
			buf[o++] = word[k];
	}
	buf[o] = '\0';
}

/* Products listed as "Quadro RTX 6000 / RTX 8000": the first alternative must match whole, a
 * later one may also end the wanted name ("Quadro RTX 8000" ends with "rtx 8000"). */
static bool name_alt_match(const char *have, const char *want)
{
	const char *alt = strstr(have, " / ");
	size_t wl = strlen(want);

	if (!alt)
		return false;
	if (strncmp(have, want, (size_t)(alt - have)) == 0 && want[alt - have] == '\0')
		return true;
	while (alt) {
		const char *s = alt + 3, *e = strstr(s, " / ");
		size_t l = e ? (size_t)(e - s) : strlen(s);

		if (l > 0 && l <= wl && strncmp(want + wl - l, s, l) == 0 &&
		    (l == wl || want[wl - l - 1] == ' '))
			return true;
		alt = e;
	}
	return false;
}

int facts_gpu_by_name(const char *name, const struct facts_gpu **ret)
{
	char want[256], have[256];
	const struct facts_gpu *best = NULL;
	size_t best_len = 0;

	if (!name || !ret)
		return -EINVAL;
	name_norm(name, want, sizeof(want));
	if (!want[0])
		return -EINVAL;
	for (size_t i = 0; i < facts_gpu_table_len; i++) {
		size_t n;

		name_norm(facts_gpu_table_rows()[i].product, have, sizeof(have));
		if (streq(have, want)) {
			*ret = &facts_gpu_table_rows()[i];
			return 0;
		}
		if (name_alt_match(have, want)) {
			*ret = &facts_gpu_table_rows()[i];
			return 0;
		}
		n = strcspn(have, "/");
		while (n > 0 && have[n - 1] == ' ')
			n--;
		if (n > best_len && strncmp(want, have, n) == 0 && want[n] == ' ') {
			best = &facts_gpu_table_rows()[i];
			best_len = n;
		}
	}
	if (!best)
		return -ENOENT;
	*ret = best;
	return 0;
}

int facts_cuda_release(const char *toolkit_version, const struct facts_cuda_release **ret)
{
	struct version want;
	size_t lo = 0, hi = facts_cuda_release_table_len;
	int r;

	r = lookup_version(toolkit_version, ret, &want);
	if (r < 0)
		return r;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct version v;
		int c;

		struct facts_cuda_release row;

		facts_cuda_release_row(mid, &row);
		r = version_parse(row.toolkit_version, &v);
		if (r < 0)
			return r;
		c = version_cmp(&v, &want);
		if (c == 0) {
			*ret = facts_cuda_release_at(mid);
			return 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}

int facts_cuda_min_driver(const char *toolkit_version, const char **ret)
{
	const struct facts_cuda_release *rel;
	int r;

	if (!ret)
		return -EINVAL;
	r = facts_cuda_release(toolkit_version, &rel);
	return r < 0 ? r : row_text(rel->linux_min_driver, ret);
}

int facts_minor_compat_floor(unsigned cuda_major, const struct facts_minor_compat **ret)
{
	if (!ret)
		return -EINVAL;
	for (size_t i = 0; i < facts_minor_compat_table_len; i++) {
		struct facts_minor_compat row;

		facts_minor_compat_row(i, &row);
		if (row.cuda_major == cuda_major) {
			*ret = facts_minor_compat_at(i);
			return 0;
		}
	}
	return -ENOENT;
}

int facts_driver_branch(const char *driver_version, const struct facts_driver_branch **ret)
{
	struct version v;
	int r;

	r = lookup_version(driver_version, ret, &v);
	if (r < 0)
		return r;
	for (size_t i = 0; i < facts_driver_branch_table_len; i++)
		if (facts_driver_branch_table_rows()[i].branch == v.part[0]) {
			*ret = &facts_driver_branch_table_rows()[i];
			return 0;
		}
	return -ENOENT;
}

int facts_cuda_newest_for_driver(const char *driver_version, struct facts_driver_cuda *ret)
{
	const struct facts_driver_branch *best = NULL;
	struct version v;
	int r;

	r = lookup_version(driver_version, ret, &v);
	if (r < 0)
		return r;
	/* the table is sorted by branch (test-facts checks it) */
	for (size_t i = 0; i < facts_driver_branch_table_len; i++) {
		const struct facts_driver_branch *b = &facts_driver_branch_table_rows()[i];

		if (b->branch > v.part[0])
			break;
		if (b->cuda_version_reported)
			best = b;
	}
	if (!best)
		return -ENOENT;
	*ret = (struct facts_driver_cuda){ .cuda = best->cuda_version_reported,
					   .row = best,
					   .lower_bound = best->branch != v.part[0] };
	return 0;
}

int facts_cuda_arch(const char *cuda_version, const struct facts_cuda_arch **ret)
{
	struct version want;
	int r;

	r = lookup_version(cuda_version, ret, &want);
	if (r < 0)
		return r;
	if (want.n < 2)
		return -EINVAL;
	for (size_t i = 0; i < facts_cuda_arch_table_len; i++) {
		struct version v;

		r = version_parse(facts_cuda_arch_table_rows()[i].cuda_version, &v);
		if (r < 0)
			return r;
		if (v.part[0] == want.part[0] && v.part[1] == want.part[1]) {
			*ret = &facts_cuda_arch_table_rows()[i];
			return 0;
		}
	}
	return -ENOENT;
}

int facts_cuda_ptx_isa(const char *cuda_version, const char **ret)
{
	const struct facts_cuda_arch *a;
	int r;

	if (!ret)
		return -EINVAL;
	r = facts_cuda_arch(cuda_version, &a);
	return r < 0 ? r : row_text(a->ptx_isa_version, ret);
}

int facts_xid(unsigned code, const struct facts_xid **ret)
{
	const struct facts_xid *x;

	if (!ret)
		return -EINVAL;
	x = bsearch(&code, facts_xid_table_rows(), facts_xid_table_len, sizeof(*x),
		    cmp_leading_unsigned);
	if (!x)
		return -ENOENT;
	*ret = x;
	return 0;
}

int facts_threshold(const char *name, const struct facts_threshold **ret)
{
	if (!name || !ret)
		return -EINVAL;
	for (size_t i = 0; i < facts_threshold_table_len; i++)
		if (streq(facts_threshold_table_rows()[i].name, name)) {
			*ret = &facts_threshold_table_rows()[i];
			return 0;
		}
	return -ENOENT;
}

int facts_driver_branch_eol(const struct facts_driver_branch *b, unsigned *ret_yyyymm)
{
	static const char *const months[] = { "January",   "February", "March",	   "April",
					      "May",	   "June",     "July",	   "August",
					      "September", "October",  "November", "December" };
	const char *t;

	if (!b || !ret_yyyymm)
		return -EINVAL;
	t = b->datacenter_eol;
	if (!t || !*t || startswith(t, "Not applicable"))
		return -ENODATA;
	if (startswith(t, "EOL"))
		return 0;
	for (size_t m = 0; m < ARRAY_SIZE(months); m++) {
		size_t n = strlen(months[m]);
		unsigned year;
		char buf[8];

		if (strncmp(t, months[m], n) != 0 || t[n] != ' ')
			continue;
		if (strspn(t + n + 1, "0123456789") != 4)
			return -EINVAL;
		memcpy(buf, t + n + 1, 4);
		buf[4] = '\0';
		if (parse_uint(buf, 10, &year) < 0)
			return -EINVAL;
		*ret_yyyymm = year * 100 + (unsigned)m + 1;
		return 1;
	}
	return -EINVAL;
}

int facts_cuda_minor_releases(unsigned major, unsigned minor,
			      const struct facts_cuda_release **ret_first,
			      const struct facts_cuda_release **ret_newest)
{
	size_t first = SIZE_MAX, newest = SIZE_MAX;

	if (!ret_first || !ret_newest)
		return -EINVAL;
	for (size_t i = 0; i < facts_cuda_release_table_len; i++) {
		struct facts_cuda_release r;
		struct version v;

		facts_cuda_release_row(i, &r);
		if (!r.linux_min_driver || version_parse(r.toolkit_version, &v) < 0 || v.n < 2 ||
		    v.part[0] != major || v.part[1] != minor)
			continue;
		if (first == SIZE_MAX)
			first = i;
		newest = i;
	}
	if (first == SIZE_MAX)
		return -ENOENT;
	*ret_first = facts_cuda_release_at(first);
	*ret_newest = facts_cuda_release_at(newest);
	return 0;
}

/* first <= v <= last, where last may have fewer fields ("8.8" covers 8.8.x). */
static bool in_release_range(const struct version *v, const char *first, const char *last)
{
	struct version f, l, vp;

	if (version_parse(first, &f) < 0 || version_parse(last, &l) < 0)
		return false;
	if (version_cmp(v, &f) < 0)
		return false;
	vp = *v;
	vp.n = MIN(vp.n, l.n);
	for (unsigned i = l.n; i < VERSION_MAX_PARTS; i++)
		vp.part[i] = 0;
	return version_cmp(&vp, &l) <= 0;
}

int facts_cudnn_nth(const char *cudnn_version, size_t n, const struct facts_cudnn **ret)
{
	struct version v;
	int r;

	r = lookup_version(cudnn_version, ret, &v);
	if (r < 0)
		return r;
	for (size_t i = 0; i < facts_cudnn_table_len; i++)
		if (in_release_range(&v, facts_cudnn_table_rows()[i].first,
				     facts_cudnn_table_rows()[i].last) &&
		    n-- == 0) {
			*ret = &facts_cudnn_table_rows()[i];
			return 0;
		}
	return -ENOENT;
}

static bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, ",");

		if (k == n && strncmp(p, item, n) == 0)
			return true;
		p += k;
		if (*p == ',')
			p++;
	}
	return false;
}

bool facts_cudnn_lists_cuda(const struct facts_cudnn *r, unsigned major, unsigned minor)
{
	char want[24];

	snprintf(want, sizeof(want), "%u.%u", major, minor);
	return r && list_has(r->cuda_versions, want);
}

bool facts_cudnn_has_major(const struct facts_cudnn *r, unsigned major)
{
	char want[16];

	snprintf(want, sizeof(want), "%u", major);
	return r && list_has(r->cuda_majors, want);
}

int facts_ptx_isa(unsigned major, unsigned minor, const struct facts_ptx_isa **ret)
{
	if (!ret)
		return -EINVAL;
	for (size_t i = 0; i < facts_ptx_isa_table_len; i++)
		if (facts_ptx_isa_table_rows()[i].isa_major == major &&
		    facts_ptx_isa_table_rows()[i].isa_minor == minor) {
			*ret = &facts_ptx_isa_table_rows()[i];
			return 0;
		}
	return -ENOENT;
}

int facts_ptx_isa_for_driver(const char *driver_version, const struct facts_ptx_isa **ret)
{
	const struct facts_ptx_isa *best = NULL;
	struct version v;
	int r;

	r = lookup_version(driver_version, ret, &v);
	if (r < 0)
		return r;
	for (size_t i = 0; i < facts_ptx_isa_table_len; i++) {
		const struct facts_ptx_isa *p = &facts_ptx_isa_table_rows()[i];

		if (p->min_driver_branch && p->min_driver_branch <= v.part[0])
			best = p;
	}
	if (!best)
		return -ENOENT;
	*ret = best;
	return 0;
}

unsigned facts_ptx_isa_max_branch(void)
{
	unsigned m = 0;

	for (size_t i = 0; i < facts_ptx_isa_table_len; i++)
		m = MAX(m, facts_ptx_isa_table_rows()[i].min_driver_branch);
	return m;
}

int facts_sm_arch(unsigned sm, const struct facts_sm_arch **ret)
{
	const struct facts_sm_arch *a;

	if (!ret)
		return -EINVAL;
	a = bsearch(&sm, facts_sm_arch_table_rows(), facts_sm_arch_table_len, sizeof(*a),
		    cmp_leading_unsigned);
	if (!a)
		return -ENOENT;
	*ret = a;
	return 0;
}

/* "6.2.0-66" → 6.2.0: a dotted prefix followed by nothing or a "-build" suffix. */
static int parse_release(const char *s, struct version *ret)
{
	const char *end;
	int r;

	r = version_parse_prefix(s, ret, &end);
	if (r < 0)
		return r;
	if (*end && (*end != '-' || !end[1]))
		return -EINVAL;
	return 0;
}

int facts_rocm_release(const char *rocm_version, const struct facts_rocm **ret)
{
	struct version v;
	int r;

	if (!rocm_version || !ret)
		return -EINVAL;
	r = parse_release(rocm_version, &v);
	if (r < 0)
		return r;
	for (size_t i = 0; i < facts_rocm_table_len; i++)
		if (in_release_range(&v, facts_rocm_table_rows()[i].first,
				     facts_rocm_table_rows()[i].last)) {
			*ret = &facts_rocm_table_rows()[i];
			return 0;
		}
	return -ENOENT;
}

int facts_rocm_supports_gfx(const char *rocm_version, const char *gfx, const char **ret_confidence)
{
	const struct facts_rocm *row;
	char want[32];
	size_t n;
	int r;

	if (!gfx)
		return -EINVAL;
	n = strcspn(gfx, ":");
	if (n == 0 || n >= sizeof(want) || !startswith(gfx, "gfx"))
		return -EINVAL;
	memcpy(want, gfx, n);
	want[n] = '\0';
	r = facts_rocm_release(rocm_version, &row);
	if (r < 0)
		return r;
	if (!row->gfx_targets)
		return -ENODATA;
	if (ret_confidence)
		*ret_confidence = row->confidence;
	return list_has(row->gfx_targets, want);
}

int facts_hsa_override(const char *gfx, const struct facts_hsa_override **ret)
{
	size_t n = gfx ? strcspn(gfx, ":") : 0;

	/* A dozen rows: a scan. */
	for (size_t i = 0; i < facts_hsa_override_table_len; i++) {
		const char *g = facts_hsa_override_table_rows()[i].gfx;

		if (strlen(g) == n && strncmp(g, gfx, n) == 0) {
			*ret = &facts_hsa_override_table_rows()[i];
			return 0;
		}
	}
	return -ENOENT;
}

bool facts_arch_list_has(const char *arch_list, const char *tok)
{
	size_t n;

	if (!arch_list || !tok)
		return false;
	n = strlen(tok);
	for (const char *p = arch_list; *p;) {
		size_t k = strcspn(p, " ");

		if (k == n && strncmp(p, tok, n) == 0)
			return true;
		p += k;
		p += strspn(p, " ");
	}
	return false;
}

static int torch_wheel_for(const char *torch_version, const char *driver, bool compat,
			   const struct facts_torch_wheel **ret)
{
	struct facts_torch_wheel best = { 0 };
	size_t best_i = SIZE_MAX;
	struct version v = { 0 };

	if (!driver || !ret || (torch_version && version_parse_prefix(torch_version, &v, NULL) < 0))
		return -EINVAL;
	if (torch_version && v.n < 2)
		return -EINVAL;
	for (size_t i = 0; i < facts_torch_wheel_table_len; i++) {
		struct facts_torch_wheel row;
		const struct facts_torch_wheel *w = &row;
		struct version t;

		facts_torch_wheel_row(i, &row);

		const char *need = compat ? w->minor_compat_min_driver : w->min_driver;

		if (!w->cuda_toolkit || !need || version_parse(w->torch, &t) < 0)
			continue;
		if (torch_version && (t.part[0] != v.part[0] || t.part[1] != v.part[1]))
			continue;
		if (version_cmp_str(need, driver) > 0)
			continue;
		if (best_i == SIZE_MAX) {
			best = row;
			best_i = i;
			continue;
		}
		/* the newest release, then the newest CUDA */
		int c = version_cmp_str(w->torch, best.torch);

		if (c > 0 || (c == 0 && version_cmp_str(w->cuda_toolkit, best.cuda_toolkit) > 0)) {
			best = row;
			best_i = i;
		}
	}
	if (best_i == SIZE_MAX)
		return -ENOENT;
	*ret = facts_torch_wheel_at(best_i);
	return 0;
}

int facts_torch_wheel_for_driver(const char *torch_version, const char *driver,
				 const struct facts_torch_wheel **ret)
{
	return torch_wheel_for(torch_version, driver, false, ret);
}

int facts_torch_wheel_for_driver_compat(const char *torch_version, const char *driver,
					const struct facts_torch_wheel **ret)
{
	return torch_wheel_for(torch_version, driver, true, ret);
}

size_t facts_torch_cuda_variants(const char *torch_version, char *buf, size_t len)
{
	struct version v;
	size_t n = 0, at = 0;

	if (len)
		buf[0] = '\0';
	if (!torch_version || version_parse_prefix(torch_version, &v, NULL) < 0 || v.n < 2)
		return 0;
	for (size_t i = 0; i < facts_torch_wheel_table_len; i++) {
		struct facts_torch_wheel row;
		const struct facts_torch_wheel *w = &row;
		struct version t;
		int k;

		facts_torch_wheel_row(i, &row);
		if (!w->cuda_toolkit || version_parse(w->torch, &t) < 0 || t.part[0] != v.part[0] ||
		    t.part[1] != v.part[1])
			continue;
		k = snprintf(buf + at, len > at ? len - at : 0, "%s%s", n ? ", " : "", w->variant);
		if (k > 0 && at + (size_t)k < len)
			at += (size_t)k;
		n++;
	}
	return n;
}

int facts_torch_wheel(const char *torch_version, const char *variant,
		      const struct facts_torch_wheel **ret)
{
	const char *plus, *end;
	char want_variant[32] = "";
	struct version v;
	int r;

	if (!torch_version || !ret)
		return -EINVAL;
	r = version_parse_prefix(torch_version, &v, &end);
	if (r < 0)
		return r;
	if (v.n < 2)
		return -EINVAL;
	plus = strchr(torch_version, '+');
	/* between the version and '+' only a pre-release/dev tag such as ".dev20250929" or "a0" */
	if (!plus && *end && *end != '.' && !isalpha((unsigned char)*end))
		return -EINVAL;
	if (variant) {
		if (strlen(variant) >= sizeof(want_variant))
			return -ENOENT;
		strcpy(want_variant, variant);
	} else if (plus) {
		if (strlen(plus + 1) >= sizeof(want_variant) || !plus[1])
			return -ENOENT;
		strcpy(want_variant, plus + 1);
	}
	for (size_t i = 0; i < facts_torch_wheel_table_len; i++) {
		struct facts_torch_wheel row;
		const struct facts_torch_wheel *w = &row;
		struct version t;

		facts_torch_wheel_row(i, &row);
		if (version_parse(w->torch, &t) < 0 || t.part[0] != v.part[0] ||
		    t.part[1] != v.part[1])
			continue;
		if (want_variant[0] ? streq(w->variant, want_variant) : w->pypi_default) {
			*ret = facts_torch_wheel_at(i);
			return 0;
		}
	}
	return -ENOENT;
}

int facts_tensorflow_config(const char *tf_version, const struct facts_tensorflow **ret)
{
	struct version v;
	int r;

	if (!tf_version || !ret)
		return -EINVAL;
	r = parse_release(tf_version, &v);
	if (r < 0) {
		/* A pre-release of a line is built like the line: tf-nightly 2.4.0.dev20201012
		 * (tensorflow/tensorflow#44012: CUDA 11.0, cuDNN 8), 2.4.0rc1, 2.4.0-rc0. */
		const char *end;

		if (version_parse_prefix(tf_version, &v, &end) < 0 ||
		    !(startswith(end, ".dev") || startswith(end, "dev") || startswith(end, "rc") ||
		      startswith(end, "-rc")))
			return r;
	}
	if (v.n < 2)
		return -EINVAL;
	for (size_t i = 0; i < facts_tensorflow_table_len; i++) {
		struct version t;

		if (version_parse(facts_tensorflow_table_rows()[i].version, &t) < 0)
			continue;
		if (t.part[0] == v.part[0] && t.part[1] == v.part[1]) {
			*ret = &facts_tensorflow_table_rows()[i];
			return 0;
		}
	}
	return -ENOENT;
}

int facts_tensorflow_build(const char *tf_version, const struct facts_tensorflow_build **ret)
{
	struct version v;
	int r;

	if (!tf_version || !ret)
		return -EINVAL;
	r = parse_release(tf_version, &v);
	if (r < 0)
		return r;
	if (v.n < 2)
		return -EINVAL;
	for (size_t i = 0; i < facts_tensorflow_build_table_len; i++) {
		struct version t;

		if (version_parse(facts_tensorflow_build_table_rows()[i].release, &t) < 0)
			continue;
		if (t.part[0] == v.part[0] && t.part[1] == v.part[1]) {
			*ret = &facts_tensorflow_build_table_rows()[i];
			return 0;
		}
	}
	return -ENOENT;
}

int facts_mig_bug(const char *framework, const char *cvd, const char *version,
		  const struct facts_mig_bug **ret)
{
	struct version v, first, fixed;
	const char *end;
	int r;

	if (!framework || !cvd || !version || !ret)
		return -EINVAL;
	/* "1.13.1+cu117", "2.0.0a0+gitabc": the release is the leading numbers. */
	r = version_parse_prefix(version, &v, &end);
	if (r < 0)
		return r;
	for (size_t i = 0; i < facts_mig_bug_table_len; i++) {
		const struct facts_mig_bug *b = &facts_mig_bug_table_rows()[i];

		bool open_end = !b->fixed || !b->fixed[0];

		if (!streq(b->framework, framework) || !streq(b->cvd, cvd) ||
		    version_parse(b->first, &first) < 0 ||
		    (!open_end && version_parse(b->fixed, &fixed) < 0))
			continue;
		if (version_cmp(&v, &first) >= 0 && (open_end || version_cmp(&v, &fixed) < 0)) {
			*ret = b;
			return 0;
		}
	}
	return -ENOENT;
}
