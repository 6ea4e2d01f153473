// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnettle's SHA-256, loaded on first use (lazy-nettle.h): the digest of an image's layer
 * blobs for --image-verify. The soname is the one the build compiled against (meson.build);
 * the .note.dlopen entry tells packagers about it (systemd docs/ELF_DLOPEN_METADATA.md).
 */
#include <stdio.h>

#include "lazy-nettle.h"

DL_NOTE(dl_note_nettle,
	"[{\"feature\":\"image-verify\",\"description\":\"--image-verify: sha256 of image "
	"layer blobs\",\"priority\":\"recommended\",\"soname\":[\"" GPUENV_LIBNETTLE_SONAME
	"\"]}]");

DL_LAZY_DEFINE(vendor_nettle, struct vendor_nettle, GPUENV_LIBNETTLE_SONAME, VENDOR_NETTLE_SYMBOLS)

int vendor_sha256_init(struct vendor_sha256 *s, const char **ret_error)
{
	int err = vendor_nettle(&s->fns, ret_error);

	if (err < 0)
		return err;
	s->fns->nettle_sha256_init(&s->ctx);
	return 0;
}

void vendor_sha256_update(struct vendor_sha256 *s, const void *data, size_t len)
{
	s->fns->nettle_sha256_update(&s->ctx, len, data);
}

void vendor_sha256_final_hex(struct vendor_sha256 *s, char hex[65])
{
	uint8_t d[SHA256_DIGEST_SIZE];

	s->fns->nettle_sha256_digest(&s->ctx, sizeof(d), d);
	for (size_t i = 0; i < sizeof(d); i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}
