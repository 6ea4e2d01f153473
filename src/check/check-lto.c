// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * LTO-IR in `gpuenv check` (docs/compatibility.md, "LTO-IR"; docs/policy.md): an LTO-IR entry
 * (lto_XX) never loads as it is; a program can link it at run time through nvJitLink, which
 * must be of the same or newer version (NVIDIA nvJitLink documentation, Compatibility). Here
 * each LTO-IR entry of a named binary, an image's library or a framework build's libraries
 * is judged against the nvJitLink the judged tree holds (src/facts/ltoir.h): as text after
 * the verdict it conditions ("if it links its LTO-IR at run time: …") and as the structured
 * list check_cell.lto[] that --json, SARIF and JUnit print. Whether the program calls
 * nvJitLink cannot be seen, so nothing here changes a cell's verdict.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "facts/ltoir.h"
#include "shared/macro.h"
#include "shared/parse.h"

/* Keeps in ver the older of its version and v (when v is a version), and in from where the
 * kept one came from. */
static void keep_oldest(const char *v, char *ver, size_t vlen, char *from, size_t flen,
			const char *fmt, ...) _printf_(6, 7);
static void keep_oldest(const char *v, char *ver, size_t vlen, char *from, size_t flen,
			const char *fmt, ...)
{
	struct version a, b;
	va_list ap;

	if (!v || version_parse(v, &a) < 0)
		return;
	if (ver[0] && version_parse(ver, &b) == 0 && version_cmp(&a, &b) >= 0)
		return;
	snprintf(ver, vlen, "%s", v);
	va_start(ap, fmt);
	vsnprintf(from, flen, fmt, ap);
	va_end(ap);
}

const char *check_nvjitlink_found(const struct snap_node *root, char *ver, size_t vlen, char *from,
				  size_t flen)
{
	const struct snap_node *tks = snap_get(root, "runtime.cuda_toolkits");
	const struct snap_node *envs = snap_get(root, "framework.python_envs");
	const struct snap_node *lib = snap_get(root, "runtime.libraries.libnvJitLink.0");
	const char *soname = snap_get_str(lib, "soname"), *v;

	ver[0] = from[0] = '\0';
	for (size_t i = 0; i < snap_count(tks); i++) {
		const struct snap_node *tk = snap_at(tks, i);

		keep_oldest(snap_get_str(tk, "components.nvjitlink.version"), ver, vlen, from,
			    flen, "the CUDA toolkit at %s",
			    snap_get_str(tk, "path") ?: snap_get_str(tk, "resolved_path") ?: "?");
	}
	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *env = snap_at(envs, i);
		const struct snap_node *w = snap_get(env, "nvidia_wheels");

		for (size_t k = 0; k < snap_count(w); k++) {
			const char *name = snap_get_str(snap_at(w, k), "name");

			if (name && strncmp(name, "nvidia-nvjitlink", 16) == 0)
				keep_oldest(snap_get_str(snap_at(w, k), "version"), ver, vlen, from,
					    flen, "the %s wheel in %s", name,
					    snap_get_str(env, "prefix") ?: "?");
		}
	}
	if (ver[0])
		return ver;
	if (!soname)
		return NULL;
	/* the library the loader finds: its file's version (libnvJitLink.so.12.4.127), else
	 * the soname's major ("libnvJitLink.so.12") */
	v = snap_get_str(lib, "version");
	if (!v || version_parse(v, &(struct version){ 0 }) < 0) {
		v = strstr(soname, ".so.");
		v = v ? v + 4 : NULL;
	}
	if (!v || version_parse(v, &(struct version){ 0 }) < 0)
		return NULL;
	snprintf(ver, vlen, "%s", v);
	snprintf(from, flen, "%s at %s (its file name)", soname, snap_get_str(lib, "path") ?: "?");
	return ver;
}

