/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Walks the members of an ar archive in memory with libelf: elf_memory() over the whole
 * buffer gives an ELF_K_AR descriptor, elf_begin(-1, ELF_C_READ_MMAP, ar) each member in turn
 * and elf_next() the command for the one after (ELF_C_NULL past the last, or before a broken
 * header); elf_getarhdr() names it, elf_getbase()/elf_rawfile() give its bytes inside the
 * buffer (nothing is copied). libelf hands out a member cut short by the end of the file with
 * what is there (and shortens ar_size to match), so the size its header declares is read to
 * tell. Format: the System V ABI "Archive File" chapter and GNU ar's "//" long-name member
 * (binutils bfd/archive.c), both read by libelf (elfutils libelf/elf_begin.c).
 */
#include <ar.h>
#include <errno.h>
#include <libelf.h>
#include <string.h>

#include "formats/archive.h"
#include "shared/parse.h"

bool ar_is_archive(const uint8_t *p, size_t len)
{
	return len >= SARMAG &&
	       (memcmp(p, ARMAG, SARMAG) == 0 || memcmp(p, "!<thin>\n", SARMAG) == 0);
}

/* The archive's own tables, which elf_begin() hands out like members: the symbol index
 * ("/" and the 64-bit "/SYM64/") and GNU's long-name table ("//"). */
static bool is_table(const char *name)
{
	return strcmp(name, "/") == 0 || strcmp(name, "//") == 0 || strcmp(name, "/SYM64/") == 0;
}

/* The size the member's own header declares (struct ar_hdr, <ar.h>: ar_size, decimal, blank
 * padded, just before the data), which libelf shortens to what the file holds: 0 when it
 * cannot be read, as for a member without data. */
static uint64_t declared_size(const uint8_t *p, const uint8_t *data)
{
	const struct ar_hdr *h;
	char field[sizeof(h->ar_size) + 1];
	size_t n = sizeof(h->ar_size);
	uint64_t v;

	if ((size_t)(data - p) < SARMAG + sizeof(*h))
		return 0;
	h = (const struct ar_hdr *)(data - sizeof(*h));
	if (memcmp(h->ar_fmag, ARFMAG, sizeof(h->ar_fmag)) != 0)
		return 0;
	memcpy(field, h->ar_size, n);
	while (n > 0 && field[n - 1] == ' ')
		n--;
	field[n] = '\0';
	return parse_u64(field, 10, &v) == 0 ? v : 0;
}

int ar_for_each_member(const uint8_t *p, size_t len,
		       int (*fn)(void *userdata, const char *name, const uint8_t *m, size_t n),
		       void *userdata, const char **why)
{
	Elf_Cmd cmd = ELF_C_READ_MMAP;
	size_t end = SARMAG; /* where the member after the last one visited starts */
	unsigned visited = 0;
	Elf *ar, *m;
	int rv = 0;

	if (!ar_is_archive(p, len))
		return -EBADMSG;
	if (memcmp(p, "!<thin>\n", SARMAG) == 0) {
		if (why)
			*why = "thin archive: its members are separate files";
		return -EOPNOTSUPP;
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	/* elf_memory() wants a char *; the image is only read (ELF_C_READ_MMAP) */
	ar = elf_memory((char *)(uintptr_t)p, len);
	if (!ar || elf_kind(ar) != ELF_K_AR) {
		if (why)
			*why = elf_errmsg(-1);
		elf_end(ar);
		return -EBADMSG;
	}
	while (rv >= 0 && (m = elf_begin(-1, cmd, ar)) != NULL) {
		Elf_Arhdr *h = elf_getarhdr(m);
		int64_t base = elf_getbase(m); /* where the member's data starts */
		size_t n = 0;
		const char *raw = elf_rawfile(m, &n);

		/* libelf's answers point into the buffer: check them, never trust */
		if (!h || !h->ar_name || base < 0 || (uint64_t)base > len ||
		    n > len - (size_t)base || (raw && (const uint8_t *)raw != p + base)) {
			if (why)
				*why = elf_errmsg(-1);
			rv = -EBADMSG;
		} else if (declared_size(p, p + base) > n) {
			if (why)
				*why = "a member is cut short by the end of the file";
			rv = -EBADMSG;
		} else {
			end = (size_t)base + n + (n & 1); /* data are padded to an even length */
			if (is_table(h->ar_name))
				; /* not a member */
			else if (++visited > AR_MAX_MEMBERS)
				rv = -E2BIG;
			else
				rv = fn(userdata, h->ar_name, p + base, n);
		}
		cmd = elf_next(m);
		elf_end(m);
	}
	/* elf_next() says ELF_C_NULL past the last member, and also when the next member's
	 * header is broken: bytes left after the last member visited tell the two apart */
	if (rv >= 0 && end < len) {
		const char *e = elf_errmsg(-1);

		if (why)
			*why = e ? e : "a member header is broken";
		rv = -EBADMSG;
	}
	elf_end(ar);
	return rv;
}
