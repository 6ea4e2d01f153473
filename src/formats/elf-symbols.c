/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The dynamic symbols of an ELF file and their GNU versions (see elf-symbols.h). Layout: the
 * System V gABI "Symbol Table" chapter for .dynsym; the LSB Core specification, "Symbol
 * Versioning", for .gnu.version (one Elfxx_Half per .dynsym entry: an index, bit 15 "hidden"),
 * .gnu.version_r (Elfxx_Verneed chains, each with Elfxx_Vernaux entries whose vna_other is the
 * index) and .gnu.version_d (Elfxx_Verdef chains, vd_ndx the index, the first Elfxx_Verdaux
 * its name). Every chain is walked with a cap; libelf checks the offsets of each entry and
 * elf_strptr() those of each string.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-symbols.h"
#include "shared/macro.h"

#define VERSYM_HIDDEN 0x8000u

struct version_name {
	const char *name, *file; /* in the libelf image: valid until elf_end() */
};

struct tables {
	Elf_Scn *dynsym, *versym, *verneed, *verdef;
	size_t dynstr, verneed_str, verdef_str;
	struct version_name *names; /* by version index, ELF_SYMBOLS_MAX_VERSION */
};

static void set_problem(struct elf_symbols *s, const char *why)
{
	if (!s->problem)
		s->problem = why;
}

static void find_tables(Elf *elf, struct tables *t)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		switch (sh.sh_type) {
		case SHT_DYNSYM:
			if (!t->dynsym) {
				t->dynsym = scn;
				t->dynstr = sh.sh_link;
			}
			break;
		case SHT_GNU_versym:
			t->versym = t->versym ?: scn;
			break;
		case SHT_GNU_verneed:
			if (!t->verneed) {
				t->verneed = scn;
				t->verneed_str = sh.sh_link;
			}
			break;
		case SHT_GNU_verdef:
			if (!t->verdef) {
				t->verdef = scn;
				t->verdef_str = sh.sh_link;
			}
			break;
		}
	}
}

/* Index -> (name, file) from .gnu.version_r: each Verneed names a file, each of its Vernaux a
 * version needed from it. */
static void map_verneed(Elf *elf, struct tables *t, struct elf_symbols *s)
{
	Elf_Data *d = t->verneed ? elf_getdata(t->verneed, NULL) : NULL;
	size_t off = 0;

	for (unsigned i = 0; d && i < ELF_SYMBOLS_MAX_VERSION; i++) {
		GElf_Verneed vn;
		size_t aux;

		if (off > INT32_MAX || !gelf_getverneed(d, (int)off, &vn)) {
			set_problem(s, "a .gnu.version_r entry lies outside its section");
			return;
		}
		aux = off + vn.vn_aux;
		for (unsigned k = 0; k < vn.vn_cnt && k < ELF_SYMBOLS_MAX_VERSION; k++) {
			GElf_Vernaux va;
			unsigned ndx;

			if (aux > INT32_MAX || !gelf_getvernaux(d, (int)aux, &va)) {
				set_problem(s, "a .gnu.version_r entry lies outside its section");
				return;
			}
			ndx = va.vna_other & ~VERSYM_HIDDEN;
			if (ndx < ELF_SYMBOLS_MAX_VERSION) {
				t->names[ndx].name = elf_strptr(elf, t->verneed_str, va.vna_name);
				t->names[ndx].file = elf_strptr(elf, t->verneed_str, vn.vn_file);
			}
			if (!va.vna_next)
				break;
			aux += va.vna_next;
		}
		if (!vn.vn_next)
			return;
		off += vn.vn_next;
	}
}

