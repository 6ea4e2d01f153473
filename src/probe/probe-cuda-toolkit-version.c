// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The version of one CUDA toolkit and of its components, from the directories
 * probe-cuda-toolkit.c listed (struct tk_files). The toolkit's version comes from files
 * first, and version_source says which gave it:
 *   version.json  ("cuda": {"version": "12.4.1"}; CUDA >= 11.1 runfile/deb layout),
 *   version.txt   ("CUDA Version 10.2.89"; CUDA <= 11.0),
 *   the package records: dist-info/nvidia_cuda_runtime-<v>.dist-info (PEP 376 directory name;
 *                 a toolkit assembled from pip wheels, or the wheel's site-packages), or
 *                 conda-meta/cuda-version-<v>-<build>.json (conda docs, "pkg-specs"),
 *   libcudart.so.X.Y.Z (the file name; the SONAME libcudart.so.12 says only the major),
 *   include/cuda_runtime_api.h ("#define CUDART_VERSION 13000"),
 *   bin/nvcc      the "Cuda compilation tools, release 13.0, V13.0.88" string that
 *                 `nvcc --version` prints, read from the binary's bytes (never run: see
 *                 nvcc_embedded_version()), only when no file above gave a version.
 * Components (cudart, cuBLAS, cuBLASLt, cuDNN, NCCL, cuFFT, cuSPARSE, nvJitLink, NVRTC,
 * TensorRT): version from the header macros (cudnn_version.h CUDNN_MAJOR…, nccl.h, cublas_api.h,
 * cufft.h, cusparse.h, NvInferVersion.h), else the package record, else the library file name;
 * and the library file names found.
 */
#include <elf.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe-cuda-toolkit.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strv.h"
#include "formats/toolkit-parse.h"

#define HEADER_HEAD   ((size_t)64 << 10)  /* version macros sit near the top of every header */
#define NVCC_MAX_SIZE ((size_t)512 << 20) /* nvcc 13.0 is 30 MB */
#define NVCC_LINE_MAX 160u

/* clang-format off */
struct component {
	const char *key;
	const char *headers[2];
	const char *macros[3]; /* MAJOR, MINOR, PATCH; or one CUDA-encoded integer */
	size_t n_macros;
	const char *lib;       /* file name base */
	const char *pip;       /* dist-info base (with or without a _cu<N> suffix) */
	const char *conda[2];  /* conda-meta package names */
	const char *vjson;     /* its key in version.json (CUDA >= 11.1 runfile/deb) */
};

static const struct component components[] = {
	{ "cudart", { "cuda_runtime_api.h" }, { "CUDART_VERSION" }, 1,
	  "libcudart.so", "nvidia_cuda_runtime",
	  { "cuda-cudart", "cudatoolkit" }, "cuda_cudart" },
	{ "cublas", { "cublas_api.h" },
	  { "CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR", "CUBLAS_VER_PATCH" }, 3,
	  "libcublas.so", "nvidia_cublas", { "libcublas" }, "libcublas" },
	{ "cublaslt", { "cublas_api.h" },
	  { "CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR", "CUBLAS_VER_PATCH" }, 3,
	  "libcublasLt.so", "nvidia_cublas", { "libcublas" }, "libcublas" },
	{ "cudnn", { "cudnn_version.h", "cudnn.h" },
	  { "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL" }, 3,
	  "libcudnn.so", "nvidia_cudnn", { "cudnn" }, NULL },
	{ "nccl", { "nccl.h" }, { "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH" }, 3,
	  "libnccl.so", "nvidia_nccl", { "nccl" }, NULL },
	{ "cufft", { "cufft.h" },
	  { "CUFFT_VER_MAJOR", "CUFFT_VER_MINOR", "CUFFT_VER_PATCH" }, 3,
	  "libcufft.so", "nvidia_cufft", { "libcufft" }, "libcufft" },
	{ "cusparse", { "cusparse.h" },
	  { "CUSPARSE_VER_MAJOR", "CUSPARSE_VER_MINOR", "CUSPARSE_VER_PATCH" }, 3,
	  "libcusparse.so", "nvidia_cusparse", { "libcusparse" }, "libcusparse" },
	{ "nvjitlink", { "nvJitLink.h" }, { NULL }, 0,
	  "libnvJitLink.so", "nvidia_nvjitlink", { "libnvjitlink" }, "libnvjitlink" },
	{ "nvrtc", { "nvrtc.h" }, { NULL }, 0,
	  "libnvrtc.so", "nvidia_cuda_nvrtc", { "cuda-nvrtc" }, "cuda_nvrtc" },
	{ "tensorrt", { "NvInferVersion.h" },
	  { "NV_TENSORRT_MAJOR", "NV_TENSORRT_MINOR", "NV_TENSORRT_PATCH" }, 3,
	  "libnvinfer.so", "tensorrt", { "tensorrt", "libnvinfer" }, NULL },
};
/* clang-format on */

