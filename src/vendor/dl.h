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

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shared/elf-note.h"
#include "shared/macro.h"

#define DL_NAMES_MAX 4
#define DL_NAME_MAX  64 /* a name and its NUL (dl_resolve() refuses a name that fills it) */

/* The names are arrays, not pointers: a table of pointers in a position-independent binary is
 * relocated, so written, by the loader at each start of every command (a page fault per 4 KiB
 * page), and these tables are several pages that only a probe reads. */
struct dl_symbol {
	char names[DL_NAMES_MAX][DL_NAME_MAX]; /* tried in order; "" after the last */
	size_t fn_offset;		       /* where the function pointer goes in the table */
	size_t name_offset;		       /* where the answering name (const char *) goes, or
					  * DL_NO_NAME */
	bool required;
};
#define DL_NO_NAME SIZE_MAX

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
 * -ENOSYS when a required one is missing (*ret_missing = its first name), -EINVAL when a name
 * fills its array (no NUL). */
int dl_resolve(struct dl_lib *l, const struct dl_symbol *syms, size_t n, void *table,
	       const char **ret_missing);

/*
 * A library gpuenv needs for one feature only (libzip for wheels), loaded on its first use
 * instead of at every start-up, as kmod loads libzstd and liblzma (libkmod-file-zstd.c):
 * libzip brings libcrypto and its relocations into the process, which cost every gpuenv run
 * more than the work it came for (bench/bench-scan.sh measures it). The table is declared
 * with the library's own header in scope, one DL_LAZY_FIELD per function, so each pointer has
 * the real function's type (systemd's DLSYM_ARG check, by construction). One table per
 * process, since the library is mapped once per process anyway; the mutex makes the first
 * load safe from any thread. A failed load is kept with its reason and not retried.
 */
struct dl_lazy {
	const char *soname;
	const struct dl_symbol *symbols;
	size_t n_symbols;
	void *table;
	pthread_mutex_t lock;
	bool tried;
	int err;
	char *error; /* why it failed: dlerror()'s text, or the missing symbol */
	struct dl_lib *lib;
};
#define DL_LAZY_INIT(so, syms, tbl)                                                                \
	{                                                                                          \
		.soname = (so), .symbols = (syms), .n_symbols = ARRAY_SIZE(syms), .table = (tbl),  \
		.lock = PTHREAD_MUTEX_INITIALIZER                                                  \
	}
/* A binding's symbol list is an X-macro, SYMBOLS(X, table type) calling X(table type, f) for
 * each function f: DL_LAZY_FIELD makes the table's member, DL_LAZY_ENTRY its dl_symbol. */
#define DL_LAZY_FIELD(table, f) __typeof__(f) *f;
#define DL_LAZY_ENTRY(table, f)                                                                    \
	{ .names = { #f },                                                                         \
	  .fn_offset = offsetof(table, f),                                                         \
	  .name_offset = DL_NO_NAME,                                                               \
	  .required = true },
/* Defines `int getter(const type **ret, const char **ret_error)`: the table once loaded (0),
 * or a dl_lazy_load() error with *ret_error saying why. */
#define DL_LAZY_DEFINE(getter, type, soname, SYMBOLS)                                              \
	static type getter##_table;                                                                \
	static const struct dl_symbol getter##_symbols[] = { SYMBOLS(DL_LAZY_ENTRY, type) };       \
	static struct dl_lazy getter##_lazy =                                                      \
		DL_LAZY_INIT(soname, getter##_symbols, &getter##_table);                           \
	int getter(const type **ret, const char **ret_error)                                       \
	{                                                                                          \
		int err = dl_lazy_load(&getter##_lazy, ret_error);                                 \
                                                                                                   \
		if (err >= 0)                                                                      \
			*ret = &getter##_table;                                                    \
		return err;                                                                        \
	}
/* Loads l on the first call (later calls answer at once): 0 with l->table filled, or
 * -ENOENT (not installed), -ENOEXEC (would not load), -ENOSYS (a function is missing) or
 * -ENOMEM, with *ret_error (borrowed, for the process's lifetime) saying why. */
int dl_lazy_load(struct dl_lazy *l, const char **ret_error);

/*
 * In a freshly forked vendor child, before the first dlopen: stdin and stdout to /dev/null
 * (a chatty library must not corrupt gpuenv's output; stderr is left for diagnostics), and
 * the privileges that could change the machine dropped: CAP_MKNOD and CAP_SYS_MODULE from
 * the effective, permitted, inheritable, ambient and bounding sets, and no_new_privs so that
 * a set-uid helper (nvidia-modprobe) gains nothing. Real libnvidia-ml and libcuda call
 * mknodat("/dev/nvidiactl") when the node is missing, even without a kernel module
 * (docs/formats/nvml.md §1); in this child that fails with EPERM even as root.
 * Returns 0, or the first -errno (the caller carries on: each step is best effort).
 */
int dl_child_sandbox(void);
