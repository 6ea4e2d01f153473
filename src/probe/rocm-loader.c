// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which ROCm release the dynamic loader gives a program, whatever /opt/rocm names: the HIP
 * runtime's sonames (libamdhip64.so.N), else the HSA runtime's (libhsa-runtime64.so.N, the
 * only ROCm runtime of some distribution packages), searched as ld.so searches them
 * (loader.h: LD_LIBRARY_PATH, /etc/ld.so.cache, the system directories), and each file the
 * search picks matched to the release under whose lib/ or lib64/ it lies (links resolved:
 * /opt/rocm/lib/libamdhip64.so.6 through the alternatives link is the release it points to).
 * AMD's install guide adds the release's lib directories to /etc/ld.so.conf.d/rocm.conf and
 * runs ldconfig ("Post-installation instructions"); an LD_LIBRARY_PATH naming another
 * /opt/rocm-X.Y.Z/lib overrides that for the programs started with it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe/loader.h"
#include "probe/rocm-loader.h"
#include "shared/strv.h"

/* The release of runtime.rocm[] whose library directory holds file (a resolved path), or -1. */
static ssize_t release_of(const struct snap_node *rocm, const char *file)
{
	const char *multiarch = loader_multiarch_lib(); /* a distro-packaged release's */
	const char *slash = strrchr(file, '/');
	size_t dlen = slash ? (size_t)(slash - file) : 0;

	for (size_t i = 0; slash && i < snap_count(rocm); i++) {
		const struct snap_node *r = snap_at(rocm, i);
		const char *prefix = snap_get_str(r, "resolved_path");
		size_t plen = prefix ? strlen(prefix) : 0;

		if (!prefix)
			continue;
		if (streq(snap_get_str(r, "kind") ?: "", "distro-packaged")) {
			if (multiarch && dlen == strlen(multiarch) && strneq(file, multiarch, dlen))
				return (ssize_t)i;
			continue;
		}
		if (dlen > plen && strneq(file, prefix, plen) &&
		    (streq(file + plen, "/lib") || streq(file + plen, "/lib64") ||
		     (dlen - plen == 4 && strneq(file + plen, "/lib/", 5)) ||
		     (dlen - plen == 6 && strneq(file + plen, "/lib64/", 7))))
			return (ssize_t)i;
	}
	return -1;
}

/* One soname searched, written into arr (runtime.rocm_loader.libamdhip64[] …): the file ld.so
 * gives (*ret_w, owned by *ret_r) and the release of runtime.rocm[] it lies in (*ret_release,
 * -1: none). */
static int resolve_one(struct loader *l, struct snap_node *arr, const struct snap_node *rocm,
		       const char *soname, const struct loader_candidate **ret_w,
		       struct loader_result **ret_r, ssize_t *ret_release)
{
	struct loader_result *r = NULL;
	struct snap_node *o = snap_append_object(arr);
	const struct loader_candidate *w;
	int err = loader_resolve(l, soname, &r);

	if (err < 0)
		return err;
	snap_set_str(o, "soname", soname, "ld.so search");
	probe_write_loader_result(o, r);
	w = r->winner >= 0 ? &r->cands[r->winner] : NULL;
	*ret_release = w && w->resolved ? release_of(rocm, w->resolved) : -1;
	if (w && w->resolved) {
		if (*ret_release >= 0)
			snap_set_str(
				o, "release",
				snap_get_str(snap_at(rocm, (size_t)*ret_release), "resolved_path"),
				w->resolved);
		else
			snap_set_state(o, "release", FACT_ABSENT, w->resolved,
				       "not in the lib directory of a ROCm release gpuenv found");
	}
	*ret_w = w;
	*ret_r = r;
	return 0;
}

/* The sonames the releases' own file names imply (libamdhip64.so.6.2.60200 → libamdhip64.so.6)
 * added to what the loader's directories and cache list: a file ld.so cannot load (not ELF,
 * unreadable) has no DT_SONAME to be listed by, and the search for its name says where ld.so
 * stops. */
