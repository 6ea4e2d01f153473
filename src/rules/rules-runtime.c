// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Runtime-layer rules over runtime.cuda_toolkits[] (probe-cuda-toolkit.c: version, nvcc,
 * cuDNN, stub libcuda of each installation) and the environment (PATH, LD_LIBRARY_PATH,
 * LD_PRELOAD, CUDA_HOME, CUDA_PATH; ld.so(8) search order), judged against the knowledge
 * base: minimum driver per CUDA release and minor-version compatibility floors
 * (facts/cuda_driver_min.tsv), targetable compute capabilities (facts/cuda_arch_support.tsv),
 * GPUs' compute capabilities (facts/gpu_compute_capability.tsv), cuDNN's CUDA support
 * (facts/cudnn_cuda.tsv).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strbuf.h"
#include "shared/strv.h"

#define TOOLKITS(root) snap_get(root, "runtime.cuda_toolkits")

static const char *tk_name(const struct snap_node *tk)
{
	const char *p = snap_get_str(tk, "resolved_path");

	return p ? p : snap_get_str(tk, "path") ? snap_get_str(tk, "path") : "unknown";
}

static void tk_fact(struct finding *f, const struct snap_node *tk, size_t i, const char *key)
{
	char name[96];

	snprintf(name, sizeof(name), "runtime.cuda_toolkits.%zu.%s", i, key);
	finding_fact(f, name, snap_child(tk, key));
}

static void req_evidence(struct finding *f, const struct cuda_req *req)
{
	char floor[128];

	finding_evidence(f, "facts.cuda_driver_min", req->first->source, "%s: >= %s",
			 req->first->toolkit_label,
			 cuda_req_floor(req, req->first, floor, sizeof(floor)));
	if (req->newest != req->first)
		finding_evidence(f, "facts.cuda_driver_min", req->newest->source, "%s: >= %s",
				 req->newest->toolkit_label,
				 cuda_req_floor(req, req->newest, floor, sizeof(floor)));
}

/* The major's minor-version compatibility floor, as evidence. */
static void mc_evidence(struct finding *f, const struct cuda_req *req)
{
	char floor[128];

	if (req->mc)
		finding_evidence(f, "facts.cuda_driver_min.minor_compat", req->mc->source,
				 "CUDA %u.x: >= %s%s%u", req->mc->cuda_major,
				 cuda_req_mc_floor(req, floor, sizeof(floor)),
				 req->mc->upper_bound_exclusive ? ", below R" : "",
				 req->mc->upper_bound_exclusive);
}

RULE_CHECK(check_no_driver_for_toolkit)
{
	const struct snap_node *tks = TOOLKITS(root);

	if (snap_count(tks) == 0)
		return;
	if (!rule_no_nvidia_driver(c, root, "the NVIDIA driver version"))
		return;
	for (size_t i = 0; i < snap_count(tks); i++) {
		const struct snap_node *tk = snap_at(tks, i);
		const char *v = snap_get_str(tk, "version");
		struct cuda_req req;
		char need[384] = "";
		struct finding *f;
		unsigned ma, mi;

		if (v && cuda_requirement(root, v, &req) == 0) {
			char d[320];

			cuda_req_describe(&req, d, sizeof(d));
			snprintf(need, sizeof(need), "; it needs a driver %s", d);
		}
		if (v && cuda_major_minor(v, &ma, &mi))
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, tk_name(tk),
				"the CUDA %u.%u toolkit at %s cannot run anything here: no "
				"NVIDIA kernel driver is loaded%s",
				ma, mi, tk_name(tk), need);
		else
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, tk_name(tk),
				"the CUDA toolkit at %s cannot run anything here: no NVIDIA "
				"kernel driver is loaded",
				tk_name(tk));
		tk_fact(f, tk, i, "version");
		finding_fact(f, "driver.nvidia.module_version",
			     snap_get(root, "driver.nvidia.module_version"));
		finding_fact(f, "driver.nvidia.proc_version",
			     snap_get(root, "driver.nvidia.proc_version"));
		if (need[0])
			req_evidence(f, &req);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* What toolkit tk's version needs from the driver into *req; false (said) when its version
 * could not be read or the knowledge base has no confirmed minimum for it. */
static bool tk_requirement(struct rule_ctx *c, const struct snap_node *root,
			   const struct snap_node *tk, struct cuda_req *req)
{
	const char *v = snap_get_str(tk, "version");

	if (!rule_need(c, tk_name(tk), "version", snap_child(tk, "version")))
		return false;
	if (cuda_requirement(root, v, req) < 0) {
		rule_skip(c, tk_name(tk),
			  "CUDA %s: no confirmed minimum driver in the knowledge base", v);
		return false;
	}
	return true;
}

/* A toolkit's finding's evidence: its version, the driver's version (and the WDDM form it was
 * read from, if it was), the release rows and the minor-version floor. */
static void tk_driver_evidence(struct finding *f, const struct snap_node *root,
			       const struct snap_node *tk, size_t i, const struct snap_node *fact,
			       const struct cuda_req *req)
{
	tk_fact(f, tk, i, "version");
	windows_driver_facts(f, root, fact);
	req_evidence(f, req);
	mc_evidence(f, req);
}

