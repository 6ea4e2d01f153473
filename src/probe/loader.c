// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The dynamic loader's search, emulated over the root (see loader.h for the order and what
 * is left out). Reads /etc/ld.so.cache (glibc elf/dl-cache.c), the directories of
 * LD_LIBRARY_PATH, DT_RPATH/DT_RUNPATH and the system directories, and the ELF header and
 * dynamic section of each candidate (fatbin/elf-dynamic.c), all through core/root.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-dynamic.h"
#include "probe/loader.h"
#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strv.h"

#define LDSO_CACHE_PATH "/etc/ld.so.cache"

/* The ABI of the process emulated: the one gpuenv itself was built for. */
#if defined(__x86_64__) && !defined(__ILP32__)
#define HOST_CLASS    ELFCLASS64
#define HOST_MACHINE  EM_X86_64
#define HOST_TRIPLET  "x86_64-linux-gnu"
#define HOST_PLATFORM "x86_64"
#elif defined(__aarch64__)
#define HOST_CLASS    ELFCLASS64
#define HOST_MACHINE  EM_AARCH64
#define HOST_TRIPLET  "aarch64-linux-gnu"
#define HOST_PLATFORM "aarch64"
#elif defined(__i386__)
#define HOST_CLASS    ELFCLASS32
#define HOST_MACHINE  EM_386
#define HOST_TRIPLET  "i386-linux-gnu"
#define HOST_PLATFORM "i686"
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_CLASS    ELFCLASS64
#define HOST_MACHINE  EM_PPC64
#define HOST_TRIPLET  "powerpc64le-linux-gnu"
#define HOST_PLATFORM "powerpc64le"
#else
#define HOST_CLASS    (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)
#define HOST_MACHINE  EM_NONE
#define HOST_PLATFORM "unknown"
#endif
/* Debian's glibc searches /lib/<triplet> and /usr/lib/<triplet>; its packages install their
 * libraries into the second (loader_multiarch_lib()). */
#ifdef HOST_TRIPLET
#define HOST_MULTIARCH_LIB "/usr/lib/" HOST_TRIPLET
#else
#define HOST_TRIPLET	   NULL
#define HOST_MULTIARCH_LIB NULL
#endif

const char *loader_multiarch_lib(void)
{
	return HOST_MULTIARCH_LIB;
}

static void dirs_done(struct loader_dirs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].entry);
		free(d->v[i].path);
	}
	free(d->v);
	*d = (struct loader_dirs){ 0 };
}

static int dirs_add(struct loader *l, struct loader_dirs *d, const char *entry, size_t len,
		    const char *origin)
{
	struct loader_dir *x;
	struct stat st;
	int err;

	if (d->n >= LOADER_MAX_DIRS) {
		d->truncated = true;
		return 0;
	}
	if (!d->v) {
		d->v = calloc(LOADER_MAX_DIRS, sizeof(*d->v));
		if (!d->v)
			return -ENOMEM;
	}
	x = &d->v[d->n];
	*x = (struct loader_dir){ 0 };
	x->entry = strndup(entry, len);
	if (!x->entry)
		return -ENOMEM;
	d->n++;
	err = loader_expand(l, x->entry, origin, &x->path, &x->note);
	if (err < 0)
		return err;
	if (x->path) {
		err = root_stat(l->root, x->path, &st);
		x->err = err < 0 ? err : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	}
	return 0;
}

/* Splits a search list at any of seps, keeping empty elements (they mean "."). */
static int dirs_from_list(struct loader *l, struct loader_dirs *d, const char *list,
			  const char *seps, const char *origin)
{
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, seps);
		int err = dirs_add(l, d, p, n, origin);

		if (err < 0)
			return err;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* Is the root laid out as Debian's glibc expects (a multiarch directory /lib/<triplet> or
 * /usr/lib/<triplet>, or /etc/debian_version)? 1 or 0; -errno when none says yes and one could
 * not be looked at: that one is kept in defaults_unknown_path. */
static int debian_layout(struct loader *l, const char *lib_dir, const char *usr_lib_dir)
{
	const struct {
		const char *path;
		mode_t type;
	} tests[] = { { lib_dir, S_IFDIR },
		      { usr_lib_dir, S_IFDIR },
		      { "/etc/debian_version", S_IFREG } };
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		int r = root_test(l->root, tests[i].path, tests[i].type);

		if (r > 0)
			return 1;
		if (r < 0 && !err) {
			err = r;
			free(l->defaults_unknown_path);
			l->defaults_unknown_path = strdup(tests[i].path);
			if (!l->defaults_unknown_path)
				return -ENOMEM;
		}
	}
	return err;
}

