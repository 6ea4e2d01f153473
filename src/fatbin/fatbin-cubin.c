// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Device code objects: a cubin (sections, .nv.compat, .note.nv.tkinfo) and an AMDGPU code
 * object (EF_AMDGPU_MACH) (fatbin-internal.h, fatbin.c for the format).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <lz4.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fatbin/fatbin-internal.h"
#include "shared/macro.h"

/* Bytes [off, off + n) of a cubin, or NULL (an fb_view() failure: err() tells which). The
 * section check reads the cubin in place through the parse's window, or from a buffer that
 * holds a decompressed one. */
struct cubin_src {
	struct parse *ps; /* in place: at this offset of the input */
	uint64_t at;
	const uint8_t *buf; /* else: decompressed */
};

static const uint8_t *cubin_view(const struct cubin_src *c, uint64_t off, size_t n)
{
	return c->buf ? c->buf + off : fb_view(c->ps, c->at + off, n);
}

static int cubin_view_error(const struct cubin_src *c, uint64_t off)
{
	return c->buf ? -EBADMSG : fb_view_error(c->ps, c->at + off);
}

/* Does the 64-bit cubin of len bytes (every offset checked against len) have a
 * .text.<kernel> section? nvcc's device-link step adds one kernel-less ELF per SASS arch
 * (fatbin.md §2); they must not count as a usable image. *ret = 1 yes, 0 no, -1 cannot
 * tell. Reads only the ELF header, the section header table and .shstrtab. */
static int cubin_has_text(const struct cubin_src *c, uint64_t len, int *ret)
{
	uint64_t shoff, shsz, stroff, strsz, lo, hi;
	unsigned shentsize, shnum, shstrndx;
	const uint8_t *p, *w;

	*ret = -1;
	if (len < 64)
		return 0;
	p = cubin_view(c, 0, 64);
	if (!p)
		return cubin_view_error(c, 0);
	if (memcmp(p, "\177ELF", 4) != 0 || p[4] != 2 || p[5] != 1 ||
	    fatbin_rd16(p + 18) != EM_CUDA_)
		return 0;
	shoff = fatbin_rd64(p + 0x28);
	shentsize = fatbin_rd16(p + 0x3a);
	shnum = fatbin_rd16(p + 0x3c);
	shstrndx = fatbin_rd16(p + 0x3e);
	shsz = (uint64_t)shnum * shentsize;
	if (shentsize < 64 || shnum == 0 || shstrndx >= shnum || !fatbin_range_ok(len, shoff, shsz))
		return 0;
	p = cubin_view(c, shoff, shsz);
	if (!p)
		return cubin_view_error(c, shoff);
	stroff = fatbin_rd64(p + (uint64_t)shstrndx * shentsize + 0x18);
	strsz = fatbin_rd64(p + (uint64_t)shstrndx * shentsize + 0x20);
	if (!fatbin_range_ok(len, stroff, strsz))
		return 0;
	/* one view over both tables (len is at most FATBIN_KERNEL_CHECK_MAX) */
	lo = MIN(shoff, stroff);
	hi = MAX(shoff + shsz, stroff + strsz);
	w = cubin_view(c, lo, hi - lo);
	if (!w)
		return cubin_view_error(c, lo);
	p = w + (shoff - lo);
	for (unsigned i = 0; i < shnum; i++) {
		uint32_t name = fatbin_rd32(p + (uint64_t)i * shentsize);
		const uint8_t *n = w + (stroff - lo) + name;

		if (name < strsz && strsz - name >= 7 && memcmp(n, ".text.", 6) == 0 && n[6] != 0) {
			*ret = 1;
			return 0;
		}
	}
	*ret = 0;
	return 0;
}

int fb_cubin_has_text(struct parse *ps, uint64_t at, uint64_t len, int *ret)
{
	return cubin_has_text(&(struct cubin_src){ .ps = ps, .at = at }, len, ret);
}

int fb_cubin_buf_has_text(const uint8_t *p, size_t len, int *ret)
{
	return cubin_has_text(&(struct cubin_src){ .buf = p }, len, ret);
}

/* ---- ELF ------------------------------------------------------------------------- */

