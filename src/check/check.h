/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `gpuenv check` (docs/policy.md): a policy (src/formats/policy.h) judged against a diagnosis
 * (the snapshot and the doctor's findings). check_run() is a pure function of the two and
 * the date waivers are judged on: one clause per policy key (pass, fail or skipped by the
 * profile), one entry per rule of the catalogue (failing, waived, below the failing
 * severity, outside the profile, skipped by the doctor), and the result the exit code
 * says. Renderers (src/output/out-check*.c) print it and compute nothing.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "facts/coverage.h"
#include "facts/ltoir.h"
#include "gpuenv/gpuenv.h"
#include "rules/rules.h"
#include "shared/macro.h"

struct gpuenv_policy;

enum check_status {
	CHECK_PASS = 0,
	CHECK_FAIL,
	CHECK_SKIP, /* not judged: the profile excludes it, or the doctor could not check */
};

/* One policy clause: "gpus.count", "driver.version", "frameworks.torch",
 * "architectures.sm_90", "waivers[0]". */
struct check_clause {
	char *id;
	unsigned line; /* of the policy file; 0 for a clause every check has */
	enum check_status status;
	char *message; /* what was found, one line */
};

/* One rule of the catalogue as the policy judges it. */
enum check_rule_state {
	CHECK_RULE_PASS = 0, /* ran, no finding */
	CHECK_RULE_FAILS,    /* a finding at or above fail_on, not waived */
	CHECK_RULE_WAIVED,   /* a finding a valid waiver allows */
	CHECK_RULE_BELOW,    /* findings below fail_on */
	CHECK_RULE_PROFILE,  /* its layer is not judged in this profile */
	CHECK_RULE_NOT_RUN,  /* the doctor skipped it: could not read what it needs */
};
struct check_rule {
	const struct rule *rule;
	enum check_rule_state state;
	size_t waiver; /* index + 1 into the policy's waivers, 0 none */
	char *message; /* the first finding's message, the skip reason, or NULL */
};

/* One cell of the coverage matrix (check-coverage.c): a framework build's GPU code (its
 * kernel library and every GPU library its process loads, the weakest deciding, as the
 * framework rules judge it) on the snapshot's NVIDIA GPUs (the weakest GPU deciding) with its
 * driver: native, ptx-jit, no-kernel-image (lto_only: only LTO-IR, which never loads) … */
/* One LTO-IR entry of a cell judged against the nvJitLink found (check-lto.c). */
struct check_lto {
	char *target;	  /* "lto_90" */
	char *library;	  /* the framework's library that holds it; NULL: the cell's own file */
	int major, minor; /* its LTO-IR version; -1: not in its header (or not recorded) */
	enum ltoir_verdict verdict;
	bool unconfirmed; /* ltoir_result's: an order of rows, or an unconfirmed row */
	char *reason;	  /* ltoir_judge()'s */
};
/* LTO-IR entries listed per cell: a cuFFT or cuSPARSE wheel carries one per architecture. */
#define CHECK_CELL_LTO_MAX 32u

struct check_cell {
	char *subject; /* "torch 2.4.0+cu124 in /venv" */
	char *gpu;     /* "NVIDIA H100 80GB HBM3 (9.0)"; NULL: no NVIDIA GPU of known CC */
	enum coverage_verdict verdict; /* COVERAGE_NO_GPU_CODE: nothing judged (see reason) */
	bool lto_only, unconfirmed;
	char *reason; /* coverage_judge()'s, after the deciding library's name */
	/* its LTO-IR entries judged against the nvJitLink found (version, where it was found;
	 * NULL: none found), which never changes the verdict: whether the program links them at
	 * run time cannot be seen */
	struct check_lto *lto;
	size_t n_lto;
	bool lto_truncated; /* more than CHECK_CELL_LTO_MAX */
	char *nvjitlink, *nvjitlink_from;
};

/* A file the policy's architectures.binaries named, as gpuenv_policy_read_binaries()
 * (src/libgpuenv-check-binaries.c) read it with the scanner of `gpuenv scan`: its CUDA
 * targets, or why it has none. Plain data, so the judgement stays a pure function. */
struct check_binary {
	size_t pattern;		   /* index into the policy's arch_binaries */
	char *path;		   /* in the tree judged */
	char *error;		   /* could not be read or parsed: why; NULL when parsed */
	struct coverage_target *t; /* its CUDA targets; the names are owned (check_binaries_free) */
	size_t n;
	size_t n_amdgcn; /* AMDGPU code objects, which coverage_judge() does not judge */
	bool truncated;	 /* more targets than were kept */
	char cudart[16]; /* the CUDA runtime it links ("13") or bundles ("12.8"); "" none */
};
struct check_binaries {
	char *tree; /* what was read: "/", "--sysroot DIR", "--image FILE", "--wheel …" */
	struct check_binary *b;
	size_t n;
	char **unmatched; /* per pattern: NULL, or why no file of it was read */
	size_t n_patterns;
	/* an image's GPU libraries (src/libgpuenv-check-image-libs.c): no pattern; what was
	 * looked at and left out, for the summary */
	size_t n_candidates;   /* regular files named *.so or *.so.* in the tree */
	size_t n_over_cap;     /* ... past the cap, not read */
	size_t n_not_elf;      /* not ELF (a linker script named libc.so) */
	size_t n_without_code; /* ELF, no GPU code in its fat binaries */
	char *unread;	       /* what of an unpacked directory could not be listed, or NULL */
};
void check_binaries_free(struct check_binaries *bs);
/* Appends what the scanner read of f (src/scan/scan.h) to bs as a binary of pattern. 0, -ENOMEM. */
struct scan_file;
int check_binary_add(struct check_binaries *bs, size_t pattern, const struct scan_file *f);
/* src/libgpuenv-check-image-libs.c: in an image's tree (--image, --wheel), every shared
 * object's GPU code, kept as p->image_libraries; nothing elsewhere. 0, -ENOMEM. */
int check_read_image_libraries(struct gpuenv_policy *p, struct gpuenv_ctx *ctx);
/* Shared objects read in one image: a CUDA + PyTorch image holds a few hundred, a whole
 * distribution some thousands. Past the cap the rest are counted, not read (could not tell). */
#define CHECK_IMAGE_LIBS_MAX 20000u

/* The public struct gpuenv_check (include/gpuenv/gpuenv.h). */
struct gpuenv_check {
	const struct gpuenv_doctor *doctor; /* borrowed: outlives the check */
	const struct gpuenv_policy *policy; /* borrowed, likewise */
	char *policy_path;		    /* for SARIF/annotation locations, or NULL */
	char today[11];
	struct check_clause *clauses;
	size_t n_clauses;
	struct check_rule *rules;
	size_t n_rules;
	struct check_cell *cells;
	size_t n_cells;
	/* --redact (check-redact.c): what an output hides wherever it quotes it. Here only what
	 * other snapshots add (check_add_secrets()); the check's own snapshot's host names,
	 * serial numbers and UUIDs and its findings' identifying evidence are added by the
	 * redacting render (check_collect_secrets()) */
	char **secrets;
	enum gpuenv_check_result result;
	int err;
};

/* d and p are borrowed and must outlive the check; today is "YYYY-MM-DD" (waiver expiry).
 * 0, -EINVAL, -ENOMEM. */
int check_run(const struct gpuenv_doctor *d, const struct gpuenv_policy *p, const char *policy_path,
	      const char *today, struct gpuenv_check **ret);
struct gpuenv_check *check_free(struct gpuenv_check *c);
const char *check_status_name(enum check_status s);
const char *check_rule_state_name(enum check_rule_state s);
/* The finding of d behind rule entry r at or above its worst severity, or NULL. */
const struct finding *check_rule_finding(const struct gpuenv_check *c, const struct check_rule *r);
/* The rule is judged in the check's profile (build: the runtime and framework layers, less
 * the rules about the machine's driver and GPUs, check_build_host_excluded[]). */
bool check_rule_judged(const struct gpuenv_check *c, const struct rule *r);
extern const char *const check_build_host_excluded[];

/* check-target.c: the snapshot of the machine a `--target` string names (its GPUs and driver,
 * src/formats/target-spec.h), for snapshot_with_host(). 0; -EINVAL (a malformed string),
 * -ENOENT (a GPU, or host-cuda-compat's CUDA, the knowledge base does not know), each with *ret_why
 * (malloc'd: field and column for a malformed one); -ENOMEM. */
int check_target_snapshot(const char *spec, struct gpuenv_snapshot **ret, char **ret_why);

/* check-coverage.c: c->cells from the snapshot's framework builds and GPUs. 0, -ENOMEM. */
/* The targets of a list (arch_targets[] objects {target, ptx_isa}, or TensorFlow's
 * build_info strings) into t[0..max), borrowed from the snapshot; their count. */
size_t check_read_targets(const struct snap_node *tn, bool from_build_info,
			  struct coverage_target *t, size_t max);
int check_coverage(struct gpuenv_check *c, const struct snap_node *root);
/* A cell of c's matrix: res judged (who: the library that decided, or NULL), or, with res
 * NULL, nothing judged for why. 0, -ENOMEM. */
int check_add_cell(struct gpuenv_check *c, const char *subject, const char *gpu,
		   const struct coverage_result *res, const char *who, const char *why);
/* A clause of c with the message msg (copied). 0, -ENOMEM. */
int check_add_clause_text(struct gpuenv_check *c, const char *id, unsigned line,
			  enum check_status st, const char *msg);
/* check-image-libs.c: the image's GPU libraries (the policy's image_libraries) on the
 * snapshot's NVIDIA GPUs with module and driver (as check_binaries_cells()): a cell each and
 * the clause image.gpu_libraries. 0, -ENOMEM. */
int check_image_libraries(struct gpuenv_check *c, const struct snap_node *root, const char *module,
			  const char *driver);
/* check-binaries.c: b on one GPU of compute capability ma.mi: its code, then the driver. */
void check_judge_binary_on(const struct check_binary *b, unsigned ma, unsigned mi,
			   const char *module, const char *driver, struct coverage_result *res);
/* check-binaries.c: the named binaries' part of an architectures.<target> clause, appended
 * to text (len bytes); *fail set when one does not run there or could not be told. */
void check_binaries_on_target(const struct gpuenv_check *c, unsigned major, unsigned minor,
			      char *text, size_t len, bool *fail);
/* ... and their cells of the coverage matrix, on the snapshot's NVIDIA GPUs with module
 * (the loaded kernel module's version) and driver (the libcuda programs load). 0, -ENOMEM. */
int check_binaries_cells(struct gpuenv_check *c, const struct snap_node *root, const char *module,
			 const char *driver);
/* check-lto.c: appends a formatted text to the NUL-terminated text in text[len], cut at its end. */
void check_text_append(char *text, size_t len, const char *fmt, ...) _printf_(3, 4);
/* check-lto.c: the nvJitLink root's snapshot names: a toolkit's component version (version.json
 * `libnvjitlink`, the nvidia_nvjitlink dist-info, the file name) and each Python
 * environment's nvidia-nvjitlink wheel, the oldest of them deciding where there are several
 * (which one a program loads is not known); else the libnvJitLink the loader finds (its
 * file's version, or its soname's major). Its version into ver and where it was found into
 * from; returns ver, or NULL when none was found. */
const char *check_nvjitlink_found(const struct snap_node *root, char *ver, size_t vlen, char *from,
				  size_t flen);
/* check-lto.c: b's LTO-IR targets (lto_90, their LTO-IR version kept as the target's
 * ptx_major/minor) judged against the nvJitLink root's snapshot names (src/facts/ltoir.h),
 * appended to the text in buf ("; if it links its LTO-IR at run time: …"); nothing when b
 * has none. root NULL: no nvJitLink known. */
void check_lto_note(const struct snap_node *root, const struct check_binary *b, char *buf,
		    size_t len);
/* check-lto.c: the LTO-IR targets among t[0..n) (held by library, NULL: the cell's own file)
 * judged as check_lto_note() does, added to cell->lto[] (each entry once; past
 * CHECK_CELL_LTO_MAX counted as lto_truncated). 0, -ENOMEM. */
int check_cell_lto(struct check_cell *cell, const struct snap_node *root,
		   const struct coverage_target *t, size_t n, const char *library);
/* ... and their text appended to cell->reason, for a cell whose reason does not hold it yet
 * (a framework build's). 0, -ENOMEM. */
int check_cell_lto_reason(struct check_cell *cell);
void check_cell_lto_free(struct check_cell *cell);
/* "native", "ptx-jit", "no-kernel-image (LTO-IR only)", "no GPU code read", … */
const char *check_cell_label(const struct check_cell *cell);

/* check-redact.c: adds to *secrets what a redacting render hides: c->secrets, and the
 * identifying values of c's snapshot and findings. 0, -ENOMEM. */
int check_collect_secrets(const struct gpuenv_check *c, char ***secrets);
/* c->secrets from another snapshot (a target's own report, the other targets of a matrix). */
int check_add_secrets(struct gpuenv_check *c, const struct snap_node *root);
/* s as --redact shows it (malloc'd; NULL on OOM): home directories' user names
 * (/home/<user>/), then every secret of c and every UUID (8-4-4-4-12 hex digits) as
 * "<redacted>". c may be NULL: homes and UUIDs only. */
char *check_redact_text(const struct gpuenv_check *c, const char *s);
/* check_redact_text() of every string value in j (keys kept). 0, -ENOMEM. */
struct json_t;
int check_redact_json(const struct gpuenv_check *c, struct json_t *j);
