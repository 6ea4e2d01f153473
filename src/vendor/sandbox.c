// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The system-call filter of a vendor child (see sandbox.h): a classic BPF program for
 * seccomp(2) mode SECCOMP_MODE_FILTER, written out by hand rather than through libseccomp
 * because it is short and fixed. Layout of struct seccomp_data and the return actions:
 * <linux/seccomp.h> and seccomp(2); BPF opcodes: <linux/filter.h> and
 * Documentation/networking/filter.rst in the kernel tree; system call numbers: the
 * architecture's <asm/unistd.h>, selected by the compiler, and checked at run time against
 * seccomp_data.arch (AUDIT_ARCH_*, <linux/audit.h>) so that a call through another ABI
 * (x86's int 0x80, x32) cannot slip through with other numbers.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox.h"
#include "shared/macro.h"

#if defined(__x86_64__)
#define SANDBOX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SANDBOX_ARCH AUDIT_ARCH_AARCH64
#endif

/* fchmodat2(2) came with Linux 6.6, after the headers of Debian 12; from number 424 on, every
 * architecture shares one table (scripts/syscall.tbl in the kernel tree), so the number is
 * the same on both targets. */
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif

#ifdef SANDBOX_ARCH

/* Little-endian targets only (both above): an argument's low 32 bits come first. */
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + (i) * sizeof(__u64))

/* open(2) flags that create or empty a file. O_TMPFILE includes O_DIRECTORY (open(2)): only
 * its own bit counts, or every opendir() would be refused. Landlock (ABI 3 on) sees the path
 * of O_CREAT and O_TRUNC opens and refuses them outside what it permits; an O_TMPFILE file
 * has no path for it to judge, so the filter always refuses that one. */
#define TMPFILE_FLAG   (O_TMPFILE & ~O_DIRECTORY)
#define CREATING_FLAGS (O_CREAT | O_TRUNC | TMPFILE_FLAG)

/* Calls that make, remove, rename or link a file by its path: each fails with EPERM, unless
 * Landlock (ABI 3 on: MAKE_*, REMOVE_*, REFER, TRUNCATE) judges them by path. Then a call on
 * a path that does not exist fails as it would anywhere (ENOENT), which libraries rely on:
 * libcuda's cuInit unlinks a file that is usually not there and fails with
 * CUDA_ERROR_OPERATING_SYSTEM when the unlink fails with EPERM (seen on an H200, driver
 * 580.159.04). */
static const int path_changes[] = {
#ifdef __NR_creat
	__NR_creat,
#endif
#ifdef __NR_mknod
	__NR_mknod,
#endif
	__NR_mknodat,
#ifdef __NR_rmdir
	__NR_rmdir,
#endif
#ifdef __NR_unlink
	__NR_unlink,
#endif
	__NR_unlinkat,
#ifdef __NR_rename
	__NR_rename,
#endif
#ifdef __NR_renameat
	__NR_renameat,
#endif
	__NR_renameat2,
#ifdef __NR_link
	__NR_link,
#endif
	__NR_linkat,
#ifdef __NR_symlink
	__NR_symlink,
#endif
	__NR_symlinkat, __NR_truncate,
};

/* Calls that change files in ways Landlock does not see (modes, owners, attributes, times),
 * start a program or a process, or change the system: each fails with EPERM. */
static const int denied[] = {
#ifdef __NR_chmod
	__NR_chmod,
#endif
	__NR_fchmod,
	__NR_fchmodat,
	__NR_fchmodat2,
#ifdef __NR_chown
	__NR_chown,
#endif
#ifdef __NR_lchown
	__NR_lchown,
#endif
	__NR_fchown,
	__NR_fchownat,
	__NR_setxattr,
	__NR_lsetxattr,
	__NR_fsetxattr,
	__NR_removexattr,
	__NR_lremovexattr,
	__NR_fremovexattr,
	__NR_utimensat,
#ifdef __NR_futimesat
	__NR_futimesat,
#endif
#ifdef __NR_utimes
	__NR_utimes,
#endif
#ifdef __NR_fork
	__NR_fork,
#endif
#ifdef __NR_vfork
	__NR_vfork,
#endif
	__NR_execve,
	__NR_execveat,
	__NR_ptrace,
	__NR_process_vm_writev,
	__NR_tkill,
	__NR_mount,
	__NR_umount2,
	__NR_pivot_root,
	__NR_swapon,
	__NR_swapoff,
	__NR_reboot,
	__NR_kexec_load,
#ifdef __NR_kexec_file_load
	__NR_kexec_file_load,
#endif
	__NR_init_module,
	__NR_finit_module,
	__NR_delete_module,
	__NR_settimeofday,
	__NR_clock_settime,
	__NR_sethostname,
	__NR_setdomainname,
};

