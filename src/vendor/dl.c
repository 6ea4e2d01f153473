// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dlopen/dlsym behind symbol lists (see dl.h). dlerror(3) text is kept for the snapshot;
 * the loaded path comes from dlinfo(RTLD_DI_LINKMAP) so a stub libcuda picked up through
 * LD_LIBRARY_PATH is named (docs/formats/nvml.md §9, "stub trap"). Capabilities are changed
 * with the raw capget/capset system calls (capabilities(7), capget(2)): four calls do not
 * justify a libcap dependency.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dl.h"
#include "shared/macro.h"

struct dl_lib {
	void *handle;
	char *path;
};

int dl_open(const char *const names[], struct dl_lib **ret, char **ret_error)
{
	_cleanup_free_ char *first = NULL;
	bool all_enoent = true;

	for (size_t i = 0; names && names[i]; i++) {
		struct dl_lib *l;
		struct link_map *map = NULL;
		void *h = dlopen(names[i], RTLD_LAZY | RTLD_LOCAL);

		if (!h) {
			const char *e = dlerror();

			if (!e)
				e = "dlopen failed";
			if (!strstr(e, "No such file or directory"))
				all_enoent = false;
			/* The first name is the one that matters (the soname); keep its reason. */
			if (!first && !(first = strdup(e)))
				return -ENOMEM;
			continue;
		}
		l = calloc(1, sizeof(*l));
		if (!l) {
			dlclose(h);
			return -ENOMEM;
		}
		l->handle = h;
		if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
			l->path = strdup(map->l_name);
		else
			l->path = strdup(names[i]);
		if (!l->path) {
			dl_close(l);
			return -ENOMEM;
		}
		*ret = l;
		return 0;
	}
	if (ret_error)
		*ret_error = TAKE_PTR(first);
	return all_enoent ? -ENOENT : -ENOEXEC;
}

struct dl_lib *dl_close(struct dl_lib *l)
{
	if (!l)
		return NULL;
	if (l->handle)
		dlclose(l->handle);
	free(l->path);
	free(l);
	return NULL;
}

const char *dl_path(const struct dl_lib *l)
{
	return l ? l->path : NULL;
}

static void *dl_sym(struct dl_lib *l, const char *name)
{
	if (!l || !name)
		return NULL;
	dlerror();
	return dlsym(l->handle, name);
}

int dl_resolve(struct dl_lib *l, const struct dl_symbol *syms, size_t n, void *table,
	       const char **ret_missing)
{
	char *base = table;

	for (size_t i = 0; i < n; i++) {
		void *fn = NULL;
		const char *name = NULL;

		for (size_t k = 0; k < DL_NAMES_MAX && syms[i].names[k][0] && !fn; k++) {
			/* a name as long as the array has no NUL: a table written wrong */
			if (!memchr(syms[i].names[k], '\0', DL_NAME_MAX))
				return -EINVAL;
			fn = dl_sym(l, syms[i].names[k]);
			if (fn)
				name = syms[i].names[k];
		}
		if (!fn && syms[i].required) {
			if (ret_missing)
				*ret_missing = syms[i].names[0];
			return -ENOSYS;
		}
		/* POSIX dlsym: a function's address travels through void *. */
		memcpy(base + syms[i].fn_offset, &fn, sizeof(fn));
		if (syms[i].name_offset != DL_NO_NAME)
			memcpy(base + syms[i].name_offset, &name, sizeof(name));
	}
	return 0;
}

static int dl_lazy_load_locked(struct dl_lazy *l)
{
	const char *names[] = { l->soname, NULL };
	const char *missing = NULL;
	int err;

	free(l->error);
	l->error = NULL;
	err = dl_open(names, &l->lib, &l->error);
	if (err < 0)
		return err;
	err = dl_resolve(l->lib, l->symbols, l->n_symbols, l->table, &missing);
	if (err < 0) {
		if (asprintf(&l->error, "%s has no %s()", dl_path(l->lib), missing) < 0)
			l->error = NULL;
		l->lib = dl_close(l->lib);
	}
	return err;
}

int dl_lazy_load(struct dl_lazy *l, const char **ret_error)
{
	int err;

	pthread_mutex_lock(&l->lock);
	if (!l->tried) {
		l->err = dl_lazy_load_locked(l);
		l->tried = l->err != -ENOMEM; /* out of memory: try again next time */
	}
	err = l->err;
	pthread_mutex_unlock(&l->lock);
	if (err < 0 && ret_error)
		*ret_error = l->error ? l->error : strerror(-err);
	return err;
}

static int drop_caps(void)
{
	static const int drop[] = { CAP_MKNOD, CAP_SYS_MODULE };
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int err = 0;

	/* The bounding set first (needs CAP_SETPCAP, which only root has): an exec'd helper
	 * running as root would otherwise get the capabilities back. */
	for (size_t i = 0; i < ARRAY_SIZE(drop); i++)
		if (prctl(PR_CAPBSET_DROP, drop[i], 0, 0, 0) < 0 && errno != EPERM && !err)
			err = -errno;
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (syscall(SYS_capget, &hdr, data) < 0)
		return -errno;
	for (size_t i = 0; i < ARRAY_SIZE(drop); i++) {
		uint32_t bit = UINT32_C(1) << (drop[i] % 32);
		unsigned w = (unsigned)drop[i] / 32;

		data[w].effective &= ~bit;
		data[w].permitted &= ~bit;
		data[w].inheritable &= ~bit;
	}
	if (syscall(SYS_capset, &hdr, data) < 0 && !err)
		err = -errno;
	return err;
}

int dl_child_sandbox(void)
{
	int err = 0, fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	} else {
		err = -errno;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 && !err)
		err = -errno;
	{
		int r = drop_caps();

		if (r < 0 && !err)
			err = r;
	}
	return err;
}
