// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CUDA and HIP targets in a framework's own library (read with the fatbin parser), and
 * what that library loads (framework-loads.c).
 */
#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin-targets.h"
#include "formats/dist-metadata.h"
#include "formats/pyfile.h"
#include "framework-cudnn.h"
#include "framework-loads.h"
#include "kernel-scan-kept.h"
#include "probe-python-internal.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strmap.h"
#include "shared/strv.h"

/* ---- CUDA kernels in a framework library: the one use of the fatbin parser -------------- */

/* Maps a shared object and collects the distinct targets of its fat binaries (SASS as
 * sm_XY[a|f], PTX as compute_XY with the PTX ISA, LTO IR as lto_XY) and of its clang offload
 * bundles (.hip_fatbin, CCOB: AMDGPU code objects by target ID, gfx942:sramecc+:xnack-),
 * summarised as `gpuenv scan` does (fatbin/fatbin-targets.h: one order, one kind name).
 * Its SONAME, RUNPATH and DT_NEEDED are the loader emulation's (py_record_loads()). Keep every
 * use of src/fatbin here, so its API can change in one place. */
/* The parser's reads of the scattered container headers, through read(2) into its small
 * window rather than through the mapping (as `gpuenv scan` does): touching a page of a
 * large library (cuDNN's) per entry header made the pages resident. */
struct kernel_read {
	const struct root_file *f;
	int err;
};

static ssize_t read_library(void *userdata, uint64_t off, void *buf, size_t n)
{
	struct kernel_read *kr = userdata;
	ssize_t got = root_file_pread(kr->f, buf, n, off);

	if (!kr->err && (got < 0 || (size_t)got < n))
		kr->err = got < 0 ? (int)got : -EIO; /* an error, or the file shrank */
	return got;
}

/* The targets of a parse (freed) into k, sorted; past the cap: arch_targets_truncated. */
static int take_result(struct fatbin_targets *k, struct fatbin_result *fr)
{
	int r = fatbin_targets_add_result(k, fr);

	fatbin_result_free(fr);
	if (r == -ENOMEM)
		return r;
	fatbin_targets_sort(k);
	return 0;
}

/* The parse of the open library f into k. */
static int scan_file(const struct root_file *f, struct kernel_read *kr, struct fatbin_targets *k)
{
	struct root_map m = { 0 };
	struct fatbin_result *fr = NULL;
	struct fatbin_input in = { .read = read_library, .userdata = kr };
	int r = root_file_map(f, &m);

	if (r < 0)
		return r;
	in.data = m.data;
	in.len = m.len;
	/* Headers only, as `gpuenv scan` lists targets (a PTX entry whose header has no ISA
	 * version still has its payload head read): reading every payload head, as
	 * fatbin_scan_buffer() does, cost doctor about 1 s over a torch 2.11 venv's 17 CUDA 13
	 * wheel libraries on a real H200 machine. */
	r = fatbin_parse_input(&in, 0, &fr, NULL);
	root_unmap(&m);
	if (r < 0 && kr->err)
		r = kr->err;
	if (r < 0)
		return r;
	return take_result(k, fr);
}

static int feed_stream(void *userdata, const uint8_t *p, size_t n)
{
	return fatbin_stream_feed(userdata, p, n);
}

/* A library that only a decompressed copy could give whole (a large compressed member of an
 * --image layer or a --wheel: root_stream()) is scanned as it is inflated instead, by the
 * fatbin stream scanner (the CUDA container headers, found by their pattern as `gpuenv scan`
 * does in a wheel, and the clang offload bundles of a .hip_fatbin, plain or CCOB): memory and
 * disk stay bounded whatever its size. 1 when it was; 0 when the file is not such a member, or
 * the stream found neither (then the whole-file parse reads a copy spilled to TMPDIR);
 * -errno. */
static int stream_kernels(struct probe_env *pe, const char *path, struct fatbin_targets *k)
{
	struct fatbin_stream *fs = NULL;
	struct fatbin_result *fr = NULL;
	int r = fatbin_stream_new(&fs);

	if (r < 0)
		return r;
	r = root_stream(pe->root, path, CAP_LIBRARY, feed_stream, fs);
	if (r < 0) {
		fatbin_stream_free(fs);
		return r == -EOPNOTSUPP ? 0 : r;
	}
	r = fatbin_stream_finish(fs, &fr);
	if (r < 0)
		return r;
	if (fr->n_containers == 0 && fr->n_bundles == 0) {
		fatbin_result_free(fr);
		log_debug(pe->log,
			  "%s: no CUDA container or offload bundle in the stream; reading "
			  "it whole",
			  path);
		return 0;
	}
	r = take_result(k, fr);
	return r < 0 ? r : 1;
}

/* A capture (or a replay of one) goes through the kept result (kernel-scan-kept.c): the
 * capture scans without recording the bytes the scan read, and keeps what it found. */
