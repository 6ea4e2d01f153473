/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The gpuenv command table (kmod tools/kmod.h) and the helpers every command shares.
 * Commands see only the public header and src/shared/.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "gpuenv/gpuenv.h"

/* Exit codes, documented in gpuenv(1) and `gpuenv --help`. */
enum {
	EXIT_HEALTHY = 0,
	EXIT_WARNINGS = 1,    /* doctor --strict: warnings found */
	EXIT_ERRORS = 2,      /* doctor: error-severity findings */
	EXIT_UNEVALUATED = 3, /* doctor: nothing could be read */
	EXIT_USAGE = 64,      /* bad command line (EX_USAGE) */
	EXIT_DATAERR = 65,    /* explain: the input is not text, or too large (EX_DATAERR) */
	EXIT_INPUT = 66,      /* an input (sysroot, file) cannot be read (EX_NOINPUT) */
	EXIT_SOFTWARE = 70,   /* internal error (EX_SOFTWARE) */
	EXIT_IOERR = 74,      /* the output could not be written (EX_IOERR) */
};

struct gpuenv_cmd {
	const char *name;
	int (*run)(int argc, char *argv[]);
	const char *help;
};

/* Options shared by the commands that read a machine (report, doctor, …). */
struct common_opts {
	const char *sysroot;
	const char *image;	    /* --image, or a --sysroot that is a file (a capture bundle) */
	const char *image_platform; /* --image-platform */
	const char *wheels[9];	    /* --wheel (repeatable), NULL-terminated */
	const char *env_file;
	const char *from;
	const char *nvml_lib;
	const char *cuda_lib;
	const char *opencl_lib;
	const char *amdsmi_lib;
	const char *ze_lib;
	const char
		*hostname; /* collection.hostname instead of the UTS name (exporter: $NODE_NAME) */
	const char *trace_paths; /* file to write the trace to */
	const char *pci_ids;	 /* pci.ids to name GPUs the built-in table lacks */
	bool json, stable, redact, no_vendor, opencl_all, image_verify;
	int color; /* -1 auto */
	int verbose;
	unsigned vendor_timeout_ms; /* 0: the library's default */
	int pid;		    /* --pid: 0 when not given */
	unsigned ctx_flags;	    /* more GPUENV_CTX_* (exporter: GPUENV_CTX_GPU_SAMPLE) */
};

/* getopt_long entries and their handler, for commands that take the common options. */
enum {
	COMMON_OPT_NVML_LIB = 0x100,
	COMMON_OPT_CUDA_LIB,
	COMMON_OPT_OPENCL_LIB,
	COMMON_OPT_TRACE_PATHS,
	COMMON_OPT_STABLE,
	COMMON_OPT_REDACT,
	COMMON_OPT_NO_VENDOR,
	COMMON_OPT_COLOR,
	COMMON_OPT_VENDOR_TIMEOUT,
	COMMON_OPT_PID,
	COMMON_OPT_PCI_IDS,
	COMMON_OPT_OPENCL_ALL,
	COMMON_OPT_IMAGE,
	COMMON_OPT_IMAGE_PLATFORM,
	COMMON_OPT_AMDSMI_LIB,
	COMMON_OPT_WHEEL,
	COMMON_OPT_IMAGE_VERIFY,
	COMMON_OPT_ZE_LIB,
};
#define COMMON_LONGOPTS                                                                            \
	{ "sysroot", required_argument, NULL, 'R' }, { "env-file", required_argument, NULL, 'E' }, \
		{ "from", required_argument, NULL, 'F' },                                          \
		{ "image", required_argument, NULL, COMMON_OPT_IMAGE },                            \
		{ "image-platform", required_argument, NULL, COMMON_OPT_IMAGE_PLATFORM },          \
		{ "wheel", required_argument, NULL, COMMON_OPT_WHEEL },                            \
		{ "image-verify", no_argument, NULL, COMMON_OPT_IMAGE_VERIFY },                    \
		{ "nvml-lib", required_argument, NULL, COMMON_OPT_NVML_LIB },                      \
		{ "cuda-lib", required_argument, NULL, COMMON_OPT_CUDA_LIB },                      \
		{ "opencl-lib", required_argument, NULL, COMMON_OPT_OPENCL_LIB },                  \
		{ "amdsmi-lib", required_argument, NULL, COMMON_OPT_AMDSMI_LIB },                  \
		{ "ze-lib", required_argument, NULL, COMMON_OPT_ZE_LIB },                          \
		{ "trace-paths", required_argument, NULL, COMMON_OPT_TRACE_PATHS },                \
		{ "stable", no_argument, NULL, COMMON_OPT_STABLE },                                \
		{ "redact", no_argument, NULL, COMMON_OPT_REDACT },                                \
		{ "no-vendor", no_argument, NULL, COMMON_OPT_NO_VENDOR },                          \
		{ "opencl-all", no_argument, NULL, COMMON_OPT_OPENCL_ALL },                        \
		{ "color", required_argument, NULL, COMMON_OPT_COLOR },                            \
		{ "pci-ids", required_argument, NULL, COMMON_OPT_PCI_IDS },                        \
		{ "vendor-timeout", required_argument, NULL, COMMON_OPT_VENDOR_TIMEOUT },          \
		{ "pid", required_argument, NULL, COMMON_OPT_PID },                                \
		{ "json", no_argument, NULL, 'j' },                                                \
	{                                                                                          \
		"verbose", no_argument, NULL, 'v'                                                  \
	}