/* Calls whose arguments sit behind a pointer that a filter cannot read: ENOSYS, which glibc
 * and other libraries take as "old kernel" and fall back (clone3 → clone, openat2 → openat);
 * io_uring would run the denied calls from a kernel thread. */
static const int unknowable[] = { __NR_clone3, __NR_openat2, __NR_io_uring_setup };

/* mkdir fails with EEXIST: libraries create their cache directories "mkdir -p" style and give
 * up on any other error (PoCL's device set-up does), while the file they then create in it
 * fails with EPERM, which they take as "no cache". */
static const int as_if_there[] = {
#ifdef __NR_mkdir
	__NR_mkdir,
#endif
	__NR_mkdirat,
};

#define STMT(code, k)	      ((struct sock_filter)BPF_STMT((code), (k)))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP((code), (k), (jt), (jf)))
#define LOAD(off)	      STMT(BPF_LD | BPF_W | BPF_ABS, (__u32)(off))
#define RET(v)		      STMT(BPF_RET | BPF_K, (v))
#define EPERM_RET	      RET(SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define ALLOW		      RET(SECCOMP_RET_ALLOW)

#define PROG_MAX 256

struct prog {
	struct sock_filter f[PROG_MAX];
	unsigned short n;
};

static void put(struct prog *p, struct sock_filter i)
{
	if (p->n < PROG_MAX)
		p->f[p->n] = i;
	p->n++;
}

/* if (nr == call) { A = low word of argument arg; if (A & bits) deny else allow } */
static void flags_rule(struct prog *p, int call, unsigned arg, __u32 bits, bool allow_when_set)
{
	put(p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)call, 0, 4));
	put(p, LOAD(ARG_LO(arg)));
	put(p, JUMP(BPF_JMP | BPF_JSET | BPF_K, bits, 0, 1));
	put(p, allow_when_set ? ALLOW : EPERM_RET);
	put(p, allow_when_set ? EPERM_RET : ALLOW);
}

/* if (nr == call) { allow when the pid argument (the first) is self (or 0, when zero_ok) } */
static void self_rule(struct prog *p, int call, __u32 self, bool zero_ok)
{
	put(p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)call, 0, 5));
	put(p, LOAD(ARG_LO(0)));
	put(p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 2, 0));
	put(p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, zero_ok ? 0u : self, 1, 0));
	put(p, EPERM_RET);
	put(p, ALLOW);
}

int vendor_sandbox_seccomp(bool landlock_guards_paths)
{
	__u32 creating = landlock_guards_paths ? TMPFILE_FLAG : CREATING_FLAGS;
	struct prog p = { .n = 0 };
	struct sock_fprog fprog;
	__u32 self = (__u32)getpid();

	put(&p, LOAD(offsetof(struct seccomp_data, arch)));
	put(&p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_ARCH, 1, 0));
	put(&p, RET(SECCOMP_RET_KILL_PROCESS));
	put(&p, LOAD(offsetof(struct seccomp_data, nr)));
#ifdef __x86_64__
	/* The x32 ABI shares AUDIT_ARCH_X86_64 with its own numbers: bit 30 set. */
	put(&p, JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
	put(&p, RET(SECCOMP_RET_ERRNO | ENOSYS));
#endif
	for (size_t i = 0; i < ARRAY_SIZE(denied); i++) {
		put(&p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)denied[i], 0, 1));
		put(&p, EPERM_RET);
	}
	for (size_t i = 0; !landlock_guards_paths && i < ARRAY_SIZE(path_changes); i++) {
		put(&p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)path_changes[i], 0, 1));
		put(&p, EPERM_RET);
	}
	for (size_t i = 0; i < ARRAY_SIZE(as_if_there); i++) {
		put(&p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)as_if_there[i], 0, 1));
		put(&p, RET(SECCOMP_RET_ERRNO | EEXIST));
	}
	for (size_t i = 0; i < ARRAY_SIZE(unknowable); i++) {
		put(&p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)unknowable[i], 0, 1));
		put(&p, RET(SECCOMP_RET_ERRNO | ENOSYS));
	}
	/* Opening for reading and writing stays allowed (libnvidia-ml opens /dev/nvidiactl
	 * O_RDWR); creating, truncating and anonymous files do not, unless Landlock judges the
	 * first two by path (libcuda names its threads with fopen("/proc/self/task/TID/comm",
	 * "w"), which is O_CREAT | O_TRUNC, and cuInit fails when that is refused). */