int fb_elf_sections(Elf *elf, size_t len, struct sec **ret, size_t *ret_n)
{
	_cleanup_free_ struct sec *v = NULL;
	size_t shstrndx, shnum, n = 0;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum) < 0 ||
	    elf_getshdrstrndx(elf, &shstrndx) < 0)
		return -EBADMSG;
	if (shnum > FATBIN_MAX_SECTIONS || shnum < eh.e_shnum)
		return -EBADMSG;
	if (shnum > 0 &&
	    (eh.e_shentsize < (eh.e_ident[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Shdr)
								  : sizeof(Elf32_Shdr)) ||
	     !fatbin_range_ok(len, eh.e_shoff, (uint64_t)shnum * eh.e_shentsize)))
		return -EBADMSG;
	v = calloc(shnum ? shnum : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	while ((scn = elf_nextscn(elf, scn)) && n < shnum) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return -EBADMSG;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		v[n++] = (struct sec){ .name = name ? name : "",
				       .type = sh.sh_type,
				       .flags = sh.sh_flags,
				       .addr = sh.sh_addr,
				       .off = sh.sh_offset,
				       .size = sh.sh_size };
	}
	*ret = TAKE_PTR(v);
	*ret_n = n;
	return 0;
}

bool fb_sec_has_data(const struct sec *s, size_t len)
{
	return s->type != SHT_NOBITS && s->size > 0 && fatbin_range_ok(len, s->off, s->size);
}

int fb_add_elsewhere(struct fatbin_result *r, const char *name)
{
	size_t l = r->elsewhere_sections ? strlen(r->elsewhere_sections) : 0;
	char *n;

	if (r->elsewhere_sections) {
		/* already listed? */
		const char *s = r->elsewhere_sections;
		size_t nl = strlen(name);

		while (s && *s) {
			const char *c = strchr(s, ',');
			size_t w = c ? (size_t)(c - s) : strlen(s);

			if (w == nl && strncmp(s, name, nl) == 0)
				return 0;
			s = c ? c + 1 : NULL;
		}
		if (l > 1024)
			return 0;
	}
	n = realloc(r->elsewhere_sections, l + strlen(name) + 2);
	if (!n)
		return -ENOMEM;
	if (l)
		n[l++] = ',';
	strcpy(n + l, name);
	r->elsewhere_sections = n;
	return 0;
}

/* Cubin-only details (§9.3): `a` from .nv.compat attribute 0x09, `f` (and `a`) from the
 * "-arch sm_XYz" option in .note.nv.tkinfo. */
static char cubin_variant(struct parse *ps, const struct sec *secs, size_t n)
{
	char v = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sec *s = &secs[i];
		const uint8_t *d;

		if (!fb_sec_has_data(s, ps->len))
			continue;
		d = ps->base + s->off;
		if (s->type == SHT_NV_COMPAT) {
			size_t pos = 0;
			for (unsigned k = 0; k < 64 && fatbin_range_ok(s->size, pos, 2); k++) {
				uint8_t fmt = d[pos], attr = d[pos + 1];

				if (fmt == 2 || fmt == 3) {
					if (!fatbin_range_ok(s->size, pos + 2, 2))
						break;
					if (attr == 0x09 && d[pos + 2] == 1)
						v = 'a';
					pos += 4;
				} else if (fmt == 4) {
					if (!fatbin_range_ok(s->size, pos + 2, 2))
						break;
					pos += 4 + fatbin_rd16(d + pos + 2);
				} else {
					break;
				}
			}
		} else if (s->type == SHT_NOTE && streq(s->name, ".note.nv.tkinfo")) {
			size_t lim = MIN(s->size, (uint64_t)4096);
			for (size_t j = 0; j + 9 < lim; j++) {
				size_t k;

				if (memcmp(d + j, "-arch sm_", 9) != 0)
					continue;
				for (k = j + 9; k < lim && d[k] >= '0' && d[k] <= '9'; k++)
					;
				if (k < lim && k > j + 9 && (d[k] == 'a' || d[k] == 'f'))
					v = (char)d[k];
				break;
			}
		}
	}
	return v;
}

int fb_scan_cubin(struct parse *ps, Elf *elf)
{
	_cleanup_free_ struct sec *secs = NULL;
	struct fatbin_entry *x;
	size_t n = 0;
	bool accel_v1 = false;
	int sm = fb_cubin_sm_from_header(ps->base, ps->len, &accel_v1);
	int rv;

	if (sm < 0)
		return -EBADMSG;
	rv = fb_elf_sections(elf, ps->len, &secs, &n);
	if (rv < 0)
		return rv;
	rv = fatbin_push_entry(ps->r, &x);
	if (rv < 0)
		return rv;
	ps->r->type = FATBIN_FILE_CUBIN;
	x->kind = x->raw_kind = FATBIN_KIND_ELF;
	x->arch = (unsigned)sm;
	x->cubin_sm = sm;
	x->is64 = ps->base[4] == 2;
	x->stored_size = x->uncompressed_size = ps->len;
	x->ver_major = 1;
	x->ver_minor = ps->base[8];
	x->origin = FATBIN_ORIGIN_FILE;
	x->variant = cubin_variant(ps, secs, n);
	if (!x->variant && accel_v1)
		x->variant = 'a';
	fatbin_entry_fill_target(x);
	return 0;
}