static int setup_defaults(struct loader *l)
{
	char a[64] = "", b[64] = "";
	int err, debian = 0;

	if (l->triplet) {
		snprintf(a, sizeof(a), "/lib/%s", l->triplet);
		snprintf(b, sizeof(b), "/usr/lib/%s", l->triplet);
		debian = debian_layout(l, a, b);
		if (debian == -ENOMEM)
			return debian;
	}
	/* Could not tell (< 0): searched as Debian's, whose list holds a multiarch directory that
	 * could not be looked at (a search past it is undetermined, never "not found"), and the
	 * default_dirs_kind fact says the choice is a guess. */
	l->defaults_unknown_err = debian < 0 ? debian : 0;
	if (debian) {
		/* Debian's glibc (and Ubuntu's): the multiarch directories, then /lib, /usr/lib. */
		const char *list[] = { a, b, "/lib", "/usr/lib" };

		l->defaults_kind = "debian-multiarch";
		if (asprintf(&l->lib, "lib/%s", l->triplet) < 0)
			return -ENOMEM;
		for (size_t i = 0; i < ARRAY_SIZE(list); i++) {
			err = dirs_add(l, &l->defaults, list[i], strlen(list[i]), NULL);
			if (err < 0)
				return err;
		}
		return 0;
	}
	if (l->elf_class == ELFCLASS64 && l->machine != EM_NONE) {
		/* Upstream glibc on 64-bit ports: slibdir=/lib64, libdir=/usr/lib64. */
		l->defaults_kind = "lib64";
		l->lib = strdup("lib64");
		if (!l->lib)
			return -ENOMEM;
		return dirs_from_list(l, &l->defaults, "/lib64:/usr/lib64", ":", NULL);
	}
	l->defaults_kind = "lib";
	l->lib = strdup("lib");
	if (!l->lib)
		return -ENOMEM;
	return dirs_from_list(l, &l->defaults, "/lib:/usr/lib", ":", NULL);
}

int loader_new(struct root *root, const struct env *env, struct loader **ret)
{
	struct loader *l = calloc(1, sizeof(*l));
	const char *llp = env ? env_get(env, "LD_LIBRARY_PATH") : NULL;
	int err;

	if (!l)
		return -ENOMEM;
	l->root = root;
	l->listings.root = root;
	l->elf_class = HOST_CLASS;
	l->machine = HOST_MACHINE;
	l->cache_flags = ldso_cache_arch_flags(l->elf_class, l->machine);
	l->triplet = HOST_TRIPLET;
	l->platform = HOST_PLATFORM;
	err = setup_defaults(l);
	if (err < 0)
		goto fail;
	/* glibc _dl_init_paths(): an unset or empty LD_LIBRARY_PATH adds nothing. */
	if (llp && *llp) {
		l->ld_library_path = strdup(llp);
		if (!l->ld_library_path) {
			err = -ENOMEM;
			goto fail;
		}
		/* $ORIGIN here is the main program's directory: unknown without one. */
		err = dirs_from_list(l, &l->llp, llp, ":;", NULL);
		if (err < 0)
			goto fail;
	}
	l->cache_err = root_map(root, LDSO_CACHE_PATH, ROOT_CAP_BIG, &l->cache_map);
	if (l->cache_err == 0) {
		l->cache_err = ldso_cache_parse(l->cache_map.data, l->cache_map.len, &l->cache,
						l->cache_why, sizeof(l->cache_why));
		if (l->cache_err == -ENOMEM) {
			err = -ENOMEM;
			goto fail;
		}
	}
	*ret = l;
	return 0;
fail:
	loader_free(l);
	return err;
}

struct loader *loader_free(struct loader *l)
{
	if (!l)
		return NULL;
	dirs_done(&l->llp);
	dirs_done(&l->defaults);
	free(l->defaults_unknown_path);
	ldso_cache_free(l->cache);
	root_unmap(&l->cache_map);
	dir_cache_done(&l->listings);
	free(l->lib);
	free(l->ld_library_path);
	free(l);
	return NULL;
}