#ifdef __NR_open
	flags_rule(&p, __NR_open, 1, creating, false);
#endif
	flags_rule(&p, __NR_openat, 2, creating, false);
	/* Threads (CLONE_THREAD) yes, processes no. */
	flags_rule(&p, __NR_clone, 0, CLONE_THREAD, true);
	/* Signals to itself only (raise(3), abort(3), pthread_kill(3)). */
	self_rule(&p, __NR_kill, self, true);
	self_rule(&p, __NR_tgkill, self, false);
	put(&p, ALLOW);
	if (p.n > PROG_MAX)
		return -E2BIG;
	fprog = (struct sock_fprog){ .len = p.n, .filter = p.f };
	/* Needs no_new_privs (set by dl_child_sandbox()) unless the caller has CAP_SYS_ADMIN. */
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) < 0)
		return -errno;
	return 0;
}

#else

int vendor_sandbox_seccomp(bool landlock_guards_paths)
{
	(void)landlock_guards_paths;
	return -EAFNOSUPPORT; /* no system call table for this architecture here */
}

#endif

/*
 * Landlock (Documentation/userspace-api/landlock.rst in the kernel tree; <linux/landlock.h>):
 * what the filter above cannot see, because it sits behind a path: opening an existing file
 * for writing. A library running as root could otherwise write to /proc/sys or /sys, and
 * shrink a file with ftruncate(2), which RLIMIT_FSIZE does not stop. Writing stays allowed
 * beneath /dev (the driver's device nodes are opened O_RDWR) and in the private directory.
 * ABI 2 added REFER (linking or renaming across directories), ABI 3 TRUNCATE; the access
 * rights a kernel does not know are left out, as the documentation's example does.
 */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

#define FS_CHANGES                                                                                 \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |                           \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |                           \
	 LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |                               \
	 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |                             \
	 LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM)

/* keep_open: the directory stays open for the life of the process (its fd is not closed),
 * for a directory whose inode the kernel could otherwise forget and make anew (procfs). */
static int landlock_allow(int ruleset, const char *path, __u64 access, bool keep_open)
{
	struct landlock_path_beneath_attr beneath = { .allowed_access = access };
	int err = 0;

	beneath.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (beneath.parent_fd < 0)
		return errno == ENOENT ? 0 : -errno; /* nothing there to allow */
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) < 0)
		err = -errno;
	if (err || !keep_open)
		close(beneath.parent_fd);
	return err;
}

int vendor_sandbox_landlock(const char *private_dir)
{
	struct landlock_ruleset_attr attr = { .handled_access_fs = FS_CHANGES };
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	int ruleset, err;

	if (abi < 0)
		return -errno; /* ENOSYS: an old kernel; EOPNOTSUPP: Landlock not enabled at boot */
	if (abi >= 2)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		return -errno;
	err = landlock_allow(ruleset, "/dev", LANDLOCK_ACCESS_FS_WRITE_FILE, false);
	/* The process's own /proc/PID (what /proc/self is when resolved here): libcuda writes
	 * its threads' names to task/TID/comm, and cuInit fails when it cannot. Writing there
	 * changes this process only. */
	if (!err)
		err = landlock_allow(ruleset, "/proc/self",
				     LANDLOCK_ACCESS_FS_WRITE_FILE |
					     (attr.handled_access_fs & LANDLOCK_ACCESS_FS_TRUNCATE),
				     true);
	if (!err && private_dir)
		err = landlock_allow(ruleset, private_dir, attr.handled_access_fs, false);
	/* Needs no_new_privs (set by dl_child_sandbox()) unless the caller has CAP_SYS_ADMIN. */
	if (!err && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		err = -errno;
	close(ruleset);
	return err < 0 ? err : (int)abi;
}
