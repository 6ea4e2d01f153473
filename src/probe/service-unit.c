// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The unit file, drop-ins and environment files of a systemd service (service-unit.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/systemd-env-file.h"
#include "service-unit.h"
#include "shared/conf-files.h"
#include "shared/strv.h"

/* The system unit search path that holds files (systemd.unit(5)), highest priority first;
 * the generator and transient directories are left out: nothing the probes read is written
 * there. */
static const char *const unit_dirs[] = {
	"/etc/systemd/system.control", "/run/systemd/system.control",	"/etc/systemd/system",
	"/run/systemd/system",	       "/usr/local/lib/systemd/system", "/usr/lib/systemd/system",
	"/lib/systemd/system",
};

#define MAX_FILES 32u /* unit files read: the unit and its drop-ins */

int service_unit_files(struct probe_env *pe, const char *unit, char ***ret, char **ret_bad)
{
	char **lists[ARRAY_SIZE(unit_dirs)] = { NULL };
	char *dropin_dirs[ARRAY_SIZE(unit_dirs)] = { NULL };
	_cleanup_strv_free_ char **paths = NULL;
	int r = 0;

	for (size_t d = 0; d < ARRAY_SIZE(unit_dirs) && r == 0; d++) {
		struct stat st;
		char *p;

		if (asprintf(&p, "%s/%s", unit_dirs[d], unit) < 0)
			return -ENOMEM;
		r = root_lstat(pe->root, p, &st);
		if (r == 0) {
			_cleanup_free_ char *target = NULL;

			/* `systemctl mask`: a link to /dev/null, no service to start */
			if (S_ISLNK(st.st_mode) && root_readlink(pe->root, p, &target) == 0 &&
			    streq(target, "/dev/null")) {
				free(p);
				return 0;
			}
			if (strv_consume(&paths, p) < 0)
				return -ENOMEM;
			break;
		}
		if (r == -ENOENT || r == -ENOTDIR)
			r = 0;
		if (r < 0)
			*ret_bad = p;
		else
			free(p);
	}
	if (r < 0 || !paths)
		return r;
	for (size_t d = 0; d < ARRAY_SIZE(unit_dirs) && r == 0; d++) {
		if (asprintf(&dropin_dirs[d], "%s/%s.d", unit_dirs[d], unit) < 0) {
			dropin_dirs[d] = NULL;
			r = -ENOMEM;
			break;
		}
		r = root_list_dir(pe->root, dropin_dirs[d], ROOT_DIR_MAX_ENTRIES, &lists[d]);
		if (r == -ENOENT || r == -ENOTDIR)
			r = 0;
		else if (r < 0 && r != -ENOMEM)
			*ret_bad = strdup(dropin_dirs[d]);
	}
	/* more drop-ins than read (-E2BIG): one left out may set the override */
	if (r == 0)
		r = conf_files_merge(lists, (const char *const *)dropin_dirs, ARRAY_SIZE(unit_dirs),
				     MAX_FILES, &paths, ret_bad);
	for (size_t d = 0; d < ARRAY_SIZE(unit_dirs); d++) {
		strv_free(lists[d]);
		free(dropin_dirs[d]);
	}
	*ret = TAKE_PTR(paths);
	return r;
}

int service_unit_parse(struct probe_env *pe, char **paths, struct unit_env **ret,
		       const char **ret_bad)
{
	struct unit_env *e = calloc(1, sizeof(*e));
	unsigned no = 0;

	if (!e)
		return -ENOMEM;
	STRV_FOREACH(p, paths) {
		_cleanup_free_ char *text = NULL;
		size_t len;
		int r = root_read_file(pe->root, *p, ROOT_CAP_TEXT, &text, &len);

		if (r < 0) {
			*ret_bad = *p;
			free(e);
			return r;
		}
		unit_env_parse(text, len, no++, e);
	}
	*ret = e;
	return 0;
}

static void set_unknown(struct service_unknown *u, const char *const *paths,
			const struct unit_env_file *f, unsigned next, const char *why,
			const char *path)
{
	u->any = true;
	u->known_from = next;
	snprintf(u->src, sizeof(u->src), "%s:%llu", paths[f->file], (unsigned long long)f->line);
	snprintf(u->why, sizeof(u->why), "EnvironmentFile=%s%s may set it: %s",
		 f->optional ? "-" : "", path, why);
}

struct assign_ctx {
	struct unit_env *e;
	unsigned file;
};

static void assign(void *userdata, const char *key, const char *value, uint64_t line)
{
	const struct assign_ctx *a = userdata;

	unit_env_assign(a->e, key, value, a->file, line);
}

