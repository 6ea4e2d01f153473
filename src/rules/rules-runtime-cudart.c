// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.cudart-older-than-framework: the CUDA runtime a framework loads is an older minor
 * than the one it was built against. JAX checks it itself when its CUDA backend starts
 * (jax/_src/xla_bridge.py, from 0.4.26 jax_plugins/xla_cuda12/__init__.py, _version_check:
 * cudaRuntimeGetVersion() against CUDART_VERSION at build time, compared to the minor) and
 * falls back to the CPU. The version it was built against is compiled into jaxlib's
 * cuda_versions module and written in no file, so only JAX's own message gives it: the rule
 * runs where a pasted message was read (rule.only_with), as
 * framework.python_envs[].packages.jax.{cudart.version, build_info.cuda_version}
 * (formats/pasted-errors.c).
 */
#include <stdio.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"

/* Older by the major and minor: JAX scales both numbers down to them before comparing. */
static bool minor_older(const struct version *loaded, const struct version *built)
{
	if (loaded->part[0] != built->part[0])
		return loaded->part[0] < built->part[0];
	return loaded->n > 1 && built->n > 1 && loaded->part[1] < built->part[1];
}

RULE_CHECK(check_cudart_older_than_framework)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");

	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *jax = snap_get(snap_at(envs, i), "packages.jax");
		const struct snap_node *lf = snap_get(jax, "cudart.version"),
				       *bf = snap_get(jax, "build_info.cuda_version");
		const char *lv = snap_str(lf), *bv = snap_str(bf);
		struct version l, b;
		struct finding *f;
		char key[96];

		if (!bf)
			continue;
		if (!lv || !bv || version_parse(lv, &l) < 0 || version_parse(bv, &b) < 0) {
			rule_skip(
				c, NULL,
				"JAX's CUDA versions could not be read (loaded %s, built against %s)",
				lv ?: "?", bv ?: "?");
			continue;
		}
		if (!minor_older(&l, &b))
			continue;
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"JAX was built against CUDA %s; the CUDA runtime it loads is %s, an "
			"older release: its CUDA backend does not start and it runs on the CPU",
			bv, lv);
		snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.jax.cudart.version",
			 i);
		finding_fact(f, key, lf);
		snprintf(key, sizeof(key),
			 "framework.python_envs.%zu.packages.jax.build_info.cuda_version", i);
		finding_fact(f, key, bf);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}