/* The first HEADER_HEAD bytes of a regular file, NUL-terminated (headers run to 600 KiB;
 * the version macros are near the top). A FIFO or device is refused (root_file_open()) and
 * never waited on. */
static int read_head(struct probe_env *pe, const char *path, char **ret, size_t *ret_len)
{
	_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
	_cleanup_free_ char *buf = NULL;
	ssize_t n;
	int r = root_file_open(pe->root, path, SIZE_MAX, &f);

	if (r < 0)
		return r;
	buf = malloc(HEADER_HEAD + 1);
	if (!buf)
		return -ENOMEM;
	n = root_file_pread(&f, buf, HEADER_HEAD, 0);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = (size_t)n;
	return 0;
}

/* The package record (dist-info or conda-meta) of one of names[]: its version and path. */
static bool pkg_record(const struct tk_files *f, const char *pip, const char *const *conda,
		       size_t n_conda, char *ver, size_t len, char **ret_src)
{
	STRV_FOREACH(n, f->pkg_names) {
		bool hit = false;

		if (f->kind == TK_CONDA) {
			for (size_t i = 0; i < n_conda && conda[i] && !hit; i++)
				hit = probe_conda_meta_match(*n, conda[i], ver, len);
		} else if (pip) {
			hit = probe_dist_info_match(*n, pip, ver, len);
		}
		if (hit)
			return asprintf(ret_src, "%s/%s", f->pkg_dir, *n) >= 0;
	}
	return false;
}

struct header_result {
	char version[PROBE_VERSION_MAX];
	char *path; /* the header read, or NULL */
	int err;    /* why no version came from it */
};

static void read_component_header(struct probe_env *pe, const struct tk_files *f,
				  const struct component *c, struct snap_node *headers,
				  struct header_result *h)
{
	h->err = -ENOENT;
	for (size_t i = 0; i < f->n_inc && !h->path; i++)
		for (size_t j = 0; j < ARRAY_SIZE(c->headers) && c->headers[j] && !h->path; j++) {
			_cleanup_free_ char *p = NULL, *text = NULL;
			size_t len = 0;
			int r;

			if (asprintf(&p, "%s/%s", f->inc_dirs[i], c->headers[j]) < 0)
				return;
			r = read_head(pe, p, &text, &len);
			if (r == -ENOENT)
				continue;
			snap_append_str(headers, c->headers[j], p);
			h->path = TAKE_PTR(p);
			h->err = r;
			if (r < 0 || c->n_macros == 0)
				break;
			if (c->n_macros == 1) {
				char buf[24];
				unsigned v;

				r = probe_header_define(text, len, c->macros[0], buf, sizeof(buf));
				if (r == 0 && parse_uint(buf, 10, &v) == 0)
					cuda_version_format((int)v, h->version, sizeof(h->version));
				else
					r = r ? r : -EBADMSG;
			} else {
				r = probe_header_version(text, len, c->macros, c->n_macros,
							 h->version, sizeof(h->version));
			}
			h->err = r;
		}
}