int service_env_files(struct probe_env *pe, struct unit_env *e, char ***paths,
		      struct service_unknown *u)
{
	const size_t kept = e->env_files < UNIT_ENV_FILES_MAX ? e->env_files : UNIT_ENV_FILES_MAX;
	struct unit_env *tmp = malloc(sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	for (size_t i = 0; i < kept; i++) {
		const struct unit_env_file *f = &e->files[i];
		const unsigned no = (unsigned)strv_length(*paths);
		_cleanup_free_ char *text = NULL;
		size_t len;
		int r;

		if (f->unknown || strpbrk(f->path, "*?[")) {
			set_unknown(
				u, (const char *const *)*paths, f, no,
				f->unknown ? "its path holds a systemd specifier or is too long"
					   : "a glob pattern (systemd reads every file it matches)",
				f->path);
			continue;
		}
		r = root_read_file(pe->root, f->path, ROOT_CAP_TEXT, &text, &len);
		if (r == -ENOMEM)
			goto oom;
		if ((r == -ENOENT || r == -ENOTDIR) && f->optional)
			continue;
		if (r == -ENOENT || r == -ENOTDIR) {
			set_unknown(
				u, (const char *const *)*paths, f, no,
				"it does not exist, and without \"-\" systemd does not start the "
				"service",
				f->path);
			continue;
		}
		if (r < 0) {
			char why[128];

			snprintf(why, sizeof(why), "it could not be read (%s)", strerror(-r));
			set_unknown(u, (const char *const *)*paths, f, no, why, f->path);
			continue;
		}
		memcpy(tmp, e, sizeof(*tmp));
		r = env_file_parse(text, len, assign, &(struct assign_ctx){ .e = tmp, .file = no });
		if (r == -ENOMEM)
			goto oom;
		if (r < 0 && f->optional)
			continue; /* systemd ignores a file it refuses where "-" says so */
		if (r < 0) {
			set_unknown(u, (const char *const *)*paths, f, no,
				    "it is not UTF-8, and systemd does not start the service",
				    f->path);
			continue;
		}
		if (strv_push(paths, f->path) < 0)
			goto oom;
		memcpy(e, tmp, sizeof(*tmp));
	}
	if (e->env_files > kept)
		set_unknown(u, (const char *const *)*paths, &e->files[kept - 1],
			    (unsigned)strv_length(*paths), "more EnvironmentFile= lines than read",
			    e->files[kept - 1].path);
	free(tmp);
	return 0;
oom:
	free(tmp);
	return -ENOMEM;
}

static bool has_suffix(const char *s, const char *suffix)
{
	const size_t n = strlen(s), k = strlen(suffix);

	return n > k && strcmp(s + n - k, suffix) == 0;
}

/* The link to the unit in dir's <target>.wants/ or .requires/ directories that no higher
 * directory masked: 1 (*ret_link set), 0, or an error with *ret_link the path that could not
 * be looked at. A link to /dev/null masks "<target>.wants/<unit>" in the directories after. */
static int find_enable_link(struct probe_env *pe, const char *dir, const char *unit, char ***masked,
			    char **ret_link)
{
	_cleanup_strv_free_ char **dirs = NULL;
	int r = root_list_dir(pe->root, dir, ROOT_DIR_MAX_ENTRIES, &dirs);

	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return (*ret_link = strdup(dir)) ? r : -ENOMEM;
	STRV_FOREACH(d, dirs) {
		_cleanup_free_ char *link = NULL, *target = NULL;

		if ((!has_suffix(*d, ".wants") && !has_suffix(*d, ".requires")) ||
		    strv_contains(*masked, *d))
			continue;
		if (asprintf(&link, "%s/%s/%s", dir, *d, unit) < 0)
			return -ENOMEM;
		r = root_lstat(pe->root, link, &(struct stat){ 0 });
		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (r == 0 && root_readlink(pe->root, link, &target) == 0 &&
		    streq(target, "/dev/null")) {
			if (strv_push(masked, *d) < 0)
				return -ENOMEM;
			continue;
		}
		if (r == -ENOMEM)
			return r;
		*ret_link = TAKE_PTR(link);
		return r == 0 ? 1 : r;
	}
	return 0;
}

int service_unit_enabled(struct probe_env *pe, const char *unit, char **ret_link, char **ret_bad)
{
	_cleanup_strv_free_ char **masked = NULL;
	int bad_err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(unit_dirs); i++) {
		_cleanup_free_ char *link = NULL;
		int r = find_enable_link(pe, unit_dirs[i], unit, &masked, &link);

		if (r == -ENOMEM)
			return r;
		if (r > 0) {
			free(*ret_bad);
			*ret_bad = NULL;
			*ret_link = TAKE_PTR(link);
			return 1;
		}
		if (r < 0 && !*ret_bad) {
			*ret_bad = TAKE_PTR(link);
			bad_err = r;
		}
	}
	return bad_err;
}
