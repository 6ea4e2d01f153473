// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Slurm's GPU configuration on this node, as runtime.slurm (written only where a Slurm
 * configuration directory exists): what gres.conf(5) asks slurmd to detect (AutoDetect=) and
 * the device files it names (File=), slurm.conf(5)'s GresTypes, PluginDir and the Gres= of this
 * node's NodeName line (the GPUs slurmctld expects it to register), cgroup.conf(5)'s
 * ConstrainDevices, and whether Slurm's plugin directory holds gpu_nvml.so, the NVML plugin
 * Slurm builds only where NVML was found at configure time (src/plugins/gpu/nvml;
 * openhpc/ohpc#1910: a package built without it lists gpu_generic.so and gres_gpu.so alone).
 * Nothing is executed: slurmd -G would load the plugins.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "formats/slurm-conf.h"
#include "probe.h"
#include "shared/strv.h"

/* /etc/slurm (SchedMD's RPM spec and Debian since bookworm), /etc/slurm-llnl (Debian and
 * Ubuntu's slurm-wlm before 2022) */
static const char *const config_dirs[] = { "/etc/slurm", "/etc/slurm-llnl" };

/* Where packages put the plugins when slurm.conf names no PluginDir: SchedMD's slurm.spec
 * and OpenHPC (%{_libdir}/slurm), Debian's slurm-wlm (/usr/lib/<multiarch>/slurm-wlm),
 * SchedMD's debian/ packaging (/usr/lib/<multiarch>/slurm), and configure's default prefix
 * (/usr/local/lib/slurm, as a source build such as DeepOps' installs slurmd in /usr/local). */
static const char *const plugin_dirs[] = {
	"/usr/lib64/slurm",
	"/usr/lib/x86_64-linux-gnu/slurm-wlm",
	"/usr/lib/aarch64-linux-gnu/slurm-wlm",
	"/usr/lib/x86_64-linux-gnu/slurm",
	"/usr/lib/aarch64-linux-gnu/slurm",
	"/usr/local/lib/slurm",
};

#define SLURM_INCLUDES_MAX 8u /* files one configuration may include, nested or not */
#define SLURM_VALUE_MAX	   512u

struct slurm_read {
	struct probe_env *pe;
	struct snap_node *slurm;
	const char *dir;
	const char *path;  /* the file being read */
	const char *host;  /* this node's name, NULL when unknown */
	char **includes;   /* "Include" files met, to read after this one */
	bool line_applies; /* the current gres.conf line is for this node */
	struct snap_node *entry;
	/* gres.conf */
	char autodetect[64];
	char autodetect_src[600];
	bool node_autodetect; /* autodetect came from a NodeName line of this node */
	/* slurm.conf */
	char plugin_dir[SLURM_VALUE_MAX];
	char plugin_dir_src[600];
	bool node_line;		/* the current slurm.conf line is this node's NodeName= line */
	bool node_default_line; /* … or a NodeName=DEFAULT line, whose keys every later node
				 * takes unless its own line sets them (slurm.conf(5)) */
	bool node_gres_own;	/* node_gres came from this node's own line */
};

static void copy_value(char *dst, size_t size, const char *v, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, v, len);
	dst[len] = '\0';
}

static void source_of(const struct slurm_read *r, uint64_t line, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%llu", r->path, (unsigned long long)line);
}

/* An Include path: absolute, or relative to the configuration directory (slurm.conf(5),
 * INCLUDE MODIFIERS). Read inside the root like every path, and at most SLURM_INCLUDES_MAX. */
static void note_include(struct slurm_read *r, const char *v, size_t len)
{
	char *path;

	if (!len || strv_length(r->includes) >= SLURM_INCLUDES_MAX)
		return;
	if (v[0] == '/')
		path = strndup(v, len);
	else if (asprintf(&path, "%s/%.*s", r->dir, (int)len, v) < 0)
		path = NULL;
	if (path)
		strv_consume(&r->includes, path);
}

/* Is this node one of a NodeName= list? NULL host: could not tell (false). */
static bool names_host(const char *host, const char *v, size_t len)
{
	char(*names)[SLURM_CONF_NAME_MAX];
	size_t n = 0;
	bool hit = false;

	if (!host)
		return false;
	names = calloc(SLURM_CONF_EXPAND_MAX, sizeof(*names));
	if (!names)
		return false;
	slurm_conf_expand(v, len, names, SLURM_CONF_EXPAND_MAX, &n);
	for (size_t i = 0; i < n && !hit; i++)
		hit = streq(names[i], host);
	free(names);
	return hit;
}