static void cand_done(struct loader_candidate *c)
{
	free(c->path);
	free(c->resolved);
	free(c->dir);
	free(c->soname);
	free(c->version);
	elf_symbols_free(c->symbols);
}

struct loader_result *loader_result_free(struct loader_result *r)
{
	if (!r)
		return NULL;
	for (size_t i = 0; i < r->n_cands; i++)
		cand_done(&r->cands[i]);
	free(r->cands);
	free(r->soname);
	free(r->undetermined_by);
	free(r->unread_dir);
	free(r->requester);
	free(r->rpath);
	free(r->runpath);
	dirs_done(&r->rpath_dirs);
	dirs_done(&r->runpath_dirs);
	free(r);
	return NULL;
}

/* The dynamic section of file, and its symbols when l->symbols_prefix asks for them (into
 * c): loader_read_dynamic()'s answer. */
static int read_candidate(struct loader *l, struct loader_candidate *c, const char *file,
			  int *parsed, struct elf_dynamic **d)
{
	struct loader_elf e;
	int err;

	c->symbols_err = 1;
	if (!l->symbols_prefix)
		return loader_read_dynamic(l->root, file, parsed, d);
	err = loader_read_elf(l->root, file, l->symbols_prefix, NULL, &e);
	if (err < 0)
		return err;
	*parsed = e.dynamic_err;
	*d = TAKE_PTR(e.dynamic);
	c->symbols = TAKE_PTR(e.symbols);
	c->symbols_err = e.symbols_err;
	return 0;
}

/* Reads one file as open_verify() would judge it. */
static int judge(struct loader *l, struct loader_candidate *c)
{
	_cleanup_(elf_dynamic_freep) struct elf_dynamic *d = NULL;
	const char *file;
	int err, parsed;

	err = root_resolve(l->root, c->path, &c->resolved);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		/* ENOENT here is a dangling symlink (the path itself exists): passed over. */
		c->err = err;
		c->verdict =
			err == -ENOENT || err == -EACCES ? LOADER_SKIP_ERRNO : LOADER_FAIL_ERRNO;
		return 0;
	}
	file = c->resolved;
	c->version = loader_version_from_name(c->soname ? c->soname : path_basename(c->path),
					      path_basename(file));
	c->is_stub = loader_path_has_component(c->path, "stubs") ||
		     loader_path_has_component(file, "stubs");
	c->in_compat = loader_path_has_component(c->path, "compat") ||
		       loader_path_has_component(file, "compat");
	err = read_candidate(l, c, file, &parsed, &d);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		c->err = err;
		c->verdict =
			err == -EACCES || err == -ENOENT ? LOADER_SKIP_ERRNO : LOADER_FAIL_ERRNO;
		return 0;
	}
	err = parsed;
	if (err < 0) {
		c->err = err;
		c->verdict = LOADER_FAIL_NOT_ELF;
		return 0;
	}
	c->elf_class = d->elf_class;
	c->machine = d->machine;
	c->problem = d->problem;
	if (d->soname) {
		c->soname = strdup(d->soname);
		if (!c->soname)
			return -ENOMEM;
		/* The version is the part of the file name past the soname the file declares. */
		free(c->version);
		c->version = loader_version_from_name(c->soname, path_basename(file));
	}
	if (d->elf_class != l->elf_class)
		c->verdict = LOADER_SKIP_CLASS;
	else if (l->machine != EM_NONE && d->machine != l->machine)
		c->verdict = LOADER_SKIP_MACHINE;
	else
		c->verdict = LOADER_LOADS;
	return 0;
}

/* Appends a candidate with copies of path and dir (may be NULL): 1 and *ret; 0 when r is
 * full (marked truncated); -ENOMEM. */
static int cand_append(struct loader_result *r, const char *dir, const char *path,
		       enum loader_via via, struct loader_candidate **ret)
{
	struct loader_candidate *c;

	if (r->n_cands >= LOADER_MAX_CANDIDATES) {
		r->truncated = true;
		return 0;
	}
	c = &r->cands[r->n_cands];
	*c = (struct loader_candidate){ .via = via, .symbols_err = 1 };
	c->path = strdup(path);
	c->dir = dir ? strdup(dir) : NULL;
	if (!c->path || (dir && !c->dir)) {
		cand_done(c);
		return -ENOMEM;
	}
	r->n_cands++;
	*ret = c;
	return 1;
}

