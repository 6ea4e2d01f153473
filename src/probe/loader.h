/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which file would the dynamic loader load for a soname, and which does that file shadow?
 * An emulation of glibc's ld.so search (ld.so(8) "Shared object dependencies"; glibc
 * elf/dl-load.c _dl_map_object(), open_path(), open_verify()) over the root:
 *   1. the requester's DT_RPATH, only when it has no DT_RUNPATH;
 *   2. LD_LIBRARY_PATH (from the environment overlay; ':' or ';' separated);
 *   3. the requester's DT_RUNPATH;
 *   4. /etc/ld.so.cache (ldso-cache.h): the first entry for the soname with this ABI's flags;
 *   5. the system directories: on Debian/Ubuntu multiarch /lib/<triplet>, /usr/lib/<triplet>,
 *      /lib, /usr/lib (measured with LD_DEBUG=libs on Debian 12's glibc 2.36; chosen when
 *      the root has /lib/<triplet>, /usr/lib/<triplet> or /etc/debian_version), elsewhere
 *      glibc's configured slibdir/libdir, /lib64 and /usr/lib64 on 64-bit ports.
 * $ORIGIN/${ORIGIN} (the requester's directory as it was opened), $LIB and $PLATFORM are
 * expanded as glibc's _dl_dst_substitute() does. In each directory, as open_verify() does,
 * a file of another ELF class or machine is passed over, an unreadable one (EACCES) or a
 * missing one is passed over, and anything else (not ELF, a symlink loop, EIO) stops the
 * search with an error. The search goes on past the winner so that everything the winner
 * shadows is listed. Not emulated: glibc-hwcaps and legacy tls/platform subdirectories of
 * each directory (CPU-dependent; no GPU library ships there), the DT_RPATH of the
 * requester's own loaders, DF_1_NODEFLIB, secure-execution mode, LD_PRELOAD.
 * Files are read through the root (loader_read_dynamic() for ELF files), so --sysroot works.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/env.h"
#include "core/root.h"
#include "formats/elf-dynamic.h"
#include "formats/elf-symbols.h"
#include "formats/ldso-cache.h"
#include "probe/dir-cache.h"

#define LOADER_MAX_DIRS	      256u		/* entries of one search list */
#define LOADER_MAX_CANDIDATES 64u		/* candidates kept per soname */
#define LOADER_MAP_MAX	      ((size_t)4 << 30) /* ELF files are mapped, never read: a large cap */

enum loader_via {
	LOADER_VIA_RPATH,
	LOADER_VIA_LD_LIBRARY_PATH,
	LOADER_VIA_RUNPATH,
	LOADER_VIA_CACHE,
	LOADER_VIA_DEFAULT,
};

enum loader_verdict {
	LOADER_LOADS,	     /* ld.so maps this file */
	LOADER_SKIP_CLASS,   /* another ELF class: passed over ("wrong ELF class") */
	LOADER_SKIP_MACHINE, /* another e_machine: passed over */
	LOADER_SKIP_ERRNO,   /* EACCES, or a dangling symlink (ENOENT): passed over */
	LOADER_FAIL_ERRNO,   /* ELOOP, EIO, EISDIR …: ld.so stops with this error */
	LOADER_FAIL_NOT_ELF, /* not an ELF file: ld.so stops ("invalid ELF header") */
};

/* One directory of a search list. */
struct loader_dir {
	char *entry;	  /* as written ("$ORIGIN/../lib", "" …) */
	char *path;	  /* expanded absolute directory, or NULL when it cannot be searched */
	const char *note; /* why path is NULL (static text) */
	int err;	  /* root_stat() of path: 0, -ENOENT, -EACCES … (searched only when 0) */
};

struct loader_dirs {
	struct loader_dir *v;
	size_t n;
	bool truncated;
};

struct loader_candidate {
	char *path;	/* as ld.so opens it: dir + "/" + soname, or the cache's value */
	char *resolved; /* symlinks resolved inside the root, or NULL when they cannot be */
	char *dir;	/* the directory searched, or NULL for a cache entry */
	enum loader_via via;
	enum loader_verdict verdict;
	int err;      /* with LOADER_SKIP_ERRNO / LOADER_FAIL_ERRNO */
	char *soname; /* the file's DT_SONAME, or NULL */
	unsigned elf_class, machine;
	char *version;	/* from the resolved file name: libcuda.so.550.54.15 → "550.54.15" */
	bool is_stub;	/* in a stubs/ directory (CUDA's link-time stubs) */
	bool in_compat; /* in a compat/ directory (CUDA forward-compatibility libcuda) */
	const char *hwcaps_subdir; /* cache entry under glibc-hwcaps/<this> (CPU-dependent) */
	const char *problem;	   /* elf-dynamic's note on a damaged dynamic section */
	/* With struct loader's symbols_prefix set when it was judged: its dynamic symbols of
	 * that prefix, read with its dynamic section (loader_read_elf()), and symbols_err as
	 * struct loader_elf's (1: not read). */
	struct elf_symbols *symbols;
	int symbols_err;
};

struct loader_result {
	char *soname;
	struct loader_candidate *cands; /* in search order */
	size_t n_cands;
	bool truncated;
	ssize_t winner;	 /* index of the file ld.so loads, or -1 */
	ssize_t failure; /* index of the candidate where ld.so stops with an error, or -1 */
	/* Something earlier in the search than the answer (winner, failure, or the end of a
	 * search that found nothing) that could not be read (EACCES, EPERM): a candidate file,
	 * or a directory of a search list. ld.so passes over what it cannot open, so which file
	 * the judged process loads depends on whether it can read that: the answer is
	 * undetermined ("could not tell"). NULL when it is determined. */
	char *undetermined_by;
	int undetermined_err;
	/* The first unreadable directory and how many candidates came before it (pick()). */
	char *unread_dir;
	int unread_dir_err;
	size_t unread_dir_at;
	/* With a requester (loader_resolve_for): its search lists and what went wrong reading it.
	 */
	char *requester;
	int requester_err;	       /* reading or parsing the requester: 0 or -errno */
	const char *requester_problem; /* elf-dynamic's note (a bogus DT_RUNPATH offset …) */
	char *rpath, *runpath;	       /* as stored in the requester */
	struct loader_dirs rpath_dirs, runpath_dirs;
};

struct loader {
	struct root *root;
	unsigned elf_class, machine; /* the ABI of the process being emulated */
	int32_t cache_flags;	     /* ldso_cache_arch_flags() of it */
	const char *triplet;	     /* Debian multiarch triplet ("x86_64-linux-gnu") */
	char *lib;		     /* $LIB */
	const char *platform;	     /* $PLATFORM */
	const char *defaults_kind;   /* "debian-multiarch", "lib64" or "lib" */
	/* The layout test that could not be made (a multiarch directory or /etc/debian_version
	 * that could not be looked at, none saying Debian): defaults_kind is then a guess. */
	char *defaults_unknown_path;
	int defaults_unknown_err;
	char *ld_library_path; /* the variable as set, or NULL */
	struct loader_dirs llp, defaults;
	/* /etc/ld.so.cache: parsed, or why not (cache_err: -ENOENT, -EBADMSG with cache_why …) */
	struct root_map cache_map;
	struct ldso_cache *cache;
	int cache_err;
	char cache_why[LDSO_CACHE_REASON_MAX];
	/* Directory listings, read once: loader_find_sonames() and the search (a name not listed
	 * is not looked up). */
	struct dir_cache listings;
	/* Set while a caller needs the symbols of this prefix of the files a search judges
	 * (the nvJitLink a library gets): each is then read once for both. */
	const char *symbols_prefix;
};

/* /usr/lib/<triplet>: the multiarch library directory of Debian's glibc for the ABI emulated
 * (struct loader's triplet), where Debian's and Ubuntu's packages install their libraries;
 * NULL for an ABI whose triplet loader.c does not know. */
const char *loader_multiarch_lib(void);
/* Sets up the search for the ABI this gpuenv was built for: reads LD_LIBRARY_PATH from env,
 * maps and parses /etc/ld.so.cache (a failure is kept in cache_err), stats each directory. */
int loader_new(struct root *root, const struct env *env, struct loader **ret);
struct loader *loader_free(struct loader *l);
static inline void loader_freep(struct loader **l)
{
	loader_free(*l);
}

/* The search for soname as the main program (no RPATH/RUNPATH) would do it. -ENOMEM only. */
int loader_resolve(struct loader *l, const char *soname, struct loader_result **ret);
/* The search for soname as a DT_NEEDED of the ELF file requester (a path inside the root, as
 * the process opened it: $ORIGIN is its directory), with its DT_RPATH / DT_RUNPATH. */
int loader_resolve_for(struct loader *l, const char *soname, const char *requester,
		       struct loader_result **ret);
/* A requester's search lists, read once for many sonames (a framework library's DT_NEEDED
 * entries): the ELF file mapped and parsed, its DT_RPATH/DT_RUNPATH expanded and stat'ed.
 * A requester that cannot be read is still made, with err / problem set. -ENOMEM only. */
struct loader_requester {
	char *path;
	int err;	     /* reading or parsing it: 0 or -errno */
	const char *problem; /* elf-dynamic's note */
	char *rpath, *runpath;
	struct loader_dirs rpath_dirs, runpath_dirs; /* rpath_dirs only without DT_RUNPATH */
};
int loader_requester_new(struct loader *l, const char *path, struct loader_requester **ret);
/* The same from path's dynamic section read before (loader_read_dynamic()'s answer: err the
 * read's or the parse's error, d the parse or NULL). */
int loader_requester_of(struct loader *l, const char *path, int err, const struct elf_dynamic *d,
			struct loader_requester **ret);
/* The dynamic section of path (loader-read.c): a large compressed member of a wheel or an
 * image layer streamed, never spilled, anything else mapped. Returns the read's error (as
 * root_map()'s) or -ENOMEM; else 0 with *parse_err elf_dynamic_parse()'s return. */
int loader_read_dynamic(struct root *root, const char *path, int *parse_err,
			struct elf_dynamic **ret);
/* A library read once for its dynamic section and, when wants_symbols() says so of that (NULL:
 * always), its dynamic symbols whose name starts with prefix (formats/elf-symbols.h). A
 * streamed member keeps its symbol tables only when it says so, a pass later when they lie
 * before its dynamic strings (as ld lays them out). */
struct loader_elf {
	int dynamic_err; /* elf_dynamic_parse()'s return */
	struct elf_dynamic *dynamic;
	/* elf_symbols_parse()'s return; 1: not read (not wanted, or the dynamic section could
	 * not be parsed); -ENOBUFS: symbol tables over what a streamed member keeps
	 * (ELF_STREAM_MAX_RANGE) */
	int symbols_err;
	struct elf_symbols *symbols;
};
/* Returns the read's error or -ENOMEM (*ret then holds nothing); else 0. */
int loader_read_elf(struct root *root, const char *path, const char *prefix,
		    bool (*wants_symbols)(const struct elf_dynamic *d), struct loader_elf *ret);
/* The same keeping the symbols of any of prefixes (NULL-terminated): elf_symbols_parse_any(). */
int loader_read_elf_any(struct root *root, const char *path, const char *const *prefixes,
			bool (*wants_symbols)(const struct elf_dynamic *d), struct loader_elf *ret);
/* The same keeping the symbols it needs under a version of another file, whatever their name
 * (elf_symbols_parse_needed()). */
int loader_read_elf_needed(struct root *root, const char *path,
			   bool (*wants_symbols)(const struct elf_dynamic *d),
			   struct loader_elf *ret);
void loader_elf_done(struct loader_elf *e);
struct loader_requester *loader_requester_free(struct loader_requester *q);
static inline void loader_requester_freep(struct loader_requester **q)
{
	loader_requester_free(*q);
}
/* loader_resolve_for() with a requester read before: the same answer, without reading the
 * requester again. */
int loader_resolve_req(struct loader *l, const char *soname, const struct loader_requester *q,
		       struct loader_result **ret);
struct loader_result *loader_result_free(struct loader_result *r);
static inline void loader_result_freep(struct loader_result **r)
{
	loader_result_free(*r);
}

/* Every soname of a library family ("libcudnn.so" → libcudnn.so.8, libcudnn.so.9): the cache
 * keys with this ABI's flags, and the DT_SONAMEs of files named <stem> or <stem>.* in the
 * LD_LIBRARY_PATH and system directories. Sorted, unique; an empty vector when none. */
int loader_find_sonames(struct loader *l, const char *stem, char ***ret);

const char *loader_via_name(enum loader_via v);
const char *loader_verdict_name(enum loader_verdict v);
/* "libcuda.so.1" + "libcuda.so.550.54.15" → "550.54.15"; NULL when the name has no version
 * past the soname's ".so" (the stub "libcuda.so"). */
char *loader_version_from_name(const char *soname, const char *file_name);
/* Does path have a component named comp ("stubs", "compat")? */
bool loader_path_has_component(const char *path, const char *comp);
/* Expands $ORIGIN, $LIB, $PLATFORM in one search-list entry; origin may be NULL (unknown).
 * *ret is NULL with *ret_note set when the entry cannot be searched. */
int loader_expand(const struct loader *l, const char *entry, const char *origin, char **ret,
		  const char **ret_note);
