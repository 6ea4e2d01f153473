// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * CUDA toolkits: every installation under /usr/local/cuda*, /opt/cuda*, $CUDA_HOME,
 * $CUDA_PATH and the prefix of each nvcc on $PATH, deduplicated by resolved path, written
 * to runtime.cuda_toolkits[]. The version comes from files first, and says which gave it:
 *   version.json  ("cuda": {"version": "12.4.1"}; CUDA >= 11.1 runfile/deb layout),
 *   version.txt   ("CUDA Version 10.2.89"; CUDA <= 11.0),
 *   dist-info/nvidia_cuda_runtime-<v>.dist-info (a toolkit assembled from pip wheels,
 *                 PEP 376 directory name),
 *   include/cuda_runtime_api.h  ("#define CUDART_VERSION 13000").
 * Components: cuDNN from include/cudnn_version.h (CUDNN_MAJOR/MINOR/PATCHLEVEL), NCCL from
 * include/nccl.h (NCCL_MAJOR/MINOR/PATCH), and the stub libcuda.so under lib64/stubs or lib/stubs, which
 * is for linking only and fails at run time with CUDA_ERROR_STUB_LIBRARY (cuda.h, 34).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "shared/parse.h"
#include "shared/strv.h"

#define MAX_TOOLKITS 32

/* "#define NAME value" → value, in a header text. */
static bool header_define(const char *text, const char *name, char *buf, size_t len)
{
	const char *p = text;
	size_t n = strlen(name);

	while ((p = strstr(p, "#define"))) {
		const char *q = p + 7;

		p = q;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, name, n) != 0 || (q[n] != ' ' && q[n] != '\t'))
			continue;
		q += n;
		while (*q == ' ' || *q == '\t')
			q++;
		n = strcspn(q, " \t\r\n/");
		if (n == 0 || n >= len)
			return false;
		memcpy(buf, q, n);
		buf[n] = '\0';
		return true;
	}
	return false;
}

static void probe_header_version(struct probe_env *pe, struct snap_node *tk, const char *prefix,
				 const char *key, const char *header, const char *const names[3])
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	char a[16], b[16], c[16];
	int err;

	if (asprintf(&path, "%s/include/%s", prefix, header) < 0)
		return;
	err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);
	if (err < 0) {
		snap_set_errno(tk, key, err, path);
		return;
	}
	if (!header_define(text, names[0], a, sizeof(a)) || !header_define(text, names[1], b, sizeof(b)) ||
	    !header_define(text, names[2], c, sizeof(c))) {
		snap_set_malformed(tk, key, NULL, path, "version macros not found");
		return;
	}
	snap_set_strf(tk, key, path, "%s.%s.%s", a, b, c);
}

static bool version_from_json(struct probe_env *pe, struct snap_node *tk, const char *prefix)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	json_t *j, *v;
	int err;

	if (asprintf(&path, "%s/version.json", prefix) < 0)
		return false;
	err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);
	if (err == -ENOENT)
		return false;
	if (err < 0) {
		snap_set_errno(tk, "version_json", err, path);
		return false;
	}
	j = json_loads(text, 0, NULL);
	v = json_object_get(json_object_get(j, "cuda"), "version");
	if (!json_is_string(v)) {
		/* Recorded, then the next source is tried. */
		snap_set_malformed(tk, "version_json", text, path, "no cuda.version string");
		json_decref(j);
		return false;
	}
	snap_set_str(tk, "version", json_string_value(v), path);
	json_decref(j);
	return true;
}

static bool version_from_txt(struct probe_env *pe, struct snap_node *tk, const char *prefix)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	struct version v;
	const char *p;

	if (asprintf(&path, "%s/version.txt", prefix) < 0)
		return false;
	if (root_read_text(pe->root, path, ROOT_CAP_ATTR, &text) < 0)
		return false;
	p = strstr(text, "CUDA Version ");
	if (!p || version_parse_prefix(p + 13, &v, NULL) < 0) {
		snap_set_malformed(tk, "version_txt", text, path, "no \"CUDA Version X.Y\"");
		return false;
	}
	snap_set_str(tk, "version", strtok(strstrip((char *)p + 13), " \n"), path);
	return true;
}

