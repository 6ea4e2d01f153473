// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.cuda-library-symbol-missing: a CUDA library a framework loads (cuSOLVER, cuBLAS)
 * needs a name its sibling exports under a version node (cublasSetEnvironmentMode@
 * libcublas.so.12), and the sibling copy ld.so gives it, an older one, does not define it:
 * "undefined symbol: cublasSetEnvironmentMode, version libcublas.so.12"
 * (int-brain-lab/ibl-sorter#41: the toolkit's cuSOLVER with the nvidia-cublas-cu12 12.8.4.1
 * wheel, fixed by nvidia-cublas-cu12>=12.9.0.13; pytorch/pytorch#174320: the wheel's
 * libcublas.so.11 with a system libcublasLt.so.11 found first through LD_LIBRARY_PATH).
 * The facts are loads.<soname>.siblings.<soname> (src/probe/framework-siblings.c): the copy
 * the library gets, how, and the names it lacks. libnvJitLink, whose names carry the CUDA
 * release and whose fix is that release's nvJitLink, stays
 * runtime.nvjitlink-older-than-library's: one cause, one finding. CuPy's core and its
 * modules (packages.cupy.module_loads: imported on first use, after the core mapped its
 * libraries) are judged as the frameworks fw_foreach() walks.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/macro.h"
#include "shared/path-util.h"

struct sib_ctx {
	struct rule_ctx *c;
	const struct snap_node *root;
};

/* The directory of path, into buf. */
static const char *dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	if (n >= len)
		n = len - 1;
	memcpy(buf, path, n);
	buf[n] = '\0';
	return buf;
}

static void one_sibling(struct sib_ctx *s, const struct fw_build *b, const char *how,
			const struct snap_node *l, const struct snap_node *sib)
{
	const struct snap_node *missing = snap_child(sib, "symbols_missing");
	const char *lib = snap_get_str(l, "path") ?: snap_key(l);
	const char *copy = snap_get_str(sib, "path");
	const char *first = snap_str(snap_at(missing, 0));
	const char *via = snap_get_str(sib, "found_via") ?: "?";
	const char *mvia = snap_get_str(sib, "mapped_via");
	const char *version = snap_get_str(sib, "symbol_version");
	const char *found = mvia ?: via;
	const struct snap_node *wheel = copy ? wheel_holding(b->env, copy) : NULL;
	char what[300], key[384], dir[256], wtext[160] = "";
	struct finding *f;

	snprintf(what, sizeof(what), "the names %s needs from %s", lib, snap_key(sib));
	if (!rule_need(s->c, b->prefix, what, missing) || !first || !copy)
		return;
	if (wheel)
		snprintf(wtext, sizeof(wtext), ", from the wheel %s %s",
			 snap_get_str(wheel, "name") ?: "?", snap_get_str(wheel, "version") ?: "?");
	f = rule_finding(s->c, GPUENV_SEVERITY_ERROR, b->prefix,
			 "%s in %s %s %s, which needs %s%s%s%s from %s; the copy it gets, %s "
			 "(%s%s%s), does not define %s: loading it fails",
			 b->label, b->prefix, streq(how, "dlopen") ? "opens" : "loads", lib, first,
			 version ? " (version " : "", version ?: "", version ? ")" : "",
			 snap_key(sib), copy,
			 mvia ? "mapped first by the framework's library, found via " : "via ",
			 found, wtext, snap_count(missing) > 1 ? "it and more" : "it");
	finding_symptom(f, "%s: undefined symbol: %s%s%s", lib, first, version ? ", version " : "",
			version ?: "");
	snprintf(key, sizeof(key), "%s.%s.%s.siblings.%s.symbols_missing", b->key, how, snap_key(l),
		 snap_key(sib));
	finding_names_evidence(f, key, copy, missing);
	snprintf(key, sizeof(key), "%s.%s.%s.siblings.%s.path", b->key, how, snap_key(l),
		 snap_key(sib));
	finding_fact(f, key, snap_child(sib, "path"));
	if (streq(found, "LD_LIBRARY_PATH")) {
		finding_fact(f, "environment.LD_LIBRARY_PATH",
			     snap_get(s->root, "environment.LD_LIBRARY_PATH"));
		finding_fix(
			f,
			"# drop %s from LD_LIBRARY_PATH for this environment: it puts the older "
			"%s before the copy %s is shipped with",
			dir_of(copy, dir, sizeof(dir)), snap_key(sib), path_basename(lib));
	} else if (wheel && snap_get_str(wheel, "name")) {
		finding_fix(f, "%s install -U %s", b->pip, snap_get_str(wheel, "name"));
	}
	finding_rule_fix(f);
	finding_verify(f, "nm -D --defined-only %s | grep -w %s", copy, first);
	finding_rule_verify(f);
}

/* how: the build's "loads" (linked), "dlopen" (opened by name) or "module_loads" (CuPy's
 * modules imported on first use, and the libraries only they link) object. */
static void sib_how(struct sib_ctx *u, const struct fw_build *b, const char *how)
{
	const struct snap_node *libs = snap_child(b->pkg, how);

	for (size_t i = 0; snap_kind(libs) == SNAP_OBJECT && i < snap_count(libs); i++) {
		const struct snap_node *l = snap_at(libs, i);
		const struct snap_node *sibs = snap_child(l, "siblings");

		if (snap_child(sibs, "symbols_needed")) {
			rule_need(u->c, b->prefix, "the names a library needs",
				  snap_child(sibs, "symbols_needed"));
			continue;
		}
		for (size_t j = 0; snap_kind(sibs) == SNAP_OBJECT && j < snap_count(sibs); j++)
			one_sibling(u, b, how, l, snap_at(sibs, j));
	}
}

static void sib_fw(const struct fw_build *b, void *u)
{
	sib_how(u, b, "loads");
	sib_how(u, b, "dlopen");
	sib_how(u, b, "module_loads"); /* CuPy's modules and what only they link */
}

RULE_CHECK(check_cuda_library_symbol_missing)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");
	struct sib_ctx s = { c, root };

	fw_need_complete(c, root);
	fw_foreach(root, sib_fw, &s);
	/* CuPy: what its core maps, and its modules imported on first use */
	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *cp = snap_get(snap_at(envs, i), "packages.cupy");
		struct fw_build b;

		if (snap_kind(cp) != SNAP_OBJECT)
			continue;
		fw_build_other(&b, snap_at(envs, i), i, "cupy", "CuPy", cp);
		sib_fw(&b, &s);
	}
}