/* Which of a line's File= paths this node lacks: slurmd stat()s each one, waits 20 s for it
 * and stops ("fatal: can't stat gres.conf file /dev/nvidia0: No such file or directory",
 * _my_stat() in Slurm's src/interfaces/gres.c). "files_absent" is [] when every one is there,
 * and unreadable when one could not be looked at (never "present"). */
static void record_files_absent(struct slurm_read *r, struct snap_node *entry,
				char (*names)[SLURM_CONF_NAME_MAX], size_t n)
{
	struct snap_node *absent = snap_array(entry, "files_absent");
	struct stat st;

	for (size_t i = 0; i < n; i++) {
		int err = root_stat(r->pe->root, names[i], &st);

		if (err == -ENOENT || err == -ENOTDIR) {
			snap_append_str(absent, names[i], names[i]);
		} else if (err < 0) {
			snap_set_errno(entry, "files_absent", err, names[i]);
			return;
		}
	}
}

static void record_files(struct slurm_read *r, struct snap_node *entry, const char *v, size_t len,
			 const char *src)
{
	char(*names)[SLURM_CONF_NAME_MAX] = calloc(SLURM_CONF_EXPAND_MAX, sizeof(*names));
	struct snap_node *arr;
	size_t n = 0;
	int err;

	if (!names)
		return;
	err = slurm_conf_expand(v, len, names, SLURM_CONF_EXPAND_MAX, &n);
	if (err == -EINVAL) {
		char raw[SLURM_VALUE_MAX];

		copy_value(raw, sizeof(raw), v, len);
		snap_set_malformed(entry, "files", raw, src,
				   "not a device list as gres.conf(5) writes one");
	} else {
		arr = snap_array(entry, "files");
		for (size_t i = 0; i < n; i++)
			snap_append_str(arr, names[i], src);
		if (err == -E2BIG)
			snap_set_int(entry, "files_dropped", 1, src);
		record_files_absent(r, entry, names, n);
	}
	free(names);
}

static bool gres_pair(void *data, uint64_t line, size_t index, const char *key, size_t klen,
		      const char *v, size_t vlen)
{
	struct slurm_read *r = data;
	char src[600], value[SLURM_VALUE_MAX];

	source_of(r, line, src, sizeof(src));
	copy_value(value, sizeof(value), v, vlen);
	if (slurm_conf_key_is(key, klen, "Include")) {
		note_include(r, v, vlen);
		return true;
	}
	if (index == 0) {
		r->entry = NULL;
		r->line_applies = true;
	}
	if (slurm_conf_key_is(key, klen, "NodeName")) {
		r->line_applies = names_host(r->host, v, vlen);
		if (r->entry)
			snap_set_str(r->entry, "node_name", value, src);
	}
	/* AutoDetect alone on a line (or first) is every node's; on a NodeName line, those
	 * nodes' (gres.conf(5), AutoDetect) */
	if (slurm_conf_key_is(key, klen, "AutoDetect")) {
		bool node_line = index > 0 && r->line_applies;

		if ((index == 0 && !r->node_autodetect) || node_line) {
			copy_value(r->autodetect, sizeof(r->autodetect), v, vlen);
			snprintf(r->autodetect_src, sizeof(r->autodetect_src), "%s", src);
			r->node_autodetect |= node_line;
		}
		return true;
	}
	if (slurm_conf_key_is(key, klen, "Name") || slurm_conf_key_is(key, klen, "Type") ||
	    slurm_conf_key_is(key, klen, "File") || slurm_conf_key_is(key, klen, "Count")) {
		if (!r->line_applies)
			return true;
		if (!r->entry) {
			r->entry = snap_append_object(snap_array(r->slurm, "gres"));
			if (!r->entry)
				return false;
			snap_set_str(r->entry, "line", src, src);
		}
		if (slurm_conf_key_is(key, klen, "File"))
			record_files(r, r->entry, v, vlen, src);
		else
			snap_set_str(r->entry,
				     slurm_conf_key_is(key, klen, "Name")   ? "name"
				     : slurm_conf_key_is(key, klen, "Type") ? "type"
									    : "count",
				     value, src);
	}
	return true;
}

/* The GPUs a slurm.conf Gres= list configures: the sum of its gpu entries' counts. Each entry
 * is <name>[:<type>][:no_consume]:<number>[K|M|G|T|P] (slurm.conf(5), Gres), a count of 1 when
 * no number ends it ("gpu", "gpu:a100"). -EINVAL for a count Slurm would not take. */
