// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPU runtime libraries a framework's own library gets from the dynamic loader (see
 * framework-loads.h). Reads the library's ELF header and dynamic section (fatbin/elf-dynamic.c,
 * System V gABI) through the root, and asks the ld.so emulation (loader.c) for each GPU
 * DT_NEEDED as requested by that library: ld.so(8) "Shared object dependencies" for the
 * order (DT_RPATH only without DT_RUNPATH, before LD_LIBRARY_PATH; DT_RUNPATH after it).
 * libcuda.so.1 is not a DT_NEEDED of the frameworks: the CUDA runtime dlopen()s it
 * (cudart's driver-API loader; "CUDA Driver API" / "CUDA Compatibility" docs), and dlopen(3)
 * searches for it with the calling object's own DT_RPATH/DT_RUNPATH, so it is resolved as
 * requested by the libcudart that won, never with the framework library's DT_RUNPATH
 * (ld.so(8): DT_RUNPATH applies only to the object's own DT_NEEDED entries).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-dynamic.h"
#include "probe/framework-loads.h"
#include "probe/framework-nvjitlink.h"
#include "probe/framework-siblings.h"
#include "probe/probe.h"
#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strv.h"

/* Name stems of GPU runtime libraries: NVIDIA's CUDA libraries (pip wheels' sonames in
 * docs/formats/python.md §4, the CUDA toolkit's lib64), the driver's
 * libcuda/libnvidia-ml, and ROCm's (the libraries ROCm torch wheels bundle in torch/lib).
 * A name matches a stem followed by '.', '-' (torch cu11x wheels bundle hashed copies,
 * libcudart-d0da41ae.so.11.0) or '_' (cuDNN 8's libcudnn_ops_infer.so.8). */
static const char *const gpu_stems[] = {
	"libcuda",	     "libnvidia-ml",	 "libcudart",	   "libcublas",
	"libcublasLt",	     "libcudnn",	 "libnccl",	   "libnvrtc",
	"libnvrtc-builtins", "libnvJitLink",	 "libcufft",	   "libcufftw",
	"libcusparse",	     "libcusparseLt",	 "libcurand",	   "libcusolver",
	"libcusolverMg",     "libcupti",	 "libnvToolsExt",  "libcufile",
	"libnvshmem_host",   "libnvperf_host",	 "libamdhip64",	   "libhiprtc",
	"librocblas",	     "libhipblas",	 "libhipblaslt",   "libMIOpen",
	"librccl",	     "libhsa-runtime64", "libroctracer64", "libroctx64",
	"libhipfft",	     "libhiprand",	 "libhipsolver",   "libhipsparse",
	"libhipsparselt",    "librocsolver",	 "librocsparse",   "librocfft",
	"librocrand",	     "librocm_smi64",
};

bool probe_is_gpu_runtime_soname(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(gpu_stems); i++) {
		size_t n = strlen(gpu_stems[i]);

		if (strncmp(name, gpu_stems[i], n) == 0 &&
		    (name[n] == '.' || name[n] == '-' || name[n] == '_'))
			return true;
	}
	return false;
}

struct where {
	char **wheel_dirs; /* <site>/nvidia, resolved */
	char *own_dir;	   /* resolved */
};

static bool from_wheel(const struct where *w, const char *file)
{
	if (w->own_dir && path_is_under(file, w->own_dir))
		return true;
	STRV_FOREACH(d, w->wheel_dirs)
		if (path_is_under(file, *d))
			return true;
	return false;
}

/* A resolved form of dir when it can be resolved, else dir as given. */
static char *resolved_or_copy(struct loader *l, const char *dir)
{
	char *out = NULL;

	if (root_resolve(l->root, dir, &out) < 0)
		out = strdup(dir);
	return out;
}

static int where_init(struct loader *l, struct where *w, char **sites, const char *own_dir)
{
	int r;

	*w = (struct where){ 0 };
	STRV_FOREACH(s, sites) {
		_cleanup_free_ char *d = NULL;
		char *res;

		if (asprintf(&d, "%s/nvidia", *s) < 0)
			return -ENOMEM;
		res = resolved_or_copy(l, d);
		if (!res)
			return -ENOMEM;
		r = strv_consume(&w->wheel_dirs, res);
		if (r < 0)
			return r;
	}
	if (own_dir && !(w->own_dir = resolved_or_copy(l, own_dir)))
		return -ENOMEM;
	return 0;
}

static void where_done(struct where *w)
{
	strv_free(w->wheel_dirs);
	free(w->own_dir);
}

/* One loads.<soname> entry: the library object, where it came from, who asked. */
static void write_load(struct snap_node *loads, const struct loader_result *r,
		       const struct where *w, const char *requested_by, const char *how)
{
	struct snap_node *o = snap_object(loads, r->soname);

	snap_set_str(o, "soname", r->soname, requested_by);
	snap_set_str(o, "requested_by", requested_by, requested_by);
	snap_set_str(o, "request", how, requested_by);
	probe_write_loader_result(o, r);
	if (r->winner >= 0) {
		const struct loader_candidate *c = &r->cands[r->winner];

		snap_set_bool(o, "from_wheel", from_wheel(w, c->resolved ? c->resolved : c->path),
			      c->resolved ? c->resolved : c->path);
	} else if (r->failure >= 0) {
		const struct loader_candidate *f = &r->cands[r->failure];

		/* ld.so stops at this file: "<soname>: cannot open shared object file: <reason>"
		 * or "invalid ELF header". */
		if (f->verdict == LOADER_FAIL_NOT_ELF)
			snap_set_strf(o, "failure", f->path, "%s: invalid ELF header", f->path);
		else
			snap_set_strf(o, "failure", f->path, "%s: %s", f->path, strerror(-f->err));
	}
}

/* The requester's own search list, as ld.so reads it. */
static void write_search(struct snap_node *pkg, const struct elf_dynamic *d,
			 const struct loader_requester *q)
{
	struct snap_node *s = snap_object(pkg, "load_search");
	const char *library = q->path;

	snap_set_str(s, "library", library, library);
	if (d->soname)
		snap_set_str(s, "soname", d->soname, library);
	snap_set_str_or_absent(s, "rpath", q->rpath, library, "no DT_RPATH");
	snap_set_str_or_absent(s, "runpath", q->runpath, library, "no DT_RUNPATH");
	/* DT_RPATH is ignored when DT_RUNPATH is present (ld.so(8)). */
	snap_set_str(s, "search_path_kind",
		     q->runpath ? "runpath"
		     : q->rpath ? "rpath"
				: "none",
		     library);
	probe_write_loader_dirs(snap_array(s, "search_path"),
				q->runpath ? &q->runpath_dirs : &q->rpath_dirs, library);
	if (q->problem)
		snap_set_malformed(s, "dynamic_section", NULL, library, q->problem);
}

/* The library's dynamic section: 0, -ENOMEM, -EBADMSG (not ELF) or the errno of the read. */
static int read_dynamic(struct loader *l, const char *library, struct elf_dynamic **d)
{
	int parsed, r = loader_read_dynamic(l->root, library, &parsed, d);

	return r == 0 ? parsed : r;
}

/* key of obj for a library whose dynamic section read_dynamic() could not read. */
static void set_unread(struct snap_node *obj, const char *key, int r, const char *library)
{
	if (r == -EBADMSG)
		snap_set_malformed(obj, key, NULL, library,
				   "not an ELF file: no dynamic section read");
	else
		snap_set_errno(obj, key, r, library);
}

int probe_framework_loads(struct loader *l, struct snap_node *pkg, const char *library,
			  char **wheel_sites, const char *own_dir)
{
	_cleanup_(elf_dynamic_freep) struct elf_dynamic *d = NULL;
	_cleanup_(loader_result_freep) struct loader_result *cudart = NULL;
	_cleanup_(loader_requester_freep) struct loader_requester *q = NULL;
	_cleanup_strv_free_ char **seen = NULL;
	struct snap_node *loads, *missing;
	struct where w;
	bool cuda = false;
	int r;

	r = read_dynamic(l, library, &d);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		set_unread(pkg, "loads", r, library);
		set_unread(pkg, "needed_missing", r, library);
		return 0;
	}
	r = loader_requester_new(l, library, &q);
	if (r < 0)
		return r;
	r = where_init(l, &w, wheel_sites, own_dir);
	if (r < 0) {
		where_done(&w);
		return r;
	}
	write_search(pkg, d, q);
	loads = snap_object(pkg, "loads");
	missing = snap_array(pkg, "needed_missing");
	for (size_t i = 0; i < d->n_needed; i++) {
		_cleanup_(loader_result_freep) struct loader_result *res = NULL;
		const char *n = d->needed[i];

		if (!probe_is_gpu_runtime_soname(n) || strv_contains(seen, n))
			continue;
		if ((r = strv_push(&seen, n)) < 0)
			break;
		cuda |= startswith(n, "libcu") || startswith(n, "libnv");
		r = loader_resolve_req(l, n, q, &res);
		if (r < 0)
			break;
		write_load(loads, res, &w, library, "DT_NEEDED");
		/* cuSPARSE, cuSOLVER: the nvJitLink they get, and what it lacks */
		if (res->winner >= 0) {
			r = probe_library_nvjitlink(l, snap_object(loads, res->soname),
						    res->cands[res->winner].path);
			if (r < 0)
				break;
		}
		/* Undetermined (an unreadable copy on the way): maybe found, said in loads. */
		if (res->winner < 0 && res->failure < 0 && !res->undetermined_by)
			snap_append_str(missing, n, library);
		/* The first libcudart that loads is the one that dlopens libcuda.so.1. */
		if (!cudart && res->winner >= 0 && startswith(n, "libcudart"))
			cudart = TAKE_PTR(res);
	}
	/* What each library it maps needs of the others, once all of them are mapped. */
	STRV_FOREACH(n, seen) {
		const char *p = snap_get_str(snap_child(loads, *n), "path");

		if (r < 0)
			break;
		if (p)
			r = probe_library_siblings(l, snap_object(loads, *n), p, loads);
	}
	/* A CUDA build's own library (libtorch_cuda.so, xla_cuda_plugin.so) may dlopen the
	 * runtime rather than link it: libcuda.so.1 is asked for all the same. */
	cuda |= strstr(path_basename(library), "cuda") != NULL;
	if (d->needed_truncated)
		snap_set_state(pkg, "needed_truncated", FACT_PRESENT, library,
			       "more DT_NEEDED entries than gpuenv reads");
	/* libcuda.so.1 as the CUDA runtime dlopen()s it, unless the library links it directly. */
	if (r >= 0 && cuda && !strv_contains(seen, "libcuda.so.1")) {
		_cleanup_(loader_result_freep) struct loader_result *res = NULL;

		if (cudart) {
			const char *rt = cudart->cands[cudart->winner].path;

			r = loader_resolve_for(l, "libcuda.so.1", rt, &res);
			if (r >= 0)
				write_load(loads, res, &w, rt, "dlopen");
		} else {
			r = loader_resolve(l, "libcuda.so.1", &res);
			if (r >= 0)
				write_load(loads, res, &w,
					   "the CUDA runtime (libcudart not resolved)", "dlopen");
		}
	}
	where_done(&w);
	return r < 0 ? r : 0;
}