/* The driver each toolkit is judged against: the kernel module's (Linux's column of NVIDIA's
 * Table 3 and of the minor-version floors), or, for a paste from Windows (or WSL2), which names
 * the Windows driver and never the kernel module, the Windows column alone
 * (cuda_driver_judge_windows(); a Windows 551.23 is past Linux's 550.54.14 for CUDA 12.4 but
 * short of Windows's 551.61). */
struct judged_driver {
	const char *version;
	bool windows;
	const char *holder; /* who runs the toolkit: "550.54.15", "the Windows driver 551.23 (…)" */
	const char *older; /* the error's second half: what the driver is */
};

static void toolkits_against(struct rule_ctx *c, const struct snap_node *root,
			     const struct snap_node *tks, const struct snap_node *fact,
			     const struct judged_driver *drv)
{
	const char *kind = drv->windows ? "Windows driver" : "driver";

	for (size_t i = 0; i < snap_count(tks); i++) {
		const struct snap_node *tk = snap_at(tks, i);
		const char *v = snap_get_str(tk, "version");
		enum link_state st;
		struct cuda_req req;
		struct finding *f;
		char d[320], mcf[128], fix[128], cuda[32];

		if (!tk_requirement(c, root, tk, &req))
			continue;
		st = drv->windows ? cuda_driver_judge_windows(&req, drv->version)
				  : cuda_driver_judge(&req, drv->version);
		if (st == LINK_UNKNOWN) { /* only the Windows column has gaps */
			rule_skip(
				c, tk_name(tk),
				"CUDA %s has no Windows minimum driver in the knowledge base (the "
				"Linux one does not apply to Windows driver %s)",
				v, drv->version);
			continue;
		}
		if (st == LINK_OK)
			continue;
		cuda_req_describe(&req, d, sizeof(d));
		if (st == LINK_DEGRADED)
			f = rule_finding(
				c, GPUENV_SEVERITY_WARNING, tk_name(tk),
				"CUDA %u.%u at %s needs %s %s; %s runs it only through "
				"minor-version compatibility (CUDA %u.x on >= %s%s): a limited "
				"feature set, and PTX from this toolkit cannot be JIT-compiled by "
				"this driver (error 222) — ship SASS for every GPU",
				req.major, req.minor, tk_name(tk), kind, d, drv->holder, req.major,
				cuda_req_mc_floor(&req, mcf, sizeof(mcf)), cuda_req_mc_note(&req));
		else
			f = rule_finding(c, GPUENV_SEVERITY_ERROR, tk_name(tk),
					 "CUDA %u.%u at %s needs %s %s; %s", req.major, req.minor,
					 tk_name(tk), kind, d, drv->older);
		tk_driver_evidence(f, root, tk, i, fact, &req);
		/* what the knowledge base tells: Windows's floors by CUDA release, Linux's
		 * driver by its branch */
		snprintf(cuda, sizeof(cuda), "%u.%u", req.major, req.minor);
		finding_fix(f,
			    "# install %s%s %s or newer, or use a CUDA toolkit no newer than the "
			    "driver supports (gpuenv facts %s %s)",
			    drv->windows ? "the " : "", kind,
			    cuda_req_floor(&req, req.newest, fix, sizeof(fix)),
			    drv->windows ? "cuda" : "driver", drv->windows ? cuda : drv->version);
		finding_rule_verify(f);
	}
}

RULE_CHECK(check_toolkit_needs_newer_driver)
{
	const struct snap_node *tks = TOOLKITS(root), *fact;
	const char *drv;
	bool windows = nvidia_driver(root, &drv, &fact) == DRIVER_UNKNOWN &&
		       windows_driver(root, &drv, &fact);
	char origin[160], holder[512], older[640];

	/* elsewhere what the table's needs said before Windows's driver was judged: the module's
	 * version may be absent (runtime.no-driver-for-toolkit's case), never unread */
	if (!windows && !rule_need_known(c, NULL, "driver.nvidia.module_version",
					 snap_get(root, "driver.nvidia.module_version")))
		return;
	if (snap_count(tks) == 0)
		return;
	if (windows) {
		windows_driver_origin(root, fact, origin, sizeof(origin));
		snprintf(holder, sizeof(holder), "the Windows driver %s%s", drv, origin);
		snprintf(older, sizeof(older),
			 "%s is older: \"CUDA driver version is insufficient for CUDA runtime "
			 "version\"",
			 holder);
		toolkits_against(c, root, tks, fact,
				 &(struct judged_driver){ drv, true, holder, older });
		return;
	}
	if (!rule_nvidia_driver(c, root, "the NVIDIA driver version", &drv, &fact))
		return; /* none: runtime.no-driver-for-toolkit */
	/* a working cuda-compat libcuda runs the newer CUDA */
	drv = cuda_driver_effective(root, drv);
	snprintf(older, sizeof(older), "the loaded driver is %s", drv);
	toolkits_against(c, root, tks, fact, &(struct judged_driver){ drv, false, drv, older });
}

/* The names a toolkit directory is known by: as found, and resolved. "<prefix><rest>" for
 * each prefix that `dir` starts with, so /usr/local/cuda-13.0/lib64/stubs also matches
 * /usr/local/cuda/lib64/stubs when the toolkit was found through /usr/local/cuda. */
