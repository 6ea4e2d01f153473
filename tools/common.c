// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Options and set-up shared by the commands that read a machine; see gpuenv.h. Reads the
 * snapshot of --from (a `gpuenv report --json` file, docs/snapshot-schema.md; "-" is stdin)
 * and checks --sysroot and --env-file before libgpuenv opens them; writes the --trace-paths
 * file ("<result>\t<path>" lines, gpuenv_ctx_get_trace()).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "gpuenv.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/parse.h"

void print_error(const char *what, int err)
{
	fprintf(stderr, "gpuenv: %s: %s\n", what, strerror(err < 0 ? -err : err));
}

int common_getopt(int argc, char *argv[], const char *own_opts, const struct option *longopts,
		  struct common_opts *o, void (*help)(void),
		  int (*own)(void *data, int c, const char *arg), void *data)
{
	char optstring[64];
	int c, r;

	snprintf(optstring, sizeof(optstring), "%s%sh", COMMON_OPTSTRING, own_opts);
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		if (c == 'h') {
			help();
			return EXIT_HEALTHY;
		}
		r = own ? own(data, c, optarg) : 0;
		if (r == 0)
			r = common_opts_handle(o, c, optarg);
		if (r < 0)
			return -r;
		if (r == 0)
			return EXIT_USAGE;
	}
	return -1;
}

int common_opts_handle(struct common_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'R':
		o->sysroot = arg;
		return 1;
	case 'E':
		o->env_file = arg;
		return 1;
	case COMMON_OPT_IMAGE:
		o->image = arg;
		return 1;
	case COMMON_OPT_IMAGE_PLATFORM:
		o->image_platform = arg;
		return 1;
	case COMMON_OPT_IMAGE_VERIFY:
		o->image_verify = true;
		return 1;
	case COMMON_OPT_WHEEL: {
		size_t n = 0;

		while (o->wheels[n])
			n++;
		if (n + 1 >= ARRAY_SIZE(o->wheels)) {
			fprintf(stderr, "gpuenv: --wheel: at most %zu wheels\n",
				ARRAY_SIZE(o->wheels) - 1);
			return -EXIT_USAGE;
		}
		o->wheels[n] = arg;
		return 1;
	}
	case 'F':
		o->from = arg;
		return 1;
	case COMMON_OPT_NVML_LIB:
		o->nvml_lib = arg;
		return 1;
	case COMMON_OPT_CUDA_LIB:
		o->cuda_lib = arg;
		return 1;
	case COMMON_OPT_OPENCL_LIB:
		o->opencl_lib = arg;
		return 1;
	case COMMON_OPT_AMDSMI_LIB:
		o->amdsmi_lib = arg;
		return 1;
	case COMMON_OPT_ZE_LIB:
		o->ze_lib = arg;
		return 1;
	case COMMON_OPT_TRACE_PATHS:
		o->trace_paths = arg;
		return 1;
	case COMMON_OPT_STABLE:
		o->stable = true;
		return 1;
	case COMMON_OPT_REDACT:
		o->redact = true;
		return 1;
	case COMMON_OPT_NO_VENDOR:
		o->no_vendor = true;
		return 1;
	case COMMON_OPT_OPENCL_ALL:
		o->opencl_all = true;
		return 1;
	case COMMON_OPT_COLOR:
		if (strcmp(arg, "auto") == 0)
			o->color = -1;
		else if (strcmp(arg, "always") == 0)
			o->color = 1;
		else if (strcmp(arg, "never") == 0)
			o->color = 0;
		else {
			fprintf(stderr, "gpuenv: --color takes auto, always or never, not '%s'\n",
				arg);
			return -EXIT_USAGE;
		}
		return 1;
	case COMMON_OPT_PCI_IDS:
		o->pci_ids = arg;
		return 1;
	case COMMON_OPT_VENDOR_TIMEOUT: {
		unsigned ms;

		if (parse_uint(arg, 10, &ms) < 0 || ms == 0 || ms > 600000) {
			fprintf(stderr,
				"gpuenv: --vendor-timeout takes milliseconds (1-600000), not "
				"'%s'\n",
				arg);
			return -EXIT_USAGE;
		}
		o->vendor_timeout_ms = ms;
		return 1;
	}
	case COMMON_OPT_PID: {
		unsigned pid;

		if (parse_uint(arg, 10, &pid) < 0 || pid == 0 || pid > INT_MAX) {
			fprintf(stderr,
				"gpuenv: --pid takes a process id (a positive number), not '%s'\n",
				arg);
			return -EXIT_USAGE;
		}
		o->pid = (int)pid;
		return 1;
	}
	case 'j':
		o->json = true;
		return 1;
	case 'v':
		o->verbose++;
		return 1;
	}
	return 0;
}

