// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/kmodule: kernel modules built here (an ELF64 relocatable object laid out as GNU ld
 * lays out a module: section contents, .shstrtab, then the section headers; a .modinfo of
 * "key=value\0" strings), plain and compressed with the real encoders (liblzma, libzstd,
 * zlib), and signed ones written by tests/tools/mk-kmodule.sh (openssl cms, as
 * scripts/sign-file.c). Decompression bombs are concatenated streams, which xz, zstd and
 * gzip all decode as one (xz --single-stream is not the default; RFC 8878 §3; RFC 1952 §2.2):
 * 2 GiB of output from a few hundred KiB, made in milliseconds.
 */
#include <elf.h>
#include <errno.h>
#include <lzma.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <zlib.h>
#include <zstd.h>

#include <cmocka.h>

#include "formats/der.h"
#include "formats/efi-siglist.h"
#include "formats/kmodule.h"
#include "tmptree.h"

struct buf {
	uint8_t *p;
	size_t len;
};

static void add(struct buf *b, const void *p, size_t n)
{
	b->p = realloc(b->p, b->len + n + 1);
	assert_non_null(b->p);
	if (p)
		memcpy(b->p + b->len, p, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
}

struct sec {
	const char *name;
	uint32_t type;
	const void *data; /* NULL: zeros */
	uint64_t len;
	uint64_t claim; /* if non-zero: the size the header claims (a lie) */
};

/* ELF64 ET_REL: header, the sections' contents, .shstrtab, the section headers. */
static struct buf mk_elf(const struct sec *secs, size_t n)
{
	struct buf b = { 0 }, names = { 0 };
	uint64_t *offs = calloc(n + 1, sizeof(*offs));
	uint32_t *name_off = calloc(n + 1, sizeof(*name_off));
	Elf64_Ehdr eh = { 0 };
	uint64_t shstr_off;

	add(&b, NULL, sizeof(eh));
	add(&names, "", 1);
	for (size_t i = 0; i < n; i++) {
		offs[i] = b.len;
		if (secs[i].type != SHT_NOBITS)
			add(&b, secs[i].data, (size_t)secs[i].len);
		name_off[i] = (uint32_t)names.len;
		add(&names, secs[i].name, strlen(secs[i].name) + 1);
	}
	name_off[n] = (uint32_t)names.len;
	add(&names, ".shstrtab", sizeof(".shstrtab"));
	shstr_off = b.len;
	add(&b, names.p, names.len);
	while (b.len % 8)
		add(&b, NULL, 1);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_REL;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (uint16_t)(n + 2);
	eh.e_shstrndx = (uint16_t)(n + 1);
	eh.e_shoff = b.len;
	memcpy(b.p, &eh, sizeof(eh));
	add(&b, NULL, sizeof(Elf64_Shdr)); /* SHN_UNDEF */
	for (size_t i = 0; i <= n; i++) {
		Elf64_Shdr sh = { 0 };

		sh.sh_name = name_off[i];
		if (i < n) {
			sh.sh_type = secs[i].type;
			sh.sh_offset = offs[i];
			sh.sh_size = secs[i].claim ? secs[i].claim : secs[i].len;
		} else {
			sh.sh_type = SHT_STRTAB;
			sh.sh_offset = shstr_off;
			sh.sh_size = names.len;
		}
		add(&b, &sh, sizeof(sh));
	}
	free(names.p);
	free(offs);
	free(name_off);
	return b;
}

static const char modinfo[] = "version=550.54.15\0license=NVIDIA\0"
			      "vermagic=6.8.0-45-generic SMP preempt mod_unload modversions \0"
			      "name=nvidia";

static struct buf mk_module(uint64_t big_after_modinfo)
{
	const struct sec secs[] = {
		{ ".text", SHT_PROGBITS, "\xc3", 1, 0 },
		{ ".modinfo", SHT_PROGBITS, modinfo, sizeof(modinfo), 0 },
		{ ".data.big", SHT_PROGBITS, NULL, big_after_modinfo, 0 },
	};

	return mk_elf(secs, big_after_modinfo ? 3 : 2);
}

static struct buf pack(const uint8_t *p, size_t n, enum kmodule_compression c)
{
	struct buf out = { 0 };

	switch (c) {
	case KMODULE_ZSTD: {
		size_t cap = ZSTD_compressBound(n), got;

		out.p = malloc(cap);
		got = ZSTD_compress(out.p, cap, p, n, 1);
		assert_false(ZSTD_isError(got));
		out.len = got;
		break;
	}
	case KMODULE_XZ: {
		size_t cap = lzma_stream_buffer_bound(n), pos = 0;

		out.p = malloc(cap);
		assert_int_equal(
			lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, NULL, p, n, out.p, &pos, cap),
			LZMA_OK);
		out.len = pos;
		break;
	}
	case KMODULE_GZIP: {
		z_stream z = { 0 };
		size_t cap = n / 2 + 4096;

		out.p = malloc(cap);
		assert_int_equal(deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
				 Z_OK);
		z.next_in = (uint8_t *)p;
		z.avail_in = (uInt)n;
		z.next_out = out.p;
		z.avail_out = (uInt)cap;
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		out.len = cap - z.avail_out;
		deflateEnd(&z);
		break;
	}
	default:
		out.p = malloc(n);
		memcpy(out.p, p, n);
		out.len = n;
	}
	return out;
}

