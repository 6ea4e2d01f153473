// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * framework.ltoir-needs-newer-nvjitlink: the LTO-IR entries (lto_XX) of a framework's kernel
 * library and of the GPU libraries its process loads (framework.python_envs[]: arch_targets[]
 * with ltoir_version, docs/snapshot-schema.md) against the nvJitLink that process would link
 * them with. LTO-IR never loads as it is; a program that links it at run time hands it to
 * nvJitLink, which must be "of the same or newer version" (NVIDIA nvJitLink documentation,
 * Compatibility) and refuses a newer one with "ERROR 4 in nvvmAddNVVMContainerToProgram, may
 * need newer version of nvJitLink library" (docs/compatibility.md, "LTO-IR"). The judgement is
 * ltoir_judge() (src/facts/ltoir.h, data/ltoir.tsv). Whether the program links at run time
 * cannot be seen: a warning, never an error. The toolkit's own libraries and its nvJitLink
 * are one release, so the case arises where libraries of different releases meet: a
 * framework's environment.
 */
#include <stdio.h>
#include <string.h>

#include "facts/ltoir.h"
#include "rules/rules-internal.h"
#include "shared/parse.h"

struct lt_ctx {
	struct rule_ctx *c;
	const struct snap_node *root;
};

/* The nvJitLink the build's process would link with. */
struct nvjitlink {
	char version[48];	      /* "12.4.127", "12" (a soname's major); "" when none found */
	const struct snap_node *fact; /* the fact the version comes from */
	char from[300];		      /* where it was found, for the text */
	const char *wheel;	      /* the env's nvidia-nvjitlink* wheel it comes from, or NULL */
	bool unknown;		      /* runtime.libraries could not be read: could not tell */
};

static bool is_version(const char *v)
{
	return v && version_parse(v, &(struct version){ 0 }) == 0;
}

/* Which nvJitLink the process loads: one the framework library links (load_search.loads, as
 * ld.so resolves it), else the environment's nvidia-nvjitlink* wheel (torch preloads the
 * nvidia-* wheels' libraries; cuSPARSE's and cuFFT's RUNPATH name ../../nvjitlink/lib), else
 * the one the system's loader finds (runtime.libraries.libnvJitLink[0]). */
static void find_nvjitlink(const struct fw_build *b, const struct snap_node *root,
			   struct nvjitlink *n)
{
	const struct snap_node *loads = snap_get(b->pkg, "load_search.loads");
	const struct snap_node *wheels = snap_child(b->env, "nvidia_wheels");
	const struct snap_node *libs = snap_get(root, "runtime.libraries.libnvJitLink");
	const struct snap_node *lib;
	const char *v, *soname;

	*n = (struct nvjitlink){ 0 };
	for (size_t i = 0; i < snap_count(loads); i++) {
		const struct snap_node *l = snap_at(loads, i);

		if (!startswith(snap_key(l) ?: "", "libnvJitLink.so"))
			continue;
		v = userspace_lib_version(l);
		if (!is_version(v))
			continue;
		snprintf(n->version, sizeof(n->version), "%s", v);
		n->fact = snap_child(l, "version");
		snprintf(n->from, sizeof(n->from), "%s (loaded by the framework's library)",
			 snap_get_str(l, "path") ?: snap_key(l));
		return;
	}
	for (size_t i = 0; i < snap_count(wheels); i++) {
		const struct snap_node *w = snap_at(wheels, i);
		const char *name = snap_get_str(w, "name");

		v = snap_get_str(w, "version");
		if (!name || !startswith(name, "nvidia-nvjitlink") || !is_version(v))
			continue;
		snprintf(n->version, sizeof(n->version), "%s", v);
		n->fact = snap_child(w, "version");
		n->wheel = name;
		snprintf(n->from, sizeof(n->from), "the %s %s wheel", name, v);
		return;
	}
	if (!snap_present(libs) && snap_state(libs) != FACT_ABSENT) {
		n->unknown = true;
		n->fact = libs;
		return;
	}
	lib = snap_at(libs, 0);
	soname = snap_get_str(lib, "soname");
	v = userspace_lib_version(lib);
	if (!is_version(v) && soname && strstr(soname, ".so."))
		v = strstr(soname, ".so.") + 4; /* libnvJitLink.so.12: its major only */
	if (!is_version(v))
		return;
	snprintf(n->version, sizeof(n->version), "%s", v);
	n->fact = snap_child(lib, "version") ?: snap_child(lib, "soname");
	snprintf(n->from, sizeof(n->from), "the nvJitLink the loader finds (%s)",
		 snap_get_str(lib, "path") ?: soname);
}

/* The pip distribution of nvJitLink for a CUDA major: CUDA 12's carries the suffix, CUDA 13's
 * is nvidia-nvjitlink (nvidia-nvjitlink-cu13 is a deprecated placeholder on PyPI). */
static const char *nvjitlink_wheel_for(const char *version)
{
	struct version v = { 0 };

	if (version_parse(version, &v) == 0 && v.part[0] == 12)
		return "nvidia-nvjitlink-cu12";
	return "nvidia-nvjitlink";
}

static void fix_lines(struct finding *f, const struct fw_build *b, const struct nvjitlink *n,
		      const char *path)
{
	const char *wheel = n->wheel ?: nvjitlink_wheel_for(n->version);

	finding_fix(f,
		    "%s install -U %s   # an nvJitLink at least as new as the CUDA release that "
		    "wrote the LTO-IR",
		    b->pip, wheel);
	if (!n->wheel)
		finding_fix(f, "# or upgrade the system's nvJitLink (%s) to that release's",
			    n->from);
	if (path)
		finding_verify(f, "gpuenv scan %s   # lists lto_XX with its LTO-IR version", path);
	finding_verify(f, "%s show %s", b->pip, wheel);
}

