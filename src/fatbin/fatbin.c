/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CUDA fat binary parser over (ptr, len). Layout per docs/formats/fatbin.md:
 * container header (magic 0xBA55ED50, NVIDIA fatbinary.h), 64-byte+ entry headers with
 * options/identifier descriptors (§4), flags (64-bit 0x1, debug 0x2, LZ4 0x2000, zstd
 * 0x8000, 'a' 0x100000, 'f' 0x200000; §6), cubin e_flags (LLVM BinaryFormat/ELF.h EF_CUDA_*
 * V1/V2; §9.2), `a` from the cubin's .nv.compat attribute 0x09 and `f` from
 * .note.nv.tkinfo (§9.3), .nvFatBinSegment wrappers (fatbinary_section.h; §2), and the
 * robust walk with search (§1, §5). Host ELF files are read with libelf over the buffer
 * (elf_memory: sections are never copied); the container walks read through fb_view() (fatbin-input.c), from
 * the buffer or, when the caller gives fatbin_input.read, into a small window (the headers
 * of a large .nv_fatbin lie one per page or further apart). Every offset goes through
 * fatbin_range_ok().
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

const uint8_t fatbin_container_pattern[8] = { 0x50, 0xed, 0x55, 0xba, 0x01, 0x00, 0x10, 0x00 };

static int scan_elf(struct parse *ps)
{
	Elf *elf;
	GElf_Ehdr eh;
	int rv;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	if (ps->len < EI_NIDENT ||
	    (ps->base[EI_CLASS] != ELFCLASS64 && ps->base[EI_CLASS] != ELFCLASS32))
		return -EBADMSG;
	elf = elf_memory((char *)(uintptr_t)ps->base, ps->len);
	if (!elf)
		return -EBADMSG;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		rv = -EBADMSG;
		goto out;
	}
	ps->r->is_elf = true;
	ps->r->elf_class = ps->base[EI_CLASS] == ELFCLASS64 ? 64 : 32;
	if (eh.e_machine == EM_CUDA_)
		rv = fb_scan_cubin(ps, elf);
	else if (eh.e_machine == EM_AMDGPU_)
		rv = fb_scan_amdgpu(ps);
	else
		rv = fb_scan_host_elf(ps, elf);
out:
	elf_end(elf);
	return rv;
}

static int scan_ptx_file(struct parse *ps)
{
	struct fatbin_ptx_header h;
	struct fatbin_entry *x;
	int rv = fatbin_ptx_header((const char *)ps->base, ps->len, &h);

	if (rv < 0)
		return rv;
	rv = fatbin_push_entry(ps->r, &x);
	if (rv < 0)
		return rv;
	ps->r->type = FATBIN_FILE_PTX;
	x->kind = x->raw_kind = FATBIN_KIND_PTX;
	x->arch = h.target_arch;
	x->variant = h.target_variant;
	x->is64 = h.address_size != 32;
	x->ptx_major = h.isa_major;
	x->ptx_minor = h.isa_minor;
	x->ver_major = (unsigned)h.isa_major;
	x->ver_minor = (unsigned)h.isa_minor;
	x->ptx_from_text = true;
	x->stored_size = x->uncompressed_size = ps->len;
	snprintf(x->ptx_target, sizeof(x->ptx_target), "%s", h.target);
	fatbin_entry_fill_target(x);
	return 0;
}

static bool looks_like_ptx(const uint8_t *p, size_t len)
{
	struct fatbin_ptx_header h;

	/* text only: no NUL in the first bytes */
	if (len == 0 || memchr(p, 0, MIN(len, (size_t)512)))
		return false;
	return fatbin_ptx_header((const char *)p, MIN(len, (size_t)FATBIN_PTX_HEAD), &h) == 0;
}

bool fatbin_looks_parsable(const uint8_t *p, size_t len)
{
	if (!p)
		return false;
	if (len >= 4 && memcmp(p, "\177ELF", 4) == 0)
		return true;
	if (len >= 16 && fatbin_rd32(p) == FATBIN_MAGIC)
		return true;
	if (len >= 24 && memcmp(p, "__CLANG_OFFLOAD_BUNDLE__", 24) == 0)
		return true;
	if (len >= 4 && memcmp(p, "CCOB", 4) == 0)
		return true;
	return looks_like_ptx(p, len);
}

int fatbin_parse_input(const struct fatbin_input *in, unsigned flags, struct fatbin_result **ret,
		       char **why)
{
	_cleanup_(fatbin_result_freep) struct fatbin_result *r = NULL;
	struct parse ps;
	const uint8_t *p;
	size_t len;
	int rv;

	if (!in || !in->data || !ret)
		return -EINVAL;
	p = in->data;
	len = in->len;
	ps = (struct parse){ .base = p,
			     .len = len,
			     .flags = flags,
			     .read = in->read,
			     .userdata = in->userdata,
			     .on_container = in->on_container,
			     .first_plain = UINT64_MAX };
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->nv_fatbin_first_plain = UINT64_MAX;
	ps.r = r;
	if (len >= 16 && fatbin_rd32(p) == FATBIN_MAGIC) {
		r->type = FATBIN_FILE_FATBIN;
		rv = fb_walk_containers(&ps, 0, len, true, FATBIN_ORIGIN_FILE, SIZE_MAX, NULL);
	} else if (len >= 4 && memcmp(p, "\177ELF", 4) == 0) {
		rv = scan_elf(&ps);
	} else if ((len >= 24 && memcmp(p, "__CLANG_OFFLOAD_BUNDLE__", 24) == 0) ||
		   (len >= 4 && memcmp(p, "CCOB", 4) == 0)) {
		size_t used = 0;

		r->type = FATBIN_FILE_OFFLOAD_BUNDLE;
		rv = fatbin_bundle_parse(r, p, len, &used);
	} else if (looks_like_ptx(p, len)) {
		rv = scan_ptx_file(&ps);
	} else {
		rv = -EBADMSG;
	}
	if (ps.zds)
		ZSTD_freeDStream(ps.zds);
	for (size_t i = 0; i < ps.n_memo; i++)
		free(ps.memo[i].bytes);
	free(ps.ranges);
	free(ps.win);
	free(ps.sb);
	free(ps.starts);
	if (rv < 0) {
		if (why)
			*why = TAKE_PTR(r->warning);
		return rv;
	}
	*ret = TAKE_PTR(r);
	return 0;
}

int fatbin_parse(const uint8_t *p, size_t len, unsigned flags, struct fatbin_result **ret,
		 char **why)
{
	return fatbin_parse_input(&(struct fatbin_input){ .data = p, .len = len }, flags, ret, why);
}

int fatbin_scan_buffer(const uint8_t *p, size_t len, struct fatbin_result **ret)
{
	return fatbin_parse(p, len, FATBIN_PARSE_PAYLOAD_HEADS, ret, NULL);
}
