/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CUDA fat binary parser. Layout per /work/shared/facts/fatbin-format.md: container header
 * (magic 0xBA55ED50, NVIDIA fatbinary.h), 64-byte+ entry headers, flags (64-bit 0x1, LZ4
 * 0x2000, zstd 0x8000, 'a' 0x100000, 'f' 0x200000), cubin e_flags (LLVM BinaryFormat/ELF.h,
 * EF_CUDA_* V1/V2). Every offset goes through range_ok(); malformed input is -EBADMSG.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <lz4.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "fatbin/fatbin.h"
#include "shared/macro.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FLAG_64BIT 0x1ull
#define FLAG_LZ4 0x2000ull
#define FLAG_ZSTD 0x8000ull
#define FLAG_COMPRESS_OLD 0x1000ull
#define FLAG_ARCH_A 0x100000ull
#define FLAG_ARCH_F 0x200000ull
#define EM_CUDA_ 190
#define PTX_HEAD 4096

static bool range_ok(size_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

const char *fatbin_compression_name(enum fatbin_compression c)
{
	switch (c) {
	case FATBIN_COMPRESS_NONE: return "none";
	case FATBIN_COMPRESS_LZ4: return "lz4";
	case FATBIN_COMPRESS_ZSTD: return "zstd";
	default: return "unknown";
	}
}

static int push_entry(struct fatbin_result *r, struct fatbin_entry **ret)
{
	struct fatbin_entry *n;

	if (r->n_entries >= FATBIN_MAX_ENTRIES)
		return -EBADMSG;
	n = realloc(r->entries, (r->n_entries + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->entries = n;
	*ret = &n[r->n_entries++];
	memset(*ret, 0, sizeof(**ret));
	(*ret)->ptx_major = (*ret)->ptx_minor = (*ret)->cubin_sm = -1;
	return 0;
}

/* cubin SM from e_flags: ABI >= 8 → bits 8-15; older → low byte (facts §9.2). */
static int cubin_sm(const uint8_t *p, size_t len)
{
	if (len < 64 || memcmp(p, "\177ELF", 4) != 0 || p[4] != 2 || p[5] != 1)
		return -1;
	if (rd16(p + 18) != EM_CUDA_)
		return -1;
	uint32_t fl = rd32(p + 48);
	return p[8] >= 8 ? (int)((fl >> 8) & 0xff) : (int)(fl & 0xff);
}

static void ptx_version(const char *s, size_t n, int *maj, int *min)
{
	for (size_t i = 0; i + 8 < n; i++) {
		if (memcmp(s + i, ".version", 8) != 0)
			continue;
		size_t j = i + 8;
		int a = 0, b = 0, da = 0, db = 0;
		while (j < n && (s[j] == ' ' || s[j] == '\t'))
			j++;
		while (j < n && s[j] >= '0' && s[j] <= '9' && da < 4)
			a = a * 10 + (s[j++] - '0'), da++;
		if (j >= n || s[j] != '.' || !da)
			return;
		j++;
		while (j < n && s[j] >= '0' && s[j] <= '9' && db < 4)
			b = b * 10 + (s[j++] - '0'), db++;
		if (!db)
			return;
		*maj = a;
		*min = b;
		return;
	}
}

/* Decompresses at most the first `want` bytes of the payload into buf. Returns bytes or <0. */
static ssize_t head_decompress(enum fatbin_compression c, const uint8_t *src, size_t slen,
			       uint8_t *buf, size_t want)
{
	if (c == FATBIN_COMPRESS_LZ4) {
		if (slen > INT32_MAX)
			return -EBADMSG;
		int n = LZ4_decompress_safe_partial((const char *)src, (char *)buf, (int)slen,
						    (int)want, (int)want);
		return n < 0 ? -EBADMSG : n;
	}
	if (c == FATBIN_COMPRESS_ZSTD) {
		ZSTD_DStream *ds = ZSTD_createDStream();
		ZSTD_inBuffer in = { src, slen, 0 };
		ZSTD_outBuffer out = { buf, want, 0 };
		ssize_t rv = 0;

		if (!ds)
			return -ENOMEM;
		ZSTD_initDStream(ds);
		while (out.pos < out.size && in.pos < in.size) {
			size_t z = ZSTD_decompressStream(ds, &out, &in);
			if (ZSTD_isError(z)) {
				rv = -EBADMSG;
				break;
			}
			if (z == 0)
				break;
		}
		ZSTD_freeDStream(ds);
		return rv < 0 ? rv : (ssize_t)out.pos;
	}
	return -EOPNOTSUPP;
}

static void fill_target(struct fatbin_entry *e)
{
	const char *pfx = e->kind == FATBIN_KIND_PTX ? "compute_" :
			  e->kind == FATBIN_KIND_ELF ? "sm_" :
			  e->kind == FATBIN_KIND_LTO ? "lto_" : "kind?_";
	char v[2] = { e->variant, 0 };
	snprintf(e->target, sizeof(e->target), "%s%u%s", pfx, e->arch, v);
}

static int parse_entry(struct fatbin_result *r, const uint8_t *e, uint32_t hsz, uint64_t psz)
{
	struct fatbin_entry *x;
	int rv = push_entry(r, &x);

	if (rv < 0)
		return rv;
	x->raw_kind = rd16(e);
	x->kind = (x->raw_kind == 1 || x->raw_kind == 2 || x->raw_kind == 8) ?
			  (enum fatbin_kind)x->raw_kind : FATBIN_KIND_UNKNOWN;
	x->stored_size = psz;
	x->ver_minor = rd16(e + 0x18);
	x->ver_major = rd16(e + 0x1a);
	x->arch = rd32(e + 0x1c);
	x->flags = rd64(e + 0x28);
	x->is64 = x->flags & FLAG_64BIT;
	x->variant = (x->flags & FLAG_ARCH_A) ? 'a' : (x->flags & FLAG_ARCH_F) ? 'f' : 0;
	if (x->flags & FLAG_ZSTD)
		x->compression = FATBIN_COMPRESS_ZSTD;
	else if (x->flags & FLAG_LZ4)
		x->compression = FATBIN_COMPRESS_LZ4;
	else if (x->flags & FLAG_COMPRESS_OLD)
		x->compression = FATBIN_COMPRESS_OTHER;
	uint64_t csize = rd32(e + 0x10);
	x->uncompressed_size = x->compression ? rd64(e + 0x38) : psz;
	if (x->compression && csize > psz)
		return -EBADMSG;
	fill_target(x);

	const uint8_t *pl = e + hsz;
	size_t plen = x->compression ? csize : psz;
	uint8_t head[PTX_HEAD];
	size_t hl = 0;

	if (x->kind != FATBIN_KIND_PTX && x->kind != FATBIN_KIND_ELF)
		return 0;
	if (x->compression == FATBIN_COMPRESS_NONE) {
		hl = MIN(plen, sizeof(head));
		memcpy(head, pl, hl);
	} else if (x->compression != FATBIN_COMPRESS_OTHER) {
		ssize_t n = head_decompress(x->compression, pl, plen, head,
					    MIN(sizeof(head), x->uncompressed_size));
		if (n == -ENOMEM)
			return -ENOMEM;
		if (n > 0)
			hl = (size_t)n;
	}
	if (x->kind == FATBIN_KIND_PTX)
		ptx_version((const char *)head, hl, &x->ptx_major, &x->ptx_minor);
	else
		x->cubin_sm = cubin_sm(head, hl);
	return 0;
}

/* Walks a region of back-to-back containers (facts §5). */
static int walk_containers(struct fatbin_result *r, const uint8_t *p, size_t len, bool strict)
{
	size_t off = 0;
	int rv;

	while (range_ok(len, off, 16)) {
		if (rd64(p + off) == 0) {
			off += 8;
			continue;
		}
		if (rd32(p + off) != FATBIN_MAGIC || rd16(p + off + 4) != 1 || rd16(p + off + 6) != 16)
			return strict ? -EBADMSG : 0;
		uint64_t fsz = rd64(p + off + 8);
		if (!range_ok(len, off + 16, fsz))
			return -EBADMSG;
		size_t end = off + 16 + fsz, e = off + 16;
		while (e < end) {
			if (!range_ok(end, e, 64))
				return -EBADMSG;
			uint32_t hsz = rd32(p + e + 4);
			uint64_t psz = rd64(p + e + 8);
			if (rd16(p + e + 2) != 0x0101 || hsz < 64 || hsz % 8 ||
			    !range_ok(end, e, hsz) || !range_ok(end, e + hsz, psz))
				return -EBADMSG;
			rv = parse_entry(r, p + e, hsz, psz);
			if (rv < 0)
				return rv;
			e += hsz + psz;
		}
		r->n_containers++;
		off = end;
	}
	return 0;
}

static int scan_standalone_cubin(struct fatbin_result *r, const uint8_t *p, size_t len)
{
	struct fatbin_entry *x;
	int sm = cubin_sm(p, len);
	int rv;

	if (sm < 0)
		return -EBADMSG;
	rv = push_entry(r, &x);
	if (rv < 0)
		return rv;
	x->kind = x->raw_kind = FATBIN_KIND_ELF;
	x->arch = (unsigned)sm;
	x->cubin_sm = sm;
	x->is64 = true;
	x->stored_size = x->uncompressed_size = len;
	if (p[8] < 8 && (rd32(p + 48) & 0x800))
		x->variant = 'a';
	fill_target(x);
	return 0;
}

static int scan_elf(struct fatbin_result *r, const uint8_t *p, size_t len)
{
	Elf *elf;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	int rv = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	elf = elf_memory((char *)(uintptr_t)p, len);
	if (!elf)
		return -EBADMSG;
	if (elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) < 0) {
		rv = -EBADMSG;
		goto out;
	}
	r->is_elf = true;
	{
		GElf_Ehdr eh;
		size_t shnum;

		if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum) < 0 ||
		    shnum > 65536 || shnum < eh.e_shnum || (eh.e_shnum && (eh.e_shentsize < sizeof(Elf32_Shdr) ||
		    !range_ok(len, eh.e_shoff, (uint64_t)shnum * eh.e_shentsize)))) {
			rv = -EBADMSG;
			goto out;
		}
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh)) {
			rv = -EBADMSG;
			goto out;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || sh.sh_type == SHT_NOBITS)
			continue;
		if (!streq(name, ".nv_fatbin") && !streq(name, "__nv_relfatbin"))
			continue;
		if (!range_ok(len, sh.sh_offset, sh.sh_size)) {
			rv = -EBADMSG;
			goto out;
		}
		rv = walk_containers(r, p + sh.sh_offset, sh.sh_size, true);
		if (rv < 0)
			goto out;
	}
out:
	elf_end(elf);
	return rv;
}

int fatbin_scan_buffer(const uint8_t *p, size_t len, struct fatbin_result **ret)
{
	struct fatbin_result *r;
	int rv;

	if (!p || !ret)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	if (len >= 16 && rd32(p) == FATBIN_MAGIC)
		rv = walk_containers(r, p, len, true);
	else if (len >= 64 && memcmp(p, "\177ELF", 4) == 0 && rd16(p + 18) == EM_CUDA_)
		rv = scan_standalone_cubin(r, p, len);
	else if (len >= 4 && memcmp(p, "\177ELF", 4) == 0)
		rv = scan_elf(r, p, len);
	else
		rv = -EBADMSG;
	if (rv < 0) {
		fatbin_result_free(r);
		return rv;
	}
	*ret = r;
	return 0;
}

void fatbin_result_free(struct fatbin_result *r)
{
	if (!r)
		return;
	free(r->entries);
	if (r->needed)
		for (size_t i = 0; r->needed[i]; i++)
			free(r->needed[i]);
	free(r->needed);
	free(r->soname);
	free(r->runpath);
	free(r);
}