/* Index -> name from .gnu.version_d: each Verdef's first Verdaux names it. */
static void map_verdef(Elf *elf, struct tables *t, struct elf_symbols *s)
{
	Elf_Data *d = t->verdef ? elf_getdata(t->verdef, NULL) : NULL;
	size_t off = 0;

	for (unsigned i = 0; d && i < ELF_SYMBOLS_MAX_VERSION; i++) {
		GElf_Verdef vd;
		GElf_Verdaux va;
		unsigned ndx;

		if (off > INT32_MAX || !gelf_getverdef(d, (int)off, &vd)) {
			set_problem(s, "a .gnu.version_d entry lies outside its section");
			return;
		}
		ndx = vd.vd_ndx & ~VERSYM_HIDDEN;
		if (vd.vd_cnt && ndx < ELF_SYMBOLS_MAX_VERSION) {
			if (off + vd.vd_aux > INT32_MAX ||
			    !gelf_getverdaux(d, (int)(off + vd.vd_aux), &va))
				set_problem(s, "a .gnu.version_d entry lies outside its section");
			else
				t->names[ndx].name = elf_strptr(elf, t->verdef_str, va.vda_name);
		}
		if (!vd.vd_next)
			return;
		off += vd.vd_next;
	}
}

static int keep(struct elf_symbols *s, size_t cap, const char *name, const struct version_name *v,
		bool defined)
{
	struct elf_symbol *e;

	if (s->n >= cap) {
		s->truncated = true;
		return 0;
	}
	if (s->n % 16 == 0) {
		e = reallocarray(s->sym, s->n + 16, sizeof(*e));
		if (!e)
			return -ENOMEM;
		s->sym = e;
	}
	e = &s->sym[s->n];
	*e = (struct elf_symbol){ .defined = defined };
	e->name = strdup(name);
	e->version = v && v->name ? strdup(v->name) : NULL;
	e->file = !defined && v && v->file ? strdup(v->file) : NULL;
	s->n++;
	if (!e->name || (v && v->name && !e->version) || (!defined && v && v->file && !e->file))
		return -ENOMEM;
	return 0;
}

/* Does name start with one of prefixes (NULL-terminated)? */
static bool has_prefix(const char *name, const char *const *prefixes)
{
	for (; *prefixes; prefixes++)
		if (strncmp(name, *prefixes, strlen(*prefixes)) == 0)
			return true;
	return false;
}

/* prefixes NULL: only the undefined symbols needed under a Verneed version (needed_only). */
static int read_symbols(Elf *elf, struct tables *t, const char *const *prefixes, size_t cap,
			struct elf_symbols *s)
{
	Elf_Data *syms = elf_getdata(t->dynsym, NULL);
	Elf_Data *vs = t->versym ? elf_getdata(t->versym, NULL) : NULL;
	size_t n;
	GElf_Shdr sh;

	if (!syms || !gelf_getshdr(t->dynsym, &sh) || !sh.sh_entsize) {
		set_problem(s, ".dynsym could not be read");
		return 0;
	}
	n = syms->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (n > ELF_SYMBOLS_MAX_SCANNED) {
		n = ELF_SYMBOLS_MAX_SCANNED;
		s->truncated = true;
	}
	for (size_t i = 1; i < n; i++) { /* entry 0 is the undefined symbol */
		const struct version_name *v = NULL;
		GElf_Versym ver;
		GElf_Sym sym;
		const char *name;
		unsigned ndx;
		int r;

		if (!gelf_getsym(syms, (int)i, &sym) || !sym.st_name)
			continue;
		name = elf_strptr(elf, t->dynstr, sym.st_name);
		if (!name) {
			set_problem(s, "a symbol's name lies outside .dynstr");
			continue;
		}
		if (prefixes && !has_prefix(name, prefixes))
			continue;
		if (!prefixes && sym.st_shndx != SHN_UNDEF)
			continue;
		if (vs && gelf_getversym(vs, (int)i, &ver)) {
			ndx = ver & ~VERSYM_HIDDEN;
			/* 0: local, 1: global (unversioned); from 2 on, a table's entry */
			if (ndx >= 2 && ndx < ELF_SYMBOLS_MAX_VERSION && t->names[ndx].name)
				v = &t->names[ndx];
			else if (ndx >= 2)
				set_problem(s, "a symbol's version index names no version");
		}
		if (!prefixes && (!v || !v->file))
			continue;
		r = keep(s, cap, name, v, sym.st_shndx != SHN_UNDEF);
		if (r < 0)
			return r;
	}
	return 0;
}

