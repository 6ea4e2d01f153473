// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv capture [-o FILE.tar.zst] [--redact]` (docs/fleet.md, "Capture"): collects with path
 * tracing and keeps exactly what the probes read (capture-tree.c) with the snapshot, as one
 * .tar.zst (capture-archive.c) that replays under --sysroot: a user's broken machine as a bug
 * report, and a regression fixture (tests/tools/capture-fixture.sh). The bundle is written
 * to a temporary file beside FILE and renamed over it once complete, so FILE is never a half
 * bundle; an existing FILE that is not a regular file (a device, a FIFO, a directory) is
 * refused rather than replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "gpuenv.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/strv.h"

#define CAPTURE_DEFAULT_OUTPUT "gpuenv-capture.tar.zst"
#define EXIT_UNAVAILABLE       69 /* libarchive cannot be loaded (EX_UNAVAILABLE) */

extern char **environ;

/* The variables the probes read (src/probe: env_get() of each, and the GPU variables of
 * probe-environment.c): the rest of a user's environment (tokens, keys) is never kept. */
static const char *const env_exact[] = {
	"PATH",	       "LD_LIBRARY_PATH", "LD_PRELOAD", "HOME",	      "PWD",
	"VIRTUAL_ENV", "XLA_FLAGS",	  "PYTHONPATH", "PYTHONHOME", NULL,
};
static const char *const env_prefixes[] = {
	"CUDA_",   "CONDA_", "MAMBA_", "HIP_", "HSA_",	 "ROCR_", "ROCM_",
	"NVIDIA_", "PYENV_", "XDG_",   "UV_",  "HATCH_", NULL,
};

static void capture_help(void)
{
	printf("Usage: gpuenv capture [-o FILE.tar.zst] [--redact] [OPTIONS]\n\n"
	       "Collects as `report` does and keeps exactly what the probes read: the files (of a\n"
	       "file over 1 MiB only the ranges read, at its real size), links, directory\n"
	       "listings, the environment variables gpuenv reads, what files cannot give back\n"
	       "(the GPU code found in large libraries, /dev/kmsg, the vendor sessions), with\n"
	       "the snapshot, as a zstd-compressed tar. `gpuenv report --sysroot FILE` (or\n"
	       "--sysroot DIR/root on the unpacked bundle) gives the same report; --from FILE\n"
	       "reads its snapshot. --redact replaces host names, UUIDs, serial numbers and user\n"
	       "names (of home directories, and live the capturing user's) in names, links and\n"
	       "contents, binaries included.\n\n"
	       "Options:\n"
	       "  -o, --output FILE     the bundle (default " CAPTURE_DEFAULT_OUTPUT "), written\n"
	       "                        atomically\n" COMMON_OPTIONS_HELP
	       "  -h, --help            this help\n\n"
	       "Exit codes:\n"
	       "  0   written\n"
	       "  64  usage error\n"
	       "  66  an input (sysroot, env file) cannot be read\n"
	       "  69  libarchive cannot be loaded\n"
	       "  70  internal error\n"
	       "  74  the bundle could not be written\n");
}

static bool env_kept(const char *kv)
{
	size_t klen = strcspn(kv, "=");

	for (const char *const *p = env_exact; *p; p++)
		if (strlen(*p) == klen && !strncmp(kv, *p, klen))
			return true;
	for (const char *const *p = env_prefixes; *p; p++)
		if (!strncmp(kv, *p, strlen(*p)) && klen > strlen(*p))
			return true;
	return false;
}

/* The environment the probes judged, as --env-file lines: live, the kept variables of this
 * process; then the --env-file's lines (they overlay it). NULL under --sysroot without one. */
static int environment_text(const struct common_opts *o, char **ret)
{
	struct strbuf sb = STRBUF_INIT;

	*ret = NULL;
	if (o->sysroot && !o->env_file)
		return 0;
	for (char **p = o->sysroot ? NULL : environ; p && *p; p++)
		if (env_kept(*p) && !strchr(*p, '\n'))
			strbuf_printf(&sb, "%s\n", *p);
	if (o->env_file) {
		FILE *f = fopen(o->env_file, "re");
		char line[8192];

		if (!f)
			return -errno;
		while (fgets(line, sizeof(line), f))
			strbuf_puts(&sb, line);
		fclose(f);
	}
	strbuf_puts(&sb, "");
	return strbuf_steal(&sb, ret);
}

/* --redact's strings to replace everywhere: the values of the snapshot's host names and
 * serial numbers (UUIDs and home directories are found by their form). */
static void collect_secrets(json_t *j, const char *key, char ***secrets)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		json_t *value = json_object_get(j, "value");

		if (key && (strstr(key, "hostname") || strstr(key, "serial")) &&
		    json_is_string(value) && strlen(json_string_value(value)) >= 2 &&
		    !strv_contains(*secrets, json_string_value(value)))
			strv_push(secrets, json_string_value(value));
		json_object_foreach(j, k, v)
			collect_secrets(v, k, secrets);
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			collect_secrets(v, key, secrets);
	}
}