/* AMDGPU code object: EF_AMDGPU_MACH values (LLVM AMDGPUUsage "AMDGPU EF_AMDGPU_MACH
 * Values", llvm/include/llvm/BinaryFormat/ELF.h). The names in the rows, not pointers: a
 * table of pointers is relocated, a page of it written, at every start (docs/HACKING.md). */
static const struct {
	uint8_t mach;
	char gfx[16]; /* room to spare: a name as long as the array would have no NUL */
} amdgpu_mach[] = {
	{ 0x20, "gfx600" },  { 0x21, "gfx601" },  { 0x22, "gfx700" },  { 0x23, "gfx701" },
	{ 0x24, "gfx702" },  { 0x25, "gfx703" },  { 0x26, "gfx704" },  { 0x28, "gfx801" },
	{ 0x29, "gfx802" },  { 0x2a, "gfx803" },  { 0x2b, "gfx810" },  { 0x2c, "gfx900" },
	{ 0x2d, "gfx902" },  { 0x2e, "gfx904" },  { 0x2f, "gfx906" },  { 0x30, "gfx908" },
	{ 0x31, "gfx909" },  { 0x32, "gfx90c" },  { 0x33, "gfx1010" }, { 0x34, "gfx1011" },
	{ 0x35, "gfx1012" }, { 0x36, "gfx1030" }, { 0x37, "gfx1031" }, { 0x38, "gfx1032" },
	{ 0x39, "gfx1033" }, { 0x3a, "gfx602" },  { 0x3b, "gfx705" },  { 0x3c, "gfx805" },
	{ 0x3d, "gfx1035" }, { 0x3e, "gfx1034" }, { 0x3f, "gfx90a" },  { 0x40, "gfx940" },
	{ 0x41, "gfx1100" }, { 0x42, "gfx1013" }, { 0x43, "gfx1150" }, { 0x44, "gfx1103" },
	{ 0x45, "gfx1036" }, { 0x46, "gfx1101" }, { 0x47, "gfx1102" }, { 0x48, "gfx1200" },
	{ 0x4a, "gfx1151" }, { 0x4b, "gfx941" },  { 0x4c, "gfx942" },  { 0x4e, "gfx1201" },
	{ 0x4f, "gfx950" },
};

void fb_amdgpu_target(const uint8_t *ehdr, struct fatbin_bundle_entry *b)
{
	uint32_t fl = fatbin_rd32(ehdr + 48);
	const char *gfx = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(amdgpu_mach); i++)
		if (amdgpu_mach[i].mach == (fl & 0xff))
			gfx = amdgpu_mach[i].gfx;
	if (gfx)
		snprintf(b->gfx, sizeof(b->gfx), "%s", gfx);
	else
		snprintf(b->gfx, sizeof(b->gfx), "mach0x%02x", fl & 0xff);
	b->xnack = b->sramecc = -1;
	/* code object v4+ (EI_ABIVERSION >= 2): xnack 0x300, sramecc 0xc00 */
	if (ehdr[8] >= 2) {
		static const int tri[4] = { -2, -1, 0, 1 }; /* unsupported, any, off, on */
		int xn = tri[(fl >> 8) & 3], sr = tri[(fl >> 10) & 3];

		b->xnack = xn == -2 ? -1 : xn;
		b->sramecc = sr == -2 ? -1 : sr;
	}
}

int fb_scan_amdgpu(struct parse *ps)
{
	struct fatbin_result *r = ps->r;
	struct fatbin_bundle_entry *b;

	if (ps->len < 64 || ps->base[4] != 2)
		return -EBADMSG;
	r->type = FATBIN_FILE_AMDGPU_ELF;
	r->amdgpu_mach = fatbin_rd32(ps->base + 48) & 0xff;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	r->bundle_entries = b;
	r->n_bundle_entries = 1;
	b->size = ps->len;
	snprintf(b->kind, sizeof(b->kind), "code-object");
	snprintf(b->triple, sizeof(b->triple), "amdgcn-amd-amdhsa");
	fb_amdgpu_target(ps->base, b);
	snprintf(b->target, sizeof(b->target), "%s%s%s", b->gfx,
		 b->sramecc == 1   ? ":sramecc+"
		 : b->sramecc == 0 ? ":sramecc-"
				   : "",
		 b->xnack == 1	 ? ":xnack+"
		 : b->xnack == 0 ? ":xnack-"
				 : "");
	return 0;
}
