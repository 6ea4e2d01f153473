// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.opencl: the OpenCL ICD registry and, live, the platforms and devices the ICD loader
 * (libOpenCL.so.1) offers. ICD files: the "*.icd" files of /etc/OpenCL/vendors, each holding one
 * line, the file name or path of a vendor library (Khronos cl_khr_icd extension specification, "ICD
 * loader vendor enumeration on Linux"). Platforms and devices come from src/vendor/opencl.c
 * in a child under the context's deadline, only live or with --opencl-lib, never with
 * --no-vendor. Keys: docs/snapshot-schema.md "runtime.opencl".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "loader.h"
#include "probe-vendor.h"
#include "shared/strv.h"

#define ICD_DIR	    "/etc/OpenCL/vendors"
#define ICD_MAX_GPU 32u

/*
 * OpenCL implementations that only drive the CPU, told by their library's name before anything
 * is loaded: PoCL (libpocl: its "pthread" and "basic" devices are the CPU; Debian's
 * pocl-opencl-icd), the Intel CPU Runtime for OpenCL (libintelocl) and Oclgrind, a simulator
 * (liboclgrind-rt-icd). Loading PoCL brings libLLVM into the child and says nothing about the
 * GPU stack, so the live session skips them unless --opencl-all.
 */
static bool icd_cpu_only(const char *library)
{
	static const char *const cpu[] = { "libpocl", "libintelocl", "liboclgrind" };
	const char *base = strrchr(library, '/');

	base = base ? base + 1 : library;
	for (size_t i = 0; i < ARRAY_SIZE(cpu); i++)
		if (startswith(base, cpu[i]))
			return true;
	return false;
}

/*
 * Where the ICD loader would find the vendor library: a path is opened as it is, a bare name
 * through dlopen(3)'s search (Khronos OpenCL ICD loader and ocl-icd both dlopen the line as
 * written). Written as runtime.opencl.icd_files[].resolved, the loader's answer. *ret_file:
 * the file dlopen() maps (as it opens it: $ORIGIN is its directory), or NULL when none is.
 */
static int icd_resolve(struct probe_env *pe, struct snap_node *f, const char *library,
		       char **ret_file)
{
	struct snap_node *o = snap_object(f, "resolved");
	_cleanup_(loader_result_freep) struct loader_result *r = NULL;
	struct loader *l;
	int err;

	*ret_file = NULL;
	if (strchr(library, '/')) {
		probe_set_path_fact(pe, o, "path", library, S_IFREG);
		if (snap_state(snap_child(o, "path")) == FACT_PRESENT &&
		    !(*ret_file = strdup(library)))
			return -ENOMEM;
		return 0;
	}
	err = probe_loader(pe, &l);
	if (err >= 0)
		err = loader_resolve(l, library, &r);
	if (err < 0)
		return err;
	probe_write_loader_result(o, r);
	if (r->winner >= 0 && !(*ret_file = strdup(r->cands[r->winner].path)))
		return -ENOMEM;
	return 0;
}

/*
 * The vendor library's DT_NEEDED entries that the dynamic loader's search finds nowhere, as
 * requested by that library (loader.h: its DT_RPATH/DT_RUNPATH, LD_LIBRARY_PATH, ld.so.cache,
 * the system directories; a copy of another ELF class or machine is passed over): dlopen()
 * fails then ("libigdgmm.so.11: cannot open shared object file", what `ldd libigdrcl.so` shows
 * as "not found": intel/compute-runtime#230) and the ICD loader leaves the platform out.
 * Written as icd_files[].needed_missing[] only when one is missing; a needed library's own
 * dependencies are not followed. A search left undetermined by an unreadable copy is not a
 * miss (the library may be found).
 */
static int icd_needed(struct probe_env *pe, struct snap_node *f, const char *file)
{
	_cleanup_(elf_dynamic_freep) struct elf_dynamic *d = NULL;
	_cleanup_(loader_requester_freep) struct loader_requester *q = NULL;
	struct snap_node *missing = NULL;
	struct loader *l;
	int err = probe_loader(pe, &l), parsed;

	if (err < 0)
		return err;
	err = loader_read_dynamic(pe->root, file, &parsed, &d);
	if (err == 0)
		err = parsed;
	if (err == -ENOMEM)
		return err;
	if (err == -EBADMSG) {
		snap_set_malformed(f, "needed_missing", NULL, file,
				   "not an ELF file: dlopen() fails (invalid ELF header)");
		return 0;
	}
	if (err < 0) {
		snap_set_errno(f, "needed_missing", err, file);
		return 0;
	}
	err = loader_requester_new(l, file, &q);
	for (size_t i = 0; err >= 0 && i < d->n_needed; i++) {
		_cleanup_(loader_result_freep) struct loader_result *r = NULL;

		err = loader_resolve_req(l, d->needed[i], q, &r);
		if (err < 0 || r->winner >= 0 || r->failure >= 0 || r->undetermined_by)
			continue;
		missing = missing ?: snap_array(f, "needed_missing");
		snap_append_str(missing, d->needed[i], file);
	}
	return err < 0 ? err : 0;
}

struct icd_choice {
	const char *gpu[ICD_MAX_GPU + 1]; /* borrowed from the snapshot's strings */
	char *owned[ICD_MAX_GPU];
	size_t n_gpu;
	bool skipped; /* a CPU-only ICD was left out */
};

static int probe_icd_files(struct probe_env *pe, struct snap_node *ocl, struct icd_choice *ch)
{
	_cleanup_strv_free_ char **names = NULL;
	struct snap_node *arr;
	int err = root_list_dir(pe->root, ICD_DIR, ROOT_DIR_MAX_ENTRIES, &names);

	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		snap_set_errno(ocl, "icd_files", err, ICD_DIR);
		return 0;
	}
	arr = snap_array(ocl, "icd_files");
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *path = NULL, *text = NULL, *file = NULL;
		struct snap_node *f;
		size_t len = strlen(*n);
		char *line;

		/* The loader reads only names ending in ".icd". */
		if (len < 5 || !streq(*n + len - 4, ".icd"))
			continue;
		if (asprintf(&path, ICD_DIR "/%s", *n) < 0) {
			path = NULL;
			return -ENOMEM;
		}
		f = snap_append_object(arr);
		snap_set_str(f, "path", path, ICD_DIR);
		err = root_read_text(pe->root, path, ROOT_CAP_ATTR, &text);
		if (err < 0) {
			snap_set_errno(f, "library", err, path);
			continue;
		}
		line = strstrip(text);
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line) {
			snap_set_malformed(f, "library", text, path, "empty ICD file");
			continue;
		}
		snap_set_str(f, "library", line, path);
		snap_set_bool(f, "cpu_only", icd_cpu_only(line), path);
		err = icd_resolve(pe, f, line, &file);
		if (err >= 0 && file)
			err = icd_needed(pe, f, file);
		if (err == -ENOMEM)
			return err;
		if (icd_cpu_only(line))
			ch->skipped = true;
		else if (ch->n_gpu < ICD_MAX_GPU) {
			ch->owned[ch->n_gpu] = strdup(line);
			if (!ch->owned[ch->n_gpu])
				return -ENOMEM;
			ch->gpu[ch->n_gpu] = ch->owned[ch->n_gpu];
			ch->n_gpu++;
		}
	}
	return 0;
}