int probe_module_needed_missing(struct loader *l, struct snap_node *missing, const char *module,
				const char *library)
{
	_cleanup_(elf_dynamic_freep) struct elf_dynamic *d = NULL;
	_cleanup_(loader_requester_freep) struct loader_requester *q = NULL;
	_cleanup_strv_free_ char **seen = NULL;
	int r;

	r = read_dynamic(l, library, &d);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		/* Unread: what it links is unknown, said as such (never "nothing missing"). */
		struct snap_node *o = snap_append_object(missing);

		snap_set_str(o, "module", module, library);
		snap_set_str(o, "library", library, library);
		set_unread(o, "name", r, library);
		return 0;
	}
	if ((r = loader_requester_new(l, library, &q)) < 0)
		return r;
	for (size_t i = 0; i < d->n_needed; i++) {
		_cleanup_(loader_result_freep) struct loader_result *res = NULL;
		const char *n = d->needed[i];
		struct snap_node *o;

		if (!probe_is_gpu_runtime_soname(n) || strv_contains(seen, n))
			continue;
		if ((r = strv_push(&seen, n)) < 0)
			return r;
		if ((r = loader_resolve_req(l, n, q, &res)) < 0)
			return r;
		/* found, a copy that fails (said by the core's loads), or undetermined */
		if (res->winner >= 0 || res->failure >= 0 || res->undetermined_by)
			continue;
		o = snap_append_object(missing);
		snap_set_str(o, "module", module, library);
		snap_set_str(o, "library", library, library);
		snap_set_str(o, "name", n, library);
	}
	return 0;
}