#define COMMON_OPTSTRING "R:E:F:jv"
#define COMMON_OPTIONS_HELP                                                                          \
	"  -R, --sysroot DIR     read the machine image under DIR instead of / (a file: a capture\n" \
	"                        bundle or the tar of a root tree, read as --image)\n"               \
	"      --image PATH      judge a container image: docker save tar, OCI layout (directory\n"  \
	"                        or tar), root tree tar; layers read in place, its Env applied\n"    \
	"      --image-platform OS/ARCH  the manifest to read from a multi-platform image\n"         \
	"                        (default linux/amd64)\n"                                            \
	"      --image-verify    hash each layer blob against its manifest digest (reads the\n"      \
	"                        whole image; a blob that differs is left out, said)\n"              \
	"      --wheel FILE.whl  a Python wheel, judged as installed (over --image, or alone);\n"    \
	"                        repeatable, 8 at most\n"                                            \
	"  -E, --env-file FILE   environment of the judged process (KEY=VALUE lines, as docker)\n"   \
	"  -F, --from FILE       load a snapshot written by `report --json` (or a capture\n"         \
	"                        bundle's) instead of probing\n"                                     \
	"      --nvml-lib PATH   libnvidia-ml.so.1 to load (also enables NVML under --sysroot)\n"    \
	"      --cuda-lib PATH   libcuda.so.1 to load (likewise)\n"                                  \
	"      --opencl-lib PATH libOpenCL.so.1 to load (likewise)\n"                                \
	"      --amdsmi-lib PATH libamd_smi.so to load (likewise)\n"                                 \
	"      --ze-lib PATH     libze_loader.so.1 (Level Zero) to load (likewise)\n"                \
	"      --no-vendor       never call vendor libraries\n"                                      \
	"      --opencl-all      also load CPU-only OpenCL implementations (PoCL)\n"                 \
	"      --pci-ids FILE    pci.ids naming GPUs the built-in table lacks (default: the\n"       \
	"                        system's; under --sysroot only the sysroot's own copy)\n"           \
	"      --vendor-timeout MS  deadline of each vendor library session (default 5000)\n"        \
	"      --trace-paths FILE  write every path read, with its result, to FILE\n"                \
	"      --stable          no timings, hostnames or other run-to-run noise\n"                  \
	"      --redact          replace UUIDs, serial numbers and environment values\n"             \
	"      --color WHEN      auto (default), always, never; NO_COLOR disables it\n"              \
	"      --pid N           also list the GPU libraries process N has mapped "                  \
	"(/proc/N/maps)\n"                                                                           \
	"  -j, --json            JSON output\n"                                                      \
	"  -v, --verbose         log what the probes do to stderr\n"

