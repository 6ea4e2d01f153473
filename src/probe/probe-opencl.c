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
 * The libraries dlopen() maps for the vendor library, breadth first as ld.so loads them: the
 * library, then its DT_NEEDED entries, then theirs. Bounded: ICD_DEP_DEPTH levels below the
 * library, ICD_DEP_FILES libraries read in all (a GPU driver's dependencies are a few; the
 * rest are glibc's and the C++ runtime's). Never loaded, only read (loader.h).
 */
#define ICD_DEP_DEPTH 4u
#define ICD_DEP_FILES 64u

struct icd_deps {
	struct loader *l;
	char *path[ICD_DEP_FILES]; /* as ld.so opens it: $ORIGIN is its directory */
	size_t parent[ICD_DEP_FILES];
	unsigned depth[ICD_DEP_FILES];
	struct loader_requester *req[ICD_DEP_FILES];
	size_t n;
	char **names; /* sonames already loaded (needed names found, DT_SONAMEs): ld.so reuses them */
};

static void icd_deps_done(struct icd_deps *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->path[i]);
		loader_requester_free(t->req[i]);
	}
	strv_free(t->names);
}

static bool icd_deps_loaded(const struct icd_deps *t, const char *name)
{
	return strv_contains(t->names, name);
}

/* Queues a library found for entry `parent`, once per file and within the bounds. */
static int icd_deps_add(struct icd_deps *t, const char *path, size_t parent)
{
	unsigned depth = t->depth[parent] + 1;

	if (depth > ICD_DEP_DEPTH || t->n == ICD_DEP_FILES)
		return 0;
	for (size_t i = 0; i < t->n; i++)
		if (streq(t->path[i], path))
			return 0;
	if (!(t->path[t->n] = strdup(path)))
		return -ENOMEM;
	t->parent[t->n] = parent;
	t->depth[t->n] = depth;
	t->req[t->n] = NULL;
	t->n++;
	return 0;
}

/*
 * name, needed by entry i, as ld.so searches for it: with i's own search lists, and, for a
 * dependency below the vendor library, also with those of the libraries that loaded it (glibc
 * lets a DT_RPATH serve the libraries below; taking every ancestor's lists can only find more,
 * so a name reported missing is missing). *ret_path: the file found, NULL; *ret_open: the search
 * ended unresolved but not empty-handed (a file ld.so stops at, an unreadable copy): no miss.
 */
static int icd_deps_find(struct icd_deps *t, size_t i, const char *name, char **ret_path,
			 bool *ret_open)
{
	*ret_path = NULL;
	*ret_open = false;
	for (size_t a = i;; a = t->parent[a]) {
		_cleanup_(loader_result_freep) struct loader_result *r = NULL;
		int err;

		if (!t->req[a] && (err = loader_requester_new(t->l, t->path[a], &t->req[a])) < 0)
			return err;
		err = loader_resolve_req(t->l, name, t->req[a], &r);
		if (err < 0)
			return err;
		if (r->winner >= 0)
			return (*ret_path = strdup(r->cands[r->winner].path)) ? 0 : -ENOMEM;
		if (r->failure >= 0 || r->undetermined_by) {
			*ret_open = true;
			return 0;
		}
		if (a == 0)
			return 0;
	}
}

/*
 * The DT_NEEDED entries, the vendor library's and those of the libraries it loads, that the
 * dynamic loader's search finds nowhere, as requested by the library needing them (loader.h:
 * its DT_RPATH/DT_RUNPATH, LD_LIBRARY_PATH, ld.so.cache, the system directories; a copy of
 * another ELF class or machine is passed over): dlopen() fails then ("libigdgmm.so.11: cannot
 * open shared object file", what `ldd libigdrcl.so` shows as "not found":
 * intel/compute-runtime#230; ldd follows the whole tree, so does this, within ICD_DEP_DEPTH
 * and ICD_DEP_FILES) and the ICD loader leaves the platform out. Written as
 * icd_files[].needed_missing[] (each name's source: the library that needs it) only when one
 * is missing. A search left undetermined by an unreadable copy is not a miss (the library may
 * be found), nor is a dependency whose own dynamic section cannot be read.
 */
static int icd_needed(struct probe_env *pe, struct snap_node *f, const char *file)
{
	struct icd_deps t = { .n = 1 };
	struct snap_node *missing = NULL;
	int err = probe_loader(pe, &t.l);

	if (err < 0)
		return err;
	if (!(t.path[0] = strdup(file)))
		return -ENOMEM;
	t.parent[0] = 0;
	for (size_t i = 0; err >= 0 && i < t.n; i++) {
		_cleanup_(elf_dynamic_freep) struct elf_dynamic *d = NULL;
		int parsed;

		err = loader_read_dynamic(pe->root, t.path[i], &parsed, &d);
		if (err == 0)
			err = parsed;
		if (err == -ENOMEM)
			break;
		if (err < 0 && i > 0) {
			err = 0; /* a dependency not read: its own needs not judged */
			continue;
		}
		if (err == -EBADMSG) {
			snap_set_malformed(f, "needed_missing", NULL, file,
					   "not an ELF file: dlopen() fails (invalid ELF header)");
			err = 0;
			break;
		}
		if (err < 0) {
			snap_set_errno(f, "needed_missing", err, file);
			err = 0;
			break;
		}
		if (d->soname && !icd_deps_loaded(&t, d->soname) &&
		    strv_push(&t.names, d->soname) < 0) {
			err = -ENOMEM;
			break;
		}
		for (size_t k = 0; err >= 0 && k < d->n_needed; k++) {
			_cleanup_free_ char *found = NULL;
			bool unresolved;

			if (icd_deps_loaded(&t, d->needed[k]))
				continue;
			err = icd_deps_find(&t, i, d->needed[k], &found, &unresolved);
			if (err < 0 || unresolved)
				continue;
			if (found) {
				err = strv_push(&t.names, d->needed[k]);
				if (err >= 0)
					err = icd_deps_add(&t, found, i);
				continue;
			}
			missing = missing ?: snap_array(f, "needed_missing");
			snap_append_str(missing, d->needed[k], t.path[i]);
			err = strv_push(&t.names, d->needed[k]); /* reported once */
		}
	}
	icd_deps_done(&t);
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
	probe_vendor_before_fork(pe);
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