static bool version_from_dist_info(struct probe_env *pe, struct snap_node *tk, const char *prefix)
{
	_cleanup_free_ char *dir = NULL;
	_cleanup_strv_free_ char **names = NULL;
	static const char want[] = "nvidia_cuda_runtime-";

	if (asprintf(&dir, "%s/dist-info", prefix) < 0)
		return false;
	if (root_list_dir(pe->root, dir, 4096, &names) < 0)
		return false;
	STRV_FOREACH(n, names) {
		struct version v;
		const char *end;

		if (!startswith(*n, want))
			continue;
		if (version_parse_prefix(*n + strlen(want), &v, &end) < 0 || strcmp(end, ".dist-info"))
			continue;
		{
			_cleanup_free_ char *src = NULL, *ver = strndup(*n + strlen(want),
								      (size_t)(end - (*n + strlen(want))));

			if (ver && asprintf(&src, "%s/%s", dir, *n) >= 0)
				snap_set_str(tk, "version", ver, src);
		}
		return true;
	}
	return false;
}

static bool version_from_header(struct probe_env *pe, struct snap_node *tk, const char *prefix)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	char buf[16];
	unsigned v;

	if (asprintf(&path, "%s/include/cuda_runtime_api.h", prefix) < 0)
		return false;
	if (root_read_text(pe->root, path, ROOT_CAP_TEXT, &text) < 0)
		return false;
	if (!header_define(text, "CUDART_VERSION", buf, sizeof(buf)) || parse_uint(buf, 10, &v) < 0)
		return false;
	/* CUDART_VERSION = 1000 * major + 10 * minor (cuda_runtime_api.h). */
	snap_set_strf(tk, "version", path, "%u.%u", v / 1000, (v % 1000) / 10);
	return true;
}

static void probe_stub(struct probe_env *pe, struct snap_node *tk, const char *prefix)
{
	static const char *const dirs[] = { "lib64/stubs", "lib/stubs", "targets/x86_64-linux/lib/stubs" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		_cleanup_free_ char *path = NULL, *resolved = NULL;
		struct stat st;

		if (asprintf(&path, "%s/%s/libcuda.so", prefix, dirs[i]) < 0)
			return;
		if (root_stat(pe->root, path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (root_resolve(pe->root, path, &resolved) == 0)
				snap_set_str(tk, "stub_libcuda", resolved, path);
			return;
		}
	}
	snap_set_state(tk, "stub_libcuda", FACT_ABSENT, prefix, NULL);
}

static void probe_one(struct probe_env *pe, struct snap_node *tk, const char *prefix,
		      const char *resolved, char **via)
{
	static const char *const cudnn[] = { "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL" };
	static const char *const nccl[] = { "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH" };
	struct snap_node *vias = snap_array(tk, "found_via");
	_cleanup_free_ char *nvcc = NULL;
	struct stat st;

	snap_set_str(tk, "path", prefix, prefix);
	snap_set_str(tk, "resolved_path", resolved, prefix);
	STRV_FOREACH(v, via)
		snap_append_str(vias, *v, NULL);
	if (!version_from_json(pe, tk, resolved) && !version_from_txt(pe, tk, resolved) &&
	    !version_from_dist_info(pe, tk, resolved) && !version_from_header(pe, tk, resolved))
		snap_set_state(tk, "version", FACT_ABSENT, resolved,
			       "no version.json, version.txt, dist-info or cuda_runtime_api.h");
	if (asprintf(&nvcc, "%s/bin/nvcc", resolved) >= 0) {
		if (root_stat(pe->root, nvcc, &st) == 0 && S_ISREG(st.st_mode))
			snap_set_str(tk, "nvcc", nvcc, nvcc);
		else
			snap_set_state(tk, "nvcc", FACT_ABSENT, nvcc, NULL);
	}
	probe_header_version(pe, tk, resolved, "cudnn_version", "cudnn_version.h", cudnn);
	probe_header_version(pe, tk, resolved, "nccl_version", "nccl.h", nccl);
	probe_stub(pe, tk, resolved);
}

/* A toolkit prefix has the runtime header or a version file; a bare bin/nvcc wrapper does not. */
static bool looks_like_toolkit(struct probe_env *pe, const char *prefix)
{
	static const char *const marks[] = { "include/cuda_runtime_api.h", "version.json", "version.txt" };

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		_cleanup_free_ char *p = NULL;
		struct stat st;

		if (asprintf(&p, "%s/%s", prefix, marks[i]) >= 0 && root_stat(pe->root, p, &st) == 0)
			return true;
	}
	return false;
}

