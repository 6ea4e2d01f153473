// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cuDNN loaded against cuDNN built with: runtime.cudnn-older-than-framework, and the part of
 * runtime.library-shadowed about two copies of one cuDNN major. Reads packages.<fw>.cudnn
 * (the copy the framework's process gets and every copy on its search path, with versions:
 * probe/framework-cudnn.h), build_info.cudnn_version, requires_nvidia[], nvidia_wheels[] and
 * the knowledge base (tensorflow_builds.tsv, tensorflow_tested_configs.tsv,
 * pytorch_wheels.tsv).
 *
 * The compatibility test is the frameworks' own: the major must match, and from cuDNN 7 on the
 * loaded minor must be equal or higher; patch levels do not count (TensorFlow
 * tensorflow/stream_executor/cuda/cuda_dnn.cc IsSourceCompatibleWithCudnnLibrary(); PyTorch
 * torch/backends/cudnn/__init__.py _init(): "Starting with cuDNN 7, minor releases are
 * backward-compatible").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strbuf.h"

/* What the framework was built against, and who says so. */
struct cudnn_built {
	struct version v;
	char text[32];
	char from[256];
	const char *source;
};

/* The copy the framework's process gets: the first of copies[] (the one loaded). */
static const struct snap_node *loaded_copy(const struct snap_node *cud)
{
	const struct snap_node *copies = snap_child(cud, "copies");

	for (size_t i = 0; i < snap_count(copies); i++)
		if (snap_get_bool_default(snap_at(copies, i), "loaded", false))
			return snap_at(copies, i);
	return NULL;
}

/* A copy's cuDNN version: its file name or headers, else the nvidia-cudnn wheel owning it
 * (8.6.0.163 → "8.6.0.163"). *ret_from names where it came from. */
static const char *copy_version(const struct fw_build *b, const struct snap_node *copy,
				const char **ret_from)
{
	const struct snap_node *w;
	const char *v = snap_get_str(copy, "cudnn_version");

	if (v) {
		*ret_from = snap_get_str(copy, "cudnn_version_source") ?: "file";
		return v;
	}
	w = wheel_holding(b->env, snap_get_str(copy, "resolved_path"));
	if (!w)
		w = wheel_holding(b->env, snap_get_str(copy, "path"));
	if (w && (v = snap_get_str(w, "version"))) {
		*ret_from = snap_get_str(w, "dist_info") ?: "nvidia-cudnn wheel";
		return v;
	}
	/* The copy a torch wheel bundles in torch/lib (libcudnn.so.8, no version in the name) is
	 * the cuDNN of that wheel (pytorch_wheels.tsv). */
	if (b->kind == FW_TORCH) {
		const char *lib = snap_get_str(b->pkg, "lib_dir"),
			   *tv = snap_get_str(b->pkg, "version");
		const char *p = snap_get_str(copy, "resolved_path");
		const struct facts_torch_wheel *tw;

		if (lib && p && tv && path_is_under(p, lib) &&
		    facts_torch_wheel(tv, NULL, &tw) == 0 && tw->cudnn && tw->cudnn[0] >= '1' &&
		    tw->cudnn[0] <= '9') {
			*ret_from = tw->source;
			return tw->cudnn;
		}
	}
	return NULL;
}

static bool set_built(struct cudnn_built *bt, const char *ver, const char *source, const char *fmt,
		      const char *arg)
{
	if (version_parse_prefix(ver, &bt->v, NULL) < 0 || bt->v.n < 2)
		return false;
	snprintf(bt->text, sizeof(bt->text), "%u.%u.%u", bt->v.part[0], bt->v.part[1],
		 bt->v.n > 2 ? bt->v.part[2] : 0);
	snprintf(bt->from, sizeof(bt->from), fmt, arg);
	bt->source = source;
	return true;
}

/* An nvidia-cudnn-cu* pin in requires_nvidia[]: "== X" (torch) or ">= X" (the JAX plugin's
 * minimum). */
static bool built_from_requires(const struct fw_build *b, struct cudnn_built *bt)
{
	const struct snap_node *req = snap_child(b->pkg, "requires_nvidia");

	for (size_t i = 0; i < snap_count(req); i++) {
		const char *r = snap_str(snap_at(req, i)), *op;

		if (!r || !startswith(r, "nvidia-cudnn-cu"))
			continue;
		op = strstr(r, "==");
		if (!op)
			op = strstr(r, ">=");
		if (op &&
		    set_built(bt, op + 2, snap_source(snap_at(req, i)), "its requirement %s", r))
			return true;
	}
	return false;
}

/* TensorFlow: build_info.cudnn_version when it has a minor (source builds, conda), else the
 * release line's build (tensorflow_builds.tsv), else its tested configuration; each only
 * when its major is build_info's. */
static bool built_tensorflow(const struct fw_build *b, unsigned major, struct cudnn_built *bt)
{
	const struct snap_node *f = snap_get(b->pkg, "build_info.cudnn_version");
	const char *dv = snap_get_str(b->pkg, "dist_version");
	const struct facts_tensorflow_build *tb;
	const struct facts_tensorflow *tc;
	struct version v;

	if (snap_str(f) && version_parse(snap_str(f), &v) == 0 && v.n >= 2)
		return set_built(bt, snap_str(f), snap_source(f), "its build_info (%s)",
				 "cudnn_version");
	if (dv && facts_tensorflow_build(dv, &tb) == 0 && strtoul(tb->cudnn, NULL, 10) == major &&
	    set_built(bt, tb->cudnn, tb->source, "the cuDNN TensorFlow %s was compiled with",
		      tb->release))
		return true;
	if (dv && facts_tensorflow_config(dv, &tc) == 0 && tc->cudnn &&
	    strtoul(tc->cudnn, NULL, 10) == major &&
	    set_built(bt, tc->cudnn, tc->source, "TensorFlow's tested build configuration for %s",
		      tc->version))
		return true;
	return false;
}

/* torch: the nvidia-cudnn pin of its METADATA, else the copy bundled in torch/lib (the one it
 * shipped with), else pytorch_wheels.tsv for its release and variant. */
static bool built_torch(const struct fw_build *b, const struct snap_node *cud,
			struct cudnn_built *bt)
{
	const char *lib = snap_get_str(b->pkg, "lib_dir"), *tv = snap_get_str(b->pkg, "version");
	const struct snap_node *copies = snap_child(cud, "copies");
	const struct facts_torch_wheel *w;

	if (built_from_requires(b, bt))
		return true;
	for (size_t i = 0; lib && i < snap_count(copies); i++) {
		const struct snap_node *c = snap_at(copies, i);
		const char *p = snap_get_str(c, "resolved_path"),
			   *v = snap_get_str(c, "cudnn_version");

		if (p && v && path_is_under(p, lib) &&
		    set_built(bt, v, snap_get_str(c, "cudnn_version_source"),
			      "the copy bundled in %s", lib))
			return true;
	}
	if (tv && facts_torch_wheel(tv, NULL, &w) == 0 && w->cudnn &&
	    set_built(bt, w->cudnn, w->source, "the cuDNN of the torch %s wheels", tv))
		return true;
	return false;
}

/* The frameworks' test: same major, and the loaded minor not below the built one. */
static bool older(const struct version *loaded, const struct version *built)
{
	return loaded->part[0] == built->part[0] && loaded->part[1] < built->part[1];
}

/* What the framework prints, with the versions it prints (its own formatting). */
static void what_fails(const struct fw_build *b, const struct version *l, const struct version *bv,
		       char *buf, size_t len)
{
	unsigned lp = l->n > 2 ? l->part[2] : 0;

	if (b->kind == FW_TENSORFLOW)
		/* tensorflow/stream_executor/cuda/cuda_dnn.cc (TF 2.4 on; before: "CuDNN library
		 * major and minor version needs to match or have higher minor version in case of
		 * CuDNN 7.0 or later version.") */
		snprintf(buf, len,
			 "Loaded runtime CuDNN library: %u.%u.%u but source was compiled with: "
			 "%u.%u.%u.  CuDNN library needs to have matching major version and equal "
			 "or higher minor version.",
			 l->part[0], l->part[1], lp, bv->part[0], bv->part[1], bv->part[2]);
	else if (b->kind == FW_TORCH)
		/* torch/backends/cudnn/__init__.py (torch 1.13 on) */
		snprintf(
			buf, len,
			"RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against "
			"(%u, %u, %u) but found runtime version (%u, %u, %u).",
			bv->part[0], bv->part[1], bv->part[2], l->part[0], l->part[1], lp);
	else
		/* jax_plugins/cuda/__init__.py's version check */
		snprintf(buf, len, "Outdated cuDNN installation found.");
}

static void cudnn_fw(const struct fw_build *b, void *u)
{
	struct rule_ctx *c = u;
	const struct snap_node *cud = snap_child(b->pkg, "cudnn"), *lc, *copies;
	const char *lv, *lfrom = NULL, *lpath;
	struct version l;
	struct cudnn_built bt = { 0 };
	char msg[512], key[256];
	struct finding *f;
	unsigned major;

	if (!cud || b->kind == FW_JAX)
		return;
	if (snap_kind(cud) != SNAP_OBJECT) {
		/* TensorFlow whose cuDNN major is unknown: could not tell. */
		if (fact_is_failure(snap_state(cud)) || snap_state(cud) == FACT_ABSENT)
			rule_skip(c, b->prefix, "%s: %s", b->label,
				  snap_error(cud) ?: "its cuDNN could not be resolved");
		return;
	}
	lc = loaded_copy(cud);
	if (!lc)
		return; /* no copy loads: not a version question (the library is not found) */
	lpath = snap_get_str(lc, "resolved_path") ?: snap_get_str(lc, "path");
	lv = copy_version(b, lc, &lfrom);
	if (!lv || version_parse_prefix(lv, &l, NULL) < 0 || l.n < 2) {
		rule_skip(c, b->prefix, "%s loads %s, whose cuDNN version could not be read",
			  b->label, lpath ?: "?");
		return;
	}
	major = l.part[0];
	if (!(b->kind == FW_TENSORFLOW ? built_tensorflow(b, major, &bt)
	      : b->kind == FW_TORCH    ? built_torch(b, cud, &bt)
				       : built_from_requires(b, &bt))) {
		rule_skip(c, b->prefix,
			  "%s: the cuDNN it was built against (beyond its major) is "
			  "not known",
			  b->label);
		return;
	}
	if (!older(&l, &bt.v))
		return;
	what_fails(b, &l, &bt.v, msg, sizeof(msg));
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, b->prefix,
			 "%s in %s was built against cuDNN %s (%s); the loader gives it %s, cuDNN "
			 "%s (found via %s), an older minor of the same major: it stops with "
			 "\"%s\"",
			 b->label, b->prefix, bt.text, bt.from, lpath ?: "?", lv,
			 snap_get_str(lc, "found_via") ?: "?", msg);
	snprintf(key, sizeof(key), "%s.cudnn.soname", b->key);
	finding_fact(f, key, snap_child(cud, "soname"));
	snprintf(key, sizeof(key), "%s.cudnn.resolved_path", b->key);
	finding_fact(f, key, snap_child(cud, "resolved_path"));
	finding_evidence(f, "loaded cuDNN", lfrom, "%s", lv);
	finding_evidence(f, "built against", bt.source ?: "?", "%s (%s)", bt.text, bt.from);
	/* A copy the framework could use, later on the same search path. */
	copies = snap_child(cud, "copies");
	for (size_t i = 0; i < snap_count(copies); i++) {
		const struct snap_node *o = snap_at(copies, i);
		const char *ov, *ofrom = NULL, *op = snap_get_str(o, "resolved_path");
		struct version v;

		if (o == lc || !(ov = copy_version(b, o, &ofrom)) ||
		    version_parse_prefix(ov, &v, NULL) < 0 || v.n < 2 || older(&v, &bt.v) ||
		    v.part[0] != bt.v.part[0])
			continue;
		finding_evidence(f, "compatible copy shadowed", ofrom, "%s (cuDNN %s)", op ?: "?",
				 ov);
		finding_fix(f,
			    "# %s (cuDNN %s) is on the search path after %s: drop %s's directory "
			    "from LD_LIBRARY_PATH, or put %s's directory first",
			    op ?: "?", ov, lpath ?: "?", lpath ?: "?", op ?: "?");
		break;
	}
	finding_fix(f,
		    "# or install cuDNN %u.%u or newer of major %u where the loader finds it first "
		    "(the nvidia-cudnn-cu* wheel, the distribution's libcudnn%u package, or "
		    "conda's cudnn)",
		    bt.v.part[0], bt.v.part[1], bt.v.part[0], bt.v.part[0]);
	finding_verify(
		f, "LD_DEBUG=libs python -c 'import %s' 2>&1 | grep -m1 'calling init: .*libcudnn'",
		b->kind == FW_TENSORFLOW ? "tensorflow as tf; tf.nn.conv2d"
		: b->kind == FW_TORCH	 ? "torch; torch.backends.cudnn.version()"
					 : "jax");
}