static int scan_kernels(struct probe_env *pe, const char *path, struct fatbin_targets *k)
{
	_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
	struct kernel_read kr = { .f = &f };
	struct kernel_scan_id id;
	bool keeping = ctx_keeping(pe->ctx), kept = keeping || !pe->ctx->live;
	int r = 0, k_r;

	/* a kept result is replayed; a capture keeps what the whole-file parse finds */
	if (!keeping && !(kept && kernel_scan_kept_for(pe, path)))
		r = stream_kernels(pe, path, k);
	if (r != 0)
		return r < 0 ? r : 0;
	r = root_file_open(pe->root, path, CAP_LIBRARY, &f);

	if (r >= 0 && kept)
		r = kernel_scan_identity(&f, &id);
	if (r >= 0 && kept) {
		r = kernel_scan_replay(pe, path, &id, k, &k_r);
		if (r != 0)
			return r < 0 ? r : k_r;
	}
	if (r < 0)
		return r;
	if (keeping)
		root_file_untraced(&f);
	r = scan_file(&f, &kr, k);
	if (keeping && r != -ENOMEM) {
		int err = kernel_scan_keep(pe, path, &id, r, k);

		if (err < 0)
			return err;
	}
	return r;
}

/* arch_targets[] (and arch_targets_truncated) of the library at p into obj from its scan
 * (r, k): a library that cannot be read, is not an ELF file the parser accepts or holds no
 * GPU code keeps that as the state of arch_targets, never an empty list. */
static void write_targets(struct snap_node *obj, const char *p, int r,
			  const struct fatbin_targets *k)
{
	struct snap_node *arr;

	if (r == -EBADMSG) {
		snap_set_malformed(obj, "arch_targets", NULL, p,
				   "not an ELF shared object the fatbin parser accepts");
		return;
	}
	if (r < 0) {
		snap_set_errno(obj, "arch_targets", r, p);
		return;
	}
	if (k->n == 0) {
		snap_set_state(obj, "arch_targets", FACT_ABSENT, p,
			       "no CUDA fat binary or HIP offload bundle in this library");
		return;
	}
	arr = snap_array(obj, "arch_targets");
	for (size_t j = 0; j < k->n; j++) {
		struct snap_node *t = snap_append_object(arr);

		snap_set_str(t, "target", k->t[j].name, p);
		snap_set_str(t, "kind", fatbin_target_kind_name(k->t[j].kind), p);
		if (k->t[j].gfx[0])
			snap_set_str(t, "gfx", k->t[j].gfx, p);
		if (k->t[j].ptx_major >= 0)
			snap_set_strf(t, "ptx_isa", p, "%d.%d", k->t[j].ptx_major,
				      k->t[j].ptx_minor);
		if (k->t[j].kind == FATBIN_TARGET_LTO && k->t[j].lto_major >= 0)
			snap_set_strf(t, "ltoir_version", p, "%d.%d", k->t[j].lto_major,
				      k->t[j].lto_minor);
	}
	if (k->truncated)
		snap_set_bool(obj, "arch_targets_truncated", true, p);
}

/* arch_targets[] of the library at path into obj, scanned once, outside any Python
 * environment (the ollama probe's bundled GPU libraries). 0 or -ENOMEM. */
int probe_record_targets(struct probe_env *pe, struct snap_node *obj, const char *path)
{
	_cleanup_(fatbin_targets_done) struct fatbin_targets k = { .max = MAX_TARGETS };
	int r = scan_kernels(pe, path, &k);

	if (r == -ENOMEM)
		return r;
	write_targets(obj, path, r, &k);
	return 0;
}

/* kernel_library {path} and arch_targets[] from the first candidate
 * that exists and holds CUDA or HIP kernels (or the first that exists). */
