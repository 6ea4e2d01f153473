// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ROCm installations into runtime.rocm[] (docs/snapshot-schema.md): AMD's packages under
 * /opt/rocm-X.Y.Z (found by listing /opt, and through $ROCM_PATH, $ROCM_HOME, $HIP_PATH and a
 * hipconfig on $PATH), and the ROCm libraries a distribution packages under /usr (Debian 12's
 * libamdhip64-5 installs /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 -> libamdhip64.so.5.2.21153,
 * libamdhip64-dev /usr/include/hip/hip_version.h and /usr/share/hip/version).
 * Read: .info/version (rocm-core, "6.2.0-66"), include/rocm-core/rocm_version.h
 * (ROCM_VERSION_MAJOR/MINOR/PATCH), include/hip/hip_version.h (HIP_VERSION_MAJOR/MINOR/PATCH,
 * written by HIP's CMake), else share/hip/version or bin/.hipVersion (KEY=VALUE lines, same
 * CMake), the library file names in lib/ (lib<name>.so.<soversion>.<ROCm version code>, e.g.
 * libamdhip64.so.6.2.60200), dpkg's /var/lib/dpkg/status for a distribution package's version,
 * and the /opt/rocm link chain (rocm-core's postinst: update-alternatives --install /opt/rocm
 * rocm /opt/rocm-6.2.0), and the conda environments of the shared Python-environment discovery
 * (probe_python_envs()) that hold a HIP runtime. Only known directories are listed: no walks,
 * nothing executed. Which release the dynamic loader gives: rocm-loader.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe/loader.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strv.h"
#include "formats/toolkit-parse.h"
#include "probe/rocm-loader.h"
#include "probe/rocm-wsl.h"

#define MAX_ROCM	16
#define MAX_DIR_ENTRIES 65536u
#define DEFAULT_LINK	"/opt/rocm"

/* clang-format off */
/* The ROCm user-space libraries reported, by file name base. */
static const char *const rocm_libs[] = {
	"libamdhip64.so",   "libhiprtc.so",    "libhsa-runtime64.so", "librocblas.so",
	"libhipblas.so",    "libhipblaslt.so", "libMIOpen.so",	      "librccl.so",
	"librocfft.so",	    "libhipfft.so",    "librocsparse.so",     "libhipsparse.so",
	"librocsolver.so",  "libhipsolver.so", "librocrand.so",	      "libhiprand.so",
	"librocm_smi64.so", "libamd_smi.so",   "libamd_comgr.so",
};
/* clang-format on */

struct rcand {
	struct probe_prefix p;
	bool distro;
};

struct rdisc {
	struct probe_env *pe;
	struct rcand c[MAX_ROCM];
	size_t n;
	struct snap_node *rejected;
};

/* 1 when dir holds base (or base.N of a ROCm major), 0 when it does not, else the -errno of the
 * first name that could not be looked at (EACCES: "could not tell"), with *ret_path that name
 * when ret_path is given; -ENOMEM. */
static int has_lib(struct probe_env *pe, const char *dir, const char *base, char **ret_path)
{
	static const char *const majors[] = { "", ".7", ".6", ".5", ".1" };
	_cleanup_free_ char *unread = NULL;
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(majors); i++) {
		_cleanup_free_ char *p = NULL;
		int r;

		if (asprintf(&p, "%s/%s%s", dir, base, majors[i]) < 0)
			return -ENOMEM;
		r = probe_path_test(pe, p, S_IFREG);
		if (r > 0 || r == -ENOMEM)
			return r;
		if (r < 0 && !err) {
			err = r;
			unread = TAKE_PTR(p);
		}
	}
	if (err && ret_path)
		*ret_path = TAKE_PTR(unread);
	return err;
}

/* 1 when prefix holds a ROCm release's marker, 0 when none is there, or the -errno of a marker
 * that could not be looked at (EACCES on .info/version is "could not tell", never "no ROCm"),
 * with *ret_path the path that failed. */