static int dir_aliases(const struct snap_node *tk, const char *dir, char ***ret)
{
	const char *prefixes[2] = { snap_get_str(tk, "path"), snap_get_str(tk, "resolved_path") };
	char **l = NULL;

	if (strv_push(&l, dir) < 0)
		return -ENOMEM;
	for (size_t a = 0; a < 2; a++) {
		size_t n;

		if (!prefixes[a])
			continue;
		n = strlen(prefixes[a]);
		if (strncmp(dir, prefixes[a], n) != 0 || (dir[n] != '/' && dir[n] != '\0'))
			continue;
		for (size_t b = 0; b < 2; b++) {
			char *alias;

			if (b == a || !prefixes[b])
				continue;
			if (asprintf(&alias, "%s%s", prefixes[b], dir + n) < 0 ||
			    strv_consume(&l, alias) < 0) {
				strv_free(l);
				return -ENOMEM;
			}
		}
	}
	*ret = l;
	return 0;
}

/*
 * A toolkit's stubs directory by its layout (<prefix>/lib64/stubs, <prefix>/lib/stubs,
 * <prefix>/targets/<arch>/lib/stubs with a cuda* prefix): LD_LIBRARY_PATH often names it
 * through a link (/usr/local/cuda) that the toolkit list recorded under its resolved name.
 */
static bool stubs_layout(const char *dir)
{
	static const char *const tails[] = { "/lib64/stubs", "/lib/stubs" };
	const char *base;

	for (size_t i = 0; i < ARRAY_SIZE(tails); i++) {
		size_t n = strlen(dir), t = strlen(tails[i]);

		if (n <= t || !streq(dir + n - t, tails[i]))
			continue;
		/* the component naming the toolkit: ".../cuda[-X.Y]/lib64/stubs" or
		 * ".../cuda-X.Y/targets/x86_64-linux/lib/stubs" */
		for (base = dir + n - t; base > dir && base[-1] != '/'; base--)
			;
		if (startswith(base, "cuda"))
			return true;
		if (base - dir > 9 && strneq(base - 9, "/targets/", 9))
			return strstr(dir, "/cuda") != NULL;
	}
	return false;
}

/* A stub libcuda.so.1 that a framework's own search (its DT_RPATH/RUNPATH) resolves. */
struct stub_fw_ctx {
	struct rule_ctx *c;
	const char *loader_stub; /* already reported for the process-wide search */
};