static void probe_component(struct probe_env *pe, struct snap_node *comps, const struct tk_files *f,
			    const struct component *c, const char *prefix,
			    const struct snap_node *unlisted)
{
	struct snap_node *o = snap_object(comps, c->key);
	struct snap_node *libs = snap_array(o, "libraries");
	struct snap_node *headers = snap_array(o, "headers");
	struct header_result h = { .err = -ENOENT };
	const char *best = NULL, *best_dir = NULL, *lv;
	_cleanup_free_ char *rec_src = NULL, *lib_src = NULL;
	char rec[PROBE_VERSION_MAX];
	bool any_lib = false;

	for (size_t i = 0; i < f->n_lib; i++)
		STRV_FOREACH(n, f->lib_names[i])
			if (probe_lib_name_match(*n, c->lib, &lv)) {
				snap_append_str(libs, *n, f->lib_dirs[i]);
				any_lib = true;
			}
	read_component_header(pe, f, c, headers, &h);

	/* Exact header macros (three fields) first: they name the release the headers are of. */
	if (h.err == 0 && h.version[0] && c->n_macros >= 3) {
		snap_set_str(o, "version", h.version, h.path);
	} else if (pkg_record(f, c->pip, c->conda, ARRAY_SIZE(c->conda), rec, sizeof(rec),
			      &rec_src)) {
		snap_set_str(o, "version", rec, rec_src);
	} else if (c->vjson && json_is_string(json_object_get(
				       json_object_get(f->version_json, c->vjson), "version"))) {
		snap_set_str(o, "version",
			     json_string_value(json_object_get(
				     json_object_get(f->version_json, c->vjson), "version")),
			     f->version_json_path);
	} else if (probe_lib_best(f->lib_names, f->lib_dirs, f->n_lib, c->lib, &best, &best_dir,
				  &lv) &&
		   probe_version_fields(lv) >= 3) {
		if (asprintf(&lib_src, "%s/%s", best_dir, best) >= 0)
			snap_set_str(o, "version", lv, lib_src);
	} else if (h.err == 0 && h.version[0]) {
		snap_set_str(o, "version", h.version, h.path);
	} else if (h.path && h.err != 0 && h.err != -EBADMSG && h.err != -ENOENT) {
		snap_set_errno(o, "version", h.err, h.path);
	} else if (h.path && c->n_macros > 0) {
		snap_set_malformed(o, "version", NULL, h.path, "version macros not found");
	} else if (unlisted) {
		/* a library directory (or the package records) could not be listed: unknown */
		snap_set_state(o, "version", snap_state(unlisted), snap_source(unlisted),
			       snap_error(unlisted));
	} else {
		snap_set_state(o, "version", FACT_ABSENT, prefix,
			       any_lib || h.path
				       ? "no version macros, package record or versioned file name"
				       : "not in this toolkit");
	}
	free(h.path);
}

static bool version_from_json(struct probe_env *pe, struct tk_files *f, struct snap_node *tk,
			      const char *prefix, const char **ret_src)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	json_t *j, *v;

	if (probe_read_optional(pe->root, prefix, "version.json", ROOT_CAP_TEXT, tk, "version_json",
				&path, &text) < 0)
		return false;
	j = json_loads(text, 0, NULL);
	/* Kept for the components' entries ("libcublas": {"version": "12.4.5.8"}). */
	if (json_is_object(j) && !f->version_json) {
		f->version_json = json_incref(j);
		f->version_json_path = strdup(path);
	}
	v = json_object_get(json_object_get(j, "cuda"), "version");
	if (!json_is_string(v)) {
		/* Recorded, then the next source is tried. */
		snap_set_malformed(tk, "version_json", text, path,
				   j ? "no cuda.version string" : "not JSON");
		json_decref(j);
		return false;
	}
	snap_set_str(tk, "version", json_string_value(v), path);
	json_decref(j);
	*ret_src = "version.json";
	return true;
}

