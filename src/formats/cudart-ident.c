// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CUDA runtime a host ELF file links or bundles (cudart-ident.h): DT_NEEDED/DT_SONAME
 * names, and the strings static cudart and nvlink leave in .rodata (System V gABI section
 * headers, read through libelf). With a reader, the sections are searched through it in
 * bounded reads instead of in place: a 46 MB .rodata (libcublasLt) searched in a mapping stays
 * resident until it is unmapped.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cudart-ident.h"
#include "shared/macro.h"

/* "libcudart.so.13" or "libcudart.so.12.8.90" → "13" / "12"; false for anything else. */
static bool cudart_soname_major(const char *name, char *buf, size_t n)
{
	const char *p;
	size_t d = 0;

	if (!name || !startswith(name, "libcudart.so."))
		return false;
	p = name + strlen("libcudart.so.");
	while (p[d] >= '0' && p[d] <= '9' && d < 4)
		d++;
	if (d == 0 || (p[d] != '\0' && p[d] != '.'))
		return false;
	snprintf(buf, n, "%.*s", (int)d, p);
	return true;
}

int cudart_ident_linked(const char *soname, char *const *needed, size_t n_needed,
			struct cudart_ident *ret)
{
	struct cudart_ident id = { 0 };

	if (cudart_soname_major(soname, id.version, sizeof(id.version))) {
		id.is_runtime = true;
		*ret = id;
		return 1;
	}
	for (size_t i = 0; needed && i < n_needed; i++)
		if (cudart_soname_major(needed[i], id.version, sizeof(id.version))) {
			*ret = id;
			return 1;
		}
	return 0;
}

void cudart_ident_release(const uint8_t *p, size_t left, char *buf, size_t n)
{
	static const char key[] = "Cuda compilation tools, release ";
	size_t k = sizeof(key) - 1, e = k;

	while (e < left && e < k + 8 && ((p[e] >= '0' && p[e] <= '9') || p[e] == '.'))
		e++;
	if (e > k && p[e - 1] != '.' && e < left && p[e] == ',')
		snprintf(buf, n, "%.*s", (int)(e - k), (const char *)p + k);
}

/* The section named `want` of elf, bounds-checked against len; NULL when absent. */
static const uint8_t *section(Elf *elf, size_t shstrndx, const uint8_t *p, size_t len,
			      const char *want, size_t *ret_size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, want) != 0)
			continue;
		if (sh.sh_offset > len || sh.sh_size > len - sh.sh_offset)
			return NULL;
		*ret_size = sh.sh_size;
		return p + sh.sh_offset;
	}
	return NULL;
}

/* Where a needle first lies in a section, and the bytes from there on. */
struct hit {
	const char *needle;
	int64_t at; /* its offset in the section; -1 none */
	uint8_t tail[64];
	size_t tail_len;
};

static int tail_at(const struct cudart_ident_reader *rd, uint64_t base, size_t n, uint64_t h,
		   struct hit *x)
{
	ssize_t got;

	x->at = (int64_t)h;
	x->tail_len = (size_t)MIN(n - h, (uint64_t)sizeof(x->tail));
	got = rd->read(rd->userdata, base + h, x->tail, x->tail_len);
	return got < 0 ? (int)got : (size_t)got < x->tail_len ? -EIO : 0;
}

/* Where each needle of hits[0..nh) first lies in the section d[0..n) (at file offset d - p):
 * searched in place, or with rd in one pass of CUDART_IDENT_CHUNK reads that overlap by the
 * longest needle's length less one, so that no page of a mapping is touched and each byte
 * is read once whatever the number of needles. The pass ends when every needle is found. In
 * place, the needles after one that is missing are not searched (the first is the one the
 * caller needs). 0, or -errno when a read failed. */
static int find(const struct cudart_ident_reader *rd, const uint8_t *p, const uint8_t *d, size_t n,
		struct hit *hits, size_t nh)
{
	uint64_t base = (uint64_t)(d - p);
	size_t k = 0, left = nh;
	_cleanup_free_ uint8_t *buf = NULL;
	const uint8_t *hit;

	for (size_t i = 0; i < nh; i++) {
		hits[i].at = -1;
		k = MAX(k, strlen(hits[i].needle));
	}
	if (!rd) {
		for (size_t i = 0; i < nh; i++) {
			hit = memmem(d, n, hits[i].needle, strlen(hits[i].needle));
			if (!hit)
				break;
			hits[i].at = hit - d;
			hits[i].tail_len = MIN(n - (size_t)(hit - d), sizeof(hits[i].tail));
			memcpy(hits[i].tail, hit, hits[i].tail_len);
		}
		return 0;
	}
	buf = malloc(CUDART_IDENT_CHUNK + k);
	if (!buf)
		return -ENOMEM;
	for (size_t at = 0; at < n && left > 0;) {
		size_t want = MIN(n - at, CUDART_IDENT_CHUNK + k - 1);
		ssize_t got = rd->read(rd->userdata, base + at, buf, want);

		if (got < 0 || (size_t)got < want)
			return got < 0 ? (int)got : -EIO;
		/* a needle shorter than the overlap may be found twice: the first chunk's is first */
		for (size_t i = 0; i < nh; i++) {
			int rv;

			if (hits[i].at >= 0)
				continue;
			hit = memmem(buf, want, hits[i].needle, strlen(hits[i].needle));
			if (!hit)
				continue;
			rv = tail_at(rd, base, n, at + (size_t)(hit - buf), &hits[i]);
			if (rv < 0)
				return rv;
			left--;
		}
		if (want < CUDART_IDENT_CHUNK + k - 1)
			break;
		at += CUDART_IDENT_CHUNK;
	}
	return 0;
}