static void stub_fw(const struct fw_build *b, void *u)
{
	struct stub_fw_ctx *s = u;
	const struct snap_node *l = snap_child(snap_child(b->pkg, "loads"), "libcuda.so.1");
	const char *p = snap_get_str(l, "resolved_path");
	struct finding *f;
	char key[256];

	if (!lib_need_determined(s->c, b->prefix, l) ||
	    !snap_get_bool_default(l, "is_stub", false) ||
	    (s->loader_stub && p && streq(p, s->loader_stub)))
		return;
	f = rule_finding(s->c, GPUENV_SEVERITY_ERROR, b->prefix,
			 "%s in %s resolves libcuda.so.1 to the toolkit's stub %s (via %s, "
			 "requested by %s): CUDA calls fail with \"CUDA driver is a stub library\"",
			 b->label, b->prefix, p ?: "?", snap_get_str(l, "found_via") ?: "?",
			 snap_get_str(l, "requested_by") ?: "?");
	snprintf(key, sizeof(key), "%s.loads.libcuda.so.1.resolved_path", b->key);
	finding_fact(f, key, snap_child(l, "resolved_path"));
	snprintf(key, sizeof(key), "%s.loads.libcuda.so.1.found_via", b->key);
	finding_fact(f, key, snap_child(l, "found_via"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_stub_libcuda)
{
	const struct snap_node *tks = TOOLKITS(root);
	const struct snap_node *llp = snap_get(root, "environment.LD_LIBRARY_PATH");
	const struct snap_node *pre = snap_get(root, "environment.LD_PRELOAD");
	const struct snap_node *cu = snap_get(root, "driver.userspace.libcuda");
	_cleanup_strv_free_ char **entries = NULL, **preload = NULL;
	struct stub_fw_ctx sf = { .c = c };

	if (snap_str(llp) && strv_split(snap_str(llp), ":", &entries) < 0)
		return;
	if (snap_str(pre) && strv_split(snap_str(pre), ": ", &preload) < 0)
		return;
	/* What ld.so itself would load for libcuda.so.1 (LD_LIBRARY_PATH, ld.so.cache, …),
	 * when that can be told. */
	if (lib_need_determined(c, "libcuda.so.1", cu) &&
	    snap_get_bool_default(cu, "is_stub", false) && snap_present(snap_child(cu, "path"))) {
		const struct snap_node *sh = snap_child(cu, "shadowed");
		const char *real = NULL;
		struct finding *f;

		for (size_t j = 0; j < snap_count(sh) && !real; j++)
			if (!snap_get_bool_default(snap_at(sh, j), "is_stub", true) &&
			    streq(snap_get_str(snap_at(sh, j), "verdict") ?: "", "loadable"))
				real = snap_get_str(snap_at(sh, j), "resolved_path");
		sf.loader_stub = snap_get_str(cu, "resolved_path");
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, snap_get_str(cu, "path"),
			"ld.so loads libcuda.so.1 from %s (via %s), the toolkit's link-time "
			"stub%s%s%s: every CUDA program fails with \"CUDA driver is a stub "
			"library\"",
			snap_get_str(cu, "path"), snap_get_str(cu, "found_via") ?: "?",
			real ? "; the driver's " : "", real ?: "", real ? " is shadowed" : "");
		finding_fact(f, "driver.userspace.libcuda.path", snap_child(cu, "path"));
		finding_fact(f, "driver.userspace.libcuda.resolved_path",
			     snap_child(cu, "resolved_path"));
		finding_fact(f, "driver.userspace.libcuda.found_via", snap_child(cu, "found_via"));
		finding_fact(f, "environment.LD_LIBRARY_PATH", llp);
		if (streq(snap_get_str(cu, "found_via") ?: "", "ld.so.cache"))
			finding_fix(
				f,
				"# a stubs directory is in /etc/ld.so.conf(.d): remove that line, "
				"then sudo ldconfig");
		else
			finding_fix(f, "export LD_LIBRARY_PATH=<the same list without %s>",
				    snap_source(snap_child(cu, "path")) ?: "the stubs directory");
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
	fw_foreach(root, stub_fw, &sf);
	for (size_t i = 0; i < snap_count(tks); i++) {
		const struct snap_node *tk = snap_at(tks, i);
		const struct snap_node *stub = snap_child(tk, "stub_libcuda");
		_cleanup_strv_free_ char **dirs = NULL;
		const char *on = NULL, *how = NULL;
		struct finding *f;

		if (!rule_need_known(c, tk_name(tk), "stub_libcuda", stub) || !snap_present(stub))
			continue;
		/* value: the stub with every link resolved; source: where it was found. */
		{
			const char *paths[2] = { snap_str(stub), snap_source(stub) };

			for (size_t p = 0; p < 2; p++) {
				_cleanup_free_ char *d = paths[p] ? path_dirname(paths[p]) : NULL;
				_cleanup_strv_free_ char **al = NULL;

				if (!d || dir_aliases(tk, d, &al) < 0)
					continue;
				STRV_FOREACH(a, al)
					if (!strv_contains(dirs, *a) && strv_push(&dirs, *a) < 0)
						return;
			}
		}
		STRV_FOREACH(e, entries) {
			_cleanup_free_ char *norm = strdup(*e);

			if (norm &&
			    (strv_contains(dirs, path_normalise(norm)) || stubs_layout(norm))) {
				on = *e;
				how = "LD_LIBRARY_PATH";
				break;
			}
		}
		STRV_FOREACH(p, on ? NULL : preload) {
			_cleanup_free_ char *d = path_dirname(*p);
			const char *base = strrchr(*p, '/');

			if (d && base && startswith(base, "/libcuda.so") &&
			    strv_contains(dirs, d)) {
				on = *p;
				how = "LD_PRELOAD";
				break;
			}
		}
		if (sf.loader_stub && streq(sf.loader_stub, snap_str(stub) ?: ""))
			continue; /* ld.so's own choice was reported above */
		if (on) {
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, tk_name(tk),
				"%s contains %s, the toolkit's stub libcuda: programs that "
				"load libcuda.so get the stub and fail with \"CUDA driver is a "
				"stub library\"",
				how, on);
			finding_fact(f,
				     streq(how, "LD_PRELOAD") ? "environment.LD_PRELOAD"
							      : "environment.LD_LIBRARY_PATH",
				     streq(how, "LD_PRELOAD") ? pre : llp);
			finding_fix(f, "export %s=<the same list without %s>", how, on);
			finding_rule_fix(f);
		} else {
			f = rule_finding(
				c, GPUENV_SEVERITY_INFO, tk_name(tk),
				"the only libcuda in %s is the toolkit's link-time stub %s: it "
				"is off the loader path (not on LD_LIBRARY_PATH or LD_PRELOAD), "
				"so nothing loads it",
				tk_name(tk), snap_str(stub));
			finding_fact(f, "environment.LD_LIBRARY_PATH", llp);
		}
		{
			char name[96];

			snprintf(name, sizeof(name), "runtime.cuda_toolkits.%zu.stub_libcuda", i);
			finding_fact(f, name, stub);
		}
		finding_rule_verify(f);
	}
}

/* Which toolkit (index) a selection names; -1 if none. */
static int tk_by_prefix(const struct snap_node *tks, const char *dir, bool allow_below)
{
	for (size_t i = 0; i < snap_count(tks); i++) {
		const struct snap_node *tk = snap_at(tks, i);
		const char *p[2] = { snap_get_str(tk, "path"), snap_get_str(tk, "resolved_path") };

		for (size_t a = 0; a < 2; a++) {
			size_t n = p[a] ? strlen(p[a]) : 0;

			if (!n || strncmp(dir, p[a], n) != 0)
				continue;
			if (dir[n] == '\0' || (allow_below && dir[n] == '/'))
				return (int)i;
		}
	}
	return -1;
}

struct selection {
	const char *what;  /* "nvcc on PATH" */
	const char *value; /* the entry that selected it */
	const char *key;   /* evidence key */
	int tk;
};

/*
 * The toolkit the rest of the configuration needs, among the selected ones: the one whose
 * CUDA major.minor the framework a plain `python` imports was built for (its extensions must
 * be compiled with it: torch.utils.cpp_extension refuses another), else the newest the loaded
 * driver can run, else the newest. Never merely the first nvcc on PATH.
 */
static int disagree_target(const struct snap_node *root, const struct snap_node *tks,
			   const struct selection *sel, size_t n, char *why, size_t len)
{
	struct fw_build b;
	char fwv[32];
	const char *drv;
	const struct snap_node *fact;
	bool have_drv = nvidia_driver(root, &drv, &fact) == DRIVER_LOADED;
	int best = -1, best_run = -1;
	unsigned fma, fmi;

	if (fw_first(root, &b) && fw_cuda_version(&b, fwv, sizeof(fwv), NULL) &&
	    cuda_major_minor(fwv, &fma, &fmi))
		for (size_t i = 0; i < n; i++) {
			unsigned ma, mi;
			const char *v = snap_get_str(snap_at(tks, (size_t)sel[i].tk), "version");

			if (v && cuda_major_minor(v, &ma, &mi) && ma == fma && mi == fmi) {
				snprintf(why, len, "CUDA %u.%u, what %s was built for", ma, mi,
					 b.label);
				return sel[i].tk;
			}
		}
	for (size_t i = 0; i < n; i++) {
		const char *v = snap_get_str(snap_at(tks, (size_t)sel[i].tk), "version");
		const char *bv =
			best < 0 ? NULL : snap_get_str(snap_at(tks, (size_t)best), "version");
		struct cuda_req req;

		if (best < 0 || (v && bv && version_cmp_str(v, bv) > 0))
			best = sel[i].tk;
		if (have_drv && v && cuda_requirement(root, v, &req) == 0 &&
		    cuda_driver_judge(&req, drv) != LINK_BROKEN) {
			const char *rv = best_run < 0 ? NULL
						      : snap_get_str(snap_at(tks, (size_t)best_run),
								     "version");

			if (best_run < 0 || (rv && version_cmp_str(v, rv) > 0))
				best_run = sel[i].tk;
		}
	}
	if (best_run >= 0) {
		snprintf(why, len, "the newest of them driver %s can run", drv);
		return best_run;
	}
	snprintf(why, len, "the newest of them");
	return best;
}

RULE_CHECK(check_toolkits_disagree)
{
	const struct snap_node *tks = TOOLKITS(root);
	const char *path = snap_get_str(root, "environment.PATH");
	const char *llp = snap_get_str(root, "environment.LD_LIBRARY_PATH");
	_cleanup_strv_free_ char **pdirs = NULL, **ldirs = NULL;
	struct selection sel[5];
	size_t n = 0;
	struct finding *f;
	bool differ = false, versions_differ = false, majors_differ = false;
	enum gpuenv_severity sev;
	char msg[1024] = "";

	if (snap_count(tks) < 2)
		return;
	if ((path && strv_split(path, ":", &pdirs) < 0) ||
	    (llp && strv_split(llp, ":", &ldirs) < 0))
		return;
	STRV_FOREACH(d, pdirs) {
		_cleanup_free_ char *prefix = strdup(*d);
		char *slash;
		int t;

		if (!prefix)
			return;
		path_normalise(prefix);
		slash = strrchr(prefix, '/');
		if (!slash || !streq(slash, "/bin"))
			continue;
		*slash = '\0';
		t = tk_by_prefix(tks, prefix, false);
		if (t >= 0) {
			sel[n++] = (struct selection){ "nvcc on PATH", *d, "environment.PATH", t };
			break;
		}
	}
	{
		static const char *const vars[] = { "CUDA_HOME", "CUDA_PATH" };

		for (size_t v = 0; v < ARRAY_SIZE(vars); v++) {
			char key[64];
			const char *val;
			int t;

			snprintf(key, sizeof(key), "environment.%s", vars[v]);
			val = snap_get_str(root, key);
			if (!val)
				continue;
			{
				_cleanup_free_ char *norm = strdup(val);

				if (!norm)
					return;
				t = tk_by_prefix(tks, path_normalise(norm), false);
			}
			if (t >= 0)
				sel[n++] = (struct selection){ vars[v], val,
							       v == 0 ? "environment.CUDA_HOME"
								      : "environment.CUDA_PATH",
							       t };
		}
	}
	STRV_FOREACH(d, ldirs) {
		int t = tk_by_prefix(tks, *d, true);

		if (t >= 0 && !strstr(*d, "/stubs")) {
			sel[n++] = (struct selection){ "LD_LIBRARY_PATH", *d,
						       "environment.LD_LIBRARY_PATH", t };
			break;
		}
	}
	for (size_t i = 0; i < snap_count(tks); i++)
		if (streq(snap_get_str(snap_at(tks, i), "path") ?: "", "/usr/local/cuda")) {
			sel[n++] = (struct selection){ "/usr/local/cuda", "/usr/local/cuda", NULL,
						       (int)i };
			break;
		}
	for (size_t i = 1; i < n; i++)
		if (sel[i].tk != sel[0].tk) {
			const char *a = snap_get_str(snap_at(tks, (size_t)sel[0].tk), "version");
			const char *b = snap_get_str(snap_at(tks, (size_t)sel[i].tk), "version");
			unsigned ama, ami, bma, bmi;

			differ = true;
			if (!a || !b || version_cmp_str(a, b) != 0)
				versions_differ = true;
			/* nvcc of one CUDA major, headers and libraries of another: what a build
			 * that finds CUDA through CUDA_HOME, LD_LIBRARY_PATH or /usr/local/cuda
			 * compiles with nvcc from PATH cannot link or load (PyTorch's CMake config
			 * stops: "FindCUDA says CUDA version is …, but the CUDA headers say the
			 * version is …", traveller59/spconv#65; spconv#186: nvcc 7.5 over CUDA
			 * 10.0) */
			if (streq(sel[0].what, "nvcc on PATH") && a && b &&
			    cuda_major_minor(a, &ama, &ami) && cuda_major_minor(b, &bma, &bmi) &&
			    ama != bma)
				majors_differ = true;
		}
	if (!differ)
		return;
	sev = majors_differ	? GPUENV_SEVERITY_ERROR
	      : versions_differ ? GPUENV_SEVERITY_WARNING
				: GPUENV_SEVERITY_INFO;
	for (size_t i = 0; i < n; i++) {
		const struct snap_node *tk = snap_at(tks, (size_t)sel[i].tk);
		size_t len = strlen(msg);

		snprintf(msg + len, sizeof(msg) - len, "%s%s: CUDA %s (%s)", i ? ", " : "",
			 sel[i].what, snap_get_str(tk, "version") ?: "?", tk_name(tk));
	}
	if (majors_differ) {
		size_t len = strlen(msg);

		snprintf(msg + len, sizeof(msg) - len,
			 "; nvcc from PATH compiles for another CUDA major than the toolkit the "
			 "other settings name");
	}
	f = rule_finding(c, sev, NULL, "different CUDA toolkits are selected: %s", msg);
	for (size_t i = 0; i < n; i++) {
		const struct snap_node *tk = snap_at(tks, (size_t)sel[i].tk);
		char name[96];

		if (sel[i].key)
			finding_fact(f, sel[i].key, snap_get(root, sel[i].key));
		snprintf(name, sizeof(name), "runtime.cuda_toolkits.%d.version", sel[i].tk);
		finding_fact(f, name, snap_child(tk, "version"));
	}
	{
		char why[256];
		const struct snap_node *tk =
			snap_at(tks, (size_t)disagree_target(root, tks, sel, n, why, sizeof(why)));
		const char *p = tk_name(tk);

		finding_fix(f,
			    "export CUDA_HOME=%s PATH=%s/bin:$PATH LD_LIBRARY_PATH=%s/lib64   # "
			    "one toolkit everywhere: %s",
			    p, p, p, why);
	}
	finding_fix(f, "sudo update-alternatives --config cuda   # where /usr/local/cuda is an "
		       "alternative");
	finding_rule_verify(f);
}

RULE_CHECK(check_toolkit_cannot_target_gpu)
{
	const struct snap_node *tks = TOOLKITS(root);
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(tks); i++) {
		const struct snap_node *tk = snap_at(tks, i);
		const char *v = snap_get_str(tk, "version");
		const struct facts_cuda_arch *arch;
		unsigned lo_ma, lo_mi, hi_ma = 0, hi_mi = 0, ma, mi;
		bool have_hi;

		if (gpus_count(root, gpu_is_nvidia) == 0)
			return;
		if (!rule_need(c, tk_name(tk), "version", snap_child(tk, "version")))
			continue;
		if (!cuda_major_minor(v, &ma, &mi) || facts_cuda_arch(v, &arch) < 0 ||
		    !cuda_major_minor(arch->min_cc, &lo_ma, &lo_mi)) {
			rule_skip(c, tk_name(tk),
				  "CUDA %s: targetable compute capabilities not in "
				  "the knowledge base",
				  v);
			continue;
		}
		have_hi = cuda_major_minor(arch->max_cc, &hi_ma, &hi_mi);
		for (size_t g = 0; g < snap_count(gpus); g++) {
			const struct snap_node *gpu = snap_at(gpus, g);
			const char *bus = snap_get_str(gpu, "bus_id");
			const struct facts_gpu *fg;
			struct finding *f;
			unsigned cc, lo = lo_ma * 10 + lo_mi, hi = hi_ma * 10 + hi_mi;
			char name[96];

			if (!gpu_is_nvidia(gpu))
				continue;
			if (gpu_facts(gpu, &fg) < 0 || fg->cc_major < 0) {
				rule_skip(c, bus,
					  "GPU %s (%s): compute capability not in the "
					  "knowledge base",
					  bus, snap_get_str(gpu, "device_id"));
				continue;
			}
			cc = (unsigned)(fg->cc_major * 10 + fg->cc_minor);
			if (cc < lo)
				f = rule_finding(
					c, GPUENV_SEVERITY_ERROR, tk_name(tk),
					"CUDA %u.%u at %s compiles for compute capability %s "
					"and newer; %s is %s: nvcc rejects sm_%u",
					ma, mi, tk_name(tk), arch->min_cc, fg->product,
					fg->compute_capability, cc);
			else if (have_hi && cc > hi)
				f = rule_finding(
					c, GPUENV_SEVERITY_WARNING, tk_name(tk),
					"CUDA %u.%u at %s compiles for compute capability up "
					"to %s; %s is %s: no native sm_%u code, only PTX "
					"JIT-compiled at load time",
					ma, mi, tk_name(tk), arch->max_cc, fg->product,
					fg->compute_capability, cc);
			else
				continue;
			tk_fact(f, tk, i, "version");
			snprintf(name, sizeof(name), "hardware.gpus.%zu.device_id", g);
			finding_fact(f, name, snap_child(gpu, "device_id"));
			finding_evidence(f, "facts.gpu.compute_capability", fg->source, "%s: %s",
					 fg->product, fg->compute_capability);
			finding_evidence(
				f, "facts.cuda_arch_support", arch->source, "CUDA %s: %s .. %s%s",
				arch->cuda_version, arch->min_cc, arch->max_cc ?: "?",
				facts_unconfirmed(arch->confidence) ? " (unconfirmed)" : "");
			finding_fix(
				f,
				"# install a CUDA toolkit that targets sm_%u (gpuenv facts cuda "
				"<version> lists min_cc/max_cc)",
				cc);
			finding_rule_verify(f);
		}
	}
}

