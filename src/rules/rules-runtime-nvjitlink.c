// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.nvjitlink-older-than-library: a CUDA library a framework loads (cuSPARSE, cuSOLVER)
 * needs versioned nvJitLink entry points (__nvJitLinkComplete_12_4: the CUDA release it was
 * built with, nvJitLink.h's names) that the libnvJitLink ld.so gives it does not define, so
 * the import fails with "undefined symbol: __nvJitLinkComplete_12_4, version
 * libnvJitLink.so.12" (pytorch/pytorch#140797, #134929, #111469; NVIDIA/cuvs#1862: "nvJitLink
 * has versioned symbols that are added in each new CTK release"). The facts are the
 * framework's loads.<soname>.nvjitlink (src/probe/framework-nvjitlink.c) for what its library
 * links, and dlopen.<name>.nvjitlink for what it opens by name (JAX's CUDA plugin opens
 * cuSPARSE, jax-ml/jax#28929: "Unable to load cuSPARSE", and falls back to the CPU): the
 * symbols the library needs, the copy that wins, and which of them it lacks.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/macro.h"

struct nvj_ctx {
	struct rule_ctx *c;
	const struct snap_node *root;
};

/* "12.4" from "__nvJitLinkComplete_12_4" (the release its name carries), into buf; false
 * when the name carries none. */
static bool release_of(const char *name, char *buf, size_t len)
{
	const char *minor = strrchr(name, '_'), *major;
	unsigned ma, mi;

	if (!minor || minor == name)
		return false;
	for (major = minor - 1; major > name && *major != '_'; major--)
		;
	if (*major != '_' || sscanf(major, "_%u_%u", &ma, &mi) != 2)
		return false;
	snprintf(buf, len, "%u.%u", ma, mi);
	return true;
}

/* The newest release the missing names carry, into buf ("" when none carries one). */
static void newest_release(const struct snap_node *missing, char *buf, size_t len)
{
	unsigned best_ma = 0, best_mi = 0;
	bool any = false;

	buf[0] = '\0';
	for (size_t i = 0; i < snap_count(missing); i++) {
		char r[32];
		unsigned ma, mi;

		if (!release_of(snap_str(snap_at(missing, i)) ?: "", r, sizeof(r)) ||
		    sscanf(r, "%u.%u", &ma, &mi) != 2)
			continue;
		if (!any || ma > best_ma || (ma == best_ma && mi > best_mi)) {
			best_ma = ma;
			best_mi = mi;
			any = true;
		}
	}
	if (any)
		snprintf(buf, len, "%u.%u", best_ma, best_mi);
}

/* l: one entry of the build's `how` object ("loads": linked, "dlopen": opened by name). */
static void one_library(struct nvj_ctx *s, const struct fw_build *b, const char *how,
			const struct snap_node *l)
{
	const struct snap_node *nvj = snap_child(l, "nvjitlink");
	const struct snap_node *missing = snap_child(nvj, "symbols_missing");
	const struct snap_node *own = snap_child(nvj, "own_copy");
	const struct snap_node *own_missing = snap_child(own, "symbols_missing");
	const char *lib = snap_get_str(l, "path") ?: snap_key(l);
	const char *win = snap_get_str(nvj, "path");
	const char *first = snap_str(snap_at(missing, 0));
	const char *via = snap_get_str(nvj, "found_via") ?: "?";
	const char *version = snap_get_str(nvj, "symbol_version");
	bool own_ok;
	char release[32], rel_text[128] = "", key[320], what[300];
	struct finding *f;

	if (!nvj || !lib_need_determined(s->c, b->prefix, nvj))
		return;
	snprintf(what, sizeof(what), "the nvJitLink entry points %s needs", lib);
	if (!rule_need(s->c, b->prefix, what, missing) || !first || !win)
		return;
	newest_release(missing, release, sizeof(release));
	own_ok = own && snap_state(own_missing) == FACT_PRESENT && snap_count(own_missing) == 0;
	if (release[0])
		snprintf(rel_text, sizeof(rel_text), " (names of CUDA %s: nvJitLink %s or newer)",
			 release, release);
	f = rule_finding(s->c, GPUENV_SEVERITY_ERROR, b->prefix,
			 "%s in %s %s %s, which needs %s%s from %s%s; ld.so gives it %s (via "
			 "%s, version %s), which does not define %s%s: %s fails",
			 b->label, b->prefix, streq(how, "dlopen") ? "opens" : "loads", lib, first,
			 snap_count(missing) > 1 ? " and more" : "",
			 snap_get_str(nvj, "soname") ?: "?", rel_text, win, via,
			 snap_get_str(nvj, "version") ?: "unknown",
			 snap_count(missing) > 1 ? "them" : "it",
			 own_ok ? "; the copy its own DT_RUNPATH names does" : "",
			 streq(how, "dlopen") ? "opening it" : "importing it");
	finding_symptom(f, "%s: undefined symbol: %s%s%s", lib, first, version ? ", version " : "",
			version ?: "");
	snprintf(key, sizeof(key), "%s.%s.%s.nvjitlink.symbols_missing", b->key, how, snap_key(l));
	finding_names_evidence(f, key, win, missing);
	snprintf(key, sizeof(key), "%s.%s.%s.nvjitlink.path", b->key, how, snap_key(l));
	finding_fact(f, key, snap_child(nvj, "path"));
	snprintf(key, sizeof(key), "%s.%s.%s.nvjitlink.found_via", b->key, how, snap_key(l));
	finding_fact(f, key, snap_child(nvj, "found_via"));
	if (own && snap_state(own_missing) == FACT_PRESENT) {
		snprintf(key, sizeof(key), "%s.%s.%s.nvjitlink.own_copy.symbols_missing", b->key,
			 how, snap_key(l));
		finding_names_evidence(f, key, snap_get_str(own, "path") ?: "?", own_missing);
	}
	if (streq(via, "LD_LIBRARY_PATH"))
		finding_fact(f, "environment.LD_LIBRARY_PATH",
			     snap_get(s->root, "environment.LD_LIBRARY_PATH"));
	if (own_ok && streq(via, "LD_LIBRARY_PATH"))
		finding_fix(
			f,
			"# drop %s's directory from LD_LIBRARY_PATH for this environment: ld.so "
			"then takes %s, which defines them",
			win, snap_get_str(own, "path") ?: "?");
	else if (release[0])
		finding_fix(f, "%s install -U 'nvidia-nvjitlink%s>=%s'", b->pip,
			    startswith(release, "12.") ? "-cu12" : "", release);
	finding_rule_fix(f);
	finding_verify(f, "nm -D --defined-only %s | grep %s", win, first);
	/* JAX opens cuSPARSE when its CUDA plugin starts, not on import */
	if (b->kind == FW_JAX_PLUGIN)
		finding_verify(f,
			       "LD_DEBUG=libs %s -c 'import jax; jax.devices()' 2>&1 | grep -E "
			       "'libnvJitLink|trying file'",
			       b->python);
	else
		finding_rule_verify(f);
}

static void nvj_fw(const struct fw_build *b, void *u)
{
	static const char *const hows[] = { "loads", "dlopen" };

	for (size_t h = 0; h < ARRAY_SIZE(hows); h++) {
		const struct snap_node *libs = snap_child(b->pkg, hows[h]);

		for (size_t i = 0; snap_kind(libs) == SNAP_OBJECT && i < snap_count(libs); i++)
			one_library(u, b, hows[h], snap_at(libs, i));
	}
}

RULE_CHECK(check_nvjitlink_older_than_library)
{
	struct nvj_ctx s = { c, root };

	fw_need_complete(c, root);
	fw_foreach(root, nvj_fw, &s);
}