static bool version_from_txt(struct probe_env *pe, struct snap_node *tk, const char *prefix,
			     const char **ret_src)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	char buf[PROBE_VERSION_MAX];
	const char *p;

	if (probe_read_optional(pe->root, prefix, "version.txt", ROOT_CAP_ATTR, tk, "version_txt",
				&path, &text) < 0)
		return false;
	p = strstr(text, "CUDA Version ");
	if (!p || probe_version_line(p + 13, strlen(p + 13), buf, sizeof(buf)) < 0) {
		snap_set_malformed(tk, "version_txt", text, path, "no \"CUDA Version X.Y\"");
		return false;
	}
	snap_set_str(tk, "version", buf, path);
	*ret_src = "version.txt";
	return true;
}

static bool version_from_records(const struct tk_files *f, struct snap_node *tk,
				 const char **ret_src)
{
	static const char *const conda_release[] = { "cuda-version" };
	static const char *const conda_runtime[] = { "cuda-cudart", "cudatoolkit" };
	_cleanup_free_ char *src = NULL;
	char ver[PROBE_VERSION_MAX];

	/* conda's cuda-version pins the release; cuda-cudart / cudatoolkit are the runtime. */
	if ((f->kind == TK_CONDA &&
	     pkg_record(f, NULL, conda_release, 1, ver, sizeof(ver), &src)) ||
	    pkg_record(f, "nvidia_cuda_runtime", conda_runtime, 2, ver, sizeof(ver), &src)) {
		snap_set_str(tk, "version", ver, src);
		*ret_src = f->kind == TK_CONDA ? "conda-meta" : "dist-info";
		return true;
	}
	return false;
}

static bool version_from_libcudart(const struct tk_files *f, struct snap_node *tk,
				   const char **ret_src)
{
	_cleanup_free_ char *src = NULL;
	const char *name, *dir, *v;

	if (!probe_lib_best(f->lib_names, f->lib_dirs, f->n_lib, "libcudart.so", &name, &dir, &v) ||
	    probe_version_fields(v) < 3 || asprintf(&src, "%s/%s", dir, name) < 0)
		return false;
	snap_set_str(tk, "version", v, src);
	*ret_src = "libcudart file name";
	return true;
}

static bool version_from_header(struct probe_env *pe, const struct tk_files *f,
				struct snap_node *tk, const char **ret_src)
{
	for (size_t i = 0; i < f->n_inc; i++) {
		_cleanup_free_ char *path = NULL, *text = NULL;
		char buf[24], ver[PROBE_VERSION_MAX];
		size_t len = 0;
		unsigned v;

		if (asprintf(&path, "%s/cuda_runtime_api.h", f->inc_dirs[i]) < 0 ||
		    read_head(pe, path, &text, &len) < 0)
			continue;
		if (probe_header_define(text, len, "CUDART_VERSION", buf, sizeof(buf)) < 0 ||
		    parse_uint(buf, 10, &v) < 0)
			continue;
		/* CUDART_VERSION = 1000 * major + 10 * minor (cuda_runtime_api.h). */
		cuda_version_format((int)v, ver, sizeof(ver));
		snap_set_str(tk, "version", ver, path);
		*ret_src = "cuda_runtime_api.h";
		return true;
	}
	return false;
}

/*
 * nvcc's version from its own bytes. `nvcc --version` prints a string constant of the binary
 * ("Cuda compilation tools, release 13.0, V13.0.88", in .rodata, as `strings nvcc` shows),
 * so reading the file gives the same line without running anything: the nvcc found through
 * CUDA_HOME or PATH is chosen by the input (an --env-file, a --sysroot tree, the environment
 * of the judged process) and gpuenv never executes a program its input chose. In an ELF
 * file only .rodata is searched (found through the section headers, ELF-64 gABI; in nvcc 13.0
 * the string lies 40 KB into a 2.5 MB .rodata at 23.7 MB of a 30 MB file), else the whole
 * file; in 1 MiB windows that overlap (the needle may straddle two), at most NVCC_MAX_SIZE.
 */