static const enum kmodule_compression all[] = { KMODULE_PLAIN, KMODULE_XZ, KMODULE_ZSTD,
						KMODULE_GZIP };

static void test_plain_and_compressed(void **state)
{
	struct buf m = mk_module(0);

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		struct buf z = pack(m.p, m.len, all[i]);
		struct kmodule_info info;
		char *why = NULL;

		assert_int_equal(kmodule_read_buffer(z.p, z.len, all[i], &info, &why), 0);
		assert_null(why);
		assert_string_equal(info.version, "550.54.15");
		assert_string_equal(info.vermagic,
				    "6.8.0-45-generic SMP preempt mod_unload modversions ");
		assert_string_equal(info.name, "nvidia");
		assert_null(info.srcversion);
		assert_false(info.sig.present);
		assert_int_equal(info.size, m.len);
		assert_int_equal(info.passes, 1);
		kmodule_info_done(&info);
		free(z.p);
	}
	free(m.p);
}

/* .modinfo early, 3 MiB after it: the section-name table is learnt from the section headers
 * at the end, from the kept tail; .modinfo from the window kept around its "vermagic=" (one
 * pass), or, when a decoy "vermagic=" 1 MiB before it drew the window, from a second pass
 * that stops at its end. */
static void test_second_pass(void **state)
{
	static const char decoy[] = "a string: vermagic=decoy";
	const struct sec decoyed[] = {
		{ ".rodata", SHT_PROGBITS, decoy, sizeof(decoy), 0 },
		{ ".data.pad", SHT_PROGBITS, NULL, 1u << 20, 0 },
		{ ".modinfo", SHT_PROGBITS, modinfo, sizeof(modinfo), 0 },
		{ ".data.big", SHT_PROGBITS, NULL, 3u << 20, 0 },
	};
	struct buf mods[] = { mk_module(3u << 20), mk_elf(decoyed, 4) };

	for (size_t k = 0; k < 2; k++)
		for (size_t i = 1; i < sizeof(all) / sizeof(all[0]); i++) {
			struct buf z = pack(mods[k].p, mods[k].len, all[i]);
			struct kmodule_info info;
			char *why = NULL;

			assert_int_equal(kmodule_read_buffer(z.p, z.len, all[i], &info, &why), 0);
			assert_string_equal(info.version, "550.54.15");
			assert_string_equal(info.vermagic,
					    "6.8.0-45-generic SMP preempt mod_unload modversions ");
			assert_int_equal(info.passes, k == 0 ? 1 : 2);
			kmodule_info_done(&info);
			free(z.p);
		}
	free(mods[0].p);
	free(mods[1].p);
}