bool common_no_operands(const char *cmd, int argc, char *argv[])
{
	if (optind >= argc)
		return true;
	fprintf(stderr, "gpuenv %s: unexpected argument '%s'\n", cmd, argv[optind]);
	return false;
}

bool common_launch_usable(const char *cmd, const struct common_opts *o)
{
	if (!(o->ctx_flags & GPUENV_CTX_LAUNCH))
		return true;
	if (o->from || o->no_vendor) {
		fprintf(stderr, "gpuenv %s: --launch needs libcuda: not with %s\n", cmd,
			o->from ? "--from (a loaded snapshot runs nothing)" : "--no-vendor");
		return false;
	}
	return true;
}

bool common_use_color(const struct common_opts *o, FILE *f)
{
	const char *no_color = getenv("NO_COLOR");

	/* https://no-color.org: any non-empty NO_COLOR disables colour, even when forced. */
	if (no_color && *no_color)
		return false;
	if (o->color >= 0)
		return o->color == 1;
	return isatty(fileno(f));
}

/* The width text is wrapped at: COLUMNS where it holds a number (as systemd's columns() and
 * util-linux's get_terminal_width() honour it: `COLUMNS=120 gpuenv doctor | less`), else the
 * terminal's width where f is one (TIOCGWINSZ, tty_ioctl(4)), else 0: the renderer's 80, so
 * output to a file or a pipe does not depend on who ran it. */
static unsigned text_width(FILE *f)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;

	if (env && *env) {
		char *end;
		unsigned long cols;

		errno = 0;
		cols = strtoul(env, &end, 10);
		if (!errno && !*end && *env != '-' && cols > 0)
			return cols > 0xfff ? 0xfff : (unsigned)cols;
	}
	if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

unsigned common_render_flags(const struct common_opts *o, FILE *f)
{
	unsigned flags = 0;

	if (o->stable)
		flags |= GPUENV_RENDER_STABLE;
	if (o->redact)
		flags |= GPUENV_RENDER_REDACT;
	if (common_use_color(o, f))
		flags |= GPUENV_RENDER_COLOR;
	flags |= GPUENV_RENDER_WIDTH(text_width(f));
	return flags;
}

/* Log messages can quote what was read (a path in an image, a line of a file): their control
 * characters are escaped as the renderers escape them. */
static void log_to_stderr(void *userdata, int priority, const char *file, int line, const char *fn,
			  const char *format, va_list args)
{
	struct strbuf msg = STRBUF_INIT, esc = STRBUF_INIT;

	strbuf_vprintf(&msg, format, args);
	strbuf_put_escaped(&esc, strbuf_str(&msg));
	fprintf(stderr, "gpuenv: %s: %s\n", fn, msg.err || esc.err ? format : strbuf_str(&esc));
	strbuf_done(&msg);
	strbuf_done(&esc);
}

/* gpuenv_ctx_new()'s own messages (the env file's path, line and reason): printed as they
 * are, and remembered so that no second, vaguer message follows. */
static void log_setup(void *userdata, int priority, const char *file, int line, const char *fn,
		      const char *format, va_list args)
{
	bool *logged = userdata;

	fputs("gpuenv: ", stderr);
	vfprintf(stderr, format, args);
	fputc('\n', stderr);
	*logged = true;
}

/* The whole of path ("-": stdin), NUL-terminated; -EFBIG above max bytes. */
static int read_host_file(const char *path, size_t max, char **ret, size_t *ret_len)
{
	FILE *f = streq(path, "-") ? stdin : fopen(path, "re");
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	int err = 0;

	/* Set on every path: the release build (-O2) cannot see that -errno is never 0 and
	 * warns that the caller's text and len may be used uninitialized. */
	*ret = NULL;
	*ret_len = 0;
	if (!f)
		return errno ? -errno : -EIO;
	/* A directory opens, then every read fails with EISDIR: say so, not "I/O error". */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		if (f != stdin)
			fclose(f);
		return -EISDIR;
	}
	while (!err) {
		size_t n;

		if (cap - len < 65536) {
			char *p;

			cap = cap ? cap * 2 : 65536;
			if (cap > max + 65536) {
				err = -EFBIG;
				break;
			}
			p = realloc(buf, cap + 1);
			if (!p) {
				err = -ENOMEM;
				break;
			}
			buf = p;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len > max)
			err = -EFBIG;
		else if (n == 0)
			break;
	}
	if (!err && ferror(f))
		err = -EIO;
	if (f != stdin)
		fclose(f);
	if (err < 0)
		return err;
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

static int write_text_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		err = -EIO;
	if (fclose(f) != 0 && !err)
		err = -errno;
	return err;
}