static void icd_choice_done(struct icd_choice *ch)
{
	for (size_t i = 0; i < ch->n_gpu; i++)
		free(ch->owned[i]);
}

/* *ret_not_kept: not for probe_opencl() to keep (probe_vendor_keep()): the gate closed for this
 * run's options alone, or the session started (probe_vendor_collect() keeps its result). */
static int opencl_run(struct probe_env *pe, struct gpuenv_snapshot *s, struct snap_node *ocl,
		      bool *ret_not_kept)
{
	static const char *const keys[] = { "library", "platforms", NULL };
	struct vendor_req req = { .library = pe->ctx->opencl_lib,
				  .timeout_ms = pe->ctx->vendor_timeout_ms };
	struct vendor_pending *started;
	const char *source, *why;
	enum fact_state state;
	char buf[256];
	struct icd_choice ch = { .n_gpu = 0 };
	int err = probe_icd_files(pe, ocl, &ch);

	if (err < 0) {
		icd_choice_done(&ch);
		return err;
	}
	/* CPU-only ICDs found: the loader gets the others only (possibly none). */
	if (ch.skipped && !(pe->ctx->flags & GPUENV_CTX_OPENCL_ALL))
		req.opencl_icds = ch.gpu;
	why = probe_vendor_gate(pe, s, pe->ctx->opencl_lib, "--opencl-lib", "clGetPlatformIDs",
				false, buf, sizeof(buf), &source, &state);
	if (why) {
		icd_choice_done(&ch);
		probe_vendor_not_called(ocl, keys, state, source, why);
		*ret_not_kept = streq(source, "options");
		return snapshot_error(s);
	}
	/* Nothing but CPU-only ICDs: no loader, no child (the session would list no platform). */
	if (req.opencl_icds && ch.n_gpu == 0) {
		icd_choice_done(&ch);
		probe_vendor_not_called(ocl, keys, FACT_UNPROBED, ICD_DIR,
					"only CPU-only OpenCL implementations are registered "
					"(--opencl-all loads them)");
		return snapshot_error(s);
	}
	/* The child takes its ICD list at the fork: ch may go. */
	err = vendor_opencl_start(&req, &started);
	icd_choice_done(&ch);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		probe_vendor_not_called(ocl, keys, FACT_ERROR, "fork", strerror(-err));
		return snapshot_error(s);
	}
	err = probe_vendor_pend(pe, &(struct probe_pending){ .obj = ocl,
							     .keys = keys,
							     .label = "OpenCL",
							     .session = "opencl",
							     .timeout_ms = req.timeout_ms,
							     .vp = started });
	*ret_not_kept = true;
	return err < 0 ? err : snapshot_error(s);
}

int probe_opencl(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *ocl = snap_object(snap_object(snapshot_root(s), "runtime"), "opencl");
	bool not_kept = false;
	int err = probe_vendor_replay(pe, s, ocl, "opencl", pe->ctx->opencl_lib);

	if (err != 0)
		return err < 0 ? err : snapshot_error(s);
	err = opencl_run(pe, s, ocl, &not_kept);
	if (err >= 0 && !not_kept) {
		int k = probe_vendor_keep(pe, ocl, "opencl");

		if (k < 0)
			return k;
	}
	return err;
}
