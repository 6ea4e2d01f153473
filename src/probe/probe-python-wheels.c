// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The distributions of a site-packages, read from their dist-info (PyPA's "Recording
 * installed projects" and "Core metadata" specifications; docs/formats/python.md): which
 * distribution directory is a framework's, its METADATA (version, local label, Requires-Dist
 * pins on NVIDIA's wheels), the Debian package owning a module, and every nvidia-* wheel with
 * the libraries its RECORD lists. The framework table that uses them is
 * probe-python-frameworks.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/dist-metadata.h"
#include "probe-python-internal.h"
#include "probe.h"
#include "shared/path-util.h"
#include "shared/strv.h"

bool py_site_has(const struct site *s, const char *name)
{
	return strv_sorted_contains(s->names, s->n_names, name);
}

/* Does a normalised distribution name (PEP 503) match names[] (NULL-terminated; "x*" matches
 * every name starting with "x")? */
bool py_dist_matches(const char *const *names, const char *norm)
{
	for (; *names; names++) {
		size_t n = strlen(*names);

		if ((*names)[n - 1] == '*' ? strneq(norm, *names, n - 1) : streq(norm, *names))
			return true;
	}
	return false;
}

int py_site_index_dists(struct site *s)
{
	for (size_t i = 0; i < s->n_names; i++) {
		_cleanup_free_ char *name = NULL, *ver = NULL;
		int r = dist_dirname_split(s->names[i], &name, &ver);

		if (r == -ENOMEM)
			return r;
		if (r < 0)
			continue;
		if (s->n_dists % 32 == 0) {
			struct site_dist *v =
				reallocarray(s->dists, s->n_dists + 32, sizeof(*s->dists));

			if (!v)
				return -ENOMEM;
			s->dists = v;
		}
		s->dists[s->n_dists].entry = s->names[i];
		dist_name_normalize(name, s->dists[s->n_dists].norm,
				    sizeof(s->dists[s->n_dists].norm));
		s->n_dists++;
	}
	return 0;
}

/* The first dist-info/egg-info (in site order) whose normalised name matches names[]. */
bool py_find_dist(const struct site *sites, size_t ns, const char *const *names, size_t *ret_site,
		  const char **ret_entry)
{
	for (size_t i = 0; i < ns; i++)
		for (size_t d = 0; d < sites[i].n_dists; d++) {
			if (py_dist_matches(names, sites[i].dists[d].norm)) {
				*ret_site = i;
				*ret_entry = sites[i].dists[d].entry;
				return true;
			}
		}
	return false;
}

/* The first site holding a directory `pkg`. *ret_err: 0, or why the entry the site lists
 * could not be looked at (EACCES): the framework is there, what it is is unknown. */
bool py_find_pkg_dir(struct probe_env *pe, const struct site *sites, size_t ns, const char *pkg,
		     size_t *ret, int *ret_err)
{
	for (size_t i = 0; i < ns; i++)
		if (py_site_has(&sites[i], pkg)) {
			_cleanup_free_ char *p = path_join(sites[i].dir, pkg);
			int r;

			if (!p)
				return false;
			/* A dangling or looping link still counts: its reads record why. */
			r = probe_path_test(pe, p, S_IFDIR) > 0
				    ? 0
				    : root_lstat(pe->root, p, &(struct stat){ 0 });
			if (r == 0 || (r != -ENOENT && r != -ENOTDIR && r != -ENOMEM)) {
				*ret = i;
				*ret_err = r;
				return true;
			}
		}
	return false;
}

/* <site>/<distdir>/METADATA (PKG-INFO for egg-info) → `key` = Version; the parsed header
 * block for the caller, or NULL with the failure recorded. */
struct dist_metadata *py_read_metadata(struct probe_env *pe, struct snap_node *obj, const char *key,
				       const char *site, const char *distdir)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	struct dist_metadata *m = NULL;
	bool egg = strstr(distdir, ".egg-info") != NULL;
	int r;

	if (asprintf(&path, "%s/%s/%s", site, distdir, egg ? "PKG-INFO" : "METADATA") < 0)
		return NULL;
	r = root_read_text(pe->root, path, CAP_METADATA, &text);
	if (r < 0) {
		snap_set_errno(obj, key, r, path);
		return NULL;
	}
	r = dist_metadata_parse(text, strlen(text), &m);
	if (r < 0) {
		snap_set_malformed(
			obj, key, text, path,
			r == -EBADMSG ? "not a core-metadata header block with Name and Version"
				      : strerror(-r));
		return NULL;
	}
	snap_set_str(obj, key, m->version, path);
	return m;
}

/* The local version label: "2.4.0+cu124" → "cu124". */
void py_record_local_version(struct snap_node *obj, const char *version, const char *src)
{
	const char *plus = strchr(version, '+');

	if (plus && plus[1])
		snap_set_str(obj, "local_version", plus + 1, src);
	else
		snap_set_state(obj, "local_version", FACT_ABSENT, src, "no +local label");
}

