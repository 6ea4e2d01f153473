// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv explain [FILE|-]`: pasted error messages and command output (a file, or standard
 * input) read into facts and judged by the doctor's rules (gpuenv_explain_text,
 * docs/explain.md); prints the facts read with their lines, the diagnosis and what to run to
 * be sure, and exits with the verdict as doctor does.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuenv.h"
#include "shared/prefault.h"
#include "start-prefault.h"

/* One byte past the library's 64 MiB cap: enough for it to say "too large". */
#define EXPLAIN_READ_MAX (((size_t)64 << 20) + 1)

/* Where a leak checker looks (ASan's builds, which the tests run): there the diagnosis is
 * freed at the end; elsewhere the process's end hands its pages back at once, and freeing
 * them one by one was 2.5 % of a paste's instructions (docs/explain.md, "Performance: a
 * typical paste"). Only at the command's successful end: the library's callers free it. */
#if defined(__SANITIZE_ADDRESS__)
#define LEAKS_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define LEAKS_CHECKED 1
#endif
#endif
static void explain_free_at_exit(struct gpuenv_explain *e)
{
#ifdef LEAKS_CHECKED
	gpuenv_explain_free(e);
#else
	(void)e;
#endif
}

static void explain_help(void)
{
	printf("Usage: gpuenv explain [OPTIONS] [FILE|-]\n\n"
	       "Reads pasted error messages and command output (FILE, or standard input when\n"
	       "FILE is - or missing) and judges what it says with the doctor's rules: the facts\n"
	       "read, each with its line; the root cause; the findings; and what to run to be\n"
	       "sure, for what the text does not show. UTF-8 or UTF-16 with BOM (PowerShell's\n"
	       "`>`), CRLF, terminal colours and Markdown quotes and fences are all read; a\n"
	       "gzip file (nvidia-bug-report.log.gz) is read a window at a time.\n\n"
	       "With --this-machine, the text's facts are set beside a snapshot of this machine\n"
	       "(or of --sysroot DIR, or --from FILE) and both are judged together: the text\n"
	       "says what failed, the machine says why. Each fact is marked text only, machine\n"
	       "agrees, or CONFLICT; on a conflict the machine's fact is judged and both are\n"
	       "listed.\n\n"
	       "Options:\n"
	       "      --markdown        Markdown to reply in an issue\n"
	       "      --this-machine    judge the text together with this machine's snapshot\n"
	       "  -h, --help            this help\n"
	       "The machine options (only with --this-machine, but --json, --stable, --redact,\n"
	       "--color; --json is doctor's document plus facts_read and ask):\n" COMMON_OPTIONS_HELP
	       "\n"
	       "Exit codes:\n"
	       "  0   no error-severity finding\n"
	       "  2   an error found\n"
	       "  64  usage error\n"
	       "  65  the input is not text (binary, no encoding it reads) or over 64 MiB\n"
	       "      (over 256 MiB inflated from a gzip file)\n"
	       "  66  FILE cannot be read\n"
	       "  70  internal error\n"
	       "  74  the output could not be written\n");
}

#define READ_PREFAULT_MIN ((size_t)1 << 20)

/* The second half of a report's file, read on a thread of its own (read_all). */
struct half_read {
	int fd;
	char *p;
	size_t n, got;
	off_t at;
};

static void *half_read_run(void *arg)
{
	struct half_read *h = arg;

	while (h->got < h->n) {
		ssize_t k = pread(h->fd, h->p + h->got, h->n - h->got, h->at + (off_t)h->got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) /* the end, or an error read(2) then meets itself */
			break;
		h->got += (size_t)k;
	}
	return NULL;
}