/* Does needle lie anywhere in the section d[0..n)? In place, or with rd in CUDART_IDENT_CHUNK
 * reads from the section's end backwards, each overlapping the one after it by the needle's
 * length less one: static cudart is linked last (nvcc puts -lcudart_static after the objects),
 * so its strings lie at the end of .rodata (at 92 to 99.98 % of it in every CUDA 13.0 library
 * that carries them: libcublasLt.so.13's within the last 20 KiB of 46 MB), and one read finds
 * them where a forward pass read the whole section. 1 / 0, or -errno when a read failed. */
static int contains(const struct cudart_ident_reader *rd, const uint8_t *p, const uint8_t *d,
		    size_t n, const char *needle)
{
	uint64_t base = (uint64_t)(d - p);
	size_t k = strlen(needle), end = n;
	_cleanup_free_ uint8_t *buf = NULL;

	if (!rd)
		return memmem(d, n, needle, k) != NULL;
	buf = malloc(CUDART_IDENT_CHUNK + k);
	if (!buf)
		return -ENOMEM;
	while (end > 0) {
		size_t start = end > CUDART_IDENT_CHUNK ? end - CUDART_IDENT_CHUNK : 0;
		size_t want = MIN(n, end + k - 1) - start;
		ssize_t got = rd->read(rd->userdata, base + start, buf, want);

		if (got < 0 || (size_t)got < want)
			return got < 0 ? (int)got : -EIO;
		if (memmem(buf, want, needle, k))
			return 1;
		end = start;
	}
	return 0;
}

int cudart_ident_static(const uint8_t *p, size_t len, struct cudart_ident *ret)
{
	return cudart_ident_static_read(p, len, NULL, NULL, ret);
}

int cudart_ident_static_read(const uint8_t *p, size_t len, const struct cudart_ident_reader *rd,
			     const char *cubin_release, struct cudart_ident *ret)
{
	static const char marker[] = "CUDA driver version is insufficient for CUDA runtime version";
	struct hit tools = { .needle = "Cuda compilation tools, release " };
	struct cudart_ident id = { .is_static = true };
	size_t shstrndx, n = 0, n_rodata = 0;
	const uint8_t *d, *rodata;
	Elf *elf;
	int found = 0;

	if (len < 64 || memcmp(p, "\177ELF", 4) != 0 || elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	/* elf_memory() wants a char *; ELF_C_READ_MMAP only reads it */
	elf = elf_memory((char *)(uintptr_t)p, len);
	if (!elf)
		return 0;
	if (elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0)
		goto out;
	rodata = section(elf, shstrndx, p, len, ".rodata", &n_rodata);
	if (!rodata || n_rodata > CUDART_IDENT_MAX_RODATA)
		goto out;
	found = contains(rd, p, rodata, n_rodata, marker);
	if (found <= 0)
		goto out;
	/* The toolkit, from the cheapest source that names it: the first uncompressed cubin's
	 * .note.nv.tkinfo near the start of .nv_fatbin, else the compressed cubin the caller
	 * decompressed, else a string in .rodata, which only a pass over all of it can tell is
	 * not there (none of CUDA 13.0's libraries, nor nvcc 13.0's output, has one there: its
	 * strings are in the cubins). */
	d = rd && rd->fatbin_head_compressed ? NULL
					     : section(elf, shstrndx, p, len, ".nv_fatbin", &n);
	if (d) {
		int rv = find(rd, p, d, MIN(n, CUDART_IDENT_FATBIN_HEAD), &tools, 1);

		if (rv < 0) {
			found = rv;
			goto out;
		}
		if (tools.at >= 0)
			cudart_ident_release(tools.tail, tools.tail_len, id.version,
					     sizeof(id.version));
	}
	if (!id.version[0] && cubin_release && cubin_release[0])
		snprintf(id.version, sizeof(id.version), "%s", cubin_release);
	if (!id.version[0]) {
		int rv = find(rd, p, rodata, n_rodata, &tools, 1);

		if (rv < 0) {
			found = rv;
			goto out;
		}
		if (tools.at >= 0)
			cudart_ident_release(tools.tail, tools.tail_len, id.version,
					     sizeof(id.version));
	}
out:
	elf_end(elf);
	if (found == 1)
		*ret = id;
	return found;
}
