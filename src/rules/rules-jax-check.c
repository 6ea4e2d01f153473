// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * JAX's own check of the CUDA libraries it loads, as explain reads its message, and the rule it
 * alone gives: runtime.cudart-older-than-framework. JAX compares each library's version with
 * the one jaxlib was built against when its CUDA backend starts (jax/_src/xla_bridge.py, from
 * 0.4.26 jax_plugins/xla_cuda12/__init__.py, _version_check: "Found CUDA version 12010, but
 * JAX was built against version 12020, which is newer."), by major and minor, and falls back
 * to the CPU. The build's versions are compiled into jaxlib's cuda_versions module and written
 * in no file, so only the message gives them: framework.python_envs[].packages.jax.<library>
 * and .build_info.<library> (formats/pasted-errors.c). JAX's newer wording ("Outdated cuDNN
 * installation found." and its lines, formats/pasted-jax-check.c) also prints the minimum it
 * compared the installed version with (.build_info.<library>_minimum: the build's release
 * rounded down, or an absolute floor such as cuDNN 9.1 for jax 0.4.31, which a build of 8.9.7
 * does not meet); where it was read, the installed version is judged against it, whole.
 * runtime.cudnn-older-than-framework judges the cuDNN pair here too.
 */
#include <stdio.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"

/* Older by major and minor, across majors too: JAX scales both numbers down to them. */
static bool minor_older(const struct version *loaded, const struct version *built)
{
	if (loaded->part[0] != built->part[0])
		return loaded->part[0] < built->part[0];
	return loaded->n > 1 && built->n > 1 && loaded->part[1] < built->part[1];
}

void jax_check_pasted(struct rule_ctx *c, const struct snap_node *root, const char *loaded_key,
		      const char *built_key, const char *min_key, const char *library,
		      const char *fix)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");

	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *jax = snap_get(snap_at(envs, i), "packages.jax");
		const struct snap_node *lf = snap_get(jax, loaded_key),
				       *bf = snap_get(jax, built_key), *mf = snap_get(jax, min_key);
		const char *lv = snap_str(lf), *bv = snap_str(bf), *mv = snap_str(mf);
		struct version l, b, m;
		struct finding *f;
		char key[128];

		if (!bf)
			continue;
		if (!lv || !bv || version_parse(lv, &l) < 0 || version_parse(bv, &b) < 0) {
			rule_skip(
				c, NULL,
				"JAX's %s versions could not be read (loaded %s, built against %s)",
				library, lv ?: "?", bv ?: "?");
			continue;
		}
		if (mf && (!mv || version_parse(mv, &m) < 0)) {
			rule_skip(c, NULL, "JAX's minimum %s version could not be read (%s)",
				  library, mv ?: "?");
			continue;
		}
		if (mf ? version_cmp(&l, &m) >= 0 : !minor_older(&l, &b))
			continue;
		if (mf)
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, NULL,
				"JAX needs %s %s or later (it was built against %s); the "
				"%s it loads is %s: its CUDA backend does not start and it "
				"runs on the CPU",
				library, mv, bv, library, lv);
		else
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, NULL,
				"JAX was built against %s %s; the %s it loads is %s, an "
				"older release: its CUDA backend does not start and it runs "
				"on the CPU",
				library, bv, library, lv);
		snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.jax.%s", i,
			 loaded_key);
		finding_fact(f, key, lf);
		snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.jax.%s", i,
			 built_key);
		finding_fact(f, key, bf);
		if (mf) {
			snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.jax.%s", i,
				 min_key);
			finding_fact(f, key, mf);
		}
		if (fix)
			finding_fix(f, "%s", fix);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

RULE_CHECK(check_cudart_older_than_framework)
{
	jax_check_pasted(c, root, "cudart.version", "build_info.cuda_version",
			 "build_info.cuda_minimum", "CUDA runtime", NULL);
}
