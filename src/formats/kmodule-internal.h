/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What kmodule.c and kmodule-sig.c share. Internal to src/formats/. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of a module (a .modinfo value, a signer name) as text: control bytes as \xHH, other
 * bytes kept; ucs2: an ASN.1 BMPString (UCS-2, big-endian) converted to UTF-8. NULL on OOM. */
char *kmodule_text(const uint8_t *p, size_t n, bool ucs2);
