/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Installed Python distributions as pip, setuptools and conda leave them: the
 * `*.dist-info/METADATA` and `*.egg-info/PKG-INFO` header block (PyPA "Core metadata
 * specifications": RFC 822-style `Name: value` lines, continuation lines start with
 * whitespace, the body starts after the first blank line), the `*.dist-info/RECORD` file
 * (PyPA "Recording installed projects": CSV rows `path,hash,size`), and the
 * `<name>-<version>.dist-info` directory name (PyPA "Binary distribution format", name
 * escaped with '_'). Pure functions over (ptr, len), every count capped.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define DIST_MAX_HEADERS     4096
#define DIST_MAX_REQUIRES    512
#define DIST_MAX_VALUE	     4096
#define DIST_MAX_RECORD_ROWS 200000

struct dist_metadata {
	char *metadata_version;
	char *name;
	char *version;
	char **requires_dist; /* NULL-terminated, may be NULL */
	size_t n_requires;
};

struct dist_metadata *dist_metadata_free(struct dist_metadata *m);
static inline void dist_metadata_freep(struct dist_metadata **m)
{
	dist_metadata_free(*m);
}

/* Parses the header block. -EBADMSG when a header line has no ':' (before the blank line
 * that starts the body), on a NUL byte, or when Name or Version is missing or empty;
 * -ENOMEM. Headers past DIST_MAX_HEADERS make it -EBADMSG (a runaway file). */
int dist_metadata_parse(const char *p, size_t len, struct dist_metadata **ret);

/* The first CSV field (the installed path) of every RECORD row, in file order; rows whose
 * path ends in one of the suffixes `want` lists (NULL = all) are kept, at most max of them
 * (then -E2BIG). A quoted field follows RFC 4180 ("" is a quote). -EBADMSG on an unterminated
 * quote or an empty path. */
int dist_record_paths(const char *p, size_t len, bool (*want)(const char *path), size_t max,
		      char ***ret);

/* "nvidia_cuda_runtime_cu12-12.4.99.dist-info" → name "nvidia_cuda_runtime_cu12", version
 * "12.4.99"; also ".egg-info" (setuptools/distutils: "torch-1.13.0a0+gitunknown.egg-info",
 * and "-py3.11" after the version is dropped). -EINVAL when the entry is neither. */
int dist_dirname_split(const char *dirname, char **ret_name, char **ret_version);

/* PEP 503 normalised form into buf: lower case, runs of '-', '_', '.' become one '-'. */
void dist_name_normalize(const char *name, char *buf, size_t len);