struct candidate {
	char *path, *resolved;
	char **via;
};

static int add_candidate(struct probe_env *pe, struct candidate *c, size_t *n, const char *path,
			 const char *via)
{
	_cleanup_free_ char *resolved = NULL;
	struct stat st;

	if (root_resolve(pe->root, path, &resolved) < 0 || root_stat(pe->root, resolved, &st) < 0 ||
	    !S_ISDIR(st.st_mode) || !looks_like_toolkit(pe, resolved))
		return 0;
	for (size_t i = 0; i < *n; i++)
		if (strcmp(c[i].resolved, resolved) == 0)
			return strv_contains(c[i].via, via) ? 0 : strv_push(&c[i].via, via);
	if (*n >= MAX_TOOLKITS)
		return 0;
	c[*n].path = strdup(path);
	c[*n].resolved = TAKE_PTR(resolved);
	c[*n].via = NULL;
	if (!c[*n].path || strv_push(&c[*n].via, via) < 0)
		return -ENOMEM;
	(*n)++;
	return 0;
}

int probe_cuda_toolkit(struct probe_env *pe, struct snapshot *s)
{
	struct snap_node *arr = snap_array(snap_object(snapshot_root(s), "runtime"), "cuda_toolkits");
	struct candidate c[MAX_TOOLKITS] = { 0 };
	static const char *const parents[] = { "/usr/local", "/opt" };
	static const char *const vars[] = { "CUDA_HOME", "CUDA_PATH" };
	const char *path_env = env_get(pe->env, "PATH");
	size_t n = 0;
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(vars) && !err; i++) {
		const char *v = env_get(pe->env, vars[i]);

		if (v && v[0] == '/')
			err = add_candidate(pe, c, &n, v, vars[i]);
	}
	if (path_env && !err) {
		_cleanup_strv_free_ char **dirs = NULL;

		err = strv_split(path_env, ":", &dirs);
		STRV_FOREACH(d, dirs) {
			_cleanup_free_ char *nvcc = NULL, *prefix = NULL;
			char *slash;
			struct stat st;

			if (err || (*d)[0] != '/' || asprintf(&nvcc, "%s/nvcc", *d) < 0)
				continue;
			if (root_stat(pe->root, nvcc, &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			/* <prefix>/bin/nvcc: the toolkit is the bin directory's parent (resolved). */
			if (root_resolve(pe->root, nvcc, &prefix) < 0)
				continue;
			slash = strrchr(prefix, '/');
			if (slash)
				*slash = '\0';
			slash = strrchr(prefix, '/');
			if (slash && slash != prefix)
				*slash = '\0';
			err = add_candidate(pe, c, &n, prefix, "PATH nvcc");
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(parents) && !err; i++) {
		_cleanup_strv_free_ char **names = NULL;

		if (root_list_dir(pe->root, parents[i], 4096, &names) < 0)
			continue;
		STRV_FOREACH(nm, names) {
			_cleanup_free_ char *p = NULL;

			if (!startswith(*nm, "cuda") || asprintf(&p, "%s/%s", parents[i], *nm) < 0)
				continue;
			err = add_candidate(pe, c, &n, p, parents[i]);
			if (err)
				break;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (!err)
			probe_one(pe, snap_append_object(arr), c[i].path, c[i].resolved, c[i].via);
		free(c[i].path);
		free(c[i].resolved);
		strv_free(c[i].via);
	}
	return err ? err : snapshot_error(s);
}
