// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv scan PATH…`: lists the GPU code (SASS and PTX targets, AMD code objects) in files,
 * directories, static libraries and Python wheels, and with --gpu / --this-machine (and --driver)
 * says whether each binary runs natively, through PTX JIT, or fails ("no kernel image is available
 * for execution on the device", "the provided PTX was compiled with an unsupported toolchain").
 * Uses the gpuenv_scan_* API; JSON schema in docs/scan-schema.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpuenv.h"
#include "shared/macro.h"
#include "shared/parse.h"

static void scan_help(void)
{
	printf("Usage: gpuenv scan [OPTIONS] PATH…\n\n"
	       "Lists the GPU code in binaries: the SASS (sm_86, sm_90a, sm_100f) and PTX\n"
	       "(compute_90, with its PTX ISA) targets of ELF executables and libraries, .fatbin,\n"
	       ".cubin and .ptx files, AMD offload bundles, and the members of static libraries\n"
	       "(.a, listed as LIB.a(member.o)) and Python wheels; directories are searched\n"
	       "recursively. With a device it says, per binary, whether\n"
	       "the GPU runs it natively, through PTX JIT, or fails with \"no kernel image is\n"
	       "available\" / \"PTX compiled with an unsupported toolchain\". No GPU needed.\n\n"
	       "Options:\n"
	       "      --gpu GPU         judge for this device: compute capability (8.6), SM "
	       "(sm_86)\n"
	       "                        or a GPU name from the knowledge base (\"RTX 4090\"); "
	       "repeatable\n"
	       "      --this-machine    judge for this machine's NVIDIA GPUs and driver (probes "
	       "it;\n"
	       "                        with --sysroot or --from, that machine's)\n"
	       "      --driver VERSION  driver version (550.54.15): PTX newer than it can JIT "
	       "fails\n"
	       "      --deep            also decompress payload heads and search every ELF "
	       "section\n"
	       "      --all-files       in directories, look at every file, not only *.so*, "
	       "*.cubin,\n"
	       "                        *.fatbin, *.ptx, *.hipfb, *.whl, *.a\n"
	       "  -a, --all             also list files without GPU code\n"
	       "      --max-depth N     directory levels to descend (default 32)\n"
	       "      --max-files N     files to examine at most (default 200000)\n"
	       "  -R, --sysroot DIR     read paths (and --this-machine) inside DIR instead of /\n"
	       "  -F, --from FILE       with --this-machine: a snapshot from `report --json`\n"
	       "      --color WHEN      auto (default), always, never; NO_COLOR disables it\n"
	       "  -j, --json            JSON output (docs/scan-schema.md)\n"
	       "  -v, --verbose         log to stderr\n"
	       "  -h, --help            this help\n\n"
	       "Verdicts: native (SASS for the device: same major, minor <= device minor; sm_XYa "
	       "only\n"
	       "on X.Y; sm_XYf within its family), ptx-jit (PTX compiled by the driver at first\n"
	       "launch), ptx-too-new (CUDA_ERROR_UNSUPPORTED_PTX_VERSION), no-kernel-image\n"
	       "(CUDA_ERROR_NO_BINARY_FOR_GPU / cudaErrorNoKernelImageForDevice); with --driver,\n"
	       "first the driver's own: driver-too-old (the CUDA runtime the binary links or\n"
	       "bundles needs a newer driver: cudaErrorInsufficientDriver) and\n"
	       "driver-gpu-unsupported (the driver's branch predates the GPU or dropped it).\n\n"
	       "Exit codes:\n"
	       "  0   every binary has a usable image for the given devices (or no device given)\n"
	       "  2   some binary has none (ptx-too-new, no-kernel-image or a driver verdict)\n"
	       "  64  usage error (also: unknown --gpu name, --this-machine without NVIDIA GPU)\n"
	       "  66  a PATH, the sysroot or the snapshot cannot be read (2 wins when both "
	       "apply)\n"
	       "  74  the output could not be written\n");
}

struct progress {
	bool on;
	struct timespec start, last;
	bool shown;
};

static double secs_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* A progress line on stderr when it is a terminal and the scan takes a while. */
static void on_progress(void *userdata, const char *path, uint64_t files, uint64_t bytes)
{
	struct progress *p = userdata;
	const char *base = strrchr(path, '/');

	if (!p->on || secs_since(&p->start) < 0.5 || secs_since(&p->last) < 0.1)
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->last);
	fprintf(stderr, "\r\033[Kscanning: %llu files, %llu MB: ", (unsigned long long)files,
		(unsigned long long)(bytes >> 20));
	/* a name from a file (archive or wheel member) must not drive the terminal */
	for (const char *c = base ? base + 1 : path, *end = c + 60; *c && c < end; c++)
		fputc((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c, stderr);
	p->shown = true;
}

int cmd_scan(int argc, char *argv[])
{
	enum {
		OPT_GPU = 0x200,
		OPT_THIS,
		OPT_DRIVER,
		OPT_DEEP,
		OPT_ALLFILES,
		OPT_DEPTH,
		OPT_FILES,
	};
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		{ "gpu", required_argument, NULL, OPT_GPU },
		{ "this-machine", no_argument, NULL, OPT_THIS },
		{ "driver", required_argument, NULL, OPT_DRIVER },
		{ "deep", no_argument, NULL, OPT_DEEP },
		{ "all-files", no_argument, NULL, OPT_ALLFILES },
		{ "all", no_argument, NULL, 'a' },
		{ "max-depth", required_argument, NULL, OPT_DEPTH },
		{ "max-files", required_argument, NULL, OPT_FILES },
		{ "sysroot", required_argument, NULL, 'R' },
		{ "from", required_argument, NULL, 'F' },
		{ "color", required_argument, NULL, COMMON_OPT_COLOR },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct common_opts co = { .color = -1 };
	struct gpuenv_scan_opts so = { .sz = sizeof(so) };
	struct progress prog = { 0 };
	const char *gpus[64], *driver = NULL;
	size_t n_gpus = 0;
	bool this_machine = false;
	struct gpuenv_ctx *ctx = NULL;
	struct gpuenv_snapshot *snap = NULL;
	struct gpuenv_scan *scan = NULL;
	struct gpuenv_scan_summary sum = { .sz = sizeof(sum) };
	char *out = NULL;
	int c, r, exit_code = EXIT_HEALTHY;

	while ((c = getopt_long(argc, argv, "ahjvR:F:", longopts, NULL)) != -1) {
		uint64_t v;

		switch (c) {
		case 'h':
			scan_help();
			return EXIT_HEALTHY;
		case OPT_GPU:
			if (n_gpus >= ARRAY_SIZE(gpus)) {
				fprintf(stderr, "gpuenv scan: too many --gpu\n");
				return EXIT_USAGE;
			}
			gpus[n_gpus++] = optarg;
			break;
		case OPT_THIS:
			this_machine = true;
			break;
		case OPT_DRIVER:
			driver = optarg;
			break;
		case OPT_DEEP:
			so.flags |= GPUENV_SCAN_DEEP;
			break;
		case OPT_ALLFILES:
			so.flags |= GPUENV_SCAN_ALL_FILES;
			break;
		case 'a':
			so.flags |= GPUENV_SCAN_LIST_ALL;
			break;
		case OPT_DEPTH:
		case OPT_FILES:
			if (parse_u64(optarg, 10, &v) < 0 || v == 0 ||
			    (c == OPT_DEPTH && v > 4096)) {
				fprintf(stderr,
					"gpuenv scan: --%s takes a positive number, not '%s'\n",
					c == OPT_DEPTH ? "max-depth" : "max-files", optarg);
				return EXIT_USAGE;
			}
			if (c == OPT_DEPTH)
				so.max_depth = (unsigned)v;
			else
				so.max_files = v;
			break;
		case 'R':
		case 'F':
		case 'j':
		case 'v':
		case COMMON_OPT_COLOR:
			r = common_opts_handle(&co, c, optarg);
			if (r < 0)
				return -r;
			break;
		default:
			fprintf(stderr, "gpuenv scan: see `gpuenv scan --help`\n");
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "gpuenv scan: expected a PATH; see `gpuenv scan --help`\n");
		return EXIT_USAGE;
	}
	if (co.from && !this_machine) {
		fprintf(stderr, "gpuenv scan: --from is only used with --this-machine\n");
		return EXIT_USAGE;
	}
	if (this_machine) {
		r = common_open(&co, &ctx, &snap);
		if (r != 0)
			return r;
	} else {
		struct gpuenv_ctx_opts copts = {
			.sz = sizeof(copts),
			.sysroot = co.sysroot,
			.flags = GPUENV_CTX_NO_VENDOR,
		};

		r = common_ctx_new(&copts, &ctx);
		if (r < 0) {
			fprintf(stderr, "gpuenv scan: %s%s: %s\n", co.sysroot ? "--sysroot " : "",
				co.sysroot ? co.sysroot : "setting up", strerror(-r));
			return r == -ENOMEM ? EXIT_SOFTWARE : EXIT_INPUT;
		}
	}
	prog.on = isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &prog.start);
	so.progress = on_progress;
	so.progress_userdata = &prog;
	r = gpuenv_scan_new(ctx, &so, &scan);
	if (r < 0) {
		print_error("scan", r);
		exit_code = EXIT_SOFTWARE;
		goto out;
	}
	for (size_t i = 0; i < n_gpus; i++) {
		r = gpuenv_scan_add_gpu(scan, gpus[i]);
		if (r == -ENOENT || r == -ENODATA || r == -EINVAL) {
			fprintf(stderr, "gpuenv scan: --gpu %s: %s\n", gpus[i],
				r == -ENOENT ? "no such GPU in the knowledge base (try `gpuenv "
					       "facts gpu NAME`, "
					       "or give the compute capability, e.g. 8.6)"
				: r == -ENODATA
					? "its compute capability is not confirmed in the "
					  "knowledge base"
					: "not a compute capability (8.6), SM (sm_86) or GPU name");
			exit_code = EXIT_USAGE;
			goto out;
		}
		if (r < 0) {
			print_error("--gpu", r);
			exit_code = EXIT_SOFTWARE;
			goto out;
		}
	}
	if (driver) {
		r = gpuenv_scan_set_driver(scan, driver);
		if (r < 0) {
			fprintf(stderr,
				"gpuenv scan: --driver %s: not a driver version (550.54.15)\n",
				driver);
			exit_code = EXIT_USAGE;
			goto out;
		}
	}
	if (this_machine) {
		r = gpuenv_scan_add_snapshot_gpus(scan, snap);
		if (r < 0) {
			print_error("--this-machine", r);
			exit_code = EXIT_SOFTWARE;
			goto out;
		}
		if (r == 0) {
			fprintf(stderr,
				"gpuenv scan: --this-machine: no NVIDIA GPU with a known compute "
				"capability in the snapshot (hardware.gpus[]); use --gpu\n");
			exit_code = EXIT_USAGE;
			goto out;
		}
	}
	for (int i = optind; i < argc; i++) {
		char path[8192];

		/* paths are absolute inside the root: relative ones are taken from the current
		 * directory on the live system, from the sysroot's top under --sysroot */
		if (argv[i][0] == '/')
			snprintf(path, sizeof(path), "%s", argv[i]);
		else if (co.sysroot)
			snprintf(path, sizeof(path), "/%s", argv[i]);
		else if (getcwd(path, sizeof(path) - strlen(argv[i]) - 2))
			snprintf(path + strlen(path), sizeof(path) - strlen(path), "%s%s",
				 path[1] ? "/" : "", argv[i]);
		else
			snprintf(path, sizeof(path), "%s", argv[i]);
		r = gpuenv_scan_path(scan, path);
		if (r == -ENOMEM) {
			print_error("scan", r);
			exit_code = EXIT_SOFTWARE;
			goto out;
		}
	}
	if (prog.shown)
		fputs("\r\033[K", stderr);
	r = gpuenv_scan_render(scan, co.json ? GPUENV_FORMAT_JSON : GPUENV_FORMAT_TEXT,
			       !co.json && common_use_color(&co, stdout) ? GPUENV_RENDER_COLOR : 0,
			       &out);
	if (r < 0) {
		print_error("rendering", r);
		exit_code = EXIT_SOFTWARE;
		goto out;
	}
	fputs(out, stdout);
	if (co.json)
		fputc('\n', stdout);
	r = gpuenv_scan_get_summary(scan, &sum);
	if (r < 0) {
		exit_code = EXIT_SOFTWARE;
		goto out;
	}
	if (sum.failing)
		exit_code = EXIT_ERRORS;
	else if (sum.unreadable_args)
		exit_code = EXIT_INPUT;
out:
	free(out);
	gpuenv_scan_free(scan);
	gpuenv_snapshot_unref(snap);
	gpuenv_ctx_free(ctx);
	return exit_code;
}