static struct buf concat_bomb(const struct buf *head, enum kmodule_compression c,
			      size_t zero_chunks)
{
	static struct buf zchunk[KMODULE_GZIP + 1]; /* 4 MiB of zeros, packed once */
	struct buf out = pack(head->p, head->len, c);

	if (!zchunk[c].p) {
		size_t zlen = (size_t)4 << 20;
		uint8_t *zeros = calloc(1, zlen);

		zchunk[c] = pack(zeros, zlen, c);
		free(zeros);
	}
	/* one allocation: realloc per chunk would copy the whole bomb each time under ASan */
	out.p = realloc(out.p, out.len + zero_chunks * zchunk[c].len + 1);
	assert_non_null(out.p);
	for (size_t i = 0; i < zero_chunks; i++, out.len += zchunk[c].len)
		memcpy(out.p + out.len, zchunk[c].p, zchunk[c].len);
	return out;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long maxrss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* 2 GiB of output: stops fast with its reason, in bounded memory. all_codecs false: zstd only
 * (the cap is counted the same for every decoder, and xz spends seconds on 256 MiB). */
static void bomb(const struct buf *head, int want_err, const char *want_why, bool all_codecs)
{
	for (size_t i = 1; i < sizeof(all) / sizeof(all[0]); i++) {
		if (!all_codecs && all[i] != KMODULE_ZSTD)
			continue;
		struct buf z = concat_bomb(head, all[i], 512);
		struct kmodule_info info;
		char *why = NULL;
		long rss0 = maxrss_kib();
		double t0 = now(), dt;

		assert_int_equal(kmodule_read_buffer(z.p, z.len, all[i], &info, &why), want_err);
		dt = now() - t0;
		assert_non_null(why);
		if (!strstr(why, want_why))
			fail_msg("%s: \"%s\" lacks \"%s\"", kmodule_compression_name(all[i]), why,
				 want_why);
		printf("# %s bomb (%zu bytes in): %.2f s, max RSS +%ld KiB: %s\n",
		       kmodule_compression_name(all[i]), z.len, dt, maxrss_kib() - rss0, why);
		/* At most the 256 MiB cap decoded (well under 10 s even under ASan), and what is
		 * kept is a few MiB: the peak RSS grows by far less than the output. */
		assert_true(dt < 10.0);
		assert_true(maxrss_kib() - rss0 < 64 * 1024);
		free(why);
		free(z.p);
	}
}

static void test_bomb_zeros(void **state)
{
	struct buf head = { 0 };

	add(&head, NULL, 4096);
	bomb(&head, -EBADMSG, "not an ELF file", true);
	free(head.p);
}

/* A valid module followed by 2 GiB: stopped just past the ELF image and a signature's room. */
static void test_bomb_after_elf(void **state)
{
	struct buf m = mk_module(0);

	bomb(&m, -EBADMSG, "follow the ELF image", true);
	free(m.p);
}

/* A section that claims 300 MiB: the stream is followed up to the 256 MiB cap, no further. */
static void test_bomb_cap(void **state)
{
	const struct sec secs[] = {
		{ ".modinfo", SHT_PROGBITS, modinfo, sizeof(modinfo), 0 },
		{ ".data.big", SHT_PROGBITS, NULL, 0, (uint64_t)300 << 20 },
	};
	struct buf m = mk_elf(secs, 2);

	bomb(&m, -EFBIG, "more than 256 MiB", false);
	free(m.p);
}

static void test_headers_past_cap(void **state)
{
	struct buf m = mk_module(0);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)m.p;
	struct kmodule_info info;
	struct buf z;
	char *why = NULL;

	eh->e_shoff = (uint64_t)1 << 40;
	z = pack(m.p, m.len, KMODULE_ZSTD);
	assert_int_equal(kmodule_read_buffer(z.p, z.len, KMODULE_ZSTD, &info, &why), -EFBIG);
	assert_non_null(strstr(why, "section headers"));
	free(why);
	why = NULL;
	assert_int_equal(kmodule_read_buffer(m.p, m.len, KMODULE_PLAIN, &info, &why), -EBADMSG);
	assert_non_null(strstr(why, "past the end of the file"));
	free(why);
	free(z.p);
	free(m.p);
}

