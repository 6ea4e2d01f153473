/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Parser and evaluator (pure, no I/O) of the NVIDIA container requirement expressions
 * (`NVIDIA_REQUIRE_CUDA` and the other `NVIDIA_REQUIRE_*` variables of an image), exactly as
 * libnvidia-container evaluates them before it starts a container (src/cli/dsl.c
 * dsl_evaluate(), the rules of src/cli/configure.c):
 *
 *     cuda>=12.8 brand=tesla,driver>=535,driver<536 brand=unknown,driver>=535,driver<536
 *
 * Alternatives are separated by single spaces (empty ones skipped), the terms of one
 * alternative by commas (empty ones skipped); a term is NAME OP VALUE with NAME one of cuda,
 * driver, arch, brand (any case) and OP the longest run of `<>=!` characters, which must be
 * the start of one of `=`, `!=`, `<`, `<=`, `>`, `>=` in that order (so `!` alone is `!=`,
 * `==` is no operator). Evaluation is lazy, as dsl.c's: the alternatives are tried in order
 * and the first whose terms all hold satisfies the expression, a term that does not hold
 * ends its alternative, and a term that cannot be judged (a malformed one, a version that is
 * not dotted decimal, an ordering of brands) makes the whole expression "invalid
 * expression" only when it is reached. An alternative with no term at all ends the
 * evaluation with the outcome so far. Versions compare field by field as integers, missing
 * and zero fields alike; brands compare without regard to case.
 * It is knowledge of how the container runtime behaves, kept in facts/ so that the rules (and
 * the --target snapshot, which names brands the runtime's way) can use it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define NV_REQUIRE_MAX_LEN   65536u /* characters of one expression */
#define NV_REQUIRE_MAX_TERMS 4096u  /* terms and alternatives */

enum nv_require_key {
	NV_REQUIRE_CUDA = 0, /* the CUDA version the driver reports (cuDriverGetVersion) */
	NV_REQUIRE_DRIVER,   /* the driver version (NVRM) */
	NV_REQUIRE_ARCH,     /* a visible GPU's compute capability, "8.9" */
	NV_REQUIRE_BRAND,    /* a visible GPU's brand as libnvidia-container names it */
	NV_REQUIRE_KEY_INVALID,
};

enum nv_require_op { NV_REQ_EQ = 0, NV_REQ_NE, NV_REQ_LT, NV_REQ_LE, NV_REQ_GT, NV_REQ_GE };

struct nv_require_term {
	bool valid; /* parsed; an invalid term makes the expression invalid when reached */
	enum nv_require_key key;
	enum nv_require_op op;
	const char *name;  /* as written, NUL-terminated (the parse's own copy) */
	const char *value; /* likewise */
	const char *text;  /* the whole term, for messages */
};

/* Alternative i holds terms [first, first + n); n == 0: an alternative of empty terms. */
struct nv_require_alt {
	size_t first, n;
};

struct nv_require {
	char *buf;		 /* the parse's copy of the expression */
	char *first_alternative; /* the first space-separated word, as dsl.c reports it */
	struct nv_require_term *terms;
	size_t n_terms;
	struct nv_require_alt *alts;
	size_t n_alts;
};

/* What the expression is judged against: libnvidia-container's driver and one visible
 * device. A NULL value is what the cli does not know: that term holds (dsl rules return
 * true), as does every arch and brand term when no device is visible (device false). */
struct nv_require_facts {
	const char *cuda;   /* "12.2" */
	const char *driver; /* "535.247.01" */
	bool device;
	const char *arch;  /* "8.9" */
	const char *brand; /* "GeForce" */
};

enum nv_require_result {
	NV_REQUIRE_SATISFIED = 0,
	NV_REQUIRE_UNSATISFIED, /* "unsatisfied condition: …" */
	NV_REQUIRE_INVALID,	/* "invalid expression" */
};

/* Parses s[0..len). 0; -E2BIG (longer than NV_REQUIRE_MAX_LEN or more terms than
 * NV_REQUIRE_MAX_TERMS), -EINVAL (a NUL byte inside), -ENOMEM. Malformed terms are not an
 * error here: they are recorded as invalid, as dsl.c finds them only when it reaches them. */
int nv_require_parse(const char *s, size_t len, struct nv_require *ret);
void nv_require_done(struct nv_require *r);

/* Evaluates r as dsl_evaluate() does for one device (or none). *ret_term, when not NULL, is
 * the invalid term reached (NV_REQUIRE_INVALID) or NULL. */
enum nv_require_result nv_require_eval(const struct nv_require *r, const struct nv_require_facts *f,
				       const struct nv_require_term **ret_term);
/* "cuda", "driver", "arch", "brand"; NULL for NV_REQUIRE_KEY_INVALID. */
const char *nv_require_key_name(enum nv_require_key key);
/* "=", "!=", "<", "<=", ">", ">=". */
const char *nv_require_op_name(enum nv_require_op op);
/* Whether any term names key (a fact the caller must know to judge the expression). */
bool nv_require_uses(const struct nv_require *r, enum nv_require_key key);
/* nvidia-container-cli's message for result res: "unsatisfied condition: cuda>=12.8, please
 * update your driver to a newer version, or use an earlier cuda container",
 * "invalid expression", or "" when satisfied. Truncated to len. */
void nv_require_message(const struct nv_require *r, enum nv_require_result res, char *buf,
			size_t len);
/* dsl.c's version comparison: 1 holds, 0 does not, -1 cannot be judged (not only digits and
 * dots, a field without digits, or a field that overflows). */
int nv_require_compare_version(const char *v1, enum nv_require_op op, const char *v2);

/* The brands libnvidia-container reports for a GPU (src/driver.c driver_get_device_brand:
 * NVML's Quadro, Tesla, NVS, GRID, GeForce and TITAN brands by those names, every other
 * NVML brand as "Unknown"), for judging an expression over a GPU whose brand is not known. */
extern const char *const nv_require_brands[];
extern const size_t nv_require_n_brands;
/* The brand libnvidia-container reports for an NVML brand name ("geforce" → "GeForce", "NVIDIA
 * RTX" → "Unknown"). */
const char *nv_require_brand(const char *nvml_brand);