/* Returns 1 if handled, 0 if not a common option, or an exit code < 0 (negated) on error. */
int common_opts_handle(struct common_opts *o, int opt, const char *arg);
/*
 * The option loop of a command that probes: getopt_long() over COMMON_OPTSTRING, own_opts
 * and "h"; -h/--help prints help() and ends the command (EXIT_HEALTHY); own(data, c, arg)
 * takes the command's own options first (1 taken, 0 not its own, an exit code < 0 (negated)
 * after saying what is wrong), the rest go to common_opts_handle(). Returns -1 when every
 * option was read, else the exit code to end with.
 */
struct option;
int common_getopt(int argc, char *argv[], const char *own_opts, const struct option *longopts,
		  struct common_opts *o, void (*help)(void),
		  int (*own)(void *data, int c, const char *arg), void *data);
/*
 * gpuenv_ctx_new() (tools/ctx-new.c); in the test build of the CLI (gpuenv-test, never
 * installed: tests/harness/cli-test-hooks.c) also the hooks its GPUENV_TEST_* environment
 * variables ask for (src/testhooks/testhooks.h). The installed gpuenv has no test hook.
 */
int common_ctx_new(const struct gpuenv_ctx_opts *opts, struct gpuenv_ctx **ret);
/* Opens the context, collects or loads the snapshot. Returns an exit code (0 = ok). */
int common_open_ctx(const struct common_opts *o, struct gpuenv_ctx **ret_ctx);
int common_collect(const struct common_opts *o, struct gpuenv_ctx *ctx,
		   struct gpuenv_snapshot **ret_snap);
int common_open(const struct common_opts *o, struct gpuenv_ctx **ret_ctx,
		struct gpuenv_snapshot **ret_snap);
/* Loads a snapshot file ("-": stdin) for --from or a command's argument: 0, or the exit code
 * after a message that names `what` and the path. */
int common_load_snapshot(struct gpuenv_ctx *ctx, const char *what, const char *path,
			 struct gpuenv_snapshot **ret);
/* --launch (doctor, report): GPUENV_CTX_LAUNCH in o->ctx_flags. False, with a message, when
 * it is combined with --from or --no-vendor (nothing would run). */
bool common_launch_usable(const char *cmd, const struct common_opts *o);
#define COMMON_OPT_LAUNCH 0x180
#define LAUNCH_OPTION_HELP                                                                          \
	"      --launch          also run a tiny kernel on each GPU (SASS and PTX) and check its\n" \
	"                        result: the active check (it runs code on the GPUs)\n"
bool common_use_color(const struct common_opts *o, FILE *f);
/* After getopt: false, with a message naming the first, when operands are left. */
bool common_no_operands(const char *cmd, int argc, char *argv[]);
unsigned common_render_flags(const struct common_opts *o, FILE *f);
/* Prints "gpuenv: <what>: <strerror>" to stderr. */
void print_error(const char *what, int err);
/* Reads a file the user named ("-": standard input) into a NUL-terminated buffer, at most
 * max bytes (one more is read to tell: the excess is len = max + 1, left to the caller to
 * judge). 0, or EXIT_INPUT / EXIT_SOFTWARE after a message "gpuenv CMD: cannot read the
 * WHAT PATH: why". */
int common_read_file(const char *cmd, const char *what, const char *path, size_t max, char **ret,
		     size_t *ret_len);

/* Gives ctx a pci.ids lookup through libpci (pci-names.c); 0 also when there is no file. */
int pci_names_setup(struct gpuenv_ctx *ctx, const char *sysroot, const char *ids_file);
/* The database pci_names_setup() chose (a path on this machine), or NULL. */
const char *pci_names_path(void);

int cmd_report(int argc, char *argv[]);
int cmd_facts(int argc, char *argv[]);
int cmd_scan(int argc, char *argv[]);
int cmd_doctor(int argc, char *argv[]);
int cmd_explain(int argc, char *argv[]);
int cmd_exporter(int argc, char *argv[]);
int cmd_check(int argc, char *argv[]);
int cmd_capture(int argc, char *argv[]);
int cmd_diff(int argc, char *argv[]);
int cmd_fleet(int argc, char *argv[]);
int cmd_labels(int argc, char *argv[]);
int cmd_health(int argc, char *argv[]);