static void test_malformed(void **state)
{
	struct buf m = mk_module(0);
	struct kmodule_info info;
	char *why = NULL;
	struct buf z;

	/* truncated: the section headers are cut off */
	assert_int_equal(kmodule_read_buffer(m.p, m.len - 10, KMODULE_PLAIN, &info, &why),
			 -EBADMSG);
	free(why);
	why = NULL;
	z = pack(m.p, m.len, KMODULE_XZ);
	assert_int_equal(kmodule_read_buffer(z.p, z.len - 20, KMODULE_XZ, &info, &why), -EBADMSG);
	assert_non_null(strstr(why, "truncated"));
	free(why);
	why = NULL;
	free(z.p);
	/* not ET_REL */
	((Elf64_Ehdr *)m.p)->e_type = ET_DYN;
	assert_int_equal(kmodule_read_buffer(m.p, m.len, KMODULE_PLAIN, &info, &why), -EBADMSG);
	assert_non_null(strstr(why, "ET_REL"));
	free(why);
	why = NULL;
	/* a zstd name over xz bytes */
	assert_int_equal(kmodule_read_buffer((const uint8_t *)"\xfd"
							      "7zXZ\0\0\0\0\0",
					     10, KMODULE_ZSTD, &info, &why),
			 -EBADMSG);
	free(why);
	free(m.p);
}

static void test_sig_trailer(void **state)
{
	static const char magic[] = "~Module signature appended~\n";
	struct kmodule_sig s;
	char *why = NULL;
	uint8_t t[64] = { 0 };

	/* legacy trailer: signer "K", key id 0xab, 1 byte of signature, rsa/sha256, X509 */
	t[0] = 'K';
	t[1] = 0xab;
	t[2] = 0x55;
	memcpy(t + 3, (const uint8_t[]){ 1, 4, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1 }, 12);
	memcpy(t + 15, magic, 28);
	assert_int_equal(kmodule_parse_sig(t, 43, &s, &why), 0);
	assert_true(s.present);
	assert_string_equal(s.id_type, "X509");
	assert_string_equal(s.signer, "K");
	assert_string_equal(s.key_id, "AB");
	assert_string_equal(s.hash_algo, "sha256");
	kmodule_sig_done(&s);
	/* sig_len beyond the bytes there */
	t[14] = 200;
	assert_int_equal(kmodule_parse_sig(t, 43, &s, &why), -EBADMSG);
	assert_non_null(why);
	free(why);
	why = NULL;
	/* PKCS#7 id with garbage DER */
	memcpy(t + 3, (const uint8_t[]){ 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3 }, 12);
	assert_int_equal(kmodule_parse_sig(t, 43, &s, &why), -EBADMSG);
	assert_true(s.present);
	assert_string_equal(s.id_type, "PKCS#7");
	free(why);
	why = NULL;
	/* no magic: not signed */
	assert_int_equal(kmodule_parse_sig(t, 40, &s, &why), 0);
	assert_false(s.present);
}

