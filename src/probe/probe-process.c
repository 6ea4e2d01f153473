// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a running process really loaded (`gpuenv report --pid N`): /proc/N/maps, read through
 * the root, in the format of proc(5) ("address perms offset dev inode pathname", the
 * pathname padded with spaces and suffixed " (deleted)" when the file was removed or
 * replaced after mapping), and /proc/N/exe. Writes runtime.process.{pid, exe,
 * mapped_objects, mapped_libraries[]}: every distinct mapped file whose name is a GPU
 * library's (CUDA driver and runtime libraries, NVIDIA's libnvidia-*, cuDNN, NCCL, ROCm HIP
 * and rocBLAS, the OpenCL ICD loader), with the version its file name carries. Nothing is
 * written without --pid.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe/loader.h"
#include "shared/strv.h"

#define MAX_OBJECTS 16384u

/* File-name prefixes of the libraries listed (the families of probe-libraries.c, plus
 * NVIDIA's other driver libraries and ROCm's runtime). */
static const char *const gpu_prefixes[] = {
	"libcuda.",	"libnvidia-",  "libcudart.",	    "libcublas.",    "libcublasLt.",
	"libcudnn",	"libnccl.",    "libnvrtc",	    "libnvJitLink.", "libcufft.",
	"libcusparse.", "libcurand.",  "libcusolver.",	    "libcupti.",     "libnvToolsExt.",
	"libamdhip64.", "librocblas.", "libhsa-runtime64.", "libamd_comgr.", "libOpenCL.",
};

static bool is_gpu_library(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(gpu_prefixes); i++)
		if (startswith(name, gpu_prefixes[i]))
			return true;
	return false;
}

/* The pathname field of one maps line, or NULL (anonymous, [heap], [vdso] …). */
static char *maps_pathname(char *line)
{
	char *p = line;

	/* Five fields: address perms offset dev inode. */
	for (int f = 0; f < 5; f++) {
		p += strspn(p, " \t");
		if (!*p)
			return NULL;
		p += strcspn(p, " \t");
	}
	p += strspn(p, " \t");
	return *p == '/' ? p : NULL;
}

static void write_maps(struct snap_node *proc, const char *path, char *text)
{
	struct snap_node *arr = snap_array(proc, "mapped_libraries");
	_cleanup_strv_free_ char **seen = NULL;
	size_t objects = 0;
	char *state = text, *line;

	while ((line = line_next(&state))) {
		static const char deleted_sfx[] = " (deleted)";
		char *name = maps_pathname(line), *base;
		_cleanup_free_ char *version = NULL;
		bool deleted = false;
		size_t n;
		struct snap_node *e;

		if (!name)
			continue;
		n = strlen(name);
		if (n > strlen(deleted_sfx) && streq(name + n - strlen(deleted_sfx), deleted_sfx)) {
			name[n - strlen(deleted_sfx)] = '\0';
			deleted = true;
		}
		if (strv_contains(seen, name))
			continue;
		if (objects >= MAX_OBJECTS) {
			snap_set_state(proc, "mapped_objects_truncated", FACT_PRESENT, path,
				       "more mapped files than gpuenv reads");
			break;
		}
		if (strv_push(&seen, name) < 0)
			return;
		objects++;
		base = strrchr(name, '/') + 1;
		if (!is_gpu_library(base))
			continue;
		e = snap_append_object(arr);
		snap_set_str(e, "path", name, path);
		version = loader_version_from_name(base, base);
		snap_set_str_or_absent(e, "version", version, name, "no version in the file name");
		snap_set_bool(e, "deleted", deleted, path);
		snap_set_bool(e, "is_stub", loader_path_has_component(name, "stubs"), name);
	}
	snap_set_int(proc, "mapped_objects", (int64_t)objects, path);
}

int probe_process(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *proc;
	_cleanup_free_ char *maps = NULL, *exe = NULL, *text = NULL, *target = NULL;
	int pid = pe->ctx->pid, err;

	if (pid <= 0)
		return 0;
	proc = snap_object(snap_object(snapshot_root(s), "runtime"), "process");
	if (asprintf(&maps, "/proc/%d/maps", pid) < 0 || asprintf(&exe, "/proc/%d/exe", pid) < 0)
		return -ENOMEM;
	snap_set_int(proc, "pid", pid, "--pid");
	err = root_readlink(pe->root, exe, &target);
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		snap_set_errno(proc, "exe", err, exe);
	else
		snap_set_str(proc, "exe", target, exe);
	err = root_read_text(pe->root, maps, ROOT_CAP_BIG, &text);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		/* ENOENT: no such process (absent); EACCES: another user's process. */
		snap_set_errno(proc, "mapped_objects", err, maps);
		return snapshot_error(s);
	}
	write_maps(proc, maps, text);
	return snapshot_error(s);
}