/* The whole of fd, at most EXPLAIN_READ_MAX bytes, with read(2) into one buffer: of a
 * regular file's size (and a byte, to see its end), so that a paste is not read through
 * stdio's buffer into a 64 KiB one grown from there (pages first touched: docs/explain.md,
 * "Performance: a typical paste"); a pipe's from 64 KiB, doubled as it fills. A report
 * (READ_PREFAULT_MIN and more) is read in two halves at once, the second with pread(2) on a
 * thread of its own, the rest (what the file grew by, and its end) read on as before: on the
 * virtual machines measured, a page's first touch by the process, the file's pages in the
 * kernel as much as the buffer's, was most of read(2)'s time, and two threads take them
 * about twice as fast (docs/explain.md, "Performance: a whole nvidia-bug-report.log.gz").
 * The bytes are the same. 0 or -errno. */
static int read_all(int fd, char **ret, size_t *ret_len)
{
	size_t len = 0, alloc = 0, want = 65536, upto = 0;
	bool sized = false; /* want: the file's size */
	char *buf = NULL;
	struct stat st;
	struct half_read half = { .fd = fd };
	pthread_t reader;
	bool halves = false; /* the second half is read on `reader` until joined */
	off_t base = -1;
	int r = 0;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (uintmax_t)st.st_size < EXPLAIN_READ_MAX) {
		want = (size_t)st.st_size + 1;
		sized = true;
	}
	for (;;) {
		ssize_t n;

		if (len == alloc) {
			char *nb;

			if (alloc)
				want = alloc * 2;
			if (want > EXPLAIN_READ_MAX)
				want = EXPLAIN_READ_MAX;
			if (want == alloc)
				break;
			nb = realloc(buf, want);
			if (!nb) {
				r = -ENOMEM;
				break;
			}
			buf = nb;
			/* a report's megabytes, faulted in at once: read(2) took a fault at each page
			 * (docs/explain.md); a paste's few pages are left as they are, and a pipe's
			 * doubled buffer, which the input may not fill */
			if (sized && len == 0 && want >= READ_PREFAULT_MIN) {
				prefault_write(buf, want);
				base = lseek(fd, 0,
					     SEEK_CUR); /* standard input: a file read partly */
				upto = want / 2;
				half.p = buf + upto;
				half.n = want - 1 - upto; /* the file's size, as fstat gave it */
				half.at = base + (off_t)upto;
				halves = base >= 0 &&
					 pthread_create(&reader, NULL, half_read_run, &half) == 0;
			}
			alloc = want;
		}
		n = read(fd, buf + len, (halves ? upto : alloc) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		len += (size_t)n;
		if (halves && (n == 0 || len == upto)) {
			pthread_join(reader, NULL);
			halves = false;
			/* both halves whole: on after the second (a shorter file ends the first) */
			if (len == upto && half.got > 0) {
				len += half.got;
				if (lseek(fd, base + (off_t)len, SEEK_SET) < 0) {
					r = -errno;
					break;
				}
			}
			continue; /* (an end met in the first half is met again) */
		}
		if (n == 0)
			break;
	}
	if (halves)
		pthread_join(reader, NULL);
	if (r < 0) {
		free(buf);
		return r;
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}

static int read_input(const char *path, char **ret, size_t *ret_len)
{
	int fd = STDIN_FILENO, r;

	if (strcmp(path, "-") != 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	r = read_all(fd, ret, ret_len);
	if (fd != STDIN_FILENO)
		close(fd);
	return r;
}

/* The output's sink: written to standard output with write(2), not through stdio's buffer (a
 * page fewer first touched; the pieces are a few KiB of whole lines already). A failed write
 * is kept, and reported as gpuenv reports one when it closes stdout (tools/gpuenv.c). */
struct out_sink {
	int err; /* the first write's errno, or 0 */
};

static int write_out(void *userdata, const char *p, size_t n)
{
	struct out_sink *o = userdata;

	while (n > 0) {
		ssize_t k = write(STDOUT_FILENO, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			o->err = k < 0 ? errno : EIO;
			return -o->err;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int cmd_explain(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		COMMON_LONGOPTS,
		{ "markdown", no_argument, NULL, 0x200 },
		{ "this-machine", no_argument, NULL, 0x201 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct common_opts o = { .color = -1 };
	enum gpuenv_format format = GPUENV_FORMAT_TEXT;
	struct gpuenv_explain *e = NULL;
	const char *path = "-", *why = NULL;
	bool markdown = false, this_machine = false;
	struct gpuenv_ctx *ctx = NULL;
	struct gpuenv_snapshot *snap = NULL;
	struct out_sink sink = { 0 };
	char *data = NULL;
	size_t len = 0;
	unsigned flags;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_OPTSTRING "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			explain_help();
			return EXIT_HEALTHY;
		case 0x200:
			markdown = true;
			continue;
		case 0x201:
			this_machine = true;
			continue;
		case '?':
			return EXIT_USAGE;
		}
		r = common_opts_handle(&o, c, optarg);
		if (r < 0)
			return -r;
		if (r == 0)
			return EXIT_USAGE;
	}
	if (argc - optind > 1) {
		fprintf(stderr, "gpuenv explain: one input at most, not '%s'\n", argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (optind < argc)
		path = argv[optind];
	if (o.json && markdown) {
		fprintf(stderr, "gpuenv explain: --json and --markdown exclude each other\n");
		return EXIT_USAGE;
	}
	if (!this_machine && (o.sysroot || o.env_file || o.from || o.nvml_lib || o.cuda_lib ||
			      o.opencl_lib || o.trace_paths || o.pci_ids || o.no_vendor ||
			      o.opencl_all || o.pid || o.vendor_timeout_ms || o.verbose)) {
		fprintf(stderr, "gpuenv explain: the machine options go with --this-machine\n");
		return EXIT_USAGE;
	}
	if (o.json)
		format = GPUENV_FORMAT_JSON;
	else if (markdown)
		format = GPUENV_FORMAT_MARKDOWN;
	/* the code, heap and stack pages a paste then touches, in three calls instead of a trap
	 * at each page (docs/explain.md, "Performance: a typical paste") */
	start_prefault();
	r = read_input(path, &data, &len);
	if (r < 0) {
		fprintf(stderr, "gpuenv explain: %s: %s\n",
			strcmp(path, "-") == 0 ? "standard input" : path, strerror(-r));
		return r == -ENOMEM ? EXIT_SOFTWARE : EXIT_INPUT;
	}
	if (this_machine) { /* the machine (or its image, or a saved snapshot) first */
		r = common_open(&o, &ctx, &snap);
		if (r) {
			free(data);
			return r;
		}
		r = gpuenv_explain_with_machine(data, len, snap, &e, &why);
		gpuenv_snapshot_unref(snap);
		gpuenv_ctx_free(ctx);
		free(data);
	} else { /* data handed over: freed once cleaned (gpuenv_explain_text_take) */
		r = gpuenv_explain_text_take(data, len, &e, &why);
	}
	if (r == -EBADMSG || r == -EFBIG) {
		fprintf(stderr, "gpuenv explain: %s: %s\n",
			strcmp(path, "-") == 0 ? "standard input" : path, why ? why : strerror(-r));
		return EXIT_DATAERR;
	}
	flags = common_render_flags(&o, stdout);
	if (format != GPUENV_FORMAT_TEXT)
		flags &= ~(unsigned)GPUENV_RENDER_COLOR;
	if (r >= 0 && fflush(stdout) == 0) /* written as it is made */
		r = gpuenv_explain_render_to(e, format, flags, write_out, &sink);
	if (sink.err) {
		fprintf(stderr, "gpuenv: writing the output: %s\n", strerror(sink.err));
		gpuenv_explain_free(e);
		return EXIT_IOERR;
	}
	if (r < 0) {
		print_error("explaining", r);
		gpuenv_explain_free(e);
		return EXIT_SOFTWARE;
	}
	r = gpuenv_explain_get_verdict(e) == GPUENV_VERDICT_ERRORS ? EXIT_ERRORS : EXIT_HEALTHY;
	explain_free_at_exit(e);
	return r;
}
