// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv labels [--nfd FILE]`: this machine's (or --sysroot's, --from's) Kubernetes node labels
 * (gpuenv_doctor_labels(), docs/labels.md), printed, or written for Node Feature Discovery's
 * local source: FILE in its features.d directory, replaced atomically (a temporary file in the
 * same directory, fsync, rename(2)) so nfd-worker never reads half a file, headed by
 * `# +expiry-time=` (RFC 3339, UTC) so that NFD drops the labels when gpuenv stops refreshing
 * them (https://kubernetes-sigs.github.io/node-feature-discovery/v0.14/usage/customization-guide,
 * "Feature files").
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpuenv.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/path-util.h"

#define LABELS_OPT_NFD	  0x300
#define LABELS_OPT_EXPIRY 0x301

static void labels_help(void)
{
	printf("Usage: gpuenv labels [OPTIONS]\n\n"
	       "Kubernetes node labels for this machine's GPU stack: GPU Feature Discovery's\n"
	       "names where they overlap (nvidia.com/gpu.product, gpu.count, gpu.memory,\n"
	       "gpu.compute.major/minor, gpu.family, cuda.driver.*, cuda.runtime.*) and gpuenv's\n"
	       "own under feature.node.kubernetes.io/gpuenv. (health, root-cause, driver-max-cuda,\n"
	       "framework-coverage, errors, warnings). Printed as name=value lines, or written\n"
	       "for Node Feature Discovery with --nfd.\n\n"
	       "Options:\n" COMMON_OPTIONS_HELP
	       "      --nfd FILE        write FILE (NFD's features.d) atomically, with an expiry\n"
	       "      --expiry SECONDS  the labels expire this long after writing (default 600)\n"
	       "  -h, --help            this help\n\n"
	       "Exit codes:\n"
	       "  0   labels printed or written (whatever the machine's health)\n"
	       "  64  usage error\n"
	       "  66  an input (sysroot, snapshot, env file) cannot be read\n"
	       "  70  internal error\n"
	       "  74  the output (or --nfd FILE) could not be written\n");
}

/* FILE replaced by text: a temporary file beside it, written, fsync'ed and renamed over it. */
static int write_atomically(const char *path, const char *text)
{
	_cleanup_free_ char *dir = path_dirname(path), *tmp = NULL;
	size_t len = strlen(text), off = 0;
	int fd, err = 0;

	if (!dir || asprintf(&tmp, "%s/.%s.XXXXXX", dir, path_basename(path)) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (off < len && !err) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n > 0)
			off += (size_t)n;
	}
	/* NFD's files are read by nfd-worker as another user: 0644 like GFD's */
	if (!err && fchmod(fd, 0644) < 0)
		err = -errno;
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

struct labels_opts {
	const char *nfd;
	unsigned expiry;
};

/* --nfd FILE, --expiry SECONDS */
static int labels_opt(void *data, int c, const char *arg)
{
	struct labels_opts *l = data;

	switch (c) {
	case LABELS_OPT_NFD:
		l->nfd = arg;
		return 1;
	case LABELS_OPT_EXPIRY:
		if (parse_uint(arg, 10, &l->expiry) < 0 || l->expiry == 0 ||
		    l->expiry > 366u * 86400) {
			fprintf(stderr,
				"gpuenv labels: --expiry takes seconds (1-31622400), not '%s'\n",
				arg);
			return -EXIT_USAGE;
		}
		return 1;
	}
	return 0;
}

int cmd_labels(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		COMMON_LONGOPTS,
		{ "nfd", required_argument, NULL, LABELS_OPT_NFD },
		{ "expiry", required_argument, NULL, LABELS_OPT_EXPIRY },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct common_opts o = { .color = -1 };
	struct labels_opts l = { .expiry = 600 };
	struct gpuenv_ctx *ctx;
	struct gpuenv_snapshot *snap;
	struct gpuenv_doctor *doc = NULL;
	char *out = NULL;
	int r;

	r = common_getopt(argc, argv, "", longopts, &o, labels_help, labels_opt, &l);
	if (r >= 0)
		return r;
	if (!common_no_operands("labels", argc, argv))
		return EXIT_USAGE;
	if (l.nfd && o.json) {
		fprintf(stderr, "gpuenv labels: --nfd writes NFD's format, not --json\n");
		return EXIT_USAGE;
	}
	r = common_open(&o, &ctx, &snap);
	if (r)
		return r;
	r = gpuenv_doctor_run(snap, &doc);
	if (r >= 0)
		r = gpuenv_doctor_labels(doc, o.json ? GPUENV_FORMAT_JSON : GPUENV_FORMAT_TEXT, 0,
					 &out);
	if (r < 0) {
		print_error("labelling", r);
		r = EXIT_SOFTWARE;
	} else if (l.nfd) {
		time_t t = time(NULL) + (time_t)l.expiry;
		struct tm tm;
		char stamp[32], *text = NULL;

		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
		if (asprintf(&text, "# +expiry-time=%s\n%s", stamp, out) < 0) {
			r = EXIT_SOFTWARE;
		} else {
			r = write_atomically(l.nfd, text);
			free(text);
			if (r < 0)
				fprintf(stderr, "gpuenv labels: --nfd %s: %s\n", l.nfd,
					strerror(-r));
			r = r < 0 ? EXIT_IOERR : EXIT_HEALTHY;
		}
	} else {
		fputs(out, stdout);
		r = EXIT_HEALTHY;
	}
	free(out);
	gpuenv_doctor_free(doc);
	gpuenv_snapshot_unref(snap);
	gpuenv_ctx_free(ctx);
	return r;
}
