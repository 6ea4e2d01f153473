/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text from files, file names and vendor libraries is bytes; JSON is UTF-8 (RFC 8259 §8.1),
 * and jansson refuses a string that is not. These helpers tell valid UTF-8 (RFC 3629 §3-4:
 * no overlong forms, no surrogates, nothing past U+10FFFF) from the rest, make a valid
 * copy (each byte of an invalid sequence becomes U+FFFD, as the Unicode Standard §3.9
 * "U+FFFD Substitution" allows), and carry the raw bytes as hex so nothing is lost.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

bool utf8_valid(const char *s, size_t len);
/* A NUL-terminated copy of s (len bytes) with every byte that is not part of a valid UTF-8
 * sequence replaced by U+FFFD; NULL on OOM. */
char *utf8_make_valid(const char *s, size_t len);
/* Lower-case hex of len bytes; NULL on OOM. */
char *hex_encode(const char *s, size_t len);
/* Bytes of a hex string (even length, [0-9a-fA-F]) as a NUL-terminated copy; -EINVAL for
 * bad hex or a NUL byte in the result (the bytes are C strings), -ENOMEM. */
int hex_decode_text(const char *hex, char **ret);
