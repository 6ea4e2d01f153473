/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Loading vendor libraries: the one place that calls dlopen(3) and dlsym(3). A symbol list
 * (kmod's DL_SYMBOL_TABLE, nvtop's versioned-name fallbacks) is resolved into a caller-owned
 * function table, one struct per session, never file-scope globals. Each entry names the
 * symbols to try in order ("nvmlInit_v2" then "nvmlInit"); the name that answered is kept
 * so every fact can cite the exact function called. Also here: the sandbox a vendor child
 * process runs in (see dl_child_sandbox()), because it is raw OS access too.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The systemd/FDO ".note.dlopen" ELF note (systemd docs/ELF_DLOPEN_METADATA.md): packagers
 * read which libraries a binary may dlopen. One JSON array per feature.
 */
#define DL_NOTE_VENDOR "FDO"
#define DL_NOTE_TYPE   0x407c0c0au
#define DL_NOTE(var, json)                                                                         \
	__attribute__((used, section(".note.dlopen"))) _Alignas(                                   \
		sizeof(uint32_t)) static const struct {                                            \
		struct {                                                                           \
			uint32_t n_namesz, n_descsz, n_type;                                       \
		} nhdr;                                                                            \
		char name[sizeof(DL_NOTE_VENDOR)];                                                 \
		_Alignas(sizeof(uint32_t)) char desc[sizeof(json)];                                \
	} var = {                                                                                  \
		.nhdr = { sizeof(DL_NOTE_VENDOR), sizeof(json), DL_NOTE_TYPE },                    \
		.name = DL_NOTE_VENDOR,                                                            \
		.desc = json,                                                                      \
	}

#define DL_NAMES_MAX 4

struct dl_symbol {
	const char *names[DL_NAMES_MAX]; /* tried in order; NULL-terminated when shorter */
	size_t fn_offset;		 /* where the function pointer goes in the table */
	size_t name_offset;		 /* where the answering name (const char *) goes */
	bool required;
};

/*
 * Each vendor's symbol list is an X-macro, X(field, required, return type, (parameters),
 * names tried in order…), whose ABI header typedefs field##_fn. DL_TABLE_FIELDS gives the
 * session's table its members (the function, and the name that answered), DL_SYMBOL_ENTRY
 * one dl_symbol row pointing into a table of type `table`.
 */
#define DL_TABLE_FIELDS(f, req, ret, params, ...)                                                  \
	f##_fn *f;                                                                                 \
	const char *f##_name;
#define DL_SYMBOL_ENTRY(table, f, req, ...)                                                        \
	{ .names = { __VA_ARGS__ },                                                                \
	  .fn_offset = offsetof(table, f),                                                         \
	  .name_offset = offsetof(table, f##_name),                                                \
	  .required = req },

struct dl_lib;

/* dlopen(name, RTLD_LAZY|RTLD_LOCAL) of each name in turn until one loads. On failure
 * *ret_error gets dlerror()'s text for the first name (malloc'd) and -ENOENT is returned
 * when every failure was "No such file or directory", -ENOEXEC otherwise. */
int dl_open(const char *const names[], struct dl_lib **ret, char **ret_error);
struct dl_lib *dl_close(struct dl_lib *l);
/* The path the dynamic linker loaded (dlinfo RTLD_DI_LINKMAP), borrowed. */
const char *dl_path(const struct dl_lib *l);
/* Fills table from syms[0..n). Optional symbols that are absent stay NULL. Returns
 * -ENOSYS when a required one is missing (*ret_missing = its first name). */
int dl_resolve(struct dl_lib *l, const struct dl_symbol *syms, size_t n, void *table,
	       const char **ret_missing);

/*
 * In a freshly forked vendor child, before the first dlopen: stdin and stdout to /dev/null
 * (a chatty library must not corrupt gpuenv's output; stderr is left for diagnostics), and
 * the privileges that could change the machine dropped: CAP_MKNOD and CAP_SYS_MODULE from
 * the effective, permitted, inheritable, ambient and bounding sets, and no_new_privs so that
 * a set-uid helper (nvidia-modprobe) gains nothing. Real libnvidia-ml and libcuda call
 * mknodat("/dev/nvidiactl") when the node is missing, even without a kernel module
 * (facts/nvml-subset.md §1); in this child that fails with EPERM even as root.
 * Returns 0, or the first -errno (the caller carries on: each step is best effort).
 */
int dl_child_sandbox(void);