RULE_CHECK(check_cudnn_older_than_framework)
{
	fw_need_complete(c, root);
	fw_foreach(root, cudnn_fw, c);
	/* JAX's own check, where explain read its message (rules-jax-check.c) */
	jax_check_pasted(c, root, "cudnn.version", "build_info.cudnn_version",
			 "build_info.cudnn_minimum", "cuDNN",
			 "pip install -U \"jax[cuda12]\"   # with the nvidia-cudnn-cu12 it needs "
			 "(https://jax.readthedocs.io/en/latest/installation.html)");
}

struct same_major {
	struct rule_ctx *c;
	const struct snap_node *root;
	size_t n;
};

/* runtime.library-shadowed, one major: the copy a framework loads is an older release of its
 * major than a copy later on the same search path (cuDNN 8.0.4 before 8.1.0). */
static void shadowed_same_major_fw(const struct fw_build *b, void *u)
{
	struct same_major *sm = u;
	struct rule_ctx *c = sm->c;
	const struct snap_node *cud = snap_child(b->pkg, "cudnn"), *lc = loaded_copy(cud);
	const struct snap_node *copies = snap_child(cud, "copies");
	const char *lv, *lfrom = NULL, *lpath;
	struct version l;

	if (!lc || !(lv = copy_version(b, lc, &lfrom)) || version_parse_prefix(lv, &l, NULL) < 0 ||
	    l.n < 2)
		return;
	lpath = snap_get_str(lc, "resolved_path") ?: "?";
	for (size_t i = 0; i < snap_count(copies); i++) {
		const struct snap_node *o = snap_at(copies, i);
		const char *ov, *ofrom = NULL, *op = snap_get_str(o, "resolved_path") ?: "?";
		struct finding *f;
		struct version v;
		char key[256];

		if (o == lc || !(ov = copy_version(b, o, &ofrom)) ||
		    version_parse_prefix(ov, &v, NULL) < 0 || v.n < 2 || v.part[0] != l.part[0] ||
		    version_cmp(&v, &l) <= 0)
			continue;
		/* A wheel's copy shadowed for a DT_NEEDED: check_library_shadowed() said it. */
		if (snap_child(snap_child(b->pkg, "loads"), snap_get_str(cud, "soname") ?: "") &&
		    wheel_holding(b->env, op)) {
			sm->n++;
			return;
		}
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, b->prefix,
				 "two copies of %s are on %s's search path: ld.so takes %s (cuDNN "
				 "%s, via %s) before the newer %s (cuDNN %s, via %s)",
				 snap_get_str(cud, "soname") ?: "libcudnn", b->label, lpath, lv,
				 snap_get_str(lc, "found_via") ?: "?", op, ov,
				 snap_get_str(o, "found_via") ?: "?");
		snprintf(key, sizeof(key), "%s.cudnn.copies.%zu.resolved_path", b->key, i);
		finding_fact(f, key, snap_child(o, "resolved_path"));
		finding_evidence(f, "loaded copy", lfrom, "%s (cuDNN %s)", lpath, lv);
		finding_evidence(f, "newer copy", ofrom, "%s (cuDNN %s)", op, ov);
		finding_fact(f, "environment.LD_LIBRARY_PATH",
			     snap_get(sm->root, "environment.LD_LIBRARY_PATH"));
		finding_fix(f,
			    "# remove the older cuDNN (%s) or its directory from the search path "
			    "(LD_LIBRARY_PATH, /etc/ld.so.conf.d then sudo ldconfig), so that %s "
			    "is the one loaded",
			    lpath, op);
		finding_verify(f, "ldconfig -p | grep %s; echo \"$LD_LIBRARY_PATH\"",
			       snap_get_str(cud, "soname") ?: "libcudnn");
		sm->n++;
		return;
	}
}