/* One library's LTO-IR entries against n: a finding for those too new, a skip for those that
 * could not be judged. */
static void judge_library(struct lt_ctx *x, const struct fw_build *b, const struct snap_node *tn,
			  const char *label, const char *path, const struct nvjitlink *n)
{
	const struct snap_node *first_old = NULL;
	struct ltoir_result old = { 0 }, unsure = { 0 };
	size_t n_old = 0, n_unsure = 0;
	bool unconfirmed = false;
	struct finding *f;

	for (size_t i = 0; i < snap_count(tn); i++) {
		const struct snap_node *e = snap_at(tn, i);
		const char *target = snap_get_str(e, "target");
		const char *lv = snap_get_str(e, "ltoir_version");
		unsigned ma, mi;
		int lma = -1, lmi = -1;
		struct ltoir_result r;

		if (!target || !startswith(target, "lto_"))
			continue;
		if (lv && cuda_major_minor(lv, &ma, &mi)) {
			lma = (int)ma;
			lmi = (int)mi;
		}
		if (ltoir_judge(target, lma, lmi, n->version, &r) < 0)
			continue;
		if (r.verdict == LTOIR_NVJITLINK_TOO_OLD) {
			if (n_old++ == 0) {
				old = r;
				first_old = snap_child(e, "ltoir_version");
			}
			unconfirmed |= r.unconfirmed;
		} else if (r.verdict == LTOIR_CANNOT_TELL && n_unsure++ == 0) {
			unsure = r;
		}
	}
	if (n_unsure)
		rule_skip(x->c, path ?: label, "%s in %s: %s: %s%s; the nvJitLink: %s", b->label,
			  b->prefix, label, unsure.reason,
			  n_unsure > 1 ? " (and more entries)" : "", n->from);
	if (!n_old)
		return;
	f = rule_finding(x->c, GPUENV_SEVERITY_WARNING, path ?: label,
			 "%s in %s: %s carries LTO-IR newer than %s links%s: %s%s; only a "
			 "program that links it at run time fails%s (what runs as SASS does not "
			 "need nvJitLink)",
			 b->label, b->prefix, label, n->from, unconfirmed ? " (unconfirmed)" : "",
			 old.reason, n_old > 1 ? " (and more entries)" : "",
			 strstr(old.reason, "may need newer version")
				 ? ""
				 : ", with \"ERROR 4 in nvvmAddNVVMContainerToProgram, may need "
				   "newer version of nvJitLink library\"");
	finding_fact(f, "framework.python_envs[].arch_targets[].ltoir_version", first_old);
	finding_fact(f, "nvJitLink version", n->fact);
	if (unconfirmed)
		finding_evidence(f, "facts.ltoir", "facts:ltoir",
				 "rests on the order of two releases' rows, not on a row of the "
				 "nvJitLink's own release, or on a row marked unconfirmed");
	fix_lines(f, b, n, path);
}

/* "libcufft.so.11 (nvidia-cufft-cu12 wheel)", "torch's kernel library". */
static void label_of(const struct fw_build *b, const struct snap_node *e, char *buf, size_t len)
{
	const char *name = snap_get_str(e, "name") ?: snap_get_str(e, "path") ?: "?";
	const char *wheel = snap_get_str(e, "wheel");

	if (wheel)
		snprintf(buf, len, "%s (%s wheel)", name, wheel);
	else
		snprintf(buf, len, "%s (%s's own)", name, fw_module(b));
}

static bool has_lto(const struct snap_node *tn)
{
	for (size_t i = 0; i < snap_count(tn); i++)
		if (startswith(snap_get_str(snap_at(tn, i), "target") ?: "", "lto_"))
			return true;
	return false;
}

static void ltoir_one(const struct fw_build *b, void *u)
{
	struct lt_ctx *x = u;
	const struct snap_node *libs = snap_child(b->pkg, "gpu_libraries");
	bool from_build_info;
	const struct snap_node *own = fw_targets(b, &from_build_info);
	bool any = !from_build_info && has_lto(own);
	struct nvjitlink n;
	char label[300];

	for (size_t i = 0; !any && i < snap_count(libs); i++)
		any = has_lto(snap_child(snap_at(libs, i), "arch_targets"));
	if (!any)
		return; /* no LTO-IR: nothing for an nvJitLink to link */
	find_nvjitlink(b, x->root, &n);
	if (n.unknown) {
		rule_need_known(x->c, b->prefix,
				"the nvJitLink the framework's process loads "
				"(runtime.libraries.libnvJitLink)",
				n.fact);
		return;
	}
	/* None found: LTO-IR that is linked at run time needs one the program brings (a
	 * library that links nvJitLink and finds none is runtime.library-not-found's). */
	if (!n.version[0])
		return;
	if (!from_build_info && has_lto(own)) {
		snprintf(label, sizeof(label), "%s's kernel library", fw_module(b));
		judge_library(x, b, own, label, snap_get_str(b->pkg, "kernel_library.path"), &n);
	}
	for (size_t i = 0; i < snap_count(libs); i++) {
		const struct snap_node *e = snap_at(libs, i);
		const struct snap_node *tn = snap_child(e, "arch_targets");

		if (!has_lto(tn))
			continue;
		label_of(b, e, label, sizeof(label));
		judge_library(x, b, tn, label, snap_get_str(e, "path"), &n);
	}
}

RULE_CHECK(check_fw_ltoir_nvjitlink)
{
	struct lt_ctx x = { .c = c, .root = root };

	fw_need_complete(c, root);
	fw_foreach(root, ltoir_one, &x);
}