/* Requires-Dist pins on NVIDIA's CUDA wheels: what the framework expects pip to provide. */
void py_record_requires_nvidia(struct snap_node *obj, const struct dist_metadata *m,
			       const char *src)
{
	struct snap_node *arr = snap_array(obj, "requires_nvidia");

	for (size_t i = 0; i < m->n_requires; i++) {
		char norm[64];

		dist_name_normalize(m->requires_dist[i], norm, sizeof(norm));
		if (startswith(norm, "nvidia-") || startswith(norm, "cuda-toolkit") ||
		    startswith(norm, "cuda-runtime"))
			snap_append_str(arr, m->requires_dist[i], src);
	}
}

/* Debian's python3-<module> owns <module> in /usr/lib/python3/dist-packages. */
void py_record_distro_package(struct py_ctx *c, struct snap_node *obj, const char *site,
			      const char *module)
{
	char pkg[160], ver[128];
	int err;

	if (!startswith(site, "/usr/lib/python3"))
		return;
	snprintf(pkg, sizeof(pkg), "python3-%s", module);
	err = probe_dpkg_version(c->pe, pkg, ver, sizeof(ver));
	if (err == 1) {
		snap_set_state(obj, "distro_package", FACT_ABSENT, PROBE_DPKG_STATUS,
			       "not installed");
		return;
	}
	if (err < 0) {
		snap_set_errno(obj, "distro_package", err, PROBE_DPKG_STATUS);
		return;
	}
	obj = snap_object(obj, "distro_package");
	snap_set_str(obj, "name", pkg, PROBE_DPKG_STATUS);
	snap_set_str(obj, "version", ver, PROBE_DPKG_STATUS);
}
/* Every nvidia-* distribution: name, version and where its libraries are (from RECORD). */
static bool want_lib(const char *p)
{
	const char *b = strrchr(p, '/');

	b = b ? b + 1 : p;
	return startswith(b, "lib") && strstr(b, ".so") != NULL;
}

int probe_nvidia_wheels(struct py_ctx *c, struct snap_node *env, const struct site *sites,
			size_t ns)
{
	struct probe_env *pe = c->pe;
	struct snap_node *arr = snap_array(env, "nvidia_wheels");

	for (size_t i = 0; i < ns; i++)
		STRV_FOREACH_CONST(n, sites[i].names) {
			_cleanup_free_ char *name = NULL, *ver = NULL, *dpath = NULL, *rpath = NULL,
					    *rec = NULL;
			_cleanup_strv_free_ char **libs = NULL;
			char norm[128];
			struct snap_node *w, *la;
			struct dist_metadata *m;
			int r;

			if (!py_endswith_dist_info(*n) || dist_dirname_split(*n, &name, &ver) < 0)
				continue;
			dist_name_normalize(name, norm, sizeof(norm));
			if (!startswith(norm, "nvidia-"))
				continue;
			dpath = path_join(sites[i].dir, *n);
			rpath = dpath ? path_join(dpath, "RECORD") : NULL;
			if (!rpath)
				return -ENOMEM;
			w = snap_append_object(arr);
			snap_set_str(w, "dist_info", dpath, dpath);
			m = py_read_metadata(pe, w, "version", sites[i].dir, *n);
			if (m)
				snap_set_str(w, "name", m->name, dpath);
			else
				snap_set_str(w, "name", norm, dpath); /* from the directory name */
			dist_metadata_free(m);
			r = root_read_text(pe->root, rpath, CAP_RECORD, &rec);
			if (r == 0)
				r = dist_record_paths(rec, strlen(rec), want_lib, MAX_WHEEL_LIBS,
						      &libs);
			if (r == -ENOMEM)
				return r;
			if (r < 0) {
				snap_set_errno(w, "lib_dir", r, rpath);
				continue;
			}
			if (!libs[0]) {
				snap_set_state(w, "lib_dir", FACT_ABSENT, rpath,
					       "no lib*.so* in RECORD");
				continue;
			}
			{
				_cleanup_free_ char *ld = path_join(sites[i].dir, libs[0]);
				char *slash = ld ? strrchr(ld, '/') : NULL;
				struct stat st;
				int sr;

				if (!slash)
					return -ENOMEM;
				*slash = '\0';
				/* Unreadable is not "not on disk": the wheel's libraries may be there. */
				sr = root_stat(pe->root, ld, &st);
				if (sr == 0 && S_ISDIR(st.st_mode))
					snap_set_str(w, "lib_dir", ld, rpath);
				else if (sr < 0 && sr != -ENOENT && sr != -ENOTDIR)
					snap_set_errno(w, "lib_dir", sr, ld);
				else
					snap_set_state(w, "lib_dir", FACT_ABSENT, ld,
						       "listed in RECORD, not on disk");
			}
			la = snap_array(w, "libraries");
			STRV_FOREACH(l, libs)
				snap_append_str(la, strrchr(*l, '/') ? strrchr(*l, '/') + 1 : *l,
						rpath);
		}
	return 0;
}