static int add_candidate(struct loader *l, struct loader_result *r, const char *dir,
			 const char *path, enum loader_via via, const char *hwcaps)
{
	struct loader_candidate *c;
	int k = cand_append(r, dir, path, via, &c);

	if (k <= 0)
		return k;
	c->hwcaps_subdir = hwcaps;
	return judge(l, c);
}

/* One listing per directory and loader instead of a path walk per soname: a framework
 * library's RPATH holds a dozen directories, each asked for every DT_NEEDED. */
static bool maybe_in_dir(struct loader *l, const char *dir, const char *name)
{
	return dir_cache_may_hold(&l->listings, dir, name);
}

static int search_dir(struct loader *l, struct loader_result *r, const char *dir,
		      enum loader_via via)
{
	_cleanup_free_ char *path = NULL;
	struct stat st;
	int err;

	if (!maybe_in_dir(l, dir, r->soname))
		return 0;
	path = path_join(dir, r->soname);
	if (!path)
		return -ENOMEM;
	err = root_lstat(l->root, path, &st);
	if (err == -ENOENT || err == -ENOTDIR)
		return 0;
	if (err < 0) {
		struct loader_candidate *c;
		int k = cand_append(r, dir, path, via, &c);

		if (k <= 0)
			return k;
		c->err = err;
		c->verdict = err == -EACCES ? LOADER_SKIP_ERRNO : LOADER_FAIL_ERRNO;
		return 0;
	}
	return add_candidate(l, r, dir, path, via, NULL);
}

/* EACCES, EPERM: what this process may not read, another (the judged one) may. */
static bool not_permitted(int err)
{
	return err == -EACCES || err == -EPERM;
}

static int search_dirs(struct loader *l, struct loader_result *r, const struct loader_dirs *d,
		       enum loader_via via)
{
	for (size_t i = 0; i < d->n; i++) {
		int err;

		/* A directory that cannot be searched here may be searchable by the process. */
		if (d->v[i].path && not_permitted(d->v[i].err) && !r->unread_dir) {
			r->unread_dir = strdup(d->v[i].path);
			if (!r->unread_dir)
				return -ENOMEM;
			r->unread_dir_err = d->v[i].err;
			r->unread_dir_at = r->n_cands;
		}
		if (!d->v[i].path || d->v[i].err < 0)
			continue;
		err = search_dir(l, r, d->v[i].path, via);
		if (err < 0)
			return err;
	}
	return 0;
}

static int search_cache(struct loader *l, struct loader_result *r)
{
	const struct ldso_cache_entry *first;
	const uint32_t *same;
	size_t n;

	if (!l->cache)
		return 0;
	first = ldso_cache_lookup(l->cache, r->soname, l->cache_flags);
	n = ldso_cache_find(l->cache, r->soname, &same);
	for (size_t i = 0; i < n; i++) {
		const struct ldso_cache_entry *e = &l->cache->entries[same[i]];
		int err;

		if (!ldso_cache_flags_match(e->flags, l->cache_flags))
			continue;
		/* ld.so takes the first plain entry; hwcaps entries are listed for the record. */
		if (e != first && !e->hwcaps_subdir)
			continue;
		if (e->value[0] != '/')
			continue;
		err = add_candidate(l, r, NULL, e->value, LOADER_VIA_CACHE,
				    e->hwcaps_subdir ? e->hwcaps_subdir : NULL);
		if (err < 0)
			return err;
	}
	return 0;
}

/* The answer, and whether something before it could not be read (undetermined_by). */
static int pick(struct loader_result *r)
{
	size_t answer = r->n_cands;

	r->winner = r->failure = -1;
	for (size_t i = 0; i < r->n_cands; i++) {
		const struct loader_candidate *c = &r->cands[i];

		if (c->hwcaps_subdir)
			continue;
		if (c->verdict == LOADER_LOADS) {
			r->winner = (ssize_t)i;
			answer = i;
			break;
		}
		if (c->verdict == LOADER_FAIL_ERRNO || c->verdict == LOADER_FAIL_NOT_ELF) {
			r->failure = (ssize_t)i;
			answer = i;
			break;
		}
	}
	/* Passed over only because gpuenv could not read it (a dangling link is passed over
	 * by every process alike): the first one, file or directory, decides. */
	for (size_t i = 0; i < answer; i++) {
		const struct loader_candidate *c = &r->cands[i];

		if (c->hwcaps_subdir || c->verdict != LOADER_SKIP_ERRNO || !not_permitted(c->err))
			continue;
		if (r->unread_dir && r->unread_dir_at <= i)
			break;
		r->undetermined_err = c->err;
		r->undetermined_by = strdup(c->path);
		return r->undetermined_by ? 0 : -ENOMEM;
	}
	if (r->unread_dir && r->unread_dir_at <= answer) {
		r->undetermined_err = r->unread_dir_err;
		r->undetermined_by = strdup(r->unread_dir);
		return r->undetermined_by ? 0 : -ENOMEM;
	}
	return 0;
}