static int gres_gpu_count(const char *v, size_t len, uint64_t *out)
{
	static const char suffixes[] = "KMGTP";
	uint64_t total = 0;

	for (size_t at = 0, end; at <= len; at = end + 1) {
		const char *count = NULL, *stop;
		uint64_t n = 1;

		for (end = at; end < len && v[end] != ','; end++)
			if (v[end] == ':')
				count = v + end + 1;
		if (end - at < 3 || strncasecmp(v + at, "gpu", 3) != 0 ||
		    (end - at > 3 && v[at + 3] != ':'))
			continue; /* another GRES (mps, shard, …) */
		if (count && count < v + end && *count >= '0' && *count <= '9') {
			n = 0;
			for (stop = count; stop < v + end && *stop >= '0' && *stop <= '9'; stop++) {
				n = n * 10 + (uint64_t)(*stop - '0');
				if (n > UINT32_MAX)
					return -EINVAL;
			}
			if (stop < v + end) {
				const char *mult =
					memchr(suffixes, *stop & ~0x20, sizeof(suffixes) - 1);

				if (!mult || stop + 1 != v + end)
					return -EINVAL;
				for (const char *m = suffixes; m <= mult && n <= UINT32_MAX; m++)
					n *= 1024;
			}
		} else if (count && count == v + end) {
			return -EINVAL; /* "gpu:" */
		}
		if (n > UINT32_MAX || total + n > UINT32_MAX)
			return -EINVAL;
		total += n;
	}
	*out = total;
	return 0;
}

/* A slurm.conf NodeName line's Gres=, when the line is this node's (or the DEFAULT line's,
 * until this node's own sets it). */
static void record_node_gres(struct slurm_read *r, const char *v, size_t vlen, const char *src)
{
	char value[SLURM_VALUE_MAX];
	uint64_t gpus;

	if (!r->node_line && !(r->node_default_line && !r->node_gres_own))
		return;
	r->node_gres_own |= r->node_line;
	copy_value(value, sizeof(value), v, vlen);
	snap_set_str(r->slurm, "node_gres", value, src);
	if (gres_gpu_count(v, vlen, &gpus) == 0)
		snap_set_int(r->slurm, "node_gres_gpus", (int64_t)gpus, src);
	else
		snap_set_malformed(r->slurm, "node_gres_gpus", value, src,
				   "not a Gres= list as slurm.conf(5) writes one");
}

/* slurm.conf's and cgroup.conf's settings read here (neither file takes the other's keys). */
static bool setting_pair(void *data, uint64_t line, size_t index, const char *key, size_t klen,
			 const char *v, size_t vlen)
{
	struct slurm_read *r = data;
	char src[600], value[SLURM_VALUE_MAX];

	source_of(r, line, src, sizeof(src));
	copy_value(value, sizeof(value), v, vlen);
	if (index == 0) {
		bool node = slurm_conf_key_is(key, klen, "NodeName");

		r->node_default_line = node && vlen == 7 && strncasecmp(v, "DEFAULT", 7) == 0;
		r->node_line = node && !r->node_default_line && names_host(r->host, v, vlen);
	}
	if (index > 0 && slurm_conf_key_is(key, klen, "Gres"))
		record_node_gres(r, v, vlen, src);
	else if (slurm_conf_key_is(key, klen, "Include"))
		note_include(r, v, vlen);
	else if (slurm_conf_key_is(key, klen, "GresTypes"))
		snap_set_str(r->slurm, "gres_types", value, src);
	else if (slurm_conf_key_is(key, klen, "ConstrainDevices"))
		snap_set_str(r->slurm, "constrain_devices", value, src);
	else if (slurm_conf_key_is(key, klen, "PluginDir")) {
		copy_value(r->plugin_dir, sizeof(r->plugin_dir), v, vlen);
		snprintf(r->plugin_dir_src, sizeof(r->plugin_dir_src), "%s", src);
	}
	return true;
}

/* Reads one configuration file and the files it includes; key is its fact ("gres_conf"):
 * the path where read, else the read's state (absent, unreadable). */
static void read_conf(struct slurm_read *r, const char *key, const char *name,
		      slurm_conf_pair_fn fn)
{
	_cleanup_free_ char *path = NULL;
	size_t done = 0;

	if (asprintf(&path, "%s/%s", r->dir, name) < 0)
		return;
	r->includes = NULL;
	for (const char *p = path; p;) {
		_cleanup_free_ char *text = NULL;
		size_t len;
		int err = root_read_file(r->pe->root, p, ROOT_CAP_TEXT, &text, &len);

		if (p == path) {
			if (err < 0)
				snap_set_errno(r->slurm, key, err, p);
			else
				snap_set_str(r->slurm, key, p, p);
		} else if (err < 0) {
			snap_append_str(snap_array(r->slurm, "includes_unread"), p, p);
		}
		if (err >= 0) {
			r->path = p;
			r->entry = NULL;
			slurm_conf_parse(text, len, fn, r);
		}
		p = r->includes && done < strv_length(r->includes) ? r->includes[done++] : NULL;
	}
	strv_free(r->includes);
	r->includes = NULL;
}

