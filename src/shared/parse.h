/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Strict number and version parsing. "Strict" means: the whole token must be consumed
 * (one trailing newline allowed, as sysfs attributes end in one), no sign on unsigned
 * values, overflow is -ERANGE, anything else -EINVAL. Versions are dotted decimal
 * ("550.54.15", "12.4", "2.4.0"), compared field by field as integers, as NVIDIA's
 * driver versions must be ("570.124.06" > "570.86.10").
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* base 0 accepts "0x" hex, like strtoull; base 10 / 16 force one. */
int parse_u64(const char *s, int base, uint64_t *ret);
int parse_i64(const char *s, int64_t *ret);
int parse_uint(const char *s, int base, unsigned *ret);
int parse_bool(const char *s, bool *ret); /* 1/0, yes/no, true/false, on/off, Y/N */
/* The unsigned decimal number at the start of s ("2.5 GT/s"), with at most `decimals` digits
 * after a '.', times 10^decimals ("2.5", decimals 3 → 2500); *ret_end points past it. The
 * point is always '.', never the locale's: strtod() reads LC_NUMERIC, which a program using
 * the library may have set to a comma locale, and would stop at "2". -EINVAL: no digit
 * first, a '.' without a digit after it, or more fraction digits than decimals; -ERANGE:
 * overflow. */
int parse_decimal_prefix(const char *s, unsigned decimals, uint64_t *ret, const char **ret_end);
/* The value of one hex digit (0-9, a-f, A-F): 0..15, or -1 for any other character. */
int parse_hex_digit(int c);

#define VERSION_MAX_PARTS 5
struct version {
	unsigned n; /* fields present, 1..VERSION_MAX_PARTS */
	uint32_t part[VERSION_MAX_PARTS];
};

/* Parses a whole dotted-decimal version. Leading zeros are kept as values ("06" = 6). */
int version_parse(const char *s, struct version *ret);
/* Parses the dotted-decimal prefix of s ("2.4.0+cu124" → 2.4.0); *ret_end points past it. */
int version_parse_prefix(const char *s, struct version *ret, const char **ret_end);
/* <0, 0, >0. Missing trailing fields count as 0, so "12.4" == "12.4.0". */
int version_cmp(const struct version *a, const struct version *b);
/* Convenience: compares two version strings; unparsable strings sort first. */
int version_cmp_str(const char *a, const char *b);
/* CUDA's integer encoding (cuDriverGetVersion, nvmlSystemGetCudaDriverVersion): 12040 → "12.4". */
void cuda_version_format(int v, char *buf, size_t len);