/* DER: lengths past the end, the indefinite form, nesting. */
static void test_der(void **state)
{
	static const uint8_t indef[] = { 0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00, 0x05, 0x00 };
	static const uint8_t overlong[] = { 0x30, 0x84, 0xff, 0xff, 0xff, 0xff, 0x00 };
	struct der d = { indef, sizeof(indef) }, c;
	uint8_t tag;
	uint8_t deep[2 * (DER_MAX_DEPTH + 2)];

	assert_int_equal(der_next(&d, &tag, &c, NULL), 0);
	assert_int_equal(tag, DER_SEQUENCE);
	assert_int_equal(c.len, 3);
	assert_int_equal(der_expect(&d, DER_NULL, NULL, NULL), 0);
	assert_int_equal(der_next(&d, &tag, &c, NULL), 1);
	d = (struct der){ overlong, sizeof(overlong) };
	assert_int_equal(der_next(&d, &tag, &c, NULL), -EBADMSG);
	for (size_t i = 0; i < sizeof(deep); i += 2) {
		deep[i] = 0x30;
		deep[i + 1] = 0x80;
	}
	d = (struct der){ deep, sizeof(deep) };
	assert_int_equal(der_next(&d, &tag, &c, NULL), -EBADMSG);
}

/* Modules signed by tests/tools/mk-kmodule.sh (openssl cms, the way sign-file.c signs). */
static void test_signed_by_sign_file(void **state)
{
	static const char *const comp[] = { "none", "xz", "zstd", "gzip" };
	const char *src = getenv("GPUENV_SOURCE_ROOT");
	char dir[TMPTREE_DIR_MAX];

	if (!src || system("command -v openssl >/dev/null && command -v objcopy >/dev/null") != 0) {
		printf("SKIP signed modules: openssl or objcopy not installed\n");
		return;
	}
	assert_non_null(tmptree_new(dir, "kmodule"));
	for (size_t i = 0; i < sizeof(comp) / sizeof(comp[0]); i++) {
		char cmd[8192], path[1024];
		struct kmodule_info info;
		enum kmodule_compression c;
		uint8_t *data;
		size_t len;
		char *why = NULL;

		snprintf(path, sizeof(path), "%s/nvidia.ko%s", dir,
			 i == 0	  ? ""
			 : i == 1 ? ".xz"
			 : i == 2 ? ".zst"
				  : ".gz");
		snprintf(cmd, sizeof(cmd),
			 "sh '%s/tests/tools/mk-kmodule.sh' '%s' 535.183.01 "
			 "'DKMS module signing key' %s '%s/keys'",
			 src, path, comp[i], dir);
		assert_int_equal(system(cmd), 0);
		data = tmptree_slurp(path, &len);
		assert_int_equal(kmodule_compression_from_name(path, &c), 0);
		assert_int_equal(kmodule_read_buffer(data, len, c, &info, &why), 0);
		assert_string_equal(info.version, "535.183.01");
		assert_true(info.sig.present);
		assert_null(info.sig_error);
		assert_string_equal(info.sig.id_type, "PKCS#7");
		assert_string_equal(info.sig.signer, "DKMS module signing key");
		assert_string_equal(info.sig.hash_algo, "sha256");
		assert_string_equal(info.sig.algo, "rsa");
		assert_non_null(info.sig.key_id);
		assert_non_null(info.sig.issuer_der);
		kmodule_info_done(&info);
		free(data);
	}
	tmptree_remove(dir);
}

/* A MokListRT as shim mirrors it (tests/tools/mk-efivar.py: attributes, then one
 * EFI_SIGNATURE_LIST per certificate): the enrolled certificate of the module's signer is
 * the one whose issuer and serial the signature names; the other is not. */
