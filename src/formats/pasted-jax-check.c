// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of JAX's check of the CUDA libraries in its newer, multi-line wording, as pasted
 * (`gpuenv explain`). When its CUDA plugin starts, JAX compares each library's version with
 * the one jaxlib was built against and, for one too old, raises (jax_plugins/cuda/__init__.py,
 * _check_cuda_versions and its _make_msg, the wording that replaced "Found cuDNN version 8600,
 * but JAX was built against version 8906, which is newer", which the errors reader reads):
 *
 *     Outdated cuDNN installation found.
 *     Version JAX was built against: 8907
 *     Minimum supported: 9100
 *     Installed version: 8907
 *     The local installation version must be no lower than 9100.
 *
 * (conda-forge/jax-feedstock#149; rgommers/pixi-dev-scipystack#1 as pytest prints it, each line
 * after "E   "). The installed version is the one JAX loads, the first the jaxlib's build, the
 * minimum what JAX compared the installed one with (the build's own release rounded down, or
 * an absolute floor: cuDNN 9.1 for jax 0.4.31). Of the names, CUDA (the runtime,
 * cudaRuntimeGetVersion) and cuDNN (CUDNN_VERSION) are read, as the older wording's reader
 * reads them and into the same facts, with the minimum beside the build's version:
 * framework.python_envs.0.packages.jax.{cudart.version, build_info.cuda_version,
 * build_info.cuda_minimum} and {cudnn.version, build_info.cudnn_version,
 * build_info.cudnn_minimum}, each at its line. cuFFT, cuBLAS, cuSPARSE and cuPTI are left: no
 * rule judges them. The symptom ("Outdated cuDNN installation found") is the errors reader's.
 *
 * The four lines must follow one another (after pytest's "E" marker or a log's blanks, as
 * pasted); a Python repr that joined them with a literal "\n" is read the same.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-errors.h"
#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define OUTDATED  "Outdated "
#define FOUND	  " installation found."
#define BUILT	  "Version JAX was built against: "
#define MINIMUM	  "Minimum supported: "
#define INSTALLED "Installed version: "

enum library { LIB_OTHER, LIB_CUDA, LIB_CUDNN };
enum field { F_BUILT, F_MINIMUM, F_INSTALLED, FIELDS };

/* The message being read: which library, how many of its fields in order so far. */
struct check {
	enum library lib;
	bool open;     /* its "Outdated … installation found." was the segment before */
	size_t fields; /* of BUILT, MINIMUM, INSTALLED read in that order */
	unsigned v[FIELDS];
	unsigned no[FIELDS];
};

static const char *const labels[FIELDS] = { BUILT, MINIMUM, INSTALLED };

/* s[0..n) after its blanks and pytest's "E" marker ("E   Outdated …"). */
static const char *skip_marker(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (e - s > 1 && s[0] == 'E' && (s[1] == ' ' || s[1] == '\t')) {
		s++;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
	}
	return s;
}

/* The number JAX printed at s (up to e): digits, at most 7, then nothing but blanks or a '.'
 * (an end of sentence); false otherwise. */
static bool number_at(const char *s, const char *e, unsigned *ret)
{
	unsigned v = 0;
	size_t n = 0;

	while (s + n < e && s[n] >= '0' && s[n] <= '9' && n < 7)
		v = v * 10 + (unsigned)(s[n++] - '0');
	if (n == 0)
		return false;
	for (const char *p = s + n; p < e; p++)
		if (*p != ' ' && *p != '\t' && *p != '.' && *p != '\r')
			return false;
	*ret = v;
	return true;
}

/* "Outdated <name> installation found." anywhere in s[0..e) (after a "CUDA backend failed to
 * initialize: …" or a logger's "Error: "): the library, or false for no such sentence. */
static bool outdated_at(const char *s, const char *e, enum library *ret)
{
	static const struct {
		const char *name;
		enum library lib;
	} names[] = { { "CUDA", LIB_CUDA }, { "cuDNN", LIB_CUDNN } };
	size_t k = strlen(OUTDATED), f = strlen(FOUND);

	for (const char *p = s; (size_t)(e - p) >= k + f; p++) {
		const char *name = p + k, *end;

		if (memcmp(p, OUTDATED, k) != 0)
			continue;
		end = memchr(name, ' ', (size_t)(e - name));
		if (!end || end == name || (size_t)(e - end) < f || memcmp(end, FOUND, f) != 0)
			continue;
		*ret = LIB_OTHER;
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			if ((size_t)(end - name) == strlen(names[i].name) &&
			    memcmp(name, names[i].name, (size_t)(end - name)) == 0)
				*ret = names[i].lib;
		return true;
	}
	return false;
}

static void put_facts(struct pasted_out *o, const struct check *c)
{
	static const char *const keys[2][FIELDS] = {
		{ "build_info.cuda_version", "build_info.cuda_minimum", "cudart.version" },
		{ "build_info.cudnn_version", "build_info.cudnn_minimum", "cudnn.version" },
	};
	bool cudnn = c->lib == LIB_CUDNN;

	for (size_t i = 0; i < FIELDS; i++) {
		char text[32];

		pasted_jax_version_text(cudnn, c->v[i], text, sizeof(text));
		pasted_put(o, c->no[i], text, "framework.python_envs.0.packages.jax.%s",
			   keys[cudnn][i]);
	}
}

/* One line's worth of the message (a line, or a piece of one between literal "\n"s). */
static void read_segment(struct pasted_out *o, struct check *c, const char *s, const char *e,
			 unsigned no)
{
	enum library lib;

	s = skip_marker(s, e);
	if (c->open && c->fields < FIELDS) {
		size_t k = strlen(labels[c->fields]);

		if ((size_t)(e - s) > k && memcmp(s, labels[c->fields], k) == 0 &&
		    number_at(s + k, e, &c->v[c->fields])) {
			c->no[c->fields++] = no;
			if (c->fields == FIELDS) {
				if (c->lib != LIB_OTHER)
					put_facts(o, c);
				c->open = false;
			}
			return;
		}
	}
	c->open = false;
	if (outdated_at(s, e, &lib))
		*c = (struct check){ .lib = lib, .open = true };
}

int pasted_read_jax_check(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "jax-check" };
	struct check c = { .open = false };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		const char *s = line, *e = line + strlen(line), *cut;

		/* a repr's literal "\n" ends a segment as a line break does */
		while ((cut = strstr(s, "\\n")) != NULL) {
			read_segment(&o, &c, s, cut, it.no);
			s = cut + 2;
		}
		read_segment(&o, &c, s, e, it.no);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