/* The snapshot in path (a `gpuenv report --json` file, a capture bundle's snapshot.json,
 * "-": stdin), or an exit code after a message naming what (the option or argument) and the
 * path. */
int common_load_snapshot(struct gpuenv_ctx *ctx, const char *what, const char *path,
			 struct gpuenv_snapshot **ret)
{
	char *text;
	size_t len;
	int err;

	/* a capture bundle: its snapshot.json (docs/fleet.md, "Capture") */
	if (!streq(path, "-") && capture_is_archive(path)) {
		const char *why = NULL;

		err = capture_read_snapshot(path, (size_t)16 << 20, &text, &len, &why);
		if (err < 0) {
			const char *msg =
				err == -ENOENT	? "an archive without snapshot.json: not a capture "
						  "bundle"
				: err == -EFBIG ? "its snapshot.json is larger than 16 MiB"
				: err == -EBADMSG ? "not a readable archive"
				: why		  ? why
						  : strerror(-err);
			bool detail = err == -EBADMSG && why;

			fprintf(stderr, "gpuenv: %s %s: %s%s%s\n", what, path, msg,
				detail ? ": " : "", detail ? why : "");
			return err == -ENOMEM ? EXIT_SOFTWARE : EXIT_INPUT;
		}
	} else {
		/* gpuenv_snapshot_from_json()'s cap: a bigger file is not read at all. */
		err = read_host_file(path, (size_t)16 << 20, &text, &len);
	}
	if (err == -EFBIG) {
		fprintf(stderr,
			"gpuenv: %s %s: larger than 16 MiB: not a snapshot gpuenv wrote (one is a "
			"few hundred KB)\n",
			what, path);
		return EXIT_INPUT;
	}
	if (err < 0) {
		fprintf(stderr, "gpuenv: %s %s: %s\n", what, path, strerror(-err));
		return EXIT_INPUT;
	}
	err = gpuenv_snapshot_from_json(ctx, text, len, ret);
	free(text);
	if (err < 0) {
		fprintf(stderr, "gpuenv: %s %s: not a gpuenv snapshot (%s)\n", what, path,
			strerror(-err));
		return err == -ENOMEM ? EXIT_SOFTWARE : EXIT_INPUT;
	}
	return 0;
}

int common_open_ctx(const struct common_opts *o, struct gpuenv_ctx **ret_ctx)
{
	struct gpuenv_ctx_opts opts = {
		.sz = sizeof(opts),
		.sysroot = o->sysroot,
		.image = o->image,
		.image_platform = o->image_platform,
		.wheels = o->wheels[0] ? o->wheels : NULL,
		.env_file = o->env_file,
		.nvml_lib = o->nvml_lib,
		.cuda_lib = o->cuda_lib,
		.opencl_lib = o->opencl_lib,
		.amdsmi_lib = o->amdsmi_lib,
		.ze_lib = o->ze_lib,
		.hostname = o->hostname,
		.vendor_timeout_ms = o->vendor_timeout_ms,
		.pid = o->pid,
	};
	struct gpuenv_ctx *ctx = NULL;
	bool logged = false;
	int err;

	opts.log_fn = log_setup;
	opts.log_userdata = &logged;

	if (o->stable)
		opts.flags |= GPUENV_CTX_STABLE;
	if (o->trace_paths)
		opts.flags |= GPUENV_CTX_TRACE_PATHS;
	if (o->no_vendor)
		opts.flags |= GPUENV_CTX_NO_VENDOR;
	if (o->opencl_all)
		opts.flags |= GPUENV_CTX_OPENCL_ALL;
	if (o->image_verify)
		opts.flags |= GPUENV_CTX_VERIFY_IMAGE;
	opts.flags |= o->ctx_flags;
	if (o->image && (o->sysroot || o->from)) {
		fprintf(stderr, "gpuenv: --image cannot be combined with --%s\n",
			o->sysroot ? "sysroot" : "from");
		return EXIT_USAGE;
	}
	if (o->wheels[0] && (o->sysroot || o->from)) {
		fprintf(stderr, "gpuenv: --wheel cannot be combined with --%s (use --image)\n",
			o->sysroot ? "sysroot" : "from");
		return EXIT_USAGE;
	}
	for (size_t i = 0; o->wheels[i]; i++)
		if (stat(o->wheels[i], &(struct stat){ 0 }) < 0) {
			fprintf(stderr, "gpuenv: --wheel %s: %s\n", o->wheels[i], strerror(errno));
			return EXIT_INPUT;
		}
	if (o->image && stat(o->image, &(struct stat){ 0 }) < 0) {
		fprintf(stderr, "gpuenv: --image %s: %s\n", o->image, strerror(errno));
		return EXIT_INPUT;
	}
	if (o->sysroot) {
		struct stat st;

		/* Name the path and the reason before anything else (issue: bad input). */
		if (stat(o->sysroot, &st) < 0) {
			fprintf(stderr, "gpuenv: --sysroot %s: %s\n", o->sysroot, strerror(errno));
			return EXIT_INPUT;
		}
		/* a file: a capture bundle (or any root tree's tar), replayed as an image */
		if (S_ISREG(st.st_mode)) {
			opts.image = o->sysroot;
			opts.sysroot = NULL;
		} else if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "gpuenv: --sysroot %s: %s\n", o->sysroot,
				strerror(ENOTDIR));
			return EXIT_INPUT;
		}
	}
	if (o->env_file && access(o->env_file, R_OK) < 0) {
		fprintf(stderr, "gpuenv: --env-file %s: %s\n", o->env_file, strerror(errno));
		return EXIT_INPUT;
	}
	err = common_ctx_new(&opts, &ctx);
	if (err < 0) {
		/* When log_setup() printed nothing, say what failed. */
		if (!logged && !o->sysroot && !o->image && o->wheels[0])
			fprintf(stderr, "gpuenv: --wheel: %s\n", strerror(-err));
		else if (!logged && (o->sysroot || o->image))
			fprintf(stderr, "gpuenv: --%s %s: %s\n", o->image ? "image" : "sysroot",
				o->image ? o->image : o->sysroot, strerror(-err));
		else if (!logged)
			print_error("cannot set up", err);
		return err == -ENOMEM ? EXIT_SOFTWARE : EXIT_INPUT;
	}
	gpuenv_ctx_set_log_fn(ctx, log_to_stderr, NULL);
	gpuenv_ctx_set_log_priority(ctx, o->verbose ? 7 : 3);
	if (!o->from) {
		/* an image names no GPU: never the host's pci.ids for it */
		err = pci_names_setup(ctx, o->sysroot ? o->sysroot : o->image, o->pci_ids);
		if (err < 0) {
			if (err == -ENOMEM)
				print_error("cannot set up the pci.ids lookup", err);
			gpuenv_ctx_free(ctx);
			return err == -ENOMEM ? EXIT_SOFTWARE : EXIT_INPUT;
		}
	}
	*ret_ctx = ctx;
	return 0;
}

