// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * framework.ollama-rocm-gfx-unsupported: ollama's ROCm build (framework.ollama.rocm_variants[],
 * src/probe/probe-ollama.c) has no rocBLAS kernels for an AMD GPU's gfx target, so ollama
 * leaves the GPU out and runs models on the CPU. ollama accepts a GPU only where its ROCm
 * directory holds rocblas/library/TensileLibrary_lazy_<gfx>.dat (GetSupportedGFX(),
 * discover/amd_common.go: "amdgpu is not supported (supported types:[…]) gpu_type=gfxNNNN",
 * then "no compatible GPUs were discovered"), and skips that check where
 * HSA_OVERRIDE_GFX_VERSION is set ("skipping rocm gfx compatibility check"): ROCm then loads
 * the code of the target the override names, which must be in the list instead
 * (ollama/ollama#11569: an Instinct MI50, gfx906, which ollama 0.9.6's ROCm dropped). The
 * override users set for a GPU near a listed one comes from the knowledge base
 * (hsa_override.tsv, shared with framework.rocm-gfx-unsupported), marked unsupported by AMD.
 * Whose HSA_OVERRIDE_GFX_VERSION: where ollama runs as a systemd service
 * (framework.ollama.service_unit, install.sh's ollama.service), the service's, from its unit
 * and drop-ins (service_environment: an export in a shell never reaches a service);
 * elsewhere (`ollama serve` from a shell, a container, a pasted log) the judged process's.
 * Where the unit exists but is not enabled (framework.ollama.service_enabled false: no
 * <target>.wants link), the server is the service only if someone ran `systemctl start
 * ollama`; an `ollama serve` started by hand reads none of the unit's files
 * (ollama/ollama#8679). Both are judged then, and a GPU they judge differently is "could not
 * tell", never a verdict.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/strbuf.h"

/* The targets as ollama's log lists them ("gfx1030 gfx1100 …"). */
static void target_list(const struct snap_node *tl, struct strbuf *out)
{
	for (size_t i = 0; i < snap_count(tl); i++)
		strbuf_printf(out, "%s%s", i ? " " : "",
			      snap_get_str(snap_at(tl, i), "gfx") ?: "?");
}

/* The override the knowledge base gives for gfx makes ROCm load code the list tl holds. */
static bool override_would_run(const struct snap_node *tl, const char *gfx)
{
	const struct facts_hsa_override *o;

	return facts_hsa_override(gfx, &o) == 0 && o->override &&
	       amd_targets_have_gfx(tl, o->runs_as);
}

/* The override's fix where the service is the server: a drop-in, then a restart. */
static void service_override_fix(struct finding *f, const struct snap_node *tl, const char *gfx)
{
	const struct facts_hsa_override *o;

	if (facts_hsa_override(gfx, &o) < 0 || !o->override ||
	    !amd_targets_have_gfx(tl, o->runs_as))
		return;
	finding_fix(
		f,
		"systemctl edit ollama   # [Service] Environment=\"HSA_OVERRIDE_GFX_VERSION=%s\", "
		"then systemctl restart ollama; NOT supported by AMD: ROCm then runs the %s code "
		"on this %s GPU, which may crash, hang or compute wrong results%s",
		o->override, o->runs_as, gfx,
		facts_unconfirmed(o->confidence) ? " (value unconfirmed)" : "");
	finding_evidence(f, "facts.hsa_override", o->source, "%s (%s): %s runs as %s", gfx,
			 o->family, o->override, o->runs_as);
}

/* Where ollama runs as a service, its environment must be known whole: an unreadable unit
 * or drop-in, an EnvironmentFile= or a line not split may hold the override. */
static bool service_env_known(struct rule_ctx *c, const struct snap_node *unit,
			      const struct snap_node *env, const struct snap_node *ovr)
{
	return rule_need(c, "ollama.service", "the ollama service's unit file", unit) &&
	       rule_need(c, snap_str(unit), "the ollama service's environment", env) &&
	       (!ovr ||
		rule_need(c, snap_str(unit), "the ollama service's HSA_OVERRIDE_GFX_VERSION", ovr));
}

/* One environment ollama's server may run with: the service's or the judged process's. */
struct view {
	bool service;
	const struct snap_node *env, *ovr;
	const char *key;
	bool have_ovr;
	char as[32];
};

static void view_init(struct view *w, const struct snap_node *root, bool service)
{
	w->service = service;
	w->env = service ? snap_get(root, "framework.ollama.service_environment")
			 : snap_get(root, "environment");
	w->ovr = snap_child(w->env, "HSA_OVERRIDE_GFX_VERSION");
	w->key = service ? "framework.ollama.service_environment.HSA_OVERRIDE_GFX_VERSION"
			 : "environment.HSA_OVERRIDE_GFX_VERSION";
	w->have_ovr = amd_gfx_of_override(snap_str(w->ovr), w->as, sizeof(w->as));
}

/* Does ROCm under w load code for the GPU gfx that the list tl has? */
static bool view_runs(const struct view *w, const struct snap_node *tl, const char *gfx)
{
	return amd_targets_have_gfx(tl, w->have_ovr ? w->as : gfx);
}

static void report(struct rule_ctx *c, const struct snap_node *root, const struct snap_node *kfd,
		   size_t k, const struct snap_node *v, const struct view *w, const char *gfx,
		   const struct strbuf *list)
{
	const struct snap_node *tl = snap_child(v, "rocblas_targets");
	const struct snap_node *unit = snap_get(root, "framework.ollama.service_unit");
	const struct snap_node *shell = snap_get(root, "environment.HSA_OVERRIDE_GFX_VERSION");
	const char *dir = snap_get_str(v, "dir");
	const bool service = w->service;
	struct finding *f;
	char fkey[96];

	if (w->have_ovr)
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, dir,
			"HSA_OVERRIDE_GFX_VERSION=%s%s%s%s makes ROCm load %s code on the %s "
			"GPU, and ollama's ROCm%s%s has rocBLAS kernels for %s only: ollama "
			"skips its own check (\"skipping rocm gfx compatibility check\") and "
			"fails on the GPU",
			snap_str(w->ovr), service ? " (the ollama service's, " : "",
			service ? (snap_source(w->ovr) ?: "?") : "", service ? ")" : "", w->as, gfx,
			dir ? " in " : "", dir ?: "", strbuf_str(list));
	else
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, dir,
			"ollama's ROCm%s%s has rocBLAS kernels for %s; the GPU is %s: ollama "
			"leaves it out and runs models on the CPU (\"amdgpu is not supported "
			"(supported types:[…]) gpu_type=%s\", \"no compatible GPUs were "
			"discovered\")%s%s%s%s",
			dir ? " in " : "", dir ?: "", strbuf_str(list), gfx, gfx,
			service ? "; the ollama service (" : "", service ? snap_str(unit) : "",
			service ? " and its drop-ins) sets no HSA_OVERRIDE_GFX_VERSION" : "",
			service && snap_present(shell)
				? " (the one of the environment gpuenv ran in never reaches it)"
				: "");
	snprintf(fkey, sizeof(fkey), "driver.amdgpu.kfd_nodes.%zu.gfx", k);
	finding_fact(f, fkey, snap_child(snap_at(kfd, k), "gfx"));
	finding_evidence(f, "framework.ollama.rocm_variants[].rocblas_targets",
			 snap_source(snap_child(snap_at(tl, 0), "gfx")) ?: "?", "%s",
			 strbuf_str(list));
	if (w->have_ovr) {
		finding_fact(f, w->key, w->ovr);
		finding_fix(f, "unset HSA_OVERRIDE_GFX_VERSION   # in the ollama service's "
			       "environment (systemctl edit ollama), or set a value whose "
			       "target the list above has");
	} else if (service) {
		finding_fact(f, "framework.ollama.service_unit", unit);
		service_override_fix(f, tl, gfx);
	} else
		amd_gfx_override_fix(f, tl, gfx);
	finding_fix(f,
		    "# use an ollama release whose ROCm has %s kernels, or build ollama from "
		    "source with AMDGPU_TARGETS=%s against a ROCm whose rocBLAS has them",
		    gfx, gfx);
	finding_verify(f, "journalctl -u ollama | grep -E 'amdgpu is not supported|"
			  "inference compute|no compatible GPUs'");
	finding_verify(f, "ls %s/rocblas/library | grep -o 'gfx[0-9a-f]*' | sort -u",
		       dir ?: "/usr/local/lib/ollama/rocm");
}

/* Which environments the server may run with: the service's alone where the unit is enabled
 * (or a snapshot from before service_enabled was read), the process's alone where there is
 * no unit, both where the unit is not enabled or that could not be read. */
static void views(const struct snap_node *root, bool *svc, bool *hand)
{
	const struct snap_node *unit = snap_get(root, "framework.ollama.service_unit");
	const struct snap_node *en = snap_get(root, "framework.ollama.service_enabled");
	bool enabled = false;

	*svc = unit != NULL;
	*hand = !unit || (en && !(snap_bool(en, &enabled) && enabled));
}

static void one_variant(struct rule_ctx *c, const struct snap_node *root,
			const struct snap_node *kfd, const struct snap_node *v)
{
	const struct snap_node *tl = snap_child(v, "rocblas_targets");
	const struct snap_node *unit = snap_get(root, "framework.ollama.service_unit");
	const char *dir = snap_get_str(v, "dir");
	struct strbuf list = STRBUF_INIT;
	struct view sw, hw;
	bool svc, hand;

	if (!rule_need(c, dir ?: "framework.ollama", "the rocBLAS targets of ollama's ROCm", tl))
		return;
	views(root, &svc, &hand);
	view_init(&sw, root, true);
	view_init(&hw, root, false);
	if (svc && !service_env_known(c, unit, sw.env, sw.ovr))
		return;
	target_list(tl, &list);
	for (size_t k = 0; k < snap_count(kfd); k++) {
		const char *gfx = amd_kfd_gfx_once(root, kfd, k);
		const bool s_runs = svc && view_runs(&sw, tl, gfx ?: "");
		const bool h_runs = hand && view_runs(&hw, tl, gfx ?: "");

		if (!gfx || ((!svc || s_runs) && (!hand || h_runs)))
			continue;
		if (svc && hand && s_runs != h_runs) {
			rule_skip_failed(
				c, dir, FACT_UNPROBED,
				"the %s GPU: the ollama service (%s, not enabled at boot) runs it "
				"with %s%s, an `ollama serve` started by hand from the environment "
				"gpuenv ran in with %s%s, and which of them is the server could not "
				"be told (systemctl status ollama)",
				gfx, snap_str(unit), sw.have_ovr ? "HSA_OVERRIDE_GFX_VERSION=" : "",
				sw.have_ovr ? snap_str(sw.ovr) : "no override",
				hw.have_ovr ? "HSA_OVERRIDE_GFX_VERSION=" : "",
				hw.have_ovr ? snap_str(hw.ovr) : "no override");
			continue;
		}
		/* Pasted text without the environment cannot tell a GPU left without the
		 * override it needs from one whose override never reached the server
		 * (ollama/ollama#8679): ask. A live or replayed process always has some; a
		 * service's files say it all. */
		if (!svc && !hw.have_ovr && snap_count(hw.env) == 0 &&
		    override_would_run(tl, gfx)) {
			rule_need(c, "HSA_OVERRIDE_GFX_VERSION", "the ollama server's environment",
				  hw.ovr);
			continue;
		}
		report(c, root, kfd, k, v, svc ? &sw : &hw, gfx, &list);
	}
	strbuf_done(&list);
}

RULE_CHECK(check_fw_ollama_rocm_gfx_unsupported)
{
	const struct snap_node *variants = snap_get(root, "framework.ollama.rocm_variants");
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");

	if (!variants || snap_count(variants) == 0)
		return;
	if (gpus_count(root, gpu_is_amd) == 0 && snap_count(kfd) == 0)
		return;
	if (snap_kind(kfd) != SNAP_ARRAY) {
		rule_need(c, NULL, "driver.amdgpu.kfd_nodes", kfd);
		return;
	}
	for (size_t i = 0; i < snap_count(variants); i++)
		one_variant(c, root, kfd, snap_at(variants, i));
}
