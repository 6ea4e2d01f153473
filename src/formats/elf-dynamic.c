/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The dynamic section of an ELF file, read as ld.so reads it (see elf-dynamic.h): PT_DYNAMIC
 * from the program headers (section headers may be stripped), the DT_STRTAB address mapped
 * to a file offset through PT_LOAD (System V gABI, "Program Loading"), and each string taken
 * from DT_STRTAB only when its offset lies inside DT_STRSZ and the string ends in a NUL
 * there. Every offset and size goes through range_ok(); counts are capped.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-dynamic.h"
#include "shared/macro.h"

/* off + n lies within [0, len), without overflow. */
static bool range_ok(uint64_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}

struct dyn_scan {
	uint64_t strtab, strsz;
	bool has_strtab, has_strsz;
	uint64_t soname, runpath, rpath;
	bool has_soname, has_runpath, has_rpath;
	uint64_t *needed;
	size_t n_needed;
};

static void set_problem(struct elf_dynamic *d, const char *why)
{
	if (!d->problem)
		d->problem = why;
}

const char *elf_machine_name(unsigned machine)
{
	switch (machine) {
	case EM_386:
		return "i386";
	case EM_X86_64:
		return "x86-64";
	case EM_AARCH64:
		return "aarch64";
	case EM_ARM:
		return "arm";
	case EM_PPC:
		return "ppc";
	case EM_PPC64:
		return "ppc64";
	case EM_S390:
		return "s390";
	case EM_RISCV:
		return "riscv";
	case EM_MIPS:
		return "mips";
	case EM_SPARCV9:
		return "sparc64";
	case EM_LOONGARCH:
		return "loongarch";
	case 190:
		return "cuda"; /* EM_CUDA */
	case 224:
		return "amdgpu"; /* EM_AMDGPU */
	default:
		return NULL;
	}
}

struct elf_dynamic *elf_dynamic_free(struct elf_dynamic *d)
{
	if (!d)
		return NULL;
	for (size_t i = 0; d->needed && d->needed[i]; i++)
		free(d->needed[i]);
	free(d->needed);
	free(d->soname);
	free(d->runpath);
	free(d->rpath);
	free(d);
	return NULL;
}

static bool same_string(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

bool elf_dynamic_same(const struct elf_dynamic *a, const struct elf_dynamic *b)
{
	if (a->elf_class != b->elf_class || a->data != b->data || a->type != b->type ||
	    a->machine != b->machine || a->has_dynamic != b->has_dynamic ||
	    a->n_needed != b->n_needed || a->needed_truncated != b->needed_truncated ||
	    !same_string(a->problem, b->problem) || !same_string(a->soname, b->soname) ||
	    !same_string(a->runpath, b->runpath) || !same_string(a->rpath, b->rpath))
		return false;
	for (size_t i = 0; i < a->n_needed; i++)
		if (!same_string(a->needed[i], b->needed[i]))
			return false;
	return true;
}

/* The file offset of virtual address addr through the PT_LOAD segments, as ld.so maps them. */
static bool vaddr_to_offset(Elf *elf, size_t phnum, uint64_t len, uint64_t addr, uint64_t *ret)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr < ph.p_vaddr || addr - ph.p_vaddr >= ph.p_filesz)
			continue;
		if (!range_ok(len, ph.p_offset, addr - ph.p_vaddr))
			return false;
		*ret = ph.p_offset + (addr - ph.p_vaddr);
		return true;
	}
	return false;
}

/* Copies string idx of the string table [str, str + strsz), which lies inside the file.
 * NULL with a problem recorded when the offset or the terminator is outside it. */
static int take_string(struct elf_dynamic *d, const uint8_t *str, uint64_t strsz, uint64_t idx,
		       const char *bad_offset, char **ret)
{
	size_t max, n;

	if (idx >= strsz) {
		set_problem(d, bad_offset);
		return 0;
	}
	max = (size_t)MIN(strsz - idx, (uint64_t)ELF_DYNAMIC_MAX_STRING + 1);
	n = strnlen((const char *)str + idx, max);
	if (n == max) {
		set_problem(d, n > ELF_DYNAMIC_MAX_STRING
				       ? "a dynamic string is too long"
				       : "a dynamic string is not terminated inside DT_STRTAB");
		return 0;
	}
	*ret = strndup((const char *)str + idx, n);
	return *ret ? 0 : -ENOMEM;
}

static int scan_entries(struct elf_dynamic *d, Elf_Data *data, size_t n, struct dyn_scan *s)
{
	for (size_t i = 0; i < n; i++) {
		GElf_Dyn dyn;

		if (!gelf_getdyn(data, (int)i, &dyn)) {
			set_problem(d, "unreadable dynamic entry");
			break;
		}
		switch (dyn.d_tag) {
		case DT_NULL:
			return 0;
		case DT_STRTAB:
			s->strtab = dyn.d_un.d_ptr;
			s->has_strtab = true;
			break;
		case DT_STRSZ:
			s->strsz = dyn.d_un.d_val;
			s->has_strsz = true;
			break;
		case DT_SONAME:
			s->soname = dyn.d_un.d_val;
			s->has_soname = true;
			break;
		case DT_RUNPATH:
			s->runpath = dyn.d_un.d_val;
			s->has_runpath = true;
			break;
		case DT_RPATH:
			s->rpath = dyn.d_un.d_val;
			s->has_rpath = true;
			break;
		case DT_NEEDED:
			if (s->n_needed >= ELF_DYNAMIC_MAX_NEEDED) {
				d->needed_truncated = true;
				break;
			}
			if (!s->needed) {
				s->needed = calloc(ELF_DYNAMIC_MAX_NEEDED, sizeof(*s->needed));
				if (!s->needed)
					return -ENOMEM;
			}
			s->needed[s->n_needed++] = dyn.d_un.d_val;
			break;
		default:
			break;
		}
	}
	return 0;
}