int common_collect(const struct common_opts *o, struct gpuenv_ctx *ctx,
		   struct gpuenv_snapshot **ret_snap)
{
	struct gpuenv_snapshot *snap = NULL;
	int err;

	if (o->from) {
		err = common_load_snapshot(ctx, "--from", o->from, &snap);
		if (err)
			return err;
	} else {
		err = gpuenv_snapshot_collect(ctx, &snap);
		if (err < 0) {
			print_error("collecting the snapshot", err);
			return EXIT_SOFTWARE;
		}
	}
	if (o->trace_paths) {
		char *trace;

		if (gpuenv_ctx_get_trace(ctx, &trace) == 0) {
			err = write_text_file(o->trace_paths, trace);
			free(trace);
			if (err < 0) {
				fprintf(stderr, "gpuenv: --trace-paths %s: %s\n", o->trace_paths,
					strerror(-err));
				gpuenv_snapshot_unref(snap);
				return EXIT_INPUT;
			}
		}
	}
	*ret_snap = snap;
	return 0;
}

int common_open(const struct common_opts *o, struct gpuenv_ctx **ret_ctx,
		struct gpuenv_snapshot **ret_snap)
{
	struct gpuenv_ctx *ctx = NULL;
	int err = common_open_ctx(o, &ctx);

	if (err)
		return err;
	err = common_collect(o, ctx, ret_snap);
	if (err) {
		gpuenv_ctx_free(ctx);
		return err;
	}
	*ret_ctx = ctx;
	return 0;
}

int common_read_file(const char *cmd, const char *what, const char *path, size_t max, char **ret,
		     size_t *ret_len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "re");
	char *buf;
	size_t n;

	if (!f) {
		fprintf(stderr, "gpuenv %s: cannot read the %s %s: %s\n", cmd, what, path,
			strerror(errno));
		return EXIT_INPUT;
	}
	buf = malloc(max + 2);
	if (!buf) {
		if (f != stdin)
			fclose(f);
		return EXIT_SOFTWARE;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f)) {
		fprintf(stderr, "gpuenv %s: cannot read the %s %s: %s\n", cmd, what, path,
			strerror(errno ? errno : EIO));
		free(buf);
		if (f != stdin)
			fclose(f);
		return EXIT_INPUT;
	}
	if (f != stdin)
		fclose(f);
	buf[n] = '\0';
	*ret = buf;
	*ret_len = n;
	return 0;
}