static void record_plugin_dir(struct slurm_read *r)
{
	_cleanup_strv_free_ char **dirs = NULL;
	const char *src = r->plugin_dir_src;

	/* PluginDir is a colon-separated list (slurm.conf(5)) */
	if (r->plugin_dir[0]) {
		if (strv_split(r->plugin_dir, ":", &dirs) < 0)
			return;
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(plugin_dirs); i++)
			if (strv_push(&dirs, plugin_dirs[i]) < 0)
				return;
		src = NULL;
	}
	STRV_FOREACH(d, dirs) {
		_cleanup_free_ char *gres = NULL, *nvml = NULL;
		struct stat st;
		int err;

		if (asprintf(&gres, "%s/gres_gpu.so", *d) < 0 ||
		    asprintf(&nvml, "%s/gpu_nvml.so", *d) < 0)
			break;
		/* the GPU GRES plugin is built on every Slurm: its directory is the plugins' */
		err = root_stat(r->pe->root, gres, &st);
		if (err == -ENOENT || err == -ENOTDIR)
			continue;
		if (err < 0) { /* could not tell, never "no Slurm plugins" */
			snap_set_errno(r->slurm, "plugin_dir", err, gres);
			return;
		}
		snap_set_str(r->slurm, "plugin_dir", *d, src ? src : gres);
		err = root_stat(r->pe->root, nvml, &st);
		if (err == 0)
			snap_set_bool(r->slurm, "gpu_nvml_plugin", true, nvml);
		else if (err == -ENOENT)
			snap_set_bool(r->slurm, "gpu_nvml_plugin", false, nvml);
		else
			snap_set_errno(r->slurm, "gpu_nvml_plugin", err, nvml);
		return;
	}
	snap_set_state(r->slurm, "plugin_dir", FACT_ABSENT,
		       src ? src : "/usr/lib64/slurm, /usr/lib/<multiarch>/slurm-wlm, …",
		       "no gres_gpu.so in Slurm's plugin directories");
}

/* This node's name as slurmd takes it (gethostname(), short): NULL when unknown. */
static char *host_name(struct probe_env *pe)
{
	char *text = NULL;

	if (root_read_text(pe->root, "/proc/sys/kernel/hostname", 256, &text) < 0 &&
	    root_read_text(pe->root, "/etc/hostname", 256, &text) < 0)
		return NULL;
	text[strcspn(text, ".\n \t")] = '\0';
	if (!*text) {
		free(text);
		return NULL;
	}
	return text;
}

int probe_slurm(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct slurm_read r = { .pe = pe };
	_cleanup_free_ char *host = NULL;
	struct stat st;
	int err = -ENOENT;

	for (size_t i = 0; i < ARRAY_SIZE(config_dirs) && err == -ENOENT; i++) {
		err = root_stat(pe->root, config_dirs[i], &st);
		if (err == 0 && !S_ISDIR(st.st_mode))
			err = -ENOTDIR;
		r.dir = config_dirs[i];
	}
	if (err == -ENOENT)
		return snapshot_error(s); /* no Slurm here: no key */
	r.slurm = snap_object(snap_object(snapshot_root(s), "runtime"), "slurm");
	if (err < 0) {
		snap_set_errno(r.slurm, "config_dir", err, r.dir);
		return snapshot_error(s);
	}
	snap_set_str(r.slurm, "config_dir", r.dir, r.dir);
	host = host_name(pe);
	r.host = host;
	read_conf(&r, "slurm_conf", "slurm.conf", setting_pair);
	read_conf(&r, "gres_conf", "gres.conf", gres_pair);
	read_conf(&r, "cgroup_conf", "cgroup.conf", setting_pair);
	if (r.autodetect[0])
		snap_set_str(r.slurm, "autodetect", r.autodetect, r.autodetect_src);
	else if (snap_present(snap_child(r.slurm, "gres_conf")))
		snap_set_state(r.slurm, "autodetect", FACT_ABSENT, "gres.conf", NULL);
	record_plugin_dir(&r);
	return snapshot_error(s);
}
