// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv fleet SNAPSHOT…|DIR…`: many machines' `gpuenv doctor --json` or `report --json`
 * files (a directory: its *.json files) summarised by gpuenv_fleet_add(), one file in memory
 * at a time (docs/fleet.md). A file that cannot be read, is not a regular file, is over
 * 16 MiB or is not a snapshot is named on stderr and counted, and the rest go on.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuenv.h"

/* gpuenv_snapshot_from_json()'s cap: a snapshot is a few hundred KB. */
#define FLEET_FILE_MAX ((size_t)16 << 20)

static void fleet_help(void)
{
	printf("Usage: gpuenv fleet [OPTIONS] SNAPSHOT…|DIR…\n\n"
	       "Summarises many machines' `gpuenv doctor --json` (or `report --json`) files; a\n"
	       "directory stands for its *.json files. For each fact that decides whether a job\n"
	       "runs the same everywhere (driver, module flavour, toolkit, cuDNN, NCCL, framework\n"
	       "builds, GPU model, VBIOS, PCIe link, ECC/MIG/persistence modes, CDI spec driver,\n"
	       "container runtime) it prints the majority value and the machines that deviate,\n"
	       "grouped; then the findings by how many machines have them. Host names, UUIDs,\n"
	       "serials and bus ids are not compared. Unreadable or malformed files are named\n"
	       "and counted.\n\n"
	       "Options:\n"
	       "  -j, --json            JSON output\n"
	       "      --markdown        a Markdown table to paste into an issue\n"
	       "  -h, --help            this help\n\n"
	       "Exit codes:\n"
	       "  0   every machine read, all agree, none has an error finding\n"
	       "  1   machines differ, have error findings, or a file was not read\n"
	       "  64  usage error\n"
	       "  66  no machine could be read\n"
	       "  70  internal error\n"
	       "  74  the output could not be written\n");
}

struct reader {
	struct gpuenv_fleet *fleet;
	char *buf;
	size_t cap;
	int err; /* -ENOMEM */
};

static void not_read(struct reader *rd, const char *path, const char *why)
{
	fprintf(stderr, "gpuenv fleet: %s: %s\n", path, why);
	if (gpuenv_fleet_add_unread(rd->fleet, path, why) < 0)
		rd->err = -ENOMEM;
}

/* One file, whole, into rd->buf; a FIFO or device is refused without blocking on it. */
static void add_file(struct reader *rd, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	size_t len = 0;
	int r;

	if (fd < 0) {
		not_read(rd, path, strerror(errno));
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		not_read(rd, path, S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
		close(fd);
		return;
	}
	for (;;) {
		ssize_t n;

		if (len == rd->cap) {
			size_t cap = rd->cap ? rd->cap * 2 : (size_t)1 << 20;
			char *p;

			if (rd->cap > FLEET_FILE_MAX) {
				not_read(rd, path,
					 "larger than 16 MiB: not a snapshot gpuenv wrote");
				close(fd);
				return;
			}
			p = realloc(rd->buf, cap);
			if (!p) {
				rd->err = -ENOMEM;
				close(fd);
				return;
			}
			rd->buf = p;
			rd->cap = cap;
		}
		n = read(fd, rd->buf + len, rd->cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			not_read(rd, path, strerror(errno));
			close(fd);
			return;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > FLEET_FILE_MAX) {
			not_read(rd, path, "larger than 16 MiB: not a snapshot gpuenv wrote");
			close(fd);
			return;
		}
	}
	close(fd);
	r = gpuenv_fleet_add(rd->fleet, path, rd->buf, len);
	if (r == -EBADMSG)
		fprintf(stderr,
			"gpuenv fleet: %s: not a gpuenv snapshot (listed under \"not read\")\n",
			path);
	else if (r < 0)
		rd->err = r;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's *.json files, in name order. */
static void add_dir(struct reader *rd, const char *dir)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;

	if (!d) {
		not_read(rd, dir, strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l < 6 || strcmp(de->d_name + l - 5, ".json") != 0 || de->d_name[0] == '.')
			continue;
		if (n == alloc) {
			char **p = realloc(names, (alloc = alloc ? alloc * 2 : 256) * sizeof(*p));

			if (!p)
				break;
			names = p;
		}
		if (asprintf(&names[n], "%s/%s", dir, de->d_name) < 0)
			break;
		n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		if (!rd->err)
			add_file(rd, names[i]);
		free(names[i]);
	}
	free(names);
}

int cmd_fleet(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "markdown", no_argument, NULL, 0x200 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct reader rd = { 0 };
	bool json = false, markdown = false;
	char *out = NULL;
	int c, r;

	while ((c = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fleet_help();
			return EXIT_HEALTHY;
		case 'j':
			json = true;
			break;
		case 0x200:
			markdown = true;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "gpuenv fleet: name the snapshot files or a directory of them\n");
		return EXIT_USAGE;
	}
	if (json && markdown) {
		fprintf(stderr, "gpuenv fleet: --json and --markdown exclude each other\n");
		return EXIT_USAGE;
	}
	r = gpuenv_fleet_new(&rd.fleet);
	if (r < 0) {
		print_error("cannot set up", r);
		return EXIT_SOFTWARE;
	}
	for (int i = optind; i < argc && !rd.err; i++) {
		struct stat st;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			add_dir(&rd, argv[i]);
		else
			add_file(&rd, argv[i]);
	}
	free(rd.buf);
	r = rd.err;
	if (r >= 0)
		r = gpuenv_fleet_render(rd.fleet,
					json	   ? GPUENV_FORMAT_JSON
					: markdown ? GPUENV_FORMAT_MARKDOWN
						   : GPUENV_FORMAT_TEXT,
					0, &out);
	if (r < 0) {
		print_error("summarising the fleet", r);
		r = EXIT_SOFTWARE;
	} else {
		fputs(out, stdout);
		r = gpuenv_fleet_get_machine_count(rd.fleet) == 0 ? EXIT_INPUT
		    : gpuenv_fleet_get_problem_count(rd.fleet)	  ? 1
								  : EXIT_HEALTHY;
	}
	free(out);
	gpuenv_fleet_free(rd.fleet);
	return r;
}