static int add_release_sonames(const struct snap_node *rocm, const char *name, char ***sonames)
{
	for (size_t i = 0; i < snap_count(rocm); i++) {
		const struct snap_node *libs = snap_child(snap_at(rocm, i), "libraries");

		for (size_t j = 0; j < snap_count(libs); j++) {
			const struct snap_node *o = snap_at(libs, j);
			const char *v = snap_get_str(o, "version");
			char so[96];

			if (!v || !streq(snap_get_str(o, "name") ?: "", name))
				continue;
			snprintf(so, sizeof(so), "%s.so.%.*s", name, (int)strcspn(v, "."), v);
			if (!strv_contains(*sonames, so) && strv_push(sonames, so) < 0)
				return -ENOMEM;
		}
	}
	strv_sort(*sonames);
	return 0;
}

int rocm_loader_pick(struct probe_env *pe, struct snap_node *rt, struct snap_node *rocm)
{
	static const struct {
		const char *stem, *key, *name; /* name: in runtime.rocm[].libraries[] */
	} runtimes[] = { { "libamdhip64.so", "libamdhip64", "libamdhip64" },
			 { "libhsa-runtime64.so", "libhsa_runtime64", "libhsa-runtime64" } };
	struct snap_node *out = snap_object(rt, "rocm_loader");
	struct loader *l;
	ssize_t pick = -1;
	bool split = false, any = false, loads = false;
	char via[64] = "", soname[96] = "", path[512] = "", unread[512] = "";
	int unread_err = 0;
	int err = probe_loader(pe, &l);

	if (err < 0)
		return err;
	/* Both runtimes are searched and written; the HIP runtime's answer decides, the HSA
	 * runtime's only where no HIP runtime is on the loader's path. */
	for (size_t s = 0; s < ARRAY_SIZE(runtimes); s++) {
		_cleanup_strv_free_ char **sonames = NULL;
		struct snap_node *libs = snap_array(out, runtimes[s].key);
		bool deciding = !any;

		err = loader_find_sonames(l, runtimes[s].stem, &sonames);
		if (err >= 0)
			err = add_release_sonames(rocm, runtimes[s].name, &sonames);
		if (err < 0)
			return err;
		STRV_FOREACH(so, sonames) {
			_cleanup_(loader_result_freep) struct loader_result *r = NULL;
			const struct loader_candidate *w;
			ssize_t rel;

			err = resolve_one(l, libs, rocm, *so, &w, &r, &rel);
			if (err < 0)
				return err;
			if (!deciding)
				continue;
			any = true;
			if (r->undetermined_by && !unread_err) {
				snprintf(unread, sizeof(unread), "%s", r->undetermined_by);
				unread_err = r->undetermined_err ?: -EACCES;
			}
			loads |= w != NULL;
			if (rel < 0)
				continue;
			if (pick >= 0 && pick != rel)
				split = true;
			else if (pick < 0) {
				pick = rel;
				snprintf(via, sizeof(via), "%s", loader_via_name(w->via));
				snprintf(soname, sizeof(soname), "%s", *so);
				snprintf(path, sizeof(path), "%s", w->path);
			}
		}
	}
	/* Several sonames in several releases: a program built against each gets its own, so
	 * the loader names no one release; an unreadable file earlier in a search: could not
	 * tell. Either way nothing is chosen here. */
	if (!any)
		snap_set_state(out, "release", FACT_ABSENT, "ld.so search",
			       "no libamdhip64.so.N or libhsa-runtime64.so.N on the loader's path");
	else if (unread_err)
		snap_set_errno(out, "release", unread_err, unread);
	else if (split)
		snap_set_state(out, "release", FACT_ABSENT, "ld.so search",
			       "the runtime's sonames resolve into different releases: no one "
			       "release");
	else if (!loads)
		snap_set_state(
			out, "release", FACT_ABSENT, "ld.so search",
			"ld.so loads none of the runtime's sonames (each search says where it "
			"ended)");
	else if (pick < 0)
		snap_set_state(out, "release", FACT_ABSENT, "ld.so search",
			       "the runtime the loader gives is in no ROCm release gpuenv found");
	else {
		/* the release's own object in runtime.rocm[], written by this probe */
		struct snap_node *r = (struct snap_node *)snap_at(rocm, (size_t)pick);

		snap_set_str(out, "release", snap_get_str(r, "resolved_path"), path);
		snap_set_str(out, "soname", soname, "ld.so search");
		snap_set_str(out, "path", path, "ld.so search");
		snap_set_str(out, "found_via", via, path);
		snap_set_bool(r, "loader_gives", true, path);
		snap_set_str(r, "loader_via", via, path);
		snap_set_str(r, "loader_soname", soname, path);
	}
	return 0;
}
