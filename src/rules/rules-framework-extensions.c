// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * framework.extension-abi-mismatch: a compiled torch extension of the environment
 * (flash-attn's flash_attn_2_cuda, vLLM's _C, xformers, torchvision, torchaudio …) needs
 * c10::, at:: or torch:: symbols that the environment's torch does not define: it was built
 * for another torch release or the other C++ ABI, and importing it fails with "undefined
 * symbol: _ZN3c10…" (Dao-AILab/flash-attention#1644 with pytorch/pytorch#152790: torch
 * 2.6.0+cu126 moved to the new ABI; huggingface/open-r1#684: flash-attn 2.8.0.post2 built with
 * _GLIBCXX_USE_CXX11_ABI=1 under torch 2.6.0 built without), or, for torchvision, with
 * "operator torchvision::nms does not exist". The facts: python_envs[].torch_extensions
 * (src/probe/framework-extensions.c).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/macro.h"

/* The PyPI distribution that installs package (a top-level module or package directory). */
static const char *dist_of(const char *package, char *buf, size_t len)
{
	static const struct {
		const char *prefix, *dist;
	} known[] = {
		{ "flash_attn", "flash-attn" },
		{ "auto_gptq", "auto-gptq" },
		{ "autogptq", "auto-gptq" },
		{ "transformer_engine", "transformer-engine" },
		{ "torch_scatter", "torch-scatter" },
		{ "torch_sparse", "torch-sparse" },
		{ "torch_cluster", "torch-cluster" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (startswith(package, known[i].prefix))
			return known[i].dist;
	snprintf(buf, len, "%s", package);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = '-';
	return buf;
}

static void one_extension(struct rule_ctx *c, const struct fw_build *b, size_t i,
			  const struct snap_node *e)
{
	const struct snap_node *missing = snap_child(e, "symbols_missing");
	const char *path = snap_get_str(e, "path") ?: "?";
	const char *package = snap_get_str(e, "package") ?: "?";
	const char *first = snap_str(snap_at(missing, 0));
	const char *abi = snap_get_str(e, "cxx11_abi");
	const char *other = snap_get_str(e, "torch_defines_other_abi");
	char dist_buf[128], key[192], what[320], abi_text[512] = "";
	const char *dist = dist_of(package, dist_buf, sizeof(dist_buf));
	int64_t n = 0;
	struct finding *f;

	snprintf(what, sizeof(what), "the torch symbols %s needs", path);
	if (!rule_need(c, b->prefix, what, missing) || !first)
		return;
	(void)snap_get_int(e, "symbols_missing_count", &n);
	if (abi && other)
		snprintf(abi_text, sizeof(abi_text),
			 "; torch defines it with std::string in the %s C++ ABI (%s): the "
			 "extension was built with _GLIBCXX_USE_CXX11_ABI=%d, torch with %d,",
			 streq(abi, "new") ? "old" : "new", other, streq(abi, "new") ? 1 : 0,
			 streq(abi, "new") ? 0 : 1);
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, b->prefix,
			 "%s (%s) needs %s%s from torch's libraries, which %s in %s does not "
			 "define%s%s importing it fails",
			 path, package, first, n > 1 ? " and more" : "", b->label, b->prefix,
			 abi_text,
			 abi_text[0] ? ""
				     : ": it was built for another torch release or "
				       "C++ ABI, and");
	finding_symptom(f, "ImportError: %s: undefined symbol: %s", path, first);
	snprintf(key, sizeof(key), "framework.python_envs.%zu.torch_extensions.%zu.symbols_missing",
		 b->env_index, i);
	finding_names_evidence(f, key, path, missing);
	if (other) {
		snprintf(key, sizeof(key),
			 "framework.python_envs.%zu.torch_extensions.%zu.torch_defines_other_abi",
			 b->env_index, i);
		finding_fact(f, key, snap_child(e, "torch_defines_other_abi"));
	}
	if (streq(dist, "torchvision") || streq(dist, "torchaudio"))
		finding_fix(f,
			    "# install the %s release paired with %s, from the index torch came "
			    "from (https://pytorch.org/get-started/previous-versions/)",
			    dist, b->label);
	else
		finding_fix(f, "%s install --force-reinstall --no-deps --no-build-isolation %s",
			    b->pip, dist);
	finding_rule_fix(f);
	finding_verify(f, "%s -c 'import torch, %s'", b->python, package);
	finding_rule_verify(f);
}

static void ext_fw(const struct fw_build *b, void *u)
{
	const struct snap_node *exts = snap_child(b->env, "torch_extensions");

	if (b->kind != FW_TORCH)
		return;
	for (size_t i = 0; i < snap_count(exts); i++)
		one_extension(u, b, i, snap_at(exts, i));
}

RULE_CHECK(check_fw_extension_abi_mismatch)
{
	fw_need_complete(c, root);
	fw_foreach(root, ext_fw, c);
}