static int read_strings(struct elf_dynamic *d, Elf *elf, size_t phnum, const uint8_t *p, size_t len,
			struct dyn_scan *s)
{
	const uint8_t *str;
	uint64_t off;
	int err;

	if (!s->has_soname && !s->has_runpath && !s->has_rpath && s->n_needed == 0)
		return 0;
	if (!s->has_strtab || !s->has_strsz) {
		set_problem(d, "dynamic strings without DT_STRTAB/DT_STRSZ");
		return 0;
	}
	if (!vaddr_to_offset(elf, phnum, len, s->strtab, &off)) {
		set_problem(d, "DT_STRTAB is not inside any PT_LOAD segment of the file");
		return 0;
	}
	if (!range_ok(len, off, s->strsz)) {
		set_problem(d, "DT_STRTAB extends past the end of the file");
		return 0;
	}
	str = p + off;
	if (s->has_soname) {
		err = take_string(d, str, s->strsz, s->soname, "DT_SONAME offset outside DT_STRTAB",
				  &d->soname);
		if (err < 0)
			return err;
	}
	if (s->has_runpath) {
		err = take_string(d, str, s->strsz, s->runpath,
				  "DT_RUNPATH offset outside DT_STRTAB", &d->runpath);
		if (err < 0)
			return err;
	}
	if (s->has_rpath) {
		err = take_string(d, str, s->strsz, s->rpath, "DT_RPATH offset outside DT_STRTAB",
				  &d->rpath);
		if (err < 0)
			return err;
	}
	for (size_t i = 0; i < s->n_needed; i++) {
		char *name = NULL;

		err = take_string(d, str, s->strsz, s->needed[i],
				  "DT_NEEDED offset outside DT_STRTAB", &name);
		if (err < 0)
			return err;
		if (name)
			d->needed[d->n_needed++] = name;
	}
	return 0;
}

static int parse_elf(Elf *elf, const uint8_t *p, size_t len, struct elf_dynamic *d)
{
	struct dyn_scan s = { 0 };
	GElf_Ehdr eh;
	GElf_Phdr dynph = { 0 };
	bool found = false;
	size_t phnum, entsize, n;
	Elf_Data *data;
	int err;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return -EBADMSG;
	if (eh.e_ident[EI_CLASS] != ELFCLASS32 && eh.e_ident[EI_CLASS] != ELFCLASS64)
		return -EBADMSG;
	d->elf_class = eh.e_ident[EI_CLASS];
	d->data = eh.e_ident[EI_DATA];
	d->type = eh.e_type;
	d->machine = eh.e_machine;
	if (elf_getphdrnum(elf, &phnum) < 0 || phnum > ELF_DYNAMIC_MAX_PHDRS)
		return -EBADMSG;
	if (phnum > 0 && (eh.e_phentsize != gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT) ||
			  !range_ok(len, eh.e_phoff, (uint64_t)phnum * eh.e_phentsize)))
		return -EBADMSG;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return -EBADMSG;
		if (ph.p_type == PT_DYNAMIC && !found) {
			dynph = ph;
			found = true;
		}
	}
	d->needed = calloc(1, sizeof(char *));
	if (!d->needed)
		return -ENOMEM;
	if (!found)
		return 0;
	d->has_dynamic = true;
	entsize = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
	if (entsize == 0 || !range_ok(len, dynph.p_offset, dynph.p_filesz)) {
		set_problem(d, "PT_DYNAMIC extends past the end of the file");
		return 0;
	}
	n = (size_t)(dynph.p_filesz / entsize);
	if (n > ELF_DYNAMIC_MAX_ENTRIES) {
		set_problem(d, "more dynamic entries than gpuenv reads");
		n = ELF_DYNAMIC_MAX_ENTRIES;
	}
	if (n == 0)
		return 0;
	data = elf_getdata_rawchunk(elf, (int64_t)dynph.p_offset, n * entsize, ELF_T_DYN);
	if (!data) {
		set_problem(d, "PT_DYNAMIC cannot be read");
		return 0;
	}
	err = scan_entries(d, data, n, &s);
	if (err >= 0 && s.n_needed > 0) {
		char **v = calloc(s.n_needed + 1, sizeof(char *));

		if (!v) {
			err = -ENOMEM;
		} else {
			free(d->needed);
			d->needed = v;
		}
	}
	if (err >= 0)
		err = read_strings(d, elf, phnum, p, len, &s);
	free(s.needed);
	return err;
}

int elf_dynamic_parse(const uint8_t *p, size_t len, struct elf_dynamic **ret)
{
	struct elf_dynamic *d;
	Elf *elf;
	int err;

	if (!p || len < EI_NIDENT || memcmp(p, ELFMAG, SELFMAG) != 0)
		return -EBADMSG;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	/* elf_memory() wants a char *, but a read-only image is only ever read (ELF_C_READ_MMAP).
	 */
	elf = elf_memory((char *)(uintptr_t)p, len);
	if (!elf)
		return -EBADMSG;
	d = calloc(1, sizeof(*d));
	if (!d) {
		elf_end(elf);
		return -ENOMEM;
	}
	err = parse_elf(elf, p, len, d);
	elf_end(elf);
	if (err < 0) {
		elf_dynamic_free(d);
		return err;
	}
	*ret = d;
	return 0;
}