int py_record_kernels(struct probe_env *pe, struct snap_node *obj, const char *dir,
		      const char *const *cands, size_t n_cands)
{
	_cleanup_free_ char *tried = NULL, *host_only = NULL;
	int r = 0;

	for (size_t i = 0; i < n_cands; i++) {
		_cleanup_free_ char *p = path_join(dir, cands[i]);
		_cleanup_(fatbin_targets_done) struct fatbin_targets k = { .max = MAX_TARGETS };

		if (!p)
			return -ENOMEM;
		if (!tried)
			tried = strdup(cands[i]);
		else {
			char *t = NULL;

			if (asprintf(&t, "%s, %s", tried, cands[i]) < 0)
				return -ENOMEM;
			free(tried);
			tried = t;
		}
		if (!tried)
			return -ENOMEM;
		r = probe_path_test(pe, p, S_IFREG);
		if (r == -ENOMEM)
			return r;
		if (r == 0 && root_lstat(pe->root, p, &(struct stat){ 0 }) == -ENOENT)
			continue;
		r = scan_kernels(pe, p, &k);
		if (r == -ENOMEM)
			return r;
		if (r == 0 && k.n == 0 && i + 1 < n_cands) {
			/* a host-only library: try the next, and come back to it if none is
			 * there */
			if (!host_only && !(host_only = strdup(p)))
				return -ENOMEM;
			continue;
		}
		if (r < 0 && r != -EBADMSG)
			snap_set_errno(obj, "kernel_library", r, p);
		else
			snap_set_str(snap_object(obj, "kernel_library"), "path", p, p);
		write_targets(obj, p, r, &k);
		return 0;
	}
	if (host_only) {
		snap_set_str(snap_object(obj, "kernel_library"), "path", host_only, host_only);
		write_targets(obj, host_only, 0, &(struct fatbin_targets){ 0 });
		return 0;
	}
	{
		_cleanup_free_ char *why = NULL;

		if (asprintf(&why, "no %s", tried ? tried : "library") < 0)
			return -ENOMEM;
		snap_set_state(obj, "kernel_library", FACT_ABSENT, dir, why);
		snap_set_state(obj, "arch_targets", FACT_ABSENT, dir, why);
	}
	return 0;
}

/* One scan per path and environment: the frameworks of an environment load the same nvidia-*
 * wheel libraries (torch and TensorFlow both cuDNN), which are hundreds of megabytes each. */
struct py_scan {
	int r;
	struct fatbin_targets k;
};

int py_record_library_targets(struct py_ctx *c, struct snap_node *obj, const char *path)
{
	struct py_scan *s;
	size_t i;
	int r;

	if (!strmap_get(&c->scanned, path, &i)) {
		if (c->n_scans % 16 == 0) {
			struct py_scan *n = realloc(c->scans, (c->n_scans + 16) * sizeof(*n));

			if (!n)
				return -ENOMEM;
			c->scans = n;
		}
		s = &c->scans[c->n_scans];
		*s = (struct py_scan){ .k = { .max = MAX_TARGETS } };
		s->r = scan_kernels(c->pe, path, &s->k);
		if (s->r == -ENOMEM) {
			fatbin_targets_done(&s->k);
			return -ENOMEM;
		}
		i = c->n_scans++;
		if ((r = strmap_put(&c->scanned, path, i)) < 0)
			return r;
	}
	s = &c->scans[i];
	write_targets(obj, path, s->r, &s->k);
	return 0;
}

void py_scans_done(struct py_ctx *c)
{
	for (size_t i = 0; i < c->n_scans; i++)
		fatbin_targets_done(&c->scans[i].k);
	free(c->scans);
	c->scans = NULL;
	c->n_scans = 0;
	strmap_done(&c->scanned);
}

/* loads.<soname>, needed_missing[], load_search from the kernel_library just recorded:
 * its GPU DT_NEEDED entries as the dynamic loader resolves them for it (framework-loads.h). */
int py_record_loads(struct py_ctx *c, struct snap_node *obj)
{
	const struct snap_node *kl = snap_child(obj, "kernel_library");
	const char *path = snap_get_str(obj, "kernel_library.path");
	_cleanup_free_ char *own = NULL;
	int r;

	if (!path) {
		/* No library (or it could not be read): the same state, so "could not tell" stays.
		 */
		if (kl && snap_kind(kl) == SNAP_FACT)
			snap_set_state(obj, "loads", snap_state(kl), snap_source(kl),
				       snap_error(kl));
		else
			snap_set_state(obj, "loads", FACT_ABSENT, NULL, "no framework library");
		return 0;
	}
	if (!c->loader && (r = probe_loader(c->pe, &c->loader)) < 0)
		return r;
	own = strdup(path);
	if (!own)
		return -ENOMEM;
	*strrchr(own, '/') = '\0';
	r = probe_framework_loads(c->loader, obj, path, c->sites, own);
	if (r < 0)
		return r;
	/* A library that links cuDNN (libtorch_cuda.so: libcudnn.so.8 or .9): which copy. */
	for (size_t i = 0; i < snap_count(snap_child(obj, "loads")); i++) {
		const char *key = snap_key(snap_at(snap_child(obj, "loads"), i));
		unsigned major;

		if (key && startswith(key, "libcudnn.so.") &&
		    parse_uint(key + strlen("libcudnn.so."), 10, &major) == 0)
			return probe_framework_cudnn(c->pe, c->loader, obj, major, path,
						     "DT_NEEDED");
	}
	return 0;
}

int py_record_cudnn_dlopen(struct py_ctx *c, struct snap_node *obj, unsigned major)
{
	int r;

	if (snap_child(obj, "cudnn"))
		return 0;
	if (!c->loader && (r = probe_loader(c->pe, &c->loader)) < 0)
		return r;
	return probe_framework_cudnn(c->pe, c->loader, obj, major,
				     snap_get_str(obj, "kernel_library.path"), "dlopen");
}