struct loader_requester *loader_requester_free(struct loader_requester *q)
{
	if (!q)
		return NULL;
	free(q->path);
	free(q->rpath);
	free(q->runpath);
	dirs_done(&q->rpath_dirs);
	dirs_done(&q->runpath_dirs);
	free(q);
	return NULL;
}

int loader_requester_new(struct loader *l, const char *path, struct loader_requester **ret)
{
	_cleanup_(elf_dynamic_freep) struct elf_dynamic *d = NULL;
	int err, parsed;

	err = loader_read_dynamic(l->root, path, &parsed, &d);
	if (err == 0)
		err = parsed;
	if (err == -ENOMEM)
		return err;
	return loader_requester_of(l, path, err, d, ret);
}

int loader_requester_of(struct loader *l, const char *path, int err, const struct elf_dynamic *d,
			struct loader_requester **ret)
{
	_cleanup_(loader_requester_freep) struct loader_requester *q = calloc(1, sizeof(*q));
	_cleanup_free_ char *origin = strdup(path);
	char *slash;

	if (!q || !origin || !(q->path = strdup(path)))
		return -ENOMEM;
	/* $ORIGIN: the directory of the object as it was opened (glibc _dl_new_object()). */
	slash = strrchr(origin, '/');
	if (slash)
		*(slash == origin ? slash + 1 : slash) = '\0';
	q->err = err;
	if (d) {
		q->problem = d->problem;
		if ((d->rpath && !(q->rpath = strdup(d->rpath))) ||
		    (d->runpath && !(q->runpath = strdup(d->runpath))))
			return -ENOMEM;
	}
	/* DT_RPATH only when there is no DT_RUNPATH (ld.so(8)). */
	if (q->runpath)
		err = dirs_from_list(l, &q->runpath_dirs, q->runpath, ":", origin);
	else if (q->rpath)
		err = dirs_from_list(l, &q->rpath_dirs, q->rpath, ":", origin);
	else
		err = 0;
	if (err < 0)
		return err;
	*ret = TAKE_PTR(q);
	return 0;
}

static int dirs_copy(struct loader_dirs *to, const struct loader_dirs *from)
{
	*to = (struct loader_dirs){ .truncated = from->truncated };
	if (!from->n)
		return 0;
	to->v = calloc(from->n, sizeof(*to->v));
	if (!to->v)
		return -ENOMEM;
	for (size_t i = 0; i < from->n; i++) {
		const struct loader_dir *x = &from->v[i];

		to->v[i] = (struct loader_dir){ .note = x->note, .err = x->err };
		to->n++;
		to->v[i].entry = strdup(x->entry);
		to->v[i].path = x->path ? strdup(x->path) : NULL;
		if (!to->v[i].entry || (x->path && !to->v[i].path))
			return -ENOMEM;
	}
	return 0;
}

static int resolve(struct loader *l, const char *soname, const struct loader_requester *q,
		   struct loader_result **ret)
{
	_cleanup_(loader_result_freep) struct loader_result *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	r->winner = r->failure = -1;
	r->soname = strdup(soname);
	r->cands = calloc(LOADER_MAX_CANDIDATES, sizeof(*r->cands));
	if (!r->soname || !r->cands)
		return -ENOMEM;
	if (q) {
		r->requester_err = q->err;
		r->requester_problem = q->problem;
		r->requester = strdup(q->path);
		r->rpath = q->rpath ? strdup(q->rpath) : NULL;
		r->runpath = q->runpath ? strdup(q->runpath) : NULL;
		if (!r->requester || (q->rpath && !r->rpath) || (q->runpath && !r->runpath) ||
		    dirs_copy(&r->rpath_dirs, &q->rpath_dirs) < 0 ||
		    dirs_copy(&r->runpath_dirs, &q->runpath_dirs) < 0)
			return -ENOMEM;
		err = search_dirs(l, r, &q->rpath_dirs, LOADER_VIA_RPATH);
		if (err < 0)
			return err;
	}
	err = search_dirs(l, r, &l->llp, LOADER_VIA_LD_LIBRARY_PATH);
	if (err >= 0 && q)
		err = search_dirs(l, r, &q->runpath_dirs, LOADER_VIA_RUNPATH);
	if (err >= 0)
		err = search_cache(l, r);
	if (err >= 0)
		err = search_dirs(l, r, &l->defaults, LOADER_VIA_DEFAULT);
	if (err >= 0)
		err = pick(r);
	if (err < 0)
		return err;
	*ret = TAKE_PTR(r);
	return 0;
}

