/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a vendor library may not do inside its child (internal to src/vendor/), on top of
 * dl_child_sandbox() (capabilities, no_new_privs) and core/child.c (the process tree held by
 * a keeper, RLIMIT_DATA, RLIMIT_FSIZE 0): a seccomp filter that makes the calls that would
 * change the machine fail with EPERM: creating, truncating, removing, renaming or linking
 * files, device nodes and directories (left to Landlock where it judges them by path),
 * changing their modes, owners or times; starting
 * programs (execve) or processes (fork, clone without CLONE_THREAD: threads stay allowed);
 * signalling other processes; mount, modules, reboot, the clock, the host name. Files open
 * for writing without O_CREAT/O_TRUNC (with them too where Landlock ABI 3 judges them by
 * path) pass the filter (the real libnvidia-ml and libcuda open
 * /dev/nvidia* O_RDWR); RLIMIT_FSIZE 0 keeps them from growing any regular file, and a
 * Landlock ruleset, where the kernel has one, from opening any file for writing outside /dev
 * and the private directory.
 */
#pragma once

#include <stdbool.h>

/* Installs the filter in the calling (single-threaded) process: 0, -EAFNOSUPPORT on an
 * architecture it does not know, or the prctl's -errno (EINVAL: a kernel without
 * CONFIG_SECCOMP_FILTER). landlock_guards_paths: a Landlock ruleset of ABI 3 or later is in
 * force, so opens with O_CREAT or O_TRUNC and the calls that make, remove, rename, link or
 * truncate a file by path are left to it (it refuses them outside what
 * vendor_sandbox_landlock() permits, and a missing path fails with ENOENT as anywhere, which
 * libcuda needs); O_TMPFILE, modes, owners, attributes and times are refused either way. */
int vendor_sandbox_seccomp(bool landlock_guards_paths);

/* Restricts the calling process with Landlock: no file opened for writing, truncated, made,
 * removed or linked anywhere but beneath /dev (writing existing nodes only), the process's
 * own /proc/PID (writing and truncating existing files: thread names) and private_dir
 * (anything; NULL: nowhere). Returns the kernel's Landlock ABI version (>= 1) once in force,
 * or -errno: -ENOSYS / -EOPNOTSUPP where the kernel has no Landlock or it is off. */
int vendor_sandbox_landlock(const char *private_dir);