static int looks_like_rocm(struct probe_env *pe, const char *prefix, char **ret_path)
{
	static const char *const markers[] = { ".info/version", "include/hip/hip_version.h" };
	_cleanup_free_ char *lib = NULL;
	int unread = 0, r;

	for (size_t i = 0; i < ARRAY_SIZE(markers); i++) {
		_cleanup_free_ char *p = NULL;
		struct stat st;

		if (asprintf(&p, "%s/%s", prefix, markers[i]) < 0)
			return -ENOMEM;
		r = root_stat(pe->root, p, &st);
		if (r == 0 && S_ISREG(st.st_mode))
			return 1;
		if (r < 0 && r != -ENOENT && r != -ENOTDIR && !unread) {
			unread = r;
			*ret_path = TAKE_PTR(p);
		}
	}
	if (asprintf(&lib, "%s/lib", prefix) < 0)
		return -ENOMEM;
	r = has_lib(pe, lib, "libamdhip64.so", unread ? NULL : ret_path);
	if (r > 0 || r == -ENOMEM)
		return r;
	return unread ?: r;
}

static int add(struct rdisc *d, const char *path, const char *via, const char *origin, bool distro)
{
	_cleanup_free_ char *resolved = NULL;
	int r = root_resolve(d->pe->root, path, &resolved);

	if (r == -ENOMEM)
		return r;
	/* a prefix that could not be looked at is rejected with why (EACCES, ELOOP): "could
	 * not tell", never "not a directory" */
	if (r >= 0)
		r = probe_path_test(d->pe, resolved, S_IFDIR);
	if (r == -ENOMEM)
		return r;
	if (r <= 0) {
		if (origin)
			probe_reject(d->pe->root, d->rejected, origin, via, path,
				     r < 0 ? r : -ENOTDIR, NULL);
		return 0;
	}
	for (size_t i = 0; i < d->n; i++) {
		r = probe_prefix_seen(&d->c[i].p, resolved, via);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	if (!distro) {
		_cleanup_free_ char *unread = NULL;

		r = looks_like_rocm(d->pe, resolved, &unread);
		if (r == -ENOMEM)
			return r;
		if (r < 0 && origin) /* a release whose marker could not be read */
			probe_reject(d->pe->root, d->rejected, origin, via, unread, r, NULL);
		else if (r == 0 && origin)
			probe_reject(d->pe->root, d->rejected, origin, via, resolved, 0,
				     "no .info/version, include/hip/hip_version.h or "
				     "lib/libamdhip64.so");
		if (r <= 0)
			return 0;
	}
	if (d->n >= MAX_ROCM)
		return 0;
	d->c[d->n].distro = distro;
	return probe_prefix_set(&d->c[d->n++].p, path, TAKE_PTR(resolved), via);
}

static int discover(struct rdisc *d)
{
	static const char *const distro_runtimes[] = { "libamdhip64.so", "libhsa-runtime64.so" };
	static const char *const vars[] = { "ROCM_PATH", "ROCM_HOME", "HIP_PATH" };
	const char *multiarch = loader_multiarch_lib(); /* NULL: no Debian layout known */
	_cleanup_strv_free_ char **names = NULL, **found = NULL;
	const struct probe_pyenvs *es;
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(vars) && !err; i++) {
		const char *v = env_get(d->pe->env, vars[i]);

		if (v && v[0] == '/')
			err = add(d, v, vars[i], v, false);
	}
	if (!err)
		err = probe_which(d->pe, "hipconfig", &found);
	STRV_FOREACH(hc, found) {
		_cleanup_free_ char *prefix = NULL;

		if (err)
			break;
		err = probe_bin_prefix(d->pe, *hc, &prefix);
		if (err == -ENOMEM)
			return err;
		/* Debian's hipcc puts hipconfig in /usr/bin: the distribution entry below. */
		err = err < 0 || streq(prefix, "/usr")
			      ? 0
			      : add(d, prefix, "PATH hipconfig", *hc, false);
	}
	if (!err) {
		int r = root_list_dir(d->pe->root, "/opt", 4096, &names);

		/* /opt that cannot be listed: its releases are "could not tell", not none */
		if (r < 0 && r != -ENOENT && r != -ENOTDIR && r != -ENOMEM)
			probe_reject(d->pe->root, d->rejected, "/opt", "/opt", "/opt", r, NULL);
		else if (r == -ENOMEM)
			err = r;
	}
	if (!err && names)
		STRV_FOREACH(n, names) {
			_cleanup_free_ char *p = NULL;

			if (!startswith(*n, "rocm"))
				continue;
			if (asprintf(&p, "/opt/%s", *n) < 0)
				return -ENOMEM;
			err = add(d, p, "/opt", p, false);
			if (err)
				break;
		}
	/* Conda environments with conda-forge's HIP runtime (hip-feedstock) in <prefix>/lib: the
	 * shared Python-environment discovery, quietly (most conda envs hold no ROCm). */
	if (!err)
		err = probe_python_envs(d->pe, &es);
	for (size_t i = 0; !err && i < es->n; i++)
		if (streq(es->e[i].kind, "conda"))
			err = add(d, es->e[i].prefix, "conda", NULL, false);
	/* Distribution packages: the HIP or HSA runtime in the multiarch library directory; one
	 * that could not be looked at is a rejected candidate with why, never "none". */
	if (!err && multiarch) {
		_cleanup_free_ char *unread = NULL;
		int unread_err = 0;

		for (size_t i = 0; i < ARRAY_SIZE(distro_runtimes); i++) {
			int r = has_lib(d->pe, multiarch, distro_runtimes[i],
					unread ? NULL : &unread);

			if (r > 0)
				return add(d, "/usr", multiarch, NULL, true);
			if (r == -ENOMEM)
				return r;
			if (r < 0 && !unread_err)
				unread_err = r;
		}
		if (unread_err)
			probe_reject(d->pe->root, d->rejected, multiarch, multiarch, unread,
				     unread_err, NULL);
	}
	return err;
}