void check_text_append(char *text, size_t len, const char *fmt, ...)
{
	size_t used = strlen(text);
	va_list ap;

	if (used >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(text + used, len - used, fmt, ap);
	va_end(ap);
}

/* Any LTO-IR target among t[0..n)? The nvJitLink is looked up only then: an image has
 * thousands of libraries, a snapshot thousands of environments. */
static bool any_lto(const struct coverage_target *t, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (strncmp(t[k].target, "lto_", 4) == 0)
			return true;
	return false;
}

void check_lto_note(const struct snap_node *root, const struct check_binary *b, char *buf,
		    size_t len)
{
	char nv[48], from[300];
	const char *ver;
	bool first = true;

	if (!any_lto(b->t, b->n))
		return;
	ver = root ? check_nvjitlink_found(root, nv, sizeof(nv), from, sizeof(from)) : NULL;
	for (size_t k = 0; k < b->n; k++) {
		struct ltoir_result lr;

		if (strncmp(b->t[k].target, "lto_", 4) != 0 ||
		    ltoir_judge(b->t[k].target, b->t[k].ptx_major, b->t[k].ptx_minor, ver, &lr) < 0)
			continue;
		check_text_append(buf, len, "%s%s%s",
				  first ? (buf[0] ? "; if it links its LTO-IR at run time: "
						  : "if it links its LTO-IR at run time: ")
					: "; ",
				  lr.reason, lr.unconfirmed ? " (unconfirmed)" : "");
		first = false;
	}
}

/* Frees what check_cell_lto() added to cell. */
void check_cell_lto_free(struct check_cell *cell)
{
	for (size_t i = 0; i < cell->n_lto; i++) {
		free(cell->lto[i].target);
		free(cell->lto[i].library);
		free(cell->lto[i].reason);
	}
	free(cell->lto);
	free(cell->nvjitlink);
	free(cell->nvjitlink_from);
	cell->lto = NULL;
	cell->n_lto = 0;
}

static bool already(const struct check_cell *cell, const char *target, int ma, int mi,
		    const char *library)
{
	for (size_t i = 0; i < cell->n_lto; i++) {
		const struct check_lto *l = &cell->lto[i];

		if (streq(l->target, target) && l->major == ma && l->minor == mi &&
		    streq(l->library ?: "", library ?: ""))
			return true;
	}
	return false;
}

int check_cell_lto(struct check_cell *cell, const struct snap_node *root,
		   const struct coverage_target *t, size_t n, const char *library)
{
	char nv[48], from[300];
	const char *ver;

	if (!any_lto(t, n))
		return 0;
	ver = root ? check_nvjitlink_found(root, nv, sizeof(nv), from, sizeof(from)) : NULL;
	for (size_t k = 0; k < n; k++) {
		struct ltoir_result lr;
		struct check_lto *l;

		if (strncmp(t[k].target, "lto_", 4) != 0 ||
		    already(cell, t[k].target, t[k].ptx_major, t[k].ptx_minor, library) ||
		    ltoir_judge(t[k].target, t[k].ptx_major, t[k].ptx_minor, ver, &lr) < 0)
			continue;
		if (cell->n_lto >= CHECK_CELL_LTO_MAX) {
			cell->lto_truncated = true;
			continue;
		}
		if (ver && !cell->nvjitlink) {
			cell->nvjitlink = strdup(ver);
			cell->nvjitlink_from = strdup(from);
			if (!cell->nvjitlink || !cell->nvjitlink_from)
				return -ENOMEM;
		}
		l = reallocarray(cell->lto, cell->n_lto + 1, sizeof(*l));
		if (!l)
			return -ENOMEM;
		cell->lto = l;
		l = &cell->lto[cell->n_lto++];
		*l = (struct check_lto){ .target = strdup(t[k].target),
					 .library = library ? strdup(library) : NULL,
					 .major = t[k].ptx_major,
					 .minor = t[k].ptx_minor,
					 .verdict = lr.verdict,
					 .unconfirmed = lr.unconfirmed,
					 .reason = strdup(lr.reason) };
		if (!l->target || (library && !l->library) || !l->reason)
			return -ENOMEM;
	}
	return 0;
}

int check_cell_lto_reason(struct check_cell *cell)
{
	char text[2048] = "";
	char *r;

	for (size_t i = 0; i < cell->n_lto; i++) {
		const struct check_lto *l = &cell->lto[i];

		check_text_append(text, sizeof(text), "%s%s%s%s%s",
				  i == 0 ? "if it links its LTO-IR at run time: " : "; ",
				  l->library ?: "", l->library ? ": " : "", l->reason,
				  l->unconfirmed ? " (unconfirmed)" : "");
	}
	if (cell->lto_truncated)
		check_text_append(text, sizeof(text), "; more LTO-IR entries than listed (%u)",
				  CHECK_CELL_LTO_MAX);
	if (!text[0])
		return 0;
	if (asprintf(&r, "%s%s%s", cell->reason ?: "", cell->reason ? "; " : "", text) < 0)
		return -ENOMEM;
	free(cell->reason);
	cell->reason = r;
	return 0;
}