RULE_CHECK(check_cudnn_cuda_mismatch)
{
	const struct snap_node *tks = TOOLKITS(root);

	for (size_t i = 0; i < snap_count(tks); i++) {
		const struct snap_node *tk = snap_at(tks, i);
		const struct snap_node *dnn = snap_child(tk, "cudnn_version");
		const char *v = snap_get_str(tk, "version"), *dv = snap_str(dnn);
		const struct facts_cudnn *row, *same_major = NULL;
		bool listed = false, unconfirmed = false;
		struct strbuf builds = STRBUF_INIT;
		unsigned ma, mi;
		struct finding *f;
		size_t n;

		if (snap_state(dnn) == FACT_ABSENT)
			continue; /* no cuDNN in this toolkit */
		if (!rule_need(c, tk_name(tk), "cudnn_version", dnn) ||
		    !rule_need(c, tk_name(tk), "version", snap_child(tk, "version")))
			continue;
		if (!cuda_major_minor(v, &ma, &mi))
			continue;
		for (n = 0; facts_cudnn_nth(dv, n, &row) == 0; n++) {
			listed |= facts_cudnn_lists_cuda(row, ma, mi);
			if (facts_cudnn_has_major(row, ma) && !same_major)
				same_major = row;
			if (facts_cudnn_has_major(row, ma) && !row->cuda_versions)
				unconfirmed = true;
			strbuf_printf(&builds, "%s%s (CUDA %s)", n ? "; " : "", row->variant,
				      row->cuda_versions ?: row->cuda_as_listed ?: row->cuda_majors);
		}
		if (n == 0) {
			rule_skip(c, tk_name(tk),
				  "cuDNN %s is not in the knowledge base's cuDNN table", dv);
			strbuf_done(&builds);
			continue;
		}
		if (listed) {
			strbuf_done(&builds);
			continue;
		}
		if (same_major && unconfirmed) {
			rule_skip(c, tk_name(tk),
				  "cuDNN %s: the CUDA %u.x minors it supports were not "
				  "captured from NVIDIA's support matrix",
				  dv, ma);
			strbuf_done(&builds);
			continue;
		}
		if (same_major)
			f = rule_finding(
				c, GPUENV_SEVERITY_WARNING, tk_name(tk),
				"cuDNN %s in the CUDA %u.%u toolkit at %s: its support matrix "
				"lists %s, not CUDA %u.%u",
				dv, ma, mi, tk_name(tk), strbuf_str(&builds), ma, mi);
		else
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, tk_name(tk),
				"cuDNN %s in the CUDA %u.%u toolkit at %s exists only for other "
				"CUDA majors: %s",
				dv, ma, mi, tk_name(tk), strbuf_str(&builds));
		tk_fact(f, tk, i, "cudnn_version");
		tk_fact(f, tk, i, "version");
		for (size_t k = 0; facts_cudnn_nth(dv, k, &row) == 0; k++)
			finding_evidence(
				f, "facts.cudnn_cuda", row->source, "cuDNN %s-%s %s: %s%s",
				row->first, row->last, row->variant, row->cuda_as_listed ?: "?",
				facts_unconfirmed(row->confidence) ? " (unconfirmed)" : "");
		finding_fix(
			f,
			"# install the cuDNN package built for CUDA %u (e.g. the cudnn9-cuda-%u "
			"packages of NVIDIA's repository, or the tarball *_cuda%u-archive)",
			ma, ma, ma);
		finding_verify(f,
			       "grep -E 'define CUDNN_(MAJOR|MINOR|PATCHLEVEL)' %s/include/"
			       "cudnn_version.h",
			       tk_name(tk));
		strbuf_done(&builds);
	}
}