static void nvcc_rodata(const struct root_file *f, uint64_t *start, uint64_t *end)
{
	_cleanup_free_ Elf64_Shdr *sh = NULL;
	Elf64_Ehdr eh;
	char names[4096];
	ssize_t n;

	if (root_file_pread(f, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shnum == 0 || eh.e_shnum > 1024 || eh.e_shstrndx >= eh.e_shnum)
		return;
	sh = calloc(eh.e_shnum, sizeof(*sh));
	if (!sh || root_file_pread(f, sh, eh.e_shnum * sizeof(*sh), eh.e_shoff) !=
			   (ssize_t)(eh.e_shnum * sizeof(*sh)))
		return;
	n = root_file_pread(f, names, sizeof(names) - 1, sh[eh.e_shstrndx].sh_offset);
	if (n <= 0)
		return;
	names[n] = '\0';
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (sh[i].sh_name >= (uint64_t)n || strcmp(names + sh[i].sh_name, ".rodata") != 0 ||
		    sh[i].sh_type != SHT_PROGBITS || sh[i].sh_offset >= f->size ||
		    sh[i].sh_size > f->size - sh[i].sh_offset)
			continue;
		*start = sh[i].sh_offset;
		*end = sh[i].sh_offset + sh[i].sh_size;
		return;
	}
}

static int nvcc_embedded_version(struct probe_env *pe, const char *nvcc, char *ver, size_t len)
{
	static const char needle[] = "Cuda compilation tools, release ";
	const size_t nlen = sizeof(needle) - 1, window = (size_t)1 << 20;
	_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
	_cleanup_free_ char *buf = NULL;
	char release[PROBE_VERSION_MAX];
	int r = root_file_open(pe->root, nvcc, NVCC_MAX_SIZE, &f);
	uint64_t start = 0, end;

	if (r < 0)
		return r;
	end = f.size;
	buf = malloc(window + 1);
	if (!buf)
		return -ENOMEM;
	nvcc_rodata(&f, &start, &end);
	for (uint64_t off = start; off < end;) {
		ssize_t n = root_file_pread(&f, buf, MIN(window, end - off), off);
		const char *p;

		if (n < 0)
			return (int)n;
		p = memmem(buf, (size_t)n, needle, nlen);
		if (p) {
			/* The line with its tail (", V13.0.88"), up to the string's NUL. */
			n = root_file_pread(&f, buf, NVCC_LINE_MAX, off + (uint64_t)(p - buf));
			if (n < 0)
				return (int)n;
			buf[n] = '\0';
			return probe_parse_nvcc_version(buf, strlen(buf), release, sizeof(release),
							ver, len);
		}
		if ((size_t)n < MIN(window, end - off) || off + (uint64_t)n >= end)
			break;
		off += (size_t)n - (nlen - 1);
	}
	return -ENODATA;
}

