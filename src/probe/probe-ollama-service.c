// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The environment ollama's server runs with where it runs as a systemd service, as
 * framework.ollama.service_unit and service_environment: ollama's install.sh writes
 * /etc/systemd/system/ollama.service and users set HSA_OVERRIDE_GFX_VERSION, the device
 * selection and the library choice with `systemctl edit ollama` (a drop-in,
 * ollama.service.d/override.conf: ollama's docs/linux.md and docs/faq.md), never in the shell
 * gpuenv runs from. systemd.unit(5): the unit file is the first of the unit search path that has
 * the name (/etc before /run before /usr/local/lib before /usr/lib); the drop-ins
 * <unit>.d/NAME.conf of every directory are applied after it in the lexical order of their names,
 * a name in an earlier directory hiding the same name in a later one. The text is read by
 * src/formats/systemd-unit-env.c; the files its EnvironmentFile= lines name by
 * src/formats/systemd-env-file.c, applied after every Environment= ("Settings from these
 * files override settings made with Environment=", systemd.exec(5)), a missing one with "-"
 * skipped. Whether the unit is enabled (service_enabled): a link to it in a <target>.wants/ or
 * .requires/ directory of the unit search path pulls it in with the target (systemd.unit(5),
 * Wants=: "adding a symlink to a .wants/ directory accompanying the unit file"). Those
 * directories are read in every directory of the search path, as drop-ins are, a link to
 * /dev/null masking the same name in lower directories (systemd's "core: when loading .wants
 * and .requires, follow the same logic as .d conf dropins", systemd/systemd#1169, #4830):
 * `systemctl enable` and presets link into /etc/systemd/system, `enable --runtime` into
 * /run/systemd/system, and a package may enable a unit statically under /usr/lib
 * (systemd/systemd#9569). Where nothing does, the server may as well be an `ollama serve`
 * started by hand, which reads none of these files (ollama/ollama#8679).
 * Nothing is recorded where no unit file exists.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/systemd-env-file.h"
#include "formats/systemd-unit-env.h"
#include "probe.h"
#include "shared/conf-files.h"
#include "shared/strv.h"

/* The system unit search path that holds files (systemd.unit(5)), highest priority first;
 * the generator and transient directories are left out: nothing writes ollama's there. */
static const char *const unit_dirs[] = {
	"/etc/systemd/system.control", "/run/systemd/system.control",	"/etc/systemd/system",
	"/run/systemd/system",	       "/usr/local/lib/systemd/system", "/usr/lib/systemd/system",
	"/lib/systemd/system",
};

#define UNIT	   "ollama.service"
#define DROPIN_DIR "ollama.service.d"
#define MAX_FILES  32u /* unit files read: the unit and its drop-ins */

/* The variables recorded: those that decide which GPU ollama uses and with what code
 * (docs/gpu.md, envconfig/config.go's server config). */
static const char *const gpu_vars[] = {
	"HSA_OVERRIDE_GFX_VERSION", "HSA_XNACK",	  "HIP_VISIBLE_DEVICES",
	"ROCR_VISIBLE_DEVICES",	    "GPU_DEVICE_ORDINAL", "CUDA_VISIBLE_DEVICES",
	"OLLAMA_LLM_LIBRARY",
};

/* The unit file (first) and its drop-ins in systemd's order into *ret; 0, -ENOMEM, or
 * another error with *ret_bad the path that could not be looked at. */
static int unit_files(struct probe_env *pe, char ***ret, char **ret_bad)
{
	char **lists[ARRAY_SIZE(unit_dirs)] = { NULL };
	char *dropin_dirs[ARRAY_SIZE(unit_dirs)] = { NULL };
	_cleanup_strv_free_ char **paths = NULL;
	int r = 0;

	for (size_t d = 0; d < ARRAY_SIZE(unit_dirs) && r == 0; d++) {
		struct stat st;
		char *p;

		if (asprintf(&p, "%s/%s", unit_dirs[d], UNIT) < 0)
			return -ENOMEM;
		r = root_lstat(pe->root, p, &st);
		if (r == 0) {
			_cleanup_free_ char *target = NULL;

			/* `systemctl mask ollama`: a link to /dev/null, no service to start */
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
		if (asprintf(&dropin_dirs[d], "%s/%s", unit_dirs[d], DROPIN_DIR) < 0) {
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

/* What the environment files leave unknown: the first file number (in the caller's paths) whose
 * settings are known, and why the ones before may differ (the unit file and line). */
struct unknown {
	bool any;
	unsigned known_from;
	char src[4200];
	char why[320];
};

static void set_unknown(struct unknown *u, const char *const *paths, const struct unit_env_file *f,
			unsigned next, const char *why, const char *path)
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

/* The files the EnvironmentFile= lines name, applied over e in order; each read one is appended
 * to *paths (the number its settings carry). 0 or -ENOMEM. */
static int env_files(struct probe_env *pe, struct unit_env *e, char ***paths, struct unknown *u)
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

/* The GPU variables the service's files set, each with its file:line; one a file could not
 * tell (an EnvironmentFile= not read, a line not split) is recorded in that state. */
static void record(struct snap_node *senv, const struct unit_env *e, char **paths,
		   const struct unknown *u)
{
	char src[4200];

	for (size_t i = 0; i < ARRAY_SIZE(gpu_vars); i++) {
		const struct unit_env_var *v = unit_env_get(e, gpu_vars[i]);

		if (u->any && (!v || v->file < u->known_from))
			snap_set_state(senv, gpu_vars[i], FACT_UNPROBED, u->src, u->why);
		else if (v) {
			snprintf(src, sizeof(src), "%s:%llu", paths[v->file],
				 (unsigned long long)v->line);
			if (v->truncated || v->expands)
				snap_set_malformed(senv, v->name, v->value, src,
						   v->expands ? "holds a systemd specifier"
							      : "longer than 255 bytes");
			else
				snap_set_str(senv, v->name, v->value, src);
		} else if (e->bad_lines) {
			snprintf(src, sizeof(src), "%s:%llu", paths[e->bad_file],
				 (unsigned long long)e->bad_line);
			snap_set_state(senv, gpu_vars[i], FACT_MALFORMED, src,
				       "an Environment= line systemd may read otherwise");
		}
	}
}

static bool has_suffix(const char *s, const char *suffix)
{
	const size_t n = strlen(s), k = strlen(suffix);

	return n > k && strcmp(s + n - k, suffix) == 0;
}

/* The link to the unit in dir's <target>.wants/ or .requires/ directories that no higher
 * directory masked: 1 (*ret_link set), 0, or an error with *ret_link the path that could not
 * be looked at. A link to /dev/null masks "<target>.wants/UNIT" in the directories after. */
static int find_enable_link(struct probe_env *pe, const char *dir, char ***masked, char **ret_link)
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
		if (asprintf(&link, "%s/%s/%s", dir, *d, UNIT) < 0)
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

/* Whether a link in any unit directory's <target>.wants/ or .requires/ enables the unit; a
 * directory or link that could not be looked at leaves it unknown unless another one does. */
static int record_enabled(struct probe_env *pe, struct snap_node *ollama)
{
	_cleanup_strv_free_ char **masked = NULL;
	_cleanup_free_ char *bad = NULL;
	int bad_err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(unit_dirs); i++) {
		_cleanup_free_ char *link = NULL;
		int r = find_enable_link(pe, unit_dirs[i], &masked, &link);

		if (r == -ENOMEM)
			return r;
		if (r > 0) {
			snap_set_bool(ollama, "service_enabled", true, link);
			return 0;
		}
		if (r < 0 && !bad) {
			bad = TAKE_PTR(link);
			bad_err = r;
		}
	}
	if (bad)
		snap_set_errno(ollama, "service_enabled", bad_err, bad);
	else
		snap_set_bool(ollama, "service_enabled", false,
			      "systemd unit directories: <target>.wants/, .requires/");
	return 0;
}

int probe_ollama_service(struct probe_env *pe, struct snap_node *ollama)
{
	_cleanup_strv_free_ char **paths = NULL;
	_cleanup_free_ char *bad = NULL;
	struct snap_node *senv;
	struct unknown u = { 0 };
	struct unit_env *e;
	unsigned no = 0;
	int r = unit_files(pe, &paths, &bad), r2;

	if (r == -ENOMEM)
		return r;
	if (r < 0 && !paths) {
		snap_set_errno(ollama, "service_unit", r, bad);
		return 0;
	}
	if (!paths)
		return 0;
	snap_set_str(ollama, "service_unit", paths[0], paths[0]);
	if ((r2 = record_enabled(pe, ollama)) < 0)
		return r2;
	if (r < 0) {
		snap_set_errno(ollama, "service_environment", r, bad);
		return 0;
	}
	STRV_FOREACH(p, paths + 1)
		snap_append_str(snap_array(ollama, "service_drop_ins"), *p, *p);
	if (!(e = calloc(1, sizeof(*e))))
		return -ENOMEM;
	STRV_FOREACH(p, paths) {
		_cleanup_free_ char *text = NULL;
		size_t len;

		r = root_read_file(pe->root, *p, ROOT_CAP_TEXT, &text, &len);
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			snap_set_errno(ollama, "service_environment", r, *p);
			free(e);
			return 0;
		}
		unit_env_parse(text, len, no++, e);
	}
	if (r != -ENOMEM) {
		const size_t units = strv_length(paths);

		r = env_files(pe, e, &paths, &u);
		STRV_FOREACH(p, paths + units)
			snap_append_str(snap_array(ollama, "service_environment_files"), *p, *p);
	}
	if (r == -ENOMEM) {
		free(e);
		return r;
	}
	senv = snap_object(ollama, "service_environment");
	record(senv, e, paths, &u);
	free(e);
	return 0;
}
