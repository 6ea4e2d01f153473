// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cuDNN a framework's process gets (framework-cudnn.h) and the version of each copy the
 * loader sees. A copy's version is read, in this order, from:
 *   - its file name past the soname: libcudnn.so.8 -> libcudnn.so.8.0.5 ("8.0.5"), as
 *     NVIDIA's Debian packages (libcudnn8), its tar archives and conda's cudnn name the file;
 *   - the headers beside its directory, <dir>/../include/cudnn_version.h, else cudnn.h for
 *     cuDNN 7 (a CUDA toolkit's lib64, a conda environment's lib, the nvidia-cudnn-cu* wheel's
 *     nvidia/cudnn/lib: each ships include/ next to lib/), through
 *     probe_cudnn_header_version().
 * A copy whose version neither gives keeps cudnn_version absent with the reason; the rules
 * may still know it from the wheel that owns the directory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/toolkit-parse.h"
#include "probe/framework-cudnn.h"
#include "probe/probe-cuda-toolkit.h"
#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strv.h"

/* cudnn_version / cudnn_version_source of one copy at file (symlinks resolved). */
static int cudnn_version_of(struct probe_env *pe, struct snap_node *o, const char *soname,
			    const char *file)
{
	_cleanup_free_ char *name_ver = NULL, *dir = NULL, *inc = NULL, *hdr = NULL;
	char ver[PROBE_VERSION_MAX];
	int r;

	name_ver = loader_version_from_name(soname, path_basename(file));
	if (name_ver && strchr(name_ver, '.')) {
		snap_set_str(o, "cudnn_version", name_ver, file);
		snap_set_str(o, "cudnn_version_source", "file name", file);
		return 0;
	}
	dir = path_dirname(file);
	if (!dir || asprintf(&inc, "%s/../include", dir) < 0)
		return -ENOMEM;
	r = probe_cudnn_header_version(pe, inc, ver, sizeof(ver), &hdr);
	if (r == -ENOMEM)
		return r;
	if (r == 0) {
		snap_set_str(o, "cudnn_version", ver, hdr);
		snap_set_str(o, "cudnn_version_source", hdr, hdr);
	} else if (r == -ENOENT) {
		snap_set_state(o, "cudnn_version", FACT_ABSENT, hdr,
			       "no version in the file name and no cudnn_version.h or cudnn.h "
			       "beside its directory");
	} else if (r == -EBADMSG) {
		snap_set_malformed(o, "cudnn_version", NULL, hdr, "version macros not found");
	} else {
		snap_set_errno(o, "cudnn_version", r, hdr);
	}
	return 0;
}

int probe_framework_cudnn(struct probe_env *pe, struct loader *l, struct snap_node *pkg,
			  unsigned major, const char *requester, const char *request)
{
	_cleanup_(loader_result_freep) struct loader_result *res = NULL;
	_cleanup_strv_free_ char **seen = NULL;
	const char *src = requester ?: "ld.so search";
	struct snap_node *o, *copies;
	char soname[32];
	int r;

	snprintf(soname, sizeof(soname), "libcudnn.so.%u", major);
	r = requester ? loader_resolve_for(l, soname, requester, &res)
		      : loader_resolve(l, soname, &res);
	if (r < 0)
		return r;
	o = snap_object(pkg, "cudnn");
	snap_set_str(o, "soname", soname, src);
	snap_set_str(o, "request", request, src);
	if (requester)
		snap_set_str(o, "requested_by", requester, requester);
	else
		snap_set_state(o, "requested_by", FACT_ABSENT, src,
			       "the framework's library is not known: searched as the main "
			       "program would (LD_LIBRARY_PATH, ld.so.cache, system directories)");
	probe_write_loader_result(o, res);
	/* Every copy ld.so could load, in search order: the first is the one it loads. */
	copies = snap_array(o, "copies");
	for (size_t i = 0; i < res->n_cands; i++) {
		const struct loader_candidate *c = &res->cands[i];
		const char *file = c->resolved ?: c->path;
		struct snap_node *e;

		if (c->verdict != LOADER_LOADS || strv_contains(seen, file))
			continue;
		if (strv_push(&seen, file) < 0)
			return -ENOMEM;
		e = snap_append_object(copies);
		snap_set_str(e, "path", c->path, c->dir ?: "/etc/ld.so.cache");
		snap_set_str(e, "resolved_path", file, c->path);
		snap_set_str(e, "found_via", loader_via_name(c->via), c->dir ?: "/etc/ld.so.cache");
		snap_set_bool(e, "loaded", (ssize_t)i == res->winner, src);
		if ((r = cudnn_version_of(pe, e, soname, file)) < 0)
			return r;
	}
	return 0;
}