/* ---- runtime.library-shadowed ------------------------------------------------------------ */

struct shadow_ctx {
	struct rule_ctx *c;
	const struct snap_node *root;
};

static void shadowed_fw(const struct fw_build *b, void *u)
{
	struct shadow_ctx *s = u;
	const struct snap_node *loads = snap_child(b->pkg, "loads");

	if (snap_kind(loads) != SNAP_OBJECT)
		return;
	for (size_t i = 0; i < snap_count(loads); i++) {
		const struct snap_node *l = snap_at(loads, i), *sh = snap_child(l, "shadowed");
		const char *soname = snap_key(l), *win = snap_get_str(l, "resolved_path");
		struct finding *f;
		char key[256];

		/* An unreadable copy ahead of the winner may be what the process loads. */
		if (!lib_need_determined(s->c, b->prefix, l))
			continue;
		if (!win || snap_get_bool_default(l, "from_wheel", true) ||
		    snap_get_bool_default(l, "is_stub", false))
			continue;
		for (size_t j = 0; j < snap_count(sh); j++) {
			const struct snap_node *o = snap_at(sh, j), *w;
			const char *p = snap_get_str(o, "resolved_path") ?: snap_get_str(o, "path");

			if (!streq(snap_get_str(o, "verdict") ?: "", "loadable") ||
			    !(w = wheel_holding(b->env, p)))
				continue;
			f = rule_finding(
				s->c, GPUENV_SEVERITY_WARNING, b->prefix,
				"%s in %s needs %s; ld.so takes %s (%s, via %s) before the "
				"copy of the %s %s wheel it was installed with (%s)",
				b->label, b->prefix, soname, win,
				snap_get_str(l, "version") ?: "version unknown",
				snap_get_str(l, "found_via") ?: "?",
				snap_get_str(w, "name") ?: "nvidia",
				snap_get_str(w, "version") ?: "?", p);
			snprintf(key, sizeof(key), "%s.loads.%s.resolved_path", b->key, soname);
			finding_fact(f, key, snap_child(l, "resolved_path"));
			snprintf(key, sizeof(key), "%s.loads.%s.found_via", b->key, soname);
			finding_fact(f, key, snap_child(l, "found_via"));
			snprintf(key, sizeof(key), "%s.loads.%s.shadowed.%zu.path", b->key, soname,
				 j);
			finding_fact(f, key, snap_child(o, "path"));
			finding_fact(f, "environment.LD_LIBRARY_PATH",
				     snap_get(s->root, "environment.LD_LIBRARY_PATH"));
			finding_fix(
				f,
				"# drop %s's directory from LD_LIBRARY_PATH for this environment "
				"(pip wheels find their own libraries)",
				win);
			finding_verify(
				f,
				"LD_DEBUG=libs python -c 'import %s' 2>&1 | grep 'calling init' "
				"| grep %.*s",
				b->kind == FW_TENSORFLOW ? "tensorflow"
				: b->kind == FW_TORCH	 ? "torch"
							 : "jax",
				(int)strcspn(soname, "."), soname);
			break;
		}
	}
}