/* Without a framework that said which copy it gets: the main program's search
 * (runtime.libraries.libcudnn[]), versions from the file names. */
static void shadowed_same_major_loader(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *dnn = snap_get(root, "runtime.libraries.libcudnn");

	for (size_t i = 0; i < snap_count(dnn); i++) {
		const struct snap_node *e = snap_at(dnn, i), *sh = snap_child(e, "shadowed");
		const char *lv = snap_get_str(e, "version"), *lp = snap_get_str(e, "resolved_path");
		struct version l;

		if (!lv || !lp || version_parse_prefix(lv, &l, NULL) < 0 || l.n < 2)
			continue;
		for (size_t j = 0; j < snap_count(sh); j++) {
			const struct snap_node *o = snap_at(sh, j);
			const char *ov = snap_get_str(o, "version");
			const char *op =
				snap_get_str(o, "resolved_path") ?: snap_get_str(o, "path");
			struct finding *f;
			struct version v;
			char key[96];

			if (!ov || !op || !streq(snap_get_str(o, "verdict") ?: "", "loadable") ||
			    version_parse_prefix(ov, &v, NULL) < 0 || v.n < 2 ||
			    v.part[0] != l.part[0] || version_cmp(&v, &l) <= 0)
				continue;
			f = rule_finding(
				c, GPUENV_SEVERITY_WARNING, NULL,
				"two copies of %s are on the loader path: ld.so takes %s "
				"(cuDNN %s, via %s) before the newer %s (cuDNN %s, via %s)",
				snap_get_str(e, "soname") ?: "libcudnn", lp, lv,
				snap_get_str(e, "found_via") ?: "?", op, ov,
				snap_get_str(o, "found_via") ?: "?");
			snprintf(key, sizeof(key), "runtime.libraries.libcudnn.%zu.resolved_path",
				 i);
			finding_fact(f, key, snap_child(e, "resolved_path"));
			snprintf(key, sizeof(key),
				 "runtime.libraries.libcudnn.%zu.shadowed.%zu.path", i, j);
			finding_fact(f, key, snap_child(o, "path"));
			finding_fact(f, "environment.LD_LIBRARY_PATH",
				     snap_get(root, "environment.LD_LIBRARY_PATH"));
			finding_fix(
				f,
				"# remove the older cuDNN (%s) or its directory from the search "
				"path (LD_LIBRARY_PATH, /etc/ld.so.conf.d then sudo ldconfig)",
				lp);
			finding_verify(f, "ldconfig -p | grep %s; echo \"$LD_LIBRARY_PATH\"",
				       snap_get_str(e, "soname") ?: "libcudnn");
			break;
		}
	}
}

void shadowed_cudnn_same_major(struct rule_ctx *c, const struct snap_node *root)
{
	struct same_major sm = { c, root, 0 };

	fw_foreach(root, shadowed_same_major_fw, &sm);
	if (!sm.n)
		shadowed_same_major_loader(c, root);
}
