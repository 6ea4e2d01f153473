// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NVIDIA container requirement expressions (nv-require.h), parsed and evaluated as
 * libnvidia-container's src/cli/dsl.c does: the same separators, the same operator lookup,
 * the same lazy evaluation and the same message, so that what gpuenv predicts is what
 * nvidia-container-cli says when it starts the container.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nv-require.h"
#include "shared/macro.h"

/* dsl.c's operators, in its order: the lookup takes the first whose start matches. */
static const struct {
	const char *str;
	enum nv_require_op op;
} operators[] = {
	{ "=", NV_REQ_EQ },  { "!=", NV_REQ_NE }, { "<", NV_REQ_LT },
	{ "<=", NV_REQ_LE }, { ">", NV_REQ_GT },  { ">=", NV_REQ_GE },
};

static const char *const key_names[] = {
	[NV_REQUIRE_CUDA] = "cuda",
	[NV_REQUIRE_DRIVER] = "driver",
	[NV_REQUIRE_ARCH] = "arch",
	[NV_REQUIRE_BRAND] = "brand",
};

const char *const nv_require_brands[] = { "Quadro",  "Tesla", "NVS",	"GRID",
					  "GeForce", "TITAN", "Unknown" };
const size_t nv_require_n_brands = ARRAY_SIZE(nv_require_brands);

const char *nv_require_key_name(enum nv_require_key key)
{
	return key < ARRAY_SIZE(key_names) ? key_names[key] : NULL;
}

const char *nv_require_brand(const char *nvml_brand)
{
	for (size_t i = 0; i + 1 < ARRAY_SIZE(nv_require_brands); i++)
		if (strcasecmp(nvml_brand, nv_require_brands[i]) == 0)
			return nv_require_brands[i];
	return "Unknown";
}

/* dsl.c's error buffer: a failing term formatted "name op value" this long or longer makes
 * the expression invalid (its snprintf() truncation check). */
#define EXPR_MAX 128u

const char *nv_require_op_name(enum nv_require_op op)
{
	for (size_t i = 0; i < ARRAY_SIZE(operators); i++)
		if (operators[i].op == op)
			return operators[i].str;
	return "?";
}

/* One term "name op value" of the copy, split in place (the operator's first byte becomes
 * the name's NUL, as dsl.c writes it). */
static void term_parse(char *expr, struct nv_require_term *t)
{
	size_t n = strcspn(expr, "<>=!"), m;
	char *ptr;

	*t = (struct nv_require_term){ .valid = false,
				       .key = NV_REQUIRE_KEY_INVALID,
				       .name = expr,
				       .value = "",
				       .text = expr };
	if (n == 0)
		return;
	ptr = expr + n;
	m = strspn(ptr, "<>=!");
	if (m == 0)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(operators); i++) {
		if (strncmp(ptr, operators[i].str, m) != 0)
			continue;
		if (!ptr[m])
			return; /* no value */
		t->op = operators[i].op;
		t->value = ptr + m;
		for (size_t k = 0; k < ARRAY_SIZE(key_names); k++)
			if (n == strlen(key_names[k]) && strncasecmp(expr, key_names[k], n) == 0)
				t->key = (enum nv_require_key)k;
		*ptr = '\0';
		t->valid = t->key != NV_REQUIRE_KEY_INVALID;
		return;
	}
}

int nv_require_parse(const char *s, size_t len, struct nv_require *ret)
{
	struct nv_require r = { 0 };
	size_t n_words = 1, n_terms = 0, first_len;
	char *text, *p;

	*ret = (struct nv_require){ 0 };
	if (len > NV_REQUIRE_MAX_LEN)
		return -E2BIG;
	if (memchr(s, '\0', len))
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		n_words += s[i] == ' ';
		n_terms += s[i] == ',' || s[i] == ' ';
	}
	n_terms++;
	if (n_terms > NV_REQUIRE_MAX_TERMS)
		return -E2BIG;
	for (first_len = 0; first_len < len && s[first_len] != ' ';)
		first_len++;
	/* the terms' text is kept once unsplit (for messages) and once split */
	r.buf = malloc(2 * (len + 1) + first_len + 1);
	r.terms = calloc(n_terms, sizeof(*r.terms));
	r.alts = calloc(n_words, sizeof(*r.alts));
	if (!r.buf || !r.terms || !r.alts) {
		nv_require_done(&r);
		return -ENOMEM;
	}
	memcpy(r.buf, s, len);
	r.buf[len] = '\0';
	text = r.buf + len + 1;
	memcpy(text, s, len);
	text[len] = '\0';
	r.first_alternative = text + len + 1;
	memcpy(r.first_alternative, s, first_len);
	r.first_alternative[first_len] = '\0';

	p = r.buf;
	for (char *word; (word = strsep(&p, " "));) {
		struct nv_require_alt *a;

		if (!*word)
			continue;
		a = &r.alts[r.n_alts++];
		a->first = r.n_terms;
		for (char *term, *q = word; (term = strsep(&q, ","));) {
			struct nv_require_term *t;
			size_t off = (size_t)(term - r.buf), term_len = strlen(term);

			if (!term_len)
				continue;
			t = &r.terms[r.n_terms++];
			term_parse(term, t);
			/* the same bytes in the unsplit copy, ended where the term ends */
			t->text = text + off;
			text[off + term_len] = '\0';
			a->n++;
		}
	}
	*ret = r;
	return 0;
}

