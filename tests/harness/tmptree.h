/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test harness: a throw-away directory tree under /tmp that a unit test fills with the files,
 * directories, symlinks and device nodes of the machine it imitates, then removes. Paths are
 * "root" + "rel"; rel may start with '/' or not. Every helper that builds the tree fails the
 * running cmocka test when the file system refuses (except where it says otherwise).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shared/macro.h"

/* Size of a buffer that holds a tmptree_new() directory name. */
#define TMPTREE_DIR_MAX 64

/* mkdtemp("/tmp/gpuenv-<tag>-XXXXXX") into dir; returns dir, or NULL (errno set). */
char *tmptree_new(char dir[static TMPTREE_DIR_MAX], const char *tag);
/* Removes the tree (rm -rf, links not followed); 0 or -errno. */
int tmptree_remove(const char *dir);

/* root + "/" + rel, into buf (the test fails if it does not fit). */
const char *tmptree_path(char *buf, size_t size, const char *root, const char *rel);
/* mkdir -p root/rel. */
void tmptree_mkdir(const char *root, const char *rel);
/* root/rel with exactly these bytes (its directory created first). */
void tmptree_put(const char *root, const char *rel, const void *data, size_t len);
void tmptree_puts(const char *root, const char *rel, const char *text);
/* root/rel -> target (its directory created first). */
void tmptree_symlink(const char *root, const char *rel, const char *target);
/* A character device node root/rel (its directory created first); false when mknod is
 * refused (a sandbox), which the caller decides about. */
bool tmptree_mknod_chr(const char *root, const char *rel, mode_t mode, dev_t dev);

/* The whole file at path, NUL-terminated, in a malloc()ed buffer; NULL if it cannot be opened. */
uint8_t *tmptree_slurp(const char *path, size_t *ret_len);

/* system() of the formatted command line (up to 8 KiB). */
int tmptree_sh(const char *fmt, ...) _printf_(1, 2);
/* Whether `cc` runs. */
bool tmptree_have_cc(void);
/* glibc's ldconfig: /sbin/ldconfig, else /usr/sbin/ldconfig (NULL when neither runs). */
const char *tmptree_ldconfig(void);
/* A tiny shared object built with cc at root/rel, with DT_SONAME soname (NULL: none) and more
 * compiler/linker flags (NULL: none); the test fails if cc does. */
void tmptree_cc_so(const char *root, const char *rel, const char *soname, const char *extra);
/* The real ld.so's answer for soname when prog (an executable or library on the live root) is
 * loaded with this LD_LIBRARY_PATH: the path `ldd` prints after "=>", or "" when it prints
 * "not found" or nothing for it. */
void tmptree_ldd_path(const char *prog, const char *llp, const char *soname, char *out, size_t len);

/* The committed fixture's root as tests/tools/fixture_root.py made it for this run (its
 * generated files included): meson runs the test through `fixture_root.py --exec SCENARIO`,
 * which sets GPUENV_FIXTURE_ROOT; the test fails when it is unset. */
const char *tmptree_fixture_root(void);
/* Whether the fixture's file rel (an absolute path in the root) could not be made (a tool
 * missing: GPUENV_FIXTURE_MISSING); prints why, for the caller to skip() visibly. */
bool tmptree_fixture_missing(const char *rel);