/* nvcc_version from the binary's embedded version string; true when it gave one. */
static bool read_nvcc_version(struct probe_env *pe, struct snap_node *tk, const char *nvcc,
			      char *ver, size_t len)
{
	int r = nvcc_embedded_version(pe, nvcc, ver, len);

	if (r == -ENOMEM)
		return false;
	if (r == -ENODATA || r == -EBADMSG) {
		/* A wrapper script, a stand-in, or a build that spells it differently. */
		snap_set_malformed(tk, "nvcc_version", NULL, nvcc,
				   "no \"Cuda compilation tools, release X.Y\" string in the file");
		return false;
	}
	if (r < 0) {
		snap_set_errno(tk, "nvcc_version", r, nvcc);
		return false;
	}
	snap_set_str(tk, "nvcc_version", ver, nvcc);
	return true;
}
/* Legacy keys (schema 1): cudnn_version / nccl_version straight from the header. */
static void probe_header_fact(struct probe_env *pe, struct snap_node *tk, const char *prefix,
			      const char *key, const char *header, const char *const names[3])
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	char ver[PROBE_VERSION_MAX];
	size_t len = 0;
	int err;

	if (asprintf(&path, "%s/include/%s", prefix, header) < 0)
		return;
	err = read_head(pe, path, &text, &len);
	if (err < 0) {
		snap_set_errno(tk, key, err, path);
		return;
	}
	if (probe_header_version(text, len, names, 3, ver, sizeof(ver)) < 0) {
		snap_set_malformed(tk, key, NULL, path, "version macros not found");
		return;
	}
	snap_set_str(tk, key, ver, path);
}

/* The first directory of the toolkit that could not be listed (unlisted[]: its lib64/,
 * conda-meta/ … may hold libcudart.so.X.Y.Z or a package record), or NULL. */
static const struct snap_node *first_unlisted(const struct snap_node *tk)
{
	return snap_child(snap_at(snap_child(tk, "unlisted"), 0), "path");
}

/* version.json, version.txt or bin/nvcc, when a read (or a look) at it failed (unreadable or an
 * I/O error), else a directory that could not be listed. */
static bool unread_version_file(const struct snap_node *tk, const struct snap_node **ret)
{
	static const char *const keys[] = { "version_json", "version_txt", "nvcc_version" };

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct snap_node *n = snap_child(tk, keys[i]);
		enum fact_state st = snap_state(n);

		if (n && (st == FACT_UNREADABLE || st == FACT_ERROR)) {
			*ret = n;
			return true;
		}
	}
	*ret = first_unlisted(tk);
	return *ret != NULL;
}

int probe_cudnn_header_version(struct probe_env *pe, const char *inc_dir, char *ver, size_t len,
			       char **ret_path)
{
	/* cuDNN 8 on: cudnn_version.h (cudnn.h includes it and defines no version); cuDNN 7 and
	 * older: cudnn.h itself ("#define CUDNN_MAJOR 7", cuDNN 7 installation guide's check
	 * `cat cudnn.h | grep CUDNN_MAJOR -A 2`). */
	static const char *const headers[] = { "cudnn_version.h", "cudnn.h" };
	static const char *const names[] = { "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL" };
	_cleanup_free_ char *err_path = NULL;
	int err = -ENOENT;

	for (size_t i = 0; i < ARRAY_SIZE(headers); i++) {
		_cleanup_free_ char *path = path_join(inc_dir, headers[i]), *text = NULL;
		size_t n = 0;
		int r;

		if (!path)
			return -ENOMEM;
		r = read_head(pe, path, &text, &n);
		if (r == -ENOMEM)
			return r;
		if (r == 0 && probe_header_version(text, n, names, 3, ver, len) == 0) {
			*ret_path = TAKE_PTR(path);
			return 0;
		}
		if (r == 0)
			r = -EBADMSG;
		/* The first file that is there but says nothing usable is the answer's source;
		 * an unreadable one outranks a header without the macros. */
		if (!err_path || (err != r && r != -ENOENT && r != -EBADMSG) ||
		    (err == -ENOENT && r != -ENOENT)) {
			free(err_path);
			err_path = TAKE_PTR(path);
			err = r;
		}
	}
	*ret_path = TAKE_PTR(err_path);
	return err;
}

/* version, version_source, release: from the first file that gives one, else from the
 * string in bin/nvcc; nvcc_version says whether nvcc was read. */