/* One object per library base: the file with the longest version suffix. A directory that is
 * there but could not be listed goes to rocm's unlisted[]: its libraries are unknown, not none. */
static void rocm_list_libraries(struct probe_env *pe, struct snap_node *rocm, struct snap_node *arr,
				char *const *dirs, size_t n_dirs)
{
	char **names[4] = { NULL };

	for (size_t i = 0; i < n_dirs && i < ARRAY_SIZE(names); i++) {
		int r = root_list_dir(pe->root, dirs[i], MAX_DIR_ENTRIES, &names[i]);

		if (r < 0)
			names[i] = NULL;
		if (r < 0 && r != -ENOENT && r != -ENOTDIR)
			probe_note_unlisted(rocm, "unlisted", dirs[i], r, MAX_DIR_ENTRIES);
	}
	for (size_t b = 0; b < ARRAY_SIZE(rocm_libs); b++) {
		const char *best, *best_dir, *best_v;

		if (probe_lib_best(names, dirs, MIN(n_dirs, ARRAY_SIZE(names)), rocm_libs[b], &best,
				   &best_dir, &best_v)) {
			struct snap_node *o = snap_append_object(arr);
			_cleanup_free_ char *path = NULL,
					    *name = strndup(rocm_libs[b], strlen(rocm_libs[b]) - 3);

			if (!name || asprintf(&path, "%s/%s", best_dir, best) < 0)
				break;
			snap_set_str(o, "name", name, best_dir);
			snap_set_str(o, "file", best, path);
			if (probe_version_fields(best_v) > 0)
				snap_set_str(o, "version", best_v, path);
			else
				snap_set_state(o, "version", FACT_ABSENT, path,
					       "no version in the file name");
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		strv_free(names[i]);
}

static bool hip_from_header(struct probe_env *pe, struct snap_node *o, const char *inc)
{
	static const char *const names[] = { "HIP_VERSION_MAJOR", "HIP_VERSION_MINOR",
					     "HIP_VERSION_PATCH" };
	_cleanup_free_ char *path = NULL, *text = NULL;
	char ver[PROBE_VERSION_MAX];

	if (probe_read_optional(pe->root, inc, "hip/hip_version.h", ROOT_CAP_TEXT, o, "hip_version",
				&path, &text) < 0)
		return false;
	if (probe_header_version(text, strlen(text), names, 3, ver, sizeof(ver)) < 0) {
		snap_set_malformed(o, "hip_version", text, path,
				   "HIP_VERSION_MAJOR/MINOR/PATCH not found");
		return false;
	}
	snap_set_str(o, "hip_version", ver, path);
	return true;
}

static bool hip_from_kv(struct probe_env *pe, struct snap_node *o, const char *path)
{
	_cleanup_free_ char *text = NULL;
	char a[24], b[24], c[48];
	size_t len;

	if (root_read_text(pe->root, path, ROOT_CAP_ATTR, &text) < 0)
		return false;
	len = strlen(text);
	if (probe_kv_value(text, len, "HIP_VERSION_MAJOR", a, sizeof(a)) < 0 ||
	    probe_kv_value(text, len, "HIP_VERSION_MINOR", b, sizeof(b)) < 0 ||
	    probe_kv_value(text, len, "HIP_VERSION_PATCH", c, sizeof(c)) < 0) {
		snap_set_malformed(o, "hip_version", text, path,
				   "HIP_VERSION_MAJOR/MINOR/PATCH not found");
		return false;
	}
	snap_set_strf(o, "hip_version", path, "%s.%s.%s", a, b, c);
	return true;
}

static bool version_from_info(struct probe_env *pe, struct snap_node *o, const char *prefix)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	char ver[PROBE_VERSION_MAX];

	if (probe_read_optional(pe->root, prefix, ".info/version", ROOT_CAP_ATTR, o, "version_info",
				&path, &text) < 0)
		return false;
	if (probe_version_line(text, strlen(text), ver, sizeof(ver)) < 0) {
		snap_set_malformed(o, "version_info", text, path, "no version line");
		return false;
	}
	snap_set_str(o, "version", ver, path);
	return true;
}

static bool version_from_rocm_h(struct probe_env *pe, struct snap_node *o, const char *prefix)
{
	static const char *const names[] = { "ROCM_VERSION_MAJOR", "ROCM_VERSION_MINOR",
					     "ROCM_VERSION_PATCH" };
	_cleanup_free_ char *path = NULL, *text = NULL;
	char ver[PROBE_VERSION_MAX];

	if (asprintf(&path, "%s/include/rocm-core/rocm_version.h", prefix) < 0 ||
	    root_read_text(pe->root, path, ROOT_CAP_TEXT, &text) < 0 ||
	    probe_header_version(text, strlen(text), names, 3, ver, sizeof(ver)) < 0)
		return false;
	snap_set_str(o, "version", ver, path);
	return true;
}

/* Debian's package of the HIP runtime, else of the HSA runtime, named by its SONAME:
 * libamdhip64.so.5 → libamdhip64-5, libhsa-runtime64.so.1 → libhsa-runtime64-1. Also which
 * installed packages depend on it (Debian 12's librocrand1 and libhipsparse0 depend on
 * libamdhip64-5): a runtime another package pulled in is not a ROCm install anyone chose. */
static bool version_from_dpkg(struct probe_env *pe, struct snap_node *o, struct snap_node *libs)
{
	static const char *const runtimes[] = { "libamdhip64", "libhsa-runtime64" };
	_cleanup_free_ char *pkg = NULL;
	char ver[PROBE_VERSION_MAX], by[160];
	const char *major = NULL, *name = NULL;
	int n;

	for (size_t r = 0; r < ARRAY_SIZE(runtimes) && !major; r++)
		for (size_t i = 0; i < snap_count(libs) && !major; i++) {
			const struct snap_node *l = snap_at(libs, i);

			if (streq(snap_get_str(l, "name") ?: "", runtimes[r]) &&
			    snap_get_str(l, "version")) {
				major = snap_get_str(l, "version");
				name = runtimes[r];
			}
		}
	if (!major || asprintf(&pkg, "%s-%.*s", name, (int)strcspn(major, "."), major) < 0)
		return false;
	if (probe_dpkg_version(pe, pkg, ver, sizeof(ver)) != 0)
		return false;
	snap_set_str(o, "version", ver, PROBE_DPKG_STATUS);
	snap_set_str(o, "package", pkg, PROBE_DPKG_STATUS);
	n = probe_dpkg_required_by(pe, pkg, by, sizeof(by));
	if (n > 0)
		snap_set_str(o, "required_by", by, PROBE_DPKG_STATUS);
	else if (n == 0)
		snap_set_state(o, "required_by", FACT_ABSENT, PROBE_DPKG_STATUS,
			       "no installed package depends on it");
	else
		snap_set_errno(o, "required_by", n, PROBE_DPKG_STATUS);
	return true;
}

/* What a distribution's packages under /usr hold: the HIP runtime (libamdhip64), else only
 * the HSA runtime (libhsa-runtime64) that HIP sits on. */
static void set_component(struct snap_node *o, struct snap_node *libs)
{
	const char *comp = "HSA runtime";

	for (size_t i = 0; i < snap_count(libs); i++)
		if (streq(snap_get_str(snap_at(libs, i), "name") ?: "", "libamdhip64"))
			comp = "HIP runtime";
	snap_set_str(o, "component", comp, loader_multiarch_lib());
}

static int probe_one(struct probe_env *pe, struct snap_node *o, const struct rcand *c,
		     const char *default_resolved)
{
	const char *prefix = c->p.resolved, *vsrc = NULL;
	struct snap_node *libs;
	_cleanup_free_ char *lib = NULL, *lib64 = NULL, *inc = NULL, *share = NULL, *hv = NULL;
	bool is_default = !c->distro && default_resolved && streq(default_resolved, prefix);
	char *dirs[2];
	size_t n_dirs = 0;

	probe_prefix_record(o, &c->p);
	snap_set_str(o, "kind", c->distro ? "distro-packaged" : "rocm", prefix);
	if (c->distro) {
		lib = strdup(loader_multiarch_lib()); /* found there (discover) */
		lib64 = strdup("/usr/lib");	      /* Debian's librocm-smi64-1 installs there */
		inc = strdup("/usr/include");
		share = strdup("/usr/share/hip/version");
		hv = strdup("/usr/bin/.hipVersion");
	} else if (asprintf(&lib, "%s/lib", prefix) < 0 ||
		   asprintf(&lib64, "%s/lib64", prefix) < 0 ||
		   asprintf(&inc, "%s/include", prefix) < 0 ||
		   asprintf(&share, "%s/share/hip/version", prefix) < 0 ||
		   asprintf(&hv, "%s/bin/.hipVersion", prefix) < 0) {
		return -ENOMEM;
	}
	if (!lib || !lib64 || !inc || !share || !hv)
		return -ENOMEM;
	dirs[n_dirs++] = lib;
	if (probe_path_test(pe, lib64, S_IFDIR) != 0) /* one not looked at: listed, and fails */
		dirs[n_dirs++] = lib64;
	libs = snap_array(o, "libraries");
	rocm_list_libraries(pe, o, libs, dirs, n_dirs);
	if (c->distro)
		set_component(o, libs);

	if (!c->distro && version_from_info(pe, o, prefix))
		vsrc = ".info/version";
	else if (version_from_rocm_h(pe, o, c->distro ? "/usr" : prefix))
		vsrc = "rocm_version.h";
	else if (c->distro && version_from_dpkg(pe, o, libs))
		vsrc = "dpkg status";
	else if (!c->distro && startswith(prefix, "/opt/rocm-")) {
		struct version v;

		if (version_parse(prefix + strlen("/opt/rocm-"), &v) == 0) {
			snap_set_str(o, "version", prefix + strlen("/opt/rocm-"), prefix);
			vsrc = "directory name";
		}
	}
	if (vsrc) {
		snap_set_str(o, "version_source", vsrc, snap_source(snap_child(o, "version")));
	} else {
		snap_set_state(o, "version", FACT_ABSENT, prefix,
			       "no .info/version, rocm_version.h, dpkg record or versioned "
			       "directory name");
		snap_set_state(o, "version_source", FACT_ABSENT, prefix, NULL);
	}
	if (!hip_from_header(pe, o, inc) && !snap_child(o, "hip_version") &&
	    !hip_from_kv(pe, o, share) && !snap_child(o, "hip_version") &&
	    !hip_from_kv(pe, o, hv) && !snap_child(o, "hip_version"))
		snap_set_state(o, "hip_version", FACT_ABSENT, prefix,
			       "no hip/hip_version.h, share/hip/version or bin/.hipVersion");
	if (!c->distro) {
		_cleanup_free_ char *hc = NULL;

		if (asprintf(&hc, "%s/bin/hipconfig", prefix) < 0)
			return -ENOMEM;
		probe_set_path_fact(pe, o, "hipconfig", hc, S_IFREG);
	}
	snap_set_bool(o, "is_default", is_default, DEFAULT_LINK);
	if (is_default)
		probe_link_chain(pe->root, DEFAULT_LINK, snap_array(o, "alternatives_chain"), NULL);
	return 0;
}

int probe_rocm(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *rt = snap_object(snapshot_root(s), "runtime");
	struct snap_node *arr = snap_array(rt, "rocm");
	struct rdisc d = { .pe = pe, .rejected = snap_array(rt, "rocm_rejected") };
	_cleanup_free_ char *default_resolved = NULL;
	int err = discover(&d);

	if (!err && root_resolve(pe->root, DEFAULT_LINK, &default_resolved) == -ENOMEM)
		err = -ENOMEM;
	for (size_t i = 0; i < d.n; i++) {
		if (!err)
			err = probe_one(pe, snap_append_object(arr), &d.c[i], default_resolved);
		probe_prefix_done(&d.c[i].p);
	}
	/* Which of them ld.so gives: a release other than /opt/rocm's is the one programs use
	 * (asked only where a release is installed). */
	if (!err && d.n > 0)
		err = rocm_loader_pick(pe, rt, arr);
	/* WSL2's bridge, which a venv's ROCm (no release here) needs too */
	if (!err)
		err = rocm_wsl_probe(pe, rt);
	return err ? err : snapshot_error(s);
}