int elf_symbols_parse(const uint8_t *p, size_t len, const char *prefix, struct elf_symbols **ret)
{
	const char *const prefixes[] = { prefix, NULL };

	if (!prefix)
		return -EBADMSG;
	return elf_symbols_parse_any(p, len, prefixes, ret);
}

/* The parse of either kind: prefixes (n of them) or, NULL, the needed symbols, up to cap. */
static int parse(const uint8_t *p, size_t len, const char *const *prefixes, size_t cap,
		 struct elf_symbols **ret)
{
	struct tables t = { 0 };
	struct elf_symbols *s;
	Elf *elf;
	int r = 0;

	if (!ret || !p || len < EI_NIDENT || memcmp(p, ELFMAG, SELFMAG) != 0)
		return -EBADMSG;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EBADMSG;
	/* elf_memory() wants a char *, but the image is only ever read. */
	elf = elf_memory((char *)(uintptr_t)p, len);
	if (!elf)
		return -EBADMSG;
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return -EBADMSG;
	}
	s = calloc(1, sizeof(*s));
	t.names = calloc(ELF_SYMBOLS_MAX_VERSION, sizeof(*t.names));
	if (!s || !t.names) {
		free(s);
		free(t.names);
		elf_end(elf);
		return -ENOMEM;
	}
	find_tables(elf, &t);
	if (t.dynsym) {
		s->has_dynsym = true;
		map_verneed(elf, &t, s);
		map_verdef(elf, &t, s);
		r = read_symbols(elf, &t, prefixes, cap, s);
	}
	free(t.names);
	elf_end(elf);
	if (r < 0) {
		elf_symbols_free(s);
		return r;
	}
	*ret = s;
	return 0;
}

int elf_symbols_parse_any(const uint8_t *p, size_t len, const char *const *prefixes,
			  struct elf_symbols **ret)
{
	size_t n_prefixes = 0;

	while (prefixes && prefixes[n_prefixes])
		n_prefixes++;
	if (!n_prefixes)
		return -EBADMSG;
	return parse(p, len, prefixes, ELF_SYMBOLS_MAX_KEPT * n_prefixes, ret);
}

int elf_symbols_parse_needed(const uint8_t *p, size_t len, struct elf_symbols **ret)
{
	return parse(p, len, NULL, ELF_SYMBOLS_MAX_NEEDED, ret);
}

struct elf_symbols *elf_symbols_free(struct elf_symbols *s)
{
	if (!s)
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		free(s->sym[i].name);
		free(s->sym[i].version);
		free(s->sym[i].file);
	}
	free(s->sym);
	free(s);
	return NULL;
}

bool elf_symbols_defines(const struct elf_symbols *s, const char *name, const char *version)
{
	for (size_t i = 0; s && i < s->n; i++) {
		const struct elf_symbol *e = &s->sym[i];

		if (e->defined && streq(e->name, name) &&
		    (!version || streq(e->version ?: "", version)))
			return true;
	}
	return false;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && streq(a, b));
}

bool elf_symbols_same(const struct elf_symbols *a, const struct elf_symbols *b)
{
	if (a->n != b->n || a->truncated != b->truncated || a->has_dynsym != b->has_dynsym ||
	    !same_str(a->problem, b->problem))
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!streq(a->sym[i].name, b->sym[i].name) ||
		    !same_str(a->sym[i].version, b->sym[i].version) ||
		    !same_str(a->sym[i].file, b->sym[i].file) ||
		    a->sym[i].defined != b->sym[i].defined)
			return false;
	return true;
}
