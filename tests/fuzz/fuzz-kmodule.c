// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the kernel-module reader (src/formats/kmodule.c: ELF sections, .modinfo,
 * the decompressors' streaming with their caps) and the signature trailer with its PKCS#7
 * DER walk (kmodule-sig.c, der.c). The first byte picks the compression (low two bits:
 * none, xz, zstd, gzip); the rest is the file. The same bytes are also read as a signature
 * trailer on their own.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/kmodule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void touch(const char *s)
{
	if (s)
		(void)strlen(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmodule_info m;
	struct kmodule_sig s;
	char *why = NULL;

	if (size < 1)
		return 0;
	if (kmodule_read_buffer(data + 1, size - 1, (enum kmodule_compression)(data[0] & 3), &m,
				&why) == 0) {
		/* Touch every string so ASan sees a bad one. */
		touch(m.version);
		touch(m.vermagic);
		touch(m.srcversion);
		touch(m.name);
		touch(m.sig.signer);
		touch(m.sig.key_id);
		touch(m.sig_error);
		kmodule_info_done(&m);
	}
	touch(why);
	free(why);
	why = NULL;
	if (kmodule_parse_sig(data, size, &s, &why) == 0) {
		touch(s.signer);
		touch(s.key_id);
		kmodule_sig_done(&s);
	}
	free(why);
	return 0;
}