RULE_CHECK(check_library_shadowed)
{
	const struct snap_node *dnn = snap_get(root, "runtime.libraries.libcudnn");
	struct shadow_ctx s = { c, root };
	const struct snap_node *cu = snap_get(root, "driver.userspace.libcuda");
	const struct snap_node *sh = snap_child(cu, "shadowed");
	struct finding *f;

	/* A libcuda on the loader path that could not be read may be the one the judged
	 * process loads (a compat copy it can read): not judged as if it were not there. */
	for (size_t i = 0; i < snap_count(sh); i++) {
		const struct snap_node *v = snap_child(snap_at(sh, i), "version");

		if (fact_is_failure(snap_state(v)))
			rule_need(c, snap_get_str(snap_at(sh, i), "path"),
				  "a libcuda.so.1 on the loader path", v);
	}
	/* Two cuDNN majors side by side. */
	if (snap_count(dnn) >= 2) {
		struct strbuf list = STRBUF_INIT;

		for (size_t i = 0; i < snap_count(dnn); i++)
			strbuf_printf(&list, "%s%s = %s", i ? ", " : "",
				      snap_get_str(snap_at(dnn, i), "soname") ?: "?",
				      snap_get_str(snap_at(dnn, i), "resolved_path")
					      ?: "(not loadable)");
		f = rule_finding(
			c, GPUENV_SEVERITY_INFO, NULL,
			"%zu cuDNN majors are on the loader path: %s; each program gets the "
			"major it was linked against, so which cuDNN a framework uses depends "
			"on how it was built, not on the newest one installed",
			snap_count(dnn), strbuf_str(&list));
		for (size_t i = 0; i < snap_count(dnn); i++) {
			char key[96];

			snprintf(key, sizeof(key), "runtime.libraries.libcudnn.%zu.resolved_path",
				 i);
			finding_fact(f, key, snap_child(snap_at(dnn, i), "resolved_path"));
		}
		finding_fix(f,
			    "# keep one cuDNN per CUDA major where possible; a framework from pip "
			    "brings its own (nvidia-cudnn-cu12)");
		finding_verify(f, "ldconfig -p | grep libcudnn.so");
		strbuf_done(&list);
	}
	fw_foreach(root, shadowed_fw, &s);
	shadowed_cudnn_same_major(c, root);
}
