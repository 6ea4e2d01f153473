/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Small text formats of proc(5) and /etc, over (text, len) that need not be NUL-terminated
 * (parsing stops at an embedded NUL). No I/O: the probes read the files, call these and
 * write the facts. Fuzzed by tests/fuzz/fuzz-<name>.c. Formats:
 * - proc(5) /proc/modules: "name size refcount deps state address" lines;
 * - NVIDIA's /proc/driver/nvidia/version: "NVRM version: NVIDIA UNIX x86_64 Kernel Module
 *   550.54.15 ..." or "... Open Kernel Module for x86_64  560.35.03 ...", then "GCC version:",
 *   and /proc/driver/nvidia/gpus/<bus>/information ("Key: \t value" lines), as written by
 *   open-gpu-kernel-modules kernel-open/nvidia/nv-procfs.c;
 * - proc(5) /proc/cpuinfo ("model name", "vendor_id", one "processor" line per logical CPU);
 * - proc(5) /proc/<pid>/status "Uid:", "Gid:", "Groups:" lines;
 * - group(5) "group_name:password:GID:user_list" lines.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copies (text, len) up to the first NUL into a NUL-terminated buffer; NULL on OOM. */
char *text_ndup(const char *text, size_t len);

/* group(5): the name of gid in "name:password:gid:members" lines; -ENOENT if none,
 * -ENAMETOOLONG when it does not fit in buf. */
int group_name(const char *group_text, unsigned gid, char *buf, size_t len);

/* /proc/modules: present[i] set to whether names[i] is listed. 0 or -ENOMEM. */
int proc_modules_parse(const char *text, size_t len, const char *const *names, size_t n,
		       bool *present);

struct nvidia_version {
	char version[64];   /* of the first parsable "NVRM version:" line; "" when none */
	const char *flavor; /* "open" or "proprietary" (static), NULL when version is "" */
	char *gcc_version;  /* the last "GCC version:" value, NULL when none */
};
/* 0 or -ENOMEM; nvidia_version_done() frees what it holds either way. */
int nvidia_version_parse(const char *text, size_t len, struct nvidia_version *ret);
/* The driver version of an "NVRM version:" value v (its blanks stripped) into buf, and its
 * flavor, as nvidia_version_parse() reads them; NULL when it is not one (buf then unset). */
const char *nvrm_version(const char *v, char *buf, size_t buflen);
void nvidia_version_done(struct nvidia_version *v);

/* The "information" file's lines, in the order of nvidia_gpu_info_keys. */
#define NVIDIA_GPU_INFO_N 6
struct nvidia_gpu_info_key {
	const char *line, *name; /* "GPU UUID" → "uuid" */
};
extern const struct nvidia_gpu_info_key nvidia_gpu_info_keys[NVIDIA_GPU_INFO_N];
struct nvidia_gpu_info {
	char *value[NVIDIA_GPU_INFO_N]; /* the last line of each key, NULL when none */
};
int nvidia_gpu_info_parse(const char *text, size_t len, struct nvidia_gpu_info *ret);
void nvidia_gpu_info_done(struct nvidia_gpu_info *g);

struct cpuinfo {
	char *model, *vendor; /* the first "model name" / "vendor_id", NULL when none */
	int64_t logical_cpus; /* "processor" lines */
};
int cpuinfo_parse(const char *text, size_t len, struct cpuinfo *ret);
void cpuinfo_done(struct cpuinfo *c);

/* "Uid:\t<real>\t<effective>\t<saved>\t<fs>" (or Gid): the first two fields. */
struct proc_status_ids {
	bool seen;	    /* the first such line was there */
	char *raw;	    /* its value, for a malformed fact */
	unsigned id[2];	    /* real, effective */
	const char *why[2]; /* NULL, or why id[i] could not be read (static text) */
};
struct proc_status_group {
	char *raw;  /* the field, for a malformed fact */
	bool valid; /* gid holds it */
	unsigned gid;
};
#define PROC_STATUS_GROUPS_MAX 1024 /* NGROUPS_MAX is 65536; nobody has that many */
struct proc_status {
	struct proc_status_ids uid, gid;
	bool have_groups; /* a "Groups:" line was there */
	size_t n_groups;
	struct proc_status_group *groups;
};
int proc_status_parse(const char *text, size_t len, struct proc_status *ret);
void proc_status_done(struct proc_status *st);