static void test_efi_siglist_matches_signer(void **state)
{
	const char *src = getenv("GPUENV_SOURCE_ROOT");
	char dir[TMPTREE_DIR_MAX], cmd[8192], path[1024], var[1024];
	struct kmodule_info info;
	struct efi_siglist l;
	uint8_t *data, *vdata;
	size_t len, vlen;
	char *why = NULL;

	if (!src || system("command -v openssl >/dev/null && command -v objcopy >/dev/null") != 0) {
		printf("SKIP EFI signature lists: openssl or objcopy not installed\n");
		return;
	}
	assert_non_null(tmptree_new(dir, "efivar"));
	snprintf(path, sizeof(path), "%s/nvidia.ko", dir);
	snprintf(var, sizeof(var), "%s/MokListRT", dir);
	snprintf(cmd, sizeof(cmd),
		 "sh '%s/tests/tools/mk-kmodule.sh' '%s' 550.120 'akmods local key' none '%s/k' && "
		 "python3 '%s/tests/tools/mk-efivar.py' '%s' '%s/k' 0x6 'Fedora Secure Boot CA' "
		 "'akmods local key'",
		 src, path, dir, src, var, dir);
	assert_int_equal(system(cmd), 0);
	data = tmptree_slurp(path, &len);
	assert_int_equal(kmodule_read_buffer(data, len, KMODULE_PLAIN, &info, &why), 0);
	vdata = tmptree_slurp(var, &vlen);
	assert_true(vlen > 4);
	assert_int_equal(efi_siglist_parse(vdata + 4, vlen - 4, &l, &why), 0);
	assert_int_equal(l.n_certs, 2);
	assert_int_equal(l.n_hashes, 0);
	assert_string_equal(l.certs[0].subject_cn, "Fedora Secure Boot CA");
	assert_string_equal(l.certs[1].subject_cn, "akmods local key");
	assert_string_equal(l.certs[1].issuer_cn, "akmods local key");
	assert_string_equal(l.certs[1].serial, info.sig.key_id);
	assert_int_equal(l.certs[1].issuer_der_len, info.sig.issuer_der_len);
	assert_memory_equal(l.certs[1].issuer_der, info.sig.issuer_der, info.sig.issuer_der_len);
	assert_int_equal(l.certs[1].serial_len, info.sig.serial_len);
	assert_memory_equal(l.certs[1].serial_bytes, info.sig.serial, info.sig.serial_len);
	assert_string_not_equal(l.certs[0].serial, info.sig.key_id);
	efi_siglist_done(&l);
	/* Cut inside the second list: its declared size no longer fits. */
	assert_int_equal(efi_siglist_parse(vdata + 4, vlen - 10, &l, &why), -EBADMSG);
	assert_non_null(strstr(why, "signature list 1"));
	assert_null(l.certs);
	/* A certificate's bytes damaged: named, not skipped. */
	vdata[4 + 28 + 16] = 0x04;
	assert_int_equal(efi_siglist_parse(vdata + 4, vlen - 4, &l, &why), -EBADMSG);
	assert_non_null(strstr(why, "entry 0: not a DER X.509 certificate"));
	/* Empty data (a variable with no keys) and a hash list. */
	assert_int_equal(efi_siglist_parse(vdata, 0, &l, NULL), 0);
	assert_int_equal(l.n_certs, 0);
	{
		uint8_t h[28 + 48] = { 0x26, 0x16, 0xc4,    0xc1, 0x4c, 0x50, 0x92,
				       0x40, 0xac, 0xa9,    0x41, 0xf9, 0x36, 0x93,
				       0x43, 0x28, 28 + 48, 0,	  0,	0,    0,
				       0,    0,	   0,	    48,	  0,	0,    0 };
		assert_int_equal(efi_siglist_parse(h, sizeof(h), &l, NULL), 0);
		assert_int_equal(l.n_hashes, 1);
		assert_int_equal(l.n_certs, 0);
		h[24] = 47; /* SignatureSize no longer divides the entries */
		assert_int_equal(efi_siglist_parse(h, sizeof(h), &l, &why), -EBADMSG);
	}
	free(why);
	free(vdata);
	free(data);
	kmodule_info_done(&info);
	tmptree_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_compressed),
		cmocka_unit_test(test_second_pass),
		cmocka_unit_test(test_bomb_zeros),
		cmocka_unit_test(test_bomb_after_elf),
		cmocka_unit_test(test_bomb_cap),
		cmocka_unit_test(test_headers_past_cap),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_sig_trailer),
		cmocka_unit_test(test_der),
		cmocka_unit_test(test_signed_by_sign_file),
		cmocka_unit_test(test_efi_siglist_matches_signer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