void tk_read_version(struct probe_env *pe, struct tk_files *f, struct snap_node *tk,
		     const char *prefix, const char *nvcc)
{
	const struct snap_node *unread;
	const char *vsrc = NULL;
	char nvcc_ver[PROBE_VERSION_MAX];
	int r;

	if (version_from_json(pe, f, tk, prefix, &vsrc) ||
	    version_from_txt(pe, tk, prefix, &vsrc) || version_from_records(f, tk, &vsrc) ||
	    version_from_libcudart(f, tk, &vsrc) || version_from_header(pe, f, tk, &vsrc)) {
		_cleanup_free_ char *why = NULL;

		if (asprintf(&why, "not read: %s gave the version", vsrc) >= 0)
			snap_set_state(tk, "nvcc_version", FACT_UNPROBED, nvcc, why);
	} else if ((r = probe_path_test(pe, nvcc, S_IFREG)) < 0) {
		/* EACCES, ELOOP …: there may be an nvcc; its version is unknown, not absent */
		snap_set_errno(tk, "nvcc_version", r, nvcc);
	} else if (r == 0) {
		snap_set_state(tk, "nvcc_version", FACT_ABSENT, nvcc, "no bin/nvcc");
	} else if (read_nvcc_version(pe, tk, nvcc, nvcc_ver, sizeof(nvcc_ver))) {
		snap_set_str(tk, "version", nvcc_ver, nvcc);
		vsrc = "nvcc version string";
	}
	if (vsrc) {
		const char *ver = snap_str(snap_child(tk, "version")),
			   *vs = snap_source(snap_child(tk, "version"));
		struct version v;

		snap_set_str(tk, "version_source", vsrc, vs);
		/* Every source agrees on major.minor: the release (cuda_driver_min.tsv's key). */
		if (ver && version_parse_prefix(ver, &v, NULL) == 0 && v.n >= 2)
			snap_set_strf(tk, "release", vs, "%u.%u", v.part[0], v.part[1]);
		else
			snap_set_malformed(tk, "release", ver, vs, "no major.minor in the version");
	} else if (unread_version_file(tk, &unread)) {
		/* The version file is there but could not be read, and nothing else said the
		 * version: it is unknown, not missing (the rules skip, naming the file). */
		const char *src = snap_source(unread);

		snap_set_state(tk, "version", snap_state(unread), src, snap_error(unread));
		snap_set_state(tk, "version_source", snap_state(unread), src, snap_error(unread));
		snap_set_state(tk, "release", snap_state(unread), src, snap_error(unread));
	} else {
		snap_set_state(tk, "version", FACT_ABSENT, prefix,
			       "no version.json, version.txt, package record, libcudart.so.X.Y.Z, "
			       "cuda_runtime_api.h or version string in bin/nvcc");
		snap_set_state(tk, "version_source", FACT_ABSENT, prefix, NULL);
		snap_set_state(tk, "release", FACT_ABSENT, prefix, NULL);
	}
}

void tk_read_components(struct probe_env *pe, const struct tk_files *f, struct snap_node *tk,
			const char *prefix)
{
	static const char *const nccl[] = { "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH" };
	struct snap_node *comps = snap_object(tk, "components");

	for (size_t i = 0; i < ARRAY_SIZE(components); i++)
		probe_component(pe, comps, f, &components[i], prefix, first_unlisted(tk));
	{
		_cleanup_free_ char *inc = path_join(prefix, "include"), *path = NULL;
		char ver[PROBE_VERSION_MAX];
		int r = inc ? probe_cudnn_header_version(pe, inc, ver, sizeof(ver), &path)
			    : -ENOMEM;

		if (r == 0)
			snap_set_str(tk, "cudnn_version", ver, path);
		else if (r == -EBADMSG)
			snap_set_malformed(tk, "cudnn_version", NULL, path,
					   "version macros not found");
		else if (path)
			snap_set_errno(tk, "cudnn_version", r, path);
	}
	probe_header_fact(pe, tk, prefix, "nccl_version", "nccl.h", nccl);
}
