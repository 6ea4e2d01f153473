/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The text parsers of the CUDA toolkit and ROCm probes. Pure functions over (text, len) that
 * need not be NUL-terminated: no I/O, every output bounded by its buffer; fuzzed by
 * tests/fuzz/fuzz-toolkit-text.c. Formats:
 *   C headers: "#define NAME VALUE" lines (cudnn_version.h CUDNN_MAJOR…, nccl.h NCCL_MAJOR…,
 *     cublas_api.h CUBLAS_VER_MAJOR…, NvInferVersion.h NV_TENSORRT_MAJOR, which TensorRT 10
 *     defines as TRT_MAJOR_ENTERPRISE: one level of indirection is followed),
 *   `nvcc --version` output ("Cuda compilation tools, release 13.0, V13.0.88"),
 *   shared-library file names ("libcudnn.so.9.19.0", "libamdhip64.so.6.2.60200"),
 *   PEP 376 / PEP 427 .dist-info directory names ("nvidia_cudnn_cu13-9.19.0.56.dist-info"),
 *   conda-meta record names ("<name>-<version>-<build>.json", conda docs "pkg-specs"),
 *   KEY=VALUE files (ROCm bin/.hipVersion, share/hip/version, written by HIP's CMake),
 *   dpkg's status file (deb-control(5)).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROBE_VERSION_MAX 64

/* The value token of "#define name VALUE", following one "#define name OTHER_NAME".
 * -ENOENT when not defined, -EBADMSG when the value is empty or does not fit. */
int probe_header_define(const char *text, size_t len, const char *name, char *buf, size_t buflen);
/* names[0..n-1] (n <= 4) must each be a decimal number: "9.19.0". -ENOENT / -EBADMSG. */
int probe_header_version(const char *text, size_t len, const char *const *names, size_t n,
			 char *buf, size_t buflen);
/* `nvcc --version` output → release ("13.0") and, when the "V13.0.88" field is there, the
 * full version (else the release again). -EBADMSG when there is no release field. */
int probe_parse_nvcc_version(const char *text, size_t len, char *release, size_t rlen, char *full,
			     size_t flen);
/* "libcudnn.so.9.19.0" against base "libcudnn.so": true, *ret_ver = "9.19.0" (points into
 * name; "" for the bare base). False for other names ("libcudnn_ops.so.9", "libcudnn.so.x"). */
bool probe_lib_name_match(const char *name, const char *base, const char **ret_ver);
/* Number of dot-separated fields of a version suffix ("9.19.0" → 3, "" → 0). */
unsigned probe_version_fields(const char *ver);
/* Over the listings names[i] of directories dirs[i] (i < n; a NULL listing is empty): the file
 * matching base (probe_lib_name_match) with the longest version suffix, the first of equals
 * ("libcudart.so.12.4.127" over "libcudart.so.12"). ret_ver may be NULL. */
bool probe_lib_best(char **const *names, char *const *dirs, size_t n, const char *base,
		    const char **ret_name, const char **ret_dir, const char **ret_ver);
/* "<base>[_cu<N>][_libs]-<version>.dist-info" → version. */
bool probe_dist_info_match(const char *name, const char *base, char *ver, size_t len);
/* "<base>-<version>-<build>.json" (conda-meta) → version; base must be the whole name. */
bool probe_conda_meta_match(const char *name, const char *base, char *ver, size_t len);
/* The value of "KEY=VALUE" (first match, trimmed) in a text of lines. -ENOENT / -EBADMSG. */
int probe_kv_value(const char *text, size_t len, const char *key, char *buf, size_t buflen);
/* The first line, trimmed, when it starts with a dotted version ("6.2.0-66"). -EBADMSG. */
int probe_version_line(const char *text, size_t len, char *buf, size_t buflen);

/* dpkg's status file (deb-control(5) stanzas, /var/lib/dpkg/status): the Version of an
 * installed ("Status: install ok installed") package. -ENOENT when not installed. */
int probe_dpkg_status_version(const char *text, size_t len, const char *package, char *buf,
			      size_t buflen);
/* The same answers from one pass over the file: every "Package:" line's stanza, sorted by
 * name (file order among equal names), so that each query is a binary search instead of a
 * search of the whole file (a live doctor asked five times: ~10% of its instructions). The
 * index points into text, which must outlive it. At most DPKG_INDEX_MAX stanzas: past that
 * (no real system has near as many) *ret is left empty and -E2BIG returned; the caller then
 * searches the text (probe_dpkg_status_version()). */
#define DPKG_INDEX_MAX 200000u
struct dpkg_index_entry {
	uint32_t name_off, name_len, ver_off, ver_len, order;
	bool installed, has_version;
};
struct dpkg_status_index {
	struct dpkg_index_entry *v;
	size_t n;
};
int dpkg_status_index_build(const char *text, size_t len, struct dpkg_status_index *ret);
void dpkg_status_index_done(struct dpkg_status_index *idx);
/* probe_dpkg_status_version() over the index of text. */
int dpkg_status_index_version(const struct dpkg_status_index *idx, const char *text,
			      const char *package, char *buf, size_t buflen);
/* The installed packages whose Depends or Pre-Depends name package (what pulled it in):
 * their names, ", "-separated, into buf (ending ", …" when they do not fit; buflen >= 8).
 * Returns how many there are (0: none, installed by hand or orphaned), -EINVAL. */
int probe_dpkg_status_required_by(const char *text, size_t len, const char *package, char *buf,
				  size_t buflen);