void nv_require_done(struct nv_require *r)
{
	free(r->buf);
	free(r->terms);
	free(r->alts);
	*r = (struct nv_require){ 0 };
}

/* strtoumax() of the digits at s (the caller checked that only digits and dots follow):
 * -1 when there is none or it overflows, as dsl.c's UINTMAX_MAX and v == ptr checks. */
static int field(const char *s, uintmax_t *ret, const char **ret_end)
{
	char *end;

	errno = 0;
	*ret = strtoumax(s, &end, 10);
	*ret_end = end;
	if (end == s || *ret == UINTMAX_MAX)
		return -1;
	return 0;
}

int nv_require_compare_version(const char *v1, enum nv_require_op op, const char *v2)
{
	const char *e1, *e2;
	uintmax_t n1, n2;

	if (strspn(v1, "0123456789.") != strlen(v1) || strspn(v2, "0123456789.") != strlen(v2))
		return -1;
	while (*v1 && *v2) {
		if (field(v1, &n1, &e1) < 0 || field(v2, &n2, &e2) < 0)
			return -1;
		if (n1 != n2) {
			switch (op) {
			case NV_REQ_EQ:
				return 0;
			case NV_REQ_NE:
				return 1;
			case NV_REQ_LT:
			case NV_REQ_LE:
				return n1 < n2;
			default:
				return n1 > n2;
			}
		}
		v1 = e1 + strspn(e1, ".");
		v2 = e2 + strspn(e2, ".");
	}
	/* what is left of one of them: only zeros and dots make it equal */
	v1 += strspn(v1, ".0");
	v2 += strspn(v2, ".0");
	if (op == NV_REQ_NE)
		return *v1 || *v2;
	if ((op == NV_REQ_EQ || op == NV_REQ_LE || op == NV_REQ_GE) && !*v1 && !*v2)
		return 1;
	if (op == NV_REQ_EQ)
		return 0;
	if (op == NV_REQ_LT || op == NV_REQ_LE)
		return !*v1 && *v2;
	return *v1 && !*v2;
}

/* configure.c's rules: 1, 0, or -1 (cannot be judged). */
static int term_eval(const struct nv_require_term *t, const struct nv_require_facts *f)
{
	switch (t->key) {
	case NV_REQUIRE_CUDA:
		return f->cuda ? nv_require_compare_version(f->cuda, t->op, t->value) : 1;
	case NV_REQUIRE_DRIVER:
		return f->driver ? nv_require_compare_version(f->driver, t->op, t->value) : 1;
	case NV_REQUIRE_ARCH:
		if (!f->device)
			return 1; /* "No device is visible, assume the arch is ok." */
		return f->arch ? nv_require_compare_version(f->arch, t->op, t->value) : 1;
	case NV_REQUIRE_BRAND:
		if (!f->device || !f->brand)
			return 1;
		if (t->op == NV_REQ_EQ)
			return strcasecmp(f->brand, t->value) == 0;
		if (t->op == NV_REQ_NE)
			return strcasecmp(f->brand, t->value) != 0;
		return -1;
	default:
		return -1;
	}
}

enum nv_require_result nv_require_eval(const struct nv_require *r, const struct nv_require_facts *f,
				       const struct nv_require_term **ret_term)
{
	int ret = 1;

	if (ret_term)
		*ret_term = NULL;
	for (size_t a = 0; a < r->n_alts; a++) {
		const struct nv_require_alt *alt = &r->alts[a];
		bool broke = false;

		for (size_t i = alt->first; i < alt->first + alt->n; i++) {
			const struct nv_require_term *t = &r->terms[i];

			ret = t->valid ? term_eval(t, f) : -1;
			if (ret == 0 && strlen(t->name) + strlen(nv_require_op_name(t->op)) +
							strlen(t->value) + 2 >=
						EXPR_MAX)
				ret = -1;
			if (ret < 0) {
				if (ret_term)
					*ret_term = t;
				return NV_REQUIRE_INVALID;
			}
			if (ret == 0) {
				broke = true;
				break;
			}
		}
		if (!broke)
			break;
	}
	return ret ? NV_REQUIRE_SATISFIED : NV_REQUIRE_UNSATISFIED;
}

bool nv_require_uses(const struct nv_require *r, enum nv_require_key key)
{
	for (size_t i = 0; i < r->n_terms; i++)
		if (r->terms[i].valid && r->terms[i].key == key)
			return true;
	return false;
}

void nv_require_message(const struct nv_require *r, enum nv_require_result res, char *buf,
			size_t len)
{
	static const char cuda_ge[] = "cuda>=";
	const char *first = r->first_alternative ? r->first_alternative : "";

	if (len == 0)
		return;
	switch (res) {
	case NV_REQUIRE_SATISFIED:
		buf[0] = '\0';
		break;
	case NV_REQUIRE_INVALID:
		snprintf(buf, len, "invalid expression");
		break;
	default:
		/* dsl.c: the first space-separated word, whichever alternative failed */
		if (strncmp(first, cuda_ge, strlen(cuda_ge)) == 0)
			snprintf(buf, len,
				 "unsatisfied condition: %s, please update your driver to a newer "
				 "version, or use an earlier cuda container",
				 first);
		else
			snprintf(buf, len, "unsatisfied condition: %s", first);
		break;
	}
}