/* --redact's user names to replace wherever they stand as a word (a home directory's name in
 * a path is replaced by its form): the capturing user's, and HOME's user. Names that identify
 * nobody (root, the placeholder "user" that `report --redact` writes, nobody) are kept. */
static int collect_user_names(const struct common_opts *o, char ***secrets)
{
	static const char *const anyone[] = { "root", "user", "nobody", NULL };
	const char *names[4] = { NULL };
	struct passwd *pw = o->sysroot ? NULL : getpwuid(geteuid());
	const char *home = o->sysroot ? NULL : getenv("HOME");

	names[0] = pw ? pw->pw_name : NULL;
	names[1] = o->sysroot ? NULL : getenv("USER");
	names[2] = o->sysroot ? NULL : getenv("LOGNAME");
	if (home && (startswith(home, "/home/") || startswith(home, "/Users/")))
		names[3] = strchr(home + 1, '/') + 1;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		_cleanup_free_ char *name =
			names[i] ? strndup(names[i], strcspn(names[i], "/")) : NULL;

		if (!name || strlen(name) < 3 || strv_contains((char **)anyone, name) ||
		    strv_contains(*secrets, name))
			continue;
		if (strv_push(secrets, name) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* GPUs named from pci.ids: libpci read that file, not the probes, so the trace lacks it. The
 * bundle gets its header comment and the vendor and device lines that named them, where
 * --sysroot looks first (pci-names.c), as tests/tools/capture-fixture.sh kept them. */
static int add_pci_ids(struct capture_tree *tree, json_t *snap)
{
	const char *path = pci_names_path();
	json_t *gpus = json_object_get(json_object_get(snap, "hardware"), "gpus"), *g;
	struct strbuf ids = STRBUF_INIT, out = STRBUF_INIT;
	char line[1024], vendor[5] = "";
	bool header = true;
	char *data;
	size_t i;
	FILE *f;

	json_array_foreach(gpus, i, g) {
		json_t *name = json_object_get(g, "name");
		const char *v = json_string_value(
			json_object_get(json_object_get(g, "vendor_id"), "value"));
		const char *d = json_string_value(
			json_object_get(json_object_get(g, "device_id"), "value"));

		if (v && d && strlen(v) == 6 && strlen(d) == 6 &&
		    streq(json_string_value(json_object_get(name, "source")) ?: "", "pci.ids"))
			strbuf_printf(&ids, "%s %s;", v + 2, d + 2);
	}
	if (!ids.len || !path || (strlen(path) > 3 && streq(path + strlen(path) - 3, ".gz"))) {
		strbuf_done(&ids);
		return 0;
	}
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char key[12];

		if (line[0] == '#') {
			if (header)
				strbuf_puts(&out, line);
			continue;
		}
		header = false;
		if (line[0] != '\t' && strlen(line) > 6) {
			memcpy(vendor, line, 4);
			snprintf(key, sizeof(key), "%.4s ", line);
			if (strstr(strbuf_str(&ids), key))
				strbuf_puts(&out, line);
		} else if (line[0] == '\t' && line[1] != '\t' && strlen(line) > 5) {
			snprintf(key, sizeof(key), "%s %.4s;", vendor, line + 1);
			if (strstr(strbuf_str(&ids), key))
				strbuf_puts(&out, line);
		}
	}
	if (f)
		fclose(f);
	strbuf_done(&ids);
	if (strbuf_steal(&out, &data) < 0)
		return -ENOMEM;
	return capture_tree_add_data(tree, "/usr/share/misc/pci.ids", data, strlen(data));
}

/* A temporary file beside out, after refusing an out that is there and not a regular file. */
static int open_output(const char *out, char **ret_tmp)
{
	struct stat st;
	char *tmp;
	int fd;

	if (stat(out, &st) == 0 && !S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST;
	if (asprintf(&tmp, "%s.XXXXXX", out) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		free(tmp);
		return err;
	}
	*ret_tmp = tmp;
	return fd;
}

static int write_bundle(const struct common_opts *o, const char *out, int fd,
			struct gpuenv_ctx *ctx, struct gpuenv_snapshot *snap)
{
	_cleanup_free_ char *trace = NULL, *json = NULL, *plain = NULL, *env = NULL;
	_cleanup_strv_free_ char **secrets = NULL;
	struct capture_tree tree = { 0 };
	json_t *parsed = NULL;
	struct capture_bundle b = { .version = gpuenv_version(),
				    .live = !o->sysroot,
				    .redact = o->redact };
	const char *why = NULL;
	int err;

	err = gpuenv_ctx_get_trace(ctx, &trace);
	if (err >= 0)
		err = gpuenv_snapshot_render(snap, GPUENV_FORMAT_JSON,
					     o->redact ? GPUENV_RENDER_REDACT : 0, &json);
	if (err >= 0)
		err = gpuenv_snapshot_render(snap, GPUENV_FORMAT_JSON, 0, &plain);
	if (err < 0) {
		print_error("capture: rendering the snapshot", err);
		return EXIT_SOFTWARE;
	}
	parsed = json_loads(plain, 0, NULL);
	if (o->redact)
		collect_secrets(parsed, NULL, &secrets);
	if (o->redact && collect_user_names(o, &secrets) < 0) {
		json_decref(parsed);
		print_error("capture: --redact", -ENOMEM);
		return EXIT_SOFTWARE;
	}
	err = environment_text(o, &env);
	if (err < 0) {
		fprintf(stderr, "gpuenv capture: --env-file %s: %s\n", o->env_file, strerror(-err));
		json_decref(parsed);
		return EXIT_INPUT;
	}
	err = capture_tree_build(&tree, o->sysroot ? o->sysroot : "/", trace);
	if (err >= 0)
		err = add_pci_ids(&tree, parsed);
	json_decref(parsed);
	if (err < 0) {
		capture_tree_done(&tree);
		print_error("capture: walking what was read", err);
		return EXIT_SOFTWARE;
	}
	capture_tree_sort(&tree);
	b.snapshot_json = json;
	b.environment = env;
	b.secrets = secrets;
	err = capture_write(fd, &tree, &b, &why);
	if (err == -ENOENT || err == -ENOEXEC || err == -ENOSYS) {
		fprintf(stderr, "gpuenv capture: libarchive cannot be loaded: %s\n", why);
		capture_tree_done(&tree);
		return EXIT_UNAVAILABLE;
	}
	if (err < 0) {
		fprintf(stderr, "gpuenv capture: -o %s: %s\n", out, why ? why : strerror(-err));
		capture_tree_done(&tree);
		return err == -ENOMEM ? EXIT_SOFTWARE : EXIT_IOERR;
	}
	printf("gpuenv capture: %zu entries (%zu skipped) into %s\n", tree.n,
	       strv_length(tree.skipped), out);
	capture_tree_done(&tree);
	return EXIT_HEALTHY;
}

/* -o FILE */
static int capture_opt(void *data, int c, const char *arg)
{
	if (c != 'o')
		return 0;
	*(const char **)data = arg;
	return 1;
}

int cmd_capture(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		COMMON_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct common_opts o = { .color = -1 };
	const char *out = CAPTURE_DEFAULT_OUTPUT;
	_cleanup_free_ char *tmp = NULL;
	struct gpuenv_ctx *ctx;
	struct gpuenv_snapshot *snap;
	int r, fd;

	r = common_getopt(argc, argv, "o:", longopts, &o, capture_help, capture_opt, &out);
	if (r >= 0)
		return r;
	if (!common_no_operands("capture", argc, argv))
		return EXIT_USAGE;
	if (o.from || o.json || o.stable) {
		fprintf(stderr,
			"gpuenv capture: --from, --json and --stable do not apply: a capture "
			"records a collection\n");
		return EXIT_USAGE;
	}
	if (!*out) {
		fprintf(stderr, "gpuenv capture: -o: an empty file name\n");
		return EXIT_USAGE;
	}
	/* the output first: an unwritable path fails before minutes of probing */
	fd = open_output(out, &tmp);
	if (fd < 0) {
		fprintf(stderr, "gpuenv capture: -o %s: %s\n", out,
			fd == -EEXIST ? "exists and is not a regular file" : strerror(-fd));
		return EXIT_IOERR;
	}
	o.ctx_flags |= GPUENV_CTX_TRACE_PATHS | GPUENV_CTX_TRACE_READS;
	r = common_open(&o, &ctx, &snap);
	if (r == 0) {
		r = write_bundle(&o, out, fd, ctx, snap);
		gpuenv_snapshot_unref(snap);
		gpuenv_ctx_free(ctx);
	}
	if (r == 0 && fsync(fd) < 0) {
		fprintf(stderr, "gpuenv capture: -o %s: %s\n", out, strerror(errno));
		r = EXIT_IOERR;
	}
	if (close(fd) < 0 && r == 0) {
		fprintf(stderr, "gpuenv capture: -o %s: %s\n", out, strerror(errno));
		r = EXIT_IOERR;
	}
	if (r == 0 && rename(tmp, out) < 0) {
		fprintf(stderr, "gpuenv capture: -o %s: %s\n", out, strerror(errno));
		r = EXIT_IOERR;
	}
	if (r != 0)
		unlink(tmp);
	return r;
}