int loader_resolve(struct loader *l, const char *soname, struct loader_result **ret)
{
	return resolve(l, soname, NULL, ret);
}

int loader_resolve_for(struct loader *l, const char *soname, const char *requester,
		       struct loader_result **ret)
{
	_cleanup_(loader_requester_freep) struct loader_requester *q = NULL;
	int err = loader_requester_new(l, requester, &q);

	return err < 0 ? err : resolve(l, soname, q, ret);
}

int loader_resolve_req(struct loader *l, const char *soname, const struct loader_requester *q,
		       struct loader_result **ret)
{
	return resolve(l, soname, q, ret);
}

static bool stem_match(const char *name, const char *stem)
{
	size_t n = strlen(stem);

	return strncmp(name, stem, n) == 0 && (name[n] == '\0' || name[n] == '.');
}

/* The first of the sorted names that is not before stem (strcmp order): every name that
 * starts with stem follows from there, one after the other. */
static const char *const *first_with_prefix(struct dir_listing names, const char *stem)
{
	size_t lo = 0, hi = names.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(names.names[mid], stem) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return names.names + lo;
}

static int sonames_in_dir(struct loader *l, const char *dir, const char *stem, char ***out)
{
	struct dir_listing names = dir_cache_get(&l->listings, dir);
	size_t len = strlen(stem);

	if (!names.names)
		return 0;
	for (const char *const *n = first_with_prefix(names, stem);
	     *n && strncmp(*n, stem, len) == 0; n++) {
		_cleanup_(elf_dynamic_freep) struct elf_dynamic *d = NULL;
		_cleanup_free_ char *path = NULL;
		const char *soname = NULL;
		int err, parsed;

		if (!stem_match(*n, stem))
			continue;
		path = path_join(dir, *n);
		if (!path)
			return -ENOMEM;
		err = loader_read_dynamic(l->root, path, &parsed, &d);
		if (err == -ENOMEM)
			return err;
		if (err < 0 || parsed < 0 || d->elf_class != l->elf_class ||
		    (l->machine != EM_NONE && d->machine != l->machine))
			continue;
		if (d->soname && stem_match(d->soname, stem))
			soname = d->soname;
		else if (!d->soname && !streq(*n, stem))
			soname = *n;
		if (soname && !strv_contains(*out, soname) && strv_push(out, soname) < 0)
			return -ENOMEM;
	}
	return 0;
}

int loader_find_sonames(struct loader *l, const char *stem, char ***ret)
{
	_cleanup_strv_free_ char **out = calloc(1, sizeof(char *));
	const struct loader_dirs *lists[] = { &l->llp, &l->defaults };
	int err;

	if (!out)
		return -ENOMEM;
	for (size_t i = 0; l->cache && i < l->cache->n_entries; i++) {
		const struct ldso_cache_entry *e = &l->cache->entries[i];

		if (!ldso_cache_flags_match(e->flags, l->cache_flags) ||
		    !stem_match(e->key, stem) || streq(e->key, stem) || strv_contains(out, e->key))
			continue;
		err = strv_push(&out, e->key);
		if (err < 0)
			return err;
	}
	for (size_t k = 0; k < ARRAY_SIZE(lists); k++)
		for (size_t i = 0; i < lists[k]->n; i++) {
			if (!lists[k]->v[i].path || lists[k]->v[i].err < 0)
				continue;
			err = sonames_in_dir(l, lists[k]->v[i].path, stem, &out);
			if (err < 0)
				return err;
		}
	strv_sort(out);
	*ret = TAKE_PTR(out);
	return 0;
}
